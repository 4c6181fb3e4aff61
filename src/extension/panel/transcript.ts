// A stored conversation as the side panel's transcript: user and assistant text, reasoning (shown
// collapsed), each tool call as one line with its bounded input and result behind it, proposals as
// links to their cards. Pure — messages in, plain JSON out — so it is tested without VS Code, and
// bounded (a window of messages, capped text) so a long conversation costs the same to open.
import type { UIMessage } from 'ai';
import { isToolOutcome } from '../../core/assistant/agent/tools';
import { clip, compactionData, isCompactionMessage } from '../../core/assistant/compaction/summarize';
import { isToolPart, toolPartName } from '../../core/assistant/agent/messages';
import type { TranscriptBlock, TranscriptMessage, TranscriptView } from '../../webview/protocol';
import { proposalOfPart } from '../proposals/extract';
import { isReportMessage } from '../assistant/reports';

type Part = UIMessage['parts'][number];

/** Messages per window: enough for most conversations whole, small enough to render at once. */
const TRANSCRIPT_WINDOW = 200;
const TEXT_CAP = 20_000;
const DETAIL_CAP = 2_000;
const SUMMARY_CAP = 160;
/** Messages shown before a linked one, so it reads in context. */
const FOCUS_LEAD = 10;

export interface TranscriptOptions {
  /** Show the window holding this message (a link, a new branch). */
  focusMessageId?: string;
  /** Show the window starting here ("Show earlier/later messages"); wins over the focus. */
  start?: number;
  window?: number;
}

function capped(text: string, cap: number): { text: string; truncated?: boolean } {
  return text.length > cap ? { text: `${text.slice(0, cap)}…`, truncated: true } : { text };
}

function json(v: unknown): string {
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v, null, 1) ?? '';
  } catch {
    return String(v);
  }
}

interface ToolPartLike {
  type: string;
  toolName?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
}

function toolBlock(p: ToolPartLike): TranscriptBlock {
  const tool = toolPartName(p as Part);
  const input = json(p.input);
  let status: 'done' | 'failed' | 'pending' = 'pending';
  let summary = `${tool} did not finish`;
  let result = '';
  if (p.state === 'output-available') {
    const out = p.output;
    if (isToolOutcome(out)) {
      status = out.ok ? 'done' : 'failed';
      summary = out.summary || (out.ok ? `Ran ${tool}` : `${tool} failed`);
      result = out.ok ? json(out.result) : `${out.error}${out.preview ? `\n${out.preview}` : ''}`;
    } else {
      status = 'done';
      summary = `Ran ${tool}`;
      result = json(out);
    }
  } else if (p.state === 'output-error' || p.state === 'output-denied') {
    status = 'failed';
    summary = `${tool} failed: ${p.errorText ?? (p.state === 'output-denied' ? 'not allowed' : 'no reason given')}`;
    result = p.errorText ?? '';
  }
  const detail = [input && `Input:\n${input}`, result && `Result:\n${result}`].filter(Boolean).join('\n\n');
  return { kind: 'tool', tool, status, summary: clip(summary, SUMMARY_CAP), detail: capped(detail, DETAIL_CAP).text };
}

function proposalTitle(kind: string, result: unknown): string {
  const r = (result ?? {}) as { name?: unknown; title?: unknown };
  if (kind === 'plan') return `Plan: ${typeof r.title === 'string' ? r.title : 'untitled'}`;
  if (kind === 'eval') return 'Lua for the game';
  if (kind === 'balance') return 'Balance factory';
  const name = typeof r.name === 'string' ? r.name : 'Block';
  return kind === 'update' ? `Revision: ${name}` : `New block: ${name}`;
}

function messageBlocks(conversationId: string, m: UIMessage): TranscriptBlock[] {
  if (isCompactionMessage(m)) {
    const d = compactionData(m);
    return [{ kind: 'note', text: `${d?.originalCount ?? 'Earlier'} messages were compacted into a summary; "View originals" in the list shows them.` }];
  }
  const out: TranscriptBlock[] = [];
  for (const part of m.parts) {
    const p = part as ToolPartLike & { text?: unknown };
    if (p.type === 'text' && typeof p.text === 'string') {
      if (p.text.trim()) out.push({ kind: 'text', ...capped(p.text, TEXT_CAP) });
    } else if (p.type === 'reasoning' && typeof p.text === 'string') {
      if (p.text.trim()) out.push({ kind: 'reasoning', ...capped(p.text, TEXT_CAP) });
    } else if (isToolPart(part)) {
      const proposal = proposalOfPart(conversationId, m.id, part);
      out.push(proposal ? { kind: 'proposal', ref: proposal.ref, proposal: proposal.kind, title: proposalTitle(proposal.kind, proposal.result) } : toolBlock(p));
    } else if (p.type === 'file') {
      const f = part as { filename?: string; mediaType?: string };
      out.push({ kind: 'note', text: `Attached file: ${f.filename ?? f.mediaType ?? 'unnamed'}` });
    }
    // step-start, sources and data parts carry nothing a reader needs.
  }
  return out;
}

function windowStart(messages: readonly UIMessage[], size: number, opts: TranscriptOptions): number {
  const newest = Math.max(0, messages.length - size);
  if (opts.start !== undefined) return Math.min(Math.max(0, opts.start), newest);
  const i = opts.focusMessageId ? messages.findIndex((m) => m.id === opts.focusMessageId) : -1;
  return i >= 0 && i < newest ? Math.max(0, i - FOCUS_LEAD) : newest;
}

export function transcriptView(conversationId: string, title: string, messages: readonly UIMessage[], opts: TranscriptOptions = {}): TranscriptView {
  const size = Math.max(1, opts.window ?? TRANSCRIPT_WINDOW);
  const start = windowStart(messages, size, opts);
  const shown: TranscriptMessage[] = messages.slice(start, start + size).map((m) => ({
    id: m.id,
    role: m.role,
    origin: isCompactionMessage(m) ? 'compaction' : isReportMessage(m) ? 'report' : 'chat',
    blocks: messageBlocks(conversationId, m),
  }));
  return { conversationId, title, total: messages.length, start, messages: shown };
}
