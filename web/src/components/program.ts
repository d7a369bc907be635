// The rewritten program (a program's result, `program.lines`): the program with each value's
// register (or cache place) and the inserted `spill` / `reload` lines, marked. The step cursor's
// line is highlighted as it moves; a click on a line moves the cursor to its step, as the order
// table does. Hidden when the plan on screen is not a program's.
import type { Store } from '../store';
import type { PlanView } from '../engine/types';
import { lineAtStep, lineKind, reloadLines, type ProgramLine } from '../lib/program';
import { fmtInt, h } from '../lib/format';

/** The most lines drawn (a longer program's rest is in result.json). */
const MAX_LINES = 5000;

const isAlloc = (v: PlanView, step: number) => v.nodes.strings[v.nodes.op[v.order[step]]] === 'ALLOC';

function lineItem(line: ProgramLine, goTo: (step: number) => void): HTMLElement {
  const kind = lineKind(line);
  const item = h(
    'li',
    { class: `pl pl-${kind}`, 'data-testid': 'program-line', 'data-kind': kind, 'data-step': line.step },
    h('code', {}, line.text),
  );
  if (line.step >= 0) {
    item.title = `Step ${line.step}: click to move the step cursor here`;
    item.addEventListener('click', () => goTo(line.step));
  }
  return item;
}

/** "12 lines · 2 spills · 2 reloads · registers" */
function info(lines: readonly ProgramLine[], unit: string): HTMLElement {
  const spills = lines.filter((l) => lineKind(l) === 'spill').length;
  const reloads = reloadLines(lines);
  return h(
    'p',
    { class: 'muted small' },
    `${fmtInt(lines.length)} lines · ${fmtInt(spills)} spill${spills === 1 ? '' : 's'} · `,
    h(
      'span',
      { 'data-testid': 'program-reloads', 'data-count': reloads },
      `${fmtInt(reloads)} reload${reloads === 1 ? '' : 's'}`,
    ),
    ` · ${unit === 'cache' ? 'the cache: each value at its byte address' : 'each value in its register'}`,
  );
}

export function mountProgramView(card: HTMLElement, root: HTMLElement, store: Store, goTo: (step: number) => void) {
  root.dataset.testid = 'program-view';
  let items: HTMLElement[] = [];
  let current = -1;
  const list = h('ol', {
    class: 'program-lines',
    tabindex: 0,
    'aria-label': 'The rewritten program: ↑/↓ move the step cursor to the previous or next line',
  });
  list.addEventListener('keydown', (e) => {
    const lines = store.get().view?.program?.lines ?? [];
    const by = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (!by) return;
    e.preventDefault();
    for (let i = current + by; i >= 0 && i < lines.length; i += by) if (lines[i].step >= 0) return goTo(lines[i].step);
  });

  const follow = () => {
    const s = store.get();
    const v = s.view;
    if (!v?.program) return;
    const at = lineAtStep(v.program.lines, s.cursor, isAlloc(v, s.cursor));
    if (at === current) return;
    items[current]?.classList.remove('cursor');
    items[current]?.removeAttribute('aria-current');
    current = at < items.length ? at : -1;
    const el = items[current];
    if (!el) return;
    el.classList.add('cursor');
    el.setAttribute('aria-current', 'step');
    // keep the line in view inside the list, never scrolling the page
    if (el.offsetTop < list.scrollTop) list.scrollTop = el.offsetTop;
    else if (el.offsetTop + el.offsetHeight > list.scrollTop + list.clientHeight)
      list.scrollTop = el.offsetTop + el.offsetHeight - list.clientHeight;
  };

  const render = () => {
    const program = store.get().view?.program;
    card.hidden = !program;
    current = -1;
    if (!program) {
      items = [];
      return root.replaceChildren();
    }
    items = program.lines.slice(0, MAX_LINES).map((l) => lineItem(l, goTo));
    list.replaceChildren(...items);
    root.replaceChildren(
      info(program.lines, program.unit),
      list,
      program.lines.length > MAX_LINES
        ? h(
            'p',
            { class: 'muted small' },
            `…and ${fmtInt(program.lines.length - MAX_LINES)} more lines (in result.json)`,
          )
        : '',
    );
    follow();
  };
  store.subscribe((s, p) => {
    if (s.view !== p.view) render();
    else if (s.cursor !== p.cursor) follow();
  });
  render();
}
