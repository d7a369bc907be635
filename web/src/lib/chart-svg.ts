// The memory at one step as a standalone SVG (a slide or a handout): one strip per memory type,
// 0 at the left and the capacity at the right, one rectangle per buffer resident at the step at
// its offset, in the buffer's colour from the chart. Light colours whatever the page's theme:
// slides and paper are white. Memory type names come from the graph, so every text is escaped.
import { bufferRgb, rgbCss } from './color';
import { fmtBytes, fmtInt } from './format';
import type { MemoryAt } from './steps';

export interface SvgSnapshot {
  step: number;
  steps: number;
  /** the node at the step, in words (describeStep) */
  node: string;
  memories: MemoryAt[];
}

export const SVG_WIDTH = 760;
const LEFT = 84;
const RIGHT = 24;
const TOP = 54;
const STRIP_H = 40;
const STRIP_GAP = 44;
/** Narrower rectangles carry no id (the title still names the buffer). */
const LABEL_MIN_PX = 22;

const esc = (t: string) =>
  t.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

function strip(m: MemoryAt, top: number): string {
  const w = SVG_WIDTH - LEFT - RIGHT;
  const extent = Math.max(1, m.capacity, ...m.live.map((b) => b.offset + b.size));
  const px = (bytes: number) => (bytes / extent) * w;
  const boxes = m.live.map((b) => {
    const x = LEFT + px(b.offset);
    const bw = Math.max(1, px(b.size));
    const label =
      bw >= LABEL_MIN_PX
        ? `<text x="${(x + bw / 2).toFixed(2)}" y="${top + STRIP_H / 2 + 4}" text-anchor="middle" fill="#fff" font-size="11">${b.buf}</text>`
        : '';
    return (
      `<g><rect class="buffer" data-buf="${b.buf}" x="${x.toFixed(2)}" y="${top}" width="${bw.toFixed(2)}" height="${STRIP_H}" fill="${rgbCss(bufferRgb(b.buf, false))}" stroke="#fff" stroke-width="0.5">` +
      `<title>Buffer ${b.buf}: ${esc(fmtBytes(b.size))} at offset ${fmtInt(b.offset)}</title></rect>${label}</g>`
    );
  });
  const type = esc(m.type);
  return [
    `<text x="${LEFT - 8}" y="${top + STRIP_H / 2 + 4}" text-anchor="end" font-size="13" font-weight="600">${type}</text>`,
    `<rect class="lane" x="${LEFT}" y="${top}" width="${w}" height="${STRIP_H}" fill="#f1f3f7" stroke="#9aa1b1"/>`,
    ...boxes,
    `<text x="${LEFT}" y="${top + STRIP_H + 14}" font-size="11" fill="#5b6272">offset 0</text>`,
    `<text x="${LEFT + w / 2}" y="${top + STRIP_H + 14}" text-anchor="middle" font-size="11" fill="#5b6272">${type}: ${fmtInt(m.live.length)} ${m.live.length === 1 ? 'buffer' : 'buffers'}, ${esc(fmtBytes(m.used))} of ${esc(fmtBytes(m.capacity))} used</text>`,
    `<text x="${LEFT + w}" y="${top + STRIP_H + 14}" text-anchor="end" font-size="11" fill="#5b6272">${esc(fmtBytes(extent))}</text>`,
  ].join('');
}

/** The SVG document (with its XML declaration) of the memory at `s.step`. */
export function memorySvg(s: SvgSnapshot): { svg: string; width: number; height: number } {
  const height = TOP + s.memories.length * (STRIP_H + STRIP_GAP) + 20;
  const strips = s.memories.map((m, i) => strip(m, TOP + i * (STRIP_H + STRIP_GAP)));
  const title = `Memory at step ${fmtInt(s.step)} of ${fmtInt(s.steps)}: ${s.node}`;
  const svg = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SVG_WIDTH}" height="${height}" viewBox="0 0 ${SVG_WIDTH} ${height}" font-family="system-ui, sans-serif" fill="#1d2230">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${SVG_WIDTH}" height="${height}" fill="#fff"/>`,
    `<text x="16" y="22" font-size="15" font-weight="650">${esc(title)}</text>`,
    `<text x="16" y="40" font-size="11.5" fill="#5b6272">Each box is a buffer resident at this step, placed at its offset; its colour is the buffer's in the Spillway playground.</text>`,
    ...strips,
    '</svg>',
  ].join('\n');
  return { svg: `${svg}\n`, width: SVG_WIDTH, height };
}
