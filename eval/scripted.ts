// The model the suite uses without an OpenRouter key: it makes its case's scripted tool calls, one
// per step, then answers from the tool results it read back — so the whole harness (agent loop,
// tools, judge, table) runs in `npm test` without a network.
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { ScriptedCall } from './cases';

type PromptMessage = { role: string; content: unknown };
type ToolResultPart = { type: 'tool-result'; toolName: string; output?: { type: string; value: unknown } };

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

function toolResults(prompt: PromptMessage[]): ToolResultPart[] {
  return prompt.filter((m) => m.role === 'tool').flatMap((m) => (Array.isArray(m.content) ? (m.content as ToolResultPart[]) : [])).filter((p) => p.type === 'tool-result');
}

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3));

type Draft = { name: string; status: string; rows?: Array<{ recipe: string; machine: string | null; wholeBuildings: number }>; powerW?: number; importsFromBlocks?: Array<{ good: string; rate: number }>; importsExternal?: Array<{ good: string; rate: number }>; byproducts?: Array<{ good: string; rate: number }> };

function describeDraft(d: Draft): string {
  const rows = (d.rows ?? []).filter((r) => r.wholeBuildings > 0).map((r) => `${r.wholeBuildings} × ${r.machine ?? '?'} for ${r.recipe}`);
  const lines = [`**${d.name}** (${d.status}): ${rows.join(', ') || 'no buildings'}; power ${fmt((d.powerW ?? 0) / 1e6)} MW.`];
  const imports = [...(d.importsFromBlocks ?? []), ...(d.importsExternal ?? [])];
  if (imports.length) lines.push(`Imports: ${imports.map((f) => `${f.good} ${fmt(f.rate)}/s`).join(', ')}.`);
  if (d.byproducts?.length) lines.push(`Byproducts: ${d.byproducts.map((f) => `${f.good} ${fmt(f.rate)}/s`).join(', ')}.`);
  return lines.join(' ');
}

/** The answer a careful model gives from the last tool result. */
export function answerFrom(results: ToolResultPart[]): string {
  const last = results[results.length - 1];
  const v = last?.output?.value as Record<string, unknown> | undefined;
  if (!last || !v) return 'I could not get an answer from the tools.';
  if (last.toolName === 'submitPlan') return [(v.title as string) ?? 'Plan', ...[...(v.blocks as Draft[]), ...(v.updates as Draft[])].map(describeDraft)].join('\n');
  if (last.toolName === 'submitBlock' || last.toolName === 'reviseBlock') return describeDraft(v as unknown as Draft);
  const names = JSON.stringify(v).match(/"(?:name|technology|branch|master)":"([^"]+)"/g)?.slice(0, 6).map((s) => s.split(':')[1].replace(/"/g, '')) ?? [];
  return `From ${last.toolName}: ${names.join(', ') || 'nothing found'}.`;
}

export function scriptedModel(script: ScriptedCall[], modelId = 'scripted/planner'): MockLanguageModelV4 {
  let seq = 0;
  return new MockLanguageModelV4({
    modelId,
    doStream: async (options: { prompt: PromptMessage[] }) => {
      const done = toolResults(options.prompt);
      const meta = { type: 'response-metadata', id: `r-${++seq}`, modelId, timestamp: new Date(0) };
      const next = script[done.length];
      const chunks = next
        ? [meta, { type: 'tool-call', toolCallId: `call-${seq}`, toolName: next.name, input: JSON.stringify(next.input) }, { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(1000, 50) }]
        : [meta, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: answerFrom(done) }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(1000, 200) }];
      return { stream: simulateReadableStream({ chunks: chunks as never[], chunkDelayInMs: 0 }) };
    },
  } as never);
}
