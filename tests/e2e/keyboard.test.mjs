// Keyboard and touch: the tables' rows and the chart without a mouse, the chart's text
// alternative, and a tap on a phone showing the chart's details and moving the step cursor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usePlayground, SIZES, openPage, waitForResult, text, resultText, selectExample } from './helpers.mjs';

const pg = usePlayground();


const chartView = (page) => page.locator('[data-testid=memory-chart]').getAttribute('data-view').then((v) => v.split('-').map(Number));

for (const size of SIZES) {
  test(`tables and chart work from the keyboard; the chart says what it shows (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    await selectExample(page, 'flash-attention-like');
    const result = JSON.parse(await resultText(page));
    assert.ok(result.spills.length >= 2);

    // Tab reaches the toolbar's controls, Run included
    await page.locator('body').focus();
    const reached = new Set();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => document.activeElement?.id || document.activeElement?.dataset.testid || ''));
    }
    for (const id of ['example-select', 'open', 'run', 'share', 'download', 'theme']) assert.ok(reached.has(id), `Tab reaches ${id}: ${[...reached].join(' ')}`);

    // the spill list: arrows move, Enter moves the step cursor to the spill and opens its decision
    const spills = page.locator('[data-testid=spill-table] [role=grid]');
    await spills.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /Spill 2 of/.test(document.querySelector('[data-testid=step-decision]').textContent));
    assert.match(await text(page, 'step-decision'), new RegExp(`Spill 2 of ${result.spills.length}: buffer ${result.spills[1].buf} is written out`));
    assert.equal(await text(page, 'step-label'), String(result.spills[1].outStep));
    await page.keyboard.press('Home');
    await page.keyboard.press(' ');
    await page.waitForFunction(() => /Spill 1 of/.test(document.querySelector('[data-testid=step-decision]').textContent));

    // the order table: End goes to the last step, Enter moves the step cursor there and highlights
    // that row's buffer everywhere
    const order = page.locator('[data-testid=order-table]');
    await order.locator('[role=grid]').focus();
    await page.keyboard.press('End');
    assert.equal(await order.getAttribute('data-active'), String(result.order.length - 1));
    await page.keyboard.press('PageUp');
    await page.keyboard.press('ArrowUp');
    const active = Number(await order.getAttribute('data-active'));
    assert.ok(active < result.order.length - 2);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=order-table]').dataset.highlighted) > 0);
    assert.equal(await text(page, 'step-label'), String(active));
    assert.equal(await order.locator('[role=grid]').getAttribute('aria-activedescendant') !== null, true, 'the active row is announced');

    // the chart: focusable, named by a text alternative, pans and zooms from the keyboard
    const canvas = page.locator('[data-testid=chart-canvas]');
    await canvas.focus();
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'chart-canvas');
    const label = await canvas.getAttribute('aria-label');
    assert.match(label, new RegExp(`over ${result.order.length.toLocaleString('en-US')} steps`));
    assert.match(label, new RegExp(`${result.spills.length} spills`));
    const description = await text(page, 'chart-description');
    for (const type of new Set(result.allocations.map((a) => a.type))) assert.match(description, new RegExp(`${type}: capacity ${result.capacities[type].toLocaleString('en-US')} B`));
    const [a0, a1] = await chartView(page);
    await page.keyboard.press('+');
    await page.waitForFunction(([x, y]) => document.querySelector('[data-testid=memory-chart]').dataset.view !== `${x}-${y}`, [a0, a1]);
    const [b0, b1] = await chartView(page);
    assert.ok(b1 - b0 < a1 - a0, `zoomed in: ${a0}-${a1} -> ${b0}-${b1}`);
    await page.keyboard.press('Shift+ArrowRight');
    await page.waitForFunction((x) => Number(document.querySelector('[data-testid=memory-chart]').dataset.view.split('-')[0]) > x, b0);
    assert.match(await text(page, 'chart-live'), /^Steps [\d,]+ to [\d,]+ of [\d,]+\.$/);
    await page.keyboard.press('0');
    await page.waitForFunction((s) => document.querySelector('[data-testid=memory-chart]').dataset.view === `0-${s}`, result.order.length);
    // the arrows move the step cursor, Home and End to the first and last step
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('[data-testid=memory-chart]').dataset.cursor === '0');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('[data-testid=step-label]').textContent === '2');
    assert.equal(await text(page, 'chart-live'), `Step 2 of ${result.order.length.toLocaleString('en-US')}.`);
    await page.keyboard.press('End');
    await page.waitForFunction((s) => document.querySelector('[data-testid=step-label]').textContent === String(s), result.order.length - 1);
    // ] walks to the next spill: its details in the tooltip, its decision below
    await page.keyboard.press(']');
    const tip = page.locator('[data-testid=chart-tip]');
    await tip.waitFor({ state: 'visible' });
    const s1 = result.spills[0];
    assert.match(await tip.textContent(), new RegExp(`Buffer ${s1.buf}`));
    assert.match(await text(page, 'chart-live'), new RegExp(`^Spill 1 of ${result.spills.length}: buffer ${s1.buf}`));
    assert.equal(await text(page, 'step-label'), String(s1.outStep), '] moves the cursor to the spill');
    await page.keyboard.press(']');
    await page.waitForFunction((b) => new RegExp(`Spill 2 of \\d+: buffer ${b}`).test(document.querySelector('[data-testid=step-decision]').textContent), result.spills[1].buf);
    await page.keyboard.press('Escape');
    await tip.waitFor({ state: 'hidden' });
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test('a tap on the chart shows the details of the buffer under the finger (phone)', async () => {
  const { page, context } = await openPage(pg.browser, pg.url, SIZES[1].opts);
  await waitForResult(page);
  const canvas = page.locator('[data-testid=chart-canvas]');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const tip = page.locator('[data-testid=chart-tip]');
  let shown = false;
  // the first lane spans y 8..92; tap along its middle until a buffer is under the finger
  for (let x = 0.25; x < 0.95 && !shown; x += 0.1) {
    await page.touchscreen.tap(box.x + box.width * x, box.y + 50);
    shown = await tip.isVisible();
  }
  assert.ok(shown, 'a tap shows the tooltip');
  assert.match(await tip.textContent(), /Buffer \d+/);
  // it stays (no hover on a phone) until a tap elsewhere
  await page.touchscreen.tap(box.x + 4, box.y + 4);
  await tip.waitFor({ state: 'hidden' });
  assert.deepEqual(page.errors, []);
  await context.close();
});

/** Two fingers on `box` at y `y`: down at x a0/b0, moved in `steps` to a1/b1, then lifted (CSS
 * pixels from the box's left). */
async function twoFingers(cdp, box, y, [a0, b0], [a1, b1], steps = 6) {
  const at = (a, b) => [{ x: box.x + a, y, id: 0 }, { x: box.x + b, y, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(a0, b0) });
  for (let i = 1; i <= steps; i++) {
    const f = i / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(a0 + (a1 - a0) * f, b0 + (b1 - b0) * f) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

test('a pinch zooms the chart and the pipe timeline, two fingers moving together pan them, on a phone', async () => {
  const { page, context } = await openPage(pg.browser, pg.url, SIZES[1].opts);
  await waitForResult(page);
  await selectExample(page, 'tiled-matmul');
  const cdp = await context.newCDPSession(page);
  const view = (id) => page.locator(`[data-testid=${id}]`).getAttribute('data-view').then((v) => v.split('-').map(Number));
  assert.match(await text(page, 'memory-chart'), /pinch to zoom/, 'the hint names the gestures of a touch screen');
  for (const [id, canvasId] of [['memory-chart', 'chart-canvas'], ['timeline', 'timeline-canvas']]) {
    const canvas = page.locator(`[data-testid=${canvasId}]`);
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    const [x0, x1] = await view(id);
    const mid = box.width / 2;
    // fingers spread from 40 to 200 pixels apart around the middle: about 5 times closer
    await twoFingers(cdp, box, box.y + 30, [mid - 20, mid + 20], [mid - 100, mid + 100]);
    await page.waitForFunction(([i, span]) => {
      const [a, b] = document.querySelector(`[data-testid=${i}]`).dataset.view.split('-').map(Number);
      return b - a < span / 2;
    }, [id, x1 - x0]);
    const [z0, z1] = await view(id);
    assert.ok(z0 > x0 && z1 < x1, `${id}: zoomed in around the middle (${x0}-${x1} -> ${z0}-${z1})`);
    // both fingers 80 pixels to the left, as far apart: the same span, later in time
    await twoFingers(cdp, box, box.y + 30, [mid - 50, mid + 50], [mid - 130, mid - 30]);
    await page.waitForFunction(([i, a0]) => Number(document.querySelector(`[data-testid=${i}]`).dataset.view.split('-')[0]) > a0, [id, z0]);
    const [p0, p1] = await view(id);
    assert.ok(Math.abs((p1 - p0) - (z1 - z0)) <= 1, `${id}: panned, the span kept (${z0}-${z1} -> ${p0}-${p1})`);
    // and a pinch the other way zooms out again
    await twoFingers(cdp, box, box.y + 30, [mid - 100, mid + 100], [mid - 20, mid + 20]);
    await page.waitForFunction(([i, span]) => {
      const [a, b] = document.querySelector(`[data-testid=${i}]`).dataset.view.split('-').map(Number);
      return b - a > span * 2;
    }, [id, p1 - p0]);
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});
