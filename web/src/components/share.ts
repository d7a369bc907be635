// "Copy link": the whole case (graph, settings, and the step, spill and lesson on screen: format
// v3) compressed into the fragment; an unedited built-in example or lesson goes by its name (v6). The
// graph goes in compacted (whitespace outside strings removed) and the text worker compresses it,
// so a large graph does not hold the page. The popover says how long the link is.
import { caseJson as caseText, LINK_WARN_LENGTH, type CaseRef, type CaseView } from '../lib/share';
import { LIMITS, fmtLimit } from '../lib/limits';
import { download } from '../lib/files';
import { fmtInt, h } from '../lib/format';
import { isProgram } from '../lib/program';
import type { Store } from '../store';
import type { TextClient } from '../text/client';

export function mountShare(
  button: HTMLButtonElement,
  popover: HTMLElement,
  store: Store,
  text: TextClient,
  getText: () => string,
  getView: () => CaseView,
  getRef: () => CaseRef,
) {
  button.dataset.testid = 'share';
  button.setAttribute('aria-haspopup', 'dialog');
  button.setAttribute('aria-expanded', 'false');
  popover.dataset.testid = 'share-popover';
  popover.setAttribute('role', 'dialog');
  popover.setAttribute('aria-label', 'Link to this case');
  let open = false;
  let token = 0;
  const close = () => {
    open = false;
    token++;
    popover.hidden = true;
    button.setAttribute('aria-expanded', 'false');
  };

  button.addEventListener('click', async (e) => {
    e.stopPropagation();
    if (open) return close();
    open = true;
    const mine = ++token;
    button.setAttribute('aria-expanded', 'true');
    const graph = getText();
    const settings = store.get().settings;
    const view = getView();
    popover.replaceChildren(
      h('div', { class: 'share-title' }, 'Link to this case'),
      h('div', { class: 'muted small' }, 'Making the link…'),
    );
    popover.hidden = false;
    let link: Awaited<ReturnType<TextClient['encodeLink']>>;
    try {
      link = await text.encodeLink(graph, settings, view, getRef());
    } catch (err) {
      if (mine === token)
        popover.replaceChildren(
          h('div', { class: 'share-warn' }, `The link could not be made: ${(err as Error).message}`),
        );
      return;
    }
    if (mine !== token) return;
    const url = `${location.origin}${location.pathname}${location.search}#${link.fragment}`;
    const input = h('input', {
      class: 'share-url',
      readonly: true,
      value: url,
      'data-testid': 'share-url',
      'aria-label': 'Link to this case',
    });
    const status = h('span', { class: 'share-status', role: 'status' });
    const dl = h('button', { class: 'btn small', type: 'button' }, 'Download case (.json)');
    dl.addEventListener('click', () =>
      download('spillway-case.json', caseText(graph, settings, view), 'application/json'),
    );
    popover.replaceChildren(
      h('div', { class: 'share-title' }, 'Link to this case'),
      input,
      h(
        'div',
        { class: 'share-meta' },
        status,
        h('span', { class: 'share-length', 'data-testid': 'share-length' }, `${fmtInt(url.length)} characters`),
      ),
      h('div', { class: 'muted small' }, howItTravels(graph, link)),
    );
    if (link.fragment.length > LIMITS.linkChars) {
      popover.append(
        h(
          'div',
          { class: 'share-warn', 'data-testid': 'share-warning' },
          `This link is too long to open: pages open links of at most ${fmtLimit(LIMITS.linkChars)} characters after "#case=". Share the case as a file.`,
          h('div', {}, dl),
        ),
      );
    } else if (url.length > LINK_WARN_LENGTH) {
      popover.append(
        h(
          'div',
          { class: 'share-warn', 'data-testid': 'share-warning' },
          `Many chat tools, mail clients and servers cut links longer than ~${fmtInt(LINK_WARN_LENGTH)} characters; share the case as a file instead.`,
          h('div', {}, dl),
        ),
      );
    } else popover.append(h('div', { class: 'share-foot' }, dl));
    input.select();
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = 'Copied to the clipboard';
    } catch {
      status.textContent = 'Select and copy the link (Ctrl/⌘+C)';
    }
  });
  document.addEventListener('click', (e) => {
    if (open && !popover.contains(e.target as Node) && e.target !== button) close();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && open) {
      close();
      button.focus();
    }
  });
}

/** How the graph goes in the link: by name, compacted, or as typed. */
function howItTravels(graph: string, link: { graphChars: number; compacted: boolean; named: boolean }): string {
  if (link.named) return 'The link names the example or lesson: its graph comes with the page.';
  if (link.compacted)
    return `The graph travels without its whitespace (${fmtInt(graph.length - link.graphChars)} characters fewer) and is laid out again when the link is opened.`;
  return isProgram(graph)
    ? 'The program travels exactly as typed.'
    : 'The graph is not valid JSON, so it travels exactly as typed.';
}
