// Running the planner: Run / Cancel / progress, re-running when settings change, and the compare
// table (every policy on every order) in a second worker after the plan is on screen, so that a
// long comparison never holds up the next Run; it is cancelled when the graph, capacities or cost
// change. A settings field that cannot be used stops Run with a message naming it. Two rows of
// the compare table picked for a diff have their plans made in the compare worker as well.
// A run whose order comes from the search plans anytime (lib/anytime.ts): the plan of each smaller
// effort is shown as it is made, the progress names the search's evaluations and best score, and
// Cancel keeps the plan on screen, marked as stopped at its effort.
import { store, runKey, compareKey, rowKey, notify, type ErrorInfo, type FieldError, type SearchRun } from '../store';
import { compareOptions, runOptions, type Settings } from '../lib/settings';
import { EngineClient } from '../engine/client';
import { WorkerError } from '../lib/worker-rpc';
import type { CompareRow } from '../engine/types';
import { fmtInt } from '../lib/format';
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

/** "Searching orders at effort 400, on the way to 20,000: 312 of 1,050 evaluations, best so far
 * 12,416 B", or the phase of a run without a search. */
export function progressText(search: SearchRun | null, phase: string): string {
  if (!search) return `${phase[0].toUpperCase()}${phase.slice(1)}…`;
  const { effort, target, progress: p } = search;
  const at =
    effort === null
      ? 'at the default effort'
      : `at effort ${fmtInt(effort)}${effort === target ? '' : `, on the way to ${target === null ? 'the default' : fmtInt(target)}`}`;
  return `Searching orders ${at}: ${fmtInt(p.evaluations)} of ${fmtInt(p.budget)} evaluations, best so far ${fmtInt(p.best)} B`;
}

export function createRunner(
  engine: EngineClient,
  doc: GraphDocument,
  progress: { show(text: string | null): void },
): Runner {
  let runToken = 0;
  let progressTimer = 0;
  let comparer: EngineClient | null = null;
  let compareToken = 0;
  let compareInFlight = false;
  let lastRun: { graph: string; settings: Settings; key: string } | null = null;
  let startedKey = ''; // runKey() of the last run that reached the engine
  let planInFlight = false; // the engine worker is busy with a run's plan

  // A run's search can take long: a newer run (or an example to load) does not queue behind it.
  function interrupt() {
    if (!planInFlight) return;
    planInFlight = false;
    engine.cancel();
  }

  function stopProgress() {
    clearInterval(progressTimer);
    progress.show(null);
  }

  function startProgress() {
    clearInterval(progressTimer);
    progressTimer = window.setInterval(() => {
      const r = store.get().running;
      if (!r) return;
      const ms = performance.now() - r.startedAt;
      if (ms > 300) progress.show(`${progressText(store.get().search, r.phase)} · ${(ms / 1000).toFixed(1)} s`);
    }, 100);
  }

  /** Stops a comparison in flight (its rows stay, marked out of date). */
  function stopCompare(status: 'cancelled' | 'running') {
    const c = store.get().compare;
    if (compareInFlight) {
      compareToken++;
      compareInFlight = false;
      comparer?.cancel();
    }
    if (c?.status === 'running') store.set({ compare: { ...c, status } });
  }

  async function startCompare(graph: string, settings: Settings, key: string, force = false) {
    const c = store.get().compare;
    if (!force && c?.key === key && (c.status === 'done' || (c.status === 'running' && compareInFlight))) return;
    if (compareInFlight) comparer?.cancel();
    store.set({ compare: { key, status: 'running', rows: c?.rows ?? [], rowsKey: c?.rowsKey ?? '' } });
    comparer ??= new EngineClient();
    const token = ++compareToken;
    compareInFlight = true;
    try {
      const rows = await comparer.compare(graph, compareOptions(settings));
      if (token === compareToken) store.set({ compare: { key, status: 'done', rows, rowsKey: key } });
    } catch (e) {
      const err = e as WorkerError;
      if (token === compareToken && err.kind !== 'cancelled')
        store.set({ compare: { key, status: 'error', rows: [], rowsKey: '', message: err.message } });
    } finally {
      if (token === compareToken) compareInFlight = false;
    }
  }

  async function run(): Promise<void> {
    doc.saveNow();
    const token = ++runToken;
    interrupt();
    const t0 = performance.now();
    store.set({ running: { startedAt: t0, phase: 'reading the graph' } });
    startProgress();
    try {
      // Fields are checked only once the graph's info is current: a field error can be about the
      // graph (a memory without a capacity, its "Capacities"), and the one on record may be about
      // the text just replaced (a lesson or a file opened, a paste followed at once by Run).
      await doc.info(); // the graph's Capacities are adopted before it is planned
      if (token !== runToken) return;
      const blocked = store.get().fieldErrors[0];
      if (blocked) {
        store.set({ error: blockedBy(blocked), running: null });
        return;
      }
      const graph = doc.text();
      const s = store.get();
      const key = runKey(s);
      const settings = s.settings;
      const cKey = compareKey(s);
      startedKey = key;
      // a comparison for another graph / capacities / cost is out of date: stop it
      if (s.compare && s.compare.key !== cKey) stopCompare('running');
      store.set({ running: { startedAt: t0, phase: 'planning' }, search: null });
      planInFlight = true;
      const view = await engine.planAnytime(graph, runOptions(settings), (p) => {
        if (token !== runToken || !store.get().running) return;
        if (p.kind === 'phase') store.set({ running: { startedAt: t0, phase: p.phase } });
        else if (p.kind === 'search')
          store.set({ search: { target: settings.effort, effort: p.effort, progress: p.progress } });
        else
          store.set({
            view: p.view,
            viewKey: key,
            earlyPlan: { effort: p.effort, target: settings.effort, stopped: false },
            error: null,
            selectedBuf: null,
            selectedSpill: null,
          });
      });
      if (token !== runToken) return;
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
          if (token !== runToken) return;
          store.set({ totalMs: performance.now() - t0 });
          lastRun = { graph, settings, key: cKey };
          void startCompare(graph, settings, cKey); // after the plan is painted
        }, 0),
      );
    } catch (e) {
      if (token !== runToken) return;
      const err = e instanceof WorkerError ? e : new WorkerError('internal', String(e));
      if (err.kind === 'cancelled') {
        const early = store.get().earlyPlan;
        const kept = !!early && store.get().viewKey === startedKey; // a plan of this run is on screen
        startedKey = '';
        if (early && kept) {
          store.set({ running: null, search: null, pendingView: null, earlyPlan: { ...early, stopped: true } });
          notify(
            `Search stopped at effort ${fmtInt(early.effort)}: the plan below is the best it made so far.`,
            'info',
          );
        } else {
          store.set({ running: null, search: null });
          notify('Run cancelled. The engine was restarted; the results below are from before.', 'info');
        }
        return;
      }
      if (store.get().compare?.status === 'running') stopCompare('cancelled');
      store.set({ error: { kind: err.kind, message: err.message, where: err.where }, running: null, search: null });
    } finally {
      if (token === runToken) {
        planInFlight = false;
        stopProgress();
      }
    }
  }

  // the diff: both picked rows' plans, for the graph and settings of the compare table
  let diffToken = 0;
  async function startDiff() {
    const s = store.get();
    const rows = s.diffPicks.map((k) => s.compare?.rows.find((r) => rowKey(r) === k));
    if (rows.length !== 2 || !rows[0] || !rows[1] || !lastRun || s.compare?.rowsKey !== lastRun.key) {
      if (s.diff) store.set({ diff: null });
      return;
    }
    const pair: [CompareRow, CompareRow] = [rows[0], rows[1]];
    const token = ++diffToken;
    const { graph, settings, key } = lastRun;
    store.set({ diff: { rows: pair, key, status: 'running', views: null, node: -1 } });
    comparer ??= new EngineClient();
    try {
      const plan = (r: CompareRow) =>
        comparer!.plan(graph, {
          ...runOptions({ ...settings, policy: r.policy, orderSource: r.order as Settings['orderSource'] }),
        });
      const a = await plan(pair[0]);
      const b = await plan(pair[1]);
      if (token === diffToken) store.set({ diff: { rows: pair, key, status: 'done', views: [a, b], node: -1 } });
    } catch (e) {
      if (token === diffToken)
        store.set({ diff: { rows: pair, key, status: 'error', views: null, node: -1, message: (e as Error).message } });
    }
  }
  store.subscribe((s, p) => {
    if (s.diffPicks !== p.diffPicks || (s.compare?.rowsKey !== p.compare?.rowsKey && s.diffPicks.length === 2))
      void startDiff();
  });

  // settings: re-run (debounced) when they change what a run would do
  let autoTimer = 0;
  store.subscribe((s, p) => {
    if (s.settings === p.settings) return;
    clearTimeout(autoTimer);
    autoTimer = window.setTimeout(() => {
      const now = store.get();
      if ((!now.view && !now.error) || now.fieldErrors.length) return;
      if (runKey(now) !== startedKey) void run();
    }, 350);
  });

  return {
    run,
    cancel() {
      // Cancel stops the run and what would start one: a re-run still waiting for its debounce
      // (a graph's Capacities adopted just before) would plan the graph again right after.
      clearTimeout(autoTimer);
      if (!planInFlight && store.get().running) {
        // Still reading the graph (the engine has nothing yet, so its cancel would stop nothing):
        // this run ends here, before it plans.
        ++runToken;
        startedKey = '';
        stopProgress();
        store.set({ running: null, search: null });
        notify('Run cancelled. The results below are from before.', 'info');
      }
      planInFlight = false;
      engine.cancel();
      stopCompare('cancelled');
    },
    interrupt,
    openCompareRow(row) {
      const pols = store.get().engine?.policies ?? [];
      store.setSettings({ policy: row.policy === pols[0] ? '' : row.policy, orderSource: row.order });
      void run();
    },
    cancelCompare: () => stopCompare('cancelled'),
    retryCompare() {
      if (lastRun) void startCompare(lastRun.graph, lastRun.settings, lastRun.key, true);
    },
  };
}
