// The progress line of a run (app/runner.ts): the order search under way, its stage under the
// objective cycles, or the phase of a run without a search.
import type { RunStep } from '../engine/types';
import type { SearchRun } from '../store';
import { fmtInt } from './format';

/** "Searching orders at effort 400, on the way to 20,000: 312 of 1,050 evaluations, best so far
 * 12,416 B", or under the objective cycles the stage of the run ("Objective cycles, step 5 of 5:
 * finish sooner: 12 starts improved, best so far 87,547 cycles"), or the phase of a run without a
 * search. */
export function progressText(search: SearchRun | null, phase: string): string {
  if (!search) return `${phase[0].toUpperCase()}${phase.slice(1)}…`;
  const { effort, target, progress: p } = search;
  if (p.stages) {
    const step = `Objective cycles, step ${p.stage} of ${p.stages}: ${p.stageName}`;
    return p.stage === p.stages
      ? `${step}: ${fmtInt(p.evaluations)} ${p.evaluations === 1 ? 'start' : 'starts'} improved, best so far ${fmtInt(p.best)} cycles`
      : `${step}: ${fmtInt(p.evaluations)} of ${fmtInt(p.budget)} evaluations, least data so far ${fmtInt(p.best)} B`;
  }
  const at =
    effort === null
      ? 'at the default effort'
      : `at effort ${fmtInt(effort)}${effort === target ? '' : `, on the way to ${target === null ? 'the default' : fmtInt(target)}`}`;
  return `Searching orders ${at}: ${fmtInt(p.evaluations)} of ${fmtInt(p.budget)} evaluations, best so far ${fmtInt(p.best)} B`;
}

/** " at step 2 of 5" of a cycles run's plan so far ("" when its step is not known). */
export function stepText(step: RunStep | null): string {
  return step?.stage && step.stages ? ` at step ${step.stage} of ${step.stages}` : '';
}
