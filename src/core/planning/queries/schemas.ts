// zod input schemas of the planning queries, with the defaults and limits of domain.md D. The tool
// registry reuses them as tool inputs; each query also parses its input with them, so direct
// callers get the same defaults and bounds.
import { z } from 'zod';
import { beaconConfigSchema, moduleCountSchema } from '../block/document';

const name = z.string().trim().min(1, 'must be a non-empty internal name').max(200);
const names = (min: number, max: number) => z.array(name).min(min).max(max);
const direction = z.enum(['produce', 'consume']).default('produce').describe('produce = recipes making the good, consume = recipes using it');

export const searchGoodsInput = z.object({
  query: z.string().trim().min(1, 'type part of a name').max(200).describe('free text: internal or localized name, any case, - _ or spaces'),
  limit: z.number().int().min(1).max(40).default(15),
});

export const goodInfoInput = z.object({ good: name });

export const recipeInfoInput = z.object({ recipe: name });

export const recipeOptionsInput = z.object({
  good: name,
  direction,
  limit: z.number().int().min(1).max(25).default(12),
});

export const recipeOptionsBatchInput = z.object({
  goods: names(1, 30),
  direction,
  limitEach: z.number().int().min(1).max(15).default(8),
});

/** Most further start goods of one recipe graph (a plan's supplier blocks), and the largest budgets. */
export const GRAPH_MAX_ALSO = 11;
export const GRAPH_MAX_NODES = 150;
export const GRAPH_MAX_CHARS = 40_000;

export const recipeGraphInput = z.object({
  target: name.describe('the good whose production neighbourhood to explore'),
  also: names(1, GRAPH_MAX_ALSO)
    .optional()
    .describe("more goods to start from in the same graph, such as a plan's supplier blocks: a good their chains share is described once, and one call replaces a graph per good"),
  depth: z.number().int().min(1).max(20).default(14),
  candidatesPerGood: z.number().int().min(1).max(10).default(6),
  nodeBudget: z.number().int().min(10).max(GRAPH_MAX_NODES).optional().describe('goods described; default 55, and 30 more for each good of `also`'),
  maxChars: z
    .number()
    .int()
    .min(2_000)
    .max(GRAPH_MAX_CHARS)
    .optional()
    .describe('size budget: characters of the JSON result; the walk stops before exceeding it and returns the frontier. Default 8000, and 4000 more for each good of `also`'),
});

/** Module and beacon settings are the block document's (one definition for rows, drafts and queries). */
export const moduleCountInput = moduleCountSchema;
export const beaconInput = beaconConfigSchema;

export const calcRecipeInput = z.object({
  recipe: name,
  machine: name.optional().describe('default: the favorite for the category if buildable, else the fastest buildable machine (else the fastest, flagged not buildable)'),
  modules: z.array(moduleCountInput).max(16).optional(),
  fill: z.boolean().optional().describe('suggest modules for the free slots (module auto-fill); a suggestion, applied only to this calculation'),
  beacons: z.array(beaconInput).max(4).optional(),
  turd: name.optional().describe('a TURD branch to assume selected (its always-on modules apply)'),
  fuel: name.optional().describe('a burner machine: the solid fuel; a fluid-burning machine: the fluid it burns (must have a fuel value; default the pooled fluid fuel in MJ)'),
  targetRate: z.number().positive().max(1e9).optional().describe('items (or fluid units) per second of the good wanted'),
  targetGood: name.optional().describe('which product targetRate is for (default: the main product)'),
});

export const researchPathInput = z.object({
  target: name.describe('a technology, recipe or good (resolved in that order)'),
  limit: z.number().int().min(5).max(150).default(40),
});

export const turdChoicesInput = z
  .object({ master: name.optional(), recipe: name.optional(), good: name.optional() })
  .refine((x) => [x.master, x.recipe, x.good].filter(Boolean).length === 1, { message: 'give exactly one of master, recipe or good' });

export const availableTurdsInput = z.object({ recipes: names(1, 200) });

export const turdConsistencyInput = z.object({
  recipes: names(1, 400).optional().describe('recipes to check; omit for all enabled blocks'),
});

export const chainStatusInput = z.object({
  recipes: names(1, 200),
  target: name,
  subBlocksNeeded: names(0, 30).optional().describe('as in submitBlock: goods the set makes that the block may import instead (left to other blocks)'),
  drains: names(0, 30).optional().describe('as in submitBlock: byproducts to balance inside the block'),
});

export const byproductSinksInput = z.object({
  good: name,
  limit: z.number().int().min(1).max(20).default(10),
});

/** The byproductSinks tool: one good or up to 10 at once (`good` alone is kept for older callers). */
export const byproductSinksBatchInput = z
  .object({
    good: name.optional().describe('one byproduct (internal name); or use goods'),
    goods: z.array(name).min(1).max(10).optional().describe('several byproducts in one call'),
    limit: z.number().int().min(1).max(20).default(10).describe('consumers listed per good'),
  })
  .refine((x) => (x.good === undefined) !== (x.goods === undefined), { message: 'give either good or goods (not both)' });

export const logisticsForInput = z.object({
  good: name,
  rate: z.number().positive().max(1e9).describe('items per second to move'),
});

export type SearchGoodsInput = z.input<typeof searchGoodsInput>;
export type GoodInfoInput = z.input<typeof goodInfoInput>;
export type RecipeInfoInput = z.input<typeof recipeInfoInput>;
export type RecipeOptionsInput = z.input<typeof recipeOptionsInput>;
export type RecipeOptionsBatchInput = z.input<typeof recipeOptionsBatchInput>;
export type RecipeGraphInput = z.input<typeof recipeGraphInput>;
export type CalcRecipeInput = z.input<typeof calcRecipeInput>;
export type ResearchPathInput = z.input<typeof researchPathInput>;
export type TurdChoicesInput = z.input<typeof turdChoicesInput>;
export type AvailableTurdsInput = z.input<typeof availableTurdsInput>;
export type TurdConsistencyInput = z.input<typeof turdConsistencyInput>;
export type ChainStatusInput = z.input<typeof chainStatusInput>;
export type ByproductSinksInput = z.input<typeof byproductSinksInput>;
export type ByproductSinksBatchInput = z.input<typeof byproductSinksBatchInput>;
export type LogisticsForInput = z.input<typeof logisticsForInput>;

/** Every query's input schema by its tool name. */
export const QUERY_INPUTS = {
  searchGoods: searchGoodsInput,
  goodInfo: goodInfoInput,
  recipeInfo: recipeInfoInput,
  recipeOptions: recipeOptionsInput,
  recipeOptionsBatch: recipeOptionsBatchInput,
  recipeGraph: recipeGraphInput,
  calcRecipe: calcRecipeInput,
  researchPath: researchPathInput,
  turdChoices: turdChoicesInput,
  availableTurds: availableTurdsInput,
  turdConsistency: turdConsistencyInput,
  chainStatus: chainStatusInput,
  byproductSinks: byproductSinksBatchInput,
  logisticsFor: logisticsForInput,
} as const;
