// The memory chart's renderer: lanes, stretches (as shapes, or as pixels when many are on screen),
// spill marks, the cursor and the x axis, from the view model (chart-model.ts).
import { bufferColor, bufferRgb } from '../lib/color';
import { fmtBytes } from '../lib/format';
import { PLOT_FONT, PLOT_FONT_BOLD, clearPlot, drawSpillMarks, drawXAxis, pixelImage, sizeCanvas } from '../lib/plot';
import { AXIS_H, type Chart, GUTTER, LANE_GAP, LANE_H, type Lane, PIXELS_ABOVE, RIGHT, sy, yMax } from './chart-model';

/** Sizes the canvas to its box and draws. */
export function resize(c: Chart) {
  c.cssW = c.dom.wrap.clientWidth;
  c.cssH = c.lanes.length * (LANE_H + LANE_GAP) + AXIS_H + 6;
  c.x.width = Math.max(10, c.cssW - GUTTER - RIGHT);
  sizeCanvas(c.dom.canvas, c.dom.ctx, c.cssW, c.cssH);
  draw(c);
}

export function requestDraw(c: Chart) {
  if (!c.frame)
    c.frame = requestAnimationFrame(() => {
      c.frame = 0;
      draw(c);
    });
}

export function draw(c: Chart) {
  const { ctx } = c.dom;
  clearPlot(ctx, c.root, c.x, c.cssW, c.cssH);
  if (!c.view || !c.lanes.length) return;
  const dark = c.store.get().theme === 'dark';
  const sel = c.src.selectedBuf(c.store.get());
  ctx.textBaseline = 'middle';
  let painted = 0;
  for (const lane of c.lanes) {
    const st = lane.st;
    const visible: number[] = [];
    for (let i = 0; i < st.count; i++) if (st.end[i] > c.x.x0 && st.start[i] < c.x.x1) visible.push(i);
    const pixels = visible.length > PIXELS_ABOVE;
    if (pixels) {
      painted++;
      paintPixels(c, lane, visible, dark, sel);
    } else {
      ctx.fillStyle = c.colors.bg;
      ctx.fillRect(GUTTER, lane.top, c.x.width, lane.height);
    }
    drawLaneFrame(c, lane);
    if (!pixels) drawShapes(c, lane, visible, dark, sel);
    else {
      // the selected buffer's outline on top of the pixels
      ctx.save();
      ctx.beginPath();
      ctx.rect(GUTTER, lane.top, c.x.width, lane.height);
      ctx.clip();
      for (const i of visible) if (st.buf[i] === sel) outline(c, lane, i);
      ctx.restore();
    }
  }
  c.root.dataset.pixels = String(painted);
  drawSpillMarkers(c);
  drawCursor(c);
  drawXAxis(ctx, c.x, c.lanes[c.lanes.length - 1].top + LANE_H + 4, 'step', c.colors);
}

/** A lane's grid, frame and labels. */
function drawLaneFrame(c: Chart, lane: Lane) {
  const { ctx } = c.dom;
  const pw = c.x.width;
  ctx.strokeStyle = c.colors.grid;
  ctx.lineWidth = 1;
  for (const f of [0.25, 0.5, 0.75]) {
    const y = Math.round(lane.top + lane.height * f) + 0.5;
    ctx.beginPath();
    ctx.moveTo(GUTTER, y);
    ctx.lineTo(GUTTER + pw, y);
    ctx.stroke();
  }
  ctx.strokeRect(GUTTER + 0.5, lane.top + 0.5, pw - 1, lane.height - 1);
  ctx.fillStyle = c.colors.strong;
  ctx.font = PLOT_FONT_BOLD;
  ctx.textAlign = 'left';
  ctx.fillText(lane.type, 8, lane.top + 12);
  ctx.font = PLOT_FONT;
  ctx.fillStyle = c.colors.text;
  ctx.fillText(fmtBytes(lane.capacity), 8, lane.top + 27);
  if (c.fitY) ctx.fillText(`y to ${fmtBytes(yMax(c, lane))}`, 8, lane.top + 41);
  ctx.textAlign = 'right';
  ctx.fillText('0', GUTTER - 5, lane.top + lane.height - 5);
}

/** Spill markers along the top of each lane: ▼ SPILL_OUT, ▲ SPILL_IN. */
function drawSpillMarkers(c: Chart) {
  const laneOf = new Map(c.lanes.map((l) => [l.type, l]));
  const marks: number[] = [];
  for (const sp of c.view!.spills) {
    const lane = laneOf.get(sp.type);
    if (!lane) continue;
    for (const [step, up] of [
      [sp.outStep, 0],
      [sp.inStep, 1],
    ] as const) {
      if (step >= c.x.x0 && step <= c.x.x1) marks.push(c.x.px(step + 0.5), lane.top - 1, up);
    }
  }
  drawSpillMarks(c.dom.ctx, marks, c.colors);
}

/** Paints a lane's stretches as pixels: resident ones opaque, spilled ones faint. */
function paintPixels(c: Chart, lane: Lane, visible: number[], dark: boolean, sel: number | null) {
  const { x } = c;
  const dpr = window.devicePixelRatio || 1;
  const W = Math.max(1, Math.round(x.width * dpr)),
    H = Math.max(1, Math.round(lane.height * dpr));
  const img = pixelImage(c.dom.ctx, W, H, c.colors.bg);
  const st = lane.st;
  const scaleX = W / (x.x1 - x.x0);
  const scaleY = H / yMax(c, lane);
  for (const spilledPass of [1, 0]) {
    for (const i of visible) {
      if (st.spilled[i] !== spilledPass) continue;
      const buf = st.buf[i];
      const dim = sel !== null && buf !== sel;
      const color = img.mix(bufferRgb(buf, dark), spilledPass ? (dim ? 0.06 : 0.22) : dim ? 0.4 : 0.95);
      const xa = Math.max(0, Math.floor((st.start[i] - x.x0) * scaleX));
      const xb = Math.max(xa + 1, Math.floor((st.end[i] - x.x0) * scaleX));
      const yb = Math.min(H, H - Math.floor(st.offset[i] * scaleY));
      const ya = Math.max(0, Math.min(yb - 1, H - Math.ceil((st.offset[i] + st.size[i]) * scaleY)));
      img.fill(xa, xb, ya, yb, color);
    }
  }
  img.put(Math.round(GUTTER * dpr), Math.round(lane.top * dpr));
}

/** The cursor: a band over its step across every lane; with a question open, an opaque veil over
 * the steps it keeps hidden (they would give the answer away). */
function drawCursor(c: Chart) {
  const { ctx } = c.dom;
  const s = c.store.get();
  const cur = c.src.cursor(s);
  c.root.dataset.cursor = cur === null ? '' : String(cur);
  if (cur === null || !c.lanes.length) return;
  const top = c.lanes[0].top,
    bottom = c.lanes[c.lanes.length - 1].top + LANE_H;
  const pw = c.x.width;
  ctx.save();
  ctx.beginPath();
  ctx.rect(GUTTER, top - 6, pw, bottom - top + 6);
  ctx.clip();
  const hidden = c.src.hiddenFrom?.(s) ?? Number.POSITIVE_INFINITY;
  if (hidden < Number.POSITIVE_INFINITY) {
    const from = Math.max(GUTTER, c.x.px(hidden));
    ctx.fillStyle = c.colors.bg;
    ctx.fillRect(from, top - 6, GUTTER + pw - from, bottom - top + 6);
  }
  const xa = c.x.px(cur),
    xb = c.x.px(cur + 1);
  ctx.fillStyle = c.colors.accent;
  ctx.globalAlpha = 0.18;
  ctx.fillRect(xa, top, Math.max(1, xb - xa), bottom - top);
  ctx.globalAlpha = 1;
  ctx.fillRect(Math.round((xa + xb) / 2) - 1, top - 6, 2, bottom - top + 6);
  ctx.restore();
}

function outline(c: Chart, lane: Lane, i: number) {
  const { ctx } = c.dom;
  const st = lane.st;
  const xa = c.x.px(st.start[i]),
    xb = c.x.px(st.end[i]);
  const ya = sy(c, lane, st.offset[i] + st.size[i]),
    yb = sy(c, lane, st.offset[i]);
  ctx.strokeStyle = c.colors.strong;
  ctx.lineWidth = 2;
  if (st.spilled[i]) ctx.setLineDash([4, 3]);
  ctx.strokeRect(xa, ya, Math.max(2, xb - xa), Math.max(2, yb - ya));
  ctx.setLineDash([]);
  ctx.lineWidth = 1;
}

/** Stretch i's rectangle: x, y, width, height (at least 0.8 pixels each way). */
function rectOf(c: Chart, lane: Lane, i: number): [number, number, number, number] {
  const st = lane.st;
  const xa = c.x.px(st.start[i]),
    xb = c.x.px(st.end[i]);
  const ya = sy(c, lane, st.offset[i] + st.size[i]),
    yb = sy(c, lane, st.offset[i]);
  return [xa, ya, Math.max(0.8, xb - xa), Math.max(0.8, yb - ya)];
}

/** A lane with few stretches on screen: rectangles with outlines, hatched spilled places. */
function drawShapes(c: Chart, lane: Lane, visible: number[], dark: boolean, sel: number | null) {
  const { ctx } = c.dom;
  ctx.save();
  ctx.beginPath();
  ctx.rect(GUTTER, lane.top, c.x.width, lane.height);
  ctx.clip();
  const pxPerStep = 1 / c.x.perPx();
  const st = lane.st;
  const spilledRects: number[] = []; // xa, ya, w, h, buf
  // 1. spilled stretches underneath: faint fill + hatching at the place the buffer left
  for (const i of visible) {
    if (!st.spilled[i]) continue;
    const buf = st.buf[i];
    const [xa, ya, w, hh] = rectOf(c, lane, i);
    const dim = sel !== null && buf !== sel;
    ctx.fillStyle = bufferColor(buf, dark, dim ? 0.06 : 0.22);
    ctx.fillRect(xa, ya, w, hh);
    if (w > 3 && hh > 3 && !dim) spilledRects.push(xa, ya, w, hh, buf);
  }
  if (spilledRects.length) {
    ctx.beginPath();
    for (let k = 0; k < spilledRects.length; k += 5)
      ctx.rect(spilledRects[k], spilledRects[k + 1], spilledRects[k + 2], spilledRects[k + 3]);
    ctx.fillStyle = hatchPattern(c, dark);
    ctx.fill();
  }
  // 2. resident stretches
  for (const i of visible) {
    if (st.spilled[i]) continue;
    const buf = st.buf[i];
    const [xa, ya, w, hh] = rectOf(c, lane, i);
    ctx.fillStyle = bufferColor(buf, dark, sel !== null && buf !== sel ? 0.4 : 0.95);
    ctx.fillRect(xa, ya, w, hh);
    if (pxPerStep > 2 && w > 4 && hh > 4) {
      ctx.strokeStyle = c.colors.panel;
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
  for (const i of visible) if (st.buf[i] === sel) outline(c, lane, i);
  ctx.restore();
}

function hatchPattern(c: Chart, dark: boolean): CanvasPattern {
  const key = dark ? 'dark' : 'light';
  if (!c.patterns[key]) {
    const tile = document.createElement('canvas');
    tile.width = tile.height = 6;
    const g = tile.getContext('2d')!;
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
    c.patterns[key] = c.dom.ctx.createPattern(tile, 'repeat')!;
  }
  return c.patterns[key];
}
