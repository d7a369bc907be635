// A class run from the keyboard and a projector: the compare table is one tab stop, the focused
// editor shows a ring, the two Cancel buttons have names of their own, Esc cancels a long run;
// presentation mode puts a lesson's question and the chart on one screen at 1024×768 and
// 1280×720; a link opened on a phone lands on the summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usePlayground, SIZES, openPage, waitForResult, waitForFresh, waitForCompare, text, resultText } from './helpers.mjs';

const pg = usePlayground();

/** Focuses the last tabbable element before `selector` (in document order). */
const focusJustBefore = (page, selector) => page.evaluate((sel) => {
  const target = document.querySelector(sel);
  const tabbable = [...document.querySelectorAll('button, input, select, summary, [tabindex]')].filter((el) =>
    el.tabIndex >= 0 && !el.disabled && el.getClientRects().length > 0
    && (el.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING) && !target.contains(el));
  tabbable.at(-1).focus();
  return tabbable.at(-1).outerHTML.slice(0, 80);
}, selector);

const activeInfo = (page) => page.evaluate(() => {
  const el = document.activeElement;
  const row = el?.closest('[data-testid=compare-row]');
  return { inTable: !!el?.closest('[data-testid=compare-table]'), testid: el?.dataset.testid ?? '', row: row ? [...row.parentElement.children].indexOf(row) : -1 };
});

test('the compare table is one tab stop; the arrows move inside it', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await waitForFresh(page, 60000);
  await waitForCompare(page);
  const rows = await page.locator('[data-testid=compare-row]').count();
  const controls = await page.locator('[data-testid=compare-table] button:not(:disabled), [data-testid=compare-table] input').count();
  assert.ok(rows >= 4 && controls > rows, `${rows} rows, ${controls} controls`);

  // Tab from the control before the table to the first one after it: one stop inside
  await focusJustBefore(page, '[data-testid=compare-table]');
  let inside = 0;
  let info;
  for (let i = 0; i < controls + 5; i++) {
    await page.keyboard.press('Tab');
    info = await activeInfo(page);
    if (!info.inTable && inside) break;
    if (info.inTable) inside++;
  }
  assert.equal(inside, 1, 'one tab stop in the compare table');
  assert.equal(info.inTable, false);

  // back in: the first row; Down, Down and Right go to the third row's diff box, Space picks it
  await page.keyboard.press('Shift+Tab');
  info = await activeInfo(page);
  assert.equal(info.row, 0);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal((await activeInfo(page)).row, 2);
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await activeInfo(page), { inTable: true, testid: 'diff-pick', row: 2 });
  await page.keyboard.press(' ');
  assert.equal(await page.locator('[data-testid=compare-row]').nth(2).locator('[data-testid=diff-pick]').isChecked(), true);
  await page.keyboard.press('End');
  assert.deepEqual(await activeInfo(page), { inTable: true, testid: 'diff-pick', row: rows - 1 });
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await activeInfo(page)).row, 0);
  // the stop is where the focus was last: out and back in returns to it
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  assert.equal((await activeInfo(page)).inTable, false);
  await page.keyboard.press('Shift+Tab');
  assert.equal((await activeInfo(page)).row, 1);
  // still one tab stop: only one control of the table is tabbable
  assert.equal(await page.locator('[data-testid=compare-table] [tabindex="0"]').count(), 1);
  assert.equal(await page.locator('[data-testid=compare-table] button:not([tabindex="-1"]), [data-testid=compare-table] input:not([tabindex="-1"])').count(), 1);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('the focused editor shows a focus ring', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const ring = () => page.locator('[data-testid=graph-input] .cm-editor').evaluate((el) => {
    const s = getComputedStyle(el);
    return `${s.outlineStyle} ${s.outlineWidth}`;
  });
  assert.match(await ring(), /^none /);
  await focusJustBefore(page, '[data-testid=graph-input]');
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.activeElement.matches('[data-testid=graph-input] .cm-content')), 'Tab reaches the editor');
  assert.equal(await ring(), 'solid 2px');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('Esc cancels a long run and keeps the best plan so far; the two Cancel buttons have names of their own', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  // the flash-attention example with the thorough search (20,000 evaluations) runs for seconds
  // (its run at the default effort is not waited for: the thorough one takes its place)
  await page.locator('[data-testid=example-select]').selectOption('flash-attention-like');
  await page.waitForFunction(() => document.querySelector('[data-testid=graph-source]')?.dataset.example === 'flash-attention-like');
  await page.locator('[data-testid=effort]').selectOption('thorough');
  await page.locator('[data-testid=early-plan][data-stopped=false]', { hasText: 'toward 20,000' }).waitFor({ timeout: 120000 });
  const progress = page.locator('[data-testid=progress]');
  assert.equal(await progress.getAttribute('data-running'), 'true');
  // the run's Cancel and the comparison's, told apart by name; no button is named only "Cancel"
  await page.getByRole('button', { name: 'Cancel run', exact: true }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Cancel', exact: true }).count(), 0);
  assert.equal(await page.locator('[data-testid=compare-cancel]').getAttribute('aria-label'), 'Cancel comparison');
  assert.equal(await page.locator('[data-testid=cancel]').getAttribute('aria-label'), 'Cancel run');

  // Esc while the run goes on. On a loaded machine the run may end before Esc reaches it (the
  // search stops early when it stops improving): then it is started again, at most twice more.
  const stopped = page.locator('[data-testid=early-plan][data-stopped=true]');
  for (let attempt = 1; ; attempt++) {
    await page.locator('[data-testid=effort]').focus();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('[data-testid=progress]').dataset.running === 'false', null, { timeout: 10000 });
    await progress.waitFor({ state: 'hidden' });
    if ((await stopped.count()) === 1 || attempt === 3) break;
    // the quick plan on screen first (waiting for no run alone passed before the quick run began,
    // and thorough's plan, still on screen, then started no run)
    await page.locator('[data-testid=effort]').selectOption('quick');
    await page.waitForFunction(() => JSON.parse(window.spillway.resultText() ?? '{}').search?.effort === 100, null, { timeout: 60000 });
    await page.locator('[data-testid=effort]').selectOption('thorough');
    await page.waitForFunction(() => document.querySelector('[data-testid=progress]').dataset.running === 'true', null, { timeout: 10000 });
    await page.locator('[data-testid=early-plan][data-stopped=false]', { hasText: 'toward 20,000' }).waitFor({ timeout: 120000 });
  }
  assert.equal(await stopped.count(), 1, `the search stopped (notice: ${await text(page, 'notice')})`);
  const effort = Number(await stopped.getAttribute('data-effort'));
  assert.ok(effort > 0 && effort < 20000, `stopped at effort ${effort}`);
  const kept = JSON.parse(await resultText(page));
  assert.equal(kept.search.effort, effort, 'the plan on screen is the best one made before Esc');
  assert.match(await text(page, 'notice'), new RegExp(`Search stopped at effort ${effort.toLocaleString('en-US')}`));
  assert.deepEqual(page.errors, []);
  await context.close();
});

for (const [width, height] of [[1024, 768], [1280, 720]]) {
  test(`presentation mode at ${width}×${height}: a lesson's question and choices, the chart and the state on one screen`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, { viewport: { width, height } });
    await waitForResult(page);
    const toggle = page.locator('[data-testid=presentation]');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    // a lesson of a real kernel: long text, many choices, five memories in the chart
    await page.locator('[data-testid=lesson-item][data-lesson=real-kernel]').click();
    await page.locator('[data-testid=lesson-choice]').first().waitFor();
    await waitForFresh(page);
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    assert.equal(await page.evaluate(() => document.body.classList.contains('presentation')), true);
    const onScreen = (sel) => page.locator(sel).evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.left >= 0 && r.top < innerHeight && r.bottom <= innerHeight && r.right <= innerWidth;
    });
    const topOnScreen = (sel) => page.locator(sel).evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.top < innerHeight - 40 && r.left >= 0 && r.right <= innerWidth;
    });
    assert.ok(await onScreen('#lesson-q'), 'the question');
    const choices = await page.locator('[data-testid=lesson-choice]').count();
    for (let i = 0; i < choices; i++) assert.ok(await onScreen(`[data-testid=lesson-choice] >> nth=${i}`), `choice ${i + 1} of ${choices}`);
    assert.ok(await topOnScreen('#chart'), 'the top of the chart');
    assert.ok(await onScreen('[data-testid=chart-canvas]'), 'the whole chart');
    assert.ok(await topOnScreen('#step-state table >> nth=0'), 'the state table at the cursor');
    // large type, and the editor and the settings out of the way
    const px = (sel) => page.locator(sel).first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok(await px('#lesson-q') >= 16);
    assert.ok(await px('[data-testid=lesson-choice]') >= 16);
    assert.ok(await px('#step-state table >> nth=0') >= 15);
    assert.equal(await page.locator('[data-testid=graph-input]').isVisible(), false);
    // off again: the page as it was
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    assert.equal(await page.locator('[data-testid=graph-input]').isVisible(), true);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test('a share link opened on a phone (390×844) shows the summary on the first screen', async () => {
  const desk = await openPage(pg.browser, pg.url);
  await waitForResult(desk.page);
  await waitForFresh(desk.page, 60000);
  await desk.page.locator('[data-testid=share]').click();
  const url = await desk.page.locator('[data-testid=share-url]').inputValue();
  const want = await text(desk.page, 'spill-count');
  await desk.context.close();

  const { page, context } = await openPage(pg.browser, url, SIZES[1].opts);
  await waitForResult(page, 60000);
  await waitForFresh(page);
  await page.waitForFunction(() => {
    const r = document.getElementById('summary').getBoundingClientRect();
    return r.top >= 0 && r.top < innerHeight / 2;
  }, null, { timeout: 5000 });
  assert.equal(await text(page, 'spill-count'), want);
  const spills = page.locator('[data-testid=spill-count]');
  assert.ok(await spills.evaluate((el) => el.getBoundingClientRect().bottom <= innerHeight), 'the spill count is on the first screen');
  assert.deepEqual(page.errors, []);
  await context.close();
});
