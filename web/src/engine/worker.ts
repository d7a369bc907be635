// The engine's worker: loads the WebAssembly module once, answers init/example/plan/compare, and
// turns a result into the view data (node table, buffers, chart stretches, spill decisions) off
// the page's thread.
import createSpillway from './generated/spillway.mjs';
import wasmUrl from './generated/spillway.wasm?url';
import type { SpillwayModule } from '../../../wasm/spillway';
import type { CompareRow, GraphNode, PlanResult, PlanView, Request } from './types';
import { buildView, transferables } from '../lib/layout';
import { ReportedFailure, serve } from '../lib/worker-rpc';
import type { ErrorWhere } from '../store';

let module: Promise<SpillwayModule> | null = null;
const engine = () => (module ??= createSpillway({ locateFile: () => wasmUrl }));

// The last graph's parsed nodes, so an unchanged graph is not parsed again on the next run.
let lastGraphText = '';
let lastGraphNodes: GraphNode[] = [];
let lastGraphHasOrder = false;

/** The engine's JSON, or its {"error": {kind, message, where}} as a failure. */
function parseEngine(text: string): unknown {
  const v = JSON.parse(text);
  if (v && typeof v === 'object' && 'error' in v && v.error && typeof v.error === 'object') {
    const e = v.error as { kind?: unknown; message?: unknown; where?: unknown };
    const where = e.where && typeof e.where === 'object' && !Array.isArray(e.where) ? (e.where as ErrorWhere) : undefined;
    throw new ReportedFailure({ kind: e.kind === 'internal' ? 'internal' : 'input', message: String(e.message ?? 'unknown error'), where });
  }
  return v;
}

serve<Request>(async (req, progress) => {
  const m = await engine();
  switch (req.method) {
    case 'init':
      return { version: m.version(), policies: JSON.parse(m.policies()), examples: JSON.parse(m.examples()) };
    case 'example': {
      const text = m.example(req.name);
      parseEngine(text);
      return text;
    }
    case 'plan': {
      progress('planning');
      const t0 = performance.now();
      const resultText = m.plan(req.graph, JSON.stringify(req.options));
      const engineMs = performance.now() - t0;
      progress('preparing view');
      const t1 = performance.now();
      const result = parseEngine(resultText) as PlanResult;
      if (req.graph !== lastGraphText) {
        const g = JSON.parse(req.graph) as { Nodes?: GraphNode[]; Order?: unknown };
        lastGraphNodes = Array.isArray(g.Nodes) ? g.Nodes : [];
        lastGraphHasOrder = Array.isArray(g.Order);
        lastGraphText = req.graph;
      }
      return buildView(new TextEncoder().encode(resultText), result, lastGraphNodes, engineMs, t1, lastGraphHasOrder);
    }
    case 'compare':
      return parseEngine(m.compare(req.graph, JSON.stringify(req.options))) as CompareRow[];
  }
}, (req, value) => (req.method === 'plan' ? transferables(value as PlanView) : []));
