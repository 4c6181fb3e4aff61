// recipeGraph on the sample world: breadth-first neighbourhood, seams (raw, block, depth), candidate
// bounds, the node budget with its frontier, and determinism.
import assert from 'node:assert/strict';
import { recipeGraph } from '../../../../../src/core/planning/queries/recipeGraph';
import { QueryError } from '../../../../../src/core/planning/queries/errors';
import { sampleWorld, type World } from './world';

const NOW_BASIC = { research_mode: 'now' as const, available_science_packs: ['basic-research-pack'] };

describe('recipeGraph', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('walks breadth first from the target, each good once, and stops at raw goods', () => {
    const r = recipeGraph(w.ctx(NOW_BASIC), { target: 'advanced-research-pack' });
    assert.equal(r.target, 'advanced-research-pack');
    assert.equal(r.budgetHit, false);
    assert.deepEqual(r.unexpanded, []);
    assert.equal(r.goodCount, Object.keys(r.goods).length);
    const depths = Object.values(r.goods).map((n) => n.depth);
    assert.deepEqual(depths, [...depths].sort((a, b) => a - b));
    assert.equal(r.goods['advanced-research-pack'].depth, 0);
    assert.equal(r.goods['circuit'].depth, 1);
    assert.deepEqual(r.goods['azurite-ore'].seam, 'raw');
    assert.equal(r.goods['azurite-ore'].leaf, true);
    assert.equal(r.goods['azurite-ore'].candidates, undefined);
    assert.match(r.legend, /seam/);
  });

  it('lists candidates in picker order with availability, cost and in/out', () => {
    const r = recipeGraph(w.ctx(NOW_BASIC, ['automation-basics', 'electronics']), { target: 'circuit' });
    const c = r.goods['circuit'].candidates!;
    assert.deepEqual(c.map((x) => x.recipe), ['circuit', 'circuit-lean']);
    assert.equal(c[0].lockState, 'unlocked');
    assert.equal(c[0].in, '3 wire + 1 ferrite-plate');
    assert.equal(typeof c[0].cost, 'number');
    assert.deepEqual(c[1].turd, { master: 'press-upgrade', choice: 'lean-press', state: 'pickable' });
    assert.deepEqual(c[1].needsResearch, ['advanced-research-pack']);
  });

  it('bounds candidates per good and counts the rest', () => {
    const r = recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'circuit', candidatesPerGood: 1 });
    assert.equal(r.goods['circuit'].candidates!.length, 1);
    assert.equal(r.goods['circuit'].moreCandidates, 1);
    assert.ok(r.goods['wire']);
  });

  it('cuts at the depth limit', () => {
    const r = recipeGraph(w.ctx(NOW_BASIC), { target: 'advanced-research-pack', depth: 1 });
    assert.ok(r.goods['advanced-research-pack'].candidates);
    assert.equal(r.goods['circuit'].seam, 'depth');
    assert.equal(r.goods['filter'].seam, 'depth');
    assert.equal(r.goods['wire'], undefined);
  });

  it('cuts at goods an existing block makes, except the target', () => {
    const blocks = new Map([['frame', 'Frame block'], ['advanced-research-pack', 'Science']]);
    const r = recipeGraph(w.ctx(NOW_BASIC), { target: 'advanced-research-pack' }, { blockGoods: blocks });
    assert.equal(r.goods['frame'].seam, 'block');
    assert.equal(r.goods['frame'].fromBlock, 'Frame block');
    assert.ok(r.goods['advanced-research-pack'].candidates);
    assert.ok(!r.goods['frame'].candidates);
    const s = recipeGraph(w.ctx(NOW_BASIC), { target: 'advanced-research-pack' }, { blockGoods: new Set(['filter']) });
    assert.equal(s.goods['filter'].seam, 'block');
  });

  it('stops at the node budget and returns the frontier', () => {
    const r = recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'speed-module-s1', nodeBudget: 10 });
    assert.equal(r.goodCount, 10);
    assert.equal(Object.keys(r.goods).length, 10);
    assert.equal(r.budgetHit, true);
    assert.ok(r.unexpanded.length > 0);
    for (const u of r.unexpanded) assert.equal(r.goods[u], undefined);
  });

  it('reports spoilage on the way and the target of a raw good with its mining candidate', () => {
    const r = recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'filter' });
    assert.deepEqual(r.goods['fresh-resin'].spoils, { into: 'resin', seconds: 300, mustBeLocal: false });
    const ore = recipeGraph(w.ctx(), { target: 'azurite-ore' });
    assert.ok(ore.goods['azurite-ore'].candidates!.some((c) => c.recipe === 'mine-azurite-ore'));
  });

  it('is deterministic', () => {
    const a = JSON.stringify(recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'beacon-tower' }));
    const b = JSON.stringify(recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'beacon-tower' }));
    assert.equal(a, b);
  });

  it('asks for searchGoods on an unknown target', () => {
    assert.throws(() => recipeGraph(w.ctx(), { target: 'advanced research pack x' }), QueryError);
  });
});
