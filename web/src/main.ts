// Wires the page: store <-> components, the two workers (engine, text tasks), files, examples,
// lessons, links and storage. Nothing from a link or a file reaches the store (and so the storage) before
// the text worker has checked it against every limit.
import './styles.css';
import { store, notify, notifyBriefly } from './store';
import { checkSettings, ORDER_FILE, type EngineNames, type Settings } from './lib/settings';
import {
  CASE_PREFIX,
  caseJson,
  LINK_WARN_LENGTH,
  type Case,
  type CaseQuestion,
  type CaseRef,
  type CaseView,
} from './lib/share';
import { EngineClient } from './engine/client';
import { TextClient } from './text/client';
import { createDocument } from './app/document';
import { createRunner } from './app/runner';
import { createFrontierRunner } from './app/frontier';
import { storage, KEY_SETTINGS, KEY_THEME, KEY_GRAPH, KEY_LESSONS } from './app/storage';
import { createStepper, hiddenFrom, lessonAsksMetric } from './app/stepping';
import { mountNotice } from './components/notice';
import { mountSettings } from './components/settings';
import { mountSummary, mountOrderTable, mountSpillTable } from './components/results';
import { mountStepControls, mountStepState, mountStepDecision } from './components/steps';
import { mountLessons } from './components/lessons';
import { mountGlossary } from './components/glossary';
import { mountDiff } from './components/diff';
import { LESSONS, LESSON_ID, type Lesson } from './lib/lessons';
import { compactJson, layoutJson } from './lib/json-text';
import { isProgram, SAMPLE_PROGRAM } from './lib/program';
import { DEFAULT_CAPACITIES, copyCapacities, defaultSettings } from './lib/settings';
import { mountChart } from './components/chart';
import { mountTimeline } from './components/timeline';
import { mountProgramView } from './components/program';
import { mountWhatIf } from './components/whatif';
import { createWhatIf } from './app/whatif';
import { mountCompare } from './components/compare';
import { mountFrontier } from './components/frontier';
import { mountShare } from './components/share';
import { mountSource } from './components/source';
import { mountStale } from './components/stale';
import { mountErrorPanel } from './components/errorpanel';
import { mountExport, mountTimelineExport } from './components/export';
import { enterEmbed } from './components/embed';
import { mountAskEditor, mountAsked } from './components/ask';
import { splitEmbed } from './lib/embed';
import { download, fullResult, memoryTxt, resultText, scheduleTxt, spillTxt } from './lib/files';
import { fmtInt, fmtMs, h } from './lib/format';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
/** The example a newcomer sees first: one that spills, so the first screen shows spilling. */
const FIRST_EXAMPLE = 'one-spill';

mountNotice($('notice'), store);

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
const applyTheme = () => {
  document.documentElement.dataset.theme = store.get().theme;
};
applyTheme();

// ---- settings from storage (checked like a link's; anything odd gives the defaults) ------------
try {
  const raw = storage.get(KEY_SETTINGS);
  const checked = raw ? checkSettings(JSON.parse(raw), null) : null;
  if (checked?.ok) store.set({ settings: checked.settings });
} catch {
  /* ignore unreadable stored settings */
}
store.subscribe((s, p) => {
  if (s.settings !== p.settings) storage.set(KEY_SETTINGS, JSON.stringify(s.settings));
});

// ---- workers, document, runner -----------------------------------------------------------------
const engine = new EngineClient();
const text = new TextClient();
const doc = createDocument($('editor'), text, engine, () => void runner.run());
const runner = createRunner(engine, doc, {
  show(t) {
    $('progress').hidden = t === null;
    if (t !== null) $('progress-text').textContent = t;
  },
});
doc.editor.setDark(store.get().theme === 'dark');
store.subscribe((s, p) => {
  if (s.running !== p.running) $('progress').dataset.running = String(!!s.running); // for tests: a run is under way
  if (s.theme !== p.theme) {
    applyTheme();
    doc.editor.setDark(s.theme === 'dark');
  }
  if (s.graphInfo !== p.graphInfo && s.graphInfo) doc.editor.setProgram(s.graphInfo.program);
  // a "cannot run yet" error goes once every field is usable again
  if (s.error?.kind === 'settings' && !s.fieldErrors.length && p.fieldErrors.length) store.set({ error: null });
});
$('run').addEventListener('click', () => void runner.run());
$('cancel').addEventListener('click', () => runner.cancel());
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === 'Enter' && !e.defaultPrevented) {
    e.preventDefault();
    void runner.run();
  }
});

// Esc cancels a run under way, as Cancel does (the best plan so far stays), unless something
// nearer the focus used the key (the chart's tooltip; the share and download menus close on it).
document.addEventListener('keydown', (e) => {
  const inMenu = (e.target as Element | null)?.closest?.('.menu-wrap');
  if (e.key === 'Escape' && !e.defaultPrevented && !inMenu && store.get().running) {
    e.preventDefault();
    runner.cancel();
  }
});

// ---- presentation mode: the question, the chart and the state at the cursor on one screen ----
const presentation = $('presentation');
presentation.addEventListener('click', () => {
  const on = document.body.classList.toggle('presentation');
  presentation.setAttribute('aria-pressed', String(on));
});

// ---- components ------------------------------------------------------------------------------
const exampleSelect = $('example-select') as HTMLSelectElement;
mountSettings($('settings'), store, (m, l) => notify(m, l));
mountSource($('graph-source'), exampleSelect, $('editor-kind'), store);
mountErrorPanel($('error'), store, {
  editor: doc.editor,
  locate: (where) => text.locate(doc.text(), where),
  run: () => void runner.run(),
});
mountSummary($('summary'), store);
const stepper = createStepper();
/** Selects spill k (null: none) and moves the step cursor to its SPILL_OUT. */
function selectSpill(k: number | null) {
  const sp = k === null ? undefined : store.get().view?.spills[k];
  store.set({ selectedSpill: sp ? k : null, selectedBuf: sp ? sp.buf : null });
  if (sp) stepper.goTo(sp.outStep);
  // a question opened there (predict mode): marking the buffer would answer it
  if (sp && hiddenFrom(store.get()) <= sp.outStep) store.set({ selectedBuf: null });
}
mountChart($('chart'), store, {
  id: 'memory-chart',
  view: (s) => s.view,
  cursor: (s) => (s.view ? s.cursor : null),
  setCursor: (step) => stepper.goTo(step),
  selectedBuf: (s) => s.selectedBuf,
  select: (buf) => store.set({ selectedBuf: buf, selectedSpill: null }),
  spills: { selected: (s) => s.selectedSpill, select: selectSpill },
  pick: (buf) => stepper.pick(buf),
  hiddenFrom,
});
mountExport($('chart-export'), store, (m) => notify(m, 'error'));
mountProgramView($('program-card'), $('program-view'), store, (step) => stepper.goTo(step));
mountTimeline($('timeline'), store, { goTo: (step) => stepper.goTo(step), hiddenFrom });
mountTimelineExport($('timeline-export'), store, (m) => notify(m, 'error'));
mountStepControls($('step-controls'), store, stepper);
mountStepState($('step-state'), store, {
  pick: (buf) => stepper.pick(buf),
  select: (buf) => store.set({ selectedBuf: buf, selectedSpill: null }),
});
const whatIf = createWhatIf(() => doc.text());
mountStepDecision($('step-decision'), store, stepper, whatIf);
mountWhatIf($('what-if'), store, whatIf);
mountDiff($('diff-card'), $('diff'), $('diff-status'), store);
mountGlossary($('glossary'));
mountCompare($('compare'), $('compare-status'), store, {
  open: (row) => runner.openCompareRow(row),
  cancel: () => runner.cancelCompare(),
  retry: () => runner.retryCompare(),
});
mountFrontier($('frontier'), store, createFrontierRunner(doc));
// a lesson's question about a plan's totals: the compare table's rows (and the front) would answer it
const compareHidden = h(
  'p',
  { class: 'muted', 'data-testid': 'compare-hidden', hidden: true },
  'The table shows once you answer the question.',
);
$('compare').after(compareHidden);
store.subscribe((s, p) => {
  const asks = !!lessonAsksMetric(s);
  if (asks === !!lessonAsksMetric(p)) return;
  $('compare').hidden = asks;
  $('frontier-card').hidden = asks;
  $('diff-card').hidden = asks || !s.diff;
  compareHidden.hidden = !asks;
});
mountOrderTable($('order'), store, (step) => stepper.goTo(step));
mountSpillTable($('spills'), store, selectSpill);
// ---- a lecturer's question in a link (v7) ---------------------------------------------------------
mountAsked($('asked'), store);
/** The share link of the case on screen asking `question` (opened a step before a spill's). */
async function questionLink(question: CaseQuestion): Promise<string> {
  const s = store.get();
  const view = { ...caseView(), step: s.cursor, spill: null, question };
  const link = await text.encodeLink(doc.text(), s.settings, view, caseRef());
  return `${location.origin}${location.pathname}${location.search}#${link.fragment}`;
}
mountAskEditor($('ask-editor'), store, questionLink);
store.subscribe((s, p) => {
  // another graph, or an edit, takes a link's question away (it is about the graph it came with)
  if (s.asked && s.docVersion !== p.docVersion && s.asked.docVersion !== s.docVersion) store.set({ asked: null });
});
mountShare($('share') as HTMLButtonElement, $('share-popover'), store, text, () => doc.text(), caseView, caseRef);
mountStale(
  $('stale-bar'),
  ['summary-card', 'chart-card', 'program-card', 'timeline-card', 'step-card', 'order-card', 'spills-card'].map((id) =>
    $(id),
  ),
  $('compare-card'),
  $('editor-status'),
  store,
  () => void runner.run(),
);
store.subscribe((s, p) => {
  const veiled = hiddenFrom(s) < Number.POSITIVE_INFINITY;
  if (s.view === p.view && veiled === hiddenFrom(p) < Number.POSITIVE_INFINITY) return;
  const v = s.view;
  // while a question is open the counts would give its answer away
  const hiddenNote = 'the steps after the cursor show once the question is answered';
  $('order-info').textContent = v
    ? veiled
      ? hiddenNote
      : `${fmtInt(v.order.length)} steps · ${fmtInt(v.addedCount)} spill nodes`
    : '';
  $('spill-info').textContent =
    v?.spills.length && !veiled ? `${fmtInt(v.spills.length)} · select one to step to it` : '';
});

// ---- downloads -------------------------------------------------------------------------------
const dlMenu = $('download-menu') as HTMLDetailsElement;
dlMenu.addEventListener('click', (e) => {
  const b = (e.target as HTMLElement).closest('button[data-file]') as HTMLButtonElement | null;
  if (!b) return;
  dlMenu.open = false;
  const file = b.dataset.file!;
  if (file === 'case.json') {
    download('spillway-case.json', caseJson(doc.text(), store.get().settings, caseView()), 'application/json');
    return;
  }
  const view = store.get().view;
  if (!view) return notify('Run the planner first: there is no result to download yet.', 'warn');
  const r = fullResult(view);
  if (file === 'result.json') download('result.json', resultText(view), 'application/json');
  if (file === 'schedule.txt') download('schedule.txt', scheduleTxt(r));
  if (file === 'memory.txt') download('memory.txt', memoryTxt(r));
  if (file === 'spill.txt') download('spill.txt', spillTxt(r));
});
document.addEventListener('click', (e) => {
  if (dlMenu.open && !dlMenu.contains(e.target as Node)) dlMenu.open = false;
});
dlMenu.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') {
    dlMenu.open = false;
    dlMenu.querySelector('summary')?.focus();
  }
});

// ---- opening cases, files, examples, links -----------------------------------------------------
/** The engine's registries a link's or a file's settings are checked against. */
const engineNames = (): EngineNames | null => {
  const e = store.get().engine;
  return e
    ? { policies: e.policies, orders: e.orders.map((o) => o.name), examples: e.examples.map((x) => x.name) }
    : null;
};

/** A checked case (link, case file): its settings, then its graph, then a run; then the step,
 * the spill and the lesson it was shared at. False when the example or lesson it names (instead of
 * its graph) is not on this page. */
async function applyCase(c: Case, title: string): Promise<boolean> {
  const lesson = c.view?.lesson ? LESSONS.find((l) => l.id === c.view!.lesson) : undefined;
  const example = c.example ? store.get().engine?.examples.find((e) => e.name === c.example) : undefined;
  let graph = c.graph;
  let edited = false; // a lesson's text, edited before it was shared: a later link carries it
  if (example && graph === null) graph = await engine.example(example.name);
  else if (lesson && !example) {
    const own = await lessonGraph(lesson);
    if (graph === null || sameText(graph, own)) graph = own;
    else edited = true;
  }
  if (graph === null) {
    notify(`This link is refused: its lesson "${c.view?.lesson}" is not one of this page's lessons.`, 'error');
    return false;
  }
  const question = c.view?.question;
  store.set({
    settings: c.settings,
    lesson: null,
    pendingView: question
      ? { step: question.field === 'buf' ? Math.max(0, question.at - 1) : question.at, spill: null } // before the question's step
      : c.view
        ? { step: c.view.step ?? 0, spill: c.view.spill ?? null }
        : null,
  });
  const source = example
    ? { title: `Example: ${example.title || example.name}`, description: example.description, example: example.name }
    : { title: lesson ? `Lesson: ${lesson.title}` : title };
  await doc.load(graph, { ...source, edited }, true);
  const docVersion = store.get().docVersion;
  // a link's own question replaces the lesson's whose graph it names
  if (question) store.set({ asked: { question, docVersion, wrong: null, right: false } });
  else if (lesson) store.set({ lesson: { id: lesson.id, answer: null, docVersion } });
  await runner.run();
  return true;
}

/** Two texts of one graph (whitespace outside strings aside), or the same program. */
const sameText = (a: string, b: string) => a === b || (!isProgram(a) && compactJson(a) === compactJson(b));

/** What a link carries besides the case: the step, the selected spill, the lesson, the question a
 * link asked about this graph. */
function caseView(): CaseView {
  const s = store.get();
  const question = s.asked?.docVersion === s.docVersion ? s.asked.question : undefined;
  return { step: s.cursor, spill: s.selectedSpill, lesson: s.lesson?.id ?? null, question };
}

/** What a link may name instead of carrying the graph: the lesson or the built-in example on
 * screen, as long as its text is not edited. */
function caseRef(): CaseRef {
  const s = store.get();
  if (s.lesson && s.lesson.docVersion === s.docVersion && !s.source?.edited) return { lesson: s.lesson.id };
  if (s.source?.example && !s.source.edited) return { example: s.source.example };
  return null;
}

// ---- lessons ---------------------------------------------------------------------------------
try {
  const done = JSON.parse(storage.get(KEY_LESSONS) ?? '[]') as unknown;
  if (Array.isArray(done))
    store.set({ lessonsDone: done.filter((x): x is string => typeof x === 'string' && LESSON_ID.test(x)) });
} catch {
  /* unreadable progress: start afresh */
}
store.subscribe((s, p) => {
  if (s.lessonsDone !== p.lessonsDone) storage.set(KEY_LESSONS, JSON.stringify(s.lessonsDone));
});

/** The settings and predict mode the user had before the lessons took over: leaving the lessons
 * (Leave, an example, a file, a program, a link) gives them back, unless what was opened came
 * with settings of its own (a link's, a case file's). */
let beforeLessons: { settings: Settings; predict: boolean } | null = null;
store.subscribe((s, p) => {
  if (!p.lesson || s.lesson || !beforeLessons) return;
  const { settings, predict } = beforeLessons;
  beforeLessons = null;
  store.set({
    ...(s.settings === p.settings ? { settings } : {}),
    predict: { ...s.predict, on: predict, note: null },
  });
});

/** A lesson's text: its program, its example or its graph. */
async function lessonGraph(l: Lesson): Promise<string> {
  return l.program ?? (l.example ? engine.example(l.example) : layoutJson(compactJson(JSON.stringify(l.graph))));
}

async function openLesson(l: Lesson) {
  try {
    runner.interrupt();
    if (!store.get().lesson && !beforeLessons) {
      const s = store.get();
      beforeLessons = { settings: s.settings, predict: s.predict.on };
    }
    const graph = await lessonGraph(l);
    // a program's capacity is its memory line's, in the engine's translation
    const model = l.program ? await engine.translate(l.program) : graph;
    const caps = (JSON.parse(model) as { Capacities?: Record<string, number> }).Capacities;
    store.set({
      settings: {
        ...defaultSettings(),
        ...l.settings,
        capacities: caps ? Object.entries(caps) : copyCapacities(DEFAULT_CAPACITIES),
      },
      lesson: { id: l.id, answer: null, docVersion: -1 },
      pendingView: { step: l.step, spill: null },
    });
    const i = LESSONS.indexOf(l);
    await doc.load(graph, { title: `Lesson ${i + 1}: ${l.title}`, description: l.text[0], edited: false }, true);
    store.set({ lesson: { id: l.id, answer: null, docVersion: store.get().docVersion } });
    await runner.run();
  } catch (e) {
    notify(`Could not open the lesson "${l.title}": ${(e as Error).message}`, 'error');
  }
}
mountLessons($('lessons'), $('lessons-title'), store, {
  open: (l) => void openLesson(l),
  close: () => store.set({ lesson: null }),
  goToStep(step) {
    stepper.goTo(step);
    $('step-card').scrollIntoView({ block: 'start' });
    ($('step-controls').querySelector('[data-testid=step-next]') as HTMLElement | null)?.focus();
  },
  tryWith(w) {
    store.setSettings({ ...w });
    void runner.run();
  },
});

async function openFile(file: File) {
  const [content, c] = await Promise.all([file.text(), text.openFile(file, engineNames())]);
  if (c && !c.ok) return notify(`${file.name}: ${c.message}`, 'error');
  if (c) await applyCase(c.case, `Case file: ${file.name}`);
  else {
    store.set({ lesson: null });
    await doc.load(content, { title: `File: ${file.name}`, edited: false });
    void runner.run();
  }
  notifyBriefly(`Opened ${file.name}`);
}

const openInput = $('open-input') as HTMLInputElement;
$('open').addEventListener('click', () => {
  openInput.value = '';
  openInput.click();
});
openInput.addEventListener('change', () => {
  const f = openInput.files?.[0];
  if (f) void openFile(f);
});
const drop = $('drop');
let dragDepth = 0;
window.addEventListener('dragenter', (e) => {
  if (e.dataTransfer?.types.includes('Files')) {
    dragDepth++;
    drop.hidden = false;
  }
});
window.addEventListener('dragleave', () => {
  if (--dragDepth <= 0) {
    dragDepth = 0;
    drop.hidden = true;
  }
});
window.addEventListener('dragover', (e) => {
  e.preventDefault();
});
window.addEventListener('drop', (e) => {
  e.preventDefault();
  dragDepth = 0;
  drop.hidden = true;
  const f = e.dataTransfer?.files?.[0];
  if (f) void openFile(f);
});

async function loadExample(name: string) {
  try {
    runner.interrupt();
    const t = await engine.example(name);
    const info = store.get().engine?.examples.find((e) => e.name === name);
    store.set({ lesson: null });
    await doc.load(t, {
      title: `Example: ${info?.title ?? name}`,
      description: info?.description,
      example: name,
      edited: false,
    });
    await runner.run();
  } catch (e) {
    notify(`Could not load the example "${name}": ${(e as Error).message}`, 'error');
  }
}
exampleSelect.addEventListener('change', () => {
  if (exampleSelect.value) void loadExample(exampleSelect.value);
});

/** Starts from a program (the sample in lib/program.ts), planned like any graph. */
async function loadProgram() {
  runner.interrupt();
  store.set({ lesson: null });
  await doc.load(SAMPLE_PROGRAM, {
    title: 'Program: a sample',
    description:
      'Three registers, four values live at once: one is written out and read back. Edit the program and Run; the rewritten program shows the spills and reloads.',
    edited: false,
  });
  await runner.run();
}
$('program').addEventListener('click', () => void loadProgram());

/** Opens a "#case=" fragment once it passed every check; true if it opened a case. The fragment
 * stays in the address bar, and follows what is on screen from then on (linkInAddressBar). */
async function openLink(hash: string): Promise<boolean> {
  addressFollows = false;
  notify('Opening the case from the link…', 'info');
  const decoded = await text.decodeLink(hash, engineNames());
  if (!decoded?.ok || !(await applyCase(decoded.case, 'From a shared link'))) {
    history.replaceState(null, '', location.pathname + location.search); // a reload shows the page's own graph
    if (!decoded?.ok)
      notify(`${decoded?.message ?? 'This link holds no case.'} The page shows your last graph instead.`, 'error');
    return false;
  }
  addressFollows = true;
  notifyBriefly('Opened the case from the link.');
  landOnResult();
  return true;
}
/** The link in the fragment, without its embed flag; the flag turns the embed view on. */
function linkFragment(): string {
  const { fragment, embed } = splitEmbed(location.hash.slice(1));
  if (embed && document.documentElement.dataset.embed === undefined)
    enterEmbed(`${location.origin}${location.pathname}${location.search}#${fragment}`);
  return fragment;
}

// ---- the address bar: once a link opened, its fragment is the link to what is on screen ---------
let addressFollows = false;
let addressTimer = 0;
/** Writes the link to what is on screen into the address bar (no history entry), keeping any
 * "&flags" after the case; a link too long to share leaves the address bar without a case, so a
 * reload shows the stored graph rather than an older one. */
async function linkInAddressBar() {
  const flags = location.hash.includes('&') ? location.hash.slice(location.hash.indexOf('&')) : '';
  const s = store.get();
  const link = await text.encodeLink(doc.text(), s.settings, caseView(), caseRef());
  if (!addressFollows) return;
  const fragment = link.fragment.length <= LINK_WARN_LENGTH ? `#${link.fragment}${flags}` : flags && `#${flags}`;
  history.replaceState(null, '', location.pathname + location.search + fragment);
}
store.subscribe((s, p) => {
  if (!addressFollows) return;
  if (
    s.docVersion === p.docVersion &&
    s.settings === p.settings &&
    s.cursor === p.cursor &&
    s.selectedSpill === p.selectedSpill &&
    s.lesson?.id === p.lesson?.id &&
    s.asked?.question === p.asked?.question &&
    s.source === p.source
  )
    return;
  clearTimeout(addressTimer);
  addressTimer = window.setTimeout(() => void linkInAddressBar(), 400);
});

/** On a narrow screen (one column: lessons, settings and the editor above the results) a link
 * opens at its result: the page scrolls to the summary. */
function landOnResult() {
  if (!matchMedia('(max-width: 1100px)').matches || document.body.classList.contains('presentation')) return;
  requestAnimationFrame(() => $('summary-card').scrollIntoView({ block: 'start' }));
}
window.addEventListener('hashchange', () => {
  const hash = linkFragment();
  if (hash.startsWith(CASE_PREFIX)) void openLink(hash);
});

// ---- start -----------------------------------------------------------------------------------
async function start() {
  const hash = linkFragment();
  try {
    const info = await engine.init();
    store.set({ engine: info, engineFailed: null });
    $('engine-version').textContent = info.version;
    exampleSelect.replaceChildren(
      h('option', { value: '' }, 'Examples…'),
      ...info.examples.map((ex) => h('option', { value: ex.name }, ex.title || ex.name)),
    );
    // stored settings were checked before the engine was known: a name it lacks gives its default
    const { policy, orderSource } = store.get().settings;
    if (policy && !info.policies.includes(policy)) store.setSettings({ policy: '' });
    if (orderSource !== ORDER_FILE && !info.orders.some((o) => o.name === orderSource))
      store.setSettings({ orderSource: info.orders[0].name });
  } catch (e) {
    const msg = (e as Error).message;
    store.set({ engineFailed: msg });
    $('engine-version').textContent = 'engine unavailable';
    notify(`The engine could not be loaded: ${msg}`, 'error');
    return;
  }
  if (hash.startsWith(CASE_PREFIX) && (await openLink(hash))) return;
  const stored = storage.get(KEY_GRAPH);
  if (stored) {
    await doc.load(stored, null, true);
    await runner.run();
    return;
  }
  const examples = store.get().engine?.examples ?? [];
  const first = examples.find((e) => e.name === FIRST_EXAMPLE) ?? examples[0];
  if (first) await loadExample(first.name);
}
void start();

// Small scripting hook (tests, console): read or replace the graph text, run, read the result.
Object.assign(window, {
  spillway: {
    getGraphText: () => doc.text(),
    setGraphText: (t: string) => doc.load(t, null),
    run: () => runner.run(),
    result: () => {
      const v = store.get().view;
      return v ? fullResult(v) : null;
    },
    resultText: () => {
      const v = store.get().view;
      return v ? resultText(v) : null;
    },
    fmtMs,
  },
});

if (import.meta.env.PROD && 'serviceWorker' in navigator && location.protocol !== 'file:') {
  navigator.serviceWorker.register('./sw.js').catch(() => {
    /* offline support is optional */
  });
}
