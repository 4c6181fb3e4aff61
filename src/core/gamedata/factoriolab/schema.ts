// zod schema of a FactorioLab data set (`data.json`, the "mod data" the FactorioLab calculator
// loads): the fields the planner maps, checked for type and range; every other field (icons, UI
// rows, defaults, fields of later FactorioLab releases) is left unread. Units are the format's:
// kW for power, MJ for fuel values, items per second for belts, seconds for recipe times. The schema
// has no transforms, so a set is checked in place (`validate`, read.ts) instead of copied by a parse:
// on full Py the copy and the collections it caused cost ~80 ms of a ~450 ms import. The one
// conversion the format needs, numeric-string amounts, is done after the check (`numericAmounts`).
import { z } from 'zod';

/** zod 4 numbers are finite already. */
const num = z.number();
const nonNeg = z.number().min(0);
const id = z.string().min(1, 'must be a non-empty id');
const ids = z.array(id);
/** 1.x mods may write an amount as a numeric string ("5"); the game reads it as the number. */
const NUMERIC = /^\s*\d+(\.\d+)?([eE][+-]?\d+)?\s*$/;
const amount = z.union([nonNeg, z.string().regex(NUMERIC)], { error: 'must be an amount (a number of at least 0)' });
const amountRecord = z.record(z.string(), amount);
const isAmounts = (v: unknown): v is Record<string, number | string> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  for (const k in v) {
    const n = (v as Record<string, unknown>)[k];
    if (typeof n === 'number' ? !(n >= 0) || n === Infinity : typeof n !== 'string' || !NUMERIC.test(n)) return false;
  }
  return true;
};
/**
 * Good id → amount. Most records are plain numbers and pass a direct check (zod's record walk is
 * ten times slower and there are tens of thousands of them); any other record goes through the full
 * schema, which names the entry that is wrong.
 */
const amounts = z.custom<Record<string, number | string>>().check((ctx) => {
  if (isAmounts(ctx.value)) return;
  const r = amountRecord.safeParse(ctx.value);
  if (r.success) return;
  for (const issue of r.error.issues) ctx.issues.push({ ...issue, input: ctx.value } as never);
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

/** A data set as checked: amounts may still be numeric strings. */
export type FlabChecked = z.output<typeof flabDataSchema>;
type Amounts = Record<string, number>;
export type FlabRecipe = Omit<z.output<typeof flabRecipeSchema>, 'in' | 'out' | 'catalyst'> & { in: Amounts; out: Amounts; catalyst?: Amounts };
/** A data set as the normalizer reads it: checked, every amount a number. */
export type FlabData = Omit<FlabChecked, 'recipes'> & { recipes: FlabRecipe[] };
export type FlabItem = z.output<typeof flabItemSchema>;
export type FlabMachine = z.output<typeof flabMachineSchema>;

/** The checked set with its numeric-string amounts made numbers, in place (few sets have any). */
export function numericAmounts(set: FlabChecked): FlabData {
  for (const r of set.recipes) {
    for (const record of [r.in, r.out, r.catalyst]) {
      if (!record) continue;
      for (const k in record) if (typeof record[k] === 'string') record[k] = Number(record[k]);
    }
  }
  return set as FlabData;
}

/**
 * Top-level keys only a FactorioLab data set has (a data.raw dump's keys are prototype types). The
 * first key of a file is enough to tell the formats apart without parsing it twice.
 */
export const FLAB_TOP_LEVEL_KEYS = new Set(['version', 'categories', 'icons', 'items', 'recipes', 'limitations', 'defaults', 'locations', 'flags', '$schema']);
