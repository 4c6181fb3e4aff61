// reviseBlock: resize an existing block (its first goal) or give it a new recipe list, as a draft
// of kind "update" that names what changed. Other goals, machines and modules of kept rows stay.
import { z } from 'zod';
import type { Project } from '../../db/project';
import type { PlanningContext } from '../context';
import { getBlock } from '../factory/blocks';
import { buildDraft, campaignFromInput, draftCampaignInput, draftGroupInput, groupsFromInput, draftRowInput, invalidNames, linkedGoods, makeHereInput, rowsFromInput, withoutBlock, type BlockSupply, type Draft } from './draft';
import { goalGoods, goalRate, parseBlockDoc, type BlockDoc } from '../block/document';
import { completeChain, draftCompleted, producedGoals, type Completion } from './complete';
import { expandPresets, type PresetRows } from './presetRows';

export const reviseBlockInput = z
  .object({
    blockId: z.string().min(1),
    rate: z.number().positive().max(1e6).optional().describe("new rate of the block's first goal (other goals are kept)"),
    recipes: z.array(draftRowInput).min(1).max(120).optional().describe('the full new recipe list (rows you keep keep their machines and modules)'),
    complete: z
      .boolean()
      .optional()
      .describe("true: after the new (or the block's current) recipe list, the tool adds the first-listed producer of every good the block still needs, as submitBlock's complete does, stopping at what the factory's other blocks make"),
    makeHere: makeHereInput,
    campaign: draftCampaignInput.optional().describe("replaces the block's campaign (a quantity within a duration)"),
    groups: z.array(draftGroupInput).max(10).optional().describe("replaces the block's composed groups ([] removes them)"),
    notes: z.string().max(4000).optional(),
  })
  .refine((x) => x.rate !== undefined || x.recipes !== undefined || x.campaign !== undefined || x.groups !== undefined || x.complete === true, { message: 'give a new rate, a new recipe list, a campaign, composed groups, complete: true, or several of them' })
  .refine((x) => !x.makeHere?.length || x.complete === true, { message: 'makeHere only works with complete: true', path: ['makeHere'] });

export interface RevisionDraft extends Draft {
  kind: 'update';
  updateBlockId: string;
  baseUpdatedAt: string;
  oldRate: number | null;
  recipesAdded: string[];
  recipesRemoved: string[];
  newByproducts: string[];
}

export async function reviseDraft(ctx: PlanningContext, project: Project, input: z.output<typeof reviseBlockInput>, supply: BlockSupply = new Map()): Promise<RevisionDraft> {
  const block = getBlock(project, input.blockId);
  const doc = structuredClone(block.doc);
  const oldRate = doc.goals[0] ? Math.abs(goalRate(doc.goals[0]).rate) : null;
  if (input.rate !== undefined && doc.goals[0]) {
    const g0 = doc.goals[0];
    doc.goals[0] = g0.stock ? { ...g0, stock: { ...g0.stock, amount: input.rate * g0.stock.window } } : { ...g0, rate: goalRate(g0).direction === 'consume' ? -input.rate : input.rate };
  }
  if (input.campaign) doc.campaign = parseBlockDoc({ campaign: campaignFromInput(input.campaign) }).campaign;
  if (input.groups) {
    // Display groups stay; the composed ones are replaced.
    const kept = (doc.groups ?? []).filter((x) => !x.composed);
    const groups = [...kept, ...(parseBlockDoc({ groups: groupsFromInput(input.groups) }).groups ?? [])];
    doc.groups = groups.length ? groups : undefined;
  }
  const before = new Set(doc.recipes.map((r) => r.recipe));
  let presets: Pick<PresetRows, 'moduleReasons' | 'warnings'> = { moduleReasons: {}, warnings: [] };
  if (input.recipes) {
    const keep = new Map(doc.recipes.map((r) => [r.recipe, r]));
    // A kept row's own modules stay unless the row now names a preset that fits it.
    const expanded = expandPresets(ctx, rowsFromInput(input.recipes).map((r) => ({ ...(keep.get(r.recipe) ?? {}), ...r })));
    presets = expanded;
    const next = expanded.rows;
    doc.recipes = next;
    const sub = new Set<string>();
    doc.made = [...new Set([...doc.made.filter((m) => next.some((r) => ctx.g.recipes.get(r.recipe)?.products.some((p) => p.name === m))), ...linkedGoods(ctx, next, sub)])].sort();
  }
  const invalid = invalidNames(ctx, doc.recipes, goalGoods(doc));
  const oldByproducts = new Set((await buildDraft(ctx, { kind: 'update', name: block.name, doc: block.doc, invalid: [] }, supply)).byproducts.map((b) => b.good));
  const spec = (d: BlockDoc, completed?: Completion) => ({ kind: 'update' as const, name: block.name, doc: d, notes: input.notes, invalid, moduleReasons: presets.moduleReasons, warnings: presets.warnings, ...(completed ? { completed } : {}) });
  let draft: Draft;
  if (input.complete) {
    // The chain stops at what the factory's other blocks make, not at this block's own goods.
    const imported = new Set(withoutBlock(supply, block.name).keys());
    const makeHere = new Set(input.makeHere ?? []);
    draft = await draftCompleted(
      (avoidLoops) => completeChain(ctx, { recipes: doc.recipes.map((r) => r.recipe), goals: producedGoals(doc), imported, makeHere, avoidLoops }),
      (completed) => {
        const rows = [...doc.recipes, ...completed.added.map((c) => ({ recipe: c.recipe }))];
        // The completion's goods are linked inside like any the rows make and take.
        const made = [...new Set([...doc.made, ...linkedGoods(ctx, rows, new Set())])].sort();
        return buildDraft(ctx, spec({ ...doc, recipes: rows, made }, completed), supply);
      },
    );
  } else {
    draft = await buildDraft(ctx, spec(doc), supply);
  }
  const after = new Set(draft.doc.recipes.map((r) => r.recipe));
  // A block sized only by its campaign (or groups) has no first goal for a rate to change.
  const unapplied = input.rate !== undefined && !doc.goals[0] ? [`The block has no rate goal to resize${doc.campaign ? '; give it a new campaign instead' : ''}: the new rate was not applied.`] : [];
  return {
    ...draft,
    warnings: [...unapplied, ...draft.warnings],
    kind: 'update',
    updateBlockId: block.id,
    baseUpdatedAt: block.updatedAt,
    oldRate,
    recipesAdded: [...after].filter((r) => !before.has(r)),
    recipesRemoved: [...before].filter((r) => !after.has(r)),
    newByproducts: draft.byproducts.map((b) => b.good).filter((b) => !oldByproducts.has(b)),
  };
}
