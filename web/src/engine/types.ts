// Types of the engine's JSON (docs/result-format.md) and of the worker protocol.
import type { ExampleInfo, RunOptions } from '../../../wasm/spillway';

export type { ExampleInfo, RunOptions };

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

/** Per-node facts of the graph plus the added spill nodes, indexed by node id. */
export interface NodeTable {
  op: string[];
  pipe: string[];
  cycles: number[];
  bufs: number[][];
  bufId: number[]; // -1 for operation nodes
  size: number[];
  type: string[];
}

/** One stretch of a buffer's life in one place (x in steps of the new order, end exclusive). */
export interface Stretch {
  buf: number;
  type: string;
  offset: number;
  size: number;
  start: number;
  end: number;
  spilled: boolean; // the buffer is out (between SPILL_OUT and SPILL_IN): drawn at its old place
}

export interface BufferInfo {
  buf: number;
  type: string;
  size: number;
  allocStep: number;
  freeStep: number;
  uses: number[]; // steps in the new order of every node naming the buffer (ALLOC/FREE included)
}

export interface PlanView {
  resultText: string;
  result: PlanResult;
  nodes: NodeTable;
  buffers: Record<number, BufferInfo>;
  stretches: Record<string, Stretch[]>; // by memory type
  engineMs: number; // the plan() call inside the worker
  prepareMs: number; // parsing + layout in the worker
}

export interface EngineInfo {
  version: string;
  policies: string[];
  examples: ExampleInfo[];
}

export interface EngineFailure {
  kind: 'input' | 'internal' | 'cancelled' | 'worker';
  message: string;
}

// worker protocol
export type Request =
  | { id: number; method: 'init' }
  | { id: number; method: 'example'; name: string }
  | { id: number; method: 'plan'; graph: string; options: RunOptions };

export type Response =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: EngineFailure }
  | { id: number; progress: string };
