// Items (every item-like prototype type), modules, fluids, item groups and subgroups.
import type { Ctx } from './context';
import { b } from './context';
import { fluidSchema, itemGroupSchema, itemSubgroupSchema, itemSchema, moduleSchema } from '../dump/schema';
import { ELECTRICITY, FLUID_FUEL, HEAT } from '../model';

/** Prototype types whose entries are items (they can sit in an inventory). */
export const ITEM_TYPES = [
  'item', 'ammo', 'armor', 'blueprint', 'blueprint-book', 'capsule', 'copy-paste-tool', 'deconstruction-item', 'gun',
  'item-with-entity-data', 'item-with-inventory', 'item-with-label', 'item-with-tags', 'module', 'rail-planner',
  'repair-tool', 'selection-tool', 'space-platform-starter-pack', 'spidertron-remote', 'tool', 'upgrade-item',
] as const;

const FLUID_DEFAULT_TEMPERATURE = 15;

export function normalizeGroups(ctx: Ctx): void {
  for (const g of ctx.protos('item-group', itemGroupSchema)) {
    ctx.out.item_groups.push({ name: g.name, display: ctx.display('item-group', g), order_key: g.order ?? null });
  }
  for (const s of ctx.protos('item-subgroup', itemSubgroupSchema)) {
    ctx.out.item_subgroups.push({ name: s.name, group_name: s.group ?? null, order_key: s.order ?? null });
  }
}

export function normalizeItems(ctx: Ctx): void {
  const seen = new Set<string>();
  for (const type of ITEM_TYPES) {
    const schema = type === 'module' ? moduleSchema : itemSchema;
    for (const it of ctx.protos(type, schema)) {
      if (seen.has(it.name)) {
        ctx.warn(`item "${it.name}" is defined under several item types; keeping the first`);
        continue;
      }
      seen.add(it.name);
      const hidden = it.hidden === true || (it.flags ?? []).includes('hidden');
      const display = ctx.display('item', it, () =>
        it.place_result ? ctx.locale.name('entity', { name: it.place_result }) : undefined,
      );
      ctx.goodDisplay.set(it.name, display);
      ctx.out.items.push({
        name: it.name,
        type,
        display,
        subgroup: it.subgroup ?? null,
        order_key: it.order ?? null,
        stack_size: it.stack_size ?? null,
        weight: it.weight ?? null,
        fuel_value_j: it.fuel_value !== undefined ? ctx.energy(it.fuel_value, `${type} "${it.name}".fuel_value`, 'J') || null : null,
        fuel_category: it.fuel_category ?? null,
        spoil_result: it.spoil_result ?? null,
        spoil_ticks: it.spoil_ticks ?? null,
        burnt_result: it.burnt_result ?? null,
        plant_result: it.plant_result ?? null,
        place_result: it.place_result ?? null,
        hidden: hidden ? 1 : 0,
      });
      if (type === 'module') {
        const m = it as ReturnType<typeof moduleSchema.parse>;
        const eff = (k: string): number => {
          const v = m.effect?.[k];
          return typeof v === 'number' ? v : (v?.bonus ?? 0);
        };
        ctx.out.modules.push({
          name: m.name,
          category: m.category,
          tier: m.tier ?? null,
          hidden: hidden ? 1 : 0,
          speed: eff('speed'),
          productivity: eff('productivity'),
          consumption: eff('consumption'),
          pollution: eff('pollution'),
          quality: eff('quality'),
          limitation: ctx.limitations.add(m.name, m.limitation ?? []),
        });
      }
    }
  }
}

export function normalizeFluids(ctx: Ctx): void {
  for (const f of ctx.protos('fluid', fluidSchema)) {
    const display = ctx.display('fluid', f);
    ctx.goodDisplay.set(f.name, display);
    const t0 = f.default_temperature ?? FLUID_DEFAULT_TEMPERATURE;
    ctx.out.fluids.push({
      name: f.name,
      display,
      subgroup: f.subgroup ?? null,
      order_key: f.order ?? null,
      default_temperature: t0,
      max_temperature: f.max_temperature ?? t0,
      fuel_value_j: f.fuel_value !== undefined ? ctx.energy(f.fuel_value, `fluid "${f.name}".fuel_value`, 'J') || null : null,
      heat_capacity_j: f.heat_capacity !== undefined ? ctx.energy(f.heat_capacity, `fluid "${f.name}".heat_capacity`, 'J') : 1000,
      synthetic: 0,
      hidden: b(f.hidden),
    });
  }
  addEnergyGoods(ctx);
}

/** The energy pseudo-goods every game data holds: 1 unit = 1 MJ, so a rate is MW. */
export function addEnergyGoods(ctx: Ctx): void {
  for (const [name, display] of [
    [ELECTRICITY, 'Electricity (MJ)'],
    [HEAT, 'Heat (MJ)'],
    [FLUID_FUEL, 'Fluid fuel (MJ)'],
  ] as const) {
    if (ctx.goodDisplay.has(name)) continue;
    ctx.goodDisplay.set(name, display);
    ctx.out.fluids.push({
      name, display, subgroup: null, order_key: null, default_temperature: 0, max_temperature: 0,
      fuel_value_j: null, heat_capacity_j: null, synthetic: 1, hidden: 0,
    });
  }
}
