// All page state in one place. Components read with get(), change with set(), and re-render in
// subscribe() callbacks, comparing the slices they care about.
import type { CompareRow, EngineInfo, PlanView, RunOptions } from './engine/types';

export type CostModel = 'seed' | 'contest';
export type OrderSource = 'graph' | 'id' | 'schedule' | 'reuse' | 'best' | 'search' | 'min-peak' | 'file';
const NAMED_ORDERS: readonly string[] = ['id', 'schedule', 'reuse', 'best', 'search', 'min-peak'];

export interface Settings {
  capacities: [string, number][]; // in display order
  costModel: CostModel;
  fixedLatency: number;
  cyclesPerByte: number;
  policy: string; // '' = the engine's default (first of policies())
  orderSource: OrderSource;
  orderFile: { name: string; ids: number[] } | null;
}

export interface ErrorInfo {
  kind: string;
  message: string;
  line?: number;
  column?: number;
  node?: number;
}

export interface Notice {
  level: 'info' | 'warn' | 'error';
  message: string;
  action?: { label: string; run: () => void };
}

/** The compare table: every policy on every order source for one graph + capacities + cost. */
export interface CompareState {
  key: string; // compareKey() of what the rows are for
  status: 'running' | 'done' | 'error' | 'cancelled';
  rows: CompareRow[];
  message?: string;
}

export interface State {
  engine: EngineInfo | null;
  engineFailed: string | null;
  settings: Settings;
  running: { startedAt: number; phase: string } | null;
  view: PlanView | null;
  totalMs: number; // Run pressed -> result on screen
  error: ErrorInfo | null;
  selectedBuf: number | null;
  selectedSpill: number | null;
  notice: Notice | null;
  theme: 'light' | 'dark';
  exampleName: string;
  compare: CompareState | null;
}

export const PRESETS: Record<string, [string, number][]> = {
  'seed defaults': [['L1', 4096], ['UB', 1024], ['L0A', 256], ['L0B', 256], ['L0C', 512]],
  contest: [['L1', 4096], ['UB', 1024], ['L0A', 256], ['L0B', 256], ['L0C', 512]],
  'Ascend-like': [['L1', 1048576], ['UB', 262144], ['L0A', 65536], ['L0B', 65536], ['L0C', 131072]],
};

export function defaultSettings(): Settings {
  return {
    capacities: PRESETS['seed defaults'].map(([k, v]) => [k, v]),
    costModel: 'contest',
    fixedLatency: 0,
    cyclesPerByte: 1,
    policy: '',
    orderSource: 'graph',
    orderFile: null,
  };
}

export function runOptions(s: Settings): RunOptions {
  const opts: RunOptions = { capacities: Object.fromEntries(s.capacities) };
  if (s.orderSource === 'file' && s.orderFile) opts.order = s.orderFile.ids;
  else opts.order = NAMED_ORDERS.includes(s.orderSource) ? (s.orderSource as Exclude<OrderSource, 'file'>) : 'graph';
  if (s.policy) opts.policy = s.policy;
  opts.cost = s.costModel === 'seed'
    ? { model: 'seed', fixedLatency: s.fixedLatency, cyclesPerByte: s.cyclesPerByte }
    : { model: 'contest' };
  return opts;
}

/** Options for compare(): what a run uses except policy and order (compare tries them all). */
export function compareOptions(s: Settings): RunOptions {
  const { capacities, cost } = runOptions(s);
  return { capacities, cost };
}

/** Checks and normalises settings from storage or a link; throws on anything malformed. */
export function parseSettings(raw: unknown): Settings {
  if (!raw || typeof raw !== 'object') throw new Error('settings missing');
  const r = raw as Record<string, unknown>;
  const d = defaultSettings();
  const caps: [string, number][] = [];
  if (Array.isArray(r.capacities)) {
    for (const e of r.capacities) {
      if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[1] !== 'number' || !Number.isFinite(e[1]))
        throw new Error('bad capacity');
      caps.push([e[0], e[1]]);
    }
  } else if (r.capacities !== undefined) throw new Error('bad capacities');
  const num = (v: unknown, dflt: number) => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);
  let orderFile: Settings['orderFile'] = null;
  if (r.orderFile && typeof r.orderFile === 'object') {
    const o = r.orderFile as { name?: unknown; ids?: unknown };
    if (!Array.isArray(o.ids) || !o.ids.every((x) => Number.isInteger(x))) throw new Error('bad order');
    orderFile = { name: typeof o.name === 'string' ? o.name : 'order.txt', ids: o.ids as number[] };
  }
  const orderSource = typeof r.orderSource === 'string' && (NAMED_ORDERS.includes(r.orderSource) || r.orderSource === 'file')
    ? (r.orderSource as OrderSource) : 'graph';
  return {
    capacities: r.capacities === undefined ? d.capacities : caps,
    costModel: r.costModel === 'seed' ? 'seed' : 'contest',
    fixedLatency: num(r.fixedLatency, d.fixedLatency),
    cyclesPerByte: num(r.cyclesPerByte, d.cyclesPerByte),
    policy: typeof r.policy === 'string' ? r.policy : '',
    orderSource: orderSource === 'file' && !orderFile ? 'graph' : orderSource,
    orderFile,
  };
}

type Listener = (s: State, prev: State) => void;

function createStore(initial: State) {
  let state = initial;
  const listeners = new Set<Listener>();
  return {
    get: () => state,
    set(patch: Partial<State>) {
      const prev = state;
      state = { ...state, ...patch };
      for (const l of listeners) l(state, prev);
    },
    setSettings(patch: Partial<Settings>) {
      this.set({ settings: { ...state.settings, ...patch } });
    },
    subscribe(l: Listener) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

const prefersDark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

export const store = createStore({
  engine: null,
  engineFailed: null,
  settings: defaultSettings(),
  running: null,
  view: null,
  totalMs: 0,
  error: null,
  selectedBuf: null,
  selectedSpill: null,
  notice: null,
  theme: prefersDark ? 'dark' : 'light',
  exampleName: '',
  compare: null,
});
export type Store = typeof store;
