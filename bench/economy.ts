// Tool economy on the Py data: how many characters a model receives from `recipeGraph` at default
// settings, over every good with at least two real producers (a choice to explore). Each call goes
// through runTool exactly as the agent does, and the figure is the serialized outcome. The horizon
// is the one a fresh import sets (readSettings of the imported project, nothing researched).
import { findTool } from '../src/core/assistant/tools/registry';
import { MAX_RESULT_CHARS, runTool } from '../src/core/assistant/tools/run';
import { modelText, modelView } from '../src/core/assistant/tools/types';
import { fullPlanSession, type FullPlanSession } from './fullPlan';
import { planningContext } from '../src/core/planning/context';
import { readSettings, writeSettings } from '../src/core/planning/settings';
import { realProducers } from '../src/core/planning/queries/common';
import { percentile } from './stats';
import { pyProject } from './queries';
import { BENCH_DATA } from './data';

export interface RecipeGraphEconomy {
  /** Goods measured (real producers ≥ 2). */
  goods: number;
  maxChars: number;
  maxGood: string;
  p50Chars: number;
  p95Chars: number;
  /** Results refused as larger than the tool result cap. */
  overCap: number;
  cap: number;
  horizon: string;
}

export async function benchRecipeGraphEconomy(): Promise<RecipeGraphEconomy> {
  const { project } = await pyProject();
  const pc = planningContext(project);
  const tool = findTool('recipeGraph');
  if (!tool) throw new Error('recipeGraph is not in the tool registry');
  const goods = [...pc.g.goods.values()]
    .filter((x) => !x.synthetic && realProducers(pc, x.name).length >= 2)
    .map((x) => x.name)
    .sort();
  const sizes: number[] = [];
  let overCap = 0;
  let maxChars = 0;
  let maxGood = '';
  for (const target of goods) {
    const outcome = await runTool(tool, { target }, { project, caller: 'agent' });
    let chars = modelText(outcome).length;
    if (!outcome.ok) {
      if (outcome.code !== 'too-large') throw new Error(`recipeGraph ${target} failed: ${outcome.error}`);
      // The model got a refusal; what it would have cost is the size the refusal reports.
      overCap++;
      chars = Number(/\((\d+) characters/.exec(outcome.error)?.[1] ?? chars);
    }
    sizes.push(chars);
    if (chars > maxChars) {
      maxChars = chars;
      maxGood = target;
    }
  }
  const s = pc.availability.state.settings;
  return {
    goods: goods.length,
    maxChars,
    maxGood,
    p50Chars: percentile(sizes, 50),
    p95Chars: percentile(sizes, 95),
    overCap,
    cap: MAX_RESULT_CHARS,
    horizon: `${s.research_mode}, packs [${s.available_science_packs.join(', ')}], ${pc.availability.state.researched.size} researched`,
  };
}

/** The session's targets: what a Py player early in the game asks for, per second (per data set). */
export const SESSION_TARGETS: Array<{ good: string; rate: number }> = BENCH_DATA.sessionTargets;

export interface ToolSession {
  horizon: string;
  targets: Record<string, { calls: number; chars: number; byTool: Record<string, number>; planOk: boolean; shortfalls: number }>;
  calls: number;
  chars: number;
  /** The full logistic-science plan with its supporting blocks, under "able to make" the pack (its log left out). */
  fullPlan: Omit<FullPlanSession, 'log'>;
}

type GraphResult = { goods: Record<string, { candidates?: Array<{ recipe: string; in: string }>; leaf?: boolean; depth: number }>; unexpanded?: string[] };

const inputsOf = (s: string) => s.split(' + ').map((x) => x.trim().replace(/^[\d.]+\s+/, '').replace(/\s*@.*$/, '')).filter(Boolean);

/**
 * The calls a model makes, following the system prompt, to draft and plan one target: find it, read
 * its recipe graph, look up what the graph left unexpanded, draft the block from the first candidate
 * of every good, ask where its byproducts go, plan it as a main block and a supplier sized from the
 * plan, and audit that plan. Recipe choices come from the tool results only, as a model's would.
 */
export async function benchToolSession(): Promise<ToolSession> {
  const { project } = await pyProject();
  const before = readSettings(project);
  writeSettings(project, { research_mode: 'now', available_science_packs: ['automation-science-pack'] });
  const out: Omit<ToolSession, 'fullPlan'> = { horizon: 'Now, automation science packs', targets: {}, calls: 0, chars: 0 };
  try {
    for (const t of SESSION_TARGETS) {
      const rec = { calls: 0, chars: 0, byTool: {} as Record<string, number>, planOk: false, shortfalls: 0 };
      // Counted and read as the model receives it: the compact JSON of the tool's model view.
      const call = async (name: string, input: unknown) => {
        const o = await runTool(findTool(name)!, input, { project, caller: 'agent' });
        const chars = modelText(o).length;
        rec.calls++;
        rec.chars += chars;
        rec.byTool[name] = (rec.byTool[name] ?? 0) + chars;
        return o.ok ? (modelView(o) as Record<string, unknown>) : undefined;
      };
      const display = planningContext(project).g.displayOf(t.good);
      await call('searchGoods', { query: display });
      const graph = (await call('recipeGraph', { target: t.good })) as GraphResult | undefined;
      if (!graph) throw new Error(`recipeGraph ${t.good} failed`);
      if (graph.unexpanded?.length) await call('recipeOptionsBatch', { goods: graph.unexpanded.slice(0, 6) });
      // The first candidate of every expanded good, and what each one takes.
      const chosen = new Map<string, { recipe: string; inputs: string[] }>();
      for (const [good, node] of Object.entries(graph.goods)) {
        const c = node.candidates?.[0];
        if (c && !node.leaf) chosen.set(good, { recipe: c.recipe, inputs: inputsOf(c.in) });
      }
      const reach = (from: string, stop?: string) => {
        const seen = new Set<string>();
        const walk = (g: string) => {
          if (seen.has(g) || g === stop || !chosen.has(g)) return;
          seen.add(g);
          for (const i of chosen.get(g)!.inputs) walk(i);
        };
        walk(from);
        return seen;
      };
      const recipesOf = (goods: Set<string>) => [...new Set([...goods].map((g) => chosen.get(g)!.recipe))];
      const all = reach(t.good);
      const draft = await call('submitBlock', { target: t.good, rate: t.rate, recipes: recipesOf(all) });
      const byproducts = ((draft?.byproducts as Array<{ good: string }>) ?? []).map((b) => b.good).slice(0, 10);
      if (byproducts.length) await call('byproductSinks', { goods: byproducts });
      // A supplier block for the first input of the target that has its own chain, sized from the plan.
      const supplier = chosen.get(t.good)?.inputs.find((i) => chosen.has(i));
      const blocks: unknown[] = supplier
        ? [
            { name: display, target: t.good, rate: t.rate, recipes: recipesOf(reach(t.good, supplier)), subBlocksNeeded: [supplier] },
            { name: planningContext(project).g.displayOf(supplier), target: supplier, rate: 'fromPlan', recipes: recipesOf(reach(supplier)) },
          ]
        : [{ name: display, target: t.good, rate: t.rate, recipes: recipesOf(all) }];
      const plan = { title: `${display} ${t.rate}/s`, objective: `${t.rate} ${display} per second`, blocks };
      const drafted = await call('submitPlan', plan);
      rec.planOk = drafted?.ok === true;
      rec.shortfalls = ((drafted?.balance as { underSupplied?: unknown[] } | undefined)?.underSupplied ?? []).length;
      await call('coherenceAudit', { plan });
      out.targets[t.good] = rec;
      out.calls += rec.calls;
      out.chars += rec.chars;
    }
  } finally {
    writeSettings(project, { research_mode: before.research_mode, available_science_packs: before.available_science_packs });
  }
  let fullPlan: FullPlanSession;
  try {
    fullPlan = await fullPlanSession(project);
  } finally {
    writeSettings(project, { research_mode: before.research_mode, horizon_target: before.horizon_target, horizon_target_scope: before.horizon_target_scope });
  }
  const { log: _log, ...figures } = fullPlan;
  return { ...out, fullPlan: figures };
}
