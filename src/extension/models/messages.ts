// VS Code chat messages → AI SDK model messages, for PyOps' OpenRouter models serving VS Code's
// own requests (other extensions, Copilot features, the chat panel's default agent). Parts are
// recognised by shape, not class, so the conversion is testable without an editor: text parts
// carry `value`, tool calls `callId`+`name`+`input`, tool results `callId`+`content`.
import type { ModelMessage } from 'ai';
import { proseTokens } from '../../core/assistant/compaction/estimate';

export interface VsMessageLike {
  role: number;
  content: ReadonlyArray<unknown>;
}

/** VS Code's roles: 1 user, 2 assistant, 3 system (proposed API, accepted when present). */
const USER = 1;
const ASSISTANT = 2;
const SYSTEM = 3;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object';
const isToolCall = (p: unknown): p is { callId: string; name: string; input: unknown } => isObj(p) && typeof p.callId === 'string' && typeof p.name === 'string' && 'input' in p;
const isToolResult = (p: unknown): p is { callId: string; content: unknown[] } => isObj(p) && typeof p.callId === 'string' && Array.isArray(p.content);
const isText = (p: unknown): p is { value: string } => isObj(p) && typeof p.value === 'string';

/** Text of a data part when it is text or JSON; other binary data is dropped. */
function dataText(p: unknown): string | undefined {
  if (!isObj(p) || typeof p.mimeType !== 'string' || !(p.data instanceof Uint8Array)) return undefined;
  if (!/^text\/|json/.test(p.mimeType)) return undefined;
  return new TextDecoder().decode(p.data);
}

function partText(p: unknown): string | undefined {
  if (isText(p)) return p.value;
  return dataText(p);
}

/** The text inside a tool result's content. */
export function resultText(content: unknown[]): string {
  return content.map((c) => partText(c) ?? (isObj(c) && 'value' in c ? JSON.stringify(c.value) : '')).filter(Boolean).join('\n');
}

export function toModelMessages(messages: readonly VsMessageLike[]): { system: string | undefined; messages: ModelMessage[] } {
  const system: string[] = [];
  const out: ModelMessage[] = [];
  const toolNames = new Map<string, string>();
  for (const m of messages) {
    if (m.role === SYSTEM) {
      system.push(m.content.map(partText).filter(Boolean).join('\n'));
      continue;
    }
    if (m.role === ASSISTANT) {
      const content: Array<{ type: 'text'; text: string } | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }> = [];
      for (const p of m.content) {
        if (isToolCall(p)) {
          toolNames.set(p.callId, p.name);
          content.push({ type: 'tool-call', toolCallId: p.callId, toolName: p.name, input: p.input ?? {} });
        } else {
          const t = partText(p);
          if (t) content.push({ type: 'text', text: t });
        }
      }
      if (content.length) out.push({ role: 'assistant', content });
      continue;
    }
    if (m.role === USER) {
      const results = m.content.filter(isToolResult);
      if (results.length) {
        out.push({
          role: 'tool',
          content: results.map((r) => ({ type: 'tool-result' as const, toolCallId: r.callId, toolName: toolNames.get(r.callId) ?? 'tool', output: { type: 'text' as const, value: resultText(r.content) } })),
        });
      }
      const text = m.content.filter((p) => !isToolResult(p)).map(partText).filter((t): t is string => !!t);
      if (text.length) out.push({ role: 'user', content: text.map((t) => ({ type: 'text' as const, text: t })) });
    }
  }
  return { system: system.length ? system.join('\n\n') : undefined, messages: out };
}

/** Rough token count for VS Code's budgeting: 4 characters per token. */
export function estimateTokens(text: string | VsMessageLike): number {
  if (typeof text === 'string') return proseTokens(text);
  let n = 4;
  for (const p of text.content) {
    if (isToolCall(p)) n += proseTokens(p.name + JSON.stringify(p.input ?? {}));
    else if (isToolResult(p)) n += proseTokens(resultText(p.content));
    else n += proseTokens(partText(p) ?? '');
  }
  return n;
}
