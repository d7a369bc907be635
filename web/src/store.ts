// All page state in one place. Components read with get(), change with set(), and re-render in
// subscribe() callbacks, comparing the slices they care about.
import type { CompareRow, EngineInfo, FrontierPoint, PlanView, RunStep, SearchProgress } from './engine/types';
import type { ErrorWhere } from '../../wasm/spillway';
import { defaultSettings, settingsKeys, type Settings } from './lib/settings';
import type { CaseQuestion } from './lib/share';

// ErrorWhere (where an engine error is, docs/result-format.md "Errors") is the bindings' own type.
export type { ErrorWhere, Settings };

export interface ErrorInfo {
  kind: 'input' | 'internal' | 'settings' | string;
  message: string;
  where?: ErrorWhere;
  /** A settings field of the page (its data-testid) the error is about. */
  pageField?: string;
}

/** A settings field whose text cannot be used: Run refuses to start while there is one. */
export interface FieldError {
  field: string; // data-testid of the input
  message: string; // names the field: "UB capacity: the field is empty"
  memory?: string; // a memory the graph uses that has no capacity
}

export interface Notice {
  level: 'info' | 'warn' | 'error';
  message: string;
  action?: { label: string; run: () => void };
}

/** What the editor's text holds, as the text worker read it (for one docVersion). */
export interface GraphInfo {
  version: number;
  json: boolean; // the text is valid JSON (a program: the engine translated it)
  /** The text is a program (lib/program.ts); the rest is read from the engine's translation. */
  program: boolean;
  /** The graph's "Capacities" (null: it names none), when usable. */
  capacities: [string, number][] | null;
  /** Why the graph's "Capacities" cannot be used (too many rows, a bad value). */
  capacitiesProblem?: string;
  hasOrder: boolean;
  /** Each memory type the graph's buffers use, with the most bytes one node needs in it. */
  memories: Record<string, number>;
}

/** Where the editor's graph came from: the caption above the editor. */
export interface Source {
  title: string;
  description?: string;
  example?: string; // the example's name
  edited: boolean;
}

/** The compare table: every policy on every order source for one graph + capacities + cost. */
export interface CompareState {
  key: string; // compareKey() of what is being (or was) computed
  status: 'running' | 'done' | 'error' | 'cancelled';
  rows: CompareRow[];
  rowsKey: string; // compareKey() of what the rows are for ('' when there are none)
  message?: string;
}

/** The trade-off front between data moved and cycles for one graph and settings (but objective). */
export interface FrontierState {
  key: string; // frontierKey() of what is being (or was) computed
  /** stopped: cancelled after some runs, their front kept */
  status: 'running' | 'done' | 'error' | 'stopped';
  /** the front of the runs made so far (all of them once done) */
  points: FrontierPoint[];
  runs: { made: number; of: number } | null;
  message?: string;
}

/** Predict mode: the stepper stops at each spill and asks which buffer to write out first. */
export interface PredictState {
  on: boolean;
  /** per spill (index into view.spills): the buffer the learner picked, -1 when skipped */
  picks: Record<number, number>;
  /** why the last pick was not taken */
  note: string | null;
}

/** The lesson on screen: its id, and the learner's answer once given. */
export interface LessonState {
  id: string;
  answer: string | null;
  /** the docVersion the lesson loaded: a later edit means the question no longer applies */
  docVersion: number;
}

/** A question a link asks (a lecturer's, link format v7), asked like a lesson's: the page keeps
 * its answer hidden until the learner gives the one the plan on screen gives. */
export interface AskedState {
  question: CaseQuestion;
  /** the docVersion the link loaded: a later edit or another graph takes the question away */
  docVersion: number;
  /** the last wrong answer given (the question stays open), or null */
  wrong: number | null;
  right: boolean;
}

/** Two rows of the compare table side by side: their plans, and one cursor over both (the
 * graph node both plans run there). */
export interface DiffState {
  rows: [CompareRow, CompareRow];
  key: string; // compareKey() of the graph and settings the plans are for
  status: 'running' | 'done' | 'error';
  views: [PlanView, PlanView] | null;
  message?: string;
  /** the graph node at the cursor (both charts show where it runs), -1 before any */
  node: number;
}

/** A run's order search while it goes on (anytime planning, lib/anytime.ts). */
export interface SearchRun {
  /** The effort the settings ask for (null: the engine's default). */
  target: number | null;
  /** The call under way: its effort (null: the engine's default) and its latest report. */
  effort: number | null;
  progress: SearchProgress;
}

/** The plan on screen is one of its run's smaller efforts: the best so far while the search goes
 * on, or the plan kept when it was stopped. Null when it is the run's own plan. */
/** A plan on screen before the run's answer: a smaller effort's (`effort`), or under the objective
 * cycles the run's best so far (`step`: where the run was). */
export interface EarlyPlan {
  effort: number | null;
  step: RunStep | null;
  /** The effort the run asked for (null: the engine's default). */
  target: number | null;
  stopped: boolean;
}

/** What if: one spill of the policy's plan taken differently (app/whatif.ts). The forced plan,
 * once made, is the view on screen until the learner goes back to the policy's. */
export interface WhatIfState {
  inputStep: number; // the input step before which the forced buffer is written out
  step: number; // the decision's step in the policy's plan
  buffer: number; // the learner's choice
  policyBuffer: number; // the policy's choice there
  policy: string; // the policy that planned around the forced spill
  note: string | null; // why that policy and not the one in the settings
  status: 'running' | 'done' | 'error' | 'refused';
  message?: string; // the error, or why the spill cannot be forced
  policyView: PlanView;
  /** predict mode's answers on the policy's plan, kept for the way back */
  picks: PredictState['picks'];
  forced: PlanView | null;
  /** the least data any plan of this order moves: residency's plan, else the lower bound */
  optimum: { bytes: number; source: 'residency' | 'bound' } | null;
}

export interface State {
  engine: EngineInfo | null;
  engineFailed: string | null;
  settings: Settings;
  fieldErrors: FieldError[];
  docVersion: number; // bumps on every change of the editor's text
  graphInfo: GraphInfo | null;
  source: Source | null;
  running: { startedAt: number; phase: string } | null;
  search: SearchRun | null;
  view: PlanView | null;
  earlyPlan: EarlyPlan | null;
  viewKey: string; // runKey() of what the view is for
  totalMs: number; // Run pressed -> result on screen
  error: ErrorInfo | null;
  selectedBuf: number | null;
  selectedSpill: number | null;
  /** the step of the new order the step panel shows and the chart marks */
  cursor: number;
  /** where the next plan for the editor's graph and settings opens (a lesson, a link) */
  pendingView: { step: number; spill: number | null } | null;
  playing: boolean;
  predict: PredictState;
  lesson: LessonState | null;
  lessonsDone: string[];
  asked: AskedState | null;
  /** rows of the compare table picked for the diff ("policy|order"), at most two */
  diffPicks: string[];
  diff: DiffState | null;
  whatIf: WhatIfState | null;
  notice: Notice | null;
  theme: 'light' | 'dark';
  compare: CompareState | null;
  frontier: FrontierState | null;
}

export const rowKey = (r: CompareRow) => `${r.policy}|${r.order}`;
export const runKey = (s: State) => `${s.docVersion}|${settingsKeys(s.settings).run}`;
export const compareKey = (s: State) => `${s.docVersion}|${settingsKeys(s.settings).compare}`;
export const frontierKey = (s: State) => `${s.docVersion}|${settingsKeys(s.settings).frontier}`;

/** Why the plan on screen no longer matches the editor and settings, or null when it does. */
export function resultStale(s: State): string | null {
  if (!s.view) return null;
  if (s.running && !(s.earlyPlan && s.viewKey === runKey(s)))
    return 'A new run is on its way; this is the previous result.';
  if (s.fieldErrors.length) return 'A setting is invalid; this is the last result.';
  if (s.viewKey === runKey(s)) return null;
  if (!s.viewKey.startsWith(`${s.docVersion}|`)) return 'The graph changed since this result; Run to update it.';
  return 'The settings changed since this result; Run to update it.';
}

/** True when the compare rows are not for the editor's graph and the current capacities/cost. */
export function compareStale(s: State): boolean {
  const c = s.compare;
  return !!c && c.rows.length > 0 && (c.status === 'running' || c.rowsKey !== compareKey(s) || !!s.fieldErrors.length);
}

type Listener = (s: State, prev: State) => void;

function createStore(initial: State) {
  let state = initial;
  const listeners = new Set<Listener>();
  return {
    get: () => state,
    set(patch: Partial<State>) {
      const prev = state;
      state = { ...state, ...patch };
      for (const l of listeners) l(state, prev);
    },
    setSettings(patch: Partial<Settings>) {
      this.set({ settings: { ...state.settings, ...patch } });
    },
    subscribe(l: Listener) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

const prefersDark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

export const store = createStore({
  engine: null,
  engineFailed: null,
  settings: defaultSettings(),
  fieldErrors: [],
  docVersion: 0,
  graphInfo: null,
  source: null,
  running: null,
  search: null,
  view: null,
  earlyPlan: null,
  viewKey: '',
  totalMs: 0,
  error: null,
  selectedBuf: null,
  selectedSpill: null,
  cursor: 0,
  pendingView: null,
  playing: false,
  predict: { on: false, picks: {}, note: null },
  lesson: null,
  lessonsDone: [],
  asked: null,
  diffPicks: [],
  diff: null,
  whatIf: null,
  notice: null,
  theme: prefersDark ? 'dark' : 'light',
  compare: null,
  frontier: null,
});
export type Store = typeof store;

/** Sets (or, with null, clears) the error of one settings field. */
export function setFieldError(field: string, message: string | null, memory?: string) {
  const all = store.get().fieldErrors;
  const old = all.find((e) => e.field === field);
  if (old?.message === (message ?? undefined) && old?.memory === memory) return;
  if (!old && !message) return;
  const rest = all.filter((e) => e.field !== field);
  store.set({ fieldErrors: message ? [...rest, { field, message, memory }] : rest });
}

export function notify(message: string, level: Notice['level'] = 'info', action?: Notice['action']) {
  store.set({ notice: { message, level, action } });
}

/** A notice that goes away by itself after a while (unless another replaced it). */
export function notifyBriefly(message: string, ms = 2500) {
  notify(message, 'info');
  setTimeout(() => {
    if (store.get().notice?.message === message) store.set({ notice: null });
  }, ms);
}
