// From a result and its graph to what the views draw: per-node facts, per-buffer steps and the
// stretches of the memory chart, all as typed arrays. Pure functions, used inside the worker.
import {
  DECISION_KINDS,
  WAIT_CAUSES,
  WAIT_EDGE,
  WAIT_NONE,
  type BufferTable,
  type Decision,
  type DecisionTable,
  type GraphNode,
  type NodeTable,
  type PlanResult,
  type PlanView,
  type StretchTable,
  type TimelineTable,
} from '../engine/types';

export function buildNodeTable(graphNodes: GraphNode[], added: GraphNode[]): NodeTable {
  let maxId = -1;
  let nBufs = 0;
  for (const list of [graphNodes, added]) {
    for (const n of list) {
      if (n.Id > maxId) maxId = n.Id;
      if (Array.isArray(n.Bufs)) nBufs += n.Bufs.length;
    }
  }
  const len = maxId + 1;
  const { strings, of: str } = stringTable();
  const t: NodeTable = {
    count: len,
    strings,
    op: new Uint16Array(len),
    pipe: new Uint16Array(len),
    type: new Uint16Array(len),
    cycles: new Float64Array(len),
    bufId: new Int32Array(len).fill(-1),
    size: new Float64Array(len),
    bufStart: new Int32Array(len + 1),
    bufList: new Int32Array(nBufs),
  };
  // Bufs are laid out by id: count first, then fill
  const bufsOf: (number[] | undefined)[] = new Array(len);
  for (const list of [graphNodes, added]) {
    for (const n of list) {
      const i = n.Id;
      if (!(i >= 0 && i < len)) continue;
      t.op[i] = str(n.Op);
      t.pipe[i] = str(n.Pipe);
      t.type[i] = str(n.Type);
      t.cycles[i] = typeof n.Cycles === 'number' ? n.Cycles : 0;
      if (typeof n.BufId === 'number') t.bufId[i] = n.BufId;
      if (typeof n.Size === 'number') t.size[i] = n.Size;
      if (Array.isArray(n.Bufs)) bufsOf[i] = n.Bufs;
    }
  }
  let k = 0;
  for (let i = 0; i < len; i++) {
    t.bufStart[i] = k;
    const b = bufsOf[i];
    if (b) for (const x of b) t.bufList[k++] = x;
  }
  t.bufStart[len] = k;
  return t;
}

export function buildBuffers(nodes: NodeTable, order: ArrayLike<number>): BufferTable {
  const opAlloc = nodes.strings.indexOf('ALLOC');
  const opFree = nodes.strings.indexOf('FREE');
  const opCopyIn = nodes.strings.indexOf('COPY_IN');
  let maxBuf = -1;
  for (let i = 0; i < nodes.count; i++) if (nodes.bufId[i] > maxBuf) maxBuf = nodes.bufId[i];
  for (let i = 0; i < nodes.bufList.length; i++) if (nodes.bufList[i] > maxBuf) maxBuf = nodes.bufList[i];
  const n = maxBuf + 1;
  const allocStep = new Int32Array(n).fill(-1);
  const freeStep = new Int32Array(n).fill(-1);
  const size = new Float64Array(n);
  const counts = new Int32Array(n);
  const each = (fn: (buf: number, step: number) => void) => {
    for (let s = 0; s < order.length; s++) {
      const id = order[s];
      if (id < 0 || id >= nodes.count) continue;
      const b = nodes.bufId[id];
      if (b >= 0) fn(b, s);
      for (let j = nodes.bufStart[id]; j < nodes.bufStart[id + 1]; j++) {
        if (nodes.bufList[j] !== b) fn(nodes.bufList[j], s);
      }
    }
  };
  each((b) => counts[b]++);
  const usesStart = new Int32Array(n + 1);
  for (let b = 0; b < n; b++) usesStart[b + 1] = usesStart[b] + counts[b];
  const uses = new Int32Array(usesStart[n]);
  const fill = usesStart.slice(0, n);
  each((b, s) => {
    uses[fill[b]++] = s;
  });
  const copyIn = new Uint8Array(n);
  for (let s = 0; s < order.length; s++) {
    const id = order[s];
    if (id < 0 || id >= nodes.count) continue;
    if (opCopyIn >= 0 && nodes.op[id] === opCopyIn)
      for (let j = nodes.bufStart[id]; j < nodes.bufStart[id + 1]; j++) copyIn[nodes.bufList[j]] = 1;
    const b = nodes.bufId[id];
    if (b < 0) continue;
    if (nodes.op[id] === opAlloc) {
      allocStep[b] = s;
      size[b] = nodes.size[id];
    } else if (nodes.op[id] === opFree) freeStep[b] = s;
  }
  return { count: n, allocStep, freeStep, size, usesStart, uses, copyIn };
}

/** Resident stretches (ALLOC -> FREE, split at each SPILL_OUT / SPILL_IN) and spilled gaps. */
export function buildStretches(result: PlanResult, buffers: BufferTable): Record<string, StretchTable> {
  const spillsByBuf = new Map<number, PlanResult['spills']>();
  for (const sp of result.spills) {
    let l = spillsByBuf.get(sp.buf);
    if (!l) spillsByBuf.set(sp.buf, (l = []));
    l.push(sp);
  }
  type Row = [number, number, number, number, number, number];
  const rows: Record<string, Row[]> = {};
  const steps = result.order.length;
  for (const a of result.allocations) {
    if (a.buf >= buffers.count || buffers.allocStep[a.buf] < 0) continue;
    const list = (rows[a.type] ??= []);
    const end = buffers.freeStep[a.buf] >= 0 ? buffers.freeStep[a.buf] + 1 : steps;
    let offset = a.offset;
    let start = buffers.allocStep[a.buf];
    const spills = (spillsByBuf.get(a.buf) ?? []).slice().sort((x, y) => x.outStep - y.outStep);
    for (const sp of spills) {
      list.push([a.buf, offset, a.size, start, sp.outStep + 1, 0]);
      list.push([a.buf, sp.oldOffset ?? offset, a.size, sp.outStep + 1, sp.inStep, 1]);
      offset = sp.newOffset;
      start = sp.inStep;
    }
    list.push([a.buf, offset, a.size, start, end, 0]);
  }
  const out: Record<string, StretchTable> = {};
  for (const [type, list] of Object.entries(rows)) {
    const n = list.length;
    const t: StretchTable = {
      count: n,
      buf: new Int32Array(n),
      offset: new Float64Array(n),
      size: new Float64Array(n),
      start: new Int32Array(n),
      end: new Int32Array(n),
      spilled: new Uint8Array(n),
    };
    list.forEach((r, i) => {
      t.buf[i] = r[0];
      t.offset[i] = r[1];
      t.size[i] = r[2];
      t.start[i] = r[3];
      t.end[i] = r[4];
      t.spilled[i] = r[5];
    });
    out[type] = t;
  }
  return out;
}

/** A string table: each distinct string once, '' (and anything not a string) at 0. */
function stringTable() {
  const strings: string[] = [''];
  const index = new Map<string, number>([['', 0]]);
  const of = (v: unknown) => {
    const k = typeof v === 'string' ? v : '';
    let i = index.get(k);
    if (i === undefined) {
      i = strings.length;
      strings.push(k);
      index.set(k, i);
    }
    return i;
  };
  return { strings, of };
}

/** Variable-length lists, one per decision, as parallel columns and a start index. */
function lists<K extends string>(columns: readonly K[]) {
  const start: number[] = [0];
  const cols = Object.fromEntries(columns.map((c) => [c, [] as number[]])) as Record<K, number[]>;
  return {
    cols,
    push(row: Record<K, number>) {
      for (const c of columns) cols[c].push(row[c]);
    },
    end() {
      start.push(cols[columns[0]].length);
    },
    start: () => Int32Array.from(start),
  };
}

export function buildDecisions(decisions: Decision[], steps: number): DecisionTable {
  const n = decisions.length;
  const str = stringTable();
  const holes = lists(['from', 'to'] as const);
  const fors = lists(['buf'] as const);
  const cands = lists(['buf', 'next', 'score', 'size', 'copyIn'] as const);
  const wins = lists(['from', 'to', 'cost', 'bufStart'] as const);
  const winBufs: number[] = [];
  const t = {
    count: n,
    kind: new Uint8Array(n),
    step: new Int32Array(n),
    orderStep: new Int32Array(n),
    node: new Int32Array(n),
    buf: new Int32Array(n),
    type: new Uint16Array(n),
    offset: new Float64Array(n),
    size: new Float64Array(n),
    reason: new Uint32Array(n),
    formula: new Uint32Array(n),
    atStep: new Int32Array(steps).fill(-1),
    holesTotal: new Int32Array(n),
    room: new Float64Array(4 * n),
    candTotal: new Int32Array(n),
    winTotal: new Int32Array(n),
  };
  decisions.forEach((d, i) => {
    t.kind[i] = Math.max(0, DECISION_KINDS.indexOf(d.kind as (typeof DECISION_KINDS)[number]));
    t.step[i] = d.step;
    t.orderStep[i] = d.orderStep ?? -1;
    if (d.orderStep !== undefined && d.orderStep >= 0 && d.orderStep < steps) t.atStep[d.orderStep] = i;
    t.node[i] = d.node;
    t.buf[i] = d.buf;
    t.type[i] = str.of(d.type);
    t.offset[i] = d.offset;
    t.size[i] = d.size;
    t.reason[i] = str.of(d.reason ?? '');
    t.formula[i] = str.of(d.formula);
    for (const [from, to] of d.holes ?? []) holes.push({ from, to });
    holes.end();
    t.holesTotal[i] = d.holesTotal ?? 0;
    const r = d.room;
    if (r) t.room.set([r.need, r.free, r.largestHole, r.shortfall], 4 * i);
    for (const buf of r?.for ?? []) fors.push({ buf });
    fors.end();
    for (const c of d.candidates ?? [])
      cands.push({ buf: c.buf, next: c.nextUseStep, score: c.score, size: c.size ?? 0, copyIn: c.copyIn ? 1 : 0 });
    cands.end();
    t.candTotal[i] = d.candidatesTotal ?? d.candidates?.length ?? 0;
    for (const w of d.windows ?? []) {
      wins.push({ from: w.start, to: w.end, cost: w.cost, bufStart: winBufs.length });
      winBufs.push(...w.bufs);
    }
    wins.end();
    t.winTotal[i] = d.windowsTotal ?? 0;
  });
  return {
    ...t,
    strings: str.strings,
    holeStart: holes.start(),
    holeFrom: Float64Array.from(holes.cols.from),
    holeTo: Float64Array.from(holes.cols.to),
    forStart: fors.start(),
    forBuf: Int32Array.from(fors.cols.buf),
    candStart: cands.start(),
    candBuf: Int32Array.from(cands.cols.buf),
    candNextUse: Int32Array.from(cands.cols.next),
    candScore: Float64Array.from(cands.cols.score),
    candSize: Float64Array.from(cands.cols.size),
    candCopyIn: Uint8Array.from(cands.cols.copyIn),
    winStart: wins.start(),
    winFrom: Float64Array.from(wins.cols.from),
    winTo: Float64Array.from(wins.cols.to),
    winCost: Float64Array.from(wins.cols.cost),
    winBufStart: Int32Array.from([...wins.cols.bufStart, winBufs.length]),
    winBufs: Int32Array.from(winBufs),
  };
}

/** Per node id: its step in `order` (-1 where it is not in it). */
export function stepsOfNodes(order: Int32Array, count: number): Int32Array {
  const at = new Int32Array(count).fill(-1);
  order.forEach((id, s) => {
    if (id >= 0 && id < count) at[id] = s;
  });
  return at;
}

/** The pipe timeline's lanes and waits (the result's "waits"; a result without them gets each
 * node's pipe from the graph and no waits). */
export function buildTimeline(
  result: PlanResult,
  nodes: NodeTable,
  order: Int32Array,
  stepOfNode: Int32Array,
): TimelineTable {
  const n = order.length;
  const waits = result.waits?.length === n ? result.waits : null;
  const opAlloc = nodes.strings.indexOf('ALLOC');
  const opFree = nodes.strings.indexOf('FREE');
  const pipeAt = (s: number) => {
    if (waits) return waits[s].pipe ?? '';
    const id = order[s];
    return id < 0 || id >= nodes.count || nodes.op[id] === opAlloc || nodes.op[id] === opFree
      ? ''
      : nodes.strings[nodes.pipe[id]];
  };
  // lanes: the pipes in the order they first run a node, then the nodes without a pipe
  const names: string[] = [];
  const index = new Map<string, number>();
  const named = new Uint16Array(n);
  for (let s = 0; s < n; s++) {
    const p = pipeAt(s);
    let k = index.get(p);
    if (k === undefined) index.set(p, (k = names.push(p) - 1));
    named[s] = k;
  }
  const lanes = names.filter((p) => p !== '');
  if (index.has('')) lanes.push('');
  const laneOf = names.map((p) => lanes.indexOf(p));
  const t: TimelineTable = {
    lanes,
    lane: new Uint16Array(n),
    cause: new Uint8Array(n),
    node: new Int32Array(n).fill(-1),
    buffer: new Int32Array(n).fill(-1),
    cycles: new Float64Array(n),
    root: new Uint8Array(n),
    laneStart: new Int32Array(lanes.length + 1),
    laneSteps: new Int32Array(n),
  };
  const noPipe = lanes.length - 1; // the lane of ALLOC/FREE, when lanes[noPipe] === ''
  for (let s = 0; s < n; s++) {
    t.lane[s] = laneOf[named[s]];
    t.laneStart[t.lane[s] + 1]++;
    const w = waits?.[s];
    if (!w) continue;
    t.cause[s] = Math.max(0, WAIT_CAUSES.indexOf(w.cause));
    if (w.cause === 'none') continue;
    t.node[s] = w.node;
    t.cycles[s] = w.cycles;
    if (w.cause === 'address') t.buffer[s] = w.buffer;
    // an edge from a node without a pipe (earlier in the order) waited for whatever that one did
    const from = w.node >= 0 && w.node < stepOfNode.length ? stepOfNode[w.node] : -1;
    t.root[s] =
      t.cause[s] === WAIT_EDGE &&
      from >= 0 &&
      from < s &&
      lanes[noPipe] === '' &&
      t.lane[from] === noPipe &&
      t.root[from] !== WAIT_NONE
        ? t.root[from]
        : t.cause[s];
  }
  for (let l = 0; l < lanes.length; l++) t.laneStart[l + 1] += t.laneStart[l];
  const fill = t.laneStart.slice(0, lanes.length);
  for (let s = 0; s < n; s++) t.laneSteps[fill[t.lane[s]]++] = s;
  return t;
}

export function buildView(
  resultBytes: Uint8Array,
  result: PlanResult,
  graphNodes: GraphNode[],
  engineMs: number,
  t0: number,
  graphHasOrder = false,
): PlanView {
  const nodes = buildNodeTable(graphNodes, result.addedNodes ?? []);
  const order = Int32Array.from(result.order);
  const buffers = buildBuffers(nodes, order);
  const stretches = buildStretches(result, buffers);
  const start = new Float64Array(order.length);
  const end = new Float64Array(order.length);
  (result.timing ?? []).forEach((t, i) => {
    start[i] = t[1];
    end[i] = t[2];
  });
  const decisionCounts: Record<string, number> = {};
  for (const d of result.decisions ?? []) decisionCounts[d.kind] = (decisionCounts[d.kind] ?? 0) + 1;
  const decisions = buildDecisions(result.decisions ?? [], order.length);
  const stepOfNode = stepsOfNodes(order, nodes.count);
  const timeline = buildTimeline(result, nodes, order, stepOfNode);
  const { format, engine, policy, planPolicy, cost, capacities, orderSource, metrics, search, objective } = result;
  return {
    resultBytes,
    meta: {
      format,
      engine,
      policy,
      planPolicy: planPolicy ?? policy,
      cost,
      capacities,
      orderSource,
      metrics,
      search,
      objective,
    },
    order,
    start,
    end,
    spills: result.spills,
    addedCount: (result.addedNodes ?? []).length,
    decisionCounts,
    decisions,
    decisionsBrief: !!result.decisionsBrief,
    inputOrder: Int32Array.from(result.inputOrder ?? []),
    stepOfNode,
    timeline,
    nodes,
    buffers,
    stretches,
    engineMs,
    prepareMs: performance.now() - t0,
    graphHasOrder,
    program: result.program ?? null,
  };
}

/** The typed arrays of a view, to transfer instead of copy. */
export function transferables(v: PlanView): Transferable[] {
  const out: Transferable[] = [];
  const add = (o: object) => {
    for (const x of Object.values(o)) if (ArrayBuffer.isView(x)) out.push(x.buffer);
  };
  add(v);
  add(v.nodes);
  add(v.buffers);
  add(v.decisions);
  add(v.timeline);
  for (const s of Object.values(v.stretches)) add(s);
  return out;
}
