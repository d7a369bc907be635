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
