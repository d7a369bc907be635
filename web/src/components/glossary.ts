// The glossary panel: every term of the graph format and of the planner, grouped by kind, with a
// filter. The editor's hover docs and completion read the same table (lib/glossary.ts).
import { GLOSSARY, KIND_LABEL, type TermKind } from '../lib/glossary';
import { h } from '../lib/format';

export function mountGlossary(root: HTMLElement) {
  root.dataset.testid = 'glossary';
  const filter = h('input', {
    type: 'search',
    class: 'glossary-filter',
    placeholder: 'Filter terms',
    'aria-label': 'Filter the glossary',
    'data-testid': 'glossary-filter',
  });
  const list = h('dl', { class: 'glossary-list' });
  const render = () => {
    const q = filter.value.trim().toLowerCase();
    const kinds = Object.keys(KIND_LABEL) as TermKind[];
    list.replaceChildren(
      ...kinds.flatMap((kind) => {
        const terms = GLOSSARY.filter(
          (t) => t.kind === kind && (!q || t.term.toLowerCase().includes(q) || t.text.toLowerCase().includes(q)),
        );
        if (!terms.length) return [];
        return [
          h('dt', { class: 'dl-head' }, KIND_LABEL[kind]),
          ...terms.flatMap((t) => [
            h('dt', { 'data-testid': 'glossary-term', id: `term-${t.term.replace(/\W+/g, '-')}` }, t.term),
            h('dd', {}, t.text),
          ]),
        ];
      }),
    );
  };
  filter.addEventListener('input', render);
  root.append(
    h(
      'p',
      { class: 'muted small' },
      'In the editor, point at a field, an op, a pipe or a memory for the same help (Ctrl/⌘+K at the cursor), and Ctrl+Space completes field names.',
    ),
    filter,
    list,
  );
  render();
}
