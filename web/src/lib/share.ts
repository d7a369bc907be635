// The case in a link: "#case=" + lz-string(JSON {v, graph, settings, view}), and in a case file.
// v8 adds the cycles objective's data margin to the settings (`margin`, percent; absent: 10, what
// v5 to v7 cases ran with).
// v7 adds a question to the view (`question`: {text, field, at, choices?}): a lecturer's question
// about the case, asked like a lesson's. It carries no answer: the page works the answer out from
// the plan it makes, so a link cannot carry a wrong one (a question with an `answer` is refused).
// v6 lets a link name its graph instead of carrying it: `example` (a built-in example's name) or,
// without `example`, the lesson of its view; such a link carries only the settings that differ
// from the defaults (never the capacities, which an example's graph may set). A fragment may go on
// with "&flags" after the case (read elsewhere); the case ends at the first "&".
// v5 adds the objective to the settings (`objective`: "bytes" or "cycles"; absent: "bytes", what
// v1 to v4 cases ran with); a page that reads v4 refuses a v5 link rather than plan it for bytes.
// v4 adds the order search's effort to the settings (`effort`, evaluations; null or absent: the
// engine's default, which is what v1 to v3 cases ran with). v3 adds `view`: the step the cursor was at, the selected spill and the lesson on screen, so a
// link opens where its author was; v1 and v2 cases have none and open at step 0.
// v2: policy "" and order source "graph" mean the engine's current defaults ("best"; the graph's
// Order, else "best"). v1 (before those defaults changed) meant "seed" and "the graph's Order,
// else ascending id": a v1 case is read with those spelt out, so it opens the plan its author saw.
// A link's graph is compacted (whitespace outside strings removed) before compressing, and laid
// out again for the editor when it is opened. Every limit (lib/limits.ts) is checked before the
// next step: the link's length, the decompressed length, then the settings.
import { compressToEncodedURIComponent } from 'lz-string';
import { checkSettings, defaultSettings, type EngineNames, type Settings } from './settings';
import { LESSON_ID, LIMITS, fmtLimit } from './limits';
import { DecompressedTooLarge, decompressBounded } from './lz-bounded';
import { compactJson, layoutJson } from './json-text';

export const CASE_VERSION = 8;
export const LINK_WARN_LENGTH = 8000;
export const CASE_PREFIX = 'case=';

/** What a question in a link may ask: the victim of the spill decision at its step, or a figure
 * of the whole plan (the fields of a lesson's question, lib/lessons.ts, a page can check). */
export const QUESTION_FIELDS = ['buf', 'metrics.spills', 'metrics.extraBytes'] as const;

/** A lecturer's question (v7), without its answer. */
export interface CaseQuestion {
  text: string;
  field: (typeof QUESTION_FIELDS)[number];
  /** "buf": the step of the spill decision it asks about (the link opens a step before it); a
   * plan's figure: the step the link opens at */
  at: number;
  /** the choices offered (for "buf", the buffers the decision weighed); none: a number is typed */
  choices?: number[];
}

/** Where the author was: the step of the new order, the selected spill, the lesson (v3), the
 * question asked (v7). */
export interface CaseView {
  step?: number;
  spill?: number | null;
  lesson?: string | null;
  question?: CaseQuestion;
}

/** A case's graph: its text, or (v6) the built-in example or the lesson that holds it. */
export interface Case {
  v: number;
  /** null: the graph of `example`, else of the view's lesson */
  graph: string | null;
  example?: string;
  settings: Settings;
  view?: CaseView;
}

/** What a link names instead of carrying the graph: an unedited built-in example or lesson. */
export type CaseRef = { example: string } | { lesson: string } | null;

const EXAMPLE_NAME = /^[a-z0-9][a-z0-9_-]{0,59}$/;

export type DecodeResult = { ok: true; case: Case } | { ok: false; message: string };

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** The settings that differ from the defaults, and always the capacities. */
function settingsDelta(settings: Settings): Partial<Settings> {
  const dflt = defaultSettings() as unknown as Record<string, unknown>;
  const delta: Record<string, unknown> = { capacities: settings.capacities };
  for (const [k, v] of Object.entries(settings))
    if (k !== 'capacities' && JSON.stringify(v) !== JSON.stringify(dflt[k])) delta[k] = v;
  return delta as Partial<Settings>;
}

/** A view without its empty fields. */
const viewDelta = (view: CaseView | undefined): CaseView =>
  Object.fromEntries(Object.entries(view ?? {}).filter(([, v]) => v !== null && v !== undefined));

/** The link fragment (without '#') for a graph and settings, and the graph's length in it. With a
 * `ref`, the link names the example or lesson instead of carrying the graph. */
export function encodeCase(
  graph: string,
  settings: Settings,
  view?: CaseView,
  ref: CaseRef = null,
): { fragment: string; graphChars: number; compacted: boolean; named: boolean } {
  if (ref) {
    const named = 'example' in ref ? { example: ref.example } : {};
    const v = viewDelta('lesson' in ref ? { ...view, lesson: ref.lesson } : { ...view, lesson: null });
    const c = { v: CASE_VERSION, ...named, settings: settingsDelta(settings), view: v };
    return {
      fragment: CASE_PREFIX + compressToEncodedURIComponent(JSON.stringify(c)),
      graphChars: 0,
      compacted: false,
      named: true,
    };
  }
  const compacted = isJson(graph);
  const g = compacted ? compactJson(graph) : graph; // invalid JSON travels as typed
  const c: Case = { v: CASE_VERSION, graph: g, settings, view };
  return {
    fragment: CASE_PREFIX + compressToEncodedURIComponent(JSON.stringify(c)),
    graphChars: g.length,
    compacted,
    named: false,
  };
}

/** hash without "#". Null when the fragment holds no case. */
export function decodeCaseFragment(hash: string, names: EngineNames | null): DecodeResult | null {
  if (!hash.startsWith(CASE_PREFIX)) return null;
  const payload = hash.slice(CASE_PREFIX.length).split('&')[0];
  if (payload.length > LIMITS.linkChars)
    return {
      ok: false,
      message: `This link is refused: it is ${fmtLimit(payload.length)} characters long; the page opens links of at most ${fmtLimit(LIMITS.linkChars)}.`,
    };
  let text: string | null;
  try {
    text = decompressBounded(payload, LIMITS.caseChars);
  } catch (e) {
    if (e instanceof DecompressedTooLarge)
      return {
        ok: false,
        message: `This link is refused: it expands to more than ${fmtLimit(LIMITS.caseChars)} characters, the most the page opens from a link.`,
      };
    throw e;
  }
  if (!text)
    return { ok: false, message: 'This link is damaged: its case could not be decompressed (was it cut short?).' };
  return parseCaseText(text, names, 'link');
}

/** A case from JSON text (a link's payload or a case file). */
export function parseCaseText(text: string, names: EngineNames | null, what: 'link' | 'case file'): DecodeResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, message: `This ${what} is damaged: its case is not valid JSON.` };
  }
  return parseCase(raw, names, what);
}

export function parseCase(raw: unknown, names: EngineNames | null, what: 'link' | 'case file'): DecodeResult {
  const damaged = (why: string) => ({ ok: false as const, message: `This ${what} is damaged: ${why}.` });
  if (!raw || typeof raw !== 'object') return damaged('no case inside');
  const r = raw as Record<string, unknown>;
  if (typeof r.v !== 'number') return damaged('the case has no format version');
  if (r.v > CASE_VERSION)
    return {
      ok: false,
      message: `This ${what} was made by a newer Spillway playground (case format v${r.v}; this page reads v${CASE_VERSION}). Open it with the newer version.`,
    };
  // v6: a case without a graph names the example, else the lesson, that holds it
  const named = r.v >= 6 && r.graph === undefined;
  if (r.v < 1 || (!named && typeof r.graph !== 'string')) return damaged('the case has no graph');
  const checked = checkSettings(r.settings, names);
  if (!checked.ok) return { ok: false, message: `This ${what} is refused: ${checked.message}.` };
  const settings = checked.settings;
  const view = checkView(r.view, r.v);
  if (typeof view === 'string') return { ok: false, message: `This ${what} is refused: ${view}.` };
  if (named) {
    if (r.example === undefined && !view?.lesson)
      return damaged('the case names neither a graph, an example nor a lesson');
    const e = r.example;
    if (e !== undefined && (typeof e !== 'string' || !EXAMPLE_NAME.test(e) || names?.examples?.includes(e) === false))
      return {
        ok: false,
        message: `This ${what} is refused: its example "${String(e).slice(0, 60)}" is not one of this page's examples.`,
      };
    return { ok: true, case: { v: CASE_VERSION, graph: null, example: e as string | undefined, settings, view } };
  }
  const text = r.graph as string;
  if (r.v === 1) migrateV1(settings, text, r.settings);
  // a compacted graph is one long line: lay it out again for the editor
  const graph = !text.includes('\n') && isJson(text) ? layoutJson(compactJson(text)) : text;
  return { ok: true, case: { v: CASE_VERSION, graph, settings, view } };
}

const wholeNumber = (v: unknown, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

/** A v3 case's view, checked: whole numbers, a lesson's name and (v7) a question, else why not. */
function checkView(raw: unknown, version: number): CaseView | undefined | string {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) return 'its view is not an object';
  const r = raw as Record<string, unknown>;
  const whole = (v: unknown) => wholeNumber(v, LIMITS.orderIds * 3);
  const view: CaseView = {};
  if (r.step !== undefined) {
    if (!whole(r.step)) return 'its step is not a step number';
    view.step = r.step as number;
  }
  if (r.spill !== undefined && r.spill !== null) {
    if (!whole(r.spill)) return 'its spill is not a spill number';
    view.spill = r.spill as number;
  }
  if (r.lesson !== undefined && r.lesson !== null) {
    if (typeof r.lesson !== 'string' || !LESSON_ID.test(r.lesson)) return 'its lesson is not a lesson name';
    view.lesson = r.lesson;
  }
  if (r.question !== undefined) {
    if (version < 7) return `its view has a question, which links carry from format v7 on (this one is v${version})`;
    const q = checkQuestion(r.question);
    if (typeof q === 'string') return `its question ${q}`;
    view.question = q;
  }
  return view;
}

/** A v7 question, checked field by field, else why not (said after "its question"). */
export function checkQuestion(raw: unknown): CaseQuestion | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'is not an object';
  const r = raw as Record<string, unknown>;
  if (r.answer !== undefined) return 'carries an answer: the page works the answer out from the plan';
  if (typeof r.text !== 'string' || !r.text.trim()) return 'has no text';
  if (r.text.length > LIMITS.questionChars)
    return `text has ${fmtLimit(r.text.length)} characters; a question has at most ${fmtLimit(LIMITS.questionChars)}`;
  const field = r.field;
  if (!QUESTION_FIELDS.includes(field as CaseQuestion['field']))
    return `asks for "${String(field).slice(0, 40)}", not one of ${QUESTION_FIELDS.join(', ')}`;
  if (!wholeNumber(r.at, LIMITS.orderIds * 3)) return 'step ("at") is not a step number';
  const q: CaseQuestion = { text: r.text, field: field as CaseQuestion['field'], at: r.at as number };
  if (r.choices === undefined) return q;
  const c = r.choices;
  if (!Array.isArray(c) || c.length < 2 || c.length > LIMITS.questionChoices)
    return `choices are not a list of 2 to ${LIMITS.questionChoices} numbers`;
  if (!c.every((x) => wholeNumber(x, Number.MAX_SAFE_INTEGER))) return 'choices are not all whole numbers';
  if (new Set(c).size !== c.length) return 'choices repeat a number';
  return { ...q, choices: c as number[] };
}

/** v1 defaults, spelt out: policy "seed"; a graph without "Order" ran in ascending id order. */
function migrateV1(s: Settings, graph: string, raw: unknown) {
  const r = raw as { policy?: unknown; orderSource?: unknown };
  if (!r.policy) s.policy = 'seed';
  if (s.orderSource === 'graph' && (r.orderSource === undefined || r.orderSource === 'graph')) {
    let hasOrder = false;
    try {
      const g = JSON.parse(graph) as { Order?: unknown };
      hasOrder = !!g && typeof g === 'object' && Array.isArray(g.Order);
    } catch {
      /* the engine will report the graph's error */
    }
    if (!hasOrder) s.orderSource = 'id';
  }
}

/** The case file for the current page. */
export function caseJson(graph: string, settings: Settings, view?: CaseView): string {
  return JSON.stringify({ v: CASE_VERSION, graph, settings, view } satisfies Case, null, 1);
}

export function isCaseObject(raw: unknown): boolean {
  return !!raw && typeof raw === 'object' && 'v' in raw && 'graph' in raw;
}
