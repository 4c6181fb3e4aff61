// Goods of a FactorioLab data set: groups (its UI categories and rows), items with their fuel and
// burnt result, fluids (each temperature variant is its own fluid, as the set lists it), modules with
// their limitation, and belts. Fuel values come in MJ, belt speeds in items per second.
import { addEnergyGoods } from '../normalize/goods';
import type { FlabCtx } from './entries';
import { nameTemperature, tierOf } from './entries';

/** Factorio's default temperature of a fluid prototype that names none. */
const FLUID_DEFAULT_TEMPERATURE = 15;
const MJ = 1e6;
/** A full belt (both lanes) moves speed (tiles/tick) × 480 items per second. */
const BELT_ITEMS_PER_SPEED = 480;
/** FactorioLab's limitation keys of the base game's modules, which are module categories in the game. */
const BASE_LIMITATIONS: Record<string, string> = { 'speed-module': 'speed', 'effectivity-module': 'effectivity', 'productivity-module': 'productivity' };

const PSEUDO_FLAGS = new Set(['mining', 'burn', 'technology']);

const subgroupOf = (category: string, row: number | undefined) => `${category}:${row ?? 0}`;

export function flabGoods(f: FlabCtx): void {
  const out = f.ctx.out;
  f.data.categories.forEach((c, i) => out.item_groups.push({ name: c.id, display: c.name, order_key: String(i).padStart(3, '0') }));
  const subgroups = new Set<string>();
  let order = 0;
  for (const e of f.data.items) {
    const kind = f.kinds.get(e.id);
    if (kind !== 'item' && kind !== 'fluid') continue;
    const subgroup = subgroupOf(e.category, e.row);
    if (!subgroups.has(subgroup)) {
      subgroups.add(subgroup);
      out.item_subgroups.push({ name: subgroup, group_name: e.category, order_key: String(e.row ?? 0).padStart(3, '0') });
    }
    const orderKey = String(order++).padStart(5, '0');
    f.ctx.goodDisplay.set(e.id, e.name);
    if (kind === 'item') {
      out.items.push({
        name: e.id,
        type: e.module ? 'module' : f.packs.has(e.id) ? 'tool' : 'item',
        display: e.name,
        subgroup,
        order_key: orderKey,
        stack_size: e.stack ?? null,
        weight: null,
        fuel_value_j: e.fuel ? e.fuel.value * MJ || null : null,
        fuel_category: e.fuel?.category ?? null,
        spoil_result: null,
        spoil_ticks: null,
        burnt_result: e.fuel?.result ?? null,
        plant_result: null,
        place_result: e.machine || e.beacon || e.belt ? e.id : null,
        hidden: 0,
      });
    } else {
      const t = nameTemperature(e.name) ?? FLUID_DEFAULT_TEMPERATURE;
      // A fluid's `fuel` is either a burnable value (category "fluid") or the heat it carries above
      // its default temperature ("fluid-heat"); only the first is a fuel value in the game's sense.
      const burnable = e.fuel && e.fuel.category !== 'fluid-heat' ? e.fuel.value * MJ || null : null;
      if (e.fuel?.category === 'fluid-heat') f.fluidHeat.set(e.id, e.fuel.value);
      out.fluids.push({
        name: e.id, display: e.name, subgroup, order_key: orderKey, default_temperature: t, max_temperature: t,
        fuel_value_j: burnable, heat_capacity_j: null, synthetic: 0, hidden: 0,
      });
    }
  }
  addEnergyGoods(f.ctx);
  flabModules(f);
  for (const e of f.data.items) {
    if (!e.belt) continue;
    out.belts.push({ name: e.id, display: e.name, speed: e.belt.speed / BELT_ITEMS_PER_SPEED, items_per_second: e.belt.speed, item: f.kinds.get(e.id) === 'item' ? e.id : null });
  }
}

/**
 * Modules and the recipes each may be used on. A limitation names recipes the set may not contain
 * (FactorioLab leaves out hidden and disabled ones); those are skipped and counted once.
 */
function flabModules(f: FlabCtx): void {
  const out = f.ctx.out;
  // Limitations name game recipes: never a pseudo-recipe (mining, burning, research) of the set.
  const recipes = new Set(f.data.recipes.filter((r) => !r.flags?.some((x) => PSEUDO_FLAGS.has(x))).map((r) => r.id));
  const limitations = f.data.limitations ?? {};
  // Several modules share one list (a tier family): each list is checked once.
  const known = new Map<string, { name: string | null; missing: number }>();
  let unknown = 0;
  for (const e of f.data.items) {
    const m = e.module;
    if (!m) continue;
    if (f.kinds.get(e.id) !== 'item') {
      f.ctx.problem(`items "${e.id}".module: a module must be an item (it has no stack size)`);
      continue;
    }
    let limitation: string | null = null;
    if (m.limitation) {
      const list = limitations[m.limitation];
      if (!list) {
        f.ctx.problem(`items "${e.id}".module.limitation: "${m.limitation}" is not a key of limitations`);
        continue;
      }
      let lim = known.get(m.limitation);
      if (!lim) {
        const all = [...new Set(list)];
        const usable = all.filter((r) => recipes.has(r));
        known.set(m.limitation, (lim = { name: f.ctx.limitations.add(m.limitation, usable), missing: all.length - usable.length }));
      }
      unknown += lim.missing;
      limitation = lim.name;
    }
    out.modules.push({
      name: e.id,
      category: m.limitation ? (BASE_LIMITATIONS[m.limitation] ?? m.limitation) : categoryOf(e.id, m),
      tier: tierOf(e.id),
      hidden: 0,
      speed: m.speed ?? 0,
      productivity: m.productivity ?? 0,
      consumption: m.consumption ?? 0,
      pollution: m.pollution ?? 0,
      quality: m.quality ?? 0,
      limitation,
    });
  }
  if (unknown) f.ctx.warn(`${unknown} module limitation entr${unknown === 1 ? 'y names a recipe' : 'ies name recipes'} the data set does not contain; ignored`);
}

/** 2.0 sets give modules no category: the game's four follow from their names, else from their main effect. */
function categoryOf(id: string, m: { speed?: number; productivity?: number; consumption?: number; quality?: number }): string {
  const named = /^(speed|productivity|efficiency|quality)-module/.exec(id)?.[1];
  if (named) return named;
  if ((m.productivity ?? 0) > 0) return 'productivity';
  if ((m.quality ?? 0) > 0) return 'quality';
  if ((m.speed ?? 0) > 0) return 'speed';
  return 'efficiency';
}
