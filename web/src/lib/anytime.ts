// Anytime planning for the page's runs. The engine's planWithProgress() blocks the worker while it
// runs, so a Cancel cannot reach a call under way (it terminates the worker). A run is first the
// one call its settings ask for; when that call's search is still going after LONG_SEARCH_MS, and
// has by then taken twice as long as everything before its first report (reading the graph, the
// search's constructions: what every rung pays again), it is stopped (its plan, not one the CLI
// makes, is dropped) and the worker climbs instead: it plans
// with increasing efforts — FIRST_EFFORT, ×EFFORT_FACTOR while below the effort asked for, then
// that effort — and hands over each plan as it is made. Every call is deterministic (`spillway
// plan --effort N` gives the same bytes) and none is worse than the one before, so Cancel keeps
// the last plan handed over. Wall time only decides whether to climb, never what a plan is.
import type { RunOptions, SearchProgress } from '../engine/types';

/** The first rung: the engine's smallest default effort except on huge graphs (where one
 * evaluation is too costly for 50; a rung above the default is then not shown). */
export const FIRST_EFFORT = 50;
/** Each rung costs the search's constructions and a plan again: a factor of 8 keeps that small. */
export const EFFORT_FACTOR = 8;
/** A search still going after this long is worth plans of smaller efforts first. */
export const LONG_SEARCH_MS = 2000;
/** ... when it has taken this many times as long as what came before its first report. */
export const SEARCH_OVER_SETUP = 2;

/** The bindings' planWithProgress(graphJson, optionsJson, onProgress). */
export type PlanWithProgress = (graph: string, options: string, onProgress: (progressJson: string) => boolean) => string;

export interface AnytimeHooks {
  /** The search of the call under way, at `effort` evaluations (null: the engine's default,
   * before its number is known). */
  progress(p: SearchProgress, effort: number | null): void;
  /** The result text of a finished call at `effort`, smaller than the effort asked for. */
  plan(resultText: string, effort: number): void;
}

const isError = (text: string) => text.startsWith('{"error"');

/**
 * The result text of plan(graph, options) — the same bytes — after handing the plans of smaller
 * efforts to `hooks.plan` when its search runs long. `now` is the clock (milliseconds).
 */
export function planAnytime(plan: PlanWithProgress, graph: string, options: RunOptions, hooks: AnytimeHooks, now: () => number = () => performance.now()): string {
  const call = (effort: number | undefined, onReport: (p: SearchProgress) => boolean) =>
    plan(graph, JSON.stringify(effort === undefined ? options : { ...options, effort }), (json) => onReport(JSON.parse(json) as SearchProgress));
  const target = options.effort;
  const report = (effort: number | null) => (p: SearchProgress) => (hooks.progress(p, effort), true);

  // The call asked for, stopped at a report after LONG_SEARCH_MS (unless nothing smaller exists).
  const canClimb = target === undefined || target > FIRST_EFFORT;
  const t0 = now();
  let tFirst = -1; // when the first report came
  let askedBudget = -1; // its effort plus the constructions' evaluations
  let stopAsked = false;
  let reportsAfterStop = 0;
  const asked = call(undefined, (p) => {
    if (stopAsked) return (reportsAfterStop++, false);
    askedBudget = p.budget;
    const t = now();
    if (tFirst < 0) tFirst = t;
    if (canClimb && t - t0 > LONG_SEARCH_MS && t - tFirst > SEARCH_OVER_SETUP * (tFirst - t0)) return !(stopAsked = true);
    hooks.progress(p, target ?? null);
    return true;
  });
  // a stop asked at the last report (the search's end) stops nothing: that plan is complete
  if (!stopAsked || reportsAfterStop === 0 || isError(asked)) return asked;

  // Climb. The first rung also tells how many evaluations the constructions take.
  let firstBudget = -1;
  let text = call(FIRST_EFFORT, (p) => {
    firstBudget = p.budget;
    hooks.progress(p, FIRST_EFFORT);
    return true;
  });
  if (isError(text)) return text;
  const goal = target ?? askedBudget - (firstBudget - FIRST_EFFORT);
  if (goal <= FIRST_EFFORT) return call(undefined, report(target ?? null)); // no smaller rung
  hooks.plan(text, FIRST_EFFORT);
  for (let e = FIRST_EFFORT * EFFORT_FACTOR; e < goal; e *= EFFORT_FACTOR) {
    text = call(e, report(e));
    if (isError(text)) return text;
    hooks.plan(text, e);
  }
  return call(undefined, report(target ?? null));
}
