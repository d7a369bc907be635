// The pipe timeline's view model: its lanes (one per pipe, from a plan's timeline), each node's
// colour and wait, the steps on screen, what lies under a point, and the words that describe a
// lane. Shared by the renderer (timeline-draw.ts) and the input handling (timeline.ts).
import type { State, Store } from '../store';
import { WAIT_CAUSES, WAIT_NONE, type PlanView } from '../engine/types';
import { cssRgb, opRgb } from '../lib/color';
import { fmtInt } from '../lib/format';
import type { PlotColors, PlotDom, PlotX } from '../lib/plot';
import { CAUSE_NAMES } from '../lib/waits';
import { TIMELINE_SVG_COLORS, type TimelineLaneAt } from '../lib/timeline-svg';

export const GUTTER = 76;
export const RIGHT = 10;
export const BAR_H = 18;
export const WAIT_GAP = 2;
export const WAIT_H = 7;
export const LANE_H = BAR_H + WAIT_GAP + WAIT_H;
export const LANE_GAP = 12;
export const TOP = 9;
export const AXIS_H = 22;
/** Visible nodes in a lane above which the lane is painted as pixels. */
export const PIXELS_ABOVE = 400;
/** The lane of the nodes without a pipe. */
export const NO_PIPE = 'ALLOC/FREE';

export interface Lane {
  name: string; // the pipe, or NO_PIPE
  index: number; // in the plan's timeline lanes
  pipe: boolean;
  steps: Int32Array; // in order
  top: number;
  busy: number; // cycles the pipe runs a node
  waits: number[]; // per cause (as coloured: the root cause): nodes that waited
  lost: number[]; // per cause: cycles
}

export interface TimelineHandlers {
  goTo(step: number): void;
  /** the first step kept hidden while a question is open (Infinity: none is) */
  hiddenFrom(s: State): number;
}

/** A mounted timeline: its parts on the page and what it shows. */
export interface Timeline {
  root: HTMLElement;
  store: Store;
  on: TimelineHandlers;
  dom: PlotDom;
  view: PlanView | null;
  lanes: Lane[];
  /** the visible cycles */
  x: PlotX;
  cssW: number;
  cssH: number;
  colors: PlotColors;
  /** the animation frame a draw waits for, or 0 */
  frame: number;
  /** the view on screen has been painted once */
  painted: boolean;
  tipStep: { step: number; pinned: boolean } | null;
  palette: Palette | null;
}

/** The lanes of a plan up to step `last` (the steps after it an open question hides): those that
 * ran a node by then, each with those nodes, its busy cycles and waits counted. */
export function lanesOf(v: PlanView, last = Number.POSITIVE_INFINITY): Lane[] {
  const t = v.timeline;
  const lanes: Lane[] = [];
  t.lanes.forEach((name, l) => {
    const all = t.laneSteps.subarray(t.laneStart[l], t.laneStart[l + 1]);
    const shown = all.findIndex((s) => s > last);
    const steps = shown < 0 ? all : all.subarray(0, shown);
    if (!steps.length) return;
    const top = TOP + lanes.length * (LANE_H + LANE_GAP);
    lanes.push({
      name: name || NO_PIPE,
      index: l,
      pipe: name !== '',
      steps,
      top,
      busy: 0,
      waits: [0, 0, 0, 0],
      lost: [0, 0, 0, 0],
    });
  });
  for (const lane of lanes) {
    for (const s of lane.steps) {
      lane.busy += v.end[s] - v.start[s];
      if (t.cause[s] === WAIT_NONE) continue;
      lane.waits[t.root[s]]++;
      lane.lost[t.root[s]] += t.cycles[s];
    }
  }
  return lanes;
}

/** The lanes of a plan's timeline up to step `last` for an export (lib/timeline-svg.ts): the
 * lanes that ran a node by then, each with its nodes, in the export's colours. */
export function lanesUpTo(v: PlanView, last: number): TimelineLaneAt[] {
  const p = makePalette(v, false, TIMELINE_SVG_COLORS);
  const strings = v.nodes.strings;
  const nodeAt = (s: number) => {
    const id = v.order[s];
    const cause = v.timeline.root[s];
    return {
      step: s,
      node: id,
      op: strings[v.nodes.op[id]],
      start: v.start[s],
      end: v.end[s],
      fill: nodeRgb(v, p, s),
      spill: nodeSpillKind(v, p, s),
      wait: hasWait(v, s) ? { from: waitFrom(v, s), cause, name: CAUSE_NAMES[WAIT_CAUSES[cause]] } : null,
    };
  };
  return lanesOf(v, last).map((lane) => ({ name: lane.name, pipe: lane.pipe, nodes: Array.from(lane.steps, nodeAt) }));
}

/** What a lane holds and what its nodes waited for, in words. */
export function laneText(l: Lane, totalCycles: number): string {
  const waits = WAIT_CAUSES.map((c, k) => [c, l.waits[k], l.lost[k]] as const).filter(([, n]) => n > 0);
  // (a node without a pipe has no pipe to keep busy: its wait counts from cycle 0, no loss to sum)
  const said = waits.length
    ? waits
        .map(([c, n, lost]) => `${fmtInt(n)} waited for ${CAUSE_NAMES[c]}${l.pipe ? ` (${fmtInt(lost)} cycles)` : ''}`)
        .join(', ')
    : 'none waited';
  return l.pipe
    ? `${l.name}: ${fmtInt(l.steps.length)} nodes, busy ${((100 * l.busy) / Math.max(1, totalCycles)).toFixed(1)}% of the ${fmtInt(totalCycles)} cycles; ${said}.`
    : `${NO_PIPE} (no pipe, no cycles): ${fmtInt(l.steps.length)} nodes; ${said}.`;
}

/** The lane of the node at step `s`; none for a step an open question hides on a lane it hides whole. */
export const laneOfStep = (t: Timeline, s: number) => t.lanes.find((l) => l.index === t.view!.timeline.lane[s]);
/** where the node could have started: its start less the cycles its wait cost */
export const waitFrom = (v: PlanView, s: number) => v.start[s] - v.timeline.cycles[s];
export const hasWait = (v: PlanView, s: number) => v.timeline.cause[s] !== WAIT_NONE && v.timeline.cycles[s] > 0;

/** The colours a palette is made of (the page's theme, or an export's light ones). */
export type PaletteColors = Pick<PlotColors, 'text' | 'waitEdge' | 'waitPipe' | 'waitAddress' | 'spillOut' | 'spillIn'>;

/** The colours of a plan's nodes as 0xRRGGBB, worked out once per plan and theme (not per bar:
 * a large plan has tens of thousands): per operation (by its index in the node table's
 * strings), per wait cause (WAIT_CAUSES order; none in the muted text colour), spill nodes. */
export function makePalette(v: PlanView, dark: boolean, colors: PaletteColors) {
  const strings = v.nodes.strings;
  return {
    op: Int32Array.from(strings, (name) => opRgb(name, dark)),
    cause: [colors.text, colors.waitEdge, colors.waitPipe, colors.waitAddress].map(cssRgb),
    spillOutOp: strings.indexOf('SPILL_OUT'),
    spillInOp: strings.indexOf('SPILL_IN'),
    spillOut: cssRgb(colors.spillOut),
    spillIn: cssRgb(colors.spillIn),
  };
}
export type Palette = ReturnType<typeof makePalette>;

const pal = (t: Timeline) => (t.palette ??= makePalette(t.view!, t.store.get().theme === 'dark', t.colors));
export const causeRgb = (t: Timeline, k: number) => pal(t).cause[k];

/** A node's colour: its operation's; the spill colours for spill nodes; a tick without a pipe
 * takes the colour of what it waited for. */
export function nodeRgb(v: PlanView, p: Palette, s: number): number {
  const op = v.nodes.op[v.order[s]];
  if (op === p.spillOutOp) return p.spillOut;
  if (op === p.spillInOp) return p.spillIn;
  if (v.timeline.lanes[v.timeline.lane[s]] === '') return p.cause[v.timeline.root[s]];
  return p.op[op];
}
export const barRgb = (t: Timeline, s: number) => nodeRgb(t.view!, pal(t), s);

/** 1 for a SPILL_IN, 0 for a SPILL_OUT, -1 for any other node */
export function nodeSpillKind(v: PlanView, p: Palette, s: number): number {
  const op = v.nodes.op[v.order[s]];
  return op === p.spillInOp ? 1 : op === p.spillOutOp ? 0 : -1;
}
export const spillKind = (t: Timeline, s: number) => nodeSpillKind(t.view!, pal(t), s);

/** The last step shown: the one before those a question keeps hidden, else past the end. */
export const lastShown = (t: Timeline, s: State) => Math.min(t.on.hiddenFrom(s) - 1, t.view!.order.length);

/** The steps of a lane with something on screen (bar or wait). */
export function visibleSteps(t: Timeline, lane: Lane): number[] {
  const v = t.view!;
  const out: number[] = [];
  for (const s of lane.steps) {
    const from = lane.pipe && hasWait(v, s) ? waitFrom(v, s) : v.start[s];
    if (v.end[s] >= t.x.x0 && from <= t.x.x1) out.push(s);
  }
  return out;
}

/** The node under (mx, my): a bar (or tick), or a wait in the strip under the bars; -1 if none. */
export function hit(t: Timeline, mx: number, my: number, tolPx: number): number {
  const { view: v, x } = t;
  const lane = t.lanes.find((l) => my >= l.top - 3 && my <= l.top + LANE_H + 3);
  if (!v || !lane || !x.inPlot(mx)) return -1;
  const at = x.at(mx);
  const tol = x.perPx() * tolPx;
  const inWaits = lane.pipe && my > lane.top + BAR_H + WAIT_GAP / 2;
  let best = -1,
    bestScore = Infinity;
  for (const s of lane.steps) {
    if (inWaits && !hasWait(v, s)) continue;
    const a = inWaits ? waitFrom(v, s) : v.start[s],
      b = inWaits ? v.start[s] : v.end[s];
    if (at < a - tol || at > b + tol) continue;
    // inside beats near; among waits the shortest (the most particular) wins
    const score = (at >= a && at <= b ? 0 : 1e18) + (inWaits ? b - a : Math.abs(at - (a + b) / 2));
    if (score < bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return best;
}
