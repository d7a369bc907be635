// What if: another buffer written out at a spill decision plans the same graph and order again with
// the learner's buffer forced out there (the policy plans the rest), in a worker of its own, and
// sets its data moved beside the policy's and the optimum's (residency on the same order). The
// forced plan becomes the view on screen; back() restores the policy's (and predict mode's answers).
import { store, resultStale, type WhatIfState } from '../store';
import { EngineClient } from '../engine/client';
import type { PlanView } from '../engine/types';
import { runOptions } from '../lib/settings';
import { forcePolicy, forcedOptions, OPTIMUM_POLICY, optimumOptions } from '../lib/whatif';
import { stepOfInput } from '../lib/steps';
import type { DecisionView } from '../lib/steps';

export interface WhatIf {
  /** Re-plans with `buffer` written out instead of the policy's choice at spill decision `d`. */
  take(d: DecisionView, buffer: number): void;
  /** Shows the policy's plan again (and ends the what if). */
  back(): void;
}

/** The cursor at the forced spill: the forced buffer's SPILL_OUT last before the input step. */
function forcedStep(v: PlanView, w: WhatIfState): number {
  const at = stepOfInput(v, w.inputStep);
  let best = at;
  for (const sp of v.spills)
    if (sp.buf === w.buffer && sp.outStep < at && (best === at || sp.outStep > best)) best = sp.outStep;
  return best;
}

export function createWhatIf(graphText: () => string): WhatIf {
  let engine: EngineClient | null = null;
  let token = 0;
  // a view other than the two plans of the what if (a new run, a link) ends it
  store.subscribe((s) => {
    const w = s.whatIf;
    if (w && s.view !== w.policyView && s.view !== w.forced) store.set({ whatIf: null });
  });
  const update = (t: number, patch: Partial<WhatIfState>) => {
    const w = store.get().whatIf;
    if (t === token && w) store.set({ whatIf: { ...w, ...patch } });
  };

  async function plan(t: number, w: WhatIfState) {
    const s = store.get();
    const graph = graphText();
    const run = runOptions(s.settings);
    const v = w.policyView;
    engine ??= new EngineClient();
    try {
      const forced = await engine.plan(graph, forcedOptions(run, v.inputOrder, w.policy, w.inputStep, w.buffer));
      if (t !== token) return;
      let optimum: WhatIfState['optimum'];
      if (v.meta.planPolicy === OPTIMUM_POLICY) optimum = { bytes: v.meta.metrics.extraBytes, source: 'residency' };
      else {
        const best = await engine.plan(graph, optimumOptions(run, v.inputOrder)).catch(() => null);
        optimum = best
          ? { bytes: best.meta.metrics.extraBytes, source: 'residency' }
          : { bytes: v.meta.metrics.bound.total, source: 'bound' };
      }
      if (t !== token) return;
      update(t, { status: 'done', forced, optimum });
      store.set({ view: forced });
      store.set({ cursor: forcedStep(forced, store.get().whatIf!) });
    } catch (e) {
      update(t, { status: 'error', message: (e as Error).message });
    }
  }

  return {
    take(d, buffer) {
      const s = store.get();
      const v = s.whatIf?.policyView ?? s.view;
      if (!v || resultStale(s)) return;
      const chosen =
        s.settings.objective === 'bytes'
          ? forcePolicy(s.settings.policy, v.meta.planPolicy, s.engine?.policies[0] ?? '', s.engine?.forceable ?? [])
          : { why: 'What if sets data moved against data moved: choose the objective bytes to try your choice.' };
      const w: WhatIfState = {
        inputStep: d.inputStep,
        step: d.step,
        buffer,
        policyBuffer: d.buf,
        policy: 'policy' in chosen ? chosen.policy : v.meta.planPolicy,
        note: 'note' in chosen ? chosen.note : null,
        status: 'policy' in chosen ? 'running' : 'refused',
        message: 'why' in chosen ? chosen.why : undefined,
        policyView: v,
        picks: s.whatIf?.picks ?? s.predict.picks,
        forced: null,
        optimum: null,
      };
      const t = ++token;
      store.set({ whatIf: w, view: v });
      if (w.status === 'running') void plan(t, w);
    },
    back() {
      const w = store.get().whatIf;
      if (!w) return;
      token++;
      store.set({ view: w.policyView, whatIf: null });
      store.set({ cursor: w.step, predict: { ...store.get().predict, picks: w.picks } });
    },
  };
}
