// From a result and its graph to what the views draw: per-node facts, per-buffer steps and the
// stretches of the memory chart. Pure functions, used inside the worker.
import type { BufferInfo, GraphNode, NodeTable, PlanResult, Stretch } from '../engine/types';

export function buildNodeTable(graphNodes: GraphNode[], added: GraphNode[]): NodeTable {
  let maxId = -1;
  for (const n of graphNodes) if (n.Id > maxId) maxId = n.Id;
  for (const n of added) if (n.Id > maxId) maxId = n.Id;
  const len = maxId + 1;
  const t: NodeTable = {
    op: new Array(len).fill(''),
    pipe: new Array(len).fill(''),
    cycles: new Array(len).fill(0),
    bufs: new Array(len).fill(null).map(() => []),
    bufId: new Array(len).fill(-1),
    size: new Array(len).fill(0),
    type: new Array(len).fill(''),
  };
  for (const list of [graphNodes, added]) {
    for (const n of list) {
      const i = n.Id;
      t.op[i] = n.Op ?? '';
      t.pipe[i] = n.Pipe ?? '';
      t.cycles[i] = n.Cycles ?? 0;
      t.bufs[i] = Array.isArray(n.Bufs) ? n.Bufs : [];
      if (typeof n.BufId === 'number') t.bufId[i] = n.BufId;
      if (typeof n.Size === 'number') t.size[i] = n.Size;
      if (typeof n.Type === 'string') t.type[i] = n.Type;
    }
  }
  return t;
}

export function buildBuffers(nodes: NodeTable, order: number[]): Record<number, BufferInfo> {
  const buffers: Record<number, BufferInfo> = {};
  const get = (b: number): BufferInfo =>
    (buffers[b] ??= { buf: b, type: '', size: 0, allocStep: -1, freeStep: -1, uses: [] });
  for (let s = 0; s < order.length; s++) {
    const id = order[s];
    const op = nodes.op[id];
    if (op === 'ALLOC' || op === 'FREE') {
      const info = get(nodes.bufId[id]);
      if (op === 'ALLOC') {
        info.allocStep = s;
        info.type = nodes.type[id];
        info.size = nodes.size[id];
      } else info.freeStep = s;
      info.uses.push(s);
    } else {
      for (const b of nodes.bufs[id]) {
        const info = get(b);
        if (info.uses[info.uses.length - 1] !== s) info.uses.push(s);
      }
    }
  }
  return buffers;
}

/** Resident stretches (ALLOC -> FREE, split at each SPILL_OUT / SPILL_IN) and spilled gaps. */
export function buildStretches(result: PlanResult, buffers: Record<number, BufferInfo>): Record<string, Stretch[]> {
  const byType: Record<string, Stretch[]> = {};
  const spillsByBuf = new Map<number, PlanResult['spills']>();
  for (const sp of result.spills) {
    let l = spillsByBuf.get(sp.buf);
    if (!l) spillsByBuf.set(sp.buf, (l = []));
    l.push(sp);
  }
  for (const a of result.allocations) {
    const info = buffers[a.buf];
    if (!info || info.allocStep < 0) continue;
    const list = (byType[a.type] ??= []);
    const end = info.freeStep >= 0 ? info.freeStep + 1 : result.order.length;
    let offset = a.offset;
    let start = info.allocStep;
    const spills = (spillsByBuf.get(a.buf) ?? []).slice().sort((x, y) => x.outStep - y.outStep);
    for (const sp of spills) {
      list.push({ buf: a.buf, type: a.type, offset, size: a.size, start, end: sp.outStep + 1, spilled: false });
      list.push({ buf: a.buf, type: a.type, offset: sp.oldOffset ?? offset, size: a.size, start: sp.outStep + 1, end: sp.inStep, spilled: true });
      offset = sp.newOffset;
      start = sp.inStep;
    }
    list.push({ buf: a.buf, type: a.type, offset, size: a.size, start, end, spilled: false });
  }
  return byType;
}
