// What a new user tripped over, each at desktop size and on a phone (390×844, touch):
// layout, a pasted graph's Capacities, the caption, stale results, invalid capacity fields, and
// the polish items. Values are checked against the CLI where it is built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usePlayground, SIZES, openPage, waitForResult, text, pasteGraph, num, resultText, graphText, waitForNewResult,
  selectExample, waitForFresh, scratch, cliPlan, haveCli, contrast } from './helpers.mjs';

const pg = usePlayground();

const tmp = scratch();

const staleCards = ['summary-card', 'chart-card', 'timeline-card', 'step-card', 'order-card', 'spills-card'];
const staleness = (page) => page.evaluate((ids) => Object.fromEntries([...ids, 'compare-card'].map((id) => [id, document.getElementById(id).dataset.stale === 'true'])), staleCards);

/** A small graph in which UB must hold `need` bytes at once (three 128-byte tiles, then two). */
function ubGraph(capacities) {
  const g = {
    Nodes: [
      { Id: 0, Op: 'ALLOC', BufId: 0, Size: 128, Type: 'UB' }, { Id: 1, Op: 'COPY_IN', Pipe: 'MTE2', Cycles: 325, Bufs: [0] },
      { Id: 2, Op: 'ALLOC', BufId: 1, Size: 128, Type: 'UB' }, { Id: 3, Op: 'COPY_IN', Pipe: 'MTE2', Cycles: 325, Bufs: [1] },
      { Id: 4, Op: 'ALLOC', BufId: 2, Size: 128, Type: 'UB' }, { Id: 5, Op: 'ADD', Pipe: 'VECTOR', Cycles: 37, Bufs: [2, 1] },
      { Id: 6, Op: 'FREE', BufId: 1, Size: 128, Type: 'UB' }, { Id: 7, Op: 'MUL', Pipe: 'VECTOR', Cycles: 38, Bufs: [2, 0] },
      { Id: 8, Op: 'FREE', BufId: 0, Size: 128, Type: 'UB' }, { Id: 9, Op: 'COPY_OUT', Pipe: 'MTE3', Cycles: 191, Bufs: [2] },
      { Id: 10, Op: 'FREE', BufId: 2, Size: 128, Type: 'UB' },
    ],
    Edges: [[0, 1], [2, 3], [4, 5], [3, 5], [5, 6], [1, 7], [5, 7], [7, 8], [7, 9], [9, 10]],
    Order: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  };
  if (capacities) g.Capacities = capacities;
  return JSON.stringify(g, null, 1);
}

for (const size of SIZES) {
  test(`layout (${size.name}): no horizontal scroll, every toolbar control reachable, the editor visible and typeable`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    const width = await page.evaluate(() => innerWidth);
    // the page opens at its top with Run in sight: loading the example does not scroll it (on a
    // phone the editor is below the fold, and it used to pull the page down past the toolbar)
    const runInSight = () => page.evaluate(() => { const r = document.querySelector('#run').getBoundingClientRect(); return { scrollY, top: r.top, bottom: r.bottom }; });
    const opened = await runInSight();
    assert.equal(opened.scrollY, 0, `the page opens scrolled ${opened.scrollY} px down`);
    assert.ok(opened.top >= 0 && opened.bottom <= await page.evaluate(() => innerHeight), `Run is in sight (${JSON.stringify(opened)})`);
    await selectExample(page, 'fragmentation');
    assert.equal((await runInSight()).scrollY, 0, 'choosing an example does not scroll the page');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no horizontal scroll');
    for (const sel of ['#example-select', '#open', '#run', '#share', '[data-testid=download]', '#theme']) {
      const el = page.locator(sel);
      await el.scrollIntoViewIfNeeded();
      const box = await el.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= width, `${sel} is inside the page (${JSON.stringify(box)})`);
      const onTop = await page.evaluate(([s, x, y]) => document.querySelector(s).contains(document.elementFromPoint(x, y)), [sel, box.x + box.width / 2, box.y + box.height / 2]);
      assert.ok(onTop, `${sel} is not covered`);
    }
    // the editor: on top where it is, and it takes typing
    const content = page.locator('[data-testid=graph-input] .cm-content');
    await content.scrollIntoViewIfNeeded();
    const box = await page.locator('[data-testid=graph-input]').boundingBox();
    assert.ok(box.height >= 250, `the editor is ${box.height} px high`);
    assert.ok(await page.evaluate(([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-testid=graph-input]'), [box.x + box.width / 2, box.y + box.height / 2]), 'nothing covers the editor');
    await content.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n');
    assert.ok((await graphText(page)).endsWith('\n\n') || (await graphText(page)).endsWith('}\n\n'), 'typing reaches the editor');
    // every choice of every settings menu shows whole in its closed select (text, padding and
    // the arrow, about 30 px): on a phone the two-column grid cut "The graph's Order (de…"
    const cut = await page.evaluate(() => {
      const ctx = document.createElement('canvas').getContext('2d');
      return [...document.querySelectorAll('.set-grid select')].flatMap((sel) => {
        const cs = getComputedStyle(sel);
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 32;
        return [...sel.options].filter((o) => ctx.measureText(o.textContent).width > room).map((o) => `${sel.getAttribute('aria-label')}: "${o.textContent}" in ${room} px`);
      });
    });
    assert.deepEqual(cut, [], 'no settings choice is cut');
    // the tables scroll inside their cards; the share popover and the Examples menu fit
    for (const card of ['order-card', 'spills-card', 'compare-card']) {
      const overflow = await page.evaluate((id) => { const c = document.getElementById(id).getBoundingClientRect(); return c.right <= innerWidth && c.left >= 0; }, card);
      assert.ok(overflow, `${card} stays inside the page`);
    }
    await page.locator('#share').click();
    await page.locator('[data-testid=share-url]').waitFor();
    const pop = await page.locator('[data-testid=share-popover]').boundingBox();
    assert.ok(pop.x >= 0 && pop.x + pop.width <= width, `the share popover fits (${JSON.stringify(pop)})`);
    await page.keyboard.press('Escape');
    await selectExample(page, 'copyin-cheaper');
    assert.equal(await num(page, 'spill-count'), 1);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'still no horizontal scroll with results');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test(`a pasted graph's Capacities are adopted and shown, the fields override them visibly (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    const ub = page.locator('[data-testid=cap-UB]');
    assert.equal(await ub.inputValue(), '512', 'the example says UB 512');
    // paste a graph whose document says UB 256: the field follows before any Run
    const graph = ubGraph({ UB: 256 });
    // the example's result: the new capacities may re-run on their own (350 ms after they
    // change) before the Run below, so the new result is told from this one, not from whatever
    // is on screen just before the click
    let before = await resultText(page);
    await pasteGraph(page, graph);
    await page.waitForFunction(() => document.querySelector('[data-testid=cap-UB]').value === '256');
    assert.match(await text(page, 'notice'), /Capacities are now the capacity settings: UB 256 B/);
    assert.match(await text(page, 'caps-origin'), /From the graph.s Capacities/);
    assert.match(await text(page, 'graph-source'), /^Pasted graph/, 'the example caption went');
    assert.equal(await page.locator('[data-testid=example-select]').inputValue(), '', 'the Examples menu no longer names an example');
    await page.locator('[data-testid=run]').click();
    await waitForNewResult(page, before);
    const r = JSON.parse(await resultText(page));
    assert.equal(r.capacities.UB, 256);
    assert.ok(r.metrics.spills >= 1, 'three tiles in 256 bytes spill');
    if (haveCli()) assert.equal(await resultText(page), (await cliPlan(tmp, graph)).text, 'the same plan as the CLI on the same file');
    // an override: marked on the field and in the line under the fields, used by the run
    before = await resultText(page);
    await ub.fill('1024');
    await waitForNewResult(page, before);
    assert.equal(JSON.parse(await resultText(page)).capacities.UB, 1024);
    assert.equal(await num(page, 'spill-count'), 0);
    assert.equal(await page.locator('.cap[data-type=UB]').getAttribute('data-origin'), 'override');
    assert.match(await page.locator('.cap[data-type=UB]').textContent(), /override/);
    assert.match(await text(page, 'caps-origin'), /1 field overrides the graph.s Capacities/);
    before = await resultText(page);
    await page.locator('[data-testid=caps-reset]').click();
    await waitForNewResult(page, before);
    assert.equal(await ub.inputValue(), '256');
    // a graph without Capacities (as the contest's) gets the defaults, as the CLI gives it
    await pasteGraph(page, ubGraph(null));
    await page.waitForFunction(() => document.querySelector('[data-testid=cap-L1]')?.value === '4096');
    assert.equal(await ub.inputValue(), '1024');
    assert.match(await text(page, 'notice'), /names no Capacities: the default capacities apply/);
    before = await resultText(page);
    await page.keyboard.press('Control+Enter');
    await waitForNewResult(page, before);
    if (haveCli()) assert.equal(await resultText(page), (await cliPlan(tmp, ubGraph(null))).text);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test(`the caption and the Examples menu follow the text (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    await selectExample(page, 'fragmentation');
    const select = page.locator('[data-testid=example-select]');
    assert.equal(await select.inputValue(), 'fragmentation', 'the menu keeps the choice');
    assert.match(await text(page, 'graph-source'), /^Example: Fragmentation/);
    // the whole description is reachable without hovering: a button shows all of it
    const more = page.locator('[data-testid=source-more]');
    if (await more.isVisible()) {
      await more.click();
      assert.equal(await more.getAttribute('aria-expanded'), 'true');
    }
    assert.ok(await page.locator('[data-testid=source-description]').evaluate((el) => el.scrollHeight <= el.clientHeight + 1), 'no part of the description is cut');
    // an edit marks the caption; the menu goes back to "Examples…" (choosing it again reloads it)
    await page.locator('[data-testid=graph-input] .cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' ');
    await page.locator('[data-testid=source-edited]').waitFor();
    assert.equal(await select.inputValue(), '');
    await selectExample(page, 'fragmentation');
    assert.equal(await page.locator('[data-testid=source-edited]').count(), 0, 'choosing it again reloads the example');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test(`results that no longer match the editor or settings are marked out of date everywhere (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    await page.locator('[data-testid=compare-table]').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid=compare-status]').textContent.includes('verified'));
    assert.ok(Object.values(await staleness(page)).every((s) => !s), 'fresh results are not marked');
    // an edit: every card, the compare table included, is out of date, and a bar says why
    await page.locator('[data-testid=graph-input] .cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' ');
    assert.ok(Object.values(await staleness(page)).every(Boolean), 'all cards marked after an edit');
    assert.match(await text(page, 'stale-reason'), /graph changed/);
    assert.equal(await page.locator('#summary-card').evaluate((el) => getComputedStyle(el, '::after').content), '"out of date"');
    // a failed run keeps them marked
    await pasteGraph(page, '{"Nodes": [}');
    await page.locator('[data-testid=run]').click();
    await page.locator('[data-testid=error]').waitFor({ state: 'visible' });
    assert.ok(Object.values(await staleness(page)).every(Boolean), 'still marked after a failed run');
    // a run brings them back
    await selectExample(page, 'one-spill');
    await page.waitForFunction(() => document.querySelector('[data-testid=compare-status]').textContent.includes('verified'));
    assert.ok(Object.values(await staleness(page)).every((s) => !s));
    // a capacity change: out of date at once (the compare table too), until the new plan and rows come
    const marked = await page.evaluate(() => {
      const input = document.querySelector('[data-testid=cap-UB]');
      input.value = '640';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      return ['summary-card', 'compare-card'].map((id) => document.getElementById(id).dataset.stale);
    });
    assert.deepEqual(marked, ['true', 'true']);
    await waitForFresh(page);
    await page.waitForFunction(() => document.getElementById('compare-card').dataset.stale === 'false');
    assert.equal(JSON.parse(await resultText(page)).capacities.UB, 640);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test(`an invalid capacity field stops Run with a message naming the field (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    const before = await resultText(page);
    const ub = page.locator('[data-testid=cap-UB]');
    for (const [typed, why] of [['', /the field is empty/], ['0', /0 is less than 1 byte/], ['12.5', /not a whole number/], ['2000000000000', /more than 68,719,476,736 bytes/]]) {
      await ub.fill(typed);
      assert.equal(await ub.getAttribute('aria-invalid'), 'true');
      assert.match(await text(page, 'settings-errors'), why);
      await page.locator('[data-testid=run]').click();
      await page.locator('[data-testid=error]').waitFor({ state: 'visible' });
      assert.match(await text(page, 'error-message'), /The UB capacity field/);
      assert.match(await text(page, 'error-message'), why);
      assert.equal(await resultText(page), before, 'no run with a value the field does not show');
      assert.equal(await page.locator('#summary-card').getAttribute('data-stale'), 'true');
    }
    await page.getByRole('button', { name: 'Go to the field' }).click();
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'cap-UB');
    await page.keyboard.type('1024');
    await page.locator('[data-testid=error]').waitFor({ state: 'hidden' });
    await waitForNewResult(page, before);
    assert.equal(JSON.parse(await resultText(page)).capacities.UB, 1024);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test(`polish: one way to write numbers and bytes, distinct presets, a legible star (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    await selectExample(page, 'tiled-matmul');
    const values = await page.locator('#summary .stat-value > span:first-child').allTextContents();
    for (const v of values) assert.match(v, /^(\d{1,3}(,\d{3})*|\d+(\.\d)? ms)$/, `"${v}" is written like every other number`);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, without what is hidden
    const body = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(body, /KiB|MiB/, 'sizes are in bytes everywhere');
    assert.match(await text(page, 'peak-L1'), /^\d{1,3}(,\d{3})*$/);
    // the presets are distinct
    const presets = (await page.locator('[data-testid=preset] option').allTextContents()).slice(1);
    const seen = new Set();
    for (const p of presets) {
      await page.locator('[data-testid=preset]').selectOption({ label: p });
      await page.waitForFunction(() => !!document.querySelector('[data-testid=cap-L1]'));
      seen.add(await page.locator('#settings .caps').evaluate((el) => [...el.querySelectorAll('input')].map((i) => i.value).join()));
    }
    assert.equal(seen.size, presets.length, `presets ${presets.join(', ')} set different capacities`);
    // the star of the least data moved on the selected row, in both themes
    await selectExample(page, 'one-spill');
    const table = page.locator('[data-testid=compare-table]:not(.stale)');
    await table.waitFor();
    const best = table.locator('[data-testid=compare-row].best').first();
    const beforeOpen = await resultText(page);
    await best.locator('[data-testid=compare-open]').click();
    await waitForNewResult(page, beforeOpen);
    await page.locator('[data-testid=compare-row].best.current .best-mark').waitFor();
    for (const theme of ['light', 'dark']) {
      if (await page.evaluate(() => document.documentElement.dataset.theme) !== theme) await page.locator('#theme').click();
      const ratio = await contrast(page, '[data-testid=compare-row].best.current .best-mark', 'td');
      assert.ok(ratio >= 4.5, `${theme}: the star has ${ratio.toFixed(2)}:1 on the selected row`);
    }
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}
