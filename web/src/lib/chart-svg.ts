// The memory at one step as a standalone SVG (a slide or a handout): one strip per memory type,
// 0 at the left and the capacity at the right, one rectangle per buffer resident at the step at
// its offset, in the buffer's colour from the chart (the document around it: lib/svg.ts).
import { bufferRgb, rgbCss } from './color';
import { fmtBytes, fmtInt } from './format';
import type { MemoryAt } from './steps';
import { esc, svgDocument, type SvgPicture } from './svg';

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

/** The SVG document of the memory at `s.step`. */
export function memorySvg(s: SvgSnapshot): SvgPicture {
  const height = TOP + s.memories.length * (STRIP_H + STRIP_GAP) + 20;
  const strips = s.memories.map((m, i) => strip(m, TOP + i * (STRIP_H + STRIP_GAP)));
  return svgDocument(
    SVG_WIDTH,
    height,
    `Memory at step ${fmtInt(s.step)} of ${fmtInt(s.steps)}: ${s.node}`,
    "Each box is a buffer resident at this step, placed at its offset; its colour is the buffer's in the Spillway playground.",
    strips,
  );
}
