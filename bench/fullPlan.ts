// The full plan of the scripted tool session: "0.25 logistic science packs per second with their
// supporting blocks" on the Py data, under the horizon "able to make" the pack — the calls a model
// makes following the system prompt, every choice read from a tool result as a model reads it (the
// model view): set the horizon, read the pack's recipe graph and choose a recipe for each good it
// expanded, give the shared intermediates of that chain blocks of their own, submit the plan ONCE
// with every block completed by the tool (`complete: true`: the model names its decisions, the tool
// takes the first-listed producer for the rest), and look up where what the solved plan leaves over
// goes — from the plan's own balance, which names where each surplus and byproduct can go, and with
// byproductSinks only for goods it does not cover. The figures say whether that one plan came out clean.
import type { Project } from '../src/core/db/project';
import { findTool } from '../src/core/assistant/tools/registry';
import { runTool } from '../src/core/assistant/tools/run';
import { modelText, modelView } from '../src/core/assistant/tools/types';
import { planningContext } from '../src/core/planning/context';

export const FULL_PLAN = { good: 'logistic-science-pack', rate: 0.25 };
/** Supplier blocks the plan gets besides the pack's own (see fullPlanScript). */
const MAX_SUPPLIERS = 7;

export interface SessionCall {
  tool: string;
  input: unknown;
  chars: number;
  ok: boolean;
}

export interface FullPlanSession {
  calls: number;
  chars: number;
  byTool: Record<string, number>;
  submitPlans: number;
  planOk: boolean;
  shortfalls: number;
  /** Rows the plan runs at zero ("block / recipe"). */
  idle: string[];
  /** Warnings of rows the horizon does not let the player build (a machine or recipe beyond it). */
  outsideHorizon: string[];
  /** Byproducts neither taken by another block of the plan, nor advised on by its balance, nor asked about with byproductSinks. */
  unrouted: string[];
  /** What the horizon tool said it added to the pack's prerequisites. */
  addedTechnologies: string[];
  /** Technologies the plan says are still to research, and their count. */
  researchSteps: number;
  blocks: Array<{ name: string; rows: number; status: string }>;
  warnings: string[];
  log: SessionCall[];
}

type Candidate = { recipe: string; state?: string; in: string; out: string; machine?: string; machineName?: string | null };
type GraphNode = { candidates?: Candidate[]; leaf?: boolean; seam?: string };
type Graph = { goods: Record<string, GraphNode> };
type Flow = { good: string; rate: number };
// A shortened plan view leaves out empty lists (modelView.ts, compactPlan).
type DraftView = { name: string; status: string; ok: boolean; rows: Array<{ recipe: string; buildings: number }>; byproducts?: Flow[]; importsFromBlocks?: Flow[]; importsExternal?: Flow[]; warnings?: string[] };
type Advised = { good: string; topConsumers?: string[]; voidRecipes?: string[] };
export type PlanView = {
  ok: boolean; blocks: DraftView[]; updates: DraftView[]; warnings: string[]; research?: { total: { techs: number } };
  balance: { underSupplied: unknown[]; overProduced?: Advised[]; danglingByproducts?: Advised[] };
};

/** Candidate states a plan may use: usable in the save, under the horizon, or a TURD pick the plan makes. */
const SELECTABLE = new Set(['unlocked', 'buildable', 'turd-pick']);

/** "2 lab-instrument + 4 alien-sample01 @30%" → [{good, amount}] (amount × probability). */
export function parseSide(s: string): Array<{ good: string; amount: number }> {
  if (!s || s === 'nothing') return [];
  return s.split(' + ').map((x) => {
    const m = /^([\d.]+)\s+([^\s@(]+)(?:\([^)]*\))?(?:\s*@([\d.]+)%)?/.exec(x.trim());
    return m ? { good: m[2], amount: Number(m[1]) * (m[3] ? Number(m[3]) / 100 : 1) } : { good: x.trim(), amount: 1 };
  });
}

/** The candidate a careful model takes for a good: the first selectable one a building can run
 *  (options and graphs say "machine: none — …" of the planner's virtual fuel burning) whose main
 *  output is that good (not a byproduct of something else), else the first such one. */
export function pickCandidate(good: string, all: Candidate[] | undefined): Candidate | undefined {
  // Only what the horizon lets the player build (a graph's candidates carry no state: buildable); a
  // good nothing selectable makes stays an import, as the options' note says.
  const cs = (all ?? []).filter((c) => c.machineName !== null && !c.machine?.startsWith('none') && (c.state === undefined || SELECTABLE.has(c.state)));
  if (!cs.length) return undefined;
  const main = cs.find((c) => {
    const out = parseSide(c.out);
    const mine = out.find((o) => o.good === good)?.amount ?? 0;
    return mine > 0 && out.every((o) => o.good === good || o.amount <= mine);
  });
  return main ?? cs[0];
}

/** One tool call of a script: the tool and its input (eval's ScriptedCall has the same shape). */
export interface ScriptCall {
  name: string;
  input: unknown;
}

/**
 * The full plan as a script: yields each call and is given back what the model reads of its result
 * (undefined when the call failed). The bench drives it with the tools directly; the accuracy suite's
 * scripted model drives it through the agent loop.
 */
export function* fullPlanScript(): Generator<ScriptCall, void, unknown> {
  const { good: target, rate } = FULL_PLAN;
  yield { name: 'changePlanningSettings', input: { horizon: 'target', horizonTarget: target } };
  const graph = (yield { name: 'recipeGraph', input: { target } }) as Graph | undefined;
  if (!graph) throw new Error(`recipeGraph ${target} failed`);

  // The decisions: a recipe for every good the graph expanded (the model read its candidates).
  const chosen = new Map<string, { recipe: string; inputs: string[]; outputs: string[] }>();
  for (const [good, node] of Object.entries(graph.goods)) {
    if (node.leaf || chosen.has(good)) continue;
    // A recipe already chosen for another good that gives this one too makes it (the model read its `out`).
    const also = [...chosen.values()].find((c) => c.outputs.includes(good));
    if (also) {
      chosen.set(good, also);
      continue;
    }
    const c = pickCandidate(good, node.candidates);
    if (c) chosen.set(good, { recipe: c.recipe, inputs: parseSide(c.in).map((x) => x.good), outputs: parseSide(c.out).map((x) => x.good) });
  }
  // The pack's chain: from the pack through the chosen recipes (the graph also expanded the
  // alternatives' ingredients, which the chain does not take).
  const chain = new Set<string>();
  const recipes = new Set<string>();
  const walk = (good: string) => {
    if (chain.has(good)) return;
    chain.add(good);
    const c = chosen.get(good);
    if (!c) return;
    recipes.add(c.recipe);
    for (const i of c.inputs) walk(i);
  };
  walk(target);
  // Shared intermediates of the chain get blocks of their own, sized from the plan, up to a plan of
  // eight blocks; further shared goods it takes are made in the pack's block.
  const shared = Object.entries(graph.goods).filter(([g, n]) => n.leaf && n.seam === 'shared' && chain.has(g)).map(([g]) => g);
  const suppliers = shared.slice(0, MAX_SUPPLIERS);
  const inline = shared.slice(MAX_SUPPLIERS);
  // Each block names what the model decided and leaves the rest of its chain to the tool's
  // completion, which takes the first recipe the graph would list for each good further down.
  const pack = {
    name: target, target, rate, complete: true,
    recipes: [...recipes],
    ...(inline.length ? { makeHere: inline } : {}),
    ...(suppliers.length ? { subBlocksNeeded: suppliers } : {}),
  };
  const blocks = [pack, ...suppliers.map((s) => ({ name: s, target: s, rate: 'fromPlan', complete: true }))];
  const plan = { title: `Logistic science ${rate}/s`, objective: `${rate} logistic science packs per second with their supporting blocks`, blocks };
  const drafted = (yield { name: 'submitPlan', input: plan }) as PlanView | undefined;
  // The solved plan shows what it really leaves over (a recipe run in two blocks, two recipes giving
  // one good) and, in its balance, where each of those goods can go: the model looks up only the
  // rest before it presents the plan. The tool takes ten goods a call.
  const advice = advised(drafted);
  const left = leftOver(drafted).filter((g) => !advice.has(g));
  for (let i = 0; i < left.length; i += 10) yield { name: 'byproductSinks', input: { goods: left.slice(i, i + 10), limit: 3 } };
}

/** Goods the plan's balance says where to send (its surpluses and dangling byproducts). */
export function advised(p: PlanView | undefined): Set<string> {
  return new Set([...(p?.balance.overProduced ?? []), ...(p?.balance.danglingByproducts ?? [])].map((x) => x.good));
}

/** Byproducts of a plan's blocks that no other block of it takes. */
export function leftOver(p: PlanView | undefined): string[] {
  const all = p ? [...p.blocks, ...p.updates] : [];
  const taken = (d: DraftView, good: string) => all.some((o) => o !== d && [...(o.importsFromBlocks ?? []), ...(o.importsExternal ?? [])].some((i) => i.good === good));
  return [...new Set(all.flatMap((d) => (d.byproducts ?? []).filter((b) => b.rate > 1e-9 && !taken(d, b.good)).map((b) => b.good)))];
}

/** The script run against a project's tools, counted as the model reads each result. */
export async function fullPlanSession(project: Project): Promise<FullPlanSession> {
  const log: SessionCall[] = [];
  const byTool: Record<string, number> = {};
  const script = fullPlanScript();
  let settings: { horizon?: { addedTechnologies?: string[] } } | undefined;
  let drafted: PlanView | undefined;
  let read: unknown;
  for (;;) {
    const step = script.next(read);
    if (step.done) break;
    const { name, input } = step.value;
    const o = await runTool(findTool(name)!, input, { project, caller: 'agent' });
    const chars = modelText(o).length;
    log.push({ tool: name, input, chars, ok: o.ok });
    byTool[name] = (byTool[name] ?? 0) + chars;
    read = o.ok ? modelView(o) : undefined;
    // The figure counts every technology added; the model reads the first ones and a count.
    if (name === 'changePlanningSettings' && o.ok) settings = o.result as typeof settings;
    if (name === 'submitPlan') drafted = read as PlanView | undefined;
  }
  const { availability } = planningContext(project);
  const asked = new Set(log.filter((c) => c.tool === 'byproductSinks').flatMap((c) => (c.input as { goods?: string[] }).goods ?? []));
  const all = drafted ? [...drafted.blocks, ...drafted.updates] : [];
  const idle = all.flatMap((d) => d.rows.filter((r) => r.buildings <= 1e-9).map((r) => `${d.name} / ${r.recipe}`));
  const advice = advised(drafted);
  const unrouted = leftOver(drafted).filter((g) => !asked.has(g) && !advice.has(g));
  return {
    calls: log.length,
    chars: log.reduce((n, c) => n + c.chars, 0),
    byTool,
    submitPlans: log.filter((c) => c.tool === 'submitPlan').length,
    planOk: drafted?.ok === true,
    shortfalls: drafted?.balance.underSupplied.length ?? -1,
    idle,
    outsideHorizon: [
      ...all.flatMap((d) => d.rows.filter((r) => !availability.recipe(r.recipe).selectable).map((r) => `${d.name}: recipe ${r.recipe}`)),
      ...all.flatMap((d) => (d.warnings ?? []).filter((w) => /is not buildable under the \w+ horizon/.test(w)).map((w) => `${d.name}: ${w}`)),
    ],
    unrouted,
    addedTechnologies: settings?.horizon?.addedTechnologies ?? [],
    researchSteps: drafted?.research?.total.techs ?? 0,
    blocks: all.map((d) => ({ name: d.name, rows: d.rows.length, status: d.status })),
    warnings: drafted ? [...drafted.warnings, ...all.flatMap((d) => (d.warnings ?? []).map((w) => `${d.name}: ${w}`))] : [],
    log,
  };
}
