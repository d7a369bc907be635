// The graph editor (CodeMirror 6). Its text is the source of truth for the graph; it is saved to
// localStorage (debounced) so a reload keeps it, and an engine error is shown as a diagnostic.
import { EditorView, basicSetup } from 'codemirror';
import { json } from '@codemirror/lang-json';
import { EditorState, Compartment, Prec } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { oneDarkHighlight } from './theme-cm';
import { findNodeInText } from '../lib/errors';
import type { ErrorInfo } from '../store';

export interface GraphEditor {
  view: EditorView;
  getText(): string;
  setText(text: string): void;
  showError(err: ErrorInfo | null): void;
  reveal(err: ErrorInfo): void;
  setDark(dark: boolean): void;
}

export function createEditor(parent: HTMLElement, opts: { initial: string; onRun: () => void; onChange: (text: string) => void }): GraphEditor {
  const themeSlot = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: opts.initial,
      extensions: [
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (opts.onRun(), true) }])),
        basicSetup,
        json(),
        themeSlot.of([]),
        EditorView.contentAttributes.of({ 'aria-label': 'Graph JSON' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) opts.onChange(u.state.doc.toString());
        }),
      ],
    }),
  });

  function rangeOf(err: ErrorInfo): { from: number; to: number } | null {
    const doc = view.state.doc;
    if (err.line && err.line >= 1 && err.line <= doc.lines) {
      const line = doc.line(err.line);
      const from = Math.min(line.to, line.from + Math.max(0, (err.column ?? 1) - 1));
      return { from: err.column ? Math.max(line.from, from - 1) : line.from, to: line.to > line.from ? line.to : line.from };
    }
    if (err.node !== undefined) {
      const at = findNodeInText(doc.toString(), err.node);
      if (at >= 0) {
        const line = doc.lineAt(at);
        return { from: at, to: line.to };
      }
    }
    return null;
  }

  return {
    view,
    getText: () => view.state.doc.toString(),
    setText(text: string) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 }, scrollIntoView: true });
    },
    showError(err) {
      const diags: Diagnostic[] = [];
      if (err) {
        const r = rangeOf(err);
        if (r) diags.push({ from: r.from, to: Math.max(r.from, r.to), severity: 'error', message: err.message });
      }
      view.dispatch(setDiagnostics(view.state, diags));
    },
    reveal(err) {
      const r = rangeOf(err);
      if (!r) return;
      view.dispatch({ selection: { anchor: r.from, head: r.to }, effects: EditorView.scrollIntoView(r.from, { y: 'center' }) });
      view.focus();
    },
    setDark(dark) {
      view.dispatch({ effects: themeSlot.reconfigure(dark ? oneDarkHighlight : []) });
    },
  };
}
