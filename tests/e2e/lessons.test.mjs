// The lesson path with the keyboard alone, at desktop size and on a phone (390×844): every lesson
// opened from the list, answered, and left for the next one with Tab and Enter only. And the
// words: the glossary panel, the editor's hover docs (Ctrl+K at the cursor) and its completion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { usePlayground, SIZES, ROOT, openPage, waitForResult, text, resultText, waitForFresh, pasteGraph, graphText } from './helpers.mjs';

const pg = usePlayground();

const lessonDir = path.join(ROOT, 'web/src/lessons');
const lessons = fs.readdirSync(lessonDir).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(fs.readFileSync(path.join(lessonDir, f), 'utf8')));

/** Presses Tab until the focused element matches `selector` (at most `limit` presses). */
async function tabTo(page, selector, limit = 60) {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((s) => !!document.activeElement?.matches(s), selector)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${selector} (at ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))})`);
}

const focused = (page, selector) => page.waitForFunction((s) => !!document.activeElement?.matches(s), selector);

for (const size of SIZES) {
  test(`every lesson, from the list to the last answer, with the keyboard alone (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    assert.equal(await page.locator('[data-testid=lesson-list] [data-testid=lesson-item]').count(), lessons.length);
    assert.match(await page.locator('#lessons-title').textContent(), new RegExp(`0 of ${lessons.length} done`));
    await page.locator('body').focus();
    await tabTo(page, `[data-testid=lesson-item][data-lesson=${lessons[0].id}]`);
    await page.keyboard.press('Enter');
    for (const [i, l] of lessons.entries()) {
      const q = l.question;
      await page.waitForFunction((t) => document.querySelector('[data-testid=lesson-title]')?.textContent === t, `Lesson ${i + 1} of ${lessons.length}: ${l.title}`);
      await focused(page, '[data-testid=lesson-title]');
      await waitForFresh(page, 60000);
      await page.waitForFunction((s) => document.querySelector('[data-testid=step-label]').textContent === String(s), l.step);
      const at = q.at ?? l.step;
      const decisionQuestion = !q.field.startsWith('metrics.');
      if (decisionQuestion && at === l.step)
        assert.equal(await page.locator('[data-testid=step-decision]').getAttribute('data-kind'), 'pending', `${l.id}: the decision asked about stays hidden`);
      await tabTo(page, `[data-testid=lesson-choice][data-value="${q.answer}"]`);
      await page.keyboard.press('Enter');
      await focused(page, '[data-testid=lesson-answer]');
      assert.equal(await page.locator('[data-testid=lesson-answer]').getAttribute('data-right'), 'true');
      assert.ok((await text(page, 'lesson-answer')).includes(q.explain));
      if (decisionQuestion && at === l.step)
        assert.notEqual(await page.locator('[data-testid=step-decision]').getAttribute('data-kind'), 'pending', `${l.id}: answered, the decision shows`);
      if (q.with) {
        const before = await resultText(page);
        await tabTo(page, '[data-testid=lesson-try]');
        await page.keyboard.press('Enter');
        await page.waitForFunction((b) => window.spillway.resultText() !== b && document.querySelector('#summary-card').dataset.stale === 'false', before, { timeout: 60000 });
        assert.equal(JSON.parse(await resultText(page)).metrics[q.field.slice('metrics.'.length)], q.answer, `${l.id}: the plan it shows agrees`);
      }
      if (i + 1 < lessons.length) {
        await tabTo(page, '[data-testid=lesson-next]');
        await page.keyboard.press('Enter');
      }
    }
    assert.match(await page.locator('#lessons-title').textContent(), new RegExp(`${lessons.length} of ${lessons.length} done`));
    assert.equal(await page.locator('[data-testid=lesson-item].done').count(), lessons.length);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scrolling');
    // the progress survives a reload
    await page.reload();
    await waitForResult(page);
    assert.match(await page.locator('#lessons-title').textContent(), new RegExp(`${lessons.length} of ${lessons.length} done`));
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test('a wrong answer says so and gives the right one; a changed graph is pointed out', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const l = lessons.find((x) => x.id === 'one-spill');
  await page.locator(`[data-testid=lesson-item][data-lesson=${l.id}]`).click();
  await waitForFresh(page);
  await page.waitForFunction((s) => document.querySelector('[data-testid=step-label]').textContent === String(s), l.step);
  const choices = await page.locator('[data-testid=lesson-choice]').evaluateAll((bs) => bs.map((b) => Number(b.dataset.value)));
  const result = JSON.parse(await resultText(page));
  const d = result.decisions.find((x) => x.orderStep === l.step);
  assert.deepEqual(choices, d.candidates.map((c) => c.buf).sort((a, b) => a - b), 'the choices are the buffers the planner weighed');
  await page.locator(`[data-testid=lesson-choice][data-value="${choices.find((c) => c !== l.question.answer)}"]`).click();
  assert.equal(await page.locator('[data-testid=lesson-answer]').getAttribute('data-right'), 'false');
  assert.match(await text(page, 'lesson-answer'), new RegExp(`Not quite: the answer is buffer ${l.question.answer}`));
  await page.locator('[data-testid=graph-input] .cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' ');
  await page.getByRole('button', { name: 'Open the lesson again' }).waitFor();
  assert.deepEqual(page.errors, []);
  await context.close();
});

/** The middle of the first `word` in the editor, once the page holds still: CodeMirror scrolls
 * (Ctrl+Home, a click that scrolled the pane) in a later frame, and a position read before that
 * points at another line. */
const wordBox = (page, word) => page.evaluate(async (w) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  let before = '';
  for (let i = 0; i < 20; i++) {
    await frame();
    const now = `${document.querySelector('.pane.left').scrollTop},${document.querySelector('[data-testid=graph-input] .cm-scroller').scrollTop}`;
    if (now === before) break;
    before = now;
  }
  const walker = document.createTreeWalker(document.querySelector('[data-testid=graph-input] .cm-content'), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const i = n.textContent.indexOf(w);
    if (i < 0) continue;
    const r = document.createRange();
    r.setStart(n, i);
    r.setEnd(n, i + w.length);
    const b = r.getBoundingClientRect();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  }
  return null;
}, word);

test('the glossary, the editor\u2019s hover docs (Ctrl+K at the cursor) and its completion of field names and values', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  // the glossary panel, filtered
  await page.locator('#glossary-card summary').click();
  await page.locator('[data-testid=glossary-filter]').fill('COPY');
  const terms = await page.locator('[data-testid=glossary-term]').allTextContents();
  assert.ok(terms.includes('COPY_IN') && terms.includes('COPY_OUT'), terms.join());
  // hover over COPY_IN in the editor
  await page.locator('[data-testid=graph-input] .cm-content').click();
  await page.keyboard.press('Control+Home');
  const box = await wordBox(page, 'COPY_IN');
  assert.ok(box, 'the example names COPY_IN');
  await page.mouse.move(box.x, box.y);
  const help = page.locator('[data-testid=editor-help]');
  await help.waitFor();
  assert.match(await help.textContent(), /COPY_IN.*Loads a buffer from main memory/);
  // Ctrl+K: the same help for the word at the cursor, without a mouse
  await page.mouse.move(5, 5);
  await help.waitFor({ state: 'detached' });
  const mte = await wordBox(page, 'MTE2');
  await page.mouse.click(mte.x, mte.y);
  await page.keyboard.press('Control+K');
  await help.waitFor();
  assert.match(await help.textContent(), /MTE2.*main memory to on-chip memory/);
  await page.keyboard.press('ArrowRight');
  await help.waitFor({ state: 'detached' });
  // completion: a field name inside a node, a value after "Op"
  await pasteGraph(page, '{"Nodes": [\n {"Id": 0, "Op": "ALLOC", "BufId": 0, "Size": 64, "Type": "UB"},\n {"Id": 1, "Pipe": "MTE2", "Bufs": [0]');
  await page.keyboard.press('Control+End');
  await page.keyboard.type(', "Cy');
  const list = page.locator('.cm-tooltip-autocomplete');
  // CodeMirror takes no Enter for a completion in its first 75 ms on screen (interactionDelay)
  const accept = async (label) => {
    await page.locator('.cm-tooltip-autocomplete li[aria-selected=true]', { hasText: label }).waitFor();
    await page.waitForTimeout(150);
    await page.keyboard.press('Enter');
  };
  await list.waitFor();
  assert.ok((await list.textContent()).includes('Cycles'));
  await accept('Cycles');
  await page.waitForFunction(() => window.spillway.getGraphText().endsWith('"Cycles"'), null, { timeout: 5000 }); // the closing quote came with the opening one
  await page.keyboard.press('Control+End');
  await page.keyboard.type(': 10, "Op": "COPY_I');
  await list.waitFor();
  assert.ok((await list.textContent()).includes('COPY_IN'));
  await accept('COPY_IN');
  await page.waitForFunction(() => window.spillway.getGraphText().endsWith('"Cycles": 10, "Op": "COPY_IN"'), null, { timeout: 5000 });
  // at the top level the graph's own fields are offered
  await pasteGraph(page, '{"Nodes": [], ');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('"Cap');
  await list.waitFor();
  assert.ok((await list.textContent()).includes('Capacities'));
  assert.ok(!(await list.textContent()).includes('BufId'), 'node fields are not offered at the top level');
  assert.match(await graphText(page), /"Cap"$/);
  assert.deepEqual(page.errors, []);
  await context.close();
});
