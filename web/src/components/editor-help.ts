// The editor's help, from the glossary: hover docs (CodeMirror's hoverTooltip) over the quoted
// word under the pointer, the same at the cursor on Ctrl/⌘+K (activateHover), and completion
// (CodeMirror's autocompletion, which basicSetup turns on) of field names and of the values of
// "Op", "Pipe" and "Type", using the JSON syntax tree to tell a key from a value.
import { hoverTooltip, activateHover, type EditorView, type Tooltip } from '@codemirror/view';
import type { Extension } from '@codemirror/state';
import type { CompletionContext, CompletionResult, Completion } from '@codemirror/autocomplete';
import { syntaxTree, type Language } from '@codemirror/language';
import { GRAPH_FIELDS, KIND_LABEL, NODE_FIELDS, VALUES, lookup, type Term } from '../lib/glossary';

/** The quoted word around `pos` on its line: [from, to) of its text (without the quotes). */
function quotedWordAt(view: EditorView, pos: number): { from: number; to: number; word: string } | null {
  const line = view.state.doc.lineAt(pos);
  if (line.length > 10_000) return null; // a one-line graph: not worth scanning
  const text = line.text;
  const at = pos - line.from;
  const open = text.lastIndexOf('"', at - 1);
  const close = text.indexOf('"', at);
  if (open < 0 || close < 0) return null;
  const word = text.slice(open + 1, close);
  if (!/^[A-Za-z_][A-Za-z0-9_ ]*$/.test(word)) return null;
  return { from: line.from + open + 1, to: line.from + close, word };
}

function termDom(t: Term): HTMLElement {
  const el = document.createElement('div');
  el.className = 'cm-help';
  el.dataset.testid = 'editor-help';
  const head = document.createElement('strong');
  head.textContent = t.term;
  const kind = document.createElement('span');
  kind.className = 'cm-help-kind';
  const of = t.in === 'graph' ? 'the graph' : t.in ? `${/^[aeiou]/.test(t.in) ? 'an' : 'a'} ${t.in}` : '';
  kind.textContent = ` ${of ? `field of ${of}` : KIND_LABEL[t.kind].toLowerCase().replace(/s$/, '')}`;
  const body = document.createElement('div');
  body.textContent = t.text;
  el.append(head, kind, body);
  return el;
}

function helpAt(view: EditorView, pos: number): Tooltip | null {
  const w = quotedWordAt(view, pos);
  const t = w ? lookup(w.word) : undefined;
  if (!w || !t) return null;
  return { pos: w.from, end: w.to, above: true, create: () => ({ dom: termDom(t) }) };
}

const hover = hoverTooltip((view, pos) => helpAt(view, pos));

/** Ctrl/⌘+K: the help of the word at the cursor, until the cursor moves or the text changes. */
export function showHelpAtCursor(view: EditorView): boolean {
  const pos = view.state.selection.main.head;
  if (!helpAt(view, pos)) return false;
  activateHover(view, pos, 1, { tooltip: hover, until: (tr) => tr.docChanged || tr.selection !== undefined });
  return true;
}

const option = (t: Term, type: string): Completion => ({
  label: t.term,
  type,
  detail: t.in ? t.in : KIND_LABEL[t.kind].toLowerCase(),
  info: t.text,
});

/** Field names inside an object's key, and known values after "Op" / "Pipe" / "Type". */
function complete(ctx: CompletionContext): CompletionResult | null {
  const typed = ctx.matchBefore(/"[A-Za-z_0-9]*$/);
  if (!typed || (typed.from === typed.to && !ctx.explicit)) return null;
  const before = ctx.state.sliceDoc(Math.max(0, typed.from - 200), typed.from).trimEnd();
  const last = before[before.length - 1];
  // which object: the graph itself (a child of the document) or a node
  let node = syntaxTree(ctx.state).resolveInner(typed.from, -1);
  while (node.parent && node.name !== 'Object' && node.name !== 'Array') node = node.parent;
  if (node.name !== 'Object') return null;
  const top = node.parent?.name === 'JsonText';
  let options: Completion[];
  if (last === '{' || last === ',') {
    options = (top ? GRAPH_FIELDS : NODE_FIELDS).map((t) => option(t, 'property'));
  } else if (last === ':') {
    const key = /"([A-Za-z]+)"\s*:$/.exec(before)?.[1];
    const values = key ? VALUES[key] : undefined;
    if (!values || top) return null;
    options = values.map((t) => option(t, 'constant'));
  } else return null;
  return { from: typed.from + 1, options, validFor: /^[A-Za-z_0-9]*$/ };
}

/** The editor's help for a JSON language: hover docs and completion. */
export function graphHelp(language: Language): Extension {
  return [hover, language.data.of({ autocomplete: complete })];
}
