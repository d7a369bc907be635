// The progress line of a run (web/src/lib/progress.ts): the search under way, or the stage of a
// run under the objective cycles, one line from its first search to its last stage.
import test from 'node:test';
import assert from 'node:assert/strict';
import { progressText, stepText } from '../../build/web-lib/progress.js';

const search = (progress, effort = null, target = null) => ({ effort, target, progress });

test('a run without a search names its phase', () => {
  assert.equal(progressText(null, 'planning'), 'Planning…');
});

test('a search: its effort, evaluations and best so far in bytes', () => {
  assert.equal(
    progressText(search({ evaluations: 312, budget: 1050, best: 12416 }, 400, 20000)),
    'Searching orders at effort 400, on the way to 20,000: 312 of 1,050 evaluations, best so far 12,416 B',
  );
  assert.equal(
    progressText(search({ evaluations: 1, budget: 2, best: 3 })),
    'Searching orders at the default effort: 1 of 2 evaluations, best so far 3 B',
  );
});

test('under the objective cycles: the stage, and in the last the starts improved and the fewest cycles', () => {
  const p = { evaluations: 640, budget: 10696, best: 13184, stage: 2, stages: 4, stageName: 'longer order search' };
  assert.equal(
    progressText(search(p)),
    'Objective cycles, step 2 of 4: longer order search: 640 of 10,696 evaluations, least data so far 13,184 B',
  );
  const last = { evaluations: 12, budget: 0, best: 94508, stage: 4, stages: 4, stageName: 'finish sooner' };
  assert.equal(
    progressText(search(last)),
    'Objective cycles, step 4 of 4: finish sooner: 12 starts improved, best so far 94,508 cycles',
  );
  assert.match(progressText(search({ ...last, evaluations: 1 })), /: 1 start improved,/);
});

test("a cycles run's plan so far says its step when known", () => {
  assert.equal(stepText({ stage: 4, stages: 4 }), ' at step 4 of 4');
  assert.equal(stepText({ stage: 1, stages: 3 }), ' at step 1 of 3');
  assert.equal(stepText({ stage: null, stages: null }), '');
  assert.equal(stepText(null), '');
});
