// Types of the engine's JSON (docs/result-format.md) and of the worker protocol.
import type {
  CompareRow,
  ExampleInfo,
  FrontierPoint,
  FrontierProgress,
  NodeWait,
  ObjectiveReport,
  OrderSourceInfo,
  PolicyInfo,
  RunOptions,
  SearchProgress,
} from '../../../wasm/spillway';
import type { ProgramInfo } from '../lib/program';

export type {
  CompareRow,
  ExampleInfo,
  FrontierPoint,
  FrontierProgress,
  NodeWait,
  ObjectiveReport,
  OrderSourceInfo,
  PolicyInfo,
  RunOptions,
  SearchProgress,
};

/** Where a cycles run was when it handed over a plan: its stage, 1 to `stages` (unknown before
 * its first report). */
export interface RunStep {
  stage: number | null;
  stages: number | null;
}

export interface Allocation {
  buf: number;
  type: string;
  offset: number;
  size: number;
}
export interface Spill {
  buf: number;
  type: string;
  size: number;
  oldOffset: number;
  newOffset: number;
  outNode: number;
  inNode: number;
  outStep: number;
  inStep: number;
}
export interface Candidate {
  buf: number;
  nextUseStep: number;
  score: number;
  size?: number;
  copyIn?: boolean;
}
export interface SpillWindow {
  start: number;
  end: number;
  cost: number;
  bufs: number[];
}
export interface Room {
  for: number[];
  need: number;
  free: number;
  largestHole: number;
  shortfall: number;
}
/** One decision as the result holds it (docs/result-format.md, "decisions"); the fields from
 * `reason` on depend on the kind, results of older engines lack them, and a brief decision (a
 * graph of over 100,000 nodes, or a plan spilling more than a quarter of its nodes) has none of them. */
export interface Decision {
  kind: 'place' | 'spill' | 'reload' | 'free' | string;
  step: number;
  orderStep?: number;
  node: number;
  buf: number;
  type: string;
  offset: number;
  size: number;
  reason?: string;
  holes?: [number, number][];
  holesTotal?: number;
  room?: Room;
  formula?: string;
  candidates?: Candidate[];
  candidatesTotal?: number;
  windows?: SpillWindow[];
  windowsTotal?: number;
}
export interface GraphNode {
  Id: number;
  Op: string;
  Pipe?: string;
  Cycles?: number;
  Bufs?: number[];
  BufId?: number;
  Size?: number;
  Type?: string;
}
/** A lower bound on a plan's total cycles: the largest of its terms, the critical path and each
 * pipe's bound (its busy cycles with the shortest head before and tail after); `limit` names the
 * term that gives `total` (a pipe, or "critical path"). */
export interface CyclesBound {
  total: number;
  limit: string;
  criticalPath: number;
  pipes: Record<string, { busy: number; bound: number }>;
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
    /** No plan for this order moves less (docs/result-format.md); per memory in byType. */
    bound: { total: number; byType: Record<string, number> };
    /** No plan finishes sooner: with these spills, of this order, of the graph at all (docs/timing.md). */
    cyclesBound: { plan: CyclesBound; order: CyclesBound; graph: CyclesBound };
  };
  /** Only when the order search made the order: candidates scored, the budget, where the best
   * order came from. */
  search?: { evaluations: number; effort: number; start: string };
  allocations: Allocation[];
  spills: Spill[];
  order: number[];
  addedNodes: GraphNode[];
  addedEdges: [number, number][];
  timing: [number, number, number][];
  /** What set each node's start, per entry of `order` (absent from results of older engines). */
  waits?: NodeWait[];
  /** Under the objective "cycles": the bytes plan it started from. */
  objective?: ObjectiveReport;
  /** The decisions say what was done, not why (a graph of over 100,000 nodes, or a plan spilling
   * more than a quarter of its graph's nodes and over 1,024 times). */
  decisionsBrief?: boolean;
  decisions: Decision[];
  /** A program's result: the program rewritten with its spills and reloads (lib/program.ts). */
  program?: ProgramInfo;
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
  copyIn: Uint8Array; // a COPY_IN uses it: main memory holds its data
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

/** Every decision of the plan as typed arrays (a large plan has a hundred thousand: as objects they
 * would take the page tens of milliseconds to receive). Lists of decision i are
 * X[xStart[i] .. xStart[i + 1]) of the arrays named after them; strings are indices into
 * `strings`. decisionAt() in lib/steps.ts turns one back into an object. */
export interface DecisionTable {
  count: number;
  strings: string[];
  kind: Uint8Array; // DECISION_KINDS index
  step: Int32Array; // input step
  orderStep: Int32Array; // step of the new order (-1: unknown, an older result)
  node: Int32Array;
  buf: Int32Array;
  type: Uint16Array;
  offset: Float64Array;
  size: Float64Array;
  reason: Uint32Array;
  formula: Uint32Array;
  /** decision index per step of the new order, -1 where none */
  atStep: Int32Array;
  holeStart: Int32Array;
  holeFrom: Float64Array;
  holeTo: Float64Array;
  holesTotal: Int32Array;
  room: Float64Array; // need, free, largestHole, shortfall: 4 per decision
  forStart: Int32Array;
  forBuf: Int32Array;
  candStart: Int32Array;
  candTotal: Int32Array;
  candBuf: Int32Array;
  candNextUse: Int32Array;
  candScore: Float64Array;
  candSize: Float64Array;
  candCopyIn: Uint8Array;
  winStart: Int32Array;
  winTotal: Int32Array;
  winFrom: Float64Array;
  winTo: Float64Array;
  winCost: Float64Array;
  winBufStart: Int32Array; // per window
  winBufs: Int32Array;
}

export const DECISION_KINDS = ['place', 'spill', 'reload', 'free'] as const;

/** A wait's cause (docs/timing.md), as the result's "waits" name them; the index is the code. */
export const WAIT_CAUSES = ['none', 'edge', 'pipe', 'address'] as const;
export type WaitCause = (typeof WAIT_CAUSES)[number];
export const WAIT_NONE = 0,
  WAIT_EDGE = 1,
  WAIT_PIPE = 2,
  WAIT_ADDRESS = 3;

/** The pipe timeline: per step of the new order, its lane and what set its start (the result's
 * "waits"), as typed arrays. */
export interface TimelineTable {
  /** The pipes in the order they first run a node; '' last, for the nodes without a pipe
   * (ALLOC, FREE: they take no cycles), when the plan has any. */
  lanes: string[];
  lane: Uint16Array; // per step: index into lanes
  cause: Uint8Array; // per step: WAIT_CAUSES index
  node: Int32Array; // the node whose end the start is (-1 for none)
  buffer: Int32Array; // address: the buffer that left the bytes last (-1 otherwise)
  cycles: Float64Array; // how much later the node starts than the other rules alone would let it
  /** The cause behind the wait: an edge from a node without a pipe (an ALLOC, a FREE) is traced
   * to what that node waited for, so that a load held back by its ALLOC, which waited for the
   * bytes another buffer left, shows as address reuse. */
  root: Uint8Array;
  /** lane l's steps are laneSteps[laneStart[l] .. laneStart[l + 1]), in order */
  laneStart: Int32Array;
  laneSteps: Int32Array;
}

/** What the worker sends for a result: the small parts parsed, the large parts as typed arrays,
 * the full text for downloads and for the rarely needed rest (decisions, allocations). */
export interface PlanView {
  /** The result JSON as UTF-8 (transferred, not copied: a large result is megabytes); read it
   * with resultText() in lib/files.ts. */
  resultBytes: Uint8Array;
  meta: Pick<
    PlanResult,
    | 'format'
    | 'engine'
    | 'policy'
    | 'planPolicy'
    | 'cost'
    | 'capacities'
    | 'orderSource'
    | 'metrics'
    | 'search'
    | 'objective'
  >;
  order: Int32Array;
  start: Float64Array; // timing per step of the new order
  end: Float64Array;
  spills: Spill[];
  addedCount: number;
  decisionCounts: Record<string, number>;
  decisions: DecisionTable;
  decisionsBrief: boolean; // what was done, not why: no reasons, holes or candidates (PlanResult)
  inputOrder: Int32Array;
  /** per node id: its step in the new order (-1: not in it) */
  stepOfNode: Int32Array;
  timeline: TimelineTable;
  nodes: NodeTable;
  buffers: BufferTable;
  stretches: Record<string, StretchTable>; // by memory type
  engineMs: number; // the plan() call inside the worker
  prepareMs: number; // parsing + layout in the worker
  graphHasOrder: boolean; // the graph names its own "Order"
  /** The rewritten program, when the graph was a program (null otherwise). */
  program: ProgramInfo | null;
}

export interface EngineInfo {
  version: string;
  policies: string[];
  /** The policies that take a forced spill (What if), from the registry's policyList(). */
  forceable: string[];
  /** The order sources, default first (the engine's registry). */
  orders: OrderSourceInfo[];
  examples: ExampleInfo[];
}

/** What the engine worker reports while a run's order search goes on (anytime planning,
 * lib/anytime.ts): the search in the call under way, or the plan of a finished, smaller effort. */
export type PlanProgress =
  | { kind: 'phase'; phase: string }
  | { kind: 'search'; progress: SearchProgress; effort: number | null }
  /** a plan before the answer: a rung's (`effort`), or a cycles run's best so far (`step`) */
  | { kind: 'plan'; view: PlanView; effort: number | null; step: RunStep | null };

// worker protocol (replies: lib/worker-rpc.ts)
export type Request =
  | { id: number; method: 'init' }
  | { id: number; method: 'example'; name: string }
  | { id: number; method: 'translate'; program: string }
  | { id: number; method: 'plan'; graph: string; options: RunOptions }
  | { id: number; method: 'planAnytime'; graph: string; options: RunOptions }
  | { id: number; method: 'compare'; graph: string; options: RunOptions }
  | { id: number; method: 'frontier'; graph: string; options: RunOptions };
