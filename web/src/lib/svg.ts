// What the page's SVG pictures (lib/chart-svg.ts, lib/timeline-svg.ts) share: escaping, and the
// document around a drawing (XML declaration, a white page, a title and a line saying how to read
// it). Light colours whatever the page's theme: slides and paper are white. Names come from the
// graph, so every text is escaped.

/** `t` safe inside SVG text and attribute values */
export const esc = (t: string) =>
  t.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

export interface SvgPicture {
  svg: string;
  width: number;
  height: number;
}

/** The SVG document (with its XML declaration) of a drawing of `width` x `height` whose body
 * starts below the title (y 22) and the line under it (y 40). */
export function svgDocument(width: number, height: number, title: string, caption: string, body: string[]): SvgPicture {
  const svg = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" fill="#1d2230">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="16" y="22" font-size="15" font-weight="650">${esc(title)}</text>`,
    `<text x="16" y="40" font-size="11.5" fill="#5b6272">${esc(caption)}</text>`,
    ...body,
    '</svg>',
  ].join('\n');
  return { svg: `${svg}\n`, width, height };
}
