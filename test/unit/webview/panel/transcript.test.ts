// The transcript as the webview builds it: Markdown becomes elements and model text never becomes
// markup, reasoning is a closed <details>, and the per-message buttons ask for the right thing.
import assert from 'node:assert/strict';
import { markdown, transcriptSection } from '../../../../src/webview/panel/transcript';
import type { FromWebview, TranscriptView } from '../../../../src/webview/protocol';
import { FakeElement, installFakeDom } from './fakeDom';

describe('side panel transcript view', () => {
  let uninstall: () => void;
  beforeEach(() => (uninstall = installFakeDom()));
  afterEach(() => uninstall());

  const tags = (el: FakeElement) => el.all().map((e) => e.tagName);

  it('renders code spans, bold, lists and fenced code as elements, and HTML in the text as text', () => {
    const md = markdown('Use **two** `gear` machines <img src=x onerror=alert(1)>.\n\n- one\n- two\n\n```lua\nlocal a = "<b>"\n```') as unknown as FakeElement;
    assert.deepEqual(tags(md), ['p', 'strong', 'code', 'ul', 'li', 'li', 'pre', 'code']);
    assert.equal(md.all()[0].textContent, 'Use two gear machines <img src=x onerror=alert(1)>.');
    assert.equal(md.all()[6].textContent, 'local a = "<b>"');
    assert.equal(md.all()[6].getAttribute('data-lang'), 'lua');
    assert.ok(!tags(md).includes('img') && !tags(md).includes('b'));
  });

  it('leaves snake_case names alone and shows a link target instead of navigating', () => {
    const md = markdown('Set iron_plate_rate, see [docs](https://example.com/x).') as unknown as FakeElement;
    assert.deepEqual(tags(md), ['p', 'span']);
    assert.equal(md.textContent, 'Set iron_plate_rate, see docs (https://example.com/x).');
  });

  it('shows reasoning closed, tool calls as one line each, and posts branch, link and proposal requests', () => {
    const posted: FromWebview[] = [];
    const view: TranscriptView = {
      conversationId: 'c',
      title: 'Gears',
      total: 12,
      start: 10,
      messages: [
        { id: 'u', role: 'user', origin: 'chat', blocks: [{ kind: 'text', text: 'How?' }] },
        {
          id: 'a',
          role: 'assistant',
          origin: 'chat',
          blocks: [
            { kind: 'reasoning', text: 'Think about gears.' },
            { kind: 'tool', tool: 'searchGoods', status: 'done', summary: 'Found 1 good', detail: 'Input:\n{}' },
            { kind: 'proposal', ref: { conversationId: 'c', messageId: 'a', toolCallId: 't' }, proposal: 'block', title: 'New block: Gears' },
          ],
        },
      ],
    };
    const s = transcriptSection((m) => posted.push(m), view, () => {}) as unknown as FakeElement;
    const details = s.all().filter((e) => e.tagName === 'details');
    assert.equal(details.length, 2);
    assert.ok(details.every((d) => d.getAttribute('open') === null), 'closed by default');
    assert.equal(details[0].all().find((e) => e.tagName === 'summary')!.textContent.trim(), 'Reasoning');
    assert.equal(details[1].all().find((e) => e.tagName === 'summary')!.textContent.trim(), 'searchGoods — Found 1 good');
    const click = (pred: (e: FakeElement) => boolean) => s.all().find(pred)!.click();
    click((e) => e.getAttribute('data-focus-key') === 'branch-msg:a');
    click((e) => e.getAttribute('data-focus-key') === 'link-msg:u');
    click((e) => e.getAttribute('data-focus-key') === 'transcript-link');
    click((e) => e.tagName === 'button' && e.textContent === 'New block: Gears');
    click((e) => e.getAttribute('data-focus-key') === 'transcript-earlier');
    assert.deepEqual(posted, [
      { type: 'branchFromMessage', conversationId: 'c', messageId: 'a' },
      { type: 'copyLink', conversationId: 'c', messageId: 'u' },
      { type: 'copyLink', conversationId: 'c' },
      { type: 'revealProposal', ref: { conversationId: 'c', messageId: 'a', toolCallId: 't' } },
      { type: 'showTranscript', conversationId: 'c', start: 8 },
    ]);
    assert.ok(!s.all().some((e) => e.getAttribute('data-focus-key') === 'transcript-later'), 'the window reaches the newest message');
  });
});
