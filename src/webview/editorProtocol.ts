// What the extension tells an editor tab (the block editor, the science block editor) besides its
// view, and how a tab folds each message into what it shows: the same four messages, the same rules.

export type ToEditor<V> =
  | { type: 'state'; view: V }
  | { type: 'busy'; busy: boolean }
  | { type: 'error'; message: string }
  | { type: 'gone'; message: string };

/** A line above the editor: an edit refused, or the tab's project no longer open ("gone"). */
export interface EditorNotice {
  text: string;
  kind: 'error' | 'gone';
}

export interface EditorTabState<V> {
  view: V | undefined;
  busy: boolean;
  message: EditorNotice | undefined;
}

/** The tab's state after a message: a new view clears a "gone" notice (the project is back), not an error. */
export function nextEditorState<V>(s: EditorTabState<V>, m: ToEditor<V>): EditorTabState<V> {
  switch (m.type) {
    case 'state':
      return { ...s, view: m.view, message: s.message?.kind === 'gone' ? undefined : s.message };
    case 'busy':
      return { ...s, busy: m.busy };
    case 'error':
      return { ...s, message: { text: m.message, kind: 'error' } };
    case 'gone':
      return { ...s, message: { text: m.message, kind: 'gone' } };
  }
}
