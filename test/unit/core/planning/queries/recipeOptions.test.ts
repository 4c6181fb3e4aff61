// recipeOptions / recipeOptionsBatch: picker rank (unlocked, selectable, locked — nearest in research
// first —, superseded; then cost, missing last; then name), horizon gating as one state with what it needs, machine text with
// favorites, in/out strings.
import assert from 'node:assert/strict';
import { recipeOptions, recipeOptionsBatch, recipeOptionsForModel } from '../../../../../src/core/planning/queries/recipeOptions';
import { comparePicks, isBarrelRecipe, isVoidRecipeFor, makesForReal } from '../../../../../src/core/planning/queries/common';
import { GameIndex, type Recipe } from '../../../../../src/core/planning/gameIndex';
import { unitCost } from '../../../../../src/core/planning/queries/cost';
import { QueryError } from '../../../../../src/core/planning/queries/errors';
import { requireSharedData } from '../../../../helpers/paths';
import { loadWorld, sampleWorld, type World } from './world';

const EARLY = ['automation-basics', 'electronics'];
const ALL = ['automation-basics', 'electronics', 'fluid-handling', 'advanced-research', 'advanced-pressing', 'modules-1', 'beacons', 'press-upgrade'];
const NOW_BASIC = { research_mode: 'now' as const, available_science_packs: ['basic-research-pack'] };

describe('recipeOptions', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });
  const opts = (good: string, ...ctx: Parameters<World['ctx']>) => recipeOptions(w.ctx(...ctx), { good });

  it('puts recipes unlocked in the save first, then selectable, then locked', () => {
    const r = opts('ferrite-plate', NOW_BASIC, EARLY);
    assert.deepEqual(r.candidates.map((c) => [c.recipe, c.state]), [
      ['ferrite-plate', 'unlocked'],
      ['solvent-wash', 'buildable'],
    ]);
    // needs only on what cannot be used under the horizon.
    assert.deepEqual(r.candidates.map((c) => c.needs), [undefined, undefined]);
    const c = opts('circuit', NOW_BASIC, EARLY);
    assert.deepEqual(c.candidates.map((x) => [x.recipe, x.state]), [
      ['circuit', 'unlocked'],
      ['circuit-lean', 'needs-research'],
    ]);
    // Its TURD master is the research (with the pack the user does not make), and the branch to pick.
    assert.deepEqual(c.candidates[1].needs, { research: ['press-upgrade'], packs: ['advanced-research-pack'], turd: { master: 'press-upgrade', branch: 'lean-press' } });
  });

  it('orders recipes of one rank by cost per unit of the good, missing last, then by name', () => {
    const r = opts('ferrite-plate', { research_mode: 'now' }, ALL);
    assert.deepEqual(r.candidates.map((c) => c.state), ['unlocked', 'unlocked']);
    const costs = r.candidates.map((c) => unitCost(w.g, w.g.recipes.get(c.recipe)!, 'ferrite-plate')!);
    assert.ok(costs[0] <= costs[1]);
    assert.equal(r.candidates[0].recipe, 'solvent-wash');
    const picks = [
      { rank: 1, cost: null, name: 'a' },
      { rank: 1, cost: 2, name: 'c' },
      { rank: 1, cost: 2, name: 'b' },
      { rank: 0, cost: 9, name: 'z' },
    ].sort(comparePicks);
    assert.deepEqual(picks.map((p) => p.name), ['z', 'b', 'c', 'a']);
    // Locked ones: fewer science packs left to unlock first, then cost.
    const locked = [
      { rank: 2, cost: 1, name: 'far', distance: 5000 },
      { rank: 2, cost: 3, name: 'near', distance: 40 },
      { rank: 2, cost: 2, name: 'near-cheaper', distance: 40 },
      { rank: 1, cost: 9, name: 'open' },
    ].sort(comparePicks);
    assert.deepEqual(locked.map((p) => p.name), ['open', 'near-cheaper', 'near', 'far']);
  });

  it('ranks a superseded recipe last and flags it once its replacement branch is selected', () => {
    const r = opts('gear', { research_mode: 'future' }, ALL, { 'press-upgrade': 'tempered-press' });
    assert.deepEqual(r.candidates.map((c) => [c.recipe, c.state]), [
      ['gear-tempered', 'unlocked'],
      ['gear', 'superseded'],
    ]);
    assert.deepEqual(r.candidates[1].needs, { use: { recipe: 'gear-tempered', branch: 'tempered-press' } });
    assert.equal(r.candidates[0].needs, undefined);
  });

  it('gates TURD recipes by horizon: Target takes a pickable branch, Future only a selected one', () => {
    // Under Up to target the pick is part of the route: selectable, so ranked with the selectable ones.
    const target = opts('circuit', { research_mode: 'target', horizon_target: 'circuit-lean' });
    const picked = target.candidates.find((c) => c.recipe === 'circuit-lean')!;
    assert.equal(picked.state, 'turd-pick');
    assert.deepEqual(picked.needs?.turd, { master: 'press-upgrade', branch: 'lean-press' });
    assert.ok(target.candidates.every((c) => c.state !== 'needs-research' || c.recipe !== 'circuit-lean'));
    const future = opts('circuit', { research_mode: 'future' });
    const lean = future.candidates.find((c) => c.recipe === 'circuit-lean')!;
    assert.equal(lean.state, 'turd-pick');
    // Future reaches every technology but still says which packs the research lacks.
    // No machine is in the save yet: the cheapest to unlock is named (the press, not the faster press-mk2).
    assert.deepEqual(lean.needs, {
      research: ['press-upgrade'],
      packs: ['advanced-research-pack', 'basic-research-pack'],
      turd: { master: 'press-upgrade', branch: 'lean-press' },
      machine: { name: 'press', research: 'automation-basics' },
    });
    const blocked = opts('circuit', { research_mode: 'future' }, ALL, { 'press-upgrade': 'tempered-press' });
    const respec = blocked.candidates.find((c) => c.recipe === 'circuit-lean')!;
    assert.equal(respec.state, 'turd-blocked');
    assert.deepEqual(respec.needs, { turd: { master: 'press-upgrade', branch: 'lean-press', selected: 'tempered-press' } });
  });

  it('names the machine of the default rule in words, with the favorite and the fastest machine', () => {
    const r = opts('gear', NOW_BASIC, EARLY);
    const gear = r.candidates[0];
    assert.equal(gear.machineName, 'press');
    // The rule is said once (machineRule); the plain fastest buildable machine carries no reason.
    assert.equal(gear.machine, 'Press [press] ×0.6');
    assert.deepEqual(gear.fastestMachine, { name: 'press-mk2', speed: 1.1, state: 'needs-research' });
    assert.match(r.machineRule, /favorite .* fastest buildable/);
    // The model reads internal names: the machine as "name ×speed", a faster one in one string.
    const view = recipeOptionsForModel(r) as { candidates: Array<Record<string, unknown>> };
    assert.equal(view.candidates[0].machine, 'press ×0.6');
    assert.equal(view.candidates[0].fastestMachine, 'press-mk2 ×1.1 (needs-research)');
    assert.equal(view.candidates[0].display, undefined);
    assert.equal(view.candidates[0].machineName, undefined);
    // Defaults left out: prod unless productivity is allowed (brine's reclaiming recipes do not allow
    // it), and an unknown cost (none here is unknown, so one is made unknown for the view).
    const brine = opts('brine', { research_mode: 'future' });
    assert.ok(brine.candidates.some((c) => !c.prod) && brine.candidates.some((c) => c.prod));
    const unknown = { ...brine, candidates: brine.candidates.map((c, i) => (i === 0 ? { ...c, cost: null } : c)) };
    const bview = recipeOptionsForModel(unknown) as { candidates: Array<Record<string, unknown>> };
    unknown.candidates.forEach((c, i) => {
      assert.equal('cost' in bview.candidates[i], c.cost !== null);
      assert.equal(bview.candidates[i].cost, c.cost ?? undefined);
      assert.equal('prod' in bview.candidates[i], c.prod);
    });
    const fav = opts('gear', { research_mode: 'future', favorite_machines: { crafting: 'press' } }).candidates.find((c) => c.recipe === 'gear')!;
    assert.equal(fav.machineName, 'press');
    assert.match(fav.machine, /^Press \[press\] ×[\d.]+ — Press is your favorite for crafting$/);
    const favView = recipeOptionsForModel(opts('gear', { research_mode: 'future', favorite_machines: { crafting: 'press' } })) as { candidates: Array<Record<string, unknown>> };
    assert.match(String(favView.candidates.find((c) => c.recipe === 'gear')!.machine), /^press ×[\d.]+ — Press is your favorite for crafting$/);
    assert.deepEqual(fav.machineFavorite, { name: 'press', state: 'buildable', used: true });
  });

  it('writes ingredients and products as "amount name" with temperatures and probabilities', () => {
    const t = opts('gear', { research_mode: 'future' }).candidates.find((c) => c.recipe === 'gear-tempered')!;
    assert.equal(t.in, '2 ferrite-plate + 5 steam(≥150°)');
    assert.equal(t.out, '2 gear');
    const s = opts('brine', { research_mode: 'future' }).candidates.find((c) => c.recipe === 'reclaim-tailings')!;
    assert.equal(s.out, '40 brine + 1 sludge-cake @50%');
    const sh = opts('steam', { research_mode: 'future' }).candidates.find((c) => c.recipe === 'superheat-steam')!;
    assert.equal(sh.in, '60 steam(150–200°) + 5 naphtha');
    assert.equal(sh.out, '50 steam(500°)');
  });

  it('lists consumers without void or barrel recipes, bounded by limit', () => {
    const t = recipeOptions(w.ctx({ research_mode: 'future' }), { good: 'tailings', direction: 'consume' });
    assert.deepEqual(t.candidates.map((c) => c.recipe).sort(), ['reclaim-tailings', 'reclaim-tailings-salvage']);
    assert.equal(isVoidRecipeFor(w.g.recipes.get('tailings-void')!, 'tailings'), true);
    const g = recipeOptions(w.ctx({ research_mode: 'future' }), { good: 'gear', direction: 'consume', limit: 3 });
    assert.equal(g.candidates.length, 3);
    assert.equal(g.truncated, true);
    assert.ok(g.total >= 10);
  });

  it('says when nothing makes a good', () => {
    const r = opts('pyops-heat', {});
    assert.deepEqual(r.candidates, []);
    assert.match(r.note!, /nothing makes pyops-heat/);
  });

  it('recognizes barrel recipes by shape', () => {
    const fill = { ...w.g.recipes.get('gear')!, ingredients: [{ kind: 'fluid' as const, name: 'water', amount: 50, minTemp: null, maxTemp: null }, { kind: 'item' as const, name: 'barrel', amount: 1, minTemp: null, maxTemp: null }], products: [{ kind: 'item' as const, name: 'water-barrel', amount: 1, probability: 1, temperature: null, ignoredByProductivity: 0 }] };
    assert.equal(isBarrelRecipe(fill), true);
    assert.equal(isBarrelRecipe(w.g.recipes.get('refine-brine')!), false);
    // Py names its milk barrels the other way round: barrel-milk, empty-barrel-milk.
    const milk = { ...fill, ingredients: [{ ...fill.ingredients[0], name: 'milk' }, { ...fill.ingredients[1], name: 'empty-barrel-milk' }], products: [{ ...fill.products[0], name: 'barrel-milk' }] };
    assert.equal(isBarrelRecipe(milk), true);
    const barrelled = { ...fill, products: [{ ...fill.products[0], name: 'barrelled-water' }] };
    assert.equal(isBarrelRecipe(barrelled), false, 'a word of the name, not a part of one');
  });
});

describe('barrel recipes as sources', () => {
  // A hand-built index: water pumped and barrelled (vanilla's way), milk given in barrels by a ranch (Py's).
  const flow = (kind: 'item' | 'fluid', name: string, amount = 1) => ({ kind, name, amount, minTemp: null, maxTemp: null, probability: 1, temperature: null, ignoredByProductivity: 0 });
  const g = new GameIndex('barrels');
  const add = (name: string, ins: ReturnType<typeof flow>[], outs: ReturnType<typeof flow>[]) => {
    const r = { name, display: name, kind: 'real', category: 'crafting', categories: ['crafting'], energy: 1, enabled: true, hidden: false, allowProductivity: false, maxProductivity: null, allowedEffects: null, allowedModuleCategories: null, mainProduct: null, sourceEntity: null, synthetic: false, subgroup: null, order: null, unlockedBy: [], ingredients: ins, products: outs } as unknown as Recipe;
    g.recipes.set(name, r);
    for (const o of outs) g.producers.set(o.name, [...g.producersOf(o.name), name]);
    return r;
  };
  add('pump-water', [], [flow('fluid', 'water', 1200)]);
  const fillWater = add('fill-water-barrel', [flow('fluid', 'water', 50), flow('item', 'barrel')], [flow('item', 'water-barrel')]);
  const emptyWater = add('empty-water-barrel', [flow('item', 'water-barrel')], [flow('fluid', 'water', 50), flow('item', 'barrel')]);
  add('korlex-milk', [flow('item', 'fish', 5), flow('item', 'empty-barrel-milk', 3)], [flow('item', 'barrel-milk', 3)]);
  const fillMilk = add('fill-milk-barrel', [flow('fluid', 'milk', 50), flow('item', 'empty-barrel-milk')], [flow('item', 'barrel-milk')]);
  const emptyMilk = add('empty-milk-barrel', [flow('item', 'barrel-milk')], [flow('fluid', 'milk', 50), flow('item', 'empty-barrel-milk')]);

  it('fills a barrel with a fluid made elsewhere, and never makes the fluid by emptying what it filled', () => {
    assert.equal(makesForReal(g, fillWater, 'water-barrel'), true);
    assert.equal(makesForReal(g, emptyWater, 'water'), false);
    assert.equal(makesForReal(g, emptyWater, 'barrel'), false);
  });

  it('empties a barrel something else fills, and never fills it back from what it emptied', () => {
    assert.equal(makesForReal(g, emptyMilk, 'milk'), true);
    assert.equal(makesForReal(g, emptyMilk, 'empty-barrel-milk'), false);
    assert.equal(makesForReal(g, fillMilk, 'barrel-milk'), false);
  });
});

describe('recipeOptionsBatch', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('answers many goods at once and lists unknown names with suggestions', () => {
    const r = recipeOptionsBatch(w.ctx(NOW_BASIC, EARLY), { goods: ['gear', 'circuit', 'gearz'], limitEach: 1 });
    assert.deepEqual(Object.keys(r.options), ['gear', 'circuit']);
    assert.equal(r.options.gear.candidates.length, 1);
    assert.equal(r.options.gear.truncated, true);
    assert.equal(r.unknown![0].good, 'gearz');
    assert.match(r.unknown![0].error, /did you mean gear/);
  });

  it('throws when no name is a good', () => {
    assert.throws(() => recipeOptionsBatch(w.ctx(), { goods: ['nothing-here'] }), QueryError);
  });
});

describe('recipeOptions on catalyst recipes (FactorioLab sets)', function () {
  this.timeout(180_000);
  // Every recipe listed, those folded into a line as its temperature variants included.
  const names = (cs: Array<{ recipe: string; variants?: string[] }>) => cs.flatMap((c) => [c.recipe, ...(c.variants ?? [])]);
  const producers = (w: World, good: string) => names(recipeOptions(w.ctx({ research_mode: 'future' }), { good, limit: 20 }).candidates).sort();
  const consumers = (w: World, good: string) => names(recipeOptions(w.ctx({ research_mode: 'future' }), { good, direction: 'consume', limit: 25 }).candidates);

  it('vanilla 2.0: kovarex makes uranium-235 but only uses uranium-238', async function () {
    const w = await loadWorld(requireSharedData(this, 'factoriolab-vanilla-2.0'));
    // data.json: kovarex-enrichment-process 40 U-235 + 5 U-238 → 41 U-235 + 2 U-238 (net +1 U-235, −3 U-238);
    // uranium-processing 10 uranium-ore → 0.007 U-235 + 0.993 U-238; nuclear-fuel-reprocessing
    // 5 depleted-uranium-fuel-cell → 3 U-238.
    assert.deepEqual(producers(w, 'uranium-235'), ['kovarex-enrichment-process', 'uranium-processing']);
    assert.deepEqual(producers(w, 'uranium-238'), ['nuclear-fuel-reprocessing', 'uranium-processing']);
    assert.ok(consumers(w, 'uranium-238').includes('kovarex-enrichment-process'));
  });

  it('full Py: milk comes out of the barrels the korlex ranch fills, and filling them again is no source', async function () {
    const w = await loadWorld(requireSharedData(this, 'factoriolab-pysalf'));
    // data.json: fill-milk-barrel 50 milk + 1 empty-barrel-milk → 1 barrel-milk; empty-milk-barrel the
    // reverse; korlex-milk-1 (a ranch) gives 3 barrel-milk. Nothing else makes milk.
    assert.deepEqual(producers(w, 'milk'), ['empty-milk-barrel']);
    assert.ok(producers(w, 'barrel-milk').includes('korlex-milk-1'));
    assert.ok(!producers(w, 'barrel-milk').includes('fill-milk-barrel'), 'a round trip through the barrel');
    assert.ok(!producers(w, 'empty-barrel-milk').includes('empty-milk-barrel'), 'emptying makes no empty barrel');
    assert.ok(!consumers(w, 'milk').includes('fill-milk-barrel'), 'filling a barrel is no use of milk');
  });

  it('full Py: lists locked recipes nearest in research first, however cheap a farther one runs', async function () {
    const w = await loadWorld(requireSharedData(this, 'factoriolab-pysalf'));
    // data.json: pressured-steam-1 (500 pressured-water → 500 pressured-steam in a simik boiler) is
    // unlocked by domestication-mk04, whose units take military, chemical and Py 3 packs among others;
    // he-01 (a heat exchanger) by biomassplant-mk01, 1 py-science-pack-1 + 2 automation-science-pack a
    // unit, and its machine by nonrenewable-mk01 (the same packs). Neither runs with red science alone.
    const r = recipeOptions(w.ctx({ research_mode: 'now', available_science_packs: ['automation-science-pack'] }, []), { good: 'pressured-steam', limit: 10 });
    const at = (name: string) => r.candidates.findIndex((c) => c.recipe === name);
    assert.ok(at('he-01') >= 0 && at('pressured-steam-1') >= 0, JSON.stringify(r.candidates.map((c) => c.recipe)));
    assert.ok(r.candidates.every((c) => c.state === 'needs-research'));
    const cost = (name: string) => unitCost(w.g, w.g.recipes.get(name)!, 'pressured-steam')!;
    assert.ok(cost('pressured-steam-1') < cost('he-01'), 'by cost alone the simik boiler would come first');
    assert.ok(at('he-01') < at('pressured-steam-1'), JSON.stringify(r.candidates.map((c) => c.recipe)));
  });

  it('full Py: NiSi hands back less cobalt extract than it takes, so it is no producer of it', async function () {
    const w = await loadWorld(requireSharedData(this, 'factoriolab-pysalf'));
    // data.json: nisi 300 vacuum + 1 nickel-plate + 2 silicon + 2 cobalt-extract → 1 nisi + 1 cobalt-extract
    // (net −1); the three others make it from none: co-biomass-extraction(-steam-2000) → 2, cobalt-extract → 3.
    assert.deepEqual(producers(w, 'cobalt-extract'), ['co-biomass-extraction', 'co-biomass-extraction-steam-2000', 'cobalt-extract']);
    assert.ok(consumers(w, 'cobalt-extract').includes('nisi'));
    assert.deepEqual(producers(w, 'nisi'), ['nisi']);
  });
});
