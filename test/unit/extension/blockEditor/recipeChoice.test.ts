// Which recipe the block editor offers first for a good (the add-recipe picker's order, and what a
// Ctrl+click on an import adds): on the Py data, coal's own mine before "Coal gas from wood", which
// gives coal on the side; usable recipes before locked ones; recipes the block has left out.
import assert from 'node:assert/strict';
import { bestMaker, rankedFor } from '../../../../src/extension/blockEditor/recipeChoice';
import { completeChain } from '../../../../src/core/planning/proposals/complete';
import { requireSharedData } from '../../../helpers/paths';
import { loadWorld, type World } from '../../core/planning/queries/world';

describe('recipe choice for a good (Py data)', function () {
  this.timeout(120_000);
  let w: World;
  before(async function () {
    w = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
  });

  it('puts a good’s own maker before a recipe that makes it on the side, and usable before locked', () => {
    const ctx = w.ctx({ research_mode: 'now' });
    const coal = rankedFor(ctx, 'coal', 'produce', new Set());
    const rec = ctx.g.recipes.get('coal-gas-from-wood')!;
    assert.notEqual(rec.mainProduct ?? rec.products[0].name, 'coal', 'coal gas from wood gives coal on the side');
    assert.ok(coal.indexOf('mine-coal') < coal.indexOf('coal-gas-from-wood'), coal.slice(0, 5).join(', '));
    assert.equal(coal[0], 'mine-coal', 'the mine first: a raw resource’s own recipe');
    const usable = (r: string) => ['unlocked', 'buildable'].includes(ctx.availability.recipeVerdict(r).state);
    const firstLocked = coal.findIndex((r) => !usable(r));
    assert.ok(firstLocked > 0 && coal.slice(firstLocked).every((r) => !usable(r)), 'locked recipes come last');
    assert.equal(bestMaker(ctx, 'coal', new Set()), 'mine-coal');
    assert.equal(bestMaker(ctx, 'coal', new Set(['mine-coal'])), coal.filter((r) => r !== 'mine-coal')[0], 'a recipe the block has is not offered');
  });

  it('adds on Ctrl+click what Complete Chain adds for a made good, and the mine for a raw one', () => {
    const ctx = w.ctx({ research_mode: 'now' });
    const goods = ['coke', 'fawogae', 'fawogae-substrate', 'heavy-oil', 'syngas', 'iron-plate', 'tar', 'steel-plate', 'glass'].filter((good) => ctx.g.goods.has(good));
    let compared = 0;
    for (const good of goods) {
      const picked = bestMaker(ctx, good, new Set());
      // A good completion leaves imported (nothing usable makes it yet) has no choice to agree with.
      const completed = completeChain(ctx, { recipes: [], goals: [good], imported: new Set() }).added.find((a) => a.good === good)?.recipe;
      if (!completed) continue;
      compared++;
      assert.equal(picked, completed, `${good}: Ctrl+click ${picked}, Complete Chain ${completed}`);
      assert.ok(!ctx.g.recipes.get(picked!)!.ingredients.some((i) => i.name === good), `${good}: ${picked} feeds on it`);
    }
    assert.ok(compared >= 5, `${compared} goods compared`);
    // Py's raw-coal distillation names coal its main product (3 coal beside 60 coal gas): the mine stays first.
    const distilled = ctx.g.recipes.get('distilled-raw-coal')!;
    assert.equal(distilled.mainProduct, 'coal');
    assert.equal(bestMaker(ctx, 'coal', new Set()), 'mine-coal');
  });
});
