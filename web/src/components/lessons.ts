// The lesson path: the ordered list of lessons (each marked once answered), and the lesson on
// screen: its text, a way to its step, its question with its choices, the answer and why, and the
// way on. Everything is a button: a keyboard (or a phone) completes a lesson without a mouse.
import type { Store, State } from '../store';
import { LESSONS, lessonById, type Lesson } from '../lib/lessons';
import { decisionAtStep } from '../lib/steps';
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
  const d = s.view ? decisionAtStep(s.view, l.question.at ?? l.step) : null;
  return d ? d.candidates.map((c) => c.buf).sort((a, b) => a - b) : [];
}

export function mountLessons(root: HTMLElement, title: HTMLElement, store: Store, on: LessonHandlers) {
  root.dataset.testid = 'lessons';
  const list = h('ol', { class: 'lesson-list', 'data-testid': 'lesson-list' });
  const panel = h('div', { class: 'lesson', 'data-testid': 'lesson' });
  root.append(list, panel);
  // what gets the focus after the panel is drawn again (a keyboard user's button is replaced)
  let focusNext: 'title' | 'answer' | null = null;

  const renderList = () => {
    const s = store.get();
    title.textContent = `Lessons · ${s.lessonsDone.length} of ${LESSONS.length} done`;
    list.replaceChildren(
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
          focusNext = 'title';
          on.open(l);
        });
        return h('li', {}, b);
      }),
    );
  };

  const renderPanel = () => {
    const s = store.get();
    const l = s.lesson ? lessonById(s.lesson.id) : undefined;
    panel.hidden = !l;
    root.classList.toggle('active', !!l);
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
    const choices = choicesOf(s, l).map((c) => {
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
        const cur = store.get();
        const done = cur.lessonsDone.includes(l.id) ? cur.lessonsDone : [...cur.lessonsDone, l.id];
        focusNext = 'answer';
        store.set({ lesson: { ...cur.lesson!, answer: String(c) }, lessonsDone: done });
      });
      return b;
    });
    const nav = h('div', { class: 'lesson-nav' });
    if (i > 0) {
      const prev = h(
        'button',
        { class: 'btn small', type: 'button', 'data-testid': 'lesson-prev' },
        `◀ ${LESSONS[i - 1].title}`,
      );
      prev.addEventListener('click', () => {
        focusNext = 'title';
        on.open(LESSONS[i - 1]);
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
        focusNext = 'title';
        on.open(LESSONS[i + 1]);
      });
      nav.append(next);
    }
    const close = h(
      'button',
      { class: 'btn small', type: 'button', 'data-testid': 'lesson-close' },
      'Leave the lesson',
    );
    close.addEventListener('click', () => on.close());
    nav.append(close);
    let verdict: HTMLElement | null = null;
    if (answer !== null) {
      const right = Number(answer) === q.answer;
      const tryIt = q.with
        ? h('button', { class: 'btn small', type: 'button', 'data-testid': 'lesson-try' }, 'Show me that plan')
        : null;
      tryIt?.addEventListener('click', () => on.tryWith(q.with));
      verdict = h(
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
          right
            ? 'Right. '
            : `Not quite: the answer is ${q.field === 'buf' ? `buffer ${q.answer}` : fmtInt(q.answer)}. `,
        ),
        q.explain,
        tryIt ? h('div', {}, tryIt) : null,
      );
    }
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
        changed
          ? h(
              'p',
              { class: 'lesson-changed', role: 'status' },
              'The graph or settings changed since the lesson opened: its question is about the lesson\u2019s own plan. ',
              (() => {
                const b = h('button', { class: 'link-btn', type: 'button' }, 'Open the lesson again');
                b.addEventListener('click', () => on.open(l));
                return b;
              })(),
            )
          : null,
        h('p', { class: 'lesson-q', id: 'lesson-q' }, h('strong', {}, 'Question: '), q.text),
        h('div', { class: 'choices', role: 'group', 'aria-labelledby': 'lesson-q' }, ...choices),
        verdict,
        nav,
      ),
    );
    if (focusNext === 'answer' && verdict) verdict.focus();
    if (focusNext === 'title') heading.focus();
    focusNext = null;
  };

  store.subscribe((s, p) => {
    if (s.lessonsDone !== p.lessonsDone || s.lesson?.id !== p.lesson?.id) redrawKeepingFocus(list, renderList);
    if (
      s.lesson !== p.lesson ||
      s.view !== p.view ||
      (s.lesson && (s.docVersion !== p.docVersion || s.settings !== p.settings))
    )
      redrawKeepingFocus(panel, renderPanel);
  });
  renderList();
  renderPanel();
}
