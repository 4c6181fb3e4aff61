// Golden checks on the real dumps in ../shared/data against the counts and values their SOURCE.md
// files state. Skipped, with the reason printed, where that folder is absent.
import assert from 'node:assert/strict';
import { findDumpSource, readDump } from '../../../../src/core/gamedata/dump/read';
import { normalizeDump, type NormalizeResult } from '../../../../src/core/gamedata/normalize';
import type { GameData } from '../../../../src/core/gamedata/model';
import { humanize } from '../../../../src/core/gamedata/units';
import { requireSharedData } from '../../../helpers/paths';

/** Normalized data plus the dump's own count of recipe-category prototypes (read once). */
function load(dir: string): NormalizeResult & { recipeCategories: number } {
  const dump = readDump(findDumpSource(dir));
  return { ...normalizeDump(dump.raw, dump.locale), recipeCategories: Object.keys(dump.raw['recipe-category'] ?? {}).length };
}

const byType = (d: GameData, type: string) => d.items.filter((i) => i.type === type).length;
const kind = (d: GameData, k: string) => d.crafting_machines.filter((m) => m.kind === k).length;
const real = (d: GameData) => d.recipes.filter((r) => !r.synthetic);
const rec = (d: GameData, name: string) => d.recipes.find((r) => r.name === name)!;
const outs = (d: GameData, r: string) => d.recipe_products.filter((p) => p.recipe === r);
const ins = (d: GameData, r: string) => d.recipe_ingredients.filter((p) => p.recipe === r);
const approx = (a: number | null | undefined, b: number, msg?: string) => assert.ok(Math.abs((a ?? NaN) - b) < 1e-9 * Math.max(1, Math.abs(b)), msg ?? `${a} ≈ ${b}`);

describe('real data: vanilla 2.0.77', function () {
  this.timeout(60_000);
  let d: GameData;
  let recipeCategories: number;
  before(function () {
    ({ data: d, recipeCategories } = load(requireSharedData(this, 'vanilla-2.0-data-raw')));
  });

  it('matches the counts of SOURCE.md', () => {
    assert.equal(d.items.length, 251);
    assert.equal(byType(d, 'item'), 173);
    assert.equal(byType(d, 'tool'), 7);
    assert.equal(d.modules.length, 9);
    assert.equal(d.fluids.filter((f) => !f.synthetic).length, 19);
    assert.equal(real(d).length, 217);
    assert.equal(real(d).filter((r) => !r.hidden).length, 212);
    assert.equal(kind(d, 'assembler') + kind(d, 'furnace') + kind(d, 'rocket-silo'), 10);
    assert.equal(kind(d, 'drill'), 3);
    assert.equal(kind(d, 'boiler'), 2);
    assert.equal(kind(d, 'reactor'), 1);
    assert.equal(kind(d, 'pump'), 1);
    assert.equal(d.resources.length, 6);
    assert.equal(d.beacons.length, 1);
    assert.equal(d.labs.length, 1);
    assert.equal(d.technologies.length, 196);
    assert.equal(recipeCategories, 12);
  });

  it('reads oil processing, uranium probabilities and machine stats', () => {
    const aop = rec(d, 'advanced-oil-processing');
    assert.equal(aop.category, 'oil-processing');
    assert.equal(aop.energy_required, 5);
    assert.deepEqual(ins(d, 'advanced-oil-processing').map((i) => [i.name, i.amount]), [['water', 50], ['crude-oil', 100]]);
    assert.deepEqual(outs(d, 'advanced-oil-processing').map((p) => [p.name, p.amount]), [['heavy-oil', 25], ['light-oil', 45], ['petroleum-gas', 55]]);
    assert.deepEqual(outs(d, 'uranium-processing').map((p) => [p.name, p.probability]), [['uranium-235', 0.007], ['uranium-238', 0.993]]);
    const am2 = d.crafting_machines.find((m) => m.name === 'assembling-machine-2')!;
    assert.equal(am2.crafting_speed, 0.75);
    assert.equal(am2.energy_usage_w, 150_000);
    assert.equal(am2.drain_w, 5000);
    const beacon = d.beacons[0];
    assert.equal(beacon.effectivity, 1.5);
    assert.equal(JSON.parse(beacon.profile!)[1], 0.7071);
  });

  it('synthesizes steam power: 60 steam/s per boiler, 0.9 MW per steam engine, 1200 water/s per pump', () => {
    const boil = outs(d, 'boil-steam-165')[0];
    const boiler = d.crafting_machines.find((m) => m.name === 'boiler')!;
    approx(boil.amount! * boiler.crafting_speed, 60);
    approx(outs(d, 'generate-steam-engine-165')[0].amount, 0.9);
    assert.equal(outs(d, 'pump-offshore-pump')[0].amount, 1200);
    assert.equal(outs(d, 'generate-heat-nuclear-reactor')[0].amount, 40);
    // Turbines run on 500° steam from heat exchangers: 60/s × 485° × 200 J = 5.82 MW.
    approx(outs(d, 'generate-steam-turbine-500')[0].amount, 5.82);
    assert.equal(rec(d, 'mine-crude-oil').category, 'resource:basic-fluid');
  });

  it('reads research costs, triggers and mining productivity', () => {
    const auto = d.technologies.find((t) => t.name === 'automation')!;
    assert.equal(auto.unit_count, 10);
    assert.equal(auto.unit_time, 10);
    assert.ok(d.tech_unlocks.some((u) => u.tech === 'automation' && u.recipe === 'assembling-machine-1'));
    assert.ok(d.technologies.find((t) => t.name === 'steel-axe')!.research_trigger);
    assert.deepEqual(d.tech_productivity_bonuses.filter((b) => b.tech === 'mining-productivity-1'), [{ tech: 'mining-productivity-1', recipe: '', modifier: 0.1 }]);
  });
});

describe('real data: vanilla 2.1.12', function () {
  this.timeout(60_000);
  let d: GameData;
  let recipeCategories: number;
  before(function () {
    ({ data: d, recipeCategories } = load(requireSharedData(this, 'vanilla-2.1-data-raw')));
  });

  it('matches the counts of SOURCE.md, with 2.1 recipe categories lists', () => {
    assert.equal(d.items.length, 252);
    assert.equal(byType(d, 'item'), 181);
    assert.equal(real(d).length, 217);
    assert.equal(real(d).filter((r) => !r.hidden).length, 212);
    assert.equal(kind(d, 'assembler') + kind(d, 'furnace') + kind(d, 'rocket-silo'), 10);
    assert.equal(d.technologies.length, 196);
    assert.equal(recipeCategories, 10);
    // 2.1 recipes name their categories in a list; each is kept.
    assert.ok(real(d).every((r) => d.recipe_categories.some((c) => c.recipe === r.name && c.category === r.category)));
  });

  it('turns 2.1 shared probability ranges into effective probabilities', () => {
    const u = outs(d, 'uranium-processing');
    approx(u[0].probability, 0.007);
    approx(u[1].probability, 0.993);
  });
});

describe('real data: Pyanodons HighTech on 2.0', function () {
  this.timeout(120_000);
  let n: ReturnType<typeof load>;
  let d: GameData;
  before(function () {
    n = load(requireSharedData(this, 'py-hightech-2.0-data-raw'));
    d = n.data;
  });

  it('matches the counts of SOURCE.md', () => {
    assert.equal(d.items.length, 1373);
    assert.equal(byType(d, 'item'), 1293);
    assert.equal(byType(d, 'module'), 9);
    assert.equal(byType(d, 'tool'), 7);
    assert.equal(d.fluids.filter((f) => !f.synthetic).length, 297);
    assert.equal(real(d).length, 3570);
    assert.equal(real(d).filter((r) => !r.hidden).length, 2214);
    assert.equal(real(d).filter((r) => r.hidden).length, 1356);
    assert.ok(real(d).filter((r) => r.hidden && r.name.includes('pyvoid')).length > 1300, 'most hidden recipes are Py void recipes');
    assert.equal(kind(d, 'assembler'), 300);
    assert.equal(kind(d, 'furnace'), 8);
    assert.equal(kind(d, 'rocket-silo'), 1);
    assert.equal(kind(d, 'drill'), 28);
    assert.equal(d.resources.length, 37);
    assert.equal(d.beacons.length, 51);
    assert.equal(d.labs.length, 1);
    assert.equal(d.technologies.length, 460);
    assert.equal(d.tech_unlocks.length, 2168);
    assert.equal(n.recipeCategories, 105);
    assert.equal(d.turd_masters.length, 0, 'no pyalienlife, so no TURD');
  });

  it('reads a Py recipe with byproducts, probabilities and an uncapped productivity limit', () => {
    const r = rec(d, 'coal-gas');
    assert.equal(r.category, 'distilator');
    assert.equal(r.energy_required, 3);
    assert.equal(r.maximum_productivity, 1_000_000);
    assert.equal(r.main_product, 'coal-gas');
    assert.deepEqual(outs(d, 'coal-gas').map((p) => [p.name, p.amount, p.probability]), [
      ['coal-gas', 40, 1], ['tar', 50, 1], ['iron-oxide', 1, 0.3], ['coke', 6, 1],
    ]);
  });

  it('keeps Py fluid temperatures on products and ingredient limits', () => {
    const comb = outs(d, 'acetylene-combustion');
    assert.equal(comb.find((p) => p.name === 'combustion-mixture1')!.temperature, 1600);
    const steam = comb.find((p) => p.name === 'steam')!;
    assert.equal(steam.temperature, 150);
    assert.equal(steam.ignored_by_productivity, 100);
    const heating = ins(d, 'steam-heating').find((i) => i.name === 'steam')!;
    assert.deepEqual([heating.min_temp, heating.max_temp], [null, 500]);
    const exch = ins(d, 'steam-exchange3').find((i) => i.name === 'critical-steam')!;
    assert.deepEqual([exch.min_temp, exch.max_temp], [3000, 3000]);
  });

  it('resolves English names from locale-en-names.json', () => {
    assert.equal(d.items.find((i) => i.name === 'active-carbon')!.display, 'Activated carbon');
    assert.equal(d.items.find((i) => i.name === 'advanced-circuit')!.display, 'Complex circuit board');
    // Base-game names are not in that file, so only Py's own goods get names beyond the fallback.
    const named = d.items.filter((i) => i.display !== humanize(i.name));
    assert.ok(named.length > 500, `only ${named.length} items have a localized name`);
    assert.ok(d.recipes.filter((r) => r.display !== humanize(r.name)).length > 2000);
  });

  it('names every canister apart, the base-game fluids (missing from that file) by their internal names', () => {
    // item-name.fill-can is "__1__ canister", its parameter fluid-name.<fluid>; crude oil, heavy oil,
    // light oil and petroleum gas have no entry in locale-en-names.json.
    const canisters = d.items.filter((i) => /-canister$/.test(i.name) && !/^empty-/.test(i.name));
    const byName = new Map(canisters.map((i) => [i.name, i.display]));
    assert.equal(byName.get('crude-oil-canister'), 'Crude oil canister');
    assert.equal(byName.get('petroleum-gas-canister'), 'Petroleum gas canister');
    assert.equal(byName.get('tar-canister'), 'Tar canister');
    const displays = canisters.map((i) => i.display);
    assert.equal(new Set(displays).size, displays.length, `repeated: ${displays.filter((x, i) => displays.indexOf(x) !== i).join(', ')}`);
  });
});
