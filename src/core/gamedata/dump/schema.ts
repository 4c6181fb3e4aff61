// zod schemas for the parts of `data.raw` the planner reads. They check types and required fields
// and let everything else through (a dump carries hundreds of fields we ignore). Factorio's JSON
// writer turns an empty Lua table into `{}`, so every list also accepts an object.
import { z } from 'zod';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A Lua array as JSON: a list, `{}` for empty, or an object keyed "1", "2", … */
export function luaList<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (isPlainObject(v) ? Object.values(v) : v), z.array(item));
}

const num = z.number().refine(Number.isFinite, 'must be a finite number');
const nonNeg = num.refine((v) => v >= 0, 'must not be negative');
/** A speed the planner divides by: 0 would mean a building that never finishes. */
const speed = num.refine((v) => v > 0, 'must be greater than 0');
const name = z.string().min(1, 'must be a non-empty name');
const energy = z.union([z.string(), num]);
const strList = luaList(z.string());

export const ingredientSchema = z.looseObject({
  type: z.enum(['item', 'fluid']).optional(),
  name,
  amount: nonNeg,
  temperature: num.optional(),
  minimum_temperature: num.optional(),
  maximum_temperature: num.optional(),
});

/** 1.x-style `[name, amount]` pairs are still accepted by the game for items. */
const ingredientEntry = z.union([
  ingredientSchema,
  z.tuple([name, nonNeg]).transform(([n, a]) => ({ type: 'item' as const, name: n, amount: a })),
]);

export const productSchema = z
  .looseObject({
    type: z.enum(['item', 'fluid', 'research-progress']).optional(),
    name,
    amount: nonNeg.optional(),
    amount_min: nonNeg.optional(),
    amount_max: nonNeg.optional(),
    probability: num.optional(),
    shared_probability: z.looseObject({ min: num, max: num }).optional(),
    temperature: num.optional(),
    ignored_by_productivity: nonNeg.optional(),
    ignored_by_stats: nonNeg.optional(),
    extra_count_fraction: num.optional(),
  })
  .refine((p) => p.amount !== undefined || (p.amount_min !== undefined && p.amount_max !== undefined), {
    message: 'needs amount, or amount_min and amount_max',
  });

/** The player character: what it can craft by hand. */
export const characterSchema = z.looseObject({ name, crafting_categories: strList.optional() });

export const recipeSchema = z.looseObject({
  name,
  category: z.string().optional(),
  categories: strList.optional(),
  energy_required: nonNeg.optional(),
  ingredients: luaList(ingredientEntry).optional(),
  results: luaList(productSchema).optional(),
  enabled: z.boolean().optional(),
  hidden: z.boolean().optional(),
  allow_productivity: z.boolean().optional(),
  maximum_productivity: num.optional(),
  allow_speed: z.boolean().optional(),
  allow_consumption: z.boolean().optional(),
  allow_pollution: z.boolean().optional(),
  allow_quality: z.boolean().optional(),
  allowed_module_categories: strList.optional(),
  main_product: z.string().optional(),
  subgroup: z.string().optional(),
  order: z.string().optional(),
  localised_name: z.unknown().optional(),
});

export const itemSchema = z.looseObject({
  name,
  stack_size: num.refine((v) => v >= 1, 'must be at least 1').optional(),
  weight: num.optional(),
  fuel_value: energy.optional(),
  fuel_category: z.string().optional(),
  burnt_result: z.string().optional(),
  spoil_result: z.string().optional(),
  spoil_ticks: num.optional(),
  plant_result: z.string().optional(),
  place_result: z.string().optional(),
  subgroup: z.string().optional(),
  order: z.string().optional(),
  hidden: z.boolean().optional(),
  flags: strList.optional(),
  localised_name: z.unknown().optional(),
});

export const moduleSchema = itemSchema.extend({
  category: z.string(),
  tier: num.optional(),
  effect: z.record(z.string(), z.union([num, z.looseObject({ bonus: num })])).optional(),
  limitation: strList.optional(),
});

export const fluidSchema = z.looseObject({
  name,
  default_temperature: num.optional(),
  max_temperature: num.optional(),
  heat_capacity: energy.optional(),
  fuel_value: energy.optional(),
  subgroup: z.string().optional(),
  order: z.string().optional(),
  hidden: z.boolean().optional(),
  localised_name: z.unknown().optional(),
});

export const energySourceSchema = z.looseObject({
  type: z.string(),
  effectivity: num.optional(),
  emissions_per_minute: z.union([num, z.record(z.string(), num)]).optional(),
  fuel_categories: strList.optional(),
  fuel_category: z.string().optional(),
  drain: energy.optional(),
  burns_fluid: z.boolean().optional(),
  fluid_usage_per_tick: num.optional(),
  scale_fluid_usage: z.boolean().optional(),
  fluid_box: z.looseObject({ filter: z.string().optional() }).optional(),
  max_temperature: num.optional(),
  min_working_temperature: num.optional(),
  specific_heat: energy.optional(),
});

const entityBase = z.looseObject({
  name,
  collision_box: z.unknown().optional(),
  energy_source: energySourceSchema.optional(),
  minable: z.looseObject({ result: z.string().optional(), results: z.unknown().optional() }).optional(),
  hidden: z.boolean().optional(),
  flags: strList.optional(),
  localised_name: z.unknown().optional(),
});

export const craftingMachineSchema = entityBase.extend({
  crafting_speed: speed,
  crafting_categories: strList,
  energy_usage: energy,
  module_slots: num.optional(),
  allowed_effects: z.union([strList, z.string()]).optional(),
  allowed_module_categories: strList.optional(),
  effect_receiver: z.looseObject({ base_effect: z.record(z.string(), num).optional(), uses_module_effects: z.boolean().optional(), uses_beacon_effects: z.boolean().optional() }).optional(),
  fixed_recipe: z.string().optional(),
});

export const miningDrillSchema = entityBase.extend({
  mining_speed: speed,
  resource_categories: strList,
  energy_usage: energy,
  module_slots: num.optional(),
  allowed_effects: z.union([strList, z.string()]).optional(),
  allowed_module_categories: strList.optional(),
  effect_receiver: z.looseObject({ base_effect: z.record(z.string(), num).optional() }).optional(),
});

export const resourceSchema = z.looseObject({
  name,
  category: z.string().optional(),
  infinite: z.boolean().optional(),
  minable: z.looseObject({
    mining_time: nonNeg,
    result: z.string().optional(),
    count: num.optional(),
    results: luaList(productSchema).optional(),
    required_fluid: z.string().optional(),
    fluid_amount: nonNeg.optional(),
  }),
  localised_name: z.unknown().optional(),
});

const fluidBox = z.looseObject({ filter: z.string().optional(), minimum_temperature: num.optional(), maximum_temperature: num.optional() });

export const boilerSchema = entityBase.extend({
  energy_consumption: energy,
  target_temperature: num.optional(),
  fluid_box: fluidBox,
  output_fluid_box: fluidBox,
  mode: z.string().optional(),
});

export const generatorSchema = entityBase.extend({
  fluid_usage_per_tick: nonNeg,
  maximum_temperature: num.optional(),
  effectivity: num.optional(),
  fluid_box: fluidBox,
  burns_fluid: z.boolean().optional(),
  scale_fluid_usage: z.boolean().optional(),
  max_power_output: energy.optional(),
});

export const burnerGeneratorSchema = entityBase.extend({ max_power_output: energy, burner: energySourceSchema.optional() });
export const solarPanelSchema = entityBase.extend({ production: energy });
export const reactorSchema = entityBase.extend({
  consumption: energy,
  neighbour_bonus: num.optional(),
  heat_buffer: z.looseObject({ max_temperature: num.optional() }).optional(),
});
export const offshorePumpSchema = entityBase.extend({
  pumping_speed: nonNeg,
  fluid: z.string().optional(),
  fluid_box: fluidBox.optional(),
  energy_usage: energy.optional(),
});
export const labSchema = entityBase.extend({
  researching_speed: speed.optional(),
  inputs: strList,
  energy_usage: energy,
  module_slots: num.optional(),
  allowed_effects: z.union([strList, z.string()]).optional(),
});
export const beaconSchema = entityBase.extend({
  distribution_effectivity: nonNeg,
  module_slots: num,
  energy_usage: energy,
  allowed_effects: z.union([strList, z.string()]).optional(),
  allowed_module_categories: strList.optional(),
  profile: luaList(num).optional(),
  /** Factorio 2.0 default `same_type`: beacons of one prototype count together for the profile. */
  beacon_counter: z.enum(['same_type', 'total']).optional(),
  supply_area_distance: num.optional(),
});
export const beltSchema = entityBase.extend({ speed: nonNeg });
export const inserterSchema = entityBase.extend({
  rotation_speed: nonNeg,
  extension_speed: nonNeg,
  pickup_position: z.unknown().optional(),
  insert_position: z.unknown().optional(),
  bulk: z.boolean().optional(),
  stack_size_bonus: num.optional(),
  energy_per_movement: energy.optional(),
});
export const tileSchema = z.looseObject({ name, fluid: z.string().optional() });
export const itemGroupSchema = z.looseObject({ name, order: z.string().optional(), localised_name: z.unknown().optional() });
export const itemSubgroupSchema = z.looseObject({ name, group: z.string().optional(), order: z.string().optional() });
export const plantSchema = entityBase.extend({ growth_ticks: nonNeg.optional() });

const techIngredient = z.union([
  z.tuple([name, nonNeg]),
  z.looseObject({ name, amount: nonNeg }).transform((o) => [o.name, o.amount] as [string, number]),
]);

export const technologySchema = z.looseObject({
  name,
  prerequisites: strList.optional(),
  effects: luaList(z.looseObject({ type: z.string() })).optional(),
  unit: z
    .looseObject({
      count: nonNeg.optional(),
      count_formula: z.string().optional(),
      time: nonNeg,
      ingredients: luaList(techIngredient),
    })
    .optional(),
  research_trigger: z.looseObject({ type: z.string() }).optional(),
  enabled: z.boolean().optional(),
  hidden: z.boolean().optional(),
  upgrade: z.boolean().optional(),
  max_level: z.union([num, z.string()]).optional(),
  localised_name: z.unknown().optional(),
});

/** What the PyOps helper mod writes into data.raw["mod-data"]["pyops-export"].data. */
export const helperExportSchema = z.looseObject({
  format: num.optional(),
  factorio_version: z.string().optional(),
  mods: z.record(z.string(), z.string()).optional(),
  turd_replacements: luaList(z.looseObject({ branch: name, old: name, new: name })).optional(),
});

/** A data.raw dump: prototype type → name → prototype. Only the top level is checked here. */
export const dumpSchema = z.record(z.string(), z.record(z.string(), z.unknown()));

/** Factorio's `--dump-prototype-locale` files: `{names: {...}, descriptions: {...}}`. */
export const factorioLocaleFileSchema = z.looseObject({
  names: z.record(z.string(), z.string()),
  descriptions: z.record(z.string(), z.string()).optional(),
});

/** A cfg-style dictionary: section → key → text (e.g. locale-en-names.json). */
export const cfgLocaleSchema = z.record(z.string(), z.record(z.string(), z.string()));
