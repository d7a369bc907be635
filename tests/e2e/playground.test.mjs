// End-to-end tests of the built playground (web/dist) in headless Chromium. Values are checked
// against the native CLI (build/native/spillway) on the same graph and settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import lz from 'lz-string';
const { compressToEncodedURIComponent } = lz;
import { usePlayground, scratch, CASES, CLI, cliPlan, openPage, waitForResult, text, pasteGraph, num, resultText, graphText, waitForNewResult, selectExample, openGraphFile, largeGraphText, openSharedCase } from './helpers.mjs';

const pg = usePlayground();

const tmp = scratch();
const haveCli = fs.existsSync(CLI);

async function download(page, file) {
  await page.locator('[data-testid=download]').click();
  const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(`button[data-file="${file}"]`).click()]);
  assert.equal(dl.suggestedFilename(), file === 'case.json' ? 'spillway-case.json' : file);
  return fs.readFileSync(await dl.path(), 'utf8');
}

test('a newcomer sees an example that spills, and it matches the CLI byte for byte (result and contest files)', async (t) => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const options = await page.locator('[data-testid=example-select] option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  assert.ok(options.length >= 3, `examples menu has ${options.length} entries`);
  // the first screen shows spilling: a spill in the summary, the chart and the spill list
  assert.equal(await page.locator('[data-testid=example-select]').inputValue(), 'one-spill', 'the menu shows the example on screen');
  assert.match(await text(page, 'graph-source'), /^Example: One spill/);
  assert.ok(await num(page, 'spill-count') >= 1);
  assert.ok(Number(await page.locator('[data-testid=memory-chart]').getAttribute('data-spilled')) >= 1);
  assert.ok(Number(await page.locator('[data-testid=spill-table]').getAttribute('data-rows')) >= 1);
  const graph = await graphText(page);
  if (!haveCli) {
    t.skip(`${CLI} is not built: cannot compare with the CLI`);
    await context.close();
    return;
  }
  assert.ok(execFileSync(CLI, ['examples'], { encoding: 'utf8' }).includes('one-spill'), 'the CLI lists the example');
  assert.equal(graph.trim(), execFileSync(CLI, ['example', 'one-spill'], { encoding: 'utf8' }).trim(), 'editor holds the example');

  const cli = await cliPlan(tmp, graph);
  const expected = JSON.parse(cli.text);
  assert.equal(await num(page, 'spill-count'), expected.metrics.spills);
  assert.equal(await num(page, 'extra-bytes'), expected.metrics.extraBytes);
  assert.equal(await download(page, 'result.json'), cli.text, 'result.json is byte-identical to spillway plan -o');
  for (const f of ['schedule.txt', 'memory.txt', 'spill.txt']) {
    assert.equal(await download(page, f), fs.readFileSync(path.join(cli.dir, f), 'utf8'), `${f} equals the CLI's --export`);
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('invalid JSON shows the error with its place and keeps the text (also across a reload)', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const bad = '{\n  "Nodes": [\n    {"Id": 0, "Op": "ALLOC",, "BufId": 0}\n  ]\n}\n';
  await pasteGraph(page, bad);
  await page.keyboard.press('Control+Enter');
  const err = page.locator('[data-testid=error]');
  await err.waitFor({ state: 'visible' });
  assert.match(await text(page, 'error-message'), /line 3/);
  assert.equal(await graphText(page), bad, 'the typed text is untouched');

  // a graph error names the node in its message
  const badNode = '{"Nodes": [\n {"Id": 0, "Op": "ALLOC", "BufId": 0, "Size": 64, "Type": "L1"},\n {"Id": 1, "Op": "ALLOC", "Size": 64, "Type": "L1"}\n], "Edges": []}';
  await pasteGraph(page, badNode);
  await page.locator('[data-testid=run]').click();
  await page.waitForFunction(() => /node 1.*BufId/.test(document.querySelector('[data-testid=error-message]')?.textContent ?? ''));

  await page.reload();
  await page.locator('[data-testid=error]').waitFor({ state: 'visible' });
  assert.equal(await graphText(page), badNode, 'the text survives a reload');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('changing a capacity changes the result (as the CLI says)', async (t) => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await selectExample(page, 'tiled-matmul-small');
  const cap = page.locator('[data-testid=cap-L1]');
  assert.equal(await cap.inputValue(), '512', "the example's own L1 capacity is adopted");
  const spills512 = await num(page, 'spill-count');
  assert.ok(spills512 > 0, 'L1 = 512 needs spills');
  const before = await resultText(page);
  await cap.fill('1024');
  await page.locator('[data-testid=run]').click();
  await waitForNewResult(page, before);
  const spills1024 = await num(page, 'spill-count');
  assert.ok(spills1024 < spills512, `more L1 (1024) gives fewer spills: ${spills1024} < ${spills512}`);
  assert.equal(await page.locator('[data-testid=peak-L1]').textContent(), String(JSON.parse(await resultText(page)).metrics.residentPeak.L1));
  if (haveCli) {
    const caps = JSON.parse(await resultText(page)).capacities;
    const capsArg = Object.entries(caps).map(([k, v]) => `${k}=${v}`).join(',');
    const cli = await cliPlan(tmp, await graphText(page), ['--caps', capsArg]);
    assert.equal(await resultText(page), cli.text, 'same result as spillway plan --caps ' + capsArg);
  } else t.diagnostic('CLI not built: compared only with the previous run');
  await context.close();
});

test('a shared link opened in a fresh browser context restores the case and its result', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await selectExample(page, 'tiled-matmul-small');
  let before = await resultText(page);
  await page.locator('[data-testid=cap-L1]').fill('640');
  await page.locator('[data-testid=run]').click();
  await waitForNewResult(page, before);
  before = await resultText(page);
  await page.locator('[data-testid=cost-model]').selectOption('seed');
  await page.locator('[data-testid=fixed-latency]').fill('40');
  await page.locator('[data-testid=run]').click();
  await waitForNewResult(page, before);
  const want = { result: await resultText(page), graph: await graphText(page), spills: await text(page, 'spill-count') };
  assert.equal(JSON.parse(want.result).cost.fixedLatency, 40);

  await page.locator('[data-testid=share]').click();
  const url = await page.locator('[data-testid=share-url]').inputValue();
  assert.match(url, /#case=/);
  assert.ok(url.length < 8000);
  await context.close();

  const fresh = await openPage(pg.browser, url);
  await waitForResult(fresh.page);
  await fresh.page.waitForFunction(() => window.spillway.resultText()?.includes('"fixedLatency":40'), null, { timeout: 20000 });
  assert.equal(await resultText(fresh.page), want.result, 'same result');
  assert.deepEqual(JSON.parse(await graphText(fresh.page)), JSON.parse(want.graph), 'the same graph (laid out again after travelling compacted)');
  assert.equal(await text(fresh.page, 'spill-count'), want.spills);
  assert.equal(await fresh.page.locator('[data-testid=cap-L1]').inputValue(), '640');
  assert.equal(await fresh.page.locator('[data-testid=cost-model]').inputValue(), 'seed');
  assert.deepEqual(fresh.page.errors, []);
  await fresh.context.close();
});

test('a corrupt or newer-version link gives a clear message and leaves the page usable', async () => {
  const { page, context } = await openPage(pg.browser, pg.url + '#case=N4Igzg9grg__this_is_not_a_case');
  await waitForResult(page);
  const notice = page.locator('[data-testid=notice]');
  await notice.waitFor({ state: 'visible' });
  assert.match(await notice.textContent(), /damaged/);
  assert.ok(Number.isInteger(await num(page, 'spill-count')), 'the example still ran');
  assert.equal(page.url().includes('#case='), false, 'the bad fragment is dropped');

  const newer = compressToEncodedURIComponent(JSON.stringify({ v: 99, graph: '{}', settings: {} }));
  await page.goto(pg.url + '#case=' + newer);
  await notice.waitFor({ state: 'visible' });
  await page.waitForFunction(() => /newer/.test(document.querySelector('[data-testid=notice]').textContent));
  await waitForResult(page);
  const before = await resultText(page);
  await selectExample(page, 'copyin-cheaper');
  assert.notEqual(await resultText(page), before);
  assert.equal(await num(page, 'spill-count'), 1, 'the page still plans: copyin-cheaper has one spill');
  await context.close();
});

test('FlashAttention_Case0 runs and shows spills, the spill list, decisions and the chart', async (t) => {
  const opened = await openSharedCase(t, pg.browser, pg.url, 'FlashAttention_Case0.json');
  if (!opened) return;
  const { page, context, file } = opened;
  const result = JSON.parse(await resultText(page));
  assert.equal(result.capacities.UB, 1024, 'a graph without Capacities gets the seed defaults');
  const spills = await num(page, 'spill-count');
  assert.ok(spills > 0);
  assert.equal(spills, result.metrics.spills);
  if (haveCli) {
    const cli = JSON.parse((await cliPlan(tmp, fs.readFileSync(file, 'utf8'))).text);
    assert.equal(spills, cli.metrics.spills, 'CLI agrees on the spill count');
    assert.equal(await num(page, 'extra-bytes'), cli.metrics.extraBytes);
  }
  // spill table: all spills, virtualised; row 1 is the first spill
  const spillTable = page.locator('[data-testid=spill-table]');
  assert.equal(await spillTable.getAttribute('data-rows'), String(spills));
  const firstRow = spillTable.locator('.vt-row').first();
  const s0 = result.spills[0];
  assert.match(await firstRow.textContent(), new RegExp(`^1${s0.buf}${s0.type}${s0.size}${s0.oldOffset} → ${s0.newOffset}${s0.outNode}@${s0.outStep}${s0.inNode}@${s0.inStep}$`));
  // order table: virtualised (few DOM rows for thousands of steps), spill nodes marked
  const order = page.locator('[data-testid=order-table]');
  assert.equal(Number(await order.getAttribute('data-rows')), result.order.length);
  assert.ok(await order.locator('.vt-row').count() < 120, 'only visible rows are in the DOM');
  // chart: one lane per memory, one spilled stretch per spill
  const chart = page.locator('[data-testid=memory-chart]');
  assert.equal(await chart.getAttribute('data-lanes'), 'L1,UB,L0A,L0B,L0C');
  assert.equal(Number(await chart.getAttribute('data-spilled')), spills);
  assert.equal(Number(await chart.getAttribute('data-stretches')), result.allocations.length + 2 * spills);
  // the canvas is drawn: many distinct colours
  const colours = await page.evaluate(() => {
    const c = document.querySelector('[data-testid=memory-chart] canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const set = new Set();
    for (let i = 0; i < d.length; i += 4 * 97) set.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return set.size;
  });
  assert.ok(colours > 50, `chart has ${colours} colours`);
  // selecting a spill shows its decision and highlights the buffer's uses in the order table
  await firstRow.click();
  const decisions = page.locator('[data-testid=step-decision]');
  await decisions.locator('tr.chosen').waitFor();
  assert.match(await decisions.textContent(), new RegExp(`Spill 1 of ${spills}: buffer ${s0.buf}`));
  const uses = result.order.map((id, step) => [id, step]).filter(([id]) => {
    const n = result.addedNodes.find((a) => a.Id === id);
    return n ? n.Bufs.includes(s0.buf) : false;
  });
  assert.ok(uses.length >= 2, 'the spill nodes name the buffer');
  assert.ok(Number(await order.getAttribute('data-highlighted')) >= 4, 'ALLOC, uses, spill nodes and FREE are highlighted');
  await order.locator('.vt-row.hl').first().waitFor();
  // hovering the chart names a buffer
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.locator('canvas').boundingBox();
  let named = false;
  for (let x = 0.1; x < 0.9 && !named; x += 0.1) {
    await page.mouse.move(box.x + box.width * x, box.y + 60);
    named = /Buffer \d+/.test((await page.locator('[data-testid=chart-tip]').textContent()) ?? '') && await page.locator('[data-testid=chart-tip]').isVisible();
  }
  assert.ok(named, 'the tooltip names a buffer');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('a long run shows progress and can be cancelled; the engine restarts; the old results are marked', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  // a slow run: copies of the tiled-matmul example side by side (~2 MB) in ascending id order,
  // made to finish sooner (objective cycles: natively 7 s of CPU, ten times the bytes plan's)
  const bigFile = path.join(tmp, 'large.json');
  fs.writeFileSync(bigFile, await largeGraphText(2_000_000));
  let first = await resultText(page);
  await page.locator('[data-testid=order-source]').selectOption('id');
  await waitForNewResult(page, first);
  first = await resultText(page);
  await page.locator('[data-testid=objective]').selectOption('cycles');
  await waitForNewResult(page, first);
  first = await resultText(page);
  await page.locator('#open-input').setInputFiles(bigFile);
  const progress = page.locator('[data-testid=progress]');
  await progress.waitFor({ state: 'visible', timeout: 20000 });
  assert.match(await progress.textContent(), /\d+\.\d s/);
  await page.locator('[data-testid=cancel]').click();
  await progress.waitFor({ state: 'hidden' });
  assert.match(await text(page, 'notice'), /cancelled/i);
  assert.equal(await resultText(page), first, 'the cancelled run left the previous result');
  // ... marked as not matching the editor, on every card
  for (const id of ['summary-card', 'chart-card', 'timeline-card', 'step-card', 'order-card', 'spills-card', 'compare-card'])
    assert.equal(await page.locator(`#${id}`).getAttribute('data-stale'), 'true', `${id} is marked out of date`);
  assert.match(await text(page, 'stale-reason'), /graph changed/);
  // the new worker plans
  await selectExample(page, 'copyin-cheaper');
  assert.equal(await num(page, 'spill-count'), 1);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('order file, drag-and-drop, long-link warning and theme toggle', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await selectExample(page, 'tiled-matmul-small');
  const base = JSON.parse(await resultText(page));
  // an order file (one id a line): ascending id, as the engine's "id" order
  const ids = base.inputOrder.slice().sort((a, b) => a - b);
  const orderFile = path.join(tmp, 'order.txt');
  fs.writeFileSync(orderFile, ids.join('\n') + '\n');
  let before = await resultText(page);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator('[data-testid=order-source]').selectOption('file')]);
  await chooser.setFiles(orderFile);
  await waitForNewResult(page, before);
  const given = JSON.parse(await resultText(page));
  assert.equal(given.orderSource, 'given');
  assert.deepEqual(given.inputOrder, ids);
  before = await resultText(page);
  await page.locator('[data-testid=order-source]').selectOption('id');
  await waitForNewResult(page, before);
  const byId = JSON.parse(await resultText(page));
  assert.equal(byId.orderSource, 'id');
  assert.deepEqual(byId.order, given.order, 'a file of ascending ids plans like the "id" order');

  // drop a graph file on the page
  before = await resultText(page);
  const graph = '{"Nodes": [\n {"Id": 0, "Op": "ALLOC", "BufId": 0, "Size": 64, "Type": "UB"},\n' +
    ' {"Id": 1, "Op": "COPY_IN", "Pipe": "MTE2", "Cycles": 10, "Bufs": [0]},\n' +
    ' {"Id": 2, "Op": "FREE", "BufId": 0, "Size": 64, "Type": "UB"}\n], "Edges": [[0, 1], [1, 2]]}\n';
  await page.evaluate((content) => {
    const dt = new DataTransfer();
    dt.items.add(new File([content], 'dropped.json', { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
  }, graph);
  await waitForNewResult(page, before);
  assert.equal(await graphText(page), graph);
  assert.equal(await num(page, 'spill-count'), 0);
  assert.equal(await text(page, 'step-count'), '3');
  assert.equal(await page.locator('[data-testid=cap-UB]').inputValue(), '1024', 'a graph file without Capacities gets the defaults');
  assert.equal(await page.locator('#drop').isHidden(), true);

  // a big case makes a long link: warn and offer the case file
  const big = path.join(CASES, 'FlashAttention_Case0.json');
  if (fs.existsSync(big)) {
    await openGraphFile(page, big);
    await page.locator('[data-testid=share]').click();
    const warn = page.locator('[data-testid=share-warning]');
    await warn.waitFor();
    assert.match(await warn.textContent(), /8,000/);
    const [dl] = await Promise.all([page.waitForEvent('download'), warn.locator('button').click()]);
    const saved = JSON.parse(fs.readFileSync(await dl.path(), 'utf8'));
    assert.equal(saved.v, 8, 'case files are format v8 (v1 to v7 still open)');
    assert.equal(saved.graph, fs.readFileSync(big, 'utf8'));
    await page.keyboard.press('Escape');
  }

  // theme toggle flips and persists
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
  const t0 = await theme();
  await page.locator('#theme').click();
  const t1 = await theme();
  assert.notEqual(t1, t0);
  await page.reload();
  await waitForResult(page);
  assert.equal(await theme(), t1);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('the compare table lists every policy on every order, and a row opens its plan', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const fa = path.join(CASES, 'FlashAttention_Case0.json');
  if (fs.existsSync(fa)) {
    await openGraphFile(page, fa);
  } else {
    await selectExample(page, 'tiled-matmul-small');
  }
  const hasOrder = Array.isArray(JSON.parse(await graphText(page)).Order);
  // defaults: the first of each engine registry (best policy; the graph's Order, else best)
  assert.equal(await page.locator('[data-testid=policy]').inputValue(), 'best');
  assert.equal(await page.locator('[data-testid=order-source]').inputValue(), 'graph');
  if (!hasOrder) assert.match(await text(page, 'order-help'), /This graph has no "Order"\.$/);
  assert.match(await text(page, 'policy-help'), /^best: Runs every policy below/);

  const table = page.locator('[data-testid=compare-table]:not(.stale)');
  await table.waitFor({ timeout: 20000 });
  const rows = table.locator('[data-testid=compare-row]');
  // every compared order source (graph when the file has an Order; schedule, reuse, search,
  // min-peak, id) x every policy (best, lifetime, residency, seed, window, belady, lru, fifo)
  const rowCount = (hasOrder ? 6 : 5) * 8;
  assert.equal(await rows.count(), rowCount);
  const cell = async (row, col) => Number((await row.locator(`td[data-col=${col}]`).textContent()).replace(/[^0-9]/g, ''));
  const current = table.locator('[data-testid=compare-row][data-current=true]');
  assert.equal(await current.count(), 1, 'the plan on screen is one row');
  assert.equal(await current.getAttribute('data-policy'), 'best');
  assert.equal(await cell(current, 'spills'), await num(page, 'spill-count'));
  assert.equal(await cell(current, 'extra-bytes'), await num(page, 'extra-bytes'));
  // the least extra data is marked
  const extras = await rows.locator('td[data-col=extra-bytes]').evaluateAll((tds) => tds.map((td) => Number(td.textContent.replace(/[^0-9]/g, ''))));
  const marked = await rows.locator('td[data-col=extra-bytes] .best-mark').count();
  assert.equal(marked, extras.filter((x) => x === Math.min(...extras)).length);

  // open seed on ascending id
  const row = table.locator('[data-testid=compare-row][data-policy=seed][data-order=id]');
  const want = { spills: await cell(row, 'spills'), extra: await cell(row, 'extra-bytes'), cycles: await cell(row, 'total-cycles') };
  const before = await resultText(page);
  await row.locator('[data-testid=compare-open]').click();
  await page.waitForFunction((b) => {
    const t = window.spillway.resultText();
    return t && t !== b && JSON.parse(t).policy === 'seed';
  }, before, { timeout: 20000 });
  assert.equal(await page.locator('[data-testid=policy]').inputValue(), 'seed');
  assert.equal(await page.locator('[data-testid=order-source]').inputValue(), 'id');
  assert.equal(await num(page, 'spill-count'), want.spills);
  assert.equal(await num(page, 'extra-bytes'), want.extra);
  assert.equal(Number((await text(page, 'total-cycles')).replace(/,/g, '')), want.cycles);
  const r = JSON.parse(await resultText(page));
  assert.equal(r.orderSource, 'id');
  await page.locator('[data-testid=compare-row][data-current=true][data-policy=seed][data-order=id]').waitFor();
  assert.equal(await page.locator('[data-testid=compare-table] [data-testid=compare-row]').count(), rowCount, 'same graph: the table stays');
  assert.match(await text(page, 'policy-help'), /^seed: The design document/);

  // an old (v1) link meant the old defaults: seed, and ascending id for a graph without Order
  const v1 = compressToEncodedURIComponent(JSON.stringify({ v: 1, graph: '{"Nodes": [], "Edges": []}', settings: { policy: '', orderSource: 'graph' } }));
  await page.goto(pg.url + '#case=' + v1);
  await page.waitForFunction(() => { try { return JSON.parse(window.spillway.getGraphText()).Nodes.length === 0; } catch { return false; } });
  assert.equal(await page.locator('[data-testid=policy]').inputValue(), 'seed');
  assert.equal(await page.locator('[data-testid=order-source]').inputValue(), 'id');
  assert.deepEqual(page.errors, []);
  await context.close();
});
