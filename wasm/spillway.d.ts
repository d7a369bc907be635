// Typed surface of the WebAssembly engine (wasm/bindings.cpp). Every function takes and
// returns JSON text so that the browser and the CLI share one format (docs/result-format.md).

/** An order source's name, as orders() lists them ("graph" first: the default). */
export type OrderSourceName = "graph" | "best" | "schedule" | "reuse" | "search" | "min-peak" | "id";

/** Options for plan(); every field is optional. */
export interface RunOptions {
  /** Capacity per memory name; replaces the graph's "Capacities" and the defaults. */
  capacities?: Record<string, number>;
  /** An order source from orders() ("graph": the graph's Order, else "best"), or an explicit list
   *  of node ids. */
  order?: OrderSourceName | number[];
  /** A policy name from policies(). */
  policy?: string;
  cost?: { model: "seed" | "contest"; fixedLatency?: number; cyclesPerByte?: number };
  /** The order search's budget in evaluations (sources "search", "min-peak", and "best" or
   *  "graph" without an Order, which run it). Omitted: a default by the graph's size. The same
   *  effort gives the same plan; a larger one a plan at least as good (the search replays the
   *  smaller one's evaluations first and waits longer before it stops for lack of progress). */
  effort?: number;
}

/** What planWithProgress reports while the order search runs. */
export interface SearchProgress {
  /** Candidate orders scored so far (constructions included). */
  evaluations: number;
  /** Evaluations allowed (constructions included); the search may stop earlier. */
  budget: number;
  /** Best score so far: data moved by the residency step ("search"), or the peak ("min-peak"). */
  best: number;
}

export interface OrderSourceInfo {
  name: OrderSourceName;
  /** A short menu label. */
  title: string;
  /** What it does, in a sentence or three. */
  description: string;
}

export interface EngineError {
  error: { kind: "input" | "internal"; message: string };
}

export interface CompareRow {
  policy: string;
  /** The policy that made the plan ("best" names its winner). */
  planPolicy: string;
  order: OrderSourceName;
  spills: number;
  extraBytes: number;
  /** No plan for this row's order moves less (the residency relaxation; docs/result-format.md). */
  bound: { total: number; byType: Record<string, number> };
  demandPeak: { byType: Record<string, number>; total: number };
  totalCycles: number;
  /** Wall time of the run in milliseconds (the only field that varies between runs). */
  ms: number;
}

export interface ExampleInfo {
  name: string;
  title: string;
  description: string;
}

export interface SpillwayModule {
  /** "spillway 0.1.0" */
  version(): string;
  /** JSON array of policy names, default first. */
  policies(): string;
  /** JSON array of OrderSourceInfo, default first: the menu of order sources. */
  orders(): string;
  /** Result JSON (docs/result-format.md), byte-identical to `spillway plan -o`, or EngineError JSON. */
  plan(graphJson: string, optionsJson: string): string;
  /**
   * plan() that reports the order search's progress: `onProgress` receives SearchProgress JSON
   * every 64 evaluations (and once at the end) and returns true to go on, false to stop; the
   * search then keeps the best order found so far and the plan is made from it.
   *
   * Anytime use in a Web Worker, whose event loop is blocked while plan() runs: call plan() with
   * increasing efforts (e.g. 100, 400, 1600, ...) and post each result; each call is
   * deterministic and none is worse than the one before. Cancel by not starting the next call,
   * keeping the last result. onProgress drives a progress bar within one call.
   */
  planWithProgress(graphJson: string, optionsJson: string, onProgress: (progressJson: string) => boolean): string;
  /** {"violations": [{"kind", "message"}]} for a result JSON against its graph, or EngineError JSON. */
  verify(graphJson: string, resultJson: string, optionsJson: string): string;
  /** {"demandPeak": {"byType": {...}, "total": n}, "order": [...]} for the chosen order, or EngineError JSON. */
  metrics(graphJson: string, optionsJson: string): string;
  /** JSON array of CompareRow: every policy on every order source, each plan verified. */
  compare(graphJson: string, optionsJson: string): string;
  /** JSON array of ExampleInfo. */
  examples(): string;
  /** The example's graph JSON (with its "Capacities"), or EngineError JSON for an unknown name. */
  example(name: string): string;
}

export interface ModuleOptions {
  /** In Node, pass the bytes of spillway.wasm (read with fs): the module is built for web,worker. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

declare function createSpillway(options?: ModuleOptions): Promise<SpillwayModule>;
export default createSpillway;
