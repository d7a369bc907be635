// The trade-off front: a button makes it (app/frontier.ts), then a plot of data moved against
// cycles with one mark per point and, below, the same points as a list; a mark or a list entry
// opens that point's plan (it sets the objective and margin that made it). The plan on screen is
// marked. A front made for another graph or other settings says so and offers to make it again.
// While its runs go on, the front of those made so far is shown; Cancel keeps it, marked stopped.
import { fmtInt, h } from '../lib/format';
import { FRONT_PLOT, currentPoint, plotPoints, pointLabel, pointRun } from '../lib/frontier';
import { frontierKey, type FrontierState, type State, type Store } from '../store';
import type { FrontierPoint } from '../engine/types';

export interface FrontierHandlers {
  run(): void;
  cancel(): void;
  open(point: FrontierPoint): void;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
function svg(tag: string, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** Enter or Space on a focused mark opens it, as a click does. */
function activates(el: Element, open: () => void) {
  el.addEventListener('click', open);
  el.addEventListener('keydown', (e) => {
    const k = (e as KeyboardEvent).key;
    if (k === 'Enter' || k === ' ') {
      e.preventDefault();
      open();
    }
  });
}

/** Arrow keys (and Home, End) move the focus along the marks: the plot is one tab stop, the one
 * mark that has tabindex 0 (the list below is the other way to reach each point). */
function roving(marks: SVGElement[]) {
  for (const [i, mark] of marks.entries())
    mark.addEventListener('keydown', (e) => {
      const move = MOVES[(e as KeyboardEvent).key];
      if (!move) return;
      e.preventDefault();
      const next = marks[Math.max(0, Math.min(marks.length - 1, move(i, marks.length)))];
      for (const m of marks) m.setAttribute('tabindex', m === next ? '0' : '-1');
      (next as unknown as HTMLElement).focus();
    });
}
const MOVES: Record<string, (at: number, count: number) => number> = {
  ArrowRight: (at) => at + 1,
  ArrowDown: (at) => at + 1,
  ArrowLeft: (at) => at - 1,
  ArrowUp: (at) => at - 1,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/** The plot: axes with the ranges' ends, the front as a line, a focusable mark per point. */
function plot(points: FrontierPoint[], current: number, on: FrontierHandlers): SVGElement {
  const f = FRONT_PLOT;
  const { at, x, y } = plotPoints(points);
  const bottom = f.height - f.bottom;
  const stop = Math.max(current, 0); // the mark Tab reaches (current is -1 when none is on screen)
  const marks = points.map((p, i) => {
    const mark = svg(
      'g',
      {
        class: `front-mark${i === current ? ' current' : ''}`,
        tabindex: i === stop ? 0 : -1,
        role: 'button',
        'aria-label': `Open the plan: ${pointLabel(p)}`,
        'data-testid': 'front-mark',
      },
      svg('title', {}, pointLabel(p)),
      svg('circle', { cx: at[i].x, cy: at[i].y, r: i === current ? 7 : 5.5 }),
    );
    activates(mark, () => on.open(p));
    return mark;
  });
  roving(marks);
  return svg(
    'svg',
    {
      class: 'front-plot',
      viewBox: `0 0 ${f.width} ${f.height}`,
      role: 'group',
      'aria-label': 'The trade-off front: data moved against cycles',
    },
    svg('line', { class: 'front-axis', x1: f.left, y1: bottom, x2: f.width - f.right, y2: bottom }),
    svg('line', { class: 'front-axis', x1: f.left, y1: f.top, x2: f.left, y2: bottom }),
    svg('text', { class: 'front-tick', x: f.left, y: bottom + 14 }, fmtInt(x.lo)),
    svg('text', { class: 'front-tick end', x: f.width - f.right, y: bottom + 14 }, fmtInt(x.hi)),
    svg('text', { class: 'front-title', x: (f.left + f.width) / 2, y: f.height - 4 }, 'data moved (bytes)'),
    svg('text', { class: 'front-tick end', x: f.left - 6, y: bottom - 2 }, fmtInt(y.lo)),
    svg('text', { class: 'front-tick end', x: f.left - 6, y: f.top + 10 }, fmtInt(y.hi)),
    svg('text', { class: 'front-title', x: f.left - 6, y: (f.top + bottom) / 2, 'text-anchor': 'end' }, 'cycles'),
    svg('polyline', { class: 'front-line', points: at.map((a) => `${a.x},${a.y}`).join(' ') }),
    ...marks,
  );
}

/** The points as a list, each a button that opens its plan. */
function list(points: FrontierPoint[], current: number, on: FrontierHandlers): HTMLElement {
  return h(
    'ol',
    { class: 'front-list' },
    ...points.map((p, i) => {
      const b = h(
        'button',
        {
          class: `btn small${i === current ? ' current' : ''}`,
          'data-testid': 'front-point',
          'data-objective': p.objective,
          'data-margin': p.marginPercent,
          'aria-current': i === current ? 'true' : undefined,
        },
        `${fmtInt(p.extraBytes)} B, ${fmtInt(p.totalCycles)} cycles`,
      );
      b.addEventListener('click', () => on.open(p));
      return h('li', {}, b, h('span', { class: 'muted' }, ` ${pointRun(p)}${i === current ? ' (on screen)' : ''}`));
    }),
  );
}

/** The line above the front: how far its runs are, how many plans it holds, and for what. */
function statusText(f: FrontierState, fresh: boolean): string {
  const plans = `${f.points.length === 1 ? 'one plan' : `${f.points.length} plans`} no other beats on both data moved and cycles`;
  const runs = f.runs ? `${f.runs.made} of ${f.runs.of} runs` : '';
  const forWhat = fresh ? '' : ', for another graph or other settings';
  if (f.status === 'running')
    return f.points.length
      ? `Making the front, ${runs} made: so far ${plans}${forWhat}. Open one to see it.`
      : 'Making the front: the bytes plan and the cycles objective at margins 0, 5, 10, 20, 40, 80 and 1000%, each verified…';
  const open = `${f.status === 'stopped' ? `Stopped after ${runs}: ` : ''}${plans}${forWhat}. Open one to see it.`;
  return open[0].toUpperCase() + open.slice(1);
}

/** What the section shows under its button: nothing yet, the run under way, its failure, or the
 * front (so far, while its runs go on or after Cancel). */
function body(s: State, on: FrontierHandlers): (HTMLElement | SVGElement)[] {
  const f = s.frontier;
  if (!f) return [];
  if (f.status === 'error')
    return [h('p', { class: 'placeholder small-ph', 'data-testid': 'front-status' }, `The front failed: ${f.message}`)];
  const fresh = f.key === frontierKey(s);
  const status = h('p', { class: 'muted', 'data-testid': 'front-status' }, statusText(f, fresh));
  if (!f.points.length) return [status];
  const m = s.view?.meta;
  const current = m && fresh ? currentPoint(f.points, m.objective, m.metrics) : -1;
  return [status, plot(f.points, current, on), list(f.points, current, on)];
}

export function mountFrontier(root: HTMLElement, store: Store, on: FrontierHandlers) {
  root.dataset.testid = 'frontier';
  const render = () => {
    const s = store.get();
    const f = s.frontier;
    const running = f?.status === 'running';
    const fresh = f?.status === 'done' && f.key === frontierKey(s);
    const button = h(
      'button',
      {
        class: 'btn',
        'data-testid': running ? 'front-cancel' : 'front-run',
        // made already for what is on screen, or a setting that cannot be used (the panel names it)
        disabled: !running && (fresh || s.fieldErrors.length > 0) ? true : undefined,
        title: !running && s.fieldErrors.length ? 'A setting is invalid: see the settings' : undefined,
      },
      running ? 'Cancel' : f ? 'Make the front again' : 'Trade-off front',
    );
    button.addEventListener('click', () => (running ? on.cancel() : on.run()));
    // a render replaces the controls: the one that had the focus (a mark opened by Enter) keeps it
    const controls = () => [...root.querySelectorAll<HTMLElement | SVGElement>('button, [tabindex]')];
    const focused = controls().indexOf(document.activeElement as HTMLElement);
    root.replaceChildren(
      h(
        'div',
        { class: 'front-head' },
        button,
        h(
          'span',
          { class: 'muted small' },
          'the bytes plan and the cycles objective at margins 0 to 80% and 1000%: the plans no other beats on both',
        ),
      ),
      ...body(s, on),
    );
    if (focused >= 0) controls()[focused]?.focus();
  };
  store.subscribe((s, p) => {
    if (
      s.frontier !== p.frontier ||
      s.view !== p.view ||
      s.docVersion !== p.docVersion ||
      s.settings !== p.settings ||
      s.fieldErrors !== p.fieldErrors
    )
      render();
  });
  render();
}
