// A 4 MB graph never holds the page: opening it, panning and zooming the chart while the compare
// table computes, and pasting it. Measured with a PerformanceObserver for 'longtask'.
//
// Long tasks are wall-clock times. On a machine whose cores are shared (the load average above
// the core count) the page's thread waits for a core in the middle of a task, so the limit of
// 100 ms is stretched by the load the test measured; on an idle machine it is exactly 100 ms.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { usePlayground, SIZES, openPage, waitForResult, stashClipboard, pasteClipboard, largeGraphText, scratch, watchLongTasks, longTasks, waitForFresh } from './helpers.mjs';

const pg = usePlayground();

let bigText, bigFile, nodes;
const tmp = scratch();
before(async () => {
  bigText = await largeGraphText(4_000_000);
  nodes = JSON.parse(bigText).Nodes.length;
  bigFile = path.join(tmp, 'large.json');
  fs.writeFileSync(bigFile, bigText);
});

function limitMs() {
  const load = os.loadavg()[0] / os.cpus().length;
  return { ms: Math.round(100 * Math.max(1, load)), load: load.toFixed(2) };
}

for (const size of SIZES) {
  test(`opening a 4 MB graph never blocks the page for more than 100 ms at a time (${size.name})`, async (t) => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    await watchLongTasks(page);
    const t0 = Date.now();
    await page.locator('#open-input').setInputFiles(bigFile);
    // on screen: every step of the new order in the table, and the results not out of date
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=order-table]').dataset.rows) > n, nodes, { timeout: 120000 });
    await waitForFresh(page, 120000);
    const openMs = Date.now() - t0;
    assert.match(await page.locator('[data-testid=graph-source]').textContent(), /^File: large\.json/);
    assert.equal(await page.locator('[data-testid=memory-chart]').getAttribute('data-pixels') !== '0', true, 'the chart paints its lanes as pixels');
    // while the compare table computes: zoom and pan the chart, scroll the order table
    const canvas = page.locator('[data-testid=chart-canvas]');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    if (!size.opts.hasTouch) {
      await page.mouse.move(box.x + box.width / 2, box.y + 40);
      for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -300);
    }
    await canvas.focus();
    for (const key of ['+', '+', 'ArrowRight', 'ArrowLeft', '-', 'Home']) await page.keyboard.press(key);
    const order = page.locator('[data-testid=order-table] [role=grid]');
    await order.focus();
    for (const key of ['End', 'PageUp', 'Home']) await page.keyboard.press(key);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    const tasks = await longTasks(page);
    const limit = limitMs();
    t.diagnostic(`open -> on screen ${openMs} ms; long tasks ${JSON.stringify(tasks)}; load per core ${limit.load}, limit ${limit.ms} ms`);
    assert.ok(Math.max(0, ...tasks) <= limit.ms, `the longest task took ${Math.max(...tasks)} ms`);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test('pasting a 4 MB graph never blocks the page for more than 100 ms at a time', async (t) => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await stashClipboard(page, bigText);
  await watchLongTasks(page);
  await pasteClipboard(page);
  await page.waitForFunction(() => /^Pasted graph/.test(document.querySelector('[data-testid=graph-source]').textContent), null, { timeout: 60000 });
  await page.waitForFunction((n) => window.spillway.getGraphText().length === n, bigText.length);
  // the pasted graph names no Capacities: the defaults were adopted without a Run
  await page.waitForFunction(() => document.querySelector('[data-testid=cap-L1]')?.value === '4096', null, { timeout: 30000 });
  const tasks = await longTasks(page);
  const limit = limitMs();
  t.diagnostic(`long tasks ${JSON.stringify(tasks)}; load per core ${limit.load}, limit ${limit.ms} ms`);
  assert.ok(Math.max(0, ...tasks) <= limit.ms, `the longest task took ${Math.max(...tasks)} ms`);
  assert.deepEqual(page.errors, []);
  await context.close();
});
