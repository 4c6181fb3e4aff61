import assert from 'node:assert/strict';
import type { UIMessage } from 'ai';
import { Project } from '../../../../src/core/db/project';
import {
  appendMessage,
  branchConversation,
  ConversationError,
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  loadMessages,
  recordUsage,
  replaceMessages,
  syncMessages,
  truncateFrom,
  truncateToCount,
  updateConversation,
  upsertMessage,
} from '../../../../src/core/assistant/conversations/store';
import { cleanTitle, deriveTitle, isAutomaticTitle, NEW_CHAT } from '../../../../src/core/assistant/conversations/title';
import { assistant, tempProject, toolMessage, user, type TempProject } from './helpers';

describe('assistant conversations store', () => {
  let tp: TempProject;
  beforeEach(async () => {
    tp = await tempProject();
  });
  afterEach(() => tp.cleanup());

  it('creates, reads, updates and deletes a conversation with its messages', () => {
    const p = tp.project;
    const c = createConversation(p, { title: 'Iron', model: 'openai/gpt-4o', reasoningEffort: 'low' });
    assert.equal(getConversation(p, c.id)?.title, 'Iron');
    assert.equal(c.reasoningEffort, 'low');
    assert.equal(c.lastUsage, null);
    const u = updateConversation(p, c.id, { title: '  Copper  ', model: null, reasoningEffort: 'high', compactionSummary: 's', compactionAnchor: 'm1' });
    assert.deepEqual([u.title, u.model, u.reasoningEffort, u.compactionSummary, u.compactionAnchor], ['Copper', null, 'high', 's', 'm1']);
    assert.throws(() => updateConversation(p, c.id, { reasoningEffort: 'max' as any }), /low, medium, high or null/);
    assert.throws(() => updateConversation(p, 'nope', { title: 'x' }), ConversationError);
    appendMessage(p, c.id, user('hi'));
    recordUsage(p, c.id, { inputTokens: 10, outputTokens: 2, totalTokens: null, modelId: 'x/y' });
    assert.deepEqual(getConversation(p, c.id)?.lastUsage, { inputTokens: 10, outputTokens: 2, totalTokens: 12, modelId: 'x/y' });
    assert.equal(listConversations(p)[0].messageCount, 1);
    assert.equal(deleteConversation(p, c.id), true);
    assert.equal(getConversation(p, c.id), undefined);
    assert.equal(p.query('SELECT * FROM conversation_messages').length, 0);
    assert.equal(deleteConversation(p, c.id), false);
    // Chat history is not factory state: nothing went onto the undo stack.
    assert.equal(p.undoable(), undefined);
  });

  it('stores UI message parts and metadata verbatim, so a reload reproduces the transcript exactly', async () => {
    const c = createConversation(tp.project);
    const messages: UIMessage[] = [
      user('How much `iron-plate`?', 'u1'),
      {
        id: 'a1',
        role: 'assistant',
        metadata: { modelId: 'vendor/m-1', usage: { inputTokens: 5, outputTokens: 6, totalTokens: 11 } },
        parts: [
          { type: 'step-start' },
          { type: 'reasoning', text: 'thinking', state: 'done' },
          { type: 'tool-recipeGraph', toolCallId: 'c1', state: 'output-available', input: { target: 'iron-plate' }, output: { ok: true, result: { goods: { a: 1 } }, summary: 'Mapped' } },
          { type: 'tool-submitBlock', toolCallId: 'c2', state: 'output-error', input: { name: 'x' }, errorText: 'bad' },
          { type: 'data-proposal', data: { kind: 'block', rows: [1, 2] } },
          { type: 'text', text: 'Done.', state: 'done' },
        ] as any,
      },
    ];
    syncMessages(tp.project, c.id, messages);
    const file = tp.file;
    tp.project.close();
    const p2 = await Project.open(file, { app: 'test' });
    try {
      assert.deepEqual(loadMessages(p2, c.id), messages);
    } finally {
      p2.close();
    }
  });

  it('syncs by id at each index: updates changed rows, inserts new ones and drops rows past the end', () => {
    const p = tp.project;
    const c = createConversation(p);
    const a = [user('one', 'm1'), assistant('two', 'm2'), user('three', 'm3'), assistant('four', 'm4')];
    assert.deepEqual(syncMessages(p, c.id, a), { inserted: 4, updated: 0, deleted: 0 });
    assert.deepEqual(syncMessages(p, c.id, a), { inserted: 0, updated: 0, deleted: 0 }, 'unchanged rows are not rewritten');
    const b = [a[0], assistant('two, edited', 'm2'), user('new', 'm5')];
    assert.deepEqual(syncMessages(p, c.id, b), { inserted: 1, updated: 1, deleted: 2 });
    assert.deepEqual(loadMessages(p, c.id), b);
    // A message that moves to another index is rewritten there.
    const d = [b[2], b[0]];
    syncMessages(p, c.id, d);
    assert.deepEqual(loadMessages(p, c.id), d);
    assert.throws(() => syncMessages(p, c.id, [user('x', 'dup'), user('y', 'dup')]), /appears twice/);
    const other = createConversation(p);
    assert.throws(() => appendMessage(p, other.id, user('steal', 'm1')), /already used by another conversation/);
    assert.throws(() => appendMessage(p, c.id, { id: '', role: 'user', parts: [] }), /non-empty id/);
  });

  it('replaces, truncates and upserts after a given message', () => {
    const p = tp.project;
    const c = createConversation(p);
    replaceMessages(p, c.id, [user('a', 'm1'), assistant('b', 'm2'), user('c', 'm3'), assistant('d', 'm4')]);
    recordUsage(p, c.id, { inputTokens: 100, outputTokens: 5, totalTokens: 105, modelId: 'm' });
    assert.deepEqual(
      truncateFrom(p, c.id, 'm3').map((m) => m.id),
      ['m1', 'm2'],
    );
    assert.equal(getConversation(p, c.id)?.lastUsage, null, 'the measurement described the longer transcript');
    assert.throws(() => truncateFrom(p, c.id, 'zz'), /not in conversation/);
    upsertMessage(p, c.id, assistant('inserted', 'm9'), { afterId: 'm1' });
    assert.deepEqual(
      loadMessages(p, c.id).map((m) => m.id),
      ['m1', 'm9', 'm2'],
    );
    upsertMessage(p, c.id, assistant('replaced', 'm9'), { afterId: 'm1' });
    assert.match(JSON.stringify(loadMessages(p, c.id)[1].parts), /replaced/);
    assert.deepEqual(
      truncateToCount(p, c.id, 1).map((m) => m.id),
      ['m1'],
    );
  });

  it('branches a prefix into a new conversation with fresh ids and the same model and reasoning', () => {
    const p = tp.project;
    const c = createConversation(p, { title: 'Plastics', model: 'openai/gpt-5', reasoningEffort: 'medium' });
    const src = [user('a', 'm1'), toolMessage(50, 'm2'), user('c', 'm3'), assistant('d', 'm4')];
    replaceMessages(p, c.id, src);
    recordUsage(p, c.id, { inputTokens: 1, outputTokens: 1, totalTokens: 2, modelId: 'z' });
    const { conversation: b, messages } = branchConversation(p, c.id, 'm2');
    assert.notEqual(b.id, c.id);
    assert.deepEqual([b.model, b.reasoningEffort, b.title, b.lastUsage], ['openai/gpt-5', 'medium', 'Plastics (branch)', null]);
    assert.equal(messages.length, 2);
    assert.ok(messages.every((m, i) => m.id !== src[i].id));
    assert.deepEqual(
      messages.map((m) => m.parts),
      src.slice(0, 2).map((m) => m.parts),
    );
    assert.deepEqual(loadMessages(p, b.id), messages);
    assert.equal(loadMessages(p, c.id).length, 4, 'the source is untouched');
    assert.throws(() => branchConversation(p, c.id, 'nope'), /not in conversation/);
  });

  it('branches from a message after a compaction with the summary re-anchored, and from one before it without', () => {
    const p = tp.project;
    const c = createConversation(p);
    const summary: UIMessage = { id: 'compaction-x', role: 'system', parts: [{ type: 'text', text: 'Earlier: iron.' }] };
    replaceMessages(p, c.id, [summary, user('a', 'k1'), assistant('b', 'k2'), user('c', 'k3')]);
    updateConversation(p, c.id, { compactionSummary: 'Earlier: iron.', compactionAnchor: 'k2' });
    const after = branchConversation(p, c.id, 'k3');
    assert.equal(after.conversation.title, null, 'an untitled conversation branches untitled');
    assert.equal(after.messages.length, 4);
    assert.ok(after.messages[0].id.startsWith('compaction-'), 'the summary message stays recognisable');
    assert.equal(after.conversation.compactionAnchor, after.messages[2].id, 'the cached summary points at the copy of its anchor');
    assert.equal(after.conversation.compactionSummary, 'Earlier: iron.');
    const before = branchConversation(p, c.id, 'k1');
    assert.equal(before.messages.length, 2);
    assert.deepEqual([before.conversation.compactionSummary, before.conversation.compactionAnchor], [null, null], 'the anchor was cut off, so no cached summary');
  });

  it('titles: derived from the first user text, cleaned, and replaced only while automatic', () => {
    assert.equal(deriveTitle('  How many   furnaces?  '), 'How many furnaces?');
    assert.equal(deriveTitle(''), NEW_CHAT);
    const long = 'x'.repeat(80);
    assert.equal(deriveTitle(long), 'x'.repeat(57) + '…');
    assert.equal(deriveTitle('y'.repeat(60)), 'y'.repeat(60));
    assert.equal(cleanTitle('"Iron `plate` furnaces."\nmore'), 'Iron plate furnaces');
    assert.equal(cleanTitle('Title: Plastic  bar...'), 'Plastic bar');
    assert.ok(cleanTitle('w '.repeat(60)).length <= 70);
    const msgs = [user('How many furnaces?')];
    assert.equal(isAutomaticTitle(null, msgs), true);
    assert.equal(isAutomaticTitle(NEW_CHAT, msgs), true);
    assert.equal(isAutomaticTitle('How many furnaces?', msgs), true);
    assert.equal(isAutomaticTitle('My iron plan', msgs), false);
  });
});
