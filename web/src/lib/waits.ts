// What set a node's start, in words (the result's "waits", docs/timing.md): read from the view's
// timeline table by the pipe timeline's tooltip and text description and by the order table.
import { WAIT_CAUSES, type PlanView, type WaitCause } from '../engine/types';
import { fmtInt } from './format';

/** The name of each cause on the page (legend, tooltip, order table). */
export const CAUSE_NAMES: Record<WaitCause, string> = {
  none: 'none',
  edge: 'edge',
  pipe: 'pipe busy',
  address: 'address reuse',
};

export interface WaitAt {
  cause: WaitCause;
  /** the cause behind it (an edge from an ALLOC that waited for its bytes is address reuse) */
  root: WaitCause;
  cycles: number;
  node: number; // the node whose end the start is, -1 for none
  buffer: number; // address: the buffer that left the bytes
}

export function waitAt(v: PlanView, step: number): WaitAt {
  const t = v.timeline;
  return {
    cause: WAIT_CAUSES[t.cause[step]],
    root: WAIT_CAUSES[t.root[step]],
    cycles: t.cycles[step],
    node: t.node[step],
    buffer: t.buffer[step],
  };
}

/** "COPY_IN 12", "ALLOC 3 (buffer 7)": a node by its op and id, a buffer node with its buffer. */
export function nodeName(v: PlanView, id: number): string {
  const n = v.nodes;
  if (id < 0 || id >= n.count) return `node ${id}`;
  const op = n.strings[n.op[id]] || 'node';
  const buf =
    n.bufId[id] >= 0
      ? n.bufId[id]
      : op.startsWith('SPILL_') && n.bufStart[id] < n.bufStart[id + 1]
        ? n.bufList[n.bufStart[id]]
        : -1;
  return buf >= 0 ? `${op} ${id} (buffer ${buf})` : `${op} ${id}`;
}

/** The node and its step: "FREE 99 (buffer 3) at step 120". */
const nodeAndStep = (v: PlanView, id: number) => {
  const s = id >= 0 && id < v.stepOfNode.length ? v.stepOfNode[id] : -1;
  return s >= 0 ? `${nodeName(v, id)} at step ${s}` : nodeName(v, id);
};

/** One sentence: what the node at `step` waited for and what it cost, the cause named at its end
 * unless `named` is false (where the cause is said before it). */
export function waitSentence(v: PlanView, step: number, named = true): string {
  const w = waitAt(v, step);
  const lost = `${fmtInt(w.cycles)} cycle${w.cycles === 1 ? '' : 's'}`;
  const cause = named ? ` (${CAUSE_NAMES[w.cause]})` : '';
  switch (w.cause) {
    case 'edge':
      return `Waited ${lost} for ${nodeAndStep(v, w.node)} to end${cause}.`;
    case 'pipe':
      return `Waited ${lost} for its pipe: ${nodeAndStep(v, w.node)} ran there${cause}.`;
    case 'address':
      return `Waited ${lost} for its bytes: buffer ${w.buffer} left them when ${nodeAndStep(v, w.node)} ended${cause}.`;
    default:
      return 'Started at cycle 0: nothing to wait for.';
  }
}

/** The wait at `step` and, while it is an edge from a node without a pipe (ALLOC, FREE), what
 * that node waited for in turn, up to its root cause. */
export function waitChain(v: PlanView, step: number, named = true): string[] {
  const out = [waitSentence(v, step, named)];
  const t = v.timeline;
  const noPipe = t.lanes[t.lanes.length - 1] === '' ? t.lanes.length - 1 : -1;
  for (let s = step, hops = 0; t.cause[s] !== t.root[s] && hops < 16; hops++) {
    const from = v.stepOfNode[t.node[s]];
    if (!(from >= 0 && from < s && t.lane[from] === noPipe)) break;
    out.push(`${nodeName(v, t.node[s])}: ${waitSentence(v, from).replace(/^W/, 'w')}`);
    s = from;
  }
  return out;
}

/** The order table's cell: "address reuse 809", or "edge 809 ← address reuse" where the cause
 * behind the edge differs. */
export function waitCell(v: PlanView, step: number): string {
  const w = waitAt(v, step);
  if (w.cause === 'none') return '';
  return `${CAUSE_NAMES[w.cause]} ${fmtInt(w.cycles)}${w.root !== w.cause ? ` ← ${CAUSE_NAMES[w.root]}` : ''}`;
}
