// What if (web/src/lib/whatif.ts): which policy takes a forced spill, the options of the forced
// plan and of the optimum, and the cost in words.
import test from 'node:test';
import assert from 'node:assert/strict';
import { costWords, forcePolicy, forcedOptions, optimumOptions } from '../../build/web-lib/whatif.js';

const FORCEABLE = ['lifetime', 'residency', 'belady', 'lru', 'fifo'];

test('the policy in the settings is forced when it can be, else the one that made the plan', () => {
  assert.deepEqual(forcePolicy('lru', 'lru', 'best', FORCEABLE), { policy: 'lru', note: null });
  assert.deepEqual(
    forcePolicy('', 'residency', 'residency', FORCEABLE),
    { policy: 'residency', note: null },
    'the default',
  );
  const best = forcePolicy('', 'lifetime', 'best', FORCEABLE);
  assert.equal(best.policy, 'lifetime', 'best names its winner');
  assert.match(best.note, /best cannot take a forced spill; lifetime, which made this plan, does/);
  const seed = forcePolicy('seed', 'seed', 'best', FORCEABLE);
  assert.ok(!('policy' in seed));
  assert.match(seed.why, /^seed decides each spill as it goes .* Choose lifetime, residency, belady, lru, fifo/);
  assert.ok('why' in forcePolicy('', 'window', 'best', FORCEABLE), 'best won by window');
});

test("the forced plan keeps the run's options on the plan's own input order, without a search", () => {
  const run = { capacities: { REG: 3 }, order: 'graph', policy: 'best', effort: 400, cost: { model: 'contest' } };
  const order = Int32Array.from([0, 1, 2, 5, 3, 4]);
  assert.deepEqual(forcedOptions(run, order, 'lru', 4, 1), {
    capacities: { REG: 3 },
    order: [0, 1, 2, 5, 3, 4],
    policy: 'lru',
    cost: { model: 'contest' },
    force: { step: 4, buffer: 1 },
  });
  assert.deepEqual(optimumOptions({ ...run, force: { step: 1, buffer: 0 } }, order), {
    capacities: { REG: 3 },
    order: [0, 1, 2, 5, 3, 4],
    policy: 'residency',
    cost: { model: 'contest' },
  });
  assert.equal(run.effort, 400, "the run's options are left as they were");
});

test('the cost in words: more, less or as much as the policy, and the optimum', () => {
  assert.equal(
    costWords(96, 'lru', 64, 64),
    "Your choice moves 96 B in all: 32 B more than lru's 64 B; the optimum for this order moves 64 B.",
  );
  assert.equal(costWords(64, 'fifo', 96, null), "Your choice moves 64 B in all: 32 B less than fifo's 96 B.");
  assert.equal(
    costWords(2048, 'belady', 2048, 1024),
    "Your choice moves 2,048 B in all: as much as belady's plan; the optimum for this order moves 1,024 B.",
  );
});
