// Running the planner: Run / Cancel / progress, re-running when settings change, and the compare
// table (every policy on every order) in a second worker after the plan is on screen, so that a
// long comparison never holds up the next Run; it is cancelled when the graph, capacities or cost
// change. A settings field that cannot be used stops Run with a message naming it. Two rows of
// the compare table picked for a diff have their plans made in the compare worker as well.
// A run whose order comes from the search plans anytime (lib/anytime.ts): the plan of each smaller
// effort is shown as it is made, the progress names the search's evaluations and best score, and
// Cancel keeps the plan on screen, marked as stopped at its effort. Under the objective cycles
// the run's best plans so far are shown as they come, and Cancel keeps the last.
import { store, runKey, compareKey, rowKey, notify, type ErrorInfo, type FieldError } from '../store';
import { compareOptions, runOptions, type Settings } from '../lib/settings';
import { EngineClient } from '../engine/client';
import { WorkerError } from '../lib/worker-rpc';
import type { CompareRow } from '../engine/types';
import { fmtInt } from '../lib/format';
import { progressText, stepText } from '../lib/progress';
import type { GraphDocument } from './document';
import { GRAPH_CAPACITIES_FIELD } from './document';

export interface Runner {
  run(): Promise<void>;
  cancel(): void;
  /** Stops a run under way without a word (something else needs the engine now). */
  interrupt(): void;
  openCompareRow(row: CompareRow): void;
  cancelCompare(): void;
  retryCompare(): void;
}

function blockedBy(e: FieldError): ErrorInfo {
  if (e.memory) return { kind: 'settings', message: e.message, where: { memory: e.memory } };
  return e.field === GRAPH_CAPACITIES_FIELD
    ? { kind: 'settings', message: e.message, where: { field: 'Capacities' } }
    : { kind: 'settings', message: e.message, pageField: e.field };
}

/** A runner's state: its engines, the runs and comparison under way, the tokens that tell a
 * stale answer from the current one. */
interface Runs {
  engine: EngineClient;
  doc: GraphDocument;
  progress: { show(text: string | null): void };
  runToken: number;
  progressTimer: number;
  comparer: EngineClient | null;
  compareToken: number;
  compareInFlight: boolean;
  lastRun: { graph: string; settings: Settings; key: string } | null;
  /** runKey() of the last run that reached the engine */
  startedKey: string;
  /** the engine worker is busy with a run's plan */
  planInFlight: boolean;
  diffToken: number;
  /** the debounced re-run after a settings change */
  autoTimer: number;
}

export function createRunner(
  engine: EngineClient,
  doc: GraphDocument,
  progress: { show(text: string | null): void },
): Runner {
  const r: Runs = {
    engine,
    doc,
    progress,
    runToken: 0,
    progressTimer: 0,
    comparer: null,
    compareToken: 0,
    compareInFlight: false,
    lastRun: null,
    startedKey: '',
    planInFlight: false,
    diffToken: 0,
    autoTimer: 0,
  };
  store.subscribe((s, p) => {
    if (s.diffPicks !== p.diffPicks || (s.compare?.rowsKey !== p.compare?.rowsKey && s.diffPicks.length === 2))
      void startDiff(r);
  });
  // settings: re-run (debounced) when they change what a run would do
  store.subscribe((s, p) => {
    if (s.settings === p.settings) return;
    clearTimeout(r.autoTimer);
    r.autoTimer = window.setTimeout(() => {
      const now = store.get();
      if ((!now.view && !now.error) || now.fieldErrors.length) return;
      if (runKey(now) !== r.startedKey) void run(r);
    }, 350);
  });

  return {
    run: () => run(r),
    cancel: () => cancel(r),
    interrupt: () => interrupt(r),
    openCompareRow(row) {
      const pols = store.get().engine?.policies ?? [];
      store.setSettings({ policy: row.policy === pols[0] ? '' : row.policy, orderSource: row.order });
      void run(r);
    },
    cancelCompare: () => stopCompare(r, 'cancelled'),
    retryCompare() {
      if (r.lastRun) void startCompare(r, r.lastRun.graph, r.lastRun.settings, r.lastRun.key, true);
    },
  };
}

// A run's search can take long: a newer run (or an example to load) does not queue behind it.
function interrupt(r: Runs) {
  if (!r.planInFlight) return;
  r.planInFlight = false;
  r.engine.cancel();
}

function cancel(r: Runs) {
  // Cancel stops the run and what would start one: a re-run still waiting for its debounce
  // (a graph's Capacities adopted just before) would plan the graph again right after.
  clearTimeout(r.autoTimer);
  if (!r.planInFlight && store.get().running) {
    // Still reading the graph (the engine has nothing yet, so its cancel would stop nothing):
    // this run ends here, before it plans.
    ++r.runToken;
    r.startedKey = '';
    stopProgress(r);
    store.set({ running: null, search: null });
    notify('Run cancelled. The results below are from before.', 'info');
  }
  r.planInFlight = false;
  r.engine.cancel();
  stopCompare(r, 'cancelled');
}

function stopProgress(r: Runs) {
  clearInterval(r.progressTimer);
  r.progress.show(null);
}

function startProgress(r: Runs) {
  clearInterval(r.progressTimer);
  r.progressTimer = window.setInterval(() => {
    const running = store.get().running;
    if (!running) return;
    const ms = performance.now() - running.startedAt;
    if (ms > 300) r.progress.show(`${progressText(store.get().search, running.phase)} · ${(ms / 1000).toFixed(1)} s`);
  }, 100);
}

/** Stops a comparison in flight (its rows stay, marked out of date). */
function stopCompare(r: Runs, status: 'cancelled' | 'running') {
  const c = store.get().compare;
  if (r.compareInFlight) {
    r.compareToken++;
    r.compareInFlight = false;
    r.comparer?.cancel();
  }
  if (c?.status === 'running') store.set({ compare: { ...c, status } });
}

async function startCompare(r: Runs, graph: string, settings: Settings, key: string, force = false) {
  const c = store.get().compare;
  if (!force && c?.key === key && (c.status === 'done' || (c.status === 'running' && r.compareInFlight))) return;
  if (r.compareInFlight) r.comparer?.cancel();
  store.set({ compare: { key, status: 'running', rows: c?.rows ?? [], rowsKey: c?.rowsKey ?? '' } });
  r.comparer ??= new EngineClient();
  const token = ++r.compareToken;
  r.compareInFlight = true;
  try {
    const rows = await r.comparer.compare(graph, compareOptions(settings));
    if (token === r.compareToken) store.set({ compare: { key, status: 'done', rows, rowsKey: key } });
  } catch (e) {
    const err = e as WorkerError;
    if (token === r.compareToken && err.kind !== 'cancelled')
      store.set({ compare: { key, status: 'error', rows: [], rowsKey: '', message: err.message } });
  } finally {
    if (token === r.compareToken) r.compareInFlight = false;
  }
}

async function run(r: Runs): Promise<void> {
  r.doc.saveNow();
  const token = ++r.runToken;
  interrupt(r);
  const t0 = performance.now();
  store.set({ running: { startedAt: t0, phase: 'reading the graph' } });
  startProgress(r);
  try {
    // Fields are checked only once the graph's info is current: a field error can be about the
    // graph (a memory without a capacity, its "Capacities"), and the one on record may be about
    // the text just replaced (a lesson or a file opened, a paste followed at once by Run).
    await r.doc.info(); // the graph's Capacities are adopted before it is planned
    if (token !== r.runToken) return;
    const blocked = store.get().fieldErrors[0];
    if (blocked) {
      store.set({ error: blockedBy(blocked), running: null });
      return;
    }
    await plan(r, token, t0);
  } catch (e) {
    if (token === r.runToken) runFailed(r, e);
  } finally {
    if (token === r.runToken) {
      r.planInFlight = false;
      stopProgress(r);
    }
  }
}

/** The run's plan: its progress and the plans of smaller efforts shown as they come, then the
 * plan, then (once it is painted) the comparison. */
async function plan(r: Runs, token: number, t0: number) {
  const graph = r.doc.text();
  const s = store.get();
  const key = runKey(s);
  const settings = s.settings;
  const cKey = compareKey(s);
  r.startedKey = key;
  // a comparison for another graph / capacities / cost is out of date: stop it
  if (s.compare && s.compare.key !== cKey) stopCompare(r, 'running');
  store.set({ running: { startedAt: t0, phase: 'planning' }, search: null });
  r.planInFlight = true;
  const view = await r.engine.planAnytime(graph, runOptions(settings), (p) => {
    if (token !== r.runToken || !store.get().running) return;
    if (p.kind === 'phase') store.set({ running: { startedAt: t0, phase: p.phase } });
    else if (p.kind === 'search')
      store.set({ search: { target: settings.effort, effort: p.effort, progress: p.progress } });
    else
      store.set({
        view: p.view,
        viewKey: key,
        earlyPlan: { effort: p.effort, step: p.step, target: settings.effort, stopped: false },
        error: null,
        selectedBuf: null,
        selectedSpill: null,
      });
  });
  if (token !== r.runToken) return;
  const tReceived = performance.now();
  store.set({
    view,
    viewKey: key,
    earlyPlan: null,
    search: null,
    error: null,
    selectedBuf: null,
    selectedSpill: null,
    running: null,
  });
  (window as unknown as { __spillwayTimes: unknown }).__spillwayTimes = {
    engine: view.engineMs,
    prepare: view.prepareMs,
    receive: tReceived - t0 - view.engineMs - view.prepareMs,
    render: performance.now() - tReceived,
  };
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (token !== r.runToken) return;
      store.set({ totalMs: performance.now() - t0 });
      r.lastRun = { graph, settings, key: cKey };
      void startCompare(r, graph, settings, cKey); // after the plan is painted
    }, 0),
  );
}

/** A run that ended in an error, or cancelled (then a plan of a smaller effort may stay). */
function runFailed(r: Runs, e: unknown) {
  const err = e instanceof WorkerError ? e : new WorkerError('internal', String(e));
  if (err.kind === 'cancelled') {
    const early = store.get().earlyPlan;
    const kept = !!early && store.get().viewKey === r.startedKey; // a plan of this run is on screen
    r.startedKey = '';
    if (early && kept) {
      store.set({ running: null, search: null, pendingView: null, earlyPlan: { ...early, stopped: true } });
      const at =
        early.effort === null
          ? `Run stopped${stepText(early.step)}`
          : `Search stopped at effort ${fmtInt(early.effort)}`;
      notify(`${at}: the plan below is the best it made so far.`, 'info');
    } else {
      store.set({ running: null, search: null });
      notify('Run cancelled. The engine was restarted; the results below are from before.', 'info');
    }
    return;
  }
  if (store.get().compare?.status === 'running') stopCompare(r, 'cancelled');
  store.set({ error: { kind: err.kind, message: err.message, where: err.where }, running: null, search: null });
}

/** The diff: both picked rows' plans, for the graph and settings of the compare table. */
async function startDiff(r: Runs) {
  const s = store.get();
  const rows = s.diffPicks.map((k) => s.compare?.rows.find((row) => rowKey(row) === k));
  if (rows.length !== 2 || !rows[0] || !rows[1] || !r.lastRun || s.compare?.rowsKey !== r.lastRun.key) {
    if (s.diff) store.set({ diff: null });
    return;
  }
  const pair: [CompareRow, CompareRow] = [rows[0], rows[1]];
  const token = ++r.diffToken;
  const { graph, settings, key } = r.lastRun;
  store.set({ diff: { rows: pair, key, status: 'running', views: null, node: -1 } });
  const comparer = (r.comparer ??= new EngineClient());
  try {
    const planRow = (row: CompareRow) =>
      comparer.plan(graph, {
        ...runOptions({ ...settings, policy: row.policy, orderSource: row.order as Settings['orderSource'] }),
      });
    const a = await planRow(pair[0]);
    const b = await planRow(pair[1]);
    if (token === r.diffToken) store.set({ diff: { rows: pair, key, status: 'done', views: [a, b], node: -1 } });
  } catch (e) {
    if (token === r.diffToken)
      store.set({ diff: { rows: pair, key, status: 'error', views: null, node: -1, message: (e as Error).message } });
  }
}
