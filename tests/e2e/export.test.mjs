// Slides, handouts, course pages: the memory at the cursor as SVG and PNG, the print stylesheet,
// and the embed view a link with "&embed" opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { usePlayground, openPage, waitForResult, waitForFresh, waitForNewResult, resultText, graphText, slideTo } from './helpers.mjs';

const pg = usePlayground();

/** The buffers resident while `step` runs, from the result and the graph alone: from its ALLOC's
 * step through its FREE's, except between a SPILL_OUT's step and its SPILL_IN's (both excluded). */
function residentAt(result, graph, step) {
  const stepOf = new Map(result.order.map((id, i) => [id, i]));
  const alloc = new Map(), free = new Map();
  for (const n of graph.Nodes) {
    if (n.Op === 'ALLOC') alloc.set(n.BufId, stepOf.get(n.Id));
    if (n.Op === 'FREE') free.set(n.BufId, stepOf.get(n.Id));
  }
  return [...alloc.keys()]
    .filter((b) => alloc.get(b) <= step && step <= free.get(b))
    .filter((b) => !result.spills.some((sp) => sp.buf === b && sp.outStep < step && step < sp.inStep))
    .sort((a, b) => a - b);
}

/** Clicks an export button (`export-svg`, `timeline-export-png`, …) and resolves to the
 * downloaded file's name and bytes. */
async function exported(page, kind, prefix = 'export') {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-testid=${prefix}-${kind}]`).click()]);
  return { name: dl.suggestedFilename(), bytes: fs.readFileSync(await dl.path()) };
}

/** An SVG text parsed by the browser: its size, namespace, and the buffer rectangles. */
const parseSvg = (page, svg) => page.evaluate((t) => {
  const d = new DOMParser().parseFromString(t, 'image/svg+xml');
  const root = d.documentElement;
  return {
    error: d.querySelector('parsererror')?.textContent ?? null,
    ns: root.namespaceURI, width: root.getAttribute('width'), height: root.getAttribute('height'),
    text: root.textContent,
    boxes: [...root.querySelectorAll('rect.buffer')].map((r) => ({ buf: Number(r.dataset.buf), fill: r.getAttribute('fill'), title: r.querySelector('title')?.textContent })),
    nodes: [...root.querySelectorAll('rect.node')].map((r) => ({ step: Number(r.dataset.step), node: Number(r.dataset.node), pipe: r.dataset.pipe, start: Number(r.dataset.start), end: Number(r.dataset.end) })),
    marks: [...root.querySelectorAll('text.spill-mark')].map((t) => t.textContent),
  };
}, svg);

test('export-svg downloads the memory at the cursor: one rectangle per resident buffer, in its colour, named', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await waitForFresh(page);
  const result = JSON.parse(await resultText(page));
  const graph = JSON.parse(await graphText(page));
  assert.ok(result.spills.length > 0, 'the first example spills');
  const sp = result.spills[0];
  const fills = new Map();
  // at its SPILL_OUT the buffer is still resident; a step later it is out; at its SPILL_IN back
  for (const step of [sp.outStep, sp.outStep + 1, sp.inStep]) {
    await slideTo(page, step);
    const want = residentAt(result, graph, step);
    assert.equal(want.includes(sp.buf), step !== sp.outStep + 1, `buffer ${sp.buf} at step ${step}`);
    const { name, bytes } = await exported(page, 'svg');
    assert.equal(name, `spillway-memory-step${step}.svg`);
    const svg = await parseSvg(page, bytes.toString('utf8'));
    assert.equal(svg.error, null, 'the SVG parses');
    assert.equal(svg.ns, 'http://www.w3.org/2000/svg');
    assert.ok(Number(svg.width) > 0 && Number(svg.height) > 0, `width ${svg.width}, height ${svg.height}`);
    assert.match(svg.text, new RegExp(`Memory at step ${step} of ${result.order.length}`), 'it says which step');
    assert.match(svg.text, /offset 0/, 'the axis is labelled');
    assert.deepEqual(svg.boxes.map((b) => b.buf).sort((a, b) => a - b), want, `one rectangle per buffer resident at step ${step}`);
    for (const b of svg.boxes) {
      assert.match(b.title, new RegExp(`^Buffer ${b.buf}: `));
      assert.match(b.fill, /^#[0-9a-f]{6}$/);
      assert.equal(fills.get(b.buf) ?? b.fill, b.fill, `buffer ${b.buf} keeps its colour`);
      fills.set(b.buf, b.fill);
    }
  }
  assert.ok(new Set(fills.values()).size > 1, 'buffers have colours of their own');

  const png = await exported(page, 'png');
  assert.equal(png.name, `spillway-memory-step${sp.inStep}.png`);
  assert.deepEqual([...png.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'a PNG signature');
  const svg = await parseSvg(page, (await exported(page, 'svg')).bytes.toString('utf8'));
  assert.equal(png.bytes.readUInt32BE(16), 2 * Number(svg.width), 'the PNG is the SVG at twice its size');
  assert.equal(png.bytes.readUInt32BE(20), 2 * Number(svg.height));
  assert.deepEqual(page.errors, []);
  await context.close();
});

/** What the timeline export should hold up to step `last`, from the result's timing data alone:
 * per step its node, pipe ('' for ALLOC/FREE) and cycles, and the spill marks. */
function timelineUpTo(result, graph, last) {
  const op = new Map([...graph.Nodes, ...result.addedNodes].map((n) => [n.Id, n.Op]));
  const nodes = result.timing.slice(0, last + 1).map(([node, start, end], step) => ({ step, node, pipe: result.waits[step].pipe ?? '', start, end }));
  const marks = nodes.filter((n) => n.pipe && /^SPILL_(OUT|IN)$/.test(op.get(n.node))).map((n) => (op.get(n.node) === 'SPILL_IN' ? '▲' : '▼'));
  return { nodes, marks };
}

test('timeline-export-svg downloads the pipe timeline up to the cursor: one bar per node run by then, on its pipe, at its cycles; the PNG is that SVG', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await waitForFresh(page);
  const result = JSON.parse(await resultText(page));
  const graph = JSON.parse(await graphText(page));
  const sp = result.spills[0];
  for (const step of [sp.outStep - 1, sp.inStep]) {
    await slideTo(page, step);
    const want = timelineUpTo(result, graph, step);
    const { name, bytes } = await exported(page, 'svg', 'timeline-export');
    assert.equal(name, `spillway-timeline-step${step}.svg`);
    const svg = await parseSvg(page, bytes.toString('utf8'));
    assert.equal(svg.error, null, 'the SVG parses');
    assert.equal(svg.ns, 'http://www.w3.org/2000/svg');
    assert.match(svg.text, new RegExp(`Pipe timeline up to step ${step} of ${result.order.length}`));
    assert.deepEqual(svg.nodes.sort((a, b) => a.step - b.step), want.nodes, `one shape per node run up to step ${step}, on its pipe, at its cycles`);
    assert.deepEqual(svg.marks.sort(), want.marks.sort(), 'a mark per spill node');
    for (const pipe of new Set(want.nodes.map((n) => n.pipe).filter(Boolean))) assert.match(svg.text, new RegExp(pipe), `lane ${pipe} is labelled`);
    for (const label of ['SPILL_OUT', 'SPILL_IN', 'edge', 'pipe busy', 'address reuse']) assert.ok(svg.text.includes(label), `the legend has ${label}`);
  }
  assert.ok(timelineUpTo(result, graph, sp.inStep).marks.length >= 2, 'the picture at the SPILL_IN shows the spill pair');

  const png = await exported(page, 'png', 'timeline-export');
  assert.equal(png.name, `spillway-timeline-step${sp.inStep}.png`);
  assert.ok(png.bytes.length > 0);
  assert.deepEqual([...png.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'a PNG signature');
  const svg = await parseSvg(page, (await exported(page, 'svg', 'timeline-export')).bytes.toString('utf8'));
  assert.equal(png.bytes.readUInt32BE(16), 2 * Number(svg.width), 'the PNG is the SVG at twice its size');
  assert.equal(png.bytes.readUInt32BE(20), 2 * Number(svg.height));
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('in a lesson before its answer the timeline export ends before the question\'s step, wherever the cursor goes; after the answer it shows the spill', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await page.locator('[data-testid=lesson-item][data-lesson=one-spill]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=lesson-item][aria-current=step]')?.dataset.lesson === 'one-spill');
  await waitForFresh(page);
  await page.waitForFunction(() => document.querySelector('[data-testid=step-label]').textContent === '8');
  const result = JSON.parse(await resultText(page));
  const graph = JSON.parse(await graphText(page));
  const q = result.decisions.find((d) => d.kind === 'spill');
  assert.equal(q.orderStep, 8, 'the lesson asks about the spill at step 8');
  const last = result.order.length - 1;
  for (const step of [8, last]) {
    if (step !== 8) await slideTo(page, step);
    const { name, bytes } = await exported(page, 'svg', 'timeline-export');
    assert.equal(name, 'spillway-timeline-step7.svg', `at step ${step} the picture ends at step 7`);
    const svg = await parseSvg(page, bytes.toString('utf8'));
    assert.deepEqual(svg.nodes.sort((a, b) => a.step - b.step), timelineUpTo(result, graph, 7).nodes);
    assert.deepEqual(svg.marks, [], 'no spill mark');
    assert.doesNotMatch(svg.text, /SPILL_OUT \(node|SPILL_IN \(node/, 'no spill node');
  }
  const png = await exported(page, 'png', 'timeline-export');
  assert.equal(png.name, 'spillway-timeline-step7.png');
  await slideTo(page, 8);
  const memory = await parseSvg(page, (await exported(page, 'svg')).bytes.toString('utf8'));
  assert.match(memory.text, /Memory at step 8 of \d+: a decision: what will it be\?/, 'the memory export names no SPILL_OUT either');
  assert.doesNotMatch(memory.text, /SPILL_OUT/);
  await page.locator('[data-testid=lesson-choice][data-value="0"]').click();
  await page.locator('[data-testid=lesson-answer][data-right=true]').waitFor();
  const after = await parseSvg(page, (await exported(page, 'svg', 'timeline-export')).bytes.toString('utf8'));
  assert.deepEqual(after.nodes.sort((a, b) => a.step - b.step), timelineUpTo(result, graph, 8).nodes, 'answered: up to the cursor');
  assert.ok(after.marks.includes('▼'), 'answered: the spill shows');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('print media hides the toolbar and the editor, keeps the chart and tables, prints the legend swatches', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const visible = (sel) => page.locator(sel).first().isVisible();
  assert.equal(await visible('[data-testid=run]'), true);
  await page.emulateMedia({ media: 'print' });
  for (const sel of ['[data-testid=run]', '.toolbar', '[data-testid=graph-input]', '.settings', '[data-testid=export-svg]', '#lessons-card'])
    assert.equal(await visible(sel), false, `${sel} is not printed`);
  for (const sel of ['#chart', '#chart canvas', '#summary', '#order', '#spills', '#step-state'])
    assert.equal(await visible(sel), true, `${sel} is printed`);
  const adjust = await page.locator('#chart-card .lg').first().evaluate((e) => getComputedStyle(e).printColorAdjust);
  assert.equal(adjust, 'exact', 'legend swatches print');
  await page.emulateMedia({ media: 'screen' });
  assert.equal(await visible('[data-testid=run]'), true);
  await context.close();
});

/** The link the share button makes for what is on screen. */
async function shareLink(page) {
  await page.locator('[data-testid=share]').click();
  const url = await page.locator('[data-testid=share-url]').inputValue();
  await page.keyboard.press('Escape');
  return url;
}

test('a share link with &embed shows the chart, step controls, tables and the question, without editor or settings, in 640x480', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await waitForFresh(page);
  const plain = await shareLink(page);
  const example = await resultText(page);
  await page.locator('[data-testid=lesson-item][data-lesson=one-spill]').click();
  // the lesson's own plan: "fresh" alone can hold before the lesson's run begins, while the
  // example's plan is still on screen
  await waitForNewResult(page, example);
  await waitForFresh(page);
  await page.locator('[data-testid=lesson-choice]').first().waitFor();
  const want = await resultText(page);
  const url = await shareLink(page);
  await context.close();

  const embed = await openPage(pg.browser, `${url}&embed`, { viewport: { width: 640, height: 480 } });
  const p = embed.page;
  await p.waitForFunction((w) => window.spillway.resultText() === w, want, { timeout: 60000 });
  await waitForFresh(p);
  const visible = (sel) => p.locator(sel).first().isVisible();
  for (const sel of ['#chart', '#chart canvas', '[data-testid=step-controls]', '[data-testid=step-next]', '#order', '#spills', '[data-testid=lesson-choice]', '[data-testid=embed-full]'])
    assert.equal(await visible(sel), true, `${sel} is shown`);
  for (const sel of ['[data-testid=graph-input]', '[data-testid=run]', '.settings', '[data-testid=lesson-list]', '#compare-card'])
    assert.equal(await visible(sel), false, `${sel} is not shown`);
  assert.equal(await p.locator('[data-testid=lesson-answer]').count(), 0, 'the answer waits for a choice');
  const { scroll, width } = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }));
  assert.ok(scroll <= width, `no horizontal scroll: ${scroll} <= ${width}`);
  assert.equal(await p.locator('[data-testid=embed-full]').getAttribute('href'), url, 'the full page opens the same link');
  // the step controls work in the embed
  const before = await p.locator('[data-testid=step-label]').textContent();
  await p.locator('[data-testid=step-next]').click();
  assert.equal(await p.locator('[data-testid=step-label]').textContent(), String(Number(before) + 1));
  assert.deepEqual(p.errors, []);
  await embed.context.close();

  // a link without a lesson: no lesson card at all
  const noLesson = await openPage(pg.browser, `${plain}&embed`, { viewport: { width: 640, height: 480 } });
  await waitForResult(noLesson.page);
  await waitForFresh(noLesson.page);
  assert.equal(await noLesson.page.locator('#chart canvas').isVisible(), true);
  assert.equal(await noLesson.page.locator('#lessons-card').isVisible(), false);
  assert.deepEqual(noLesson.page.errors, []);
  await noLesson.context.close();

  // without &embed the same link opens the full page
  const full = await openPage(pg.browser, url, { viewport: { width: 640, height: 480 } });
  await full.page.waitForFunction((w) => window.spillway.resultText() === w, want, { timeout: 60000 });
  assert.equal(await full.page.locator('[data-testid=graph-input]').isVisible(), true);
  assert.equal(await full.page.locator('[data-testid=embed-full]').count(), 0);
  await full.context.close();
});
