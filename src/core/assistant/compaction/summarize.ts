// Summaries of an older prefix of a conversation: by the conversation's model (low reasoning,
// excluded from the reply) when it can, else a local extractive summary that needs no model and
// cannot fail. Both are bounded so the compacted transcript really fits its target.
import { generateText, type UIMessage } from 'ai';
import type { TurnModel } from '../models/resolve';
import { reasoningOptions } from '../models/openrouter';
import { isToolOutcome } from '../agent/tools';
import { isToolPart, toolPartName } from '../agent/messages';
import { redactSecrets } from '../models/redact';

/** Cap on the model summary's length. */
export const SUMMARY_MAX_OUTPUT_TOKENS = 1500;
/** Cap on the transcript handed to the summarizer (first and last halves kept). */
export const TRANSCRIPT_MAX_CHARS = 90_000;
const EXTRACT_CHARS_PER_MESSAGE = 400;

export const COMPACTION_DATA = 'data-compaction';

export interface CompactionData {
  version: 1;
  compactedAt: string;
  /** Model that wrote the summary, or null for the extractive one. */
  model: string | null;
  method: 'model' | 'extractive' | 'cached';
  originalCount: number;
  estimatedTokensBefore: number;
  estimatedTokensAfter: number;
  /** The replaced messages, older archives flattened in; never sent to the model. */
  originals: UIMessage[];
}

export function isCompactionMessage(m: UIMessage | undefined): boolean {
  return !!m && m.role === 'system' && m.parts.some((p) => p.type === COMPACTION_DATA);
}

export function compactionData(m: UIMessage): CompactionData | undefined {
  const p = m.parts.find((x) => x.type === COMPACTION_DATA) as { data?: CompactionData } | undefined;
  return p?.data;
}

/** The summary text of a compaction message (without its header). */
export function compactionSummaryText(m: UIMessage): string {
  const t = m.parts.find((p) => p.type === 'text') as { text?: string } | undefined;
  return (t?.text ?? '').replace(/^[^\n]*\n\n/, '');
}

/** One line of at most `n` characters (whitespace folded, an ellipsis when cut). */
export function clip(s: string, n: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n - 1)}…`;
}

function toolLine(p: UIMessage['parts'][number]): string | undefined {
  if (!isToolPart(p)) return undefined;
  const t = p as { state?: string; input?: unknown; output?: unknown; errorText?: string };
  const name = toolPartName(p);
  const input = clip(redactSecrets(JSON.stringify(t.input ?? {}) ?? ''), 160);
  if (t.state === 'output-error') return `[${name} ${input} → error: ${clip(t.errorText ?? '', 160)}]`;
  if (t.state !== 'output-available') return `[${name} ${input} → not finished]`;
  const o = t.output;
  if (isToolOutcome(o)) return o.ok ? `[${name} ${input} → ${clip(o.summary, 160)}]` : `[${name} ${input} → error: ${clip(o.error, 160)}]`;
  return `[${name} ${input} → ${clip(JSON.stringify(o ?? null) ?? '', 160)}]`;
}

/** Readable text of one message: its text, tool calls as one-line records, earlier summaries. */
export function messageDigest(m: UIMessage): string {
  if (isCompactionMessage(m)) return `Earlier summary:\n${compactionSummaryText(m)}`;
  const out: string[] = [];
  for (const p of m.parts) {
    if (p.type === 'text') out.push((p as { text: string }).text);
    else {
      const line = toolLine(p);
      if (line) out.push(line);
    }
  }
  return out.join('\n').trim();
}

/** "ROLE:\ntext" blocks, capped at TRANSCRIPT_MAX_CHARS (first and last halves plus a marker). */
export function transcriptForSummary(messages: readonly UIMessage[], maxChars = TRANSCRIPT_MAX_CHARS): string {
  const text = messages
    .map((m) => {
      const d = messageDigest(m);
      return d ? `${m.role.toUpperCase()}:\n${d}` : '';
    })
    .filter(Boolean)
    .join('\n\n');
  if (text.length <= maxChars) return text;
  const half = Math.floor(maxChars / 2);
  return `${text.slice(0, half)}\n\n[… ${text.length - 2 * half} characters of the conversation omitted …]\n\n${text.slice(-half)}`;
}

const SUMMARY_INSTRUCTIONS = `You compress the earlier part of a Factorio planning conversation so that it can continue without it. Write a factual summary (at most about 900 words, Markdown bullets) that keeps:
- the user's goals, targets and rates, and what they asked for that is still open;
- decisions made and why (recipes, machines, seams, imports, TURD branch picks), with exact internal names in backticks;
- planning settings mentioned (horizon, science packs, favourites);
- facts established by tools (block ids and names, recipe and good names, building counts, rates, errors) — tool evidence, not guesses;
- proposals drafted or applied, tasks created, and any commitments made to the user;
- open questions.
Write only the summary.`;

export interface SummarizeRequest {
  model: TurnModel;
  messages: readonly UIMessage[];
  signal?: AbortSignal;
}

/** Model summary of `messages`, or undefined when the call fails or returns nothing. */
export async function summarizeWithModel(req: SummarizeRequest): Promise<string | undefined> {
  try {
    const r = await generateText({
      model: req.model.model,
      instructions: SUMMARY_INSTRUCTIONS,
      prompt: `Conversation so far:\n\n${transcriptForSummary(req.messages)}`,
      maxOutputTokens: SUMMARY_MAX_OUTPUT_TOKENS,
      maxRetries: 1,
      abortSignal: req.signal,
      providerOptions: reasoningOptions('low', req.model.info.supportsReasoning, true) as any,
    });
    // The summary is stored and shown: a key the conversation quoted must not survive into it.
    const t = redactSecrets(r.text.trim());
    return t || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A summary without a model: one line per message ("- role: first 400 characters"), shortened
 * evenly and then thinned from the middle until it fits `maxChars`.
 */
export function extractiveSummary(messages: readonly UIMessage[], maxChars: number): string {
  const header = 'Extractive summary (no model was available to summarize); one line per earlier message:';
  const digests = messages.map((m) => ({ role: m.role, text: messageDigest(m) })).filter((d) => d.text);
  const budget = Math.max(200, maxChars - header.length - 1);
  let per = EXTRACT_CHARS_PER_MESSAGE;
  // Shorten every line evenly first (down to 80 characters), so early decisions survive too.
  const overheadPerLine = 16;
  if (digests.length * (per + overheadPerLine) > budget) per = Math.max(80, Math.floor(budget / Math.max(1, digests.length)) - overheadPerLine);
  let lines = digests.map((d) => `- ${d.role}: ${clip(redactSecrets(d.text), per)}`);
  let total = lines.reduce((n, l) => n + l.length + 1, 0);
  if (total > budget) {
    // Still too long: keep the first and last lines, drop the middle.
    const keepHead: string[] = [];
    const keepTail: string[] = [];
    let used = 60;
    let i = 0;
    let j = lines.length - 1;
    while (i <= j) {
      const next = keepHead.length <= keepTail.length ? lines[i] : lines[j];
      if (used + next.length + 1 > budget) break;
      used += next.length + 1;
      if (keepHead.length <= keepTail.length) keepHead.push(lines[i++]);
      else keepTail.unshift(lines[j--]);
    }
    const omitted = j - i + 1;
    lines = omitted > 0 ? [...keepHead, `- … ${omitted} messages omitted …`, ...keepTail] : [...keepHead, ...keepTail];
    total = used;
  }
  return `${header}\n${lines.join('\n')}`;
}
