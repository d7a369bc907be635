// A virtualised table: fixed row height, only the visible rows (plus a margin) are in the DOM.
// Keyboard: the table is one tab stop (a grid); ↑/↓, PgUp/PgDn, Home/End move the active row,
// Enter or Space does what a click on the row does. On a narrow screen the table scrolls
// sideways inside its card (the header scrolls with it) instead of widening the page.
export interface Column {
  key: string;
  label: string;
  width: string; // CSS grid track, "minmax(40px,0.7fr)"
  align?: 'left' | 'right';
}

export interface VTableOptions {
  label: string; // the grid's accessible name
  columns: Column[];
  rowHeight?: number;
  cell: (row: number, col: number) => string;
  rowClass?: (row: number) => string;
  rowTitle?: (row: number) => string;
  onRowActivate?: (row: number) => void;
  empty?: string;
}

export interface VTable {
  el: HTMLElement;
  setRowCount(n: number): void;
  refresh(): void;
  scrollToRow(row: number): void;
  /** Makes `row` the keyboard's row (as if the user had moved there). */
  setActive(row: number): void;
}

const HEAD_H = 26;
const GAP = 6;
const PAD = 20;
let tables = 0;

/** The narrowest the columns can be: their minmax() minimums, the gaps and the padding. */
function minWidth(columns: Column[]): number {
  const mins = columns.map((c) => Number(/minmax\((\d+)px/.exec(c.width)?.[1] ?? 40));
  return mins.reduce((a, b) => a + b, 0) + GAP * (columns.length - 1) + PAD;
}

/** A table's parts on the page and its state. */
interface Table {
  opts: VTableOptions;
  rowH: number;
  uid: string;
  template: string;
  el: HTMLElement;
  viewport: HTMLElement;
  spacer: HTMLElement;
  emptyEl: HTMLElement;
  count: number;
  active: number;
  /** the row elements, reused as the table scrolls */
  pool: HTMLDivElement[];
  scheduled: boolean;
  // The viewport's height and scroll position as last seen (ResizeObserver, scroll events, our own
  // scrolling): render only writes to the DOM. Reading them there would force a layout per table
  // in the frame where a new result fills every table (README.md, "Large graphs").
  viewHeight: number;
  scrollTop: number;
}

export function createVTable(opts: VTableOptions): VTable {
  const t = buildTable(opts);
  const { viewport } = t;
  viewport.addEventListener(
    'scroll',
    () => {
      t.scrollTop = Math.max(0, viewport.scrollTop);
      schedule(t);
    },
    { passive: true },
  );
  new ResizeObserver((entries) => {
    t.viewHeight = entries[entries.length - 1].contentRect.height;
    schedule(t);
  }).observe(viewport);
  viewport.addEventListener('focus', () => {
    if (t.active < 0 && t.count) moveTo(t, 0);
    else render(t);
  });
  viewport.addEventListener('keydown', (e) => onKey(t, e));

  return {
    el: t.el,
    setRowCount(n) {
      t.count = n;
      if (t.active >= n) t.active = n - 1;
      t.spacer.style.height = `${n * t.rowH}px`;
      t.emptyEl.style.display = n ? 'none' : '';
      viewport.setAttribute('aria-rowcount', String(n + 1));
      schedule(t); // at the next frame: reading the layout now would force it
    },
    refresh: () => render(t),
    scrollToRow: (row) => scrollToRow(t, row),
    setActive: (row) => moveTo(t, row),
  };
}

/** The table's elements: a grid viewport with its header row, a spacer as tall as every row, and
 * the line shown when there are none. */
function buildTable(opts: VTableOptions): Table {
  const template = opts.columns.map((c) => c.width).join(' ');
  const el = document.createElement('div');
  el.className = 'vtable';
  const viewport = document.createElement('div');
  viewport.className = 'vt-viewport';
  viewport.tabIndex = 0;
  viewport.setAttribute('role', 'grid');
  viewport.setAttribute('aria-label', opts.label);
  viewport.style.setProperty('--vt-min', `${minWidth(opts.columns)}px`);
  const head = document.createElement('div');
  head.className = 'vt-head';
  head.setAttribute('role', 'row');
  head.setAttribute('aria-rowindex', '1');
  head.style.gridTemplateColumns = template;
  for (const c of opts.columns) {
    const h = document.createElement('div');
    h.textContent = c.label;
    h.setAttribute('role', 'columnheader');
    if (c.align === 'right') h.className = 'r';
    head.append(h);
  }
  const spacer = document.createElement('div');
  spacer.className = 'vt-spacer';
  spacer.setAttribute('role', 'rowgroup');
  const emptyEl = document.createElement('div');
  emptyEl.className = 'vt-empty';
  emptyEl.textContent = opts.empty ?? 'Nothing to show';
  viewport.append(head, spacer, emptyEl);
  el.append(viewport);
  return {
    opts,
    rowH: opts.rowHeight ?? 24,
    uid: `vt${++tables}`,
    template,
    el,
    viewport,
    spacer,
    emptyEl,
    count: 0,
    active: -1,
    pool: [],
    scheduled: false,
    viewHeight: 0,
    scrollTop: 0,
  };
}

const rowsInView = (t: Table) => Math.max(0, (t.viewHeight || 300) - HEAD_H);

function schedule(t: Table) {
  if (!t.scheduled) {
    t.scheduled = true;
    requestAnimationFrame(() => render(t));
  }
}

/** A row element for the pool: one cell per column; a click activates the row it shows. */
function newRow(t: Table): HTMLDivElement {
  const r = document.createElement('div');
  r.setAttribute('role', 'row');
  r.style.gridTemplateColumns = t.template;
  r.style.height = `${t.rowH}px`;
  for (let c = 0; c < t.opts.columns.length; c++) {
    const d = document.createElement('div');
    d.setAttribute('role', 'gridcell');
    r.append(d);
  }
  r.addEventListener('click', () => {
    const row = Number(r.dataset.row);
    if (r.dataset.row === '' || !Number.isInteger(row)) return;
    t.active = row;
    t.opts.onRowActivate?.(row);
    render(t);
  });
  return r;
}

function render(t: Table) {
  const { opts, pool, rowH, viewport } = t;
  t.scheduled = false;
  const h = rowsInView(t);
  const top = t.scrollTop;
  const first = Math.max(0, Math.floor(top / rowH) - 5);
  const last = Math.min(t.count, Math.ceil((top + h) / rowH) + 5);
  const needed = Math.max(0, last - first);
  while (pool.length < needed) {
    const r = newRow(t);
    pool.push(r);
    t.spacer.append(r);
  }
  viewport.removeAttribute('aria-activedescendant');
  for (let i = 0; i < pool.length; i++) {
    const r = pool[i];
    if (i >= needed) {
      r.style.display = 'none';
      r.dataset.row = '';
      r.removeAttribute('id');
      continue;
    }
    const row = first + i;
    r.style.display = '';
    r.style.transform = `translateY(${row * rowH}px)`;
    r.dataset.row = String(row);
    r.setAttribute('aria-rowindex', String(row + 2));
    r.className = `vt-row ${opts.rowClass?.(row) ?? ''}${row === t.active ? ' active' : ''}`;
    if (row === t.active) {
      r.id = `${t.uid}-active`;
      viewport.setAttribute('aria-activedescendant', r.id);
    } else r.removeAttribute('id');
    if (opts.rowTitle) r.title = opts.rowTitle(row);
    const cells = r.children;
    for (let c = 0; c < opts.columns.length; c++) {
      const d = cells[c] as HTMLElement;
      const text = opts.cell(row, c);
      if (d.textContent !== text) d.textContent = text;
      d.className = opts.columns[c].align === 'right' ? 'r' : '';
    }
  }
}

function scrollToRow(t: Table, row: number) {
  const h = rowsInView(t);
  const top = row * t.rowH;
  if (top < t.scrollTop || top + t.rowH > t.scrollTop + h) {
    // where the browser clamps it (a shorter table), its scroll event brings the real value
    t.scrollTop = Math.max(0, Math.min(top - h / 3, t.count * t.rowH - h));
    t.viewport.scrollTop = t.scrollTop;
  }
  render(t);
}

function moveTo(t: Table, row: number) {
  if (!t.count) return;
  t.active = Math.max(0, Math.min(t.count - 1, row));
  t.el.dataset.active = String(t.active);
  scrollToRow(t, t.active);
}

function onKey(t: Table, e: KeyboardEvent) {
  const { active } = t;
  const page = Math.max(1, Math.floor(rowsInView(t) / t.rowH) - 1);
  const to: Record<string, number> = {
    ArrowDown: active + 1,
    ArrowUp: active - 1,
    PageDown: active + page,
    PageUp: active - page,
    Home: 0,
    End: t.count - 1,
  };
  if (e.key in to && !e.altKey && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    moveTo(t, to[e.key]);
  } else if ((e.key === 'Enter' || e.key === ' ') && active >= 0 && active < t.count) {
    e.preventDefault();
    t.opts.onRowActivate?.(active);
    render(t);
  }
}
