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

  it("keeps a text part's late deltas with the part, not after a tool step that began meanwhile", () => {
    const r = new LiveRun();
    const texts = () => (r as unknown as { text: string[] }).text;
    r.apply({ conversationId: 'c1', phase: 'start' });
    r.apply({ conversationId: 'c1', phase: 'chunk', chunk: { type: 'text-delta', id: 't0', delta: 'Checking the ' } });
    r.apply({ conversationId: 'c1', phase: 'chunk', chunk: { type: 'tool-input-start', toolCallId: 'k1', toolName: 'searchGoods' } });
    r.apply({ conversationId: 'c1', phase: 'chunk', chunk: { type: 'text-delta', id: 't0', delta: 'goods first.' } });
    r.apply({ conversationId: 'c1', phase: 'chunk', chunk: { type: 'text-delta', id: 't1', delta: 'Gears.' } });
    assert.deepEqual(texts(), ['Checking the goods first.', 'Gears.']);
    // Chunks without ids still join the open text part, and a step closes it.
    r.apply({ conversationId: 'c1', phase: 'chunk', chunk: { type: 'tool-input-start', toolCallId: 'k2', toolName: 'x' } });
    r.apply({ conversationId: 'c1', phase: 'chunk', chunk: { type: 'text-delta', delta: 'a' } });
    r.apply({ conversationId: 'c1', phase: 'chunk', chunk: { type: 'text-delta', delta: 'b' } });
    assert.deepEqual(texts(), ['Checking the goods first.', 'Gears.', 'ab']);
  });
});
