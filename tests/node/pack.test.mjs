// `spillway pack` (minimalloc's CSV) as a user meets it, and the bindings' pack(): exit codes,
// one-line errors naming the line and column, minimalloc's output, byte-identical JSON.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, loadEngine, root, workDir } from './engine.mjs';

const work = workDir('pack');
const spillway = (...args) => spawnSync(cli, args, { encoding: 'utf8' });
const file = (name, text) => { const p = join(work, name); writeFileSync(p, text); return p; };

// minimalloc's README example: its peak load is 12.
const readme = 'id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n';
const readmeFile = file('input.12.csv', readme);

let engine;
before(async () => { engine = await loadEngine(); });

// The offsets of minimalloc's output, checked here independently: inside the memory and no two
// buffers on the same bytes while both are live.
function checkPacking(csv, capacity) {
  const [header, ...rows] = csv.trim().split('\n');
  assert.deepEqual(header.split(','), ['id', 'lower', 'upper', 'size', 'offset']);
  const b = rows.map((r) => r.split(',').map((x, i) => (i === 0 ? x : Number(x))));
  for (const [, , , size, offset] of b) assert.ok(offset >= 0 && offset + size <= capacity);
  for (let i = 0; i < b.length; ++i)
    for (let j = i + 1; j < b.length; ++j) {
      const live = b[i][1] < b[j][2] && b[j][1] < b[i][2];
      const apart = b[i][4] + b[i][3] <= b[j][4] || b[j][4] + b[j][3] <= b[i][4];
      assert.ok(!live || apart, `${b[i][0]} and ${b[j][0]} overlap`);
    }
}

test('pack: fits exits 0, prints the verdict and writes minimalloc\'s output', () => {
  const out = join(work, 'output.12.csv');
  const r = spillway('pack', readmeFile, '--capacity', '12', '-o', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^buffers: 5 /m);
  assert.match(r.stdout, /^capacity: 12 {3}peak load: 12 /m);
  assert.match(r.stdout, /^verdict: fits$/m);
  assert.match(r.stdout, /^verified: yes \(independent validator, 0 violations\)$/m);
  checkPacking(readFileSync(out, 'utf8'), 12);
});

test('pack: does not fit exits 1 and says why; no output file is written', () => {
  const out = join(work, 'none.csv');
  const r = spillway('pack', readmeFile, '--capacity', '11', '-o', out);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /^verdict: does not fit: from time 0 to 3 the live blocks need 12 bytes, more than the capacity 11$/m);
  assert.ok(!existsSync(out));
});

test('pack: a spent budget exits 1 with the verdict unknown', () => {
  const csv = file('gen.csv', spillway('pack-instance', '4', '--family', 'cut').stdout);
  const r = spillway('pack', csv, '--capacity', '1048576', '--budget', '10');
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /^verdict: unknown: the budget of 10 search nodes ran out while placing the blocks live between times \d+ and \d+$/m);
  assert.match(r.stdout, /^search: 10 nodes, /m);
});

test('pack --disable switches techniques off by name: same verdict, another count of nodes', () => {
  const on = JSON.parse(spillway('pack', readmeFile, '--capacity', '12', '--json', '-').stdout);
  const off = JSON.parse(spillway('pack', readmeFile, '--capacity', '12', '--json', '-', '--disable', 'dominance,canonical').stdout);
  assert.equal(on.verdict, 'fits');
  assert.equal(off.verdict, 'fits');
  checkPacking(off.csv, 12);
});

const badInputs = [
  ['no capacity', ['pack', readmeFile], 'pack needs --capacity N (the bytes of the memory)'],
  ['a CSV error names line and column', ['pack', file('bad1.csv', 'id,lower,upper,size\na,0,4,8\nb,0,four,8\n'), '--capacity', '9'],
    'bad1.csv: line 3, column 3 (upper): "four" is not an integer'],
  ['a missing column', ['pack', file('bad2.csv', 'id,lower,size\n'), '--capacity', '9'],
    'bad2.csv: line 1: the header has no column "upper" (required: id, lower, upper, size)'],
  ['a bad gap', ['pack', file('bad3.csv', 'id,lower,upper,size,gaps\na,0,4,8,1-9\n'), '--capacity', '9'],
    'bad3.csv: line 2 (id "a"): field "gaps", gap 1 (1-9): gaps must lie in the lifetime [0, 4) in time order without overlapping'],
  ['an unknown technique', ['pack', readmeFile, '--capacity', '12', '--disable', 'luck'],
    /^unknown packing technique "luck" \(known: canonical, /],
  ['a bad preorder', ['pack', readmeFile, '--capacity', '12', '--preorders', 'WAT,QQ'], 'preorder "QQ": unknown key \'Q\' (keys: ACLOTUWZR)'],
  ['a capacity of 0', ['pack', readmeFile, '--capacity', '0'], 'option --capacity must be between 1 and 68719476736, got 0'],
  ['a capacity of 23 digits', ['pack', readmeFile, '--capacity', '9'.repeat(23)], 'option --capacity must be between 1 and 68719476736, got ' + '9'.repeat(23)],
  ['two files', ['pack', readmeFile, readmeFile, '--capacity', '12'], 'usage: spillway pack FILE.csv --capacity N [options] (see spillway --help)'],
];
for (const [what, args, message] of badInputs) {
  test(`pack: bad input exits 2 with one line: ${what}`, () => {
    const r = spillway(...args);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, r.stderr);
    assert.ok(lines[0].startsWith('spillway: error: '));
    const text = lines[0].replace(/^spillway: error: /, '').replace(/^\/\S*\/(?=[^/\s]+\.csv: )/, ''); // the file, by its name
    if (message instanceof RegExp) assert.match(text, message);
    else assert.equal(text, message);
  });
}

test('bindings: pack() returns the JSON of `spillway pack --json -`, byte for byte, and is deterministic', () => {
  const cases = [
    [readme, ['--capacity', '12'], { capacity: 12 }],
    [readme, ['--capacity', '11'], { capacity: 11 }],
    [spillway('pack-instance', '7', '--family', 'cut').stdout, ['--capacity', '1048576', '--budget', '300000'], { capacity: 1048576, budget: 300000 }],
    [readme, ['--capacity', '12', '--disable', 'dominance', '--preorders', 'TWA,R'], { capacity: 12, disable: ['dominance'], preorders: ['TWA', 'R'] }],
  ];
  for (const [csv, args, options] of cases) {
    const native = spillway('pack', file('b.csv', csv), ...args, '--json', '-').stdout;
    const wasm = engine.pack(csv, JSON.stringify(options));
    assert.equal(wasm, native, args.join(' '));
    assert.equal(engine.pack(csv, JSON.stringify(options)), wasm);
    const r = JSON.parse(wasm);
    if (r.verdict === 'fits') checkPacking(r.csv, options.capacity);
  }
});

test('bindings: bad CSV and bad options come back as errors naming the place', () => {
  const e1 = JSON.parse(engine.pack('id,lower,upper,size\nx,1,0,4\n', '{"capacity": 8}'));
  assert.deepEqual(e1, { error: { kind: 'input', message: 'line 2 (id "x"): field "upper" must be between lower (1) and 1099511627776, got 0', where: { source: 'csv', line: 2 } } });
  const e2 = JSON.parse(engine.pack(readme, '{"budget": 5}'));
  assert.deepEqual(e2, { error: { kind: 'input', message: 'options: field "capacity" is missing', where: { source: 'options', field: 'capacity' } } });
  const deep = JSON.parse(engine.pack(readme, `{"capacity": 8, "disable": ${'['.repeat(100000)}${']'.repeat(100000)}}`));
  assert.deepEqual(deep.error.where, { source: 'options', line: 1, column: 59, limit: { name: 'depth', max: 32 } }); // the 32nd '[': level 33 with the object
  const names = JSON.parse(engine.packTechniques()).map((t) => t.name);
  assert.ok(names.includes('dominance') && names.includes('section-inference'));
  assert.match(spillway('--help').stdout, new RegExp(names.join('[\\s\\S]*')));
});

test("minimalloc's 11 challenging instances: each packs (independently checked) within the default budget", () => {
  const dir = join(root, 'bench/minimalloc-challenging');
  for (const name of 'ABCDEFGHIJK') {
    const input = join(dir, `${name}.1048576.csv`);
    const out = join(work, `${name}.out.csv`);
    const r = spillway('pack', input, '--capacity', '1048576', '-o', out);
    assert.equal(r.status, 0, `${name}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /^verdict: fits$/m);
    const packed = readFileSync(out, 'utf8');
    assert.equal(packed.trim().split('\n').length, readFileSync(input, 'utf8').trim().split('\n').length);
    checkPacking(packed, 1048576);
  }
});
