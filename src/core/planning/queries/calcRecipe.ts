// calcRecipe: one building running one recipe — the machine (default rule unless given), modules
// (placed, rejected with reasons, or suggested by auto-fill), beacons and an assumed TURD branch;
// the effect percentages and multipliers; per-building crafts/s, outputs, inputs and power including
// fuel; and the buildings needed for a target rate. Nothing is stored.
import type { MachineRule } from '../availability';
import type { PlanningContext } from '../context';
import type { Machine, Recipe } from '../gameIndex';
import { beaconsPowerW, computeEffects, productAmount, type BeaconConfig, type ModuleCount } from '../effects';
import { checkFluidFuel, chooseFuel, energyDemand, pollutionPerMinute } from '../energy';
import { suggestModules, type FillStrategy } from '../moduleFill';
import { parseInput, QueryError, requireBeacon, requireGood, requireModule, requireRecipe, suggest } from './errors';
import { machineText, pickerInfo, round, verdictFields, type CandidateNeeds, type CandidateState } from './common';
import { calcRecipeInput, type CalcRecipeInput } from './schemas';

export interface Flow {
  good: string;
  perSec: number;
  temperature?: number;
}

export interface CalcRecipeResult {
  recipe: string;
  display: string;
  machine: {
    name: string;
    display: string;
    speed: number;
    slots: number;
    /** How it was chosen: `user` (the machine asked for), `favorite`, `fastest-buildable`, `none-buildable`. */
    rule: MachineRule;
    explanation: string;
    text: string;
    /** The machine's state under the horizon, in the words of every tool (see CandidateState). */
    state: CandidateState;
    /** What unlocks the machine when it is not in the save yet. */
    needs?: CandidateNeeds;
    /** Set when the machine is not buildable under the horizon. */
    warning?: string;
  };
  /** The recipe's own state and what is left to do for it. */
  recipeState: CandidateState;
  recipeNeeds?: CandidateNeeds;
  modulesPlaced: ModuleCount[];
  /** Modules refused, or partly placed (`asked` and `used`: more than the slots left). */
  rejectedModules?: Array<{ name: string; reason: string; asked?: number; used?: number }>;
  fill?: { strategy: FillStrategy; reason: string; modules: ModuleCount[]; applied: boolean };
  beacons: Array<{ beacon: string; count: number; shared: number; modules: ModuleCount[] }>;
  turd: { assumedBranch?: string; modulesApplied: string[] };
  effects: {
    speedPct: number;
    productivityPct: number;
    consumptionPct: number;
    pollutionPct: number;
    researchProductivityPct: number;
    speedMult: number;
    prodMult: number;
    consMult: number;
    pollutionMult: number;
    /** Productivity hit the recipe's maximum. */
    productivityCapped?: boolean;
  };
  perBuilding: {
    craftsPerSec: number;
    outputs: Flow[];
    inputs: Flow[];
    /** Energy the building draws (electric, fuel or heat), kW. */
    powerKW: number;
    drainKW?: number;
    beaconKW?: number;
    energy: string;
    fuel?: { fuel: string; perSec: number; burntResult: string | null; rule: string };
    pollutionPerMin: number;
  };
  target?: { good: string; rate: number; perBuilding: number; buildingsNeeded: number; buildingsCeil: number; totalPowerKW: number };
}

export function calcRecipe(ctx: PlanningContext, raw: CalcRecipeInput): CalcRecipeResult {
  const input = parseInput(calcRecipeInput, raw, 'calcRecipe');
  const g = ctx.g;
  const a = ctx.availability;
  const rec = requireRecipe(ctx, input.recipe);
  const info = pickerInfo(ctx, rec);

  // Machine: given (must run the recipe) or the default rule.
  if (input.machine) {
    const m = g.machines.get(input.machine);
    const able = g.machinesFor(rec);
    if (!m || !able.some((x) => x.name === m.name)) {
      const names = able.map((x) => x.name).slice(0, 6);
      throw new QueryError(
        `${m ? `machine '${input.machine}' cannot run recipe ${rec.name}` : `no machine named '${input.machine}'`}; machines for ${rec.name}: ${names.join(', ') || 'none'}`,
        names,
      );
    }
  }
  const choice = input.machine ? a.chooseMachine(rec, input.machine) : info.machine;
  if (!choice.machine) throw new QueryError(`${choice.explanation}; nothing to calculate`);
  const machine: Machine = choice.machine;

  // TURD: the selected branches' modules, or the assumed branch instead of its master's selection.
  let turdModules = a.activeTurdModules();
  if (input.turd) {
    const b = g.turdBranches.get(input.turd);
    if (!b) {
      const s = g.turdBranches.size ? suggest(ctx, 'technology', input.turd).filter((n) => g.turdBranches.has(n)) : [];
      throw new QueryError(`no TURD branch named '${input.turd}'; ${s.length ? `did you mean ${s.join(', ')}? ` : ''}call turdChoices to list branches`, s);
    }
    const current = a.state.turd.get(b.master)?.branch;
    const drop = new Set(current ? g.turdBranches.get(current)?.modules ?? [] : []);
    turdModules = [...turdModules.filter((m) => !drop.has(m)), ...b.modules];
  }

  const researchProductivity = a.productivityBonus(rec);
  const beacons: BeaconConfig[] = (input.beacons ?? []).map((b) => {
    requireBeacon(ctx, b.beacon);
    for (const m of b.modules) requireModule(ctx, m.name);
    return { beacon: b.beacon, modules: b.modules, count: b.count, shared: b.shared };
  });
  for (const m of input.modules ?? []) requireModule(ctx, m.name);

  const target = input.targetRate ? targetProduct(ctx, rec, input.targetGood) : undefined;
  let modules: ModuleCount[] = input.modules ?? [];
  let fill: CalcRecipeResult['fill'];
  if (input.fill) {
    let crafts = 0;
    if (target && input.targetRate) {
      const bare = computeEffects(g, { recipe: rec, machine, modules: [], beacons, turdModules, researchProductivity });
      const per = productAmount(target, bare.prodMult);
      crafts = per > 0 ? input.targetRate / per : 0;
    }
    const s = suggestModules(g, a, { recipe: rec, machine, beacons, turdModules, researchProductivity, craftsPerSec: crafts });
    const applied = !input.modules?.length;
    fill = {
      strategy: s.strategy,
      reason: applied ? s.reason + (crafts > 0 ? '' : ' (give targetRate to size speed modules)') : `${s.reason} — not applied: you gave modules`,
      modules: s.modules,
      applied,
    };
    if (applied) modules = s.modules;
  }

  const fx = computeEffects(g, { recipe: rec, machine, modules, beacons, turdModules, researchProductivity });

  const picked = input.fuel ? requireGood(ctx, input.fuel).name : undefined;
  const fuelPick = machine.energySource === 'burner' ? chooseFuel(g, machine, { picked, favorite: a.state.settings.favorite_fuel }) : null;
  if (picked && fuelPick && fuelPick.fuel !== picked) throw new QueryError(`${machine.display} cannot burn ${picked}; call recipeInfo for its fuels`);
  let fluidFuel: string | null = null;
  if (picked && !fuelPick) {
    const c = checkFluidFuel(g, machine, picked);
    if ('error' in c) throw new QueryError(c.error);
    fluidFuel = c.fluid;
  }
  const e = energyDemand(g, machine, fx.consMult, fuelPick?.fuel ?? fluidFuel);
  // A fluid too weak for full speed at the source's maximum flow slows the building (as in the solver).
  const throttle = e.kind === 'fluid-filtered' ? (e.throttled?.speedFactor ?? 1) : 1;
  const crafts = rec.energy > 0 ? (machine.speed * fx.speedMult * throttle) / rec.energy : 0;
  const outputs: Flow[] = rec.products.map((p) => ({ good: p.name, perSec: round(productAmount(p, fx.prodMult) * crafts), ...(p.temperature !== null ? { temperature: p.temperature } : {}) }));
  const inputs: Flow[] = rec.ingredients.map((i) => ({ good: i.name, perSec: round(i.amount * crafts) }));
  let energy = 'none';
  const powerW = e.kind === 'none' ? 0 : e.watts;
  let drainW: number | undefined;
  let fuel: CalcRecipeResult['perBuilding']['fuel'];
  switch (e.kind) {
    case 'electric':
      energy = 'electric';
      drainW = e.drainW;
      break;
    case 'burner':
      energy = 'burner';
      if (e.fuel) {
        fuel = { fuel: e.fuel, perSec: round(e.itemsPerSec), burntResult: e.burntResult, rule: fuelPick!.rule };
        inputs.push({ good: e.fuel, perSec: round(e.itemsPerSec) });
        if (e.burntResult) outputs.push({ good: e.burntResult, perSec: round(e.itemsPerSec) });
      }
      break;
    case 'fluid-fuel':
      energy = 'fluid fuel (any burnable fluid, in MJ)';
      inputs.push({ good: e.good, perSec: round(e.mjPerSec) });
      break;
    case 'fluid-filtered':
      energy = e.throttled
        ? `burns ${e.fluid}: at most ${round(e.throttled.maxPerSec)}/s of the ${round(e.throttled.needPerSec)}/s full speed needs, so it runs at ${round(100 * e.throttled.speedFactor)}% speed`
        : `burns ${e.fluid}`;
      inputs.push({ good: e.fluid, perSec: round(e.perSec) });
      break;
    case 'fluid-heat':
      energy = `heated by ${e.fluid ?? 'a hot fluid'}`;
      if (e.fluid) inputs.push({ good: e.fluid, perSec: round(e.perSec) });
      break;
    case 'heat':
      energy = 'heat';
      inputs.push({ good: e.good, perSec: round(e.mjPerSec) });
      break;
  }

  const maxProd = rec.maxProductivity ?? 3;
  const rawProd = fx.sum.productivity;
  const perBuilding: CalcRecipeResult['perBuilding'] = {
    craftsPerSec: round(crafts),
    outputs,
    inputs,
    powerKW: round(powerW / 1000),
    ...(drainW ? { drainKW: round(drainW / 1000) } : {}),
    ...(fx.beaconPowerW ? { beaconKW: round(fx.beaconPowerW / 1000) } : {}),
    energy,
    ...(fuel ? { fuel } : {}),
    pollutionPerMin: round(pollutionPerMinute(machine, 1, fx.consMult, fx.pollutionMult) * throttle),
  };

  let targetOut: CalcRecipeResult['target'];
  if (target && input.targetRate) {
    const per = productAmount(target, fx.prodMult) * crafts;
    const need = per > 0 ? input.targetRate / per : Infinity;
    targetOut = {
      good: target.name,
      rate: input.targetRate,
      perBuilding: round(per),
      buildingsNeeded: round(need),
      buildingsCeil: Number.isFinite(need) ? Math.ceil(need - 1e-9) : 0,
      // Machines draw by activity; beacon buildings are placed whole and draw their full usage.
      totalPowerKW: round(((powerW + (drainW ?? 0)) * (Number.isFinite(need) ? need : 0) + (Number.isFinite(need) ? beaconsPowerW(g, beacons, need) : 0)) / 1000),
    };
  }

  return {
    recipe: rec.name,
    display: rec.display,
    machine: {
      name: machine.name,
      display: machine.display,
      speed: machine.speed,
      slots: machine.moduleSlots,
      rule: choice.rule,
      explanation: choice.explanation,
      text: machineText(choice),
      ...verdictFields(a.machineVerdict(machine.name)),
      ...(choice.warning ? { warning: choice.warning } : {}),
    },
    recipeState: info.verdict.state,
    ...(info.verdict.needs ? { recipeNeeds: info.verdict.needs } : {}),
    modulesPlaced: fx.modulesPlaced,
    ...(fx.rejected.length ? { rejectedModules: fx.rejected } : {}),
    ...(fill ? { fill } : {}),
    // As applied: modules beyond a beacon's slots are dropped (and listed in rejectedModules).
    beacons: fx.beaconsPlaced.map((b) => ({ beacon: b.beacon, count: b.count, shared: b.shared ?? 1, modules: b.modules })),
    turd: { ...(input.turd ? { assumedBranch: input.turd } : {}), modulesApplied: fx.turdModulesApplied },
    effects: {
      speedPct: pct(fx.sum.speed),
      productivityPct: pct(fx.sum.productivity),
      consumptionPct: pct(fx.sum.consumption),
      pollutionPct: pct(fx.sum.pollution),
      researchProductivityPct: pct(researchProductivity),
      speedMult: round(fx.speedMult),
      prodMult: round(fx.prodMult),
      consMult: round(fx.consMult),
      pollutionMult: round(fx.pollutionMult),
      ...(rec.kind !== 'mining' && rawProd >= maxProd - 1e-12 && rawProd > 0 ? { productivityCapped: true } : {}),
    },
    perBuilding,
    ...(targetOut ? { target: targetOut } : {}),
  };
}

const pct = (x: number) => Math.round(x * 10000) / 100;

function targetProduct(ctx: PlanningContext, rec: Recipe, good: string | undefined) {
  const name = good ?? rec.mainProduct ?? rec.products.find((p) => p.amount * p.probability > 0)?.name;
  const p = rec.products.find((x) => x.name === name);
  if (!p) {
    if (good) requireGood(ctx, good);
    throw new QueryError(`recipe ${rec.name} does not make ${name ?? 'anything'}; its products: ${rec.products.map((x) => x.name).join(', ') || 'none'}`);
  }
  return p;
}
