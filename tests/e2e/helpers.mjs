// Shared by the e2e tests and screenshot.mjs: a static server over the built page (web/dist) and
// Debian's Chromium driven by playwright-core.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const execFileAsync = promisify(execFile);

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = path.join(ROOT, 'web/dist');
export const CASES = process.env.SPILLWAY_CASES ?? path.resolve(ROOT, '../shared/cases');
export const CLI = path.join(ROOT, 'build/native/spillway');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.txt': 'text/plain',
};

/** Serves web/dist on a free port under the folder `base` (as a static host would serve it from
 * a subfolder; anything outside it is not found); resolves to { url, close }. */
export async function serveDist({ base = '/' } = {}) {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new Error(`${DIST}/index.html is missing: run npm run build:web first`);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (!url.pathname.startsWith(base)) { res.writeHead(404); res.end('not found'); return; }
    const p = path.normalize(decodeURIComponent(url.pathname.slice(base.length))).replace(/^([/\\])+/, '');
    let file = path.join(DIST, p);
    if (!file.startsWith(DIST)) { res.writeHead(403); res.end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end('not found'); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
      res.end(data);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}${base}`, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }) };
}

/** Launches Chromium; resolves to { browser, close }. playwright's launch() always gives the
 * browser a fresh temporary profile (it refuses an explicit --user-data-dir) and removes it. */
export async function launch() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  return { browser, close: () => browser.close() };
}

/** A new page in a fresh context; collects page errors so a test can assert there were none. */
export async function openPage(browser, url, opts = {}) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 960 }, ...opts });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  await page.goto(url);
  return { context, page };
}

/** Waits until a run finished: the summary shows a spill count, or the error panel is shown. */
export async function waitForResult(page, timeout = 20000) {
  await page.waitForFunction(() => {
    const n = document.querySelector('[data-testid=spill-count]');
    const e = document.querySelector('[data-testid=error]');
    return (n && n.textContent !== '') || (e && !e.hidden);
  }, null, { timeout });
}

export async function text(page, testid) {
  return (await page.locator(`[data-testid="${testid}"]`).first().textContent())?.trim();
}

/** Puts `content` where the next pasteClipboard() takes it from (for a large text, sending it to
 * the page is the test's own work, not the page's). */
export const stashClipboard = (page, content) => page.evaluate((t) => { window.__clipboard = t; }, content);

/** Selects all of the editor's text and pastes the stashed text over it, as a user would. */
export async function pasteClipboard(page) {
  await page.locator('[data-testid=graph-input] .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.evaluate(() => new Promise((resolve) => setTimeout(() => {
    const dt = new DataTransfer();
    dt.setData('text/plain', window.__clipboard);
    delete window.__clipboard;
    document.querySelector('[data-testid=graph-input] .cm-content').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    resolve();
  }, 0)));
}

/** Replaces the editor's text the way a user would: select all, then paste. */
export async function pasteGraph(page, content) {
  await stashClipboard(page, content);
  await pasteClipboard(page);
}

let wasmEngine = null;
/** The WebAssembly engine the page loads, in Node (for what a test needs from the engine itself:
 * its registries, its examples). */
export async function engineModule() {
  if (!wasmEngine) {
    const generated = path.join(ROOT, 'web/src/engine/generated');
    const { default: createSpillway } = await import(path.join(generated, 'spillway.mjs'));
    wasmEngine = await createSpillway({ wasmBinary: fs.readFileSync(path.join(generated, 'spillway.wasm')) });
  }
  return wasmEngine;
}

/** "a, b or c", as the page lists a registry's names in a message. */
export const oneOf = (names) => names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');

/** A large graph in the contest files' layout (tab-indented JSON): copies of the built-in
 * `tiled-matmul` example side by side (ids and BufIds shifted, no edges between copies) until the
 * text is at least `minBytes` long. Made with the WebAssembly engine, so it needs no ../shared. */
export async function largeGraphText(minBytes) {
  const engine = await engineModule();
  const g = JSON.parse(engine.example('tiled-matmul'));
  const n = g.Nodes.length;
  const bufs = 1 + Math.max(...g.Nodes.filter((x) => typeof x.BufId === 'number').map((x) => x.BufId));
  const big = { Nodes: [], Edges: [] };
  for (let k = 0; ; k++) {
    for (const x of g.Nodes) {
      const y = { ...x, Id: x.Id + k * n };
      if (typeof x.BufId === 'number') y.BufId = x.BufId + k * bufs;
      if (Array.isArray(x.Bufs)) y.Bufs = x.Bufs.map((b) => b + k * bufs);
      big.Nodes.push(y);
    }
    for (const [a, b] of g.Edges) big.Edges.push([a + k * n, b + k * n]);
    const text = JSON.stringify(big, null, '\t');
    if (text.length >= minBytes) return text;
  }
}

/** The page sizes every layout-sensitive test runs at: a desktop, and a phone (390×844, touch). */
export const SIZES = [
  { name: 'desktop', opts: { viewport: { width: 1440, height: 960 } } },
  { name: 'phone 390×844', opts: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
];

/** A number as the page writes it ("12,345"). */
export const num = async (page, testid) => Number((await text(page, testid)).replace(/,/g, ''));
export const resultText = (page) => page.evaluate(() => window.spillway.resultText());
export const graphText = (page) => page.evaluate(() => window.spillway.getGraphText());

/** Waits for a run that gives a different result than `before` (a result text), on screen, not
 * marked out of date, and the run's own (not a plan of a smaller effort while its search goes on). */
export async function waitForNewResult(page, before, timeout = 30000) {
  await page.waitForFunction((b) => {
    const t = window.spillway.resultText();
    return t && t !== b && document.querySelector('#summary-card')?.dataset.stale !== 'true'
      && document.querySelector('[data-testid=progress]')?.dataset.running !== 'true';
  }, before, { timeout });
}

/** Waits until the results on screen match the editor and the settings, and no run is under way
 * (a search's plan of a smaller effort is not marked out of date while the search goes on). */
export async function waitForFresh(page, timeout = 30000) {
  await page.waitForFunction(() => {
    const progress = document.querySelector('[data-testid=progress]');
    return document.querySelector('#summary-card')?.dataset.stale === 'false' && progress.hidden && progress.dataset.running !== 'true';
  }, null, { timeout });
}

/** Chooses an example in the menu and waits for its result (an example already on screen, not
 * edited, stays as it is). */
export async function selectExample(page, name) {
  const select = page.locator('[data-testid=example-select]');
  if (await select.inputValue() === name) return waitForFresh(page);
  await select.selectOption(name);
  await page.waitForFunction((n) => document.querySelector('[data-testid=graph-source]')?.dataset.example === n && document.querySelector('[data-testid=example-select]').value === n, name);
  await waitForFresh(page);
}

/** Opens a graph file through the page's file input and waits for its result. */
export async function openGraphFile(page, file) {
  const before = await resultText(page);
  await page.locator('#open-input').setInputFiles(file);
  await waitForNewResult(page, before);
}

/** The path of a contest case in ../shared/cases, or null after marking the test skipped (a
 * clone without that folder). */
export function sharedCaseOrSkip(t, name) {
  const file = path.join(CASES, name);
  if (fs.existsSync(file)) return file;
  t.skip(`${file} is absent`);
  return null;
}

/** A fresh page that has opened the contest case `name` as a user opens a file, after its first
 * result: { page, context, file }; null after marking the test skipped where ../shared is absent. */
export async function openSharedCase(t, browser, url, name, opts = {}) {
  const file = sharedCaseOrSkip(t, name);
  if (!file) return null;
  const { page, context } = await openPage(browser, url, opts);
  await waitForResult(page);
  await openGraphFile(page, file);
  return { page, context, file };
}

/** Moves the step cursor with the slider under the chart, and waits until the step label, the
 * memory chart and the pipe timeline show that step. */
export async function slideTo(page, step) {
  await page.locator('[data-testid=step-slider]').evaluate((el, s) => { el.value = String(s); el.dispatchEvent(new Event('input', { bubbles: true })); }, step);
  await page.waitForFunction((s) => document.querySelector('[data-testid=step-label]').textContent === String(s)
    && ['memory-chart', 'timeline'].every((id) => document.querySelector(`[data-testid=${id}]`).dataset.cursor === String(s)), step);
}

/** What the tables show: spill rows, and the SPILL_OUT rows of the new order (its rows are
 * virtualised: the ones shown are read from the plan by their count). */
export async function tablesShow(page, result) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))); // (rows are drawn at a frame)
  const spills = Number(await page.locator('[data-testid=spill-table]').getAttribute('data-shown'));
  const rows = Number(await page.locator('[data-testid=order-table]').getAttribute('data-shown'));
  const spillOuts = result.decisions.filter((d) => d.kind === 'spill' && d.orderStep < rows).length;
  const spillRowsDrawn = await page.locator('[data-testid=spill-table] .vt-row:visible').count();
  return { spills, spillRowsDrawn, rows, spillOuts };
}

/** The localStorage of the page's origin, as an object. */
export const storedState = (page) => page.evaluate(() => Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])));

/** A scratch folder for one test file, removed after its tests. */
export function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spillway-e2e-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs the CLI with `args` without blocking the test (the page goes on working meanwhile);
 * resolves to its standard output. */
export const runCli = async (args) => (await execFileAsync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 30 })).stdout;

/** Runs the CLI on a graph text (in `dir`); resolves to the result JSON text and the export dir. */
export async function cliPlan(dir, graphText, args = []) {
  const g = path.join(dir, `g-${Math.random().toString(36).slice(2)}.json`);
  const out = g.replace(/\.json$/, '-out.json');
  const exp = g.replace(/\.json$/, '-export');
  fs.writeFileSync(g, graphText);
  await runCli(['plan', g, '-o', out, '--export', exp, ...args]);
  return { text: fs.readFileSync(out, 'utf8'), dir: exp };
}
export const haveCli = () => fs.existsSync(CLI);

/** Starts collecting the page's long tasks (PerformanceObserver 'longtask'). */
export const watchLongTasks = (page) => page.evaluate(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask' });
});
export const longTasks = (page) => page.evaluate(() => window.__longTasks.slice());

/**
 * The page's main-thread tasks while `action` runs, from a Chromium trace: `wall` is what a
 * long-task observer sees, `cpu` the thread's own CPU time in it. On a loaded 2-core machine they
 * differ by the time the thread waited for a core or for the browser process (font lookups go
 * there): a 260 ms task measured 32 ms of CPU. The page controls the CPU time. Longest first.
 */
export async function rendererMainTasks(browser, page, action) {
  await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline'] });
  let trace;
  try {
    await action();
  } finally {
    trace = JSON.parse((await browser.stopTracing()).toString());
  }
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  // each task of the thread's scheduler (category 'toplevel'); no other event of it nests one
  return events
    .filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && main.has(`${e.pid}:${e.tid}`))
    .map((e) => ({ wall: e.dur / 1000, cpu: (e.tdur ?? e.dur) / 1000 }))
    .sort((a, b) => b.cpu - a.cpu);
}

/** The page's main-thread tasks of 50 ms or more while `action` runs, in whole ms (see above). */
export async function mainThreadTasks(browser, page, action) {
  return (await rendererMainTasks(browser, page, action))
    .filter((x) => x.wall >= 50)
    .map((x) => ({ wall: Math.round(x.wall), cpu: Math.round(x.cpu) }));
}

/**
 * Waits until the compare table holds every plan of the graph and settings on screen; a failed
 * comparison throws its own message at once (not a timeout two minutes later).
 */
export async function waitForCompare(page, timeout = 120000) {
  const outcome = await (await page.waitForFunction(() => {
    const status = document.querySelector('[data-testid=compare-status]').textContent;
    if (status.startsWith('failed')) return `the comparison failed: ${document.getElementById('compare').textContent.trim()}`;
    return document.querySelector('[data-testid=compare-table]:not(.stale)') && status.includes('verified') && 'verified';
  }, null, { timeout })).jsonValue();
  if (outcome !== 'verified') throw new Error(outcome);
}

/** Starts watching for a run's first plan (marked while its search goes on): firstPlanAt() is then
 * the frame that first showed one (performance.now()), or 0. */
export const watchFirstPlan = (page) => page.evaluate(() => {
  window.__firstPlanAt = 0;
  window.__firstPlanWatch?.disconnect();
  window.__firstPlanWatch = new MutationObserver(() => {
    if (!document.querySelector('[data-testid=early-plan][data-stopped=false]')) return;
    window.__firstPlanWatch.disconnect();
    requestAnimationFrame(() => { window.__firstPlanAt = performance.now(); });
  });
  window.__firstPlanWatch.observe(document.body, { childList: true, subtree: true });
});
export const firstPlanAt = (page) => page.evaluate(() => window.__firstPlanAt);

/**
 * What the page itself computes from Run until it has painted the result, its pipe timeline last
 * (painted in a task of its own after the chart and tables), measured so that a loaded machine
 * stretches it little: the main thread's CPU time in that span (trace), plus the worker's time
 * preparing the view (`prepare`, a wall time but a small one). Call waitForCompare first, so that no other worker shares the
 * cores and no compare table is drawn in the span. Also returns the span's wall time and the
 * engine's, and `first`: Run until the first plan is on screen (the result, when no first plan came).
 */
export async function runUntilPainted(browser, page) {
  let span;
  await watchFirstPlan(page);
  const tasks = await rendererMainTasks(browser, page, async () => {
    await page.evaluate(() => {
      window.__runStart = performance.now();
      document.querySelector('[data-testid=run]').click();
    });
    // the run's own plan: a search paints a plan of a smaller effort first, and the timeline
    // forgets its paint time when the next result arrives, the same moment the run ends
    const at = await (await page.waitForFunction(() => {
      const paintedAt = Number(document.querySelector('[data-testid=timeline]').dataset.paintedAt);
      return paintedAt > window.__runStart && document.querySelector('[data-testid=progress]').dataset.running !== 'true' && paintedAt;
    }, null, { polling: 5, timeout: 60000 })).jsonValue();
    span = await page.evaluate((paintedAt) => ({
      total: Math.round(paintedAt - window.__runStart),
      first: Math.round((window.__firstPlanAt || paintedAt) - window.__runStart),
      engine: Math.round(window.__spillwayTimes.engine),
      prepare: Math.round(window.__spillwayTimes.prepare),
    }), at);
  });
  const mainCpu = Math.round(tasks.reduce((a, x) => a + x.cpu, 0));
  return { ...span, mainCpu, page: mainCpu + span.prepare };
}

/** WCAG contrast of an element's text colour against the background of `bgSelector` (closest). */
export const contrast = (page, selector, bgSelector) => page.evaluate(([sel, bgSel]) => {
  const el = document.querySelector(sel);
  const lum = (css) => {
    const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const fg = lum(getComputedStyle(el).color);
  const bg = lum(getComputedStyle(el.closest(bgSel)).backgroundColor);
  return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}, [selector, bgSelector]);

/** For a test file: serves the page and launches Chromium before its tests, closes both after.
 * Returns an object whose `url` and `browser` are set once the tests run. */
export function usePlayground() {
  const env = { url: '', browser: null };
  let server, close;
  before(async () => {
    server = await serveDist();
    env.url = server.url;
    ({ browser: env.browser, close } = await launch());
  });
  after(async () => {
    await close?.();
    await server?.close();
  });
  return env;
}
