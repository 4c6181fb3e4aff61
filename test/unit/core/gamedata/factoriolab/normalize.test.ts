// The four FactorioLab data sets in ../shared/data, mapped into the game-data tables: the counts
// their SOURCE.md files state, and the entries the planner reads (machines, modules with their
// limitation, fuels, belts, technologies with their per-unit cost, temperature variants, catalysts),
// each checked against the data.json entry it comes from. Skipped where that folder is absent.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readFlab } from '../../../../../src/core/gamedata/factoriolab/read';
import { normalizeFlab, type FlabNormalizeResult } from '../../../../../src/core/gamedata/factoriolab/normalize';
import type { GameData } from '../../../../../src/core/gamedata/model';
import { requireSharedData } from '../../../../helpers/paths';

interface Raw {
  items: Array<{ id: string; stack?: number; technology?: unknown; fuel?: { category: string; result?: string } }>;
  recipes: Array<{ id: string; flags?: string[]; in: Record<string, number>; out: Record<string, number> }>;
  limitations?: Record<string, string[]>;
}

interface Loaded {
  n: FlabNormalizeResult;
  d: GameData;
  raw: Raw;
}

function load(ctx: Mocha.Context, dir: string): Loaded {
  const file = path.join(requireSharedData(ctx, dir), 'data.json');
  const n = normalizeFlab(readFlab(file).data);
  return { n, d: n.data, raw: JSON.parse(fs.readFileSync(file, 'utf8')) as Raw };
}

const flagged = (raw: Raw, flag: string) => raw.recipes.filter((r) => r.flags?.includes(flag));
const machine = (d: GameData, name: string) => d.crafting_machines.find((m) => m.name === name)!;
const recipe = (d: GameData, name: string) => d.recipes.find((r) => r.name === name)!;
const ins = (d: GameData, r: string) => d.recipe_ingredients.filter((i) => i.recipe === r).map((i) => [i.name, i.amount]);
const outs = (d: GameData, r: string) => d.recipe_products.filter((p) => p.recipe === r).map((p) => [p.name, p.amount, p.ignored_by_productivity]);
const tech = (d: GameData, name: string) => d.technologies.find((t) => t.name === name)!;

/** SOURCE.md's counts, and what each maps to. */
interface SourceCounts {
  technologies: number;
  goods: number;
  withoutStack: number;
  machines: number;
  modules: number;
  beacons: number;
  fuels: number;
  belts: number;
  real: number;
  mining: number;
  burn: number;
  limitations?: number;
}

function checkCounts({ d, raw }: Loaded, c: SourceCounts): void {
  assert.equal(d.technologies.length, c.technologies, 'technologies');
  assert.equal(raw.items.length, c.technologies + c.goods, 'items array');
  // Items (stack size) and fluids (no stack size) are goods; an entry with neither that only
  // describes a machine or beacon placed by a script stays an entity.
  const entities = raw.items.filter((e) => !e.technology && e.stack === undefined && (d.crafting_machines.some((m) => m.name === e.id) || d.beacons.some((b) => b.name === e.id))).length;
  const fluids = d.fluids.filter((f) => !f.synthetic).length;
  assert.equal(d.items.length + fluids + entities, c.goods, 'items and fluids');
  assert.equal(fluids + entities, c.withoutStack, 'entries without a stack size');
  assert.equal(d.modules.length, c.modules, 'modules');
  assert.equal(d.beacons.length, c.beacons, 'beacons');
  assert.equal(d.belts.length, c.belts, 'belts');
  // Fuels: items with a fuel value, fluids burnt by their value, and fluids the set gives a heat value.
  const heatFluids = raw.items.filter((e) => e.fuel?.category === 'fluid-heat').length;
  const fuels = d.items.filter((i) => (i.fuel_value_j ?? 0) > 0).length + d.fluids.filter((f) => !f.synthetic && (f.fuel_value_j ?? 0) > 0).length + heatFluids;
  assert.equal(fuels, c.fuels, 'fuels');
  assert.equal(d.recipes.filter((r) => !r.synthetic).length, c.real, 'real recipes');
  assert.equal(d.recipes.filter((r) => r.kind === 'mining').length, c.mining, 'mining recipes');
  assert.equal(d.resources.length, c.mining, 'resources');
  assert.equal(flagged(raw, 'technology').length, c.technologies - d.technologies.filter((t) => t.unit_time === null).length, 'technologies with a research cost');
  // The set's burn pseudo-recipes (fuel → burnt result at amount 0) are the planner's own burn-<fuel>.
  assert.equal(flagged(raw, 'burn').length, c.burn, 'burn pseudo-recipes');
  for (const b of flagged(raw, 'burn')) {
    const [fuel] = Object.keys(b.in);
    const [burnt] = Object.keys(b.out);
    assert.deepEqual(outs(d, `burn-${fuel}`).map(([n, a]) => [n, a]), [[burnt, 1]], `burn-${fuel}`);
  }
  if (c.limitations !== undefined) assert.equal(Object.keys(raw.limitations ?? {}).length, c.limitations, 'limitation keys');
}

describe('FactorioLab data sets: vanilla 2.0.47', function () {
  this.timeout(120_000);
  let l: Loaded;
  before(function () {
    l = load(this, 'factoriolab-vanilla-2.0');
  });

  it('matches the counts of SOURCE.md', () => {
    // 399 items = 196 technologies + 203 items/fluids (9 without stack); 403 recipes = 207 real + 189 technology + 6 mining + 1 burn.
    checkCounts(l, { technologies: 196, goods: 203, withoutStack: 9, machines: 18, modules: 9, beacons: 1, fuels: 8, belts: 3, real: 207, mining: 6, burn: 1 });
    assert.equal(l.d.crafting_machines.length, 18);
    assert.equal(flagged(l.raw, 'technology').length, 189);
  });

  it('maps machines, modules, beacons, belts and fuels with their units', () => {
    const d = l.d;
    // assembling-machine-2: speed 0.75, 2 modules, 150 kW, drain 5 kW (data.json machine block).
    const am2 = machine(d, 'assembling-machine-2');
    assert.deepEqual([am2.crafting_speed, am2.module_slots, am2.energy_usage_w, am2.drain_w, am2.energy_source, am2.kind], [0.75, 2, 150_000, 5000, 'electric', 'assembler']);
    // assembling-machine-1 disallows productivity and quality.
    assert.deepEqual(JSON.parse(machine(d, 'assembling-machine-1').allowed_effects!), ['speed', 'consumption', 'pollution']);
    const stone = machine(d, 'stone-furnace');
    assert.equal(stone.energy_source, 'burner');
    assert.deepEqual(d.machine_fuel_categories.filter((c) => c.machine === 'stone-furnace').map((c) => c.fuel_category), ['chemical']);
    const prod2 = d.modules.find((m) => m.name === 'productivity-module-2')!;
    assert.deepEqual([prod2.category, prod2.tier, prod2.productivity, prod2.speed, prod2.consumption, prod2.pollution], ['productivity', 2, 0.06, -0.1, 0.6, 0.07]);
    const beacon = d.beacons[0];
    assert.deepEqual([beacon.effectivity, beacon.module_slots, beacon.energy_usage_w, JSON.parse(beacon.profile!)[1]], [1.5, 2, 480_000, 0.7071]);
    assert.deepEqual(JSON.parse(beacon.allowed_effects!), ['speed', 'consumption', 'pollution']);
    assert.deepEqual(d.belts.map((b) => [b.name, b.items_per_second]), [['transport-belt', 15], ['fast-transport-belt', 30], ['express-transport-belt', 45]]);
    const coal = d.items.find((i) => i.name === 'coal')!;
    assert.deepEqual([coal.fuel_value_j, coal.fuel_category], [4e6, 'chemical']);
    assert.equal(d.items.find((i) => i.name === 'uranium-fuel-cell')!.burnt_result, 'depleted-uranium-fuel-cell');
    assert.equal(d.items.find((i) => i.name === 'automation-science-pack')!.type, 'tool');
    assert.deepEqual(JSON.parse(d.labs[0].inputs), ['automation-science-pack', 'chemical-science-pack', 'logistic-science-pack', 'military-science-pack', 'production-science-pack', 'space-science-pack', 'utility-science-pack']);
  });

  it('maps recipes: locked, productivity, expected outputs, catalysts and mining', () => {
    const d = l.d;
    const ec = recipe(d, 'electronic-circuit');
    assert.deepEqual([ec.energy_required, ec.enabled, ec.allow_productivity, ec.main_product], [0.5, 0, 1, 'electronic-circuit']);
    assert.deepEqual(ins(d, 'electronic-circuit'), [['iron-plate', 1], ['copper-cable', 3]]);
    assert.equal(recipe(d, 'iron-gear-wheel').enabled, 1);
    assert.equal(recipe(d, 'wooden-chest').allow_productivity, 0);
    // Kovarex: out 41 U-235 of which 40 is catalyst, 2 U-238 (both catalysts).
    assert.deepEqual(outs(d, 'kovarex-enrichment-process'), [['uranium-235', 41, 40], ['uranium-238', 2, 2]]);
    assert.deepEqual(JSON.parse(recipe(d, 'kovarex-enrichment-process').allowed_effects!), ['speed', 'productivity', 'consumption', 'pollution']);
    // Uranium processing: the expected 0.007 U-235 per craft, probability already in the amount.
    assert.deepEqual(outs(d, 'uranium-processing').map(([n, a]) => [n, Number((a as number).toFixed(6))]), [['uranium-235', 0.007], ['uranium-238', 0.993]]);
    const mine = recipe(d, 'mine-uranium-ore');
    assert.deepEqual([mine.kind, mine.synthetic, mine.allow_productivity, mine.energy_required], ['mining', 1, 1, 2]);
    assert.deepEqual(ins(d, 'mine-uranium-ore'), [['sulfuric-acid', 1]]);
    const drills = d.machine_categories.filter((c) => c.category === mine.category).map((c) => c.machine);
    assert.deepEqual(drills, ['electric-mining-drill']);
  });

  it('keeps temperature variants as distinct fluids at the temperature their name states', () => {
    const steam = l.d.fluids.filter((f) => f.name.startsWith('steam')).map((f) => [f.name, f.default_temperature, f.fuel_value_j]);
    assert.deepEqual(steam, [['steam', 165, null], ['steam-500', 500, null]]);
    assert.deepEqual(outs(l.d, 'heat-exchanger-steam-boil'), [['steam-500', 10, 0]]);
  });

  it('maps technologies under their game names with the per-unit research cost', () => {
    const d = l.d;
    // FactorioLab renames a technology that shares an item's name; the game's name is restored.
    assert.ok(!d.technologies.some((t) => t.name === 'automation-science-pack-technology'));
    const asp = tech(d, 'automation-science-pack');
    assert.deepEqual([asp.display, asp.unit_count, asp.unit_time], ['Automation science pack', null, null]);
    assert.deepEqual(d.tech_unlocks.filter((u) => u.tech === 'automation-science-pack').map((u) => u.recipe), ['automation-science-pack']);
    const automation = tech(d, 'automation');
    assert.deepEqual([automation.unit_count, automation.unit_time], [null, 10]);
    assert.deepEqual(d.tech_prerequisites.filter((p) => p.tech === 'automation').map((p) => p.prerequisite), ['automation-science-pack']);
    assert.deepEqual(d.tech_ingredients.filter((t) => t.tech === 'automation').map((t) => [t.pack, t.amount]), [['automation-science-pack', 1]]);
    assert.deepEqual(d.tech_unlocks.filter((u) => u.tech === 'electronics').map((u) => u.recipe), ['copper-cable', 'electronic-circuit', 'lab', 'inserter', 'small-electric-pole']);
  });

  it('records the game version and says what the format lacks', () => {
    assert.equal(l.n.factorioVersion, '2.0.47');
    assert.deepEqual(l.n.mods, {});
    for (const w of ['icons', 'pollution per recipe', 'inserters', 'research unit counts']) assert.ok(l.n.lacks.some((x) => x.startsWith(w)), w);
    assert.equal(l.d.inserters.length, 0);
    assert.equal(l.d.icons.length, 0);
  });
});

describe('FactorioLab data sets: Space Age 2.0.47', function () {
  this.timeout(120_000);
  let l: Loaded;
  before(function () {
    l = load(this, 'factoriolab-space-age-2.0');
  });

  it('matches the counts of SOURCE.md', () => {
    // 578 items = 275 technologies + 303 items/fluids (22 without stack); 897 recipes = 641 + 243 technology + 12 mining + 1 burn.
    checkCounts(l, { technologies: 275, goods: 303, withoutStack: 22, machines: 31, modules: 12, beacons: 1, fuels: 24, belts: 4, real: 641, mining: 12, burn: 1 });
    // 31 machine blocks: 30 buildings and the "spoilage" pseudo-machine, whose recipes need no building.
    assert.equal(l.d.crafting_machines.length, 30);
    assert.equal(l.raw.items.filter((e) => (e as { machine?: unknown }).machine).length, 31);
  });

  it('maps built-in productivity, planting, spoiling and planet-bound recipes', () => {
    const d = l.d;
    assert.deepEqual(JSON.parse(machine(d, 'foundry').base_effect!), { productivity: 0.5 });
    assert.equal(machine(d, 'biochamber').energy_source, 'burner');
    const grow = recipe(d, 'yumako-tree');
    assert.deepEqual([grow.kind, grow.energy_required], ['planting', 300]);
    const spoil = recipe(d, 'yumako-spoil');
    assert.deepEqual([spoil.kind, spoil.category], ['spoiling', 'pyops-virtual']);
    assert.deepEqual(outs(d, 'casting-iron'), [['iron-plate', 2, 0]]);
    assert.ok(l.n.warnings.some((w) => /55 recipes are limited to planets/.test(w)));
    assert.ok(l.n.lacks.some((x) => x.startsWith('spoil times')));
    assert.ok(l.n.lacks.some((x) => x.startsWith('research productivity amounts')));
  });
});

describe('FactorioLab data sets: Pyanodons without AL/AE (pys)', function () {
  this.timeout(120_000);
  let l: Loaded;
  before(function () {
    l = load(this, 'factoriolab-pys');
  });

  it('matches the counts of SOURCE.md', () => {
    // 2,076 items = 487 technologies + 1,589 items/fluids (442 without stack); 3,082 recipes = 2,477 + 487 + 48 mining + 70 burn.
    checkCounts(l, { technologies: 487, goods: 1589, withoutStack: 442, machines: 397, modules: 9, beacons: 50, fuels: 190, belts: 3, real: 2477, mining: 48, burn: 70, limitations: 2 });
    assert.equal(l.d.crafting_machines.length, 397);
  });

  it('allows productivity exactly on the recipes the productivity modules are limited to (Factorio 1.1)', () => {
    const d = l.d;
    const limited = new Set(l.raw.limitations!['productivity-module']);
    const real = d.recipes.filter((r) => r.kind !== 'mining' && r.category !== 'pyops-virtual' && !r.name.startsWith('burn-'));
    assert.ok(real.length > 2000);
    for (const r of real) assert.equal(r.allow_productivity, limited.has(r.name) ? 1 : 0, r.name);
    assert.equal(l.n.factorioVersion, '1.1.109');
    assert.equal(l.n.mods.pypetroleumhandling, '2.1.16');
  });
});

describe('FactorioLab data sets: full Pyanodons (pysalf)', function () {
  this.timeout(120_000);
  let l: Loaded;
  before(function () {
    l = load(this, 'factoriolab-pysalf');
  });

  it('matches the counts of SOURCE.md', () => {
    // 4,244 items = 925 technologies + 3,319 items/fluids (595 without stack); 7,748 recipes = 6,685 + 925 + 61 mining + 77 burn.
    checkCounts(l, { technologies: 925, goods: 3319, withoutStack: 595, machines: 677, modules: 293, beacons: 52, fuels: 250, belts: 3, real: 6685, mining: 61, burn: 77, limitations: 56 });
    assert.equal(l.d.crafting_machines.length, 677);
  });

  it('maps the farm modules with their limitation and the farm at its bare speed', () => {
    const d = l.d;
    // moss-farm-mk01: speed 0.0625, 15 module slots, 100 kW; moss: +100 % speed, limitation "moss".
    const farm = machine(d, 'moss-farm-mk01');
    assert.deepEqual([farm.crafting_speed, farm.module_slots, farm.energy_usage_w], [0.0625, 15, 100_000]);
    const moss = d.modules.find((m) => m.name === 'moss-mk04')!;
    assert.deepEqual([moss.category, moss.tier, moss.speed, moss.pollution], ['moss', 4, 4, 1]);
    const lists = new Map(d.limitation_lists.map((l) => [l.name, JSON.parse(l.recipes) as string[]]));
    const limits = (m: string) => lists.get(d.modules.find((x) => x.name === m)!.limitation ?? '') ?? [];
    assert.ok(limits('moss-mk04').includes('Moss 1'));
    assert.ok(!limits('speed-module-3').includes('Moss 1'), 'the speed modules are not for moss');
    assert.equal(d.modules.find((m) => m.name === 'speed-module-3')!.category, 'speed');
    // Every limitation entry names a recipe of the set.
    const names = new Set(d.recipes.map((r) => r.name));
    assert.ok([...lists.values()].every((l) => l.every((r) => names.has(r))));
    // A family of modules shares its list: the moss modules point at one row.
    assert.deepEqual(new Set(['moss', 'moss-mk02', 'moss-mk03', 'moss-mk04', 'hd-moss-module'].map((m) => d.modules.find((x) => x.name === m)!.limitation)), new Set(['moss']));
    assert.equal(new Set(d.limitation_lists.map((l) => l.recipes)).size, d.limitation_lists.length, 'no list is stored twice');
    assert.ok(l.n.warnings.some((w) => /module limitation entries name recipes the data set does not contain/.test(w)));
  });

  it('reads amounts written as numeric strings, and the TURD machine variants as hidden machines', () => {
    // recipes[291] "wpu" takes "5" logs in the file.
    assert.deepEqual(ins(l.d, 'wpu').find(([n]) => n === 'log'), ['log', 5]);
    const turd = machine(l.d, 'compost-plant-mk01-turd');
    assert.deepEqual([turd.hidden, turd.item], [1, null]);
    assert.ok(l.n.lacks.some((x) => x.startsWith('TURD choices')));
    assert.equal(l.n.mods.pyalienlife, '2.1.41');
  });

  it('burns fluids: any fluid by its value, one named fluid, or a hot fluid by its heat', () => {
    const d = l.d;
    const glass = machine(d, 'glassworks-mk01');
    assert.deepEqual([glass.energy_source, glass.burns_fluid, glass.fluid_fuel_filter], ['fluid', 1, null]);
    const gas = machine(d, 'py-gas-powerplant-mk01');
    assert.deepEqual([gas.energy_source, gas.burns_fluid, gas.fluid_fuel_filter], ['fluid', 1, 'natural-gas']);
    assert.ok((d.fluids.find((f) => f.name === 'natural-gas')!.fuel_value_j ?? 0) > 0);
  });
});
