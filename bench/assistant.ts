// Assistant benchmarks: what a chat turn costs outside the model (load a 200-message
// conversation, compaction check, persist — with an instant mock model, so everything measured is
// ours plus the AI SDK's stream plumbing, with the full tool registry offered), and a forced extractive compaction of 500 messages
// (load, summarize locally, archive, save).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simulateReadableStream, type UIMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { Project } from '../src/core/db/project';
import { runTurn } from '../src/core/assistant/turn';
import { createConversation, replaceMessages } from '../src/core/assistant/conversations/store';
import { compactConversation } from '../src/core/assistant/compaction/context';
import { estimateOverhead } from '../src/core/assistant/compaction/estimate';
import { buildSystemPrompt } from '../src/core/assistant/prompt/system';
import type { AnyTool } from '../src/core/assistant/tools/types';
import { allTools } from '../src/core/assistant/tools/registry';
import { median, round, timeAsync } from './stats';

const benchTool = {
  name: 'lookUp',
  displayName: 'Look up',
  tier: 'read',
  description: 'Look something up (benchmark tool).',
  input: z.object({ good: z.string() }),
  run: (i: { good: string }) => ({ good: i.good }),
} as unknown as AnyTool;

/** A realistic transcript: user questions, answers, and every third answer carrying a 3 KB tool result. */
function conversation(n: number, prefix: string): UIMessage[] {
  const out: UIMessage[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      out.push({ id: `${prefix}-${i}`, role: 'user', parts: [{ type: 'text', text: `How do I make more \`plastic-bar\` at ${i} per second without importing \`propene\`? ${'Context. '.repeat(20)}` }] });
      continue;
    }
    const parts: UIMessage['parts'] = [{ type: 'step-start' }];
    if (i % 3 === 0) {
      parts.push({
        type: 'tool-lookUp',
        toolCallId: `${prefix}-c${i}`,
        state: 'output-available',
        input: { good: 'plastic-bar' },
        output: { ok: true, summary: 'Mapped plastic-bar', result: { goods: Array.from({ length: 40 }, (_, k) => ({ name: `good-${k}`, rate: k * 1.5, recipe: `recipe-${k}` })) } },
      } as UIMessage['parts'][number]);
      parts.push({ type: 'step-start' });
    }
    parts.push({ type: 'text', text: `Use \`plastic-bar\` via the \`coal-gas\` route. ${'Reasoned answer with numbers 12.5/s. '.repeat(25)}`, state: 'done' } as UIMessage['parts'][number]);
    out.push({ id: `${prefix}-${i}`, role: 'assistant', parts, metadata: { modelId: 'vendor/model' } });
  }
  return out;
}

function instantModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    modelId: 'bench/model',
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: 'response-metadata', id: 'r', modelId: 'bench/concrete', timestamp: new Date(0) },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Build two more blocks.' },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 50_000, noCache: 50_000, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } } },
        ] as any[],
      }),
    }),
  });
}

async function withProject<T>(fn: (p: Project) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pyops-bench-assistant-'));
  const p = await Project.create(path.join(dir, 'bench.pyops'), { app: 'bench' });
  try {
    return await fn(p);
  } finally {
    p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Median ms of a turn outside the model, on a 200-message conversation (target ≤ 50). */
export async function benchTurnOverhead(runs = 15): Promise<{ ms: number; messages: number; samples: number }> {
  return withProject(async (p) => {
    const samples: number[] = [];
    for (let r = 0; r < runs + 2; r++) {
      const c = createConversation(p);
      replaceMessages(p, c.id, conversation(200, `t${r}`));
      const [, ms] = await timeAsync(() =>
        runTurn({
          project: p,
          conversationId: c.id,
          message: 'And the byproducts?',
          model: { model: instantModel(), modelId: 'bench/model', info: { requestedId: 'bench/model', id: 'bench/model', contextWindow: 1_000_000, supportsReasoning: false, efforts: [], source: 'offline' } },
          tools: [...allTools(), benchTool],
          title: 'off',
        }),
      );
      if (r >= 2) samples.push(ms); // the first runs warm the JIT and sql.js
    }
    return { ms: round(median(samples), 2), messages: 200, samples: samples.length };
  });
}

/** Forced extractive compaction of 500 messages: load, summarize locally, archive, save (target ≤ 100). */
export async function benchCompaction(runs = 5): Promise<{ ms: number; messages: number }> {
  return withProject(async (p) => {
    const overheadTokens = estimateOverhead(buildSystemPrompt({ mode: 'now', packs: [], target: null, targetTech: null, targetPacks: null }), [benchTool]);
    const samples: number[] = [];
    for (let r = 0; r < runs + 1; r++) {
      const c = createConversation(p);
      replaceMessages(p, c.id, conversation(500, `c${r}`));
      const [res, ms] = await timeAsync(() => compactConversation(p, c.id, { contextWindow: 200_000, overheadTokens }));
      if (!res.compacted) throw new Error('benchmark compaction did not compact');
      if (r >= 1) samples.push(ms);
    }
    return { ms: round(median(samples), 2), messages: 500 };
  });
}
