// What the playground's anytime runs (web/src/lib/anytime.ts) rely on in the bindings: the plans
// of the efforts it climbs through are each the CLI's at that effort and none moves more data than
// the one before; a call it stops after its first report and then runs again gives the run's own
// bytes; and a report's budget minus the constructions' evaluations is the effort (so the default
// effort can be read off a call without one).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const generated = join(root, 'web/src/engine/generated');
const cli = join(root, 'build/native/spillway');
const work = mkdtempSync(join(tmpdir(), 'spillway-anytime-'));

let engine;
before(async () => {
  assert.ok(existsSync(join(generated, 'spillway.mjs')), 'build the wasm first: bash scripts/build-wasm.sh');
  assert.ok(existsSync(cli), 'build the CLI first: cmake --build build/native');
  const { default: createSpillway } = await import(join(generated, 'spillway.mjs'));
  engine = await createSpillway({ wasmBinary: readFileSync(join(generated, 'spillway.wasm')) });
});

// A small flash attention with small L1 and UB: the order search makes the default order, and a
// larger effort finds a better one (3,396 bytes moved at efforts 50 and 400, 3,328 at 3,200).
function searchedGraph() {
  const file = join(work, 'flash.json');
  execFileSync(cli, ['generate', 'flash', '2', '3', '-o', file]);
  const g = JSON.parse(readFileSync(file, 'utf8'));
  return JSON.stringify({ ...g, Capacities: { L1: 1024, UB: 512, L0A: 256, L0B: 256, L0C: 512 } });
}

function cliResult(graphText, args) {
  const graph = join(work, 'graph.json');
  const out = join(work, 'result.json');
  writeFileSync(graph, graphText);
  execFileSync(cli, ['plan', graph, '-o', out, ...args], { stdio: 'pipe' });
  return readFileSync(out, 'utf8');
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
