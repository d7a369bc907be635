// Memory layout chart: one lane per memory type, x = step in the new order, y = offset
// (0 at the bottom, capacity at the top). One rectangle per stretch a buffer is resident; the
// stretch while it is spilled is drawn dashed and hatched at the place it left.
// A cursor line marks the step the step panel shows; clicking a point of the chart moves it there.
// Mouse: drag to pan, wheel to zoom, hover for details, click to move the cursor and highlight a
// buffer's uses. Touch: a tap does the same and shows the details of what is under the finger, a
// sideways drag pans; the page still scrolls vertically over the chart.
// Keyboard (the chart is one tab stop): ←/→ move the cursor a step, Home/End to the first/last
// step, Shift+←/→ or PgUp/PgDn pan, +/− zoom, 0 shows every step, [ and ] step through the spills
// (showing each one's details), Esc clears. A text description (the chart's accessible name and
// description) says what it shows.
// The same component draws the diff's two charts: a ChartSource says where its plan, cursor and
// selection live in the store.
// Many thousands of stretches on screen are painted straight into pixels (lib/plot.ts, shared
// with the pipe timeline).
// This file mounts the chart and handles its input; chart-model.ts is its view model, chart-draw.ts
// its renderer.
import type { State, Store } from '../store';
import type { PlanView } from '../engine/types';
import { bufferColor } from '../lib/color';
import { fmtBytes, fmtInt, h } from '../lib/format';
import { PlotX, attachPlotPointer, mountPlotDom, panZoomKeys, plotHint, readPlotColors } from '../lib/plot';
import { draw, requestDraw, resize } from './chart-draw';
import {
  type Chart,
  type ChartSource,
  GUTTER,
  type Hit,
  chartDescription,
  chartLabel,
  hiddenAt,
  hit,
  lanesOf,
  sy,
} from './chart-model';

export type { ChartSource } from './chart-model';

export function mountChart(root: HTMLElement, store: Store, src: ChartSource) {
  const tid = (part: string) => (src.id === 'memory-chart' ? `chart-${part}` : `${src.id}-${part}`);
  root.dataset.testid = src.id;
  root.classList.add('chart');
  const fit = h(
    'label',
    { class: 'chart-fit', title: 'Scale each lane to the bytes actually used instead of the capacity' },
    h('input', { type: 'checkbox', 'data-testid': tid('fit') }),
    'fit height to used bytes',
  );
  const hint = h(
    'div',
    { class: 'chart-hint' },
    h(
      'span',
      {},
      plotHint(
        'tap a step to move the cursor and see what is there · drag sideways to pan · pinch to zoom',
        `click a step to move the cursor · ←/→ step · Shift+←/→ pan · wheel or +/− zoom · 0 shows all${src.spills ? ' · [ ] spills' : ''}`,
      ),
    ),
    fit,
  );
  const dom = mountPlotDom(root, tid, hint, 'interactive chart', 'The memory layout appears here after a run.');
  const x = new PlotX(8);
  x.left = GUTTER;
  const c: Chart = {
    root,
    store,
    src,
    dom,
    view: null,
    lanes: [],
    steps: 1,
    x,
    cssW: 0,
    cssH: 0,
    colors: readPlotColors(),
    frame: 0,
    tipFor: null,
    fitY: false,
    patterns: {},
  };
  fit.querySelector('input')!.addEventListener('change', (e) => {
    c.fitY = (e.target as HTMLInputElement).checked;
    requestDraw(c);
  });
  attachPointer(c);
  dom.canvas.addEventListener('keydown', (e) => onKey(c, e));
  new ResizeObserver(() => {
    if (dom.wrap.clientWidth !== c.cssW) resize(c);
  }).observe(dom.wrap);
  store.subscribe((s, p) => onStoreChange(c, s, p));
  setView(c, src.view(store.get()));
}

function setView(c: Chart, v: PlanView | null) {
  const { root, dom } = c;
  c.view = v;
  c.lanes = [];
  hideTip(c);
  if (v) {
    c.lanes = lanesOf(
      v,
      c.store.get().settings.capacities.map((e) => e[0]),
    );
    c.steps = Math.max(1, v.order.length);
  }
  c.x.reset(c.steps);
  let total = 0,
    spilled = 0;
  for (const l of c.lanes) {
    total += l.st.count;
    spilled += l.spills;
  }
  root.dataset.lanes = c.lanes.map((l) => l.type).join(',');
  root.dataset.stretches = String(total);
  root.dataset.spilled = String(spilled);
  dom.showPlot(c.lanes.length > 0);
  dom.canvas.setAttribute('aria-label', chartLabel(c));
  dom.describe.textContent = chartDescription(c);
  // Reading the layout now would force it; and painting a large plan's lanes is a task of its
  // own, after the frame that lays out the rest of the new result.
  requestAnimationFrame(() => setTimeout(() => resize(c), 0));
}

function onStoreChange(c: Chart, s: State, p: State) {
  const { src, x } = c;
  const v = src.view(s);
  if (v !== src.view(p)) return setView(c, v);
  const b = src.selectedBuf(s);
  const cur = src.cursor(s);
  if (b !== src.selectedBuf(p)) {
    // bring the selected buffer into view if it is off screen
    const B = v?.buffers;
    if (B && b !== null && b < B.count && B.allocStep[b] >= 0 && (B.freeStep[b] < x.x0 || B.allocStep[b] > x.x1)) {
      const span = x.x1 - x.x0;
      x.x0 = Math.max(0, B.allocStep[b] - span * 0.1);
      x.x1 = x.x0 + span;
      x.clamp();
    }
    if (c.tipFor && c.tipFor.buf !== b) hideTip(c);
    requestDraw(c);
  }
  if (cur !== src.cursor(p) || src.hiddenFrom?.(s) !== src.hiddenFrom?.(p)) {
    if (cur !== null) x.follow(cur, cur + 1); // the cursor's step stays on screen
    if (c.tipFor && !c.tipFor.pinned) hideTip(c);
    requestDraw(c);
  }
  if (s.theme !== p.theme) {
    c.colors = readPlotColors();
    requestDraw(c);
  }
}

function hideTip(c: Chart) {
  c.dom.hideTip();
  c.tipFor = null;
}

/** The details of stretch `r` in the tooltip, placed near (mx, my). */
function showTipFor(c: Chart, r: Hit, mx: number, my: number, pinned: boolean) {
  const { lane, i } = r;
  const st = lane.st;
  const buf = st.buf[i];
  const B = c.view!.buffers;
  const nUses = B.usesStart[buf + 1] - B.usesStart[buf];
  // while a question is open, nothing from the hidden steps: not when the stretch ends, nor the FREE
  const hidden = hiddenAt(c);
  const ends = st.end[i] < hidden;
  c.dom.tip.replaceChildren(
    h(
      'div',
      { class: 'tip-title' },
      h('span', { class: 'swatch', style: `background:${bufferColor(buf, c.store.get().theme === 'dark')}` }),
      `Buffer ${buf}`,
    ),
    h('div', {}, `${lane.type} · ${fmtBytes(st.size[i])} at offset ${st.offset[i]}`),
    h(
      'div',
      {},
      st.spilled[i]
        ? `spilled out after step ${st.start[i] - 1}, ${ends ? `back at step ${st.end[i]}` : 'not back yet'} (this is its old place)`
        : ends
          ? `resident: steps ${st.start[i]}–${st.end[i] - 1}`
          : `resident from step ${st.start[i]}`,
    ),
    h(
      'div',
      { class: 'muted' },
      B.freeStep[buf] < hidden
        ? `ALLOC @ ${B.allocStep[buf]} · FREE @ ${B.freeStep[buf]} · ${nUses} steps name it`
        : `ALLOC @ ${B.allocStep[buf]}`,
    ),
  );
  c.tipFor = { buf, pinned };
  c.dom.showTip(mx, my, c.cssW, c.cssH);
}

/** A drag pans, the wheel zooms, a click (or a tap) moves the cursor, selects the buffer under it
 * and shows its details. */
function attachPointer(c: Chart) {
  const { canvas } = c.dom;
  const { src, x } = c;
  const pointer = attachPlotPointer(canvas, x, () => requestDraw(c), {
    hover(mx, my) {
      if (c.tipFor?.pinned) return;
      const r = hit(c, mx, my);
      if (!r) {
        hideTip(c);
        canvas.style.cursor = pointer.dragging() ? 'grabbing' : 'grab';
        return;
      }
      canvas.style.cursor = 'pointer';
      showTipFor(c, r, mx, my, false);
    },
    tap(mx, my, touch) {
      const r = hit(c, mx, my, touch ? 8 : 2);
      const buf = r ? r.lane.st.buf[r.i] : null;
      if (buf !== null && src.pick?.(buf)) return;
      if (x.inPlot(mx)) src.setCursor(Math.floor(x.at(mx)));
      const cur = src.selectedBuf(c.store.get());
      src.select(buf !== null && (touch || cur !== buf) ? buf : null);
      if (r) showTipFor(c, r, mx, my, touch);
      else hideTip(c);
    },
    leave() {
      if (!c.tipFor?.pinned) hideTip(c);
    },
    dragging: () => hideTip(c),
  });
}

/** [ and ]: the next or previous spill, centred, with its details. */
function stepSpill(c: Chart, dir: 1 | -1) {
  const { src, x } = c;
  const { live } = c.dom;
  const v = c.view;
  if (!v?.spills.length || !src.spills) {
    live.textContent = 'This plan has no spills.';
    return;
  }
  // while a question is open: the spills before the steps it keeps hidden, and the next one (as
  // Next would, the cursor goes there; what it leaves there is not shown)
  const hidden = hiddenAt(c);
  const reach =
    hidden < Number.POSITIVE_INFINITY
      ? Math.min(v.spills.length, v.spills.filter((sp) => sp.outStep < hidden).length + 1)
      : v.spills.length;
  const cur = src.spills.selected(c.store.get());
  const next = cur === null || cur >= reach ? (dir > 0 ? 0 : reach - 1) : (cur + dir + reach) % reach;
  const sp = v.spills[next];
  src.spills.select(next);
  // centre the spill's stretch and show its details
  x.centre(sp.outStep, sp.inStep, (sp.inStep - sp.outStep) * 3);
  draw(c);
  if (sp.outStep >= hiddenAt(c)) {
    // the cursor came to a question (predict mode): its spill shows once it is answered
    live.textContent = `A spill at step ${sp.outStep}: which buffer is written out? It shows once you answer.`;
    return;
  }
  const lane = c.lanes.find((l) => l.type === sp.type);
  if (lane) {
    const st = lane.st;
    for (let i = 0; i < st.count; i++) {
      if (st.buf[i] === sp.buf && st.spilled[i] && st.start[i] === sp.outStep + 1) {
        showTipFor(
          c,
          { lane, i },
          x.px((st.start[i] + st.end[i]) / 2),
          sy(c, lane, st.offset[i] + st.size[i] / 2),
          true,
        );
        break;
      }
    }
  }
  // (the number of spills would answer a question about the plan's spills)
  const of = hiddenAt(c) < Number.POSITIVE_INFINITY ? '' : ` of ${v.spills.length}`;
  live.textContent = `Spill ${next + 1}${of}: buffer ${sp.buf} (${sp.type}, ${fmtBytes(sp.size)}) leaves offset ${sp.oldOffset} at step ${sp.outStep} and comes back at offset ${sp.newOffset} at step ${sp.inStep}.`;
}

function onKey(c: Chart, e: KeyboardEvent) {
  const { src, x } = c;
  const { live } = c.dom;
  if (!c.view || e.altKey || e.ctrlKey || e.metaKey) return;
  const cur = src.cursor(c.store.get()) ?? 0;
  const moveCursor = (to: number) => {
    src.setCursor(to);
    const now = src.cursor(c.store.get()) ?? 0;
    live.textContent = `Step ${now} of ${fmtInt(c.steps)}.`;
  };
  const announce = () => {
    live.textContent = `Steps ${fmtInt(Math.max(0, Math.round(x.x0)))} to ${fmtInt(Math.min(c.steps, Math.round(x.x1)))} of ${fmtInt(c.steps)}.`;
  };
  const keys: Record<string, () => void> = {
    ...(e.shiftKey
      ? {}
      : {
          ArrowLeft: () => moveCursor(cur - 1),
          ArrowRight: () => moveCursor(cur + 1),
          Home: () => moveCursor(0),
          End: () => moveCursor(c.steps - 1),
          ']': () => stepSpill(c, 1),
          '[': () => stepSpill(c, -1),
          Escape: () => {
            hideTip(c);
            src.select(null);
            src.spills?.select(null);
          },
        }),
    ...panZoomKeys(x, e.shiftKey, (x.x0 + x.x1) / 2, () => {
      requestDraw(c);
      announce();
    }),
  };
  const act = keys[e.key];
  if (!act) return;
  e.preventDefault();
  if (e.key !== ']' && e.key !== '[') hideTip(c);
  act();
}
