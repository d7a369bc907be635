// Pipe timeline: one lane per pipe (as the graph names them, in the order they first run a node),
// x = cycle. Each node is a bar from its start to its end (one stable colour per operation;
// SPILL_OUT and SPILL_IN in the spill colours, marked ▼ and ▲ above the lane); under the bars,
// every wait is a strip from where the node could have started had only the other rules held it
// to where it did start, coloured by its cause: an edge, the pipe busy, or address reuse (an edge
// from an ALLOC that waited for its bytes counts as address reuse: that is what held the load).
// ALLOC and FREE use no pipe and take no cycles: a last lane shows them as ticks, coloured by what
// they waited for.
// The step cursor is shared with the memory chart and the order table: its node is outlined, with
// a line at its start across the lanes; a click or a tap on a bar or a wait moves the cursor to that
// node and shows its details (what it waited for, which node or buffer, the cycles lost). Keyboard
// (one tab stop): ←/→ step, Home/End, [ ] the previous / next node on the cursor's pipe, Enter the
// details, Shift+←/→ or PgUp/PgDn pan, +/− zoom around the cursor, 0 shows all, Esc hides the
// details. A text description says what each lane holds and waited for. Many bars on screen are
// painted as pixels (lib/plot.ts, shared with the memory chart).
import type { State, Store } from '../store';
import { WAIT_CAUSES, WAIT_NONE, type PlanView } from '../engine/types';
import { cssRgb, opRgb, rgbCss } from '../lib/color';
import { fmtInt, h } from '../lib/format';
import { CAUSE_NAMES, nodeName, waitChain } from '../lib/waits';
import {
  PLOT_FONT,
  PLOT_FONT_BOLD,
  PlotX,
  attachPlotPointer,
  clearPlot,
  drawSpillMarks,
  drawXAxis,
  panZoomKeys,
  pixelImage,
  mountPlotDom,
  plotHint,
  readPlotColors,
  sizeCanvas,
} from '../lib/plot';

const GUTTER = 76;
const RIGHT = 10;
const BAR_H = 18;
const WAIT_GAP = 2;
const WAIT_H = 7;
const LANE_H = BAR_H + WAIT_GAP + WAIT_H;
const LANE_GAP = 12;
const TOP = 9;
const AXIS_H = 22;
/** Visible nodes in a lane above which the lane is painted as pixels. */
const PIXELS_ABOVE = 400;
/** The lane of the nodes without a pipe. */
const NO_PIPE = 'ALLOC/FREE';

interface Lane {
  name: string; // the pipe, or NO_PIPE
  pipe: boolean;
  steps: Int32Array; // in order
  top: number;
  busy: number; // cycles the pipe runs a node
  waits: number[]; // per cause (as coloured: the root cause): nodes that waited
  lost: number[]; // per cause: cycles
}

export interface TimelineHandlers {
  goTo(step: number): void;
  /** hide what lies after the cursor (a question is open) */
  veiled(s: State): boolean;
}

/** "x,y,w,h" of a box in CSS pixels (the canvas's data attributes tests read) */
const box = (x: number, y: number, w: number, hh: number) =>
  [x, y, w, hh].map((v) => Math.round(v * 10) / 10).join(',');

export function mountTimeline(root: HTMLElement, store: Store, on: TimelineHandlers) {
  root.dataset.testid = 'timeline';
  root.classList.add('chart', 'timeline');
  const hint = h(
    'div',
    { class: 'chart-hint' },
    h(
      'span',
      {},
      plotHint(
        'tap a node to move the cursor and see its wait · drag sideways to pan · pinch to zoom',
        'click a node to move the cursor · ←/→ step · [ ] along its pipe · Enter details · Shift+←/→ pan · wheel or +/− zoom · 0 shows all',
      ),
    ),
  );
  const tid = (part: string) => `timeline-${part}`;
  const dom = mountPlotDom(
    root,
    tid,
    hint,
    'interactive timeline',
    'The pipes\u2019 timeline appears here after a run.',
  );
  const { describe, live, canvas, tip, wrap, ctx } = dom;

  let view: PlanView | null = null;
  let lanes: Lane[] = [];
  const x = new PlotX(4); // the visible cycles
  x.left = GUTTER;
  let cssW = 0,
    cssH = 0;
  let colors = readPlotColors();
  let frame = 0;
  let painted = false; // the view on screen has been painted once
  let tipStep: { step: number; pinned: boolean } | null = null;

  const laneOfStep = (s: number) => lanes[view!.timeline.lane[s]];
  /** where the node could have started: its start less the cycles its wait cost */
  const waitFrom = (s: number) => view!.start[s] - view!.timeline.cycles[s];
  const hasWait = (s: number) => view!.timeline.cause[s] !== WAIT_NONE && view!.timeline.cycles[s] > 0;

  function setView(v: PlanView | null) {
    view = v;
    palette = null;
    lanes = [];
    painted = false;
    hideTip();
    let total = 1;
    if (v) {
      const t = v.timeline;
      lanes = t.lanes.map((name, l) => ({
        name: name || NO_PIPE,
        pipe: name !== '',
        steps: t.laneSteps.subarray(t.laneStart[l], t.laneStart[l + 1]),
        top: TOP + l * (LANE_H + LANE_GAP),
        busy: 0,
        waits: [0, 0, 0, 0],
        lost: [0, 0, 0, 0],
      }));
      for (const lane of lanes) {
        for (const s of lane.steps) {
          lane.busy += v.end[s] - v.start[s];
          if (t.cause[s] === WAIT_NONE) continue;
          lane.waits[t.root[s]]++;
          lane.lost[t.root[s]] += t.cycles[s];
        }
      }
      for (let s = 0; s < v.order.length; s++) total = Math.max(total, v.end[s]);
    }
    x.reset(total);
    root.dataset.lanes = lanes.map((l) => l.name).join(',');
    root.dataset.total = String(v ? v.meta.metrics.totalCycles : 0);
    root.dataset.waits = String(lanes.reduce((n, l) => n + l.waits.reduce((a, b) => a + b, 0), 0));
    delete root.dataset.paintedAt;
    dom.showPlot(lanes.length > 0);
    canvas.setAttribute(
      'aria-label',
      lanes.length
        ? `Pipe timeline over ${fmtInt(total)} cycles: lanes ${lanes.map((l) => l.name).join(', ')}`
        : 'Pipe timeline: no result yet',
    );
    describe.textContent = lanes.length
      ? `${lanes.map(laneText).join(' ')} Keys: left and right arrows move the step cursor, Home and End go to the first and last step, ] and [ go to the next and previous node on the cursor's pipe, Enter tells what the cursor's node waited for, shift with the arrows pans, plus and minus zoom, 0 shows all cycles.`
      : '';
    // reading the layout now would force it; a large plan's lanes are painted in a task of their own
    requestAnimationFrame(() => setTimeout(resize, 0));
  }

  /** What a lane holds and what its nodes waited for, in words. */
  function laneText(l: Lane): string {
    const waits = WAIT_CAUSES.map((c, k) => [c, l.waits[k], l.lost[k]] as const).filter(([, n]) => n > 0);
    // (a node without a pipe has no pipe to keep busy: its wait counts from cycle 0, no loss to sum)
    const said = waits.length
      ? waits
          .map(
            ([c, n, lost]) => `${fmtInt(n)} waited for ${CAUSE_NAMES[c]}${l.pipe ? ` (${fmtInt(lost)} cycles)` : ''}`,
          )
          .join(', ')
      : 'none waited';
    return l.pipe
      ? `${l.name}: ${fmtInt(l.steps.length)} nodes, busy ${((100 * l.busy) / Math.max(1, x.total)).toFixed(1)}% of the ${fmtInt(x.total)} cycles; ${said}.`
      : `${NO_PIPE} (no pipe, no cycles): ${fmtInt(l.steps.length)} nodes; ${said}.`;
  }

  function resize() {
    cssW = wrap.clientWidth;
    cssH = TOP + lanes.length * (LANE_H + LANE_GAP) + AXIS_H;
    x.width = Math.max(10, cssW - GUTTER - RIGHT);
    sizeCanvas(canvas, ctx, cssW, cssH);
    draw();
  }

  function requestDraw() {
    if (!frame)
      frame = requestAnimationFrame(() => {
        frame = 0;
        draw();
      });
  }

  /** The colours of a plan's nodes as 0xRRGGBB, worked out once per plan and theme (not per bar:
   * a large plan has tens of thousands): per operation (by its index in the node table's
   * strings), per wait cause (WAIT_CAUSES order; none in the muted text colour), spill nodes. */
  function makePalette(v: PlanView, dark: boolean) {
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
  let palette: ReturnType<typeof makePalette> | null = null;
  const pal = () => (palette ??= makePalette(view!, store.get().theme === 'dark'));
  const causeRgb = (k: number) => pal().cause[k];
  /** A node's colour: its operation's; the spill colours for spill nodes; a tick without a pipe
   * takes the colour of what it waited for. */
  function barRgb(s: number): number {
    const p = pal();
    const op = view!.nodes.op[view!.order[s]];
    if (op === p.spillOutOp) return p.spillOut;
    if (op === p.spillInOp) return p.spillIn;
    if (!laneOfStep(s).pipe) return p.cause[view!.timeline.root[s]];
    return p.op[op];
  }
  /** 1 for a SPILL_IN, 0 for a SPILL_OUT, -1 for any other node */
  function spillKind(s: number): number {
    const op = view!.nodes.op[view!.order[s]];
    const p = pal();
    return op === p.spillInOp ? 1 : op === p.spillOutOp ? 0 : -1;
  }

  /** The steps of a lane with something on screen (bar or wait), none after `last`. */
  function visibleSteps(lane: Lane, last: number): number[] {
    const v = view!;
    const out: number[] = [];
    for (const s of lane.steps) {
      if (s > last) break;
      const from = lane.pipe && hasWait(s) ? waitFrom(s) : v.start[s];
      if (v.end[s] >= x.x0 && from <= x.x1) out.push(s);
    }
    return out;
  }

  /** A lane with many nodes on screen: bars and waits as pixels. */
  function paintPixels(lane: Lane, visible: number[]) {
    const v = view!;
    const t = v.timeline;
    const dpr = window.devicePixelRatio || 1;
    const W = Math.max(1, Math.round(x.width * dpr)),
      H = Math.round(LANE_H * dpr);
    const img = pixelImage(ctx, W, H, colors.bg);
    const scale = W / (x.x1 - x.x0);
    const col = (c: number) => Math.floor((c - x.x0) * scale);
    const barH = Math.round(BAR_H * dpr),
      waitTop = Math.round((BAR_H + WAIT_GAP) * dpr);
    // Zoomed out, thousands of nodes share a column: one that covers the same columns as the one
    // before is painted only when it matters more (a spill over an operation, a wait's cause
    // over none, address over pipe over edge), so each column is written about once.
    let barA = -1,
      barB = -1,
      barRank = -1,
      waitA = -1,
      waitB = -1,
      waitRank = -1;
    for (const s of visible) {
      const xa = col(v.start[s]),
        xb = Math.max(xa + 1, col(v.end[s]));
      const rank = lane.pipe ? spillKind(s) + 1 : t.root[s];
      if (xa !== barA || xb !== barB || rank > barRank) {
        img.fill(xa, xb, 0, barH, img.mix(barRgb(s), 0.95));
        barA = xa;
        barB = xb;
        barRank = rank;
      }
      if (!lane.pipe || !hasWait(s)) continue;
      const wa = col(waitFrom(s)),
        wb = Math.max(wa + 1, xa);
      if (wa !== waitA || wb !== waitB || t.root[s] > waitRank) {
        img.fill(wa, wb, waitTop, H, img.mix(causeRgb(t.root[s]), 0.9));
        waitA = wa;
        waitB = wb;
        waitRank = t.root[s];
      }
    }
    img.put(Math.round(GUTTER * dpr), Math.round(lane.top * dpr));
  }

  /** A lane with few nodes on screen: rectangles, separated where they are wide enough. */
  function drawShapes(lane: Lane, visible: number[]) {
    const v = view!;
    ctx.fillStyle = colors.bg;
    ctx.fillRect(GUTTER, lane.top, x.width, LANE_H);
    for (const s of visible) {
      const xa = x.px(v.start[s]),
        w = Math.max(1, x.px(v.end[s]) - xa);
      ctx.fillStyle = rgbCss(barRgb(s));
      ctx.fillRect(xa, lane.top, w, BAR_H);
      if (w > 4) {
        ctx.strokeStyle = colors.panel;
        ctx.strokeRect(xa + 0.5, lane.top + 0.5, w - 1, BAR_H - 1);
      }
      if (lane.pipe && hasWait(s)) {
        const wa = x.px(waitFrom(s));
        ctx.fillStyle = rgbCss(causeRgb(v.timeline.root[s]));
        ctx.fillRect(wa, lane.top + BAR_H + WAIT_GAP, Math.max(1, xa - wa), WAIT_H);
      }
    }
  }

  function draw() {
    clearPlot(ctx, root, x, cssW, cssH);
    if (!view || !lanes.length) return;
    const v = view;
    const s = store.get();
    const last = on.veiled(s) ? s.cursor : v.order.length;
    let pixels = 0;
    const marks: number[] = []; // the spill nodes' marks above their lanes
    for (const lane of lanes) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(GUTTER, lane.top - 7, x.width, LANE_H + 7);
      ctx.clip();
      const visible = visibleSteps(lane, last);
      if (visible.length > PIXELS_ABOVE) {
        pixels++;
        paintPixels(lane, visible);
      } else drawShapes(lane, visible);
      ctx.restore();
      drawLaneFrame(lane);
      if (!lane.pipe) continue;
      for (const st of visible) {
        const up = spillKind(st);
        if (up >= 0) marks.push(x.px((v.start[st] + v.end[st]) / 2), lane.top - 1, up);
      }
    }
    drawSpillMarks(ctx, marks, colors);
    root.dataset.pixels = String(pixels);
    drawCursor(last);
    drawXAxis(ctx, x, lanes[lanes.length - 1].top + LANE_H + 4, 'cycle', colors, (t) => fmtInt(t));
    if (!painted) {
      painted = true;
      root.dataset.paintedAt = String(performance.now());
    }
  }

  function drawLaneFrame(lane: Lane) {
    ctx.strokeStyle = colors.grid;
    ctx.lineWidth = 1;
    ctx.strokeRect(GUTTER + 0.5, lane.top + 0.5, x.width - 1, LANE_H - 1);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.fillStyle = colors.strong;
    ctx.font = PLOT_FONT_BOLD;
    ctx.fillText(lane.pipe ? lane.name : 'no pipe', 8, lane.top + 9);
    ctx.font = PLOT_FONT;
    ctx.fillStyle = colors.text;
    ctx.fillText(lane.pipe ? `${fmtInt(lane.steps.length)} nodes` : NO_PIPE, 8, lane.top + 22);
  }

  /** The cursor's node: outlined, its wait outlined, a line at its start across every lane. */
  function drawCursor(last: number) {
    const s = store.get();
    const v = view!;
    const c = s.cursor;
    root.dataset.cursor = String(c);
    canvas.dataset.cursorBox = '';
    canvas.dataset.cursorWaitBox = '';
    if (c < 0 || c >= v.order.length || c > last) return;
    const lane = laneOfStep(c);
    const xa = x.px(v.start[c]),
      xb = Math.max(xa + 2, x.px(v.end[c]));
    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER, 0, x.width, cssH);
    ctx.clip();
    ctx.fillStyle = colors.accent;
    ctx.globalAlpha = 0.7;
    ctx.fillRect(Math.round(xa) - 0.5, lanes[0].top - 6, 1.5, lanes[lanes.length - 1].top + LANE_H - lanes[0].top + 6);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = colors.strong;
    ctx.lineWidth = 2;
    ctx.strokeRect(xa - 1, lane.top - 1, xb - xa + 2, BAR_H + 2);
    if (lane.pipe && hasWait(c)) {
      const wa = x.px(waitFrom(c));
      ctx.setLineDash([3, 2]);
      ctx.strokeRect(wa - 1, lane.top + BAR_H + WAIT_GAP - 1, Math.max(2, xa - wa) + 2, WAIT_H + 2);
      ctx.setLineDash([]);
      if (xa > GUTTER && wa < GUTTER + x.width)
        canvas.dataset.cursorWaitBox = box(
          Math.max(GUTTER, wa),
          lane.top + BAR_H + WAIT_GAP,
          Math.min(xa, GUTTER + x.width) - Math.max(GUTTER, wa),
          WAIT_H,
        );
    }
    ctx.restore();
    if (xb > GUTTER && xa < GUTTER + x.width)
      canvas.dataset.cursorBox = box(
        Math.max(GUTTER, xa),
        lane.top,
        Math.min(xb, GUTTER + x.width) - Math.max(GUTTER, xa),
        BAR_H,
      );
  }

  /** The node under (mx, my): a bar (or tick), or a wait in the strip under the bars; -1 if none. */
  function hit(mx: number, my: number, tolPx: number): number {
    const v = view;
    const lane = lanes.find((l) => my >= l.top - 3 && my <= l.top + LANE_H + 3);
    if (!v || !lane || !x.inPlot(mx)) return -1;
    const t = x.at(mx);
    const tol = x.perPx() * tolPx;
    const last = on.veiled(store.get()) ? store.get().cursor : v.order.length;
    const inWaits = lane.pipe && my > lane.top + BAR_H + WAIT_GAP / 2;
    let best = -1,
      bestScore = Infinity;
    for (const s of lane.steps) {
      if (s > last) break;
      if (inWaits && !hasWait(s)) continue;
      const a = inWaits ? waitFrom(s) : v.start[s],
        b = inWaits ? v.start[s] : v.end[s];
      if (t < a - tol || t > b + tol) continue;
      // inside beats near; among waits the shortest (the most particular) wins
      const score = (t >= a && t <= b ? 0 : 1e18) + (inWaits ? b - a : Math.abs(t - (a + b) / 2));
      if (score < bestScore) {
        best = s;
        bestScore = score;
      }
    }
    return best;
  }

  function hideTip() {
    dom.hideTip();
    tipStep = null;
  }

  /** The details of the node at step `s`: what it is, when it ran, what it waited for. */
  function showTip(s: number, mx: number, my: number, pinned: boolean) {
    const v = view!;
    const t = v.timeline;
    const id = v.order[s];
    const lane = laneOfStep(s);
    const cause = WAIT_CAUSES[t.cause[s]];
    const root = WAIT_CAUSES[t.root[s]];
    const [first, ...behind] = waitChain(v, s, false); // (the cause is said before the first)
    tip.replaceChildren(
      h(
        'div',
        { class: 'tip-title' },
        h('span', { class: 'swatch', style: `background:${rgbCss(barRgb(s))}` }),
        `${nodeName(v, id)} · ${lane.pipe ? lane.name : 'no pipe'}`,
      ),
      h(
        'div',
        {},
        `step ${s} · cycles ${fmtInt(v.start[s])}–${fmtInt(v.end[s])} (${fmtInt(v.end[s] - v.start[s])} cycles)`,
      ),
      h(
        'div',
        { class: `tip-wait cause-${cause}`, 'data-testid': 'timeline-tip-wait' },
        cause === 'none' ? null : h('span', { class: `cause-mark cause-${root}`, 'aria-hidden': 'true' }),
        cause === 'none' ? '' : h('strong', {}, `${CAUSE_NAMES[cause]}: `),
        first,
      ),
      ...behind.map((line) => h('div', { class: 'muted' }, line)),
    );
    tip.dataset.step = String(s);
    tip.dataset.node = String(id);
    tip.dataset.cause = cause;
    tip.dataset.root = root;
    tipStep = { step: s, pinned };
    dom.showTip(mx, my, cssW, cssH);
  }

  /** The details of the cursor's node, beside its bar (keyboard). */
  function showCursorTip() {
    const v = view!;
    const c = store.get().cursor;
    if (c < 0 || c >= v.order.length) return;
    draw();
    const lane = laneOfStep(c);
    const mx = Math.min(GUTTER + x.width, Math.max(GUTTER, x.px((v.start[c] + v.end[c]) / 2)));
    showTip(c, mx, lane.top + BAR_H / 2, true);
  }

  const pointer = attachPlotPointer(canvas, x, () => requestDraw(), {
    hover(mx, my) {
      if (tipStep?.pinned) return;
      const s = hit(mx, my, 2);
      canvas.style.cursor = s >= 0 ? 'pointer' : pointer.dragging() ? 'grabbing' : 'grab';
      if (s >= 0) showTip(s, mx, my, false);
      else hideTip();
    },
    tap(mx, my, touch) {
      const s = hit(mx, my, touch ? 8 : 3);
      if (s < 0) return hideTip();
      on.goTo(s);
      showTip(s, mx, my, touch);
    },
    leave() {
      if (!tipStep?.pinned) hideTip();
    },
    dragging: hideTip,
  });

  // keyboard
  const announce = () => {
    live.textContent = `Cycles ${fmtInt(Math.max(0, Math.round(x.x0)))} to ${fmtInt(Math.min(x.total, Math.round(x.x1)))} of ${fmtInt(x.total)}.`;
  };
  /** Says what the node at the cursor is and what it waited for. */
  const sayCursor = () => {
    const v = view!;
    const c = store.get().cursor;
    const lane = laneOfStep(c);
    live.textContent = `Step ${c}: ${nodeName(v, v.order[c])} on ${lane.pipe ? lane.name : 'no pipe'}, cycles ${fmtInt(v.start[c])} to ${fmtInt(v.end[c])}. ${waitChain(v, c).join(' ')}`;
  };
  const moveCursor = (to: number) => {
    on.goTo(to);
    sayCursor();
  };
  /** The previous / next node on the cursor's lane. */
  function alongPipe(dir: 1 | -1) {
    const c = store.get().cursor;
    const steps = laneOfStep(c).steps;
    let lo = 0,
      hi = steps.length; // first index with a step > c
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (steps[mid] <= c) lo = mid + 1;
      else hi = mid;
    }
    const at = dir > 0 ? lo : steps[lo - 1] === c ? lo - 2 : lo - 1;
    if (at < 0 || at >= steps.length) {
      live.textContent = `No ${dir > 0 ? 'later' : 'earlier'} node on this pipe.`;
      return;
    }
    moveCursor(steps[at]);
    showCursorTip();
  }
  canvas.addEventListener('keydown', (e) => {
    if (!view || !lanes.length || e.altKey || e.ctrlKey || e.metaKey) return;
    const v = view;
    const c = store.get().cursor;
    const focus = v.start[c] >= x.x0 && v.start[c] <= x.x1 ? v.start[c] : (x.x0 + x.x1) / 2;
    const keys: Record<string, () => void> = {
      ...(e.shiftKey
        ? {}
        : {
            ArrowLeft: () => moveCursor(c - 1),
            ArrowRight: () => moveCursor(c + 1),
            Home: () => moveCursor(0),
            End: () => moveCursor(v.order.length - 1),
            ']': () => alongPipe(1),
            '[': () => alongPipe(-1),
            Enter: () => {
              showCursorTip();
              sayCursor();
            },
            Escape: hideTip,
          }),
      ...panZoomKeys(x, e.shiftKey, focus, () => {
        requestDraw();
        announce();
      }),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    if (!['[', ']', 'Enter'].includes(e.key)) hideTip();
    act();
  });

  new ResizeObserver(() => {
    if (wrap.clientWidth !== cssW) resize();
  }).observe(wrap);
  store.subscribe((s, p) => {
    if (s.view !== p.view) return setView(s.view);
    if (!view) return;
    if (s.cursor !== p.cursor || on.veiled(s) !== on.veiled(p)) {
      const c = s.cursor;
      if (c >= 0 && c < view.order.length) x.follow(view.start[c], view.end[c]); // the cursor's node stays on screen
      if (tipStep && tipStep.step !== c) hideTip();
      requestDraw();
    }
    if (s.theme !== p.theme) {
      colors = readPlotColors();
      palette = null;
      requestDraw();
    }
  });
  setView(store.get().view);
}
