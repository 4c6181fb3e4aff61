// chainStatus and byproductSinks on the sample world: closure of a recipe set, open inputs with
// import/build suggestions, byproducts, loops that terminate; where a byproduct can go.
import assert from 'node:assert/strict';
import { chainStatus } from '../../../../../src/core/planning/queries/chainStatus';
import { byproductSinks } from '../../../../../src/core/planning/queries/byproductSinks';
import { sampleWorld, type World } from './world';

const NOW_BASIC = { research_mode: 'now' as const, available_science_packs: ['basic-research-pack'] };

describe('chainStatus', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('scales the set per craft of the top recipe and lists what it still needs', () => {
    const r = chainStatus(w.ctx(NOW_BASIC), { recipes: ['circuit', 'wire', 'ferrite-plate'], target: 'circuit' });
    assert.equal(r.topRecipe, 'circuit');
    assert.deepEqual(r.crafts, { circuit: 1, wire: 1.5, 'ferrite-plate': 1 });
    assert.equal(r.closed, false);
    assert.deepEqual(r.openInputs.map((o) => [o.good, o.amountPerCraft, o.action]), [
      ['azurite-plate', 1.5, 'build'],
      ['ferrite-ore', 1, 'import'],
    ]);
    assert.equal(r.openInputs[0].suggestion, 'build: add azurite-plate');
    assert.equal(r.openInputs[0].topRecipe, 'azurite-plate');
    assert.match(r.openInputs[1].suggestion, /raw resource/);
    assert.equal(r.converged, true);
  });

  it('is closed when only imports are left', () => {
    const r = chainStatus(w.ctx(NOW_BASIC), { recipes: ['circuit', 'wire', 'ferrite-plate', 'azurite-plate'], target: 'circuit' });
    assert.equal(r.closed, true);
    assert.deepEqual(r.openInputs.map((o) => o.good).sort(), ['azurite-ore', 'ferrite-ore']);
  });

  it('suggests importing a shared input and says when a producer is locked', () => {
    const frame = chainStatus(w.ctx(NOW_BASIC), { recipes: ['frame'], target: 'frame' });
    const gear = frame.openInputs.find((o) => o.good === 'gear')!;
    assert.equal(gear.additive, true);
    assert.equal(gear.action, 'import');
    const dense = chainStatus(w.ctx(NOW_BASIC), { recipes: ['speed-module-s1'], target: 'speed-module-s1' });
    const d = dense.openInputs.find((o) => o.good === 'dense-circuit')!;
    assert.equal(d.action, 'build');
    assert.equal(d.locked, true);
    assert.match(d.suggestion, /no producer is selectable/);
  });

  it('settles byproduct loops and reports byproducts', () => {
    const r = chainStatus(w.ctx({ research_mode: 'future' }), { recipes: ['refine-brine', 'reclaim-tailings'], target: 'solvent' });
    assert.equal(r.converged, true);
    assert.equal(r.topRecipe, 'refine-brine');
    assert.equal(r.crafts['reclaim-tailings'], 2.5);
    assert.deepEqual(r.byproducts.map((b) => [b.good, b.amountPerCraft]), [['naphtha', 20], ['sludge-cake', 1.25]]);
    const tailings = r.openInputs.find((o) => o.good === 'tailings')!;
    assert.match(tailings.suggestion, /only as a byproduct \(refine-brine\)/);
  });

  it('reports names that are not recipes and a set that does not make the target', () => {
    const r = chainStatus(w.ctx(), { recipes: ['circuit', 'circut-lean'], target: 'circuit' });
    assert.equal(r.invalid[0].recipe, 'circut-lean');
    assert.match(r.invalid[0].error, /did you mean circuit-lean/);
    const none = chainStatus(w.ctx(), { recipes: ['wire'], target: 'gear' });
    assert.equal(none.topRecipe, null);
    assert.equal(none.closed, false);
    assert.match(none.note!, /no recipe of the set makes gear/);
    assert.deepEqual(chainStatus(w.ctx(), { recipes: ['wire', 'gear'], target: 'gear' }).unused, ['wire']);
  });
});

describe('byproductSinks', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('lists consumers with availability, void options and a note', () => {
    const r = byproductSinks(w.ctx(NOW_BASIC), { good: 'tailings' });
    assert.deepEqual(r.consumedBy.map((c) => [c.recipe, c.available]), [
      ['reclaim-tailings', true],
      ['reclaim-tailings-salvage', false],
    ]);
    assert.deepEqual(r.voidOptions.map((v) => [v.recipe, v.hidden, v.out]), [['tailings-void', true, 'nothing']]);
    assert.equal(r.spoils, null);
    assert.match(r.note, /1 selectable recipe use.*void it with tailings-void/);
    assert.deepEqual(r.importingBlocks, []);
  });

  it('mentions spoilage and fuel use, and bounds the consumer list', () => {
    const resin = byproductSinks(w.ctx({ research_mode: 'future' }), { good: 'fresh-resin' });
    assert.deepEqual(resin.spoils, { into: 'resin', seconds: 300, mustBeLocal: false });
    assert.match(resin.note, /spoils into resin after 300 s/);
    const lig = byproductSinks(w.ctx(), { good: 'lignite' });
    assert.match(lig.note, /fuel \(burn-lignite\)/);
    const gear = byproductSinks(w.ctx({ research_mode: 'future' }), { good: 'gear', limit: 2 }, { importingBlocks: ['Frames'] });
    assert.equal(gear.consumedBy.length, 2);
    assert.equal(gear.truncated, true);
    assert.deepEqual(gear.importingBlocks, ['Frames']);
  });
});
