// Buildings: crafting machines, mining drills, offshore pumps, boilers, generators, reactors, labs,
// beacons, plus resources and the logistics entities (belts, loaders, inserters).
import type { z } from 'zod';
import type { Ctx } from './context';
import { b, footprint, json } from './context';
import {
  beaconSchema, beltSchema, boilerSchema, burnerGeneratorSchema, craftingMachineSchema, energySourceSchema,
  generatorSchema, inserterSchema, labSchema, miningDrillSchema, offshorePumpSchema, reactorSchema,
  resourceSchema, solarPanelSchema,
} from '../dump/schema';
import type { EnergySourceType, MachineKind, MachineRow } from '../model';

type EnergySource = z.output<typeof energySourceSchema>;

export const CRAFTING_TYPES: Record<string, MachineKind> = {
  'assembling-machine': 'assembler',
  furnace: 'furnace',
  'rocket-silo': 'rocket-silo',
};

/** Category prefix tying drills to the synthetic mining recipes of a resource category. */
export const RESOURCE_CATEGORY_PREFIX = 'resource:';

function sourceType(es: EnergySource | undefined): EnergySourceType | null {
  switch (es?.type) {
    case 'electric': case 'burner': case 'fluid': case 'heat': case 'void': return es.type;
    default: return null;
  }
}

function pollution(es: EnergySource | undefined): number {
  const e = es?.emissions_per_minute;
  if (typeof e === 'number') return e;
  return e?.pollution ?? 0;
}

function effects(v: string[] | string | undefined): string | null {
  if (v === undefined) return null;
  return json(typeof v === 'string' ? [v] : v);
}

interface MachineInput {
  name: string;
  kind: MachineKind;
  type: string;
  speed: number;
  usageW: number;
  proto: { collision_box?: unknown; energy_source?: EnergySource; minable?: { result?: string }; hidden?: boolean; flags?: string[]; localised_name?: unknown };
  categories: string[];
  slots?: number;
  allowedEffects?: string[] | string;
  allowedModuleCategories?: string[];
  baseEffect?: Record<string, number>;
  usesModules?: boolean;
  usesBeacons?: boolean;
  fixedRecipe?: string;
  energySource?: EnergySource;
}

/** Common machine row: stored energy use is already divided by burner/fluid effectivity. */
export function addMachine(ctx: Ctx, m: MachineInput): MachineRow {
  // Entity names are unique across entity types in the game; a clash would break the machine table.
  const clash = ctx.out.crafting_machines.find((x) => x.name === m.name);
  if (clash) ctx.problem(`${m.type} "${m.name}".name: found "${m.name}", already the name of ${clash.prototype_type} "${m.name}"; entity names must be unique`);
  const es = m.energySource ?? m.proto.energy_source;
  const type = sourceType(es);
  const eff = es?.effectivity ?? 1;
  const usage = (type === 'burner' || type === 'fluid') && eff > 0 ? m.usageW / eff : m.usageW;
  // Only crafting machines get the engine's default drain (1/30 of their usage); a drill, lab,
  // pump or beacon without an explicit drain has none.
  const defaultDrain = Object.hasOwn(CRAFTING_TYPES, m.type) ? m.usageW / 30 : 0;
  const drain =
    type === 'electric' ? (es?.drain !== undefined ? ctx.energy(es.drain, `${m.type} "${m.name}".energy_source.drain`, 'W') : defaultDrain) : 0;
  const fp = footprint(m.proto.collision_box);
  const display = ctx.display('entity', { name: m.name, localised_name: m.proto.localised_name });
  ctx.entityDisplay.set(m.name, display);
  const row: MachineRow = {
    name: m.name,
    display,
    kind: m.kind,
    prototype_type: m.type,
    crafting_speed: m.speed,
    width: fp.width,
    height: fp.height,
    module_slots: m.slots ?? 0,
    energy_usage_w: usage,
    drain_w: drain,
    energy_source: type,
    effectivity: eff,
    pollution_per_min: pollution(es),
    allowed_effects: effects(m.allowedEffects),
    allowed_module_categories: json(m.allowedModuleCategories ?? null),
    base_effect: m.baseEffect && Object.keys(m.baseEffect).length ? json(m.baseEffect) : null,
    uses_module_effects: b(m.usesModules, true),
    uses_beacon_effects: b(m.usesBeacons, true),
    neighbour_bonus: null,
    burns_fluid: type === 'fluid' && es?.burns_fluid ? 1 : 0,
    fluid_fuel_filter: type === 'fluid' ? (es?.fluid_box?.filter ?? null) : null,
    fluid_fuel_per_sec: type === 'fluid' && es?.fluid_usage_per_tick !== undefined ? es.fluid_usage_per_tick * 60 : null,
    heat_max_temperature: type === 'heat' ? (es?.max_temperature ?? null) : null,
    item: m.proto.minable?.result ?? null,
    fixed_recipe: m.fixedRecipe ?? null,
    hidden: b(m.proto.hidden || (m.proto.flags ?? []).includes('hidden')),
  };
  ctx.out.crafting_machines.push(row);
  for (const c of new Set(m.categories)) ctx.out.machine_categories.push({ machine: m.name, category: c });
  if (type === 'burner') {
    const cats = es?.fuel_categories?.length ? es.fuel_categories : [es?.fuel_category ?? 'chemical'];
    for (const c of new Set(cats)) ctx.out.machine_fuel_categories.push({ machine: m.name, fuel_category: c });
  }
  return row;
}

export function normalizeCraftingMachines(ctx: Ctx): void {
  for (const [type, kind] of Object.entries(CRAFTING_TYPES)) {
    for (const p of ctx.protos(type, craftingMachineSchema)) {
      addMachine(ctx, {
        name: p.name, kind, type, speed: p.crafting_speed, proto: p,
        usageW: ctx.energy(p.energy_usage, `${type} "${p.name}".energy_usage`, 'W'),
        categories: p.crafting_categories, slots: p.module_slots, allowedEffects: p.allowed_effects,
        allowedModuleCategories: p.allowed_module_categories, baseEffect: p.effect_receiver?.base_effect,
        usesModules: p.effect_receiver?.uses_module_effects, usesBeacons: p.effect_receiver?.uses_beacon_effects,
        fixedRecipe: p.fixed_recipe,
      });
    }
  }
  for (const p of ctx.protos('mining-drill', miningDrillSchema)) {
    addMachine(ctx, {
      name: p.name, kind: 'drill', type: 'mining-drill', speed: p.mining_speed, proto: p,
      usageW: ctx.energy(p.energy_usage, `mining-drill "${p.name}".energy_usage`, 'W'),
      categories: p.resource_categories.map((c) => RESOURCE_CATEGORY_PREFIX + c), slots: p.module_slots,
      allowedEffects: p.allowed_effects, allowedModuleCategories: p.allowed_module_categories,
      baseEffect: p.effect_receiver?.base_effect,
    });
  }
  for (const p of ctx.protos('lab', labSchema)) {
    addMachine(ctx, {
      name: p.name, kind: 'lab', type: 'lab', speed: p.researching_speed ?? 1, proto: p,
      usageW: ctx.energy(p.energy_usage, `lab "${p.name}".energy_usage`, 'W'), categories: [],
      slots: p.module_slots, allowedEffects: p.allowed_effects,
    });
    ctx.out.labs.push({ name: p.name, researching_speed: p.researching_speed ?? 1, inputs: JSON.stringify(p.inputs) });
  }
}

export function normalizeResources(ctx: Ctx, resources: Array<z.output<typeof resourceSchema>>): void {
  for (const r of resources) {
    ctx.out.resources.push({
      name: r.name,
      display: ctx.display('entity', r),
      category: r.category ?? 'basic-solid',
      mining_time: r.minable.mining_time,
      required_fluid: r.minable.required_fluid ?? null,
      fluid_amount: r.minable.fluid_amount ?? null,
      infinite: b(r.infinite),
    });
  }
}

/** Power entities, read here and turned into recipes by `synthesize.ts`. */
export interface PowerEntities {
  boilers: Array<z.output<typeof boilerSchema>>;
  generators: Array<z.output<typeof generatorSchema>>;
  burnerGenerators: Array<z.output<typeof burnerGeneratorSchema>>;
  solarPanels: Array<z.output<typeof solarPanelSchema>>;
  reactors: Array<z.output<typeof reactorSchema>>;
  offshorePumps: Array<z.output<typeof offshorePumpSchema>>;
}

export function readPowerEntities(ctx: Ctx): PowerEntities {
  return {
    boilers: ctx.protos('boiler', boilerSchema),
    generators: ctx.protos('generator', generatorSchema),
    burnerGenerators: ctx.protos('burner-generator', burnerGeneratorSchema),
    solarPanels: ctx.protos('solar-panel', solarPanelSchema),
    reactors: ctx.protos('reactor', reactorSchema),
    offshorePumps: ctx.protos('offshore-pump', offshorePumpSchema),
  };
}

export function normalizeBeacons(ctx: Ctx): void {
  for (const p of ctx.protos('beacon', beaconSchema)) {
    const fp = footprint(p.collision_box);
    ctx.out.beacons.push({
      name: p.name,
      display: ctx.display('entity', p),
      effectivity: p.distribution_effectivity,
      module_slots: p.module_slots,
      energy_usage_w: ctx.energy(p.energy_usage, `beacon "${p.name}".energy_usage`, 'W'),
      allowed_effects: effects(p.allowed_effects),
      allowed_module_categories: json(p.allowed_module_categories ?? null),
      profile: p.profile?.length ? JSON.stringify(p.profile) : null,
      beacon_counter: p.beacon_counter ?? 'same_type',
      supply_area_distance: p.supply_area_distance ?? null,
      width: fp.width,
      height: fp.height,
      item: p.minable?.result ?? null,
      hidden: b(p.hidden || (p.flags ?? []).includes('hidden')),
    });
  }
}

/** One full belt lane pair moves speed (tiles/tick) × 480 items/s at stack size 1. */
const BELT_ITEMS_PER_SPEED = 480;

export function normalizeLogistics(ctx: Ctx): void {
  for (const p of ctx.protos('transport-belt', beltSchema)) {
    ctx.out.belts.push({ name: p.name, display: ctx.display('entity', p), speed: p.speed, items_per_second: p.speed * BELT_ITEMS_PER_SPEED, item: p.minable?.result ?? null });
  }
  for (const type of ['loader', 'loader-1x1']) {
    for (const p of ctx.protos(type, beltSchema)) {
      ctx.out.loaders.push({ name: p.name, display: ctx.display('entity', p), speed: p.speed, items_per_second: p.speed * BELT_ITEMS_PER_SPEED, item: p.minable?.result ?? null });
    }
  }
  for (const p of ctx.protos('inserter', inserterSchema)) {
    ctx.out.inserters.push({
      name: p.name,
      display: ctx.display('entity', p),
      rotation_speed: p.rotation_speed,
      extension_speed: p.extension_speed,
      pickup: json(p.pickup_position ?? null),
      dropoff: json(p.insert_position ?? null),
      bulk: b(p.bulk),
      stack_size_bonus: p.stack_size_bonus ?? 0,
      energy_per_movement_j: p.energy_per_movement !== undefined ? ctx.energy(p.energy_per_movement, `inserter "${p.name}".energy_per_movement`, 'J') : null,
      item: p.minable?.result ?? null,
    });
  }
}
