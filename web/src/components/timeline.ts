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
// This file mounts the timeline and handles its input; timeline-model.ts is its view model,
// timeline-draw.ts its renderer.
import type { State, Store } from '../store';
import { WAIT_CAUSES, type PlanView } from '../engine/types';
import { rgbCss } from '../lib/color';
import { fmtInt, h } from '../lib/format';
import { CAUSE_NAMES, nodeName, waitChain } from '../lib/waits';
import { PlotX, attachPlotPointer, mountPlotDom, panZoomKeys, plotHint, readPlotColors } from '../lib/plot';
import { draw, requestDraw, resize } from './timeline-draw';
import {
  BAR_H,
  GUTTER,
  type Timeline,
  type TimelineHandlers,
  barRgb,
  hit,
  laneOfStep,
  lastShown,
  laneText,
  lanesOf,
} from './timeline-model';

export type { TimelineHandlers } from './timeline-model';

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
  const x = new PlotX(4);
  x.left = GUTTER;
  const t: Timeline = {
    root,
    store,
    on,
    dom,
    view: null,
    lanes: [],
    x,
    cssW: 0,
    cssH: 0,
    colors: readPlotColors(),
    frame: 0,
    painted: false,
    tipStep: null,
    palette: null,
  };
  attachPointer(t);
  dom.canvas.addEventListener('keydown', (e) => onKey(t, e));
  new ResizeObserver(() => {
    if (dom.wrap.clientWidth !== t.cssW) resize(t);
  }).observe(dom.wrap);
  store.subscribe((s, p) => onStoreChange(t, s, p));
  setView(t, store.get().view);
}

function setView(t: Timeline, v: PlanView | null) {
  t.view = v;
  t.palette = null;
  t.painted = false;
  hideTip(t);
  let total = 1;
  if (v) for (let s = 0; s < v.order.length; s++) total = Math.max(total, v.end[s]);
  t.x.reset(total);
  showLanes(t);
  delete t.root.dataset.paintedAt;
  // reading the layout now would force it; a large plan's lanes are painted in a task of their own
  requestAnimationFrame(() => setTimeout(() => resize(t), 0));
}

/** The lanes and their words, from the steps on screen (those before the ones an open question
 * hides): a lane's count of all its nodes, or the lane of a pipe that runs only hidden nodes (a
 * SPILL_OUT's), would tell what the hidden steps do. */
function showLanes(t: Timeline) {
  const { root, dom, x, view: v } = t;
  t.lanes = v ? lanesOf(v, lastShown(t, t.store.get())) : [];
  const { lanes } = t;
  root.dataset.lanes = lanes.map((l) => l.name).join(',');
  root.dataset.total = String(v ? v.meta.metrics.totalCycles : 0);
  root.dataset.waits = String(lanes.reduce((n, l) => n + l.waits.reduce((a, b) => a + b, 0), 0));
  dom.showPlot(lanes.length > 0);
  dom.canvas.setAttribute(
    'aria-label',
    lanes.length
      ? `Pipe timeline over ${fmtInt(x.total)} cycles: lanes ${lanes.map((l) => l.name).join(', ')}`
      : 'Pipe timeline: no result yet',
  );
  dom.describe.textContent = lanes.length
    ? `${lanes.map((l) => laneText(l, x.total)).join(' ')} Keys: left and right arrows move the step cursor, Home and End go to the first and last step, ] and [ go to the next and previous node on the cursor's pipe, Enter tells what the cursor's node waited for, shift with the arrows pans, plus and minus zoom, 0 shows all cycles.`
    : '';
}

function onStoreChange(t: Timeline, s: State, p: State) {
  if (s.view !== p.view) return setView(t, s.view);
  const view = t.view;
  if (!view) return;
  if (t.on.hiddenFrom(s) !== t.on.hiddenFrom(p)) {
    const before = t.lanes.length;
    showLanes(t);
    if (t.lanes.length !== before) resize(t); // a lane came or went: the canvas's height changes
  }
  if (s.cursor !== p.cursor || t.on.hiddenFrom(s) !== t.on.hiddenFrom(p)) {
    const c = s.cursor;
    if (c >= 0 && c < view.order.length) t.x.follow(view.start[c], view.end[c]); // the cursor's node stays on screen
    if (t.tipStep && t.tipStep.step !== c) hideTip(t);
    requestDraw(t);
  }
  if (s.theme !== p.theme) {
    t.colors = readPlotColors();
    t.palette = null;
    requestDraw(t);
  }
}

function hideTip(t: Timeline) {
  t.dom.hideTip();
  t.tipStep = null;
}

/** The details of the node at step `s`: what it is, when it ran, what it waited for. */
function showTip(t: Timeline, s: number, mx: number, my: number, pinned: boolean) {
  const v = t.view!;
  const { tip } = t.dom;
  const id = v.order[s];
  const lane = laneOfStep(t, s)!;
  const cause = WAIT_CAUSES[v.timeline.cause[s]];
  const root = WAIT_CAUSES[v.timeline.root[s]];
  const [first, ...behind] = waitChain(v, s, false); // (the cause is said before the first)
  tip.replaceChildren(
    h(
      'div',
      { class: 'tip-title' },
      h('span', { class: 'swatch', style: `background:${rgbCss(barRgb(t, s))}` }),
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
  t.tipStep = { step: s, pinned };
  t.dom.showTip(mx, my, t.cssW, t.cssH);
}

/** The details of the cursor's node, beside its bar (keyboard). */
function showCursorTip(t: Timeline) {
  const v = t.view!;
  const c = t.store.get().cursor;
  if (c < 0 || c >= v.order.length || c > lastShown(t, t.store.get())) return;
  draw(t);
  const lane = laneOfStep(t, c)!;
  const mx = Math.min(GUTTER + t.x.width, Math.max(GUTTER, t.x.px((v.start[c] + v.end[c]) / 2)));
  showTip(t, c, mx, lane.top + BAR_H / 2, true);
}

function attachPointer(t: Timeline) {
  const { canvas } = t.dom;
  const pointer = attachPlotPointer(canvas, t.x, () => requestDraw(t), {
    hover(mx, my) {
      if (t.tipStep?.pinned) return;
      const s = hit(t, mx, my, 2);
      canvas.style.cursor = s >= 0 ? 'pointer' : pointer.dragging() ? 'grabbing' : 'grab';
      if (s >= 0) showTip(t, s, mx, my, false);
      else hideTip(t);
    },
    tap(mx, my, touch) {
      const s = hit(t, mx, my, touch ? 8 : 3);
      if (s < 0) return hideTip(t);
      t.on.goTo(s);
      showTip(t, s, mx, my, touch);
    },
    leave() {
      if (!t.tipStep?.pinned) hideTip(t);
    },
    dragging: () => hideTip(t),
  });
}

/** Says what the node at the cursor is and what it waited for. */
function sayCursor(t: Timeline) {
  const v = t.view!;
  const c = t.store.get().cursor;
  if (c > lastShown(t, t.store.get())) {
    t.dom.live.textContent = `Step ${c}: kept hidden until the open question is answered.`;
    return;
  }
  const lane = laneOfStep(t, c)!;
  t.dom.live.textContent = `Step ${c}: ${nodeName(v, v.order[c])} on ${lane.pipe ? lane.name : 'no pipe'}, cycles ${fmtInt(v.start[c])} to ${fmtInt(v.end[c])}. ${waitChain(v, c).join(' ')}`;
}

function moveCursor(t: Timeline, to: number) {
  t.on.goTo(to);
  sayCursor(t);
}

/** The previous / next node on the cursor's lane. */
function alongPipe(t: Timeline, dir: 1 | -1) {
  const c = t.store.get().cursor;
  const steps = laneOfStep(t, c)?.steps ?? []; // (none: the cursor's lane is hidden whole)
  let lo = 0,
    hi = steps.length; // first index with a step > c
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid] <= c) lo = mid + 1;
    else hi = mid;
  }
  const at = dir > 0 ? lo : steps[lo - 1] === c ? lo - 2 : lo - 1;
  if (at < 0 || at >= steps.length) {
    t.dom.live.textContent = `No ${dir > 0 ? 'later' : 'earlier'} node on this pipe.`;
    return;
  }
  moveCursor(t, steps[at]);
  showCursorTip(t);
}

function onKey(t: Timeline, e: KeyboardEvent) {
  const { x } = t;
  if (!t.view || !t.lanes.length || e.altKey || e.ctrlKey || e.metaKey) return;
  const v = t.view;
  const c = t.store.get().cursor;
  const focus = v.start[c] >= x.x0 && v.start[c] <= x.x1 ? v.start[c] : (x.x0 + x.x1) / 2;
  const announce = () => {
    t.dom.live.textContent = `Cycles ${fmtInt(Math.max(0, Math.round(x.x0)))} to ${fmtInt(Math.min(x.total, Math.round(x.x1)))} of ${fmtInt(x.total)}.`;
  };
  const keys: Record<string, () => void> = {
    ...(e.shiftKey
      ? {}
      : {
          ArrowLeft: () => moveCursor(t, c - 1),
          ArrowRight: () => moveCursor(t, c + 1),
          Home: () => moveCursor(t, 0),
          End: () => moveCursor(t, v.order.length - 1),
          ']': () => alongPipe(t, 1),
          '[': () => alongPipe(t, -1),
          Enter: () => {
            showCursorTip(t);
            sayCursor(t);
          },
          Escape: () => hideTip(t),
        }),
    ...panZoomKeys(x, e.shiftKey, focus, () => {
      requestDraw(t);
      announce();
    }),
  };
  const act = keys[e.key];
  if (!act) return;
  e.preventDefault();
  if (!['[', ']', 'Enter'].includes(e.key)) hideTip(t);
  act();
}
