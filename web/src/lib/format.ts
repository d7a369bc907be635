const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
/** 12,345 (one formatter for the page: toLocaleString builds a new one on every call). */
export const fmtInt = (n: number) => intFormat.format(n);

// One way to write quantities everywhere on the page: whole numbers with thousands separators,
// sizes in bytes ("4,096 B"). Ids and step numbers are names, written without separators.
export const fmtBytes = (n: number) => `${fmtInt(n)} B`;

export const fmtMs = (ms: number) => (ms < 10 ? ms.toFixed(1) : Math.round(ms).toString()) + ' ms';

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | undefined> = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'class') el.className = String(v);
    else if (k === 'text') el.textContent = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** The nodes among `xs` (for replaceChildren() and lists built with conditions). */
export const present = (...xs: (Node | null | undefined | false)[]): Node[] => xs.filter((x): x is Node => !!x);
