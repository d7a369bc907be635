// The engine's worker: loads the WebAssembly module once, answers init/example/plan, and turns a
// result into the view data (parsed result, node table, buffers, chart stretches) off the UI thread.
import createSpillway from './generated/spillway.mjs';
import wasmUrl from './generated/spillway.wasm?url';
import type { SpillwayModule } from '../../../wasm/spillway';
import type { CompareRow, EngineFailure, GraphNode, PlanResult, PlanView, Request, Response } from './types';
import { buildView, transferables } from '../lib/layout';

let module: Promise<SpillwayModule> | null = null;
const engine = () => (module ??= createSpillway({ locateFile: () => wasmUrl }));

// The last graph's parsed nodes, so an unchanged graph is not parsed again on the next run.
let lastGraphText = '';
let lastGraphNodes: GraphNode[] = [];
let lastGraphHasOrder = false;

const post = (r: Response, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(r, transfer);

class Failure extends Error {
  constructor(public failure: EngineFailure) { super(failure.message); }
}

function parseEngine(text: string): unknown {
  const v = JSON.parse(text);
  if (v && typeof v === 'object' && 'error' in v && v.error && typeof v.error === 'object') {
    const e = v.error as { kind?: string; message?: string };
    throw new Failure({ kind: e.kind === 'internal' ? 'internal' : 'input', message: String(e.message ?? 'unknown error') });
  }
  return v;
}

async function handle(req: Request): Promise<unknown> {
  const m = await engine();
  switch (req.method) {
    case 'init':
      return {
        version: m.version(),
        policies: JSON.parse(m.policies()),
        examples: JSON.parse(m.examples()),
      };
    case 'example': {
      const text = m.example(req.name);
      parseEngine(text);
      return text;
    }
    case 'plan': {
      post({ id: req.id, progress: 'planning' });
      const t0 = performance.now();
      const resultText = m.plan(req.graph, JSON.stringify(req.options));
      const engineMs = performance.now() - t0;
      post({ id: req.id, progress: 'preparing view' });
      const t1 = performance.now();
      const result = parseEngine(resultText) as PlanResult;
      if (req.graph !== lastGraphText) {
        const g = JSON.parse(req.graph) as { Nodes?: GraphNode[]; Order?: unknown };
        lastGraphNodes = Array.isArray(g.Nodes) ? g.Nodes : [];
        lastGraphHasOrder = Array.isArray(g.Order);
        lastGraphText = req.graph;
      }
      return buildView(resultText, result, lastGraphNodes, engineMs, t1, lastGraphHasOrder);
    }
    case 'compare':
      return parseEngine(m.compare(req.graph, JSON.stringify(req.options))) as CompareRow[];
  }
}

self.onmessage = async (e: MessageEvent<Request>) => {
  const req = e.data;
  try {
    const value = await handle(req);
    const transfer = req.method === 'plan' ? transferables(value as PlanView) : [];
    post({ id: req.id, ok: true, value }, transfer);
  } catch (err) {
    const error: EngineFailure = err instanceof Failure
      ? err.failure
      : { kind: 'internal', message: err instanceof Error ? err.message : String(err) };
    post({ id: req.id, ok: false, error });
  }
};
