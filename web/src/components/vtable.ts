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

export function createVTable(opts: VTableOptions): VTable {
  const rowH = opts.rowHeight ?? 24;
  const uid = `vt${++tables}`;
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

  let count = 0;
  let active = -1;
  const pool: HTMLDivElement[] = [];
  let scheduled = false;
  // The viewport's height and scroll position as last seen (ResizeObserver, scroll events, our own
  // scrolling): render only writes to the DOM. Reading them there would force a layout per table
  // in the frame where a new result fills every table (README.md, "Large graphs").
  let viewHeight = 0;
  let scrollTop = 0;
  const rowsInView = () => Math.max(0, (viewHeight || 300) - HEAD_H);

  function render() {
    scheduled = false;
    const h = rowsInView();
    const top = scrollTop;
    const first = Math.max(0, Math.floor(top / rowH) - 5);
    const last = Math.min(count, Math.ceil((top + h) / rowH) + 5);
    const needed = Math.max(0, last - first);
    while (pool.length < needed) {
      const r = document.createElement('div');
      r.setAttribute('role', 'row');
      r.style.gridTemplateColumns = template;
      r.style.height = `${rowH}px`;
      for (let c = 0; c < opts.columns.length; c++) {
        const d = document.createElement('div');
        d.setAttribute('role', 'gridcell');
        r.append(d);
      }
      r.addEventListener('click', () => {
        const row = Number(r.dataset.row);
        if (r.dataset.row === '' || !Number.isInteger(row)) return;
        active = row;
        opts.onRowActivate?.(row);
        render();
      });
      pool.push(r);
      spacer.append(r);
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
      r.className = `vt-row ${opts.rowClass?.(row) ?? ''}${row === active ? ' active' : ''}`;
      if (row === active) {
        r.id = `${uid}-active`;
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

  const schedule = () => {
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(render);
    }
  };
  viewport.addEventListener(
    'scroll',
    () => {
      scrollTop = Math.max(0, viewport.scrollTop);
      schedule();
    },
    { passive: true },
  );
  new ResizeObserver((entries) => {
    viewHeight = entries[entries.length - 1].contentRect.height;
    schedule();
  }).observe(viewport);

  function scrollToRow(row: number) {
    const h = rowsInView();
    const top = row * rowH;
    if (top < scrollTop || top + rowH > scrollTop + h) {
      // where the browser clamps it (a shorter table), its scroll event brings the real value
      scrollTop = Math.max(0, Math.min(top - h / 3, count * rowH - h));
      viewport.scrollTop = scrollTop;
    }
    render();
  }

  function moveTo(row: number) {
    if (!count) return;
    active = Math.max(0, Math.min(count - 1, row));
    el.dataset.active = String(active);
    scrollToRow(active);
  }

  viewport.addEventListener('focus', () => {
    if (active < 0 && count) moveTo(0);
    else render();
  });
  viewport.addEventListener('keydown', (e) => {
    const page = Math.max(1, Math.floor(rowsInView() / rowH) - 1);
    const to: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + page,
      PageUp: active - page,
      Home: 0,
      End: count - 1,
    };
    if (e.key in to && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      moveTo(to[e.key]);
    } else if ((e.key === 'Enter' || e.key === ' ') && active >= 0 && active < count) {
      e.preventDefault();
      opts.onRowActivate?.(active);
      render();
    }
  });

  return {
    el,
    setRowCount(n) {
      count = n;
      if (active >= n) active = n - 1;
      spacer.style.height = `${n * rowH}px`;
      emptyEl.style.display = n ? 'none' : '';
      viewport.setAttribute('aria-rowcount', String(n + 1));
      schedule(); // at the next frame: reading the layout now would force it
    },
    refresh: render,
    scrollToRow,
    setActive: moveTo,
  };
}
