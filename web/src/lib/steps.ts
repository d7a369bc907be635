// Stepping through a plan: what each memory holds while a step of the new order runs, and the
// decision taken at a step, read from the view's typed arrays (pure functions, no DOM).
//
// One numbering: a step is a position in the new order (the planner's input order with the spill
// nodes inserted). A buffer is resident from its ALLOC (or SPILL_IN) step through its FREE (or
// SPILL_OUT) step, both included, as the memory chart draws it.
import { DECISION_KINDS, type PlanView } from '../engine/types';

export interface LiveBuffer {
  buf: number;
  offset: number;
  size: number;
  /** the first later step at which an operation uses it, -1 if none (only its FREE is left) */
  nextUse: number;
  /** the operation at this step uses it */
  inUse: boolean;
  /** a COPY_IN filled it: main memory holds its data, so writing it out moves nothing */
  copyIn: boolean;
}

export interface Hole {
  start: number;
  end: number;
}

export interface MemoryAt {
  type: string;
  capacity: number;
  used: number;
  live: LiveBuffer[]; // by offset
  holes: Hole[]; // by offset
}

/** The memory types of a view: those of `preferred` (the settings' order) first, then the rest. */
export function memoryTypes(view: PlanView, preferred: string[]): string[] {
  const caps = view.meta.capacities;
  const types = preferred.filter((t) => t in caps && view.stretches[t]?.count);
  for (const t of [...Object.keys(caps), ...Object.keys(view.stretches)])
    if (!types.includes(t) && view.stretches[t]?.count) types.push(t);
  return types;
}

const opOf = (view: PlanView, step: number) => view.nodes.strings[view.nodes.op[view.order[step]]];
const isOperation = (op: string) => op !== 'ALLOC' && op !== 'FREE' && op !== 'SPILL_OUT' && op !== 'SPILL_IN';

/** The first step after `step` at which an operation names `buf`; -1 if none. */
export function nextUseAfter(view: PlanView, buf: number, step: number): number {
  const B = view.buffers;
  if (buf < 0 || buf >= B.count) return -1;
  let lo = B.usesStart[buf],
    hi = B.usesStart[buf + 1];
  while (lo < hi) {
    // first use > step
    const mid = (lo + hi) >> 1;
    if (B.uses[mid] <= step) lo = mid + 1;
    else hi = mid;
  }
  for (let j = lo; j < B.usesStart[buf + 1]; j++) if (isOperation(opOf(view, B.uses[j]))) return B.uses[j];
  return -1;
}

/** Whether the node at `step` is an operation that names `buf`. */
function usedAt(view: PlanView, buf: number, step: number): boolean {
  const id = view.order[step];
  const n = view.nodes;
  if (!isOperation(n.strings[n.op[id]])) return false;
  for (let j = n.bufStart[id]; j < n.bufStart[id + 1]; j++) if (n.bufList[j] === buf) return true;
  return false;
}

/** Every memory while `step` runs: live buffers, free holes, bytes used. */
export function stateAt(view: PlanView, step: number, types: string[]): MemoryAt[] {
  return types.map((type) => {
    const st = view.stretches[type];
    const capacity = view.meta.capacities[type] ?? 0;
    const live: LiveBuffer[] = [];
    for (let i = 0; i < (st?.count ?? 0); i++) {
      if (st.spilled[i] || st.start[i] > step || step >= st.end[i]) continue;
      const buf = st.buf[i];
      live.push({
        buf,
        offset: st.offset[i],
        size: st.size[i],
        nextUse: nextUseAfter(view, buf, step),
        inUse: usedAt(view, buf, step),
        copyIn: view.buffers.copyIn[buf] === 1,
      });
    }
    live.sort((a, b) => a.offset - b.offset);
    const holes: Hole[] = [];
    let at = 0,
      used = 0;
    for (const b of live) {
      if (b.offset > at) holes.push({ start: at, end: b.offset });
      at = Math.max(at, b.offset + b.size);
      used += b.size;
    }
    if (at < capacity) holes.push({ start: at, end: capacity });
    return { type, capacity, used, live, holes };
  });
}

const inputSteps = new WeakMap<PlanView, Int32Array>();
/** The position in the planner's input order of the node at `step`; null for a spill node. */
export function inputStepOf(view: PlanView, step: number): number | null {
  let pos = inputSteps.get(view);
  if (!pos) {
    pos = new Int32Array(view.nodes.count).fill(-1);
    view.inputOrder.forEach((id, i) => {
      if (id >= 0 && id < pos!.length) pos![id] = i;
    });
    inputSteps.set(view, pos);
  }
  const id = view.order[step];
  return id >= 0 && id < pos.length && pos[id] >= 0 ? pos[id] : null;
}

const stepsOfInput = new WeakMap<PlanView, Int32Array>();
/** The step of the new order at which the node at input step `input` runs. */
export function stepOfInput(view: PlanView, input: number): number {
  let at = stepsOfInput.get(view);
  if (!at) {
    const byId = new Int32Array(view.nodes.count).fill(-1);
    view.order.forEach((id, s) => {
      if (id >= 0 && id < byId.length) byId[id] = s;
    });
    at = Int32Array.from(view.inputOrder, (id) => (id >= 0 && id < byId.length ? byId[id] : -1));
    stepsOfInput.set(view, at);
  }
  return input >= 0 && input < at.length ? at[input] : -1;
}

/** The node at a step, in words: "ADD (VECTOR)", "SPILL_OUT of buffer 5", "ALLOC buffer 3". */
export function describeStep(view: PlanView, step: number): string {
  const id = view.order[step];
  const n = view.nodes;
  const op = n.strings[n.op[id]];
  if (n.bufId[id] >= 0) return `${op} buffer ${n.bufId[id]}`;
  const bufs = Array.from(n.bufList.subarray(n.bufStart[id], n.bufStart[id + 1]));
  if (op === 'SPILL_OUT' || op === 'SPILL_IN') return `${op} of buffer ${bufs[0]}`;
  const pipe = n.strings[n.pipe[id]];
  return `${op}${pipe ? ` (${pipe})` : ''}${bufs.length ? ` on ${bufs.length > 1 ? 'buffers' : 'buffer'} ${bufs.join(', ')}` : ''}`;
}

/** The spill (index into view.spills) whose SPILL_OUT is at `step`, or -1. */
export function spillAtStep(view: PlanView, step: number): number {
  return view.spills.findIndex((s) => s.outStep === step);
}

export interface CandidateView {
  buf: number;
  size: number;
  nextUseStep: number;
  score: number;
  copyIn: boolean;
}
export interface WindowView {
  start: number;
  end: number;
  cost: number;
  bufs: number[];
}
export interface DecisionView {
  index: number;
  kind: (typeof DECISION_KINDS)[number];
  inputStep: number;
  step: number; // of the new order
  node: number;
  buf: number;
  type: string;
  offset: number;
  size: number;
  reason: string;
  formula: string;
  holes: Hole[];
  holesTotal: number;
  room: { for: number[]; need: number; free: number; largestHole: number; shortfall: number };
  candidates: CandidateView[];
  candidatesTotal: number;
  windows: WindowView[];
  windowsTotal: number;
}

/** Decision i of the plan as an object. */
export function decisionAt(view: PlanView, i: number): DecisionView {
  const D = view.decisions;
  const range = (start: Int32Array) => Array.from({ length: start[i + 1] - start[i] }, (_, k) => start[i] + k);
  return {
    index: i,
    kind: DECISION_KINDS[D.kind[i]],
    inputStep: D.step[i],
    step: D.orderStep[i],
    node: D.node[i],
    buf: D.buf[i],
    type: D.strings[D.type[i]],
    offset: D.offset[i],
    size: D.size[i],
    reason: D.strings[D.reason[i]],
    formula: D.strings[D.formula[i]],
    holes: range(D.holeStart).map((k) => ({ start: D.holeFrom[k], end: D.holeTo[k] })),
    holesTotal: D.holesTotal[i],
    room: {
      for: range(D.forStart).map((k) => D.forBuf[k]),
      need: D.room[4 * i],
      free: D.room[4 * i + 1],
      largestHole: D.room[4 * i + 2],
      shortfall: D.room[4 * i + 3],
    },
    candidates: range(D.candStart).map((k) => ({
      buf: D.candBuf[k],
      size: D.candSize[k],
      nextUseStep: D.candNextUse[k],
      score: D.candScore[k],
      copyIn: D.candCopyIn[k] === 1,
    })),
    candidatesTotal: D.candTotal[i],
    windows: range(D.winStart).map((k) => ({
      start: D.winFrom[k],
      end: D.winTo[k],
      cost: D.winCost[k],
      bufs: Array.from(D.winBufs.subarray(D.winBufStart[k], D.winBufStart[k + 1])),
    })),
    windowsTotal: D.winTotal[i],
  };
}

/** The decision taken at a step of the new order, or null (an operation's step). */
export function decisionAtStep(view: PlanView, step: number): DecisionView | null {
  const i = step >= 0 && step < view.decisions.atStep.length ? view.decisions.atStep[step] : -1;
  return i >= 0 ? decisionAt(view, i) : null;
}

/** Belady's choice among a spill's candidates: the one whose next use is furthest away (ties: the
 * first listed). Optimal when all buffers have the same size and cost; the page calls it the
 * choice in hindsight. */
export function furthestNextUse(d: DecisionView): number | null {
  let best: CandidateView | null = null;
  for (const c of d.candidates) if (!best || c.nextUseStep > best.nextUseStep) best = c;
  return best?.buf ?? null;
}
