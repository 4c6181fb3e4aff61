// An independent reference for one building running one recipe, computed from the raw
// data-raw-dump.json records with Factorio 2.0's rules. It shares no code with the planner (no
// importer, no game index, no effects module), so a test comparing the two catches a rule either
// side gets wrong. Rules, as the game applies them:
//  - a module is refused when one of its bonuses (speed, productivity, quality > 0; consumption,
//    pollution < 0) is not allowed by the machine, the recipe or the beacon holding it; an effect
//    that is allowed nowhere on its way is simply not applied (a speed module's quality penalty in a
//    beacon or machine without quality);
//  - each beacon adds Σ(its modules) × distribution_effectivity × profile[n − 1], n = the beacons
//    affecting the machine counted by its `beacon_counter` (same prototype, or all);
//  - productivity is clamped to [0, maximum_productivity (default 3)] after research productivity;
//    speed, consumption and pollution multipliers are at least 0.2;
//  - a beacon holds at most its module_slots modules: the rest do nothing;
//  - a product's ignored_by_productivity defaults to its ignored_by_stats;
//  - electric power = usage × consumption + drain (explicit, else usage / 30 for crafting machines
//    only), and each beacon building's usage, beacons placed whole (⌈count × ⌈buildings⌉ ÷ shared⌉, at
//    least ⌈count⌉); pollution/min = emissions × consumption × pollution multiplier;
//  - a fluid energy source that burns fluid draws usage × consumption / effectivity of the fluid's
//    fuel value; with scale_fluid_usage it draws at most fluid_usage_per_tick × 60 per second, and a
//    fuel too weak for full power slows the machine (and its emissions) in that ratio.
import fs from 'node:fs';
import path from 'node:path';

type Proto = Record<string, any>;
export type RawDump = Record<string, Record<string, Proto>>;

const cache = new Map<string, RawDump>();

export function readRawDump(dir: string): RawDump {
  let d = cache.get(dir);
  if (!d) {
    d = JSON.parse(fs.readFileSync(path.join(dir, 'data-raw-dump.json'), 'utf8')) as RawDump;
    cache.set(dir, d);
  }
  return d;
}

const SI: Record<string, number> = { '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15 };

/** "375kW" → 375000; numbers pass through. */
export function watts(v: unknown): number {
  if (typeof v === 'number') return v;
  const m = /^([0-9.eE+-]+)([kKMGTP]?)[WJ]$/.exec(String(v).trim());
  if (!m) throw new Error(`reference: cannot read energy ${String(v)}`);
  return parseFloat(m[1]) * SI[m[2]];
}

const EFFECTS = ['speed', 'productivity', 'consumption', 'pollution', 'quality'] as const;
type Effect = (typeof EFFECTS)[number];
type Effects = Record<Effect, number>;
const none = (): Effects => ({ speed: 0, productivity: 0, consumption: 0, pollution: 0, quality: 0 });

const CRAFTING = ['assembling-machine', 'furnace', 'rocket-silo'];
const MACHINE_TYPES = [...CRAFTING, 'mining-drill'];

export interface RefBeacon {
  beacon: string;
  count: number;
  modules: Array<{ name: string; count: number }>;
  shared?: number;
}

export interface RefInput {
  /** A recipe name, or `mine-<resource>` for a drill mining a resource. */
  recipe: string;
  machine: string;
  modules?: Array<{ name: string; count: number }>;
  beacons?: RefBeacon[];
  researchProductivity?: number;
  /** The fluid a fluid-burning machine burns. */
  fuel?: string;
  /** Product whose rate sizes the building count. */
  good: string;
  rate: number;
}

export interface RefResult {
  effects: Effects;
  speedMult: number;
  prodMult: number;
  consMult: number;
  pollutionMult: number;
  craftsPerSec: number;
  /** Of `good`, per building. */
  outputPerSec: number;
  /** Every product per craft, under productivity (gross: what the recipe takes back is not netted). */
  perCraft: Record<string, number>;
  buildings: number;
  /** Per building: machine draw at this consumption, its drain, the beacons' share. */
  usageW: number;
  drainW: number;
  beaconW: number;
  totalPowerW: number;
  pollutionPerMin: number;
  /** Modules refused (machine or beacon) or partly dropped (beyond a beacon's slots), by name. */
  refused: string[];
  /** Beacon modules beyond the beacon's slots: asked for and used. */
  dropped: Array<{ beacon: string; module: string; asked: number; used: number }>;
  /** Electric machine (its usage counts toward electric power). */
  electric: boolean;
  /** Fluid burnt per building and second (fluid-burning machines). */
  fuelPerSec?: number;
  /** Fraction of full speed the fuel allows (1 unless a fluid burner is short of fuel). */
  fuelFactor: number;
  /** Profile factor applied to each beacon configuration. */
  profiles: number[];
}

function machineProto(d: RawDump, name: string): { type: string; p: Proto } {
  for (const type of MACHINE_TYPES) if (d[type]?.[name]) return { type, p: d[type][name] };
  throw new Error(`reference: no machine ${name}`);
}

function allowedList(v: unknown): readonly Effect[] {
  if (v === undefined || v === null) return EFFECTS;
  if (typeof v === 'string') return [v as Effect];
  return Object.values(v as object) as Effect[];
}

function moduleEffects(p: Proto): Effects {
  const e = none();
  for (const k of EFFECTS) {
    const v = p.effect?.[k];
    e[k] = typeof v === 'number' ? v : typeof v?.bonus === 'number' ? v.bonus : 0;
  }
  return e;
}

const helps = (e: Effect, v: number) => (e === 'consumption' || e === 'pollution' ? v < 0 : v > 0);

export function reference(d: RawDump, input: RefInput): RefResult {
  const { type, p: m } = machineProto(d, input.machine);
  const mining = input.recipe.startsWith('mine-') && type === 'mining-drill';
  const resource = mining ? d.resource[input.recipe.slice('mine-'.length)] : undefined;
  const recipe = mining ? undefined : d.recipe[input.recipe];
  if (!mining && !recipe) throw new Error(`reference: no recipe ${input.recipe}`);

  const machineAllows = new Set(allowedList(m.allowed_effects));
  const recipeAllows = (e: Effect) => (mining ? true : e === 'productivity' ? recipe!.allow_productivity === true : recipe![`allow_${e}`] !== false);
  const applies = (e: Effect) => machineAllows.has(e) && recipeAllows(e);
  const refused: string[] = [];
  const total = none();

  let slots = m.module_slots ?? 0;
  for (const mc of input.modules ?? []) {
    const mod = d.module[mc.name];
    const fx = moduleEffects(mod);
    const cats = m.allowed_module_categories ? Object.values(m.allowed_module_categories) : null;
    if ((cats && !cats.includes(mod.category)) || EFFECTS.some((e) => helps(e, fx[e]) && !applies(e)) || mc.count > slots) {
      refused.push(mc.name);
      continue;
    }
    slots -= mc.count;
    for (const e of EFFECTS) total[e] += fx[e] * mc.count;
  }

  const beacons = input.beacons ?? [];
  const profiles: number[] = [];
  const dropped: RefResult['dropped'] = [];
  let beaconW = 0;
  for (const bc of beacons) {
    const b = d.beacon[bc.beacon];
    beaconW += (watts(b.energy_usage) * bc.count) / (bc.shared ?? 1);
    const counter = b.beacon_counter ?? 'same_type';
    const n = beacons.filter((o) => counter === 'total' || o.beacon === bc.beacon).reduce((s, o) => s + o.count, 0);
    const profile: number[] | undefined = b.profile ? Object.values(b.profile) : undefined;
    const factor = profile?.length ? profile[Math.min(n, profile.length) - 1] : 1;
    profiles.push(factor);
    const beaconAllows = new Set(allowedList(b.allowed_effects));
    let free = b.module_slots ?? 0;
    for (const mc of bc.modules) {
      const fx = moduleEffects(d.module[mc.name]);
      if (EFFECTS.some((e) => helps(e, fx[e]) && !beaconAllows.has(e))) {
        refused.push(mc.name);
        continue;
      }
      const used = Math.min(mc.count, free);
      free -= used;
      if (used < mc.count) {
        refused.push(mc.name);
        dropped.push({ beacon: bc.beacon, module: mc.name, asked: mc.count, used });
      }
      for (const e of EFFECTS) if (beaconAllows.has(e)) total[e] += fx[e] * used * b.distribution_effectivity * factor * bc.count;
    }
  }
  for (const [e, v] of Object.entries(m.effect_receiver?.base_effect ?? {})) total[e as Effect] += v as number;

  const effects = none();
  for (const e of EFFECTS) effects[e] = applies(e) ? total[e] : 0;
  const research = input.researchProductivity ?? 0;
  const cap = recipe?.maximum_productivity ?? 3;
  effects.productivity = mining ? Math.min(Math.max(effects.productivity, 0), cap) + research : Math.min(Math.max(effects.productivity + research, 0), cap);
  const speedMult = Math.max(0.2, 1 + effects.speed);
  const prodMult = 1 + effects.productivity;
  const consMult = Math.max(0.2, 1 + effects.consumption);
  const pollutionMult = Math.max(0.2, 1 + effects.pollution);

  // A beacon building is placed whole and draws its whole usage, whatever its machines do: the player
  // places ⌈buildings⌉ machines, each with `count` beacons in reach, a beacon reaching `shared` of them.
  const beaconBuildingsW = (n: number) => {
    const machines = Math.ceil(n - 1e-9);
    let w = 0;
    for (const bc of beacons) {
      if (!(bc.count > 0) || machines < 1) continue;
      const placed = Math.max(Math.ceil(bc.count), Math.ceil((bc.count * machines) / (bc.shared ?? 1)));
      w += placed * watts(d.beacon[bc.beacon].energy_usage);
    }
    return w;
  };
  const es = m.energy_source ?? {};
  const electric = es.type === 'electric';
  const usage = watts(m.energy_usage);
  let usageW = usage * consMult;
  let fuelPerSec: number | undefined;
  let fuelFactor = 1;
  if (es.type === 'fluid' && es.burns_fluid && input.fuel) {
    const fuelJ = watts(d.fluid[input.fuel].fuel_value);
    const fromFuelW = usageW / (es.effectivity ?? 1);
    fuelPerSec = fromFuelW / fuelJ;
    const max = es.fluid_usage_per_tick !== undefined ? es.fluid_usage_per_tick * 60 : undefined;
    if (es.scale_fluid_usage && max !== undefined && fuelPerSec > max) {
      fuelFactor = max / fuelPerSec;
      fuelPerSec = max;
    }
    usageW = fuelPerSec * fuelJ;
  }

  const baseSpeed = mining ? m.mining_speed : m.crafting_speed;
  const time = mining ? resource!.minable.mining_time : (recipe!.energy_required ?? 0.5);
  const craftsPerSec = (baseSpeed * speedMult * fuelFactor) / time;
  const results: Proto[] = mining
    ? (resource!.minable.results ? Object.values(resource!.minable.results) : [{ name: resource!.minable.result, amount: resource!.minable.count ?? 1 }])
    : Object.values(recipe!.results ?? {});
  const products: Record<string, number> = {};
  for (const r of results) {
    const amount = r.amount ?? ((r.amount_min ?? 0) + (r.amount_max ?? 0)) / 2;
    const ignored = Math.min(r.ignored_by_productivity ?? r.ignored_by_stats ?? 0, amount);
    products[r.name] = (products[r.name] ?? 0) + (ignored + (amount - ignored) * prodMult) * (r.probability ?? 1);
  }
  const perCraft = products[input.good] ?? 0;
  const outputPerSec = perCraft * craftsPerSec;
  const buildings = input.rate / outputPerSec;

  const drainW = electric ? (es.drain !== undefined ? watts(es.drain) : CRAFTING.includes(type) ? usage / 30 : 0) : 0;
  const emissions = typeof es.emissions_per_minute === 'number' ? es.emissions_per_minute : (es.emissions_per_minute?.pollution ?? 0);
  return {
    effects, speedMult, prodMult, consMult, pollutionMult, craftsPerSec, outputPerSec, perCraft: products, buildings,
    usageW, drainW, beaconW,
    totalPowerW: buildings * (electric ? usageW + drainW : 0) + beaconBuildingsW(buildings),
    pollutionPerMin: buildings * emissions * consMult * pollutionMult * fuelFactor,
    refused, dropped, profiles, electric, fuelFactor, ...(fuelPerSec !== undefined ? { fuelPerSec } : {}),
  };
}
