// One stable colour per buffer: a hash of its id picks the hue.
function hash(n: number): number {
  let x = (n + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

const cache = new Map<string, string>();
export function bufferColor(buf: number, dark: boolean, alpha = 1): string {
  const key = `${buf}|${dark}|${alpha}`;
  let c = cache.get(key);
  if (!c) {
    const h = hash(buf);
    const hue = h % 360;
    const sat = 58 + ((h >>> 9) % 28);
    const light = dark ? 50 + ((h >>> 17) % 16) : 48 + ((h >>> 17) % 18);
    c = `hsla(${hue} ${sat}% ${light}% / ${alpha})`;
    cache.set(key, c);
  }
  return c;
}

const rgbCache = [new Int32Array(0), new Int32Array(0)]; // light, dark; -1 = not yet
/** The same colour as bufferColor(buf, dark) as 0xRRGGBB (for drawing pixels directly). */
export function bufferRgb(buf: number, dark: boolean): number {
  let cache = rgbCache[dark ? 1 : 0];
  if (buf >= cache.length) {
    const grown = new Int32Array(Math.max(buf + 1, cache.length * 2, 1024)).fill(-1);
    grown.set(cache);
    cache = rgbCache[dark ? 1 : 0] = grown;
  }
  let c = cache[buf];
  if (c < 0) {
    const h = hash(buf);
    c = hslRgb(h % 360, (58 + ((h >>> 9) % 28)) / 100, (dark ? 50 + ((h >>> 17) % 16) : 48 + ((h >>> 17) % 18)) / 100);
    cache[buf] = c;
  }
  return c;
}

/** A CSS colour ("#rrggbb", "rgb(r g b)", "rgb(r, g, b)") as 0xRRGGBB; 0 if unreadable. */
export function cssRgb(css: string): number {
  const hex = /^#([0-9a-f]{6})$/i.exec(css.trim());
  if (hex) return parseInt(hex[1], 16);
  const m = /rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/.exec(css);
  return m ? (Number(m[1]) << 16) | (Number(m[2]) << 8) | Number(m[3]) : 0;
}

const opCache = new Map<string, number>();
/** One stable, muted colour per operation name (the pipe timeline's bars), as 0xRRGGBB: a hash of
 * the name picks the hue; low saturation leaves the bright colours to spills and waits. */
export function opRgb(op: string, dark: boolean): number {
  const key = `${op}|${dark}`;
  let c = opCache.get(key);
  if (c === undefined) {
    let x = 0;
    for (let i = 0; i < op.length; i++) x = Math.imul(x ^ op.charCodeAt(i), 0x01000193);
    const h = hash(x);
    c = hslRgb(h % 360, 0.24 + ((h >>> 9) % 3) * 0.08, (dark ? 0.36 : 0.6) + ((h >>> 17) % 3) * 0.06);
    opCache.set(key, c);
  }
  return c;
}

/** hue (degrees), saturation and lightness (0..1) as 0xRRGGBB */
function hslRgb(hue: number, s: number, l: number): number {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + hue / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return (f(0) << 16) | (f(8) << 8) | f(4);
}

/** 0xRRGGBB as a CSS colour */
export const rgbCss = (c: number) => `#${c.toString(16).padStart(6, '0')}`;
