// The context budget of a conversation: how full it is (measured from the previous turn's real
// tokens when known, else estimated), the per-turn preparation (cached summary, compaction when
// needed, saved before generation, old tool results pruned from the copy sent), manual
// compaction, and the gauge figures a UI shows.
import type { UIMessage } from 'ai';
import type { Project } from '../../db/project';
import type { TurnModel } from '../models/resolve';
import type { ModelCatalog } from '../models/catalog';
import { replaceMessages, loadMessages, updateConversation, recordUsage, type Conversation, type StoredUsage } from '../conversations/store';
import { estimateMessages } from './estimate';
import { pruneToolOutputs } from './prune';
import { applyCachedSummary, compactMessages, COMPACTION_TARGET, COMPACTION_TRIGGER, estimateForModel, type CompactionResult, type ModelEstimate } from './compact';
import { summarizeWithModel } from './summarize';

export const GAUGE_WARNING = 0.6;
export const GAUGE_DANGER = 0.85;

export interface ContextMeasure {
  usedTokens: number;
  source: 'measured' | 'estimated';
}

/**
 * Real tokens of the previous completed turn plus an estimate of what came after it (the new
 * user message), when a measurement exists; else the estimate of the whole request.
 */
export function measureContext(messages: readonly UIMessage[], lastUsage: StoredUsage | null, overheadTokens: number, estimate?: ModelEstimate): ContextMeasure {
  const measured = lastUsage?.totalTokens ?? null;
  if (measured !== null && measured > 0) {
    let lastAssistant = -1;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i].role === 'assistant') {
        lastAssistant = i;
        break;
      }
    }
    if (lastAssistant >= 0) return { usedTokens: measured + estimateMessages(messages.slice(lastAssistant + 1)), source: 'measured' };
  }
  return { usedTokens: (estimate ?? estimateForModel(messages, overheadTokens)).total, source: 'estimated' };
}

export interface ContextStatus {
  usedTokens: number;
  contextWindow: number;
  ratio: number;
  source: 'measured' | 'estimated';
  estimated: boolean;
  /** Concrete model id of the last turn, when known. */
  modelId: string | null;
  /** The model the next turn will use. */
  resolvedModel: string;
  messageCount: number;
  level: 'ok' | 'warning' | 'danger';
}

export function contextStatus(input: { messages: readonly UIMessage[]; lastUsage: StoredUsage | null; contextWindow: number; overheadTokens: number; resolvedModel: string }): ContextStatus {
  const m = measureContext(input.messages, input.lastUsage, input.overheadTokens);
  const ratio = input.contextWindow > 0 ? m.usedTokens / input.contextWindow : 0;
  return {
    usedTokens: m.usedTokens,
    contextWindow: input.contextWindow,
    ratio,
    source: m.source,
    estimated: m.source === 'estimated',
    modelId: input.lastUsage?.modelId ?? null,
    resolvedModel: input.resolvedModel,
    messageCount: input.messages.length,
    level: ratio >= GAUGE_DANGER ? 'danger' : ratio >= GAUGE_WARNING ? 'warning' : 'ok',
  };
}

/** Window of the model that served the last turn (via the catalogue), else of the model about to run. */
export async function contextWindowFor(conversation: Conversation | undefined, model: TurnModel, catalog?: ModelCatalog): Promise<number> {
  const last = conversation?.lastUsage?.modelId;
  if (last && catalog && last !== model.info.id) {
    const info = await catalog.info(last);
    if (info.source === 'catalog') return info.contextWindow;
  }
  return model.info.contextWindow;
}

export interface PrepareOptions {
  project: Project;
  conversation: Conversation;
  /** Stored transcript, ending with the user message about to be answered. */
  messages: UIMessage[];
  overheadTokens: number;
  contextWindow: number;
  /** Summarizer model (the conversation's); absent → extractive summary. */
  summaryModel?: TurnModel;
  force?: boolean;
  signal?: AbortSignal;
  now?: () => Date;
}

export interface PreparedContext {
  /** The stored transcript after any compaction (already saved). */
  messages: UIMessage[];
  /** The copy to send: old tool results replaced by markers. */
  modelMessages: UIMessage[];
  compaction?: CompactionResult;
  /** Whether a cached summary replaced an uncompacted prefix. */
  reusedSummary: boolean;
}

/** Save a compaction: the replaced list, the cached summary and anchor, and no stale measurement. */
export function saveCompaction(p: Project, conversationId: string, r: CompactionResult): void {
  p.write(() => {
    replaceMessages(p, conversationId, r.messages);
    updateConversation(p, conversationId, { compactionSummary: r.summary ?? null, compactionAnchor: r.anchorId ?? null });
    recordUsage(p, conversationId, null);
  });
}

export async function prepareTurnContext(o: PrepareOptions): Promise<PreparedContext> {
  let messages = o.messages;
  let lastUsage = o.conversation.lastUsage;
  let reusedSummary = false;
  const cached = applyCachedSummary(messages, o.conversation.compactionSummary, o.conversation.compactionAnchor, o.now);
  if (cached) {
    replaceMessages(o.project, o.conversation.id, cached);
    recordUsage(o.project, o.conversation.id, null);
    messages = cached;
    lastUsage = null;
    reusedSummary = true;
  }
  // One pruning and estimate serves the measurement, the compaction decision and the copy sent.
  const estimate = estimateForModel(messages, o.overheadTokens);
  const measure = measureContext(messages, lastUsage, o.overheadTokens, estimate);
  const summaryModel = o.summaryModel;
  const result = await compactMessages(messages, {
    contextWindow: o.contextWindow,
    overheadTokens: o.overheadTokens,
    force: o.force,
    measuredTokens: measure.usedTokens,
    summarize: summaryModel ? (prefix) => summarizeWithModel({ model: summaryModel, messages: prefix, signal: o.signal }) : undefined,
    summaryModel: summaryModel?.modelId ?? null,
    now: o.now,
    estimate,
    signal: o.signal,
  });
  let modelMessages = estimate.pruned;
  let sent = estimate.total;
  if (result.compacted) {
    saveCompaction(o.project, o.conversation.id, result);
    messages = result.messages;
    modelMessages = pruneToolOutputs(messages);
    sent = result.estimatedAfter;
  }
  // Still over the trigger (too few messages to compact, or huge recent results): prune harder
  // in the copy sent, keeping only the newest assistant turn's results.
  if (sent >= COMPACTION_TRIGGER * o.contextWindow) modelMessages = pruneToolOutputs(messages, 1);
  return { messages, modelMessages, compaction: result.compacted ? result : undefined, reusedSummary };
}

/**
 * Manual compaction (the gauge's "compact now"): forced, saved, and the stale measurement
 * cleared. Deterministic (extractive) without a summary model.
 */
export async function compactConversation(p: Project, conversationId: string, opts: { contextWindow: number; overheadTokens: number; summaryModel?: TurnModel; signal?: AbortSignal; now?: () => Date }): Promise<CompactionResult> {
  const messages = loadMessages(p, conversationId);
  const summaryModel = opts.summaryModel;
  const result = await compactMessages(messages, {
    contextWindow: opts.contextWindow,
    overheadTokens: opts.overheadTokens,
    force: true,
    summarize: summaryModel ? (prefix) => summarizeWithModel({ model: summaryModel, messages: prefix, signal: opts.signal }) : undefined,
    summaryModel: summaryModel?.modelId ?? null,
    now: opts.now,
    signal: opts.signal,
  });
  if (result.compacted) saveCompaction(p, conversationId, result);
  return result;
}

export { COMPACTION_TARGET, COMPACTION_TRIGGER };
