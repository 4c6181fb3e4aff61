// Runs one request of the accuracy suite through the real agent loop (runTurn, every PyOps tool) on a
// fresh copy of a project, records what the model called and read, its tokens, cost and time, and
// judges the final answer with the planner.
import fs from 'node:fs';
import path from 'node:path';
import { wrapLanguageModel, type UIMessageChunk } from 'ai';
import { Project } from '../src/core/db/project';
import { importGameData } from '../src/core/gamedata/import';
import { setResearched, writeSettings } from '../src/core/planning/settings';
import { planningContext } from '../src/core/planning/context';
import { allTools, findTool } from '../src/core/assistant/tools/registry';
import { runTool } from '../src/core/assistant/tools/run';
import { planning, solverFor } from '../src/core/assistant/tools/context';
import { applicable } from '../src/core/planning/proposals/apply';
import { isPendingTool, PENDING_TOOLS } from '../src/core/planning/proposals/pending';
import { factoryBalance } from '../src/core/planning/factory/balance';
import { runTurn } from '../src/core/assistant/turn';
import { isToolOutcome, modelOutputOf } from '../src/core/assistant/agent/tools';
import type { TurnModel } from '../src/core/assistant/models/resolve';
import type { EvalCase, ScriptedCall } from './cases';
import { judge, type CapturedCall, type CheckName, type CheckResult, type FactoryAfter } from './judge';

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

/** The player's factory before the question: each proposal drafted and applied, as the player's Apply does. */
async function buildFactory(project: Project, calls: ScriptedCall[]): Promise<void> {
  for (const call of calls) {
    const tool = findTool(call.name);
    if (!tool || !isPendingTool(call.name)) throw new Error(`the case's factory names ${call.name}, which drafts nothing to apply`);
    const o = await runTool(tool, call.input, { project, caller: 'agent' });
    if (!o.ok) throw new Error(`the case's factory: ${call.name} failed: ${o.error}`);
    const a = applicable(PENDING_TOOLS[call.name], o.result);
    if (!a.ok) throw new Error(`the case's factory: ${a.problem}`);
    await a.apply(project, solverFor(planning({ project, caller: 'agent' })));
  }
}

/**
 * A factory answer applied as the user's Balance Factory does, then the factory as the Balance view
 * sees it: blocks not solved, goods short, and each pinned good's delivered rate.
 */
async function factoryAfter(project: Project, calls: CapturedCall[]): Promise<FactoryAfter> {
  const last = [...calls].reverse().find((c) => c.ok && c.name === 'balanceFactory');
  if (!last) return { applied: false, error: 'balanceFactory was never called', notSolved: [], short: [], pins: [], delivered: {} };
  const pins = ((last.input as { pins?: Array<{ good: string; rate: number }> }).pins ?? []).filter((x) => x.rate > 0);
  const pc = () => planning({ project, caller: 'agent' });
  try {
    const a = applicable('balance', last.full);
    if (!a.ok) return { applied: false, error: a.problem ?? 'not applicable', notSolved: [], short: [], pins, delivered: {} };
    await a.apply(project, solverFor(pc()));
  } catch (e) {
    return { applied: false, error: (e as Error).message, notSolved: [], short: [], pins, delivered: {} };
  }
  const b = await factoryBalance(project, pc(), solverFor(pc()));
  const delivered: Record<string, number> = {};
  for (const f of b.audit.finalProducts) delivered[f.good] = (delivered[f.good] ?? 0) + f.rate;
  return {
    applied: true,
    notSolved: b.audit.notSolved.map((x) => `${x.name}: ${x.status ?? 'not solved'}`),
    short: b.audit.underSupplied.map((x) => ({ good: x.good, shortBy: x.shortBy })),
    pins,
    delivered,
  };
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
    if (c.researched) setResearched(project, c.researched);
    if (c.factory) await buildFactory(project, c.factory);
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
        if (isToolOutcome(ch.output) && ch.output.ok) call.full = ch.output.result;
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
    const after = c.kind === 'factory' ? await factoryAfter(project, toolCalls) : undefined;
    return {
      id: c.id, model: turnModel.modelId,
      checks: judge(planningContext(project), c.kind, c.prompt, toolCalls, answer, after),
      calls: toolCalls.length, chars: toolCalls.reduce((n, x) => n + x.chars, 0),
      inputTokens: totals.input, outputTokens: totals.output, cost: totals.cost, seconds, answer,
      ...(result.error ? { error: result.error.message } : {}),
      toolCalls,
    };
  } finally {
    project.close();
  }
}
