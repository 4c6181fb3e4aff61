// Scripted models and small fixtures for the assistant tests: AI SDK mock models whose doStream
// answers are per-call arrays (one entry per model call in the tool loop), a few tiny tools, and a
// throw-away project.
import fs from 'node:fs';
import path from 'node:path';
import { simulateReadableStream, type UIMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { Project } from '../../../../src/core/db/project';
import type { AnyTool, ToolDefinition } from '../../../../src/core/assistant/tools/types';
import type { TurnModel } from '../../../../src/core/assistant/models/resolve';
import type { ModelInfo } from '../../../../src/core/assistant/models/catalog';
import { tempDir } from '../../../helpers/paths';

export const usage = (input: number | undefined, output: number | undefined) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

interface StepOpts {
  input?: number;
  output?: number;
  modelId?: string;
  reasoning?: string;
  delayMs?: number;
}

function stream(chunks: unknown[], delayMs?: number) {
  return { stream: simulateReadableStream({ chunks: chunks as any[], chunkDelayInMs: delayMs ?? 0 }) };
}

const meta = (o: StepOpts) => ({ type: 'response-metadata', id: `r-${Math.random().toString(36).slice(2, 8)}`, modelId: o.modelId ?? 'vendor/concrete-model', timestamp: new Date(0) });

export function textStep(text: string | string[], o: StepOpts = {}) {
  const deltas = Array.isArray(text) ? text : [text];
  return stream(
    [
      meta(o),
      ...(o.reasoning ? [{ type: 'reasoning-start', id: 'r' }, { type: 'reasoning-delta', id: 'r', delta: o.reasoning }, { type: 'reasoning-end', id: 'r' }] : []),
      { type: 'text-start', id: 't' },
      ...deltas.map((delta) => ({ type: 'text-delta', id: 't', delta })),
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(o.input ?? 100, o.output ?? 10) },
    ],
    o.delayMs,
  );
}

let callSeq = 0;
export function toolStep(calls: Array<{ name: string; input: unknown; id?: string }>, o: StepOpts = {}) {
  return stream(
    [
      meta(o),
      ...calls.map((c) => ({ type: 'tool-call', toolCallId: c.id ?? `call-${++callSeq}`, toolName: c.name, input: typeof c.input === 'string' ? c.input : JSON.stringify(c.input) })),
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(o.input ?? 100, o.output ?? 10) },
    ],
    o.delayMs,
  );
}

/** A step that fails inside the stream (after optional partial text). */
export function errorStep(error: unknown, partialText?: string) {
  return stream([
    meta({}),
    ...(partialText ? [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: partialText }] : []),
    { type: 'error', error },
    { type: 'finish', finishReason: { unified: 'error', raw: 'error' }, usage: usage(undefined, undefined) },
  ]);
}

export function mockModel(steps: unknown[], modelId = 'mock/model') {
  return new MockLanguageModelV4({ modelId, doStream: steps as any });
}

export function info(over: Partial<ModelInfo> = {}): ModelInfo {
  return { requestedId: 'mock/model', id: 'mock/model', contextWindow: 128_000, supportsReasoning: false, efforts: ['low', 'medium', 'high'], source: 'offline', ...over };
}

export function turnModel(model: MockLanguageModelV4 | any, over: Partial<ModelInfo> = {}, modelId = 'mock/model'): TurnModel {
  return { model, modelId, info: info(over) };
}

/** A model whose doGenerate (titles, summaries) returns a fixed text, or throws. */
export function generateModel(text: string | Error) {
  return new MockLanguageModelV4({
    modelId: 'mock/gen',
    doGenerate: async () => {
      if (text instanceof Error) throw text;
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usage(10, 5),
        warnings: [],
      } as any;
    },
  });
}

export const echoTool: AnyTool = {
  name: 'echoGood',
  displayName: 'Echo good',
  tier: 'read',
  description: 'Echo a good name back. For tests.',
  input: z.object({ good: z.string().min(1), times: z.number().int().min(1).max(3).default(1) }),
  run: (i: { good: string; times: number }) => ({ good: i.good, repeated: Array(i.times).fill(i.good) }),
  describe: (i: { good: string }) => `Echoed ${i.good}`,
} as ToolDefinition as AnyTool;

export const failingTool: AnyTool = {
  name: 'alwaysFails',
  displayName: 'Always fails',
  tier: 'read',
  description: 'Fails. For tests.',
  input: z.object({}),
  run: () => {
    throw new Error('no good named "iron plate"; did you mean iron-plate?');
  },
} as ToolDefinition as AnyTool;

export const bigTool: AnyTool = {
  name: 'bigResult',
  displayName: 'Big result',
  tier: 'read',
  description: 'Returns a long list. For tests.',
  input: z.object({ n: z.number().int().min(1).max(5000) }),
  run: (i: { n: number }) => ({ rows: Array.from({ length: i.n }, (_, k) => ({ k, name: `item-${k}` })) }),
  describe: (i: { n: number }) => `Listed ${i.n} rows`,
} as ToolDefinition as AnyTool;

export const testTools = [echoTool, failingTool, bigTool];

export interface TempProject {
  project: Project;
  dir: string;
  file: string;
  cleanup(): void;
}

export async function tempProject(name = 'chat'): Promise<TempProject> {
  const dir = tempDir('pyops-assistant-');
  const file = path.join(dir, `${name}.pyops`);
  const project = await Project.create(file, { app: 'test' });
  return {
    project,
    dir,
    file,
    cleanup: () => {
      try {
        project.close();
      } catch {
        // already closed
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function user(text: string, id = `u-${Math.random().toString(36).slice(2, 10)}`): UIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

export function assistant(text: string, id = `a-${Math.random().toString(36).slice(2, 10)}`, extra: UIMessage['parts'] = []): UIMessage {
  return { id, role: 'assistant', parts: [{ type: 'step-start' }, ...extra, { type: 'text', text, state: 'done' } as any] };
}

/** An assistant message with one finished tool call whose output is `size` characters of JSON-ish text. */
export function toolMessage(size: number, id = `a-${Math.random().toString(36).slice(2, 10)}`, ok = true): UIMessage {
  const output = ok ? { ok: true, result: { blob: 'x'.repeat(size) }, summary: 'Listed things' } : { ok: false, code: 'failed', error: 'E'.repeat(size), summary: 'failed' };
  return {
    id,
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'tool-bigResult', toolCallId: `c-${id}`, state: 'output-available', input: { n: 1 }, output } as any,
      { type: 'text', text: 'Done.', state: 'done' } as any,
    ],
  };
}

/** A conversation of `pairs` user/assistant exchanges, each message about `chars` characters. */
export function transcript(pairs: number, chars = 400): UIMessage[] {
  const out: UIMessage[] = [];
  for (let i = 0; i < pairs; i++) {
    out.push(user(`Question ${i}: ${'q'.repeat(chars)}`, `u${i}`));
    out.push(assistant(`Answer ${i}: ${'a'.repeat(chars)}`, `a${i}`));
  }
  return out;
}
