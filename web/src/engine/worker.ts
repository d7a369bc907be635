// The engine's worker: loads the WebAssembly module once, answers init/example/translate/plan/
// planAnytime/compare/frontier (the front so far posted after each of its runs), and turns a result into the view data (node table, buffers, chart
// stretches, spill decisions) off the page's thread. planAnytime hands over the plan of each smaller effort as it
// is made, and a cycles run's best plans so far (lib/anytime.ts), so that Cancel keeps the best plan so far.
import createSpillway from './generated/spillway.mjs';
import wasmUrl from './generated/spillway.wasm?url';
import type { SpillwayModule } from '../../../wasm/spillway';
import type {
  CompareRow,
  FrontierPoint,
  FrontierProgress,
  GraphNode,
  PlanProgress,
  PlanResult,
  PlanView,
  PolicyInfo,
  Request,
} from './types';
import { buildView, transferables } from '../lib/layout';
import { planAnytime } from '../lib/anytime';
import { ReportedFailure, serve } from '../lib/worker-rpc';
import { isProgram } from '../lib/program';
import type { ErrorWhere } from '../store';

let module: Promise<SpillwayModule> | null = null;
const engine = (): Promise<SpillwayModule> => (module ??= createSpillway({ locateFile: () => wasmUrl }));

// The last graph's parsed nodes, so an unchanged graph is not parsed again on the next run.
let lastGraphText = '';
let lastGraphNodes: GraphNode[] = [];
let lastGraphHasOrder = false;

/** The engine's JSON, or its {"error": {kind, message, where}} as a failure. */
function parseEngine(text: string): unknown {
  const v = JSON.parse(text);
  if (v && typeof v === 'object' && 'error' in v && v.error && typeof v.error === 'object') {
    const e = v.error as { kind?: unknown; message?: unknown; where?: unknown };
    const where =
      e.where && typeof e.where === 'object' && !Array.isArray(e.where) ? (e.where as ErrorWhere) : undefined;
    throw new ReportedFailure({
      kind: e.kind === 'internal' ? 'internal' : 'input',
      message: String(e.message ?? 'unknown error'),
      where,
    });
  }
  return v;
}

/** A result's UTF-8 bytes, for the view (and the page's downloads). A result is ASCII unless a
 * name in its graph is not, and then encodeInto fills an array of the text's length: on a large
 * result Chromium's encode() is several times slower (docs/benchmarks.md). Other results are
 * encoded whole. */
function utf8(text: string): Uint8Array {
  const encoder = new TextEncoder();
  const bytes = new Uint8Array(text.length);
  return encoder.encodeInto(text, bytes).read === text.length ? bytes : encoder.encode(text);
}

/** The graph JSON of a program text (the engine's translation), or its error as a failure. */
function translate(m: SpillwayModule, program: string): string {
  const text = m.translate(program);
  parseEngine(text);
  return text;
}

/** The view data of a result text (the engine took `engineMs` to make it). */
function viewOf(m: SpillwayModule, graph: string, resultText: string, engineMs: number): PlanView {
  const t1 = performance.now();
  const result = parseEngine(resultText) as PlanResult;
  if (graph !== lastGraphText) {
    const g = JSON.parse(isProgram(graph) ? translate(m, graph) : graph) as { Nodes?: GraphNode[]; Order?: unknown };
    lastGraphNodes = Array.isArray(g.Nodes) ? g.Nodes : [];
    lastGraphHasOrder = Array.isArray(g.Order);
    lastGraphText = graph;
  }
  return buildView(utf8(resultText), result, lastGraphNodes, engineMs, t1, lastGraphHasOrder);
}

/** Search reports are sent at most this often (the engine makes one every 64 evaluations). */
const SEARCH_REPORT_MS = 80;

serve<Request>(
  async (req, progress) => {
    const m = await engine();
    const report = (p: PlanProgress, transfer?: Transferable[]) => progress(p, transfer);
    switch (req.method) {
      case 'init':
        return {
          version: m.version(),
          policies: JSON.parse(m.policies()),
          forceable: (JSON.parse(m.policyList()) as PolicyInfo[]).filter((p) => p.forceable).map((p) => p.name),
          orders: JSON.parse(m.orders()),
          examples: JSON.parse(m.examples()),
        };
      case 'example': {
        const text = m.example(req.name);
        parseEngine(text);
        return text;
      }
      case 'translate':
        return translate(m, req.program);
      case 'plan': {
        report({ kind: 'phase', phase: 'planning' });
        const t0 = performance.now();
        const resultText = m.plan(req.graph, JSON.stringify(req.options));
        const engineMs = performance.now() - t0;
        report({ kind: 'phase', phase: 'preparing view' });
        return viewOf(m, req.graph, resultText, engineMs);
      }
      case 'planAnytime': {
        report({ kind: 'phase', phase: 'planning' });
        let t0 = performance.now();
        let lastReport = -Infinity;
        const resultText = planAnytime((g, o, cb) => m.planWithProgress(g, o, cb), req.graph, req.options, {
          progress(p, effort) {
            const now = performance.now();
            if (now - lastReport < SEARCH_REPORT_MS) return;
            lastReport = now;
            report({ kind: 'search', progress: p, effort });
          },
          plan(text, effort) {
            const view = viewOf(m, req.graph, text, performance.now() - t0);
            report({ kind: 'plan', view, effort, step: null }, transferables(view));
            t0 = performance.now();
          },
          bestSoFar(text, step) {
            const view = viewOf(m, req.graph, text, performance.now() - t0);
            report({ kind: 'plan', view, effort: null, step }, transferables(view));
          },
        });
        const engineMs = performance.now() - t0;
        report({ kind: 'phase', phase: 'preparing view' });
        return viewOf(m, req.graph, resultText, engineMs);
      }
      case 'compare':
        return parseEngine(m.compare(req.graph, JSON.stringify(req.options))) as CompareRow[];
      case 'frontier': {
        const text = m.frontierWithProgress(req.graph, JSON.stringify(req.options), (json) =>
          progress(JSON.parse(json) as FrontierProgress),
        );
        return (parseEngine(text) as { points: FrontierPoint[] }).points;
      }
    }
    // A view's typed arrays (the result's bytes among them: hundreds of MB on a huge graph) are
    // handed over, not copied: a copy took the page's thread 2.3 s on a 485K-node graph.
  },
  (req, value) => (req.method === 'plan' || req.method === 'planAnytime' ? transferables(value as PlanView) : []),
);
