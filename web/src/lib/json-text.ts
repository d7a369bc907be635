// JSON as text, without parsing it into values: whitespace removed (links), a readable layout
// (a link's graph in the editor), and the text range of a value named by its path (error places).
// Byte-for-byte faithful: numbers, escapes and key order stay exactly as written.

const QUOTE = 34,
  BACKSLASH = 92,
  COMMA = 44,
  COLON = 58;
const OPEN_OBJ = 123,
  CLOSE_OBJ = 125,
  OPEN_ARR = 91,
  CLOSE_ARR = 93;
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** Index just past the string literal that starts at `i` (a quote). */
function stringEnd(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return t.length;
}

/** The text without whitespace outside strings. Only for valid JSON (`1 2` would become `12`). */
export function compactJson(text: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (isSpace(c)) {
      if (i > from) parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts.join('');
}

/** End (exclusive) of the value starting at `i` in compact JSON. */
function valueEnd(t: string, i: number): number {
  let depth = 0;
  for (let j = i; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === QUOTE) {
      j = stringEnd(t, j) - 1;
      if (depth === 0) return j + 1;
    } else if (c === OPEN_OBJ || c === OPEN_ARR) depth++;
    else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
      if (depth === 0) return j;
      if (--depth === 0) return j + 1;
    } else if (c === COMMA && depth === 0) return j;
  }
  return t.length;
}

/** A compact value on one line, with a space after each ',' and ':' outside strings. */
function spaced(t: string, from: number, to: number): string {
  let out = '';
  let seg = from;
  for (let j = from; j < to; j++) {
    const c = t.charCodeAt(j);
    if (c === QUOTE) j = stringEnd(t, j) - 1;
    else if (c === COMMA || c === COLON) {
      out += t.slice(seg, j + 1) + ' ';
      seg = j + 1;
    }
  }
  return out + t.slice(seg, to);
}

const WIDTH = 100;

/**
 * A readable layout of compact JSON, like the built-in examples': the top-level object one member
 * a line, its arrays one object a line ("Nodes") or packed to ~100 columns ("Edges", "Order"),
 * everything deeper on one line.
 */
export function layoutJson(t: string): string {
  const out: string[] = [];
  const top = t.charCodeAt(0);
  if (top !== OPEN_OBJ || t.length < 2) return t;
  out.push('{\n');
  let i = 1;
  let first = true;
  while (i < t.length && t.charCodeAt(i) !== CLOSE_OBJ) {
    if (!first) out.push(',\n');
    first = false;
    const keyEnd = stringEnd(t, i);
    out.push(' ', t.slice(i, keyEnd), ': ');
    i = keyEnd + 1; // past ':'
    const end = valueEnd(t, i);
    if (t.charCodeAt(i) === OPEN_ARR && end - i > WIDTH) out.push(layoutArray(t, i, end));
    else out.push(spaced(t, i, end));
    i = end;
    if (t.charCodeAt(i) === COMMA) i++;
  }
  out.push('\n}\n');
  return out.join('');
}

function layoutArray(t: string, from: number, to: number): string {
  const lines: string[] = [];
  let line = '';
  let i = from + 1;
  while (i < to - 1) {
    const end = valueEnd(t, i);
    const item = spaced(t, i, end);
    const own = t.charCodeAt(i) === OPEN_OBJ;
    if (line && (own || line.length + item.length + 2 > WIDTH)) {
      lines.push(line);
      line = '';
    }
    line += line ? `, ${item}` : item;
    if (own) {
      lines.push(line);
      line = '';
    }
    i = end + 1;
  }
  if (line) lines.push(line);
  return `[\n  ${lines.join(',\n  ')}\n ]`;
}

export type JsonPath = readonly (string | number)[];

/**
 * Walks the values of a JSON text in order: visit(path, from, to) for each (a container after its
 * contents). Stops when visit returns true. Keys are decoded only when they hold no escape.
 */
export function walkJson(t: string, visit: (path: JsonPath, from: number, to: number) => boolean | undefined): void {
  const path: (string | number)[] = [];
  const frames: { obj: boolean; from: number; empty: boolean }[] = [];
  let i = 0;
  const skip = () => {
    while (i < t.length && isSpace(t.charCodeAt(i))) i++;
  };
  const readKey = (): boolean => {
    skip();
    if (t.charCodeAt(i) !== QUOTE) return false;
    const end = stringEnd(t, i);
    path.push(t.slice(i + 1, end - 1));
    i = end;
    skip();
    if (t.charCodeAt(i) !== COLON) return false;
    i++;
    return true;
  };
  for (;;) {
    // a value starts here
    skip();
    if (i >= t.length) return;
    const c = t.charCodeAt(i);
    if (c === OPEN_OBJ || c === OPEN_ARR) {
      const open = i++;
      skip();
      const empty = t.charCodeAt(i) === (c === OPEN_OBJ ? CLOSE_OBJ : CLOSE_ARR);
      frames.push({ obj: c === OPEN_OBJ, from: open, empty });
      if (!empty) {
        if (c === OPEN_ARR) path.push(0);
        else if (!readKey()) return;
        continue;
      }
    } else {
      const from = i;
      i = c === QUOTE ? stringEnd(t, i) : valueEnd(t, i);
      while (i > from && isSpace(t.charCodeAt(i - 1))) i--;
      if (visit(path, from, i)) return;
    }
    // after a value: ',' continues the container, a bracket closes it (maybe several)
    for (;;) {
      skip();
      const frame = frames[frames.length - 1];
      if (!frame) return;
      const d = t.charCodeAt(i);
      if (d === COMMA) {
        i++;
        if (frame.obj) {
          path.pop();
          if (!readKey()) return;
        } else (path[path.length - 1] as number)++;
        break;
      }
      if (d !== (frame.obj ? CLOSE_OBJ : CLOSE_ARR)) return;
      i++;
      frames.pop();
      if (!frame.empty) path.pop();
      if (visit(path, frame.from, i)) return;
    }
  }
}

/** Text range [from, to) of the value at `path`, or null. */
export function rangeOfPath(t: string, target: JsonPath): { from: number; to: number } | null {
  let found: { from: number; to: number } | null = null;
  walkJson(t, (path, from, to) => {
    if (path.length === target.length && path.every((p, k) => p === target[k])) {
      found = { from, to };
      return true;
    }
    return false;
  });
  return found;
}

/** Index in "Nodes" of the first node whose `key` is the literal `value` (as JSON text), or -1. */
export function nodeIndexWhere(t: string, key: string, value: string): number {
  let index = -1;
  walkJson(t, (path, from, to) => {
    if (path.length === 3 && path[0] === 'Nodes' && path[2] === key && t.slice(from, to) === value) {
      index = path[1] as number;
      return true;
    }
    return false;
  });
  return index;
}
