// The pipe timeline's renderer: bars and waits (as shapes, or as pixels when many are on screen),
// lane frames, spill marks, the cursor and the x axis, from the view model (timeline-model.ts).
import { rgbCss } from '../lib/color';
import { fmtInt } from '../lib/format';
import { PLOT_FONT, PLOT_FONT_BOLD, clearPlot, drawSpillMarks, drawXAxis, pixelImage, sizeCanvas } from '../lib/plot';
import {
  AXIS_H,
  BAR_H,
  GUTTER,
  LANE_GAP,
  LANE_H,
  type Lane,
  NO_PIPE,
  PIXELS_ABOVE,
  RIGHT,
  TOP,
  type Timeline,
  WAIT_GAP,
  WAIT_H,
  barRgb,
  causeRgb,
  hasWait,
  laneOfStep,
  lastShown,
  spillKind,
  visibleSteps,
  waitFrom,
} from './timeline-model';

/** "x,y,w,h" of a box in CSS pixels (the canvas's data attributes tests read) */
const box = (x: number, y: number, w: number, hh: number) =>
  [x, y, w, hh].map((v) => Math.round(v * 10) / 10).join(',');

/** Sizes the canvas to its box and draws. */
export function resize(t: Timeline) {
  t.cssW = t.dom.wrap.clientWidth;
  t.cssH = TOP + t.lanes.length * (LANE_H + LANE_GAP) + AXIS_H;
  t.x.width = Math.max(10, t.cssW - GUTTER - RIGHT);
  sizeCanvas(t.dom.canvas, t.dom.ctx, t.cssW, t.cssH);
  draw(t);
}

export function requestDraw(t: Timeline) {
  if (!t.frame)
    t.frame = requestAnimationFrame(() => {
      t.frame = 0;
      draw(t);
    });
}

export function draw(t: Timeline) {
  const { ctx } = t.dom;
  const { x, root } = t;
  clearPlot(ctx, root, x, t.cssW, t.cssH);
  if (!t.view || !t.lanes.length) return;
  const v = t.view;
  const last = lastShown(t, t.store.get());
  let pixels = 0;
  const marks: number[] = []; // the spill nodes' marks above their lanes
  for (const lane of t.lanes) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER, lane.top - 7, x.width, LANE_H + 7);
    ctx.clip();
    const visible = visibleSteps(t, lane);
    if (visible.length > PIXELS_ABOVE) {
      pixels++;
      paintPixels(t, lane, visible);
    } else drawShapes(t, lane, visible);
    ctx.restore();
    drawLaneFrame(t, lane);
    if (!lane.pipe) continue;
    for (const st of visible) {
      const up = spillKind(t, st);
      if (up >= 0) marks.push(x.px((v.start[st] + v.end[st]) / 2), lane.top - 1, up);
    }
  }
  drawSpillMarks(ctx, marks, t.colors);
  root.dataset.pixels = String(pixels);
  drawCursor(t, last);
  drawXAxis(ctx, x, t.lanes[t.lanes.length - 1].top + LANE_H + 4, 'cycle', t.colors, (c) => fmtInt(c));
  if (!t.painted) {
    t.painted = true;
    root.dataset.paintedAt = String(performance.now());
  }
}

/** A lane with many nodes on screen: bars and waits as pixels. */
function paintPixels(t: Timeline, lane: Lane, visible: number[]) {
  const v = t.view!;
  const { x } = t;
  const dpr = window.devicePixelRatio || 1;
  const W = Math.max(1, Math.round(x.width * dpr)),
    H = Math.round(LANE_H * dpr);
  const img = pixelImage(t.dom.ctx, W, H, t.colors.bg);
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
    const rank = lane.pipe ? spillKind(t, s) + 1 : v.timeline.root[s];
    if (xa !== barA || xb !== barB || rank > barRank) {
      img.fill(xa, xb, 0, barH, img.mix(barRgb(t, s), 0.95));
      barA = xa;
      barB = xb;
      barRank = rank;
    }
    if (!lane.pipe || !hasWait(v, s)) continue;
    const wa = col(waitFrom(v, s)),
      wb = Math.max(wa + 1, xa);
    if (wa !== waitA || wb !== waitB || v.timeline.root[s] > waitRank) {
      img.fill(wa, wb, waitTop, H, img.mix(causeRgb(t, v.timeline.root[s]), 0.9));
      waitA = wa;
      waitB = wb;
      waitRank = v.timeline.root[s];
    }
  }
  img.put(Math.round(GUTTER * dpr), Math.round(lane.top * dpr));
}

/** A lane with few nodes on screen: rectangles, separated where they are wide enough. */
function drawShapes(t: Timeline, lane: Lane, visible: number[]) {
  const v = t.view!;
  const { x, colors } = t;
  const { ctx } = t.dom;
  ctx.fillStyle = colors.bg;
  ctx.fillRect(GUTTER, lane.top, x.width, LANE_H);
  for (const s of visible) {
    const xa = x.px(v.start[s]),
      w = Math.max(1, x.px(v.end[s]) - xa);
    ctx.fillStyle = rgbCss(barRgb(t, s));
    ctx.fillRect(xa, lane.top, w, BAR_H);
    if (w > 4) {
      ctx.strokeStyle = colors.panel;
      ctx.strokeRect(xa + 0.5, lane.top + 0.5, w - 1, BAR_H - 1);
    }
    if (lane.pipe && hasWait(v, s)) {
      const wa = x.px(waitFrom(v, s));
      ctx.fillStyle = rgbCss(causeRgb(t, v.timeline.root[s]));
      ctx.fillRect(wa, lane.top + BAR_H + WAIT_GAP, Math.max(1, xa - wa), WAIT_H);
    }
  }
}

function drawLaneFrame(t: Timeline, lane: Lane) {
  const { ctx } = t.dom;
  const { colors } = t;
  ctx.strokeStyle = colors.grid;
  ctx.lineWidth = 1;
  ctx.strokeRect(GUTTER + 0.5, lane.top + 0.5, t.x.width - 1, LANE_H - 1);
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
function drawCursor(t: Timeline, last: number) {
  const { ctx, canvas } = t.dom;
  const { x, lanes, colors } = t;
  const v = t.view!;
  const c = t.store.get().cursor;
  t.root.dataset.cursor = String(c);
  canvas.dataset.cursorBox = '';
  canvas.dataset.cursorWaitBox = '';
  if (c < 0 || c >= v.order.length || c > last) return;
  const lane = laneOfStep(t, c)!;
  const xa = x.px(v.start[c]),
    xb = Math.max(xa + 2, x.px(v.end[c]));
  ctx.save();
  ctx.beginPath();
  ctx.rect(GUTTER, 0, x.width, t.cssH);
  ctx.clip();
  ctx.fillStyle = colors.accent;
  ctx.globalAlpha = 0.7;
  ctx.fillRect(Math.round(xa) - 0.5, lanes[0].top - 6, 1.5, lanes[lanes.length - 1].top + LANE_H - lanes[0].top + 6);
  ctx.globalAlpha = 1;
  ctx.strokeStyle = colors.strong;
  ctx.lineWidth = 2;
  ctx.strokeRect(xa - 1, lane.top - 1, xb - xa + 2, BAR_H + 2);
  if (lane.pipe && hasWait(v, c)) {
    const wa = x.px(waitFrom(v, c));
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
