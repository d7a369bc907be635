// The case in a link: "#case=" + lz-string(JSON {v, graph, settings, view}), and in a case file.
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
import { checkSettings, type EngineNames, type Settings } from './settings';
import { LESSON_ID, LIMITS, fmtLimit } from './limits';
import { DecompressedTooLarge, decompressBounded } from './lz-bounded';
import { compactJson, layoutJson } from './json-text';

export const CASE_VERSION = 5;
export const LINK_WARN_LENGTH = 8000;
export const CASE_PREFIX = 'case=';

/** Where the author was: the step of the new order, the selected spill, the lesson (v3). */
export interface CaseView {
  step?: number;
  spill?: number | null;
  lesson?: string | null;
}

export interface Case {
  v: number;
  graph: string;
  settings: Settings;
  view?: CaseView;
}

export type DecodeResult = { ok: true; case: Case } | { ok: false; message: string };

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** The link fragment (without '#') for a graph and settings, and the graph's length in it. */
export function encodeCase(
  graph: string,
  settings: Settings,
  view?: CaseView,
): { fragment: string; graphChars: number; compacted: boolean } {
  const compacted = isJson(graph);
  const g = compacted ? compactJson(graph) : graph; // invalid JSON travels as typed
  const c: Case = { v: CASE_VERSION, graph: g, settings, view };
  return { fragment: CASE_PREFIX + compressToEncodedURIComponent(JSON.stringify(c)), graphChars: g.length, compacted };
}

/** hash without "#". Null when the fragment holds no case. */
export function decodeCaseFragment(hash: string, names: EngineNames | null): DecodeResult | null {
  if (!hash.startsWith(CASE_PREFIX)) return null;
  const payload = hash.slice(CASE_PREFIX.length);
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
  if (r.v < 1 || typeof r.graph !== 'string') return damaged('the case has no graph');
  const checked = checkSettings(r.settings, names);
  if (!checked.ok) return { ok: false, message: `This ${what} is refused: ${checked.message}.` };
  const settings = checked.settings;
  if (r.v === 1) migrateV1(settings, r.graph, r.settings);
  const view = checkView(r.view);
  if (typeof view === 'string') return { ok: false, message: `This ${what} is refused: ${view}.` };
  // a compacted graph is one long line: lay it out again for the editor
  const graph = !r.graph.includes('\n') && isJson(r.graph) ? layoutJson(compactJson(r.graph)) : r.graph;
  return { ok: true, case: { v: CASE_VERSION, graph, settings, view } };
}

/** A v3 case's view, checked: whole numbers and a lesson's name, else why not. */
function checkView(raw: unknown): CaseView | undefined | string {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) return 'its view is not an object';
  const r = raw as Record<string, unknown>;
  const whole = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= LIMITS.orderIds * 3;
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
  return view;
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
