#!/usr/bin/env node
// contest-check: an independent checker of the contest's output files (Problem A of the 2025
// China Postgraduate Mathematical Contest in Modeling). Plain Node.js, no dependencies, and
// nothing shared with the C++ engine: it reads the graph and the three files and replays them.
//
//   node tools/contest-check.mjs GRAPH.json DIR [--caps L1=4096,UB=1024,L0A=256,L0B=256,L0C=512]
//                                [--result RESULT.json]
//
// DIR holds schedule.txt (one node id a line, spill nodes included), memory.txt (BufId:Offset,
// the initial offset of every buffer) and spill.txt (BufId:NewOffset, in spill order).
// Capacities, as the engine takes them: --caps, else the graph's "Capacities", else the defaults
// below (each replaces the others whole). Exit 0 and a one-line summary when valid; exit 1 and one line per violation on stdout;
// exit 2 when an input file is unreadable or malformed (the message names file and line).
//
// Rules checked (spill k, 1-based in spill.txt order, is SPILL_OUT N+2(k-1), SPILL_IN N+2(k-1)+1):
// - schedule.txt holds every original node and every spill node exactly once, nothing else;
// - memory.txt has exactly one line per buffer; every spill.txt line names an existing buffer;
// - the order respects every graph edge and the spill edges ALLOC -> SPILL_OUT -> SPILL_IN -> FREE
//   (the edges from earlier users to the SPILL_OUT and from the SPILL_IN to later users hold by
//   construction in a linear order; the replay below checks what they protect);
// - with --result (a `spillway plan -o` file for the same plan), its "addedEdges" are exactly the
//   rule's set for these files: the contest's edges reduced to a set with the same transitive
//   closure, linear in the uses (docs/result-format.md, ruleEdges below);
// - replay: ALLOC places the buffer at its memory.txt offset, SPILL_OUT needs it resident and
//   removes it, SPILL_IN places it at its NewOffset, FREE needs it resident, every other node needs
//   all its Bufs resident; each placement lies in [0, capacity) of its Type and overlaps no
//   resident buffer of that Type; at the end every buffer is freed.
// Extra data moved = sum over spills of Size if a COPY_IN uses the buffer, else 2 * Size.
// Runs in O(n log n): resident intervals of a type live in a max segment tree over the
// (compressed) offsets that the files can place anything at.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_CAPS = Object.freeze({ L1: 4096, UB: 1024, L0A: 256, L0B: 256, L0C: 512 });

/** A malformed or unreadable input: the CLI prints it and exits 2. */
export class InputError extends Error {}

const ALLOC = 1;
const FREE = 2;
const UNALLOCATED = 0, RESIDENT = 1, SPILLED = 2, FREED = 3;

// ---- Locating things in text ----------------------------------------------------------------------

function lineAt(text, offset) {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

// Offset of the first JSON syntax error in `s` (JSON.parse does not always say where).
function jsonErrorOffset(s) {
  let i = 0;
  const fail = () => { throw i; };
  const ws = () => { while (i < s.length && ' \t\n\r'.includes(s[i])) i++; };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const str = () => {
    i++;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 34) { i++; return; }
      if (c < 32) fail();
      if (c === 92) {
        i++;
        if (s[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5))) fail();
          i += 5;
        } else if ('"\\/bfnrt'.includes(s[i]) && i < s.length) i++;
        else fail();
      } else i++;
    }
    fail();
  };
  const value = () => {
    ws();
    const c = s[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (s[i] === close) { i++; return; }
      for (;;) {
        if (c === '{') {
          ws();
          if (s[i] !== '"') fail();
          str();
          ws();
          if (s[i] !== ':') fail();
          i++;
        }
        value();
        ws();
        if (s[i] === ',') { i++; continue; }
        if (s[i] === close) { i++; return; }
        fail();
      }
    }
    if (c === '"') return str();
    for (const lit of ['true', 'false', 'null']) if (s.startsWith(lit, i)) { i += lit.length; return; }
    NUMBER.lastIndex = i;
    if (NUMBER.test(s)) { i = NUMBER.lastIndex; return; }
    fail();
  };
  try {
    value();
    ws();
    if (i < s.length) fail();
    return -1;
  } catch (e) {
    if (typeof e === 'number') return e;
    return i;  // nesting too deep for the stack: point at where it gave up
  }
}

// Offset where element `index` of the top-level object's array `key` starts, or -1. Only used
// to give error messages a line number, so a plain character scan is enough.
function elementOffset(s, key, index) {
  let depth = 0, lastString = null, inTarget = false, count = 0, awaitingStart = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
    if (inTarget && awaitingStart && depth === 2) {
      if (c === ']') return -1;
      if (count === index) return i;
      awaitingStart = false;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      if (depth === 1) lastString = s.slice(i + 1, j);
      i = j;
    } else if (c === '{' || c === '[') {
      depth++;
      if (depth === 2 && c === '[' && lastString === key) { inTarget = true; awaitingStart = true; count = 0; }
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 1 && inTarget) return -1;
    } else if (c === ',' && depth === 2 && inTarget) {
      count++;
      awaitingStart = true;
    }
  }
  return -1;
}

function describe(v) {
  const t = JSON.stringify(v);
  return t === undefined ? String(v) : t.length > 60 ? t.slice(0, 57) + '...' : t;
}

// ---- Reading the inputs ---------------------------------------------------------------------------

/** Parses "L1=4096,UB=1024" into an object. */
export function parseCapsArg(text) {
  const caps = {};
  for (const entry of String(text).split(',')) {
    if (entry.trim() === '') continue;
    const m = /^\s*([^=\s]+)\s*=\s*(\d+)\s*$/.exec(entry);
    if (!m || !Number.isSafeInteger(Number(m[2])) || Number(m[2]) <= 0)
      throw new InputError(`--caps entry "${entry}" must look like L1=4096 (a positive integer)`);
    caps[m[1]] = Number(m[2]);
  }
  if (Object.keys(caps).length === 0) throw new InputError('--caps is empty: expected e.g. L1=4096,UB=1024');
  return caps;
}

/**
 * Parses and validates a graph. Throws InputError naming `name` and a line for anything
 * malformed. Returns flat arrays: per node kind/buffer/op, CSR lists of each node's buffers,
 * per buffer id/size/type/ALLOC/FREE/COPY_IN, the edges, and the capacities in force.
 */
export function parseGraph(text, name = 'graph', capsOverride = null) {
  let root;
  try {
    root = JSON.parse(text);
  } catch {
    const at = jsonErrorOffset(text);
    const where = at >= 0 ? lineAt(text, at) : lineAt(text, text.length);
    throw new InputError(`${name} line ${where}: not valid JSON` +
      (at >= 0 && at < text.length ? ` (unexpected ${describe(text[at])})` : ' (unexpected end)'));
  }
  const bad = (what, msg, key, index) => {
    const off = key === undefined ? -1 : elementOffset(text, key, index);
    return new InputError(`${name}${off >= 0 ? ` line ${lineAt(text, off)}` : ''}: ${what} ${msg}`);
  };
  if (root === null || typeof root !== 'object' || Array.isArray(root))
    throw bad('the graph', 'must be a JSON object with "Nodes" and "Edges"');
  const nodes = root.Nodes;
  if (!Array.isArray(nodes)) throw bad('"Nodes"', 'must be an array');
  const edgesIn = root.Edges === undefined ? [] : root.Edges;
  if (!Array.isArray(edgesIn)) throw bad('"Edges"', 'must be an array');

  const N = nodes.length;
  const kind = new Uint8Array(N);          // 0 operation, ALLOC, FREE
  const nodeBuf = new Int32Array(N).fill(-1); // buffer index of an ALLOC/FREE
  const ops = new Array(N);
  const seen = new Int32Array(N).fill(-1);  // Nodes[] index of each id
  const bufIndex = new Map();               // BufId -> buffer index
  const bufId = [], bufSize = [], bufType = [], allocNode = [], freeNode = [];
  const rawBufs = new Array(N);
  const typeIndex = new Map(), typeNames = [];
  const isInt = (v) => Number.isSafeInteger(v);

  for (let i = 0; i < N; i++) {
    const n = nodes[i];
    const at = `Nodes[${i}]`;
    if (n === null || typeof n !== 'object' || Array.isArray(n)) throw bad(at, 'must be an object', 'Nodes', i);
    if (!isInt(n.Id) || n.Id < 0 || n.Id >= N)
      throw bad(at, `"Id" must be an integer in 0..${N - 1} (ids run 0..N-1), got ${describe(n.Id)}`, 'Nodes', i);
    if (seen[n.Id] !== -1) throw bad(at, `repeats Id ${n.Id} (first at Nodes[${seen[n.Id]}])`, 'Nodes', i);
    seen[n.Id] = i;
    if (typeof n.Op !== 'string' || n.Op === '') throw bad(at, `"Op" must be a non-empty string, got ${describe(n.Op)}`, 'Nodes', i);
    const id = n.Id;
    ops[id] = n.Op;
    if (n.Op === 'ALLOC' || n.Op === 'FREE') {
      if (!isInt(n.BufId) || n.BufId < 0) throw bad(at, `"BufId" must be a non-negative integer, got ${describe(n.BufId)}`, 'Nodes', i);
      if (!isInt(n.Size) || n.Size <= 0) throw bad(at, `"Size" must be a positive integer, got ${describe(n.Size)}`, 'Nodes', i);
      if (typeof n.Type !== 'string' || n.Type === '') throw bad(at, `"Type" must be a non-empty string, got ${describe(n.Type)}`, 'Nodes', i);
      let b = bufIndex.get(n.BufId);
      if (b === undefined) {
        b = bufId.length;
        bufIndex.set(n.BufId, b);
        bufId.push(n.BufId); bufSize.push(n.Size); allocNode.push(-1); freeNode.push(-1);
        let t = typeIndex.get(n.Type);
        if (t === undefined) { t = typeNames.length; typeIndex.set(n.Type, t); typeNames.push(n.Type); }
        bufType.push(t);
      } else if (bufSize[b] !== n.Size || typeNames[bufType[b]] !== n.Type) {
        throw bad(at, `buffer ${n.BufId} is ${n.Size} bytes of ${n.Type} here but ${bufSize[b]} bytes of ` +
          `${typeNames[bufType[b]]} at its other node`, 'Nodes', i);
      }
      const slot = n.Op === 'ALLOC' ? allocNode : freeNode;
      if (slot[b] !== -1) throw bad(at, `is a second ${n.Op} of buffer ${n.BufId} (first: node ${slot[b]})`, 'Nodes', i);
      slot[b] = id;
      kind[id] = n.Op === 'ALLOC' ? ALLOC : FREE;
      nodeBuf[id] = b;
    } else {
      const bufs = n.Bufs === undefined ? [] : n.Bufs;
      if (!Array.isArray(bufs) || !bufs.every((x) => isInt(x) && x >= 0))
        throw bad(at, `"Bufs" must be an array of buffer ids, got ${describe(n.Bufs)}`, 'Nodes', i);
      rawBufs[id] = bufs;
    }
  }
  const B = bufId.length;
  for (let b = 0; b < B; b++) {
    if (allocNode[b] === -1) throw bad(`buffer ${bufId[b]}`, `has a FREE (node ${freeNode[b]}) but no ALLOC`, 'Nodes', seen[freeNode[b]]);
    if (freeNode[b] === -1) throw bad(`buffer ${bufId[b]}`, `has an ALLOC (node ${allocNode[b]}) but no FREE`, 'Nodes', seen[allocNode[b]]);
  }
  // CSR of each operation node's buffers (deduplicated), and which buffers a COPY_IN uses.
  const useStart = new Int32Array(N + 1);
  for (let id = 0; id < N; id++) useStart[id + 1] = useStart[id] + (rawBufs[id] ? rawBufs[id].length : 0);
  const uses = new Int32Array(useStart[N]);
  const hasCopyIn = new Uint8Array(B);
  for (let id = 0; id < N; id++) {
    const bufs = rawBufs[id];
    if (!bufs) continue;
    let k = useStart[id];
    for (const x of bufs) {
      const b = bufIndex.get(x);
      if (b === undefined) throw bad(`Nodes[${seen[id]}]`, `uses buffer ${x}, which has no ALLOC/FREE`, 'Nodes', seen[id]);
      uses[k++] = b;
      if (ops[id] === 'COPY_IN') hasCopyIn[b] = 1;
    }
  }
  const E = edgesIn.length;
  const edgeSrc = new Int32Array(E), edgeDst = new Int32Array(E);
  for (let e = 0; e < E; e++) {
    const x = edgesIn[e];
    if (!Array.isArray(x) || x.length !== 2 || !x.every((v) => isInt(v) && v >= 0 && v < N))
      throw bad(`Edges[${e}]`, `must be [src, dst] with node ids in 0..${N - 1}, got ${describe(x)}`, 'Edges', e);
    if (x[0] === x[1]) throw bad(`Edges[${e}]`, `is a self-loop on node ${x[0]}`, 'Edges', e);
    edgeSrc[e] = x[0];
    edgeDst[e] = x[1];
  }
  // Capacities: --caps, else the graph's, else the defaults (each whole, as the engine does).
  let caps = { ...DEFAULT_CAPS };
  if (root.Capacities !== undefined) {
    const c = root.Capacities;
    if (c === null || typeof c !== 'object' || Array.isArray(c)) throw bad('"Capacities"', 'must be an object like {"L1": 4096}');
    caps = {};
    for (const [k, v] of Object.entries(c)) {
      if (!isInt(v) || v <= 0) throw bad('"Capacities"', `${k} must be a positive integer, got ${describe(v)}`);
      caps[k] = v;
    }
  }
  if (capsOverride) caps = { ...capsOverride };
  const typeCap = typeNames.map((t) => caps[t]);
  typeNames.forEach((t, i) => {
    if (typeCap[i] === undefined) {
      const b = bufType.indexOf(i);
      throw bad(`buffer ${bufId[b]}`, `has Type "${t}", which has no capacity (give one with --caps ${t}=N)`, 'Nodes', seen[allocNode[b]]);
    }
  });
  return { N, kind, nodeBuf, ops, useStart, uses, B, bufIndex, bufId, bufSize, bufType, allocNode, freeNode,
    hasCopyIn, edgeSrc, edgeDst, typeNames, typeCap, caps };
}

// Calls fn(lineNumber, start, end) for each non-blank line of `text`, trimmed of spaces, tabs, CR.
function forEachLine(text, fn) {
  const n = text.length;
  let line = 0;
  for (let i = 0; i <= n;) {
    let j = text.indexOf('\n', i);
    if (j === -1) j = n;
    line++;
    let a = i, b = j;
    while (a < b && isBlank(text.charCodeAt(a))) a++;
    while (b > a && isBlank(text.charCodeAt(b - 1))) b--;
    if (a < b) fn(line, a, b);
    i = j + 1;
  }
}
const isBlank = (c) => c === 32 || c === 9 || c === 13 || c === 11 || c === 12;

// The integer text[a, b) (optional '-', then digits), or NaN.
function intAt(text, a, b) {
  let neg = false;
  if (a < b && text.charCodeAt(a) === 45) { neg = true; a++; }
  if (a >= b) return NaN;
  let v = 0;
  for (let i = a; i < b; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  if (!Number.isSafeInteger(v)) return NaN;
  return neg ? -v : v;
}

const excerpt = (text, a, b) => JSON.stringify(text.slice(a, Math.min(b, a + 40)) + (b - a > 40 ? '...' : ''));

/** schedule.txt -> { ids, lines } (typed arrays; blank lines skipped) */
export function parseSchedule(text, file = 'schedule.txt') {
  let ids = new Float64Array(1024), lines = new Int32Array(1024), count = 0;
  forEachLine(text, (line, a, b) => {
    const id = intAt(text, a, b);
    if (Number.isNaN(id)) throw new InputError(`${file} line ${line}: expected one node id, got ${excerpt(text, a, b)}`);
    if (count === ids.length) {
      const i2 = new Float64Array(count * 2), l2 = new Int32Array(count * 2);
      i2.set(ids); l2.set(lines);
      ids = i2; lines = l2;
    }
    ids[count] = id;
    lines[count++] = line;
  });
  return { ids: ids.subarray(0, count), lines: lines.subarray(0, count) };
}

/** memory.txt / spill.txt -> { bufs, offsets, lines } (typed arrays; blank lines skipped) */
export function parsePairs(text, file, second) {
  const bufs = [], offsets = [], lines = [];
  forEachLine(text, (line, a, b) => {
    const colon = text.indexOf(':', a);
    let x = NaN, y = NaN;
    if (colon !== -1 && colon < b) {
      let e = colon, s = colon + 1;
      while (e > a && isBlank(text.charCodeAt(e - 1))) e--;
      while (s < b && isBlank(text.charCodeAt(s))) s++;
      x = intAt(text, a, e);
      y = intAt(text, s, b);
    }
    if (Number.isNaN(x) || Number.isNaN(y))
      throw new InputError(`${file} line ${line}: expected BufId:${second} (two integers), got ${excerpt(text, a, b)}`);
    bufs.push(x); offsets.push(y); lines.push(line);
  });
  return { bufs, offsets, lines, length: bufs.length };
}

// ---- Resident intervals ---------------------------------------------------------------------------

// The resident buffers of one memory type: disjoint intervals keyed by start offset, over the
// sorted distinct offsets the files can place anything at. A max segment tree over the ends
// answers "does [a, b) meet a resident interval?" as "max end among starts < b exceeds a".
class Residents {
  constructor(starts) {
    this.keys = starts;
    let n = 1;
    while (n < Math.max(1, starts.length)) n *= 2;
    this.n = n;
    this.end = new Float64Array(2 * n).fill(-Infinity);
    this.leaf = new Int32Array(2 * n).fill(-1);  // leaf index holding the max
    this.who = new Int32Array(n).fill(-1);
  }
  lowerBound(x) {
    let lo = 0, hi = this.keys.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.keys[mid] < x) lo = mid + 1; else hi = mid; }
    return lo;
  }
  set(k, end, who) {
    let i = k + this.n;
    this.end[i] = end;
    this.leaf[i] = end === -Infinity ? -1 : k;
    this.who[k] = who;
    for (i >>= 1; i >= 1; i >>= 1) {
      const l = 2 * i, r = l + 1;
      const pick = this.end[l] >= this.end[r] ? l : r;
      this.end[i] = this.end[pick];
      this.leaf[i] = this.leaf[pick];
    }
  }
  /** A resident buffer meeting [a, b), or -1. */
  overlapping(a, b) {
    let best = -Infinity, bestLeaf = -1;
    let l = this.n, r = this.n + this.lowerBound(b);
    for (; l < r; l >>= 1, r >>= 1) {
      if (l & 1) { if (this.end[l] > best) { best = this.end[l]; bestLeaf = this.leaf[l]; } l++; }
      if (r & 1) { r--; if (this.end[r] > best) { best = this.end[r]; bestLeaf = this.leaf[r]; } }
    }
    return best > a ? this.who[bestLeaf] : -1;
  }
}

// ---- The check ------------------------------------------------------------------------------------

/**
 * Checks the three files against a parsed graph. Returns { violations: string[], spills,
 * extraBytes, nodes }. Throws InputError for malformed files.
 */
export function checkFiles(g, scheduleText, memoryText, spillText, names = {}, addedEdges = null) {
  const fSched = names.schedule ?? 'schedule.txt', fMem = names.memory ?? 'memory.txt', fSpill = names.spill ?? 'spill.txt';
  const sched = parseSchedule(scheduleText, fSched);
  const mem = parsePairs(memoryText, fMem, 'Offset');
  const sp = parsePairs(spillText, fSpill, 'NewOffset');
  const { N, B, kind, nodeBuf, ops, useStart, uses, bufId, bufSize, bufType, typeNames, typeCap } = g;
  const S = sp.length;
  const M = N + 2 * S;
  const v = [];

  // memory.txt: one line per buffer.
  const memOffset = new Float64Array(B), memLine = new Int32Array(B);
  for (let i = 0; i < mem.length; i++) {
    const buf = mem.bufs[i], line = mem.lines[i], b = g.bufIndex.get(buf);
    if (b === undefined) { v.push(`${fMem} line ${line}: buffer ${buf} does not exist in the graph`); continue; }
    if (memLine[b]) { v.push(`${fMem} line ${line}: buffer ${buf} appears again (first at line ${memLine[b]})`); continue; }
    memLine[b] = line;
    memOffset[b] = mem.offsets[i];
  }
  for (let b = 0; b < B; b++) if (!memLine[b]) v.push(`${fMem}: buffer ${bufId[b]} has no line (every buffer needs its initial offset)`);

  // spill.txt: each line an existing buffer.
  const spillBuf = new Int32Array(S).fill(-1);
  let extraBytes = 0;
  for (let k = 0; k < S; k++) {
    const b = g.bufIndex.get(sp.bufs[k]);
    if (b === undefined) {
      v.push(`${fSpill} line ${sp.lines[k]}: spill ${k + 1} names buffer ${sp.bufs[k]}, which does not exist in the graph`);
      continue;
    }
    spillBuf[k] = b;
    extraBytes += g.hasCopyIn[b] ? bufSize[b] : 2 * bufSize[b];
  }

  // Message pieces, built only when something is wrong.
  const spillName = (k) => `spill ${k + 1} (${fSpill} line ${sp.lines[k]}, buffer ${sp.bufs[k]})`;
  const nodeName = (id) => {
    if (id < N) return kind[id] ? `node ${id} (${ops[id]} of buffer ${bufId[nodeBuf[id]]})` : `node ${id} (${ops[id]})`;
    const k = (id - N) >> 1;
    return `node ${id} (${(id - N) & 1 ? 'SPILL_IN' : 'SPILL_OUT'} of ${spillName(k)})`;
  };

  // schedule.txt: every node exactly once, nothing else.
  const L = sched.ids.length;
  const pos = new Int32Array(M).fill(-1);
  const live = new Uint8Array(L);  // entries replayed: first occurrence of a known id
  for (let i = 0; i < L; i++) {
    const id = sched.ids[i];
    if (id < 0 || id >= M) {
      v.push(`${fSched} line ${sched.lines[i]}: node ${id} is neither a graph node (0..${N - 1}) nor a spill node` +
        (S ? ` (${N}..${M - 1} for ${S} spills)` : ' (spill.txt is empty)'));
    } else if (pos[id] !== -1) {
      v.push(`${fSched} line ${sched.lines[i]}: ${nodeName(id)} appears again (first at line ${sched.lines[pos[id]]})`);
    } else {
      pos[id] = i;
      live[i] = 1;
    }
  }
  for (let id = 0; id < M; id++) if (pos[id] === -1) v.push(`${fSched}: ${nodeName(id)} is missing`);
  const at = (id) => `${fSched} line ${sched.lines[pos[id]]}`;

  // Order: graph edges, then the spill edges ALLOC -> SPILL_OUT -> SPILL_IN -> FREE.
  const broken = (a, b, why) =>
    v.push(`order breaks ${why}: ${nodeName(b)} at ${at(b)} comes before ${nodeName(a)} at ${at(a)}`);
  const ok = (a, b) => pos[a] === -1 || pos[b] === -1 || pos[a] < pos[b];
  for (let e = 0; e < g.edgeSrc.length; e++) {
    const a = g.edgeSrc[e], b = g.edgeDst[e];
    if (!ok(a, b)) broken(a, b, `edge ${a}->${b} (Edges[${e}])`);
  }
  for (let k = 0; k < S; k++) {
    const b = spillBuf[k];
    if (b < 0) continue;
    const out = N + 2 * k, inn = out + 1;
    if (!ok(g.allocNode[b], out)) broken(g.allocNode[b], out, `spill edge ALLOC->SPILL_OUT of ${spillName(k)}`);
    if (!ok(out, inn)) broken(out, inn, `spill edge SPILL_OUT->SPILL_IN of ${spillName(k)}`);
    if (!ok(inn, g.freeNode[b])) broken(inn, g.freeNode[b], `spill edge SPILL_IN->FREE of ${spillName(k)}`);
  }

  // Replay.
  const starts = typeNames.map(() => []);
  for (let b = 0; b < B; b++) if (memLine[b]) starts[bufType[b]].push(memOffset[b]);
  for (let k = 0; k < S; k++) if (spillBuf[k] >= 0) starts[bufType[spillBuf[k]]].push(sp.offsets[k]);
  const residents = starts.map((s) => {
    const sorted = Float64Array.from(s).sort();
    let n = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i];
    return new Residents(sorted.subarray(0, n));
  });
  const state = new Uint8Array(B);
  const slot = new Int32Array(B).fill(-1);   // key index while in the interval tree
  const lastOut = new Int32Array(B).fill(-1); // the spill that took it out
  const where = (b) => {
    switch (state[b]) {
      case UNALLOCATED: return 'before its ALLOC';
      case SPILLED: return `while it is spilled out (by ${spillName(lastOut[b])}; no SPILL_IN since)`;
      case FREED: return 'after its FREE';
      default: return 'while it is resident';
    }
  };
  const range = (b, off) => `[${off}, ${off + bufSize[b]})`;
  const here = (i) => `${nodeName(sched.ids[i])} at ${fSched} line ${sched.lines[i]}`;
  const place = (b, off, i, how) => {
    state[b] = RESIDENT;
    const t = bufType[b], cap = typeCap[t], end = off + bufSize[b];
    const desc = () => `${here(i)}${how} places buffer ${bufId[b]} (${bufSize[b]} bytes of ${typeNames[t]}) at ${range(b, off)}`;
    if (off < 0 || end > cap) { v.push(`${desc()}, outside ${typeNames[t]} [0, ${cap})`); return; }
    const R = residents[t];
    const other = R.overlapping(off, end);
    if (other >= 0) {
      v.push(`${desc()}, overlapping resident buffer ${bufId[other]} at ${range(other, R.keys[slot[other]])}`);
      return;
    }
    const k = R.lowerBound(off);
    slot[b] = k;
    R.set(k, end, b);
  };
  const remove = (b) => {
    if (slot[b] >= 0) residents[bufType[b]].set(slot[b], -Infinity, -1);
    slot[b] = -1;
  };
  for (let i = 0; i < L; i++) {
    if (!live[i]) continue;
    const id = sched.ids[i];
    if (id >= N) {
      const k = (id - N) >> 1, b = spillBuf[k];
      if (b < 0) continue;
      if ((id - N) & 1) {  // SPILL_IN
        if (state[b] !== SPILLED) { v.push(`${here(i)} reloads buffer ${bufId[b]} ${where(b)}`); continue; }
        place(b, sp.offsets[k], i, '');
      } else {             // SPILL_OUT
        if (state[b] !== RESIDENT) { v.push(`${here(i)} writes out buffer ${bufId[b]} ${where(b)}`); continue; }
        remove(b);
        state[b] = SPILLED;
        lastOut[b] = k;
      }
    } else if (kind[id] === ALLOC) {
      const b = nodeBuf[id];
      if (memLine[b]) place(b, memOffset[b], i, ` (${fMem} line ${memLine[b]})`);
      else state[b] = RESIDENT;
    } else if (kind[id] === FREE) {
      const b = nodeBuf[id];
      if (state[b] !== RESIDENT) {
        v.push(`${here(i)} frees buffer ${bufId[b]} ${where(b)}` +
          (state[b] === SPILLED ? ': a SPILL_IN must bring it back before the FREE' : ''));
      }
      remove(b);
      state[b] = FREED;
    } else {
      for (let u = useStart[id]; u < useStart[id + 1]; u++) {
        const b = uses[u];
        if (state[b] === RESIDENT) continue;
        let dup = false;
        for (let w = useStart[id]; w < u; w++) if (uses[w] === b) dup = true;
        if (!dup) v.push(`${here(i)} uses buffer ${bufId[b]} ${where(b)}`);
      }
    }
  }
  for (let b = 0; b < B; b++) {
    if (state[b] === FREED) continue;
    const how = state[b] === UNALLOCATED ? 'never allocated' : state[b] === SPILLED ? 'spilled out' : 'resident';
    v.push(`buffer ${bufId[b]} is not freed at the end of ${fSched} (${how}; its FREE is node ${g.freeNode[b]})`);
  }
  if (addedEdges) v.push(...checkAddedEdges(ruleEdges(g, pos, spillBuf), addedEdges, names.result));
  return { violations: v, nodes: N, spills: S, extraBytes };
}

/**
 * The rule's added edges for the spills of a schedule (docs/result-format.md): for each buffer's
 * spills 1..m in schedule order, ALLOC -> OUT_j, OUT_j -> IN_j, IN_j -> FREE, IN_(j-1) -> OUT_j,
 * every user scheduled after IN_(j-1) (after the ALLOC for j = 1) and before OUT_j -> OUT_j, and
 * IN_j -> every user scheduled after it and before OUT_(j+1) (before the FREE for j = m). The
 * contest's literal rule (every earlier user -> OUT, IN -> every later user) is its transitive
 * closure. Returns Map "a,b" -> why. `pos` gives schedule positions (-1 absent), `spillBuf` the
 * buffer index of each spill (-1 unknown).
 */
export function ruleEdges(g, pos, spillBuf) {
  const { N, B, kind, useStart, uses } = g;
  const usersOf = Array.from({ length: B }, () => []);
  for (let id = 0; id < N; id++) {
    if (kind[id]) continue;
    for (let u = useStart[id]; u < useStart[id + 1]; u++) {
      const list = usersOf[uses[u]];
      if (list[list.length - 1] !== id) list.push(id);
    }
  }
  const spillsOf = new Map();
  spillBuf.forEach((b, k) => { if (b >= 0) (spillsOf.get(b) ?? spillsOf.set(b, []).get(b)).push(k); });
  const rule = new Map();
  const add = (a, b, why) => { if (!rule.has(`${a},${b}`)) rule.set(`${a},${b}`, why); };
  for (const [b, ks] of spillsOf) {
    const out = (k) => N + 2 * k, inn = (k) => N + 2 * k + 1;
    ks.sort((x, y) => pos[out(x)] - pos[out(y)]);
    const users = usersOf[b].filter((u) => pos[u] >= 0).sort((x, y) => pos[x] - pos[y]);
    let u = 0;
    ks.forEach((k, j) => {
      const name = `spill ${k + 1}`;
      add(g.allocNode[b], out(k), `ALLOC->SPILL_OUT of ${name}`);
      add(out(k), inn(k), `SPILL_OUT->SPILL_IN of ${name}`);
      add(inn(k), g.freeNode[b], `SPILL_IN->FREE of ${name}`);
      if (j > 0) add(inn(ks[j - 1]), out(k), `previous SPILL_IN->SPILL_OUT of ${name}`);
      for (; u < users.length && pos[users[u]] < pos[out(k)]; u++) add(users[u], out(k), `user since the last reload->SPILL_OUT of ${name}`);
      while (u < users.length && pos[users[u]] < pos[inn(k)]) u++;
      const next = j + 1 < ks.length ? pos[out(ks[j + 1])] : Infinity;
      for (let w = u; w < users.length && pos[users[w]] < next; w++) add(inn(k), users[w], `SPILL_IN->user before the next SPILL_OUT of ${name}`);
    });
  }
  return rule;
}

/** Violations of a result's addedEdges against the rule's set: missing, extra, repeated. */
export function checkAddedEdges(rule, addedEdges, file = 'result') {
  const v = [];
  const seen = new Set();
  addedEdges.forEach(([a, b], i) => {
    const key = `${a},${b}`;
    if (seen.has(key)) v.push(`${file}: addedEdges[${i}] ${a}->${b} is listed twice`);
    else if (!rule.has(key)) v.push(`${file}: addedEdges[${i}] ${a}->${b} is not an edge of the rule`);
    seen.add(key);
  });
  for (const [key, why] of rule) if (!seen.has(key)) v.push(`${file}: addedEdges lacks ${key.replace(',', '->')} (${why})`);
  return v;
}

/** The "addedEdges" of a result file: [[src, dst], ...] of safe integers. */
export function parseResultEdges(text, file = 'result') {
  let root;
  try {
    root = JSON.parse(text);
  } catch {
    throw new InputError(`${file}: not valid JSON`);
  }
  const edges = root?.addedEdges;
  if (!Array.isArray(edges) || !edges.every((e) => Array.isArray(e) && e.length === 2 && e.every(Number.isSafeInteger)))
    throw new InputError(`${file}: "addedEdges" must be an array of [src, dst] node ids`);
  return edges;
}

function readText(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
}

/** Checks GRAPH.json against DIR's three files (and a result's added edges), as the CLI does. */
export function checkDir(graphPath, dir, capsOverride = null, resultPath = null) {
  const g = parseGraph(readText(graphPath), graphPath, capsOverride);
  const files = { schedule: join(dir, 'schedule.txt'), memory: join(dir, 'memory.txt'), spill: join(dir, 'spill.txt'), result: resultPath };
  const texts = { schedule: readText(files.schedule), memory: readText(files.memory), spill: readText(files.spill) };
  const edges = resultPath ? parseResultEdges(readText(resultPath), resultPath) : null;
  return checkFiles(g, texts.schedule, texts.memory, texts.spill, files, edges);
}

export function summaryLine(r) {
  return `ok: ${r.nodes} nodes, ${r.spills} spills, extra data moved ${r.extraBytes} bytes`;
}

const USAGE = 'usage: node tools/contest-check.mjs GRAPH.json DIR [--caps L1=4096,UB=1024,L0A=256,L0B=256,L0C=512] [--result RESULT.json]';

/** The CLI: returns the exit code. `io` (tests) receives what would go to stdout and stderr. */
export function main(argv, io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }) {
  const positional = [];
  let caps = null, result = null;
  try {
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '-h' || a === '--help') { io.out(USAGE + '\n'); return 0; }
      if (a === '--caps') {
        if (i + 1 >= argv.length) throw new InputError('--caps needs a value');
        caps = parseCapsArg(argv[++i]);
      } else if (a.startsWith('--caps=')) caps = parseCapsArg(a.slice(7));
      else if (a === '--result') {
        if (i + 1 >= argv.length) throw new InputError('--result needs a file');
        result = argv[++i];
      }
      else if (a.startsWith('-') && a !== '-') throw new InputError(`unknown option ${a}\n${USAGE}`);
      else positional.push(a);
    }
    if (positional.length !== 2) throw new InputError(USAGE);
    const r = checkDir(positional[0], positional[1], caps, result);
    if (r.violations.length) {
      io.out(r.violations.join('\n') + '\n');
      io.err(`contest-check: ${r.violations.length} violation${r.violations.length === 1 ? '' : 's'}\n`);
      return 1;
    }
    io.out(summaryLine(r) + '\n');
    return 0;
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    io.err(`contest-check: ${e.message}\n`);
    return 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
