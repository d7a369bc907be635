// Where an engine message points: "line L, column C", "node N" / "Id N", "field X".
import type { ErrorInfo } from '../store';

export function locateError(kind: string, message: string): ErrorInfo {
  const info: ErrorInfo = { kind, message };
  const lc = /line (\d+)(?:,? (?:column|col) (\d+))?/i.exec(message);
  if (lc) {
    info.line = Number(lc[1]);
    if (lc[2]) info.column = Number(lc[2]);
  }
  const node = /\bnode(?: id)?\s*#?(\d+)/i.exec(message) ?? /"?\bId"?\s*[:=]?\s*(\d+)/.exec(message);
  if (node) info.node = Number(node[1]);
  return info;
}

/** Position (0-based char offset) of a node's "Id": N in the graph text, or -1. */
export function findNodeInText(text: string, id: number): number {
  const re = new RegExp(`"Id"\\s*:\\s*${id}(?![0-9])`);
  const m = re.exec(text);
  return m ? m.index : -1;
}
