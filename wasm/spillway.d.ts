// Typed surface of the WebAssembly engine (wasm/bindings.cpp). Every function takes and
// returns JSON text so that the browser and the CLI share one format (docs/result-format.md).

/** An order source's name, as orders() lists them ("graph" first: the default). */
export type OrderSourceName = "graph" | "best" | "schedule" | "reuse" | "search" | "min-peak" | "id";

/** A policy's name, as policies() lists them ("best" first: the default). */
export type PolicyName = "best" | "lifetime" | "residency" | "seed" | "window" | "belady" | "lru" | "fifo";

/** Options for plan(); every field is optional. */
export interface RunOptions {
  /** Capacity per memory name; replaces the graph's "Capacities" and the defaults. */
  capacities?: Record<string, number>;
  /** An order source from orders() ("graph": the graph's Order, else "best"), or an explicit list
   *  of node ids. */
  order?: OrderSourceName | number[];
  /** A policy name from policies() (PolicyName); another name is an input error. */
  policy?: string;
  cost?: { model: "seed" | "contest"; fixedLatency?: number; cyclesPerByte?: number };
  /** The order search's budget in evaluations (sources "search", "min-peak", and "best" or
   *  "graph" without an Order, which run it). Omitted: a default by the graph's size. The same
   *  effort gives the same plan; a larger one a plan at least as good (the search replays the
   *  smaller one's evaluations first and waits longer before it stops for lack of progress). */
  effort?: number;
  /** "bytes" (the default): the plan moving the least data. "cycles": that plan made to finish
   *  sooner under the pipe model (docs/timing.md), moving at most 10% more data; the result then
   *  holds "objective" with the bytes plan's figures. */
  objective?: "bytes" | "cycles";
  /** Techniques of the cycles objective to switch off, by name (cyclesTechniques()); only with
   *  objective "cycles". */
  disable?: string[];
  /** The data the cycles objective may move beyond the bytes plan's, in percent (0..1000; default
   *  10); only with objective "cycles" (`--margin`). */
  margin?: number;
  /** What if: write buffer `buffer` (an id) out just before step `step` of the input order; the
   *  policy plans the rest. Policies whose PolicyInfo says forceable; objective "bytes" only. */
  force?: { step: number; buffer: number };
}

/** What set a node's start (docs/timing.md): one per entry of the result's "order", beside
 *  "timing". The named node always ends exactly at this node's start. */
export type NodeWait =
  | { pipe?: string; cause: "none" }
  | { pipe?: string; cause: "edge" | "pipe"; node: number; cycles: number }
  | { pipe?: string; cause: "address"; node: number; buffer: number; cycles: number };

/** Under objective "cycles", the result's "objective": the bytes plan it started from and what
 *  each technique gained. */
export interface ObjectiveReport {
  name: "cycles";
  /** Techniques switched off (RunOptions.disable). */
  disabled: string[];
  /** The data margin it ran with, percent (RunOptions.margin; 10 unless given). */
  margin: number;
  /** Whether the margin refused a plan for moving more data than it allows (a start, a stretch
   *  of technique reserve, a window of technique retime, or technique headroom skipped): false
   *  means any larger margin makes this same plan. */
  marginLimited: boolean;
  bytesPlan: { extraBytes: number; totalCycles: number };
  /** One line per kept step, e.g. "bytes plan round 1, placement: 44390 -> 42154 cycles". */
  steps: string[];
}

/** What planWithProgress reports while the order search runs. */
export interface SearchProgress {
  /** Candidate orders scored so far (constructions included); in the stage "finish sooner", the
   *  starts improved so far. */
  evaluations: number;
  /** Evaluations allowed (constructions included); the search may stop earlier. 0 in the stage
   *  "finish sooner" (not known ahead). */
  budget: number;
  /** Best score so far: data moved by the residency step ("search"), or the peak ("min-peak");
   *  in the stage "finish sooner", the fewest cycles so far. */
  best: number;
  /** Under objective "cycles" only: the run's stage, 1 to `stages` ("order search", "longer order
   *  search", "order search with room kept free", then "finish sooner"; a stage the run does not
   *  reach is passed over), so that one progress bar follows the whole run. */
  stage?: number;
  stages?: number;
  stageName?: string;
}

export interface PolicyInfo {
  name: PolicyName;
  /** A one-line summary. */
  title: string;
  /** What it does, in a sentence or two. */
  description: string;
  /** It takes PlanOptions.force (What if). */
  forceable: boolean;
  /** A textbook rule (belady, lru, fifo), for teaching; policy "best" does not run it. */
  textbook: boolean;
}

export interface OrderSourceInfo {
  name: OrderSourceName;
  /** A short menu label. */
  title: string;
  /** What it does, in a sentence or three. */
  description: string;
}

/** Where an input error is (docs/result-format.md, "Errors"); every member is optional. */
export interface ErrorWhere {
  /** Which text the place is in. */
  source?: "graph" | "options" | "order" | "result" | "csv";
  /** 1-based line and column (characters) in that text. */
  line?: number;
  column?: number;
  /** A node Id that exists in Nodes. */
  node?: number;
  /** Index in Nodes (also when the Id is missing or invalid). */
  nodeIndex?: number;
  /** "Size", "Bufs[2]", "Capacities.UB", "order[3]", "cost.cyclesPerByte", ... */
  field?: string;
  buffer?: number;
  /** Index in Edges. */
  edge?: number;
  /** Position in an order. */
  step?: number;
  /** Node ids of a dependency cycle. */
  cycle?: number[];
  /** A memory (Type) name, e.g. one without a capacity. */
  memory?: string;
  /** A stated limit that was exceeded (README.md, "Limits"). */
  limit?: { name: string; max: number };
}

export interface EngineError {
  error: { kind: "input" | "internal"; message: string; where: ErrorWhere };
}

/** One thing verify() found wrong in a result. */
export interface Violation {
  kind: "order" | "spill-ids" | "spill-pair" | "spill-cycles" | "edges" | "allocation" | "residency"
    | "bounds" | "overlap" | "metrics" | "timing" | "capacities";
  message: string;
  node?: number;
  buffer?: number;
  /** Position in the result's order. */
  step?: number;
  /** Index in the result's spills. */
  spill?: number;
  /** The claim concerned: "metrics.extraBytes", "timing[12]", "inputOrder[3]", ... */
  field?: string;
}

export interface CompareRow {
  policy: string;
  /** The policy that made the plan ("best" names its winner). */
  planPolicy: string;
  order: OrderSourceName;
  spills: number;
  extraBytes: number;
  /** No plan for this row's order moves less (the residency relaxation; docs/result-format.md). */
  bound: { total: number; byType: Record<string, number>; exact?: false };  // exact: false when relaxed by windows (huge graphs) or out of its work budget
  demandPeak: { byType: Record<string, number>; total: number };
  totalCycles: number;
  /** Under objective "cycles": the row's bytes plan, which extraBytes and totalCycles improve on. */
  bytesPlan?: { extraBytes: number; totalCycles: number };
  /** Wall time of the run in milliseconds (the only field that varies between runs). */
  ms: number;
}

/** Options for pack(). */
export interface PackOptions {
  /** Bytes of the memory (required). */
  capacity: number;
  /** Search nodes before the verdict "unknown" (default 10000000). Counted, never timed. */
  budget?: number;
  /** Techniques to switch off, by name (packTechniques()). */
  disable?: string[];
  /** Static orders tried in turn, e.g. ["WAT", "TAW", "TWA"] (the default); keys
   *  A area, C sections, L lower, O overlaps, T section total, U upper, W width, Z size,
   *  R random (a new draw each round). */
  preorders?: string[];
}

/** What pack() returns: the same JSON as `spillway pack FILE.csv --json -`. */
export interface PackResult {
  verdict: "fits" | "does-not-fit" | "unknown";
  capacity: number;
  /** Why it does not fit, or why the answer is unknown; empty when it fits. */
  reason: string;
  /** Where packing fails: a span of time and the most bytes live at once in it. */
  failing: { from: number; to: number; load: number } | null;
  stats: {
    /** Search nodes visited: what the budget counts. */
    nodes: number;
    backtracks: number;
    /** Most bytes live at once: no packing needs less capacity. */
    peakLoad: number;
    /** Independent spans of time the problem splits into. */
    partitions: number;
    /** The preorder that found the packing ("" otherwise). */
    preorder: string;
    /** Region probes run (their nodes are in `nodes`), and regions proved impossible (by a probe or remembered). */
    probes: number;
    probesImpossible: number;
  };
  /** One per CSV row, in order; offset only when it fits. */
  blocks: { id: string; lower: number; upper: number; size: number; offset?: number }[];
  /** minimalloc's output CSV (the input columns plus offset) when it fits, else null. */
  csv: string | null;
}

/** One plan of the trade-off front (frontier()), by data moved. `marginPercent`: the cycles
 *  objective's margin that made it (0 for the bytes plan); plan() with objective and margin makes it
 *  again. */
export interface FrontierPoint {
  objective: "bytes" | "cycles";
  marginPercent: number;
  order: string;
  planPolicy: string;
  spills: number;
  extraBytes: number;
  totalCycles: number;
  verified: true;
}
export interface FrontierResult {
  points: FrontierPoint[];
}
/** What frontierWithProgress tells after each run: the front of the runs made so far. */
export interface FrontierProgress {
  runsMade: number;
  /** the runs the front takes, as far as known: 8 (the bytes plan, then the cycles objective at
   *  each margin) until margins are found to make a plan made already (a margin allowing the data
   *  of a smaller one, or above a run its margin did not limit); at the last run, runsMade */
  runs: number;
  points: FrontierPoint[];
}

export interface ExampleInfo {
  name: string;
  title: string;
  description: string;
}

/**
 * No function throws. A call with the wrong number of arguments gets the EngineError JSON
 * "plan() takes 2 arguments, got 1" (where.field "arguments"); a function without parameters
 * ignores extra ones. Every text parameter must be a string: anything else gets the EngineError JSON naming the
 * parameter (where.field "graphJson", "optionsJson", "resultJson", "csvText" or "name"). Text
 * crosses the boundary as UTF-8 through the host's TextEncoder and TextDecoder (a lone surrogate
 * becomes U+FFFD).
 */
export interface SpillwayModule {
  /** "spillway 0.1.0" */
  version(): string;
  /** JSON array of policy names (PolicyName), default first. */
  policies(): string;
  /** JSON array of PolicyInfo, default first: the policies' registry, as policies() orders it. */
  policyList(): string;
  /** JSON array of OrderSourceInfo, default first: the menu of order sources. */
  orders(): string;
  /** Result JSON (docs/result-format.md), byte-identical to `spillway plan -o`, or EngineError JSON;
   *  a result over 2^28 bytes is the input error where.limit {name: "resultBytes", max: 268435456}
   *  (README.md, "Limits"). */
  plan(graphJson: string, optionsJson: string): string;
  /** The graph JSON a program (docs/programs.md) becomes, as `spillway translate` prints it, or
   *  EngineError JSON (a program's errors carry where.line and where.column). */
  translate(programText: string): string;
  /**
   * plan() that reports the order search's progress: `onProgress` receives SearchProgress JSON
   * every 64 evaluations (and once at the end) and returns true to go on, false to stop; the
   * search then keeps the best order found so far and the plan is made from it.
   *
   * Anytime use in a Web Worker, whose event loop is blocked while plan() runs: call plan() with
   * increasing efforts (e.g. 100, 400, 1600, ...) and post each result; each call is
   * deterministic and none is worse than the one before. Cancel by not starting the next call,
   * keeping the last result. onProgress drives a progress bar within one call.
   *
   * Under the objective cycles the run's best plan so far comes too, as a second argument: its
   * Result JSON (what plan() returns, for that plan: verified, timed, measured) with the last
   * report — the bytes plan after the first order search, then the best plan as it improves, not
   * sooner than 250 ms after the last one nor than four times what the last one cost — so that a
   * worker can post it and Cancel keep it. The returned value does not stop the run there.
   *
   * An onProgress that is not a function gets the EngineError JSON (where.field "onProgress"); one
   * that throws stops the search, and the call returns the EngineError JSON "onProgress threw: ...".
   */
  planWithProgress(
    graphJson: string,
    optionsJson: string,
    onProgress: (progressJson: string, resultJson?: string) => boolean,
  ): string;
  /** {"violations": Violation[]} for a result JSON against its graph (the plan and every claim:
   *  metrics, timing, spill cycles), or EngineError JSON. */
  verify(graphJson: string, resultJson: string, optionsJson: string): string;
  /** {"demandPeak": {"byType": {...}, "total": n}, "order": [...]} for the chosen order, or EngineError JSON. */
  metrics(graphJson: string, optionsJson: string): string;
  /** JSON array of CompareRow: every policy on every order source, each plan verified. */
  compare(graphJson: string, optionsJson: string): string;
  /** FrontierResult JSON, byte-identical to `spillway frontier -o -`: the bytes plan and the
   *  cycles objective at margins 0 to 80% and 1000% (plan()'s options; objective and margin are
   *  its own, and "disable" needs no objective, as with `spillway frontier --disable`),
   *  the plans no other beats on both data moved and cycles, each verified; or EngineError JSON. */
  frontier(graphJson: string, optionsJson: string): string;
  /** frontier() that calls `onFront` with FrontierProgress JSON after each of its runs (the front
   *  of the runs made so far: the last one is the answer's), so that a worker can post it and a
   *  Cancel keep it; returns what frontier() returns. An onFront that is not a function, or throws,
   *  gets the EngineError JSON (where.field "onFront"; "onFront threw: ..."). */
  frontierWithProgress(graphJson: string, optionsJson: string, onFront: (frontJson: string) => void): string;
  /** PackResult JSON for minimalloc's CSV (id,lower,upper,size[,alignment][,gaps]) and PackOptions
   *  JSON, or EngineError JSON (bad CSV: the line and column). Every packing is validated. */
  pack(csvText: string, optionsJson: string): string;
  /** JSON array of {name, what}: the packer's techniques that PackOptions.disable can switch off. */
  packTechniques(): string;
  /** JSON array of {name, what}: the cycles objective's techniques that RunOptions.disable can
   *  switch off. */
  cyclesTechniques(): string;
  /** JSON array of ExampleInfo. */
  examples(): string;
  /** The example's graph JSON (with its "Capacities"), or EngineError JSON for an unknown name. */
  example(name: string): string;
  /** Bytes the engine's allocator holds now (diagnostics: failing calls must not raise it). */
  heapInUse(): number;
  /**
   * The most nodes a graph may have here: every call taking a graph answers a larger one with an
   * input error "the graph is too large for the browser (N nodes, limit M)", where.limit
   * {name: "browserNodes", max: M}, instead of running out of WebAssembly memory.
   */
  browserMaxNodes(): number;
}

export interface ModuleOptions {
  /** In Node, pass the bytes of spillway.wasm (read with fs): the module is built for web,worker. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

declare function createSpillway(options?: ModuleOptions): Promise<SpillwayModule>;
export default createSpillway;
