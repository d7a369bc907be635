// "SVG" and "PNG" by the memory chart and by the pipe timeline: the picture at the cursor for a
// slide or a handout (lib/chart-svg.ts and lib/timeline-svg.ts draw them; the PNG is the SVG
// painted at twice its size). While a question is open (hiddenFrom) the timeline's picture ends
// before what the page keeps hidden.
import type { Store } from '../store';
import { memorySvg } from '../lib/chart-svg';
import { timelineSvg } from '../lib/timeline-svg';
import type { SvgPicture } from '../lib/svg';
import { describeStep, memoryTypes, stateAt } from '../lib/steps';
import { download } from '../lib/files';
import { h } from '../lib/format';
import { hiddenFrom } from '../app/stepping';
import { lanesUpTo } from './timeline-model';

const PNG_SCALE = 2;

/** A picture to download: its file name without extension, and the SVG. */
type Snapshot = SvgPicture & { name: string };

function memorySnapshot(store: Store): Snapshot | null {
  const s = store.get();
  const v = s.view;
  if (!v?.order.length) return null;
  const step = Math.min(Math.max(0, s.cursor), v.order.length - 1);
  const types = memoryTypes(
    v,
    s.settings.capacities.map((e) => e[0]),
  );
  // the node at a step an open question hides would name its answer (a SPILL_OUT's buffer)
  const node = step < hiddenFrom(s) ? describeStep(v, step) : 'a decision: what will it be?';
  return {
    name: `spillway-memory-step${step}`,
    ...memorySvg({ step, steps: v.order.length, node, memories: stateAt(v, step, types) }),
  };
}

/** The timeline up to the cursor, or up to the step before those an open question hides. */
function timelineSnapshot(store: Store): Snapshot | null {
  const s = store.get();
  const v = s.view;
  if (!v?.order.length) return null;
  const step = Math.min(Math.max(0, s.cursor), v.order.length - 1, hiddenFrom(s) - 1);
  return {
    name: `spillway-timeline-step${step}`,
    ...timelineSvg({
      step,
      steps: v.order.length,
      node: step >= 0 ? describeStep(v, step) : '',
      lanes: lanesUpTo(v, step),
    }),
  };
}

async function svgToPng(svg: string, width: number, height: number): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = h('canvas', { width: width * PNG_SCALE, height: height * PNG_SCALE });
    canvas.getContext('2d')!.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser made no PNG'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** SVG and PNG buttons in `host` (test ids `${testPrefix}-svg`, `${testPrefix}-png`) that download
 * `snapshot`'s picture; `what` names it in their titles. */
function mountExportButtons(
  host: HTMLElement,
  store: Store,
  notify: (m: string) => void,
  testPrefix: string,
  what: string,
  snapshot: (store: Store) => Snapshot | null,
) {
  const button = (kind: string) =>
    h(
      'button',
      {
        class: 'btn small',
        type: 'button',
        'data-testid': `${testPrefix}-${kind}`,
        title: `Download ${what} as ${kind.toUpperCase()} (for slides and handouts)`,
        'aria-label': `Download ${what} as ${kind.toUpperCase()}`,
      },
      kind.toUpperCase(),
    );
  const svgBtn = button('svg');
  const pngBtn = button('png');
  host.classList.add('export-buttons');
  host.append(svgBtn, pngBtn);
  const sync = () => {
    const off = !store.get().view;
    svgBtn.disabled = off;
    pngBtn.disabled = off;
  };
  store.subscribe((s, p) => {
    if (s.view !== p.view) sync();
  });
  sync();
  svgBtn.addEventListener('click', () => {
    const snap = snapshot(store);
    if (snap) download(`${snap.name}.svg`, snap.svg, 'image/svg+xml');
  });
  pngBtn.addEventListener('click', async () => {
    const snap = snapshot(store);
    if (!snap) return;
    try {
      download(`${snap.name}.png`, await svgToPng(snap.svg, snap.width, snap.height), 'image/png');
    } catch (e) {
      notify(`The PNG could not be made: ${(e as Error).message}`);
    }
  });
}

export function mountExport(host: HTMLElement, store: Store, notify: (m: string) => void) {
  mountExportButtons(host, store, notify, 'export', 'the memory at the cursor', memorySnapshot);
}

export function mountTimelineExport(host: HTMLElement, store: Store, notify: (m: string) => void) {
  mountExportButtons(host, store, notify, 'timeline-export', 'the pipe timeline up to the cursor', timelineSnapshot);
}
