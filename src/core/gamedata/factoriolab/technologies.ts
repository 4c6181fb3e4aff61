// Technologies of a FactorioLab data set: prerequisites and unlocked recipes from the technology
// block, the research cost from the technology's pseudo-recipe — science packs and time per unit.
// The set does not say how many units a technology takes, so the count stays unknown (null), as it
// is for a trigger technology in a dump.
import type { FlabCtx } from './entries';
import { recipeName } from './recipes';

export function flabTechnologies(f: FlabCtx): void {
  const out = f.ctx.out;
  const names = new Map(f.data.recipes.map((r) => [r.id, recipeName(r)]));
  for (const e of f.data.items) {
    const t = e.technology;
    if (!t) continue;
    const name = f.techName(e.id);
    const cost = f.techRecipes.get(e.id);
    out.technologies.push({
      name, display: e.name, unit_count: null, unit_count_formula: null, unit_time: cost?.time ?? null, research_trigger: null,
      enabled: 1, hidden: 0, upgrade: 0, max_level: null, is_turd: 0,
    });
    for (const pre of new Set(t.prerequisites ?? [])) out.tech_prerequisites.push({ tech: name, prerequisite: f.kinds.get(pre) === 'technology' ? f.techName(pre) : pre });
    for (const r of new Set(t.unlockedRecipes ?? [])) out.tech_unlocks.push({ tech: name, recipe: names.get(r) ?? r });
    for (const [pack, amount] of Object.entries(cost?.in ?? {})) out.tech_ingredients.push({ tech: name, pack, amount });
  }
}
