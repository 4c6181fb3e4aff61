// Webview messages are untrusted: the transcript, branch-from-message, link and proposal messages
// pass only in their exact shape.
import assert from 'node:assert/strict';
import { fromWebviewSchema } from '../../../src/webview/protocol';

const ok = (m: unknown) => fromWebviewSchema.safeParse(m).success;

describe('side panel protocol', () => {
  it('accepts the transcript, branch, link and proposal messages', () => {
    assert.ok(ok({ type: 'showTranscript', conversationId: 'c' }));
    assert.ok(ok({ type: 'showTranscript', conversationId: 'c', messageId: 'm', start: 200 }));
    assert.ok(ok({ type: 'branchFromMessage', conversationId: 'c', messageId: 'm' }));
    assert.ok(ok({ type: 'copyLink', conversationId: 'c' }));
    assert.ok(ok({ type: 'copyLink', conversationId: 'c', messageId: 'm' }));
    assert.ok(ok({ type: 'revealProposal', ref: { conversationId: 'c', messageId: 'm', toolCallId: 't' } }));
  });

  it('refuses them with missing, extra or out-of-range fields', () => {
    assert.ok(!ok({ type: 'branchFromMessage', conversationId: 'c' }), 'branching needs the message');
    assert.ok(!ok({ type: 'branchFromMessage', conversationId: 'c', messageId: '' }));
    assert.ok(!ok({ type: 'showTranscript', conversationId: 'c', start: -1 }));
    assert.ok(!ok({ type: 'showTranscript', conversationId: 'c', start: 1.5 }));
    assert.ok(!ok({ type: 'copyLink', conversationId: 'c', url: 'https://example.com' }), 'the extension writes the link, never the webview');
    assert.ok(!ok({ type: 'revealProposal', ref: { conversationId: 'c', messageId: 'm' } }));
    assert.ok(!ok({ type: 'showTranscript', conversationId: 'x'.repeat(201) }));
  });
});
