// Results that no longer match the editor and settings: every result card is marked out of date
// (dimmed, a label in its corner, data-stale for tests and assistive text), and a bar above the
// results says why, with Run.
import { resultStale, compareStale, type Store } from '../store';
import { h } from '../lib/format';

export function mountStale(
  bar: HTMLElement,
  cards: HTMLElement[],
  compareCard: HTMLElement,
  editorStatus: HTMLElement,
  store: Store,
  run: () => void,
) {
  const runBtn = h('button', { class: 'btn small primary', type: 'button' }, 'Run');
  runBtn.addEventListener('click', run);
  const why = h('span', { 'data-testid': 'stale-reason' });
  bar.replaceChildren(h('strong', {}, 'Out of date'), why, runBtn);
  const mark = (card: HTMLElement, stale: boolean) => {
    card.classList.toggle('stale', stale);
    card.dataset.stale = String(stale);
    card.setAttribute('aria-description', stale ? 'out of date' : '');
  };
  let last = '';
  store.subscribe((s) => {
    const reason = resultStale(s);
    const cmp = compareStale(s);
    const state = `${reason}|${cmp}`;
    if (state === last) return;
    last = state;
    bar.hidden = !reason || !!s.running;
    why.textContent = reason ?? '';
    for (const c of cards) mark(c, !!reason);
    mark(compareCard, cmp);
    editorStatus.textContent =
      s.view && !s.viewKey.startsWith(`${s.docVersion}|`) ? 'edited · Ctrl/⌘+Enter to run' : '';
  });
}
