// Chain completion for drafts (`complete: true`): the model names the recipes it chooses on purpose
// and the goals; the tool adds, for every good the block still needs and nothing in it makes, the
// producer recipeGraph and recipeOptions list first — and walks on through that recipe's inputs —
// until only seams are left: raw resources, energy, goods other blocks supply (the plan's, the
// factory's, `subBlocksNeeded`), commodities (10 or more consumers: the system prompt's "import
// high fan-out commodities") the block was not told to make, and goods nothing selectable makes.
// Loops are walked like any chain (Py's breeding: cottongut cubs from cottongut), but a loop that
// loses what it feeds on (an ore-grade circuit) leaves the block infeasible, since a linked good may
// not be imported: such a block is completed again without producers that feed on a good their own
// chain exists to make (`avoidLoops`, draftFromSubmit). The model then reads the graph of its
// decisions only, and the draft says which goods the tool decided and how many other recipes each had.
import type { Project } from '../../db/project';
import type { PlanningContext } from '../context';
import { blockFlows, getBlock, listBlocks } from '../factory/blocks';
import type { Recipe } from '../gameIndex';
import type { BlockDoc } from '../block/document';
import { ENERGY_GOODS } from '../factory/ledger';
import { isRaw, makesAsMainProduct, rankedRecipes, realConsumers, type RankedRecipe } from '../queries/common';
import { consumedInputs } from '../queries/makeable';
import { netlyMakes } from '../queries/cost';

/** At most this many rows in a completed block (the draft schema's limit for `recipes`). */
export const MAX_BLOCK_ROWS = 120;
/** Consumers from which a good is a commodity the block imports (recipeGraph's legend says the same). */
export const COMMODITY_CONSUMERS = 10;
/** Levels below the goals and named rows the walk goes at most; deeper goods are imported. */
export const MAX_COMPLETE_DEPTH = 8;

/** A good the completion found a producer for: the recipe it added and how many other selectable recipes make the good. */
export interface CompletedGood {
  good: string;
  recipe: string;
  others: number;
}

export interface Completion {
  /** In the order they were added (breadth first from the goals and the named rows). */
  added: CompletedGood[];
  /** Goods left to import because the row or depth limit was reached before they were walked. */
  stoppedAt?: string[];
  /** Set when the first completion left the block infeasible and this one passed over producers feeding on their own chain. */
  loopsAvoided?: true;
}

export interface CompleteInput {
  /** The recipes the block already runs (the model's own choices). */
  recipes: string[];
  goals: string[];
  /** Goods to import however makeable: other blocks make them (the plan's, the factory's) or the block names them in subBlocksNeeded. */
  imported: ReadonlySet<string>;
  /** Commodities (≥10 consumers) to make in the block anyway. */
  makeHere?: ReadonlySet<string>;
  /** Pass over producers consuming a good their chain is walked for (the second try of an infeasible completion). */
  avoidLoops?: boolean;
}

/**
 * The recipes to add, breadth first. A good some row already makes (as its goal or on the side) is
 * not given a second producer: the solver runs what is there, and what falls short is an import.
 */
export function completeChain(ctx: PlanningContext, input: CompleteInput): Completion {
  const g = ctx.g;
  const rows = new Set(input.recipes.filter((r) => g.recipes.has(r)));
  const made = new Set<string>();
  const addMade = (r: Recipe) => {
    for (const p of r.products) if (netlyMakes(r, p.name)) made.add(p.name);
  };
  for (const r of rows) addMade(g.recipes.get(r)!);
  const goals = new Set(input.goals);
  // Each queued good carries the goods its chain was walked for (the loop guard) and its depth.
  type Step = { good: string; depth: number; chain: ReadonlySet<string> };
  const queue: Step[] = input.goals.map((good) => ({ good, depth: 0, chain: new Set<string>() }));
  for (const r of rows) {
    const rec = g.recipes.get(r)!;
    const chain = new Set(rec.products.map((p) => p.name));
    queue.push(...consumedInputs(rec).map((good) => ({ good, depth: 1, chain })));
  }
  const seen = new Set<string>();
  const added: CompletedGood[] = [];
  const stopped = new Set<string>();
  for (let head = 0; head < queue.length; head++) {
    const { good, depth, chain } = queue[head];
    if (seen.has(good) || made.has(good) || !walks(ctx, good, goals.has(good), input)) continue;
    // Breadth first, so a good stopped here never comes back at a smaller depth.
    if (rows.size >= MAX_BLOCK_ROWS || depth > MAX_COMPLETE_DEPTH) {
      stopped.add(good);
      continue;
    }
    seen.add(good);
    const pick = producerFor(ctx, good, input.avoidLoops ? new Set([...chain, good]) : new Set([good]));
    if (!pick) continue;
    const r = pick.chosen.info.recipe;
    rows.add(r.name);
    addMade(r);
    added.push({ good, recipe: r.name, others: pick.others });
    const next = new Set([...chain, ...r.products.map((p) => p.name)]);
    queue.push(...consumedInputs(r).map((x) => ({ good: x, depth: depth + 1, chain: next })));
  }
  const stoppedAt = [...stopped].filter((x) => !made.has(x));
  return { added, ...(stoppedAt.length ? { stoppedAt } : {}), ...(input.avoidLoops ? { loopsAvoided: true as const } : {}) };
}

/** Whether the completion looks for a producer of `good`, or leaves it to be imported. */
function walks(ctx: PlanningContext, good: string, isGoal: boolean, input: CompleteInput): boolean {
  const x = ctx.g.goods.get(good);
  if (!x || x.synthetic || ENERGY_GOODS.has(good)) return false;
  if (isGoal) return true;
  if (input.imported.has(good) || isRaw(ctx, good)) return false;
  return input.makeHere?.has(good) || realConsumers(ctx, good).length < COMMODITY_CONSUMERS;
}

/**
 * The producer a careful reader of recipeGraph takes: among the selectable recipes a building runs
 * that need no TURD pick (else among all of them), those of the picker's first rank (unlocked before
 * only allowed by the horizon), and of those, in picker order, the first that makes the good as its
 * main product (the recipe's own main product, else its largest output), else the first. A recipe
 * consuming one of `avoid` (the goods its chain exists to make) is never taken, nor one in `leaveOut`
 * (the block has it already: the block editor's Ctrl+click on an import).
 * `others` counts the rest of the selectable producers (temperature variants included).
 */
export function producerFor(ctx: PlanningContext, good: string, avoid: ReadonlySet<string> = new Set([good]), leaveOut: ReadonlySet<string> = new Set()): { chosen: RankedRecipe; others: number } | undefined {
  const open = rankedRecipes(ctx, good, 'produce').filter((r) => r.info.selectable && r.info.machine.machine !== null && !leaveOut.has(r.info.recipe.name));
  const fit = open.filter((r) => !consumedInputs(r.info.recipe).some((i) => avoid.has(i)));
  if (!fit.length) return undefined;
  const noPick = fit.filter((r) => r.info.verdict.state !== 'turd-pick');
  // What the player has unlocked before what the horizon allows: the picker's first rank, and the
  // main product within it (Py's coke from the coal-gas distillation unlocked now, not quenched
  // redcoke still to research).
  const tier = noPick.length ? noPick : fit;
  const pool = tier.filter((r) => r.info.rank === tier[0].info.rank);
  const chosen = pool.find((r) => makesAsMainProduct(r.info.recipe, good)) ?? pool[0];
  return { chosen, others: open.length - 1 };
}

/**
 * A draft with its chain completed: completed and built; rows the completion added that the solve
 * runs at zero are dropped and the block built again; a completion that leaves the block infeasible
 * is tried once more without producers that feed on their own chain (`avoidLoops`), and taken when
 * it solves. Shared by submitBlock/submitPlan and reviseBlock.
 */
export async function draftCompleted<D extends { status: string; rows: ReadonlyArray<{ recipe: string; buildings: number }> }>(
  complete: (avoidLoops: boolean) => Completion,
  build: (completed: Completion) => Promise<D>,
): Promise<D> {
  let first: D | undefined;
  for (const avoidLoops of [false, true]) {
    const completed = complete(avoidLoops);
    let draft = await build(completed);
    const added = new Set(completed.added.map((c) => c.recipe));
    const idle = new Set(draft.rows.filter((r) => added.has(r.recipe) && r.buildings <= 1e-9).map((r) => r.recipe));
    // A block nothing runs in (a plan's supplier before its rate is known) says nothing about which
    // rows its chain needs: pruning it would only cost another solve.
    if (draft.status === 'optimal' && idle.size && draft.rows.some((r) => r.buildings > 1e-9)) {
      const pruned = await build({ ...completed, added: completed.added.filter((c) => !idle.has(c.recipe)) });
      if (pruned.status === 'optimal') draft = pruned;
    }
    if (draft.status !== 'infeasible') return draft;
    first ??= draft;
  }
  return first!;
}

/** The goals a saved block's completion walks from: its produce goals and what its campaign makes. */
export function producedGoals(doc: Pick<BlockDoc, 'goals' | 'campaign'>): string[] {
  const consumed = new Set(doc.goals.filter((x) => x.direction === 'consume' || (x.rate ?? 0) < 0).map((x) => x.good));
  return [...new Set([...doc.goals.map((x) => x.good).filter((x) => !consumed.has(x)), ...(doc.campaign?.quantities ?? []).filter((q) => q.quantity > 0).map((q) => q.good)])];
}

/**
 * Completion of an existing block (the block editor's Complete Chain): its produce goals and rows as
 * the model's choices would be, stopping at what the factory's other enabled blocks make. Disabled
 * rows count as chosen (the player turned them off; completion does not add them back).
 */
export function blockCompletion(p: Project, ctx: PlanningContext, blockId: string): Completion {
  const b = getBlock(p, blockId);
  const enabled = new Set(listBlocks(p, { enabledOnly: true }).map((x) => x.id));
  const imported = new Set(blockFlows(p).filter((f) => f.role !== 'import' && f.block_id !== blockId && enabled.has(f.block_id)).map((f) => f.item));
  return completeChain(ctx, { recipes: b.doc.recipes.map((r) => r.recipe), goals: producedGoals(b.doc), imported });
}
