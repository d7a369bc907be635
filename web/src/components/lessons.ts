// The lesson path: the ordered list of lessons (each marked once answered), and the lesson on
// screen: its text, a way to its step, its question with its choices, the answer and why, and the
// way on. Everything is a button: a keyboard (or a phone) completes a lesson without a mouse.
import type { Store, State } from '../store';
import { LESSONS, lessonById, type Lesson } from '../lib/lessons';
import { weighedAt } from '../app/stepping';
import { fmtInt, h, present } from '../lib/format';
import { redrawKeepingFocus } from '../lib/focus';

export interface LessonHandlers {
  open(lesson: Lesson): void;
  close(): void;
  /** moves the cursor to a step and brings the step card into view */
  goToStep(step: number): void;
  /** applies settings over the current ones (a question's "with") */
  tryWith(settings: Lesson['question']['with']): void;
}

/** The choices of a lesson's question: its own, or the buffers the decision at its step weighed. */
function choicesOf(s: State, l: Lesson): number[] {
  if (l.question.choices) return l.question.choices;
  return s.view ? weighedAt(s.view, l.question.at ?? l.step) : [];
}

/** The mounted lesson path: its parts and where the focus goes after the next redraw. */
interface Path {
  root: HTMLElement;
  title: HTMLElement;
  store: Store;
  on: LessonHandlers;
  list: HTMLElement;
  reset: HTMLButtonElement;
  panel: HTMLElement;
  /** what gets the focus after the panel is drawn again (a keyboard user's button is replaced) */
  focusNext: 'title' | 'answer' | null;
}

export function mountLessons(root: HTMLElement, title: HTMLElement, store: Store, on: LessonHandlers) {
  root.dataset.testid = 'lessons';
  const list = h('ol', { class: 'lesson-list', 'data-testid': 'lesson-list' });
  const panel = h('div', { class: 'lesson', 'data-testid': 'lesson' });
  const reset = h(
    'button',
    { class: 'link-btn small', type: 'button', 'data-testid': 'lesson-reset' },
    'Reset progress',
  ) as HTMLButtonElement;
  reset.addEventListener('click', () => {
    if (confirm('Untick every lesson?')) store.set({ lessonsDone: [] });
  });
  root.append(list, reset, panel);
  const p: Path = { root, title, store, on, list, reset, panel, focusNext: null };
  store.subscribe((s, prev) => {
    if (s.lessonsDone !== prev.lessonsDone || s.lesson?.id !== prev.lesson?.id)
      redrawKeepingFocus(list, () => renderList(p));
    if (
      s.lesson !== prev.lesson ||
      s.view !== prev.view ||
      (s.lesson && (s.docVersion !== prev.docVersion || s.settings !== prev.settings))
    )
      redrawKeepingFocus(panel, () => renderPanel(p));
  });
  renderList(p);
  renderPanel(p);
}

function renderList(p: Path) {
  const s = p.store.get();
  p.title.textContent = `Lessons · ${s.lessonsDone.length} of ${LESSONS.length} done`;
  p.reset.hidden = !s.lessonsDone.length;
  p.list.replaceChildren(
    ...LESSONS.map((l, i) => {
      const done = s.lessonsDone.includes(l.id);
      const current = s.lesson?.id === l.id;
      const b = h(
        'button',
        {
          type: 'button',
          class: `lesson-item${current ? ' current' : ''}${done ? ' done' : ''}`,
          'data-testid': 'lesson-item',
          'data-lesson': l.id,
          'aria-current': current ? 'step' : undefined,
          title: l.text[0],
        },
        h('span', { class: 'lesson-n' }, done ? '✓' : String(i + 1)),
        l.title,
      );
      b.addEventListener('click', () => {
        p.focusNext = 'title';
        p.on.open(l);
      });
      return h('li', {}, b);
    }),
  );
}

function renderPanel(p: Path) {
  const { panel, on } = p;
  const s = p.store.get();
  const l = s.lesson ? lessonById(s.lesson.id) : undefined;
  panel.hidden = !l;
  p.root.classList.toggle('active', !!l);
  if (!l) return panel.replaceChildren();
  const i = LESSONS.indexOf(l);
  const q = l.question;
  const changed = s.lesson!.docVersion >= 0 && s.lesson!.docVersion !== s.docVersion;
  const answer = s.lesson!.answer;
  const stepBtn = h(
    'button',
    { class: 'btn small', type: 'button', 'data-testid': 'lesson-step' },
    `Go to step ${l.step}`,
  );
  stepBtn.addEventListener('click', () => on.goToStep(l.step));
  const choices = choiceButtons(p, s, l);
  const nav = lessonNav(p, i);
  const verdict = answer === null ? null : verdictOf(p, q, answer);
  const heading = h(
    'h3',
    { class: 'lesson-title', tabindex: -1, 'data-testid': 'lesson-title' },
    `Lesson ${i + 1} of ${LESSONS.length}: ${l.title}`,
  );
  panel.replaceChildren(
    ...present(
      heading,
      ...l.text.map((t) => h('p', {}, t)),
      h('div', { class: 'lesson-step' }, stepBtn),
      changed ? changedNote(p, l) : null,
      h('p', { class: 'lesson-q', id: 'lesson-q' }, h('strong', {}, 'Question: '), q.text),
      h('div', { class: 'choices', role: 'group', 'aria-labelledby': 'lesson-q' }, ...choices),
      verdict,
      nav,
    ),
  );
  if (p.focusNext === 'answer' && verdict) verdict.focus();
  if (p.focusNext === 'title') heading.focus();
  p.focusNext = null;
}

/** A button per choice; the one picked marked right or wrong. Picking one answers the lesson. */
function choiceButtons(p: Path, s: State, l: Lesson): HTMLElement[] {
  const q = l.question;
  const answer = s.lesson!.answer;
  return choicesOf(s, l).map((c) => {
    const b = h(
      'button',
      {
        class: `btn small choice${answer === String(c) ? (c === q.answer ? ' right' : ' wrong') : ''}`,
        type: 'button',
        'data-testid': 'lesson-choice',
        'data-value': c,
        'aria-pressed': String(answer === String(c)),
      },
      q.field === 'buf' ? `buffer ${c}` : fmtInt(c),
    );
    b.addEventListener('click', () => {
      const cur = p.store.get();
      // only a right answer ticks the lesson: a wrong one shows the answer but leaves it to do again
      const done = c !== q.answer || cur.lessonsDone.includes(l.id) ? cur.lessonsDone : [...cur.lessonsDone, l.id];
      p.focusNext = 'answer';
      p.store.set({ lesson: { ...cur.lesson!, answer: String(c) }, lessonsDone: done });
    });
    return b;
  });
}

/** The way on from lesson i: the previous, the next, leave. */
function lessonNav(p: Path, i: number): HTMLElement {
  const nav = h('div', { class: 'lesson-nav' });
  if (i > 0) {
    const prev = h(
      'button',
      { class: 'btn small', type: 'button', 'data-testid': 'lesson-prev' },
      `◀ ${LESSONS[i - 1].title}`,
    );
    prev.addEventListener('click', () => {
      p.focusNext = 'title';
      p.on.open(LESSONS[i - 1]);
    });
    nav.append(prev);
  }
  if (i < LESSONS.length - 1) {
    const next = h(
      'button',
      { class: 'btn small primary', type: 'button', 'data-testid': 'lesson-next' },
      `Next: ${LESSONS[i + 1].title} ▶`,
    );
    next.addEventListener('click', () => {
      p.focusNext = 'title';
      p.on.open(LESSONS[i + 1]);
    });
    nav.append(next);
  }
  const close = h('button', { class: 'btn small', type: 'button', 'data-testid': 'lesson-close' }, 'Leave the lesson');
  close.addEventListener('click', () => p.on.close());
  nav.append(close);
  return nav;
}

/** Right or not, why, and (when the question has one) the plan that shows it. */
function verdictOf(p: Path, q: Lesson['question'], answer: string): HTMLElement {
  const right = Number(answer) === q.answer;
  const tryIt = q.with
    ? h('button', { class: 'btn small', type: 'button', 'data-testid': 'lesson-try' }, 'Show me that plan')
    : null;
  tryIt?.addEventListener('click', () => p.on.tryWith(q.with));
  return h(
    'div',
    {
      class: `lesson-answer ${right ? 'right' : 'wrong'}`,
      role: 'status',
      tabindex: -1,
      'data-testid': 'lesson-answer',
      'data-right': String(right),
    },
    h(
      'strong',
      {},
      right ? 'Right. ' : `Not quite: the answer is ${q.field === 'buf' ? `buffer ${q.answer}` : fmtInt(q.answer)}. `,
    ),
    q.explain,
    tryIt ? h('div', {}, tryIt) : null,
  );
}

/** The graph or settings changed since the lesson opened: a way back to the lesson's own plan. */
function changedNote(p: Path, l: Lesson): HTMLElement {
  const again = h('button', { class: 'link-btn', type: 'button' }, 'Open the lesson again');
  again.addEventListener('click', () => p.on.open(l));
  return h(
    'p',
    { class: 'lesson-changed', role: 'status' },
    'The graph or settings changed since the lesson opened: its question is about the lesson\u2019s own plan. ',
    again,
  );
}
