// The trade-off front between data moved and cycles (the engine's frontier(): the bytes plan and
// the cycles objective at margins 0 to 80% and 1000%, the plans no other beats on both), made on
// demand in a worker of its own: up to eight runs of the graph, which must not hold up a Run or the
// compare table.
// The front of the runs made so far is shown after each run; Cancel keeps it.
// A point opens its plan by setting the objective and margin that made it; the run follows.
import { frontierKey, store } from '../store';
import { frontierOptions } from '../lib/settings';
import { EngineClient } from '../engine/client';
import { WorkerError } from '../lib/worker-rpc';
import type { FrontierPoint } from '../engine/types';
import type { GraphDocument } from './document';

export interface FrontierRunner {
  run(): Promise<void>;
  cancel(): void;
  open(point: FrontierPoint): void;
}

export function createFrontierRunner(doc: GraphDocument): FrontierRunner {
  let client: EngineClient | null = null;
  let token = 0;
  return {
    async run() {
      const s = store.get();
      if (s.fieldErrors.length) return;
      const key = frontierKey(s);
      if (s.frontier?.status === 'running') client?.cancel();
      client ??= new EngineClient();
      const mine = ++token;
      store.set({ frontier: { key, status: 'running', points: [], runs: null } });
      try {
        const points = await client.frontier(doc.text(), frontierOptions(s.settings), (p) => {
          if (mine === token)
            store.set({
              frontier: { key, status: 'running', points: p.points, runs: { made: p.runsMade, of: p.runs } },
            });
        });
        if (mine === token) store.set({ frontier: { key, status: 'done', points, runs: null } });
      } catch (e) {
        const err = e instanceof WorkerError ? e : new WorkerError('internal', String(e));
        if (mine !== token || err.kind === 'cancelled') return;
        store.set({ frontier: { key, status: 'error', points: [], runs: null, message: err.message } });
      }
    },
    cancel() {
      ++token;
      client?.cancel();
      const f = store.get().frontier;
      store.set({ frontier: f?.points.length ? { ...f, status: 'stopped' } : null });
    },
    open(point) {
      store.setSettings(
        point.objective === 'cycles' ? { objective: 'cycles', margin: point.marginPercent } : { objective: 'bytes' },
      );
    },
  };
}
