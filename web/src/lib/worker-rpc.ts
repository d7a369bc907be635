// Promise calls into a module worker, and the worker's side of them. Both workers of the page
// (the engine, the text tasks) speak this: {id, method, ...} in; {id, ok, value | error} or
// {id, progress} out (a progress value is whatever the method reports: a phase, an early
// result). cancel() terminates the worker (the only way to stop a synchronous call)
// and starts a fresh one.
import type { ErrorWhere } from '../store';

export interface Failure {
  kind: 'input' | 'internal' | 'cancelled' | 'worker';
  message: string;
  where?: ErrorWhere;
}

export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: Failure }
  | { id: number; progress: unknown };

export class WorkerError extends Error {
  constructor(
    public kind: Failure['kind'],
    message: string,
    public where?: ErrorWhere,
  ) {
    super(message);
  }
}

type Pending = {
  resolve: (v: unknown) => void;
  reject: (e: WorkerError) => void;
  onProgress?: (progress: never) => void;
};

export class WorkerClient<Request extends { method: string }> {
  private worker!: Worker;
  private pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private spawn: () => Worker) {
    this.start();
  }

  private start() {
    this.worker = this.spawn();
    this.worker.onmessage = (e: MessageEvent<Reply>) => {
      const r = e.data;
      const p = this.pending.get(r.id);
      if (!p) return;
      if ('progress' in r) {
        p.onProgress?.(r.progress as never);
        return;
      }
      this.pending.delete(r.id);
      if (r.ok) p.resolve(r.value);
      else p.reject(new WorkerError(r.error.kind, r.error.message, r.error.where));
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.failAll(new WorkerError('worker', `A worker of the page could not start: ${e.message || 'worker error'}`));
    };
  }

  private failAll(err: WorkerError) {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(err);
  }

  protected call<T, P = never>(
    body: Request,
    onProgress?: (progress: P) => void,
    transfer: Transferable[] = [],
  ): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, {
        resolve: resolve as (v: unknown) => void,
        reject,
        onProgress: onProgress as Pending['onProgress'],
      });
      this.worker.postMessage({ ...body, id }, transfer);
    });
  }

  /** Stops whatever runs: pending calls reject with kind "cancelled"; a new worker takes over. */
  cancel() {
    this.worker.terminate();
    this.failAll(new WorkerError('cancelled', 'Cancelled'));
    this.start();
  }
}

/** A failure the worker reports as such (not as an internal error). */
export class ReportedFailure extends Error {
  constructor(public failure: Failure) {
    super(failure.message);
  }
}

/** The worker's side: answers each request with `handle`'s value (transferring what
 * `transferOf` names) or its failure. `progress(value, transfer)` reports on a long call. */
export function serve<Request extends { id: number }>(
  handle: (req: Request, progress: (value: unknown, transfer?: Transferable[]) => void) => Promise<unknown> | unknown,
  transferOf: (req: Request, value: unknown) => Transferable[] = () => [],
) {
  const post = (r: Reply, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(r, transfer);
  self.onmessage = async (e: MessageEvent<Request>) => {
    const req = e.data;
    try {
      const value = await handle(req, (progress, transfer) => post({ id: req.id, progress }, transfer));
      post({ id: req.id, ok: true, value }, transferOf(req, value));
    } catch (err) {
      const error: Failure =
        err instanceof ReportedFailure
          ? err.failure
          : { kind: 'internal', message: err instanceof Error ? err.message : String(err) };
      post({ id: req.id, ok: false, error });
    }
  };
}
