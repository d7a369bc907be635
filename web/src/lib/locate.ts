// From an engine error's `where` (docs/result-format.md, "Errors") to places in the graph text:
// what the error panel's "Go to" buttons and the editor's diagnostic point at. Structured members
// (node, field, edge, memory, buffer, cycle) give the whole value; line/column is the fallback.
import type { ErrorWhere } from '../store';
import { nodeIndexWhere, rangeOfPath, type JsonPath } from './json-text';

export interface Place {
  label: string; // "node 7 · Size", "edge 4", "line 3, column 12"
  from: number;
  to: number;
  line: number;
}

/** "Bufs[2]" -> ['Bufs', 2]; "Capacities.UB" -> ['Capacities', 'UB']. */
export function fieldPath(field: string): JsonPath {
  const path: (string | number)[] = [];
  for (const part of field.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) return [field];
    if (m[1]) path.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) path.push(Number(idx[1]));
  }
  return path;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The token at 1-based line/column (the rest of the line without a column). */
function rangeAt(text: string, line: number, column?: number): { from: number; to: number } | null {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return null;
    start = nl + 1;
  }
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  if (!column) return { from: start, to: end };
  const from = Math.min(end, start + Math.max(0, column - 1));
  let to = from;
  if (text[to] === '"') {
    for (to++; to < end && text[to] !== '"'; to++) if (text[to] === '\\') to++;
    to++;
  } else while (to < end && !/[\s,:\]}[{]/.test(text[to])) to++;
  return { from, to: Math.max(to, Math.min(end, from + 1)) };
}

const nodeRange = (text: string, index: number, path: JsonPath = []) =>
  (path.length ? rangeOfPath(text, ['Nodes', index, ...path]) : null) ?? rangeOfPath(text, ['Nodes', index]);

export function locate(text: string, where: ErrorWhere): Place[] {
  if (where.source && where.source !== 'graph') return []; // not in the editor's text
  const places: Place[] = [];
  const add = (label: string, r: { from: number; to: number } | null) => {
    if (r && !places.some((p) => p.label === label)) places.push({ label, ...r, line: lineOf(text, r.from) });
  };
  const path = where.field ? fieldPath(where.field) : [];
  const fieldLabel = where.field ? ` · ${where.field}` : '';
  if (where.node !== undefined || where.nodeIndex !== undefined) {
    const index = where.nodeIndex ?? nodeIndexWhere(text, 'Id', String(where.node));
    if (index >= 0)
      add(
        `${where.node !== undefined ? `node ${where.node}` : `node #${index + 1} in Nodes`}${fieldLabel}`,
        nodeRange(text, index, path),
      );
  } else if (where.edge !== undefined) {
    add(`edge ${where.edge} in Edges`, rangeOfPath(text, ['Edges', where.edge]));
  } else if (where.field) {
    add(where.field, rangeOfPath(text, path));
  }
  if (!places.length && where.memory !== undefined) {
    const inCaps = rangeOfPath(text, ['Capacities', where.memory]);
    const index = inCaps ? -1 : nodeIndexWhere(text, 'Type', JSON.stringify(where.memory));
    add(`memory ${where.memory}`, inCaps ?? (index >= 0 ? nodeRange(text, index, ['Type']) : null));
  }
  if (!places.length && where.buffer !== undefined) {
    const index = nodeIndexWhere(text, 'BufId', String(where.buffer));
    if (index >= 0) add(`buffer ${where.buffer}`, nodeRange(text, index));
  }
  for (const id of where.cycle ?? []) {
    const index = nodeIndexWhere(text, 'Id', String(id));
    if (index >= 0) add(`node ${id}`, nodeRange(text, index));
  }
  if (!places.length && where.line)
    add(`line ${where.line}${where.column ? `, column ${where.column}` : ''}`, rangeAt(text, where.line, where.column));
  return places;
}
