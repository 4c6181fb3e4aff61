// Conversation links come from outside PyOps (a pasted chat, a note, a browser): what "Copy Link"
// writes reads back the same, and a damaged or foreign-shaped link is refused with what to do next.
import assert from 'node:assert/strict';
import { conversationLinkParts, parseConversationLink } from '../../../src/extension/conversationLinks';

describe('conversation links', () => {
  it('reads back what Copy Link wrote: conversation, project and message', () => {
    const link = { conversationId: '0f1e-conv', projectId: 'proj-1', messageId: 'msg 7/8' };
    const { path, query } = conversationLinkParts(link);
    assert.equal(path, '/conversation/0f1e-conv');
    assert.deepEqual(parseConversationLink(path, query), { ok: true, link });
    assert.deepEqual(parseConversationLink('/conversation/abc/', ''), { ok: true, link: { conversationId: 'abc' } }, 'older links without a query still open');
  });

  it('keeps an id with a slash inside the path segment', () => {
    const { path } = conversationLinkParts({ conversationId: 'a/b' });
    assert.deepEqual(parseConversationLink(path, ''), { ok: true, link: { conversationId: 'a/b' } });
  });

  it('refuses other paths, unknown or repeated query parts and empty ids, saying what to do', () => {
    const other = parseConversationLink('/block/1', '');
    assert.ok(!other.ok && /not one PyOps understands \(\/block\/1\)/.test(other.error));
    const unknown = parseConversationLink('/conversation/c', 'project=p&evil=1');
    assert.ok(!unknown.ok && /damaged \(unknown part "evil"\)\. Copy the link again/.test(unknown.error), !unknown.ok ? unknown.error : '');
    const twice = parseConversationLink('/conversation/c', 'message=a&message=b');
    assert.ok(!twice.ok && /names "message" twice/.test(twice.error));
    const empty = parseConversationLink('/conversation/c', 'message=');
    assert.ok(!empty.ok && /damaged/.test(empty.error));
    const long = parseConversationLink(`/conversation/${'x'.repeat(300)}`, '');
    assert.ok(!long.ok && /conversation id is empty or too long/.test(long.error));
    const badEncoding = parseConversationLink('/conversation/%E0%A4%A', '');
    assert.ok(!badEncoding.ok && /not valid URL encoding/.test(badEncoding.error));
  });
});
