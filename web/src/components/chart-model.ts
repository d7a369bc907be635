// The memory chart's view model: its lanes (one per memory type, from a plan's stretches), the
// mapping from bytes to pixels, what lies under a point, and the words that describe it. Shared
// by the renderer (chart-draw.ts) and the input handling (chart.ts).
import type { State, Store } from '../store';
import type { PlanView, StretchTable } from '../engine/types';
import { fmtBytes, fmtInt } from '../lib/format';
import { memoryTypes } from '../lib/steps';
import type { PlotColors, PlotDom, PlotX } from '../lib/plot';

export const GUTTER = 76;
export const RIGHT = 10;
export const LANE_H = 84;
export const LANE_GAP = 10;
export const AXIS_H = 22;
/** Visible stretches in a lane above which the lane is painted as pixels. */
export const PIXELS_ABOVE = 400;

export interface Lane {
  type: string;
  capacity: number;
  used: number;
  st: StretchTable;
  top: number;
  height: number;
  spills: number;
}
export interface Hit {
  lane: Lane;
  i: number;
}

/** Where a chart's plan, cursor and selection live. */
export interface ChartSource {
  /** test id prefix: `${id}` on the root, `${id}-canvas`, `${id}-tip`, ... */
  id: string;
  view(s: State): PlanView | null;
  cursor(s: State): number | null;
  setCursor(step: number): void;
  selectedBuf(s: State): number | null;
  select(buf: number | null): void;
  /** [ and ] walk through the spills (the main chart) */
  spills?: { selected(s: State): number | null; select(k: number | null): void };
  /** a buffer clicked while a question waits for its answer: true when taken as the answer */
  pick?(buf: number): boolean;
  /** the first step kept hidden while a question is open (Infinity: none is) */
  hiddenFrom?(s: State): number;
}

/** A mounted chart: its parts on the page and what it shows. */
export interface Chart {
  root: HTMLElement;
  store: Store;
  src: ChartSource;
  dom: PlotDom;
  view: PlanView | null;
  lanes: Lane[];
  steps: number;
  /** the visible steps */
  x: PlotX;
  cssW: number;
  cssH: number;
  colors: PlotColors;
  /** the animation frame a draw waits for, or 0 */
  frame: number;
  tipFor: { buf: number; pinned: boolean } | null;
  /** y spans 0..capacity, or 0..the highest byte used ("fit"), for capacities far above the data */
  fitY: boolean;
  /** the hatching of spilled places, by theme */
  patterns: Record<string, CanvasPattern>;
}

/** The lanes of a plan: the memory types in the settings' order (L1, UB, L0A, ...), then any
 * other type the result has. */
export function lanesOf(v: PlanView, preferred: string[]): Lane[] {
  const caps = v.meta.capacities;
  return memoryTypes(v, preferred).map((type, i) => {
    const st = v.stretches[type];
    let top = 1;
    let spills = 0;
    for (let j = 0; j < st.count; j++) {
      top = Math.max(top, st.offset[j] + st.size[j]);
      spills += st.spilled[j];
    }
    return {
      type,
      capacity: caps[type] ?? top,
      used: top,
      st,
      top: i * (LANE_H + LANE_GAP) + 8,
      height: LANE_H,
      spills,
    };
  });
}

/** The canvas's accessible name. */
export function chartLabel(c: Chart): string {
  return c.lanes.length
    ? `Memory layout over ${fmtInt(c.steps)} steps of the new order: ${c.lanes.map((l) => l.type).join(', ')}; ${fmtInt(c.view?.spills.length ?? 0)} spills`
    : 'Memory layout: no result yet';
}

/** The canvas's description: each lane, then the keys. */
export function chartDescription(c: Chart): string {
  return (
    c.lanes
      .map(
        (l) =>
          `${l.type}: capacity ${fmtBytes(l.capacity)}, highest byte used ${fmtBytes(l.used)}, ${fmtInt(l.st.count - 2 * l.spills)} buffers, ${fmtInt(l.spills)} spills.`,
      )
      .join(' ') +
    ` Keys: left and right arrows move the step cursor, Home and End go to the first and last step, shift with the arrows pans, plus and minus zoom, 0 shows all steps${c.src.spills ? ', ] and [ go to the next and previous spill' : ''}.`
  );
}

export const yMax = (c: Chart, lane: Lane) => (c.fitY ? Math.max(1, lane.used) : lane.capacity);
/** The y pixel of byte offset `off` in `lane`. */
export const sy = (c: Chart, lane: Lane, off: number) => lane.top + lane.height - (off / yMax(c, lane)) * lane.height;

/** The stretch under (mx, my), within `tolPx` pixels; a resident one before a spilled one. */
/** The first step the chart keeps hidden (Infinity when it shows every step). */
export const hiddenAt = (c: Chart) => c.src.hiddenFrom?.(c.store.get()) ?? Number.POSITIVE_INFINITY;

export function hit(c: Chart, mx: number, my: number, tolPx = 2): Hit | null {
  const { x } = c;
  const lane = c.lanes.find((l) => my >= l.top && my <= l.top + l.height);
  if (!lane || mx < GUTTER || mx > GUTTER + x.width) return null;
  const step = x.at(mx);
  const hidden = hiddenAt(c); // (what lies from there on would answer the open question)
  if (step >= hidden) return null;
  const tol = x.perPx() * tolPx;
  const offTol = (tolPx / lane.height) * yMax(c, lane);
  const off = ((lane.top + lane.height - my) / lane.height) * yMax(c, lane);
  const st = lane.st;
  let best = -1;
  for (let i = st.count - 1; i >= 0; i--) {
    if (
      st.start[i] < hidden &&
      step >= st.start[i] - tol &&
      step < st.end[i] + tol &&
      off >= st.offset[i] - offTol &&
      off < st.offset[i] + st.size[i] + offTol
    ) {
      if (!st.spilled[i]) return { lane, i };
      if (best < 0) best = i;
    }
  }
  return best >= 0 ? { lane, i: best } : null;
}
