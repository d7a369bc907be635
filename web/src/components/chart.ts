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
import type { State, Store } from '../store';
import type { PlanView, StretchTable } from '../engine/types';
import { bufferColor, bufferRgb } from '../lib/color';
import { fmtBytes, fmtInt, h } from '../lib/format';
import { memoryTypes } from '../lib/steps';
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
const LANE_H = 84;
const LANE_GAP = 10;
const AXIS_H = 22;
/** Visible stretches in a lane above which the lane is painted as pixels. */
const PIXELS_ABOVE = 400;

interface Lane {
  type: string;
  capacity: number;
  used: number;
  st: StretchTable;
  top: number;
  height: number;
  spills: number;
}
interface Hit {
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
  /** hide what lies after the cursor (a question is open) */
  veiled?(s: State): boolean;
}

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
  fit.querySelector('input')!.addEventListener('change', (e) => {
    fitY = (e.target as HTMLInputElement).checked;
    requestDraw();
  });
  const dom = mountPlotDom(root, tid, hint, 'interactive chart', 'The memory layout appears here after a run.');
  const { describe, live, canvas, tip, wrap, ctx } = dom;

  let view: PlanView | null = null;
  let lanes: Lane[] = [];
  let steps = 1;
  const x = new PlotX(8); // the visible steps
  x.left = GUTTER;
  let cssW = 0,
    cssH = 0;
  let colors = readPlotColors();
  let frame = 0;
  let tipFor: { buf: number; pinned: boolean } | null = null;

  function setView(v: PlanView | null) {
    view = v;
    lanes = [];
    hideTip();
    if (v) {
      const caps = v.meta.capacities;
      // lanes in the settings' order (L1, UB, L0A, ...), then any other type the result has
      memoryTypes(
        v,
        store.get().settings.capacities.map((e) => e[0]),
      ).forEach((type, i) => {
        const st = v.stretches[type];
        let top = 1;
        let spills = 0;
        for (let j = 0; j < st.count; j++) {
          top = Math.max(top, st.offset[j] + st.size[j]);
          spills += st.spilled[j];
        }
        lanes.push({
          type,
          capacity: caps[type] ?? top,
          used: top,
          st,
          top: i * (LANE_H + LANE_GAP) + 8,
          height: LANE_H,
          spills,
        });
      });
      steps = Math.max(1, v.order.length);
    }
    x.reset(steps);
    let total = 0,
      spilled = 0;
    for (const l of lanes) {
      total += l.st.count;
      spilled += l.spills;
    }
    root.dataset.lanes = lanes.map((l) => l.type).join(',');
    root.dataset.stretches = String(total);
    root.dataset.spilled = String(spilled);
    dom.showPlot(lanes.length > 0);
    canvas.setAttribute(
      'aria-label',
      lanes.length
        ? `Memory layout over ${fmtInt(steps)} steps of the new order: ${lanes.map((l) => l.type).join(', ')}; ${fmtInt(v?.spills.length ?? 0)} spills`
        : 'Memory layout: no result yet',
    );
    describe.textContent =
      lanes
        .map(
          (l) =>
            `${l.type}: capacity ${fmtBytes(l.capacity)}, highest byte used ${fmtBytes(l.used)}, ${fmtInt(l.st.count - 2 * l.spills)} buffers, ${fmtInt(l.spills)} spills.`,
        )
        .join(' ') +
      ` Keys: left and right arrows move the step cursor, Home and End go to the first and last step, shift with the arrows pans, plus and minus zoom, 0 shows all steps${src.spills ? ', ] and [ go to the next and previous spill' : ''}.`;
    // Reading the layout now would force it; and painting a large plan's lanes is a task of its
    // own, after the frame that lays out the rest of the new result.
    requestAnimationFrame(() => setTimeout(resize, 0));
  }

  function resize() {
    cssW = wrap.clientWidth;
    cssH = lanes.length * (LANE_H + LANE_GAP) + AXIS_H + 6;
    x.width = Math.max(10, cssW - GUTTER - RIGHT);
    sizeCanvas(canvas, ctx, cssW, cssH);
    draw();
  }

  const plotW = () => x.width;
  const sx = (step: number) => x.px(step);
  const toStep = (px: number) => x.at(px);
  // y spans 0..capacity, or 0..the highest byte used ("fit"), for capacities far above the data
  let fitY = false;
  const yMax = (lane: Lane) => (fitY ? Math.max(1, lane.used) : lane.capacity);
  const sy = (lane: Lane, off: number) => lane.top + lane.height - (off / yMax(lane)) * lane.height;

  function requestDraw() {
    if (!frame)
      frame = requestAnimationFrame(() => {
        frame = 0;
        draw();
      });
  }

  /** Paints a lane's stretches as pixels: resident ones opaque, spilled ones faint. */
  function paintPixels(lane: Lane, visible: number[], dark: boolean, sel: number | null) {
    const dpr = window.devicePixelRatio || 1;
    const W = Math.max(1, Math.round(plotW() * dpr)),
      H = Math.max(1, Math.round(lane.height * dpr));
    const img = pixelImage(ctx, W, H, colors.bg);
    const st = lane.st;
    const scaleX = W / (x.x1 - x.x0);
    const scaleY = H / yMax(lane);
    for (const spilledPass of [1, 0]) {
      for (const i of visible) {
        if (st.spilled[i] !== spilledPass) continue;
        const buf = st.buf[i];
        const dim = sel !== null && buf !== sel;
        const c = img.mix(bufferRgb(buf, dark), spilledPass ? (dim ? 0.06 : 0.22) : dim ? 0.4 : 0.95);
        const xa = Math.max(0, Math.floor((st.start[i] - x.x0) * scaleX));
        const xb = Math.max(xa + 1, Math.floor((st.end[i] - x.x0) * scaleX));
        const yb = Math.min(H, H - Math.floor(st.offset[i] * scaleY));
        const ya = Math.max(0, Math.min(yb - 1, H - Math.ceil((st.offset[i] + st.size[i]) * scaleY)));
        img.fill(xa, xb, ya, yb, c);
      }
    }
    img.put(Math.round(GUTTER * dpr), Math.round(lane.top * dpr));
  }

  function draw() {
    clearPlot(ctx, root, x, cssW, cssH);
    if (!view || !lanes.length) return;
    const dark = store.get().theme === 'dark';
    const sel = src.selectedBuf(store.get());
    const pw = plotW();
    ctx.textBaseline = 'middle';
    let painted = 0;
    for (const lane of lanes) {
      const st = lane.st;
      const visible: number[] = [];
      for (let i = 0; i < st.count; i++) if (st.end[i] > x.x0 && st.start[i] < x.x1) visible.push(i);
      const pixels = visible.length > PIXELS_ABOVE;
      if (pixels) {
        painted++;
        paintPixels(lane, visible, dark, sel);
      } else {
        ctx.fillStyle = colors.bg;
        ctx.fillRect(GUTTER, lane.top, pw, lane.height);
      }
      // grid, frame and labels
      ctx.strokeStyle = colors.grid;
      ctx.lineWidth = 1;
      for (const f of [0.25, 0.5, 0.75]) {
        const y = Math.round(lane.top + lane.height * f) + 0.5;
        ctx.beginPath();
        ctx.moveTo(GUTTER, y);
        ctx.lineTo(GUTTER + pw, y);
        ctx.stroke();
      }
      ctx.strokeRect(GUTTER + 0.5, lane.top + 0.5, pw - 1, lane.height - 1);
      ctx.fillStyle = colors.strong;
      ctx.font = PLOT_FONT_BOLD;
      ctx.textAlign = 'left';
      ctx.fillText(lane.type, 8, lane.top + 12);
      ctx.font = PLOT_FONT;
      ctx.fillStyle = colors.text;
      ctx.fillText(fmtBytes(lane.capacity), 8, lane.top + 27);
      if (fitY) ctx.fillText(`y to ${fmtBytes(yMax(lane))}`, 8, lane.top + 41);
      ctx.textAlign = 'right';
      ctx.fillText('0', GUTTER - 5, lane.top + lane.height - 5);
      if (!pixels) drawShapes(lane, visible, dark, sel);
      else {
        // the selected buffer's outline on top of the pixels
        ctx.save();
        ctx.beginPath();
        ctx.rect(GUTTER, lane.top, pw, lane.height);
        ctx.clip();
        for (const i of visible) if (st.buf[i] === sel) outline(lane, i);
        ctx.restore();
      }
    }
    root.dataset.pixels = String(painted);
    // spill markers along the top of each lane: ▼ SPILL_OUT, ▲ SPILL_IN
    const laneOf = new Map(lanes.map((l) => [l.type, l]));
    const marks: number[] = [];
    for (const sp of view.spills) {
      const lane = laneOf.get(sp.type);
      if (!lane) continue;
      for (const [step, up] of [
        [sp.outStep, 0],
        [sp.inStep, 1],
      ] as const) {
        if (step >= x.x0 && step <= x.x1) marks.push(sx(step + 0.5), lane.top - 1, up);
      }
    }
    drawSpillMarks(ctx, marks, colors);
    drawCursor();
    drawXAxis(ctx, x, lanes[lanes.length - 1].top + LANE_H + 4, 'step', colors);
  }

  /** The cursor: a band over its step across every lane; with a question open, a veil over the
   * steps after it (they would give the answer away). */
  function drawCursor() {
    const s = store.get();
    const c = src.cursor(s);
    root.dataset.cursor = c === null ? '' : String(c);
    if (c === null || !lanes.length) return;
    const top = lanes[0].top,
      bottom = lanes[lanes.length - 1].top + LANE_H;
    const pw = plotW();
    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER, top - 6, pw, bottom - top + 6);
    ctx.clip();
    if (src.veiled?.(s)) {
      const from = Math.max(GUTTER, sx(c + 1));
      ctx.fillStyle = colors.bg;
      ctx.globalAlpha = 0.94;
      ctx.fillRect(from, top - 6, GUTTER + pw - from, bottom - top + 6);
      ctx.globalAlpha = 1;
    }
    const xa = sx(c),
      xb = sx(c + 1);
    ctx.fillStyle = colors.accent;
    ctx.globalAlpha = 0.18;
    ctx.fillRect(xa, top, Math.max(1, xb - xa), bottom - top);
    ctx.globalAlpha = 1;
    ctx.fillRect(Math.round((xa + xb) / 2) - 1, top - 6, 2, bottom - top + 6);
    ctx.restore();
  }

  function outline(lane: Lane, i: number) {
    const st = lane.st;
    const xa = sx(st.start[i]),
      xb = sx(st.end[i]);
    const ya = sy(lane, st.offset[i] + st.size[i]),
      yb = sy(lane, st.offset[i]);
    ctx.strokeStyle = colors.strong;
    ctx.lineWidth = 2;
    if (st.spilled[i]) ctx.setLineDash([4, 3]);
    ctx.strokeRect(xa, ya, Math.max(2, xb - xa), Math.max(2, yb - ya));
    ctx.setLineDash([]);
    ctx.lineWidth = 1;
  }

  /** A lane with few stretches on screen: rectangles with outlines, hatched spilled places. */
  function drawShapes(lane: Lane, visible: number[], dark: boolean, sel: number | null) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER, lane.top, plotW(), lane.height);
    ctx.clip();
    const pxPerStep = 1 / x.perPx();
    const st = lane.st;
    const spilledRects: number[] = []; // xa, ya, w, h, buf
    // 1. spilled stretches underneath: faint fill + hatching at the place the buffer left
    for (const i of visible) {
      if (!st.spilled[i]) continue;
      const buf = st.buf[i];
      const xa = sx(st.start[i]),
        xb = sx(st.end[i]);
      const ya = sy(lane, st.offset[i] + st.size[i]),
        yb = sy(lane, st.offset[i]);
      const w = Math.max(0.8, xb - xa),
        hh = Math.max(0.8, yb - ya);
      const dim = sel !== null && buf !== sel;
      ctx.fillStyle = bufferColor(buf, dark, dim ? 0.06 : 0.22);
      ctx.fillRect(xa, ya, w, hh);
      if (w > 3 && hh > 3 && !dim) spilledRects.push(xa, ya, w, hh, buf);
    }
    if (spilledRects.length) {
      ctx.beginPath();
      for (let k = 0; k < spilledRects.length; k += 5)
        ctx.rect(spilledRects[k], spilledRects[k + 1], spilledRects[k + 2], spilledRects[k + 3]);
      ctx.fillStyle = hatchPattern(dark);
      ctx.fill();
    }
    // 2. resident stretches
    for (const i of visible) {
      if (st.spilled[i]) continue;
      const buf = st.buf[i];
      const xa = sx(st.start[i]),
        xb = sx(st.end[i]);
      const ya = sy(lane, st.offset[i] + st.size[i]),
        yb = sy(lane, st.offset[i]);
      const w = Math.max(0.8, xb - xa),
        hh = Math.max(0.8, yb - ya);
      ctx.fillStyle = bufferColor(buf, dark, sel !== null && buf !== sel ? 0.4 : 0.95);
      ctx.fillRect(xa, ya, w, hh);
      if (pxPerStep > 2 && w > 4 && hh > 4) {
        ctx.strokeStyle = colors.panel;
        ctx.strokeRect(xa + 0.5, ya + 0.5, w - 1, hh - 1);
      }
    }
    // 3. the old place's outline stays visible over whatever took the space meanwhile
    if (spilledRects.length && pxPerStep > 0.5) {
      ctx.lineWidth = 1;
      ctx.setLineDash([4, 3]);
      for (let k = 0; k < spilledRects.length; k += 5) {
        ctx.strokeStyle = bufferColor(spilledRects[k + 4], dark, 0.95);
        ctx.strokeRect(
          spilledRects[k] + 0.5,
          spilledRects[k + 1] + 0.5,
          spilledRects[k + 2] - 1,
          spilledRects[k + 3] - 1,
        );
      }
      ctx.setLineDash([]);
    }
    for (const i of visible) if (st.buf[i] === sel) outline(lane, i);
    ctx.restore();
  }

  const patterns: Record<string, CanvasPattern> = {};
  function hatchPattern(dark: boolean): CanvasPattern {
    const key = dark ? 'dark' : 'light';
    if (!patterns[key]) {
      const c = document.createElement('canvas');
      c.width = c.height = 6;
      const g = c.getContext('2d')!;
      g.strokeStyle = dark ? 'rgba(255,255,255,0.35)' : 'rgba(20,24,40,0.28)';
      g.lineWidth = 1;
      g.beginPath();
      g.moveTo(0, 6);
      g.lineTo(6, 0);
      g.moveTo(-1, 1);
      g.lineTo(1, -1);
      g.moveTo(5, 7);
      g.lineTo(7, 5);
      g.stroke();
      patterns[key] = ctx.createPattern(c, 'repeat')!;
    }
    return patterns[key];
  }

  function hit(mx: number, my: number, tolPx = 2): Hit | null {
    const lane = lanes.find((l) => my >= l.top && my <= l.top + l.height);
    if (!lane || mx < GUTTER || mx > GUTTER + plotW()) return null;
    const step = toStep(mx);
    const tol = x.perPx() * tolPx;
    const offTol = (tolPx / lane.height) * yMax(lane);
    const off = ((lane.top + lane.height - my) / lane.height) * yMax(lane);
    const st = lane.st;
    let best = -1;
    for (let i = st.count - 1; i >= 0; i--) {
      if (
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

  function hideTip() {
    dom.hideTip();
    tipFor = null;
  }

  /** The details of stretch `r` in the tooltip, placed near (mx, my). */
  function showTipFor(r: Hit, mx: number, my: number, pinned: boolean) {
    const { lane, i } = r;
    const st = lane.st;
    const buf = st.buf[i];
    const B = view!.buffers;
    const nUses = B.usesStart[buf + 1] - B.usesStart[buf];
    tip.replaceChildren(
      h(
        'div',
        { class: 'tip-title' },
        h('span', { class: 'swatch', style: `background:${bufferColor(buf, store.get().theme === 'dark')}` }),
        `Buffer ${buf}`,
      ),
      h('div', {}, `${lane.type} · ${fmtBytes(st.size[i])} at offset ${st.offset[i]}`),
      h(
        'div',
        {},
        st.spilled[i]
          ? `spilled out after step ${st.start[i] - 1}, back at step ${st.end[i]} (this is its old place)`
          : `resident: steps ${st.start[i]}–${st.end[i] - 1}`,
      ),
      h('div', { class: 'muted' }, `ALLOC @ ${B.allocStep[buf]} · FREE @ ${B.freeStep[buf]} · ${nUses} steps name it`),
    );
    tipFor = { buf, pinned };
    dom.showTip(mx, my, cssW, cssH);
  }

  // pointer: a drag pans, the wheel zooms, a click (or a tap) moves the cursor, selects the
  // buffer under it and shows its details
  const pointer = attachPlotPointer(canvas, x, () => requestDraw(), {
    hover(mx, my) {
      if (tipFor?.pinned) return;
      const r = hit(mx, my);
      if (!r) {
        hideTip();
        canvas.style.cursor = pointer.dragging() ? 'grabbing' : 'grab';
        return;
      }
      canvas.style.cursor = 'pointer';
      showTipFor(r, mx, my, false);
    },
    tap(mx, my, touch) {
      const r = hit(mx, my, touch ? 8 : 2);
      const buf = r ? r.lane.st.buf[r.i] : null;
      if (buf !== null && src.pick?.(buf)) return;
      if (x.inPlot(mx)) src.setCursor(Math.floor(toStep(mx)));
      const cur = src.selectedBuf(store.get());
      src.select(buf !== null && (touch || cur !== buf) ? buf : null);
      if (r) showTipFor(r, mx, my, touch);
      else hideTip();
    },
    leave() {
      if (!tipFor?.pinned) hideTip();
    },
    dragging: hideTip,
  });

  // keyboard
  const announce = () => {
    live.textContent = `Steps ${fmtInt(Math.max(0, Math.round(x.x0)))} to ${fmtInt(Math.min(steps, Math.round(x.x1)))} of ${fmtInt(steps)}.`;
  };
  function stepSpill(dir: 1 | -1) {
    const v = view;
    if (!v?.spills.length || !src.spills) {
      live.textContent = 'This plan has no spills.';
      return;
    }
    const cur = src.spills.selected(store.get());
    const next = cur === null ? (dir > 0 ? 0 : v.spills.length - 1) : (cur + dir + v.spills.length) % v.spills.length;
    const sp = v.spills[next];
    src.spills.select(next);
    // centre the spill's stretch and show its details
    x.centre(sp.outStep, sp.inStep, (sp.inStep - sp.outStep) * 3);
    draw();
    const lane = lanes.find((l) => l.type === sp.type);
    if (lane) {
      const st = lane.st;
      for (let i = 0; i < st.count; i++) {
        if (st.buf[i] === sp.buf && st.spilled[i] && st.start[i] === sp.outStep + 1) {
          showTipFor({ lane, i }, sx((st.start[i] + st.end[i]) / 2), sy(lane, st.offset[i] + st.size[i] / 2), true);
          break;
        }
      }
    }
    live.textContent = `Spill ${next + 1} of ${v.spills.length}: buffer ${sp.buf} (${sp.type}, ${fmtBytes(sp.size)}) leaves offset ${sp.oldOffset} at step ${sp.outStep} and comes back at offset ${sp.newOffset} at step ${sp.inStep}.`;
  }
  const moveCursor = (to: number) => {
    src.setCursor(to);
    const c = src.cursor(store.get()) ?? 0;
    live.textContent = `Step ${c} of ${fmtInt(steps)}.`;
  };
  canvas.addEventListener('keydown', (e) => {
    if (!view || e.altKey || e.ctrlKey || e.metaKey) return;
    const c = src.cursor(store.get()) ?? 0;
    const keys: Record<string, () => void> = {
      ...(e.shiftKey
        ? {}
        : {
            ArrowLeft: () => moveCursor(c - 1),
            ArrowRight: () => moveCursor(c + 1),
            Home: () => moveCursor(0),
            End: () => moveCursor(steps - 1),
            ']': () => stepSpill(1),
            '[': () => stepSpill(-1),
            Escape: () => {
              hideTip();
              src.select(null);
              src.spills?.select(null);
            },
          }),
      ...panZoomKeys(x, e.shiftKey, (x.x0 + x.x1) / 2, () => {
        requestDraw();
        announce();
      }),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    if (e.key !== ']' && e.key !== '[') hideTip();
    act();
  });

  new ResizeObserver(() => {
    if (wrap.clientWidth !== cssW) resize();
  }).observe(wrap);
  store.subscribe((s, p) => {
    const v = src.view(s);
    if (v !== src.view(p)) return setView(v);
    const b = src.selectedBuf(s);
    const c = src.cursor(s);
    if (b !== src.selectedBuf(p)) {
      // bring the selected buffer into view if it is off screen
      const B = v?.buffers;
      if (B && b !== null && b < B.count && B.allocStep[b] >= 0 && (B.freeStep[b] < x.x0 || B.allocStep[b] > x.x1)) {
        const span = x.x1 - x.x0;
        x.x0 = Math.max(0, B.allocStep[b] - span * 0.1);
        x.x1 = x.x0 + span;
        x.clamp();
      }
      if (tipFor && tipFor.buf !== b) hideTip();
      requestDraw();
    }
    if (c !== src.cursor(p) || src.veiled?.(s) !== src.veiled?.(p)) {
      if (c !== null) x.follow(c, c + 1); // the cursor's step stays on screen
      requestDraw();
    }
    if (s.theme !== p.theme) {
      colors = readPlotColors();
      requestDraw();
    }
  });
  setView(src.view(store.get()));
}
