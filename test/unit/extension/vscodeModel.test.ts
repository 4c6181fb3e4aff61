// The AI SDK adapter over a VS Code chat model, driven through the real agent loop with a stub
// LanguageModelChat: text and tool calls stream back, tool results go to the model as
// LanguageModelToolResultParts, errors read as user advice, and the stop button keeps the partial answer.
import assert from 'node:assert/strict';
import { generateText } from 'ai';
import { runTurn } from '../../../src/core/assistant/turn';
import { loadMessages, getConversation } from '../../../src/core/assistant/conversations/store';
import { toVsCodeTools, toVsCodeMessages, vscodeLanguageModel, vscodeTurnModel } from '../../../src/extension/chat/vscodeModel';
import { echoTool, tempProject, type TempProject } from '../core/assistant/helpers';
import { ChatMessage, stubApi, stubChat, TextPart, ToolCallPart, ToolResultPart } from './vscodeStub';
import { startFakeOpenRouter } from '../../fixtures/fake-openrouter/server';

function turnModelOf(chat: ReturnType<typeof stubChat>['chat']) {
  return vscodeTurnModel(chat, stubApi, { justification: 'test' });
}

const textOf = (m: ChatMessage) => m.content.map((p) => (p instanceof TextPart ? p.value : '')).join('');

describe('VS Code chat model adapter', () => {
  let tp: TempProject;
  beforeEach(async () => {
    tp = await tempProject('adapter');
  });
  afterEach(() => tp.cleanup());

  it('runs a tool loop: streams text, calls a tool, hands the result back and answers', async () => {
    const { chat, requests } = stubChat([[new TextPart('Let me look. '), new ToolCallPart('call-1', 'echoGood', { good: 'iron-plate' })], [new TextPart('You need '), new TextPart('iron-plate.')]]);
    const chunks: string[] = [];
    const r = await runTurn({ project: tp.project, message: 'What do I need?', model: turnModelOf(chat), tools: [echoTool], title: 'off', onChunk: (c) => chunks.push(c.type) });
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(r.finishReason, 'stop');
    assert.equal(r.usage, null, 'VS Code reports no usage, so none is claimed');
    assert.equal(r.modelId, 'stubvendor/stub-1');
    assert.ok(chunks.includes('tool-output-available') && chunks.includes('text-delta'));

    // First request: instructions in a leading user message, the question, the tool offered.
    assert.equal(requests.length, 2);
    const first = requests[0];
    assert.match(textOf(first.messages[0]), /Instructions for this conversation/);
    assert.match(textOf(first.messages[0]), /PyOps/);
    assert.equal(textOf(first.messages[1]), 'What do I need?');
    assert.deepEqual(first.options.tools?.map((t) => t.name), ['echoGood']);
    assert.equal((first.options.tools![0].inputSchema as { properties: Record<string, unknown> }).properties.good !== undefined, true);
    assert.equal(first.options.toolMode, 1);
    assert.equal(first.options.justification, 'test');

    // Second request: the assistant's tool call, then its result as a user message.
    const second = requests[1].messages;
    const call = second.find((m) => m.role === 2 && m.content.some((p) => p instanceof ToolCallPart))!;
    assert.ok(call, 'assistant message with the tool call');
    assert.deepEqual((call.content.find((p) => p instanceof ToolCallPart) as ToolCallPart).input, { good: 'iron-plate' });
    const result = second.find((m) => m.role === 1 && m.content.some((p) => p instanceof ToolResultPart))!;
    const part = result.content[0] as ToolResultPart;
    assert.equal(part.callId, 'call-1');
    assert.match((part.content[0] as TextPart).value, /"repeated":\["iron-plate"\]/);

    // Saved transcript: tool part with the outcome, then the answer.
    const saved = loadMessages(tp.project, r.conversationId)[1];
    const tool = saved.parts.find((p) => p.type === 'tool-echoGood') as { state: string; output: { summary: string } };
    assert.equal(tool.state, 'output-available');
    assert.equal(tool.output.summary, 'Echoed iron-plate');
    assert.match(saved.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join(''), /You need iron-plate\./);
    assert.equal(getConversation(tp.project, r.conversationId)!.lastUsage, null);
  });

  it('explains a refused model in words the user can act on', async () => {
    const denied = Object.assign(new Error('user did not consent'), { code: 'NoPermissions' });
    const { chat } = stubChat([denied]);
    const r = await runTurn({ project: tp.project, message: 'Hi', model: turnModelOf(chat), tools: [echoTool], title: 'off', maxRetries: 0 });
    assert.ok(r.error);
    assert.match(r.error!.message, /not allowed to use the model "Stub Model".*pick another model/);
  });

  it('stops on cancellation and keeps the partial answer', async () => {
    const controller = new AbortController();
    const { chat, requests } = stubChat([
      (token) =>
        (async function* () {
          yield new TextPart('Partial answer ');
          // The user reads the start of the answer, then presses stop.
          setTimeout(() => controller.abort(), 50);
          await new Promise<void>((resolve) => token.onCancellationRequested(() => resolve()));
          yield new TextPart('never shown');
        })(),
    ]);
    const r = await runTurn({ project: tp.project, message: 'Long question', model: turnModelOf(chat), tools: [echoTool], title: 'off', signal: controller.signal });
    assert.equal(r.aborted, true);
    assert.equal(requests.length, 1);
    const saved = loadMessages(tp.project, r.conversationId);
    assert.equal(saved.length, 2);
    const text = saved[1].parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('');
    assert.match(text, /Partial answer/);
    assert.doesNotMatch(text, /never shown/);
  });

  it('maps tool choice: none offers no tools, required and a named tool require one', () => {
    const tools = [
      { type: 'function' as const, name: 'a', description: 'A', inputSchema: { type: 'object' as const } },
      { type: 'function' as const, name: 'b', inputSchema: { type: 'object' as const } },
    ];
    assert.deepEqual(toVsCodeTools({ tools, toolChoice: { type: 'none' } }, stubApi), {});
    assert.equal(toVsCodeTools({ tools, toolChoice: { type: 'required' } }, stubApi).toolMode, 2);
    const named = toVsCodeTools({ tools, toolChoice: { type: 'tool', toolName: 'b' } }, stubApi);
    assert.deepEqual(named.tools?.map((t) => [t.name, t.description]), [['b', 'b']]);
    assert.equal(toVsCodeTools({ tools }, stubApi).toolMode, 1);
  });

  it('turns tool results of every kind into text and skips empty assistant turns', () => {
    const msgs = toVsCodeMessages(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        { role: 'assistant', content: [{ type: 'text', text: '' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'x', toolName: 'a', input: '{"k":1}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'x', toolName: 'a', output: { type: 'error-text', value: 'no good named foo' } }] },
      ],
      stubApi,
    );
    assert.deepEqual(msgs.map((m) => (m as unknown as ChatMessage).role), [1, 1, 2, 1]);
    assert.deepEqual(((msgs[2] as unknown as ChatMessage).content[0] as ToolCallPart).input, { k: 1 });
    assert.equal((((msgs[3] as unknown as ChatMessage).content[0] as ToolResultPart).content[0] as TextPart).value, 'no good named foo');
  });

  it("titles a chat held with a VS Code model through that model, never through OpenRouter (even with a key set)", async () => {
    const fake = await startFakeOpenRouter({ replies: [{ text: 'Leaked title' }] });
    const saved = { key: process.env.OPENROUTER_API_KEY, url: process.env.PYOPS_OPENROUTER_BASE_URL };
    process.env.OPENROUTER_API_KEY = 'sk-or-v1-stored-key-0123456789';
    process.env.PYOPS_OPENROUTER_BASE_URL = fake.url;
    try {
      const { chat, requests } = stubChat([[new TextPart('Twelve furnaces.')], [new TextPart('Iron plate furnaces')]]);
      const r = await runTurn({ project: tp.project, message: 'How many furnaces for iron?', model: turnModelOf(chat), tools: [echoTool], title: 'await' });
      assert.equal(r.error, undefined, r.error?.message);
      assert.equal(await r.title, 'Iron plate furnaces');
      assert.equal(getConversation(tp.project, r.conversationId)?.title, 'Iron plate furnaces');
      assert.equal(requests.length, 2, 'the answer and the title, both from the chat model');
      assert.match(textOf(requests[1].messages.at(-1)!), /How many furnaces for iron\?/);
      assert.equal(fake.requests.length, 0, 'nothing was sent to OpenRouter');
    } finally {
      if (saved.key === undefined) delete process.env.OPENROUTER_API_KEY;
      else process.env.OPENROUTER_API_KEY = saved.key;
      if (saved.url === undefined) delete process.env.PYOPS_OPENROUTER_BASE_URL;
      else process.env.PYOPS_OPENROUTER_BASE_URL = saved.url;
      await fake.close();
    }
  });

  it('answers generateText (titles, summaries) by collecting the stream', async () => {
    const { chat } = stubChat([[new TextPart('Iron '), new TextPart('plates')]]);
    const r = await generateText({ model: vscodeLanguageModel(chat, stubApi), prompt: 'Title?' });
    assert.equal(r.text, 'Iron plates');
    assert.equal(r.response.modelId, 'stubvendor/stub-1');
  });
});
