// The caption above the editor: where the graph came from ("Example: One spill", "Pasted graph",
// "File: x.json"), marked "edited" once the text changed, with the example's full description
// (two lines, then "Show all" — a button, so a keyboard or a phone reaches it, not a tooltip).
import type { Store } from '../store';
import { h } from '../lib/format';

/** `kind` is the editor card's title: "Program" while the text is one, else "Graph". */
export function mountSource(el: HTMLElement, examples: HTMLSelectElement, kind: HTMLElement, store: Store) {
  const render = () => {
    const src = store.get().source;
    el.hidden = !src;
    el.dataset.example = src?.example ?? ''; // tests wait for the example that is really loaded
    examples.value = src?.example && !src.edited ? src.example : '';
    if (!src) return;
    const title = h(
      'div',
      { class: 'source-title' },
      h('strong', {}, src.title),
      src.edited ? h('span', { class: 'source-edited', 'data-testid': 'source-edited' }, 'edited') : null,
    );
    if (!src.description) {
      el.replaceChildren(title);
      return;
    }
    const text = h(
      'p',
      { class: 'source-text clamped', id: 'source-text', 'data-testid': 'source-description' },
      src.description,
    );
    const more = h(
      'button',
      {
        class: 'link-btn',
        type: 'button',
        'aria-expanded': 'false',
        'aria-controls': 'source-text',
        'data-testid': 'source-more',
      },
      'Show all',
    );
    more.addEventListener('click', () => {
      const open = text.classList.toggle('clamped') === false;
      more.setAttribute('aria-expanded', String(open));
      more.textContent = open ? 'Show less' : 'Show all';
    });
    el.replaceChildren(title, text, more);
    // the button only where the text is cut
    requestAnimationFrame(() => {
      more.hidden = text.scrollHeight <= text.clientHeight + 1;
    });
  };
  store.subscribe((s, p) => {
    if (s.source !== p.source) render();
    if (s.graphInfo?.program !== p.graphInfo?.program) kind.textContent = s.graphInfo?.program ? 'Program' : 'Graph';
  });
  render();
}
