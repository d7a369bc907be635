// Types of the engine's JSON (docs/result-format.md) and of the worker protocol.
import type { CompareRow, ExampleInfo, RunOptions } from '../../../wasm/spillway';

export type { CompareRow, ExampleInfo, RunOptions };

export interface Allocation { buf: number; type: string; offset: number; size: number }
export interface Spill {
  buf: number; type: string; size: number; oldOffset: number; newOffset: number;
  outNode: number; inNode: number; outStep: number; inStep: number;
}
export interface Candidate { buf: number; nextUseStep: number; score: number; [k: string]: unknown }
export interface Decision {
  kind: 'place' | 'spill' | 'reload' | 'free' | string;
  step: number; node: number; buf: number; type: string; offset: number; size: number;
  reason: string; candidates?: Candidate[]; [k: string]: unknown;
}
export interface GraphNode {
  Id: number; Op: string; Pipe?: string; Cycles?: number; Bufs?: number[];
  BufId?: number; Size?: number; Type?: string;
}
export interface PlanResult {
  format: number;
  engine: string;
  policy: string;
  /** The policy that made the plan ("best" names its winner). */
  planPolicy: string;
  cost: { model: string; fixedLatency?: number; cyclesPerByte?: number };
  capacities: Record<string, number>;
  orderSource: string;
  inputOrder: number[];
  metrics: {
    spills: number;
    extraBytes: number;
    demandPeak: { byType: Record<string, number>; total: number };
    residentPeak: Record<string, number>;
    totalCycles: number;
  };
  allocations: Allocation[];
  spills: Spill[];
  order: number[];
  addedNodes: GraphNode[];
  addedEdges: [number, number][];
  timing: [number, number, number][];
  decisions: Decision[];
}

/** Per-node facts of the graph plus the added spill nodes, indexed by node id (typed arrays, so
 * the worker hands them over without copying thousands of small objects). */
export interface NodeTable {
  count: number;
  strings: string[]; // ops, pipes and memory types share one string table
  op: Uint16Array; // index into strings
  pipe: Uint16Array;
  type: Uint16Array; // ALLOC/FREE only ('' otherwise)
  cycles: Float64Array;
  bufId: Int32Array; // -1 for operation nodes
  size: Float64Array;
  bufStart: Int32Array; // node i's Bufs are bufList[bufStart[i] .. bufStart[i+1])
  bufList: Int32Array;
}

/** Per buffer id: where it is allocated/freed in the new order and every step that names it. */
export interface BufferTable {
  count: number;
  allocStep: Int32Array; // -1 if the buffer has no ALLOC in the order
  freeStep: Int32Array;
  size: Float64Array;
  usesStart: Int32Array; // buffer b's steps are uses[usesStart[b] .. usesStart[b+1])
  uses: Int32Array;
}

/** The stretches of one memory's chart lane (x in steps of the new order, end exclusive). A
 * spilled stretch is the time between SPILL_OUT and SPILL_IN, drawn at the place it left. */
export interface StretchTable {
  count: number;
  buf: Int32Array;
  offset: Float64Array;
  size: Float64Array;
  start: Int32Array;
  end: Int32Array;
  spilled: Uint8Array;
}

/** The decision behind each spill, in spill order, as typed arrays (a large plan has thousands,
 * each with its candidates: as objects they would take the page tens of milliseconds to receive).
 * Spill k's candidates, best score first and at most SPILL_CANDIDATES of them, are
 * cand*[candStart[k] .. candStart[k + 1]); candTotal[k] says how many the planner weighed. */
export interface SpillDecisions {
  count: number;
  step: Int32Array;
  node: Int32Array;
  reason: string[];
  candStart: Int32Array;
  candTotal: Int32Array;
  candBuf: Int32Array;
  candNextUse: Int32Array;
  candScore: Float64Array;
}

/** What the worker sends for a result: the small parts parsed, the large parts as typed arrays,
 * the full text for downloads and for the rarely needed rest (decisions, allocations). */
export interface PlanView {
  /** The result JSON as UTF-8 (transferred, not copied: a large result is megabytes); read it
   * with resultText() in lib/files.ts. */
  resultBytes: Uint8Array;
  meta: Pick<PlanResult, 'format' | 'engine' | 'policy' | 'planPolicy' | 'cost' | 'capacities' | 'orderSource' | 'metrics'>;
  order: Int32Array;
  start: Float64Array; // timing per step of the new order
  end: Float64Array;
  spills: Spill[];
  addedCount: number;
  decisionCounts: Record<string, number>;
  spillDecisions: SpillDecisions;
  nodes: NodeTable;
  buffers: BufferTable;
  stretches: Record<string, StretchTable>; // by memory type
  engineMs: number; // the plan() call inside the worker
  prepareMs: number; // parsing + layout in the worker
  graphHasOrder: boolean; // the graph names its own "Order"
}

export interface EngineInfo {
  version: string;
  policies: string[];
  examples: ExampleInfo[];
}

// worker protocol (replies: lib/worker-rpc.ts)
export type Request =
  | { id: number; method: 'init' }
  | { id: number; method: 'example'; name: string }
  | { id: number; method: 'plan'; graph: string; options: RunOptions }
  | { id: number; method: 'compare'; graph: string; options: RunOptions };
