// What each entry of a FactorioLab data set is. The format keeps items, fluids, technologies and
// script-placed entities in one `items` list: a technology has a `technology` block; an item has a
// stack size; an entry with neither is a fluid, unless it only describes an entity (a machine or
// beacon placed by a script, no item to hold it). Technology ids that collide with an item, recipe
// or category get FactorioLab's `-technology` suffix; the game's own name is restored here.
import { Ctx } from '../normalize/context';
import { emptyLocale, Localizer } from '../locale';
import type { FlabData, FlabItem, FlabRecipe } from './schema';

export type EntryKind = 'item' | 'fluid' | 'technology' | 'entity';

const TECH_SUFFIX = '-technology';

/** One normalization run over a data set: the dump normalizer's output context plus the set's indexes. */
export class FlabCtx {
  readonly ctx = new Ctx({}, new Localizer(emptyLocale()));
  readonly entries = new Map<string, FlabItem>();
  readonly kinds = new Map<string, EntryKind>();
  /** FactorioLab technology id → the game's technology name. */
  readonly techNames = new Map<string, string>();
  /** Technology id → its pseudo-recipe (packs per unit, time per unit). */
  readonly techRecipes = new Map<string, FlabRecipe>();
  /** Fluids whose `fuel` is heat above their default temperature (MJ per unit), not a burnable value. */
  readonly fluidHeat = new Map<string, number>();
  /** Science packs: what any technology pseudo-recipe takes. */
  readonly packs = new Set<string>();

  constructor(readonly data: FlabData) {
    for (const e of data.items) {
      if (this.entries.has(e.id)) this.ctx.problem(`items: "${e.id}" is listed twice; ids must be unique`);
      this.entries.set(e.id, e);
      this.kinds.set(e.id, kindOf(e));
    }
    const recipeIds = new Set(data.recipes.map((r) => r.id));
    const categoryIds = new Set(data.categories.map((c) => c.id));
    for (const [id, kind] of this.kinds) {
      if (kind !== 'technology') continue;
      const base = id.endsWith(TECH_SUFFIX) ? id.slice(0, -TECH_SUFFIX.length) : '';
      const restore = base !== '' && this.kinds.get(base) !== 'technology' && (this.kinds.has(base) || recipeIds.has(base) || categoryIds.has(base));
      this.techNames.set(id, restore ? base : id);
    }
    for (const r of data.recipes) {
      if (!r.flags?.includes('technology')) continue;
      const tech = Object.keys(r.out)[0];
      if (!tech || this.kinds.get(tech) !== 'technology') {
        this.ctx.problem(`recipes "${r.id}": a technology recipe must produce one technology of the items list (found ${tech ? `"${tech}"` : 'no output'})`);
        continue;
      }
      this.techRecipes.set(tech, r);
      for (const pack of Object.keys(r.in)) this.packs.add(pack);
    }
  }

  isGood(id: string): boolean {
    const k = this.kinds.get(id);
    return k === 'item' || k === 'fluid';
  }

  techName(id: string): string {
    return this.techNames.get(id) ?? id;
  }
}

function kindOf(e: FlabItem): EntryKind {
  if (e.technology) return 'technology';
  if (e.stack !== undefined) return 'item';
  if (e.machine || e.beacon || e.belt) return 'entity';
  return 'fluid';
}

/** `(500°C)` in a fluid variant's name: the temperature the variant stands for. */
export function nameTemperature(name: string): number | undefined {
  const m = /\((-?\d+(?:\.\d+)?)\s*\u00b0C\)/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** `speed-module-3` → 3, `moss-mk04` → 4; null when the name has no tier. */
export function tierOf(name: string): number | null {
  const m = /(?:-mk|-)(\d+)$/.exec(name);
  return m ? Number(m[1]) : null;
}

export function isTechRecipe(r: FlabRecipe): boolean {
  return r.flags?.includes('technology') ?? false;
}
