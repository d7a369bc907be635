// A virtualised table: fixed row height, only the visible rows (plus a margin) are in the DOM.
export interface Column {
  key: string;
  label: string;
  width: string; // CSS grid track
  align?: 'left' | 'right';
}

export interface VTableOptions {
  columns: Column[];
  rowHeight?: number;
  cell: (row: number, col: number) => string;
  rowClass?: (row: number) => string;
  rowTitle?: (row: number) => string;
  onRowClick?: (row: number, e: MouseEvent) => void;
  empty?: string;
}

export interface VTable {
  el: HTMLElement;
  setRowCount(n: number): void;
  refresh(): void;
  scrollToRow(row: number): void;
}

export function createVTable(opts: VTableOptions): VTable {
  const rowH = opts.rowHeight ?? 24;
  const template = opts.columns.map((c) => c.width).join(' ');
  const el = document.createElement('div');
  el.className = 'vtable';
  el.setAttribute('role', 'table');
  const head = document.createElement('div');
  head.className = 'vt-head';
  head.setAttribute('role', 'row');
  head.style.gridTemplateColumns = template;
  for (const c of opts.columns) {
    const h = document.createElement('div');
    h.textContent = c.label;
    h.setAttribute('role', 'columnheader');
    if (c.align === 'right') h.className = 'r';
    head.append(h);
  }
  const viewport = document.createElement('div');
  viewport.className = 'vt-viewport';
  const spacer = document.createElement('div');
  spacer.className = 'vt-spacer';
  const emptyEl = document.createElement('div');
  emptyEl.className = 'vt-empty';
  emptyEl.textContent = opts.empty ?? 'Nothing to show';
  viewport.append(spacer, emptyEl);
  el.append(head, viewport);

  let count = 0;
  const pool: HTMLDivElement[] = [];
  let scheduled = false;

  function render() {
    scheduled = false;
    const h = viewport.clientHeight || 300;
    const first = Math.max(0, Math.floor(viewport.scrollTop / rowH) - 5);
    const last = Math.min(count, Math.ceil((viewport.scrollTop + h) / rowH) + 5);
    const needed = Math.max(0, last - first);
    while (pool.length < needed) {
      const r = document.createElement('div');
      r.setAttribute('role', 'row');
      r.style.gridTemplateColumns = template;
      r.style.height = `${rowH}px`;
      for (let c = 0; c < opts.columns.length; c++) {
        const d = document.createElement('div');
        d.setAttribute('role', 'cell');
        r.append(d);
      }
      r.addEventListener('click', (e) => {
        const row = Number(r.dataset.row);
        if (opts.onRowClick && Number.isInteger(row)) opts.onRowClick(row, e);
      });
      pool.push(r);
      spacer.append(r);
    }
    for (let i = 0; i < pool.length; i++) {
      const r = pool[i];
      if (i >= needed) {
        r.style.display = 'none';
        r.dataset.row = '';
        continue;
      }
      const row = first + i;
      r.style.display = '';
      r.style.transform = `translateY(${row * rowH}px)`;
      r.dataset.row = String(row);
      r.className = 'vt-row ' + (opts.rowClass?.(row) ?? '');
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
  viewport.addEventListener('scroll', schedule, { passive: true });
  new ResizeObserver(schedule).observe(viewport);

  return {
    el,
    setRowCount(n) {
      count = n;
      spacer.style.height = `${n * rowH}px`;
      emptyEl.style.display = n ? 'none' : '';
      render();
    },
    refresh: render,
    scrollToRow(row) {
      const h = viewport.clientHeight;
      const top = row * rowH;
      if (top < viewport.scrollTop || top + rowH > viewport.scrollTop + h) viewport.scrollTop = Math.max(0, top - h / 3);
      render();
    },
  };
}
