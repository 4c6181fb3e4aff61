// The hand-written sample world, normalized: each planner-relevant rule of the importer is pinned
// here on data whose numbers we chose ourselves.
import assert from 'node:assert/strict';
import { findDumpSource, readDump } from '../../../../src/core/gamedata/dump/read';
import { normalizeDump, type NormalizeResult } from '../../../../src/core/gamedata/normalize';
import { ELECTRICITY, FLUID_FUEL } from '../../../../src/core/gamedata/model';
import { SAMPLE_DUMP } from '../../../helpers/paths';

describe('sample world import (normalization)', () => {
  let n: NormalizeResult;
  const d = () => n.data;
  const recipe = (name: string) => d().recipes.find((r) => r.name === name)!;
  const machine = (name: string) => d().crafting_machines.find((m) => m.name === name)!;
  const ins = (r: string) => d().recipe_ingredients.filter((i) => i.recipe === r);
  const outs = (r: string) => d().recipe_products.filter((p) => p.recipe === r);

  before(() => {
    const dump = readDump(findDumpSource(SAMPLE_DUMP));
    n = normalizeDump(dump.raw, dump.locale);
  });

  it('imports every good, recipe and building with localized names', () => {
    assert.equal(d().items.length, 44);
    assert.equal(d().fluids.filter((f) => !f.synthetic).length, 6);
    assert.equal(d().recipes.filter((r) => !r.synthetic).length, 49);
    assert.equal(d().items.find((i) => i.name === 'wire')!.display, 'Azurite wire');
    assert.equal(recipe('refine-brine').display, 'Brine refining');
    assert.equal(machine('press-mk2').display, 'Press MK2');
    assert.deepEqual(n.warnings, []);
  });

  it('applies recipe defaults: 0.5 s, crafting category, +300 % productivity cap', () => {
    const gear = recipe('gear');
    assert.equal(gear.energy_required, 0.5);
    assert.equal(gear.category, 'crafting');
    assert.equal(gear.maximum_productivity, 3);
    assert.equal(gear.allow_productivity, 1);
    assert.equal(gear.enabled, 0);
    assert.equal(recipe('kiln').allow_productivity, 0);
    assert.equal(recipe('tailings-void').hidden, 1);
  });

  it('keeps probabilities, ranged amounts and fluid temperatures', () => {
    const sift = outs('sift-sludge');
    assert.deepEqual(sift.map((p) => [p.name, p.amount, p.amount_min, p.amount_max, p.probability]), [
      ['catalyst', 1, null, null, 0.25],
      ['azurite-ore', null, 1, 3, 1],
    ]);
    const superheat = ins('superheat-steam').find((i) => i.name === 'steam')!;
    assert.deepEqual([superheat.min_temp, superheat.max_temp], [150, 200]);
    assert.equal(outs('superheat-steam')[0].temperature, 500);
    const dense = ins('dense-circuit').find((i) => i.name === 'steam')!;
    assert.deepEqual([dense.min_temp, dense.max_temp], [400, null]);
    assert.equal(d().fluids.find((f) => f.name === 'steam')!.heat_capacity_j, 250);
  });

  it('stores burner and fluid energy already divided by effectivity, and electric drain', () => {
    assert.equal(machine('kiln').energy_source, 'burner');
    assert.equal(machine('kiln').energy_usage_w, 90_000 / 0.8);
    assert.equal(machine('press').drain_w, 3000); // default: 1/30 of 90 kW
    assert.equal(machine('press-mk2').drain_w, 5000); // explicit
    // Only crafting machines get the default drain: a drill and a lab without `drain` have none.
    assert.equal(machine('digger').drain_w, 0);
    assert.equal(machine('lab-unit').drain_w, 0);
    assert.equal(machine('digger').energy_usage_w, 90_000);
    assert.equal(machine('naphtha-furnace').energy_source, 'fluid');
    assert.equal(machine('naphtha-furnace').burns_fluid, 1);
    assert.equal(machine('naphtha-furnace').fluid_fuel_filter, null);
    assert.equal(machine('press').pollution_per_min, 4);
    assert.deepEqual(JSON.parse(machine('press').allowed_module_categories!), ['speed', 'productivity', 'efficiency', 'press']);
    assert.deepEqual([machine('press').width, machine('press').height], [3, 3]);
  });

  it('reads modules, hidden TURD modules and the beacon profile', () => {
    const prod = d().modules.find((m) => m.name === 'productivity-module-s1')!;
    assert.deepEqual([prod.productivity, prod.speed, prod.consumption, prod.pollution], [0.05, -0.1, 0.5, 0.1]);
    assert.equal(d().modules.find((m) => m.name === 'lean-press-module')!.hidden, 1);
    const beacon = d().beacons[0];
    assert.equal(beacon.effectivity, 1.2);
    assert.deepEqual(JSON.parse(beacon.profile!), [1, 0.75, 0.6, 0.5, 0.45, 0.4]);
    assert.equal(beacon.energy_usage_w, 400_000);
    assert.equal(beacon.beacon_counter, 'same_type'); // the 2.0 default when the dump omits it
    assert.equal(d().beacons.find((b) => b.name === 'relay-beacon')!.beacon_counter, 'total');
    const s2 = d().modules.find((m) => m.name === 'speed-module-s2')!;
    assert.deepEqual([s2.speed, s2.consumption, s2.quality], [0.4, 0.6, -0.1]);
  });

  it('stores a 1.1-style module limitation once per list, shared by the modules that carry it', () => {
    // The sample's modules are 2.0-style (no limitation); give two the same list and one another.
    const dump = readDump(findDumpSource(SAMPLE_DUMP));
    const mods = dump.raw.module as Record<string, { limitation?: string[] }>;
    mods['speed-module-s1'].limitation = ['gear', 'wire'];
    mods['speed-module-s2'].limitation = ['gear', 'wire'];
    mods['productivity-module-s1'].limitation = ['wire'];
    mods['efficiency-module-s1'].limitation = [];
    const out = normalizeDump(dump.raw, dump.locale).data;
    const lim = (m: string) => out.modules.find((x) => x.name === m)!.limitation;
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    assert.deepEqual([...out.limitation_lists].sort(byName), [
      { name: 'productivity-module-s1', recipes: '["wire"]' },
      { name: 'speed-module-s1', recipes: '["gear","wire"]' },
    ]);
    assert.deepEqual([lim('speed-module-s1'), lim('speed-module-s2'), lim('productivity-module-s1')], ['speed-module-s1', 'speed-module-s1', 'productivity-module-s1']);
    // An empty list limits nothing, as in the game.
    assert.equal(lim('efficiency-module-s1'), null);
  });

  it('synthesizes mining, pumping, boiling, generating, burning and spoiling recipes', () => {
    const mineFerrite = recipe('mine-ferrite-ore');
    assert.equal(mineFerrite.synthetic, 1);
    assert.equal(mineFerrite.category, 'resource:basic-solid');
    assert.equal(mineFerrite.energy_required, 1.5);
    assert.deepEqual(ins('mine-ferrite-ore').map((i) => [i.name, i.amount]), [['solvent', 0.5]]);
    assert.deepEqual(outs('mine-brine-spring').map((p) => [p.name, p.amount_min, p.amount_max]), [['brine', 12, 12]]);
    assert.deepEqual(outs('pump-pump-station').map((p) => [p.name, p.amount]), [['fresh-water', 720]]);
    // 1 MJ heats 1e6 / ((165 - 15) * 250 J) units of water into steam; the boiler runs at 1.2 MW.
    const perMJ = 1e6 / (150 * 250);
    assert.ok(Math.abs(outs('boil-steam-165')[0].amount! - perMJ) < 1e-9);
    assert.equal(outs('boil-steam-165')[0].temperature, 165);
    assert.equal(machine('boiler-unit').crafting_speed, 1.2);
    // The turbine takes 30 steam/s; at 165° that is 30 * 150 * 250 J = 1.125 MW, at 500° 3.6375 MW.
    assert.equal(outs('generate-steam-turbine-unit-165')[0].name, ELECTRICITY);
    assert.equal(outs('generate-steam-turbine-unit-165')[0].amount, 1.125);
    assert.equal(outs('generate-steam-turbine-unit-500')[0].amount, 3.6375);
    assert.deepEqual(ins('generate-steam-turbine-unit-500').map((i) => [i.min_temp, i.max_temp]), [[500, 500]]);
    assert.deepEqual(outs('burn-lignite').map((p) => p.name), ['ash']);
    assert.deepEqual(outs('burn-fluid-naphtha').map((p) => [p.name, p.amount]), [[FLUID_FUEL, 1.5]]);
    assert.equal(recipe('spoil-fresh-resin').energy_required, 300);
    assert.ok(d().machine_categories.some((c) => c.machine === 'digger' && c.category === 'resource:basic-solid'));
  });

  it('reads technologies, their costs, unlocks and productivity bonuses', () => {
    const t = (name: string) => d().technologies.find((x) => x.name === name)!;
    assert.equal(t('electronics').unit_count, 30);
    assert.equal(t('gear-productivity-1').unit_count_formula, '100*L');
    assert.equal(JSON.parse(t('automation-basics').research_trigger!).item, 'ferrite-plate');
    assert.ok(d().tech_unlocks.some((u) => u.tech === 'fluid-handling' && u.recipe === 'refine-brine'));
    assert.deepEqual(
      d().tech_ingredients.filter((i) => i.tech === 'modules-1').map((i) => i.pack).sort(),
      ['advanced-research-pack', 'basic-research-pack'],
    );
    assert.deepEqual(d().tech_productivity_bonuses.filter((b) => b.tech === 'mining-productivity-1'), [{ tech: 'mining-productivity-1', recipe: '', modifier: 0.1 }]);
    assert.ok(d().tech_productivity_bonuses.some((b) => b.recipe === 'gear' && b.modifier === 0.1));
  });

  it('infers the TURD master, its three branches, gates, modules and the helper replacements', () => {
    assert.deepEqual(d().turd_masters, [{ name: 'press-upgrade' }]);
    assert.deepEqual(d().turd_branches.map((b) => [b.name, b.master, b.gate]), [
      ['lean-press', 'press-upgrade', 'turd-select-lean-press'],
      ['salvage-press', 'press-upgrade', 'turd-select-salvage-press'],
      ['tempered-press', 'press-upgrade', 'turd-select-tempered-press'],
    ]);
    assert.equal(d().technologies.find((t) => t.name === 'tempered-press')!.is_turd, 1);
    assert.equal(d().technologies.find((t) => t.name === 'press-upgrade')!.is_turd, 0);
    assert.equal(d().turd_branch_modules.length, 3);
    assert.equal(n.turdReplacementSource, 'helper');
    assert.deepEqual(d().turd_replacements.map((r) => `${r.branch}:${r.old}->${r.new}`), [
      'lean-press:circuit->circuit-lean',
      'lean-press:frame->frame-lean',
      'salvage-press:reclaim-tailings->reclaim-tailings-salvage',
      'tempered-press:gear->gear-tempered',
    ]);
    assert.deepEqual(n.mods, { base: '2.0.77', 'pyops-sample-world': '1.0.0' });
  });

  it("defaults a product's ignored_by_productivity to its ignored_by_stats, as Factorio 2.0 does", () => {
    const dump = readDump(findDumpSource(SAMPLE_DUMP));
    const results = (dump.raw.recipe as Record<string, { results: Array<Record<string, unknown>> }>)['refine-brine'].results;
    results[0].ignored_by_stats = 10; // solvent: only ignored_by_stats
    Object.assign(results[1], { ignored_by_stats: 10, ignored_by_productivity: 5 }); // tailings: both, the explicit one wins
    const out = normalizeDump(dump.raw, dump.locale).data.recipe_products.filter((p) => p.recipe === 'refine-brine');
    assert.deepEqual(out.map((p) => [p.name, p.ignored_by_productivity]), [['solvent', 10], ['tailings', 5], ['naphtha', 0]]);
    assert.deepEqual(outs('refine-brine').map((p) => p.ignored_by_productivity), [0, 0, 0]);
  });

  it("reads what the character crafts by hand (none when the dump has no character)", () => {
    assert.deepEqual(n.handCraftingCategories, []);
    const dump = readDump(findDumpSource(SAMPLE_DUMP));
    dump.raw.character = { character: { type: 'character', name: 'character', crafting_categories: ['crafting', 'handcrafting'] } };
    assert.deepEqual(normalizeDump(dump.raw, dump.locale).handCraftingCategories, ['crafting', 'handcrafting']);
  });

  it('infers the same replacements from recipe names when the helper export is missing', () => {
    const dump = readDump(findDumpSource(SAMPLE_DUMP));
    delete (dump.raw['mod-data'] as Record<string, unknown>)['pyops-export'];
    const inferred = normalizeDump(dump.raw, dump.locale);
    assert.equal(inferred.turdReplacementSource, 'inferred');
    assert.deepEqual(
      inferred.data.turd_replacements.map((r) => `${r.branch}:${r.old}->${r.new}`),
      d().turd_replacements.map((r) => `${r.branch}:${r.old}->${r.new}`),
    );
  });
});
