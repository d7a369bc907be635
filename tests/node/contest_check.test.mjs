// tools/contest-check.mjs, the independent checker of the contest's output files: hand-written
// graphs and files that pass, planted faults that fail with the right message, malformed inputs
// (exit 2), and end to end against the CLI's exports. Run: node --test tests/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../tools/contest-check.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHECKER = path.join(ROOT, 'tools/contest-check.mjs');
const CLI = process.env.SPILLWAY_CLI ?? path.join(ROOT, 'build/native/spillway');
const CASES = process.env.SPILLWAY_CASES ?? path.resolve(ROOT, '../shared/cases');

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-check-'));
process.on('exit', () => fs.rmSync(tmpRoot, { recursive: true, force: true }));
let tmpCount = 0;
const tmpDir = () => {
  const d = path.join(tmpRoot, String(tmpCount++));
  fs.mkdirSync(d);
  return d;
};

// ---- A small graph ----------------------------------------------------------------------------------
// Three 128-byte L1 buffers. b0 is loaded by a COPY_IN (a spill of it moves 128 bytes), b1 and
// b2 are computed (a spill moves 256).
const alloc = (Id, BufId) => ({ Id, Op: 'ALLOC', BufId, Size: 128, Type: 'L1' });
const free = (Id, BufId) => ({ Id, Op: 'FREE', BufId, Size: 128, Type: 'L1' });
const op = (Id, Op, Bufs) => ({ Id, Op, Pipe: Op === 'COPY_IN' ? 'MTE2' : 'VECTOR', Cycles: 10, Bufs });
const NODES = [
  alloc(0, 0), op(1, 'COPY_IN', [0]), alloc(2, 1), op(3, 'ADD', [0, 1]), alloc(4, 2),
  op(5, 'MUL', [1, 2]), op(6, 'SUB', [0, 2]), free(7, 1), free(8, 0), free(9, 2),
];
const EDGES = [[0, 1], [1, 3], [2, 3], [3, 5], [4, 5], [5, 6], [5, 7], [6, 8], [6, 9], [1, 6]];
// With the graph's own L1 = 256 two buffers fit at once, so b0 must leave while b2 is in use.
const GRAPH = { Nodes: NODES, Edges: EDGES, Capacities: { L1: 256 } };
const lines = (xs) => xs.join('\n') + '\n';

// Fits without spills when L1 = 512 (given by --caps, overriding the graph's 256).
const NO_SPILL = {
  args: ['--caps', 'L1=512'],
  schedule: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  memory: ['0:0', '1:128', '2:256'],
  spill: [],
};
// L1 = 256: spill 1 writes b0 out (node 10) before b2 arrives at its place and reads it back at
// 128 (node 11) once b1 is freed.
const ONE_SPILL = {
  args: [],
  schedule: [0, 1, 2, 3, 10, 4, 5, 7, 11, 6, 8, 9],
  memory: ['0:0', '1:128', '2:0'],
  spill: ['0:128'],
};
// As ONE_SPILL, plus spill 2 that writes b2 out after MUL (node 12) and back at 0 (node 13).
const TWO_SPILLS = {
  args: [],
  schedule: [0, 1, 2, 3, 10, 4, 5, 12, 7, 11, 13, 6, 8, 9],
  memory: ['0:0', '1:128', '2:0'],
  spill: ['0:128', '2:0'],
};

// The checker's CLI entry point, in this process (fast); spawnChecker runs the real command.
function runChecker(args) {
  let out = '', err = '';
  const code = main(args, { out: (t) => { out += t; }, err: (t) => { err += t; } });
  return { code, out, err };
}

function spawnChecker(args) {
  const r = spawnSync(process.execPath, [CHECKER, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Writes graph and files (arrays of lines, or raw strings) to a temp dir and runs the checker. */
function check({ graph = GRAPH, schedule, memory, spill, args = [], spawn = false }) {
  const dir = tmpDir();
  const graphPath = path.join(dir, 'graph.json');
  fs.writeFileSync(graphPath, typeof graph === 'string' ? graph : JSON.stringify(graph, null, 1));
  const out = path.join(dir, 'out');
  fs.mkdirSync(out);
  const put = (name, v) => { if (v !== undefined) fs.writeFileSync(path.join(out, name), typeof v === 'string' ? v : v.length ? lines(v) : ''); };
  put('schedule.txt', schedule);
  put('memory.txt', memory);
  put('spill.txt', spill);
  return (spawn ? spawnChecker : runChecker)([graphPath, out, ...args]);
}

/** Asserts exit 1 and that some violation line matches each pattern. */
function assertViolations(r, ...patterns) {
  assert.equal(r.code, 1, `expected exit 1, got ${r.code}\nstdout: ${r.out}\nstderr: ${r.err}`);
  const got = r.out.trim().split('\n');
  for (const p of patterns)
    assert.ok(got.some((l) => p.test(l)), `no violation matches ${p}; got:\n${r.out}`);
  return got;
}

function assertOk(r, nodes, spills, bytes) {
  assert.equal(r.code, 0, `expected exit 0, got ${r.code}\nstdout: ${r.out}\nstderr: ${r.err}`);
  assert.equal(r.out.trim(), `ok: ${nodes} nodes, ${spills} spills, extra data moved ${bytes} bytes`);
}

const swapped = (xs, a, b) => {
  const ys = [...xs];
  const i = ys.indexOf(a), j = ys.indexOf(b);
  [ys[i], ys[j]] = [ys[j], ys[i]];
  return ys;
};

// ---- Valid files ------------------------------------------------------------------------------------

test('valid without spills (--caps overrides the graph\'s Capacities)', () => {
  assertOk(check(NO_SPILL), 10, 0, 0);
});

test('valid with one spill of a COPY_IN buffer: Size bytes moved', () => {
  assertOk(check(ONE_SPILL), 10, 1, 128);
});

test('valid with two spills: a computed buffer moves 2*Size', () => {
  assertOk(check(TWO_SPILLS), 10, 2, 128 + 256);
});

test('default capacities apply without the graph\'s and --caps', () => {
  const graph = { Nodes: NODES, Edges: EDGES };
  assertOk(check({ ...NO_SPILL, graph, args: [] }), 10, 0, 0);
  // L1 is 4096 by default: 3968 + 128 fits, 4000 + 128 does not.
  assertOk(check({ ...NO_SPILL, graph, args: [], memory: ['0:0', '1:128', '2:3968'] }), 10, 0, 0);
  assertViolations(check({ ...NO_SPILL, graph, args: [], memory: ['0:0', '1:128', '2:4000'] }),
    /buffer 2 .*\[4000, 4128\), outside L1 \[0, 4096\)/);
});

test('blank lines and CRLF line ends are accepted', () => {
  assertOk(check({ ...ONE_SPILL, schedule: ONE_SPILL.schedule.join('\r\n') + '\r\n\r\n', memory: '0: 0\n\n1:128\n2:0' }), 10, 1, 128);
});

// ---- Planted faults ---------------------------------------------------------------------------------

test('overlap: two resident buffers share bytes', () => {
  const got = assertViolations(check({ ...NO_SPILL, memory: ['0:0', '1:128', '2:200'] }),
    /^node 4 \(ALLOC of buffer 2\) at .*schedule\.txt line 5 \(.*memory\.txt line 3\) places buffer 2 \(128 bytes of L1\) at \[200, 328\), overlapping resident buffer 1 at \[128, 256\)$/);
  assert.equal(got.length, 1, got.join('\n'));
});

test('overlap: a SPILL_IN reloads onto a resident buffer', () => {
  assertViolations(check({ ...ONE_SPILL, spill: ['0:64'] }),
    /node 11 \(SPILL_IN of spill 1 \(.*spill\.txt line 1, buffer 0\)\) .*places buffer 0 .*\[64, 192\), overlapping resident buffer 2 at \[0, 128\)/);
});

test('out of bounds: past the capacity, and negative', () => {
  assertViolations(check({ ...NO_SPILL, memory: ['0:0', '1:128', '2:400'] }),
    /node 4 \(ALLOC of buffer 2\) .*\[400, 528\), outside L1 \[0, 512\)/);
  assertViolations(check({ ...ONE_SPILL, spill: ['0:-8'] }), /SPILL_IN .*buffer 0 .*\[-8, 120\), outside L1 \[0, 256\)/);
});

test('use while spilled out', () => {
  const got = assertViolations(check({ ...ONE_SPILL, schedule: swapped(ONE_SPILL.schedule, 11, 6) }),
    /^node 6 \(SUB\) at .*schedule\.txt line 9 uses buffer 0 while it is spilled out \(by spill 1 .*\)/);
  assert.equal(got.length, 1, got.join('\n'));
});

test('FREE while spilled out: the SPILL_IN must come first', () => {
  // Spill 2 writes b2 out after its last use and reads it back only after its FREE.
  assertViolations(check({ ...ONE_SPILL, schedule: [0, 1, 2, 3, 10, 4, 5, 7, 11, 6, 12, 8, 9, 13], spill: ['0:128', '2:0'] }),
    /^node 9 \(FREE of buffer 2\) at .*line 13 frees buffer 2 while it is spilled out .*SPILL_IN must bring it back before the FREE/,
    /order breaks spill edge SPILL_IN->FREE of spill 2 .*buffer 2/);
});

test('a node missing from the schedule', () => {
  assertViolations(check({ ...NO_SPILL, schedule: NO_SPILL.schedule.filter((x) => x !== 5) }),
    /schedule\.txt: node 5 \(MUL\) is missing/);
  assertViolations(check({ ...ONE_SPILL, schedule: ONE_SPILL.schedule.filter((x) => x !== 11) }),
    /schedule\.txt: node 11 \(SPILL_IN of spill 1 .*\) is missing/,
    /node 9 \(FREE of buffer 2\)|node 8 \(FREE of buffer 0\) .*frees buffer 0 while it is spilled out/);
});

test('a node twice, and a node that does not exist', () => {
  assertViolations(check({ ...NO_SPILL, schedule: [...NO_SPILL.schedule, 3] }),
    /schedule\.txt line 11: node 3 \(ADD\) appears again \(first at line 4\)/);
  assertViolations(check({ ...NO_SPILL, schedule: [...NO_SPILL.schedule, 10] }),
    /schedule\.txt line 11: node 10 is neither a graph node \(0\.\.9\) nor a spill node/);
});

test('wrong spill id order: spill.txt lines swapped', () => {
  // Node 10 is now spill 1's SPILL_OUT, of b2, which is not allocated yet at that point.
  assertViolations(check({ ...TWO_SPILLS, spill: ['2:0', '0:128'] }),
    /order breaks spill edge ALLOC->SPILL_OUT of spill 1 \(.*spill\.txt line 1, buffer 2\)/,
    /node 10 \(SPILL_OUT of spill 1 .*buffer 2\)\) .* writes out buffer 2 before its ALLOC/);
});

test('wrong spill id order: SPILL_IN before its SPILL_OUT', () => {
  assertViolations(check({ ...ONE_SPILL, schedule: swapped(ONE_SPILL.schedule, 10, 11) }),
    /order breaks spill edge SPILL_OUT->SPILL_IN of spill 1 .*: node 11 .* comes before node 10/,
    /node 11 \(SPILL_IN .* reloads buffer 0 while it is resident/);
});

test('order breaking an edge', () => {
  const got = assertViolations(check({ ...NO_SPILL, schedule: swapped(NO_SPILL.schedule, 5, 6) }),
    /^order breaks edge 5->6 \(Edges\[5\]\): node 6 \(SUB\) at .*schedule\.txt line 6 comes before node 5 \(MUL\) at .*line 7$/);
  assert.equal(got.length, 1, got.join('\n'));
});

test('memory.txt: a buffer missing, repeated, or unknown; spill.txt: unknown buffer', () => {
  assertViolations(check({ ...NO_SPILL, memory: ['0:0', '1:128', '1:256', '7:0'] }),
    /memory\.txt: buffer 2 has no line/,
    /memory\.txt line 3: buffer 1 appears again \(first at line 2\)/,
    /memory\.txt line 4: buffer 7 does not exist/);
  assertViolations(check({ ...ONE_SPILL, spill: ['9:128'] }),
    /spill\.txt line 1: spill 1 names buffer 9, which does not exist/);
});

test('every violation is reported, one line each', () => {
  const r = check({ ...NO_SPILL, schedule: swapped(NO_SPILL.schedule, 5, 6), memory: ['0:0', '1:128', '2:400'] });
  const got = assertViolations(r, /edge 5->6/, /outside L1/);
  assert.equal(got.length, 2, got.join('\n'));
  assert.match(r.err, /2 violations/);
});

test('the command line: exit 0, 1 and 2 from a real process', () => {
  assertOk(check({ ...ONE_SPILL, spawn: true }), 10, 1, 128);
  const r = check({ ...NO_SPILL, schedule: swapped(NO_SPILL.schedule, 5, 6), spawn: true });
  assertViolations(r, /^order breaks edge 5->6/);
  assert.match(r.err, /1 violation\b/);
  const bad = check({ ...NO_SPILL, memory: '0:0\n1:x\n', spawn: true });
  assert.equal(bad.code, 2);
  assert.match(bad.err, /^contest-check: .*memory\.txt line 2: expected BufId:Offset/);
  const usage = spawnChecker([]);
  assert.equal(usage.code, 2);
  assert.match(usage.err, /usage: node tools\/contest-check\.mjs GRAPH\.json DIR/);
});

// ---- Malformed input: exit 2, naming file and line --------------------------------------------------

test('malformed or unreadable files exit 2 naming file and line', () => {
  let r = check({ ...NO_SPILL, schedule: '0\n1\nabc\n' });
  assert.equal(r.code, 2);
  assert.match(r.err, /schedule\.txt line 3: expected one node id, got "abc"/);

  r = check({ ...NO_SPILL, memory: '0:0\n1=128\n' });
  assert.equal(r.code, 2);
  assert.match(r.err, /memory\.txt line 2: expected BufId:Offset/);

  r = check({ ...ONE_SPILL, spill: '0:x\n' });
  assert.equal(r.code, 2);
  assert.match(r.err, /spill\.txt line 1: expected BufId:NewOffset/);

  r = check({ ...NO_SPILL, spill: undefined });
  assert.equal(r.code, 2);
  assert.match(r.err, /cannot read .*spill\.txt/);

  r = check({ ...NO_SPILL, graph: '{\n "Nodes": [\n  {"Id": 0,}\n ]\n}\n' });
  assert.equal(r.code, 2);
  assert.match(r.err, /graph\.json line 3: not valid JSON/);

  // A structural fault names the line where that node starts (JSON.stringify(…, null, 1) puts
  // Nodes[i] at line 3 + 7i for this graph's layout, so find it rather than assume).
  const bad = structuredClone(GRAPH);
  bad.Nodes[4].Size = -1;
  const text = JSON.stringify(bad, null, 1);
  const line = text.slice(0, text.indexOf('"Size": -1')).split('\n').length;
  r = check({ ...NO_SPILL, graph: text });
  assert.equal(r.code, 2);
  const m = /graph\.json line (\d+): Nodes\[4\] "Size" must be a positive integer, got -1/.exec(r.err);
  assert.ok(m, r.err);
  assert.ok(Number(m[1]) <= line && Number(m[1]) >= line - 5, `line ${m[1]} vs Size at ${line}`);

  r = check({ ...NO_SPILL, args: ['--caps', 'L1=big'] });
  assert.equal(r.code, 2);
  assert.match(r.err, /--caps entry "L1=big"/);

  r = check({ ...NO_SPILL, graph: { Nodes: [...NODES, alloc(10, 5)], Edges: EDGES } });
  assert.equal(r.code, 2);
  assert.match(r.err, /buffer 5 has an ALLOC \(node 10\) but no FREE/);
});

// ---- End to end: the CLI's exports pass the checker -------------------------------------------------

function cli(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  assert.equal(r.status, 0, `spillway ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

function requireCli() {
  assert.ok(fs.existsSync(CLI),
    `${CLI} is missing: build it first (cmake -S . -B build/native -G Ninja && cmake --build build/native; npm test does this)`);
}

function extraBytesOf(summary) {
  const m = /^extra data moved: (\d+) bytes$/m.exec(summary);
  assert.ok(m, `no "extra data moved" line in:\n${summary}`);
  return Number(m[1]);
}

function assertCheckerAgrees(graphPath, dir, summary) {
  const r = runChecker([graphPath, dir]);
  assert.equal(r.code, 0, `checker rejects the export of ${graphPath}:\n${r.out}${r.err}`);
  const m = /^ok: \d+ nodes, \d+ spills, extra data moved (\d+) bytes$/.exec(r.out.trim());
  assert.ok(m, r.out);
  assert.equal(Number(m[1]), extraBytesOf(summary), `extra bytes differ for ${graphPath}`);
}

test('end to end: the CLI\'s exports of the contest cases pass, same extra bytes', async (t) => {
  requireCli();
  if (!fs.existsSync(CASES)) { t.skip(`${CASES} absent`); return; }
  for (const name of ['Matmul_Case0', 'FlashAttention_Case0', 'Conv_Case0']) {
    for (const cost of ['contest', 'seed']) {
      await t.test(`${name} --cost ${cost}`, () => {
        const graphPath = path.join(CASES, `${name}.json`);
        const dir = tmpDir();
        const summary = cli(['plan', graphPath, '--order', 'id', '--cost', cost, '--export', dir]);
        assertCheckerAgrees(graphPath, dir, summary);
      });
    }
  }
});

test('end to end: the CLI\'s built-in example passes, same extra bytes', () => {
  requireCli();
  const name = cli(['examples']).split('\n')[0].trim().split(/\s+/)[0];
  assert.ok(name, 'spillway examples printed nothing');
  const dir = tmpDir();
  const graphPath = path.join(dir, `${name}.json`);
  fs.writeFileSync(graphPath, cli(['example', name]));
  const out = path.join(dir, 'out');
  const summary = cli(['plan', '--export', out]);
  assertCheckerAgrees(graphPath, out, summary);
});

test('the graph\'s Capacities replace the defaults whole, as in the engine', async () => {
  const { parseGraph, InputError } = await import('../../tools/contest-check.mjs');
  const graph = JSON.stringify({
    Capacities: { L1: 4096 },
    Nodes: [
      { Id: 0, Op: 'ALLOC', BufId: 0, Size: 16, Type: 'UB' },
      { Id: 1, Op: 'ADD', Pipe: 'VECTOR', Cycles: 1, Bufs: [0] },
      { Id: 2, Op: 'FREE', BufId: 0, Size: 16, Type: 'UB' },
    ],
    Edges: [[0, 1], [1, 2]],
  });
  assert.throws(() => parseGraph(graph), (e) => e instanceof InputError && /has Type "UB", which has no capacity/.test(e.message));
  assert.equal(parseGraph(graph, 'graph', { UB: 64 }).caps.UB, 64);
});
