// Token estimates for what a turn sends: the model-visible transcript plus the fixed prompt
// overhead (system prompt, tool schemas). Deliberately conservative — prose at 4 characters per
// token, JSON at 3 (JSON tokenizes denser), plus a per-part allowance — so compaction triggers a
// little early rather than a provider refusing the request.
import type { UIMessage } from 'ai';
import type { AnyTool } from '../tools/types';
import { isToolPart, modelVisible } from '../agent/messages';
import { modelOutputOf, toolInputJsonSchema } from '../agent/tools';

const PER_PART = 8;
const PER_MESSAGE = 4;
export const proseTokens = (s: string) => Math.ceil(s.length / 4);
export const jsonTokens = (s: string) => Math.ceil(s.length / 3);

type Part = UIMessage['parts'][number];

/** Tokens the model would read for one part (parts it never sees count 0). */
export function partTokens(p: Part): number {
  if (p.type === 'text') return proseTokens((p as { text: string }).text) + PER_PART;
  if (isToolPart(p)) {
    const t = p as { type: string; toolName?: string; input?: unknown; output?: unknown; errorText?: string; state?: string };
    const output = t.state === 'output-available' ? modelOutputOf(t.output).value : undefined;
    return jsonTokens(JSON.stringify({ type: t.type, toolName: t.toolName, input: t.input, output, errorText: t.errorText }) ?? '') + PER_PART;
  }
  return 0;
}

export function messageTokens(m: UIMessage): number {
  let n = PER_MESSAGE;
  for (const p of m.parts) n += partTokens(p);
  return n;
}

/** Estimate of the model-visible transcript (data parts, reasoning, incomplete calls excluded). */
export function estimateMessages(messages: readonly UIMessage[]): number {
  let n = 0;
  for (const m of modelVisible(messages)) n += messageTokens(m);
  return n;
}

/** Per-message estimates aligned with `messages` (0 for messages the model never sees). */
export function messageEstimates(messages: readonly UIMessage[]): number[] {
  const visible = new Map(modelVisible(messages).map((m) => [m.id, m]));
  return messages.map((m) => {
    const v = visible.get(m.id);
    return v ? messageTokens(v) : 0;
  });
}

/** The fixed part of every request: system prompt plus tool names, descriptions and schemas. */
export function estimateOverhead(system: string, tools: readonly AnyTool[] = []): number {
  let n = proseTokens(system) + 16;
  for (const t of tools) n += proseTokens(t.description) + jsonTokens(JSON.stringify(toolInputJsonSchema(t))) + 12;
  return n;
}
