// Wires the page: store <-> components, the engine client, files, links and storage.
import './styles.css';
import { store, runOptions, compareOptions, parseSettings, PRESETS, type Settings, type Notice } from './store';
import { EngineClient, EngineError } from './engine/client';
import { createEditor } from './components/editor';
import { mountSettings } from './components/settings';
import { mountSummary, mountOrderTable, mountSpillTable, mountDecisions } from './components/results';
import { mountChart } from './components/chart';
import { mountCompare } from './components/compare';
import type { CompareRow } from './engine/types';
import { mountShare } from './components/share';
import { caseJson, decodeCaseFragment, isCaseObject, parseCase } from './lib/share';
import { locateError } from './lib/errors';
import { download, fullResult, memoryTxt, scheduleTxt, spillTxt } from './lib/files';
import { fmtMs, h } from './lib/format';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const KEY_GRAPH = 'spillway.graph';
const KEY_SETTINGS = 'spillway.settings';
const KEY_THEME = 'spillway.theme';

// ---- storage ---------------------------------------------------------------------------------
const storage = {
  get(k: string): string | null {
    try { return localStorage.getItem(k); } catch { return null; }
  },
  set(k: string, v: string): boolean {
    try { localStorage.setItem(k, v); return true; } catch { return false; }
  },
};

// ---- notices ---------------------------------------------------------------------------------
const noticeEl = $('notice');
function notify(message: string, level: Notice['level'] = 'info', action?: Notice['action']) {
  store.set({ notice: { message, level, action } });
}
store.subscribe((s, p) => {
  if (s.notice === p.notice) return;
  const n = s.notice;
  noticeEl.hidden = !n;
  if (!n) return;
  noticeEl.className = `notice ${n.level}`;
  const close = h('button', { class: 'icon-btn', type: 'button', 'aria-label': 'Dismiss' }, '×');
  close.addEventListener('click', () => store.set({ notice: null }));
  const parts: (Node | string)[] = [h('span', { class: 'notice-text' }, n.message)];
  if (n.action) {
    const b = h('button', { class: 'btn small', type: 'button' }, n.action.label);
    b.addEventListener('click', n.action.run);
    parts.push(b);
  }
  noticeEl.replaceChildren(...parts, close);
});

// ---- platform: the Run shortcut reads ⌘ on Apple keyboards ------------------------------------
if (/Mac|iPhone|iPad/.test(navigator.platform)) {
  const kbd = document.querySelector('#run kbd');
  if (kbd) kbd.textContent = '⌘ ↵';
}

// ---- theme -----------------------------------------------------------------------------------
const savedTheme = storage.get(KEY_THEME);
if (savedTheme === 'light' || savedTheme === 'dark') store.set({ theme: savedTheme });
const media = matchMedia('(prefers-color-scheme: dark)');
media.addEventListener('change', () => {
  if (!storage.get(KEY_THEME)) store.set({ theme: media.matches ? 'dark' : 'light' });
});
$('theme').addEventListener('click', () => {
  const t = store.get().theme === 'dark' ? 'light' : 'dark';
  storage.set(KEY_THEME, t);
  store.set({ theme: t });
});
const applyTheme = () => { document.documentElement.dataset.theme = store.get().theme; };
applyTheme();

// ---- settings from storage -------------------------------------------------------------------
try {
  const raw = storage.get(KEY_SETTINGS);
  if (raw) store.set({ settings: parseSettings(JSON.parse(raw)) });
} catch { /* ignore bad stored settings */ }

// ---- editor ----------------------------------------------------------------------------------
let saveTimer = 0;
let storageWarned = false;
let dirty = false;
const editorStatus = $('editor-status');
const editor = createEditor($('editor'), {
  initial: '',
  onRun: () => void run(),
  onChange(text) {
    if (!dirty) { dirty = true; editorStatus.textContent = 'edited · Ctrl/⌘+Enter to run'; }
    clearTimeout(saveTimer);
    saveTimer = window.setTimeout(saveGraph, 300);
  },
});
function saveGraph() {
  clearTimeout(saveTimer);
  saveTimer = 0;
  if (!storage.set(KEY_GRAPH, editor.getText()) && !storageWarned) {
    storageWarned = true;
    notify('This graph is too large for the browser storage: it will not survive a reload. Download it or copy a link to keep it.', 'warn');
  }
}
// never lose typing to a reload or a closed tab
window.addEventListener('pagehide', () => { if (saveTimer) saveGraph(); });
document.addEventListener('visibilitychange', () => { if (document.hidden && saveTimer) saveGraph(); });
editor.setDark(store.get().theme === 'dark');
store.subscribe((s, p) => {
  if (s.theme !== p.theme) { applyTheme(); editor.setDark(s.theme === 'dark'); }
});
/** A line above the editor saying where the graph came from (an example teaches its lesson). */
function setSource(title: string, description = '') {
  const el = $('graph-source');
  el.hidden = !title;
  el.replaceChildren(h('strong', {}, title), description ? h('span', { class: 'muted' }, ` — ${description}`) : '');
  el.title = description;
}

function setGraphText(text: string) {
  editor.setText(text);
  clearTimeout(saveTimer);
  saveTimer = 0;
  storage.set(KEY_GRAPH, text);
  dirty = false;
  editorStatus.textContent = '';
}

// ---- engine + run ----------------------------------------------------------------------------
const engine = new EngineClient();
let runToken = 0;
let progressTimer = 0;
let lastRunKey = '';

function runKey(graph: string, s: Settings) {
  return `${graph.length}|${JSON.stringify(runOptions(s))}`;
}

// ---- compare: every policy on every order, in a second worker, after the plan is on screen ----
// Its own worker, so a long comparison never holds up the next Run's plan; cancelling it (or a
// run whose graph / capacities / cost differ) terminates that worker only.
let comparer: EngineClient | null = null;
let compareGraph = ''; // the graph text the compare state is for (the key holds its length only)
const compareKey = (graph: string, s: Settings) => `${graph.length}|${JSON.stringify(compareOptions(s))}`;
const compareIsFor = (graph: string, s: Settings) => {
  const c = store.get().compare;
  return !!c && c.key === compareKey(graph, s) && compareGraph === graph;
};

function cancelCompare(status: 'cancelled' | null = 'cancelled') {
  const c = store.get().compare;
  if (compareInFlight) {
    compareToken++;
    compareInFlight = false;
    comparer?.cancel();
  }
  if (c?.status === 'running') store.set({ compare: status ? { ...c, status } : null });
}

let compareToken = 0;
let compareInFlight = false;
let lastRun: { graph: string; settings: Settings } | null = null;

/** Starts the comparison for this graph and settings unless it is already there (or on its way). */
async function startCompare(graph: string, settings: Settings, force = false) {
  const c = store.get().compare;
  if (!force && c && compareIsFor(graph, settings) && (c.status === 'done' || (c.status === 'running' && compareInFlight))) return;
  if (compareInFlight) comparer?.cancel();
  const key = compareKey(graph, settings);
  const keep = c?.rows ?? []; // shown dimmed until the new rows arrive (no jump in the layout)
  compareGraph = graph;
  store.set({ compare: { key, status: 'running', rows: keep } });
  comparer ??= new EngineClient();
  const token = ++compareToken;
  compareInFlight = true;
  try {
    const rows = await comparer.compare(graph, compareOptions(settings));
    if (token === compareToken) store.set({ compare: { key, status: 'done', rows } });
  } catch (e) {
    const err = e as EngineError;
    // cancelled: cancelCompare() already set the state
    if (token === compareToken && err.kind !== 'cancelled') store.set({ compare: { key, status: 'error', rows: [], message: err.message } });
  } finally {
    if (token === compareToken) compareInFlight = false;
  }
}

/** A compare row's plan: its policy and order become the settings, and it runs now. */
function openCompareRow(row: CompareRow) {
  const pols = store.get().engine?.policies ?? [];
  store.setSettings({ policy: row.policy === pols[0] ? '' : row.policy, orderSource: row.order });
  void run();
}

async function run(): Promise<void> {
  if (saveTimer) saveGraph();
  const graph = editor.getText();
  const settings = store.get().settings;
  const token = ++runToken;
  const t0 = performance.now();
  lastRunKey = runKey(graph, settings);
  // a comparison for another graph / capacities / cost is out of date: stop it, dim the table
  if (!compareIsFor(graph, settings)) {
    cancelCompare(null);
    const c = store.get().compare;
    if (c) store.set({ compare: { ...c, status: 'running' } });
  }
  store.set({ running: { startedAt: t0, phase: 'planning' } });
  clearInterval(progressTimer);
  progressTimer = window.setInterval(() => {
    const r = store.get().running;
    if (!r) return;
    const ms = performance.now() - r.startedAt;
    if (ms > 300) {
      $('progress').hidden = false;
      $('progress-text').textContent = `${r.phase[0].toUpperCase()}${r.phase.slice(1)}… ${(ms / 1000).toFixed(1)} s`;
    }
  }, 100);
  try {
    const view = await engine.plan(graph, runOptions(settings), (phase) => {
      if (token === runToken && store.get().running) store.set({ running: { startedAt: t0, phase } });
    });
    if (token !== runToken) return;
    const tReceived = performance.now();
    dirty = false;
    editorStatus.textContent = '';
    editor.showError(null);
    store.set({ view, error: null, selectedBuf: null, selectedSpill: null, running: null });
    const tRendered = performance.now();
    (window as unknown as { __spillwayTimes: unknown }).__spillwayTimes = {
      engine: view.engineMs, prepare: view.prepareMs, receive: tReceived - t0 - view.engineMs - view.prepareMs, render: tRendered - tReceived,
    };
    requestAnimationFrame(() => setTimeout(() => {
      if (token !== runToken) return;
      store.set({ totalMs: performance.now() - t0 });
      lastRun = { graph, settings };
      void startCompare(graph, settings); // after the plan is painted
    }, 0));
  } catch (e) {
    if (token !== runToken) return;
    const err = e instanceof EngineError ? e : new EngineError('internal', String(e));
    if (err.kind === 'cancelled') {
      store.set({ running: null });
      lastRunKey = '';
      notify('Run cancelled. The engine was restarted.', 'info');
      return;
    }
    const info = locateError(err.kind, err.message);
    cancelCompare(null);
    if (!compareIsFor(graph, settings)) store.set({ compare: null });
    store.set({ error: info, running: null });
    editor.showError(info);
  } finally {
    if (token === runToken) {
      clearInterval(progressTimer);
      $('progress').hidden = true;
    }
  }
}

$('run').addEventListener('click', () => void run());
$('cancel').addEventListener('click', () => { engine.cancel(); cancelCompare(); });
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === 'Enter' && !e.defaultPrevented) {
    e.preventDefault();
    void run();
  }
});

// settings: save, and re-run (debounced) when they change what a run would do
let autoTimer = 0;
store.subscribe((s, p) => {
  if (s.settings === p.settings) return;
  storage.set(KEY_SETTINGS, JSON.stringify(s.settings));
  clearTimeout(autoTimer);
  autoTimer = window.setTimeout(() => {
    if (!store.get().view && !store.get().error) return;
    if (runKey(editor.getText(), store.get().settings) !== lastRunKey) void run();
  }, 350);
});

// ---- error panel -----------------------------------------------------------------------------
const errorEl = $('error');
store.subscribe((s, p) => {
  if (s.error === p.error) return;
  const e = s.error;
  errorEl.hidden = !e;
  if (!e) return;
  const where: string[] = [];
  if (e.line) where.push(`line ${e.line}${e.column ? `, column ${e.column}` : ''}`);
  if (e.node !== undefined) where.push(`node ${e.node}`);
  const go = h('button', { class: 'btn small', type: 'button' }, `Go to ${where[0] ?? ''}`);
  go.addEventListener('click', () => editor.reveal(e));
  // a memory type without a capacity: offer to add it with the seed's default size
  const missing = /Type "([A-Za-z_]\w*)", which has no capacity/.exec(e.message);
  let fix: HTMLElement | null = null;
  if (missing && !store.get().settings.capacities.some(([t]) => t === missing[1])) {
    const type = missing[1];
    const size = PRESETS['seed defaults'].find(([t]) => t === type)?.[1] ?? 4096;
    fix = h('button', { class: 'btn small', type: 'button', 'data-testid': 'error-fix' }, `Add ${type} = ${size} bytes and run`);
    fix.addEventListener('click', () => store.setSettings({ capacities: [...store.get().settings.capacities, [type, size]] }));
  }
  errorEl.replaceChildren(...[
    h('div', { class: 'error-head' }, h('strong', {}, e.kind === 'input' ? 'Input error' : e.kind === 'internal' ? 'Engine error' : 'Error'),
      where.length ? h('span', { class: 'error-where', 'data-testid': 'error-where' }, where.join(' · ')) : null,
      where.length ? go : null),
    h('div', { class: 'error-msg', 'data-testid': 'error-message' }, e.message),
    fix ? h('div', {}, fix) : null,
    h('div', { class: 'muted small' }, store.get().view
      ? 'Your text is unchanged; the results show the last successful run.'
      : 'Your text is unchanged.'),
  ].filter((x): x is HTMLDivElement => x !== null));
});

// ---- components ------------------------------------------------------------------------------
mountSettings($('settings'), store, (m, l) => notify(m, l));
mountSummary($('summary'), store);
mountChart($('chart'), store);
mountCompare($('compare'), $('compare-status'), store, {
  open: openCompareRow,
  cancel: () => cancelCompare(),
  retry: () => { if (lastRun) void startCompare(lastRun.graph, lastRun.settings, true); },
});
mountOrderTable($('order'), store);
mountSpillTable($('spills'), store);
mountDecisions($('decisions'), store);
mountShare($('share') as HTMLButtonElement, $('share-popover'), store, () => editor.getText());
store.subscribe((s, p) => {
  if (s.view === p.view) return;
  const v = s.view;
  $('order-info').textContent = v ? `${v.order.length.toLocaleString('en-US')} steps · ${v.addedCount} spill nodes` : '';
  $('spill-info').textContent = v ? (v.spills.length ? `${v.spills.length} · click one for the decision` : '') : '';
});

// ---- downloads -------------------------------------------------------------------------------
const dlMenu = $('download-menu') as HTMLDetailsElement;
dlMenu.addEventListener('click', (e) => {
  const b = (e.target as HTMLElement).closest('button[data-file]') as HTMLButtonElement | null;
  if (!b) return;
  dlMenu.open = false;
  const file = b.dataset.file!;
  if (file === 'case.json') {
    download('spillway-case.json', caseJson(editor.getText(), store.get().settings), 'application/json');
    return;
  }
  const view = store.get().view;
  if (!view) return notify('Run the planner first: there is no result to download yet.', 'warn');
  const r = fullResult(view);
  if (file === 'result.json') download('result.json', view.resultText, 'application/json');
  if (file === 'schedule.txt') download('schedule.txt', scheduleTxt(r));
  if (file === 'memory.txt') download('memory.txt', memoryTxt(r));
  if (file === 'spill.txt') download('spill.txt', spillTxt(r));
});
document.addEventListener('click', (e) => { if (dlMenu.open && !dlMenu.contains(e.target as Node)) dlMenu.open = false; });

// ---- opening files ---------------------------------------------------------------------------
function applyCase(graph: string, settings: Settings) {
  setGraphText(graph);
  store.set({ settings });
  void run();
}

async function openFile(file: File) {
  const text = await file.text();
  let raw: unknown = undefined;
  try { raw = JSON.parse(text); } catch { /* not JSON: the engine will say where */ }
  if (isCaseObject(raw)) {
    const c = parseCase(raw);
    if (!c.ok) return notify(`${file.name}: ${c.message.replace('This link', 'This case file')}`, 'error');
    applyCase(c.case.graph, c.case.settings);
    setSource(`Case file: ${file.name}`);
  } else {
    setGraphText(text);
    setSource(`File: ${file.name}`);
    adoptGraphCapacities(raw, true);
    void run();
  }
  notify(`Opened ${file.name}`, 'info');
  setTimeout(() => { if (store.get().notice?.message === `Opened ${file.name}`) store.set({ notice: null }); }, 2500);
}

/** A graph that names its own capacities ("Capacities") sets the capacity settings; a graph file
 * without them gets the seed's defaults (as the CLI does). */
function adoptGraphCapacities(raw: unknown, orDefaults = false) {
  const caps = raw && typeof raw === 'object' ? (raw as { Capacities?: unknown }).Capacities : undefined;
  if (!caps || typeof caps !== 'object') {
    if (orDefaults && raw && typeof raw === 'object') store.setSettings({ capacities: PRESETS['seed defaults'].map(([k, v]) => [k, v]) });
    return;
  }
  const entries = Object.entries(caps as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number');
  if (entries.length) store.setSettings({ capacities: entries });
}

const openInput = $('open-input') as HTMLInputElement;
$('open').addEventListener('click', () => { openInput.value = ''; openInput.click(); });
openInput.addEventListener('change', () => { const f = openInput.files?.[0]; if (f) void openFile(f); });
const drop = $('drop');
let dragDepth = 0;
window.addEventListener('dragenter', (e) => { if (e.dataTransfer?.types.includes('Files')) { dragDepth++; drop.hidden = false; } });
window.addEventListener('dragleave', () => { if (--dragDepth <= 0) { dragDepth = 0; drop.hidden = true; } });
window.addEventListener('dragover', (e) => { e.preventDefault(); });
window.addEventListener('drop', (e) => {
  e.preventDefault();
  dragDepth = 0;
  drop.hidden = true;
  const f = e.dataTransfer?.files?.[0];
  if (f) void openFile(f);
});

// ---- examples --------------------------------------------------------------------------------
const exampleSelect = $('example-select') as HTMLSelectElement;
async function loadExample(name: string) {
  try {
    const text = await engine.example(name);
    setGraphText(text);
    store.set({ exampleName: name });
    const info = store.get().engine?.examples.find((e) => e.name === name);
    setSource(`Example: ${info?.title ?? name}`, info?.description);
    let raw: unknown;
    try { raw = JSON.parse(text); } catch { raw = undefined; }
    adoptGraphCapacities(raw);
    await run();
  } catch (e) {
    notify(`Could not load the example "${name}": ${(e as Error).message}`, 'error');
  }
}
exampleSelect.addEventListener('change', () => {
  const name = exampleSelect.value;
  exampleSelect.value = '';
  if (name) void loadExample(name);
});

// ---- links -----------------------------------------------------------------------------------
/** Applies a "#case=" fragment. Returns true if it opened a case. */
function openFragment(): boolean {
  const hash = location.hash.slice(1);
  const decoded = decodeCaseFragment(hash);
  if (!decoded) return false;
  history.replaceState(null, '', location.pathname + location.search); // edits must not be undone by a reload
  if (!decoded.ok) {
    notify(`${decoded.message} The page shows your last graph instead.`, 'error');
    return false;
  }
  applyCase(decoded.case.graph, decoded.case.settings);
  setSource('From a shared link');
  notify('Opened the case from the link.', 'info');
  setTimeout(() => { if (store.get().notice?.message === 'Opened the case from the link.') store.set({ notice: null }); }, 2500);
  return true;
}
window.addEventListener('hashchange', () => { openFragment(); });

// ---- start -----------------------------------------------------------------------------------
async function start() {
  const fromLink = openFragment();
  const stored = storage.get(KEY_GRAPH);
  if (!fromLink && stored) {
    editor.setText(stored);
    void run();
  }
  try {
    const info = await engine.init();
    store.set({ engine: info, engineFailed: null });
    $('engine-version').textContent = info.version;
    exampleSelect.replaceChildren(h('option', { value: '' }, 'Examples…'),
      ...info.examples.map((ex) => h('option', { value: ex.name, title: ex.description }, ex.title || ex.name)));
    if (!fromLink && !stored && info.examples.length) await loadExample(info.examples[0].name);
  } catch (e) {
    const msg = (e as Error).message;
    store.set({ engineFailed: msg });
    $('engine-version').textContent = 'engine unavailable';
    notify(`The engine could not be loaded: ${msg}`, 'error');
  }
}
void start();

// Small scripting hook (tests, console): read or replace the graph text, run, read the result.
Object.assign(window, {
  spillway: {
    getGraphText: () => editor.getText(),
    setGraphText: (t: string) => setGraphText(t),
    run: () => run(),
    result: () => { const v = store.get().view; return v ? fullResult(v) : null; },
    resultText: () => store.get().view?.resultText ?? null,
    fmtMs,
  },
});

if (import.meta.env.PROD && 'serviceWorker' in navigator && location.protocol !== 'file:') {
  navigator.serviceWorker.register('./sw.js').catch(() => { /* offline support is optional */ });
}
