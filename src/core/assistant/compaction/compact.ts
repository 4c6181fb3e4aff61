// Compaction: above 75 % of the context window (or when forced) an older prefix of the transcript
// becomes one synthetic system message — a summary the model reads plus a `data-compaction` part
// archiving the originals for the UI (never sent to the model). At least the newest 8 messages
// stay verbatim, and the cut is chosen so that the estimate really lands below 55 %: as many
// recent messages are kept as fit under the target with room reserved for the summary, whose size
// is then capped to that room. Conversations of 14 messages or fewer are never compacted.
import crypto from 'node:crypto';
import type { UIMessage } from 'ai';
import { messageEstimates, proseTokens } from './estimate';
import { pruneToolOutputs } from './prune';
import {
  compactionData,
  extractiveSummary,
  isCompactionMessage,
  SUMMARY_MAX_OUTPUT_TOKENS,
  COMPACTION_DATA,
  type CompactionData,
} from './summarize';

export const COMPACTION_TRIGGER = 0.75;
export const COMPACTION_TARGET = 0.55;
export const KEEP_MIN_MESSAGES = 8;
/** Conversations this short are never compacted. */
export const MIN_MESSAGES_TO_COMPACT = 15;
/** A summary never replaces fewer messages than this. */
export const MIN_SUMMARIZED = 6;
/** Room kept for the summary message when choosing the cut (its text is capped to fit). */
export const SUMMARY_RESERVE_TOKENS = SUMMARY_MAX_OUTPUT_TOKENS + 100;

export interface CompactionPlan {
  /** Index of the first kept message. */
  cut: number;
  /** Estimate after compaction, with the summary at its reserved size. */
  estimatedAfter: number;
  targetMet: boolean;
}

export interface CompactOptions {
  contextWindow: number;
  /** System prompt + tool schemas, in tokens. */
  overheadTokens: number;
  force?: boolean;
  /** Real size of the context when known (the previous turn's tokens); else the estimate decides. */
  measuredTokens?: number | null;
  /** Model summarizer; returns undefined on failure (then the extractive summary is used). */
  summarize?: (prefix: UIMessage[]) => Promise<string | undefined>;
  /** Model that writes the summary, for the record. */
  summaryModel?: string | null;
  now?: () => Date;
  trigger?: number;
  target?: number;
  /** estimateForModel(messages, overheadTokens), when the caller already has it. */
  estimate?: ModelEstimate;
  /** A stop during the summary ends the compaction unchanged ('cancelled'), not in the fallback digest. */
  signal?: AbortSignal;
}

export interface CompactionResult {
  compacted: boolean;
  /** Why nothing happened: below the trigger, too few messages, or stopped while summarizing. */
  reason?: 'below-trigger' | 'too-few-messages' | 'cancelled';
  messages: UIMessage[];
  /** The synthetic system message, when compacted. */
  summaryMessage?: UIMessage;
  summary?: string;
  /** Id of the first message the summary does not cover. */
  anchorId?: string;
  method?: 'model' | 'extractive';
  summarizedCount?: number;
  keptCount?: number;
  estimatedBefore: number;
  estimatedAfter: number;
  targetMet: boolean;
}

export interface ModelEstimate {
  total: number;
  perMessage: number[];
  /** The copy that is estimated (and sent): old tool outputs pruned. */
  pruned: UIMessage[];
}

/** Model-side estimate of a transcript as it will be sent (old tool outputs pruned), plus overhead. */
export function estimateForModel(messages: readonly UIMessage[], overheadTokens: number): ModelEstimate {
  const pruned = pruneToolOutputs(messages);
  const perMessage = messageEstimates(pruned);
  return { total: overheadTokens + perMessage.reduce((a, b) => a + b, 0), perMessage, pruned };
}

/**
 * Where to cut: keep the most recent messages that fit under the target with the summary's
 * reserve, at least KEEP_MIN_MESSAGES, summarizing at least MIN_SUMMARIZED. Among the cuts that
 * fit, the one keeping the most messages wins, preferring a kept list that starts with a user
 * message. Returns undefined when the conversation is too short to compact.
 */
export function planCompaction(perMessage: readonly number[], overheadTokens: number, contextWindow: number, target = COMPACTION_TARGET, reserve = SUMMARY_RESERVE_TOKENS, startsWithUser?: (i: number) => boolean): CompactionPlan | undefined {
  const n = perMessage.length;
  if (n < MIN_MESSAGES_TO_COMPACT) return undefined;
  const limit = target * contextWindow;
  const maxKeep = n - MIN_SUMMARIZED;
  // suffix[i] = Σ perMessage[i..n)
  const suffix = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + perMessage[i];
  const after = (cut: number) => overheadTokens + reserve + suffix[cut];
  let best: number | undefined;
  let bestUser: number | undefined;
  for (let keep = maxKeep; keep >= KEEP_MIN_MESSAGES; keep--) {
    const cut = n - keep;
    if (after(cut) >= limit) continue;
    best ??= cut;
    if (!startsWithUser || startsWithUser(cut)) {
      bestUser = cut;
      break;
    }
  }
  const cut = bestUser ?? best ?? n - KEEP_MIN_MESSAGES;
  return { cut, estimatedAfter: after(cut), targetMet: after(cut) < limit };
}

const HEADER = (count: number) => `Summary of the earlier conversation (${count} message${count === 1 ? '' : 's'} compacted; the newest messages follow verbatim):`;

function capText(s: string, maxTokens: number): string {
  const maxChars = maxTokens * 4;
  return s.length <= maxChars ? s : `${s.slice(0, maxChars - 1)}…`;
}

/** Originals to archive: older compaction archives are flattened in, so one level always holds everything. */
export function flattenOriginals(prefix: readonly UIMessage[]): UIMessage[] {
  const out: UIMessage[] = [];
  for (const m of prefix) {
    const d = isCompactionMessage(m) ? compactionData(m) : undefined;
    if (d) for (const o of d.originals) out.push(o);
    else out.push(m);
  }
  return out;
}

export function buildSummaryMessage(summary: string, prefix: readonly UIMessage[], data: Omit<CompactionData, 'version' | 'originals' | 'originalCount'>, id = `compaction-${crypto.randomUUID()}`): UIMessage {
  const originals = flattenOriginals(prefix);
  const full: CompactionData = { version: 1, ...data, originalCount: originals.length, originals };
  return {
    id,
    role: 'system',
    parts: [
      { type: 'text', text: `${HEADER(originals.length)}\n\n${summary}` },
      { type: COMPACTION_DATA, data: full } as UIMessage['parts'][number],
    ],
  };
}

/** Decide and, when needed, compact. Never throws; a failing summarizer falls back to the extractive summary. */
export async function compactMessages(messages: readonly UIMessage[], opts: CompactOptions): Promise<CompactionResult> {
  const { total: estimatedBefore, perMessage } = opts.estimate ?? estimateForModel(messages, opts.overheadTokens);
  const window = opts.contextWindow;
  const target = opts.target ?? COMPACTION_TARGET;
  const used = opts.measuredTokens ?? estimatedBefore;
  const unchanged = (reason: CompactionResult['reason']): CompactionResult => ({
    compacted: false,
    reason,
    messages: [...messages],
    estimatedBefore,
    estimatedAfter: estimatedBefore,
    targetMet: estimatedBefore < target * window,
  });
  if (messages.length < MIN_MESSAGES_TO_COMPACT) return unchanged('too-few-messages');
  if (!opts.force && used < (opts.trigger ?? COMPACTION_TRIGGER) * window) return unchanged('below-trigger');

  // The summary may take the reserve, but never more than what is left under the target.
  const plan = planCompaction(perMessage, opts.overheadTokens, window, target, SUMMARY_RESERVE_TOKENS, (i) => messages[i]?.role === 'user')!;
  const prefix = messages.slice(0, plan.cut);
  const kept = messages.slice(plan.cut);
  const keptTokens = perMessage.slice(plan.cut).reduce((a, b) => a + b, 0);
  const room = Math.max(200, Math.min(SUMMARY_RESERVE_TOKENS, Math.floor(target * window - opts.overheadTokens - keptTokens - 1)));
  const headerTokens = 40;

  let method: 'model' | 'extractive' = 'extractive';
  let summary: string | undefined;
  if (opts.summarize) {
    try {
      summary = (await opts.summarize(prefix))?.trim() || undefined;
    } catch {
      summary = undefined;
    }
    if (summary) method = 'model';
    // The summary failed because the user stopped it: they asked for neither summary nor digest.
    if (opts.signal?.aborted) return unchanged('cancelled');
  }
  summary = summary ? capText(summary, room - headerTokens) : extractiveSummary(prefix, (room - headerTokens) * 4);

  const now = (opts.now ?? (() => new Date()))();
  const draft = buildSummaryMessage(summary, prefix, {
    compactedAt: now.toISOString(),
    model: method === 'model' ? (opts.summaryModel ?? null) : null,
    method,
    estimatedTokensBefore: estimatedBefore,
    estimatedTokensAfter: 0,
  });
  const summaryTokens = proseTokens((draft.parts[0] as { text: string }).text) + 12;
  const estimatedAfter = opts.overheadTokens + summaryTokens + keptTokens;
  (compactionData(draft) as CompactionData).estimatedTokensAfter = estimatedAfter;
  return {
    compacted: true,
    messages: [draft, ...kept],
    summaryMessage: draft,
    summary,
    anchorId: kept[0]?.id,
    method,
    summarizedCount: prefix.length,
    keptCount: kept.length,
    estimatedBefore,
    estimatedAfter,
    targetMet: estimatedAfter < target * window,
  };
}

/**
 * Reuse a cached summary: when the transcript still contains the anchor (the first message the
 * summary did not cover) behind uncompacted messages — e.g. a host re-sent the full history —
 * the prefix is replaced by the cached summary instead of being summarized again.
 */
export function applyCachedSummary(messages: readonly UIMessage[], summary: string | null, anchorId: string | null, now: () => Date = () => new Date()): UIMessage[] | undefined {
  if (!summary || !anchorId) return undefined;
  const a = messages.findIndex((m) => m.id === anchorId);
  if (a <= 0) return undefined;
  if (a === 1 && isCompactionMessage(messages[0])) return undefined; // already applied
  const prefix = messages.slice(0, a);
  const msg = buildSummaryMessage(summary, prefix, { compactedAt: now().toISOString(), model: null, method: 'cached', estimatedTokensBefore: 0, estimatedTokensAfter: 0 });
  return [msg, ...messages.slice(a)];
}
