// The case in a link: "#case=" + lz-string(JSON {v, graph, settings}).
// v2: policy "" and order source "graph" mean the engine's current defaults ("best"; the graph's
// Order, else "schedule"). v1 (before those defaults changed) meant "seed" and "the graph's Order,
// else ascending id": a v1 case is read with those spelt out, so it opens the plan its author saw.
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import { parseSettings, type Settings } from '../store';

export const CASE_VERSION = 2;
export const LINK_WARN_LENGTH = 8000;
const PREFIX = 'case=';

export interface Case {
  v: number;
  graph: string;
  settings: Settings;
}

export function encodeCase(graph: string, settings: Settings): string {
  const c: Case = { v: CASE_VERSION, graph, settings };
  return PREFIX + compressToEncodedURIComponent(JSON.stringify(c));
}

export type DecodeResult =
  | { ok: true; case: Case }
  | { ok: false; message: string };

/** hash without "#". Returns null when the fragment holds no case. */
export function decodeCaseFragment(hash: string): DecodeResult | null {
  if (!hash.startsWith(PREFIX)) return null;
  let text: string | null = null;
  try {
    text = decompressFromEncodedURIComponent(hash.slice(PREFIX.length));
  } catch {
    text = null;
  }
  if (!text) return { ok: false, message: 'This link is damaged: its case could not be decompressed (was it cut short?).' };
  return parseCaseText(text);
}

/** A case from JSON text (a link's payload or a downloaded case file). */
export function parseCaseText(text: string): DecodeResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, message: 'This link is damaged: its case is not valid JSON.' };
  }
  return parseCase(raw);
}

export function parseCase(raw: unknown): DecodeResult {
  if (!raw || typeof raw !== 'object') return { ok: false, message: 'This link is damaged: no case inside.' };
  const r = raw as Record<string, unknown>;
  if (typeof r.v !== 'number') return { ok: false, message: 'This link is damaged: the case has no format version.' };
  if (r.v > CASE_VERSION)
    return { ok: false, message: `This link was made by a newer Spillway playground (case format v${r.v}; this page reads v${CASE_VERSION}). Open it with the newer version.` };
  if (r.v < 1 || typeof r.graph !== 'string') return { ok: false, message: 'This link is damaged: the case has no graph.' };
  try {
    const settings = parseSettings(r.settings);
    if (r.v === 1) migrateV1(settings, r.graph);
    return { ok: true, case: { v: CASE_VERSION, graph: r.graph, settings } };
  } catch (e) {
    return { ok: false, message: `This link is damaged: its settings are invalid (${(e as Error).message}).` };
  }
}

/** v1 defaults, spelt out: policy "seed"; a graph without "Order" ran in ascending id order. */
function migrateV1(s: Settings, graph: string) {
  if (!s.policy) s.policy = 'seed';
  if (s.orderSource === 'graph') {
    let hasOrder = false;
    try {
      const g = JSON.parse(graph) as { Order?: unknown };
      hasOrder = !!g && typeof g === 'object' && Array.isArray(g.Order);
    } catch { /* the engine will report the graph's error */ }
    if (!hasOrder) s.orderSource = 'id';
  }
}

/** The case file / link payload for the current page. */
export function caseJson(graph: string, settings: Settings): string {
  return JSON.stringify({ v: CASE_VERSION, graph, settings } satisfies Case, null, 1);
}

export function isCaseObject(raw: unknown): boolean {
  return !!raw && typeof raw === 'object' && 'v' in raw && 'graph' in raw;
}
