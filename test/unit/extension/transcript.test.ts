// The transcript the side panel shows for a stored conversation: messages in order, reasoning kept
// apart (the webview collapses it), tool calls as one line with a bounded detail, proposals as
// references to their cards, PyOps' own notes marked, and a window that keeps long ones cheap.
import assert from 'node:assert/strict';
import type { UIMessage } from 'ai';
import { transcriptView } from '../../../src/extension/panel/transcript';
import { reportMessage } from '../../../src/extension/assistant/reports';
import { COMPACTION_DATA } from '../../../src/core/assistant/compaction/summarize';

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const part = (p: unknown) => p as UIMessage['parts'][number];

const answer: UIMessage = {
  id: 'a1',
  role: 'assistant',
  parts: [
    part({ type: 'step-start' }),
    part({ type: 'reasoning', text: 'The user wants **gears**; search first.' }),
    part({ type: 'tool-searchGoods', toolCallId: 'c1', state: 'output-available', input: { query: 'gear' }, output: { ok: true, result: { matches: ['gear'] }, summary: 'Found 1 good for "gear"' } }),
    part({ type: 'tool-getRecipe', toolCallId: 'c2', state: 'output-available', input: { name: 'nope' }, output: { ok: false, error: 'No recipe "nope".', code: 'not-found', summary: 'No recipe named nope' } }),
    part({ type: 'tool-searchGoods', toolCallId: 'c3', state: 'output-error', input: { query: 'x' }, errorText: 'timed out' }),
    part({ type: 'tool-searchGoods', toolCallId: 'c4', state: 'input-available', input: { query: 'y' } }),
    part({ type: 'tool-submitBlock', toolCallId: 'c5', state: 'output-available', input: { target: 'gear' }, output: { ok: true, result: { kind: 'block', name: 'Gears', ok: true }, summary: 'Drafted block Gears' } }),
    part({ type: 'text', text: 'Gears need `iron-plate`.' }),
  ],
};

describe('side panel transcript', () => {
  it('keeps the messages in order with text, collapsed-to-be reasoning and one line per tool call', () => {
    const t = transcriptView('conv', 'Gears', [user('u1', 'How do I make gears?'), answer]);
    assert.deepEqual([t.conversationId, t.title, t.total, t.start], ['conv', 'Gears', 2, 0]);
    assert.deepEqual(
      t.messages.map((m) => [m.id, m.role, m.origin]),
      [
        ['u1', 'user', 'chat'],
        ['a1', 'assistant', 'chat'],
      ],
    );
    assert.deepEqual(t.messages[0].blocks, [{ kind: 'text', text: 'How do I make gears?' }]);
    const blocks = t.messages[1].blocks;
    assert.deepEqual(
      blocks.map((b) => b.kind),
      ['reasoning', 'tool', 'tool', 'tool', 'tool', 'proposal', 'text'],
    );
    assert.deepEqual(blocks[0], { kind: 'reasoning', text: 'The user wants **gears**; search first.' });
    const tools = blocks.filter((b) => b.kind === 'tool');
    assert.deepEqual(
      tools.map((b) => [b.tool, b.status, b.summary]),
      [
        ['searchGoods', 'done', 'Found 1 good for "gear"'],
        ['getRecipe', 'failed', 'No recipe named nope'],
        ['searchGoods', 'failed', 'searchGoods failed: timed out'],
        ['searchGoods', 'pending', 'searchGoods did not finish'],
      ],
    );
    assert.match(tools[0].detail, /Input:\n\{\n "query": "gear"\n\}\n\nResult:\n.*"matches"/s);
    assert.match(tools[1].detail, /Result:\nNo recipe "nope"\./);
    assert.deepEqual(blocks[5], { kind: 'proposal', ref: { conversationId: 'conv', messageId: 'a1', toolCallId: 'c5' }, proposal: 'block', title: 'New block: Gears' });
  });

  it('marks PyOps reports and compaction summaries, and drops empty text', () => {
    const report = reportMessage('r1', 'I created the block Gears from your proposal.', { kind: 'applied', created: ['b1'] });
    const compaction: UIMessage = { id: 'compaction-1', role: 'system', parts: [part({ type: 'text', text: 'Summary…' }), part({ type: COMPACTION_DATA, data: { version: 1, compactedAt: '', model: null, method: 'extractive', originalCount: 16, estimatedTokensBefore: 1, estimatedTokensAfter: 1, originals: [] } })] };
    const t = transcriptView('conv', 'x', [compaction, report, { id: 'e', role: 'assistant', parts: [part({ type: 'text', text: '  ' })] }]);
    assert.deepEqual(
      t.messages.map((m) => m.origin),
      ['compaction', 'report', 'chat'],
    );
    assert.equal(t.messages[0].blocks[0].kind, 'note');
    assert.match((t.messages[0].blocks[0] as { text: string }).text, /^16 messages were compacted/);
    assert.deepEqual(t.messages[1].blocks, [{ kind: 'text', text: 'I created the block Gears from your proposal.' }]);
    assert.deepEqual(t.messages[2].blocks, []);
  });

  it('bounds long text and tool details and says the text was shortened', () => {
    const long = 'x'.repeat(30_000);
    const t = transcriptView('c', 't', [
      { id: 'a', role: 'assistant', parts: [part({ type: 'text', text: long }), part({ type: 'tool-dump', toolCallId: 'd', state: 'output-available', input: {}, output: { ok: true, result: long, summary: 's' } })] },
    ]);
    const [text, tool] = t.messages[0].blocks;
    assert.ok(text.kind === 'text' && text.truncated && text.text.length <= 20_001);
    assert.ok(tool.kind === 'tool' && tool.detail.length <= 2_001);
  });

  it('shows the newest window of a long conversation, or the window holding a linked message', () => {
    const msgs = Array.from({ length: 50 }, (_, i) => user(`m${i}`, `message ${i}`));
    const newest = transcriptView('c', 't', msgs, { window: 20 });
    assert.deepEqual([newest.start, newest.messages.length, newest.messages[0].id, newest.total], [30, 20, 'm30', 50]);
    const focused = transcriptView('c', 't', msgs, { window: 20, focusMessageId: 'm15' });
    assert.equal(focused.start, 5, 'ten messages of context before the linked one');
    assert.ok(focused.messages.some((m) => m.id === 'm15'));
    assert.equal(transcriptView('c', 't', msgs, { window: 20, focusMessageId: 'm45' }).start, 30, 'a message already in the newest window keeps it');
    assert.equal(transcriptView('c', 't', msgs, { window: 20, focusMessageId: 'gone' }).start, 30);
    assert.equal(transcriptView('c', 't', msgs, { window: 20, start: 0 }).messages[0].id, 'm0');
    assert.equal(transcriptView('c', 't', msgs, { window: 20, start: 45 }).start, 30, 'a start past the end shows the newest window');
  });
});
