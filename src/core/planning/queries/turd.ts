// TURD queries (Py's permanent, mutually exclusive recipe upgrades): the full branch sets of a
// master (turdChoices), which masters would replace recipes of a plan (availableTurds), and whether a
// set of recipes needs one consistent branch per master (turdConsistency).
import type { TurdState } from '../availability';
import type { PlanningContext } from '../context';
import type { TurdBranch } from '../gameIndex';
import { EFFECTS } from '../gameIndex';
import { parseInput, QueryError, requireGood, requireRecipe, suggest } from './errors';
import {
  availableTurdsInput, turdChoicesInput, turdConsistencyInput, type AvailableTurdsInput, type TurdChoicesInput, type TurdConsistencyInput,
} from './schemas';

export interface TurdModuleFacts {
  name: string;
  display: string;
  category: string;
  /** Non-zero effects in percent. */
  effects: Record<string, number>;
}

export interface TurdChoice {
  name: string;
  display: string;
  description: string;
  unlocks: Array<{ recipe: string; display: string }>;
  changes: Array<{ from: string; fromDisplay: string; to: string; toDisplay: string; buildsBuilding: boolean }>;
  modules: TurdModuleFacts[];
  selected: boolean;
  state: TurdState;
}

export interface TurdMasterFacts {
  master: string;
  display: string;
  description: string;
  /** Research state of the master technology (the real researched set). */
  researched: boolean;
  selected: string | null;
  source?: 'manual' | 'synced';
  choices: TurdChoice[];
}

export interface TurdChoicesResult {
  masters: TurdMasterFacts[];
  note?: string;
}

function moduleFacts(ctx: PlanningContext, name: string): TurdModuleFacts {
  const m = ctx.g.modules.get(name);
  const effects: Record<string, number> = {};
  if (m) for (const e of EFFECTS) if (m.effects[e]) effects[e] = Math.round(m.effects[e] * 10000) / 100;
  return { name, display: m?.display ?? ctx.g.displayOf(name), category: m?.category ?? '', effects };
}

function effectText(effects: Record<string, number>): string {
  return Object.entries(effects)
    .map(([e, v]) => `${v > 0 ? '+' : ''}${v}% ${e}`)
    .join(', ');
}

/** What makes a recipe's main output a building (it places a machine or beacon). */
function buildsBuilding(ctx: PlanningContext, recipe: string): boolean {
  const r = ctx.g.recipes.get(recipe);
  return !!r && r.products.some((p) => ctx.g.placedBy.has(p.name));
}

export function choiceOf(ctx: PlanningContext, b: TurdBranch): TurdChoice {
  const g = ctx.g;
  const replaced = new Set(b.replacements.values());
  const changes = [...b.replacements].map(([from, to]) => ({ from, fromDisplay: g.displayOf(from), to, toDisplay: g.displayOf(to), buildsBuilding: buildsBuilding(ctx, to) || buildsBuilding(ctx, from) }));
  const added = b.grants.filter((r) => !replaced.has(r));
  const modules = b.modules.map((m) => moduleFacts(ctx, m));
  const parts = [
    ...changes.map((c) => `${c.fromDisplay} → ${c.toDisplay}`),
    ...(added.length ? [`adds ${added.map((r) => g.displayOf(r)).join(', ')}`] : []),
    ...modules.filter((m) => Object.keys(m.effects).length).map((m) => `always-on ${effectText(m.effects)} for machines taking ${m.category} modules`),
  ];
  const state = ctx.availability.branchState(b.master, b.name);
  return {
    name: b.name,
    display: g.displayOf(b.name),
    description: `${g.displayOf(b.name)}: ${parts.join('; ') || 'no recipe changes'}`,
    unlocks: b.grants.map((r) => ({ recipe: r, display: g.displayOf(r) })),
    changes,
    modules,
    selected: state === 'active',
    state,
  };
}

export function masterFacts(ctx: PlanningContext, master: string): TurdMasterFacts {
  const g = ctx.g;
  const branches = (g.turdMasters.get(master) ?? []).map((b) => g.turdBranches.get(b)!).filter(Boolean);
  const sel = ctx.availability.state.turd.get(master);
  const choices = branches.map((b) => choiceOf(ctx, b));
  return {
    master,
    display: g.displayOf(master),
    description: `${g.displayOf(master)}: pick one of ${choices.length} permanent upgrades (${choices.map((c) => c.display).join(', ')}); the others are blocked once one is chosen`,
    researched: ctx.availability.state.researched.has(master),
    selected: sel?.branch ?? null,
    ...(sel ? { source: sel.source } : {}),
    choices,
  };
}

/** Masters whose branches grant or replace a recipe. */
function mastersOfRecipe(ctx: PlanningContext, recipe: string): string[] {
  const g = ctx.g;
  const out = new Set<string>();
  const b = g.recipeBranch.get(recipe);
  if (b) out.add(g.turdBranches.get(b)!.master);
  for (const r of g.replacedBy.get(recipe) ?? []) out.add(g.turdBranches.get(r.branch)!.master);
  return [...out];
}

export function turdChoices(ctx: PlanningContext, raw: TurdChoicesInput): TurdChoicesResult {
  const input = parseInput(turdChoicesInput, raw, 'turdChoices');
  const g = ctx.g;
  let masters: string[] = [];
  let subject = '';
  if (input.master) {
    let m = input.master;
    if (!g.turdMasters.has(m) && g.turdBranches.has(m)) m = g.turdBranches.get(m)!.master; // a branch names its master
    if (!g.turdMasters.has(m)) {
      const known = [...g.turdMasters.keys()];
      const s = suggest(ctx, 'technology', input.master, 6).filter((x) => g.turdMasters.has(x));
      throw new QueryError(
        known.length
          ? `no TURD master named '${input.master}'; ${s.length ? `did you mean ${s.join(', ')}? ` : ''}masters: ${known.slice(0, 12).join(', ')}${known.length > 12 ? ', …' : ''}`
          : `no TURD master named '${input.master}': this game data has no TURD upgrades`,
        s,
      );
    }
    masters = [m];
    subject = `master ${m}`;
  } else if (input.recipe) {
    const r = requireRecipe(ctx, input.recipe);
    masters = mastersOfRecipe(ctx, r.name);
    subject = `recipe ${r.name}`;
  } else if (input.good) {
    const x = requireGood(ctx, input.good);
    const set = new Set<string>();
    for (const r of g.producersOf(x.name)) for (const m of mastersOfRecipe(ctx, r)) set.add(m);
    masters = [...set].sort();
    subject = `good ${x.name}`;
  }
  const out = masters.map((m) => masterFacts(ctx, m));
  return {
    masters: out,
    ...(out.length ? {} : { note: g.turdMasters.size ? `no TURD upgrade changes ${subject}` : 'this game data has no TURD upgrades' }),
  };
}

export interface AvailableTurdsResult {
  opportunities: Array<{
    master: string;
    display: string;
    selected: string | null;
    masterResearched: boolean;
    wouldReplace: Array<{ recipe: string; by: string; branch: string }>;
    options: Array<{
      sub: string;
      display: string;
      replaces: Array<{ from: string; to: string; inPlan: boolean }>;
      moreReplacements?: number;
      modules: TurdModuleFacts[];
      selected: boolean;
      state: string;
    }>;
  }>;
  truncated: boolean;
  invalid?: Array<{ recipe: string; error: string }>;
  note?: string;
}

const MAX_OPPORTUNITIES = 20;
const MAX_REPLACES = 6;

export function availableTurds(ctx: PlanningContext, raw: AvailableTurdsInput): AvailableTurdsResult {
  const input = parseInput(availableTurdsInput, raw, 'availableTurds');
  const g = ctx.g;
  const plan = new Set<string>();
  const invalid: Array<{ recipe: string; error: string }> = [];
  for (const r of input.recipes) {
    try {
      plan.add(requireRecipe(ctx, r).name);
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      invalid.push({ recipe: r, error: err.message });
    }
  }
  const byMaster = new Map<string, Array<{ recipe: string; by: string; branch: string }>>();
  for (const r of plan) {
    for (const x of g.replacedBy.get(r) ?? []) {
      const master = g.turdBranches.get(x.branch)!.master;
      const l = byMaster.get(master) ?? [];
      l.push({ recipe: r, by: x.recipe, branch: x.branch });
      byMaster.set(master, l);
    }
  }
  const all = [...byMaster.entries()].sort((x, y) => y[1].length - x[1].length || (x[0] < y[0] ? -1 : 1));
  const opportunities = all.slice(0, MAX_OPPORTUNITIES).map(([master, wouldReplace]) => {
    const sel = ctx.availability.state.turd.get(master)?.branch ?? null;
    const options = (g.turdMasters.get(master) ?? []).map((bn) => {
      const b = g.turdBranches.get(bn)!;
      const reps = [...b.replacements].map(([from, to]) => ({ from, to, inPlan: plan.has(from) })).sort((x, y) => Number(y.inPlan) - Number(x.inPlan) || (x.from < y.from ? -1 : 1));
      return {
        sub: bn,
        display: g.displayOf(bn),
        replaces: reps.slice(0, MAX_REPLACES),
        ...(reps.length > MAX_REPLACES ? { moreReplacements: reps.length - MAX_REPLACES } : {}),
        modules: b.modules.map((m) => moduleFacts(ctx, m)),
        selected: sel === bn,
        state: ctx.availability.branchState(b.master, b.name),
      };
    });
    return { master, display: g.displayOf(master), selected: sel, masterResearched: ctx.availability.state.researched.has(master), wouldReplace, options };
  });
  return {
    opportunities,
    truncated: all.length > MAX_OPPORTUNITIES,
    ...(invalid.length ? { invalid } : {}),
    ...(opportunities.length ? {} : { note: g.turdMasters.size ? 'no TURD upgrade replaces a recipe of this plan' : 'this game data has no TURD upgrades' }),
  };
}

export interface TurdConsistencyResult {
  scope: 'recipes' | 'all-blocks';
  ok: boolean;
  conflicts: Array<{ master: string; branches: Array<{ branch: string; recipes: string[] }> }>;
  selections: Array<{ master: string; requiredSub: string; current: string | null; action: 'already-selected' | 'pick' | 'switch'; recipes: string[] }>;
  superseded: Array<{ recipe: string; by: string; branch: string }>;
  invalid?: Array<{ recipe: string; error: string }>;
  note?: string;
}

export interface TurdConsistencyOptions {
  /** Recipes of all enabled blocks, used when the input names none. */
  blockRecipes?: () => string[];
}

export function turdConsistency(ctx: PlanningContext, raw: TurdConsistencyInput = {}, opts: TurdConsistencyOptions = {}): TurdConsistencyResult {
  const input = parseInput(turdConsistencyInput, raw, 'turdConsistency');
  const scope = input.recipes ? 'recipes' : 'all-blocks';
  const names = input.recipes ?? opts.blockRecipes?.() ?? [];
  const a = ctx.availability;
  const invalid: Array<{ recipe: string; error: string }> = [];
  const need = new Map<string, Map<string, string[]>>();
  const superseded: TurdConsistencyResult['superseded'] = [];
  for (const n of new Set(names)) {
    if (!ctx.g.recipes.has(n)) {
      try {
        requireRecipe(ctx, n);
      } catch (err) {
        invalid.push({ recipe: n, error: (err as Error).message });
      }
      continue;
    }
    const av = a.recipe(n);
    if (av.supersededBy) superseded.push({ recipe: n, by: av.supersededBy.recipe, branch: av.supersededBy.branch });
    if (!av.turd) continue;
    const m = need.get(av.turd.master) ?? new Map<string, string[]>();
    const l = m.get(av.turd.branch) ?? [];
    l.push(n);
    m.set(av.turd.branch, l);
    need.set(av.turd.master, m);
  }
  const conflicts: TurdConsistencyResult['conflicts'] = [];
  const selections: TurdConsistencyResult['selections'] = [];
  for (const [master, branches] of [...need].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    if (branches.size > 1) {
      conflicts.push({ master, branches: [...branches].map(([branch, recipes]) => ({ branch, recipes })) });
      continue;
    }
    const [[branch, recipes]] = [...branches];
    const current = a.state.turd.get(master)?.branch ?? null;
    selections.push({ master, requiredSub: branch, current, action: current === branch ? 'already-selected' : current === null ? 'pick' : 'switch', recipes });
  }
  const ok = !conflicts.length && selections.every((s) => s.action !== 'switch');
  const note = conflicts.length
    ? 'recipes need different branches of one master: keep one branch per master'
    : selections.some((s) => s.action === 'switch')
      ? 'a recipe needs a branch other than the one selected: switching is permanent in game'
      : !names.length
        ? scope === 'all-blocks' ? 'no block recipes to check' : undefined
        : undefined;
  return { scope, ok, conflicts, selections, superseded, ...(invalid.length ? { invalid } : {}), ...(note ? { note } : {}) };
}
