// Runs one request of the accuracy suite through the real agent loop (runTurn, every PyOps tool) on a
// fresh copy of a project, records what the model called and read, its tokens, cost and time, and
// judges the final answer with the planner.
import fs from 'node:fs';
import path from 'node:path';
import { wrapLanguageModel, type UIMessageChunk } from 'ai';
import { Project } from '../src/core/db/project';
import { importGameData } from '../src/core/gamedata/import';
import { writeSettings } from '../src/core/planning/settings';
import { planningContext } from '../src/core/planning/context';
import { allTools } from '../src/core/assistant/tools/registry';
import { runTurn } from '../src/core/assistant/turn';
import { isToolOutcome, modelOutputOf } from '../src/core/assistant/agent/tools';
import type { TurnModel } from '../src/core/assistant/models/resolve';
import type { EvalCase } from './cases';
import { judge, type CapturedCall, type CheckName, type CheckResult } from './judge';

export interface CaseRun {
  id: string;
  model: string;
  checks: Record<CheckName, CheckResult>;
  calls: number;
  chars: number;
  inputTokens: number;
  outputTokens: number;
  /** USD as the provider reported it; null when it did not. */
  cost: number | null;
  seconds: number;
  answer: string;
  error?: string;
  toolCalls: CapturedCall[];
}

/** A project with the data imported once; each case runs on a copy of its files. */
export async function prepareProject(dir: string, dump: string, name: string): Promise<string> {
  const file = path.join(dir, `${name}.pyops`);
  fs.mkdirSync(dir, { recursive: true });
  const p = await Project.create(file, { name });
  try {
    await importGameData(p, dump);
  } finally {
    p.close();
  }
  return file;
}

function copyProject(base: string, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, path.basename(base));
  for (const suffix of ['', '.gamedata']) if (fs.existsSync(base + suffix)) fs.copyFileSync(base + suffix, file + suffix);
  return file;
}

/** Tokens and cost summed over every model call of the turn (the turn itself keeps only the last step's). */
function metered(t: TurnModel): { model: TurnModel; totals: { input: number; output: number; cost: number | null } } {
  const totals = { input: 0, output: 0, cost: null as number | null };
  const model = wrapLanguageModel({
    model: t.model as never,
    middleware: {
      wrapStream: async ({ doStream }) => {
        const r = await doStream();
        const watch = new TransformStream({
          transform(part: { type: string; usage?: { inputTokens?: { total?: number }; outputTokens?: { total?: number } }; providerMetadata?: Record<string, Record<string, unknown>> }, ctrl) {
            if (part.type === 'finish') {
              totals.input += part.usage?.inputTokens?.total ?? 0;
              totals.output += part.usage?.outputTokens?.total ?? 0;
              const cost = (part.providerMetadata?.openrouter?.usage as { cost?: number } | undefined)?.cost;
              if (typeof cost === 'number') totals.cost = (totals.cost ?? 0) + cost;
            }
            ctrl.enqueue(part);
          },
        });
        return { ...r, stream: r.stream.pipeThrough(watch as never) };
      },
    },
  });
  return { model: { ...t, model }, totals };
}

export async function runCase(c: EvalCase, baseProject: string, workDir: string, turnModel: TurnModel): Promise<CaseRun> {
  const file = copyProject(baseProject, path.join(workDir, c.id));
  const project = await Project.open(file, { app: 'cli' });
  try {
    writeSettings(project, { research_mode: c.horizon });
    const { model, totals } = metered(turnModel);
    const calls = new Map<string, CapturedCall>();
    const order: string[] = [];
    const onChunk = (ch: UIMessageChunk) => {
      if (ch.type === 'tool-input-available') {
        calls.set(ch.toolCallId, { name: ch.toolName, input: ch.input, ok: false, result: null, chars: 0 });
        order.push(ch.toolCallId);
      } else if (ch.type === 'tool-output-available') {
        const call = calls.get(ch.toolCallId);
        if (!call) return;
        const seen = modelOutputOf(ch.output).value;
        call.ok = isToolOutcome(ch.output) ? ch.output.ok : true;
        call.result = seen;
        call.chars = typeof seen === 'string' ? seen.length : JSON.stringify(seen ?? null).length;
      } else if (ch.type === 'tool-output-error') {
        const call = calls.get(ch.toolCallId);
        if (call) Object.assign(call, { ok: false, result: ch.errorText, chars: ch.errorText.length });
      }
    };
    const t0 = performance.now();
    const result = await runTurn({ project, message: c.prompt, tools: allTools(), caller: 'cli', title: 'off', model, onChunk });
    const seconds = (performance.now() - t0) / 1000;
    const answer = (result.message?.parts ?? []).filter((p): p is { type: 'text'; text: string } => p.type === 'text').map((p) => p.text).join('\n');
    const toolCalls = order.map((id) => calls.get(id)!);
    return {
      id: c.id, model: turnModel.modelId,
      checks: judge(planningContext(project), c.kind, c.prompt, toolCalls, answer),
      calls: toolCalls.length, chars: toolCalls.reduce((n, x) => n + x.chars, 0),
      inputTokens: totals.input, outputTokens: totals.output, cost: totals.cost, seconds, answer,
      ...(result.error ? { error: result.error.message } : {}),
      toolCalls,
    };
  } finally {
    project.close();
  }
}
