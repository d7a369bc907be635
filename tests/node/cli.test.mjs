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

test('the CLI starting itself again for huge pages keeps its arguments, and a user\'s GLIBC_TUNABLES', () => {
  // cli/main.cpp adds glibc.malloc.hugetlb=1 and starts again, unless the variable names it.
  const run = (tunables) => {
    const env = { ...process.env };
    delete env.GLIBC_TUNABLES;
    if (tunables !== undefined) env.GLIBC_TUNABLES = tunables;
    const out = join(work, 'huge-pages.json');
    const r = spawnSync(cli, ['plan', small, '--caps', 'L1=100', '-o', out], { encoding: 'utf8', env, timeout: 20000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^verified: yes/m);
    return readFileSync(out, 'utf8');
  };
  const plain = run(undefined);
  assert.match(plain, /"capacities":\{"L1":100\}/);
  assert.equal(run('glibc.malloc.hugetlb=0'), plain);
  assert.equal(run('glibc.malloc.check=0'), plain);
  assert.equal(run(''), plain);
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
  assert.equal(result.format, 2);
  assert.deepEqual(result.order, [0, 1, 2]);
  assert.deepEqual(result.allocations, [{ buf: 0, type: 'L1', offset: 0, size: 100 }]);
  assert.equal(readFileSync(join(out, 'schedule.txt'), 'utf8'), '0\n1\n2\n');
  assert.equal(readFileSync(join(out, 'memory.txt'), 'utf8'), '0:0\n');
  assert.equal(readFileSync(join(out, 'spill.txt'), 'utf8'), '');
  const v = spillway('verify', small, join(work, 'r.json'));
  assert.equal(v.status, 0, v.stdout);
  assert.equal(v.stdout, 'ok: 0 spills, every step, metric, lower bound and time verified (decisions, search and objective not checked)\n');
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

// Expected lines without "spillway: error: " and with this test's temporary folder removed: an
// error about a file starts with its name, then line and column when the file is JSON.
const badInputs = [
  ['a missing field', ['plan', variant('v1.json', [{ Id: 0, Op: 'ALLOC', BufId: 0, Type: 'L1' }, U1, F2])], 'v1.json: line 1, column 11: node 0: field "Size" is missing'],
  ['an ill-typed field', ['plan', variant('v2.json', [A0, { ...U1, Bufs: 'x' }, F2])], 'v2.json: line 1, column 122: node 1: field "Bufs" must be an array, got a string'],
  ['a duplicate Id', ['plan', variant('v3.json', [A0, U1, { ...F2, Id: 1 }])], 'v3.json: line 1, column 127: duplicate node Id 1 (Nodes[1] and Nodes[2])'],
  ['an edge to an unknown node', ['plan', variant('v4.json', [A0, U1, F2], [[0, 1], [1, 7]])], 'v4.json: line 1, column 197: Edges[1]: its dst 7 is the Id of no node in Nodes'],
  ['a cycle', ['plan', variant('v5.json', [A0, U1, F2], [[0, 1], [1, 2], [2, 1]])], 'v5.json: line 1, column 203: the edges form a cycle: 2 -> 1 -> 2'],
  ['a use before its ALLOC (not called a cycle)', ['plan', variant('v5b.json', [A0, U1, F2], [[1, 0]])], 'v5b.json: line 1, column 191: node 1 uses buffer 0 but the edges make it run before the buffer\'s ALLOC (node 0): 1 -> 0'],
  ['a buffer without FREE', ['plan', variant('v6.json', [A0, U1], [[0, 1]])], 'v6.json: line 1, column 11: buffer 0 has an ALLOC (node 0) but no FREE'],
  ['a node using an unknown buffer', ['plan', variant('v7.json', [A0, { ...U1, Bufs: [0, 5] }, F2])], 'v7.json: line 1, column 66: node 1: field "Bufs" names buffer 5, which has no ALLOC/FREE'],
  ['a Size of 0', ['plan', variant('v8.json', [{ ...A0, Size: 0 }, U1, { ...F2, Size: 0 }])], 'v8.json: line 1, column 49: node 0: field "Size" must be between 1 and 68719476736, got 0'],
  ['a node whose buffers exceed a memory', ['plan', variant('v9.json', [A0, { Id: 3, Op: 'ALLOC', BufId: 1, Size: 100, Type: 'L1' }, { ...U1, Bufs: [0, 1] }, F2, { Id: 4, Op: 'FREE', BufId: 1, Size: 100, Type: 'L1' }], [[0, 1], [3, 1], [1, 2], [1, 4]]), '--caps', 'L1=150'], 'v9.json: line 1, column 121: node 1 uses 200 bytes of L1 at once but L1 holds only 150: no plan can exist'],
  ['an order missing a node', ['plan', small, '--order', file('o3.txt', '0\n1\n')], 'o3.txt: the given order misses node 2 (it has 2 of the graph\'s 3 nodes)'],
  ['a capacity of 0 in the graph', ['plan', variant('v10.json', [A0, U1, F2], undefined, { Capacities: { L1: 0 } })], 'v10.json: line 1, column 223: Capacities: field "L1" must be between 1 and 68719476736, got 0'],
  ['a missing file', ['plan', '/nonexistent/g.json'], 'cannot read /nonexistent/g.json: no such file or not readable'],
  ['not JSON', ['plan', file('nj.json', '{"Nodes": [}')], 'nj.json: line 1, column 12: the graph is not valid JSON: syntax error while parsing value - unexpected \'}\'; expected \'[\', \'{\', or a literal'],
  ['a trailing comma, at the comma', ['plan', file('tc.json', '{"Nodes": [],\n "Edges": [],\n}')], 'tc.json: line 2, column 13: the graph is not valid JSON: a trailing comma before \'}\' (JSON allows none)'],
  ['a string Id, located', ['plan', file('sid.json', '{"Nodes": [\n  {"Id": "5", "Op": "NOP"}]}')], 'sid.json: line 2, column 10: Nodes[0]: field "Id" must be an integer, got a string'],
  ['an unknown option', ['plan', small, '--fast', '1'], 'unknown option --fast (see spillway --help)'],
  ['an option without value', ['plan', small, '--caps'], 'option --caps needs a value'],
  ['bad --caps', ['plan', small, '--caps', 'L1:4096'], '--caps entry "L1:4096" must look like L1=4096'],
  ['a capacity too small', ['plan', small, '--caps', 'L1=64'], 'small.json: line 1, column 11: node 0: buffer 0 needs 100 bytes but L1 holds only 64'],
  ['a memory without capacity', ['plan', small, '--caps', 'UB=64'], 'small.json: line 1, column 11: node 0: buffer 0 has Type "L1", which has no capacity: give memory L1 a capacity (--caps L1=BYTES)'],
  ['an order file with junk', ['plan', small, '--order', file('o1.txt', '0\n1\ntwo\n')], 'o1.txt: order file, line 3: expected one node id (0..1073741823), got "two"'],
  ['an order breaking an edge, at its line', ['plan', small, '--order', file('o2.txt', '# comment\n0\n\n2\n1\n')], 'o2.txt: line 4: the given order breaks edge 1 -> 2: node 2 at position 1 comes before node 1 at position 2'],
  ['an unknown cost model', ['plan', small, '--cost', 'cheap'], 'unknown cost model "cheap": expected seed or contest'],
  ['an unknown policy', ['plan', small, '--policy', 'magic'], /^unknown policy "magic": expected one of best, lifetime, residency, seed, window, belady, lru, fifo$/],
  // Every option is checked when it is read, before the graph or an order file is: a search never starts.
  ['an unknown policy after --order search, with no graph read', ['plan', '/nonexistent/g.json', '--order', 'search', '--policy', 'magic'], /^unknown policy "magic": expected one of best, lifetime, residency, seed, window, belady, lru, fifo$/],
  ['an unknown policy before an order file is read', ['plan', small, '--order', file('o4.txt', 'junk\n'), '--policy', 'magic'], /^unknown policy "magic": expected one of best, lifetime, residency, seed, window, belady, lru, fifo$/],
  ['an unknown order source, with the sources listed', ['plan', small, '--order', 'nosuch'], 'unknown order source "nosuch": expected graph, best, schedule, reuse, search, min-peak, id or an order file (no file nosuch)'],
  ['an unknown objective, with no graph read', ['plan', '/nonexistent/g.json', '--objective', 'speed'], /^unknown objective "speed": expected bytes or cycles$/],
  ['an unknown command', ['plan2'], 'unknown command "plan2" (see spillway --help)'],
  ['a bad effort', ['plan', small, '--order', 'search', '--effort', 'lots'], 'option --effort needs a non-negative integer, got "lots"'],
  ['an effort of 25 digits', ['plan', small, '--order', 'search', '--effort', '9'.repeat(25)], /^option --effort must be between 0 and \d+, got 9{25}$/],
];
for (const [what, args, message] of badInputs) {
  test(`bad input exits 2 with one line: ${what}`, () => {
    const r = spillway(...args);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, r.stderr);
    const text = lines[0].replace(/^spillway: error: /, '').replaceAll(work + '/', '');
    assert.ok(lines[0].startsWith('spillway: error: '));
    if (message instanceof RegExp) assert.match(text, message);
    else assert.equal(text, message);
  });
}

// ---- Hostile input and outputs: exit 2 with one line, never 0, 3, a signal or a hang ----

const oneLine = (r) => {
  const lines = r.stderr.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, r.stderr);
  assert.ok(lines[0].startsWith('spillway: error: '), r.stderr);
  return lines[0].replace(/^spillway: error: /, '').replaceAll(work + '/', '');
};

test('an output that cannot be written is an error, not a silent success', () => {
  let r = spillway('plan', small, '-o', '/dev/full');
  assert.equal(r.status, 2);
  assert.equal(oneLine(r), 'cannot write /dev/full: No space left on device');
  r = spillway('plan', small, '--export', '/dev/full/x');
  assert.equal(r.status, 2);
  const full = spawnSync('sh', ['-c', `"${cli}" plan "${small}" > /dev/full`], { encoding: 'utf8' });
  assert.equal(full.status, 2);
  assert.equal(oneLine(full), 'cannot write to standard output: No space left on device');
});

test('inputs that never end or are not text stop at once', () => {
  const started = Date.now();
  let r = spillway('plan', '/dev/zero');
  assert.equal(r.status, 2);
  assert.equal(oneLine(r), '/dev/zero: contains a NUL byte at byte 0 (not a text file)');
  r = spillway('plan', file('nul.json', `${readFileSync(small, 'utf8')}\u0000garbage`));
  assert.equal(r.status, 2);
  assert.match(oneLine(r), /^nul\.json: contains a NUL byte at byte \d+ \(not a text file\)$/);
  r = spillway('plan', small, '--order', '/dev/zero');
  assert.equal(r.status, 2);
  assert.ok(Date.now() - started < 10000);
});

test('huge tokens, deep nesting and invalid bytes give one short, valid line', () => {
  let r = spillway('plan', file('num.json', `{"Nodes":[{"Id":${'9'.repeat(1 << 20)}}]}`));
  assert.equal(r.status, 2);
  const line = oneLine(r);
  assert.ok(line.length < 200, line);
  assert.match(line, /^num\.json: line 1, column 17: the graph is not valid JSON: number overflow parsing '9{40}\.\.\. \(1048576 bytes\)'$/);
  r = spillway('plan', file('deep.json', `{"Nodes":[],"Edges":${'['.repeat(100000)}${']'.repeat(100000)}}`));
  assert.equal(r.status, 2);
  assert.equal(oneLine(r), 'deep.json: line 1, column 23: Edges[0] must be [src, dst] with two node ids, got an array');
  r = spillway('plan', file('deep2.json', `{"Nodes":[],"X":${'['.repeat(100000)}${']'.repeat(100000)}}`));
  assert.equal(oneLine(r), 'deep2.json: line 1, column 48: the graph nests arrays and objects deeper than 32 levels (limit depth = 32)');
  const bytes = Buffer.concat([Buffer.from('{"Nodes":[{"Id":0,"Op":"A'), Buffer.from([0xff]), Buffer.from('"}]}')]);
  const bad = join(work, 'utf8.json');
  writeFileSync(bad, bytes);
  r = spawnSync(cli, ['plan', bad]);
  assert.equal(r.status, 2);
  const text = r.stderr.toString('utf8');
  assert.equal(Buffer.from(text, 'utf8').equals(r.stderr), true, 'stderr is valid UTF-8');
  assert.match(text, /ill-formed UTF-8 byte/);
});

test('option values out of range name the range', () => {
  let r = spillway('bench', small, '--repeat', '999999999999');
  assert.equal(r.status, 2);
  assert.equal(oneLine(r), 'option --repeat must be between 1 and 1000, got 999999999999');
  r = spillway('plan', small, '--cost', 'seed', '--cycles-per-byte', '1048577');
  assert.equal(oneLine(r), 'option --cycles-per-byte must be between 0 and 1048576, got 1048577');
  r = spillway('plan', small, '--caps', 'L1=68719476737');
  assert.equal(oneLine(r), '--caps entry "L1=68719476737": capacity must be between 1 and 68719476736');
  // The case: the seed model at 2^20 cycles per byte plans, every time exact.
  const graph = file('tms.json', spillway('example', 'tiled-matmul-small').stdout);
  r = spillway('plan', graph, '--cost', 'seed', '--cycles-per-byte', '1048576', '-o', join(work, 'tms-result.json'));
  assert.equal(r.status, 0, r.stderr);
  const result = JSON.parse(readFileSync(join(work, 'tms-result.json'), 'utf8'));
  assert.ok(result.timing.every(([, start, end]) => start >= 0 && end >= start));
  assert.equal(spillway('verify', graph, join(work, 'tms-result.json')).status, 0);
});

test('verify reports falsified claims and exits 1', () => {
  const graph = file('ex2.json', spillway('example', 'one-spill').stdout);
  assert.equal(spillway('plan', graph, '--order', 'schedule', '-o', join(work, 'two.json')).status, 0);
  const good = JSON.parse(readFileSync(join(work, 'two.json'), 'utf8'));
  const tamper = (f) => { const r = structuredClone(good); f(r); return file('tampered.json', JSON.stringify(r)); };
  let v = spillway('verify', graph, tamper((r) => { r.metrics.totalCycles += 1; }));
  assert.equal(v.status, 1);
  assert.match(v.stdout, /^metrics: metrics\.totalCycles says \d+ but the plan gives \d+$/m);
  v = spillway('verify', graph, tamper((r) => { r.addedNodes[0].Cycles = 1; }));
  assert.match(v.stdout, /^spill-cycles: spill 0 \(buffer \d+\): SPILL_OUT node \d+ has Cycles 1, the cost model contest/m);
  v = spillway('verify', graph, tamper((r) => { r.addedEdges.push([2 ** 32 + 1, 0]); }));
  assert.match(v.stdout, /^edges: added edge 4294967297 -> 0 \(addedEdges\[\d+\]\) names a node id above 2\^31 - 1/m);
  v = spillway('verify', graph, file('notresult.json', '{"format": 2, "order": 5}'));
  assert.equal(v.status, 2);
  assert.equal(oneLine(v), 'notresult.json: line 1, column 24: the result: field "order" must be an array, got an integer');
});

test('generate writes graphs of any size that plan and verify', () => {
  const out = join(work, 'gen.json');
  const r = spillway('generate', 'random', '30', '--seed', '4', '--alloc-edges', '30', '--bufferless', '20', '-o', out);
  assert.equal(r.status, 0, r.stderr);
  const g = JSON.parse(readFileSync(out, 'utf8'));
  assert.ok(g.Nodes.some((n) => n.Op === 'BARRIER' && n.Bufs.length === 0));
  assert.equal(spillway('plan', out).status, 0);
  assert.equal(spillway('generate', 'matmul', '2', '2', '2').stdout, spillway('generate', 'matmul', '2', '2', '2').stdout);
  assert.equal(oneLine(spillway('generate', 'nope')), 'spillway generate: unknown kind "nope": expected matmul, flash, conv, random or thrash');
  // thrash: 8 buffers, 3 operations of 4 each, no edges; the same text for the same seed.
  const thrash = JSON.parse(spillway('generate', 'thrash', '8', '3', '4', '--seed', '2').stdout);
  assert.deepEqual(thrash.Capacities, { UB: 4 });
  assert.deepEqual(thrash.Edges, []);
  assert.equal(thrash.Nodes.length, 2 * 8 + 3);
  assert.deepEqual(thrash.Nodes.slice(8, 11).map((n) => n.Bufs.length), [4, 4, 4]);
  assert.equal(spillway('generate', 'thrash', '8', '3', '4', '--seed', '2').stdout, spillway('generate', 'thrash', '8', '3', '4', '--seed', '2').stdout);
  assert.notEqual(spillway('generate', 'thrash', '8', '3', '4', '--seed', '3').stdout, spillway('generate', 'thrash', '8', '3', '4', '--seed', '2').stdout);
  assert.match(oneLine(spillway('generate', 'thrash', '8', '3', '9')), /usesPerOperation must be at most min\(buffers, 64\)/);
});

test('docs/policies.md tables the order sources of `spillway orders`, in its order', () => {
  const doc = readFileSync(join(root, 'docs/policies.md'), 'utf8');
  const table = [...doc.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
  const registry = spillway('orders').stdout.trim().split('\n').map((l) => l.split(/\s+/)[0]);
  assert.deepEqual(table, registry);
});

// ---- Names and outputs ----

test('control bytes in names never reach the terminal: plan summary, compare table, the --caps hint', () => {
  const esc = 'L\u001b[31m\u0007';
  const g = file('esc.json', JSON.stringify({
    Nodes: [
      { Id: 0, Op: 'ALLOC', BufId: 0, Size: 100, Type: esc },
      { Id: 1, Op: 'COPY\u001b]0;x\u0007', Pipe: 'MTE\u001b2', Cycles: 10, Bufs: [0] },
      { Id: 2, Op: 'FREE', BufId: 0, Size: 100, Type: esc },
    ],
    Edges: [[0, 1], [1, 2]],
    Capacities: { [esc]: 1000 },
  }));
  for (const args of [['plan', g], ['plan', g, '--objective', 'cycles'], ['compare', g]]) {
    const r = spillway(...args);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f]/.test(r.stdout), `${args.join(' ')}: ${JSON.stringify(r.stdout)}`);
  }
  assert.match(spillway('plan', g).stdout, /L \[31m {2}100\/1000/);
  const nl = file('nl.json', JSON.stringify({ Nodes: [{ Id: 0, Op: 'ALLOC', BufId: 0, Size: 1, Type: 'A\nB\u0000C' },
    { Id: 1, Op: 'FREE', BufId: 0, Size: 1, Type: 'A\nB\u0000C' }], Edges: [[0, 1]] }));
  assert.equal(oneLine(spillway('plan', nl, '--caps', 'L1=4')),
    'nl.json: line 1, column 11: node 0: buffer 0 has Type "A B C", which has no capacity: give memory A B C a capacity (--caps A B C=BYTES)');
});

test('-o - writes to standard output, as --json - does; two outputs there are refused', () => {
  let r = spillway('plan', small, '-o', '-');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).format !== undefined, true);
  assert.match(r.stderr, /^verified: yes/m);
  assert.ok(!existsSync(join(process.cwd(), '-')));
  r = spillway('generate', 'matmul', '2', '2', '2', '-o', '-');
  assert.equal(r.stdout, spillway('generate', 'matmul', '2', '2', '2').stdout);
  const csv = file('p.csv', 'id,lower,upper,size\na,0,2,4\nb,1,3,4\n');
  r = spillway('pack', csv, '--capacity', '8', '-o', '-');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^id,lower,upper,size,offset\na,0,2,4,\d\nb,1,3,4,\d\n$/);
  assert.match(r.stderr, /^verdict: fits$/m);
  assert.equal(oneLine(spillway('pack', csv, '--capacity', '8', '-o', '-', '--json', '-')),
    '-o - and --json - both write to standard output: give one a file');
});

test('pack and pack-bench: an open quote is refused at its line, a BOM skipped, sizes planned as graphs are', () => {
  const quote = file('q.csv', 'id,lower,upper,size\nb1,0,3,4\n"b1,0,3,4\n');
  assert.equal(oneLine(spillway('pack', quote, '--capacity', '8')), 'q.csv: line 3, column 1: the quote is not closed on its line');
  assert.equal(oneLine(spillway('pack-bench', quote, '--lifetime', 'off')), 'q.csv: line 3, column 1: the quote is not closed on its line');
  assert.equal(oneLine(spillway('pack-bench', file('big.csv', 'id,lower,upper,size\na,0,2,4\n'), '--capacity', '2')),
    'big.csv, as a graph for the lifetime policy: node 0: buffer 0 needs 4 bytes but L1 holds only 2');
  const bom = file('bom.csv', '\ufeffid,lower,upper,size\na,0,2,4\n');
  assert.equal(spillway('pack', bom, '--capacity', '4').status, 0);
  const huge = file('huge.csv', `id,lower,upper,size\na,0,2,${2 ** 36 + 1}\n`);
  assert.equal(oneLine(spillway('pack', huge, '--capacity', '8')),
    `huge.csv: line 2 (id "a"): field "size" must be between 0 and ${2 ** 36}, got ${2 ** 36 + 1}`);
  const most = file('most.csv', `id,lower,upper,size\na,0,2,${2 ** 36}\n`);
  const graph = join(work, 'most.json');
  assert.equal(spillway('pack', most, '--capacity', String(2 ** 36), '--graph', graph).status, 0);
  assert.equal(spillway('plan', graph).status, 0);
});

test('scale and generate check their arguments before printing anything; generate states its true range', () => {
  const r = spillway('scale', 'foo');
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.equal(oneLine(r), 'spillway scale: unknown kind "foo": expected matmul or random');
  assert.equal(oneLine(spillway('generate', 'random', '1000001')), 'option OPERATIONS must be between 1 and 1000000, got 1000001');
});

// ---- Programs (docs/programs.md) ----

const program = file('p.txt', 'registers 2\na = load\nb = load\nuse a\nc = load\nuse b\nuse a\nuse c\n');

test('a program plans like a graph; --format program prints it with its spills, reloads and registers', () => {
  const lru = spillway('plan', program, '--policy', 'lru', '--format', 'program');
  assert.equal(lru.status, 0, lru.stderr);
  assert.equal(lru.stdout, [
    'registers 2', 'a = load  # a in r0', 'b = load  # b in r1', 'use a',
    'spill b   # b leaves r1: clean, nothing is written', 'c = load  # c in r1',
    'spill a   # a leaves r0: clean, nothing is written', 'reload b  # b in r0', 'use b',
    'reload a  # a in r0', 'use a', 'use c', ''].join('\n'));
  const belady = spillway('plan', program, '--policy', 'belady', '--format', 'program');
  assert.equal(belady.stdout.match(/^reload /gm).length, 1);
  const summary = spillway('plan', program, '--policy', 'belady');
  assert.match(summary.stdout, /^spills: 1$/m);
  assert.match(summary.stdout, /^verified: yes/m);
  const out = join(work, 'p.result.json');
  assert.equal(spillway('plan', program, '--policy', 'belady', '-o', out).status, 0);
  const result = JSON.parse(readFileSync(out, 'utf8'));
  assert.deepEqual(result.program.lines.filter((l) => l.text.startsWith('reload')).map((l) => result.order[l.step]),
    result.spills.map((s) => s.inNode));
  assert.equal(spillway('verify', program, out).status, 0);
});

test('translate prints the graph a program becomes; a graph or a bad program is refused with its place', () => {
  const t = spillway('translate', program);
  assert.equal(t.status, 0, t.stderr);
  const graph = JSON.parse(t.stdout);
  assert.deepEqual(graph.Capacities, { REG: 2 });
  assert.equal(graph.Nodes.filter((n) => n.Op === 'COPY_IN').length, 3);
  assert.deepEqual(graph.Order, graph.Nodes.map((n) => n.Id));
  const again = file('p.json', t.stdout);
  assert.equal(spillway('plan', again, '--policy', 'lru').stdout.match(/^spills: (\d+)$/m)[1], '2');
  const bad = spillway('translate', file('bad.txt', 'registers 2\nuse x\n'));
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /bad\.txt: line 2, column 5: value "x" is read before it is defined/);
  assert.match(spillway('translate', small).stderr, /is a graph already/);
  assert.match(spillway('plan', small, '--format', 'program').stderr, /--format program prints a program's plan/);
  assert.match(spillway('plan', program, '--format', 'xml').stderr, /--format takes summary or program/);
});

test('--force STEP=BUFFER: What if, the policy planning the rest; a bad force names what is wrong', () => {
  // At step 6 (c's ALLOC) lru writes out b; forcing a instead changes what comes back.
  const forced = spillway('plan', program, '--policy', 'lru', '--force', '6=0', '--format', 'program');
  assert.equal(forced.status, 0, forced.stderr);
  assert.match(forced.stdout, /^spill a/m);
  assert.match(spillway('plan', program, '--force', '6=0').stderr, /policy best cannot take a forced spill/);
  assert.match(spillway('plan', program, '--policy', 'lru', '--force', '6').stderr, /--force needs STEP=BUFFER/);
  assert.match(spillway('plan', program, '--policy', 'lru', '--force', '3=1').stderr,
    /buffer 1 at step 3: it is not resident there, or the node at that step uses it/);
});

test('frontier: the plans no other beats on data and cycles, each made again by plan --margin', () => {
  const graph = file('frontier.json', spillway('example', 'tiled-matmul-small').stdout);
  const r = spillway('frontier', graph, '-o', '-');
  assert.equal(r.status, 0, r.stderr);
  const { points } = JSON.parse(r.stdout);
  assert.ok(points.length >= 1);
  for (let k = 1; k < points.length; k++) {
    assert.ok(points[k - 1].extraBytes < points[k].extraBytes, JSON.stringify(points));
    assert.ok(points[k - 1].totalCycles > points[k].totalCycles, JSON.stringify(points));
  }
  for (const p of points) {
    assert.equal(p.verified, true);
    const args = p.objective === 'cycles' ? ['--objective', 'cycles', '--margin', String(p.marginPercent)] : [];
    const out = join(work, 'frontier-point.json');
    assert.equal(spillway('plan', graph, ...args, '-o', out).status, 0);
    const result = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(result.metrics.extraBytes, p.extraBytes);
    assert.equal(result.metrics.totalCycles, p.totalCycles);
    assert.equal(spillway('verify', graph, out).status, 0);
  }
  const table = spillway('frontier', graph).stdout;
  assert.match(table, /every plan verified/);
  assert.equal(table.trim().split('\n').length, 2 + points.length);
  // the summary says whether a larger margin could change the plan (objective.marginLimited)
  const summary = (margin) => spillway('plan', graph, '--objective', 'cycles', '--margin', margin).stdout;
  assert.match(summary('0'), /^the margin refused plans moving more data: a larger one may make another plan$/m);
  assert.match(summary('1000'), /^the margin refused no plan: a larger one makes this same plan$/m);
  assert.equal(oneLine(spillway('plan', small, '--objective', 'cycles', '--margin', '1001')),
    'option --margin must be between 0 and 1000, got 1001');
  assert.equal(oneLine(spillway('plan', small, '--margin', '5')), '--margin is the data margin of --objective cycles');
});
