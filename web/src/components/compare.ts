// The compare table: every policy on every order source for the current graph, capacities and
// cost (the engine's compare(), each plan verified). The row of the plan on screen is highlighted,
// the least extra data moved is marked, and a row opens its plan (sets policy + order and runs).
// Two rows picked with their "diff" boxes open both plans side by side (components/diff.ts).
// The bound column is the lower bound on data moved for the row's order (metrics.bound). Under the
// objective "cycles" each row is the plan made to finish sooner, the bytes plan it was made from
// beside it (data moved and cycles), and the fewest cycles are marked too.
import { fmtInt, fmtMs, h } from '../lib/format';
import { POLICY_TEXT, orderText, orderTitle } from '../lib/explanations';
import { boundGap } from '../lib/bound';
import { compareStale, rowKey, type Store } from '../store';
import type { CompareRow, OrderSourceInfo } from '../engine/types';

export interface CompareHandlers {
  open(row: CompareRow): void;
  cancel(): void;
  retry(): void;
}

/** The compare row the plan on screen matches (its policy and effective order source). */
export function currentRowIndex(
  rows: CompareRow[],
  policy: string | undefined,
  orderSource: string | undefined,
): number {
  return rows.findIndex((r) => r.policy === policy && r.order === orderSource);
}

/** A mounted compare table: where it shows, and the titles its header cells carry. */
interface Panel {
  status: HTMLElement;
  store: Store;
  on: CompareHandlers;
  host: HTMLElement;
  legend: HTMLElement;
  policyTitle: string;
  ordersTitle: string;
  /** the table's one tab stop: the row (its key) and the control (a column of ROW_CONTROLS) */
  stop: { key: string; col: number } | null;
}

/** What the table shows beside the rows: the memory types' columns, the marked minimums, the
 * row of the plan on screen. */
interface TableFacts {
  rows: CompareRow[];
  types: string[];
  minExtra: number;
  /** objective cycles: each row beside the bytes plan it was made from */
  cycles: boolean;
  minCycles: number;
  /** the row of the plan on screen, or -1 */
  cur: number;
  orders: OrderSourceInfo[] | undefined;
}

export function mountCompare(root: HTMLElement, status: HTMLElement, store: Store, on: CompareHandlers) {
  root.dataset.testid = 'compare';
  const legend = h(
    'details',
    { class: 'explain', 'data-testid': 'compare-legend' },
    h('summary', {}, 'What do the policies and orders mean?'),
  );
  const host = h('div', { class: 'compare-host' });
  root.append(host, legend);
  const policyTitle = Object.entries(POLICY_TEXT)
    .map(([p, t]) => `${p}: ${t}`)
    .join('\n\n');
  const panel: Panel = { status, store, on, host, legend, policyTitle, ordersTitle: '', stop: null };
  store.subscribe((s, p) => {
    if (s.engine !== p.engine) renderLegend(panel);
    if (
      s.compare !== p.compare ||
      s.view !== p.view ||
      s.diffPicks !== p.diffPicks ||
      s.engine !== p.engine ||
      compareStale(s) !== compareStale(p)
    )
      render(panel);
  });
  renderLegend(panel);
  render(panel);
}

/** The legend: the page's policy texts and the engine's order sources. */
function renderLegend(panel: Panel) {
  const { legend } = panel;
  const orders = panel.store.get().engine?.orders ?? [];
  panel.ordersTitle = orders.map((o) => `${o.name} (${o.title}): ${o.description}`).join('\n\n');
  legend.replaceChildren(
    legend.firstChild!,
    h(
      'dl',
      {},
      h('dt', { class: 'dl-head' }, 'Policies'),
      ...Object.entries(POLICY_TEXT).flatMap(([p, t]) => [h('dt', {}, p), h('dd', {}, t)]),
      h('dt', { class: 'dl-head' }, 'Orders'),
      ...orders.flatMap((o) => [h('dt', {}, o.name), h('dd', {}, h('em', {}, `${o.title}: `), o.description)]),
      h('dt', { class: 'dl-head' }, 'Bound'),
      h(
        'dd',
        {},
        'No plan for the row\u2019s order can move less data (the residency relaxation, which ignores fragmentation). A plan at its bound is optimal for its order; the gap is what a better policy could still save there, and a better order can go below it.',
      ),
    ),
  );
}

/** The status line (in the card's title row): comparing, cancelled or failed, out of date, done. */
function renderStatus(panel: Panel, stale: boolean) {
  const { status, on } = panel;
  const c = panel.store.get().compare;
  status.replaceChildren();
  if (c?.status === 'running') {
    const cancel = h(
      'button',
      { class: 'btn small', type: 'button', 'data-testid': 'compare-cancel', 'aria-label': 'Cancel comparison' },
      'Cancel',
    );
    cancel.addEventListener('click', () => on.cancel());
    status.append(h('span', { class: 'spinner small', 'aria-hidden': 'true' }), 'comparing… ', cancel);
  } else if (c?.status === 'cancelled' || c?.status === 'error') {
    const again = h('button', { class: 'btn small', type: 'button' }, 'Compare again');
    again.addEventListener('click', () => on.retry());
    status.append(c.status === 'cancelled' ? 'cancelled ' : 'failed ', again);
  } else if (c?.status === 'done' && c.rows.length && stale) {
    status.append('out of date: for an earlier graph or capacities');
  } else if (c?.status === 'done' && c.rows.length) {
    const total = c.rows.reduce((a, r) => a + r.ms, 0);
    status.append(`${c.rows.length} plans, all verified · ${fmtMs(total)}`);
  }
}

function render(panel: Panel) {
  const { host, store } = panel;
  const { compare: c, view, engine } = store.get();
  const stale = compareStale(store.get());
  renderStatus(panel, stale);
  const hadFocus = host.contains(document.activeElement);
  host.replaceChildren();
  if (!c || (!c.rows.length && c.status !== 'error')) {
    host.append(
      h(
        'div',
        { class: 'placeholder small-ph' },
        c?.status === 'running'
          ? 'Running every policy on every order…'
          : c?.status === 'cancelled'
            ? 'Comparison cancelled.'
            : 'After a run, every policy on every order source appears here.',
      ),
    );
    return;
  }
  if (c.status === 'error') {
    host.append(h('div', { class: 'placeholder small-ph' }, `The comparison failed: ${c.message ?? 'unknown error'}`));
    return;
  }
  const rows = c.rows;
  const types: string[] = [];
  for (const r of rows) for (const t of Object.keys(r.demandPeak.byType)) if (!types.includes(t)) types.push(t);
  // keep the capacity order of the plan when known (L1, UB, L0A, ...)
  const capOrder = view ? Object.keys(view.meta.capacities) : [];
  types.sort((a, b) => (capOrder.indexOf(a) + 1 || 99) - (capOrder.indexOf(b) + 1 || 99));
  const facts: TableFacts = {
    rows,
    types,
    minExtra: Math.min(...rows.map((r) => r.extraBytes)),
    cycles: rows.some((r) => r.bytesPlan),
    minCycles: Math.min(...rows.map((r) => r.totalCycles)),
    cur: view && !stale ? currentRowIndex(rows, view.meta.policy, view.meta.orderSource) : -1,
    orders: engine?.orders,
  };
  const tbody = h('tbody');
  for (const [i, r] of rows.entries()) tbody.append(tableRow(panel, facts, r, i));
  const table = h(
    'table',
    { class: `compare${stale ? ' stale' : ''}`, 'data-testid': 'compare-table', 'data-rows': rows.length },
    tableHead(panel, facts),
    tbody,
  );
  host.append(h('div', { class: 'compare-scroll' }, table));
  rove(panel, tbody, hadFocus);
}

/** A row's controls, left to right: the arrows move between them. */
const ROW_CONTROLS = ['compare-open', 'diff-pick'];

/** Row `tr`'s control in column `col`; a row whose Open is disabled (the plan on screen) has its
 * diff box in both columns. */
function rowControl(tr: Element, col: number): HTMLElement {
  const want = tr.querySelector<HTMLButtonElement | HTMLInputElement>(`[data-testid=${ROW_CONTROLS[col]}]`);
  return want && !want.disabled ? want : tr.querySelector<HTMLElement>('[data-testid=diff-pick]')!;
}

/**
 * The table is one tab stop (a roving tabindex): only one control in it is tabbable, the last one
 * focused, kept across renders; Up, Down, Home and End move between rows, Left and Right between a
 * row's Open button and diff box. Tab leaves the table, so the page after it is a key away.
 */
function rove(panel: Panel, tbody: HTMLElement, refocus: boolean) {
  const trs = [...tbody.querySelectorAll<HTMLElement>(':scope > tr')];
  for (const c of tbody.querySelectorAll<HTMLElement>('button, input')) c.tabIndex = -1;
  const stopRow = trs.find((tr) => tr.dataset.key === panel.stop?.key) ?? trs[0];
  if (!stopRow) return;
  const stop = rowControl(stopRow, panel.stop?.col ?? 0);
  stop.tabIndex = 0;
  if (refocus) stop.focus();
  const colOf = (el: HTMLElement) => Math.max(0, ROW_CONTROLS.indexOf(el.dataset.testid ?? ''));
  tbody.addEventListener('focusin', (e) => {
    const el = e.target as HTMLElement;
    const tr = el.closest<HTMLElement>('tr');
    if (!tr) return;
    for (const c of tbody.querySelectorAll<HTMLElement>('[tabindex="0"]')) c.tabIndex = -1;
    el.tabIndex = 0;
    panel.stop = { key: tr.dataset.key ?? '', col: colOf(el) };
  });
  tbody.addEventListener('keydown', (e) => {
    const el = e.target as HTMLElement;
    const i = trs.indexOf(el.closest<HTMLElement>('tr')!);
    const col = colOf(el);
    const moves: Record<string, [number, number]> = {
      ArrowDown: [i + 1, col],
      ArrowUp: [i - 1, col],
      Home: [0, col],
      End: [trs.length - 1, col],
      ArrowLeft: [i, 0],
      ArrowRight: [i, ROW_CONTROLS.length - 1],
    };
    const to = moves[e.key];
    if (!to || i < 0) return;
    e.preventDefault();
    rowControl(trs[Math.min(trs.length - 1, Math.max(0, to[0]))], to[1]).focus();
  });
}

function tableHead(panel: Panel, f: TableFacts): HTMLElement {
  const { types, cycles } = f;
  const th = (label: string, attrs: Record<string, string | number> = {}) => h('th', attrs, label);
  return h(
    'thead',
    {},
    h(
      'tr',
      {},
      th('Order', { rowspan: 2, title: panel.ordersTitle }),
      th('Policy', { rowspan: 2, title: panel.policyTitle }),
      th('Spills', { rowspan: 2, class: 'r' }),
      th('Extra data moved', {
        rowspan: 2,
        class: 'r',
        title: `bytes written out + read back by SPILL_OUT / SPILL_IN${cycles ? ' in the row\u2019s plan (objective cycles: made to finish sooner)' : ''}`,
      }),
      th('Bound', {
        rowspan: 2,
        class: 'r',
        title: 'lower bound on the data moved for this order: no plan for it moves less',
      }),
      th('Peak demand of the order', {
        colspan: types.length + 1,
        class: 'c group',
        title:
          'the bytes each memory would need at once if nothing were spilled: a property of the order, the same for every policy',
      }),
      th('Total cycles', {
        rowspan: 2,
        class: 'r',
        title: cycles
          ? 'when the row\u2019s plan (objective cycles) ends; the fewest are marked'
          : 'when the row\u2019s plan ends',
      }),
      ...(cycles
        ? [
            th('The bytes plan', {
              colspan: 2,
              class: 'c group',
              title:
                'the plan of objective bytes the row\u2019s plan was made from: it moves the least data, the row\u2019s plan finishes sooner',
            }),
          ]
        : []),
      th('ms', { rowspan: 2, class: 'r', title: 'wall time of that plan in the engine' }),
      th('', { rowspan: 2 }),
      th('Diff', { rowspan: 2, class: 'c', title: 'Pick two rows to see their plans side by side' }),
    ),
    h(
      'tr',
      {},
      ...types.map((t) => th(t, { class: 'r sub' })),
      th('all', { class: 'r sub' }),
      ...(cycles ? [th('extra B', { class: 'r sub' }), th('cycles', { class: 'r sub' })] : []),
    ),
  );
}

/** Row i: its figures, its Open button and its diff box; a click opens its plan. */
function tableRow(panel: Panel, f: TableFacts, r: CompareRow, i: number): HTMLElement {
  const { rows, cur } = f;
  const title = orderTitle(f.orders, r.order);
  const open = h(
    'button',
    {
      class: 'btn small',
      type: 'button',
      'data-testid': 'compare-open',
      title: `Show the plan of ${r.policy} on ${title}`,
    },
    i === cur ? 'Shown' : 'Open',
  );
  if (i === cur) open.disabled = true;
  const tr = h(
    'tr',
    {
      class: [
        i === cur ? 'current' : '',
        r.extraBytes === f.minExtra ? 'best' : '',
        i > 0 && rows[i - 1].order !== r.order ? 'group-start' : '',
      ]
        .join(' ')
        .trim(),
      'data-testid': 'compare-row',
      'data-policy': r.policy,
      'data-order': r.order,
      'data-current': i === cur ? 'true' : undefined,
      'data-key': rowKey(r),
      title: i === cur ? 'The plan on screen' : 'Click to open this plan',
    },
    ...rowCells(f, r, i, title),
    h('td', { class: 'c' }, open),
  );
  tr.append(h('td', { class: 'c' }, diffPick(panel.store, r, title)));
  tr.addEventListener('click', () => {
    if (i !== cur) panel.on.open(r);
  });
  return tr;
}

/** Row i's figures, from its order to its time. */
function rowCells(f: TableFacts, r: CompareRow, i: number, title: string): HTMLElement[] {
  const { rows, types, cycles } = f;
  const best = r.extraBytes === f.minExtra;
  const firstOfGroup = i === 0 || rows[i - 1].order !== r.order;
  let span = 1;
  while (firstOfGroup && i + span < rows.length && rows[i + span].order === r.order) span++;
  return [
    h('td', { title: `${title}: ${orderText(f.orders, r.order)}` }, r.order),
    h(
      'td',
      { title: POLICY_TEXT[r.policy] ?? '' },
      r.policy,
      r.planPolicy !== r.policy ? h('span', { class: 'muted' }, ` (${r.planPolicy})`) : null,
    ),
    h('td', { class: 'r', 'data-col': 'spills' }, fmtInt(r.spills)),
    h(
      'td',
      { class: 'r', 'data-col': 'extra-bytes' },
      fmtInt(r.extraBytes),
      best ? h('span', { class: 'best-mark', title: 'the least data moved of all rows' }, '★') : null,
    ),
    h(
      'td',
      { class: 'r', 'data-col': 'bound', title: `${r.policy}'s plan is ${boundGap(r.extraBytes, r.bound.total)}` },
      fmtInt(r.bound.total),
    ),
    // the demand is the order's: one cell per order group
    ...(firstOfGroup
      ? [
          ...types.map((t) =>
            h(
              'td',
              { class: 'r muted demand', rowspan: span },
              r.demandPeak.byType[t] === undefined ? '–' : fmtInt(r.demandPeak.byType[t]),
            ),
          ),
          h('td', { class: 'r demand', rowspan: span }, fmtInt(r.demandPeak.total)),
        ]
      : []),
    h(
      'td',
      { class: 'r', 'data-col': 'total-cycles' },
      fmtInt(r.totalCycles),
      cycles && r.totalCycles === f.minCycles
        ? h('span', { class: 'best-mark', title: 'the fewest cycles of all rows' }, '★')
        : null,
    ),
    ...(cycles
      ? [
          h(
            'td',
            { class: 'r muted', 'data-col': 'bytes-plan-extra' },
            r.bytesPlan ? fmtInt(r.bytesPlan.extraBytes) : '–',
          ),
          h(
            'td',
            { class: 'r muted', 'data-col': 'bytes-plan-cycles' },
            r.bytesPlan ? fmtInt(r.bytesPlan.totalCycles) : '–',
          ),
        ]
      : []),
    h('td', { class: 'r muted' }, r.ms < 10 ? r.ms.toFixed(1) : String(Math.round(r.ms))),
  ];
}

/** The row's diff box: the last two rows picked are shown side by side. */
function diffPick(store: Store, r: CompareRow, title: string): HTMLElement {
  const key = rowKey(r);
  const pick = h('input', {
    type: 'checkbox',
    'data-testid': 'diff-pick',
    'aria-label': `Diff: ${r.policy} on ${title}`,
    checked: store.get().diffPicks.includes(key),
  });
  pick.addEventListener('click', (e) => e.stopPropagation());
  pick.addEventListener('change', () => {
    const picks = store.get().diffPicks.filter((k) => k !== key);
    store.set({ diffPicks: pick.checked ? [...picks, key].slice(-2) : picks });
  });
  return pick;
}
