// The model the suite uses without an OpenRouter key: it makes its case's scripted tool calls, one
// per step, then answers from the tool results it read back — so the whole harness (agent loop,
// tools, judge, table) runs in `npm test` without a network.
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { ScriptedCall, ScriptSource } from './cases';

type PromptMessage = { role: string; content: unknown };
type ToolResultPart = { type: 'tool-result'; toolName: string; output?: { type: string; value: unknown } };

/** The calls of a script, asked for one at a time: a list as it is, a script given each result it waits for. */
function caller(source: ScriptSource): (index: number, results: ToolResultPart[]) => ScriptedCall | undefined {
  if (Array.isArray(source)) return (i) => source[i];
  const gen = source();
  const calls: ScriptedCall[] = [];
  let finished = false;
  return (i, results) => {
    while (calls.length <= i && !finished) {
      // What the model read of the last call's result (nothing for an error); the first call reads none.
      const last = calls.length ? results[calls.length - 1]?.output : undefined;
      const step = gen.next(last?.type === 'json' ? last.value : undefined);
      if (step.done) finished = true;
      else calls.push(step.value);
    }
    return calls[i];
  };
}

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

function toolResults(prompt: PromptMessage[]): ToolResultPart[] {
  return prompt.filter((m) => m.role === 'tool').flatMap((m) => (Array.isArray(m.content) ? (m.content as ToolResultPart[]) : [])).filter((p) => p.type === 'tool-result');
}

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3));

type Research = { steps: Array<{ tech: string }>; total: { techs: number; packs: Record<string, number> }; stepsOmitted?: number };
type Draft = { name: string; status: string; rows?: Array<{ recipe: string; machine: string | null; wholeBuildings: number }>; powerW?: number; importsFromBlocks?: Array<{ good: string; rate: number }>; importsExternal?: Array<{ good: string; rate: number }>; byproducts?: Array<{ good: string; rate: number }>; research?: Research };

/** The research a draft or plan still needs, in the tool's order, with its science. */
function describeResearch(r: Research | undefined): string {
  if (!r?.steps.length) return 'Nothing is left to research.';
  const packs = Object.entries(r.total.packs).map(([p, n]) => `${fmt(n)} ${p}`).join(', ');
  return `Research still to do, in order: ${r.steps.map((s) => s.tech).join(', ')}${r.stepsOmitted ? ` and ${r.stepsOmitted} earlier steps` : ''} (${r.total.techs} technologies${packs ? `; ${packs}` : ''}).`;
}

function describeDraft(d: Draft): string {
  const rows = (d.rows ?? []).filter((r) => r.wholeBuildings > 0).map((r) => `${r.wholeBuildings} × ${r.machine ?? '?'} for ${r.recipe}`);
  const lines = [`**${d.name}** (${d.status}): ${rows.join(', ') || 'no buildings'}; power ${fmt((d.powerW ?? 0) / 1e6)} MW.`];
  const imports = [...(d.importsFromBlocks ?? []), ...(d.importsExternal ?? [])];
  if (imports.length) lines.push(`Imports: ${imports.map((f) => `${f.good} ${fmt(f.rate)}/s`).join(', ')}.`);
  if (d.byproducts?.length) lines.push(`Byproducts: ${d.byproducts.map((f) => `${f.good} ${fmt(f.rate)}/s`).join(', ')}.`);
  return lines.join(' ');
}

const DRAFT_TOOLS = new Set(['submitPlan', 'submitBlock', 'reviseBlock']);

type Advice = { good: string; topConsumers?: string[]; voidRecipes?: string[] };

/** Where the goods left over can go, "meat → biomass-meat, full-render-meat": from the plan's balance
 *  (each surplus and dangling byproduct says it) and from byproductSinks calls after the draft. */
function describeLeftovers(draft: Record<string, unknown> | undefined, results: ToolResultPart[]): string[] {
  const balance = draft?.balance as { overProduced?: Advice[]; danglingByproducts?: Advice[] } | undefined;
  const advised = [...(balance?.overProduced ?? []), ...(balance?.danglingByproducts ?? [])].map((g) => [g.good, [...(g.topConsumers ?? []), ...(g.voidRecipes ?? [])]] as const);
  const looked = results
    .flatMap((r) => ((r.output?.value as { results?: Array<{ good: string; consumedBy?: Array<{ recipe: string }>; voidOptions?: Array<{ recipe: string }> }> } | undefined)?.results ?? []))
    .map((g) => [g.good, [...(g.consumedBy ?? []), ...(g.voidOptions ?? [])].map((c) => c.recipe)] as const);
  const all = [...advised, ...looked];
  if (!all.length) return [];
  return [`Left over, and where it can go: ${all.map(([good, to]) => `${good} → ${to.join(', ') || 'nothing takes it'}`).join('; ')}.`];
}

/** The answer a careful model gives: the last draft it made (with where its leftovers can go, from a
 *  plan's balance and from what it looked up after drafting), else the last tool result. */
export function answerFrom(results: ToolResultPart[]): string {
  const at = results.findLastIndex((r) => DRAFT_TOOLS.has(r.toolName));
  const last = results[at >= 0 ? at : results.length - 1];
  const v = last?.output?.value as Record<string, unknown> | undefined;
  if (!last || !v) return 'I could not get an answer from the tools.';
  const after = at >= 0 ? describeLeftovers(last.toolName === 'submitPlan' ? v : undefined, results.slice(at + 1).filter((r) => r.toolName === 'byproductSinks')) : [];
  if (last.toolName === 'submitPlan') return [(v.title as string) ?? 'Plan', ...[...(v.blocks as Draft[]), ...((v.updates as Draft[] | undefined) ?? [])].map(describeDraft), ...after, describeResearch(v.research as Research | undefined)].join('\n');
  if (last.toolName === 'submitBlock' || last.toolName === 'reviseBlock') return [describeDraft(v as unknown as Draft), ...after, describeResearch((v as unknown as Draft).research)].join('\n');
  const names = JSON.stringify(v).match(/"(?:name|technology|branch|master)":"([^"]+)"/g)?.slice(0, 6).map((s) => s.split(':')[1].replace(/"/g, '')) ?? [];
  return `From ${last.toolName}: ${names.join(', ') || 'nothing found'}.`;
}

export function scriptedModel(script: ScriptSource, modelId = 'scripted/planner'): MockLanguageModelV4 {
  let seq = 0;
  const callAt = caller(script);
  return new MockLanguageModelV4({
    modelId,
    doStream: async (options: { prompt: PromptMessage[] }) => {
      const done = toolResults(options.prompt);
      const meta = { type: 'response-metadata', id: `r-${++seq}`, modelId, timestamp: new Date(0) };
      const next = callAt(done.length, done);
      const chunks = next
        ? [meta, { type: 'tool-call', toolCallId: `call-${seq}`, toolName: next.name, input: JSON.stringify(next.input) }, { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(1000, 50) }]
        : [meta, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: answerFrom(done) }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(1000, 200) }];
      return { stream: simulateReadableStream({ chunks: chunks as never[], chunkDelayInMs: 0 }) };
    },
  } as never);
}
