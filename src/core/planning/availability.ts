// What the player can use, per planning horizon. Every recipe and machine answer carries both
// `availableNow` (research reachable under the horizon) and `buildableNow` (reachable and, for a
// TURD recipe, its branch selected), so no caller can confuse the two.
//   now    — researched techs plus anything researchable with the packs the user produces;
//   target — the exact prerequisite closure of the target good's unlocking technology;
//   future — everything (what is missing is still reported).
import type { GameIndex, Machine, Recipe, Technology } from './gameIndex';
import type { PlanningState, ResearchMode } from './settings';

export type ResearchState = 'enabled' | 'researched' | 'available' | 'needs-research';
export type TurdState = 'active' | 'pickable' | 'blocked';

export interface RecipeAvailability {
  research: ResearchState;
  /** Packs the unlocking research still needs that the user does not produce (union over unlocks). */
  needsPacks: string[];
  unlockedBy: string[];
  turd: { master: string; branch: string; state: TurdState } | null;
  /** Research reachable under the horizon and not blocked by another TURD branch. */
  availableNow: boolean;
  /** Reachable and, for a TURD recipe, its branch is the selected one. */
  buildableNow: boolean;
  /** Replaced by a recipe of a selected TURD branch. */
  supersededBy: { recipe: string; branch: string } | null;
  /** Already usable in the synced/declared save (enabled, researched unlock or selected branch). */
  unlockedInSave: boolean;
}

export interface MachineAvailability {
  availableNow: boolean;
  buildableNow: boolean;
  /** Recipes that make its item. */
  madeBy: string[];
}

export interface DefaultMachine {
  machine: Machine | null;
  rule: 'favorite' | 'fastest-buildable' | 'fastest-available' | 'fastest' | 'none';
  /** The rule in words, for results shown to a user or a model. */
  explanation: string;
}

export class Availability {
  readonly mode: ResearchMode;
  private readonly techCache = new Map<string, { reachable: boolean; missing: string[] }>();
  private readonly recipeCache = new Map<string, RecipeAvailability>();
  private readonly machineCache = new Map<string, MachineAvailability>();
  private readonly packs: Set<string>;
  /** Target mode: techs in the closure of the target's unlocking technology. */
  readonly targetClosure: Set<string> | null;
  readonly targetTech: string | null;
  private readonly excludeRe: RegExp[];

  constructor(
    readonly g: GameIndex,
    readonly state: PlanningState,
  ) {
    this.mode = state.settings.research_mode;
    this.packs = new Set(state.settings.available_science_packs);
    this.excludeRe = state.settings.exclusions.map(globToRegExp);
    const t = this.mode === 'target' ? this.findTargetTech(state.settings.horizon_target) : null;
    this.targetTech = t;
    this.targetClosure = this.mode === 'target' ? (t ? this.closure(t) : new Set()) : null;
  }

  private readonly excludedCache = new Map<string, boolean>();

  /** Hidden from every list and search (exclusion globs on name, category or subgroup). */
  isExcluded(name: string): boolean {
    const hit = this.excludedCache.get(name);
    if (hit !== undefined) return hit;
    const r = this.g.recipes.get(name);
    const good = this.g.goods.get(name);
    const keys = [name, r?.category, r?.subgroup, good?.subgroup].filter((x): x is string => !!x);
    const out = this.excludeRe.some((re) => keys.some((k) => re.test(k)));
    this.excludedCache.set(name, out);
    return out;
  }

  /** Technology t plus all its transitive prerequisites. */
  closure(t: string): Set<string> {
    const out = new Set<string>();
    const stack = [t];
    while (stack.length) {
      const x = stack.pop()!;
      if (out.has(x)) continue;
      out.add(x);
      for (const p of this.g.technologies.get(x)?.prerequisites ?? []) stack.push(p);
    }
    return out;
  }

  /** Distinct packs over a technology's prerequisite closure (its "tier"). */
  tier(t: string): number {
    const packs = new Set<string>();
    for (const x of this.closure(t)) for (const i of this.g.technologies.get(x)?.ingredients ?? []) packs.add(i.pack);
    return packs.size;
  }

  /** Lowest-tier technology unlocking a recipe that makes the good (ties by name). */
  findTargetTech(good: string | null): string | null {
    if (!good) return null;
    if (this.g.technologies.has(good)) return good;
    let best: { t: string; tier: number } | null = null;
    // A good: any recipe making it (not just a same-named recipe); else a recipe name.
    const recipes = this.g.goods.has(good) ? this.g.producersOf(good) : this.g.recipes.has(good) ? [good] : [];
    for (const r of recipes) {
      const rec = this.g.recipes.get(r);
      if (!rec || rec.synthetic || rec.hidden || this.isExcluded(r)) continue;
      if (rec.enabled) return null; // made from the start: nothing to research
      for (const t of rec.unlockedBy) {
        const tier = this.tier(t);
        if (!best || tier < best.tier || (tier === best.tier && t < best.t)) best = { t, tier };
      }
    }
    return best?.t ?? null;
  }

  /** Missing packs of a technology: packs over its unresearched closure that are not produced. */
  missingPacks(t: string): string[] {
    return this.tech(t).missing;
  }

  tech(t: string): { reachable: boolean; missing: string[] } {
    const hit = this.techCache.get(t);
    if (hit) return hit;
    const R = this.state.researched;
    let missing: string[] = [];
    if (!R.has(t)) {
      const relevant = new Set<string>();
      for (const x of this.closure(t)) {
        if (R.has(x)) continue;
        for (const i of this.g.technologies.get(x)?.ingredients ?? []) relevant.add(i.pack);
      }
      missing = [...relevant].filter((p) => !this.packs.has(p)).sort();
    }
    let reachable: boolean;
    if (this.mode === 'future') reachable = true;
    else if (this.mode === 'target') reachable = R.has(t) || (this.targetClosure?.has(t) ?? false);
    else reachable = missing.length === 0;
    const out = { reachable, missing };
    this.techCache.set(t, out);
    return out;
  }

  private turdOf(recipe: string): RecipeAvailability['turd'] {
    const branch = this.g.recipeBranch.get(recipe);
    if (!branch) return null;
    const rec = this.g.recipes.get(recipe);
    // Only a recipe whose sole unlock is the branch requires it.
    if (rec && rec.unlockedBy.some((t) => !this.g.turdBranches.has(t))) return null;
    const master = this.g.turdBranches.get(branch)!.master;
    return { master, branch, state: this.branchState(master, branch) };
  }

  /** A branch of a master: selected (active), free to select (pickable), or another one is selected (blocked). */
  branchState(master: string, branch: string): TurdState {
    const sel = this.state.turd.get(master)?.branch;
    return sel === undefined ? 'pickable' : sel === branch ? 'active' : 'blocked';
  }

  recipe(name: string): RecipeAvailability {
    const hit = this.recipeCache.get(name);
    if (hit) return hit;
    const rec = this.g.recipes.get(name);
    if (!rec) throw new Error(`unknown recipe ${name}`);
    const turd = this.turdOf(name);
    // TURD branches are chosen, not researched: their gate is free; the master is the research.
    const unlockTechs = rec.unlockedBy.map((t) => (this.g.turdBranches.has(t) ? this.g.turdBranches.get(t)!.master : t));
    let research: ResearchState;
    let needs: string[] = [];
    if (rec.enabled || rec.synthetic) research = 'enabled';
    else if (unlockTechs.some((t) => this.state.researched.has(t))) research = 'researched';
    else if (unlockTechs.some((t) => this.tech(t).reachable)) {
      research = 'available';
      // Future reaches everything; still say what the cheapest route lacks.
      if (this.mode === 'future') needs = unlockTechs.map((t) => this.tech(t).missing).sort((a, b) => a.length - b.length)[0] ?? [];
    } else {
      research = 'needs-research';
      const s = new Set<string>();
      for (const t of unlockTechs) for (const p of this.tech(t).missing) s.add(p);
      needs = [...s].sort();
    }
    const obtainable = rec.enabled || rec.synthetic || rec.unlockedBy.length > 0;
    const reachable = research !== 'needs-research' && obtainable;
    const superseded = this.supersededBy(name);
    const out: RecipeAvailability = {
      research,
      needsPacks: needs,
      unlockedBy: rec.unlockedBy,
      turd,
      availableNow: reachable && turd?.state !== 'blocked',
      buildableNow: reachable && (!turd || turd.state === 'active'),
      supersededBy: superseded,
      unlockedInSave: (rec.enabled || rec.synthetic || unlockTechs.some((t) => this.state.researched.has(t))) && (!turd || turd.state === 'active'),
    };
    this.recipeCache.set(name, out);
    return out;
  }

  private supersededBy(name: string): { recipe: string; branch: string } | null {
    for (const r of this.g.replacedBy.get(name) ?? []) {
      const master = this.g.turdBranches.get(r.branch)?.master;
      if (master && this.state.turd.get(master)?.branch === r.branch) return { recipe: r.recipe, branch: r.branch };
    }
    return null;
  }

  machine(name: string): MachineAvailability {
    const hit = this.machineCache.get(name);
    if (hit) return hit;
    const m = this.g.machines.get(name);
    const item = m?.item ?? null;
    const madeBy = item ? this.g.producersOf(item).filter((r) => !this.g.recipes.get(r)!.synthetic) : [];
    let out: MachineAvailability;
    // A hidden machine no item places (Py's "-legacy" variants, crash-site wrecks) cannot be built.
    if (!m || (m.hidden && !item)) out = { availableNow: false, buildableNow: false, madeBy };
    else if (this.mode === 'future') out = { availableNow: true, buildableNow: true, madeBy };
    else if (!item || madeBy.length === 0) out = { availableNow: true, buildableNow: true, madeBy }; // nothing gates it
    else out = { availableNow: madeBy.some((r) => this.recipe(r).availableNow), buildableNow: madeBy.some((r) => this.recipe(r).buildableNow), madeBy };
    this.machineCache.set(name, out);
    return out;
  }

  /** The one default-machine rule used everywhere (drafts, options, calcRecipe, bills). */
  defaultMachine(recipe: Recipe | string): DefaultMachine {
    const rec = typeof recipe === 'string' ? this.g.recipes.get(recipe) : recipe;
    if (!rec) return { machine: null, rule: 'none', explanation: `unknown recipe` };
    // Excluded machines never count; hidden ones only when nothing visible can run the recipe.
    const all = this.g.machinesFor(rec).filter((m) => !this.isExcluded(m.name));
    const visible = all.filter((m) => !m.hidden);
    const candidates = visible.length ? visible : all;
    if (!candidates.length) return { machine: null, rule: 'none', explanation: `no machine can run recipe ${rec.name} (category ${rec.category})` };
    const fastest = (ms: Machine[]) => [...ms].sort((a, b) => b.speed - a.speed || a.energyUsageW - b.energyUsageW || a.name.localeCompare(b.name))[0];
    const favs = this.state.settings.favorite_machines;
    for (const c of rec.categories) {
      const f = favs[c];
      const fm = f ? candidates.find((m) => m.name === f) : undefined;
      if (fm && this.machine(fm.name).buildableNow) return { machine: fm, rule: 'favorite', explanation: `${fm.display} is your favorite for ${c}` };
    }
    const buildable = candidates.filter((m) => this.machine(m.name).buildableNow);
    if (buildable.length) return { machine: fastest(buildable), rule: 'fastest-buildable', explanation: 'fastest buildable machine (no buildable favorite set for this category)' };
    const available = candidates.filter((m) => this.machine(m.name).availableNow);
    if (available.length) return { machine: fastest(available), rule: 'fastest-available', explanation: 'fastest machine reachable by research (none is buildable yet)' };
    return { machine: fastest(candidates), rule: 'fastest', explanation: 'fastest machine overall (none is reachable under this horizon)' };
  }

  /** Research productivity per recipe and mining productivity, from research or the synced save. */
  productivityBonus(recipe: Recipe): number {
    const s = this.state.settings;
    if (recipe.kind === 'mining') {
      if (s.mining_productivity.source === 'manual') return s.mining_productivity.percent / 100;
      if (this.mode === 'now' && (s.synced_mining_productivity ?? 0) > 0) return s.synced_mining_productivity!;
      return this.sumTechBonus('');
    }
    if (this.mode === 'now' && s.synced_recipe_productivity) return s.synced_recipe_productivity[recipe.name] ?? 0;
    return this.sumTechBonus(recipe.name);
  }

  private bonusCache = new Map<string, number>();
  private sumTechBonus(recipe: string): number {
    const hit = this.bonusCache.get(recipe);
    if (hit !== undefined) return hit;
    let sum = 0;
    for (const t of this.g.technologies.values()) {
      for (const b of t.productivity) if (b.recipe === recipe && this.countsTowardBonus(t)) sum += b.modifier;
    }
    this.bonusCache.set(recipe, sum);
    return sum;
  }

  /** Research counted for bonuses: Now the researched set, Target also the target closure, Future all. */
  countsTowardBonus(t: Technology): boolean {
    if (this.mode === 'future') return true;
    if (this.mode === 'now') return this.state.researched.has(t.name);
    return this.state.researched.has(t.name) || (this.targetClosure?.has(t.name) ?? false);
  }

  /** Active TURD modules: hidden modules of the selected branches (always-on effects). */
  activeTurdModules(): string[] {
    const out: string[] = [];
    for (const { branch } of this.state.turd.values()) out.push(...(this.g.turdBranches.get(branch)?.modules ?? []));
    return out;
  }
}

export function globToRegExp(glob: string): RegExp {
  return new RegExp('^' + glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
}
