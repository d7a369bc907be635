// Typed promise API over the engine worker.
import type {
  CompareRow,
  EngineInfo,
  FrontierPoint,
  FrontierProgress,
  PlanProgress,
  PlanView,
  Request,
  RunOptions,
} from './types';
import { WorkerClient } from '../lib/worker-rpc';

type Body = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class EngineClient extends WorkerClient<Body> {
  constructor() {
    super(() => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));
  }

  init(): Promise<EngineInfo> {
    return this.call({ method: 'init' });
  }

  example(name: string): Promise<string> {
    return this.call({ method: 'example', name });
  }

  /** The graph JSON of a program text (the engine's translate()); its error as a WorkerError. */
  translate(program: string): Promise<string> {
    return this.call({ method: 'translate', program });
  }

  plan(graph: string, options: RunOptions, onProgress?: (p: PlanProgress) => void): Promise<PlanView> {
    return this.call({ method: 'plan', graph, options }, onProgress);
  }

  /** plan() that reports the order search as it goes and hands over the plan of each smaller
   * effort first (lib/anytime.ts); resolves to the same plan as plan(). */
  planAnytime(graph: string, options: RunOptions, onProgress: (p: PlanProgress) => void): Promise<PlanView> {
    return this.call({ method: 'planAnytime', graph, options }, onProgress);
  }

  /** Every policy on every order source (the engine's compare()), each plan verified. */
  compare(graph: string, options: RunOptions): Promise<CompareRow[]> {
    return this.call({ method: 'compare', graph, options });
  }

  /** The trade-off front between data moved and cycles (the engine's frontier()), by data moved;
   * `onFront` gets the front of the runs made so far after each run. */
  frontier(graph: string, options: RunOptions, onFront?: (p: FrontierProgress) => void): Promise<FrontierPoint[]> {
    return this.call({ method: 'frontier', graph, options }, onFront);
  }
}
