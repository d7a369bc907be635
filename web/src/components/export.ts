// "SVG" and "PNG" by the memory chart: the memory at the cursor as a picture for a slide or a
// handout (lib/chart-svg.ts draws it; the PNG is that SVG painted at twice its size).
import type { Store } from '../store';
import { memorySvg } from '../lib/chart-svg';
import { describeStep, memoryTypes, stateAt } from '../lib/steps';
import { download } from '../lib/files';
import { h } from '../lib/format';

const PNG_SCALE = 2;

function snapshot(store: Store) {
  const s = store.get();
  const v = s.view;
  if (!v?.order.length) return null;
  const step = Math.min(Math.max(0, s.cursor), v.order.length - 1);
  const types = memoryTypes(
    v,
    s.settings.capacities.map((e) => e[0]),
  );
  return {
    step,
    ...memorySvg({ step, steps: v.order.length, node: describeStep(v, step), memories: stateAt(v, step, types) }),
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

export function mountExport(host: HTMLElement, store: Store, notify: (m: string) => void) {
  const button = (kind: string) =>
    h(
      'button',
      {
        class: 'btn small',
        type: 'button',
        'data-testid': `export-${kind}`,
        title: `Download the memory at the cursor as ${kind.toUpperCase()} (for slides and handouts)`,
        'aria-label': `Download the memory at the cursor as ${kind.toUpperCase()}`,
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
    if (snap) download(`spillway-memory-step${snap.step}.svg`, snap.svg, 'image/svg+xml');
  });
  pngBtn.addEventListener('click', async () => {
    const snap = snapshot(store);
    if (!snap) return;
    try {
      download(`spillway-memory-step${snap.step}.png`, await svgToPng(snap.svg, snap.width, snap.height), 'image/png');
    } catch (e) {
      notify(`The PNG could not be made: ${(e as Error).message}`);
    }
  });
}
