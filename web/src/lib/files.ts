// Contest output files and browser downloads.
import type { PlanResult, PlanView } from '../engine/types';

const texts = new WeakMap<PlanView, string>();
/** The result JSON text, decoded on first use (downloads, the scripting hook). */
export function resultText(v: PlanView): string {
  let t = texts.get(v);
  if (t === undefined) texts.set(v, (t = new TextDecoder().decode(v.resultBytes)));
  return t;
}

const parsed = new WeakMap<PlanView, PlanResult>();
/** The whole result, parsed from its text on first use (decisions, allocations, edges). */
export function fullResult(v: PlanView): PlanResult {
  let r = parsed.get(v);
  if (!r) {
    r = JSON.parse(resultText(v)) as PlanResult;
    parsed.set(v, r);
  }
  return r;
}

export function scheduleTxt(r: PlanResult): string {
  return r.order.join('\n') + '\n';
}

export function memoryTxt(r: PlanResult): string {
  return (
    [...r.allocations]
      .sort((a, b) => a.buf - b.buf)
      .map((a) => `${a.buf}:${a.offset}`)
      .join('\n') + '\n'
  );
}

export function spillTxt(r: PlanResult): string {
  return r.spills.map((s) => `${s.buf}:${s.newOffset}`).join('\n') + (r.spills.length ? '\n' : '');
}

export function download(name: string, content: string | Blob, type = 'text/plain') {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** An order file: one node id a line (blank lines and #-comments ignored). */
export function parseOrderFile(text: string): number[] {
  const ids: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const t = line.replace(/#.*/, '').trim();
    if (!t) return;
    if (!/^\d+$/.test(t)) throw new Error(`line ${i + 1}: "${t.slice(0, 40)}" is not a node id`);
    ids.push(Number(t));
  });
  if (!ids.length) throw new Error('the file holds no node ids');
  return ids;
}

export function readFile(file: File): Promise<string> {
  return file.text();
}
