// The trade-off front in the bindings: the CLI's front byte for byte, each point made again by
// plan(), the progress it reports, and what the margin does.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, loadEngine, workDir } from './engine.mjs';

let engine;
before(async () => { engine = await loadEngine(); });

const work = workDir('frontier');

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
