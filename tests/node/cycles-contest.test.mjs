// The cycles objective on the contest cases: byte-identical natively and in wasm, every wait
// consistent with its timing, the plans so far handed over first and verified.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkWaits, cliResult, loadEngine, sharedCases } from './engine.mjs';

let engine;
before(async () => { engine = await loadEngine(); });

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
