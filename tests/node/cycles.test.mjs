// The bindings' cycles objective and timing waits: byte-identical to the CLI, every wait
// consistent with the timing it explains, verify() catching a lying wait, hostile options located.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkWaits, cli, cliResult, loadEngine, workDir } from './engine.mjs';

let engine;
before(async () => { engine = await loadEngine(); });

const work = workDir('cycles');

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
