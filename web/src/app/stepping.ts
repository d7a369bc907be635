// The step cursor over the plan on screen: moving it, playing, and predict mode (the cursor
// stops at each spill and waits until the learner picks the buffer to write out, or skips).
// All of it lives in the store (cursor, playing, predict); this module only changes it.
import { store, runKey, type State } from '../store';
import type { PlanView } from '../engine/types';
import { decisionAtStep, spillAtStep, stateAt, type DecisionView, type LiveBuffer } from '../lib/steps';
import { lessonById, type LessonQuestion } from '../lib/lessons';

export const SPEEDS = [1, 2, 5, 10, 25] as const; // steps per second

export interface Stepper {
  goTo(step: number): void;
  next(): void;
  prev(): void;
  togglePlay(): void;
  setSpeed(stepsPerSecond: number): void;
  speed(): number;
  /** The learner's answer to the open question: `buf`, or -1 to skip. False when no question is
   * open; a buffer that cannot be written out there is refused with a note (predict.note). */
  pick(buf: number): boolean;
  /** Why next() did not move, for the page to say (null when it moved). */
  blocked(): string | null;
}

/** The spill whose question is open at the cursor (predict mode, not answered yet), or -1. */
export function openQuestion(s: State): number {
  if (!s.predict.on || !s.view || s.view.decisionsBrief) return -1; // brief decisions: nothing to compare with
  if (s.view === s.whatIf?.forced) return -1; // the learner's own choice: nothing to predict
  const k = spillAtStep(s.view, s.cursor);
  return k >= 0 && s.predict.picks[k] === undefined ? k : -1;
}

/** The step whose decision the lesson on screen (or a link's question) asks about, while its
 * question is unanswered (the page keeps that decision and what follows it hidden there, as for a
 * predict question). */
export function lessonQuestionStep(s: State): number {
  const q = questionAsking(s);
  return q && !q.field.startsWith('metrics.') ? q.at : -1;
}

/** The question a link asks (v7), while unanswered and about the graph the link opened. */
export function linkAsking(s: State) {
  const a = s.asked;
  return a && !a.right && a.docVersion === s.docVersion ? a.question : undefined;
}

/** The unanswered question on screen, a lesson's or a link's: what it asks, the step it is about,
 * and the settings its answer holds under when not the plan's own. */
function questionAsking(s: State): { field: string; at: number; with?: LessonQuestion['with'] } | undefined {
  const l = lessonAsking(s);
  return l ? { field: l.question.field, at: l.question.at ?? l.step, with: l.question.with } : linkAsking(s);
}

/** The lesson on screen while its question waits for an answer (about the plan on screen). */
export function lessonAsking(s: State) {
  return s.lesson && s.lesson.answer === null && s.lesson.docVersion === s.docVersion
    ? lessonById(s.lesson.id)
    : undefined;
}

/** A lesson's (or a link's) open question about a whole plan's figures (spills, data moved): the
 * summary's totals (or, for a question about other settings, the compare table's) would answer it. */
export function lessonAsksMetric(s: State): 'plan' | 'other' | null {
  const q = questionAsking(s);
  if (!q?.field.startsWith('metrics.')) return null;
  return q.with ? 'other' : 'plan';
}

/** The first step the page keeps hidden while a question is open, Infinity when none is: the
 * answer is in that step's decision or after it. A lesson (or a link's question) keeps everything
 * after the cursor and its question's step on hidden; predict mode everything after the cursor (the
 * next questions' answers), and the cursor's own step while its question waits for the pick. The chart, the
 * timeline, their tooltips and the order and spill tables show nothing from this step on. */
export function hiddenFrom(s: State): number {
  if (!s.view) return Number.POSITIVE_INFINITY;
  let from = Number.POSITIVE_INFINITY;
  if (questionAsking(s)) {
    const q = lessonQuestionStep(s);
    from = Math.min(s.cursor + 1, q >= 0 ? q : from);
  }
  if (s.predict.on && !s.view.decisionsBrief && s.view !== s.whatIf?.forced)
    from = Math.min(from, openQuestion(s) >= 0 ? s.cursor : s.cursor + 1);
  return from;
}

/** The buffers the decision at `step` weighed, by id (the choices of a question about its victim). */
export function weighedAt(view: PlanView, step: number): number[] {
  const d = decisionAtStep(view, step);
  return d ? d.candidates.map((c) => c.buf).sort((a, b) => a - b) : [];
}

/** Whether the decision at the cursor waits for an answer (predict mode or the lesson's question). */
export const answerPending = (s: State) => openQuestion(s) >= 0 || (!!s.view && lessonQuestionStep(s) === s.cursor);

/** The open question: the spill decision at the cursor and the buffers the learner may pick (those
 * of its memory resident there that the node being served does not use). */
export function questionAt(s: State): { spill: number; decision: DecisionView; choices: LiveBuffer[] } | null {
  const k = openQuestion(s);
  const d = k >= 0 ? decisionAtStep(s.view!, s.cursor) : null;
  if (d?.kind !== 'spill') return null;
  return { spill: k, decision: d, choices: spillChoices(s.view!, d) };
}

/** The buffers a spill decision could have written out: those of its memory resident at its step
 * that the node it serves does not use (the policy's choice among them). */
export function spillChoices(view: PlanView, d: DecisionView): LiveBuffer[] {
  const n = view.nodes;
  const id = d.node;
  const used = new Set(Array.from(n.bufList.subarray(n.bufStart[id], n.bufStart[id + 1])));
  if (n.bufId[id] >= 0) used.add(n.bufId[id]);
  return stateAt(view, d.step, [d.type])[0].live.filter((b) => !used.has(b.buf));
}

const lastStep = (s: State) => Math.max(0, (s.view?.order.length ?? 1) - 1);

export function createStepper(): Stepper {
  let timer = 0;
  let speed = 5;
  let why: string | null = null;

  const stop = () => {
    clearInterval(timer);
    timer = 0;
    if (store.get().playing) store.set({ playing: false });
  };
  const goTo = (step: number) => {
    const s = store.get();
    const to = Math.max(0, Math.min(lastStep(s), Math.round(step)));
    if (to !== s.cursor) store.set({ cursor: to });
  };
  const next = () => {
    const s = store.get();
    why = null;
    if (openQuestion(s) >= 0) {
      why = 'Pick the buffer you would write out (or Skip) before going on.';
      stop();
      return;
    }
    if (s.cursor >= lastStep(s)) {
      why = 'This is the last step.';
      stop();
      return;
    }
    goTo(s.cursor + 1);
    if (openQuestion(store.get()) >= 0) stop(); // arrived at a question: wait for the answer
  };
  const start = () => {
    clearInterval(timer);
    timer = window.setInterval(next, 1000 / speed);
    store.set({ playing: true });
  };

  // a new plan: no playing on through it; the cursor stays (a plan of the same graph), goes to
  // where a lesson or a link asked (the plan for the editor's graph and settings), or to 0
  store.subscribe((s, p) => {
    if (s.view === p.view) return;
    stop();
    const sameGraph = !!p.view && s.viewKey.split('|')[0] === p.viewKey.split('|')[0];
    // (a smaller effort's plan of a search still under way leaves the place for the run's own)
    const target = s.view && s.viewKey === runKey(s) && !s.earlyPlan ? s.pendingView : null;
    const sp = target?.spill !== null && target?.spill !== undefined ? s.view?.spills[target.spill] : undefined;
    store.set({
      cursor: Math.min(target?.step ?? (sameGraph ? s.cursor : 0), lastStep(s)),
      predict: { ...s.predict, picks: {}, note: null },
      ...(target
        ? { pendingView: null, selectedSpill: sp ? target.spill : null, selectedBuf: sp ? sp.buf : null }
        : {}),
    });
  });

  return {
    goTo(step) {
      why = null;
      goTo(step);
    },
    next,
    prev() {
      why = null;
      goTo(store.get().cursor - 1);
    },
    togglePlay() {
      if (timer) return stop();
      const s = store.get();
      if (s.cursor >= lastStep(s)) goTo(0);
      start();
      next();
    },
    setSpeed(n) {
      speed = n;
      if (timer) start();
    },
    speed: () => speed,
    pick(buf) {
      const s = store.get();
      const q = questionAt(s);
      if (!q) return false;
      if (buf >= 0 && !q.choices.some((c) => c.buf === buf)) {
        const note = `Buffer ${buf} cannot be written out here: ${q.choices.length ? `pick one of the ${q.decision.type} buffers this node does not use (${q.choices.map((c) => c.buf).join(', ')})` : 'no buffer can'}.`;
        store.set({ predict: { ...s.predict, note } });
        return true;
      }
      store.set({ predict: { ...s.predict, picks: { ...s.predict.picks, [q.spill]: buf }, note: null } });
      return true;
    },
    blocked: () => why,
  };
}
