// The bindings' cycles objective and timing waits: byte-identical to the CLI, every wait
// consistent with the timing it explains, verify() catching a lying wait, hostile options located.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliResult, loadEngine, sharedCases, workDir } from './engine.mjs';

let engine;
before(async () => { engine = await loadEngine(); });

const work = workDir('cycles');

// Checks every wait of a result against its own timing and graph: the named node ends exactly
// where the waiting node starts, "none" only at cycle 0, the pipe is the node's.
function checkWaits(graph, result) {
  const nodes = new Map([...graph.Nodes, ...result.addedNodes].map((n) => [n.Id, n]));
  const endOf = new Map(result.timing.map(([id, , end]) => [id, end]));
  assert.equal(result.waits.length, result.order.length);
  assert.equal(result.timing.length, result.order.length);
  const causes = new Set();
  result.waits.forEach((w, i) => {
    const [id, start] = result.timing[i];
    const node = nodes.get(id);
    assert.equal(w.pipe, node.Pipe, `waits[${i}].pipe`);
    causes.add(w.cause);
    if (w.cause === 'none') {
      assert.equal(start, 0, `waits[${i}]`);
      assert.deepEqual(Object.keys(w).filter((k) => k !== 'pipe'), ['cause']);
      return;
    }
    assert.equal(endOf.get(w.node), start, `waits[${i}]: node ${w.node} ends where node ${id} starts`);
    assert.ok(w.cycles >= 0 && w.cycles <= start, `waits[${i}].cycles`);
    assert.equal('buffer' in w, w.cause === 'address', `waits[${i}].buffer`);
    if (w.cause === 'pipe') assert.equal(nodes.get(w.node).Pipe, node.Pipe);
    if (w.cause === 'address') assert.ok(node.Op === 'ALLOC' || node.Op === 'SPILL_IN');
  });
  return causes;
}

test('every example plans to byte-identical JSON natively and in wasm under the cycles objective', () => {
  for (const { name } of JSON.parse(engine.examples())) {
    const graph = engine.example(name);
    const wasm = engine.plan(graph, JSON.stringify({ objective: 'cycles' }));
    assert.equal(wasm, cliResult(graph, ['--objective', 'cycles']), name);
    const result = JSON.parse(wasm);
    assert.equal(result.objective.name, 'cycles');
    assert.ok(result.metrics.totalCycles <= result.objective.bytesPlan.totalCycles, name);
    assert.ok(result.metrics.extraBytes * 100 <= result.objective.bytesPlan.extraBytes * 110, name);
    checkWaits(JSON.parse(graph), result);
  }
});

test('the contest cases (schedule order) give byte-identical cycles plans natively and in wasm, with every wait cause', (t) => {
  if (!existsSync(sharedCases)) return t.skip(`${sharedCases} is absent (only our machines and CI have it)`);
  for (const name of ['Matmul_Case0', 'FlashAttention_Case0', 'Conv_Case0']) {
    const graph = readFileSync(join(sharedCases, `${name}.json`), 'utf8');
    const options = { order: 'schedule', policy: 'lifetime', objective: 'cycles', disable: ['reserve'] };
    const wasm = engine.plan(graph, JSON.stringify(options));
    const native = cliResult(graph, ['--order', 'schedule', '--policy', 'lifetime', '--objective', 'cycles', '--disable', 'reserve']);
    assert.equal(wasm, native, name);
    const result = JSON.parse(wasm);
    assert.deepEqual(result.objective.disabled, ['reserve']);
    assert.ok(result.metrics.totalCycles < result.objective.bytesPlan.totalCycles, name);
    // within the margin: without reserve the spills are the bytes plan's, but retime plans reordered windows anew
    assert.ok(result.metrics.extraBytes * 100 <= result.objective.bytesPlan.extraBytes * 110, name);
    assert.deepEqual([...checkWaits(JSON.parse(graph), result)].sort(), ['address', 'edge', 'none', 'pipe'], name);
    assert.deepEqual(JSON.parse(engine.verify(graph, wasm, '{}')), { violations: [] });
  }
});

test('Matmul_Case0\'s default plan under the cycles objective (techniques stagger and sequence) is byte-identical natively and in wasm; its best plans so far come first, each verified', (t) => {
  if (!existsSync(sharedCases)) return t.skip(`${sharedCases} is absent (only our machines and CI have it)`);
  const graph = readFileSync(join(sharedCases, 'Matmul_Case0.json'), 'utf8');
  const handed = [];
  const wasm = engine.planWithProgress(graph, JSON.stringify({ objective: 'cycles' }), (progress, plan) => {
    if (plan !== undefined) handed.push({ report: JSON.parse(progress), text: plan });
    return true;
  });
  assert.equal(wasm, cliResult(graph, ['--objective', 'cycles']));
  const result = JSON.parse(wasm);
  assert.equal(result.metrics.totalCycles, 87547);
  assert.equal(result.metrics.extraBytes, 13568);
  // The bytes plan after the first order search (seconds before the longer searches end), then
  // plans that finish sooner, spaced out in time.
  assert.ok(handed.length >= 2, `${handed.length} plans handed over`);
  const plans = handed.map((h) => JSON.parse(h.text));
  assert.equal(handed[0].report.stage, 1);
  assert.equal(plans[0].metrics.extraBytes, result.objective.bytesPlan.extraBytes);
  assert.equal(plans[0].metrics.totalCycles, result.objective.bytesPlan.totalCycles);
  assert.deepEqual(plans[0].objective.steps, []);
  plans.forEach((plan, k) => {
    assert.deepEqual(JSON.parse(engine.verify(graph, handed[k].text, '{}')), { violations: [] }, `plan ${k}`);
    assert.equal(plan.objective.name, 'cycles');
    assert.ok(plan.metrics.extraBytes * 100 <= result.objective.bytesPlan.extraBytes * 110, `plan ${k}`);
    if (k === 0) return;
    assert.ok(plan.metrics.totalCycles < plans[k - 1].metrics.totalCycles, `plan ${k} finishes sooner`);
    assert.equal(handed[k].report.stage, handed[k].report.stages, `plan ${k} in the last stage`);
  });
  assert.ok(result.metrics.totalCycles <= plans.at(-1).metrics.totalCycles);
});

test('verify() names a wait that lies, and still reads a result without waits', () => {
  const graph = engine.example('one-spill');
  const text = engine.plan(graph, '{"order":"schedule"}');
  const result = JSON.parse(text);
  const at = result.waits.findIndex((w) => w.cause === 'edge');
  assert.ok(at >= 0);
  for (const lie of [{ cause: 'pipe' }, { node: result.waits[at].node + 1 }, { cycles: result.waits[at].cycles + 1 }, { pipe: 'NOPE' }]) {
    const tampered = JSON.parse(text);
    Object.assign(tampered.waits[at], lie);
    const { violations } = JSON.parse(engine.verify(graph, JSON.stringify(tampered), '{}'));
    assert.equal(violations.length, 1, JSON.stringify(lie));
    assert.equal(violations[0].kind, 'timing');
    assert.equal(violations[0].field, `waits[${at}]`);
    assert.equal(violations[0].step, at);
  }
  const dropped = JSON.parse(text);
  dropped.waits.pop();
  assert.equal(JSON.parse(engine.verify(graph, JSON.stringify(dropped), '{}')).violations[0].field, 'waits');
  const older = JSON.parse(text);
  delete older.waits;
  assert.deepEqual(JSON.parse(engine.verify(graph, JSON.stringify(older), '{}')), { violations: [] });
  const notACause = JSON.parse(text);
  notACause.waits[1].cause = 'traffic';
  const error = JSON.parse(engine.verify(graph, JSON.stringify(notACause), '{}')).error;
  assert.equal(error.kind, 'input');
  assert.equal(error.where.source, 'result');
  assert.equal(error.where.field, 'waits[1].cause');
});

test('hostile objective and technique values come back located in the options', () => {
  const graph = engine.example('fits');
  const cases = [
    ['{"objective":"fast"}', 14, 'objective', 'unknown objective "fast": expected bytes or cycles'],
    ['{"objective":1.5}', 14, 'objective', 'must be "bytes" or "cycles", got a non-integer number'],
    ['{"objective":1e3}', 14, 'objective', 'must be "bytes" or "cycles", got an integer'],
    ['{"objective":null}', 14, 'objective', 'must be "bytes" or "cycles", got null'],
    ['{"objective":"cycles","disable":{"hoist":true}}', 33, 'disable', 'must be an array of technique names, got an object'],
    ['{"objective":"cycles","disable":["hoist",["reserve"]]}', 42, 'disable[1]', 'must be a technique\'s name, got an array'],
    ['{"objective":"cycles","disable":["HOIST"]}', 34, 'disable[0]', 'unknown technique "HOIST" of the cycles objective: expected one of placement, fit, schedule, hoist, swaps, policies, reserve'],
    ['{"disable":["hoist"],"objective":"bytes"}', 12, 'disable', 'switches off techniques of the objective "cycles", but the objective is "bytes"'],
  ];
  for (const [options, column, field, message] of cases) {
    const { error } = JSON.parse(engine.plan(graph, options));
    assert.ok(error, options);
    assert.equal(error.kind, 'input', options);
    assert.deepEqual(error.where, { source: 'options', line: 1, column, field }, options);
    assert.ok(error.message.includes(message), `${options}: ${error.message}`);
  }
  assert.equal(JSON.parse(engine.plan(graph, '{"objective":"cycles","disable":[]}')).objective.name, 'cycles');
});

test('cyclesTechniques() lists what --disable takes, and compare() shows both objectives like the CLI', () => {
  const techniques = JSON.parse(engine.cyclesTechniques());
  assert.deepEqual(techniques.map((t) => t.name), ['placement', 'fit', 'schedule', 'hoist', 'swaps', 'policies', 'reserve', 'orders', 'search', 'headroom', 'stagger', 'sequence', 'retime']);
  const help = execFileSync(cli, ['--help'], { encoding: 'utf8' });
  for (const t of techniques) assert.ok(help.includes(`${t.name}: `), t.name);
  const graph = engine.example('one-spill');
  writeFileSync(join(work, 'one-spill.json'), graph);
  const strip = (rows) => rows.map(({ ms, ...rest }) => rest);
  const wasm = JSON.parse(engine.compare(graph, '{"objective":"cycles"}'));
  const native = JSON.parse(execFileSync(cli, ['compare', join(work, 'one-spill.json'), '--objective', 'cycles', '--json', '-'], { encoding: 'utf8' }));
  assert.deepEqual(strip(wasm), strip(native));
  for (const row of wasm) {
    assert.ok(row.totalCycles <= row.bytesPlan.totalCycles, JSON.stringify(row));
    assert.ok(row.extraBytes * 100 <= row.bytesPlan.extraBytes * 110, JSON.stringify(row));
  }
  assert.ok(wasm.some((row) => row.totalCycles < row.bytesPlan.totalCycles));
  assert.ok(JSON.parse(engine.compare(graph, '{}')).every((row) => !('bytesPlan' in row)));
});

test('frontier() gives the CLI\u2019s front byte for byte; plan() with each point\u2019s objective and margin makes that point again, verified', () => {
  const graphs = ['tiled-matmul-small', 'conv-like', 'fragmentation'].map((name) => engine.example(name));
  for (const graph of graphs) {
    const path = join(work, 'frontier.json');
    writeFileSync(path, graph);
    const text = engine.frontier(graph, '{}');
    assert.equal(text, execFileSync(cli, ['frontier', path, '-o', '-'], { encoding: 'utf8' }));
    const { points } = JSON.parse(text);
    assert.ok(points.length >= 1);
    const bytesPlan = JSON.parse(engine.plan(graph, '{}')).metrics;
    assert.ok(points[0].extraBytes <= bytesPlan.extraBytes, 'no point moves more data than the bytes plan first');
    assert.ok(points.at(-1).totalCycles <= bytesPlan.totalCycles);
    for (let k = 1; k < points.length; k++) {
      assert.ok(points[k - 1].extraBytes < points[k].extraBytes, text);
      assert.ok(points[k - 1].totalCycles > points[k].totalCycles, text);
    }
    for (const p of points) {
      const options = p.objective === 'cycles' ? { objective: 'cycles', margin: p.marginPercent } : {};
      const result = JSON.parse(engine.plan(graph, JSON.stringify(options)));
      assert.deepEqual([result.metrics.extraBytes, result.metrics.totalCycles], [p.extraBytes, p.totalCycles]);
      assert.deepEqual(JSON.parse(engine.verify(graph, JSON.stringify(result), '{}')).violations, []);
    }
  }
  // frontierWithProgress: the same answer, told the front of the runs so far after each run and
  // the runs the front takes as far as known: 8 at first, fewer once margins would make a plan
  // made already (fragmentation's bytes plan moves nothing, so every margin allows the same data:
  // one cycles run; conv-like's runs are all limited by their margins, up to 80%: technique
  // stagger's orders move more)
  const runsTold = [];
  for (const graph of graphs) {
    const told = [];
    const text = engine.frontierWithProgress(graph, '{}', (json) => told.push(JSON.parse(json)));
    assert.equal(text, engine.frontier(graph, '{}'));
    assert.deepEqual(told.map((t) => t.runsMade), told.map((_, k) => k + 1));
    runsTold.push(told.map((t) => t.runs));
    assert.deepEqual(told.at(-1).points, JSON.parse(text).points);
    assert.deepEqual(told[0].points.map((p) => p.objective), ['bytes']);
  }
  assert.deepEqual(runsTold, [[8, 8, 8, 8, 8, 8, 8, 8], [8, 8, 8, 8, 8, 8, 8, 8], [8, 2]]);
  // a margin lets the cycles objective move more data: 0 keeps it to the bytes plan's
  const graph = graphs[0];
  const atZero = JSON.parse(engine.plan(graph, JSON.stringify({ objective: 'cycles', margin: 0 })));
  assert.ok(atZero.metrics.extraBytes <= atZero.objective.bytesPlan.extraBytes);
  // "marginLimited": whether the margin refused a plan for its data; when not, a larger margin
  // makes the same plan (conv-like at 200%)
  assert.equal(atZero.objective.marginLimited, true);
  const planAt = (name, margin) => JSON.parse(engine.plan(engine.example(name), JSON.stringify({ objective: 'cycles', margin })));
  assert.equal(planAt('tiled-matmul-small', 1000).objective.marginLimited, false);
  assert.equal(planAt('conv-like', 80).objective.marginLimited, true);
  const at200 = planAt('conv-like', 200);
  const at1000 = planAt('conv-like', 1000);
  assert.equal(at200.objective.marginLimited, false);
  assert.deepEqual([at1000.order, at1000.metrics.totalCycles], [at200.order, at200.metrics.totalCycles]);
});

test('the option "margin" is refused with its field: out of 0..1000, not an integer, or without objective cycles', () => {
  const graph = engine.example('one-spill');
  const errorOf = (options) => JSON.parse(engine.plan(graph, JSON.stringify(options))).error;
  for (const [options, message] of [
    [{ objective: 'cycles', margin: 1001 }, 'options: field "margin" (percent) must be an integer between 0 and 1000, got 1001'],
    [{ objective: 'cycles', margin: -1 }, 'options: field "margin" (percent) must be an integer between 0 and 1000, got -1'],
    [{ objective: 'cycles', margin: '5' }, 'options: field "margin" (percent) must be an integer between 0 and 1000, got a string'],
    [{ margin: 5 }, 'options: field "margin" is the data margin of the objective "cycles", but the objective is "bytes"'],
  ]) {
    const e = errorOf(options);
    assert.equal(e.kind, 'input', JSON.stringify(options));
    assert.equal(e.where.field, 'margin');
    assert.match(e.message, /^line 1, column \d+: /);
    assert.ok(e.message.endsWith(message), e.message);
  }
  assert.match(JSON.parse(engine.frontier(graph, '{"margin": true}')).error.message, /field "margin"/);
  assert.match(
    JSON.parse(engine.plan(graph, '{"objective": "cycles", "margin": 5, "margin": 6}')).error.message,
    /field "margin" appears twice/,
  );
  // frontier() runs the cycles objective: its techniques may be switched off without naming it,
  // as `spillway frontier --disable` does
  const path = join(work, 'frontier-disable.json');
  writeFileSync(path, graph);
  assert.equal(
    engine.frontier(graph, '{"disable": ["search", "headroom"]}'),
    execFileSync(cli, ['frontier', path, '--disable', 'search,headroom', '-o', '-'], { encoding: 'utf8' }),
  );
});

test('planWithProgress under the cycles objective reports its stages, the last in cycles, and plans as plan() does', () => {
  const graph = engine.example('tiled-matmul-small');
  const options = JSON.stringify({ objective: 'cycles' });
  const reports = [];
  const text = engine.planWithProgress(graph, options, (json) => (reports.push(JSON.parse(json)), true));
  assert.equal(text, engine.plan(graph, options));
  assert.ok(reports.length >= 2);
  for (let k = 0; k < reports.length; k++) {
    const r = reports[k];
    assert.equal(r.stages, 5, JSON.stringify(r));
    assert.ok(r.stage >= 1 && r.stage <= 5 && (k === 0 || r.stage >= reports[k - 1].stage), JSON.stringify(reports));
  }
  const last = reports.filter((r) => r.stage === 5);
  assert.ok(last.length >= 1);
  assert.deepEqual([...new Set(last.map((r) => r.stageName))], ['finish sooner']);
  assert.deepEqual(
    last.map((r) => [r.evaluations, r.budget]),
    last.map((_, k) => [k + 1, 0]),
  );
  assert.ok(JSON.parse(text).metrics.totalCycles <= last.at(-1).best);
  // under bytes: no stage fields
  const plain = [];
  engine.planWithProgress(graph, '{}', (json) => (plain.push(JSON.parse(json)), true));
  assert.ok(plain.length >= 1 && plain.every((r) => !('stage' in r)));
});
