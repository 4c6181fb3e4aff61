// Buildings of a FactorioLab data set: machines (with their energy source, read from `type` and
// `fuelCategories`), labs, beacons, and the crafting categories that tie recipes to machines. The
// set resolves crafting categories into each recipe's `producers`; every distinct producer list
// becomes one category here, named after the machine families in it.
import { json } from '../normalize/context';
import { VIRTUAL_CATEGORY, type EnergySourceType, type MachineKind } from '../model';
import type { FlabCtx } from './entries';
import { isTechRecipe } from './entries';
import type { FlabMachine, FlabRecipe } from './schema';

const KW = 1e3;
const EFFECTS = ['speed', 'productivity', 'consumption', 'pollution', 'quality'] as const;

/** 2.0 sets name the entity type; the planner's machine kind follows from it. */
const KIND_OF_TYPE: Record<string, MachineKind> = {
  'assembling-machine': 'assembler', furnace: 'furnace', 'rocket-silo': 'rocket-silo', 'mining-drill': 'drill',
  'offshore-pump': 'pump', boiler: 'boiler', reactor: 'reactor', lab: 'lab', 'agricultural-tower': 'agricultural-tower',
};
const TYPE_OF_KIND: Partial<Record<MachineKind, string>> = { assembler: 'assembling-machine', drill: 'mining-drill', lab: 'lab', 'rocket-silo': 'rocket-silo', pump: 'offshore-pump' };
/** Pseudo-machines a set uses for what needs no building (2.0: items spoiling). */
const MACHINELESS_TYPES = new Set(['spoilage']);

export const isBurnRecipe = (r: FlabRecipe) => r.flags?.includes('burn') ?? false;

/** Allowed effects as the dump normalizer stores them: null when nothing is disallowed. */
export function allowedEffects(disallowed: readonly string[] | undefined): string | null {
  if (!disallowed?.length) return null;
  return json(EFFECTS.filter((e) => !disallowed.includes(e)));
}

export interface Producers {
  /** Recipe id → its crafting category (the virtual one for machineless recipes). */
  categoryOf: Map<string, string>;
  /** Machines standing for no building (their recipes need none). */
  machineless: Set<string>;
}

/** One category per distinct producer list, e.g. "assembling-machine+automated-factory". */
export function flabProducers(f: FlabCtx): Producers {
  const machineless = new Set(f.data.items.filter((e) => e.machine && MACHINELESS_TYPES.has(e.machine.entityType ?? '')).map((e) => e.id));
  const categoryOf = new Map<string, string>();
  const byList = new Map<string, string>();
  const taken = new Set<string>();
  const members = new Map<string, string[]>();
  for (const r of f.data.recipes) {
    if (isTechRecipe(r) || isBurnRecipe(r)) continue;
    for (const p of r.producers) if (!f.entries.get(p)?.machine) f.ctx.problem(`recipes "${r.id}".producers: "${p}" is not a machine of the items list`);
    const producers = r.producers.filter((p) => !machineless.has(p));
    if (!producers.length && r.producers.length) {
      categoryOf.set(r.id, VIRTUAL_CATEGORY);
      continue;
    }
    const key = producers.join('\n');
    let cat = byList.get(key);
    if (!cat) {
      const families = [...new Set(producers.map((p) => p.replace(/-(mk)?\d+$/, '')))];
      const base = families.length <= 3 ? families.join('+') || 'no-machine' : `${families.slice(0, 2).join('+')}+${families.length - 2}-more`;
      cat = base;
      for (let n = 2; taken.has(cat); n++) cat = `${base}#${n}`;
      taken.add(cat);
      byList.set(key, cat);
      members.set(cat, producers);
    }
    categoryOf.set(r.id, cat);
  }
  for (const [cat, machines] of members) for (const m of machines) f.ctx.out.machine_categories.push({ machine: m, category: cat });
  return { categoryOf, machineless };
}

interface Energy {
  source: EnergySourceType | null;
  fuelCategories: string[];
  burnsFluid: boolean;
  filter: string | null;
  fluidPerSec: number | null;
}

/**
 * The energy source a machine block describes. `burner` with item fuel categories burns items; with
 * "fluid" it burns any fluid by its fuel value; with one fluid's id it burns that fluid, or — when
 * the set gives that fluid only a heat value — is heated by it at the flow its usage needs.
 */
function energyOf(f: FlabCtx, id: string, m: FlabMachine): Energy {
  const none: Energy = { source: null, fuelCategories: [], burnsFluid: false, filter: null, fluidPerSec: null };
  switch (m.type) {
    case undefined:
      return none;
    case 'electric': case 'heat': case 'void': case 'fluid':
      return { ...none, source: m.type };
    case 'burner': {
      const cats = m.fuelCategories ?? [];
      const fluids = cats.filter((c) => c === 'fluid' || f.kinds.get(c) === 'fluid');
      if (!fluids.length) return { ...none, source: 'burner', fuelCategories: cats };
      if (fluids.length < cats.length || fluids.length > 1) {
        f.ctx.warn(`machine ${id} burns ${cats.join(', ')}: a mix of item and fluid fuel the planner cannot model; it is planned with its item fuels`);
        return { ...none, source: 'burner', fuelCategories: cats.filter((c) => !fluids.includes(c)) };
      }
      const fluid = fluids[0];
      if (fluid === 'fluid') return { ...none, source: 'fluid', burnsFluid: true };
      const heat = f.fluidHeat.get(fluid);
      if (heat !== undefined) return { ...none, source: 'fluid', filter: fluid, fluidPerSec: heat > 0 ? ((m.usage ?? 0) * KW) / (heat * 1e6) : null };
      return { ...none, source: 'fluid', burnsFluid: true, filter: fluid };
    }
    default:
      f.ctx.warn(`machine ${id} has energy type "${m.type}", which the planner does not know; its energy is not counted`);
      return none;
  }
}

export function flabMachines(f: FlabCtx, p: Producers): void {
  const out = f.ctx.out;
  const labs = new Map<string, Set<string>>();
  const drills = new Set<string>();
  for (const r of f.data.recipes) {
    if (isTechRecipe(r)) for (const lab of r.producers) for (const pack of Object.keys(r.in)) labs.set(lab, (labs.get(lab) ?? new Set()).add(pack));
    if (r.flags?.includes('mining')) for (const d of r.producers) drills.add(d);
  }
  for (const e of f.data.items) {
    const m = e.machine;
    if (!m || p.machineless.has(e.id)) continue;
    const kind: MachineKind = (m.entityType && KIND_OF_TYPE[m.entityType]) || (m.silo ? 'rocket-silo' : labs.has(e.id) ? 'lab' : drills.has(e.id) ? 'drill' : 'assembler');
    const energy = energyOf(f, e.id, m);
    const isItem = f.kinds.get(e.id) === 'item';
    out.crafting_machines.push({
      name: e.id,
      display: e.name,
      kind,
      prototype_type: m.entityType ?? TYPE_OF_KIND[kind] ?? 'assembling-machine',
      crafting_speed: m.speed,
      width: m.size?.[0] ?? null,
      height: m.size?.[1] ?? null,
      module_slots: m.modules ?? 0,
      energy_usage_w: (m.usage ?? 0) * KW,
      drain_w: energy.source === 'electric' ? (m.drain ?? 0) * KW : 0,
      energy_source: energy.source,
      effectivity: 1,
      pollution_per_min: m.pollution ?? 0,
      allowed_effects: allowedEffects(m.disallowedEffects),
      allowed_module_categories: null,
      base_effect: m.baseEffect && Object.keys(m.baseEffect).length ? json(m.baseEffect) : null,
      uses_module_effects: 1,
      uses_beacon_effects: 1,
      neighbour_bonus: null,
      burns_fluid: energy.burnsFluid ? 1 : 0,
      fluid_fuel_filter: energy.filter,
      fluid_fuel_per_sec: energy.fluidPerSec,
      heat_max_temperature: null,
      item: isItem ? e.id : null,
      fixed_recipe: null,
      // Entities no item places (TURD variants, script-placed buildings) are not the player's pick.
      hidden: isItem ? 0 : 1,
    });
    for (const c of new Set(energy.fuelCategories)) out.machine_fuel_categories.push({ machine: e.id, fuel_category: c });
    const packs = labs.get(e.id);
    if (packs) out.labs.push({ name: e.id, researching_speed: m.speed, inputs: JSON.stringify([...packs].sort()) });
  }
  for (const e of f.data.items) {
    const b = e.beacon;
    if (!b) continue;
    const isItem = f.kinds.get(e.id) === 'item';
    out.beacons.push({
      name: e.id, display: e.name, effectivity: b.effectivity, module_slots: b.modules, energy_usage_w: b.usage * KW,
      allowed_effects: allowedEffects(b.disallowedEffects), allowed_module_categories: null,
      profile: b.profile?.length ? JSON.stringify(b.profile) : null, beacon_counter: 'same_type',
      supply_area_distance: b.range ?? null, width: b.size?.[0] ?? null, height: b.size?.[1] ?? null,
      item: isItem ? e.id : null, hidden: isItem ? 0 : 1,
    });
  }
}
