// The block LP on the sample world: goals, made links, coproducts, pins, surplus stages, unmade goals,
// determinism, scales, cycles and the dust floor (domain C.2–C.4).
import assert from 'node:assert/strict';
import type { World } from './helpers';
import { assertBalanced, loadWorld, near, rate, row } from './helpers';

describe('block solver: LP', () => {
  let w: World;
  before(async () => {
    w = await loadWorld();
  });

  it('binds a goal exactly and sizes buildings from the machine speed', async () => {
    const r = await w.solve({ goals: [{ good: 'gear', rate: 3 }], recipes: [{ recipe: 'gear', machine: 'press' }] });
    assertBalanced(r);
    near(row(r, 'gear').craftsPerSecond, 3);
    near(row(r, 'gear').buildings, 2.5); // 3/s × 0.5 s ÷ speed 0.6
    assert.equal(row(r, 'gear').wholeBuildings, 3);
    near(rate(r.goals, 'gear'), 3);
    assert.equal(rate(r.exports, 'gear'), 0);
    near(rate(r.imports, 'ferrite-plate'), 6);
  });

  it('links a made intermediate to its producer and imports an unlinked one', async () => {
    const doc = { goals: [{ good: 'gear', rate: 3 }], recipes: [{ recipe: 'gear', machine: 'press' }, { recipe: 'ferrite-plate', machine: 'kiln' }] };
    const linked = await w.solve({ ...doc, made: ['ferrite-plate'] });
    assertBalanced(linked);
    near(row(linked, 'ferrite-plate').craftsPerSecond, 6);
    near(row(linked, 'ferrite-plate').buildings, 19.2);
    assert.equal(rate(linked.imports, 'ferrite-plate'), 0);
    near(rate(linked.imports, 'ferrite-ore'), 6);
    const unlinked = await w.solve(doc);
    assert.equal(row(unlinked, 'ferrite-plate').craftsPerSecond, 0);
    near(rate(unlinked.imports, 'ferrite-plate'), 6);
  });

  it('exports forced coproducts as byproducts', async () => {
    const r = await w.solve({ goals: [{ good: 'naphtha', rate: 20 }], recipes: [{ recipe: 'refine-brine', machine: 'refinery-unit' }] });
    assertBalanced(r);
    near(row(r, 'refine-brine').craftsPerSecond, 1);
    near(rate(r.byproducts, 'solvent'), 40);
    near(rate(r.byproducts, 'tailings'), 30);
    assert.ok(!r.byproducts.some((f) => f.good === 'naphtha'));
    near(rate(r.imports, 'brine'), 100);
    near(rate(r.imports, 'azurite-ore'), 2);
  });

  it('keeps the direction of a zero-rate goal', async () => {
    const recipes = [{ recipe: 'refine-brine', machine: 'refinery-unit' }];
    // produce 0: net ≥ 0, so the forced 30/s tailings may leave the block;
    const produce = await w.solve({ recipes, goals: [{ good: 'naphtha', rate: 20 }, { good: 'tailings', rate: 0 }] });
    assertBalanced(produce);
    near(rate(produce.exports, 'tailings'), 30);
    // consume 0: net ≤ 0, which nothing here can meet.
    const consume = await w.solve({ recipes, goals: [{ good: 'naphtha', rate: 20 }, { good: 'tailings', rate: 0, direction: 'consume' }] });
    assert.equal(consume.status, 'infeasible');
    assert.ok(consume.diagnosis?.[0].members.some((m) => m.kind === 'goal' && m.ref === 'tailings'));
    // With a sink in the block the consume goal voids every tailing.
    const sink = await w.solve({
      recipes: [...recipes, { recipe: 'tailings-void', machine: 'void-pit' }],
      goals: [{ good: 'naphtha', rate: 20 }, { good: 'tailings', rate: 0, direction: 'consume' }],
    });
    assertBalanced(sink);
    near(row(sink, 'tailings-void').craftsPerSecond, 3);
    assert.equal(rate(sink.exports, 'tailings'), 0);
  });

  it('offsets imports with byproducts without scaling anything up', async () => {
    const recipes = [{ recipe: 'refine-brine', machine: 'refinery-unit' }, { recipe: 'solvent-wash', machine: 'refinery-unit' }];
    const small = await w.solve({ goals: [{ good: 'naphtha', rate: 20 }, { good: 'ferrite-plate', rate: 6 }], recipes });
    assertBalanced(small);
    near(row(small, 'refine-brine').craftsPerSecond, 1);
    assert.equal(rate(small.imports, 'solvent'), 0);
    near(rate(small.byproducts, 'solvent'), 20); // 40 made, 20 washed
    const big = await w.solve({ goals: [{ good: 'naphtha', rate: 20 }, { good: 'ferrite-plate', rate: 18 }], recipes });
    assertBalanced(big);
    near(row(big, 'refine-brine').craftsPerSecond, 1); // not scaled up for solvent: the rest is bought
    near(rate(big.imports, 'solvent'), 20);
  });

  it('minimizes goal surplus before machine-seconds', async () => {
    // solvent-wash makes plates cheaply but with 10 tailings each; the goal asks for 1/s tailings.
    const doc = {
      goals: [{ good: 'ferrite-plate', rate: 6 }, { good: 'tailings', rate: 1 }],
      recipes: [{ recipe: 'solvent-wash', machine: 'refinery-unit' }, { recipe: 'ferrite-plate', machine: 'kiln' }],
    };
    const r = await w.solve(doc);
    assertBalanced(r);
    assert.equal(r.stage, 3);
    near(row(r, 'solvent-wash').craftsPerSecond, 0.1);
    near(row(r, 'ferrite-plate').craftsPerSecond, 5.4);
    assert.equal(rate(r.exports, 'tailings'), 0);
  });

  it('keeps the surplus-minimal stage-2 solution when stage 3 fails', async () => {
    const doc = {
      goals: [{ good: 'ferrite-plate', rate: 6 }, { good: 'tailings', rate: 1 }],
      recipes: [{ recipe: 'solvent-wash', machine: 'refinery-unit' }, { recipe: 'ferrite-plate', machine: 'kiln' }],
    };
    const r = await w.solve(doc, { intercept: (stage, res) => (stage === 3 ? { ...res, status: 'error', message: 'forced failure' } : res) });
    assertBalanced(r);
    assert.equal(r.stage, 2);
    assert.equal(rate(r.exports, 'tailings'), 0);
    near(rate(r.goals, 'ferrite-plate'), 6);
    assert.ok(r.warnings.some((x) => /kept the surplus-minimal solution/.test(x)), r.warnings.join('\n'));
  });

  it('drives a goalless block from a building-count pin', async () => {
    const r = await w.solve({ recipes: [{ recipe: 'gear', machine: 'press' }], pins: [{ kind: 'count', recipe: 'gear', buildings: 2 }] });
    assertBalanced(r);
    near(row(r, 'gear').buildings, 2);
    near(rate(r.byproducts, 'gear'), 2.4);
    near(rate(r.imports, 'ferrite-plate'), 4.8);
  });

  it('supersedes a goal whose every producer is count-pinned and reports the pinned rate', async () => {
    const r = await w.solve({ goals: [{ good: 'gear', rate: 5 }], recipes: [{ recipe: 'gear', machine: 'press' }], pins: [{ kind: 'count', recipe: 'gear', buildings: 2 }] });
    assertBalanced(r);
    assert.equal(r.goalSuperseded.length, 1);
    const s = r.goalSuperseded[0];
    assert.equal(s.good, 'gear');
    assert.equal(s.goalRate, 5);
    near(s.actualRate, 2.4);
    assert.equal(s.pinnedBuildings, 2);
    assert.equal(s.buildingsForGoal, 5); // ⌈5 / 1.2⌉
    near(rate(r.goals, 'gear'), 2.4);
    // A cap never supersedes.
    const capped = await w.solve({ goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear', machine: 'press' }], pins: [{ kind: 'cap', recipe: 'gear', buildings: 2 }] });
    assert.equal(capped.goalSuperseded.length, 0);
    near(rate(capped.goals, 'gear'), 1);
  });

  it('gives a share pin its fraction of the remaining or of the total production', async () => {
    // Plates fixed at 2/s; the frame row is count-pinned and takes 0.225/s of them.
    const doc = (base: 'remaining' | 'total') => ({
      recipes: [{ recipe: 'ferrite-plate', machine: 'kiln' }, { recipe: 'gear', machine: 'press' }, { recipe: 'frame', machine: 'press' }],
      pins: [
        { kind: 'count' as const, recipe: 'ferrite-plate', buildings: 6.4 },
        { kind: 'count' as const, recipe: 'frame', buildings: 0.25 },
        { kind: 'share' as const, recipe: 'gear', good: 'ferrite-plate', share: 0.5, base },
      ],
    });
    const remaining = await w.solve(doc('remaining'));
    assertBalanced(remaining);
    near(row(remaining, 'gear').craftsPerSecond * 2, 0.5 * (2 - 0.225));
    const total = await w.solve(doc('total'));
    assertBalanced(total);
    near(row(total, 'gear').craftsPerSecond * 2, 0.5 * 2);
  });

  it('reports a goal nothing in the block makes as unmade', async () => {
    const r = await w.solve({ goals: [{ good: 'gear', rate: 1 }, { good: 'catalyst', rate: 1 }], recipes: [{ recipe: 'gear', machine: 'press' }] });
    assertBalanced(r);
    assert.deepEqual(r.unmade, [{ good: 'catalyst', reason: 'nothing in the block makes Catalyst' }]);
    assert.equal(rate(r.goals, 'catalyst'), 0);
    near(rate(r.goals, 'gear'), 1);
    // A goal good that rows only consume is unmade too, and is simply imported.
    const consumed = await w.solve({ goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'gear', machine: 'press' }], pins: [{ kind: 'count', recipe: 'gear', buildings: 1 }] });
    assert.equal(consumed.unmade[0]?.good, 'ferrite-plate');
    near(rate(consumed.imports, 'ferrite-plate'), 2.4);
  });

  it('solves a block without recipes empty, with every goal unmade', async () => {
    const r = await w.solve({ goals: [{ good: 'gear', rate: 1 }] });
    assert.equal(r.status, 'optimal');
    assert.deepEqual(r.rows, []);
    assert.deepEqual(r.unmade.map((x) => x.good), ['gear']);
  });

  it('refuses a broken block (unknown recipe or goal good) without solving it', async () => {
    const r = await w.solve({ goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'no-such-recipe' }] });
    assert.equal(r.status, 'error');
    assert.match(r.message!, /broken.*no-such-recipe/);
    const g = await w.solve({ goals: [{ good: 'unobtainium', rate: 1 }], recipes: [{ recipe: 'gear' }] });
    assert.equal(g.status, 'error');
    assert.match(g.message!, /unobtainium/);
  });

  it('gives the same output for the same input, whatever the row order', async () => {
    const doc = {
      goals: [{ good: 'naphtha', rate: 20 }, { good: 'frame', rate: 1 }],
      recipes: [{ recipe: 'refine-brine' }, { recipe: 'reclaim-tailings' }, { recipe: 'mine-brine-spring' }, { recipe: 'frame' }, { recipe: 'frame-lean' }, { recipe: 'gear' }],
      made: ['brine', 'gear'],
    };
    const strip = (r: Awaited<ReturnType<World['solve']>>) => ({ ...r, timing: undefined });
    const a = await w.solve(doc);
    const b = await w.solve(doc);
    assert.deepEqual(strip(a), strip(b));
    const reversed = await w.solve({ ...doc, recipes: [...doc.recipes].reverse() });
    for (const x of a.rows) near(row(reversed, x.recipe).craftsPerSecond, x.craftsPerSecond, 1e-9, x.recipe);
  });

  for (const scale of [1e-4, 1e5]) {
    it(`solves a chain at ${scale}/s with the same proportions`, async () => {
      const r = await w.solve({
        goals: [{ good: 'frame', rate: scale }],
        recipes: [{ recipe: 'frame', machine: 'press' }, { recipe: 'gear', machine: 'press' }, { recipe: 'ferrite-plate', machine: 'kiln' }],
        made: ['gear', 'ferrite-plate'],
      });
      assertBalanced(r);
      near(row(r, 'frame').craftsPerSecond, scale);
      near(row(r, 'gear').craftsPerSecond, 2 * scale);
      near(row(r, 'ferrite-plate').craftsPerSecond, 7 * scale);
      near(rate(r.imports, 'ferrite-ore'), 7 * scale);
    });
  }

  it('conserves mass around the brine loop', async () => {
    const r = await w.solve({
      goals: [{ good: 'naphtha', rate: 20 }],
      recipes: [{ recipe: 'refine-brine' }, { recipe: 'reclaim-tailings' }, { recipe: 'mine-brine-spring' }],
      made: ['brine'],
      drains: ['tailings'],
    });
    assertBalanced(r);
    const refine = row(r, 'refine-brine').craftsPerSecond;
    const reclaim = row(r, 'reclaim-tailings').craftsPerSecond;
    near(refine, 1);
    near(reclaim * 50, 30 * refine); // every tailing reclaimed
    near(row(r, 'mine-brine-spring').craftsPerSecond * 12 + reclaim * 40, 100 * refine); // brine in = brine used
    assert.equal(rate(r.imports, 'brine') + rate(r.exports, 'brine') + rate(r.imports, 'tailings') + rate(r.exports, 'tailings'), 0);
    near(rate(r.byproducts, 'sludge-cake'), reclaim * 0.5);
  });

  it('drops LP dust below the floor but keeps real small flows', async () => {
    // Spoilage stays outside the LP: 1e-4/s of resin on a 100/s resin flow is dust, on 1e-3/s it is real.
    const doc = (goal: number) => ({
      goals: [{ good: 'resin', rate: goal }], recipes: [{ recipe: 'cure-resin', machine: 'kiln' }], spoilRates: { 'fresh-resin': 1e-4 },
    });
    const big = await w.solve(doc(100));
    assertBalanced(big);
    assert.equal(rate(big.exports, 'resin'), 0);
    const small = await w.solve(doc(1e-3));
    assertBalanced(small);
    near(rate(small.exports, 'resin'), 1e-4);
    // A real 1e-6/s goal keeps its 2e-6/s import.
    const tiny = await w.solve({ goals: [{ good: 'gear', rate: 1e-6 }], recipes: [{ recipe: 'gear', machine: 'press' }] });
    near(rate(tiny.imports, 'ferrite-plate'), 2e-6);
  });

  it('balances a drained byproduct next to a consumer that demands it', async () => {
    const r = await w.solve({
      goals: [{ good: 'naphtha', rate: 20 }],
      recipes: [{ recipe: 'refine-brine', machine: 'refinery-unit' }, { recipe: 'solvent-wash', machine: 'refinery-unit' }],
      drains: ['solvent'],
    });
    assertBalanced(r);
    near(row(r, 'solvent-wash').craftsPerSecond, 2); // 40/s solvent, 20 per wash
    assert.equal(rate(r.exports, 'solvent') + rate(r.imports, 'solvent'), 0);
    near(rate(r.byproducts, 'ferrite-plate'), 12);
    // The drain is counted once: tailings from both rows export once, as one flow.
    assert.equal(r.exports.filter((f) => f.good === 'tailings').length, 1);
    near(rate(r.byproducts, 'tailings'), 30 + 20);
  });
});
