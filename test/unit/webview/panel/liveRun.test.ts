import assert from 'node:assert/strict';
import { LiveRun } from '../../../../src/webview/panel/liveRun';

describe('side panel live run', () => {
  it('follows a run from start to end', () => {
    const r = new LiveRun();
    r.apply({ conversationId: 'c1', phase: 'start' });
    r.apply({ conversationId: 'c1', phase: 'chunk', chunk: { type: 'text-delta', delta: 'Hi' } });
    assert.equal(r.state, 'running');
    r.apply({ conversationId: 'c1', phase: 'end', reason: 'stopped' });
    assert.equal(r.state, 'stopped');
  });

  it('empties when the panel stops following a run that is still going', () => {
    const r = new LiveRun();
    r.apply({ conversationId: 'c1', phase: 'start' });
    r.apply({ conversationId: 'c2', phase: 'detach' });
    assert.equal(r.state, 'running', "another conversation's detach changes nothing");
    r.apply({ conversationId: 'c1', phase: 'detach' });
    assert.equal(r.state, 'idle', 'no "Writing…" for a run nobody follows');
    assert.equal(r.conversationId, undefined);
    r.apply({ conversationId: 'c1', phase: 'chunk', chunk: { type: 'text-delta', delta: 'late' } });
    assert.equal(r.state, 'idle', 'late chunks of the detached run are ignored');
  });
});
