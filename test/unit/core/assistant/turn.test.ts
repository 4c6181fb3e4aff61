import assert from 'node:assert/strict';
import { APICallError, type UIMessageChunk } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { runTurn, editAndRerun, retryAssistant } from '../../../../src/core/assistant/turn';
import { RunStore } from '../../../../src/core/assistant/runs/store';
import { NoApiKeyError } from '../../../../src/core/assistant/models/errors';
import { createConversation, getConversation, loadMessages, recordUsage, replaceMessages, updateConversation, branchConversation } from '../../../../src/core/assistant/conversations/store';
import { isCompactionMessage } from '../../../../src/core/assistant/compaction/summarize';
import { writeSettings } from '../../../../src/core/planning/settings';
import { generateModel, mockModel, tempProject, testTools, textStep, toolStep, transcript, turnModel, type TempProject } from './helpers';

/** A model that streams from `steps` and answers doGenerate (title, summary) with `title`. */
function chatModel(steps: unknown[], title: string | Error = 'Iron plate furnaces') {
  const m = mockModel(steps);
  const g = generateModel(title);
  (m as any).doGenerate = g.doGenerate;
  Object.defineProperty(m, 'doGenerateCalls', { get: () => g.doGenerateCalls });
  return m;
}

describe('assistant turn', () => {
  let tp: TempProject;
  beforeEach(async () => {
    tp = await tempProject();
  });
  afterEach(() => tp.cleanup());

  it('persists the user message, the answer with last-step usage and model id, and titles the first exchange', async () => {
    const model = chatModel([toolStep([{ name: 'echoGood', input: { good: 'iron-plate' } }], { input: 500, output: 20 }), textStep('12 furnaces.', { input: 800, output: 30, modelId: 'vendor/concrete-7' })]);
    const r = await runTurn({ project: tp.project, message: 'How many furnaces for iron?', model: turnModel(model), tools: testTools, title: 'await' });
    assert.equal(r.error, undefined);
    assert.equal(r.finishReason, 'stop');
    assert.equal(await r.title, 'Iron plate furnaces');
    const conv = getConversation(tp.project, r.conversationId)!;
    assert.equal(conv.title, 'Iron plate furnaces');
    assert.deepEqual(conv.lastUsage, { inputTokens: 800, outputTokens: 30, totalTokens: 830, modelId: 'vendor/concrete-7' });
    const msgs = loadMessages(tp.project, r.conversationId);
    assert.deepEqual(
      msgs.map((m) => m.role),
      ['user', 'assistant'],
    );
    assert.deepEqual(msgs[1], r.message);
    assert.equal((msgs[1].metadata as any).modelId, 'vendor/concrete-7');
    // The title call: low reasoning only when supported (not here), 512 tokens.
    assert.equal((model as any).doGenerateCalls[0].maxOutputTokens, 512);

    // A second exchange is not re-titled.
    const model2 = chatModel([textStep('More.')], 'Other title');
    const r2 = await runTurn({ project: tp.project, conversationId: r.conversationId, message: 'And copper?', model: turnModel(model2), tools: testTools, title: 'await' });
    assert.equal(await r2.title, undefined);
    assert.equal(getConversation(tp.project, r.conversationId)!.title, 'Iron plate furnaces');
    assert.equal(loadMessages(tp.project, r.conversationId).length, 4);
    // The second request carried the whole transcript, tool call and result paired.
    const prompt = (model2.doStreamCalls[0].prompt as any[]).map((m) => m.role);
    assert.deepEqual(prompt, ['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it("tells the model the project's module presets in this turn's system prompt", async () => {
    tp.project.write((db) => db.run('INSERT INTO main.module_presets(id, name, data) VALUES (?, ?, ?)', ['mp-1', 'Speed line', JSON.stringify({ modules: [{ name: 'speed-module', count: 2 }] })]));
    const model = chatModel([textStep('Noted.')]);
    await runTurn({ project: tp.project, message: 'Use my presets', model: turnModel(model), tools: testTools });
    const system = (model.doStreamCalls[0].prompt as any[]).find((m) => m.role === 'system');
    assert.match(String(system.content), /Module presets of this project: "Speed line"\./);
  });

  it('names a new conversation from its first message at once and never overwrites a title the user chose', async () => {
    const c = createConversation(tp.project);
    updateConversation(tp.project, c.id, { title: 'My plan' });
    const r = await runTurn({ project: tp.project, conversationId: c.id, message: 'Hello', model: turnModel(chatModel([textStep('Hi.')])), tools: testTools, title: 'await' });
    assert.equal(await r.title, undefined);
    assert.equal(getConversation(tp.project, c.id)!.title, 'My plan');
    const slow = chatModel([textStep('Hi.')], new Error('title model down'));
    const r2 = await runTurn({ project: tp.project, message: 'Plan a coke block', model: turnModel(slow), tools: testTools, title: 'await' });
    assert.equal(getConversation(tp.project, r2.conversationId)!.title, 'Plan a coke block', 'a failed title call is silent');
  });

  it('injects the current horizon contract on every turn', async () => {
    const m1 = chatModel([textStep('a')]);
    const r = await runTurn({ project: tp.project, message: 'x', model: turnModel(m1), tools: testTools, title: 'off' });
    assert.match(JSON.stringify(m1.doStreamCalls[0].prompt[0]), /Current planning horizon: NOW/);
    writeSettings(tp.project, { research_mode: 'future' });
    const m2 = chatModel([textStep('b')]);
    await runTurn({ project: tp.project, conversationId: r.conversationId, message: 'y', model: turnModel(m2), tools: testTools, title: 'off' });
    assert.match(JSON.stringify(m2.doStreamCalls[0].prompt[0]), /Current planning horizon: FUTURE/);
  });

  it('resolves the model after loading the conversation, and saves the question when there is no key', async () => {
    const c = createConversation(tp.project, { model: 'vendor/override', reasoningEffort: 'medium' });
    let seen: string | null = null;
    const chunks: UIMessageChunk[] = [];
    const r = await runTurn({
      project: tp.project,
      conversationId: c.id,
      message: 'Plan iron',
      tools: testTools,
      onChunk: (x) => chunks.push(x),
      model: async (conv) => {
        seen = conv.model;
        throw new NoApiKeyError('Set OPENROUTER_API_KEY.');
      },
    });
    assert.equal(seen, 'vendor/override');
    assert.equal(r.error?.kind, 'no-key');
    assert.match(r.error!.message, /No OpenRouter API key is set\. Set OPENROUTER_API_KEY\./);
    const msgs = loadMessages(tp.project, c.id);
    assert.equal(msgs[0].role, 'user');
    assert.ok(msgs[1].parts.some((p) => p.type === 'data-turn-error'));
    assert.ok(chunks.some((x) => x.type === 'error'));
    // The reasoning setting reaches a model that supports it.
    const m = chatModel([textStep('ok')]);
    await runTurn({ project: tp.project, conversationId: c.id, message: 'again', model: turnModel(m, { supportsReasoning: true }), tools: testTools, title: 'off' });
    assert.deepEqual((m.doStreamCalls[0].providerOptions as any).openrouter.reasoning, { effort: 'medium', exclude: false });
  });

  it('streams through the run store: a late subscriber gets the replay, stop saves the partial answer', async () => {
    const runs = new RunStore();
    const model = chatModel([textStep(['Step one. ', 'Step two. ', 'Step three. ', 'Step four. '], { delayMs: 40 })]);
    const c = createConversation(tp.project);
    let started!: () => void;
    const first = new Promise<void>((r) => (started = r));
    const turn = runTurn({
      project: tp.project,
      conversationId: c.id,
      message: 'Plan',
      model: turnModel(model),
      tools: testTools,
      runs,
      title: 'off',
      onChunk: (x) => {
        if (x.type === 'text-delta') started();
      },
    });
    await first;
    const late: UIMessageChunk[] = [];
    const closed: string[] = [];
    runs.subscribe(c.id, { onChunk: (x) => void late.push(x), onClose: (r) => void closed.push(r) });
    assert.ok(late.some((x) => x.type === 'start'), 'replay starts at the beginning');
    const stop = await runs.stop(c.id);
    assert.equal(stop.stopped, true);
    assert.deepEqual(closed, ['stopped']);
    const r = await turn;
    assert.equal(r.aborted, true);
    assert.equal(r.error, undefined);
    const msgs = loadMessages(tp.project, c.id);
    assert.equal(msgs.length, 2);
    assert.match(JSON.stringify(msgs[1].parts), /Step one\./);
    assert.doesNotMatch(JSON.stringify(msgs[1].parts), /Step four/);
    assert.equal(runs.get(c.id), undefined);
  });

  it('a new turn on the same conversation aborts the running one; both messages survive', async () => {
    const runs = new RunStore();
    const c = createConversation(tp.project);
    const slow = chatModel([textStep(['a ', 'b ', 'c ', 'd ', 'e '], { delayMs: 50 })]);
    let go!: () => void;
    const begun = new Promise<void>((r) => (go = r));
    const t1 = runTurn({ project: tp.project, conversationId: c.id, message: 'first', model: turnModel(slow), tools: testTools, runs, title: 'off', onChunk: (x) => x.type === 'text-delta' && go() });
    await begun;
    const t2 = runTurn({ project: tp.project, conversationId: c.id, message: 'second', model: turnModel(chatModel([textStep('fresh answer')])), tools: testTools, runs, title: 'off' });
    const [r1, r2] = await Promise.all([t1, t2]);
    assert.equal(r1.aborted, true);
    assert.equal(r2.aborted, false);
    const msgs = loadMessages(tp.project, c.id);
    assert.deepEqual(
      msgs.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.match(JSON.stringify(msgs[3].parts), /fresh answer/);
  });

  it('a host cancellation stops the turn like a stop', async () => {
    const ac = new AbortController();
    const model = chatModel([textStep(['x ', 'y ', 'z '], { delayMs: 40 })]);
    const r = await runTurn({ project: tp.project, message: 'go', model: turnModel(model), tools: testTools, signal: ac.signal, title: 'off', onChunk: (c) => c.type === 'text-delta' && ac.abort() });
    assert.equal(r.aborted, true);
    assert.equal(loadMessages(tp.project, r.conversationId).length, 2);
  });

  it('edits a user message (truncate and rerun), retries an assistant message, and branches', async () => {
    const c = createConversation(tp.project);
    const r1 = await runTurn({ project: tp.project, conversationId: c.id, message: 'Plan iron', model: turnModel(chatModel([textStep('Iron answer')])), tools: testTools, title: 'off' });
    await runTurn({ project: tp.project, conversationId: c.id, message: 'Now copper', model: turnModel(chatModel([textStep('Copper answer')])), tools: testTools, title: 'off' });
    const firstUser = r1.userMessage!.id;
    const edited = await editAndRerun({ project: tp.project, conversationId: c.id, messageId: firstUser, message: 'Plan steel', model: turnModel(chatModel([textStep('Steel answer')])), tools: testTools, title: 'off' });
    let msgs = loadMessages(tp.project, c.id);
    assert.deepEqual(
      msgs.map((m) => JSON.stringify(m.parts).match(/Plan steel|Steel answer|iron|copper/i)?.[0]),
      ['Plan steel', 'Steel answer'],
    );
    const retryModel = chatModel([textStep('Steel answer, take two')]);
    await retryAssistant({ project: tp.project, conversationId: c.id, messageId: edited.message!.id, model: turnModel(retryModel), tools: testTools, title: 'off' });
    msgs = loadMessages(tp.project, c.id);
    assert.equal(msgs.length, 2);
    assert.match(JSON.stringify(msgs[1].parts), /take two/);
    assert.deepEqual(
      (retryModel.doStreamCalls[0].prompt as any[]).map((m) => m.role),
      ['system', 'user'],
      'the retry answers the preceding transcript',
    );
    await assert.rejects(retryAssistant({ project: tp.project, conversationId: c.id, messageId: msgs[0].id, model: turnModel(retryModel), tools: testTools }), /Only an assistant message/);
    await assert.rejects(editAndRerun({ project: tp.project, conversationId: c.id, messageId: msgs[1].id, message: 'x', model: turnModel(retryModel), tools: testTools }), /Only a user message/);

    updateConversation(tp.project, c.id, { model: 'vendor/x', reasoningEffort: 'high' });
    const { conversation: b } = branchConversation(tp.project, c.id, msgs[0].id);
    const branched = await runTurn({ project: tp.project, conversationId: b.id, model: turnModel(chatModel([textStep('Branch answer')])), tools: testTools, title: 'off' });
    assert.equal(branched.error, undefined);
    assert.deepEqual([getConversation(tp.project, b.id)!.model, getConversation(tp.project, b.id)!.reasoningEffort], ['vendor/x', 'high']);
    assert.equal(loadMessages(tp.project, b.id).length, 2);
  });

  it('compacts before generating when the context is over 75 % and sends the summary as one system message', async () => {
    const c = createConversation(tp.project);
    replaceMessages(tp.project, c.id, transcript(30, 2000));
    recordUsage(tp.project, c.id, { inputTokens: 40_000, outputTokens: 500, totalTokens: 40_500, modelId: 'mock/model' });
    const model = chatModel([textStep('Continuing.')], '- summary: iron goals');
    const chunks: UIMessageChunk[] = [];
    const r = await runTurn({ project: tp.project, conversationId: c.id, message: 'next', model: turnModel(model, { contextWindow: 50_000 }), tools: testTools, title: 'off', onChunk: (x) => chunks.push(x) });
    assert.ok(r.compaction, 'compacted');
    assert.equal(r.compaction!.method, 'model');
    assert.ok(chunks.some((x) => x.type === 'data-pyops-compaction'));
    const stored = loadMessages(tp.project, c.id);
    assert.ok(isCompactionMessage(stored[0]));
    const prompt = model.doStreamCalls[0].prompt as any[];
    assert.equal(prompt.filter((m) => m.role === 'system').length, 2, 'system prompt + summary');
    assert.match(JSON.stringify(prompt[1]), /summary: iron goals/);
    assert.doesNotMatch(JSON.stringify(prompt), /originals/);
    assert.deepEqual(getConversation(tp.project, c.id)!.lastUsage?.modelId, 'vendor/concrete-model', 'fresh measurement after the turn');
  });

  it('on a "context too long" refusal compacts deterministically and retries once', async () => {
    const c = createConversation(tp.project);
    replaceMessages(tp.project, c.id, transcript(10));
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        calls++;
        if (calls === 1) throw new APICallError({ message: 'prompt is too long: 210000 tokens > 200000 maximum', url: 'x', requestBodyValues: {}, statusCode: 400 });
        return textStep('Fits now.');
      },
    });
    const chunks: UIMessageChunk[] = [];
    const r = await runTurn({ project: tp.project, conversationId: c.id, message: 'more', model: turnModel(model), tools: testTools, title: 'off', maxRetries: 0, onChunk: (x) => chunks.push(x) });
    assert.equal(r.error, undefined);
    assert.equal(r.contextRetried, true);
    assert.equal(calls, 2);
    assert.equal(r.compaction?.method, 'extractive');
    // The estimate just proved low, so the retry must send far less than it, not 55 % of the window.
    assert.ok(r.compaction!.estimatedAfter <= 0.75 * r.compaction!.estimatedBefore, `${r.compaction!.estimatedBefore} → ${r.compaction!.estimatedAfter}`);
    assert.ok(!chunks.some((x) => x.type === 'error'), 'the failed attempt never reached the user');
    const stored = loadMessages(tp.project, c.id);
    assert.ok(isCompactionMessage(stored[0]));
    assert.match(JSON.stringify(stored.at(-1)!.parts), /Fits now/);
  });

  it('reports a refusal it cannot fix by compacting (too few messages) and keeps the question', async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new APICallError({ message: 'maximum context length exceeded', url: 'x', requestBodyValues: {}, statusCode: 400 });
      },
    });
    const r = await runTurn({ project: tp.project, message: 'x'.repeat(100), model: turnModel(model), tools: testTools, title: 'off', maxRetries: 0 });
    assert.equal(r.error?.kind, 'context-length');
    assert.match(r.error!.message, /Compact the conversation or start a new one/);
    const msgs = loadMessages(tp.project, r.conversationId);
    assert.equal(msgs[0].role, 'user');
    assert.ok(msgs[1].parts.some((p) => p.type === 'data-turn-error'));
  });

  it('says so when the step cap is hit, and the turn records no undo action', async () => {
    const before = tp.project.query('SELECT count(*) AS n FROM undo_actions')[0];
    const model = chatModel([toolStep([{ name: 'echoGood', input: { good: 'a' } }]), toolStep([{ name: 'echoGood', input: { good: 'b' } }])]);
    const r = await runTurn({ project: tp.project, message: 'loop', model: turnModel(model), tools: testTools, title: 'off', maxSteps: 2 });
    assert.equal(r.stepCapHit, true);
    assert.match(JSON.stringify(r.message!.parts), /stopped after 2 tool steps/);
    assert.deepEqual(tp.project.query('SELECT count(*) AS n FROM undo_actions')[0], before);
  });

  it('a turn sent later replaces an earlier one still resolving its model, never the reverse', async () => {
    const conv = createConversation(tp.project);
    const runs = new RunStore();
    const slowModel = async () => {
      await new Promise((r) => setTimeout(r, 200)); // e.g. the first catalogue fetch
      return turnModel(mockModel([textStep('answer to A')]));
    };
    const pA = runTurn({ project: tp.project, conversationId: conv.id, message: 'A', model: slowModel, tools: testTools, title: 'off', runs });
    await new Promise((r) => setTimeout(r, 20));
    const rB = await runTurn({ project: tp.project, conversationId: conv.id, message: 'B', model: turnModel(mockModel([textStep('answer to B')])), tools: testTools, title: 'off', runs });
    const rA = await pA;
    assert.equal(rA.aborted, true);
    assert.equal(rB.aborted, false);
    const texts = loadMessages(tp.project, conv.id).map((m) => `${m.role}:${m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')}`);
    assert.deepEqual(texts, ['user:A', 'user:B', 'assistant:answer to B']);
  });

  it('a stop while compacting saves no compaction and generates nothing', async () => {
    const c = createConversation(tp.project);
    replaceMessages(tp.project, c.id, transcript(30, 2000));
    recordUsage(tp.project, c.id, { inputTokens: 40_000, outputTokens: 500, totalTokens: 40_500, modelId: 'mock/model' });
    const runs = new RunStore();
    const m = mockModel([textStep('Continuing.')]);
    // The summary call waits until it is aborted.
    (m as any).doGenerate = ({ abortSignal }: { abortSignal?: AbortSignal }) => new Promise((_, reject) => abortSignal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const p = runTurn({ project: tp.project, conversationId: c.id, message: 'next', model: turnModel(m, { contextWindow: 50_000 }), tools: testTools, title: 'off', runs });
    await new Promise((r) => setTimeout(r, 50));
    runs.stop(c.id);
    const r = await p;
    assert.equal(r.aborted, true);
    assert.equal(r.compaction, undefined);
    const stored = loadMessages(tp.project, c.id);
    assert.ok(!stored.some(isCompactionMessage), 'no digest was saved in place of the summary the user stopped');
    assert.equal(stored.length, 61);
    assert.equal((m as any).doStreamCalls.length, 0, 'no answer was generated');
  });

  it("re-answering a re-sent message measures the shortened history, not the old usage", async () => {
    const conv = createConversation(tp.project);
    const msgs = transcript(10, 400);
    replaceMessages(tp.project, conv.id, msgs);
    updateConversation(tp.project, conv.id, { title: 'Iron' });
    // The last turn measured 80 % of a 50k window, on the longer history.
    recordUsage(tp.project, conv.id, { inputTokens: 39_000, outputTokens: 1000, totalTokens: 40_000, modelId: 'mock/model' });
    const r = await runTurn({ project: tp.project, conversationId: conv.id, message: msgs[14], model: turnModel(mockModel([textStep('ok')]), { contextWindow: 50_000 }), tools: testTools, title: 'off' });
    assert.equal(r.error, undefined);
    assert.equal(r.compaction, undefined, 'no compaction for a history well under the trigger');
  });

  it('titles the first exchange that completes, also after a first turn that failed', async () => {
    const r1 = await runTurn({ project: tp.project, message: 'How many furnaces for iron?', model: async () => { throw new NoApiKeyError('set one'); }, tools: testTools, title: 'await' });
    assert.ok(r1.error);
    const r2 = await runTurn({ project: tp.project, conversationId: r1.conversationId, message: 'How many furnaces for iron?', model: turnModel(chatModel([textStep('12 furnaces.')])), tools: testTools, title: 'await' });
    assert.equal(await r2.title, 'Iron plate furnaces');
    assert.equal(getConversation(tp.project, r1.conversationId)!.title, 'Iron plate furnaces');
  });
});
