// What the page's canvas views share (the memory chart, the pipe timeline): the theme's colours,
// a visible range of x (steps, cycles) with pan and zoom mapped onto the plot's pixels, the
// pointer (a drag pans, the wheel or a pinch zooms, a click or a tap picks, a hover shows details), the keys
// that pan and zoom, a tooltip beside the pointer, rectangles painted straight into pixels (many
// thousands of per-rectangle canvas calls would hold the page for a frame of hundreds of
// milliseconds) and the x axis.
import { cssRgb } from './color';
import { h } from './format';

/** The theme's colours (CSS variables) a canvas paints with; read again when the theme changes. */
export function readPlotColors() {
  const cs = getComputedStyle(document.documentElement);
  const v = (n: string) => cs.getPropertyValue(n).trim();
  return {
    bg: v('--chart-bg'),
    grid: v('--border'),
    text: v('--muted'),
    strong: v('--text'),
    accent: v('--accent'),
    panel: v('--panel'),
    spillOut: v('--spill-out'),
    spillIn: v('--spill-in'),
    waitEdge: v('--wait-edge'),
    waitPipe: v('--wait-pipe'),
    waitAddress: v('--wait-address'),
  };
}
export type PlotColors = ReturnType<typeof readPlotColors>;

export const PLOT_FONT = '10.5px ui-sans-serif, system-ui, sans-serif';
export const PLOT_FONT_BOLD = '600 12px ui-sans-serif, system-ui, sans-serif';

/** The visible range [x0, x1] of a quantity that runs from 0 to `total`, drawn from pixel
 * `left` over `width` pixels. Zoom keeps at least `minSpan` units on screen. */
export class PlotX {
  x0 = 0;
  x1 = 1;
  total = 1;
  left = 0;
  width = 10;
  constructor(private readonly minSpan: number) {}

  /** x to pixels, and back */
  px(x: number) {
    return this.left + ((x - this.x0) / (this.x1 - this.x0)) * this.width;
  }
  at(px: number) {
    return this.x0 + ((px - this.left) / this.width) * (this.x1 - this.x0);
  }
  /** units per pixel */
  perPx() {
    return (this.x1 - this.x0) / this.width;
  }
  inPlot(px: number) {
    return px >= this.left && px <= this.left + this.width;
  }

  /** Everything on screen (a new total, or the user asked for all). */
  reset(total = this.total) {
    this.total = Math.max(1, total);
    this.x0 = 0;
    this.x1 = this.total;
  }
  zoom(f: number, at: number) {
    const span = Math.min(this.total * 1.02, Math.max(this.minSpan, (this.x1 - this.x0) * f));
    const ratio = (at - this.x0) / (this.x1 - this.x0);
    this.x0 = at - ratio * span;
    this.x1 = this.x0 + span;
    this.clamp();
  }
  pan(d: number) {
    this.x0 += d;
    this.x1 += d;
    this.clamp();
  }
  /** Shows [a, b] when it is off screen (the view pans, keeping its span); true when it moved. */
  follow(a: number, b: number): boolean {
    if (a >= this.x0 && b <= this.x1) return false;
    const span = this.x1 - this.x0;
    this.x0 = a < this.x0 ? a - span * 0.1 : b - span * 0.9;
    this.x1 = this.x0 + span;
    this.clamp();
    return true;
  }
  /** Centres [a, b] with a span of at least `span` (keeping the current one when larger). */
  centre(a: number, b: number, span: number) {
    const s = Math.min(this.x1 - this.x0, Math.max(this.minSpan, span));
    this.x0 = (a + b) / 2 - s / 2;
    this.x1 = this.x0 + s;
    this.clamp();
  }
  clamp() {
    const span = this.x1 - this.x0;
    const pad = span * 0.02;
    if (this.x0 < -pad) {
      this.x0 = -pad;
      this.x1 = this.x0 + span;
    }
    if (this.x1 > this.total + pad) {
      this.x1 = this.total + pad;
      this.x0 = this.x1 - span;
    }
  }
  /** "x0-x1" rounded: the data-view attribute tests read */
  label() {
    return `${Math.round(this.x0)}-${Math.round(this.x1)}`;
  }
}

/** Sizes a canvas to `w` x `h` CSS pixels at the screen's pixel ratio; returns the 2D context
 * with its transform set to CSS pixels and cleared. */
export function sizeCanvas(canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D, w: number, h: number) {
  const dpr = window.devicePixelRatio || 1;
  canvas.style.height = `${h}px`;
  canvas.width = Math.max(1, Math.round(w * dpr));
  canvas.height = Math.max(1, Math.round(h * dpr));
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
}

/** Clears a plot of w x h CSS pixels before it is drawn again, and says which x it shows
 * (`data-view` on `root`). */
export function clearPlot(ctx: CanvasRenderingContext2D, root: HTMLElement, x: PlotX, w: number, h: number) {
  const dpr = window.devicePixelRatio || 1;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  root.dataset.view = x.label();
}

/** The hint above a plot: the gestures on a touch screen, else the mouse's and the keys'. */
export function plotHint(touch: string, mouseAndKeys: string): string {
  return matchMedia('(pointer: coarse)').matches ? touch : mouseAndKeys;
}

/** What the pointer does on a plot besides panning (drag) and zooming (wheel). */
export interface PlotPointer {
  /** a mouse over the plot, no button down */
  hover(mx: number, my: number): void;
  /** a click or a tap (not a drag); `touch` for a finger or a pen */
  tap(mx: number, my: number, touch: boolean): void;
  /** the mouse left the canvas */
  leave(): void;
  /** a drag began to pan: details shown for a point no longer apply */
  dragging(): void;
}

/** Mouse: a drag pans, the wheel zooms (a sideways wheel pans), a double click shows all, a
 * click picks. Touch: a sideways drag pans, two fingers pinch to zoom (and pan as they move
 * together), a tap picks; the page still scrolls vertically over the canvas (CSS touch-action:
 * pan-y). */
export function attachPlotPointer(canvas: HTMLCanvasElement, x: PlotX, redraw: () => void, on: PlotPointer) {
  const down = new Map<number, number>(); // pointer id -> its last x (CSS pixels), while pressed
  let moved = 0,
    downX = 0,
    spread = 0;
  // the two first fingers: their middle, and how far apart they are across the plot (at least a
  // finger's width, so that two fingers one above the other do not zoom without end)
  const pair = () => [...down.values()].slice(0, 2);
  const middle = () => {
    const [a, b] = pair();
    return (a + b) / 2;
  };
  const spreadNow = () => {
    const [a, b] = pair();
    return Math.max(24, Math.abs(a - b));
  };
  canvas.addEventListener('pointerdown', (e) => {
    down.set(e.pointerId, e.offsetX);
    if (down.size === 1) {
      moved = 0;
      downX = e.offsetX;
    } else {
      moved = Infinity;
      spread = spreadNow();
    } // a pinch is no tap
    if (e.pointerType === 'mouse') canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    const last = down.get(e.pointerId);
    if (last === undefined) {
      if (e.pointerType === 'mouse') on.hover(e.offsetX, e.offsetY);
      return;
    }
    if (down.size >= 2) {
      const m0 = middle();
      down.set(e.pointerId, e.offsetX);
      const m1 = middle(),
        s = spreadNow();
      x.pan((m0 - m1) * x.perPx());
      x.zoom(spread / s, Math.min(x.x1, Math.max(x.x0, x.at(m1))));
      spread = s;
      on.dragging();
      redraw();
      return;
    }
    down.set(e.pointerId, e.offsetX);
    const dx = e.offsetX - last;
    moved = Math.max(moved, Math.abs(e.offsetX - downX));
    if (dx) {
      x.pan(-dx * x.perPx());
      redraw();
    }
    if (moved >= 4) on.dragging();
    canvas.style.cursor = 'grabbing';
  });
  const lift = (e: PointerEvent) => {
    down.delete(e.pointerId);
    if (down.size >= 2) spread = spreadNow();
  };
  canvas.addEventListener('pointerup', (e) => {
    lift(e);
    if (!down.size && moved < 4) on.tap(e.offsetX, e.offsetY, e.pointerType !== 'mouse');
  });
  canvas.addEventListener('pointercancel', lift);
  canvas.addEventListener('pointerleave', (e) => {
    if (!down.size && e.pointerType === 'mouse') on.leave();
  });
  canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
      if (Math.abs(e.deltaX) > Math.abs(delta)) x.pan(e.deltaX * x.perPx());
      else x.zoom(Math.exp(delta * 0.0015), Math.min(x.x1, Math.max(x.x0, x.at(e.offsetX))));
      redraw();
    },
    { passive: false },
  );
  canvas.addEventListener('dblclick', () => {
    x.reset();
    redraw();
  });
  return { dragging: () => down.size > 0 };
}

/** The keys that pan and zoom a plot: Shift+←/→ and PgUp/PgDn pan, +/− zoom around `focus`,
 * 0 shows all. Each is followed by `done` (redraw and announce). */
export function panZoomKeys(x: PlotX, shift: boolean, focus: number, done: () => void): Record<string, () => void> {
  const span = x.x1 - x.x0;
  const act = (f: () => void) => () => {
    f();
    done();
  };
  const zoomIn = act(() => x.zoom(1 / 1.5, focus));
  return shift
    ? { ArrowLeft: act(() => x.pan(-span * 0.1)), ArrowRight: act(() => x.pan(span * 0.1)) }
    : {
        PageUp: act(() => x.pan(-span * 0.8)),
        PageDown: act(() => x.pan(span * 0.8)),
        '+': zoomIn,
        '=': zoomIn,
        '-': act(() => x.zoom(1.5, focus)),
        '0': act(() => x.reset()),
      };
}

/** The page's parts of a canvas view, in `root`: the hint line above, the canvas (one tab stop,
 * described by a hidden text, and by the tooltip while it shows), the tooltip, a live region for
 * what the keys did, and a placeholder until there is something to draw. Test ids and element ids
 * are tid(part): canvas, tip, description, live. */
export function mountPlotDom(
  root: HTMLElement,
  tid: (part: string) => string,
  hint: HTMLElement,
  roleDescription: string,
  emptyText: string,
) {
  const describe = h('p', { class: 'visually-hidden', id: tid('description'), 'data-testid': tid('description') });
  const live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': tid('live') });
  const canvas = h('canvas', {
    class: 'chart-canvas',
    tabindex: 0,
    role: 'img',
    'aria-roledescription': roleDescription,
    'aria-describedby': tid('description'),
    'data-testid': tid('canvas'),
  });
  const tip = h('div', { class: 'chart-tip', role: 'tooltip', id: tid('tip'), 'data-testid': tid('tip') });
  const wrap = h('div', { class: 'chart-wrap' }, canvas, tip);
  const empty = h('div', { class: 'placeholder' }, emptyText);
  root.append(hint, wrap, describe, live, empty);
  return {
    describe,
    live,
    canvas,
    tip,
    wrap,
    ctx: canvas.getContext('2d')!,
    /** the plot, or the placeholder when there is nothing to draw */
    showPlot(on: boolean) {
      wrap.style.display = hint.style.display = on ? '' : 'none';
      empty.style.display = on ? 'none' : '';
    },
    /** shows the tooltip (its content set) near (mx, my) of a plot of w x h CSS pixels */
    showTip(mx: number, my: number, w: number, hh: number) {
      canvas.setAttribute('aria-describedby', `${tid('description')} ${tid('tip')}`);
      placeTip(tip, mx, my, w, hh);
    },
    hideTip() {
      tip.style.display = 'none';
      canvas.setAttribute('aria-describedby', tid('description'));
    },
  };
}

export type PlotDom = ReturnType<typeof mountPlotDom>;

/** Shows `tip` near (mx, my) inside a plot of w x h CSS pixels (below right, else above). */
function placeTip(tip: HTMLElement, mx: number, my: number, w: number, h: number) {
  tip.style.display = 'block';
  const tw = tip.offsetWidth,
    th = tip.offsetHeight;
  tip.style.left = `${Math.max(0, Math.min(mx + 14, w - tw - 4))}px`;
  tip.style.top = `${my + 14 + th > h ? Math.max(0, my - th - 10) : my + 14}px`;
}

/** A W x H image of rectangles over a background, painted as pixels and put on the canvas at
 * once. Colours are 0xRRGGBB with an opacity over the background. */
export function pixelImage(ctx: CanvasRenderingContext2D, W: number, H: number, bgCss: string) {
  const img = ctx.createImageData(W, H);
  const px = new Uint32Array(img.data.buffer);
  const bg = cssRgb(bgCss);
  const bR = (bg >> 16) & 255,
    bG = (bg >> 8) & 255,
    bB = bg & 255;
  /** colour c at opacity a over the background, as little-endian RGBA */
  const mix = (c: number, a: number) =>
    (0xff000000 |
      (Math.round(bB + ((c & 255) - bB) * a) << 16) |
      (Math.round(bG + (((c >> 8) & 255) - bG) * a) << 8) |
      Math.round(bR + (((c >> 16) & 255) - bR) * a)) >>>
    0;
  px.fill(mix(bg, 0));
  return {
    mix,
    /** fills columns [xa, xb) of rows [ya, yb) (clipped) with a mix()ed colour */
    fill(xa: number, xb: number, ya: number, yb: number, c: number) {
      xa = Math.max(0, xa);
      xb = Math.min(W, xb);
      ya = Math.max(0, ya);
      yb = Math.min(H, yb);
      // short runs pixel by pixel (a fill() call costs more), long ones with fill()
      if (xb - xa > 24) for (let y = ya; y < yb; y++) px.fill(c, y * W + xa, y * W + xb);
      else for (let y = ya; y < yb; y++) for (let o = y * W + xa, end = y * W + xb; o < end; o++) px[o] = c;
    },
    put(dx: number, dy: number) {
      ctx.putImageData(img, dx, dy);
    },
  };
}

/** The x axis under a plot: ticks at round numbers about every 90 pixels, each labelled by
 * `fmt`, and the quantity's name left of the plot. */
/** The step between an axis's labelled ticks: 1, 2 or 5 times a power of ten, about 90 pixels
 * apart over `width` pixels showing `span` units. */
export function axisTick(span: number, width: number): number {
  const target = span / Math.max(2, width / 90);
  const p = 10 ** Math.floor(Math.log10(Math.max(1, target)));
  return [1, 2, 5, 10].map((m) => m * p).find((t) => t >= target) ?? p * 10;
}

export function drawXAxis(
  ctx: CanvasRenderingContext2D,
  x: PlotX,
  y: number,
  name: string,
  colors: PlotColors,
  fmt = (t: number) => String(Math.round(t)),
) {
  const tick = axisTick(x.x1 - x.x0, x.width);
  ctx.fillStyle = colors.text;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = PLOT_FONT;
  for (let t = Math.ceil(x.x0 / tick) * tick; t <= x.x1; t += tick) {
    const px = x.px(t);
    if (px < x.left - 1 || px > x.left + x.width + 1) continue;
    ctx.fillRect(Math.round(px), y - 3, 1, 4);
    ctx.fillText(fmt(t), px, y + 9);
  }
  ctx.textAlign = 'right';
  ctx.fillText(name, x.left - 5, y + 9);
}

/** Spill nodes' marks above a lane: per mark its tip (px, y) and whether it is a SPILL_IN (▲)
 * or a SPILL_OUT (▼), as triples in `marks`. One path per colour: thousands of spills cost two
 * fills, not thousands. Marks whose tips round to the same half pixel are drawn once (a huge plan
 * has hundreds of spills per pixel), and subpaths are left for fill() to close: Chromium's
 * closePath() took time growing with the path (52 s for 150,000 marks). */
export function drawSpillMarks(ctx: CanvasRenderingContext2D, marks: number[], colors: PlotColors) {
  for (const up of [0, 1]) {
    ctx.fillStyle = up ? colors.spillIn : colors.spillOut;
    ctx.beginPath();
    const drawn = new Set<string>();
    for (let k = 0; k < marks.length; k += 3) {
      if (marks[k + 2] !== up) continue;
      const px = marks[k],
        y = marks[k + 1];
      const key = `${Math.round(px * 2)},${Math.round(y * 2)}`;
      if (drawn.has(key)) continue;
      drawn.add(key);
      if (up) {
        ctx.moveTo(px - 3.5, y);
        ctx.lineTo(px + 3.5, y);
        ctx.lineTo(px, y - 5);
      } else {
        ctx.moveTo(px - 3.5, y - 5);
        ctx.lineTo(px + 3.5, y - 5);
        ctx.lineTo(px, y);
      }
    }
    ctx.fill();
  }
}
