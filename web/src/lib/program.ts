// The program form of a graph (docs/programs.md): a text whose first non-blank character is not
// `{` (nor `[`) is a program (`registers 3`, `a = load`, `c = mul a b`, ...), which the engine translates
// to a graph. A program's result carries the rewritten program (`program.lines`, each with its
// step in the plan's new order). The page's reading of both; pure functions.

/** One line of the rewritten program: its text and its step in the new order (-1: the memory
 * line, which is not a step). */
export interface ProgramLine {
  text: string;
  step: number;
}

/** The rewritten program of a result (its `program` field). */
export interface ProgramInfo {
  unit: 'registers' | 'cache' | string;
  lines: ProgramLine[];
}

/** The program the "Program" choice loads into the editor: three registers, four values live at
 * once, so one of them must be written out and read back. */
export const SAMPLE_PROGRAM = `# A program: each line defines a value (or uses one).
# "load" reads a value from memory (clean: evicting it costs nothing);
# an operation computes one on chip (dirty: evicting it writes it out).
registers 3
a = load
b = load
c = mul a b
d = load
e = add c d
use a
f = mul e b
use a f
store f
`;

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff;

/** Whether the text is a program: its first non-blank character is there and is neither `{` nor
 * `[` (JSON, read as a graph), as the engine decides. Only reads up to that character (a 4 MB graph
 * costs nothing). */
export function isProgram(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isSpace(c)) return c !== 123 && c !== 91; // '{', '['
  }
  return false;
}

export type LineKind = 'memory' | 'spill' | 'reload' | 'instruction';

/** What a rewritten line is: the memory line, an inserted spill or reload, or the program's own. */
export function lineKind(line: ProgramLine): LineKind {
  if (line.step < 0) return 'memory';
  const word = /^\s*(spill|reload)\b/.exec(line.text);
  return word ? (word[1] as 'spill' | 'reload') : 'instruction';
}

/** How many `reload` lines the rewritten program holds (one per SPILL_IN of the plan). */
export const reloadLines = (lines: readonly ProgramLine[]) => lines.filter((l) => lineKind(l) === 'reload').length;

/** The line the step cursor is on: the line at the cursor's step, else the last line before it
 * (a value's FREE follows its last use), except that an ALLOC (`allocAt`) belongs to the line
 * after it, the instruction that defines the value; -1 where no line is. */
export function lineAtStep(lines: readonly ProgramLine[], cursor: number, allocAt = false): number {
  let before = -1;
  let after = -1;
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i].step;
    if (s < 0) continue;
    if (s === cursor) return i;
    if (s < cursor && (before < 0 || s > lines[before].step)) before = i;
    if (s > cursor && (after < 0 || s < lines[after].step)) after = i;
  }
  return allocAt && after >= 0 ? after : before;
}
