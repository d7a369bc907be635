// Property test with the independent exported-file checker (tools/contest-check.mjs): random
// graphs × every policy × every order × both cost models (and the seed model at its largest
// parameters), including the shapes that once broke the schedulers (an edge from an ALLOC to an
// operation that does not use its buffer, operations that use no buffer) and memories with odd
// names. Every plan the CLI exports must pass the checker, with the same extra bytes, and the
// result's added edges must be exactly the rule's set (docs/result-format.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main as contestCheck } from '../../tools/contest-check.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = process.env.SPILLWAY_CLI ?? path.join(ROOT, 'build/native/spillway');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spillway-property-'));
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));

function cli(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  assert.equal(r.status, 0, `spillway ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

// Memory names a reader would not expect: punctuation, spaces, non-ASCII, '=' and ',' (which
// --caps cannot spell, so the graph carries them), and the longest allowed (256 bytes).
const ODD_NAMES = { L1: 'L1 (main), =', UB: 'Üb€r', L0A: '__proto__', L0B: 'x'.repeat(256), L0C: '0' };

/** A generated random graph with the new shapes; odd memory names in every third one. */
function graphFor(seed) {
  const text = cli(['generate', 'random', String(8 + (seed % 20)), '--seed', String(seed),
    '--alloc-edges', String((seed * 13) % 60), '--bufferless', String((seed * 7) % 40)]);
  const g = JSON.parse(text);
  // Tight capacities: every memory holds only a little more than its largest node needs.
  const need = {};
  const byBuf = new Map(g.Nodes.filter((n) => n.Op === 'ALLOC').map((n) => [n.BufId, n]));
  for (const n of g.Nodes) {
    const bufs = n.Op === 'ALLOC' || n.Op === 'FREE' ? [n.BufId] : n.Bufs;
    const per = {};
    for (const b of new Set(bufs)) per[byBuf.get(b).Type] = (per[byBuf.get(b).Type] ?? 0) + byBuf.get(b).Size;
    for (const [t, v] of Object.entries(per)) need[t] = Math.max(need[t] ?? 0, v);
  }
  g.Capacities = Object.fromEntries(Object.entries(need).map(([t, v]) => [t, v + (seed % 3) * 16]));
  if (seed % 3 === 0) {
    const rename = (t) => ODD_NAMES[t] ?? t;
    for (const n of g.Nodes) if (n.Type) n.Type = rename(n.Type);
    g.Capacities = Object.fromEntries(Object.entries(g.Capacities).map(([t, v]) => [rename(t), v]));
  }
  const file = path.join(work, `g${seed}.json`);
  fs.writeFileSync(file, JSON.stringify(g));
  return file;
}

// Every policy and order source the engine registers (the graphs have no Order: "graph" is "best").
const POLICIES = /^ {2}--policy ([\w|-]+)$/m.exec(cli(['--help']))[1].split('|');
const ORDERS = cli(['orders']).trim().split('\n').map((l) => l.split(/\s+/)[0]).filter((o) => o !== 'graph');
const COSTS = [['--cost', 'contest'], ['--cost', 'seed'], ['--cost', 'seed', '--fixed-latency', '4294967296', '--cycles-per-byte', '1048576']];

test('property: exported plans of shaped random graphs pass the independent checker, edges exactly the rule', () => {
  let plans = 0, withSpills = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const graph = graphFor(seed);
    for (const policy of POLICIES) {
      for (const order of ORDERS) {
        const cost = COSTS[(seed + plans) % COSTS.length];
        const dir = path.join(work, `e${plans}`);
        const result = path.join(work, `r${plans}.json`);
        const summary = cli(['plan', graph, '--policy', policy, '--order', order, ...cost, '--export', dir, '-o', result]);
        let out = '', err = '';
        const code = contestCheck([graph, dir, '--result', result], { out: (t) => { out += t; }, err: (t) => { err += t; } });
        const what = `seed ${seed}, ${policy} on ${order}, ${cost.join(' ')}`;
        assert.equal(code, 0, `${what}: the checker rejects the export:\n${out}${err}`);
        const bytes = Number(/extra data moved (\d+) bytes/.exec(out)[1]);
        assert.equal(bytes, Number(/^extra data moved: (\d+) bytes$/m.exec(summary)[1]), what);
        const spills = Number(/^spills: (\d+)$/m.exec(summary)[1]);
        if (spills > 0) withSpills++;
        assert.equal(cli(['verify', graph, result]).trim(), `ok: ${spills} spills, every step, metric, lower bound and time verified (decisions, search and objective not checked)`);
        plans++;
      }
    }
  }
  assert.equal(plans, 12 * POLICIES.length * ORDERS.length);
  assert.ok(withSpills > plans / 4, `only ${withSpills} of ${plans} plans spill: the property must exercise spilling`);
});

test('both checkers reject an edge of the quadratic set: a user before the last reload -> a later SPILL_OUT', () => {
  // Buffer 0 is spilled twice; the literal rule would also add user 1 -> the second SPILL_OUT.
  const graph = path.join(work, 'storm.json');
  const uses = 8;
  const Nodes = [
    { Id: 0, Op: 'ALLOC', BufId: 0, Size: 8, Type: 'UB' }, { Id: 1, Op: 'ALLOC', BufId: 1, Size: 8, Type: 'UB' },
    ...Array.from({ length: uses }, (_, i) => ({ Id: 2 + i, Op: 'ADD', Pipe: 'VECTOR', Cycles: 1, Bufs: [i % 2] })),
    { Id: 2 + uses, Op: 'FREE', BufId: 0, Size: 8, Type: 'UB' }, { Id: 3 + uses, Op: 'FREE', BufId: 1, Size: 8, Type: 'UB' },
  ];
  const Edges = Array.from({ length: uses - 1 }, (_, i) => [2 + i, 3 + i]);
  fs.writeFileSync(graph, JSON.stringify({ Nodes, Edges, Capacities: { UB: 8 } }));
  const dir = path.join(work, 'storm'), result = path.join(work, 'storm-result.json');
  cli(['plan', graph, '--policy', 'seed', '--order', 'id', '--export', dir, '-o', result]);
  let out = '';
  assert.equal(contestCheck([graph, dir, '--result', result], { out: (t) => { out += t; }, err: () => {} }), 0, out);
  const r = JSON.parse(fs.readFileSync(result, 'utf8'));
  const spills = r.spills.filter((s) => s.buf === 0).sort((a, b) => a.outStep - b.outStep);
  assert.ok(spills.length >= 3, JSON.stringify(r.spills));
  // A user of buffer 0 between its first reload and its second SPILL_OUT: the literal rule joins
  // it to every later SPILL_OUT too; the plan (and the rule) only to the next one.
  const user = r.order.slice(spills[0].inStep + 1, spills[1].outStep).find((id) => id >= 2 && id < 2 + uses && (id - 2) % 2 === 0);
  assert.ok(user !== undefined);
  const third = spills[2].outNode;
  r.addedEdges.push([user, third]);
  fs.writeFileSync(result, JSON.stringify(r));
  out = '';
  assert.equal(contestCheck([graph, dir, '--result', result], { out: (t) => { out += t; }, err: () => {} }), 1);
  assert.match(out, new RegExp(`addedEdges\\[\\d+\\] ${user}->${third} is not an edge of the rule`));
  const v = spawnSync(CLI, ['verify', graph, result], { encoding: 'utf8' });
  assert.equal(v.status, 1);
  assert.match(v.stdout, new RegExp(`^edges: added edge ${user} -> ${third} is not an edge of the rule`, 'm'));
});
