// A campaign on the sample world: sift-sludge turns 2 sludge cake into a catalyst with probability
// 0.25 every 1.5 s. "40 catalysts within an hour, 95 % sure" plans for λ = χ²_80(0.95)/2 = 50.9395
// (standard table) catalysts on average: 50.9395/3600 per second, four times that in crafts.
import assert from 'node:assert/strict';
import { parseBlockDoc } from '../../../../../src/core/planning/block/document';
import { projectionFlows } from '../../../../../src/core/planning/factory/blocks';
import type { World } from './helpers';
import { assertBalanced, loadWorld, near, rate, row } from './helpers';

describe('block solver: campaign goals', () => {
  let w: World;
  before(async () => {
    w = await loadWorld();
  });

  const lambda = 101.879 / 2;

  it('sizes the block for the planned quantity over the duration', async () => {
    const r = await w.solve({ campaign: { duration: 3600, confidence: '95', quantities: [{ good: 'catalyst', quantity: 40 }] }, recipes: [{ recipe: 'sift-sludge' }] });
    assertBalanced(r);
    near(row(r, 'sift-sludge').craftsPerSecond, lambda / 3600 / 0.25, 1e-4);
    near(rate(r.imports, 'sludge-cake'), (2 * lambda) / 3600 / 0.25, 1e-4);
    const goal = r.goals.find((f) => f.good === 'catalyst')!;
    assert.equal(goal.campaign, true);
    near(goal.rate, lambda / 3600, 1e-4);
    assert.equal(r.campaign?.quantities[0].quantity, 40);
    near(r.campaign!.quantities[0].planned, lambda, 1e-4);
    // The factory sees a one-off quantity like a stock goal, not a steady supply for other blocks.
    const doc = parseBlockDoc({ campaign: { duration: 3600, confidence: '95', quantities: [{ good: 'catalyst', quantity: 40 }] }, recipes: [{ recipe: 'sift-sludge' }] });
    assert.deepEqual(projectionFlows('b1', doc, r).filter((f) => f.item === 'catalyst').map((f) => f.role), ['stock']);
  });

  it('adds a campaign quantity to a steady goal of the same good, and stops when completed', async () => {
    const both = await w.solve({ goals: [{ good: 'catalyst', rate: 0.01 }], campaign: { duration: 600, quantities: [{ good: 'catalyst', quantity: 6 }] }, recipes: [{ recipe: 'sift-sludge' }] });
    assertBalanced(both);
    near(row(both, 'sift-sludge').craftsPerSecond, (0.01 + 6 / 600) / 0.25);
    assert.ok(both.warnings.some((x) => /campaign quantity/.test(x)));
    const done = await w.solve({ goals: [{ good: 'catalyst', rate: 0.01 }], campaign: { duration: 600, quantities: [{ good: 'catalyst', quantity: 6 }], completedAt: '2026-12-03T08:00:00Z' }, recipes: [{ recipe: 'sift-sludge' }] });
    assertBalanced(done);
    near(row(done, 'sift-sludge').craftsPerSecond, 0.01 / 0.25);
    assert.equal(done.campaign?.completed, true);
    assert.ok(done.warnings.some((x) => /campaign was completed/.test(x)));
  });

  it('reports an unknown campaign good as a broken block', async () => {
    const r = await w.solve({ campaign: { duration: 60, quantities: [{ good: 'no-such-good', quantity: 3 }] }, recipes: [{ recipe: 'sift-sludge' }] });
    assert.equal(r.status, 'error');
    assert.match(r.message!, /unknown goal good no-such-good/);
  });
});
