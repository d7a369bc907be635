// Typed promise API over the engine worker. cancel() terminates the worker (the only way to stop
// a synchronous wasm call) and starts a fresh one.
import type { CompareRow, EngineFailure, EngineInfo, PlanView, Request, Response, RunOptions } from './types';

type Pending = { resolve: (v: unknown) => void; reject: (e: EngineError) => void; onProgress?: (phase: string) => void };

export class EngineError extends Error {
  constructor(public kind: EngineFailure['kind'], message: string) {
    super(message);
  }
}

type RequestBody = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class EngineClient {
  private worker!: Worker;
  private pending = new Map<number, Pending>();
  private nextId = 1;

  constructor() {
    this.start();
  }

  private start() {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e: MessageEvent<Response>) => {
      const r = e.data;
      const p = this.pending.get(r.id);
      if (!p) return;
      if ('progress' in r) {
        p.onProgress?.(r.progress);
        return;
      }
      this.pending.delete(r.id);
      if (r.ok) p.resolve(r.value);
      else p.reject(new EngineError(r.error.kind, r.error.message));
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.failAll(new EngineError('worker', `The engine could not start: ${e.message || 'worker error'}`));
    };
  }

  private failAll(err: EngineError) {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(err);
  }

  private call<T>(body: RequestBody, onProgress?: (phase: string) => void): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress });
      this.worker.postMessage({ ...body, id } as Request);
    });
  }

  init(): Promise<EngineInfo> {
    return this.call({ method: 'init' });
  }

  example(name: string): Promise<string> {
    return this.call({ method: 'example', name });
  }

  plan(graph: string, options: RunOptions, onProgress?: (phase: string) => void): Promise<PlanView> {
    return this.call({ method: 'plan', graph, options }, onProgress);
  }

  /** Every policy on every order source (the engine's compare()), each plan verified. */
  compare(graph: string, options: RunOptions): Promise<CompareRow[]> {
    return this.call({ method: 'compare', graph, options });
  }

  /** Stops whatever runs: pending calls reject with kind "cancelled"; a new worker takes over. */
  cancel() {
    this.worker.terminate();
    this.failAll(new EngineError('cancelled', 'Cancelled'));
    this.start();
  }
}
