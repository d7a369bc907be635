// The graph document: the editor, its version counter, where the text came from, saving it, and
// what the text worker reads in it. A graph's own "Capacities" become the capacity settings
// whenever a loaded, pasted or edited text names other capacities than before (a graph that
// names none gets the defaults, as the CLI gives it); the fields then override them visibly.
import { store, setFieldError, notify, type GraphInfo, type Source } from '../store';
import { copyCapacities, DEFAULT_CAPACITIES } from '../lib/settings';
import { createEditor, type ChangeKind, type GraphEditor } from '../components/editor';
import type { TextClient } from '../text/client';
import type { EngineClient } from '../engine/client';
import { WorkerError } from '../lib/worker-rpc';
import { isProgram } from '../lib/program';
import { storage, KEY_GRAPH } from './storage';
import { fmtBytes, fmtInt } from '../lib/format';

/** Above this size the graph is not written to localStorage (a synchronous write that would
 * hold the page; browsers allow ~5 M characters per site anyway). */
const STORE_GRAPH_CHARS = 2_000_000;
export const GRAPH_CAPACITIES_FIELD = 'graph-capacities';
export const MISSING_MEMORY_FIELD = 'missing-memory';

/** A capacity for a memory the settings lack: its default when that is enough, else the most one
 * node needs rounded up to a power of two. */
export function suggestCapacity(memory: string, need: number): { bytes: number; why: string } {
  const dflt = DEFAULT_CAPACITIES.find(([t]) => t === memory)?.[1];
  if (dflt !== undefined && dflt >= need) return { bytes: dflt, why: 'its default capacity' };
  return {
    bytes: 2 ** Math.ceil(Math.log2(Math.max(1, need))),
    why: 'the most one node needs in it, rounded up to a power of two',
  };
}

export interface GraphDocument {
  editor: GraphEditor;
  /** Replaces the text (a file, an example, a link). `keepSettings`: the capacity settings come
   * with the text (a link, a case) and must not be replaced by the graph's Capacities. */
  load(text: string, source: Source | null, keepSettings?: boolean): Promise<void>;
  /** The editor's text (kept as a string until the next change: a 4 MB document costs tens of
   * milliseconds to turn into one). */
  text(): string;
  /** What the current text holds; waits for the text worker if it has not read this version. */
  info(): Promise<GraphInfo>;
  saveNow(): void;
}

const capsText = (caps: [string, number][]) => caps.map(([t, v]) => `${t} ${fmtBytes(v)}`).join(', ');

/** What a text holds: a graph as the text worker reads it; a program as the text worker reads
 * the engine's translation of it (a program the engine cannot read holds nothing usable: the run
 * reports its error, with its line and column). */
async function inspectText(text: TextClient, engine: EngineClient, t: string, version: number): Promise<GraphInfo> {
  if (!isProgram(t)) return text.inspect(t, version);
  const nothing: GraphInfo = { version, json: false, program: true, capacities: null, hasOrder: false, memories: {} };
  let graph: string;
  try {
    graph = await engine.translate(t);
  } catch (e) {
    // a run stopped just now restarted the engine's worker: ask the new one
    if (!(e instanceof WorkerError && e.kind === 'cancelled')) return nothing;
    graph = await engine.translate(t).catch(() => '');
    if (!graph) return nothing;
  }
  return { ...(await text.inspect(graph, version)), program: true };
}

/** What the page says when a text's capacities became the settings. */
function adoptedText(info: GraphInfo, next: [string, number][]): string {
  if (info.program)
    return `The program's memory line sets the capacity: ${next.map(([t, v]) => `${t} ${fmtInt(v)}`).join(', ')}. Change the field to try another.`;
  return info.capacities
    ? `The graph's Capacities are now the capacity settings: ${capsText(next)}. Change a field to override one.`
    : `This graph names no Capacities: the default capacities apply (${capsText(next)}).`;
}

export function createDocument(
  host: HTMLElement,
  text: TextClient,
  engine: EngineClient,
  onRun: () => void,
): GraphDocument {
  let saveTimer = 0;
  let warned = false;
  let inspectTimer = 0;
  let pending: { version: number; promise: Promise<GraphInfo> } | null = null;
  let capsSeen: string | null = null; // the graph Capacities the settings were last matched to
  let keepFor = -1; // the version whose Capacities must not replace the settings
  let cached: { version: number; text: string } | null = null;
  const textNow = () => {
    const version = store.get().docVersion;
    if (cached?.version !== version) cached = { version, text: editor.getText() };
    return cached.text;
  };

  const editor = createEditor(host, { onRun, onChange });
  /** The text's start, enough to tell a program from a graph without the whole text as a string. */
  const textHead = () => editor.view.state.doc.sliceString(0, 65536);

  function onChange(kind: ChangeKind, whole?: string) {
    const s = store.get();
    const patch: Partial<typeof s> = { docVersion: s.docVersion + 1 };
    if (whole !== undefined) cached = { version: patch.docVersion!, text: whole };
    if (kind === 'paste-all')
      patch.source = { title: isProgram(whole ?? textHead()) ? 'Pasted program' : 'Pasted graph', edited: false };
    else if (kind === 'edit' && s.source && !s.source.edited) patch.source = { ...s.source, edited: true };
    store.set(patch);
    clearTimeout(saveTimer);
    saveTimer = window.setTimeout(saveNow, 300);
    clearTimeout(inspectTimer);
    inspectTimer = window.setTimeout(() => void info(), kind === 'edit' ? 400 : 0);
  }

  function saveNow() {
    clearTimeout(saveTimer);
    saveTimer = 0;
    const ok = editor.view.state.doc.length <= STORE_GRAPH_CHARS && storage.set(KEY_GRAPH, textNow());
    if (!ok && !warned) {
      warned = true;
      notify(
        'This graph is too large for the browser storage: it will not survive a reload. Download it (case.json) or copy a link to keep it.',
        'warn',
      );
    }
  }
  // never lose typing to a reload or a closed tab
  window.addEventListener('pagehide', () => {
    if (saveTimer) saveNow();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.hidden && saveTimer) saveNow();
  });

  function info(): Promise<GraphInfo> {
    clearTimeout(inspectTimer);
    const version = store.get().docVersion;
    const known = store.get().graphInfo;
    if (known?.version === version) return Promise.resolve(known);
    if (pending?.version !== version) {
      pending = {
        version,
        promise: inspectText(text, engine, textNow(), version).then((i) => {
          adopt(i);
          return i;
        }),
      };
    }
    return pending.promise;
  }

  function adopt(info: GraphInfo) {
    if (info.version !== store.get().docVersion) return;
    store.set({ graphInfo: info });
    setFieldError(
      GRAPH_CAPACITIES_FIELD,
      info.capacitiesProblem ? `"Capacities" in the graph: ${info.capacitiesProblem}.` : null,
    );
    if (!info.json) return;
    const seen = info.capacitiesProblem ? 'invalid' : JSON.stringify(info.capacities);
    if (info.version === keepFor || seen === capsSeen) {
      capsSeen = seen;
      return;
    }
    capsSeen = seen;
    if (info.capacitiesProblem) return;
    const next = info.capacities ?? copyCapacities(DEFAULT_CAPACITIES);
    const cur = store.get().settings.capacities;
    if (JSON.stringify(cur) === JSON.stringify(next)) return;
    store.setSettings({ capacities: next });
    const src = store.get().source;
    if (src?.example && !src.edited) return; // an example's capacities are part of its lesson
    notify(adoptedText(info, next), 'info');
  }

  watchMissingMemories();

  return {
    editor,
    async load(t, source, keepSettings = false) {
      await editor.setText(t); // onChange('load') bumps the version
      cached = { version: store.get().docVersion, text: t };
      store.set({ source }); // after the text: the caption and the Examples menu name what is there
      if (keepSettings) keepFor = store.get().docVersion;
      saveNow();
    },
    text: textNow,
    info,
    saveNow,
  };
}

/** A memory the graph uses without a capacity stops Run with an offer to add it. */
function watchMissingMemories() {
  store.subscribe((s, p) => {
    if (s.graphInfo === p.graphInfo && s.settings.capacities === p.settings.capacities) return;
    const missing = Object.keys(s.graphInfo?.memories ?? {}).filter(
      (t) => !s.settings.capacities.some(([c]) => c === t),
    );
    setFieldError(
      MISSING_MEMORY_FIELD,
      missing.length
        ? `The graph uses memory ${missing.join(', ')}, which ${missing.length > 1 ? 'have' : 'has'} no capacity in the settings.`
        : null,
      missing[0],
    );
  });
}
