// Fluid temperatures (domain C.5) on the sample world's steam: the boiler makes 165°, the superheater
// 500° from 150–200° steam; resin takes ≥150°, dense circuits ≥400°, turbines exactly 165° or 500°.
import assert from 'node:assert/strict';
import type { World } from './helpers';
import { assertBalanced, loadWorld, near, rate, row } from './helpers';

describe('block solver: temperatures', () => {
  let w: World;
  before(async () => {
    w = await loadWorld();
  });

  const superheat = { recipe: 'superheat-steam', machine: 'refinery-unit' };
  const boiler = { recipe: 'boil-steam-165' };

  it('keeps exact producer identity: a 500° turbine runs on superheated steam only', async () => {
    const r = await w.solve({
      goals: [{ good: 'pyops-electricity', rate: 3.6375 }],
      recipes: [{ recipe: 'generate-steam-turbine-unit-500' }, boiler, superheat],
      made: ['steam'],
    });
    assertBalanced(r);
    near(row(r, 'generate-steam-turbine-unit-500').craftsPerSecond, 1); // 30 steam at 500°
    near(row(r, 'superheat-steam').craftsPerSecond, 0.6); // 50 per run
    near(row(r, 'boil-steam-165').craftsPerSecond, 36 / (80 / 3)); // 36/s at 165° into the superheater
    assert.equal(rate(r.imports, 'steam') + rate(r.exports, 'steam'), 0);
    assert.equal(r.lp?.selectors, 2);
  });

  it('never feeds a consumer from a producer outside its range', async () => {
    const turbine = await w.solve({ goals: [{ good: 'pyops-electricity', rate: 1.125 }], recipes: [{ recipe: 'generate-steam-turbine-unit-165' }, superheat], made: ['steam'] });
    assertBalanced(turbine);
    assert.equal(row(turbine, 'superheat-steam').craftsPerSecond, 0);
    const imp = turbine.imports.find((f) => f.good === 'steam')!;
    assert.deepEqual([imp.rate, imp.minTemperature, imp.maxTemperature], [30, 165, 165]);
    const dense = await w.solve({ goals: [{ good: 'dense-circuit', rate: 0.25 }], recipes: [{ recipe: 'dense-circuit', machine: 'press' }, boiler], made: ['steam'] });
    assertBalanced(dense);
    assert.equal(row(dense, 'boil-steam-165').craftsPerSecond, 0);
    const d = dense.imports.find((f) => f.good === 'steam')!;
    assert.deepEqual([d.rate, d.minTemperature, d.maxTemperature], [7.5, 400, null]);
  });

  it('lets a range take any producer in it and pools several producers', async () => {
    // Superheater alone: resin (≥150°) takes its 500° steam; the superheater's own 150–200° input is bought.
    const single = await w.solve({ goals: [{ good: 'fresh-resin', rate: 2 }], recipes: [superheat, { recipe: 'resin', machine: 'refinery-unit' }], made: ['steam'] });
    assertBalanced(single);
    near(row(single, 'superheat-steam').craftsPerSecond, 0.2);
    const imp = single.imports.find((f) => f.good === 'steam')!;
    assert.deepEqual([imp.rate, imp.minTemperature, imp.maxTemperature], [12, 150, 200]);
    // Both pinned: 8/s at 165° (3 of it into the superheater) and 2.5/s at 500° meet resin's 7.5/s together.
    const pooled = await w.solve({
      goals: [{ good: 'fresh-resin', rate: 1.5 }],
      recipes: [{ recipe: 'resin', machine: 'refinery-unit' }, boiler, superheat],
      made: ['steam'],
      pins: [{ kind: 'count', recipe: 'boil-steam-165', buildings: 0.25 }, { kind: 'count', recipe: 'superheat-steam', buildings: 0.05 }],
    });
    assertBalanced(pooled);
    assert.equal(rate(pooled.imports, 'steam') + rate(pooled.exports, 'steam'), 0);
  });

  it('narrows a row to one produced temperature', async () => {
    const r = await w.solve({
      goals: [{ good: 'fresh-resin', rate: 2 }],
      recipes: [{ recipe: 'resin', machine: 'refinery-unit', fluidTemperatures: { steam: 500 } }, boiler, superheat],
      made: ['steam'],
    });
    assertBalanced(r);
    near(row(r, 'superheat-steam').craftsPerSecond, 0.2); // 10/s at 500° although 165° would be cheaper
  });

  it('meets a fluid goal at an exact temperature or at any', async () => {
    const exact = await w.solve({ goals: [{ good: 'steam', rate: 50, temperature: 500 }], recipes: [boiler, superheat] });
    assertBalanced(exact);
    near(row(exact, 'superheat-steam').craftsPerSecond, 1);
    assert.deepEqual(exact.goals.map((f) => [f.good, f.rate, f.temperature]), [['steam', 50, 500]]);
    assert.equal(rate(exact.exports, 'steam'), 0);
    const any = await w.solve({ goals: [{ good: 'steam', rate: 50 }], recipes: [boiler, superheat] });
    assertBalanced(any);
    assert.equal(row(any, 'superheat-steam').craftsPerSecond, 0);
    assert.deepEqual(any.goals.map((f) => [f.good, f.rate, f.temperature]), [['steam', 50, 165]]);
    const none = await w.solve({ goals: [{ good: 'steam', rate: 50, temperature: 300 }], recipes: [boiler, superheat] });
    assert.deepEqual(none.unmade, [{ good: 'steam', reason: 'nothing in the block makes Steam at 300°' }]);
  });

  it('splits a goal fed at two temperatures by the temperature that fed it', async () => {
    const split = (r: Awaited<ReturnType<World['solve']>>) => r.goals.map((f) => [f.temperature, Number(f.rate.toFixed(9))]).sort();
    const r = await w.solve({ goals: [{ good: 'steam', rate: 80 }], recipes: [boiler, superheat], pins: [{ kind: 'count', recipe: 'superheat-steam', buildings: 0.5 }] });
    assertBalanced(r);
    assert.deepEqual(split(r), [[165, 55], [500, 25]]); // the pinned superheater's 25/s, the boiler the rest
    assert.equal(rate(r.exports, 'steam'), 0);
    // Every producer pinned: the pins decide, and the goal reports what they make.
    const pinned = await w.solve({
      goals: [{ good: 'steam', rate: 40 }], recipes: [boiler, superheat],
      pins: [{ kind: 'count', recipe: 'superheat-steam', buildings: 0.5 }, { kind: 'count', recipe: 'boil-steam-165', buildings: 2 }],
    });
    assertBalanced(pinned);
    assert.deepEqual(split(pinned), [[165, 34], [500, 25]]); // 64/s at 165°, 30 of it superheated
    assert.equal(pinned.goalSuperseded[0]?.actualRate, 59);
  });

  it('gives a share pin on a pool its fraction of the in-range temperatures', async () => {
    const r = await w.solve({
      recipes: [boiler, superheat, { recipe: 'resin', machine: 'refinery-unit' }, { recipe: 'gear-tempered', machine: 'press' }],
      pins: [{ kind: 'count', recipe: 'boil-steam-165', buildings: 0.25 }, { kind: 'share', recipe: 'resin', good: 'steam', share: 0.5, base: 'total' }],
    });
    assertBalanced(r);
    assert.ok((r.lp?.selectors ?? 0) > 0, 'steam is expanded');
    near(row(r, 'resin').craftsPerSecond * 10, 4); // half of 8/s at 165°
    near(rate(r.exports, 'steam'), 4);
    assert.equal(r.exports.find((f) => f.good === 'steam')?.temperature, 165);
  });
});
