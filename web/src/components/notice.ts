// The notice bar under the toolbar: one message at a time, with an optional action.
import type { Store } from '../store';
import { h } from '../lib/format';

export function mountNotice(el: HTMLElement, store: Store) {
  el.setAttribute('role', 'status');
  store.subscribe((s, p) => {
    if (s.notice === p.notice) return;
    const n = s.notice;
    el.hidden = !n;
    if (!n) return;
    el.className = `notice ${n.level}`;
    const close = h('button', { class: 'icon-btn', type: 'button', 'aria-label': 'Dismiss' }, '×');
    close.addEventListener('click', () => store.set({ notice: null }));
    const parts: (Node | string)[] = [h('span', { class: 'notice-text' }, n.message)];
    if (n.action) {
      const b = h('button', { class: 'btn small', type: 'button' }, n.action.label);
      b.addEventListener('click', n.action.run);
      parts.push(b);
    }
    el.replaceChildren(...parts, close);
  });
}
