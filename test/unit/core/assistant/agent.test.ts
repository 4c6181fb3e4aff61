import assert from 'node:assert/strict';
import { APICallError, type UIMessageChunk } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { runAgent, stepLimitNotice } from '../../../../src/core/assistant/agent/loop';
import { toAiTools, toolInputJsonSchema } from '../../../../src/core/assistant/agent/tools';
import { toModelMessages } from '../../../../src/core/assistant/agent/messages';
import { runTool } from '../../../../src/core/assistant/tools/run';
import { echoTool, errorStep, failingTool, mockModel, tempProject, textStep, toolStep, turnModel, user, type TempProject } from './helpers';

describe('assistant agent loop', () => {
  let tp: TempProject;
  beforeEach(async () => {
    tp = await tempProject();
  });
  afterEach(() => tp.cleanup());

  const tools = () => toAiTools([echoTool, failingTool], { project: tp.project, caller: 'agent' });

  it('runs the tool loop: the tool result goes back to the model and the answer follows', async () => {
    const model = mockModel([toolStep([{ name: 'echoGood', input: { good: 'iron-plate', times: 2 }, id: 'c1' }]), textStep('You need `iron-plate`.')]);
    const chunks: UIMessageChunk[] = [];
    const r = await runAgent({ model: turnModel(model), system: 'sys', messages: [user('hi')], tools: tools(), messageId: 'm1', onChunk: (c) => chunks.push(c) });
    assert.equal(r.error, undefined);
    assert.equal(r.finishReason, 'stop');
    assert.equal(r.steps, 2);
    assert.equal(model.doStreamCalls.length, 2);
    const toolPart = r.message.parts.find((p) => p.type === 'tool-echoGood') as any;
    assert.equal(toolPart.state, 'output-available');
    assert.deepEqual(toolPart.output, { ok: true, result: { good: 'iron-plate', repeated: ['iron-plate', 'iron-plate'] }, summary: 'Echoed iron-plate' });
    assert.equal(r.message.id, 'm1');
    assert.match(JSON.stringify(r.message.parts), /You need `iron-plate`\./);
    // The model reads back the result only (not the summary), paired with its call.
    const second = model.doStreamCalls[1].prompt as any[];
    const toolMsg = second.find((m) => m.role === 'tool');
    assert.equal(toolMsg.content[0].toolCallId, 'c1');
    assert.deepEqual(toolMsg.content[0].output, { type: 'json', value: { good: 'iron-plate', repeated: ['iron-plate', 'iron-plate'] } });
    assert.equal(second[0].role, 'system');
    assert.equal(second[0].content, 'sys');
    assert.ok(chunks.some((c) => c.type === 'tool-output-available'));
    assert.equal(chunks.at(-1)?.type, 'finish');
  });

  it('hands a throwing tool back to the model as an error result, not an exception', async () => {
    const model = mockModel([toolStep([{ name: 'alwaysFails', input: {}, id: 'c1' }]), textStep('Let me search instead.')]);
    const r = await runAgent({ model: turnModel(model), system: 's', messages: [user('x')], tools: tools(), messageId: 'm' });
    assert.equal(r.error, undefined);
    const part = r.message.parts.find((p) => p.type === 'tool-alwaysFails') as any;
    assert.equal(part.state, 'output-available');
    assert.equal(part.output.ok, false);
    const toolMsg = (model.doStreamCalls[1].prompt as any[]).find((m) => m.role === 'tool');
    assert.equal(toolMsg.content[0].output.type, 'error-text');
    assert.match(toolMsg.content[0].output.value, /did you mean iron-plate/);
  });

  it("rejects bad tool input through the tool's schema with a message naming the field", async () => {
    const model = mockModel([toolStep([{ name: 'echoGood', input: { good: 7, times: 9 }, id: 'c1' }]), textStep('Fixed.')]);
    const r = await runAgent({ model: turnModel(model), system: 's', messages: [user('x')], tools: tools(), messageId: 'm' });
    const part = r.message.parts.find((p) => p.type === 'tool-echoGood') as any;
    assert.equal(part.output.ok, false);
    assert.equal(part.output.code, 'invalid-input');
    assert.match(part.output.error, /^Invalid input for echoGood: good: .*; times: .*Fix these fields/);
    const toolMsg = (model.doStreamCalls[1].prompt as any[]).find((m) => m.role === 'tool');
    assert.match(toolMsg.content[0].output.value, /Invalid input for echoGood: good:/);
    // The same text as runTool gives any other caller.
    const direct = await runTool(echoTool, { good: 7, times: 9 }, { project: tp.project, caller: 'cli' });
    assert.equal(direct.ok, false);
    assert.equal((direct as any).error, part.output.error);
  });

  it('shows the model the zod schema as JSON Schema', async () => {
    const s = toolInputJsonSchema(echoTool) as any;
    assert.equal(s.type, 'object');
    assert.equal(s.properties.good.type, 'string');
    assert.equal(s.properties.times.maximum, 3);
    assert.deepEqual(s.required, ['good']);
    assert.equal(s.$schema, undefined);
  });

  it('stops at the step bound and tells the user so', async () => {
    const model = mockModel([0, 1, 2, 3].map((i) => toolStep([{ name: 'echoGood', input: { good: `g${i}` } }])));
    const r = await runAgent({ model: turnModel(model), system: 's', messages: [user('x')], tools: tools(), messageId: 'm', maxSteps: 3 });
    assert.equal(model.doStreamCalls.length, 3);
    assert.equal(r.stepCapHit, true);
    assert.equal(r.finishReason, 'tool-calls');
    const last = r.message.parts.at(-1) as any;
    assert.equal(last.type, 'text');
    assert.equal(last.text, stepLimitNotice(3).trimStart());
    assert.match(last.text, /stopped after 3 tool steps/);
    assert.equal((r.message.metadata as any).stepCapHit, true);
  });

  it("records the last step's usage and concrete model id, not the sum", async () => {
    const model = mockModel([toolStep([{ name: 'echoGood', input: { good: 'a' } }], { input: 1000, output: 50, modelId: 'vendor/first' }), textStep('ok', { input: 1300, output: 70, modelId: 'vendor/model-2026-01-01' })]);
    const r = await runAgent({ model: turnModel(model), system: 's', messages: [user('x')], tools: tools(), messageId: 'm' });
    assert.deepEqual(r.usage, { inputTokens: 1300, outputTokens: 70, totalTokens: 1370 });
    assert.equal(r.modelId, 'vendor/model-2026-01-01');
    assert.deepEqual((r.message.metadata as any).usage, r.usage);
    assert.equal((r.message.metadata as any).modelId, 'vendor/model-2026-01-01');
  });

  it('sends reasoning options only to models that support them', async () => {
    const plain = mockModel([textStep('a')]);
    await runAgent({ model: turnModel(plain, { supportsReasoning: false }), system: 's', messages: [user('x')], tools: tools(), messageId: 'm', reasoningEffort: 'high' });
    assert.equal((plain.doStreamCalls[0].providerOptions as any)?.openrouter, undefined);

    const thinking = mockModel([textStep('a', { reasoning: 'hmm' })]);
    const r = await runAgent({ model: turnModel(thinking, { supportsReasoning: true }), system: 's', messages: [user('x')], tools: tools(), messageId: 'm', reasoningEffort: 'high' });
    assert.deepEqual((thinking.doStreamCalls[0].providerOptions as any).openrouter.reasoning, { effort: 'high', exclude: false });
    assert.ok(r.message.parts.some((p) => p.type === 'reasoning'));

    const auto = mockModel([textStep('a')]);
    await runAgent({ model: turnModel(auto, { supportsReasoning: true }), system: 's', messages: [user('x')], tools: tools(), messageId: 'm', reasoningEffort: null });
    assert.equal((auto.doStreamCalls[0].providerOptions as any)?.openrouter, undefined);
  });

  it('stops on abort and keeps the partial answer', async () => {
    const model = mockModel([textStep(['one ', 'two ', 'three ', 'four ', 'five '], { delayMs: 30 })]);
    const ac = new AbortController();
    let deltas = 0;
    const r = await runAgent({
      model: turnModel(model),
      system: 's',
      messages: [user('x')],
      tools: tools(),
      messageId: 'm',
      signal: ac.signal,
      onChunk: (c) => {
        if (c.type === 'text-delta' && ++deltas === 2) ac.abort();
      },
    });
    assert.equal(r.aborted, true);
    assert.equal(r.finishReason, 'aborted');
    assert.equal(r.error, undefined);
    const text = (r.message.parts.find((p) => p.type === 'text') as any)?.text ?? '';
    assert.match(text, /^one two/);
    assert.doesNotMatch(text, /five/);
  });

  it('reports a mid-stream provider failure clearly and keeps the partial text', async () => {
    const err = new APICallError({ message: 'upstream overloaded', url: 'x', requestBodyValues: {}, statusCode: 503 });
    const model = mockModel([errorStep(err, 'The first block is')]);
    const chunks: UIMessageChunk[] = [];
    const r = await runAgent({ model: turnModel(model), system: 's', messages: [user('x')], tools: tools(), messageId: 'm', maxRetries: 0, onChunk: (c) => chunks.push(c) });
    assert.equal(r.error?.kind, 'server');
    assert.match(r.error!.message, /Retry/);
    assert.match(JSON.stringify(r.message.parts), /The first block is/);
    const errPart = r.message.parts.find((p) => p.type === 'data-turn-error') as any;
    assert.equal(errPart.data.kind, 'server');
    assert.ok(chunks.some((c) => c.type === 'error'));
  });

  it('withholds everything when the provider refuses a too-long context, so the turn can retry', async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new APICallError({ message: "This endpoint's maximum context length is 200000 tokens. However, you requested about 250000 tokens", url: 'x', requestBodyValues: {}, statusCode: 400 });
      },
    });
    const chunks: UIMessageChunk[] = [];
    const r = await runAgent({ model: turnModel(model), system: 's', messages: [user('x')], tools: tools(), messageId: 'm', holdForContextRetry: true, maxRetries: 0, onChunk: (c) => chunks.push(c) });
    assert.equal(r.contextRetryable, true);
    assert.equal(r.error?.kind, 'context-length');
    assert.deepEqual(chunks, []);
  });

  it('keeps tool calls paired with their results when converting a stored transcript', async () => {
    const stored = [
      user('q', 'u1'),
      {
        id: 'a1',
        role: 'assistant' as const,
        parts: [
          { type: 'step-start' },
          { type: 'tool-echoGood', toolCallId: 'done', state: 'output-available', input: { good: 'a' }, output: { ok: true, result: 1, summary: 's' } },
          { type: 'tool-echoGood', toolCallId: 'cut', state: 'input-available', input: { good: 'b' } },
          { type: 'reasoning', text: 'private' },
          { type: 'data-turn-error', data: { kind: 'network' } },
          { type: 'text', text: 'partial' },
        ] as any,
      },
      { id: 'e1', role: 'assistant' as const, parts: [{ type: 'data-turn-error', data: { kind: 'auth' } }] as any },
      user('again', 'u2'),
    ];
    const msgs = (await toModelMessages(stored, tools())) as any[];
    const calls = msgs.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((c: any) => c.type === 'tool-call');
    const results = msgs.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((c: any) => c.type === 'tool-result');
    assert.deepEqual(
      calls.map((c: any) => c.toolCallId),
      ['done'],
    );
    assert.deepEqual(
      results.map((c: any) => c.toolCallId),
      ['done'],
    );
    assert.doesNotMatch(JSON.stringify(msgs), /private|turn-error/);
    assert.match(JSON.stringify(msgs), /partial/);
    // The error-only assistant message has nothing for the model and is left out.
    assert.deepEqual(
      msgs.map((m) => m.role),
      ['user', 'assistant', 'tool', 'user'],
    );
  });
});
