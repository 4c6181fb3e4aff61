// Technologies: prerequisites, recipe unlocks, research cost (count or formula, time, packs) or
// trigger, and the bonuses planning cares about (recipe and mining productivity, stack sizes).
import type { Ctx } from './context';
import { b, json } from './context';
import { technologySchema } from '../dump/schema';

export function normalizeTechnologies(ctx: Ctx): void {
  for (const t of ctx.protos('technology', technologySchema)) {
    ctx.out.technologies.push({
      name: t.name,
      display: ctx.display('technology', t),
      unit_count: t.unit?.count ?? null,
      unit_count_formula: t.unit?.count_formula ?? null,
      unit_time: t.unit?.time ?? null,
      research_trigger: json(t.research_trigger ?? null),
      enabled: b(t.enabled, true),
      hidden: b(t.hidden),
      upgrade: b(t.upgrade),
      max_level: t.max_level === undefined ? null : String(t.max_level),
      is_turd: 0,
    });
    for (const p of new Set(t.prerequisites ?? [])) ctx.out.tech_prerequisites.push({ tech: t.name, prerequisite: p });
    const packs = new Map<string, number>();
    for (const [pack, amount] of t.unit?.ingredients ?? []) packs.set(pack, (packs.get(pack) ?? 0) + amount);
    for (const [pack, amount] of packs) ctx.out.tech_ingredients.push({ tech: t.name, pack, amount });
    const unlocked = new Set<string>();
    const prodRecipes = new Map<string, number>();
    (t.effects ?? []).forEach((e, idx) => {
      const eff = e as Record<string, unknown>;
      if (e.type === 'unlock-recipe' && typeof eff.recipe === 'string') {
        if (!unlocked.has(eff.recipe)) ctx.out.tech_unlocks.push({ tech: t.name, recipe: eff.recipe });
        unlocked.add(eff.recipe);
      } else if (e.type === 'change-recipe-productivity' && typeof eff.recipe === 'string' && typeof eff.change === 'number') {
        prodRecipes.set(eff.recipe, (prodRecipes.get(eff.recipe) ?? 0) + eff.change);
      } else if (e.type === 'mining-drill-productivity-bonus' && typeof eff.modifier === 'number') {
        prodRecipes.set('', (prodRecipes.get('') ?? 0) + eff.modifier);
      } else if (e.type !== 'nothing') {
        ctx.out.tech_bonuses.push({ tech: t.name, idx, type: e.type, modifier: typeof eff.modifier === 'number' ? eff.modifier : null });
      }
    });
    for (const [recipe, modifier] of prodRecipes) ctx.out.tech_productivity_bonuses.push({ tech: t.name, recipe, modifier });
  }
}
