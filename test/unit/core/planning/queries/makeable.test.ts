// makeableGoods: which goods can be made at all under the horizon, loops that seed themselves
// included (a loop over several recipes that gives back more than it takes, once the player starts it).
import assert from 'node:assert/strict';
import { GameIndex, type Recipe } from '../../../../../src/core/planning/gameIndex';
import { gainingLoopGoods, makeableGoods } from '../../../../../src/core/planning/queries/makeable';
import { makesForReal } from '../../../../../src/core/planning/queries/common';
import { requireSharedData } from '../../../../helpers/paths';
import { loadWorld } from './world';

const recipe = (name: string, ins: Record<string, number>, outs: Record<string, number>): Recipe =>
  ({
    name, display: name, kind: 'real', category: 'crafting', categories: ['crafting'], energy: 1, enabled: true, hidden: false, allowProductivity: false, maxProductivity: null, allowedEffects: null, allowedModuleCategories: null, mainProduct: null, sourceEntity: null, synthetic: false, subgroup: null, order: null, unlockedBy: [],
    ingredients: Object.entries(ins).map(([n, amount]) => ({ kind: 'item' as const, name: n, amount, minTemp: null, maxTemp: null })),
    products: Object.entries(outs).map(([n, amount]) => ({ kind: 'item' as const, name: n, amount, probability: 1, temperature: null, ignoredByProductivity: 0 })),
  }) as Recipe;
// None of these recipes is a barrel's, so the game index behind them does not matter.
const real = (r: Recipe) => r.products.filter((p) => makesForReal(new GameIndex('none'), r, p.name));

describe('makeableGoods', () => {
  it('seeds a loop over several recipes that multiplies what it takes, not one that loses it', () => {
    // 5 a → 4 b, 1 b + 2 water → 3 c, 3 c → 2 a: 5 a → 4 b → 12 c → 8 a, ×1.6 per turn.
    const gaining = [recipe('ab', { a: 5 }, { b: 4 }), recipe('bc', { b: 1, water: 2 }, { c: 3 }), recipe('ca', { c: 3 }, { a: 2 })];
    assert.deepEqual(gainingLoopGoods(gaining, new Set(['water']), real).sort(), ['a', 'b', 'c']);
    // With 3 c → 1 a the turn gives 4 a for 5: the loop dies out, nothing is seeded.
    const losing = [gaining[0], gaining[1], recipe('ca', { c: 3 }, { a: 1 })];
    assert.deepEqual(gainingLoopGoods(losing, new Set(['water']), real), []);
    // A loop that needs something nothing makes (water not made) is no source either.
    assert.deepEqual(gainingLoopGoods(gaining, new Set(), real), []);
  });

  it("full Py: wood's seed loop makes wood, and with it the logistic science pack", async function () {
    this.timeout(180_000);
    const w = await loadWorld(requireSharedData(this, 'factoriolab-pysalf'));
    // data.json, all selectable under Future: log-wood 4 log → 20 wood; wood-seeds 5 wood → 4 wood-seeds;
    // wood-seedling 1 wood-seeds + 5 moss + 100 water → 3 wood-seedling; log1 3 wood-seedling → 3 log.
    // Nothing else makes any of them: 5 wood → 4 seeds → 12 seedlings → 12 logs → 60 wood, ×12 per turn.
    const made = makeableGoods(w.ctx({ research_mode: 'future' }));
    for (const g of ['wood', 'wood-seeds', 'wood-seedling', 'log', 'zogna-bacteria', 'animal-sample-01', 'logistic-science-pack']) assert.ok(made.has(g), g);
  });
});
