// Planner recipes the engine implies but data.raw does not list: mining each resource, offshore
// pumping, boiler and heat-exchanger conversions, generators and reactors (as producers of the
// energy pseudo-goods), fuel burning into burnt results, fluid fuel, and spoilage. Each is marked
// synthetic and names the entity it stands for.
import type { z } from 'zod';
import type { Ctx } from './normalize/context';
import { addMachine, RESOURCE_CATEGORY_PREFIX, type PowerEntities } from './normalize/entities';
import { resourceSchema, tileSchema } from './dump/schema';
import { ELECTRICITY, FLUID_FUEL, HEAT, VIRTUAL_CATEGORY, type GoodKind, type RecipeKind } from './model';

/** Average output of a solar panel over a Nauvis day, relative to its peak. */
export const SOLAR_DAY_AVERAGE = 0.7;

interface SynthGood { kind: GoodKind; name: string; amount: number; minTemp?: number | null; maxTemp?: number | null; temperature?: number | null; probability?: number; amountMin?: number; amountMax?: number }

interface SynthRecipe {
  name: string;
  display: string;
  kind: RecipeKind;
  category: string;
  energy: number;
  ingredients: SynthGood[];
  products: SynthGood[];
  sourceEntity: string | null;
  allowProductivity?: boolean;
}

function addRecipe(ctx: Ctx, names: Set<string>, r: SynthRecipe): void {
  if (names.has(r.name)) {
    ctx.warn(`synthetic recipe ${r.name} clashes with an existing recipe; skipped`);
    return;
  }
  names.add(r.name);
  ctx.out.recipes.push({
    name: r.name, display: r.display, kind: r.kind, category: r.category, energy_required: r.energy, enabled: 1, hidden: 0,
    allow_productivity: r.allowProductivity ? 1 : 0, maximum_productivity: null, allowed_effects: null,
    allowed_module_categories: null, main_product: r.products[0]?.name ?? null, source_entity: r.sourceEntity,
    synthetic: 1, subgroup: null, order_key: null,
  });
  ctx.out.recipe_categories.push({ recipe: r.name, category: r.category });
  r.ingredients.forEach((g, idx) =>
    ctx.out.recipe_ingredients.push({ recipe: r.name, idx, kind: g.kind, name: g.name, amount: g.amount, min_temp: g.minTemp ?? null, max_temp: g.maxTemp ?? null }),
  );
  r.products.forEach((g, idx) =>
    ctx.out.recipe_products.push({
      recipe: r.name, idx, kind: g.kind, name: g.name,
      amount: g.amountMin !== undefined ? null : g.amount, amount_min: g.amountMin ?? null, amount_max: g.amountMax ?? null,
      probability: g.probability ?? 1, temperature: g.temperature ?? null, ignored_by_productivity: 0,
    }),
  );
}

const fmtT = (t: number) => (Number.isInteger(t) ? String(t) : t.toFixed(1));

export interface SynthesisInput extends PowerEntities {
  resources: Array<z.output<typeof resourceSchema>>;
  tiles: Array<z.output<typeof tileSchema>>;
}

export function synthesize(ctx: Ctx, power: SynthesisInput): void {
  const out = ctx.out;
  const names = new Set(out.recipes.map((r) => r.name));
  const fluids = new Map(out.fluids.map((f) => [f.name, f]));
  const items = new Map(out.items.map((i) => [i.name, i]));
  const disp = (n: string) => ctx.goodDisplay.get(n) ?? n;
  const machineCategory = (machine: string, category: string) => out.machine_categories.push({ machine, category });

  // Mining: one recipe per resource, run by every drill of the resource's category.
  for (const r of power.resources) {
    const m = r.minable;
    const products: SynthGood[] = m.results?.length
      ? m.results.map((p) => ({
          kind: p.type === 'fluid' ? 'fluid' as const : 'item' as const, name: p.name, amount: p.amount ?? 0,
          amountMin: p.amount === undefined ? p.amount_min : undefined, amountMax: p.amount === undefined ? p.amount_max : undefined,
          probability: p.probability ?? 1,
        }))
      : m.result ? [{ kind: 'item', name: m.result, amount: m.count ?? 1 }] : [];
    if (!products.length) continue;
    const ingredients: SynthGood[] = m.required_fluid ? [{ kind: 'fluid', name: m.required_fluid, amount: (m.fluid_amount ?? 0) / 10 }] : [];
    addRecipe(ctx, names, {
      name: `mine-${r.name}`, display: `Mine ${ctx.display('entity', r)}`, kind: 'mining',
      category: RESOURCE_CATEGORY_PREFIX + (r.category ?? 'basic-solid'), energy: m.mining_time, ingredients, products,
      sourceEntity: r.name, allowProductivity: true,
    });
  }

  // Offshore pumps: the fluid comes from the pump (1.x, filters) or, in 2.0, from the water tiles.
  const tileFluids = [...new Set(power.tiles.map((t) => t.fluid).filter((f): f is string => !!f))].sort();
  for (const p of power.offshorePumps) {
    const own = p.fluid ?? p.fluid_box?.filter;
    const list = own ? [own] : tileFluids.length ? tileFluids : ['water'].filter((f) => fluids.has(f));
    const machine = addMachine(ctx, {
      name: p.name, kind: 'pump', type: 'offshore-pump', speed: 1, proto: p,
      usageW: p.energy_source?.type === 'void' ? 0 : ctx.energy(p.energy_usage, `offshore-pump "${p.name}".energy_usage`, 'W'),
      categories: [],
    });
    for (const f of list) {
      const name = list.length === 1 ? `pump-${p.name}` : `pump-${p.name}-${f}`;
      const category = `pyops-pump:${name}`;
      machineCategory(machine.name, category);
      addRecipe(ctx, names, {
        name, display: `Pump ${disp(f)} (${machine.display})`, kind: 'pumping', category, energy: 1, ingredients: [],
        products: [{ kind: 'fluid', name: f, amount: p.pumping_speed * 60 }], sourceEntity: p.name,
      });
    }
  }

  // Boilers and heat exchangers: one recipe per output fluid and temperature, amounts per MJ;
  // a boiler's "crafting speed" is its power in MW.
  const producedTemps = new Map<string, Set<number>>();
  const noteTemp = (f: string, t: number) => {
    const s = producedTemps.get(f) ?? new Set<number>();
    s.add(t);
    producedTemps.set(f, s);
  };
  for (const p of out.recipe_products) if (p.kind === 'fluid' && p.temperature !== null) noteTemp(p.name, p.temperature);
  const boilRecipeInput = new Map<string, string>();
  for (const bl of power.boilers) {
    const input = bl.fluid_box.filter;
    const output = bl.mode === 'heat-fluid-inside' ? input : (bl.output_fluid_box.filter ?? input);
    const powerW = ctx.energy(bl.energy_consumption, `boiler "${bl.name}".energy_consumption`, 'W');
    if (!input || !output || !fluids.has(input) || !fluids.has(output)) {
      ctx.warn(`boiler ${bl.name} has no input/output fluid filter the planner can use; skipped`);
      continue;
    }
    const fin = fluids.get(input)!;
    const fout = fluids.get(output)!;
    const target = bl.target_temperature ?? fout.max_temperature ?? fout.default_temperature;
    const perUnitJ = (target - fin.default_temperature) * (fout.heat_capacity_j ?? 1000);
    if (!(perUnitJ > 0) || !(powerW > 0)) {
      ctx.warn(`boiler ${bl.name} heats nothing (target ${target}°, power ${powerW} W); skipped`);
      continue;
    }
    let name = `boil-${output}-${fmtT(target)}`;
    if (boilRecipeInput.has(name) && boilRecipeInput.get(name) !== input) name = `boil-${input}-to-${output}-${fmtT(target)}`;
    const category = `pyops-boil:${name}`;
    const machine = addMachine(ctx, { name: bl.name, kind: 'boiler', type: 'boiler', speed: powerW / 1e6, usageW: powerW, proto: bl, categories: [category] });
    noteTemp(output, target);
    if (boilRecipeInput.has(name)) continue;
    boilRecipeInput.set(name, input);
    const units = 1e6 / perUnitJ;
    addRecipe(ctx, names, {
      name, display: `Boil ${disp(output)} ${fmtT(target)}°`, kind: 'boiling', category, energy: 1,
      ingredients: [{ kind: 'fluid', name: input, amount: units }],
      products: [{ kind: 'fluid', name: output, amount: units, temperature: target }], sourceEntity: machine.name,
    });
  }

  // Steam engines and turbines: one recipe per input temperature that something produces.
  for (const g of power.generators) {
    const filter = g.fluid_box.filter;
    const eff = g.effectivity ?? 1;
    const perSec = g.fluid_usage_per_tick * 60;
    const cap = g.max_power_output !== undefined ? ctx.energy(g.max_power_output, `generator "${g.name}".max_power_output`, 'W') : Infinity;
    const machine = addMachine(ctx, { name: g.name, kind: 'generator', type: 'generator', speed: 1, usageW: 0, proto: g, categories: [] });
    machine.energy_source = 'electric';
    const category = `pyops-generate:${g.name}`;
    machineCategory(g.name, category);
    if (g.burns_fluid) {
      const fuels = filter ? [filter] : out.fluids.filter((f) => !f.synthetic && (f.fuel_value_j ?? 0) > 0).map((f) => f.name);
      for (const f of fuels) {
        const fv = fluids.get(f)?.fuel_value_j ?? 0;
        if (!(fv > 0)) continue;
        const w = Math.min(perSec * fv * eff, cap);
        addRecipe(ctx, names, {
          name: fuels.length === 1 ? `generate-${g.name}` : `generate-${g.name}-${f}`, display: `Generate power (${machine.display}, ${disp(f)})`,
          kind: 'generating', category, energy: 1, ingredients: [{ kind: 'fluid', name: f, amount: perSec }],
          products: [{ kind: 'fluid', name: ELECTRICITY, amount: w / 1e6 }], sourceEntity: g.name,
        });
      }
      continue;
    }
    if (!filter || !fluids.has(filter)) {
      ctx.warn(`generator ${g.name} has no fluid filter; skipped`);
      continue;
    }
    const f = fluids.get(filter)!;
    const tMin = g.fluid_box.minimum_temperature ?? f.default_temperature;
    const tMax = g.maximum_temperature ?? Infinity;
    const temps = [...(producedTemps.get(filter) ?? [])].filter((t) => t >= tMin && t > f.default_temperature).sort((a, b) => a - b);
    for (const t of temps) {
      const w = Math.min(perSec * (Math.min(t, tMax) - f.default_temperature) * (f.heat_capacity_j ?? 1000) * eff, cap);
      if (!(w > 0)) continue;
      addRecipe(ctx, names, {
        name: `generate-${g.name}-${fmtT(t)}`, display: `Generate power (${machine.display}, ${disp(filter)} ${fmtT(t)}°)`,
        kind: 'generating', category, energy: 1,
        ingredients: [{ kind: 'fluid', name: filter, amount: perSec, minTemp: t, maxTemp: t }],
        products: [{ kind: 'fluid', name: ELECTRICITY, amount: w / 1e6 }], sourceEntity: g.name,
      });
    }
  }

  for (const g of power.burnerGenerators) {
    const w = ctx.energy(g.max_power_output, `burner-generator "${g.name}".max_power_output`, 'W');
    const category = `pyops-generate:${g.name}`;
    const machine = addMachine(ctx, { name: g.name, kind: 'generator', type: 'burner-generator', speed: 1, usageW: w, proto: g, categories: [category], energySource: g.burner ?? g.energy_source });
    addRecipe(ctx, names, {
      name: `generate-${g.name}`, display: `Generate power (${machine.display})`, kind: 'generating', category, energy: 1,
      ingredients: [], products: [{ kind: 'fluid', name: ELECTRICITY, amount: w / 1e6 }], sourceEntity: g.name,
    });
  }
  for (const s of power.solarPanels) {
    const w = ctx.energy(s.production, `solar-panel "${s.name}".production`, 'W') * SOLAR_DAY_AVERAGE;
    const category = `pyops-generate:${s.name}`;
    const machine = addMachine(ctx, { name: s.name, kind: 'generator', type: 'solar-panel', speed: 1, usageW: 0, proto: s, categories: [category] });
    machine.energy_source = null;
    addRecipe(ctx, names, {
      name: `generate-${s.name}`, display: `Generate power (${machine.display}, day average)`, kind: 'generating', category, energy: 1,
      ingredients: [], products: [{ kind: 'fluid', name: ELECTRICITY, amount: w / 1e6 }], sourceEntity: s.name,
    });
  }
  for (const r of power.reactors) {
    const w = ctx.energy(r.consumption, `reactor "${r.name}".consumption`, 'W');
    const category = `pyops-reactor:${r.name}`;
    const machine = addMachine(ctx, { name: r.name, kind: 'reactor', type: 'reactor', speed: 1, usageW: w, proto: r, categories: [category] });
    machine.neighbour_bonus = r.neighbour_bonus ?? 1;
    addRecipe(ctx, names, {
      name: `generate-heat-${r.name}`, display: `Generate heat (${machine.display})`, kind: 'generating', category, energy: 1,
      ingredients: [], products: [{ kind: 'fluid', name: HEAT, amount: w / 1e6 }], sourceEntity: r.name,
    });
  }

  // Fuel: solid fuels leave burnt results; fluid fuels become MJ of the fluid-fuel pool.
  for (const it of out.items) {
    if (it.burnt_result && items.has(it.burnt_result) && (it.fuel_value_j ?? 0) > 0) {
      addRecipe(ctx, names, {
        name: `burn-${it.name}`, display: `Burn ${it.display}`, kind: 'burning', category: VIRTUAL_CATEGORY, energy: 0,
        ingredients: [{ kind: 'item', name: it.name, amount: 1 }], products: [{ kind: 'item', name: it.burnt_result, amount: 1 }], sourceEntity: null,
      });
    }
    if (it.spoil_result && it.spoil_ticks && items.has(it.spoil_result)) {
      addRecipe(ctx, names, {
        name: `spoil-${it.name}`, display: `Let ${it.display} spoil`, kind: 'spoiling', category: VIRTUAL_CATEGORY, energy: it.spoil_ticks / 60,
        ingredients: [{ kind: 'item', name: it.name, amount: 1 }], products: [{ kind: 'item', name: it.spoil_result, amount: 1 }], sourceEntity: null,
      });
    }
  }
  for (const f of out.fluids) {
    if (f.synthetic || !((f.fuel_value_j ?? 0) > 0)) continue;
    addRecipe(ctx, names, {
      name: `burn-fluid-${f.name}`, display: `Burn ${f.display} as fluid fuel`, kind: 'burning', category: VIRTUAL_CATEGORY, energy: 0,
      ingredients: [{ kind: 'fluid', name: f.name, amount: 1 }], products: [{ kind: 'fluid', name: FLUID_FUEL, amount: f.fuel_value_j! / 1e6 }], sourceEntity: null,
    });
  }
}
