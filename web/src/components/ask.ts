// A lecturer's own question, shared in a link (link format v7, lib/share.ts). The editor ("Ask
// this as a question", under the state at the cursor) takes the question's text and what it asks:
// the victim of the spill decision at the cursor (its choices: the buffers the decision weighed),
// or the plan's spills or bytes moved; it makes the link, which carries no answer. The question
// (in the lessons card, also in the embed view) is asked like a lesson's: the page keeps what
// would answer it hidden (app/stepping.ts hiddenFrom) and works the answer out from the plan on
// screen; a wrong answer says so and leaves the question open, the right one shows everything.
import type { State, Store } from '../store';
import type { PlanView } from '../engine/types';
import { checkQuestion, type CaseQuestion } from '../lib/share';
import { LIMITS } from '../lib/limits';
import { decisionAtStep } from '../lib/steps';
import { fmtInt, h, present } from '../lib/format';
import { hiddenFrom, weighedAt } from '../app/stepping';

type Field = CaseQuestion['field'];

const FIELD_TEXT: Record<Field, string> = {
  buf: 'Which buffer the spill decision at the cursor writes out',
  'metrics.spills': 'How many spills the whole plan makes',
  'metrics.extraBytes': 'How many bytes the whole plan’s spills move',
};

/** The victim's choices at the cursor's step, or why the cursor's step cannot be asked about. */
function spillAtCursor(s: State): { choices: number[] } | { why: string } {
  const v = s.view;
  if (!v) return { why: 'Run the planner first.' };
  if (s.cursor >= hiddenFrom(s)) return { why: 'This step is hidden until the open question is answered.' };
  if (decisionAtStep(v, s.cursor)?.kind !== 'spill')
    return { why: `Step ${s.cursor} takes no spill decision: move the cursor to one (the Spills table lists them).` };
  const choices = weighedAt(v, s.cursor);
  return choices.length < 2
    ? { why: `The spill at step ${s.cursor} weighed one buffer only: there is nothing to choose between.` }
    : { choices };
}

/** The question to share, or why it cannot be made yet. */
function draftQuestion(s: State, text: string, field: Field): CaseQuestion | string {
  if (!text.trim()) return 'Type the question first.';
  if (!s.view) return 'Run the planner first: the question is about its plan.';
  let q: CaseQuestion = { text: text.trim(), field, at: s.cursor };
  if (field === 'buf') {
    const spill = spillAtCursor(s);
    if ('why' in spill) return spill.why;
    q = { ...q, choices: spill.choices };
  }
  const checked = checkQuestion(q);
  return typeof checked === 'string' ? `The question ${checked}.` : checked;
}

/** The editor: the lecturer's text, what it asks, and the link. `link` makes the share link (the
 * page's address with its fragment) of the case on screen asking `q`. */
export function mountAskEditor(root: HTMLElement, store: Store, link: (q: CaseQuestion) => Promise<string>) {
  root.dataset.testid = 'ask-editor';
  const toggle = h(
    'button',
    {
      class: 'btn small',
      type: 'button',
      'data-testid': 'ask-open',
      'aria-expanded': 'false',
      'aria-controls': 'ask-form',
    },
    'Ask this as a question…',
  );
  const text = h('textarea', {
    id: 'ask-text',
    class: 'ask-text',
    'data-testid': 'ask-text',
    rows: 2,
    maxlength: LIMITS.questionChars,
    placeholder: 'e.g. UB is full and t needs room: which buffer goes out?',
  }) as HTMLTextAreaElement;
  const field = h('select', { id: 'ask-field', 'data-testid': 'ask-field' }) as HTMLSelectElement;
  const make = h('button', { class: 'btn small primary', type: 'button', 'data-testid': 'ask-make' }, 'Make the link');
  const status = h('p', { class: 'muted small', role: 'status', 'data-testid': 'ask-status' });
  const url = h('input', {
    class: 'share-url',
    readonly: true,
    hidden: true,
    'data-testid': 'ask-url',
    'aria-label': 'Link to the question',
  }) as HTMLInputElement;
  const form = h(
    'div',
    { class: 'ask-form', id: 'ask-form', hidden: true },
    h('label', { for: 'ask-text' }, 'Your question (the learners see it as you type it)'),
    text,
    h('label', { for: 'ask-field' }, 'What it asks (the page works the answer out from the plan)'),
    field,
    h('div', { class: 'ask-actions' }, make),
    url,
    status,
  );
  root.append(toggle, form);
  toggle.addEventListener('click', () => {
    form.hidden = !form.hidden;
    toggle.setAttribute('aria-expanded', String(!form.hidden));
    if (!form.hidden) text.focus();
  });
  let chosen: string | null = null; // what the lecturer picked, kept wherever it can be asked
  field.addEventListener('change', () => {
    chosen = field.value;
  });
  const sync = () => syncFields(field, store.get(), chosen);
  store.subscribe((s, p) => {
    if (s.view !== p.view || s.cursor !== p.cursor || hiddenFrom(s) !== hiddenFrom(p)) sync();
  });
  sync();
  make.addEventListener('click', async () => {
    const q = draftQuestion(store.get(), text.value, field.value as Field);
    url.hidden = typeof q === 'string';
    if (typeof q === 'string') {
      status.textContent = q;
      return;
    }
    url.value = await link(q);
    url.select();
    try {
      await navigator.clipboard.writeText(url.value);
      status.textContent = `Copied to the clipboard: a link asking “${q.text}”${q.field === 'buf' ? ` about step ${q.at}` : ''}.`;
    } catch {
      status.textContent = 'Select and copy the link (Ctrl/⌘+C).';
    }
  });
}

/** The choices of what to ask at the cursor: the one the lecturer chose while it can be asked,
 * else the first that can (the victim at a spill decision). */
function syncFields(select: HTMLSelectElement, s: State, chosen: string | null) {
  const spill = spillAtCursor(s);
  select.replaceChildren(
    ...(Object.keys(FIELD_TEXT) as Field[]).map((f) => {
      const off = f === 'buf' && 'why' in spill;
      const label =
        f === 'buf' && !off
          ? `Which buffer the spill decision at step ${s.cursor} writes out (of ${(spill as { choices: number[] }).choices.join(', ')})`
          : FIELD_TEXT[f];
      return h('option', { value: f, disabled: off }, label);
    }),
  );
  const open = [...select.options].filter((o) => !o.disabled).map((o) => o.value);
  select.value = chosen && open.includes(chosen) ? chosen : (open[0] ?? '');
}

/** The answer the plan on screen gives, or why it gives none. */
function answerOf(v: PlanView, q: CaseQuestion): { value: number } | { why: string } {
  if (q.field === 'metrics.spills') return { value: v.meta.metrics.spills };
  if (q.field === 'metrics.extraBytes') return { value: v.meta.metrics.extraBytes };
  const d = decisionAtStep(v, q.at);
  return d?.kind === 'spill'
    ? { value: d.buf }
    : { why: `This plan takes no spill decision at step ${q.at}, so the question does not apply to it.` };
}

/** The answer of the plan on screen once it is the run's own (a search's early plan may answer
 * otherwise), else null. */
const planAnswer = (s: State, q: CaseQuestion) => (s.view && !s.running && !s.earlyPlan ? answerOf(s.view, q) : null);

const said = (q: CaseQuestion, n: number) => (q.field === 'buf' ? `buffer ${n}` : fmtInt(n));

/** The question a link asks, asked like a lesson's. */
export function mountAsked(root: HTMLElement, store: Store) {
  root.dataset.testid = 'asked';
  let focusVerdict = false;
  const answer = (n: number) => {
    const s = store.get();
    const a = s.asked;
    const right = a ? planAnswer(s, a.question) : null;
    if (!a || !right || 'why' in right) return;
    focusVerdict = true;
    store.set({ asked: { ...a, right: n === right.value, wrong: n === right.value ? null : n } });
  };
  const render = () => {
    const s = store.get();
    const a = s.asked;
    root.hidden = !a || a.docVersion !== s.docVersion;
    if (root.hidden) return root.replaceChildren();
    const verdict = verdictOf(a!.question, a!.right, a!.wrong);
    root.replaceChildren(...present(...askedParts(s, a!.question, answer), verdict));
    if (focusVerdict) verdict?.focus();
    focusVerdict = false;
  };
  store.subscribe((s, p) => {
    if (
      s.asked !== p.asked ||
      s.view !== p.view ||
      s.docVersion !== p.docVersion ||
      s.running !== p.running ||
      s.earlyPlan !== p.earlyPlan
    )
      render();
  });
  render();
}

function askedParts(s: State, q: CaseQuestion, answer: (n: number) => void): (HTMLElement | null)[] {
  const a = s.asked!;
  const got = planAnswer(s, q);
  const choices = q.choices ?? (q.field === 'buf' && s.view ? weighedAt(s.view, q.at) : null);
  const about =
    q.field === 'buf'
      ? `About the spill decision at step ${q.at}: the steps from there on show once you answer.`
      : 'About the whole plan: its totals show once you answer.';
  return [
    h('h3', { class: 'lesson-title', 'data-testid': 'asked-title' }, 'A question about this case'),
    h('p', { class: 'lesson-q', id: 'asked-q', 'data-testid': 'asked-text' }, h('strong', {}, 'Question: '), q.text),
    h('p', { class: 'muted' }, about),
    !got
      ? h('p', { class: 'muted' }, 'The plan is on its way…')
      : 'why' in got
        ? h('p', { class: 'lesson-changed', role: 'status' }, got.why)
        : choices
          ? choiceButtons(q, a.right ? got.value : null, a.wrong, choices, answer)
          : numberAnswer(a.right, answer),
  ];
}

/** A button per choice: the right one marked once found, else the last wrong one. */
function choiceButtons(
  q: CaseQuestion,
  right: number | null,
  wrong: number | null,
  choices: number[],
  answer: (n: number) => void,
): HTMLElement {
  const group = h('div', { class: 'choices', role: 'group', 'aria-labelledby': 'asked-q' });
  for (const c of choices) {
    const mark = right === c ? ' right' : wrong === c ? ' wrong' : '';
    const b = h(
      'button',
      { class: `btn small choice${mark}`, type: 'button', 'data-testid': 'asked-choice', 'data-value': c },
      said(q, c),
    );
    b.addEventListener('click', () => answer(c));
    group.append(b);
  }
  return group;
}

function numberAnswer(right: boolean, answer: (n: number) => void): HTMLElement {
  const input = h('input', {
    type: 'number',
    min: 0,
    step: 1,
    class: 'asked-input',
    'data-testid': 'asked-input',
    'aria-labelledby': 'asked-q',
    disabled: right,
  }) as HTMLInputElement;
  const submit = h('button', { class: 'btn small', type: 'button', 'data-testid': 'asked-submit' }, 'Answer');
  const go = () => {
    if (input.value.trim() !== '' && Number.isFinite(Number(input.value))) answer(Number(input.value));
  };
  submit.addEventListener('click', go);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') go();
  });
  return h('div', { class: 'choices' }, input, submit);
}

function verdictOf(q: CaseQuestion, right: boolean, wrong: number | null): HTMLElement | null {
  if (!right && wrong === null) return null;
  return h(
    'div',
    {
      class: `lesson-answer ${right ? 'right' : 'wrong'}`,
      role: 'status',
      tabindex: -1,
      'data-testid': 'asked-answer',
      'data-right': String(right),
    },
    right ? h('strong', {}, 'Right. ') : h('strong', {}, `Not ${said(q, wrong!)}: try again. `),
    right
      ? 'Everything about the plan shows now: step on to see the decision and why it was taken.'
      : 'The question stays open; the plan keeps its answer hidden until you find it.',
  );
}
