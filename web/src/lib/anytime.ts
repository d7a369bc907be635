// Anytime planning for the page's runs. The engine's planWithProgress() blocks the worker while it
// runs, so a Cancel cannot reach a call under way (it terminates the worker); plans of smaller
// efforts made first are what Cancel keeps. A run climbs — it plans with increasing efforts,
// FIRST_EFFORT, ×EFFORT_FACTOR while below the effort asked for, then that effort, and hands over
// each plan as it is made — in two cases:
// - an effort chosen above the second rung (e.g. "thorough"): from the start, whatever the
//   machine (the rungs cost about a seventh more work than the asked call alone);
// - the default effort, when its call's search is still going after LONG_SEARCH_MS and has by
//   then taken twice as long as everything before its first report (reading the graph, the
//   search's constructions: what every rung pays again): the call is stopped (its plan is
//   dropped) and the run climbs to the effort the engine had chosen.
// Any other run on a graph of FIRST_PLAN_CHARS or more whose effort is above FIRST_EFFORT makes
// the first rung before the call asked for: a first plan on screen within a second on the
// contest cases, for a fraction of the call's work. Never under the objective cycles (no first
// rung, no climb): its techniques, not the search, are most of a call's work, so each rung would
// cost nearly as much as the call and its progress would start again with each; the call reports
// its stages instead (SearchProgress.stage), one progress line from start to end. A first rung whose call made no search report searched
// nothing: the effort changed nothing, so its plan is the answer.
// Under the objective cycles the call hands over its own best plans so far (the bytes plan after
// the first order search, then the best plan as it improves, spaced out in time): those are
// what Cancel keeps there.
// Every call is deterministic (`spillway plan --effort N` gives the same bytes) and none is worse
// than the one before, so Cancel keeps the last plan handed over. Wall time only decides whether
// a default run climbs, never what a plan is.
import type { RunOptions, RunStep, SearchProgress } from '../engine/types';

/** The first rung: the engine's smallest default effort except on huge graphs (where one
 * evaluation is too costly for 50; a rung above the default is then not shown). */
export const FIRST_EFFORT = 50;
/** Each rung costs the search's constructions and a plan again: a factor of 8 keeps that small. */
export const EFFORT_FACTOR = 8;
/** A search still going after this long is worth plans of smaller efforts first. Climbing costs
 * the machine more work in all (every rung pays the constructions and a plan again), so a search
 * that a slow or loaded machine stretches to a few seconds (Matmul_Case0: 0.4 s natively, 2 s
 * on a loaded 2-core machine) runs on instead. */
export const LONG_SEARCH_MS = 5000;
/** ... when it has taken this many times as long as what came before its first report. */
export const SEARCH_OVER_SETUP = 2;

/** Graphs shorter than this (in characters; ~800 nodes in the contest files' layout) plan with
 * the search in well under a second: a first plan there would only cost its work and flash by. */
export const FIRST_PLAN_CHARS = 100_000;

/** The bindings' planWithProgress(graphJson, optionsJson, onProgress). */
export type PlanWithProgress = (
  graph: string,
  options: string,
  onProgress: (progressJson: string, resultJson?: string) => boolean,
) => string;

export interface AnytimeHooks {
  /** The search of the call under way, at `effort` evaluations (null: the engine's default,
   * before its number is known). */
  progress(p: SearchProgress, effort: number | null): void;
  /** The result text of a finished call at `effort`, smaller than the effort asked for. */
  plan(resultText: string, effort: number): void;
  /** Objective cycles: the result text of the call's best plan so far, at `step` of the run. */
  bestSoFar(resultText: string, step: RunStep): void;
}

const isError = (text: string) => text.startsWith('{"error"');

/**
 * The result text of plan(graph, options) — the same bytes — after handing the plans of smaller
 * efforts to `hooks.plan` when its search runs long. `now` is the clock (milliseconds).
 */
export function planAnytime(
  plan: PlanWithProgress,
  graph: string,
  options: RunOptions,
  hooks: AnytimeHooks,
  now: () => number = () => performance.now(),
): string {
  const call = (effort: number | undefined, onReport: (p: SearchProgress) => boolean) =>
    plan(graph, JSON.stringify(effort === undefined ? options : { ...options, effort }), (json, result) => {
      const p = JSON.parse(json) as SearchProgress;
      if (result === undefined) return onReport(p);
      if (!isError(result)) hooks.bestSoFar(result, { stage: p.stage ?? null, stages: p.stages ?? null });
      return true; // a plan comes with the last report again: it is no new report
    });
  const target = options.effort;
  const report = (effort: number | null) => (p: SearchProgress) => (hooks.progress(p, effort), true);

  /** The plans of the rungs from `from` below `goal`, handed over, then the call asked for. */
  const climb = (goal: number, from: number): string => {
    for (let e = from; e < goal; e *= EFFORT_FACTOR) {
      const text = call(e, report(e));
      if (isError(text)) return text;
      hooks.plan(text, e);
    }
    return call(undefined, report(target ?? null));
  };
  const cycles = options.objective === 'cycles';
  if (!cycles && target !== undefined && target > FIRST_EFFORT * EFFORT_FACTOR) return climb(target, FIRST_EFFORT);
  const canClimb = !cycles && (target === undefined || target > FIRST_EFFORT);

  // The first rung, which also tells how many evaluations the constructions take.
  let firstBudget = -1;
  let first: string | null = null;
  const firstRung = (): string => {
    first = call(FIRST_EFFORT, (p) => {
      firstBudget = p.budget;
      hooks.progress(p, FIRST_EFFORT);
      return true;
    });
    return first;
  };
  if (canClimb && graph.length >= FIRST_PLAN_CHARS) {
    const text = firstRung();
    if (isError(text) || firstBudget < 0) return text; // no search: the plan asked for
    hooks.plan(text, FIRST_EFFORT);
  }

  // The call asked for, stopped at a report after LONG_SEARCH_MS (unless nothing smaller exists).
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
    if (canClimb && t - t0 > LONG_SEARCH_MS && t - tFirst > SEARCH_OVER_SETUP * (tFirst - t0))
      return !(stopAsked = true);
    hooks.progress(p, target ?? null);
    return true;
  });
  // a stop asked at the last report (the search's end) stops nothing: that plan is complete
  if (!stopAsked || reportsAfterStop === 0 || isError(asked)) return asked;

  // Climb, from the first rung unless it was made before the call.
  const handed = first !== null;
  const text = first ?? firstRung();
  if (isError(text)) return text;
  const goal = target ?? askedBudget - (firstBudget - FIRST_EFFORT);
  if (goal <= FIRST_EFFORT) return call(undefined, report(target ?? null)); // no smaller rung
  if (!handed) hooks.plan(text, FIRST_EFFORT);
  return climb(goal, FIRST_EFFORT * EFFORT_FACTOR);
}
