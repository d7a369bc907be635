// Memory layout chart: one lane per memory type, x = step in the new order, y = offset
// (0 at the bottom, capacity at the top). One rectangle per stretch a buffer is resident; the
// stretch while it is spilled is drawn dashed and hatched at the place it left. Canvas, with
// drag to pan, wheel to zoom, hover for details and click to highlight the buffer's uses.
import type { Store } from '../store';
import type { PlanView, Stretch } from '../engine/types';
import { bufferColor } from '../lib/color';
import { fmtBytes, h } from '../lib/format';

const GUTTER = 68;
const RIGHT = 10;
const LANE_H = 104;
const LANE_GAP = 10;
const AXIS_H = 22;

interface Lane { type: string; capacity: number; stretches: Stretch[]; top: number; height: number }

export function mountChart(root: HTMLElement, store: Store) {
  root.dataset.testid = 'memory-chart';
  root.classList.add('chart');
  const hint = h('div', { class: 'chart-hint' },
    h('span', {}, 'drag to pan · wheel to zoom · click a buffer to highlight its uses · double-click to reset'));
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
      const caps = v.result.capacities;
      const types = Object.keys(caps).filter((t) => v.stretches[t]?.length);
      for (const t of Object.keys(v.stretches)) if (!types.includes(t)) types.push(t);
      types.forEach((type, i) => lanes.push({
        type, capacity: caps[type] ?? Math.max(...v.stretches[type].map((s) => s.offset + s.size)),
        stretches: v.stretches[type], top: i * (LANE_H + LANE_GAP) + 6, height: LANE_H,
      }));
      steps = Math.max(1, v.result.order.length);
    }
    x0 = 0;
    x1 = steps;
    const total = lanes.reduce((n, l) => n + l.stretches.length, 0);
    const spilled = lanes.reduce((n, l) => n + l.stretches.filter((s) => s.spilled).length, 0);
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
  const sy = (lane: Lane, off: number) => lane.top + lane.height - (off / lane.capacity) * lane.height;

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
      ctx.textAlign = 'right';
      ctx.fillText('0', GUTTER - 5, lane.top + lane.height - 5);

      ctx.save();
      ctx.beginPath();
      ctx.rect(GUTTER, lane.top, pw, lane.height);
      ctx.clip();
      const pxPerStep = pw / (x1 - x0);
      let selected: Stretch[] = [];
      for (const s of lane.stretches) {
        if (s.end <= x0 || s.start >= x1) continue;
        const xa = sx(s.start), xb = sx(s.end);
        const ya = sy(lane, s.offset + s.size), yb = sy(lane, s.offset);
        const w = Math.max(0.8, xb - xa), hh = Math.max(0.8, yb - ya);
        const dim = sel !== null && s.buf !== sel;
        if (s.buf === sel) selected.push(s);
        if (s.spilled) {
          ctx.fillStyle = bufferColor(s.buf, dark, dim ? 0.05 : 0.16);
          ctx.fillRect(xa, ya, w, hh);
          if (w > 3 && hh > 3) {
            ctx.strokeStyle = bufferColor(s.buf, dark, dim ? 0.2 : 0.9);
            ctx.setLineDash([3, 2]);
            ctx.strokeRect(xa + 0.5, ya + 0.5, w - 1, hh - 1);
            ctx.setLineDash([]);
            hatch(xa, ya, w, hh, bufferColor(s.buf, dark, dim ? 0.12 : 0.45));
          }
        } else {
          ctx.fillStyle = bufferColor(s.buf, dark, dim ? 0.22 : 0.92);
          ctx.fillRect(xa, ya, w, hh);
          if (pxPerStep > 2 && w > 4 && hh > 4) {
            ctx.strokeStyle = colors.panel;
            ctx.strokeRect(xa + 0.5, ya + 0.5, w - 1, hh - 1);
          }
        }
      }
      for (const s of selected) {
        const xa = sx(s.start), xb = sx(s.end);
        const ya = sy(lane, s.offset + s.size), yb = sy(lane, s.offset);
        ctx.strokeStyle = colors.strong;
        ctx.lineWidth = 2;
        if (s.spilled) ctx.setLineDash([4, 3]);
        ctx.strokeRect(xa, ya, Math.max(2, xb - xa), Math.max(2, yb - ya));
        ctx.setLineDash([]);
        ctx.lineWidth = 1;
      }
      ctx.restore();
    }
    // spill markers along the top of each lane: ▼ SPILL_OUT, ▲ SPILL_IN
    for (const sp of view.result.spills) {
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

  function hatch(x: number, y: number, w: number, hh: number, color: string) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(x, y, w, hh);
    ctx.clip();
    ctx.strokeStyle = color;
    ctx.beginPath();
    for (let d = -hh; d < w; d += 6) {
      ctx.moveTo(x + d, y + hh);
      ctx.lineTo(x + d + hh, y);
    }
    ctx.stroke();
    ctx.restore();
  }

  function hit(mx: number, my: number): { lane: Lane; s: Stretch } | null {
    const lane = lanes.find((l) => my >= l.top && my <= l.top + l.height);
    if (!lane || mx < GUTTER || mx > GUTTER + plotW()) return null;
    const step = toStep(mx);
    const tol = (x1 - x0) / plotW() * 2; // 2 px
    const off = ((lane.top + lane.height - my) / lane.height) * lane.capacity;
    let best: Stretch | null = null;
    for (let i = lane.stretches.length - 1; i >= 0; i--) {
      const s = lane.stretches[i];
      if (step >= s.start - tol && step < s.end + tol && off >= s.offset && off < s.offset + s.size) {
        if (!s.spilled) return { lane, s };
        best ??= s;
      }
    }
    return best ? { lane, s: best } : null;
  }

  function showTip(mx: number, my: number) {
    const r = hit(mx, my);
    if (!r) {
      tip.style.display = 'none';
      canvas.style.cursor = dragging ? 'grabbing' : 'grab';
      return;
    }
    canvas.style.cursor = 'pointer';
    const s = r.s;
    const b = view!.buffers[s.buf];
    tip.replaceChildren(
      h('div', { class: 'tip-title' }, h('span', { class: 'swatch', style: `background:${bufferColor(s.buf, store.get().theme === 'dark')}` }), `Buffer ${s.buf}`),
      h('div', {}, `${s.type} · ${s.size} B at offset ${s.offset}`),
      h('div', {}, s.spilled ? `spilled out: steps ${s.start - 1}–${s.end} (SPILL_OUT → SPILL_IN)` : `resident: steps ${s.start}–${s.end - 1}`),
      b ? h('div', { class: 'muted' }, `ALLOC @ ${b.allocStep}, FREE @ ${b.freeStep}, ${b.uses.length} uses`) : '',
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
      store.set({ selectedBuf: r ? (cur === r.s.buf ? null : r.s.buf) : null, selectedSpill: null });
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
      const b = s.selectedBuf !== null ? s.view?.buffers[s.selectedBuf] : null;
      if (b && (b.freeStep < x0 || b.allocStep > x1)) {
        const span = x1 - x0;
        x0 = Math.max(0, b.allocStep - span * 0.1); x1 = x0 + span; clamp();
      }
      requestDraw();
    } else if (s.theme !== p.theme) { colors = readColors(); requestDraw(); }
  });
  setView(store.get().view);
}
