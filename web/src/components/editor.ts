// The graph editor (CodeMirror 6). Its text is the source of truth for the graph. It reports
// each change with its kind (a load by the page, a paste that replaced everything, an edit)
// without turning the document into a string, which costs milliseconds for a 4 MB graph.
// Help comes from the glossary (lib/glossary.ts) through CodeMirror's own extensions: hover docs
// on field names, ops, pipes and memories (Ctrl/⌘+K shows them at the cursor), and completion of
// field names and of the values of "Op", "Pipe" and "Type".
import { EditorView, basicSetup } from 'codemirror';
import { json, jsonLanguage } from '@codemirror/lang-json';
import { EditorState, Compartment, Prec, Transaction } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { oneDarkHighlight } from './theme-cm';
import { graphHelp, showHelpAtCursor } from './editor-help';

const USER_EVENTS = ['input', 'delete', 'undo', 'redo', 'move'];

export type ChangeKind = 'load' | 'paste-all' | 'edit';

/** Above this size the editor loads a text in slices (one slice per task) and without JSON
 * highlighting, whose background parse works in 100 ms slices: the page never stops answering. */
export const LARGE_TEXT = 1_000_000;
const SLICE = 200_000;

export interface GraphEditor {
  view: EditorView;
  getText(): string;
  /** Replaces the whole text; resolves once all of it is in (a large text takes several tasks). */
  setText(text: string): Promise<void>;
  /** A program is no JSON: no JSON highlighting, and the editor is labelled as a program. */
  setProgram(program: boolean): void;
  /** Marks [from, to) as the error (null clears it). */
  showError(range: { from: number; to: number; message: string } | null): void;
  reveal(from: number, to: number): void;
  setDark(dark: boolean): void;
}

const label = (program = false) =>
  EditorView.contentAttributes.of({
    'aria-label': program
      ? 'Program: a memory line (registers K or cache N bytes), then one instruction a line.'
      : 'Graph JSON. Ctrl+K explains the word at the cursor; Ctrl+Space completes field names.',
  });

/** onChange gets the whole new text when it has it anyway (a large load or paste), so that nobody
 * has to turn the document back into a string. */
export function createEditor(
  parent: HTMLElement,
  opts: { onRun: () => void; onChange: (kind: ChangeKind, text?: string) => void },
): GraphEditor {
  const themeSlot = new Compartment();
  const languageSlot = new Compartment();
  const readOnlySlot = new Compartment();
  const labelSlot = new Compartment();
  let loading = false;
  let large = false;
  let program = false;
  let dark = false;
  /** The editor's extensions, its slots filled for a text of this size, read-only or not. */
  const extensions = (readOnly: boolean) => [
    Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (opts.onRun(), true) }])),
    basicSetup,
    languageSlot.of(large || program ? [] : json()),
    readOnlySlot.of(readOnly ? EditorState.readOnly.of(true) : []),
    themeSlot.of(dark ? oneDarkHighlight : []),
    labelSlot.of(label(program)),
    graphHelp(jsonLanguage),
    keymap.of([{ key: 'Mod-k', run: showHelpAtCursor }]),
    EditorView.updateListener.of((u) => {
      if (!u.docChanged || loading) return;
      if (u.state.doc.length > LARGE_TEXT !== large)
        setTimeout(() => view.dispatch({ effects: setLanguage(view.state.doc.length > LARGE_TEXT) }), 0);
      const user = u.transactions.find((tr) => USER_EVENTS.some((e) => tr.isUserEvent(e)));
      if (!user) return opts.onChange('load');
      let all = false;
      if (user.isUserEvent('input.paste')) {
        user.changes.iterChangedRanges((fromA, toA) => {
          if (fromA === 0 && toA === u.startState.doc.length) all = true;
        });
      }
      opts.onChange(all ? 'paste-all' : 'edit');
    }),
  ];
  const view = new EditorView({ parent, state: EditorState.create({ doc: '', extensions: extensions(false) }) });

  const setLanguage = (isLarge: boolean) => {
    large = isLarge;
    return languageSlot.reconfigure(isLarge || program ? [] : json());
  };

  /** Replaces everything with `text`, shown from its top. Neither way scrolls the page: on a phone
   * the editor sits below the toolbar, out of sight, and a load must not move what the user sees. */
  async function load(text: string, kind: ChangeKind): Promise<void> {
    if (text.length <= LARGE_TEXT) {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: text },
        selection: { anchor: 0 },
        effects: setLanguage(false),
      });
      view.scrollDOM.scrollTop = 0;
      return;
    }
    // A large text is a new document (no undo across it) that goes in slices, one task each.
    // It starts as a new state, not as a change of the old one: an editor out of sight keeps the
    // lines it shows mapped through each change, so replacing a short text would draw the whole
    // first slice and appending would draw every later one (seconds of layout on a phone); a new
    // state draws only its first screenful, and slices appended below that draw nothing.
    loading = true;
    large = true;
    try {
      await loadInSlices(view, text, (doc) => EditorState.create({ doc, extensions: extensions(true) }));
    } finally {
      loading = false;
      view.dispatch({ effects: readOnlySlot.reconfigure([]) });
    }
    opts.onChange(kind, text);
  }

  // a large paste goes in the same way (CodeMirror's own would hold the page for seconds)
  view.contentDOM.addEventListener('paste', (e) => pasteLarge(view, e, load), true);

  const clamp = (n: number) => Math.max(0, Math.min(view.state.doc.length, n));

  return {
    view,
    getText: () => view.state.doc.toString(),
    setText: (text: string) => load(text, 'load'),
    setProgram(isProgram) {
      if (isProgram === program) return;
      program = isProgram;
      view.dispatch({ effects: [setLanguage(large), labelSlot.reconfigure(label(program))] });
    },
    showError(range) {
      const diags: Diagnostic[] = range
        ? [
            {
              from: clamp(range.from),
              to: clamp(Math.max(range.from, range.to)),
              severity: 'error',
              message: range.message,
            },
          ]
        : [];
      view.dispatch(setDiagnostics(view.state, diags));
    },
    reveal(from, to) {
      view.dispatch({
        selection: { anchor: clamp(from), head: clamp(to) },
        effects: EditorView.scrollIntoView(clamp(from), { y: 'center' }),
      });
      view.focus();
    },
    setDark(isDark) {
      dark = isDark;
      view.dispatch({ effects: themeSlot.reconfigure(dark ? oneDarkHighlight : []) });
    },
  };
}

/** A large text into `view` as a new document, in slices, one task each: the first slice as the
 * state `stateOf` makes, the others appended without undo history. */
async function loadInSlices(view: EditorView, text: string, stateOf: (doc: string) => EditorState) {
  const noHistory = Transaction.addToHistory.of(false);
  for (let from = 0; from < text.length; ) {
    let to = Math.min(text.length, from + SLICE);
    const nl = text.indexOf('\n', to);
    to = nl < 0 || nl - to > SLICE ? to : nl + 1;
    const chunk = text.slice(from, to);
    if (from === 0) {
      view.setState(stateOf(chunk));
      view.scrollDOM.scrollTop = 0;
    } else {
      view.dispatch({ changes: { from: view.state.doc.length, insert: chunk }, annotations: noHistory });
    }
    from = to;
    if (from < text.length) await new Promise((r) => setTimeout(r, 0));
  }
}

/** A paste of a large text: the text after it goes through `load` instead of CodeMirror. */
function pasteLarge(view: EditorView, e: ClipboardEvent, load: (text: string, kind: ChangeKind) => Promise<void>) {
  const pasted = e.clipboardData?.getData('text/plain') ?? '';
  if (pasted.length <= LARGE_TEXT || view.state.readOnly) return;
  e.preventDefault();
  e.stopImmediatePropagation(); // CodeMirror's own paste handler sits on the same element
  const { from, to } = view.state.selection.main;
  const doc = view.state.doc;
  const all = from === 0 && to === doc.length;
  void load(all ? pasted : doc.sliceString(0, from) + pasted + doc.sliceString(to), all ? 'paste-all' : 'edit');
}
