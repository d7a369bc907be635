// The pipe timeline up to one step as a standalone SVG (a slide or a handout): one lane per pipe as
// on screen, the nodes of the new order up to that step as bars from their start to their end
// cycle (ALLOC and FREE, which take no cycles, as ticks in a last lane), each wait as a strip under
// its bar in its cause's colour, spill nodes marked ▼ / ▲ above their lane, and the legend of the
// page's timeline. x runs from cycle 0 to the last end shown: nothing after the step is drawn or
// measured, so a picture taken while a question is open gives nothing away.
import { rgbCss } from './color';
import { fmtInt } from './format';
import { axisTick } from './plot';
import { esc, svgDocument, type SvgPicture } from './svg';

/** The export's colours (the light theme's: slides and paper are white). */
export const TIMELINE_SVG_COLORS = {
  text: '#5b6272',
  waitEdge: '#0e7490',
  waitPipe: '#ca8a04',
  waitAddress: '#db2777',
  spillOut: '#c2410c',
  spillIn: '#4338ca',
};

export interface TimelineNodeAt {
  step: number;
  node: number;
  op: string;
  start: number;
  end: number;
  /** 0xRRGGBB */
  fill: number;
  /** 1 for a SPILL_IN, 0 for a SPILL_OUT, -1 for any other node */
  spill: number;
  /** where the node could have started and why it did not (cause: a WAIT_CAUSES index) */
  wait: { from: number; cause: number; name: string } | null;
}

export interface TimelineLaneAt {
  name: string;
  pipe: boolean;
  nodes: TimelineNodeAt[];
}

export interface TimelineSnapshot {
  /** the last step drawn (-1: none) */
  step: number;
  steps: number;
  /** the node at the step, in words (describeStep) */
  node: string;
  lanes: TimelineLaneAt[];
}

const WIDTH = 960;
const GUTTER = 140;
const RIGHT = 24;
const TOP = 92;
const BAR_H = 18;
const WAIT_GAP = 2;
const WAIT_H = 7;
const LANE_H = BAR_H + WAIT_GAP + WAIT_H;
const LANE_GAP = 16;
const AXIS_H = 30;
const CAUSE_COLORS = [
  TIMELINE_SVG_COLORS.text,
  TIMELINE_SVG_COLORS.waitEdge,
  TIMELINE_SVG_COLORS.waitPipe,
  TIMELINE_SVG_COLORS.waitAddress,
];

const f2 = (n: number) => n.toFixed(2);

/** The legend of the page's timeline: spill marks and wait causes. */
function legend(y: number): string {
  const c = TIMELINE_SVG_COLORS;
  const swatch = (x: number, color: string, label: string) =>
    `<rect x="${x}" y="${y - 8}" width="14" height="7" fill="${color}"/><text x="${x + 18}" y="${y}" font-size="11" fill="${c.text}">${label}</text>`;
  return [
    `<text x="16" y="${y}" font-size="11" fill="${c.spillOut}">▼</text><text x="30" y="${y}" font-size="11" fill="${c.text}">SPILL_OUT</text>`,
    `<text x="98" y="${y}" font-size="11" fill="${c.spillIn}">▲</text><text x="112" y="${y}" font-size="11" fill="${c.text}">SPILL_IN</text>`,
    `<text x="176" y="${y}" font-size="11" fill="${c.text}">waits (the strip under a bar):</text>`,
    swatch(340, c.waitEdge, 'edge'),
    swatch(396, c.waitPipe, 'pipe busy'),
    swatch(484, c.waitAddress, 'address reuse'),
  ].join('');
}

/** One node: its bar (a tick without a pipe), its wait strip, its spill mark. */
function nodeShapes(n: TimelineNodeAt, lane: TimelineLaneAt, top: number, px: (c: number) => number): string {
  const x = px(n.start);
  const w = Math.max(lane.pipe ? 1 : 1.5, px(n.end) - x);
  const title = `Step ${n.step}: ${esc(n.op)} (node ${n.node}), cycles ${fmtInt(n.start)}–${fmtInt(n.end)}${n.wait ? `; waited for ${esc(n.wait.name)}` : ''}`;
  const out = [
    `<rect class="node" data-step="${n.step}" data-node="${n.node}" data-pipe="${lane.pipe ? esc(lane.name) : ''}" data-start="${n.start}" data-end="${n.end}" x="${f2(x)}" y="${top}" width="${f2(w)}" height="${BAR_H}" fill="${rgbCss(n.fill)}"${w > 4 ? ' stroke="#fff" stroke-width="0.5"' : ''}><title>${title}</title></rect>`,
  ];
  if (lane.pipe && n.wait) {
    const wx = px(n.wait.from);
    out.push(
      `<rect class="wait" data-step="${n.step}" x="${f2(wx)}" y="${top + BAR_H + WAIT_GAP}" width="${f2(Math.max(1, x - wx))}" height="${WAIT_H}" fill="${CAUSE_COLORS[n.wait.cause]}"/>`,
    );
  }
  if (lane.pipe && n.spill >= 0) {
    const mark = n.spill ? '▲' : '▼';
    const color = n.spill ? TIMELINE_SVG_COLORS.spillIn : TIMELINE_SVG_COLORS.spillOut;
    out.push(
      `<text class="spill-mark" x="${f2(x + w / 2)}" y="${top - 2}" text-anchor="middle" font-size="9" fill="${color}">${mark}</text>`,
    );
  }
  return out.join('');
}

function laneShapes(lane: TimelineLaneAt, top: number, plotW: number, px: (c: number) => number): string {
  const count = `${fmtInt(lane.nodes.length)} ${lane.nodes.length === 1 ? 'node' : 'nodes'}`;
  return [
    `<text x="12" y="${top + 10}" font-size="12" font-weight="600">${lane.pipe ? esc(lane.name) : 'no pipe'}</text>`,
    `<text x="12" y="${top + 23}" font-size="10.5" fill="${TIMELINE_SVG_COLORS.text}">${lane.pipe ? count : `ALLOC/FREE · ${count}`}</text>`,
    `<rect class="lane" x="${GUTTER}" y="${top}" width="${plotW}" height="${LANE_H}" fill="#f6f7fa" stroke="#d5d9e2"/>`,
    ...lane.nodes.map((n) => nodeShapes(n, lane, top, px)),
  ].join('');
}

function axis(y: number, total: number, plotW: number, px: (c: number) => number): string {
  const tick = axisTick(total, plotW);
  const out = [
    `<text x="${GUTTER - 6}" y="${y + 14}" text-anchor="end" font-size="10.5" fill="${TIMELINE_SVG_COLORS.text}">cycle</text>`,
  ];
  for (let c = 0; c <= total; c += tick)
    out.push(
      `<rect x="${f2(px(c))}" y="${y}" width="1" height="4" fill="${TIMELINE_SVG_COLORS.text}"/><text x="${f2(px(c))}" y="${y + 14}" text-anchor="middle" font-size="10.5" fill="${TIMELINE_SVG_COLORS.text}">${fmtInt(c)}</text>`,
    );
  return out.join('');
}

/** The SVG document of the timeline up to `s.step`. */
export function timelineSvg(s: TimelineSnapshot): SvgPicture {
  const plotW = WIDTH - GUTTER - RIGHT;
  let total = 1;
  for (const lane of s.lanes) for (const n of lane.nodes) total = Math.max(total, n.end);
  const px = (c: number) => GUTTER + (c / total) * plotW;
  const lanes = s.lanes.map((l, i) => laneShapes(l, TOP + i * (LANE_H + LANE_GAP), plotW, px));
  const axisY = TOP + s.lanes.length * (LANE_H + LANE_GAP) - LANE_GAP + 6;
  const title =
    s.step < 0
      ? `Pipe timeline before step 0 of ${fmtInt(s.steps)}`
      : `Pipe timeline up to step ${fmtInt(s.step)} of ${fmtInt(s.steps)}: ${s.node}`;
  return svgDocument(
    WIDTH,
    axisY + AXIS_H,
    title,
    `Each bar is a node of the new order up to this step, from its start to its end cycle on its pipe (${fmtInt(total)} cycles shown).`,
    [legend(64), ...lanes, axis(axisY, total, plotW, px)],
  );
}
