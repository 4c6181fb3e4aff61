// Cross-references a planner relies on. A dangling ingredient, product, prerequisite or unlock
// means the dump is inconsistent (a mod removed something another still uses); it is reported
// rather than guessed around. Optional links (burnt/spoil results, placing items) only warn.
import type { Ctx } from './context';

export function validateReferences(ctx: Ctx): void {
  const out = ctx.out;
  const items = new Set(out.items.map((i) => i.name));
  const fluids = new Set(out.fluids.map((f) => f.name));
  const recipes = new Set(out.recipes.map((r) => r.name));
  const techs = new Set(out.technologies.map((t) => t.name));
  const has = (kind: 'item' | 'fluid', n: string) => (kind === 'item' ? items : fluids).has(n);

  for (const i of out.recipe_ingredients) {
    if (!has(i.kind, i.name)) ctx.problem(`recipe "${i.recipe}" uses unknown ${i.kind} "${i.name}"`);
  }
  for (const p of out.recipe_products) {
    if (!has(p.kind, p.name)) ctx.problem(`recipe "${p.recipe}" produces unknown ${p.kind} "${p.name}"`);
  }
  for (const p of out.tech_prerequisites) {
    if (!techs.has(p.prerequisite)) ctx.problem(`technology "${p.tech}" requires unknown technology "${p.prerequisite}"`);
  }
  for (const u of out.tech_unlocks) {
    if (!recipes.has(u.recipe)) ctx.problem(`technology "${u.tech}" unlocks unknown recipe "${u.recipe}"`);
  }
  for (const t of out.tech_ingredients) {
    if (!items.has(t.pack)) ctx.problem(`technology "${t.tech}" is researched with unknown item "${t.pack}"`);
  }
  for (const it of out.items) {
    for (const [field, ref] of [['burnt_result', it.burnt_result], ['spoil_result', it.spoil_result]] as const) {
      if (ref && !items.has(ref)) {
        ctx.warn(`item ${it.name}.${field} names unknown item ${ref}; ignored`);
        (it as unknown as Record<string, unknown>)[field] = null;
      }
    }
  }
  for (const m of out.crafting_machines) {
    if (m.item && !items.has(m.item)) m.item = null;
    if (m.fixed_recipe && !recipes.has(m.fixed_recipe)) {
      ctx.warn(`machine ${m.name} is fixed to unknown recipe ${m.fixed_recipe}; ignored`);
      m.fixed_recipe = null;
    }
  }
}
