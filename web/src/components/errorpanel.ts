// The error under the editor: what went wrong, "Go to" each place the error names (from the
// engine's structured `where`, never from its wording), the editor's mark on the first place, and
// for a memory without a capacity an offer to add one.
import { store, notify, type ErrorInfo, type Store } from '../store';
import { h, fmtInt } from '../lib/format';
import type { GraphEditor } from './editor';
import type { Place } from '../lib/locate';
import { suggestCapacity } from '../app/document';
import type { ErrorWhere } from '../store';

export interface ErrorPanelDeps {
  editor: GraphEditor;
  locate(where: ErrorWhere): Promise<Place[]>;
  run(): void;
}

/** The page's settings field an engine error about the run's options names, if any. */
function settingsField(where: ErrorWhere | undefined): string | undefined {
  if (where?.source !== 'options' || !where.field) return undefined;
  if (where.field.startsWith('capacities.')) return `cap-${where.field.slice('capacities.'.length)}`;
  return ({ 'cost.fixedLatency': 'fixed-latency', 'cost.cyclesPerByte': 'cycles-per-byte' } as Record<string, string>)[
    where.field
  ];
}

const TITLE: Record<string, string> = {
  input: 'Input error',
  internal: 'Engine error',
  settings: 'Cannot run yet',
  worker: 'Engine unavailable',
};

export function mountErrorPanel(el: HTMLElement, s: Store, deps: ErrorPanelDeps) {
  let shown: ErrorInfo | null = null;

  function memoryFix(memory: string): HTMLElement | null {
    if (store.get().settings.capacities.some(([t]) => t === memory)) return null;
    const need = store.get().graphInfo?.memories[memory] ?? 1;
    const { bytes, why } = suggestCapacity(memory, need);
    const fix = h(
      'button',
      { class: 'btn small', type: 'button', 'data-testid': 'error-fix' },
      `Add memory ${memory} with ${fmtInt(bytes)} bytes and run`,
    );
    fix.addEventListener('click', () => {
      store.setSettings({ capacities: [...store.get().settings.capacities, [memory, bytes]] });
      notify(
        `Added memory ${memory} to the capacity settings with ${fmtInt(bytes)} bytes (${why}). Change the field to try another size.`,
        'info',
      );
      deps.run();
    });
    return fix;
  }

  function goTo(label: string, onClick: () => void) {
    const b = h('button', { class: 'btn small', type: 'button', 'data-testid': 'error-goto' }, `Go to ${label}`);
    b.addEventListener('click', onClick);
    return b;
  }

  async function render(e: ErrorInfo | null) {
    shown = e;
    el.hidden = !e;
    el.dataset.where = e?.where ? JSON.stringify(e.where) : '';
    deps.editor.showError(null);
    if (!e) return;
    const where = h('div', { class: 'error-where-list' });
    const head = h('div', { class: 'error-head' }, h('strong', {}, TITLE[e.kind] ?? 'Error'));
    el.replaceChildren(
      head,
      h('div', { class: 'error-msg', 'data-testid': 'error-message' }, e.message),
      where,
      h(
        'div',
        { class: 'muted small' },
        store.get().view
          ? 'Your text is unchanged; the results below are from the last successful run.'
          : 'Your text is unchanged.',
      ),
    );
    const memory = e.where?.memory;
    const fix = memory ? memoryFix(memory) : null;
    if (fix) where.append(fix);
    const pageField = e.pageField ?? settingsField(e.where);
    if (pageField) {
      const field = document.querySelector<HTMLInputElement>(`[data-testid="${pageField}"]`);
      if (field)
        where.prepend(
          goTo('the field', () => {
            field.focus();
            field.select();
          }),
        );
    }
    if (!e.where) return;
    const places = await deps.locate(e.where).catch(() => [] as Place[]);
    if (shown !== e || !places.length) return;
    const first = places[0];
    head.append(
      h(
        'span',
        { class: 'error-where', 'data-testid': 'error-where' },
        first.label.startsWith('line ') ? first.label : `${first.label} · line ${first.line}`,
      ),
    );
    for (const p of places.slice(0, 8))
      where.insertBefore(
        goTo(p.label, () => deps.editor.reveal(p.from, p.to)),
        fix,
      );
    deps.editor.showError({ from: places[0].from, to: places[0].to, message: e.message });
  }

  s.subscribe((st, p) => {
    if (st.error !== p.error) void render(st.error);
    else if (st.error?.where?.memory && st.settings.capacities !== p.settings.capacities) void render(st.error);
  });
}
