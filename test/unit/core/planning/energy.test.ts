// Energy on the sample world: fuels of a burner, the default-fuel rule, what each energy source
// draws per building, and pollution per minute.
import assert from 'node:assert/strict';
import { chooseFuel, energyDemand, fuelsFor, pollutionPerMinute } from '../../../../src/core/planning/energy';
import { sampleWorld, type World } from './queries/world';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≉ ${b}`);

describe('energy', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });
  const M = (n: string) => w.g.machines.get(n)!;

  it('lists the solid fuels a burner accepts, by fuel value', () => {
    assert.deepEqual(fuelsFor(w.g, M('kiln')).map((f) => f.name), ['charcoal', 'lignite']);
    assert.deepEqual(fuelsFor(w.g, M('press')), []);
  });

  it('chooses the row\'s fuel, else the favourite, else one the block makes, else the first preferred one, else the median', () => {
    const kiln = M('kiln');
    assert.deepEqual(chooseFuel(w.g, kiln, { picked: 'lignite', favorite: 'charcoal' }), { fuel: 'lignite', rule: 'picked' });
    assert.deepEqual(chooseFuel(w.g, kiln, { picked: 'gear', favorite: 'lignite' }), { fuel: 'lignite', rule: 'favorite' });
    assert.deepEqual(chooseFuel(w.g, kiln, { favorite: 'lignite', madeHere: (f) => f === 'charcoal' }), { fuel: 'lignite', rule: 'favorite' });
    assert.deepEqual(chooseFuel(w.g, kiln, { madeHere: (f) => f === 'lignite' }), { fuel: 'lignite', rule: 'made-here' });
    assert.deepEqual(chooseFuel(w.g, kiln), { fuel: 'charcoal', rule: 'preferred' });
    assert.deepEqual(chooseFuel(w.g, kiln, { madeHere: () => false }), { fuel: 'charcoal', rule: 'preferred' });
    assert.deepEqual(chooseFuel(w.g, M('press')), { fuel: null, rule: 'none' });
  });

  it('burns fuel items at usage ÷ fuel value (effectivity already in the usage), with burnt results', () => {
    const kiln = M('kiln');
    close(kiln.energyUsageW, 90_000 / 0.8);
    const e = energyDemand(w.g, kiln, 1, 'lignite');
    assert.equal(e.kind, 'burner');
    if (e.kind !== 'burner') return;
    close(e.itemsPerSec, 112_500 / 3.5e6);
    assert.equal(e.burntResult, 'ash');
    const fast = energyDemand(w.g, kiln, 1.5, 'charcoal');
    if (fast.kind === 'burner') close(fast.itemsPerSec, (112_500 * 1.5) / 2.2e6);
  });

  it('draws electricity with its drain, fluid fuel in MJ, and nothing for void sources', () => {
    const e = energyDemand(w.g, M('press-mk2'), 2, null);
    assert.deepEqual(e, { kind: 'electric', watts: 420_000, drainW: 5000 });
    const f = energyDemand(w.g, M('naphtha-furnace'), 1, null);
    assert.equal(f.kind, 'fluid-fuel');
    if (f.kind === 'fluid-fuel') close(f.mjPerSec, 0.18);
    assert.deepEqual(energyDemand(w.g, M('void-pit'), 1, null), { kind: 'none' });
  });

  it('counts pollution per minute with consumption and pollution multipliers', () => {
    close(pollutionPerMinute(M('press'), 3, 1.5, 1.2), 4 * 3 * 1.5 * 1.2);
  });
});
