// Anytime runs (web/src/lib/anytime.ts) against a scripted engine and clock: which efforts are
// planned, which plans are handed over (a first one on a long graph), and that the answer is the
// call asked for.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  EFFORT_FACTOR,
  FIRST_EFFORT,
  FIRST_PLAN_CHARS,
  LONG_SEARCH_MS,
  planAnytime,
} from '../../build/web-lib/anytime.js';

const CONSTRUCTIONS = 200; // evaluations the search spends on its constructions
const DEFAULT_EFFORT = 10000; // the scripted engine's own effort when none is asked for

/** A scripted planWithProgress: before its first report `setupMs` pass, then `stepMs` per report,
 * `reports` reports in all (or `error` at once); a stopped search still makes its last report (the search's end). */
function scriptedEngine({ setupMs = 100, stepMs = 100, reports = 5, error = null } = {}) {
  const engine = { clock: 0, calls: [] };
  engine.now = () => engine.clock;
  engine.plan = (_graph, optionsJson, onProgress) => {
    const options = JSON.parse(optionsJson);
    const effort = options.effort ?? DEFAULT_EFFORT;
    engine.calls.push(effort);
    if (error) return error;
    engine.clock += setupMs;
    const report = (k) => JSON.stringify({ evaluations: k, budget: effort + CONSTRUCTIONS, best: 1000 - k });
    for (let k = 1; k <= reports; k++) {
      if (k > 1) engine.clock += stepMs;
      if (!onProgress(report(k)) && k < reports) {
        onProgress(report(reports));
        return `{"plan":${effort},"stopped":true}`;
      }
    }
    return `{"plan":${effort}}`;
  };
  return engine;
}

/** A graph text of FIRST_PLAN_CHARS characters: long enough for a first plan. */
const LONG_GRAPH = `{${' '.repeat(FIRST_PLAN_CHARS - 2)}}`;

function run(engine, options, graph = '{}') {
  const handed = [];
  const progress = [];
  const best = [];
  const hooks = {
    plan: (text, effort) => handed.push([effort, text]),
    progress: (_p, effort) => progress.push(effort),
    bestSoFar: (text, step) => best.push([step, text]),
  };
  const text = planAnytime(engine.plan, graph, { capacities: {}, ...options }, hooks, engine.now);
  return { text, handed, progress, best };
}

test('the default effort on a short graph: one call, nothing handed over before it', () => {
  const engine = scriptedEngine();
  const r = run(engine, {});
  assert.equal(r.text, '{"plan":10000}');
  assert.deepEqual(engine.calls, [DEFAULT_EFFORT]);
  assert.deepEqual(r.handed, []);
  assert.deepEqual(r.progress, [null, null, null, null, null]);
});

test('an effort above the second rung climbs from the start: 50, 400, 3200, then the effort asked', () => {
  const engine = scriptedEngine({ reports: 2 });
  const r = run(engine, { effort: 20000 });
  assert.equal(FIRST_EFFORT * EFFORT_FACTOR, 400);
  assert.deepEqual(engine.calls, [50, 400, 3200, 20000]);
  assert.deepEqual(r.handed, [
    [50, '{"plan":50}'],
    [400, '{"plan":400}'],
    [3200, '{"plan":3200}'],
  ]);
  assert.equal(r.text, '{"plan":20000}');
  assert.deepEqual(r.progress, [50, 50, 400, 400, 3200, 3200, 20000, 20000]);
});

test('an effort up to the second rung is one call', () => {
  const engine = scriptedEngine();
  assert.equal(run(engine, { effort: 400 }).text, '{"plan":400}');
  assert.deepEqual(engine.calls, [400]);
});

test('the default effort on a long search: stopped, then climbs to the effort the engine had chosen', () => {
  const engine = scriptedEngine({ setupMs: 1000, stepMs: 1000, reports: 20 });
  const r = run(engine, {});
  // stopped at the report after LONG_SEARCH_MS that is also over twice the set-up (at 6 s)
  assert.equal(LONG_SEARCH_MS, 5000);
  assert.deepEqual(engine.calls, [DEFAULT_EFFORT, 50, 400, 3200, DEFAULT_EFFORT]);
  assert.deepEqual(
    r.handed.map(([effort]) => effort),
    [50, 400, 3200],
  );
  assert.equal(r.text, '{"plan":10000}', 'the stopped call is dropped: the answer is a complete call');
  assert.deepEqual(r.progress.slice(0, 5), [null, null, null, null, null], 'the reports before the stop');
});

test('a long set-up keeps the call going: the search has not yet taken twice as long', () => {
  const engine = scriptedEngine({ setupMs: 4000, stepMs: 1000, reports: 6 });
  const r = run(engine, {});
  assert.deepEqual(engine.calls, [DEFAULT_EFFORT]);
  assert.equal(r.text, '{"plan":10000}');
});

test('a stop asked at the search\u2019s last report stops nothing', () => {
  const engine = scriptedEngine({ setupMs: 1000, stepMs: 1000, reports: 6 });
  const r = run(engine, {});
  assert.deepEqual(engine.calls, [DEFAULT_EFFORT]);
  assert.equal(r.text, '{"plan":10000}');
  assert.deepEqual(r.handed, []);
});

test('an error is the answer as it is', () => {
  const error = '{"error":{"kind":"input","message":"bad"}}';
  const engine = scriptedEngine({ error });
  assert.equal(run(engine, {}).text, error);
  const climbing = scriptedEngine({ error });
  assert.equal(run(climbing, { effort: 20000 }).text, error);
  assert.deepEqual(climbing.calls, [FIRST_EFFORT], 'the climb ends at the first error');
});

test('a graph of FIRST_PLAN_CHARS: the first rung is handed over, then the call asked for', () => {
  const engine = scriptedEngine();
  const r = run(engine, {}, LONG_GRAPH);
  assert.deepEqual(engine.calls, [FIRST_EFFORT, DEFAULT_EFFORT]);
  assert.deepEqual(r.handed, [[50, '{"plan":50}']]);
  assert.equal(r.text, '{"plan":10000}');
  assert.deepEqual(r.progress, [50, 50, 50, 50, 50, null, null, null, null, null]);
  assert.deepEqual(run(scriptedEngine(), {}, LONG_GRAPH.slice(1)).handed, [], 'one character shorter: none');
});

test('no first rung under the objective cycles: the call asked for alone', () => {
  const engine = scriptedEngine();
  const r = run(engine, { objective: 'cycles' }, LONG_GRAPH);
  assert.deepEqual(engine.calls, [DEFAULT_EFFORT]);
  assert.deepEqual(r.handed, []);
  assert.equal(r.text, '{"plan":10000}');
});

test('under the objective cycles a long call is never stopped to climb, nor a large effort climbed to', () => {
  for (const options of [{ objective: 'cycles' }, { objective: 'cycles', effort: 20000 }]) {
    const engine = scriptedEngine({ setupMs: 1000, stepMs: 1000, reports: 20 });
    const r = run(engine, options, LONG_GRAPH);
    const effort = options.effort ?? DEFAULT_EFFORT;
    assert.deepEqual(engine.calls, [effort], JSON.stringify(options));
    assert.deepEqual(r.handed, []);
    assert.equal(r.text, `{"plan":${effort}}`, 'the call asked for, whole');
    assert.equal(r.progress.length, 20, 'every report passed on');
  }
});

test('a first rung for an effort asked up to the second rung, none for FIRST_EFFORT or less', () => {
  const engine = scriptedEngine();
  const r = run(engine, { effort: FIRST_EFFORT * EFFORT_FACTOR }, LONG_GRAPH);
  assert.deepEqual(engine.calls, [50, 400]);
  assert.deepEqual(r.handed, [[50, '{"plan":50}']]);
  assert.equal(r.text, '{"plan":400}');
  for (const effort of [FIRST_EFFORT, 10]) {
    const small = scriptedEngine();
    assert.equal(run(small, { effort }, LONG_GRAPH).text, `{"plan":${effort}}`);
    assert.deepEqual(small.calls, [effort]);
  }
});

test('a first rung that reports no search is the answer: the effort changed nothing', () => {
  const engine = scriptedEngine({ reports: 0 });
  const r = run(engine, {}, LONG_GRAPH);
  assert.deepEqual(engine.calls, [FIRST_EFFORT]);
  assert.deepEqual(r.handed, []);
  assert.equal(r.text, '{"plan":50}');
});

test('a first rung, then a long search: stopped, the climb goes on from the second rung', () => {
  const engine = scriptedEngine({ setupMs: 1000, stepMs: 1000, reports: 20 });
  const r = run(engine, {}, LONG_GRAPH);
  assert.deepEqual(engine.calls, [50, DEFAULT_EFFORT, 400, 3200, DEFAULT_EFFORT]);
  assert.deepEqual(
    r.handed.map(([effort]) => effort),
    [50, 400, 3200],
  );
  assert.equal(r.text, '{"plan":10000}');
});

test('an error in the first rung is the answer', () => {
  const error = '{"error":{"kind":"input","message":"bad"}}';
  const engine = scriptedEngine({ error });
  assert.equal(run(engine, {}, LONG_GRAPH).text, error);
  assert.deepEqual(engine.calls, [FIRST_EFFORT]);
});

test('a cycles run hands over its best plans so far with its step; a plan in error is passed over', () => {
  const engine = { clock: 0, calls: [] };
  engine.now = () => engine.clock;
  engine.plan = (_graph, optionsJson, onProgress) => {
    engine.calls.push(JSON.parse(optionsJson).objective);
    const report = (stage, best) =>
      JSON.stringify({ evaluations: 1, budget: 0, best, stage, stages: 4, stageName: 's' });
    onProgress(report(1, 700));
    onProgress(report(1, 600), '{"plan":"bytes"}');
    onProgress(report(4, 90), '{"error":{"kind":"input","message":"too large"}}');
    onProgress(report(4, 80));
    onProgress(report(4, 80), '{"plan":"sooner"}');
    onProgress('{}', '{"plan":"no report before"}');
    return '{"plan":"answer"}';
  };
  const r = run(engine, { objective: 'cycles' }, LONG_GRAPH);
  assert.equal(r.text, '{"plan":"answer"}');
  assert.deepEqual(engine.calls, ['cycles']);
  assert.deepEqual(r.handed, []);
  assert.deepEqual(r.best, [
    [{ stage: 1, stages: 4 }, '{"plan":"bytes"}'],
    [{ stage: 4, stages: 4 }, '{"plan":"sooner"}'],
    [{ stage: null, stages: null }, '{"plan":"no report before"}'],
  ]);
  assert.deepEqual(r.progress, [null, null]); // the reports alone, not again with a plan
});
