// What if's panel under the decision: the learner's choice at a spill, the plan made with it
// forced (on screen), its data moved beside the policy's plan and the optimum for the same order,
// and the way back to the policy's plan.
import type { Store, WhatIfState } from '../store';
import type { WhatIf } from '../app/whatif';
import { costWords } from '../lib/whatif';
import { fmtBytes, h } from '../lib/format';

const button = (testid: string, text: string, run: () => void) => {
  const b = h('button', { class: 'btn small', type: 'button', 'data-testid': testid }, text);
  b.addEventListener('click', run);
  return b;
};

/** The three figures, each with its data-bytes for tests and scripts. */
function figures(w: WhatIfState): HTMLElement {
  const policyBytes = w.policyView.meta.metrics.extraBytes;
  const row = (testid: string, label: string, bytes: number) => [
    h('span', {}, label),
    h('strong', { 'data-testid': testid, 'data-bytes': bytes }, fmtBytes(bytes)),
  ];
  return h(
    'div',
    { class: 'what-if-figures' },
    ...row('what-if-forced', `Your choice (buffer ${w.buffer}, then ${w.policy})`, w.forced!.meta.metrics.extraBytes),
    ...row('what-if-policy', `${w.policyView.meta.planPolicy}'s plan (buffer ${w.policyBuffer})`, policyBytes),
    ...(w.optimum
      ? row(
          'what-if-optimum',
          w.optimum.source === 'residency'
            ? 'The optimum for this order (residency)'
            : 'The lower bound for this order',
          w.optimum.bytes,
        )
      : []),
  );
}

function body(w: WhatIfState, whatIf: WhatIf): (Node | string)[] {
  const title = h(
    'p',
    {},
    h('strong', {}, 'What if '),
    `buffer ${w.buffer} were written out instead of buffer ${w.policyBuffer} (step ${w.step} of the policy’s plan)?`,
  );
  const back = button('what-if-back', w.status === 'done' ? 'Back to the policy’s plan' : 'Close', () => whatIf.back());
  if (w.status === 'refused' || w.status === 'error')
    return [title, h('p', { class: 'predict-note', 'data-testid': 'what-if-message' }, w.message ?? ''), back];
  if (w.status === 'running')
    return [title, h('p', { class: 'muted' }, `Planning with your choice (${w.policy})…`), back];
  return [
    title,
    w.note ? h('p', { class: 'muted small' }, w.note) : '',
    figures(w),
    h(
      'p',
      { 'data-testid': 'what-if-words' },
      costWords(
        w.forced!.meta.metrics.extraBytes,
        w.policyView.meta.planPolicy,
        w.policyView.meta.metrics.extraBytes,
        w.optimum?.source === 'residency' ? w.optimum.bytes : null,
      ),
    ),
    h(
      'p',
      { class: 'muted small' },
      'The plan on screen is the one with your choice: step through it to see what it costs later.',
    ),
    h('div', { class: 'choices' }, back),
  ];
}

export function mountWhatIf(root: HTMLElement, store: Store, whatIf: WhatIf) {
  root.dataset.testid = 'what-if';
  const render = () => {
    const s = store.get();
    const w = s.whatIf;
    root.hidden = !w;
    root.dataset.status = w?.status ?? '';
    root.replaceChildren(...(w ? body(w, whatIf) : []));
  };
  store.subscribe((s, p) => {
    if (s.whatIf !== p.whatIf) render();
  });
  render();
}
