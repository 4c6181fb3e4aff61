// Composed row groups on the sample world. A module is solved at its reference rate and scaled by
// the block; the rows reported are the module's real machines at that scale. Recipes (sample dump):
// arm = circuit + gear + ferrite plate (0.5 s); gear = 2 ferrite plate → 1 gear (0.5 s); circuit = 3 wire +
// ferrite plate (1 s); wire = azurite plate → 2 wire (0.5 s); refine-brine = 100 brine + 2 azurite
// ore → 40 solvent, 30 tailings, 20 naphtha (4 s); reclaim-tailings = 50 tailings → 40 brine + sludge
// cake at probability 0.5 (3 s); resin = 20 naphtha + 10 steam (≥150°) → 2 fresh resin (2 s).
import assert from 'node:assert/strict';
import { parseBlockDoc } from '../../../../../src/core/planning/block/document';
import { loadHighs } from '../../../../../src/core/planning/solver/highs';
import { solveBlockSync } from '../../../../../src/core/planning/solver/solve';
import type { World } from './helpers';
import { assertBalanced, loadWorld, near, rate, row } from './helpers';

describe('block solver: composed row groups', () => {
  let w: World;
  before(async () => {
    w = await loadWorld();
  });

  const circuits = { name: 'Circuits', recipes: ['circuit', 'wire'], composed: { goal: { good: 'circuit', rate: 2 } } };

  it('scales a module to what the block needs and reports its rows as real machines', async () => {
    // 1 arm/s takes 1 circuit/s: half the module's reference rate of 2/s.
    const r = await w.solve({ goals: [{ good: 'arm', rate: 1 }], recipes: [{ recipe: 'arm' }, { recipe: 'gear' }, { recipe: 'circuit' }, { recipe: 'wire' }], made: ['gear'], groups: [circuits] });
    assertBalanced(r);
    assert.deepEqual(r.groups, [{ name: 'Circuits', good: 'circuit', referenceRate: 2, scale: 0.5, rate: 1 }]);
    near(row(r, 'arm').craftsPerSecond, 1);
    near(row(r, 'gear').craftsPerSecond, 1);
    near(row(r, 'circuit').craftsPerSecond, 1);
    near(row(r, 'wire').craftsPerSecond, 1.5); // 3 wire per circuit, 2 per craft
    assert.equal(row(r, 'circuit').group, 'Circuits');
    assert.equal(row(r, 'arm').group, undefined);
    assert.deepEqual(r.rows.map((x) => x.recipe), ['arm', 'gear', 'circuit', 'wire'], 'the synthetic recipe is replaced by its rows, in the document order');
    near(rate(r.imports, 'ferrite-plate'), 1 + 2 + 1); // arm, gear, circuit
    near(rate(r.imports, 'azurite-plate'), 1.5 / 1); // one plate per wire craft
    // The same rows solved inline: same machines, power and pollution.
    const inline = await w.solve({ goals: [{ good: 'arm', rate: 1 }], recipes: [{ recipe: 'arm' }, { recipe: 'gear' }, { recipe: 'circuit' }, { recipe: 'wire' }], made: ['gear', 'circuit', 'wire'] });
    for (const x of inline.rows) near(row(r, x.recipe).buildings, x.buildings, 1e-9, x.recipe);
    near(r.powerW, inline.powerW);
    near(r.pollutionPerMinute, inline.pollutionPerMinute);
    near(rate(r.imports, 'pyops-electricity'), rate(inline.imports, 'pyops-electricity'));
    // Gross flows are the machines' own: wire is made and used inside the module.
    for (const good of ['wire', 'circuit', 'ferrite-plate', 'gear']) {
      const a = r.goods.find((x) => x.good === good)!;
      const b = inline.goods.find((x) => x.good === good)!;
      near(a.produced, b.produced, 1e-9, `${good} produced`);
      near(a.consumed, b.consumed, 1e-9, `${good} consumed`);
    }
    // The same block solved in this thread on a loaded runtime.
    const sync = solveBlockSync(await loadHighs(), w.g, w.availability, parseBlockDoc({ goals: [{ good: 'arm', rate: 1 }], recipes: [{ recipe: 'arm' }, { recipe: 'gear' }, { recipe: 'circuit' }, { recipe: 'wire' }], made: ['gear'], groups: [circuits] }));
    assert.deepEqual(sync.rows.map((x) => [x.recipe, x.craftsPerSecond, x.group]), r.rows.map((x) => [x.recipe, x.craftsPerSecond, x.group]));
    assert.deepEqual(sync.groups, r.groups);
  });

  it('carries a module\'s byproducts into the block, where other rows can use them', async () => {
    // The block makes 1 fresh resin/s: resin runs 0.5/s and takes 10 naphtha/s, which only the brine
    // module makes (2/s per 4 solvent/s): scale 5, so 20 solvent/s leave as a byproduct.
    // `made: []`: the module buys the brine its reclaiming does not cover (by default it would have
    // to make everything its rows make, brine included, and could not).
    const brine = { name: 'Brine', recipes: ['refine-brine', 'reclaim-tailings'], composed: { goal: { good: 'solvent', rate: 4 }, made: [], drains: ['tailings'] } };
    const r = await w.solve({
      goals: [{ good: 'fresh-resin', rate: 1 }],
      recipes: [{ recipe: 'resin', machine: 'refinery-unit' }, { recipe: 'refine-brine', machine: 'refinery-unit' }, { recipe: 'reclaim-tailings' }],
      made: ['naphtha'],
      groups: [brine],
    });
    assertBalanced(r);
    near(r.groups![0].scale, 5);
    near(row(r, 'refine-brine').craftsPerSecond, 0.5);
    near(row(r, 'reclaim-tailings').craftsPerSecond, 0.3); // 15 tailings/s at 50 a craft
    near(rate(r.imports, 'brine'), 5 * (10 - 0.06 * 40));
    near(rate(r.byproducts, 'solvent'), 20);
    near(rate(r.byproducts, 'sludge-cake'), 0.3 * 0.5);
    assert.equal(rate(r.imports, 'naphtha'), 0);
    // Resin takes steam at 150° or more: the module boundary keeps the range.
    const steam = r.imports.find((f) => f.good === 'steam')!;
    near(steam.rate, 5);
    assert.deepEqual([steam.minTemperature, steam.maxTemperature], [150, null]);
  });

  it('routes pins on its rows inside the module', async () => {
    // A cap of 0.05 buildings on refine-brine caps the module at its reference rate: it cannot make 4 solvent/s.
    const capped = await w.solve({
      goals: [{ good: 'solvent', rate: 4 }],
      recipes: [{ recipe: 'refine-brine', machine: 'refinery-unit' }],
      pins: [{ kind: 'cap', recipe: 'refine-brine', buildings: 0.05 }],
      groups: [{ name: 'Brine', recipes: ['refine-brine'], composed: { goal: { good: 'solvent', rate: 4 } } }],
    });
    assert.equal(capped.status, 'infeasible');
    assert.match(capped.message!, /composed group "Brine" cannot be solved on its own/);
    assert.ok(capped.diagnosis?.some((c) => c.members.some((m) => m.kind === 'pin-cap' && m.ref === 'refine-brine')));
  });

  it('treats a group that names no row of the block, or a row twice, as a broken block', async () => {
    const r = await w.solve({ goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }], groups: [circuits] });
    assert.equal(r.status, 'error');
    assert.match(r.message!, /composed group "Circuits" lists wire, which is not a row of the block/);
    const twice = await w.solve({ goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }], groups: [circuits, { ...circuits, name: 'Again' }] });
    assert.match(twice.message!, /circuit is in two composed groups/);
    const noGoal = await w.solve({ goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }], groups: [{ name: 'Wire', recipes: ['wire'], composed: { goal: { good: 'gear', rate: 1 } } }] });
    assert.equal(noGoal.status, 'error');
    assert.match(noGoal.message!, /composed group "Wire" does not make its goal: nothing in the block makes Gear/);
    const display = await w.solve({ goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }], made: ['wire'], groups: [{ name: 'Just a label', recipes: ['circuit', 'wire'] }] });
    assertBalanced(display);
    assert.equal(display.groups, undefined, 'a display group changes nothing in the solve');
  });
});
