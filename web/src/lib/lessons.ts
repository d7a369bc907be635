// The lesson path: one JSON file per lesson in web/src/lessons/, in file-name order. A lesson is
// data: a short text, a graph (a built-in example's name, the graph itself, or a program in the
// program form, its memory line included), settings over the defaults, the step to open at, and a
// question whose answer tests/node/lessons.test.mjs checks against the engine (the page trusts the
// file for it).
import type { Settings } from './settings';

export interface LessonQuestion {
  text: string;
  /** what the answer is about: "buf" (the victim of the spill decision at the question's step),
   * "offset" or "room.free" / "room.largestHole" / "room.shortfall" of that step's decision, or
   * "metrics.spills" / "metrics.extraBytes" of the plan */
  field: string;
  /** the step whose decision the question is about, when not the lesson's step (the lesson opens
   * just before it, so that what it asks is not on screen yet) */
  at?: number;
  /** settings (over the lesson's) under which the answer holds, when not the lesson's own */
  with?: Partial<Pick<Settings, 'policy' | 'orderSource' | 'costModel'>>;
  /** the choices offered; for "buf", the buffers the decision weighed */
  choices?: number[];
  answer: number;
  explain: string;
}

export interface Lesson {
  id: string;
  title: string;
  text: string[];
  example?: string;
  graph?: unknown;
  /** the program form's text (docs/programs.md): what the editor shows and the engine reads */
  program?: string;
  settings: Partial<Pick<Settings, 'policy' | 'orderSource' | 'costModel'>>;
  step: number;
  question: LessonQuestion;
}

const files = import.meta.glob('../lessons/*.json', { eager: true, import: 'default' }) as Record<string, Lesson>;
export const LESSONS: Lesson[] = Object.keys(files)
  .sort()
  .map((k) => files[k]);

export const lessonById = (id: string) => LESSONS.find((l) => l.id === id);
export { LESSON_ID } from './limits';
