// The trade-off front's picture (components/frontier.ts): where each point sits in a plot of data
// moved (x) against cycles (y), and what each point is called. Pure, so that it is tested alone.
import type { FrontierPoint, ObjectiveReport } from '../engine/types';
import { fmtInt } from './format';

/** Whether a larger margin could change a cycles plan, in the CLI's words: only when this one
 * refused a plan for its data (the front leaves out the margins that could not). */
export function marginNote(o: Pick<ObjectiveReport, 'marginLimited' | 'bytesPlan'>): string {
  if (o.bytesPlan.extraBytes === 0)
    return 'the bytes plan moves no data, so no margin allows any: each makes this plan';
  return o.marginLimited
    ? 'the margin refused plans moving more data: a larger one may make another plan'
    : 'the margin refused no plan: a larger one makes this same plan';
}

/** The plot's frame: its size and the room kept for the axes' labels. */
export const FRONT_PLOT = { width: 360, height: 200, left: 64, right: 14, top: 12, bottom: 34 } as const;

/** "the bytes plan" or "cycles, margin 10%": the run that made a point. */
export const pointRun = (p: FrontierPoint) =>
  p.objective === 'bytes' ? 'the bytes plan' : `objective cycles, margin ${p.marginPercent}%`;

/** "13,568 B moved, 87,547 cycles (objective cycles, margin 10%)" */
export const pointLabel = (p: FrontierPoint) =>
  `${fmtInt(p.extraBytes)} B moved, ${fmtInt(p.totalCycles)} cycles (${pointRun(p)})`;

/** A value's position along [from, to] pixels for the range [lo, hi]: the middle when the range
 * is one value. */
function scale(v: number, lo: number, hi: number, from: number, to: number): number {
  return hi === lo ? (from + to) / 2 : from + ((v - lo) / (hi - lo)) * (to - from);
}

/** Each point's pixel position (x: data moved, rising to the right; y: cycles, rising upward),
 * and the ranges the axes label. */
export function plotPoints(points: FrontierPoint[]) {
  const f = FRONT_PLOT;
  const xs = points.map((p) => p.extraBytes);
  const ys = points.map((p) => p.totalCycles);
  const x = { lo: Math.min(...xs), hi: Math.max(...xs) };
  const y = { lo: Math.min(...ys), hi: Math.max(...ys) };
  const at = points.map((p) => ({
    x: scale(p.extraBytes, x.lo, x.hi, f.left + 12, f.width - f.right - 12),
    y: scale(p.totalCycles, y.lo, y.hi, f.height - f.bottom - 12, f.top + 12),
  }));
  return { at, x, y };
}

/** The point the plan on screen is (the same run and figures), or -1. */
export function currentPoint(
  points: FrontierPoint[],
  objective: { name: string; margin: number } | undefined,
  metrics: { extraBytes: number; totalCycles: number },
): number {
  return points.findIndex(
    (p) =>
      (p.objective === 'bytes' ? !objective : objective?.margin === p.marginPercent) &&
      p.extraBytes === metrics.extraBytes &&
      p.totalCycles === metrics.totalCycles,
  );
}
