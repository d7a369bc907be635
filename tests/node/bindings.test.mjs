// The WebAssembly engine under Node: same bytes as the native CLI, errors as JSON, re-verification.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliResult, loadEngine, sharedCases, workDir } from './engine.mjs';

let engine;
before(async () => { engine = await loadEngine(); });

const work = workDir('bindings');
before(() => writeFileSync(join(work, 'frag.json'), execFileSync(cli, ['example', 'fragmentation'], { encoding: 'utf8' })));

test('version and policies match the native build', () => {
  const native = execFileSync(cli, ['--version'], { encoding: 'utf8' }).trim();
  assert.equal(engine.version(), native);
  assert.deepEqual(JSON.parse(engine.policies()), ['best', 'lifetime', 'residency', 'seed', 'window', 'belady', 'lru', 'fifo']);
});

test('orders() lists the order sources of `spillway orders`, with titles and descriptions', () => {
  const orders = JSON.parse(engine.orders());
  const native = execFileSync(cli, ['orders'], { encoding: 'utf8' }).trim().split('\n')
    .map((l) => { const [name, ...title] = l.split(/\s+/); return { name, title: title.join(' ') }; });
  assert.deepEqual(orders.map(({ name, title }) => ({ name, title })), native);
  assert.equal(orders[0].name, 'graph');
  for (const name of ['search', 'min-peak', 'best']) assert.ok(orders.some((o) => o.name === name), name);
  for (const o of orders) assert.ok(o.description.length > 20, o.name);
});

test('the order search gives byte-identical plans natively and in wasm, for a given effort', () => {
  for (const name of ['tiled-matmul', 'flash-attention-like', 'conv-like']) {
    const graph = engine.example(name);
    for (const order of ['search', 'min-peak']) {
      const wasm = engine.plan(graph, JSON.stringify({ order, effort: 150 }));
      assert.equal(wasm, cliResult(graph, ['--order', order, '--effort', '150']), `${name} / ${order}`);
      const result = JSON.parse(wasm);
      assert.equal(result.orderSource, order);
      assert.equal(result.search.effort, 150);
      assert.ok(result.metrics.bound.total <= result.metrics.extraBytes);
    }
  }
});

test('planWithProgress reports the search and stops when told, keeping its best order', () => {
  const graph = engine.example('flash-attention-like');
  const seen = [];
  const stopped = JSON.parse(engine.planWithProgress(graph, '{"order":"search","effort":2000}', (p) => {
    seen.push(JSON.parse(p));
    return seen.length < 2;
  }));
  assert.ok(seen.length >= 2);
  assert.ok(seen[1].evaluations > seen[0].evaluations);
  assert.ok(seen[1].best <= seen[0].best);
  assert.equal(seen[0].budget, seen[1].budget);
  assert.equal(stopped.orderSource, 'search');
  assert.ok(stopped.search.evaluations < JSON.parse(engine.plan(graph, '{"order":"search","effort":2000}')).search.evaluations);
  assert.deepEqual(JSON.parse(engine.verify(graph, JSON.stringify(stopped), '{}')), { violations: [] });
  // Without stopping, it is plan() with progress on the side: the same bytes.
  let calls = 0;
  const full = engine.planWithProgress(graph, '{"order":"search","effort":300}', () => { calls += 1; return true; });
  assert.equal(full, engine.plan(graph, '{"order":"search","effort":300}'));
  assert.ok(calls >= 1);
});

test('examples() lists the same examples as the CLI', () => {
  const names = JSON.parse(engine.examples()).map((e) => e.name);
  const native = execFileSync(cli, ['examples'], { encoding: 'utf8' }).trim().split('\n').map((l) => l.split(/\s+/)[0]);
  assert.deepEqual(names, native);
  assert.ok(names.length >= 8);
  for (const name of names) assert.equal(engine.example(name), execFileSync(cli, ['example', name], { encoding: 'utf8' }));
});

test('every example plans to byte-identical JSON natively and in wasm, both cost models', () => {
  for (const { name } of JSON.parse(engine.examples())) {
    const graph = engine.example(name);
    for (const cost of ['contest', 'seed']) {
      const wasm = engine.plan(graph, JSON.stringify({ cost: { model: cost } }));
      assert.equal(wasm, cliResult(graph, ['--cost', cost]), `${name} / ${cost}`);
      const result = JSON.parse(wasm);
      assert.equal(result.metrics.spills, result.spills.length);
    }
  }
});

test('the contest cases give byte-identical results natively and in wasm', (t) => {
  if (!existsSync(sharedCases)) return t.skip(`${sharedCases} is absent (only our machines and CI have it)`);
  for (const name of ['Matmul_Case0', 'FlashAttention_Case0', 'Conv_Case0']) {
    const graph = readFileSync(join(sharedCases, `${name}.json`), 'utf8');
    const wasm = engine.plan(graph, JSON.stringify({ order: 'id', capacities: { L1: 4096, UB: 1024, L0A: 256, L0B: 256, L0C: 512 } }));
    assert.equal(wasm, cliResult(graph, ['--order', 'id', '--caps', 'L1=4096,UB=1024,L0A=256,L0B=256,L0C=512']), name);
    assert.ok(JSON.parse(wasm).metrics.spills > 0);
  }
});


test('a result larger than the block reserved for it grows and stays byte-identical to the CLI\'s', () => {
  // plan() reserves 4x the graph's text + 1 MB for its result (wasm/bindings.cpp, ResultText): a
  // compact matmul of 16^3 tiles with a tiny L1 spills on nearly every step and writes more.
  const graph = JSON.stringify(JSON.parse(execFileSync(cli, ['generate', 'matmul', '16', '16', '16'], { encoding: 'utf8', maxBuffer: 1 << 26 })));
  const caps = { L1: 512, UB: 1024, L0A: 256, L0B: 256, L0C: 512 };
  const wasm = engine.plan(graph, JSON.stringify({ order: 'id', policy: 'seed', capacities: caps }));
  assert.ok(wasm.length > 4 * graph.length + (1 << 20), `the result (${wasm.length} bytes) must outgrow its reserved block`);
  assert.equal(wasm, cliResult(graph, ['--order', 'id', '--policy', 'seed', '--caps', Object.entries(caps).map(([k, v]) => `${k}=${v}`).join(',')]));
  const result = JSON.parse(wasm);
  assert.ok(result.metrics.spills > 5000, `${result.metrics.spills} spills`);
  assert.deepEqual(JSON.parse(engine.verify(graph, wasm, JSON.stringify({ capacities: caps }))), { violations: [] });
});
test('options change the plan: a larger capacity needs fewer spills', () => {
  const graph = engine.example('one-spill');
  const tight = JSON.parse(engine.plan(graph, '{"order":"schedule"}'));
  const caps = { ...JSON.parse(graph).Capacities };
  for (const k of Object.keys(caps)) caps[k] *= 4;
  const roomy = JSON.parse(engine.plan(graph, JSON.stringify({ capacities: caps, order: 'schedule' })));
  assert.equal(tight.metrics.spills, 1);
  assert.equal(roomy.metrics.spills, 0);
  assert.deepEqual(roomy.capacities, caps);
});

test('bad input comes back as an error naming the place, never a crash', () => {
  const notJson = JSON.parse(engine.plan('{"Nodes": [\n  {"Id": 0,,}]}', '{}'));
  assert.equal(notJson.error.kind, 'input');
  assert.match(notJson.error.message, /^line 2, column 12: /);
  assert.deepEqual(notJson.error.where, { source: 'graph', line: 2, column: 12 });
  const badField = JSON.parse(engine.plan('{"Nodes":[{"Id":3,"Op":"ALLOC","BufId":0,"Type":"L1"}],"Edges":[]}', '{}'));
  assert.equal(badField.error.message, 'line 1, column 11: node 3: field "Size" is missing');
  assert.deepEqual(badField.error.where, { source: 'graph', line: 1, column: 11, node: 3, nodeIndex: 0, field: 'Size' });
  const badOptions = JSON.parse(engine.plan(engine.example('fits'), '{"cost":{"model":"free"}}'));
  assert.equal(badOptions.error.message, 'line 1, column 18: options.cost: field "model" must be "seed" or "contest", got "free"');
  assert.deepEqual(badOptions.error.where, { source: 'options', line: 1, column: 18, field: 'cost.model' });
  const unknownExample = JSON.parse(engine.example('nope'));
  assert.equal(unknownExample.error.kind, 'input');
  assert.match(unknownExample.error.message, /nope/);
  // The engine is still usable after errors.
  assert.equal(JSON.parse(engine.plan(engine.example('fits'), '{}')).metrics.spills, 0);
});

test('verify() accepts a plan and names the fault in a tampered one', () => {
  const graph = engine.example('one-spill');
  const resultText = engine.plan(graph, '{"order":"schedule"}');  // an order with a spill to tamper with
  assert.deepEqual(JSON.parse(engine.verify(graph, resultText, '{}')), { violations: [] });
  const tampered = JSON.parse(resultText);
  const spill = tampered.spills[0];
  const inAt = tampered.order.indexOf(spill.inNode);
  tampered.order.splice(inAt, 1);            // drop the SPILL_IN: the next use reads nothing
  tampered.order.push(spill.inNode);
  const { violations } = JSON.parse(engine.verify(graph, JSON.stringify(tampered), '{}'));
  assert.ok(violations.length > 0);
  assert.ok(violations.some((v) => v.kind === 'residency' || v.kind === 'order'), JSON.stringify(violations));
});

test('verify() rejects false lower bounds and capacities, naming the field, like `spillway verify`', () => {
  const graph = engine.example('tiled-matmul');
  const resultText = engine.plan(graph, '{}');
  writeFileSync(join(work, 'tm.json'), graph);
  const cases = [
    ['metrics.bound.total', (r) => { r.metrics.bound.total = r.metrics.extraBytes + 1; }, 'metrics'],
    ['metrics.cyclesBound.plan.total', (r) => { r.metrics.cyclesBound.plan.total = 1e15; }, 'metrics'],
    ['metrics.cyclesBound.graph.total', (r) => { r.metrics.cyclesBound.graph.total = -1; }, 'metrics'],
    // Consistent with the plan (a term below its total): only the recomputation sees it.
    ['metrics.cyclesBound.order.criticalPath', (r) => { r.metrics.cyclesBound.order.criticalPath -= 1; }, 'metrics'],
    ['capacities.L1', (r) => { r.capacities.L1 += 1; }, 'capacities'],
  ];
  for (const [field, tamper, kind] of cases) {
    const tampered = JSON.parse(resultText);
    tamper(tampered);
    const text = JSON.stringify(tampered);
    const { violations } = JSON.parse(engine.verify(graph, text, '{}'));
    assert.ok(violations.some((v) => v.field === field && v.kind === kind), `${field}: ${JSON.stringify(violations)}`);
    writeFileSync(join(work, 'tm.result'), text);
    const native = spawnSync(cli, ['verify', join(work, 'tm.json'), join(work, 'tm.result')], { encoding: 'utf8' });
    assert.equal(native.status, 1, field);
    assert.deepEqual(native.stdout.trim().split('\n'), violations.map((v) => `${v.kind}: ${v.message}`));
  }
});

test('compare() gives the rows of `spillway compare --json -`, minus wall time', () => {
  const graph = engine.example('fragmentation');
  const strip = (rows) => rows.map(({ ms, ...rest }) => rest);
  const wasm = JSON.parse(engine.compare(graph, '{}'));
  const native = JSON.parse(execFileSync(cli, ['compare', join(work, 'frag.json'), '--json', '-'], {
    encoding: 'utf8', input: '', env: process.env, cwd: work,
  }).toString() || '[]');
  assert.deepEqual(strip(wasm), strip(native));
  // graph (the lesson pins its Order), schedule, reuse, search, min-peak, id × best, lifetime,
  // residency, seed, window, belady, lru, fifo
  assert.equal(wasm.length, 48);
  const best = wasm.find((r) => r.policy === 'best' && r.order === 'schedule');
  assert.equal(best.planPolicy, 'lifetime');
  assert.equal(best.spills, 0);
  assert.equal(wasm.find((r) => r.policy === 'seed' && r.order === 'schedule').spills, 1);
});

test('metrics() gives the order demand peak that plan() reports', () => {
  const graph = engine.example('tiled-matmul-small');
  const m = JSON.parse(engine.metrics(graph, '{"order":"id"}'));
  const r = JSON.parse(engine.plan(graph, '{"order":"id"}'));
  assert.deepEqual(m.demandPeak, r.metrics.demandPeak);
  assert.deepEqual(m.order, r.inputOrder);
});

test('the CLI exits 2 with one line naming the place for bad input', () => {
  const bad = join(work, 'bad.json');
  writeFileSync(bad, '{"Nodes":[{"Id":0,"Op":"ALLOC","BufId":0,"Size":-4,"Type":"L1"}],"Edges":[]}');
  const r = spawnSync(cli, ['plan', bad], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.equal(r.stderr, `spillway: error: ${bad}: line 1, column 49: node 0: field "Size" must be between 1 and 68719476736, got -4\n`);
  assert.equal(r.stdout, '');
});

// What the playground's anytime runs (web/src/lib/anytime.ts) rely on: the plans of the efforts it
// climbs through are each the CLI's at that effort and none moves more data than the one before; a
// call it stops after its first report and then runs again gives the run's own bytes; and a
// report's budget minus the constructions' evaluations is the effort (so the default effort can be
// read off a call without one).
// A small flash attention with small L1 and UB: the order search makes the default order, and a
// larger effort finds a better one (3,396 bytes moved at efforts 50 and 400, 3,132 at 3,200).
function searchedGraph() {
  const file = join(work, 'flash.json');
  execFileSync(cli, ['generate', 'flash', '2', '3', '-o', file]);
  const g = JSON.parse(readFileSync(file, 'utf8'));
  return JSON.stringify({ ...g, Capacities: { L1: 1024, UB: 512, L0A: 256, L0B: 256, L0C: 512 } });
}

/** planWithProgress with the reports collected; `stopAt` reports before it asks to stop. */
function planReporting(graph, options, stopAt = Infinity) {
  const reports = [];
  const text = engine.planWithProgress(graph, JSON.stringify(options), (p) => {
    reports.push(JSON.parse(p));
    return reports.length < stopAt;
  });
  return { text, result: JSON.parse(text), reports };
}

test('the efforts the page climbs through give the CLI\'s plans, none worse than the one before', () => {
  const graph = searchedGraph();
  const moved = [];
  for (const effort of [50, 400, 3200]) {
    const { text, result, reports } = planReporting(graph, { effort });
    assert.equal(result.orderSource, 'search');
    assert.equal(result.search.effort, effort);
    assert.equal(text, cliResult(graph, ['--effort', String(effort)]), `effort ${effort}: the CLI's bytes`);
    assert.deepEqual(JSON.parse(engine.verify(graph, text, '{}')), { violations: [] });
    if (moved.length) assert.ok(result.metrics.extraBytes <= moved.at(-1), `effort ${effort} moves ${result.metrics.extraBytes}, more than ${moved.at(-1)}`);
    assert.ok(result.metrics.bound.total <= result.metrics.extraBytes);
    assert.ok(reports.length >= 1);
    assert.ok(reports.every((r) => r.best >= 0 && r.evaluations <= r.budget));
    moved.push(result.metrics.extraBytes);
  }
  assert.ok(moved.at(-1) < moved[0], `the climb pays here: ${moved.join(', ')} bytes`);
});

test('a report\'s budget less the constructions is the effort, also the default one', () => {
  const graph = searchedGraph();
  const first = planReporting(graph, { effort: 50 });
  const constructions = first.reports.at(-1).budget - 50;
  assert.ok(constructions > 0);
  const asked = planReporting(graph, {});
  assert.equal(asked.reports[0].budget - constructions, asked.result.search.effort, 'the default effort');
  assert.equal(asked.text, cliResult(graph, []));
  // stopped at its first report, the call makes a plan the page drops; run again, the same bytes
  const stopped = planReporting(graph, {}, 1);
  assert.ok(stopped.reports.length === 2, 'the report after the stop is the search\'s last');
  assert.ok(stopped.result.search.evaluations < asked.result.search.evaluations);
  assert.equal(engine.planWithProgress(graph, '{}', () => true), asked.text);
});

test('a spill-heavy plan\'s brief decisions are byte-identical natively and in wasm, every policy', () => {
  // 464 nodes, 2,093 spills with every policy: over a quarter of the nodes and over 1,024.
  const graph = execFileSync(cli, ['generate', 'thrash', '32', '400', '16'], { encoding: 'utf8' });
  for (const policy of ['best', 'lifetime', 'residency', 'seed', 'window']) {
    const wasm = engine.plan(graph, JSON.stringify({ policy }));
    assert.equal(wasm, cliResult(graph, ['--policy', policy]), policy);
    const result = JSON.parse(wasm);
    assert.equal(result.decisionsBrief, true, policy);
    assert.equal(result.metrics.spills, 2093, policy);
    assert.equal(result.decisions.length, 2 * 32 + 2 * 2093, policy);
  }
});
