// Module, beacon, TURD and research effects on one building running one recipe (domain A).
//  1. machine modules (truncated to its slots, rejected when they do not fit) + active TURD modules
//     (an always-on hidden beacon, no slot cost) + per beacon configuration: its modules × distribution
//     effectivity × profile[min(n, len) − 1] × count, where n counts the beacons affecting the machine
//     by the beacon's `beacon_counter` (same prototype, or every beacon), not this configuration alone;
//     a module fits unless a *beneficial* effect of it is disallowed (Factorio 2.0: a speed module's
//     quality penalty does not keep it out of a beacon without quality); a disallowed penalty is dropped;
//  2. without recipe productivity, module/beacon/TURD productivity is 0; research productivity is
//     added anyway; the sum is clamped to [0, maximum productivity]; mining research is added after;
//  3. multipliers: speed max(0.2, 1+s), productivity 1+p, consumption and pollution max(0.2, 1+x).
import type { Beacon, EffectName, GameIndex, Machine, Module, Recipe } from './gameIndex';
import { EFFECTS } from './gameIndex';

export interface ModuleCount {
  name: string;
  count: number;
}

export interface BeaconConfig {
  beacon: string;
  modules: ModuleCount[];
  /** Beacons affecting each machine. */
  count: number;
  /** Machines sharing one beacon building (divides beacon buildings and power, never effects). */
  shared?: number;
}

/** Whole buildings to place for a fractional count (ceiling, with a small tolerance for float dust). */
export const wholeBuildings = (b: number): number => (b > 0 ? Math.ceil(b - 1e-6 * Math.max(1, b)) : 0);

/**
 * Beacon buildings to place for `buildings` machines of one configuration. The player builds whole
 * machines, and each one needs its `count` beacons in reach, however few machines share them: so
 * ⌈count × whole machines ÷ shared⌉, and never fewer than ⌈count⌉ (0.13 machines with 2 beacons each
 * are 1 machine and 2 beacons). The tolerance keeps float dust in a solved count (3.0000000001
 * machines) from asking for one more machine or beacon.
 */
export function beaconsPlaced(b: Pick<BeaconConfig, 'count' | 'shared'>, buildings: number): number {
  if (!(b.count > 0)) return 0;
  const machines = wholeBuildings(buildings);
  if (machines <= 0) return 0;
  return Math.max(Math.ceil(b.count - 1e-9), Math.ceil((b.count * machines) / Math.max(1, b.shared ?? 1) - 1e-6));
}

/** Electric power of the beacon buildings a row places (W): a powered beacon draws its full usage, whatever its machines do. */
export function beaconsPowerW(g: Pick<GameIndex, 'beacons'>, beacons: Array<Pick<BeaconConfig, 'beacon' | 'count' | 'shared'>>, buildings: number): number {
  let w = 0;
  for (const bc of beacons) w += beaconsPlaced(bc, buildings) * (g.beacons.get(bc.beacon)?.energyUsageW ?? 0);
  return w;
}

export interface EffectInput {
  recipe: Recipe;
  machine: Machine;
  modules?: ModuleCount[];
  beacons?: BeaconConfig[];
  /** Hidden modules of the selected TURD branches. */
  turdModules?: string[];
  /** Research productivity for this recipe (mining research for mining recipes). */
  researchProductivity?: number;
}

export interface Rejection {
  name: string;
  reason: string;
  /** Partly placed (more than the slots left): how many were asked for and how many are used. */
  asked?: number;
  used?: number;
}

export interface Effects {
  /** Summed effect fractions after the rules (productivity already clamped). */
  sum: Record<EffectName, number>;
  speedMult: number;
  prodMult: number;
  consMult: number;
  pollutionMult: number;
  /** Electric power of the beacons, per machine. */
  beaconPowerW: number;
  modulesPlaced: ModuleCount[];
  /** The beacon configurations as applied: known beacons, with the modules that fit their slots. */
  beaconsPlaced: BeaconConfig[];
  turdModulesApplied: string[];
  rejected: Rejection[];
}

const zero = (): Record<EffectName, number> => ({ speed: 0, productivity: 0, consumption: 0, pollution: 0, quality: 0 });

/**
 * Is this effect value a bonus? Speed, productivity and quality help when positive; consumption and
 * pollution when negative. The game refuses a module only for a disallowed bonus; a disallowed
 * penalty (a speed module's −quality in a beacon without quality) is simply not applied.
 */
export function isBeneficial(e: EffectName, v: number): boolean {
  return e === 'consumption' || e === 'pollution' ? v < 0 : v > 0;
}

/** Why a module cannot go into this machine for this recipe (undefined = it fits). */
export function moduleMisfit(m: Module, machine: Pick<Machine, 'allowedEffects' | 'allowedModuleCategories' | 'moduleSlots'>, recipe: Recipe): string | undefined {
  if (m.hidden) return 'hidden module (TURD effects are applied automatically)';
  if (machine.allowedModuleCategories && !machine.allowedModuleCategories.includes(m.category)) return `this machine does not accept ${m.category} modules`;
  if (recipe.allowedModuleCategories && !recipe.allowedModuleCategories.includes(m.category)) return `this recipe does not accept ${m.category} modules`;
  for (const e of EFFECTS) {
    if (!isBeneficial(e, m.effects[e])) continue;
    if (machine.allowedEffects && !machine.allowedEffects.includes(e)) return `this machine does not allow the ${e} effect`;
    if (recipe.allowedEffects && !recipe.allowedEffects.includes(e)) return `this recipe does not allow the ${e} effect`;
  }
  if (m.effects.productivity > 0 && !recipe.allowProductivity) return 'this recipe does not allow productivity';
  if (m.limitation && !m.limitation.has(recipe.name)) return 'this module is limited to other recipes';
  return undefined;
}

/** Why a module cannot go into this beacon (undefined = it fits): its category, or a bonus the beacon does not transmit. */
export function beaconMisfit(m: Module, b: Beacon): string | undefined {
  if (b.allowedModuleCategories && !b.allowedModuleCategories.includes(m.category)) return `${b.display} does not accept ${m.category} modules`;
  for (const e of EFFECTS) if (isBeneficial(e, m.effects[e]) && b.allowedEffects && !b.allowedEffects.includes(e)) return `${b.display} does not transmit the ${e} effect`;
  return undefined;
}

/**
 * Beacons whose count picks each configuration's profile entry: with `same_type` all beacons of
 * its prototype (whatever modules they hold), with `total` every beacon affecting the machine.
 */
function profileCounts(g: GameIndex, beacons: BeaconConfig[]): number[] {
  const live = beacons.map((bc) => (g.beacons.has(bc.beacon) && bc.count > 0 ? bc.count : 0));
  const total = live.reduce((s, n) => s + n, 0);
  return beacons.map((bc) => {
    if (g.beacons.get(bc.beacon)?.counter === 'total') return total;
    return beacons.reduce((s, other, i) => s + (other.beacon === bc.beacon ? live[i] : 0), 0);
  });
}

/** Does a hidden TURD module apply to this machine? (category accepted; `-mk0N` modules only to `-mk0N` machines) */
export function turdModuleApplies(m: Module, machine: Machine): boolean {
  if (!machine.allowedModuleCategories?.includes(m.category)) return false;
  const tier = /-mk0\d$/.exec(m.name)?.[0];
  return !tier || machine.name.endsWith(tier);
}

/** The game never lets speed, consumption or pollution fall below 20 % of the base (−80 %). */
export const EFFECT_FLOOR = 0.2;

/** Summed effects as the game applies them (the floor), and which of them the floor cut. */
export function appliedEffects(sum: Record<'speed' | 'productivity' | 'consumption' | 'pollution', number>): Record<'speed' | 'productivity' | 'consumption' | 'pollution', number> & { capped: Array<'speed' | 'consumption' | 'pollution'> } {
  const floor = EFFECT_FLOOR - 1;
  const capped = (['speed', 'consumption', 'pollution'] as const).filter((e) => sum[e] < floor);
  return {
    speed: Math.max(floor, sum.speed),
    productivity: sum.productivity,
    consumption: Math.max(floor, sum.consumption),
    pollution: Math.max(floor, sum.pollution),
    capped,
  };
}

export function computeEffects(g: GameIndex, input: EffectInput): Effects {
  const { recipe, machine } = input;
  const fromModules = zero();
  const rejected: Rejection[] = [];
  const placed: ModuleCount[] = [];
  const allowed = (e: EffectName) => (!machine.allowedEffects || machine.allowedEffects.includes(e)) && (!recipe.allowedEffects || recipe.allowedEffects.includes(e));

  let slots = machine.moduleSlots;
  for (const mc of input.modules ?? []) {
    const m = g.modules.get(mc.name);
    if (!m) {
      rejected.push({ name: mc.name, reason: 'unknown module' });
      continue;
    }
    const misfit = moduleMisfit(m, machine, recipe);
    if (misfit) {
      rejected.push({ name: mc.name, reason: misfit });
      continue;
    }
    const n = Math.max(0, Math.min(Math.floor(mc.count), slots));
    if (n < mc.count) rejected.push({ name: mc.name, reason: `only ${machine.moduleSlots} module slot${machine.moduleSlots === 1 ? '' : 's'}`, asked: mc.count, used: n });
    if (n <= 0) continue;
    slots -= n;
    placed.push({ name: mc.name, count: n });
    if (!machine.usesModuleEffects) continue;
    for (const e of EFFECTS) fromModules[e] += m.effects[e] * n;
  }

  const turdApplied: string[] = [];
  for (const name of input.turdModules ?? []) {
    const m = g.modules.get(name);
    if (!m || !turdModuleApplies(m, machine)) continue;
    turdApplied.push(name);
    for (const e of EFFECTS) fromModules[e] += m.effects[e];
  }

  let beaconPowerW = 0;
  const beacons = input.beacons ?? [];
  const beaconsPlaced: BeaconConfig[] = [];
  const counted = profileCounts(g, beacons);
  for (const [i, bc] of beacons.entries()) {
    const b = g.beacons.get(bc.beacon);
    if (!b) {
      rejected.push({ name: bc.beacon, reason: 'unknown beacon' });
      continue;
    }
    // A beacon holds at most its module_slots: the rest are dropped, said, and left out of the result.
    const kept: ModuleCount[] = [];
    let bslots = b.moduleSlots;
    const fitting: Array<{ m: Module; n: number }> = [];
    for (const mc of bc.modules) {
      const m = g.modules.get(mc.name);
      const misfit = m ? beaconMisfit(m, b) : 'unknown module';
      if (misfit || !m) {
        rejected.push({ name: mc.name, reason: misfit! });
        continue;
      }
      const n = Math.max(0, Math.min(Math.floor(mc.count), bslots));
      if (n < mc.count) rejected.push({ name: mc.name, reason: `${b.display} has only ${b.moduleSlots} module slot${b.moduleSlots === 1 ? '' : 's'}`, asked: mc.count, used: n });
      bslots -= n;
      if (n > 0) {
        kept.push({ name: mc.name, count: n });
        fitting.push({ m, n });
      }
    }
    beaconsPlaced.push({ ...bc, modules: kept });
    if (!(bc.count > 0)) continue;
    beaconPowerW += (b.energyUsageW * bc.count) / Math.max(1, bc.shared ?? 1);
    if (!machine.usesBeaconEffects) continue;
    const sum = zero();
    for (const { m, n } of fitting) {
      // A penalty the beacon does not transmit (−quality of a speed module) never reaches the machine.
      for (const e of EFFECTS) if (!b.allowedEffects || b.allowedEffects.includes(e)) sum[e] += m.effects[e] * n;
    }
    const profile = b.profile?.length ? b.profile[Math.min(Math.max(1, Math.ceil(counted[i] - 1e-9)), b.profile.length) - 1] : 1;
    for (const e of EFFECTS) fromModules[e] += sum[e] * b.effectivity * profile * bc.count;
  }

  for (const [e, v] of Object.entries(machine.baseEffect ?? {}) as Array<[EffectName, number]>) fromModules[e] += v;

  const out = zero();
  for (const e of EFFECTS) out[e] = allowed(e) ? fromModules[e] : 0;
  if (!recipe.allowProductivity) out.productivity = 0;
  const research = input.researchProductivity ?? 0;
  const max = recipe.maxProductivity ?? 3;
  if (recipe.kind === 'mining') {
    out.productivity = Math.min(Math.max(out.productivity, 0), max) + research;
  } else {
    out.productivity = Math.min(Math.max(out.productivity + research, 0), max);
  }
  return {
    sum: out,
    speedMult: Math.max(EFFECT_FLOOR, 1 + out.speed),
    prodMult: 1 + out.productivity,
    consMult: Math.max(EFFECT_FLOOR, 1 + out.consumption),
    pollutionMult: Math.max(EFFECT_FLOOR, 1 + out.pollution),
    beaconPowerW,
    modulesPlaced: placed,
    beaconsPlaced,
    turdModulesApplied: turdApplied,
    rejected,
  };
}

/** Expected output of one craft under productivity: ignored + (avg − ignored) × prodMult, then × probability. */
export function productAmount(p: { amount: number; probability: number; ignoredByProductivity: number }, prodMult: number): number {
  const ignored = Math.min(Math.max(p.ignoredByProductivity, 0), p.amount);
  return (ignored + (p.amount - ignored) * prodMult) * p.probability;
}
