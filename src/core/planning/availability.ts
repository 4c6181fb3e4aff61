// What the player can use, per planning horizon. Every recipe and machine answer carries both
// `availableNow` (research reachable under the horizon) and `buildableNow` (reachable and, for a
// TURD recipe, its branch selected), so no caller can confuse the two. A recipe's verdict also needs
// a machine: one that no available machine can run is neither available nor buildable, and every
// tool reads that one verdict (`recipe()`), including its picker rank and lock reason.
//   now    — researched techs plus anything researchable with the packs the user produces;
//   target — the exact prerequisite closure of the target good's unlocking technology; with the
//            "able to make" scope (the default for a science pack) also the research making the
//            target takes: its ingredient chains and their machines (makeClosure.ts);
//   future — everything (what is missing is still reported).
import type { GameIndex, Machine, Recipe, Technology } from './gameIndex';
import type { PlanningState, ResearchMode, TargetScope } from './settings';
import { makeClosure, targetScope } from './makeClosure';

export type ResearchState = 'enabled' | 'researched' | 'available' | 'needs-research';
export type TurdState = 'active' | 'pickable' | 'blocked';
export type LockState = 'unlocked' | 'selectable' | 'locked' | 'superseded';

/** Recipe kinds that need no building (passive decay, the solver's fuel burning). */
export const MACHINELESS_KINDS = new Set(['spoiling', 'burning']);
const LOCK: LockState[] = ['unlocked', 'selectable', 'locked', 'superseded'];

export interface RecipeAvailability {
  research: ResearchState;
  /** Packs the unlocking research still needs that the user does not produce (union over unlocks). */
  needsPacks: string[];
  unlockedBy: string[];
  turd: { master: string; branch: string; state: TurdState } | null;
  /** Research reachable under the horizon, not blocked by another TURD branch, and a machine that
   *  can run it is reachable too (or it needs none). */
  availableNow: boolean;
  /** Available, its TURD branch (if any) is the selected one, and a machine for it is buildable. */
  buildableNow: boolean;
  /** Replaced by a recipe of a selected TURD branch. */
  supersededBy: { recipe: string; branch: string } | null;
  /** Already usable in the synced/declared save (enabled, researched unlock or selected branch). */
  unlockedInSave: boolean;
  /** Can be picked under the horizon (domain A "selectable"): research, TURD, machine, not superseded. */
  selectable: boolean;
  /** Picker rank: 0 unlocked in the save, 1 selectable, 2 locked, 3 superseded. */
  rank: 0 | 1 | 2 | 3;
  lockState: LockState;
  /** Why it is not selectable (locked / superseded), in words. */
  lockReason?: string;
}

/** The research and TURD gates alone: what making a placed item (machine, belt, module) needs, since
 *  the player can craft those by hand — unlike a block's recipe, which needs a machine to run in. */
export interface ResearchGate {
  research: ResearchState;
  needsPacks: string[];
  unlockTechs: string[];
  turd: RecipeAvailability['turd'];
  availableNow: boolean;
  buildableNow: boolean;
  unlockedInSave: boolean;
}

/**
 * The one availability word every tool result uses for a recipe (and, where it describes a machine,
 * for the machine): derived from the verdict above, never a second verdict.
 *   unlocked       — usable in the player's save already (nothing to do);
 *   buildable      — selectable under the horizon (research still to do is in `needs`);
 *   needs-research — its technology is out of reach under the horizon;
 *   unobtainable   — not enabled from the start and no technology unlocks it (nothing to research);
 *   turd-pick      — needs a TURD branch nobody picked yet (under Up to target it may be planned: the
 *                    pick is part of the route);
 *   turd-blocked   — needs a TURD branch while its master has another branch selected (a respec);
 *   no-machine     — researchable, but no machine that can run it is reachable (for a machine: it
 *                    cannot be built at all);
 *   by-hand        — only the player's hand crafts it: no building can ever run it;
 *   superseded     — replaced by a recipe of a selected TURD branch.
 */
export type CandidateState = 'unlocked' | 'buildable' | 'needs-research' | 'unobtainable' | 'turd-pick' | 'turd-blocked' | 'no-machine' | 'by-hand' | 'superseded';

/** Usable under the horizon: unlocked in the save, or buildable with the research the horizon allows. */
export const isUsable = (v: { state: CandidateState }): boolean => v.state === 'unlocked' || v.state === 'buildable';

const STATE_WORDS: Record<CandidateState, string> = {
  unlocked: 'unlocked',
  buildable: 'buildable under the horizon',
  'needs-research': 'needs research beyond the horizon',
  unobtainable: 'unobtainable (no technology unlocks it)',
  'turd-pick': 'needs a TURD branch picked',
  'turd-blocked': 'needs another TURD branch (a respec)',
  'no-machine': 'no machine for it is reachable',
  'by-hand': 'crafted by hand only',
  superseded: 'superseded by a TURD recipe',
};

/** A state in words for people (pickers, labels, pages); tool results keep the code. */
export const stateWords = (state: CandidateState): string => STATE_WORDS[state];

/** "it is unlocked by Modules 1 [modules-1], which needs advanced-research-pack" — the words of every not-buildable warning. */
export function unlockedBy(display: string, technology: string, missingPacks: string[] = []): string {
  return `it is unlocked by ${display} [${technology}]${missingPacks.length ? `, which needs ${missingPacks.join(', ')}` : ''}`;
}

export const NO_RESEARCH = 'no research unlocks it';

/** What is left to do before a candidate can be used under the horizon: set exactly when its state is
 *  neither unlocked nor buildable. */
export interface CandidateNeeds {
  /** Technologies to research, any one of them unlocks it, lowest tier first ([] = no technology does). */
  research?: string[];
  /** Science packs that research takes and the player does not produce. */
  packs?: string[];
  /** The TURD branch to pick; `selected` = the branch its master has now (turd-blocked: a respec). */
  turd?: { master: string; branch: string; selected?: string };
  /** A machine to unlock before it can run (name null: no machine can run it at all). */
  machine?: { name: string | null; research?: string; packs?: string[] };
  /** Superseded: the recipe of the selected TURD branch to use instead. */
  use?: { recipe: string; branch: string };
}

export interface CandidateVerdict {
  state: CandidateState;
  needs?: CandidateNeeds;
}

export interface MachineAvailability {
  availableNow: boolean;
  buildableNow: boolean;
  /** Recipes that make its item. */
  madeBy: string[];
}

/** How a row's machine was chosen: named by the block/draft/caller, the category favourite, the
 *  fastest buildable one, the fastest one when none is buildable under the horizon, none because only
 *  the player's hand crafts it, or none at all. */
export type MachineRule = 'user' | 'favorite' | 'fastest-buildable' | 'none-buildable' | 'by-hand' | 'none';

export interface DefaultMachine {
  machine: Machine | null;
  rule: MachineRule;
  /** The rule in words, for results shown to a user or a model. */
  explanation: string;
  /** The machine can be built under the horizon (false without a machine). */
  buildable: boolean;
  /** A machine that is not buildable: the technology that unlocks it (null when no research does). */
  needs?: { technology: string; display: string; missingPacks: string[] } | null;
  /** Set exactly when a machine is not buildable under the horizon: names it and what unlocks it. */
  warning?: string;
}

/** "" for a buildable machine, else "; not buildable yet — needs <technology>" (for rule texts). */
export function notBuildableSuffix(d: Pick<DefaultMachine, 'machine' | 'buildable' | 'needs'>): string {
  if (!d.machine || d.buildable) return '';
  return d.needs ? `; not buildable yet — needs ${d.needs.display} [${d.needs.technology}]` : '; not buildable yet — no research unlocks it';
}

/**
 * Science packs over each technology's prerequisite closure, per game index: they depend on the game
 * data alone, so every horizon shares them. Ranking candidates asks for a tier thousands of times,
 * and walking a full-Py closure (hundreds of technologies) each time made the first recipe graph
 * under a new horizon take seconds. Built bottom-up: a technology's packs are its own and those of
 * its prerequisites (a prerequisite cycle in broken data ends the walk, it does not loop).
 */
const packsCache = new WeakMap<GameIndex, Map<string, ReadonlySet<string>>>();

export function packsOver(g: GameIndex, tech: string): ReadonlySet<string> {
  let memo = packsCache.get(g);
  if (!memo) packsCache.set(g, (memo = new Map()));
  const hit = memo.get(tech);
  if (hit) return hit;
  const visiting = new Set<string>();
  const stack: Array<{ t: string; expanded: boolean }> = [{ t: tech, expanded: false }];
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (memo.has(top.t)) {
      stack.pop();
      continue;
    }
    const prereqs = g.technologies.get(top.t)?.prerequisites ?? [];
    if (!top.expanded) {
      top.expanded = true;
      visiting.add(top.t);
      for (const p of prereqs) if (!memo.has(p) && !visiting.has(p)) stack.push({ t: p, expanded: false });
      continue;
    }
    stack.pop();
    visiting.delete(top.t);
    const packs = new Set<string>();
    for (const i of g.technologies.get(top.t)?.ingredients ?? []) packs.add(i.pack);
    for (const p of prereqs) for (const x of memo.get(p) ?? []) packs.add(x);
    memo.set(top.t, packs);
  }
  return memo.get(tech)!;
}

export class Availability {
  readonly mode: ResearchMode;
  private readonly techCache = new Map<string, { reachable: boolean; missing: string[] }>();
  private readonly recipeCache = new Map<string, RecipeAvailability>();
  private readonly gateCache = new Map<string, ResearchGate>();
  private readonly machineCache = new Map<string, MachineAvailability>();
  private readonly verdictCache = new Map<string, CandidateVerdict>();
  private readonly machineVerdictCache = new Map<string, CandidateVerdict>();
  private readonly itemCache = new Map<string, MachineAvailability>();
  private readonly itemVerdictCache = new Map<string, CandidateVerdict>();
  private readonly packs: Set<string>;
  readonly targetTech: string | null;
  /** Target mode: what the horizon covers (null in other modes). */
  readonly targetScope: TargetScope | null;
  private readonly excludeRe: RegExp[];
  private targetReach: { closure: Set<string> | null; added: { techs: string[]; unmakeable: string[] } } | undefined;

  constructor(
    readonly g: GameIndex,
    readonly state: PlanningState,
  ) {
    this.mode = state.settings.research_mode;
    this.packs = new Set(state.settings.available_science_packs);
    this.excludeRe = state.settings.exclusions.map(globToRegExp);
    this.targetTech = this.mode === 'target' ? this.findTargetTech(state.settings.horizon_target) : null;
    this.targetScope = this.mode === 'target' ? targetScope(g, state.settings) : null;
  }

  /** Target mode: techs in the closure of the target's unlocking technology (and, scope `make`, what making the target takes). */
  get targetClosure(): Set<string> | null {
    return this.reachOfTarget().closure;
  }

  /** Scope `make`: the technologies making the target adds to the prerequisite closure (prerequisite
   *  order), and goods on its chains nothing researchable makes. Empty otherwise. */
  get targetAdded(): { techs: string[]; unmakeable: string[] } {
    return this.reachOfTarget().added;
  }

  /**
   * Worked out at the first question that needs it, not when the horizon is set up: "able to make"
   * walks every recipe (a tenth of a second and more on full Py), and a process that only searches
   * names or reads a good (a `pyops tool` call) never asks.
   */
  private reachOfTarget(): NonNullable<Availability['targetReach']> {
    if (this.targetReach) return this.targetReach;
    const t = this.targetTech;
    const base = this.mode === 'target' ? (t ? this.closure(t) : new Set<string>()) : null;
    const target = this.state.settings.horizon_target;
    let reach: NonNullable<Availability['targetReach']> = { closure: base, added: { techs: [], unmakeable: [] } };
    if (base && this.targetScope === 'make' && target && (this.g.goods.has(target) || this.g.technologies.has(target))) {
      const m = makeClosure({ g: this.g, researched: this.state.researched, base, target, targetTech: t, isExcluded: (n) => this.isExcluded(n) });
      reach = { closure: m.techs, added: { techs: m.added, unmakeable: m.unmakeable } };
    }
    return (this.targetReach = reach);
  }

  private readonly excludedCache = new Map<string, boolean>();

  /** Hidden from every list and search (exclusion globs on name, category or subgroup). */
  isExcluded(name: string): boolean {
    const hit = this.excludedCache.get(name);
    if (hit !== undefined) return hit;
    const good = this.g.goods.get(name);
    const keys = [name, ...(this.g.recipeTags.get(name) ?? []), good?.subgroup].filter((x): x is string => !!x);
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
    return packsOver(this.g, t).size;
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

  researchGate(name: string): ResearchGate {
    const hit = this.gateCache.get(name);
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
    const out: ResearchGate = {
      research,
      needsPacks: needs,
      unlockTechs,
      turd,
      availableNow: reachable && turd?.state !== 'blocked',
      buildableNow: reachable && (!turd || turd.state === 'active'),
      unlockedInSave: (rec.enabled || rec.synthetic || unlockTechs.some((t) => this.state.researched.has(t))) && (!turd || turd.state === 'active'),
    };
    this.gateCache.set(name, out);
    return out;
  }

  /** The one verdict on a recipe under the horizon: research, TURD branch, a machine to run it, supersession. */
  recipe(name: string): RecipeAvailability {
    const hit = this.recipeCache.get(name);
    if (hit) return hit;
    const gate = this.researchGate(name); // throws on an unknown recipe
    const rec = this.g.recipes.get(name)!;
    const machineless = MACHINELESS_KINDS.has(rec.kind);
    const machines = this.machinesOf(rec);
    const machineAvailable = machineless || machines.some((m) => this.machine(m.name).availableNow);
    const machineBuildable = machineless || machines.some((m) => this.machine(m.name).buildableNow);
    const availableNow = gate.availableNow && machineAvailable;
    const buildableNow = gate.buildableNow && machineBuildable;
    const supersededBy = this.supersededBy(name);
    // Target plans toward the target's research, so a pickable TURD branch counts; Now and Future
    // need the branch selected (Future reaches every machine anyway).
    const selectable = (this.mode === 'target' ? availableNow : buildableNow) && !supersededBy;
    let rank: RecipeAvailability['rank'];
    let lockReason: string | undefined;
    if (supersededBy) {
      rank = 3;
      lockReason = `superseded by ${supersededBy.recipe} (TURD branch ${supersededBy.branch} is selected)`;
    } else if (!selectable) {
      rank = 2;
      if (!this.obtainable(rec)) lockReason = 'no technology unlocks it and it is not enabled from the start';
      else if (gate.research === 'needs-research') lockReason = gate.needsPacks.length ? `needs research with ${gate.needsPacks.join(', ')}` : `its technology is outside the ${this.mode} horizon`;
      else if (gate.turd?.state === 'blocked') lockReason = `TURD master ${gate.turd.master} has another branch selected`;
      else if (gate.turd && gate.turd.state !== 'active' && this.mode !== 'target') lockReason = `needs TURD branch ${gate.turd.branch} of ${gate.turd.master} (not selected)`;
      else if (!(this.mode === 'target' ? machineAvailable : machineBuildable)) {
        lockReason = this.byHandOnly(rec) ? 'crafted by hand only: no building can run it' : machines.length ? 'no machine for it is available yet' : 'no machine can run it';
      }
      else lockReason = 'not reachable under this horizon';
    } else {
      const machineInSave = machineless || machines.some((m) => this.machineUnlockedInSave(m));
      rank = gate.unlockedInSave && machineInSave ? 0 : 1;
    }
    const out: RecipeAvailability = {
      research: gate.research,
      needsPacks: gate.needsPacks,
      unlockedBy: rec.unlockedBy,
      turd: gate.turd,
      availableNow,
      buildableNow,
      supersededBy,
      unlockedInSave: gate.unlockedInSave,
      selectable,
      rank,
      lockState: LOCK[rank],
      ...(lockReason ? { lockReason } : {}),
    };
    this.recipeCache.set(name, out);
    return out;
  }

  /** Enabled from the start, synthetic, or unlocked by some technology (a TURD branch included). */
  private obtainable(rec: Recipe): boolean {
    return rec.enabled || rec.synthetic || rec.unlockedBy.length > 0;
  }

  /** The player's hand crafts it and no building can ever run it (none is placed by an item). */
  private byHandOnly(rec: Recipe): boolean {
    return !MACHINELESS_KINDS.has(rec.kind) && this.g.handCraftable(rec) && !this.machinesOf(rec).some((m) => !(m.hidden && !m.item));
  }

  /** Machines that can run a recipe (excluded ones left out); none for machineless kinds. */
  private machinesOf(rec: Recipe): Machine[] {
    return MACHINELESS_KINDS.has(rec.kind) ? [] : this.g.machinesFor(rec).filter((m) => !this.isExcluded(m.name));
  }

  /**
   * A recipe's verdict as one state and what is left to do (`needs`), for tool results. The state
   * names the first blocker in the order of `lockReason` (superseded, research, a blocked TURD
   * branch, a machine, a TURD pick); `needs` lists everything still missing, so a model knows the
   * next step without reading flags. A usable recipe (unlocked, buildable) lists nothing: research
   * under the horizon reaches all it takes, and repeating that on every row (all of Future's) costs
   * a model more than it tells — recipeInfo's unlocks and researchPath give it.
   */
  recipeVerdict(name: string): CandidateVerdict {
    const hit = this.verdictCache.get(name);
    if (hit) return hit;
    const av = this.recipe(name); // throws on an unknown recipe
    const rec = this.g.recipes.get(name)!;
    const machineless = MACHINELESS_KINDS.has(rec.kind);
    const machines = this.machinesOf(rec);
    const machineOk = machineless || machines.some((m) => (this.mode === 'target' ? this.machine(m.name).availableNow : this.machine(m.name).buildableNow));
    let state: CandidateState;
    if (av.supersededBy) state = 'superseded';
    else if (!this.obtainable(rec)) state = 'unobtainable';
    else if (av.research === 'needs-research') state = 'needs-research';
    else if (av.turd?.state === 'blocked') state = 'turd-blocked';
    else if (!machineOk) state = this.byHandOnly(rec) ? 'by-hand' : 'no-machine';
    else if (av.turd && av.turd.state !== 'active') state = 'turd-pick';
    else state = av.rank === 0 ? 'unlocked' : 'buildable';

    let out: CandidateVerdict;
    // Nothing to do for the first two, nothing that can be done for the last two.
    if (state === 'unlocked' || state === 'buildable' || state === 'unobtainable' || state === 'by-hand') out = { state };
    else if (av.supersededBy) out = { state, needs: { use: av.supersededBy } };
    else {
      const needs: CandidateNeeds = {};
      if (av.research === 'needs-research' || av.research === 'available') {
        const techs = [...new Set(this.researchGate(name).unlockTechs)].filter((t) => !this.state.researched.has(t));
        needs.research = techs.sort((a, b) => this.tier(a) - this.tier(b) || (a < b ? -1 : 1)).slice(0, 3);
      }
      if (av.needsPacks.length) needs.packs = av.needsPacks;
      if (av.turd && av.turd.state !== 'active') {
        const selected = this.state.turd.get(av.turd.master)?.branch;
        needs.turd = { master: av.turd.master, branch: av.turd.branch, ...(av.turd.state === 'blocked' && selected ? { selected } : {}) };
      }
      if (!machineless && !machines.some((m) => this.machineUnlockedInSave(m))) {
        needs.machine = this.machineToUnlock(rec, machines);
        // The machine's packs are said once when its technology is among the recipe's own.
        if (needs.machine.research && needs.research?.includes(needs.machine.research)) delete needs.machine.packs;
      }
      out = { state, ...(Object.keys(needs).length ? { needs } : {}) };
    }
    this.verdictCache.set(name, out);
    return out;
  }

  /** A machine's verdict in the same words: can it be built under the horizon, and what unlocks it. */
  machineVerdict(name: string): CandidateVerdict {
    const hit = this.machineVerdictCache.get(name);
    if (hit) return hit;
    const m = this.g.machines.get(name);
    const out: CandidateVerdict = !m || (m.hidden && !m.item) ? { state: 'no-machine' } : this.itemVerdict(m.item);
    this.machineVerdictCache.set(name, out);
    return out;
  }

  /**
   * The verdict on a placed item — a machine's, a module's, a beacon's — from the research gates of
   * the recipes that make it: buildable under the horizon, else the research or TURD pick it needs.
   * An item nothing makes (or no item at all) is never gated.
   */
  itemVerdict(item: string | null): CandidateVerdict {
    const key = item ?? '';
    const hit = this.itemVerdictCache.get(key);
    if (hit) return hit;
    const av = this.itemAvailability(item);
    const research = (): CandidateNeeds | null => {
      const u = this.itemUnlock(av.madeBy);
      if (!u) return null;
      return this.state.researched.has(u.technology) ? {} : { research: [u.technology], ...(u.missingPacks.length ? { packs: u.missingPacks } : {}) };
    };
    const withNeeds = (state: CandidateState, needs: CandidateNeeds): CandidateVerdict => ({ state, ...(Object.keys(needs).length ? { needs } : {}) });
    let out: CandidateVerdict;
    if (av.buildableNow) out = { state: this.itemUnlockedInSave(av) ? 'unlocked' : 'buildable' };
    else {
      const gates = av.madeBy.map((r) => this.researchGate(r)).filter((x) => x.research !== 'needs-research' && x.turd);
      const pick = gates.find((x) => x.turd!.state === 'pickable') ?? gates.find((x) => x.turd!.state === 'blocked');
      if (pick) {
        const t = pick.turd!;
        const selected = this.state.turd.get(t.master)?.branch;
        out = { state: t.state === 'pickable' ? 'turd-pick' : 'turd-blocked', needs: { turd: { master: t.master, branch: t.branch, ...(t.state === 'blocked' && selected ? { selected } : {}) } } };
      } else {
        const needs = research();
        // No recipe making it is enabled or unlocked by any technology: nothing to research.
        out = needs ? withNeeds('needs-research', needs) : { state: 'unobtainable' };
      }
    }
    this.itemVerdictCache.set(key, out);
    return out;
  }

  /** The machine to unlock for a recipe none of whose machines is in the save: the cheapest to
   *  unlock (reachable under the horizon first, then the lowest-tier technology, then the fastest). */
  private machineToUnlock(rec: Recipe, machines: Machine[]): NonNullable<CandidateNeeds['machine']> {
    const visible = machines.filter((m) => !(m.hidden && !m.item));
    if (!visible.length) return { name: null };
    const key = (m: Machine) => {
      const u = this.machineUnlock(m);
      return { far: this.machine(m.name).availableNow ? 0 : 1, tier: u ? this.tier(u.technology) : Infinity };
    };
    const keys = new Map(visible.map((m) => [m.name, key(m)]));
    const pick = [...visible].sort((a, b) => {
      const x = keys.get(a.name)!;
      const y = keys.get(b.name)!;
      return x.far - y.far || x.tier - y.tier || b.speed - a.speed || (a.name < b.name ? -1 : 1);
    })[0];
    const u = this.machineUnlock(pick);
    if (!u || this.state.researched.has(u.technology)) return { name: pick.name };
    return { name: pick.name, research: u.technology, ...(u.missingPacks.length ? { packs: u.missingPacks } : {}) };
  }

  private machineUnlockedInSave(m: Machine): boolean {
    return this.itemUnlockedInSave(this.machine(m.name));
  }

  private itemUnlockedInSave(av: MachineAvailability): boolean {
    if (!av.buildableNow && !av.availableNow) return false;
    if (!av.madeBy.length) return true;
    return av.madeBy.some((r) => this.researchGate(r).unlockedInSave);
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
    // A hidden machine no item places (Py's "-legacy" variants, crash-site wrecks) cannot be built.
    const out = !m || (m.hidden && !item) ? { availableNow: false, buildableNow: false, madeBy: [] } : this.itemAvailability(item);
    this.machineCache.set(name, out);
    return out;
  }

  /** A placed item's availability: the research gate of the recipes that make it. Machines, modules
   *  and beacons are placed items, and the full recipe verdict (which asks for a machine) would go
   *  round in circles. */
  itemAvailability(item: string | null): MachineAvailability {
    const key = item ?? '';
    const hit = this.itemCache.get(key);
    if (hit) return hit;
    const madeBy = item ? this.g.producersOf(item).filter((r) => !this.g.recipes.get(r)!.synthetic) : [];
    let out: MachineAvailability;
    if (this.mode === 'future') out = { availableNow: true, buildableNow: true, madeBy };
    else if (!item || madeBy.length === 0) out = { availableNow: true, buildableNow: true, madeBy }; // nothing gates it
    else out = { availableNow: madeBy.some((r) => this.researchGate(r).availableNow), buildableNow: madeBy.some((r) => this.researchGate(r).buildableNow), madeBy };
    this.itemCache.set(key, out);
    return out;
  }

  /** The one default-machine rule used everywhere (solves, drafts, options, calcRecipe, bills). */
  defaultMachine(recipe: Recipe | string): DefaultMachine {
    const rec = typeof recipe === 'string' ? this.g.recipes.get(recipe) : recipe;
    if (!rec) return { machine: null, rule: 'none', explanation: `unknown recipe`, buildable: false };
    // Excluded machines never count; hidden ones only when nothing visible can run the recipe.
    const all = this.g.machinesFor(rec).filter((m) => !this.isExcluded(m.name));
    const visible = all.filter((m) => !m.hidden);
    const candidates = visible.length ? visible : all;
    if (this.byHandOnly(rec)) return { machine: null, rule: 'by-hand', explanation: 'crafted by hand: no building can run it', buildable: true };
    if (!candidates.length) return { machine: null, rule: 'none', explanation: `no machine can run recipe ${rec.name} (category ${rec.category})`, buildable: false };
    const fastest = (ms: Machine[]) => [...ms].sort((a, b) => b.speed - a.speed || a.energyUsageW - b.energyUsageW || a.name.localeCompare(b.name))[0];
    const favs = this.state.settings.favorite_machines;
    for (const c of rec.categories) {
      const f = favs[c];
      const fm = f ? candidates.find((m) => m.name === f) : undefined;
      if (fm && this.machine(fm.name).buildableNow) return { machine: fm, rule: 'favorite', explanation: `${fm.display} is your favorite for ${c}`, buildable: true };
    }
    const buildable = candidates.filter((m) => this.machine(m.name).buildableNow);
    if (buildable.length) return { machine: fastest(buildable), rule: 'fastest-buildable', explanation: 'fastest buildable machine (no buildable favorite set for this category)', buildable: true };
    const available = candidates.filter((m) => this.machine(m.name).availableNow);
    const m = this.nearest(available.length ? available : candidates);
    const explanation = available.length
      ? `no machine for it is buildable under the ${this.mode} horizon; the machine reachable by research that needs the least of it`
      : `no machine for it is buildable under the ${this.mode} horizon; the machine nearest in research (none is reachable yet)`;
    return { machine: m, rule: 'none-buildable', explanation, ...this.notBuildable(m) };
  }

  /**
   * Among machines none of which can be built yet, the one the player gets first: fewest science packs
   * over its unlock's prerequisites, then fewest technologies still to research, then the fastest. A
   * player with nothing researched is pointed at assembling machine 1, not at the fastest machine of
   * the tree (whose research path would fill the draft).
   */
  private nearest(ms: Machine[]): Machine {
    const d = new Map(ms.map((m) => [m.name, this.researchDistance(m)]));
    const cmp = (x: number, y: number) => (x === y ? 0 : x < y ? -1 : 1);
    return [...ms].sort((a, b) => {
      const [da, db] = [d.get(a.name)!, d.get(b.name)!];
      return cmp(da[0], db[0]) || cmp(da[1], db[1]) || b.speed - a.speed || a.energyUsageW - b.energyUsageW || a.name.localeCompare(b.name);
    })[0];
  }

  /** Per machine, fixed for this horizon: [packs over its unlock's closure, technologies still to research]. */
  private readonly distanceCache = new Map<string, [number, number]>();
  private researchDistance(m: Machine): [number, number] {
    const hit = this.distanceCache.get(m.name);
    if (hit) return hit;
    const u = this.machineUnlock(m);
    let out: [number, number] = [Infinity, Infinity];
    if (u) {
      let todo = 0;
      for (const t of this.closure(u.technology)) if (!this.state.researched.has(t)) todo++;
      out = [this.tier(u.technology), todo];
    }
    this.distanceCache.set(m.name, out);
    return out;
  }

  /** A row's machine: the one it names when that machine can run the recipe, else the default rule. */
  chooseMachine(recipe: Recipe, named?: string | null): DefaultMachine {
    const m = named ? this.g.machines.get(named) : undefined;
    if (!m || !this.g.machinesFor(recipe).some((x) => x.name === m.name)) return this.defaultMachine(recipe);
    if (this.machine(m.name).buildableNow) return { machine: m, rule: 'user', explanation: 'named for this row', buildable: true };
    return { machine: m, rule: 'user', explanation: 'named for this row', ...this.notBuildable(m) };
  }

  private notBuildable(m: Machine): Pick<DefaultMachine, 'buildable' | 'needs' | 'warning'> {
    const needs = this.machineUnlock(m);
    const why = needs ? unlockedBy(needs.display, needs.technology, needs.missingPacks) : NO_RESEARCH;
    return { buildable: false, needs, warning: `${m.display} [${m.name}] is not buildable under the ${this.mode} horizon: ${why}.` };
  }

  /** The lowest-tier technology unlocking a recipe that makes the machine's item (ties by name). */
  machineUnlock(m: Machine): { technology: string; display: string; missingPacks: string[] } | null {
    return this.itemUnlock(this.machine(m.name).madeBy);
  }

  private itemUnlock(madeBy: string[]): { technology: string; display: string; missingPacks: string[] } | null {
    let best: { t: string; tier: number } | null = null;
    for (const r of madeBy) {
      for (const t of this.researchGate(r).unlockTechs) {
        const tier = this.tier(t);
        if (!best || tier < best.tier || (tier === best.tier && t < best.t)) best = { t, tier };
      }
    }
    if (!best) return null;
    return { technology: best.t, display: this.g.technologies.get(best.t)?.display ?? best.t, missingPacks: this.tech(best.t).missing };
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
    for (const { branch } of this.state.turd.values()) for (const m of this.g.turdBranches.get(branch)?.modules ?? []) out.push(m);
    return out;
  }
}

export function globToRegExp(glob: string): RegExp {
  return new RegExp('^' + glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
}
