// What if: at a spill decision the learner writes out another buffer than the policy did, and the
// engine plans again with that one spill forced (options `force: {step, buffer}`, the policy
// planning everything else). Which policy takes the forced spill, the options of the forced plan,
// and its cost beside the policy's and the optimum, in words. Pure functions.
import type { RunOptions } from '../engine/types';
import { fmtBytes } from './format';

/** The policy whose plan for the same order is the optimum the forced plan is set against. */
export const OPTIMUM_POLICY = 'residency';

/** The policy that re-plans with the forced spill: the one chosen in the settings (`chosen`, ''
 * for the engine's default `defaultPolicy`) if it can be forced (`forceable`: the registry's
 * policies that take a forced spill), else the one that made the plan on screen (`planPolicy`:
 * best names its winner) if that can; else why neither can. */
export function forcePolicy(
  chosen: string,
  planPolicy: string,
  defaultPolicy: string,
  forceable: readonly string[],
): { policy: string; note: string | null } | { why: string } {
  const asked = chosen || defaultPolicy;
  if (forceable.includes(asked)) return { policy: asked, note: null };
  if (forceable.includes(planPolicy))
    return {
      policy: planPolicy,
      note: `${asked} cannot take a forced spill; ${planPolicy}, which made this plan, does.`,
    };
  return {
    why: `${planPolicy} decides each spill as it goes and cannot take a forced one. Choose ${forceable.join(', ')} as the policy to try your choice.`,
  };
}

/** The options of the forced plan: the run's, on the plan's own input order (so that the step
 * names the same node), with `policy` and the spill of `buffer` before input step `step`. */
export function forcedOptions(
  run: RunOptions,
  inputOrder: ArrayLike<number>,
  policy: string,
  step: number,
  buffer: number,
): RunOptions {
  const { effort: _effort, ...rest } = run; // the order is given: no search
  return { ...rest, order: Array.from(inputOrder), policy, force: { step, buffer } };
}

/** The same order planned by the optimum's policy (no force). */
export function optimumOptions(run: RunOptions, inputOrder: ArrayLike<number>): RunOptions {
  const { effort: _effort, force: _force, ...rest } = run;
  return { ...rest, order: Array.from(inputOrder), policy: OPTIMUM_POLICY };
}

/** "Your choice moves 96 B: 32 B more than lru's 64 B; the optimum for this order moves 64 B." */
export function costWords(mine: number, policy: string, theirs: number, optimum: number | null): string {
  const diff = mine - theirs;
  const than =
    diff === 0
      ? `as much as ${policy}'s plan`
      : `${fmtBytes(Math.abs(diff))} ${diff > 0 ? 'more' : 'less'} than ${policy}'s ${fmtBytes(theirs)}`;
  const best = optimum === null ? '' : `; the optimum for this order moves ${fmtBytes(optimum)}`;
  return `Your choice moves ${fmtBytes(mine)} in all: ${than}${best}.`;
}
