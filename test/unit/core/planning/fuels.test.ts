// The fuels offered as favourites on the Py data: a solid fuel only where some burner machine of the
// game data takes its fuel category (a battery or a fuel rod no machine burns is not "fuel"), and the
// fluids fluid-burning machines can burn.
import assert from 'node:assert/strict';
import { solidFuels } from '../../../../src/core/planning/settingsChange';
import { burnableFluids } from '../../../../src/core/planning/energy';
import { requireSharedData } from '../../../helpers/paths';
import { loadWorld } from './queries/world';

describe('favourite fuels (Py data)', function () {
  this.timeout(120_000);

  it('offers only solid fuels some burner burns, and fluids with a fuel value', async function () {
    const w = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
    const g = w.ctx({}).g;
    const burnt = new Set([...g.machines.values()].filter((m) => m.energySource === 'burner').flatMap((m) => m.fuelCategories));
    const fuels = solidFuels(g);
    assert.ok(fuels.includes('coal') && fuels.includes('wood'), 'coal and wood are fuel');
    for (const f of fuels) assert.ok(burnt.has(g.goods.get(f)!.fuelCategory!), `${f} is burnt by some machine`);
    // Items with a fuel value whose category no burner takes are left out.
    const unburnt = [...g.goods.values()].filter((x) => x.kind === 'item' && x.fuelCategory && (x.fuelValueJ ?? 0) > 0 && !burnt.has(x.fuelCategory));
    assert.ok(unburnt.length > 0, 'the Py data has such items');
    for (const x of unburnt) assert.ok(!fuels.includes(x.name), x.name);
    const fluids = burnableFluids(g).map((f) => f.name);
    assert.ok(fluids.length > 3 && fluids.every((f) => g.goods.get(f)!.kind === 'fluid'));
  });
});
