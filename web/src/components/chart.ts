// Memory layout chart: one lane per memory type, x = step in the new order, y = offset
// (0 at the bottom, capacity at the top). One rectangle per stretch a buffer is resident; the
// stretch while it is spilled is drawn dashed and hatched at the place it left. Canvas, with
// drag to pan, wheel to zoom, hover for details and click to highlight the buffer's uses.
import type { Store } from '../store';
import type { PlanView, StretchTable } from '../engine/types';
import { bufferColor } from '../lib/color';
import { fmtBytes, h } from '../lib/format';

const GUTTER = 68;
const RIGHT = 10;
const LANE_H = 84;
const LANE_GAP = 10;
const AXIS_H = 22;

interface Lane { type: string; capacity: number; used: number; st: StretchTable; top: number; height: number }
interface Hit { lane: Lane; i: number }

export function mountChart(root: HTMLElement, store: Store) {
  root.dataset.testid = 'memory-chart';
  root.classList.add('chart');
  const fit = h('label', { class: 'chart-fit', title: 'Scale each lane to the bytes actually used instead of the capacity' },
    h('input', { type: 'checkbox', 'data-testid': 'chart-fit' }), 'fit height to used bytes');
  const hint = h('div', { class: 'chart-hint' },
    h('span', {}, 'drag to pan · wheel to zoom · click a buffer to highlight its uses · double-click to reset'), fit);
  fit.querySelector('input')!.addEventListener('change', (e) => {
    fitY = (e.target as HTMLInputElement).checked;
    requestDraw();
  });
  const canvas = h('canvas', { class: 'chart-canvas', 'aria-label': 'Memory layout chart' });
  const tip = h('div', { class: 'chart-tip', role: 'tooltip' });
  const wrap = h('div', { class: 'chart-wrap' }, canvas, tip);
  const empty = h('div', { class: 'placeholder' }, 'The memory layout appears here after a run.');
  root.append(hint, wrap, empty);
  const ctx = canvas.getContext('2d')!;

  let view: PlanView | null = null;
  let lanes: Lane[] = [];
  let steps = 1;
  let x0 = 0, x1 = 1; // visible step range
  let cssW = 0, cssH = 0;
  let colors = readColors();
  let frame = 0;

  function readColors() {
    const cs = getComputedStyle(document.documentElement);
    const v = (n: string) => cs.getPropertyValue(n).trim();
    return { bg: v('--chart-bg'), grid: v('--border'), text: v('--muted'), strong: v('--text'), accent: v('--accent'), panel: v('--panel') };
  }

  function setView(v: PlanView | null) {
    view = v;
    lanes = [];
    if (v) {
      const caps = v.meta.capacities;
      // lanes in the settings' order (L1, UB, L0A, ...), then any other type the result has
      const pref = store.get().settings.capacities.map((e) => e[0]);
      const types = [...pref.filter((t) => t in caps), ...Object.keys(caps).filter((t) => !pref.includes(t))]
        .filter((t) => v.stretches[t]?.count);
      for (const t of Object.keys(v.stretches)) if (!types.includes(t)) types.push(t);
      types.forEach((type, i) => {
        const st = v.stretches[type];
        let top = 1;
        for (let j = 0; j < st.count; j++) top = Math.max(top, st.offset[j] + st.size[j]);
        lanes.push({ type, capacity: caps[type] ?? top, used: top, st, top: i * (LANE_H + LANE_GAP) + 8, height: LANE_H });
      });
      steps = Math.max(1, v.order.length);
    }
    x0 = 0;
    x1 = steps;
    let total = 0, spilled = 0;
    for (const l of lanes) {
      total += l.st.count;
      for (let j = 0; j < l.st.count; j++) spilled += l.st.spilled[j];
    }
    root.dataset.lanes = lanes.map((l) => l.type).join(',');
    root.dataset.stretches = String(total);
    root.dataset.spilled = String(spilled);
    wrap.style.display = lanes.length ? '' : 'none';
    hint.style.display = lanes.length ? '' : 'none';
    empty.style.display = lanes.length ? 'none' : '';
    resize();
  }

  function resize() {
    const w = wrap.clientWidth;
    const hgt = lanes.length * (LANE_H + LANE_GAP) + AXIS_H + 6;
    cssW = w;
    cssH = hgt;
    const dpr = window.devicePixelRatio || 1;
    canvas.style.height = `${hgt}px`;
    canvas.width = Math.max(1, Math.round(w * dpr));
    canvas.height = Math.max(1, Math.round(hgt * dpr));
    draw();
  }

  const plotW = () => Math.max(10, cssW - GUTTER - RIGHT);
  const sx = (step: number) => GUTTER + ((step - x0) / (x1 - x0)) * plotW();
  const toStep = (px: number) => x0 + ((px - GUTTER) / plotW()) * (x1 - x0);
  // y spans 0..capacity, or 0..the highest byte used ("fit"), for capacities far above the data
  let fitY = false;
  const yMax = (lane: Lane) => (fitY ? Math.max(1, lane.used) : lane.capacity);
  const sy = (lane: Lane, off: number) => lane.top + lane.height - (off / yMax(lane)) * lane.height;

  function requestDraw() {
    if (!frame) frame = requestAnimationFrame(() => { frame = 0; draw(); });
  }

  function draw() {
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, cssH);
    if (!view || !lanes.length) return;
    const dark = store.get().theme === 'dark';
    const sel = store.get().selectedBuf;
    const pw = plotW();
    ctx.font = '11px ui-sans-serif, system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    for (const lane of lanes) {
      // frame and labels
      ctx.fillStyle = colors.bg;
      ctx.fillRect(GUTTER, lane.top, pw, lane.height);
      ctx.strokeStyle = colors.grid;
      ctx.lineWidth = 1;
      for (const f of [0.25, 0.5, 0.75]) {
        const y = Math.round(lane.top + lane.height * f) + 0.5;
        ctx.beginPath(); ctx.moveTo(GUTTER, y); ctx.lineTo(GUTTER + pw, y); ctx.stroke();
      }
      ctx.strokeRect(GUTTER + 0.5, lane.top + 0.5, pw - 1, lane.height - 1);
      ctx.fillStyle = colors.strong;
      ctx.font = '600 12px ui-sans-serif, system-ui, sans-serif';
      ctx.textAlign = 'left';
      ctx.fillText(lane.type, 8, lane.top + 12);
      ctx.font = '10.5px ui-sans-serif, system-ui, sans-serif';
      ctx.fillStyle = colors.text;
      ctx.fillText(fmtBytes(lane.capacity), 8, lane.top + 27);
      if (fitY) ctx.fillText(`y to ${fmtBytes(yMax(lane))}`, 8, lane.top + 41);
      ctx.textAlign = 'right';
      ctx.fillText('0', GUTTER - 5, lane.top + lane.height - 5);

      ctx.save();
      ctx.beginPath();
      ctx.rect(GUTTER, lane.top, pw, lane.height);
      ctx.clip();
      const pxPerStep = pw / (x1 - x0);
      const st = lane.st;
      const selected: number[] = [];
      const spilledRects: number[] = []; // xa, ya, w, h, buf
      const resident: number[] = [];
      // 1. spilled stretches underneath: faint fill + hatching at the place the buffer left
      for (let i = 0; i < st.count; i++) {
        const start = st.start[i], end = st.end[i];
        if (end <= x0 || start >= x1) continue;
        const buf = st.buf[i];
        if (buf === sel) selected.push(i);
        if (!st.spilled[i]) {
          resident.push(i);
          continue;
        }
        const xa = sx(start), xb = sx(end);
        const ya = sy(lane, st.offset[i] + st.size[i]), yb = sy(lane, st.offset[i]);
        const w = Math.max(0.8, xb - xa), hh = Math.max(0.8, yb - ya);
        const dim = sel !== null && buf !== sel;
        ctx.fillStyle = bufferColor(buf, dark, dim ? 0.06 : 0.22);
        ctx.fillRect(xa, ya, w, hh);
        if (w > 3 && hh > 3 && !dim) spilledRects.push(xa, ya, w, hh, buf);
      }
      if (spilledRects.length) {
        ctx.beginPath();
        for (let k = 0; k < spilledRects.length; k += 5) ctx.rect(spilledRects[k], spilledRects[k + 1], spilledRects[k + 2], spilledRects[k + 3]);
        ctx.fillStyle = hatchPattern(dark);
        ctx.fill();
      }
      // 2. resident stretches
      for (const i of resident) {
        const buf = st.buf[i];
        const xa = sx(st.start[i]), xb = sx(st.end[i]);
        const ya = sy(lane, st.offset[i] + st.size[i]), yb = sy(lane, st.offset[i]);
        const w = Math.max(0.8, xb - xa), hh = Math.max(0.8, yb - ya);
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
        const dashed = spilledRects.length < 5 * 400;
        if (dashed) ctx.setLineDash([4, 3]);
        for (let k = 0; k < spilledRects.length; k += 5) {
          ctx.strokeStyle = bufferColor(spilledRects[k + 4], dark, 0.95);
          ctx.strokeRect(spilledRects[k] + 0.5, spilledRects[k + 1] + 0.5, spilledRects[k + 2] - 1, spilledRects[k + 3] - 1);
        }
        ctx.setLineDash([]);
      }
      for (const i of selected) {
        const xa = sx(st.start[i]), xb = sx(st.end[i]);
        const ya = sy(lane, st.offset[i] + st.size[i]), yb = sy(lane, st.offset[i]);
        ctx.strokeStyle = colors.strong;
        ctx.lineWidth = 2;
        if (st.spilled[i]) ctx.setLineDash([4, 3]);
        ctx.strokeRect(xa, ya, Math.max(2, xb - xa), Math.max(2, yb - ya));
        ctx.setLineDash([]);
        ctx.lineWidth = 1;
      }
      ctx.restore();
    }
    // spill markers along the top of each lane: ▼ SPILL_OUT, ▲ SPILL_IN
    for (const sp of view.spills) {
      const lane = lanes.find((l) => l.type === sp.type);
      if (!lane) continue;
      for (const [step, up] of [[sp.outStep, false], [sp.inStep, true]] as const) {
        if (step < x0 || step > x1) continue;
        const x = sx(step + 0.5);
        ctx.fillStyle = up ? colors.accent : '#e5484d';
        ctx.beginPath();
        const y = lane.top - 1;
        if (up) { ctx.moveTo(x - 3.5, y); ctx.lineTo(x + 3.5, y); ctx.lineTo(x, y - 5); }
        else { ctx.moveTo(x - 3.5, y - 5); ctx.lineTo(x + 3.5, y - 5); ctx.lineTo(x, y); }
        ctx.fill();
      }
    }
    // step axis
    const axisY = lanes[lanes.length - 1].top + LANE_H + 4;
    const span = x1 - x0;
    const target = span / Math.max(2, pw / 90);
    const p = Math.pow(10, Math.floor(Math.log10(Math.max(1, target))));
    const tick = [1, 2, 5, 10].map((m) => m * p).find((t) => t >= target) ?? p * 10;
    ctx.fillStyle = colors.text;
    ctx.textAlign = 'center';
    ctx.font = '10.5px ui-sans-serif, system-ui, sans-serif';
    for (let t = Math.ceil(x0 / tick) * tick; t <= x1; t += tick) {
      const x = sx(t);
      if (x < GUTTER - 1 || x > GUTTER + pw + 1) continue;
      ctx.fillRect(Math.round(x), axisY - 3, 1, 4);
      ctx.fillText(String(Math.round(t)), x, axisY + 9);
    }
    ctx.textAlign = 'right';
    ctx.fillText('step', GUTTER - 5, axisY + 9);
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
      g.moveTo(0, 6); g.lineTo(6, 0);
      g.moveTo(-1, 1); g.lineTo(1, -1);
      g.moveTo(5, 7); g.lineTo(7, 5);
      g.stroke();
      patterns[key] = ctx.createPattern(c, 'repeat')!;
    }
    return patterns[key];
  }

  function hit(mx: number, my: number): Hit | null {
    const lane = lanes.find((l) => my >= l.top && my <= l.top + l.height);
    if (!lane || mx < GUTTER || mx > GUTTER + plotW()) return null;
    const step = toStep(mx);
    const tol = ((x1 - x0) / plotW()) * 2; // 2 px
    const off = ((lane.top + lane.height - my) / lane.height) * yMax(lane);
    const st = lane.st;
    let best = -1;
    for (let i = st.count - 1; i >= 0; i--) {
      if (step >= st.start[i] - tol && step < st.end[i] + tol && off >= st.offset[i] && off < st.offset[i] + st.size[i]) {
        if (!st.spilled[i]) return { lane, i };
        if (best < 0) best = i;
      }
    }
    return best >= 0 ? { lane, i: best } : null;
  }

  function showTip(mx: number, my: number) {
    const r = hit(mx, my);
    if (!r) {
      tip.style.display = 'none';
      canvas.style.cursor = dragging ? 'grabbing' : 'grab';
      return;
    }
    canvas.style.cursor = 'pointer';
    const { lane, i } = r;
    const st = lane.st;
    const buf = st.buf[i];
    const B = view!.buffers;
    const nUses = B.usesStart[buf + 1] - B.usesStart[buf];
    tip.replaceChildren(
      h('div', { class: 'tip-title' }, h('span', { class: 'swatch', style: `background:${bufferColor(buf, store.get().theme === 'dark')}` }), `Buffer ${buf}`),
      h('div', {}, `${lane.type} · ${st.size[i]} B at offset ${st.offset[i]}`),
      h('div', {}, st.spilled[i]
        ? `spilled out after step ${st.start[i] - 1}, back at step ${st.end[i]} (this is its old place)`
        : `resident: steps ${st.start[i]}–${st.end[i] - 1}`),
      h('div', { class: 'muted' }, `ALLOC @ ${B.allocStep[buf]} · FREE @ ${B.freeStep[buf]} · ${nUses} steps name it`),
    );
    tip.style.display = 'block';
    const tw = tip.offsetWidth, th = tip.offsetHeight;
    tip.style.left = `${Math.min(mx + 14, cssW - tw - 4)}px`;
    tip.style.top = `${my + 14 + th > cssH ? my - th - 10 : my + 14}px`;
  }

  // interaction
  let dragging = false, moved = 0, lastX = 0, downX = 0;
  canvas.addEventListener('pointerdown', (e) => {
    dragging = true; moved = 0; lastX = downX = e.offsetX;
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (dragging) {
      const dx = e.offsetX - lastX;
      lastX = e.offsetX;
      moved = Math.max(moved, Math.abs(e.offsetX - downX));
      if (dx) {
        const d = (dx / plotW()) * (x1 - x0);
        pan(-d);
      }
      tip.style.display = 'none';
      canvas.style.cursor = 'grabbing';
      return;
    }
    showTip(e.offsetX, e.offsetY);
  });
  canvas.addEventListener('pointerup', (e) => {
    dragging = false;
    if (moved < 4) {
      const r = hit(e.offsetX, e.offsetY);
      const cur = store.get().selectedBuf;
      const buf = r ? r.lane.st.buf[r.i] : null;
      store.set({ selectedBuf: buf !== null && cur !== buf ? buf : null, selectedSpill: null });
    }
    showTip(e.offsetX, e.offsetY);
  });
  canvas.addEventListener('pointerleave', () => { if (!dragging) tip.style.display = 'none'; });
  canvas.addEventListener('wheel', (e) => {
    if (!view) return;
    e.preventDefault();
    const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    if (Math.abs(e.deltaX) > Math.abs(delta)) {
      pan((e.deltaX / plotW()) * (x1 - x0));
      return;
    }
    const at = Math.min(x1, Math.max(x0, toStep(e.offsetX)));
    const f = Math.exp(delta * 0.0015);
    let span = Math.min(steps * 1.02, Math.max(8, (x1 - x0) * f));
    const ratio = (at - x0) / (x1 - x0);
    x0 = at - ratio * span;
    x1 = x0 + span;
    clamp();
    requestDraw();
  }, { passive: false });
  canvas.addEventListener('dblclick', () => { x0 = 0; x1 = steps; requestDraw(); });

  function pan(d: number) { x0 += d; x1 += d; clamp(); requestDraw(); }
  function clamp() {
    const span = x1 - x0;
    const pad = span * 0.02;
    if (x0 < -pad) { x0 = -pad; x1 = x0 + span; }
    if (x1 > steps + pad) { x1 = steps + pad; x0 = x1 - span; }
  }

  new ResizeObserver(() => { if (wrap.clientWidth !== cssW) resize(); }).observe(wrap);
  store.subscribe((s, p) => {
    if (s.view !== p.view) setView(s.view);
    else if (s.selectedBuf !== p.selectedBuf) {
      // bring the selected buffer into view if it is off screen
      const B = s.view?.buffers;
      const b = s.selectedBuf;
      if (B && b !== null && b < B.count && B.allocStep[b] >= 0 && (B.freeStep[b] < x0 || B.allocStep[b] > x1)) {
        const span = x1 - x0;
        x0 = Math.max(0, B.allocStep[b] - span * 0.1); x1 = x0 + span; clamp();
      }
      requestDraw();
    } else if (s.theme !== p.theme) { colors = readColors(); requestDraw(); }
  });
  setView(store.get().view);
}
