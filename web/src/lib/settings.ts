// The planner's settings as the page keeps them, what a run sends to the engine, and the one
// checker for settings that come from outside (a link, a case file, the browser's storage).
import type { RunOptions } from '../engine/types';
import { LIMITS, fmtLimit } from './limits';

export type CostModel = 'seed' | 'contest';
/** An order source of the engine (its orders() registry), or the page's own "file": an order
 * file's ids. */
export type OrderSource = string;
/** The order source of an order file (the engine's "given"): the page's only order name. */
export const ORDER_FILE = 'file';
/** The engine's default order source ("graph": the graph's Order, else best) is the first of
 * orders(); the page's settings keep it under that name. */
export const DEFAULT_ORDER = 'graph';

/** The names a setting may take: the engine's registries (policies(), orders()). Null before
 * the engine is loaded (settings from the storage): then a name must only look like one. */
export interface EngineNames {
  policies: readonly string[];
  orders: readonly string[];
  /** the built-in examples' names a link may name (v6) */
  examples?: readonly string[];
}

/** The order search's effort (evaluations) of the effort menu's named choices; the default is
 * the engine's own (by the graph's size), and any whole number up to the engine's limit works. */
export const EFFORT_PRESETS: readonly (readonly [string, number])[] = [
  ['quick', 100],
  ['thorough', 20000],
];

/** What the plan minimises: the data moved (the engine's default), or the total cycles without
 * moving more data than the bytes plan's and the margin (`spillway plan --objective`). */
export const OBJECTIVES = ['bytes', 'cycles'] as const;
export type Objective = (typeof OBJECTIVES)[number];

export interface Settings {
  capacities: [string, number][]; // in display order
  costModel: CostModel;
  fixedLatency: number;
  cyclesPerByte: number;
  policy: string; // '' = the engine's default (first of policies())
  orderSource: OrderSource;
  orderFile: { name: string; ids: number[] } | null;
  /** The order search's budget in evaluations; null: the engine's default for the graph. */
  effort: number | null;
  objective: Objective;
  /** The data the cycles objective may move beyond the bytes plan's, percent (`--margin`). */
  margin: number;
}

/** The engine's data margin when none is given. */
export const DEFAULT_MARGIN = 10;

/** The capacities the engine uses for a graph that names none (the contest's, the seed's). */
export const DEFAULT_CAPACITIES: readonly (readonly [string, number])[] = [
  ['L1', 4096],
  ['UB', 1024],
  ['L0A', 256],
  ['L0B', 256],
  ['L0C', 512],
];

export const PRESETS: Record<string, readonly (readonly [string, number])[]> = {
  'defaults (contest)': DEFAULT_CAPACITIES,
  'Ascend-like': [
    ['L1', 1048576],
    ['UB', 262144],
    ['L0A', 65536],
    ['L0B', 65536],
    ['L0C', 131072],
  ],
};

export const copyCapacities = (c: readonly (readonly [string, number])[]): [string, number][] =>
  c.map(([k, v]) => [k, v]);

export function defaultSettings(): Settings {
  return {
    capacities: copyCapacities(DEFAULT_CAPACITIES),
    costModel: 'contest',
    fixedLatency: 0,
    cyclesPerByte: 1,
    policy: '',
    orderSource: DEFAULT_ORDER,
    orderFile: null,
    effort: null,
    objective: 'bytes',
    margin: DEFAULT_MARGIN,
  };
}

export function runOptions(s: Settings): RunOptions {
  const opts: RunOptions = { capacities: Object.fromEntries(s.capacities) };
  if (s.orderSource === ORDER_FILE) opts.order = s.orderFile ? s.orderFile.ids : DEFAULT_ORDER;
  else opts.order = s.orderSource as RunOptions['order'];
  if (s.policy) opts.policy = s.policy;
  if (s.effort !== null) opts.effort = s.effort;
  if (s.objective !== 'bytes') opts.objective = s.objective;
  if (s.objective === 'cycles' && s.margin !== DEFAULT_MARGIN) opts.margin = s.margin;
  opts.cost =
    s.costModel === 'seed'
      ? { model: 'seed', fixedLatency: s.fixedLatency, cyclesPerByte: s.cyclesPerByte }
      : { model: 'contest' };
  return opts;
}

/** Options for compare(): what a run uses except policy and order (compare tries them all). */
export function compareOptions(s: Settings): RunOptions {
  const { capacities, cost, effort, objective, margin } = runOptions(s);
  return {
    capacities,
    cost,
    ...(effort === undefined ? {} : { effort }),
    ...(objective ? { objective } : {}),
    ...(margin === undefined ? {} : { margin }),
  };
}

/** Options for frontier(): what a run uses except the objective and its margin (the front runs
 * the bytes plan and the cycles objective at margins of its own). */
export function frontierOptions(s: Settings): RunOptions {
  const { objective: _objective, margin: _margin, ...rest } = runOptions(s);
  return rest;
}

const keys = new WeakMap<Settings, { run: string; compare: string; frontier: string }>();
/** Strings that are equal exactly when two settings make the same run / comparison / front. */
export function settingsKeys(s: Settings): { run: string; compare: string; frontier: string } {
  let k = keys.get(s);
  if (!k)
    keys.set(
      s,
      (k = {
        run: JSON.stringify(runOptions(s)),
        compare: JSON.stringify(compareOptions(s)),
        frontier: JSON.stringify(frontierOptions(s)),
      }),
    );
  return k;
}

/** Why a capacity (as typed) is not usable, or null. */
export function capacityProblem(text: string): string | null {
  const t = text.trim();
  if (t === '') return 'the field is empty';
  const v = Number(t);
  if (!Number.isInteger(v)) return `"${t.slice(0, 20)}" is not a whole number of bytes`;
  if (v < 1) return `${t} is less than 1 byte`;
  if (v > LIMITS.capacityBytes) return `${t} is more than ${fmtLimit(LIMITS.capacityBytes)} bytes (2^36)`;
  return null;
}

/** Why a memory name is not usable, or null. */
export function memoryNameProblem(name: string): string | null {
  if (name === '') return 'a memory has an empty name';
  if (name.length > LIMITS.memoryNameChars) return `a memory name is longer than ${LIMITS.memoryNameChars} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'a memory name holds a control character';
  return null;
}

/** Capacities from outside (a link, a graph's "Capacities" object): checked entry by entry. */
export function checkCapacities(
  entries: [unknown, unknown][],
): { ok: true; capacities: [string, number][] } | { ok: false; message: string } {
  if (entries.length > LIMITS.capacityRows)
    return {
      ok: false,
      message: `${fmtLimit(entries.length)} memories; the page takes at most ${LIMITS.capacityRows}`,
    };
  const seen = new Set<string>();
  const out: [string, number][] = [];
  for (const [name, value] of entries) {
    if (typeof name !== 'string') return { ok: false, message: 'a memory name is not a string' };
    const bad = memoryNameProblem(name);
    if (bad) return { ok: false, message: bad };
    if (seen.has(name)) return { ok: false, message: `memory "${name}" appears twice` };
    seen.add(name);
    const problem = typeof value === 'number' ? capacityProblem(String(value)) : 'is not a number';
    if (problem) return { ok: false, message: `the capacity of ${name}: ${problem}` };
    out.push([name, value as number]);
  }
  return { ok: true, capacities: out };
}

function wholeIn(v: unknown, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
}

const NAME_SHAPE = /^[a-z][a-z0-9_-]{0,39}$/;

/** Whether `name` is one of `known` (a registry), or looks like a name when the registry is not known yet. */
const isKnown = (name: string, known: readonly string[] | undefined) =>
  known ? known.includes(name) : NAME_SHAPE.test(name);

/** "a, b or c" */
const oneOf = (names: readonly string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names.join('');

/**
 * Settings from outside, checked strictly: anything unknown or out of range refuses them whole
 * (a refused link must not leave a bad policy or order behind). `names` are the engine's
 * registries; null when they are not known yet (then a policy or order must only look like a name).
 */
export function checkSettings(
  raw: unknown,
  names: EngineNames | null,
): { ok: true; settings: Settings } | { ok: false; message: string } {
  const fail = (message: string) => ({ ok: false as const, message });
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail('the settings are missing');
  const r = raw as Record<string, unknown>;
  const s = defaultSettings();
  if (r.capacities !== undefined) {
    if (!Array.isArray(r.capacities)) return fail('the capacities are not a list');
    if (r.capacities.length > LIMITS.capacityRows)
      return fail(`${fmtLimit(r.capacities.length)} capacity rows; the page takes at most ${LIMITS.capacityRows}`);
    if (!r.capacities.every((e) => Array.isArray(e) && e.length === 2))
      return fail('a capacity row is not a [name, bytes] pair');
    const caps = checkCapacities(r.capacities as [unknown, unknown][]);
    if (!caps.ok) return fail(caps.message);
    s.capacities = caps.capacities;
  }
  if (r.costModel !== undefined) {
    if (r.costModel !== 'seed' && r.costModel !== 'contest')
      return fail(`cost model "${String(r.costModel).slice(0, 40)}" is neither seed nor contest`);
    s.costModel = r.costModel;
  }
  for (const [key, max] of [
    ['fixedLatency', LIMITS.fixedLatency],
    ['cyclesPerByte', LIMITS.cyclesPerByte],
  ] as const) {
    if (r[key] === undefined) continue;
    if (!wholeIn(r[key], max)) return fail(`${key} must be a whole number from 0 to ${fmtLimit(max)}`);
    s[key] = r[key] as number;
  }
  if (r.policy !== undefined && r.policy !== '') {
    if (typeof r.policy !== 'string') return fail('the policy is not a name');
    if (!isKnown(r.policy, names?.policies))
      return fail(
        `policy "${r.policy.slice(0, 40)}" is not one of ${names ? oneOf(names.policies) : 'the engine\u2019s policies'}`,
      );
    s.policy = r.policy;
  }
  if (r.orderSource !== undefined) {
    const o = r.orderSource;
    if (typeof o !== 'string' || (o !== ORDER_FILE && !isKnown(o, names?.orders)))
      return fail(
        `order source "${String(o).slice(0, 40)}" is not one of ${names ? oneOf([...names.orders, ORDER_FILE]) : 'the engine\u2019s order sources or file'}`,
      );
    s.orderSource = o;
  }
  if (r.effort !== undefined && r.effort !== null) {
    if (!wholeIn(r.effort, LIMITS.effort))
      return fail(`the effort must be a whole number of evaluations from 0 to ${fmtLimit(LIMITS.effort)}`);
    s.effort = r.effort;
  }
  if (r.objective !== undefined) {
    if (!OBJECTIVES.includes(r.objective as Objective))
      return fail(`objective "${String(r.objective).slice(0, 40)}" is neither bytes nor cycles`);
    s.objective = r.objective as Objective;
  }
  if (r.margin !== undefined) {
    if (!wholeIn(r.margin, LIMITS.margin))
      return fail(`the data margin must be a whole number of percent from 0 to ${fmtLimit(LIMITS.margin)}`);
    s.margin = r.margin;
  }
  if (s.orderSource === ORDER_FILE) {
    const o = r.orderFile as { name?: unknown; ids?: unknown } | null | undefined;
    if (!o || typeof o !== 'object' || !Array.isArray(o.ids))
      return fail('the order source is a file, but the file is missing');
    if (o.ids.length > LIMITS.orderIds)
      return fail(`the order file has ${fmtLimit(o.ids.length)} ids; at most ${fmtLimit(LIMITS.orderIds)}`);
    if (!o.ids.every((x) => wholeIn(x, 2 ** 31 - 1)))
      return fail('the order file holds something that is not a node id');
    s.orderFile = { name: typeof o.name === 'string' ? o.name.slice(0, 200) : 'order.txt', ids: o.ids as number[] };
  }
  return { ok: true, settings: s };
}
