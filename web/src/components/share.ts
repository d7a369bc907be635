// "Copy link": the whole case (graph text + settings, format v2) compressed into the fragment.
import { caseJson as caseText, encodeCase, LINK_WARN_LENGTH } from '../lib/share';
import { download } from '../lib/files';
import { h } from '../lib/format';
import type { Store } from '../store';

export function mountShare(button: HTMLButtonElement, popover: HTMLElement, store: Store, getText: () => string) {
  button.dataset.testid = 'share';
  popover.dataset.testid = 'share-popover';
  let open = false;
  const close = () => { open = false; popover.hidden = true; };

  button.addEventListener('click', async (e) => {
    e.stopPropagation();
    if (open) return close();
    const graph = getText();
    const settings = store.get().settings;
    const url = `${location.origin}${location.pathname}${location.search}#${encodeCase(graph, settings)}`;
    const input = h('input', { class: 'share-url', readonly: true, value: url, 'data-testid': 'share-url', 'aria-label': 'Link to this case' });
    const status = h('span', { class: 'share-status' });
    const caseJson = () => download('spillway-case.json', caseText(graph, settings), 'application/json');
    const dl = h('button', { class: 'btn small', type: 'button' }, 'Download case (.json)');
    dl.addEventListener('click', caseJson);
    popover.replaceChildren(
      h('div', { class: 'share-title' }, 'Link to this case'),
      input,
      h('div', { class: 'share-meta' }, status, h('span', { class: 'muted small' }, `${url.length.toLocaleString('en-US')} characters`)),
    );
    if (url.length > LINK_WARN_LENGTH) {
      popover.append(h('div', { class: 'share-warn', 'data-testid': 'share-warning' },
        `This link is ${url.length.toLocaleString('en-US')} characters long. Many chat tools, mail clients and servers cut links longer than ~8000 characters; share the case as a file instead.`,
        h('div', {}, dl)));
    } else popover.append(h('div', { class: 'share-foot' }, dl));
    popover.hidden = false;
    open = true;
    input.select();
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = 'Copied to the clipboard';
    } catch {
      status.textContent = 'Select and copy the link (Ctrl/⌘+C)';
    }
  });
  document.addEventListener('click', (e) => { if (open && !popover.contains(e.target as Node) && e.target !== button) close(); });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && open) close(); });
}
