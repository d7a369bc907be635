// Two plans side by side (two rows of the compare table): their summaries, the spills only one of
// them makes, and both memory charts with one cursor. The cursor is a node of the graph: each
// chart marks the step at which its plan runs that node (the plans' orders may differ).
import { compareKey, rowKey, type DiffState, type State, type Store } from '../store';
import type { PlanView } from '../engine/types';
import { mountChart } from './chart';
import { orderTitle } from '../lib/explanations';
import { fmtInt, h } from '../lib/format';

const label = (d: DiffState, k: 0 | 1, s: State) =>
  `${d.rows[k].policy} on ${orderTitle(s.engine?.orders, d.rows[k].order)}`;

/** The step at which a plan runs graph node `node` (-1: it does not). */
const stepOfNode = (v: PlanView, node: number) => (node >= 0 && node < v.stepOfNode.length ? v.stepOfNode[node] : -1);

/** The graph node at a step of a plan; where a spill node is, the nearest graph node in direction
 * `dir` (then the other way). */
function nodeAtStep(v: PlanView, step: number, dir: 1 | -1): number {
  const n = v.nodes;
  const graphNode = (s: number) => {
    const op = n.strings[n.op[v.order[s]]];
    return op !== 'SPILL_OUT' && op !== 'SPILL_IN';
  };
  for (const d of [dir, -dir])
    for (let s = step; s >= 0 && s < v.order.length; s += d) if (graphNode(s)) return v.order[s];
  return -1;
}

/** Per buffer: spills in A minus spills in B (positive: A spills it more often). */
function spillDifference(a: PlanView, b: PlanView) {
  const count = (v: PlanView) => {
    const m = new Map<number, { n: number; type: string; size: number }>();
    for (const sp of v.spills) {
      const e = m.get(sp.buf) ?? { n: 0, type: sp.type, size: sp.size };
      e.n++;
      m.set(sp.buf, e);
    }
    return m;
  };
  const ca = count(a),
    cb = count(b);
  const onlyA: { buf: number; n: number; type: string; size: number }[] = [];
  const onlyB: typeof onlyA = [];
  for (const buf of new Set([...ca.keys(), ...cb.keys()])) {
    const x = ca.get(buf),
      y = cb.get(buf);
    const diff = (x?.n ?? 0) - (y?.n ?? 0);
    const info = (x ?? y)!;
    if (diff > 0) onlyA.push({ buf, n: diff, type: info.type, size: info.size });
    if (diff < 0) onlyB.push({ buf, n: -diff, type: info.type, size: info.size });
  }
  const byBuf = (p: { buf: number }, q: { buf: number }) => p.buf - q.buf;
  return { onlyA: onlyA.sort(byBuf), onlyB: onlyB.sort(byBuf) };
}

/** The diff card's parts that change with the diff. */
interface DiffParts {
  card: HTMLElement;
  root: HTMLElement;
  status: HTMLElement;
  summary: HTMLElement;
  spills: HTMLElement;
  heads: HTMLElement[];
}

export function mountDiff(card: HTMLElement, root: HTMLElement, status: HTMLElement, store: Store) {
  root.dataset.testid = 'diff';
  const summary = h('div', { class: 'diff-summary' });
  const spills = h('div', { class: 'diff-spills' });
  const closeBtn = h('button', { class: 'btn small', type: 'button', 'data-testid': 'diff-close' }, 'Close');
  closeBtn.addEventListener('click', () => store.set({ diffPicks: [] }));
  const heads = [
    h('div', { class: 'diff-head', 'data-testid': 'diff-head-a' }),
    h('div', { class: 'diff-head', 'data-testid': 'diff-head-b' }),
  ];
  const chartHosts = [h('div'), h('div')];
  root.append(
    h(
      'div',
      { class: 'diff-bar' },
      h(
        'span',
        { class: 'muted small' },
        'One cursor: both charts mark where their plan runs the same node of the graph.',
      ),
      closeBtn,
    ),
    summary,
    spills,
    h('div', { class: 'diff-charts' }, h('div', {}, heads[0], chartHosts[0]), h('div', {}, heads[1], chartHosts[1])),
  );
  mountDiffCharts(chartHosts, store);
  const parts: DiffParts = { card, root, status, summary, spills, heads };
  store.subscribe((s, p) => {
    const d = s.diff,
      e = p.diff;
    if (
      d?.views !== e?.views ||
      d?.status !== e?.status ||
      d?.rows !== e?.rows ||
      (d && (s.docVersion !== p.docVersion || s.settings !== p.settings))
    )
      renderDiff(parts, store.get());
  });
  renderDiff(parts, store.get());
}

const viewOf = (s: State, k: 0 | 1) => (s.diff?.status === 'done' ? s.diff.views![k] : null);

/** The two charts, with one cursor: the same node of the graph in both plans. */
function mountDiffCharts(chartHosts: HTMLElement[], store: Store) {
  for (const k of [0, 1] as const) {
    mountChart(chartHosts[k], store, {
      id: k ? 'diff-chart-b' : 'diff-chart-a',
      view: (s) => viewOf(s, k),
      cursor: (s) => {
        const v = viewOf(s, k);
        const step = v && s.diff!.node >= 0 ? stepOfNode(v, s.diff!.node) : -1;
        return step >= 0 ? step : null;
      },
      setCursor(step) {
        const s = store.get();
        const v = viewOf(s, k);
        if (!v || !s.diff) return;
        const at = s.diff.node >= 0 ? stepOfNode(v, s.diff.node) : -1;
        const to = Math.max(0, Math.min(v.order.length - 1, step));
        store.set({ diff: { ...s.diff, node: nodeAtStep(v, to, to >= at ? 1 : -1) } });
      },
      selectedBuf: (s) => s.selectedBuf,
      select: (buf) => store.set({ selectedBuf: buf }),
    });
  }
}

function renderDiff(parts: DiffParts, s: State) {
  const { card, root, status, summary, spills, heads } = parts;
  const d = s.diff;
  card.hidden = !d;
  const stale = !!d && d.key !== compareKey(s);
  card.classList.toggle('stale', stale);
  card.dataset.stale = String(stale);
  status.textContent = !d
    ? ''
    : d.status === 'running'
      ? 'making both plans…'
      : d.status === 'error'
        ? `failed: ${d.message ?? ''}`
        : stale
          ? 'out of date: for an earlier graph or capacities'
          : '';
  if (!d) return;
  heads[0].textContent = `A: ${label(d, 0, s)}`;
  heads[1].textContent = `B: ${label(d, 1, s)}`;
  root.dataset.rows = d.rows.map(rowKey).join(' vs ');
  if (d.status !== 'done') {
    summary.replaceChildren();
    spills.replaceChildren();
    return;
  }
  const [a, b] = d.views!;
  summary.replaceChildren(summaryTable(s, a, b));
  const { onlyA, onlyB } = spillDifference(a, b);
  spills.replaceChildren(spillList('diff-only-a', 'A', onlyA), spillList('diff-only-b', 'B', onlyB));
}

/** The two plans' figures side by side, and B − A. */
function summaryTable(s: State, a: PlanView, b: PlanView): HTMLElement {
  const d = s.diff!;
  const types = [
    ...new Set([...Object.keys(a.meta.metrics.residentPeak), ...Object.keys(b.meta.metrics.residentPeak)]),
  ];
  const row = (name: string, testid: string, x: number, y: number) =>
    h(
      'tr',
      { 'data-testid': testid },
      h('th', {}, name),
      h('td', { class: 'r', 'data-col': 'a' }, fmtInt(x)),
      h('td', { class: 'r', 'data-col': 'b' }, fmtInt(y)),
      h(
        'td',
        { class: `r ${y < x ? 'better' : y > x ? 'worse' : ''}` },
        y === x ? '=' : `${y > x ? '+' : ''}${fmtInt(y - x)}`,
      ),
    );
  const ma = a.meta.metrics,
    mb = b.meta.metrics;
  return h(
    'table',
    { class: 'cands diff-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, ''),
        h('th', { class: 'r' }, `A: ${label(d, 0, s)}`),
        h('th', { class: 'r' }, `B: ${label(d, 1, s)}`),
        h('th', { class: 'r' }, 'B − A'),
      ),
    ),
    h(
      'tbody',
      {},
      row('Spills', 'diff-spills-count', ma.spills, mb.spills),
      row('Extra data moved (B)', 'diff-extra-bytes', ma.extraBytes, mb.extraBytes),
      row('Total cycles', 'diff-cycles', ma.totalCycles, mb.totalCycles),
      row('Steps', 'diff-steps', a.order.length, b.order.length),
      ...types.map((t) => row(`Peak ${t}`, `diff-peak-${t}`, ma.residentPeak[t] ?? 0, mb.residentPeak[t] ?? 0)),
    ),
  );
}

/** The buffers only one plan spills (or spills more often), with how often. */
function spillList(testid: string, who: string, items: ReturnType<typeof spillDifference>['onlyA']): HTMLElement {
  return h(
    'div',
    { 'data-testid': testid },
    h('strong', {}, `Only ${who} spills`),
    items.length
      ? h(
          'span',
          { class: 'muted small' },
          ` ${fmtInt(items.reduce((n, x) => n + x.n, 0))} times, ${fmtInt(items.length)} buffers`,
        )
      : null,
    items.length
      ? h(
          'ul',
          {},
          ...items.map((x) =>
            h(
              'li',
              { 'data-buf': x.buf, 'data-n': x.n },
              `buffer ${x.buf} (${x.type}, ${fmtInt(x.size)} B)${x.n > 1 ? ` ×${x.n}` : ''}`,
            ),
          ),
        )
      : h('p', { class: 'muted small' }, 'nothing'),
  );
}
