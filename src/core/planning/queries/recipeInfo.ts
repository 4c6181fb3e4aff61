// recipeInfo: one recipe in depth — timing, cost, productivity, its availability (one `state` and
// `needs`), every machine that can run it (in the same state words, power, slots and the modules that fit), fuels for burner machines, spoiling
// products, the technologies unlocking it and its TURD relations.
import type { PlanningContext } from '../context';
import type { Machine } from '../gameIndex';
import { moduleMisfit } from '../effects';
import { fuelsFor } from '../energy';
import { recipeCost } from './cost';
import { parseInput, requireRecipe } from './errors';
import { costOut, fmtNum, inText, machineText, outText, pickerInfo, round, spoilFacts, verdictFields, type CandidateNeeds, type CandidateState, type SpoilFacts } from './common';
import { recipeInfoInput, type RecipeInfoInput } from './schemas';

const MAX_MACHINES = 12;
const MAX_FUELS = 10;

export interface RecipeInfoResult {
  name: string;
  display: string;
  kind: string;
  category: string;
  categories: string[];
  craftingTime: number;
  enabled: boolean;
  hidden: boolean;
  cost: number | null;
  prod: { allowed: boolean; maxPct: number; researchPct: number };
  /** Its availability under the horizon (see CandidateState). */
  state: CandidateState;
  /** What is left to do: research (and missing packs), a TURD pick, a machine, or the recipe to use instead. */
  needs?: CandidateNeeds;
  defaultMachine: {
    name: string | null;
    rule: string;
    explanation: string;
    text: string;
    /** The machine's own state (absent without a machine). */
    state?: CandidateState;
    needs?: CandidateNeeds;
    /** Set exactly when the machine is not buildable under the horizon. */
    warning?: string;
  };
  machines: Array<{
    name: string;
    display: string;
    speed: number;
    slots: number;
    kW: number;
    drainKW: number;
    energySource: string | null;
    state: CandidateState;
    needs?: CandidateNeeds;
    /** Recipes that make the machine's item. */
    madeBy: string[];
    allowedModuleCategories: string[] | null;
    allowedEffects: string[] | null;
    fittingModules?: string[];
  }>;
  machinesTruncated: boolean;
  /** Fuels of the default machine when it burns items; null otherwise. */
  fuel: Array<{ fuel: string; ash: string | null; mj: number }> | null;
  spoils: Array<{ good: string } & SpoilFacts>;
  in: string;
  out: string;
  unlocks: Array<{ tech: string; display: string; science: string[]; turd?: { master: string; branch: string } }>;
  turd: {
    /** The branch that grants this recipe, if any. */
    grantedBy?: { master: string; branch: string; state: string };
    /** Branches that replace this recipe with another. */
    replacedBy: Array<{ master: string; branch: string; recipe: string; selected: boolean }>;
    /** The old recipe this one replaces. */
    replaces: Array<{ branch: string; recipe: string }>;
  };
}

export function recipeInfo(ctx: PlanningContext, raw: RecipeInfoInput): RecipeInfoResult {
  const input = parseInput(recipeInfoInput, raw, 'recipeInfo');
  const rec = requireRecipe(ctx, input.recipe);
  const g = ctx.g;
  const a = ctx.availability;
  const info = pickerInfo(ctx, rec);
  const modules = [...g.modules.values()].filter((m) => !m.hidden && !a.isExcluded(m.name));
  const ms = g
    .machinesFor(rec)
    .filter((m) => !a.isExcluded(m.name))
    .sort((x, y) => y.speed - x.speed || (x.name < y.name ? -1 : 1));
  const machineRow = (m: Machine) => {
    const av = a.machine(m.name);
    const fits = m.moduleSlots > 0 ? modules.filter((x) => !moduleMisfit(x, m, rec)).map((x) => x.name) : [];
    return {
      name: m.name,
      display: m.display,
      speed: m.speed,
      slots: m.moduleSlots,
      kW: round(m.energyUsageW / 1000),
      drainKW: round(m.drainW / 1000),
      energySource: m.energySource,
      ...verdictFields(a.machineVerdict(m.name)),
      madeBy: av.madeBy.slice(0, 4),
      allowedModuleCategories: m.allowedModuleCategories,
      allowedEffects: m.allowedEffects,
      ...(fits.length ? { fittingModules: fits } : {}),
    };
  };
  const dm = info.machine.machine;
  const fuels = dm && dm.energySource === 'burner' ? fuelsFor(g, dm).slice(0, MAX_FUELS) : null;
  const spoils: RecipeInfoResult['spoils'] = [];
  for (const p of rec.products) {
    const good = g.goods.get(p.name);
    const s = good ? spoilFacts(ctx, good) : undefined;
    if (s && !spoils.some((x) => x.good === p.name)) spoils.push({ good: p.name, ...s });
  }
  const branch = g.recipeBranch.get(rec.name);
  const replaces: Array<{ branch: string; recipe: string }> = [];
  if (branch) for (const [old, nu] of g.turdBranches.get(branch)!.replacements) if (nu === rec.name) replaces.push({ branch, recipe: old });
  return {
    name: rec.name,
    display: rec.display,
    kind: rec.kind,
    category: rec.category,
    categories: rec.categories,
    craftingTime: rec.energy,
    enabled: rec.enabled,
    hidden: rec.hidden,
    cost: costOut(recipeCost(g, rec)),
    prod: {
      allowed: rec.allowProductivity,
      maxPct: Math.round((rec.maxProductivity ?? 3) * 1000) / 10,
      researchPct: Math.round(a.productivityBonus(rec) * 1000) / 10,
    },
    ...verdictFields(info.verdict),
    defaultMachine: {
      name: dm?.name ?? null, rule: info.machine.rule, explanation: info.machine.explanation, text: machineText(info.machine),
      ...(dm ? verdictFields(a.machineVerdict(dm.name)) : {}),
      ...(info.machine.warning ? { warning: info.machine.warning } : {}),
    },
    machines: ms.slice(0, MAX_MACHINES).map(machineRow),
    machinesTruncated: ms.length > MAX_MACHINES,
    fuel: fuels ? fuels.map((f) => ({ fuel: f.name, ash: f.burntResult, mj: Number(fmtNum((f.fuelValueJ ?? 0) / 1e6)) })) : null,
    spoils,
    in: inText(rec),
    out: outText(rec),
    unlocks: rec.unlockedBy.map((t) => {
      const tech = g.technologies.get(t);
      const b = g.turdBranches.get(t);
      const packTech = b ? b.master : t;
      return {
        tech: t,
        display: tech?.display ?? t,
        science: (g.technologies.get(packTech)?.ingredients ?? []).map((i) => i.pack),
        ...(b ? { turd: { master: b.master, branch: b.name } } : {}),
      };
    }),
    turd: {
      ...(info.avail.turd ? { grantedBy: { master: info.avail.turd.master, branch: info.avail.turd.branch, state: info.avail.turd.state } } : {}),
      replacedBy: (g.replacedBy.get(rec.name) ?? []).map((x) => {
        const master = g.turdBranches.get(x.branch)?.master ?? '';
        return { master, branch: x.branch, recipe: x.recipe, selected: a.state.turd.get(master)?.branch === x.branch };
      }),
      replaces,
    },
  };
}
