import assert from 'node:assert/strict';
import type { UIMessage } from 'ai';
import {
  applyCachedSummary,
  compactMessages,
  COMPACTION_TARGET,
  estimateForModel,
  KEEP_MIN_MESSAGES,
  planCompaction,
  SUMMARY_RESERVE_TOKENS,
} from '../../../../src/core/assistant/compaction/compact';
import { pruneToolOutputs } from '../../../../src/core/assistant/compaction/prune';
import { estimateMessages } from '../../../../src/core/assistant/compaction/estimate';
import { compactionData, extractiveSummary, isCompactionMessage, summarizeWithModel, transcriptForSummary } from '../../../../src/core/assistant/compaction/summarize';
import { compactConversation, contextStatus, measureContext, prepareTurnContext } from '../../../../src/core/assistant/compaction/context';
import { toModelMessages } from '../../../../src/core/assistant/agent/messages';
import { toAiTools } from '../../../../src/core/assistant/agent/tools';
import { createConversation, getConversation, loadMessages, recordUsage, replaceMessages } from '../../../../src/core/assistant/conversations/store';
import { generateModel, tempProject, toolMessage, transcript, turnModel, user } from './helpers';

const OVERHEAD = 500;

/** A window in which `messages` fill `ratio` of the context. */
function windowFor(messages: UIMessage[], ratio: number): number {
  return Math.ceil(estimateForModel(messages, OVERHEAD).total / ratio);
}

describe('assistant compaction', () => {
  it('never compacts a conversation of 14 messages or fewer, even when forced', async () => {
    const m = transcript(7);
    assert.equal(m.length, 14);
    const r = await compactMessages(m, { contextWindow: 1000, overheadTokens: OVERHEAD, force: true });
    assert.equal(r.compacted, false);
    assert.equal(r.reason, 'too-few-messages');
    assert.equal(planCompaction(new Array(14).fill(100), 0, 1000), undefined);
  });

  it('waits until the context reaches 75 % of the window', async () => {
    const m = transcript(20);
    const below = await compactMessages(m, { contextWindow: windowFor(m, 0.74), overheadTokens: OVERHEAD });
    assert.equal(below.compacted, false);
    assert.equal(below.reason, 'below-trigger');
    const at = await compactMessages(m, { contextWindow: windowFor(m, 0.76), overheadTokens: OVERHEAD });
    assert.equal(at.compacted, true);
    // A real measurement overrides the estimate.
    const measured = await compactMessages(m, { contextWindow: windowFor(m, 0.5), overheadTokens: OVERHEAD, measuredTokens: windowFor(m, 0.5) * 0.8 });
    assert.equal(measured.compacted, true);
  });

  it('keeps at least the newest eight messages verbatim and really brings the estimate below 55 %', async () => {
    const m = transcript(40);
    const W = windowFor(m, 0.9);
    const r = await compactMessages(m, { contextWindow: W, overheadTokens: OVERHEAD });
    assert.equal(r.compacted, true);
    assert.ok(r.keptCount! >= KEEP_MIN_MESSAGES);
    assert.deepEqual(r.messages.slice(1), m.slice(-r.keptCount!), 'kept messages are untouched');
    assert.equal(r.anchorId, m[m.length - r.keptCount!].id);
    const after = estimateForModel(r.messages, OVERHEAD).total;
    assert.ok(after < COMPACTION_TARGET * W, `${after} < ${COMPACTION_TARGET * W}`);
    assert.equal(r.targetMet, true);
    assert.ok(Math.abs(after - r.estimatedAfter) <= 16, 'the reported figure is the real estimate');
    assert.equal(r.messages[1].role, 'user', 'the kept part starts with a user message');
  });

  it('keeps more than eight messages only while that stays below the target', async () => {
    const m = transcript(40);
    // A roomy window: everything but the minimum six fits under 55 %.
    const roomy = await compactMessages(m, { contextWindow: windowFor(m, 0.4), overheadTokens: OVERHEAD, force: true });
    assert.ok(roomy.keptCount! > KEEP_MIN_MESSAGES);
    assert.ok(estimateForModel(roomy.messages, OVERHEAD).total < COMPACTION_TARGET * windowFor(m, 0.4));
    // One message more would cross the target.
    const W = windowFor(m, 0.9);
    const r = await compactMessages(m, { contextWindow: W, overheadTokens: OVERHEAD });
    const per = estimateForModel(m, OVERHEAD).perMessage;
    const keptPlusOne = per.slice(m.length - r.keptCount! - 1).reduce((a, b) => a + b, 0);
    assert.ok(OVERHEAD + SUMMARY_RESERVE_TOKENS + keptPlusOne >= COMPACTION_TARGET * W || m[m.length - r.keptCount! - 1].role !== 'user');
  });

  it('keeps exactly eight when only eight fit, and says when even they exceed the target', async () => {
    const big = [...transcript(10, 100), ...transcript(4, 3000).map((x, i) => ({ ...x, id: `big${i}` }))];
    const per = estimateForModel(big, OVERHEAD).perMessage;
    const last8 = per.slice(-8).reduce((a, b) => a + b, 0);
    const W = Math.ceil((OVERHEAD + SUMMARY_RESERVE_TOKENS + last8 + 40) / COMPACTION_TARGET);
    const r = await compactMessages(big, { contextWindow: W, overheadTokens: OVERHEAD, force: true });
    assert.equal(r.keptCount, 8);
    assert.equal(r.targetMet, true);
    const tiny = await compactMessages(big, { contextWindow: 2000, overheadTokens: OVERHEAD, force: true });
    assert.equal(tiny.keptCount, 8);
    assert.equal(tiny.targetMet, false);
  });

  it('falls back to a local extractive summary when the summarizer fails', async () => {
    const m = transcript(20);
    for (const summarize of [async () => undefined, async () => { throw new Error('429'); }]) {
      const r = await compactMessages(m, { contextWindow: windowFor(m, 0.9), overheadTokens: OVERHEAD, summarize });
      assert.equal(r.method, 'extractive');
      assert.match(r.summary!, /^Extractive summary/);
      assert.match(r.summary!, /- user: Question 0: q+/);
      assert.equal(compactionData(r.summaryMessage!)?.model, null);
    }
    // Bounded even for a very long prefix.
    const s = extractiveSummary(transcript(500, 400), 4000);
    assert.ok(s.length <= 4200, String(s.length));
    assert.match(s, /messages omitted/);
  });

  it('uses the model summary, capped to the room it has', async () => {
    const m = transcript(20);
    const r = await compactMessages(m, { contextWindow: windowFor(m, 0.9), overheadTokens: OVERHEAD, summarize: async () => 'Goals: `iron-plate` 10/s. ' + 'z'.repeat(50_000), summaryModel: 'vendor/summarizer' });
    assert.equal(r.method, 'model');
    assert.match((r.summaryMessage!.parts[0] as any).text, /^Summary of the earlier conversation \(\d+ messages compacted/);
    assert.ok(r.summary!.length < 8000);
    assert.equal(compactionData(r.summaryMessage!)?.model, 'vendor/summarizer');
    assert.equal(r.targetMet, true);
  });

  it('archives the originals in a data-compaction part that never reaches the model, flattening older archives', async () => {
    const m = transcript(20);
    const first = await compactMessages(m, { contextWindow: windowFor(m, 0.9), overheadTokens: OVERHEAD });
    const d1 = compactionData(first.summaryMessage!)!;
    assert.equal(d1.version, 1);
    assert.deepEqual(d1.originals, m.slice(0, first.summarizedCount));
    assert.equal(d1.originalCount, first.summarizedCount);
    assert.ok(isCompactionMessage(first.messages[0]));
    assert.equal(first.messages[0].role, 'system');
    const model = await toModelMessages(first.messages, toAiTools([], { project: undefined as any, caller: 'agent' }));
    assert.equal(model[0].role, 'system');
    assert.doesNotMatch(JSON.stringify(model), /originals|compactedAt/);
    // Compact again: the first archive is folded into the second.
    const more = [...first.messages, ...transcript(20).map((x) => ({ ...x, id: `n-${x.id}` }))];
    const second = await compactMessages(more, { contextWindow: windowFor(more, 0.9), overheadTokens: OVERHEAD });
    const d2 = compactionData(second.summaryMessage!)!;
    assert.ok(d2.originals.every((o) => !isCompactionMessage(o)));
    assert.deepEqual(d2.originals.slice(0, d1.originalCount), d1.originals);
    assert.equal(d2.originalCount, d1.originalCount + second.summarizedCount! - 1);
    assert.match(transcriptForSummary(more.slice(0, 3)), /Earlier summary:/);
  });

  it('replaces old tool results with markers, keeping errors and the newest five assistant turns', () => {
    const old = toolMessage(5000, 'old');
    const oldError = toolMessage(5000, 'olderr', false);
    const m = [user('q', 'u0'), old, oldError, ...transcript(5).map((x, i) => (x.role === 'assistant' ? toolMessage(5000, `new${i}`) : x))];
    const pruned = pruneToolOutputs(m);
    const out = (id: string) => (pruned.find((x) => x.id === id)!.parts.find((p) => p.type === 'tool-bigResult') as any).output;
    assert.equal(out('old').pruned, true);
    assert.match(out('old').result.omitted, /Call bigResult again/);
    assert.equal(out('olderr').ok, false, 'errors stay');
    assert.equal(out('new1').result.blob.length, 5000, 'recent results stay');
    assert.equal((m[1].parts[1] as any).output.result.blob.length, 5000, 'the stored transcript is not touched');
    assert.ok(estimateMessages(m) > estimateMessages(pruned) + 1000);
  });

  it('reuses a cached summary while its anchor is still in the transcript', () => {
    const m = transcript(10);
    const applied = applyCachedSummary(m, 'cached facts', 'u6')!;
    assert.equal(applied.length, 1 + (m.length - 12));
    assert.ok(isCompactionMessage(applied[0]));
    assert.match((applied[0].parts[0] as any).text, /cached facts/);
    assert.equal(compactionData(applied[0])!.method, 'cached');
    assert.equal(applied[1].id, 'u6');
    assert.equal(applyCachedSummary(applied, 'cached facts', 'u6'), undefined, 'already applied');
    assert.equal(applyCachedSummary(m, 'cached facts', 'gone'), undefined, 'stale anchor');
    assert.equal(applyCachedSummary(m, null, 'u6'), undefined);
  });

  it("measures with the previous turn's real tokens when known, else estimates", () => {
    const m = [...transcript(3), user('and now?')];
    const est = measureContext(m, null, OVERHEAD);
    assert.equal(est.source, 'estimated');
    const meas = measureContext(m, { inputTokens: 9000, outputTokens: 500, totalTokens: 9500, modelId: 'x' }, OVERHEAD);
    assert.equal(meas.source, 'measured');
    assert.ok(meas.usedTokens > 9500 && meas.usedTokens < 9600, String(meas.usedTokens));
    const s = contextStatus({ messages: m, lastUsage: { inputTokens: 9000, outputTokens: 500, totalTokens: 9500, modelId: 'x/concrete' }, contextWindow: 10_000, overheadTokens: OVERHEAD, resolvedModel: '~x/latest' });
    assert.deepEqual([s.source, s.estimated, s.modelId, s.resolvedModel, s.level, s.messageCount], ['measured', false, 'x/concrete', '~x/latest', 'danger', 7]);
    assert.equal(contextStatus({ messages: m, lastUsage: null, contextWindow: 1_000_000, overheadTokens: OVERHEAD, resolvedModel: 'm' }).level, 'ok');
  });

  it('saves the compacted transcript before generation and clears the stale measurement', async () => {
    const tp = await tempProject();
    try {
      const p = tp.project;
      const c = createConversation(p);
      const m = [...transcript(20), user('next question', 'q-next')];
      replaceMessages(p, c.id, m);
      recordUsage(p, c.id, { inputTokens: 90_000, outputTokens: 1000, totalTokens: 91_000, modelId: 'm' });
      const prepared = await prepareTurnContext({ project: p, conversation: getConversation(p, c.id)!, messages: m, overheadTokens: OVERHEAD, contextWindow: 100_000 });
      assert.ok(prepared.compaction, 'measured 91 % → compacted');
      const stored = loadMessages(p, c.id);
      assert.deepEqual(stored, prepared.messages);
      assert.ok(isCompactionMessage(stored[0]));
      assert.equal(stored.at(-1)!.id, 'q-next');
      const conv = getConversation(p, c.id)!;
      assert.equal(conv.lastUsage, null);
      assert.equal(conv.compactionAnchor, prepared.compaction!.anchorId);
      assert.equal(conv.compactionSummary, prepared.compaction!.summary);

      // Manual compaction: forced, saved, measurement cleared.
      const c2 = createConversation(p);
      replaceMessages(p, c2.id, transcript(10).map((x) => ({ ...x, id: `c2-${x.id}` })));
      recordUsage(p, c2.id, { inputTokens: 10, outputTokens: 1, totalTokens: 11, modelId: 'm' });
      const r = await compactConversation(p, c2.id, { contextWindow: 1_000_000, overheadTokens: OVERHEAD });
      assert.equal(r.compacted, true);
      assert.equal(r.method, 'extractive');
      assert.equal(getConversation(p, c2.id)!.lastUsage, null);
      assert.equal(loadMessages(p, c2.id).length, 1 + r.keptCount!);
    } finally {
      tp.cleanup();
    }
  });

  it('a manual compaction stopped during its summary changes nothing', async () => {
    const tp = await tempProject();
    try {
      const p = tp.project;
      const c = createConversation(p);
      replaceMessages(p, c.id, transcript(10));
      const gen = generateModel('unused');
      const stop = new AbortController();
      (gen as any).doGenerate = ({ abortSignal }: { abortSignal?: AbortSignal }) =>
        new Promise((_, reject) => abortSignal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      const pending = compactConversation(p, c.id, { contextWindow: 1_000_000, overheadTokens: OVERHEAD, summaryModel: turnModel(gen), signal: stop.signal });
      setTimeout(() => stop.abort(), 20);
      const r = await pending;
      assert.equal(r.compacted, false);
      assert.equal(r.reason, 'cancelled');
      assert.ok(!loadMessages(p, c.id).some(isCompactionMessage));
      assert.equal(loadMessages(p, c.id).length, 20);
    } finally {
      tp.cleanup();
    }
  });

  it('asks the conversation model for the summary with low, excluded reasoning and a 1500-token cap', async () => {
    const gen = generateModel('- goal: `iron-plate`');
    const text = await summarizeWithModel({ model: turnModel(gen, { supportsReasoning: true }), messages: transcript(3) });
    assert.equal(text, '- goal: `iron-plate`');
    const call = gen.doGenerateCalls[0] as any;
    assert.equal(call.maxOutputTokens, 1500);
    assert.deepEqual(call.providerOptions.openrouter.reasoning, { effort: 'low', exclude: true });
    assert.match(JSON.stringify(call.prompt), /USER:\\nQuestion 0/);
    assert.equal(await summarizeWithModel({ model: turnModel(generateModel(new Error('down'))), messages: transcript(3) }), undefined);
  });
});
