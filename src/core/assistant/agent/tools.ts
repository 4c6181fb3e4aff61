// Registry tools → AI SDK tools. The model sees each tool's zod schema as JSON Schema, but the
// SDK does not validate: input goes straight to runTool, whose validation names the bad field,
// so a mistake comes back to the model as a result it can fix, never as an exception. The UI part
// keeps the whole outcome (result plus the past-tense summary); the model gets only the result
// or the error text.
import { tool, jsonSchema, type ToolSet, type JSONSchema7 } from 'ai';
import { modelView, type AnyTool, type ToolContext, type ToolOutcome } from '../tools/types';
import { runTool } from '../tools/run';
import { toJsonSchema } from '../tools/schema';

const schemaCache = new WeakMap<AnyTool, JSONSchema7>();

/** The JSON Schema the model sees for a tool's input (draft-07, input side of transforms). */
export function toolInputJsonSchema(t: AnyTool): JSONSchema7 {
  let s = schemaCache.get(t);
  if (!s) {
    s = toJsonSchema(t.input, 'draft-7') as JSONSchema7;
    schemaCache.set(t, s);
  }
  return s;
}

export function isToolOutcome(v: unknown): v is ToolOutcome {
  return !!v && typeof v === 'object' && typeof (v as { ok?: unknown }).ok === 'boolean' && typeof (v as { summary?: unknown }).summary === 'string';
}

type ModelOutput = { type: 'json'; value: any } | { type: 'error-text'; value: string } | { type: 'text'; value: string };

/** What the model reads back from a stored tool output. */
export function modelOutputOf(output: unknown): ModelOutput {
  if (isToolOutcome(output)) {
    if (output.ok) return { type: 'json', value: (modelView(output) ?? null) as any };
    const preview = output.preview ? `\nPreview of the result: ${output.preview}` : '';
    return { type: 'error-text', value: `${output.error}${preview}` };
  }
  return { type: 'json', value: (output ?? null) as any };
}

export type AgentToolContext = Omit<ToolContext, 'signal'>;

/** Tools offered in-app (developer-tier and MCP-only tools are left out). */
export function agentTools(tools: readonly AnyTool[]): AnyTool[] {
  return tools.filter((t) => t.tier !== 'developer' && (!t.surfaces || t.surfaces.includes('app')));
}

export function toAiTools(tools: readonly AnyTool[], ctx: AgentToolContext): ToolSet {
  const set: ToolSet = {};
  for (const t of agentTools(tools)) {
    set[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema<unknown>(toolInputJsonSchema(t)),
      execute: async (input: unknown, opts: { abortSignal?: AbortSignal }) => runTool(t, input, { ...ctx, signal: opts.abortSignal }),
      toModelOutput: ({ output }: { output: unknown }) => modelOutputOf(output),
    } as any);
  }
  return set;
}
