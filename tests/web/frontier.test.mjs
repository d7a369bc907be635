// The trade-off front's picture (web/src/lib/frontier.ts): where the points sit, what they are
// called, which one the plan on screen is.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  FRONT_PLOT,
  currentPoint,
  marginNote,
  plotPoints,
  pointLabel,
  pointRun,
} from '../../build/web-lib/frontier.js';

const point = (objective, marginPercent, extraBytes, totalCycles) => ({
  objective,
  marginPercent,
  order: 'search',
  planPolicy: 'lifetime',
  spills: 3,
  extraBytes,
  totalCycles,
  verified: true,
});
const FRONT = [point('bytes', 0, 12416, 97356), point('cycles', 10, 13184, 94508), point('cycles', 40, 20000, 90000)];

test('plotPoints: data moved rises to the right, cycles upward, the ends at the frame less a margin', () => {
  const { at, x, y } = plotPoints(FRONT);
  assert.deepEqual(x, { lo: 12416, hi: 20000 });
  assert.deepEqual(y, { lo: 90000, hi: 97356 });
  const f = FRONT_PLOT;
  assert.equal(at[0].x, f.left + 12);
  assert.equal(at[2].x, f.width - f.right - 12);
  assert.equal(at[0].y, f.top + 12, 'the most cycles at the top');
  assert.equal(at[2].y, f.height - f.bottom - 12);
  assert.ok(at[0].x < at[1].x && at[1].x < at[2].x);
  assert.ok(at[0].y < at[1].y && at[1].y < at[2].y);
  // one point: in the middle of both axes
  const one = plotPoints([FRONT[1]]).at[0];
  assert.equal(one.x, (f.left + 12 + f.width - f.right - 12) / 2);
  assert.equal(one.y, (f.height - f.bottom - 12 + f.top + 12) / 2);
});

test('pointLabel and pointRun name the run and its figures', () => {
  assert.equal(pointRun(FRONT[0]), 'the bytes plan');
  assert.equal(pointLabel(FRONT[1]), '13,184 B moved, 94,508 cycles (objective cycles, margin 10%)');
});

test('currentPoint: the same run and the same figures, else -1', () => {
  const m = (extraBytes, totalCycles) => ({ extraBytes, totalCycles });
  assert.equal(currentPoint(FRONT, undefined, m(12416, 97356)), 0);
  assert.equal(currentPoint(FRONT, { name: 'cycles', margin: 10 }, m(13184, 94508)), 1);
  assert.equal(currentPoint(FRONT, { name: 'cycles', margin: 20 }, m(13184, 94508)), -1, 'another margin');
  assert.equal(currentPoint(FRONT, { name: 'cycles', margin: 10 }, m(13184, 94000)), -1, 'other figures');
  assert.equal(currentPoint(FRONT, undefined, m(13184, 94508)), -1, 'the bytes objective is not a cycles point');
});

test('the margin note says whether a larger margin could change the plan, as the CLI does', () => {
  const report = (marginLimited, extraBytes) => ({ marginLimited, bytesPlan: { extraBytes, totalCycles: 100 } });
  assert.equal(
    marginNote(report(true, 128)),
    'the margin refused plans moving more data: a larger one may make another plan',
  );
  assert.equal(marginNote(report(false, 128)), 'the margin refused no plan: a larger one makes this same plan');
  for (const limited of [true, false])
    assert.equal(
      marginNote(report(limited, 0)),
      'the bytes plan moves no data, so no margin allows any: each makes this plan',
    );
});
