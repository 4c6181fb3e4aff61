// goodInfo: classification and the build-or-import verdict, with cost, producers, consumers and spoilage.
import assert from 'node:assert/strict';
import { goodInfo } from '../../../../../src/core/planning/queries/goodInfo';
import { goodCost, recipeCost, unitCost } from '../../../../../src/core/planning/queries/cost';
import { QueryError } from '../../../../../src/core/planning/queries/errors';
import { sampleWorld, type World } from './world';

const NOW_BASIC = { research_mode: 'now' as const, available_science_packs: ['basic-research-pack'] };

describe('goodInfo', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('calls a mined good raw and says to import it', () => {
    const r = goodInfo(w.ctx(NOW_BASIC), { good: 'azurite-ore' });
    assert.equal(r.classification, 'raw');
    assert.equal(r.verdict, 'import');
    assert.equal(r.kind, 'item');
    assert.equal(r.cost, 1); // a 1-second resource costs 1 per unit
  });

  it('calls a good with ten or more real consumers additive (import from its own block)', () => {
    const r = goodInfo(w.ctx(NOW_BASIC), { good: 'gear' });
    assert.equal(r.additive, true);
    assert.ok(r.consumers.count >= 10);
    assert.equal(r.classification, 'additive');
    assert.equal(r.verdict, 'import');
    assert.equal(r.producers.count, 2);
    assert.equal(r.producers.top[0].recipe, 'gear');
    // Producers carry the state words of every tool: gear-tempered's TURD master needs advanced packs.
    assert.deepEqual(r.producers.top.map((p) => [p.recipe, p.state]), [['gear', 'buildable'], ['gear-tempered', 'needs-research']]);
  });

  it('says build for an intermediate with a selectable producer, locked when none is', () => {
    const r = goodInfo(w.ctx(NOW_BASIC), { good: 'frame' });
    assert.equal(r.classification, 'intermediate');
    assert.equal(r.verdict, 'build');
    const d = goodInfo(w.ctx(NOW_BASIC), { good: 'dense-circuit' });
    assert.equal(d.verdict, 'locked');
    assert.match(d.reason, /advanced-research-pack/);
    assert.equal(goodInfo(w.ctx({ research_mode: 'future' }), { good: 'dense-circuit' }).verdict, 'build');
  });

  it('says import for a good an existing block makes', () => {
    const r = goodInfo(w.ctx(NOW_BASIC), { good: 'frame' }, { blockGoods: new Map([['frame', 'Frames']]) });
    assert.equal(r.verdict, 'import');
    assert.equal(r.fromBlock, 'Frames');
  });

  it('reports spoilage, and must-be-local against the import cutoff', () => {
    const r = goodInfo(w.ctx(), { good: 'fresh-resin' });
    assert.deepEqual(r.spoils, { into: 'resin', seconds: 300, mustBeLocal: false });
    assert.equal(goodInfo(w.ctx({ spoil_import_cutoff_sec: 600 }), { good: 'fresh-resin' }).spoils!.mustBeLocal, true);
    assert.equal(goodInfo(w.ctx(), { good: 'gear' }).spoils, null);
  });

  it('knows energy goods, final products, fuels and buildings', () => {
    assert.equal(goodInfo(w.ctx(), { good: 'pyops-electricity' }).classification, 'energy');
    const lab = goodInfo(w.ctx(), { good: 'lab-unit' });
    assert.equal(lab.classification, 'final');
    assert.equal(lab.placesMachine, 'lab-unit');
    assert.equal(goodInfo(w.ctx(), { good: 'lignite' }).fuelMJ, 3.5);
    assert.equal(goodInfo(w.ctx(), { good: 'steam' }).kind, 'fluid');
  });

  it('prices goods deterministically: raw 1 per second of mining, crafted above their inputs', () => {
    const ore = goodCost(w.g, 'azurite-ore')!;
    const plate = goodCost(w.g, 'azurite-plate')!;
    assert.equal(ore, 1);
    assert.ok(Math.abs(plate - (1 + 0.1 * 3.2)) < 1e-12);
    assert.ok(goodCost(w.g, 'wire')! < plate);
    assert.ok(goodCost(w.g, 'dense-circuit')! > goodCost(w.g, 'circuit')!);
    assert.equal(goodCost(w.g, 'tempered-press-module') !== null, true);
    // A catalyst counts by its net amount, but superheated steam (500°, outside the 150–200° input) is an output.
    assert.ok(unitCost(w.g, w.g.recipes.get('superheat-steam')!, 'steam')! > 0);
    assert.equal(recipeCost(w.g, w.g.recipes.get('superheat-steam')!)! > 60 * goodCost(w.g, 'steam')!, true);
  });

  it('throws a QueryError with suggestions for an unknown good', () => {
    assert.throws(() => goodInfo(w.ctx(), { good: 'gears' }), (e: Error) => e instanceof QueryError && /did you mean gear/.test(e.message));
  });
});
