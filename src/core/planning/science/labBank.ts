// The science block's lab bank. Labs are ONE pool: the same labs consume every pack, so the bank is
// sized by lab time, never by a lab count per pack. With research speed S (researching_speed ×
// (1 + laboratory-speed research) × the module/beacon speed multiplier, the wiki's "research bonus ×
// module bonus") and productivity p (module/beacon productivity + laboratory-productivity research,
// uncapped: labs have no recipe maximum), researching U units of a technology whose unit takes t
// seconds and a_k packs of kind k consumes U/(1+p) units: U·a_k/(1+p) packs and U·t/(1+p) lab-seconds.
// Labs = lab-seconds per second ÷ S. Packs set by hand keep the lab-seconds one pack takes; the bank
// takes the pack that needs the most lab time (every pack is consumed by the same labs).
// The result is a block SolveResult, so the pack demand, labs, power and pollution reach the factory
// balance, the scenario and every view through the same projections as any block.
import type { Availability } from '../availability';
import { unlockedBy } from '../availability';
import type { Science } from '../block/document';
import { beaconsPlaced, computeEffects, EFFECT_FLOOR } from '../effects';
import { energyDemand, pollutionPerMinute } from '../energy';
import type { GameIndex, Machine, Recipe } from '../gameIndex';
import type { Flow, MachineChoice, SolveResult, SolvedRow } from '../solver/result';
import { wholeBuildings } from '../solver/report';
import { researchWork, typicalLabSeconds, type ResearchWork } from './research';
import { ELECTRICITY } from '../../gamedata/model';

/** The research the labs run, as a pseudo recipe name in the block's rows and machine projections. */
export const RESEARCH_RECIPE = 'pyops-research';

/** Stand-in recipe for the effect rules: any module effect, productivity without the recipe cap. The
 *  science editor offers the lab's modules and beacons against it (moduleFit), as the solve applies them. */
export const RESEARCH: Recipe = {
  name: RESEARCH_RECIPE, display: 'Research', kind: 'research', category: 'research', categories: [], energy: 1, enabled: true, hidden: false,
  allowProductivity: true, maxProductivity: Number.MAX_VALUE, allowedEffects: null, allowedModuleCategories: null, mainProduct: null,
  sourceEntity: null, synthetic: true, subgroup: null, order: null, ingredients: [], products: [], unlockedBy: [],
};

export interface LabBonuses {
  /** laboratory-speed research, summed (0.2 = +20 %). */
  speed: number;
  /** laboratory-productivity research, summed. */
  productivity: number;
}

/** Research bonuses to labs, counted by the horizon's rule for research bonuses. */
export function labBonuses(g: GameIndex, a: Availability): LabBonuses {
  const out: LabBonuses = { speed: 0, productivity: 0 };
  for (const t of g.technologies.values()) {
    for (const b of t.bonuses) {
      if (b.modifier === null || (b.type !== 'laboratory-speed' && b.type !== 'laboratory-productivity')) continue;
      if (!a.countsTowardBonus(t)) continue;
      if (b.type === 'laboratory-speed') out.speed += b.modifier;
      else out.productivity += b.modifier;
    }
  }
  return out;
}

export interface ScienceReport {
  mode: 'research' | 'packs';
  lab: string;
  labDisplay: string;
  /** Research speed of one lab (units of speed-1 lab time per second). */
  labSpeed: number;
  /** Productivity fraction the labs run at (modules, beacons and research). */
  productivity: number;
  bonuses: LabBonuses;
  /** Lab-seconds at research speed 1 the bank does per second (after productivity). */
  labSecondsPerSecond: number;
  labs: number;
  packs: Array<{ pack: string; display: string; rate: number; labSeconds: number }>;
  /** Derived from research: the target, the time, and what is researched. */
  research?: {
    tech: string;
    display: string;
    minutes: number;
    /** Research units per technology and the seconds it takes the bank, in research order. */
    techs: Array<{ tech: string; display: string; units: number; packs: Record<string, number> }>;
    skipped: ResearchWork['skipped'];
    alreadyResearched: boolean;
    totalUnits: number;
  };
}

/** Labs able to take every pack, fastest buildable first. */
export function labsFor(g: GameIndex, a: Availability, packs: string[]): Machine[] {
  const out: Machine[] = [];
  for (const [name, lab] of g.labs) {
    const m = g.machines.get(name);
    if (!m || a.isExcluded(name) || (m.hidden && !m.item)) continue;
    if (packs.every((p) => lab.inputs.includes(p))) out.push(m);
  }
  const buildable = (m: Machine) => (a.machine(m.name).buildableNow ? 0 : 1);
  return out.sort((x, y) => buildable(x) - buildable(y) || y.speed - x.speed || x.name.localeCompare(y.name));
}

function empty(message: string | undefined, warnings: string[], status: SolveResult['status'] = 'optimal'): SolveResult {
  return {
    status, ...(message ? { message } : {}), rows: [], goods: [], imports: [], exports: [], byproducts: [], goals: [], unmade: [], goalSuperseded: [],
    powerW: 0, drainW: 0, heatW: 0, fuel: [], pollutionPerMinute: 0, warnings,
  };
}

const packFlow = (g: GameIndex, pack: string, rate: number): Flow => ({ good: pack, display: g.displayOf(pack), kind: g.goods.get(pack)?.kind ?? 'item', rate });

/** Sizes the lab bank of a science block. */
export function solveScience(g: GameIndex, a: Availability, science: Science): SolveResult {
  const t0 = performance.now();
  const warnings: string[] = [];
  let work: ResearchWork | undefined;
  if (science.research) {
    if (!g.technologies.has(science.research.tech)) return empty(`There is no technology "${science.research.tech}"; pick one from the game data (researchPlan names them).`, warnings, 'error');
    work = researchWork(g, a.state.researched, science.research.tech, science.research.prerequisites);
    for (const s of work.skipped) warnings.push(`${s.display} [${s.tech}] is not researched by labs: ${s.reason}.`);
  }
  const unknown = science.packs.map((p) => p.pack).filter((p) => !g.goods.has(p));
  if (unknown.length) return empty(`Unknown science pack${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}.`, warnings, 'error');
  const packNames = work ? [...new Set(work.items.flatMap((i) => i.packs.map((p) => p.pack)))] : science.packs.filter((p) => p.rate > 0).map((p) => p.pack);

  const candidates = labsFor(g, a, packNames);
  let lab: Machine | undefined;
  if (science.lab) {
    lab = g.machines.get(science.lab);
    const inputs = g.labs.get(science.lab)?.inputs;
    if (!lab || !inputs) return empty(`There is no lab "${science.lab}"${candidates.length ? `; labs that take these packs: ${candidates.slice(0, 5).map((m) => m.name).join(', ')}` : ''}.`, warnings, 'error');
    const refused = packNames.filter((p) => !inputs.includes(p));
    if (refused.length) return empty(`${lab.display} does not take ${refused.map((p) => g.displayOf(p)).join(', ')}${candidates.length ? `; pick ${candidates[0].display} [${candidates[0].name}]` : '; no lab takes all of these packs'}.`, warnings, 'error');
  } else {
    lab = candidates[0];
    if (!lab) return empty(packNames.length ? `No lab takes all of ${packNames.map((p) => g.displayOf(p)).join(', ')}.` : 'The science block has no research and no packs yet.', warnings, packNames.length ? 'error' : 'optimal');
  }

  const effects = computeEffects(g, { recipe: RESEARCH, machine: lab, modules: science.modules, beacons: science.beacons });
  for (const r of effects.rejected) warnings.push(`${g.displayOf(r.name)} is left out of the labs: ${r.reason}.`);
  const bonuses = labBonuses(g, a);
  // Research speed research multiplies the module bonus (it does not add to it).
  const labSpeed = lab.speed * (1 + bonuses.speed) * effects.speedMult;
  const productivity = Math.max(0, effects.sum.productivity) + bonuses.productivity;
  const prodMult = 1 + productivity;

  const report: ScienceReport = {
    mode: work ? 'research' : 'packs', lab: lab.name, labDisplay: lab.display, labSpeed, productivity, bonuses, labSecondsPerSecond: 0, labs: 0, packs: [],
  };
  if (work && science.research) {
    const seconds = science.research.minutes * 60;
    const packRates = new Map<string, number>();
    let labSeconds = 0;
    for (const it of work.items) {
      const consumed = it.units / prodMult;
      labSeconds += (consumed * it.unitTime) / seconds;
      for (const p of it.packs) packRates.set(p.pack, (packRates.get(p.pack) ?? 0) + (consumed * p.amount) / seconds);
    }
    report.labSecondsPerSecond = labSeconds;
    // Every pack carries the same share of the bank's time, so switching to hand-set rates keeps the labs.
    report.packs = [...packRates].map(([pack, rate]) => ({ pack, display: g.displayOf(pack), rate, labSeconds: rate > 0 ? labSeconds / rate : 0 }));
    report.research = {
      tech: science.research.tech, display: g.technologies.get(science.research.tech)!.display, minutes: science.research.minutes,
      techs: work.items.map((i) => ({ tech: i.tech, display: i.display, units: i.units, packs: Object.fromEntries(i.packs.map((p) => [p.pack, p.amount * i.units])) })),
      skipped: work.skipped, alreadyResearched: work.alreadyResearched, totalUnits: work.items.reduce((s, i) => s + i.units, 0),
    };
    if (work.alreadyResearched) warnings.push(`${report.research.display} is researched already: the labs have nothing to do for it.`);
  } else {
    report.packs = science.packs.filter((p) => p.rate > 0).map((p) => ({ pack: p.pack, display: g.displayOf(p.pack), rate: p.rate, labSeconds: p.labSeconds ?? typicalLabSeconds(g, p.pack) }));
    report.labSecondsPerSecond = report.packs.reduce((m, p) => Math.max(m, p.rate * p.labSeconds), 0);
    const short = report.packs.filter((p) => p.rate * p.labSeconds < report.labSecondsPerSecond * (1 - 1e-6));
    if (short.length) {
      warnings.push(`The hand-set pack rates do not match one research mix: the labs are sized for the pack that needs the most lab time, and ${short.map((p) => p.display).join(', ')} would run out first.`);
    }
  }
  report.labs = labSpeed > 0 ? report.labSecondsPerSecond / labSpeed : 0;

  const labs = report.labs;
  const demand = energyDemand(g, lab, effects.consMult);
  const beaconBuildings = science.beacons.reduce((s, b) => s + beaconsPlaced(b, labs), 0);
  const electricW = demand.kind === 'electric' ? labs * (demand.watts + demand.drainW) : 0;
  const powerW = electricW + labs * effects.beaconPowerW;
  if (demand.kind !== 'electric' && demand.kind !== 'none') warnings.push(`${lab.display} is not electric (${lab.energySource}); its fuel is not counted by the science block.`);
  const pollution = pollutionPerMinute(lab, labs, effects.consMult, effects.pollutionMult);
  const verdict = a.machineVerdict(lab.name);
  const buildable = verdict.state === 'unlocked' || verdict.state === 'buildable';
  const needs = verdict.needs?.research?.[0];
  const choice: MachineChoice = {
    rule: science.lab ? 'user' : buildable ? 'fastest-buildable' : 'none-buildable',
    explanation: science.lab ? 'named for the science block' : 'fastest lab that takes every pack',
    buildable,
    ...(needs ? { needs } : {}),
  };
  if (!buildable) warnings.push(`${lab.display} [${lab.name}] is not buildable under the ${a.mode} horizon${needs ? `: ${unlockedBy(g.displayOf(needs), needs)}` : ''}.`);
  const imports = report.packs.map((p) => packFlow(g, p.pack, p.rate));
  const row: SolvedRow = {
    recipe: RESEARCH_RECIPE, display: report.research ? `Research ${report.research.display}` : 'Research', machine: lab.name, machineDisplay: lab.display,
    machineRule: choice.explanation, machineChoice: choice, craftsPerSecond: report.labSecondsPerSecond, buildings: labs, wholeBuildings: wholeBuildings(labs),
    modules: effects.modulesPlaced, beacons: science.beacons, beaconBuildings, fuel: null, powerW, pollutionPerMinute: pollution, speed: labSpeed,
    effects: { speed: effects.sum.speed, productivity, consumption: effects.sum.consumption, pollution: effects.sum.pollution },
    flows: report.packs.map((p) => ({ good: p.pack, rate: -p.rate })),
  };
  if (effects.speedMult === EFFECT_FLOOR) warnings.push('The labs run at the −80 % speed floor.');
  const out: SolveResult = {
    ...empty(undefined, warnings),
    rows: labs > 0 || report.packs.length ? [row] : [],
    goods: report.packs.map((p) => ({ good: p.pack, produced: 0, consumed: p.rate, net: -p.rate })),
    imports: powerW > 0 ? [packFlow(g, ELECTRICITY, powerW / 1e6), ...imports] : imports,
    powerW, drainW: demand.kind === 'electric' ? labs * demand.drainW : 0, pollutionPerMinute: pollution,
    science: report,
    timing: { totalMs: performance.now() - t0, highsMs: 0 },
  };
  return out;
}
