// Stepping through the plan: the controls under the chart (slider, previous / next, play with
// speed, predict mode and its score) and the step card (what every memory holds at the cursor,
// and the decision taken there with what it chose among and why, or predict mode's question).
import { resultStale, type Store, type State } from '../store';
import type { WhatIf } from '../app/whatif';
import type { PlanView } from '../engine/types';
import { SPEEDS, answerPending, openQuestion, questionAt, spillChoices, type Stepper } from '../app/stepping';
import {
  decisionAtStep,
  describeStep,
  furthestNextUse,
  inputStepOf,
  memoryTypes,
  spillAtStep,
  stateAt,
  stepOfInput,
  type DecisionView,
  type LiveBuffer,
  type MemoryAt,
} from '../lib/steps';
import { bufferColor } from '../lib/color';
import { fmtBytes, fmtInt, h, present } from '../lib/format';
import { redrawKeepingFocus } from '../lib/focus';
import { LIMITS, fmtLimit } from '../lib/limits';

/** "step 40" or "step 40 (input step 37)": the one numbering, the input's beside it where it differs. */
export function stepText(view: PlanView, step: number): string {
  const input = inputStepOf(view, step);
  return input === null || input === step ? `step ${step}` : `step ${step} (input step ${input})`;
}

const PREDICT_TITLE =
  'The cursor stops at each spill: pick the buffer you would write out before the plan shows its choice';

/** A score or cost with at most two decimals (187.5, 0.68, 6). */
const fmtScore = (x: number) => (Number.isInteger(x) ? fmtInt(x) : String(Number(x.toFixed(2))));

/** A step as a table cell: its number, the input step beside it (smaller) where it differs. */
function stepCell(view: PlanView, step: number): (Node | string)[] {
  const input = inputStepOf(view, step);
  return input === null || input === step
    ? [String(step)]
    : [String(step), h('span', { class: 'muted small', title: `input step ${input}` }, ` in ${input}`)];
}

/** A step of the input order, named by the new order's numbering. */
function inputStepText(view: PlanView, input: number): string {
  const step = stepOfInput(view, input);
  return step < 0 ? `input step ${input}` : stepText(view, step);
}

export function mountStepControls(root: HTMLElement, store: Store, stepper: Stepper) {
  root.classList.add('step-controls');
  root.dataset.testid = 'step-controls';
  const btn = (testid: string, label: string, text: string) =>
    h('button', { class: 'btn small', type: 'button', 'data-testid': testid, 'aria-label': label, title: label }, text);
  const prev = btn('step-prev', 'Previous step', '‹ Prev');
  const next = btn('step-next', 'Next step', 'Next ›');
  const play = btn('step-play', 'Play', '▶ Play');
  const slider = h('input', {
    type: 'range',
    min: 0,
    max: 0,
    value: 0,
    step: 1,
    class: 'step-slider',
    'data-testid': 'step-slider',
    'aria-label': 'Step of the new order',
  });
  const speed = h(
    'select',
    { class: 'step-speed', 'data-testid': 'step-speed', 'aria-label': 'Play speed' },
    ...SPEEDS.map((n) => h('option', { value: n, selected: n === stepper.speed() }, `${n} steps/s`)),
  );
  const label = h('span', { 'data-testid': 'step-label' }, '0');
  const of = h('span', { class: 'muted' });
  const node = h('span', { class: 'step-node', 'data-testid': 'step-node' });
  const predict = h('input', { type: 'checkbox', 'data-testid': 'predict-toggle' });
  const predictLabel = h('label', { class: 'predict', title: PREDICT_TITLE }, predict, 'Predict the victims');
  const score = h('span', { class: 'muted small', 'data-testid': 'predict-score' });
  const live = h('span', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'step-live' });
  root.append(
    h('div', { class: 'step-row' }, prev, play, next, slider, speed),
    h(
      'div',
      { class: 'step-row step-row-2' },
      h('span', { class: 'step-where' }, h('strong', {}, 'Step ', label), of, ' ', node),
      predictLabel,
      score,
    ),
    live,
  );
  prev.addEventListener('click', () => stepper.prev());
  next.addEventListener('click', () => {
    stepper.next();
    live.textContent = stepper.blocked() ?? '';
  });
  play.addEventListener('click', () => stepper.togglePlay());
  slider.addEventListener('input', () => stepper.goTo(Number(slider.value)));
  speed.addEventListener('change', () => stepper.setSpeed(Number(speed.value)));
  predict.addEventListener('change', () => {
    const p = store.get().predict;
    store.set({ predict: { ...p, on: predict.checked, note: null } });
  });

  const render = () => {
    const s = store.get();
    const v = s.view;
    root.hidden = !v;
    if (!v) return;
    const last = Math.max(0, v.order.length - 1);
    slider.max = String(last);
    slider.value = String(s.cursor);
    slider.setAttribute('aria-valuetext', `${stepText(v, s.cursor)} of ${fmtInt(v.order.length)}`);
    label.textContent = String(s.cursor);
    const input = inputStepOf(v, s.cursor);
    of.textContent = ` of ${fmtInt(v.order.length)}${input !== null && input !== s.cursor ? ` · input step ${input}` : ''}`;
    node.textContent = answerPending(s) ? 'a decision: what will it be?' : describeStep(v, s.cursor);
    play.textContent = s.playing ? '❚❚ Pause' : '▶ Play';
    play.setAttribute('aria-label', s.playing ? 'Pause' : 'Play');
    play.setAttribute('aria-pressed', String(s.playing));
    prev.disabled = s.cursor <= 0;
    next.disabled = s.cursor >= last;
    const predicting = s.predict.on && !v.decisionsBrief; // brief decisions keep no candidates
    predict.checked = predicting;
    predict.disabled = v.decisionsBrief;
    predictLabel.title = v.decisionsBrief
      ? `${briefCause(v)} the planner keeps no spill candidates to compare your picks with`
      : PREDICT_TITLE;
    score.textContent = predicting ? predictScore(s) : '';
  };
  store.subscribe((s, p) => {
    if (
      s.view !== p.view ||
      s.cursor !== p.cursor ||
      s.playing !== p.playing ||
      s.predict !== p.predict ||
      s.lesson !== p.lesson ||
      s.asked !== p.asked
    )
      render();
  });
  render();
}

/** "2 of 3 like the policy · 1 like Belady" over the spills answered so far. */
function predictScore(s: State): string {
  const v = s.view!;
  let answered = 0,
    policy = 0,
    belady = 0;
  for (const [k, buf] of Object.entries(s.predict.picks)) {
    if (buf < 0) continue;
    const sp = v.spills[Number(k)];
    const d = sp ? decisionAtStep(v, sp.outStep) : null;
    if (!d) continue;
    answered++;
    if (buf === d.buf) policy++;
    if (buf === furthestNextUse(d)) belady++;
  }
  return answered
    ? `Score: ${policy} of ${answered} like the policy · ${belady} like Belady`
    : 'Step on: the cursor stops at each spill.';
}

/** The most buffer rows a memory's table shows. */
const MAX_ROWS = 500;
type StatePick = { pick(buf: number): boolean; select(buf: number | null): void };

/** What every memory holds at the cursor: live buffers (a row each), free holes, bytes used. */
export function mountStepState(root: HTMLElement, store: Store, on: StatePick) {
  root.dataset.testid = 'step-memories';
  const render = () => {
    const s = store.get();
    const v = s.view;
    if (!v) return root.replaceChildren();
    const types = memoryTypes(
      v,
      s.settings.capacities.map((c) => c[0]),
    );
    root.replaceChildren(...stateAt(v, s.cursor, types).map((m) => memorySection(s, m, on)));
  };
  store.subscribe((s, p) => {
    if (
      s.view !== p.view ||
      s.cursor !== p.cursor ||
      s.selectedBuf !== p.selectedBuf ||
      s.theme !== p.theme ||
      s.predict !== p.predict
    )
      redrawKeepingFocus(root, render);
  });
  render();
}

/** A live buffer's row: a button that picks it (the open question's answer) or selects it. */
function liveRow(s: State, m: MemoryAt, b: LiveBuffer, on: StatePick, question: boolean): HTMLElement {
  const pick = h(
    'button',
    {
      class: 'link-btn',
      type: 'button',
      'data-testid': 'state-pick',
      'data-buf': b.buf,
      title: question ? `Write out buffer ${b.buf}` : `Highlight buffer ${b.buf} in the chart and tables`,
    },
    h('span', { class: 'swatch', style: `background:${bufferColor(b.buf, s.theme === 'dark')}` }),
    ` ${b.buf}`,
  );
  pick.addEventListener('click', () => {
    if (!on.pick(b.buf)) on.select(s.selectedBuf === b.buf ? null : b.buf);
  });
  return h(
    'tr',
    {
      'data-testid': 'step-state',
      'data-buf': b.buf,
      'data-offset': b.offset,
      'data-mem': m.type,
      'data-size': b.size,
      'data-next': b.nextUse,
      class: s.selectedBuf === b.buf ? 'sel' : '',
    },
    h('td', {}, pick),
    h('td', { class: 'r' }, String(b.offset)),
    h('td', { class: 'r' }, fmtInt(b.size)),
    h(
      'td',
      { class: 'nowrap' },
      ...(b.inUse ? ['now'] : b.nextUse < 0 ? ['none (FREE left)'] : stepCell(s.view!, b.nextUse)),
    ),
    h(
      'td',
      {
        title: b.copyIn
          ? 'A COPY_IN filled it: main memory holds its data, so writing it out moves nothing'
          : 'Main memory has no copy: writing it out moves its bytes',
      },
      b.copyIn ? 'yes (COPY_IN)' : 'no',
    ),
  );
}

/** The table of a memory's live buffers. */
function liveTable(rows: HTMLElement[]): HTMLElement {
  return h(
    'table',
    { class: 'cands state' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Buffer'),
        h('th', { class: 'r' }, 'Offset'),
        h('th', { class: 'r' }, 'Size'),
        h('th', {}, 'Next use'),
        h(
          'th',
          {
            title: 'Whether main memory holds its data (a COPY_IN filled it): writing it out then moves nothing',
          },
          'In main memory',
        ),
      ),
    ),
    h('tbody', {}, ...rows),
  );
}

/** One memory at the cursor: bytes used, its live buffers, its free holes. */
function memorySection(s: State, m: MemoryAt, on: StatePick): HTMLElement {
  const question = openQuestion(s) >= 0;
  const rows = m.live.slice(0, MAX_ROWS).map((b) => liveRow(s, m, b, on, question));
  const pct = m.capacity ? Math.min(100, (m.used / m.capacity) * 100) : 0;
  return h(
    'section',
    { class: 'mem', 'data-mem': m.type },
    h(
      'div',
      { class: 'mem-head' },
      h('strong', {}, m.type),
      h(
        'div',
        { class: 'peak-bar', title: `${fmtInt(m.used)} of ${fmtInt(m.capacity)} bytes used` },
        h('div', { class: 'peak-fill', style: `width:${pct}%` }),
      ),
      h(
        'span',
        { 'data-testid': 'step-used', 'data-mem': m.type },
        `${fmtInt(m.used)} of ${fmtBytes(m.capacity)} used`,
      ),
    ),
    m.live.length ? liveTable(rows) : h('p', { class: 'muted small' }, 'No buffer resident.'),
    m.live.length > MAX_ROWS
      ? h('p', { class: 'muted small' }, `…and ${fmtInt(m.live.length - MAX_ROWS)} more buffers`)
      : null,
    h(
      'p',
      { class: 'holes small' },
      h('span', { class: 'muted' }, m.holes.length ? 'Free: ' : 'Free: none'),
      ...m.holes.map((x) =>
        h(
          'span',
          { class: 'hole', 'data-testid': 'step-free', 'data-mem': m.type, 'data-start': x.start, 'data-end': x.end },
          `[${x.start}, ${x.end}) ${fmtBytes(x.end - x.start)}`,
        ),
      ),
    ),
  );
}

/** The decision at the cursor, with what it chose among and why; in predict mode at an open
 * question, the question instead (and the answer once given). */
export function mountStepDecision(root: HTMLElement, store: Store, stepper: Stepper, whatIf: WhatIf) {
  root.dataset.testid = 'step-decision';
  const render = () => {
    const s = store.get();
    const v = s.view;
    root.replaceChildren();
    if (!v) return;
    const q = questionAt(s);
    if (q) return root.append(...question(s, q, stepper));
    if (answerPending(s)) {
      root.dataset.kind = 'pending';
      return root.append(
        h(
          'p',
          { class: 'predict-q' },
          h('strong', {}, 'Your turn: '),
          'answer the question first; the decision taken here shows once you have. The memories at this step are in the table.',
        ),
      );
    }
    const d = decisionAtStep(v, s.cursor);
    const k = spillAtStep(v, s.cursor);
    const take = takeButton(s, whatIf);
    if (k >= 0 && s.predict.picks[k] !== undefined && d) root.append(reveal(d, s.predict.picks[k], take));
    root.dataset.kind = d?.kind ?? 'none';
    if (!d) {
      root.append(
        h('p', {}, h('strong', {}, `${stepText(v, s.cursor)}: `), describeStep(v, s.cursor), '.'),
        h(
          'p',
          { class: 'muted' },
          'An operation runs: its buffers are resident (the spills and reloads before it made room). No decision is taken at this step.',
        ),
      );
      return;
    }
    root.append(...explain(s, v, d, take));
  };
  store.subscribe((s, p) => {
    if (
      s.view !== p.view ||
      s.cursor !== p.cursor ||
      s.predict !== p.predict ||
      s.theme !== p.theme ||
      s.lesson !== p.lesson ||
      s.asked !== p.asked ||
      s.whatIf !== p.whatIf
    )
      redrawKeepingFocus(root, render, '[data-testid=predict-answer]');
  });
  render();
}

function question(s: State, q: NonNullable<ReturnType<typeof questionAt>>, stepper: Stepper): Node[] {
  const d = q.decision;
  const dark = s.theme === 'dark';
  const choices = q.choices
    .slice()
    .sort((a, b) => a.buf - b.buf)
    .map((c) => {
      const b = h(
        'button',
        { class: 'btn small choice', type: 'button', 'data-testid': 'predict-choice', 'data-buf': c.buf },
        h('span', { class: 'swatch', style: `background:${bufferColor(c.buf, dark)}` }),
        `Buffer ${c.buf}`,
      );
      b.addEventListener('click', () => stepper.pick(c.buf));
      return b;
    });
  const skip = h('button', { class: 'btn small', type: 'button', 'data-testid': 'predict-skip' }, 'Skip');
  skip.addEventListener('click', () => stepper.pick(-1));
  const forBufs = d.room.for.length
    ? `buffer${d.room.for.length > 1 ? 's' : ''} ${d.room.for.join(', ')} need${d.room.for.length > 1 ? '' : 's'} ${fmtBytes(d.room.need)} in ${d.type}`
    : `${d.type} must hold less here`;
  return [
    h(
      'p',
      { class: 'predict-q' },
      h('strong', {}, 'Predict: '),
      `${forBufs}, and ${fmtBytes(d.room.shortfall)} are missing (${fmtBytes(d.room.free)} free, the largest hole ${fmtBytes(d.room.largestHole)}). Which buffer would you write out?`,
    ),
    h(
      'p',
      { class: 'muted small' },
      'Pick one below, in the memory table above, or in the chart. Each one\u2019s next use is in the table.',
    ),
    h('div', { class: 'choices' }, ...choices, skip),
    s.predict.note
      ? h('p', { class: 'predict-note', role: 'status', 'data-testid': 'predict-note' }, s.predict.note)
      : h('span', { role: 'status' }),
  ];
}

/** What if's button on a buffer the policy did not write out at a spill decision: null on a
 * result that is out of date, and on the plan made with a forced choice (one choice at a time). */
type Take = (d: DecisionView, buf: number, text: string) => HTMLElement | null;

function takeButton(s: State, whatIf: WhatIf): Take {
  const on = !resultStale(s) && !(s.whatIf?.forced && s.view === s.whatIf.forced);
  return (d, buf, text) => {
    if (!on || buf === d.buf || d.kind !== 'spill') return null;
    const b = h(
      'button',
      {
        class: 'btn small',
        type: 'button',
        'data-testid': 'what-if-take',
        'data-buf': buf,
        title: `Plan again with buffer ${buf} written out here; the policy plans the rest`,
      },
      text,
    );
    b.addEventListener('click', () => whatIf.take(d, buf));
    return b;
  };
}

function reveal(d: DecisionView, picked: number, take: Take): HTMLElement {
  const belady = furthestNextUse(d);
  if (picked < 0)
    return h(
      'p',
      { class: 'predict-a', tabindex: -1, 'data-testid': 'predict-answer' },
      `Skipped. The policy wrote out buffer ${d.buf}; in hindsight, Belady's rule (the furthest next use) picks buffer ${belady}.`,
    );
  const same = picked === d.buf;
  return h(
    'p',
    {
      class: `predict-a ${same ? 'good' : 'bad'}`,
      tabindex: -1,
      'data-testid': 'predict-answer',
      'data-picked': picked,
    },
    `You picked buffer ${picked}: ${same ? '✓ the policy\u2019s choice too.' : `the policy wrote out buffer ${d.buf}.`} `,
    `In hindsight, Belady's rule (the furthest next use; best when sizes and costs are equal) picks buffer ${belady}${picked === belady ? ' ✓' : ''}. `,
    take(d, picked, 'Take my choice instead') ?? '',
  );
}

/** Why a plan's decisions are brief (docs/result-format.md, "Brief decisions"): a graph of over
 * LIMITS.hugeGraphNodes nodes, or a plan spilling more than a quarter of its graph's nodes. */
function briefCause(v: PlanView): string {
  const nodes = v.inputOrder.length;
  return nodes > LIMITS.hugeGraphNodes
    ? `On a graph this large (over ${fmtLimit(LIMITS.hugeGraphNodes)} nodes)`
    : `With this many spills (${fmtLimit(v.spills.length)} in ${fmtLimit(nodes)} nodes)`;
}

/** What every kind of decision's explanation starts with. */
interface DecisionParts {
  swatch(buf: number): HTMLElement;
  /** the title line, with the decision's buffer's colour */
  head(text: string): HTMLElement;
  /** the step and the node it serves */
  where: HTMLElement;
  reason: HTMLElement;
  take: Take;
}

/** A decision with what it chose among: holes for a placement, the room, the formula and the
 * candidates (and windows) for a spill. */
function explain(s: State, v: PlanView, d: DecisionView, take: Take): Node[] {
  const dark = s.theme === 'dark';
  const swatch = (buf: number) => h('span', { class: 'swatch', style: `background:${bufferColor(buf, dark)}` });
  const parts: DecisionParts = {
    swatch,
    head: (text: string) => h('div', { class: 'dec-head' }, swatch(d.buf), h('strong', {}, text)),
    where: h(
      'p',
      { class: 'muted small' },
      `${stepText(v, d.step)}: ${describeStep(v, d.step)}${d.inputStep !== inputStepOf(v, d.step) ? `, serving the node at ${inputStepText(v, d.inputStep)}` : ''}.`,
    ),
    reason: h('p', { class: 'dec-reason', 'data-testid': 'decision-reason' }, d.reason),
    take,
  };
  const { head, where } = parts;
  if (d.kind === 'free')
    return [
      head(`Buffer ${d.buf} is freed`),
      where,
      h('p', {}, `Its ${fmtBytes(d.size)} at offset ${d.offset} of ${d.type} return to the free space.`),
    ];
  const placed =
    d.kind === 'place'
      ? `Buffer ${d.buf} is placed at offset ${d.offset}`
      : `Buffer ${d.buf} comes back at offset ${d.offset}`;
  const k = spillAtStep(v, d.step);
  const spilled = `${k >= 0 ? `Spill ${k + 1} of ${v.spills.length}: b` : 'B'}uffer ${d.buf} is written out`;
  if (v.decisionsBrief) {
    return [
      head(d.kind === 'spill' ? spilled : placed),
      where,
      h('p', {}, `${d.type}, ${fmtBytes(d.size)}, at offset ${d.offset}.`),
      h(
        'p',
        { class: 'muted small', 'data-testid': 'decision-brief' },
        `${briefCause(v)} the planner records what it did, not why: no reasons, holes or candidates, which would take most of its memory.`,
      ),
    ];
  }
  if (d.kind === 'place' || d.kind === 'reload') return explainPlacement(d, parts, placed);
  return explainSpill(v, d, parts, spilled);
}

/** A placement (or a reload): the holes it chose among. */
function explainPlacement(d: DecisionView, parts: DecisionParts, placed: string): Node[] {
  const rows = d.holes.map((x) => {
    const size = x.end - x.start;
    const chosen = x.start <= d.offset && d.offset + d.size <= x.end;
    return h(
      'tr',
      { class: chosen ? 'chosen' : '', 'data-testid': 'decision-hole', 'data-start': x.start, 'data-end': x.end },
      h('td', {}, `[${x.start}, ${x.end})`),
      h('td', { class: 'r' }, fmtInt(size)),
      h('td', {}, size >= d.size ? 'holds it' : 'too small'),
      h('td', {}, chosen ? `taken: at ${d.offset}` : ''),
    );
  });
  return present(
    parts.head(placed),
    parts.where,
    h('p', {}, `${d.type}, ${fmtBytes(d.size)}. The holes it chose among:`),
    h(
      'table',
      { class: 'cands' },
      h(
        'thead',
        {},
        h('tr', {}, h('th', {}, 'Hole'), h('th', { class: 'r' }, 'Bytes'), h('th', {}, ''), h('th', {}, '')),
      ),
      h('tbody', {}, ...rows),
    ),
    d.holesTotal > d.holes.length
      ? h(
          'p',
          { class: 'muted small' },
          `${fmtInt(d.holesTotal)} holes in all; these are the one taken and those closest to being taken.`,
        )
      : null,
    h('p', { class: 'muted small' }, 'Rule: '),
    parts.reason,
  );
}

/** A spill: the room missing, the formula, the windows weighed, the candidates and their scores. */
function explainSpill(v: PlanView, d: DecisionView, parts: DecisionParts, spilled: string): Node[] {
  // windows cheapest first: the first is the one written out (its buffers, one decision each)
  const windows = d.windows.map((w, i) =>
    h(
      'tr',
      { class: i === 0 ? 'chosen' : '', 'data-testid': 'decision-window' },
      h('td', {}, `[${w.start}, ${w.end})`),
      h('td', {}, w.bufs.join(', ') || '—'),
      h('td', { class: 'r' }, fmtScore(w.cost)),
    ),
  );
  const room = d.room.for.length
    ? `Buffer${d.room.for.length > 1 ? 's' : ''} ${d.room.for.join(', ')} need${d.room.for.length > 1 ? '' : 's'} ${fmtBytes(d.room.need)} in ${d.type}; ${fmtBytes(d.room.free)} are free, the largest hole is ${fmtBytes(d.room.largestHole)}: ${fmtBytes(d.room.shortfall)} missing.`
    : `${d.type} must hold less at this step: ${fmtBytes(d.room.shortfall)} over its budget.`;
  return present(
    parts.head(spilled),
    parts.where,
    h('p', { 'data-testid': 'decision-room' }, room),
    parts.reason,
    h('p', { class: 'formula', 'data-testid': 'decision-formula' }, h('strong', {}, 'Formula: '), d.formula),
    windows.length
      ? h(
          'table',
          { class: 'cands' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Window'), h('th', {}, 'Buffers'), h('th', { class: 'r' }, 'Cost'))),
          h('tbody', {}, ...windows),
        )
      : null,
    d.windowsTotal > d.windows.length
      ? h('p', { class: 'muted small' }, `…${fmtInt(d.windowsTotal)} windows weighed in all (the cheapest shown)`)
      : null,
    d.candidates.length ? candidatesTable(v, d, parts) : null,
    d.candidatesTotal > d.candidates.length
      ? h(
          'p',
          { class: 'muted small' },
          `…and ${fmtInt(d.candidatesTotal - d.candidates.length)} more candidates weighed (in result.json: the strongest, the victim and the furthest next use are shown)`,
        )
      : null,
    whatIfChoices(v, d, parts.take),
  );
}

/** What if: a button for each other buffer the decision could have written out. */
function whatIfChoices(v: PlanView, d: DecisionView, take: Take): HTMLElement | null {
  const buttons = spillChoices(v, d)
    .map((b) => take(d, b.buf, `Buffer ${b.buf}`))
    .filter((b): b is HTMLElement => !!b);
  if (!buttons.length) return null;
  return h(
    'p',
    { class: 'choices', 'data-testid': 'what-if-choices' },
    h('span', { class: 'muted small' }, 'What if you wrote out another buffer here? '),
    ...buttons,
  );
}

/** A spill's candidates: size, next use, score (with a bar), the one written out and Belady's. */
function candidatesTable(v: PlanView, d: DecisionView, parts: DecisionParts): HTMLElement {
  const belady = furthestNextUse(d);
  const max = Math.max(1e-9, ...d.candidates.map((c) => Math.abs(c.score)));
  const rows = d.candidates.map((c) => {
    const chosen = c.buf === d.buf;
    return h(
      'tr',
      { class: chosen ? 'chosen' : '', 'data-testid': 'decision-candidate', 'data-buf': c.buf },
      h('td', {}, parts.swatch(c.buf), ` ${c.buf}`),
      h('td', { class: 'r' }, fmtInt(c.size)),
      h(
        'td',
        { class: 'nowrap' },
        ...(stepOfInput(v, c.nextUseStep) >= 0
          ? stepCell(v, stepOfInput(v, c.nextUseStep))
          : [`input ${c.nextUseStep}`]),
      ),
      h('td', {}, c.copyIn ? 'yes' : 'no'),
      h('td', { class: 'r' }, fmtScore(c.score)),
      h(
        'td',
        { class: 'score-cell' },
        h('div', { class: 'score-bar', style: `width:${Math.max(1, (Math.abs(c.score) / max) * 100)}%` }),
      ),
      h(
        'td',
        { class: 'marks' },
        chosen ? h('span', { class: 'mark out', title: 'the buffer the policy wrote out' }, 'out') : null,
        c.buf === belady
          ? h('span', { class: 'mark far', title: 'the furthest next use: Belady’s choice' }, 'furthest')
          : null,
      ),
    );
  });
  return h(
    'table',
    { class: 'cands' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Buffer'),
        h('th', { class: 'r' }, 'Size'),
        h('th', {}, 'Next use'),
        h('th', {}, 'COPY_IN'),
        h('th', { class: 'r' }, 'Score'),
        h('th', {}, ''),
        h('th', {}, ''),
      ),
    ),
    h('tbody', {}, ...rows),
  );
}
