// Results: summary, the new order (virtualised) and the spill list. Steps are positions in the new
// order; the order table shows each node's input step beside it where it differs, and what each
// node waited for (the pipe timeline's causes); it keeps the step cursor's row in view. The summary
// puts the plan beside the lower bounds of its order, of data moved (per memory in a details row)
// and of cycles (with those of its spills and of the graph, and per pipe), says what the
// order search did when it made the order, and marks a plan of a smaller effort than asked for
// (the best so far of a search under way, or kept when it was stopped).
import { createVTable } from './vtable';
import { fmtBytes, fmtInt, fmtMs, h, present } from '../lib/format';
import type { EarlyPlan, State, Store } from '../store';
import type { CyclesBound, PlanView } from '../engine/types';
import { inputStepOf } from '../lib/steps';
import { boundGap, cyclesGap } from '../lib/bound';
import { marginNote } from '../lib/frontier';
import { FIRST_EFFORT } from '../lib/anytime';
import { stepText } from '../lib/progress';
import { waitCell, waitChain } from '../lib/waits';
import { hiddenFrom, lessonAsksMetric, lessonQuestionStep } from '../app/stepping';

/** The rows of a table over the plan's steps that an open question leaves on screen: those of
 * the steps before the ones it keeps hidden (all of them when no question is open). */
const shownRows = (total: number, stepOf: (row: number) => number, from: number) => {
  let n = 0;
  while (n < total && stepOf(n) < from) n++;
  return n;
};

/** What the order search did: "Order search: 693 evaluations (effort 2,614), from …", and for a
 * plan before the run's answer, which one and why it is on screen. */
function searchLines(view: PlanView, early: EarlyPlan | null): HTMLElement[] {
  const out: HTMLElement[] = [];
  const sr = view.meta.search;
  if (sr) {
    out.push(
      h(
        'div',
        { class: 'search-info', 'data-testid': 'search-info' },
        h('span', { class: 'muted' }, 'Order search: '),
        `${fmtInt(sr.evaluations)} evaluations (effort ${fmtInt(sr.effort)}), from ${sr.start}`,
      ),
    );
  }
  if (early) out.push(earlyPlanLine(early));
  return out;
}

/** What the plan on screen is while the run goes on, or after Cancel kept it. */
function earlyPlanLine(early: EarlyPlan): HTMLElement {
  const attrs = {
    class: `early-plan${early.stopped ? ' stopped' : ''}`,
    'data-testid': 'early-plan',
    'data-stopped': String(early.stopped),
  };
  if (early.effort === null) {
    const at = stepText(early.step);
    return h(
      'div',
      { ...attrs, 'data-stage': String(early.step?.stage ?? '') },
      early.stopped
        ? `Run stopped${at}: this is the best plan it made before Cancel. Run to plan again.`
        : `Best plan so far${at}; the run goes on toward fewer cycles.`,
    );
  }
  const asked = early.target === null ? 'the default' : fmtInt(early.target);
  return h(
    'div',
    { ...attrs, 'data-effort': early.effort },
    early.stopped
      ? `Search stopped at effort ${fmtInt(early.effort)} (asked: ${asked}): this is the best plan it made before Cancel. Run to search again.`
      : early.effort === FIRST_EFFORT
        ? `First plan, from a short search (effort ${fmtInt(early.effort)}); the search goes on toward ${asked}.`
        : `Best plan so far, at effort ${fmtInt(early.effort)}; the search goes on toward ${asked}.`,
  );
}

/** "29.5% fewer" / "7.2% more" / "the same": `now` against `before`. */
function change(now: number, before: number, fewer: string, more: string): string {
  if (now === before || before === 0) return now === before ? 'the same' : `${fmtInt(now)} more`;
  const pct = (Math.abs(now - before) / before) * 100;
  return `${pct < 0.1 ? pct.toFixed(2) : pct.toFixed(1)}% ${now < before ? fewer : more}`;
}

/** Under the objective "cycles": this plan's cycles and data moved beside those of the bytes plan
 * it was made from, and what each technique did. */
function objectiveLine(view: PlanView): HTMLElement | null {
  const o = view.meta.objective;
  if (!o) return null;
  const m = view.meta.metrics,
    b = o.bytesPlan;
  return h(
    'details',
    { class: 'objective-row', 'data-testid': 'objective-info', 'data-objective': o.name },
    h(
      'summary',
      {},
      h('strong', {}, `Objective cycles (margin ${o.margin}%): `),
      `${fmtInt(m.totalCycles)} cycles, ${fmtBytes(m.extraBytes)} moved; the bytes plan: `,
      h('span', { 'data-testid': 'bytes-plan-cycles' }, fmtInt(b.totalCycles)),
      ' cycles, ',
      h('span', { 'data-testid': 'bytes-plan-extra' }, fmtInt(b.extraBytes)),
      ' B moved ',
      h(
        'span',
        { class: 'muted' },
        `(${change(m.totalCycles, b.totalCycles, 'fewer', 'more')} cycles, ${change(m.extraBytes, b.extraBytes, 'less', 'more')} data)`,
      ),
    ),
    h(
      'ul',
      { class: 'objective-steps' },
      ...(o.steps.length ? o.steps : ['no technique made the bytes plan finish sooner']).map((t) => h('li', {}, t)),
      h('li', { class: 'muted', 'data-testid': 'margin-note' }, marginNote(o)),
      o.disabled.length ? h('li', { class: 'muted' }, `switched off: ${o.disabled.join(', ')}`) : null,
    ),
  );
}

/** The plan's cycles beside the three lower bounds the engine proves (no plan with these spills,
 * of this order, or of the graph at all finishes sooner), each with the term that gives it, and
 * per pipe the cycles it must run. */
function cyclesBoundLine(view: PlanView): HTMLElement {
  const m = view.meta.metrics,
    cb = m.cyclesBound;
  const kinds: [string, string, CyclesBound][] = [
    ['plan', 'with these spills', cb.plan],
    ['order', 'for this order', cb.order],
    ['graph', 'for any plan of the graph', cb.graph],
  ];
  const pipes = Object.keys(cb.order.pipes).sort();
  return h(
    'details',
    { class: 'bound-row', 'data-testid': 'cycles-bound-details' },
    h(
      'summary',
      {},
      h(
        'span',
        { 'data-testid': 'cycles-bound-gap' },
        `${fmtInt(m.totalCycles)} cycles: ${cyclesGap(m.totalCycles, cb.order.total, 'the lower bound for this order')}`,
      ),
      h('span', { class: 'muted' }, ' · every bound'),
    ),
    h(
      'ul',
      { class: 'cycles-bounds' },
      ...kinds.map(([key, what, b]) =>
        h(
          'li',
          { 'data-testid': `cycles-bound-${key}` },
          `${fmtInt(b.total)} ${what} (${b.limit}): the plan is ${cyclesGap(m.totalCycles, b.total, 'this bound')}`,
        ),
      ),
    ),
    h(
      'div',
      {
        class: 'bound-types',
        title:
          'each pipe: the cycles it must run, for this order, and that with the shortest head before and tail after',
      },
      h('span', { class: 'muted' }, `critical path ${fmtInt(cb.order.criticalPath)}`),
      ...pipes.map((pipe) =>
        h(
          'span',
          { class: 'bound-type', 'data-testid': `cycles-pipe-${pipe}` },
          h('span', { class: 'peak-type' }, pipe),
          ` busy ${fmtInt(cb.order.pipes[pipe]?.busy ?? 0)}, bound ${fmtInt(cb.order.pipes[pipe]?.bound ?? 0)}`,
        ),
      ),
    ),
  );
}

/** A lesson's (or a link's) open question about a plan's totals, or about the decision at a step:
 * the count of spills (and the bytes they move, the spill nodes among the steps) would tell whether
 * that decision spills. */
const asksTotals = (s: State) => !!lessonAsksMetric(s) || lessonQuestionStep(s) >= 0;

/** While a question asks what the plan's totals would tell, the summary says when they show
 * instead of them. */
function totalsHidden(root: HTMLElement, store: Store): boolean {
  if (!asksTotals(store.get())) return false;
  root.append(
    h(
      'div',
      { class: 'placeholder', 'data-testid': 'summary-hidden' },
      'The plan\u2019s totals show once you answer the question.',
    ),
  );
  return true;
}

/** Each memory's resident peak against its capacity, the order's demand beside. */
function peaksPanel(view: PlanView): HTMLElement {
  const r = view.meta;
  const m = r.metrics;
  const peaks = h('div', { class: 'peaks' });
  for (const [type, cap] of Object.entries(r.capacities)) {
    const peak = m.residentPeak[type];
    const demand = m.demandPeak.byType[type];
    if (peak === undefined && demand === undefined) continue;
    const pct = cap > 0 ? Math.min(100, ((peak ?? 0) / cap) * 100) : 0;
    const bar = h('div', { class: 'peak-bar' }, h('div', { class: 'peak-fill', style: `width:${pct}%` }));
    peaks.append(
      h(
        'div',
        {
          class: 'peak',
          title: `${type}: resident peak ${fmtInt(peak ?? 0)} of ${fmtInt(cap)} bytes; the input order needs ${fmtInt(demand ?? 0)} without spilling`,
        },
        h('span', { class: 'peak-type' }, type),
        bar,
        h('span', { class: 'peak-num', 'data-testid': `peak-${type}` }, `${fmtInt(peak ?? 0)}`),
        h('span', { class: 'peak-cap' }, `/ ${fmtBytes(cap)}`),
        h('span', { class: 'peak-demand' }, `demand ${fmtInt(demand ?? 0)}`),
      ),
    );
  }
  return peaks;
}

/** How far the data moved is from its order's lower bound, the bound per memory when opened. */
function bytesBoundLine(view: PlanView): HTMLElement {
  const { extraBytes, bound } = view.meta.metrics;
  const byType = Object.entries(bound.byType);
  return h(
    'details',
    { class: 'bound-row', 'data-testid': 'bound-details' },
    h(
      'summary',
      {},
      h('span', { 'data-testid': 'bound-gap' }, `The plan is ${boundGap(extraBytes, bound.total)}`),
      h('span', { class: 'muted' }, ' · per memory'),
    ),
    h(
      'div',
      { class: 'bound-types' },
      ...byType.map(([t, b]) =>
        h(
          'span',
          { class: 'bound-type', 'data-testid': `bound-${t}` },
          h('span', { class: 'peak-type' }, t),
          ` ${fmtInt(b)} B`,
        ),
      ),
      byType.length ? null : h('span', { class: 'muted' }, 'no memory needs to move data'),
    ),
  );
}

export function mountSummary(root: HTMLElement, store: Store) {
  root.dataset.testid = 'summary';
  const render = () => {
    const { view, totalMs, theme, earlyPlan } = store.get();
    root.replaceChildren();
    if (!view) {
      root.append(h('div', { class: 'placeholder' }, 'Run the planner (Ctrl/⌘ + Enter) to see its plan.'));
      return;
    }
    if (totalsHidden(root, store)) return;
    const r = view.meta;
    const m = r.metrics;
    const stat = (label: string, value: string, testid?: string, unit?: string | HTMLElement, title?: string) =>
      h(
        'div',
        { class: 'stat', title },
        h('div', { class: 'stat-label' }, label),
        h(
          'div',
          { class: 'stat-value' },
          h('span', { 'data-testid': testid }, value),
          unit ? h('span', { class: 'unit' }, unit) : null,
        ),
      );
    void theme;
    const bound = m.bound;
    const boundTitle = bound
      ? `No plan for this order moves less than ${fmtInt(bound.total)} bytes (the residency relaxation, which ignores fragmentation). Per memory: ${
          Object.entries(bound.byType)
            .map(([t, b]) => `${t} ${fmtInt(b)}`)
            .join(', ') || 'none'
        }.`
      : undefined;
    root.append(
      h(
        'div',
        { class: 'stats' },
        stat('Spills', fmtInt(m.spills), 'spill-count'),
        stat('Extra data moved', fmtInt(m.extraBytes), 'extra-bytes', 'B'),
        bound ? stat('Lower bound', fmtInt(bound.total), 'bound', 'B', boundTitle) : null,
        stat(
          'Total cycles',
          fmtInt(m.totalCycles),
          'total-cycles',
          h('span', {}, 'bound ', h('span', { 'data-testid': 'cycles-bound' }, fmtInt(m.cyclesBound.order.total))),
          `No plan of this order finishes sooner than ${fmtInt(m.cyclesBound.order.total)} cycles (${m.cyclesBound.order.limit}); no plan of the graph sooner than ${fmtInt(m.cyclesBound.graph.total)} (${m.cyclesBound.graph.limit}).`,
        ),
        stat('Steps', fmtInt(view.order.length), 'step-count', `incl. ${fmtInt(view.addedCount)} spill nodes`),
        stat(
          'Run time',
          fmtMs(view.engineMs),
          'run-time',
          `on screen ${fmtMs(totalMs)}`,
          `engine ${fmtMs(view.engineMs)}, view data ${fmtMs(view.prepareMs)}, Run → on screen ${fmtMs(totalMs)}`,
        ),
      ),
      ...present(bound && bytesBoundLine(view)),
      cyclesBoundLine(view),
      ...present(objectiveLine(view)),
      ...searchLines(view, earlyPlan),
      h(
        'div',
        { class: 'peaks-head' },
        h('span', {}, 'Peak resident bytes per memory'),
        h(
          'span',
          { class: 'muted', 'data-testid': 'plan-by' },
          `${r.policy}${r.planPolicy && r.planPolicy !== r.policy ? ` (${r.planPolicy}'s plan)` : ''} policy · ${r.cost.model} cost · ${r.orderSource} order · objective ${r.objective?.name ?? 'bytes'}`,
        ),
      ),
      peaksPanel(view),
    );
  };
  store.subscribe((s, p) => {
    const asks = asksTotals(s) !== asksTotals(p);
    if (asks || s.view !== p.view || s.totalMs !== p.totalMs || s.earlyPlan !== p.earlyPlan) render();
  });
  render();
}

const spillRole = (op: string) =>
  op === 'SPILL_OUT' ? 'spill-out' : op === 'SPILL_IN' ? 'spill-in' : op === 'ALLOC' || op === 'FREE' ? 'buf' : '';

export function mountOrderTable(root: HTMLElement, store: Store, goTo: (step: number) => void) {
  let view: PlanView | null = null;
  let highlight = new Set<number>();
  const cols = [
    { key: 'step', label: 'Step', width: 'minmax(40px,0.7fr)', align: 'right' as const },
    { key: 'input', label: 'Input step', width: 'minmax(40px,0.7fr)', align: 'right' as const },
    { key: 'id', label: 'Id', width: 'minmax(40px,0.7fr)', align: 'right' as const },
    { key: 'op', label: 'Op', width: 'minmax(70px,1.3fr)' },
    { key: 'pipe', label: 'Pipe', width: 'minmax(40px,0.7fr)' },
    { key: 'bufs', label: 'Buffers', width: 'minmax(70px,1.8fr)' },
    { key: 'cycles', label: 'Cycles', width: 'minmax(44px,0.8fr)', align: 'right' as const },
    { key: 'start', label: 'Start', width: 'minmax(50px,0.9fr)', align: 'right' as const },
    { key: 'end', label: 'End', width: 'minmax(50px,0.9fr)', align: 'right' as const },
    { key: 'wait', label: 'Waited (cycles)', width: 'minmax(96px,1.5fr)' },
  ];
  const table = createVTable({
    label: 'New order: one row per step; Enter moves the step cursor there and highlights the buffer of the row',
    columns: cols,
    empty: 'No plan yet',
    cell(row, col) {
      const v = view!;
      const id = v.order[row];
      const n = v.nodes;
      switch (col) {
        case 0:
          return String(row);
        case 1: {
          const input = inputStepOf(v, row);
          return input === null ? '—' : input === row ? '' : String(input);
        }
        case 2:
          return String(id);
        case 3:
          return n.strings[n.op[id]];
        case 4:
          return n.strings[n.pipe[id]];
        case 5: {
          if (n.bufId[id] >= 0) return `buf ${n.bufId[id]} · ${n.strings[n.type[id]]} ${fmtBytes(n.size[id])}`;
          return Array.from(n.bufList.subarray(n.bufStart[id], n.bufStart[id + 1])).join(', ');
        }
        case 6:
          return fmtInt(n.cycles[id]);
        case 7:
          return fmtInt(v.start[row]);
        case 8:
          return fmtInt(v.end[row]);
        case 9:
          return waitCell(v, row);
      }
      return '';
    },
    rowTitle: (row) => waitChain(view!, row).join(' '),
    rowClass(row) {
      const v = view!;
      const id = v.order[row];
      return (
        spillRole(v.nodes.strings[v.nodes.op[id]]) +
        (highlight.has(row) ? ' hl' : '') +
        (row === store.get().cursor ? ' cursor' : '')
      );
    },
    onRowActivate(row) {
      const v = view!;
      goTo(row);
      const id = v.order[row];
      const n = v.nodes;
      const b =
        n.bufId[id] >= 0 ? n.bufId[id] : n.bufStart[id] < n.bufStart[id + 1] ? n.bufList[n.bufStart[id]] : undefined;
      if (b !== undefined) store.set({ selectedBuf: store.get().selectedBuf === b ? null : b, selectedSpill: null });
    },
  });
  table.el.dataset.testid = 'order-table';
  root.append(table.el);

  const update = (scroll: boolean) => {
    const s = store.get();
    view = s.view;
    highlight = new Set();
    const b = s.selectedBuf;
    if (view && b !== null && b >= 0 && b < view.buffers.count) {
      for (let j = view.buffers.usesStart[b]; j < view.buffers.usesStart[b + 1]; j++)
        highlight.add(view.buffers.uses[j]);
    }
    const total = view?.order.length ?? 0;
    const rows = Math.min(total, hiddenFrom(s));
    table.el.dataset.rows = String(total);
    table.el.dataset.shown = String(rows);
    table.el.dataset.highlighted = String(highlight.size);
    table.setRowCount(rows);
    // show the buffer's first use, unless the row the user is on is one of its uses
    if (scroll && highlight.size && !highlight.has(Number(table.el.dataset.active ?? -1)))
      table.scrollToRow(Math.min(...highlight));
  };
  store.subscribe((s, p) => {
    if (s.view !== p.view || hiddenFrom(s) !== hiddenFrom(p)) update(false);
    else if (s.selectedBuf !== p.selectedBuf) update(true);
    else if (s.cursor !== p.cursor) table.scrollToRow(s.cursor); // (only when it is out of view)
  });
  update(false);
}

const NO_SPILLS = 'No spills: everything fits.';
const HIDDEN_SPILLS = 'The spills show once the open question is answered.';

export function mountSpillTable(root: HTMLElement, store: Store, selectSpill: (k: number) => void) {
  let view: PlanView | null = null;
  const table = createVTable({
    label: 'Spills: Enter moves the step cursor to the spill and shows the decision behind it',
    columns: [
      { key: 'k', label: '#', width: 'minmax(26px,0.6fr)', align: 'right' },
      { key: 'buf', label: 'Buf', width: 'minmax(30px,0.7fr)', align: 'right' },
      { key: 'type', label: 'Mem', width: 'minmax(30px,0.7fr)' },
      { key: 'size', label: 'Size', width: 'minmax(34px,0.8fr)', align: 'right' },
      { key: 'off', label: 'Offset', width: 'minmax(70px,1.4fr)', align: 'right' },
      { key: 'out', label: 'OUT@step', width: 'minmax(70px,1.3fr)', align: 'right' },
      { key: 'in', label: 'IN@step', width: 'minmax(70px,1.3fr)', align: 'right' },
    ],
    empty: NO_SPILLS,
    cell(row, col) {
      const s = view!.spills[row];
      switch (col) {
        case 0:
          return String(row + 1);
        case 1:
          return String(s.buf);
        case 2:
          return s.type;
        case 3:
          return fmtInt(s.size);
        case 4:
          return `${s.oldOffset} → ${s.newOffset}`;
        case 5:
          return `${s.outNode}@${s.outStep}`;
        case 6:
          return `${s.inNode}@${s.inStep}`;
      }
      return '';
    },
    rowClass: (row) => (store.get().selectedSpill === row ? 'sel' : ''),
    rowTitle: (row) => {
      const s = view!.spills[row];
      return `Buffer ${s.buf} (${s.type}, ${fmtBytes(s.size)}) leaves offset ${s.oldOffset} at step ${s.outStep} (SPILL_OUT ${s.outNode}) and comes back at offset ${s.newOffset} at step ${s.inStep} (SPILL_IN ${s.inNode})`;
    },
    onRowActivate: selectSpill,
  });
  table.el.dataset.testid = 'spill-table';
  root.append(table.el);
  store.subscribe((s, p) => {
    if (s.view !== p.view || hiddenFrom(s) !== hiddenFrom(p)) {
      view = s.view;
      const total = view?.spills.length ?? 0;
      const rows = view ? shownRows(total, (k) => view!.spills[k].outStep, hiddenFrom(s)) : 0;
      table.el.dataset.rows = String(total);
      table.el.dataset.shown = String(rows);
      table.setRowCount(rows);
      const empty = table.el.querySelector('.vt-empty');
      if (empty) empty.textContent = rows < total ? HIDDEN_SPILLS : NO_SPILLS;
    } else if (s.selectedSpill !== p.selectedSpill) {
      if (s.selectedSpill !== null)
        table.setActive(s.selectedSpill); // scrolls to it
      else table.refresh();
    }
  });
}
