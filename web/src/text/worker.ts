// The page's text tasks, off its thread: reading what a graph text holds (its Capacities, whether
// it has an Order), opening and making links, and finding the text range of an error's place.
// A 4 MB graph takes a few hundred milliseconds here, which the page's thread must never spend.
import { serve } from '../lib/worker-rpc';
import { checkCapacities } from '../lib/settings';
import { decodeCaseFragment, encodeCase, isCaseObject, parseCase } from '../lib/share';
import { locate } from '../lib/locate';
import type { GraphInfo } from '../store';
import type { TextRequest } from './client';

/** Per memory type the graph uses: the most bytes one node needs in it at once (its buffers of
 * that type; an ALLOC's own size), the least capacity with which a plan exists. */
function memoryNeeds(nodes: unknown[]): Record<string, number> {
  const type = new Map<number, string>();
  const size = new Map<number, number>();
  const need: Record<string, number> = {};
  const atLeast = (t: string, n: number) => {
    if (!(need[t] >= n)) need[t] = n;
  };
  for (const n of nodes) {
    const x = n as { Op?: unknown; BufId?: unknown; Size?: unknown; Type?: unknown };
    if ((x?.Op === 'ALLOC' || x?.Op === 'FREE') && typeof x.Type === 'string' && typeof x.BufId === 'number') {
      const s = typeof x.Size === 'number' && x.Size > 0 ? x.Size : 1;
      type.set(x.BufId, x.Type);
      size.set(x.BufId, s);
      atLeast(x.Type, s);
    }
  }
  for (const n of nodes) {
    const bufs = (n as { Bufs?: unknown })?.Bufs;
    if (!Array.isArray(bufs)) continue;
    const sum: Record<string, number> = {};
    for (const b of new Set(bufs)) {
      const t = type.get(b as number);
      if (t !== undefined) sum[t] = (sum[t] ?? 0) + (size.get(b as number) ?? 0);
    }
    for (const [t, v] of Object.entries(sum)) atLeast(t, v);
  }
  return need;
}

function inspect(text: string, version: number): GraphInfo {
  const info: GraphInfo = { version, json: false, program: false, capacities: null, hasOrder: false, memories: {} };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return info;
  }
  info.json = true;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return info;
  const d = doc as { Capacities?: unknown; Order?: unknown; Nodes?: unknown };
  info.hasOrder = Array.isArray(d.Order);
  if (Array.isArray(d.Nodes)) info.memories = memoryNeeds(d.Nodes);
  const caps = d.Capacities;
  if (caps === undefined) return info;
  if (!caps || typeof caps !== 'object' || Array.isArray(caps)) {
    info.capacitiesProblem = 'it is not an object of memory names and bytes';
    return info;
  }
  const checked = checkCapacities(Object.entries(caps));
  if (checked.ok) info.capacities = checked.capacities;
  else info.capacitiesProblem = checked.message;
  return info;
}

serve<TextRequest & { id: number }>(async (req) => {
  switch (req.method) {
    case 'inspect':
      return inspect(req.text, req.version);
    case 'openFile': {
      let raw: unknown;
      try {
        raw = JSON.parse(await req.file.text());
      } catch {
        return null; // not JSON: a graph the engine will report on
      }
      return isCaseObject(raw) ? parseCase(raw, req.names, 'case file') : null;
    }
    case 'encodeLink':
      return encodeCase(req.graph, req.settings, req.view, req.ref);
    case 'decodeLink':
      return decodeCaseFragment(req.hash, req.names);
    case 'locate':
      return locate(req.text, req.where);
  }
});
