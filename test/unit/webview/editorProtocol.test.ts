// How an editor tab folds the extension's messages: a new view clears "gone" (its project is open
// again) but keeps an error the player has not seen answered; busy changes nothing else.
import assert from 'node:assert/strict';
import { nextEditorState, type EditorTabState } from '../../../src/webview/editorProtocol';

describe('editor tab messages', () => {
  const start: EditorTabState<string> = { view: undefined, busy: false, message: undefined };

  it('takes a view, and a later view clears a "gone" notice but not an error', () => {
    let s = nextEditorState(start, { type: 'state', view: 'a' });
    assert.deepEqual(s, { view: 'a', busy: false, message: undefined });
    s = nextEditorState(s, { type: 'gone', message: 'The project is closed.' });
    assert.deepEqual(s.message, { text: 'The project is closed.', kind: 'gone' });
    s = nextEditorState(s, { type: 'state', view: 'b' });
    assert.deepEqual([s.view, s.message], ['b', undefined]);
    s = nextEditorState(s, { type: 'error', message: 'Refused.' });
    s = nextEditorState(s, { type: 'state', view: 'c' });
    assert.deepEqual([s.view, s.message], ['c', { text: 'Refused.', kind: 'error' }]);
  });

  it('marks busy without touching the view or the notice', () => {
    const s = nextEditorState({ view: 'a', busy: false, message: { text: 'x', kind: 'error' } }, { type: 'busy', busy: true });
    assert.deepEqual(s, { view: 'a', busy: true, message: { text: 'x', kind: 'error' } });
  });
});
