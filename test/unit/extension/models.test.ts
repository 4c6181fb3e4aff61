// PyOps' OpenRouter models as a VS Code provider: which models the picker lists, and how VS Code's
// request messages (text, tool calls, tool results, data parts) become AI SDK model messages.
// Also the side panel's live-run reducer, which rebuilds a run from its chunks.
import assert from 'node:assert/strict';
import { CURATED_MODELS } from '../../../src/core/assistant/models/catalog';
import { estimateTokens, toModelMessages } from '../../../src/extension/models/messages';
import { pickerInformation, pickerModels } from '../../../src/extension/models/picker';
import { DEFAULT_MODEL } from '../../../src/core/assistant/models/resolve';
import { LiveRun } from '../../../src/webview/panel/liveRun';
import { DataPart, stubApi, TextPart, ToolCallPart, ToolResultPart } from './vscodeStub';
import { reportResponse } from '../../../src/extension/models/responseParts';
import { forgetSecrets, rememberSecret } from '../../../src/core/assistant/models/redact';

describe('OpenRouter models in VS Code', () => {
  it('lists the curated models, then the extra ids, without duplicates', () => {
    const list = pickerModels(['mistralai/mistral-large', CURATED_MODELS[0].id, ' ', 'mistralai/mistral-large']);
    assert.deepEqual(list.slice(0, CURATED_MODELS.length).map((m) => m.id), CURATED_MODELS.map((m) => m.id));
    assert.deepEqual(list.slice(CURATED_MODELS.length), [{ id: 'mistralai/mistral-large', label: 'mistralai/mistral-large' }]);
  });

  it('offers every model in the picker and marks the documented default (not the first or the priciest) as the default', () => {
    const models = pickerModels([DEFAULT_MODEL]);
    const infos = models.map((m) => ({ id: m.id, contextWindow: 200_000 }));
    const offered = pickerInformation(models, infos, { hasKey: false, defaultId: DEFAULT_MODEL });
    assert.ok(offered.every((m) => m.isUserSelectable), 'without isUserSelectable VS Code leaves the chat with no model');
    assert.deepEqual(offered.filter((m) => m.isDefault).map((m) => m.id), ['~anthropic/claude-sonnet-latest']);
    assert.match(offered[0].tooltip, /Set OpenRouter API Key/);
    // A user default outside the curated list is appended, offered and marked.
    const custom = pickerModels(['mistralai/mistral-large']);
    const marked = pickerInformation(custom, custom.map((m) => ({ id: m.id, contextWindow: 1 })), { hasKey: true, defaultId: 'mistralai/mistral-large' });
    assert.deepEqual(marked.filter((m) => m.isDefault).map((m) => m.id), ['mistralai/mistral-large']);
  });

  it('turns VS Code messages into model messages: system text, tool calls and their results paired', () => {
    const { system, messages } = toModelMessages([
      { role: 3, content: [new TextPart('Be brief.')] },
      { role: 1, content: [new TextPart('Find circuit')] },
      { role: 2, content: [new TextPart('Looking. '), new ToolCallPart('call-1', 'searchGoods', { query: 'circuit' })] },
      { role: 1, content: [new ToolResultPart('call-1', [new TextPart('{"matches":[{"name":"circuit"}]}')]), new TextPart('and?')] },
      { role: 1, content: [new DataPart(new TextEncoder().encode('{"k":1}'), 'application/json'), new DataPart(new Uint8Array([1, 2]), 'image/png')] },
    ]);
    assert.equal(system, 'Be brief.');
    assert.deepEqual(messages, [
      { role: 'user', content: [{ type: 'text', text: 'Find circuit' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Looking. ' }, { type: 'tool-call', toolCallId: 'call-1', toolName: 'searchGoods', input: { query: 'circuit' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'searchGoods', output: { type: 'text', value: '{"matches":[{"name":"circuit"}]}' } }] },
      { role: 'user', content: [{ type: 'text', text: 'and?' }] },
      { role: 'user', content: [{ type: 'text', text: '{"k":1}' }] },
    ]);
  });

  it('reports a stream to VS Code without the key, however the model split or cased it', async () => {
    const key = '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';
    rememberSecret(key);
    try {
      const cut = (s: string, n: number) => Array.from({ length: n }, (_, i) => s.slice(Math.floor((i * s.length) / n), Math.floor(((i + 1) * s.length) / n)));
      const parts = [
        ...['Key: ', ...cut(key, 7), ' / ', ...cut(key.toUpperCase(), 20), '.'].map((text) => ({ type: 'text-delta', id: 't', text })),
        { type: 'tool-call', toolCallId: 'c1', toolName: 'note', input: { text: `save ${key}` } },
        { type: 'text-delta', id: 't', text: `and ${key.slice(0, 30)}` },
        { type: 'error', error: new Error('boom') },
      ];
      const reported: unknown[] = [];
      await assert.rejects(
        reportResponse((async function* () { yield* parts as never[]; })(), (p) => reported.push(p), stubApi, () => 'the provider failed'),
        /the provider failed/,
      );
      const text = reported.filter((p): p is TextPart => p instanceof TextPart).map((p) => p.value).join('');
      assert.equal(text, 'Key: [redacted] / [redacted].and [redacted]', 'what was held back is reported before the error');
      const call = reported.find((p): p is ToolCallPart => p instanceof ToolCallPart)!;
      assert.deepEqual(call.input, { text: 'save [redacted]' });
      assert.ok(!JSON.stringify(reported).toLowerCase().includes(key.slice(9, 21)), 'no run of the key in any part');
    } finally {
      forgetSecrets();
    }
  });

  it('estimates tokens at about four characters each', () => {
    assert.equal(estimateTokens('x'.repeat(40)), 10);
    assert.ok(estimateTokens({ role: 1, content: [new TextPart('x'.repeat(400))] }) >= 100);
  });
});

describe('side panel live run', () => {
  it('rebuilds text and tool steps from replayed chunks and ends as stopped or done', () => {
    const run = new LiveRun();
    run.apply({ conversationId: 'c', phase: 'start' });
    for (const chunk of [
      { type: 'start' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Checking ' },
      { type: 'text-delta', id: 't', delta: 'goods.' },
      { type: 'text-end', id: 't' },
      { type: 'tool-input-available', toolCallId: 'x', toolName: 'searchGoods', input: {} },
      { type: 'tool-output-available', toolCallId: 'x', output: { ok: true, summary: 'Searched goods for "gear" — 1 match' } },
    ]) run.apply({ conversationId: 'c', phase: 'chunk', chunk });
    assert.equal(run.state, 'running');
    run.apply({ conversationId: 'other', phase: 'end', reason: 'stopped' });
    assert.equal(run.state, 'running', 'another conversation does not end this run');
    run.apply({ conversationId: 'c', phase: 'end', reason: 'stopped' });
    assert.equal(run.state, 'stopped');
    const again = new LiveRun();
    again.apply({ conversationId: 'c', phase: 'start' });
    again.apply({ conversationId: 'c', phase: 'chunk', chunk: { type: 'finish' } });
    assert.equal(again.state, 'done');
  });
});
