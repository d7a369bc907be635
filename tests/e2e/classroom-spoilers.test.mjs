// No spoilers: while a question is open (a lesson's, or predict mode's at the cursor) nothing on
// the page gives its answer away: the spill table shows no spill, the new order no SPILL_OUT row,
// the chart and the timeline no tooltip about the steps after the cursor, the summary no totals a
// question asks for; once it is answered everything shows. And the lessons tell the truth: a wrong
// answer leaves a lesson unticked, progress can be reset, leaving the lessons gives back the
// settings the user had, lesson 6's figure is the compare table's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { usePlayground, ROOT, openPage, waitForResult, waitForFresh, waitForNewResult, waitForCompare, resultText, pasteGraph, selectExample, engineModule, CASES, tablesShow } from './helpers.mjs';

const pg = usePlayground();

const lessonDir = path.join(ROOT, 'web/src/lessons');
const lessons = fs.readdirSync(lessonDir).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(fs.readFileSync(path.join(lessonDir, f), 'utf8')));

/** Every tooltip the pointer brings up over the chart and the timeline, swept over a grid. */
async function sweepTips(page) {
  const seen = [];
  for (const [canvas, tip] of [['chart-canvas', 'chart-tip'], ['timeline-canvas', 'timeline-tip']]) {
    const box = await page.locator(`[data-testid=${canvas}]`).boundingBox();
    if (!box) continue;
    for (let i = 1; i < 16; i++) {
      for (let j = 1; j < 7; j++) {
        await page.mouse.move(box.x + (box.width * i) / 16, box.y + (box.height * j) / 7);
        const shown = await page.locator(`[data-testid=${tip}]`).evaluate((el) =>
          el.checkVisibility() ? { text: el.textContent, step: el.getAttribute('data-step') } : null);
        if (shown) seen.push({ tip, ...shown });
      }
    }
  }
  await page.mouse.move(0, 0);
  return seen;
}

const stepIs = (page, s) => page.waitForFunction((x) => document.querySelector('[data-testid=step-label]').textContent === String(x), s);

/** What the timeline would say of the steps before `hidden`: its lanes (the pipes that ran a node
 * by then, in the order they first did, then ALLOC/FREE), their nodes, the waits. */
function timelineBefore(result, hidden) {
  const shown = result.waits.slice(0, hidden);
  const names = [...new Set(shown.map((w) => w.pipe || 'ALLOC/FREE'))];
  const lanes = [...names.filter((n) => n !== 'ALLOC/FREE'), ...names.filter((n) => n === 'ALLOC/FREE')];
  const count = (lane) => shown.filter((w) => (w.pipe || 'ALLOC/FREE') === lane).length.toLocaleString('en-US');
  return { lanes, counts: lanes.map((lane) => `${lane}${lane === 'ALLOC/FREE' ? ' (no pipe, no cycles)' : ''}: ${count(lane)} nodes`), waits: shown.filter((w) => w.cause !== 'none').length };
}

/** The timeline on screen says what `timelineBefore` does: its lanes, each lane's count of nodes
 * (as its label and its text description have them) and the waits it counts. */
async function timelineSays(page, want, what) {
  const timeline = page.locator('[data-testid=timeline]');
  assert.deepEqual((await timeline.getAttribute('data-lanes')).split(','), want.lanes, `${what}: the timeline's lanes`);
  assert.equal(Number(await timeline.getAttribute('data-waits')), want.waits, `${what}: the timeline's waits`);
  const description = await page.locator('[data-testid=timeline-description]').textContent();
  const said = [...description.matchAll(/(?:^| )([^ :]+(?: \(no pipe, no cycles\))?: [\d,]+ nodes)/g)].map((m) => m[1]);
  assert.deepEqual(said, want.counts, `${what}: each lane's count of nodes`);
}

async function openLesson(page, l) {
  await page.locator(`[data-testid=lesson-item][data-lesson=${l.id}]`).click();
  await page.waitForFunction((id) => document.querySelector('[data-testid=lesson-item][aria-current=step]')?.dataset.lesson === id, l.id);
  await waitForFresh(page, 60000);
  await stepIs(page, l.step);
}

test('every lesson, before its answer: no spill, no SPILL_OUT row, no tooltip or total that answers it; after it everything', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  let lanesHidden = 0;
  for (const l of lessons) {
    await openLesson(page, l);
    const result = JSON.parse(await resultText(page));
    const q = l.question;
    const at = q.field.startsWith('metrics.') ? null : (q.at ?? l.step);
    const shown = await tablesShow(page, result);
    const hidden = Math.min(l.step + 1, at ?? Number.POSITIVE_INFINITY);
    // a question about other settings' plan (clean-vs-dirty: residency's) leaves the spill the
    // lesson's text is about, at its own step, on screen; every other lesson shows none
    const allowed = q.with ? result.spills.filter((sp) => sp.outStep < hidden).length : 0;
    assert.equal(shown.spills, allowed, `${l.id}: the spill table shows no spill`);
    assert.equal(shown.spillRowsDrawn, allowed, `${l.id}: no spill row drawn`);
    assert.ok(shown.rows <= l.step + 1, `${l.id}: the new order ends at the cursor (${shown.rows} rows)`);
    assert.equal(shown.spillOuts, allowed, `${l.id}: no SPILL_OUT row`);
    if (!allowed) assert.equal(await page.locator('[data-testid=order-table] .vt-row.spill-out:visible').count(), 0, `${l.id}: no SPILL_OUT row drawn`);
    // the timeline counts only the nodes before the hidden steps, and has no lane of a pipe that
    // runs only hidden ones (a SPILL_OUT's)
    const before = timelineBefore(result, hidden);
    await timelineSays(page, before, `${l.id}, before the answer`);
    if (before.lanes.length < timelineBefore(result, Infinity).lanes.length) lanesHidden++;
    const tips = await sweepTips(page);
    for (const tip of tips) {
      if (!allowed) assert.doesNotMatch(tip.text, /spilled out|SPILL_OUT|SPILL_IN/, `${l.id}: ${tip.tip} says nothing of a spill: ${tip.text}`);
      for (const m of tip.text.matchAll(/(?:steps? \d+–|step |FREE @ )(\d+)/g))
        assert.ok(Number(m[1]) < hidden, `${l.id}: ${tip.tip} names step ${m[1]}, past the cursor: ${tip.text}`);
    }
    // ] on the chart does not open the spill
    await page.locator('[data-testid=chart-canvas]').focus();
    await page.keyboard.press(']');
    const live = await page.locator('[data-testid=chart-live]').textContent();
    if (at !== null) {
      // a question about a decision: ] goes no further than it, and names no buffer there
      assert.equal(await page.locator('[data-testid=chart-tip]').isVisible(), false, `${l.id}: ] shows no spill`);
      if (result.spills.length) assert.match(live, /It shows once you answer/);
      assert.doesNotMatch(live, /buffer \d/i, `${l.id}: ] names no buffer`);
    } else assert.doesNotMatch(live, / of \d/, `${l.id}: ] does not count the spills`);
    // a question about the totals or about a decision: the count of spills would tell
    assert.equal(await page.locator('[data-testid=spill-count]').count(), 0, `${l.id}: the summary keeps its totals back`);
    assert.equal(await page.locator('[data-testid=extra-bytes]').count(), 0, `${l.id}: the summary keeps the bytes moved back`);
    if (q.field.startsWith('metrics.')) {
      assert.equal(await page.locator('#compare').isHidden(), true, `${l.id}: the compare table is hidden`);
    }
    await page.locator(`[data-testid=lesson-choice][data-value="${q.answer}"]`).click();
    await page.locator('[data-testid=lesson-answer][data-right=true]').waitFor();
    const after = await tablesShow(page, result);
    assert.equal(after.spills, result.spills.length, `${l.id}: answered, every spill shows`);
    assert.equal(after.rows, result.order.length, `${l.id}: answered, every step shows`);
    await page.locator('[data-testid=spill-count]').waitFor();
    assert.equal(await page.locator('[data-testid=spill-count]').textContent(), String(result.metrics.spills), `${l.id}: answered, the summary counts the spills`);
    await timelineSays(page, timelineBefore(result, Infinity), `${l.id}, answered`);
  }
  assert.ok(lanesHidden > 0, 'in some lesson a pipe runs only nodes its question hides (its lane shows once answered)');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('predict mode: at an open question nothing names the victim, ] included; answered, it shows', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  let before = await resultText(page);
  await page.locator('[data-testid=example-select]').selectOption('flash-attention-like');
  await waitForNewResult(page, before, 180000);
  before = await resultText(page);
  await page.locator('[data-testid=order-source]').selectOption('schedule');
  await waitForNewResult(page, before, 180000);
  const result = JSON.parse(await resultText(page));
  const first = result.spills[0];
  await page.locator('[data-testid=predict-toggle]').check();
  // ] on the chart: to the first spill, where its question opens
  await page.locator('[data-testid=chart-canvas]').focus();
  await page.keyboard.press(']');
  await stepIs(page, first.outStep);
  assert.equal(await page.locator('[data-testid=chart-tip]').isVisible(), false, 'no tooltip on the victim');
  assert.doesNotMatch(await page.locator('[data-testid=chart-live]').textContent(), new RegExp(`buffer ${first.buf}\\b`));
  assert.match(await page.locator('[data-testid=chart-live]').textContent(), /which buffer is written out\? It shows once you answer/);
  const shown = await tablesShow(page, result);
  assert.equal(shown.spills, 0, 'no spill in the spill table');
  assert.equal(shown.spillOuts, 0, 'no SPILL_OUT row');
  assert.equal(shown.rows, first.outStep, 'the new order stops before the question');
  for (const tip of await sweepTips(page)) {
    assert.doesNotMatch(tip.text, new RegExp(`Buffer ${first.buf}\\b[^]*spilled out|SPILL_OUT`), `${tip.tip}: ${tip.text}`);
    if (tip.step !== null) assert.ok(Number(tip.step) < first.outStep, `the timeline's tooltip is about step ${tip.step}`);
  }
  // Enter on the timeline tells of the cursor's node: not while it is the question
  await page.locator('[data-testid=timeline-canvas]').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('[data-testid=timeline-tip]').isVisible(), false);
  assert.doesNotMatch(await page.locator('[data-testid=timeline-live]').textContent(), /SPILL_OUT/);
  await page.locator('[data-testid=predict-skip]').click();
  await page.locator('[data-testid=predict-answer]').waitFor();
  const after = await tablesShow(page, result);
  assert.equal(after.spills, 1, 'answered: its spill shows');
  assert.equal(after.spillOuts, 1, 'and its SPILL_OUT row');
  // predict off: everything
  await page.locator('[data-testid=predict-toggle]').uncheck();
  const all = await tablesShow(page, result);
  assert.equal(all.spills, result.spills.length);
  assert.equal(all.rows, result.order.length);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('a wrong answer leaves the lesson unticked, a right one ticks it; progress can be reset', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const l = lessons.find((x) => x.id === 'one-spill');
  assert.equal(await page.locator('[data-testid=lesson-reset]').isVisible(), false, 'nothing to reset yet');
  await openLesson(page, l);
  const wrong = (await page.locator('[data-testid=lesson-choice]').evaluateAll((bs) => bs.map((b) => Number(b.dataset.value)))).find((c) => c !== l.question.answer);
  await page.locator(`[data-testid=lesson-choice][data-value="${wrong}"]`).click();
  assert.equal(await page.locator('[data-testid=lesson-answer]').getAttribute('data-right'), 'false');
  assert.equal(await page.locator(`[data-testid=lesson-item][data-lesson=${l.id}].done`).count(), 0, 'unticked');
  assert.match(await page.locator('#lessons-title').textContent(), /0 of \d+ done/);
  await page.locator(`[data-testid=lesson-choice][data-value="${l.question.answer}"]`).click();
  assert.equal(await page.locator('[data-testid=lesson-answer]').getAttribute('data-right'), 'true');
  await page.locator(`[data-testid=lesson-item][data-lesson=${l.id}].done`).waitFor();
  assert.match(await page.locator('#lessons-title').textContent(), /1 of \d+ done/);
  page.once('dialog', (d) => d.accept());
  await page.locator('[data-testid=lesson-reset]').click();
  await page.waitForFunction(() => /0 of \d+ done/.test(document.querySelector('#lessons-title').textContent));
  assert.equal(await page.locator('[data-testid=lesson-item].done').count(), 0);
  assert.equal(await page.evaluate(() => localStorage.getItem('spillway.lessons') ?? '[]'), '[]', 'the reset is stored');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('after leaving a lesson, a pasted graph runs with the settings the user had: policy best, predict off', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const policy = await page.locator('[data-testid=policy]').inputValue(); // the default: best
  await openLesson(page, lessons.find((x) => x.id === 'belady'));
  assert.equal(await page.locator('[data-testid=policy]').inputValue(), 'seed');
  await page.locator('[data-testid=predict-toggle]').check();
  await page.locator('[data-testid=lesson-close]').click();
  assert.equal(await page.locator('[data-testid=policy]').inputValue(), policy, 'policy back to the default');
  assert.equal(await page.locator('[data-testid=predict-toggle]').isChecked(), false, 'predict off again');
  const file = path.join(CASES, 'FlashAttention_Case0.json');
  const graph = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : (await engineModule()).example('flash-attention-like');
  const before = await resultText(page);
  await pasteGraph(page, graph);
  await page.locator('[data-testid=run]').click();
  await waitForNewResult(page, before, 120000);
  await waitForFresh(page, 120000);
  const r = JSON.parse(await resultText(page));
  assert.equal(r.policy, 'best', 'the pasted graph ran with policy best');
  assert.equal(await page.locator('[data-testid=predict-toggle]').isChecked(), false);
  // opening an example from a lesson gives them back too
  await openLesson(page, lessons.find((x) => x.id === 'one-spill'));
  await selectExample(page, 'fits');
  assert.equal(await page.locator('[data-testid=policy]').inputValue(), policy);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('lesson 6: the figure its answer states for ascending id order is the compare table\'s', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const l = lessons.find((x) => x.id === 'order');
  await openLesson(page, l);
  await page.locator(`[data-testid=lesson-choice][data-value="${l.question.answer}"]`).click();
  await waitForCompare(page);
  const cell = async (order) => Number((await page.locator(`[data-testid=compare-row][data-policy=best][data-order=${order}] [data-col=spills]`).textContent()).replace(/,/g, ''));
  const said = (await page.locator('[data-testid=lesson-answer]').textContent()).match(/against (\d+) in ascending id order/);
  assert.ok(said, 'the lesson states a figure for id order');
  assert.equal(Number(said[1]), await cell('id'), 'the compare table\'s spills of policy best in id order');
  assert.equal(l.question.answer, await cell('schedule'), 'and its answer is the schedule row\'s');
  assert.deepEqual(page.errors, []);
  await context.close();
});
