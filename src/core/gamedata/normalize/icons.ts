// Icon specs for what the planner shows: goods, recipes (a recipe without its own icon shows its
// main product's, as in the game; a synthesized one its product's, else its building's or what it
// burns), the entities it plans with and technologies. Runs after synthesis so planner recipes get
// icons too.
import type { Ctx } from './context';
import { ITEM_TYPES } from './goods';
import { iconSpecOf, type IconKind, type IconSpec } from '../icons/spec';

/** Prototype types that are not entities, so a name found under them is no building. */
const NOT_ENTITY = new Set<string>([
  ...ITEM_TYPES, 'fluid', 'recipe', 'technology', 'item-group', 'item-subgroup', 'recipe-category', 'fuel-category',
  'resource-category', 'module-category', 'quality', 'tile', 'virtual-signal', 'shortcut', 'achievement', 'tips-and-tricks-item',
  'mod-data', 'utility-constants', 'utility-sprites', 'utility-sounds', 'gui-style', 'font', 'sprite', 'noise-expression',
  'noise-function', 'autoplace-control', 'map-settings', 'map-gen-presets', 'ambient-sound', 'custom-input', 'planet',
  'space-location', 'space-connection', 'surface', 'surface-property', 'ammo-category', 'damage-type', 'trivial-smoke',
  'particle', 'optimized-particle', 'airborne-pollutant', 'burner-usage', 'collision-layer', 'impact-category',
]);

function protoOf(ctx: Ctx, type: string, name: string): Record<string, unknown> | undefined {
  const p = ctx.raw[type]?.[name];
  return p && typeof p === 'object' ? (p as Record<string, unknown>) : undefined;
}

export function normalizeIcons(ctx: Ctx): void {
  const specs = new Map<string, IconSpec>();
  const put = (kind: IconKind, name: string, spec: IconSpec | undefined) => {
    if (!spec || specs.has(`${kind}\0${name}`)) return;
    specs.set(`${kind}\0${name}`, spec);
    ctx.out.icons.push({ kind, name, spec: JSON.stringify(spec) });
  };
  for (const it of ctx.out.items) {
    const proto = protoOf(ctx, it.type, it.name);
    if (proto) put('item', it.name, iconSpecOf(proto, 'item'));
  }
  for (const f of ctx.out.fluids) {
    const proto = protoOf(ctx, 'fluid', f.name);
    if (proto) put('fluid', f.name, iconSpecOf(proto, 'fluid'));
  }

  const entityNames = new Set<string>();
  for (const rows of [ctx.out.crafting_machines, ctx.out.beacons, ctx.out.resources, ctx.out.belts, ctx.out.loaders, ctx.out.inserters, ctx.out.labs]) {
    for (const r of rows) entityNames.add(r.name);
  }
  for (const r of ctx.out.recipes) if (r.source_entity) entityNames.add(r.source_entity);
  for (const [type, table] of Object.entries(ctx.raw)) {
    if (NOT_ENTITY.has(type) || !table || typeof table !== 'object') continue;
    for (const name of Object.keys(table)) {
      if (!entityNames.has(name)) continue;
      const proto = protoOf(ctx, type, name);
      if (proto) put('entity', name, iconSpecOf(proto, 'entity'));
    }
  }

  const good = (name: string | null) => (name ? (specs.get(`item\0${name}`) ?? specs.get(`fluid\0${name}`)) : undefined);
  // Burning a fluid makes only the MJ pseudo-good: such a recipe shows what it burns.
  const firstIngredient = new Map<string, string>();
  for (const i of ctx.out.recipe_ingredients) if (i.idx === 0 || !firstIngredient.has(i.recipe)) firstIngredient.set(i.recipe, i.name);
  for (const r of ctx.out.recipes) {
    const proto = r.synthetic ? undefined : protoOf(ctx, 'recipe', r.name);
    const own = proto ? iconSpecOf(proto, 'recipe') : undefined;
    const entity = r.source_entity ? specs.get(`entity\0${r.source_entity}`) : undefined;
    put('recipe', r.name, own ?? good(r.main_product) ?? entity ?? good(firstIngredient.get(r.name) ?? null));
  }
  for (const t of ctx.out.technologies) {
    const proto = protoOf(ctx, 'technology', t.name);
    if (proto) put('technology', t.name, iconSpecOf(proto, 'technology'));
  }
}
