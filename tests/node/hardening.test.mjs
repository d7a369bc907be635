// The WebAssembly bindings under hostile input: every failure comes back as the JSON error with a
// structured place ("where", docs/result-format.md), the module stays usable and leaks nothing
// across 1,000 failing calls, and verify() reports every lie a tampered result tells.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cli, loadEngine } from './engine.mjs';

let engine;
before(async () => { engine = await loadEngine(); });

const A0 = { Id: 0, Op: 'ALLOC', BufId: 0, Size: 100, Type: 'L1' };
const U1 = { Id: 1, Op: 'COPY_IN', Pipe: 'MTE2', Cycles: 10, Bufs: [0] };
const F2 = { Id: 2, Op: 'FREE', BufId: 0, Size: 100, Type: 'L1' };
const small = (extra = {}) => JSON.stringify({ Nodes: [A0, U1, F2], Edges: [[0, 1], [1, 2]], ...extra });

/** Parses an engine answer that must be an input error; checks its shape and returns it. */
function inputError(text) {
  const r = JSON.parse(text);
  assert.ok(r.error, `expected an error, got ${text.slice(0, 200)}`);
  assert.equal(r.error.kind, 'input', r.error.message);
  assert.equal(typeof r.error.message, 'string');
  assert.ok(!/[\n\r]/.test(r.error.message), 'one line');
  assert.ok(r.error.message.length < 400, `message of ${r.error.message.length} characters`);
  assert.ok(!r.error.message.includes('\ufffd\ufffd\ufffd\ufffd'), 'no runs of replaced bytes');
  assert.equal(typeof r.error.where, 'object');
  return r.error;
}

// Hostile calls, each returning the engine's answer; `big` sets the size of the large ones (1 MB
// once, smaller in the 1,000-call loop so that it stays quick). Texts are built once.
function hostileCalls(big) {
  const deep = big >> 2;
  const text = {
    deepEdges: `{"Nodes":[],"Edges":${'['.repeat(deep)}${']'.repeat(deep)}}`,
    deepOrder: `{"Nodes":[],"Order":${'['.repeat(deep)}}`,
    deepUnknown: `{"Nodes":[],"X":${'{"a":'.repeat(deep >> 2)}1${'}'.repeat(deep >> 2)}}`,
    deepOptions: `{"order":${'['.repeat(deep)}}`,
    number: `{"Nodes":[{"Id":${'9'.repeat(big)}}]}`,
    string: `{"Nodes":[{"Id":0,"Op":"${'x'.repeat(big)}"}]}`,
    manyCaps: JSON.stringify({ capacities: Object.fromEntries(Array.from({ length: big >> 4 }, (_, i) => [`M${i}`, 1])) }),
    oddPolicy: JSON.stringify({ policy: '\u0001\u00ff\u{1F600}'.repeat(50) }),
    cycle: JSON.stringify({ Nodes: [A0, U1, F2], Edges: [[0, 1], [1, 2], [2, 1]] }),
    useBeforeAlloc: JSON.stringify({ Nodes: [A0, U1, F2], Edges: [[1, 0]] }),
    emptyNameCaps: small({ Capacities: { '': 5, L1: 4096 } }),
  };
  return [
    ['deep Edges', () => engine.plan(text.deepEdges, '{}')],
    ['deep Order', () => engine.plan(text.deepOrder, '{}')],
    ['deep unknown field', () => engine.plan(text.deepUnknown, '{}')],
    ['deep options', () => engine.plan(small(), text.deepOptions)],
    ['NUL then garbage', () => engine.plan(`${small()}\u0000garbage`, '{}')],
    ['a huge number', () => engine.plan(text.number, '{}')],
    ['a huge string Op', () => engine.plan(text.string, '{}')],
    ['a lone surrogate in options', () => engine.plan(small(), '{"policy":"\ud800"}')],
    ['a lone surrogate in the graph', () => engine.plan('{"Nodes":[{"Id":0,"Op":"\udfff"}]}', '{}')],
    ['an unknown policy with odd characters', () => engine.plan(small(), text.oddPolicy)],
    ['a capacity for ""', () => engine.plan(small(), '{"capacities":{"":5,"L1":4096}}')],
    ['a graph capacity for ""', () => engine.plan(text.emptyNameCaps, '{}')],
    ['thousands of capacity rows', () => engine.plan(small(), text.manyCaps)],
    ['cycles per byte beyond the limit', () => engine.plan(small(), '{"cost":{"model":"seed","cyclesPerByte":1048577}}')],
    ['a fixed latency beyond the limit', () => engine.plan(small(), '{"cost":{"model":"seed","fixedLatency":4294967297}}')],
    ['a cycle', () => engine.plan(text.cycle, '{}')],
    ['a use before ALLOC', () => engine.plan(text.useBeforeAlloc, '{}')],
    ['a missing capacity', () => engine.plan(small(), '{"capacities":{"UB":64}}')],
    ['empty text', () => engine.plan('', '{}')],
    ['an array', () => engine.plan('[1,2,3]', '{}')],
    ['trailing comma', () => engine.plan('{"Nodes":[],}', '{}')],
    ['a result that is not JSON', () => engine.verify(small(), '{"format":2,', '{}')],
    ['a deep result', () => engine.verify(small(), `{"format":2,"order":${'['.repeat(100)}}`, '{}')],
    ['a result without metrics', () => engine.verify(small(), '{"format":2,"cost":{"model":"contest"},"inputOrder":[],"allocations":[],"spills":[],"order":[],"addedNodes":[],"addedEdges":[],"timing":[]}', '{}')],
    ['a result of another format', () => engine.verify(small(), '{"format":1}', '{}')],
    ['compare on a bad graph', () => engine.compare('{"Nodes":5}', '{}')],
    ['metrics with a bad order', () => engine.metrics(small(), '{"order":[0,0,0]}')],
    ['an unknown example', () => engine.example('nope\u0000\ud800')],
    ['a graph that is a number', () => engine.plan(42, '{}')],
    ['options that are null', () => engine.plan(small(), null)],
    ['a result that is an object', () => engine.verify(small(), {}, '{}')],
    ['a CSV that is undefined', () => engine.pack(undefined, '{"capacity":8}')],
  ];
}

test('every hostile call returns the JSON error, one short line, with a place', () => {
  for (const [what, call] of hostileCalls(1 << 20)) {
    const e = inputError(call());
    assert.ok(e.message.length > 10, what);
  }
});

test('1,000 failing calls: the module stays usable and its memory does not grow', () => {
  const graph = engine.example('one-spill');
  const expected = engine.plan(graph, '{}');
  const hostile = hostileCalls(1 << 14);
  for (const [, call] of hostile) call();  // warm up: the heap grows to its working size once
  const heapBefore = engine.HEAP8.buffer.byteLength;
  const inUseBefore = engine.heapInUse();
  for (let i = 0; i < 1000; ++i) inputError(hostile[i % hostile.length][1]());
  assert.equal(engine.heapInUse(), inUseBefore, 'bytes held by the allocator after 1,000 failures');
  assert.equal(engine.HEAP8.buffer.byteLength, heapBefore, 'WebAssembly memory size');
  assert.equal(engine.plan(graph, '{}'), expected);
});

test('where: the places of errors about the graph text', () => {
  let e = inputError(engine.plan('{"Nodes": [\n  {"Id": "5", "Op": "NOP"}]}', '{}'));
  assert.deepEqual(e.where, { source: 'graph', line: 2, column: 10, nodeIndex: 0, field: 'Id' });

  // A missing edge target names the edge and no node (there is none to go to).
  e = inputError(engine.plan(JSON.stringify({ Nodes: [A0, U1, F2], Edges: [[0, 1], [1, 9]] }), '{}'));
  assert.deepEqual(e.where, { source: 'graph', line: 1, column: 197, field: 'Edges[1][1]', edge: 1 });
  assert.match(e.message, /Edges\[1\]: its dst 9 is the Id of no node/);

  e = inputError(engine.plan(JSON.stringify({ Nodes: [A0, U1, F2], Edges: [[0, 1], [1, 2], [2, 1]] }), '{}'));
  assert.deepEqual(e.where.cycle, [2, 1]);
  assert.equal(e.where.edge, 2);
  assert.match(e.message, /the edges form a cycle: 2 -> 1 -> 2$/);

  // A use before its buffer's ALLOC is said so, not called a cycle.
  e = inputError(engine.plan(JSON.stringify({ Nodes: [A0, U1, F2], Edges: [[1, 0]] }), '{}'));
  assert.doesNotMatch(e.message, /cycle/);
  assert.match(e.message, /node 1 uses buffer 0 but the edges make it run before the buffer's ALLOC \(node 0\)/);
  assert.deepEqual(e.where, { source: 'graph', line: 1, column: 191, node: 1, nodeIndex: 1, buffer: 0, edge: 0 });

  // A trailing comma is reported at the comma.
  e = inputError(engine.plan(small().replace('[[0,1],[1,2]]', '[[0,1],\n [1,2],]'), '{}'));
  assert.deepEqual(e.where, { source: 'graph', line: 2, column: 7 });
  assert.match(e.message, /trailing comma/);

  // No CLI syntax in the bindings: the memory is in where.
  e = inputError(engine.plan(small(), '{"capacities":{"UB":64}}'));
  assert.equal(e.message, 'line 1, column 11: node 0: buffer 0 has Type "L1", which has no capacity: give memory L1 a capacity');
  assert.deepEqual(e.where, { source: 'graph', line: 1, column: 11, node: 0, nodeIndex: 0, field: 'Type', buffer: 0, memory: 'L1' });

  // An Order entry in the graph: located at the entry.
  e = inputError(engine.plan(small({ Order: [0, 2, 1] }), '{}'));
  assert.equal(e.where.step, 1);
  assert.equal(e.where.field, 'Order[1]');
  assert.equal(e.where.line, 1);
});

test('where: text that is not a string names its parameter; non-ASCII text crosses both ways', () => {
  let e = inputError(engine.plan(42, '{}'));
  assert.equal(e.message, 'graphJson: expected text (a string), got number');
  assert.deepEqual(e.where, { source: 'graph', field: 'graphJson' });
  e = inputError(engine.verify(small(), new Uint8Array(4), '{}'));
  assert.deepEqual(e.where, { source: 'result', field: 'resultJson' });
  e = inputError(engine.example(['tiled-matmul']));
  assert.deepEqual(e.where, { field: 'name' });

  // Two-, three- and four-byte UTF-8 in the input come back whole in the message.
  e = inputError(engine.plan(small(), JSON.stringify({ policy: 'é→😀' })));
  assert.match(e.message, /unknown policy "é→😀"/);
});

test('where: limits are named with their maximum', () => {
  let e = inputError(engine.plan(`{"Nodes":[],"X":${'['.repeat(40)}${']'.repeat(40)}}`, '{}'));
  assert.deepEqual(e.where.limit, { name: 'depth', max: 32 });
  assert.deepEqual([e.where.line, e.where.column], [1, 48]);  // the 33rd '['
  e = inputError(engine.plan(`{"Nodes":[],"Edges":${'['.repeat(100000)}${']'.repeat(100000)}}`, '{}'));
  assert.equal(e.message, 'line 1, column 23: Edges[0] must be [src, dst] with two node ids, got an array');
  e = inputError(engine.plan(small(), JSON.stringify({ capacities: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`M${i}`, 1])) })));
  assert.deepEqual(e.where.limit, { name: 'memories', max: 256 });
  assert.equal(e.where.source, 'options');
  e = inputError(engine.plan(small(), '{"cost":{"model":"seed","cyclesPerByte":1048577}}'));
  assert.deepEqual(e.where.limit, { name: 'cyclesPerByte', max: 1048576 });
  assert.equal(e.where.field, 'cost.cyclesPerByte');
  // A huge buffer and the largest cycles per byte: the spill would take 2^56 cycles.
  const big = JSON.stringify({ Nodes: [{ ...A0, Size: 2 ** 36 }, U1, { ...F2, Size: 2 ** 36 }], Edges: [[0, 1], [1, 2]] });
  e = inputError(engine.plan(big, `{"capacities":{"L1":${2 ** 36}},"cost":{"model":"seed","cyclesPerByte":1048576}}`));
  assert.deepEqual(e.where.limit, { name: 'spillCycles', max: 2 ** 39 });
  assert.equal(e.where.buffer, 0);
  e = inputError(engine.plan(small(), '{"capacities":{"":5}}'));
  assert.deepEqual(e.where, { source: 'options', line: 1, column: 16, field: 'capacities.', memory: '' });
});

test('a graph above the browser\'s node limit: a clear error naming both sizes, not an abort', () => {
  const max = engine.browserMaxNodes();
  assert.equal(max, 600000);
  // Buffers of one COPY_IN each (ALLOC, COPY_IN, FREE), one line per node: one buffer over.
  const buffers = max / 3 + 1;
  const nodes = [];
  for (let b = 0; b < buffers; ++b) {
    const id = 3 * b;
    nodes.push(`{"Id":${id},"Op":"ALLOC","BufId":${b},"Size":8,"Type":"L1"}`,
      `{"Id":${id + 1},"Op":"COPY_IN","Pipe":"MTE2","Cycles":1,"Bufs":[${b}]}`,
      `{"Id":${id + 2},"Op":"FREE","BufId":${b},"Size":8,"Type":"L1"}`);
  }
  const graph = `{"Nodes":[\n${nodes.join(',\n')}\n],"Edges":[]}`;
  const heap = engine.heapInUse();
  for (const call of [() => engine.plan(graph, '{}'), () => engine.compare(graph, '{}'), () => engine.metrics(graph, '{}')]) {
    const e = inputError(call());
    assert.equal(e.message, `line ${max + 2}, column 1: the graph is too large for the browser (${3 * buffers} nodes, limit ${max}): plan it with the command-line tool (spillway plan)`);
    assert.deepEqual(e.where, { source: 'graph', line: max + 2, column: 1, limit: { name: 'browserNodes', max } });
  }
  assert.ok(engine.heapInUse() <= heap + 4096, 'the refused graph left nothing behind');
  // One buffer fewer is exactly at the limit and is read (metrics on the ascending-id order).
  const within = JSON.parse(engine.metrics(`{"Nodes":[\n${nodes.slice(0, max).join(',\n')}\n],"Edges":[]}`, '{"order":"id"}'));
  assert.equal(within.order.length, max);
  assert.equal(within.demandPeak.total, 8);
});

// ---- verify() against falsified results -------------------------------------------------------

function planned() {
  const graph = engine.example('one-spill');
  const text = engine.plan(graph, '{"order":"schedule"}');
  const result = JSON.parse(text);
  assert.ok(result.spills.length > 0);
  assert.deepEqual(JSON.parse(engine.verify(graph, text, '{}')), { violations: [] });
  return { graph, result };
}

function violationsOf(graph, result) {
  const r = JSON.parse(engine.verify(graph, JSON.stringify(result), '{}'));
  assert.ok(r.violations, JSON.stringify(r));
  return r.violations;
}

const lies = [
  ['a spill count', (r) => { r.metrics.spills += 1; }, { kind: 'metrics', field: 'metrics.spills' }],
  ['extra bytes', (r) => { r.metrics.extraBytes -= 1; }, { kind: 'metrics', field: 'metrics.extraBytes' }],
  ['total cycles', (r) => { r.metrics.totalCycles = 1; }, { kind: 'metrics', field: 'metrics.totalCycles' }],
  ['a resident peak', (r) => { const k = Object.keys(r.metrics.residentPeak)[0]; r.metrics.residentPeak[k] -= 1; }, { kind: 'metrics' }],
  ['a demand peak', (r) => { r.metrics.demandPeak.total += 1; }, { kind: 'metrics', field: 'metrics.demandPeak.total' }],
  ['a start time', (r) => { r.timing[r.timing.length - 1][1] -= 1; }, { kind: 'timing' }],
  ['a spill node\'s cycles', (r) => { r.addedNodes[0].Cycles += 1; }, { kind: 'spill-cycles', node: null }],
  ['the cost model', (r) => { r.cost = { model: 'seed', fixedLatency: 0, cyclesPerByte: 1 }; }, { kind: 'spill-cycles' }],
  ['renumbered spills', (r) => { const s = r.spills[0]; [s.outNode, s.inNode] = [s.inNode, s.outNode]; }, { kind: 'spill-ids', spill: 0 }],
  ['an extra added edge', (r) => { r.addedEdges.push([r.spills[0].inNode, r.spills[0].outNode + 1000]); }, { kind: 'edges' }],
  ['an edge id above 2^32', (r) => { r.addedEdges.push([2 ** 32 + r.spills[0].outNode, r.spills[0].inNode]); }, { kind: 'edges', field: `addedEdges[` }],
  ['the input order', (r) => { r.inputOrder.reverse(); }, { kind: 'order' }],
];

for (const [what, tamper, want] of lies) {
  test(`verify() reports a falsified ${what}`, () => {
    const { graph, result } = planned();
    tamper(result);
    const vs = violationsOf(graph, result);
    const hit = vs.find((v) => v.kind === want.kind);
    assert.ok(hit, `no ${want.kind} violation in ${JSON.stringify(vs)}`);
    if (want.field) assert.ok(hit.field.startsWith(want.field), JSON.stringify(hit));
    if ('spill' in want) assert.equal(hit.spill, want.spill);
    if (want.node === null) assert.equal(typeof hit.node, 'number');
  });
}

test('verify(): an edge id above 2^32 is named whole, not truncated', () => {
  const { graph, result } = planned();
  const id = 2 ** 32 + result.spills[0].outNode;
  result.addedEdges.push([id, result.spills[0].inNode]);
  const vs = violationsOf(graph, result);
  assert.ok(vs.some((v) => v.kind === 'edges' && v.message.includes(String(id))), JSON.stringify(vs));
});

// ---- calls of any shape ---------------------------------------------------------------------

test('a wrong argument count is the JSON error, never embind\'s BindingError; extra ones to a function without parameters are ignored', () => {
  const withParameters = {
    plan: 2, planWithProgress: 3, verify: 3, metrics: 2, compare: 2, pack: 2, example: 1,
  };
  for (const [name, count] of Object.entries(withParameters)) {
    for (const given of [0, count - 1, count + 1]) {
      const args = Array.from({ length: given }, () => '{}');
      const e = inputError(engine[name](...args));
      assert.equal(e.message, `${name}() takes ${count} arguments, got ${given}`);
      assert.deepEqual(e.where, { field: 'arguments' });
    }
  }
  assert.equal(engine.version('extra', 1), engine.version());
  assert.equal(engine.policies(undefined), engine.policies());
  assert.equal(engine.browserMaxNodes(1, 2, 3), 600000);
  assert.equal(typeof engine.heapInUse('x'), 'number');
  assert.equal(engine.example('one-spill').length > 100, true);
});

test('planWithProgress: an onProgress that is no function, or throws, is the JSON error; the module stays usable', () => {
  const graph = engine.example('flash-attention-like');
  let e = inputError(engine.planWithProgress(graph, '{"order":"search","effort":300}', 5));
  assert.equal(e.message, 'onProgress: expected a function, got number');
  assert.deepEqual(e.where, { field: 'onProgress' });
  let calls = 0;
  e = inputError(engine.planWithProgress(graph, '{"order":"search","effort":300}', () => { calls += 1; throw new Error('the page went away'); }));
  assert.equal(e.message, 'onProgress threw: the page went away');
  assert.equal(calls, 1, 'the search stopped at the first report');
  const plan = engine.plan(graph, '{"order":"search","effort":300}');
  assert.equal(engine.planWithProgress(graph, '{"order":"search","effort":300}', () => true), plan);
});

test('frontierWithProgress: an onFront that is no function, or throws, is the JSON error; the module stays usable', () => {
  const graph = engine.example('one-spill');
  let e = inputError(engine.frontierWithProgress(graph, '{}', 'f'));
  assert.equal(e.message, 'onFront: expected a function, got string');
  assert.deepEqual(e.where, { field: 'onFront' });
  e = inputError(engine.frontierWithProgress(graph, '{}', () => { throw new Error('closed'); }));
  assert.equal(e.message, 'onFront threw: closed');
  assert.equal(engine.frontierWithProgress(graph, '{}', () => {}), engine.frontier(graph, '{}'));
});

test('a result over the resultBytes limit is the JSON error naming it, and the module stays usable', () => {
  // A genuine graph well inside the input limits (13,756 nodes, 3.6 MB): 128 one-byte buffers,
  // each of 13,500 operations using 64 of them in 64 bytes. Its seed plan in id order spills
  // about 357,000 times, a 333 MB result (the CLI writes it).
  const graph = execFileSync(cli, ['generate', 'thrash', '128', '13500', '64'], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const heap = engine.heapInUse();
  const e = inputError(engine.plan(graph, '{"policy":"seed","order":"id"}'));
  assert.equal(e.message, `the result is larger than ${2 ** 28} bytes, more than the browser can take: plan it with the command-line tool (spillway plan) (limit resultBytes = ${2 ** 28})`);
  assert.deepEqual(e.where, { limit: { name: 'resultBytes', max: 2 ** 28 } });
  assert.ok(engine.heapInUse() <= heap + 65536, 'the refused result left nothing behind');
  const fewer = execFileSync(cli, ['generate', 'thrash', '128', '300', '64'], { encoding: 'utf8' });
  const r = JSON.parse(engine.plan(fewer, '{"policy":"seed","order":"id"}'));
  assert.equal(r.decisionsBrief, true);
  assert.deepEqual(JSON.parse(engine.verify(fewer, JSON.stringify(r), '{}')), { violations: [] });
});
