// The CLI as a user meets it: exit codes, one-line errors naming the place, exported files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'build/native/spillway');
const work = mkdtempSync(join(tmpdir(), 'spillway-cli-'));
const spillway = (...args) => spawnSync(cli, args, { encoding: 'utf8' });
const file = (name, text) => { const p = join(work, name); writeFileSync(p, text); return p; };

const small = file('small.json', JSON.stringify({
  Nodes: [
    { Id: 0, Op: 'ALLOC', BufId: 0, Size: 100, Type: 'L1' },
    { Id: 1, Op: 'COPY_IN', Pipe: 'MTE2', Cycles: 10, Bufs: [0] },
    { Id: 2, Op: 'FREE', BufId: 0, Size: 100, Type: 'L1' },
  ],
  Edges: [[0, 1], [1, 2]],
}));

test('the CLI binary is built', () => assert.ok(existsSync(cli), 'run: cmake --build build/native'));

test('without a graph it plans the built-in example and prints the summary', () => {
  const r = spillway('plan');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^graph: example "fits" \(\d+ nodes, \d+ buffers\)$/m);
  assert.match(r.stdout, /^spills: 0$/m);
  assert.match(r.stdout, /^extra data moved: 0 bytes$/m);
  assert.match(r.stdout, /^total cycles: \d+$/m);
  assert.match(r.stdout, /^verified: yes/m);
});

test('the summary names the order search and how far the plan is from its lower bound', () => {
  const graph = file('matmul-small.json', spillway('example', 'tiled-matmul-small').stdout);
  const r = spillway('plan', graph, '--order', 'search', '--effort', '80');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^order: search /m);
  assert.match(r.stdout, /^order search: \d+ evaluations \(effort 80\), from .+$/m);
  assert.match(r.stdout, /^lower bound for this order: \d+ bytes \(the plan is (at the bound: optimal for this order|within \d+\.\d% of it)\)$/m);
  const ordered = spillway('plan', graph, '--order', 'id');
  assert.doesNotMatch(ordered.stdout, /^order search:/m);
  assert.match(ordered.stdout, /^lower bound for this order: /m);
});

test('--help lists every order source of `spillway orders`', () => {
  const help = spillway('--help').stdout;
  for (const line of spillway('orders').stdout.trim().split('\n')) {
    const name = line.split(/\s+/)[0];
    assert.match(help, new RegExp(`^ +${name}( \\(default\\))?: `, 'm'), name);
  }
});

test('-o writes the result and --export the contest files', () => {
  const out = join(work, 'exported');
  const r = spillway('plan', small, '-o', join(work, 'r.json'), '--export', out);
  assert.equal(r.status, 0, r.stderr);
  const result = JSON.parse(readFileSync(join(work, 'r.json'), 'utf8'));
  assert.equal(result.format, 1);
  assert.deepEqual(result.order, [0, 1, 2]);
  assert.deepEqual(result.allocations, [{ buf: 0, type: 'L1', offset: 0, size: 100 }]);
  assert.equal(readFileSync(join(out, 'schedule.txt'), 'utf8'), '0\n1\n2\n');
  assert.equal(readFileSync(join(out, 'memory.txt'), 'utf8'), '0:0\n');
  assert.equal(readFileSync(join(out, 'spill.txt'), 'utf8'), '');
  const v = spillway('verify', small, join(work, 'r.json'));
  assert.equal(v.status, 0, v.stdout);
  assert.equal(v.stdout, 'ok: 0 spills, every step verified\n');
});

test('verify names what a tampered result breaks and exits 1', () => {
  const graph = file('ex.json', spillway('example', 'one-spill').stdout);
  assert.equal(spillway('plan', graph, '-o', join(work, 'one.json')).status, 0);
  const result = JSON.parse(readFileSync(join(work, 'one.json'), 'utf8'));
  result.allocations[1].offset = result.allocations[0].offset;  // two buffers on the same bytes
  const v = spillway('verify', graph, file('bad-result.json', JSON.stringify(result)));
  assert.equal(v.status, 1);
  assert.match(v.stdout, /^overlap: .*buffer/m);
});

// Variants of the small graph, one mistake each (point 2 of the core issue).
const A0 = { Id: 0, Op: 'ALLOC', BufId: 0, Size: 100, Type: 'L1' };
const U1 = { Id: 1, Op: 'COPY_IN', Pipe: 'MTE2', Cycles: 10, Bufs: [0] };
const F2 = { Id: 2, Op: 'FREE', BufId: 0, Size: 100, Type: 'L1' };
const variant = (name, Nodes, Edges = [[0, 1], [1, 2]], extra = {}) => file(name, JSON.stringify({ Nodes, Edges, ...extra }));

const badInputs = [
  ['a missing field', ['plan', variant('v1.json', [{ Id: 0, Op: 'ALLOC', BufId: 0, Type: 'L1' }, U1, F2])], 'node 0: field "Size" is missing'],
  ['an ill-typed field', ['plan', variant('v2.json', [A0, { ...U1, Bufs: 'x' }, F2])], 'node 1: field "Bufs" must be an array, got string'],
  ['a duplicate Id', ['plan', variant('v3.json', [A0, U1, { ...F2, Id: 1 }])], 'duplicate node Id 1 (Nodes[1] and Nodes[2])'],
  ['an edge to an unknown node', ['plan', variant('v4.json', [A0, U1, F2], [[0, 1], [1, 7]])], 'Edges[1] [1,7] names node 7, which is not in Nodes'],
  ['a cycle', ['plan', variant('v5.json', [A0, U1, F2], [[0, 1], [1, 2], [2, 1]])], /^the edges form a cycle: (1 -> 2 -> 1|2 -> 1 -> 2)$/],
  ['a buffer without FREE', ['plan', variant('v6.json', [A0, U1], [[0, 1]])], 'buffer 0 has an ALLOC (node 0) but no FREE'],
  ['a node using an unknown buffer', ['plan', variant('v7.json', [A0, { ...U1, Bufs: [0, 5] }, F2])], 'node 1: field "Bufs" names buffer 5, which has no ALLOC/FREE'],
  ['a Size of 0', ['plan', variant('v8.json', [{ ...A0, Size: 0 }, U1, { ...F2, Size: 0 }])], 'node 0: field "Size" must be between 1 and 1099511627776, got 0'],
  ['a node whose buffers exceed a memory', ['plan', variant('v9.json', [A0, { Id: 3, Op: 'ALLOC', BufId: 1, Size: 100, Type: 'L1' }, { ...U1, Bufs: [0, 1] }, F2, { Id: 4, Op: 'FREE', BufId: 1, Size: 100, Type: 'L1' }], [[0, 1], [3, 1], [1, 2], [1, 4]]), '--caps', 'L1=150'], 'node 1 uses 200 bytes of L1 at once but L1 holds only 150: no plan can exist'],
  ['an order missing a node', ['plan', small, '--order', file('o3.txt', '0\n1\n')], 'the given order misses node 2 (it has 2 of the graph\'s 3 nodes)'],
  ['a capacity of 0 in the graph', ['plan', variant('v10.json', [A0, U1, F2], undefined, { Capacities: { L1: 0 } })], 'Capacities: field "L1" must be between 1 and 1099511627776, got 0'],
  ['a missing file', ['plan', '/nonexistent/g.json'], 'cannot read /nonexistent/g.json: no such file or not readable'],
  ['not JSON', ['plan', file('nj.json', '{"Nodes": [}')], 'the graph is not valid JSON: line 1, column 12: syntax error while parsing value - unexpected \'}\'; expected \'[\', \'{\', or a literal'],
  ['an unknown option', ['plan', small, '--fast', '1'], 'unknown option --fast (see spillway --help)'],
  ['an option without value', ['plan', small, '--caps'], 'option --caps needs a value'],
  ['bad --caps', ['plan', small, '--caps', 'L1:4096'], '--caps entry "L1:4096" must look like L1=4096'],
  ['a capacity too small', ['plan', small, '--caps', 'L1=64'], 'node 0: buffer 0 needs 100 bytes but L1 holds only 64'],
  ['a memory without capacity', ['plan', small, '--caps', 'UB=64'], 'node 0: buffer 0 has Type "L1", which has no capacity (give one, e.g. --caps L1=4096)'],
  ['an order file with junk', ['plan', small, '--order', file('o1.txt', '0\n1\ntwo\n')], 'order file, line 3: expected one node id, got "two"'],
  ['an order breaking an edge', ['plan', small, '--order', file('o2.txt', '0\n2\n1\n')], 'the given order breaks edge 1 -> 2: node 2 at position 1 comes before node 1 at position 2'],
  ['an unknown cost model', ['plan', small, '--cost', 'cheap'], 'unknown cost model "cheap": expected seed or contest'],
  ['an unknown policy', ['plan', small, '--policy', 'magic'], /^unknown policy "magic": expected one of best, lifetime, residency, seed, window$/],
  ['an unknown command', ['plan2'], 'unknown command "plan2" (see spillway --help)'],
  ['a bad effort', ['plan', small, '--order', 'search', '--effort', 'lots'], 'option --effort needs a non-negative integer, got "lots"'],
];
for (const [what, args, message] of badInputs) {
  test(`bad input exits 2 with one line: ${what}`, () => {
    const r = spillway(...args);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, r.stderr);
    const text = lines[0].replace(/^spillway: error: /, '');
    assert.ok(lines[0].startsWith('spillway: error: '));
    if (message instanceof RegExp) assert.match(text, message);
    else assert.equal(text, message);
  });
}

test('docs/policies.md tables the order sources of `spillway orders`, in its order', () => {
  const doc = readFileSync(join(root, 'docs/policies.md'), 'utf8');
  const table = [...doc.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
  const registry = spillway('orders').stdout.trim().split('\n').map((l) => l.split(/\s+/)[0]);
  assert.deepEqual(table, registry);
});
