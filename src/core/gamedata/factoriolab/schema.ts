// zod schema of a FactorioLab data set (`data.json`, the "mod data" the FactorioLab calculator
// loads): the fields the planner maps, checked for type and range; every other field (icons, UI
// rows, defaults, fields of later FactorioLab releases) is dropped unread. Units are the format's:
// kW for power, MJ for fuel values, items per second for belts, seconds for recipe times. Plain
// objects and built-in checks keep validation within a small multiple of JSON.parse.
import { z } from 'zod';

/** zod 4 numbers are finite already. */
const num = z.number();
const nonNeg = z.number().min(0);
const id = z.string().min(1, 'must be a non-empty id');
const ids = z.array(id);
/** 1.x mods may write an amount as a numeric string ("5"); the game reads it as the number. */
const amount = z.union([nonNeg, z.string().regex(/^\s*\d+(\.\d+)?([eE][+-]?\d+)?\s*$/).transform(Number)], { error: 'must be an amount (a number of at least 0)' });
const amountRecord = z.record(z.string(), amount);
const isAmounts = (v: unknown): v is Record<string, number> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  for (const k in v) {
    const n = (v as Record<string, unknown>)[k];
    if (typeof n !== 'number' || !(n >= 0) || n === Infinity) return false;
  }
  return true;
};
/**
 * Good id → amount. Most records are plain numbers and pass a direct check (zod's record walk is
 * ten times slower and there are tens of thousands of them); any other record goes through the full
 * schema, which converts numeric strings and names the entry that is wrong.
 */
const amounts = z.unknown().transform((v, ctx): Record<string, number> => {
  if (isAmounts(v)) return v;
  const r = amountRecord.safeParse(v);
  if (r.success) return r.data;
  for (const issue of r.error.issues) ctx.issues.push({ ...issue, input: v } as never);
  return z.NEVER;
});
const effect = z.enum(['speed', 'productivity', 'consumption', 'pollution', 'quality']);

export const flabMachineSchema = z.object({
  speed: z.number().positive(),
  modules: z.number().int().min(0).optional(),
  disallowedEffects: z.array(effect).optional(),
  type: z.string().optional(),
  fuelCategories: ids.optional(),
  usage: nonNeg.optional(),
  drain: nonNeg.optional(),
  pollution: num.optional(),
  size: z.tuple([nonNeg, nonNeg]).optional(),
  silo: z.object({ parts: nonNeg, launch: nonNeg }).optional(),
  entityType: z.string().optional(),
  baseEffect: z.partialRecord(effect, num).optional(),
  locations: ids.optional(),
});

export const flabModuleSchema = z.object({
  speed: num.optional(),
  productivity: num.optional(),
  consumption: num.optional(),
  pollution: num.optional(),
  quality: num.optional(),
  limitation: id.optional(),
});

export const flabBeaconSchema = z.object({
  effectivity: nonNeg,
  modules: z.number().int().min(0),
  range: nonNeg.optional(),
  type: z.string().optional(),
  usage: nonNeg,
  disallowedEffects: z.array(effect).optional(),
  size: z.tuple([nonNeg, nonNeg]).optional(),
  profile: z.array(nonNeg).optional(),
});

export const flabFuelSchema = z.object({ category: id, value: nonNeg, result: id.optional() });

export const flabTechnologySchema = z.object({ prerequisites: ids.optional(), unlockedRecipes: ids.optional(), prodUpgrades: ids.optional() });

export const flabItemSchema = z.object({
  id,
  name: z.string(),
  category: z.string(),
  row: num.optional(),
  stack: z.number().min(1).optional(),
  machine: flabMachineSchema.optional(),
  module: flabModuleSchema.optional(),
  beacon: flabBeaconSchema.optional(),
  fuel: flabFuelSchema.optional(),
  belt: z.object({ speed: nonNeg }).optional(),
  technology: flabTechnologySchema.optional(),
});

export const FLAB_RECIPE_FLAGS = ['locked', 'technology', 'mining', 'burn', 'recycling', 'grow', 'hideProducer'] as const;

export const flabRecipeSchema = z.object({
  id,
  name: z.string(),
  category: z.string(),
  row: num.optional(),
  time: nonNeg,
  producers: ids,
  in: amounts,
  out: amounts,
  catalyst: amounts.optional(),
  flags: z.array(z.string()).optional(),
  part: id.optional(),
  disallowedEffects: z.array(effect).optional(),
  locations: ids.optional(),
  cost: nonNeg.optional(),
});

export const flabDataSchema = z.object({
  version: z.record(z.string(), z.string()),
  categories: z.array(z.object({ id, name: z.string() })),
  items: z.array(flabItemSchema),
  recipes: z.array(flabRecipeSchema),
  limitations: z.record(z.string(), ids).optional(),
  locations: z.array(z.object({ id, name: z.string() })).optional(),
});

export type FlabData = z.output<typeof flabDataSchema>;
export type FlabItem = z.output<typeof flabItemSchema>;
export type FlabRecipe = z.output<typeof flabRecipeSchema>;
export type FlabMachine = z.output<typeof flabMachineSchema>;

/**
 * Top-level keys only a FactorioLab data set has (a data.raw dump's keys are prototype types). The
 * first key of a file is enough to tell the formats apart without parsing it twice.
 */
export const FLAB_TOP_LEVEL_KEYS = new Set(['version', 'categories', 'icons', 'items', 'recipes', 'limitations', 'defaults', 'locations', 'flags', '$schema']);
