// Infeasibility diagnosis (domain C.6): cards name only the user's gestures (goal, pin, made, drain)
// that conflict, with how far each must move and the fixes. Every infeasible case has a test here.
import assert from 'node:assert/strict';
import type { SolveResult } from '../../../../../src/core/planning/solver/result';
import type { World } from './helpers';
import { loadWorld, near } from './helpers';

const gestures = (r: SolveResult, card = 0) => r.diagnosis![card].members.map((m) => `${m.kind}:${m.ref}`).sort();
const member = (r: SolveResult, kind: string, ref: string, card = 0) => {
  const m = r.diagnosis![card].members.find((x) => x.kind === kind && x.ref === ref);
  assert.ok(m, `no ${kind} ${ref} in ${JSON.stringify(r.diagnosis![card].members)}`);
  return m;
};

describe('block solver: diagnosis', () => {
  let w: World;
  before(async () => {
    w = await loadWorld();
  });

  const gearCap = { goals: [{ good: 'gear', rate: 2 }], recipes: [{ recipe: 'gear', machine: 'press' }], pins: [{ kind: 'cap' as const, recipe: 'gear', buildings: 0.5 }] };

  it('gives no diagnosis for a feasible block', async () => {
    const r = await w.solve({ ...gearCap, pins: [{ kind: 'cap', recipe: 'gear', buildings: 5 }] });
    assert.equal(r.status, 'optimal');
    assert.equal(r.diagnosis, undefined);
  });

  it('names the cap and the goal it starves, with both shortfalls and fixes', async () => {
    const r = await w.solve(gearCap);
    assert.equal(r.status, 'infeasible');
    assert.equal(r.diagnosis!.length, 1);
    assert.deepEqual(gestures(r), ['goal:gear', 'pin-cap:gear']);
    near(member(r, 'goal', 'gear').shortBy, 1.4); // 0.5 buildings make 0.6/s of 2/s
    near(member(r, 'pin-cap', 'gear').shortBy, 2 / 1.2 - 0.5);
    assert.deepEqual(r.diagnosis![0].fixes, ['Lower the goal of Gear to 0.6/s', 'Raise the cap on Gear to 1.67 buildings, or remove it']);
    assert.match(r.diagnosis![0].message, /the goal of 2\/s Gear and the cap of 0\.5 buildings on Gear cannot all hold/i);
  });

  it('explains a deadlock: a made loop with no source', async () => {
    // Brine → tailings → brine loses mass to naphtha and solvent; nothing brings brine in.
    const r = await w.solve({ goals: [{ good: 'naphtha', rate: 20 }], recipes: [{ recipe: 'refine-brine' }, { recipe: 'reclaim-tailings' }], made: ['brine', 'tailings'] });
    assert.equal(r.status, 'infeasible');
    assert.deepEqual(gestures(r), ['goal:naphtha', 'made:brine', 'made:tailings']);
    near(member(r, 'made', 'brine').shortBy, 76); // 100 used, 24 reclaimed
    assert.ok(r.diagnosis![0].fixes.some((f) => /Stop marking Brine as made/.test(f)));
  });

  it('gives independent conflicts separate cards', async () => {
    const r = await w.solve({
      goals: [{ good: 'gear', rate: 2 }, { good: 'wire', rate: 4 }],
      recipes: [{ recipe: 'gear', machine: 'press' }, { recipe: 'wire', machine: 'press' }],
      pins: [{ kind: 'cap', recipe: 'gear', buildings: 0.5 }, { kind: 'cap', recipe: 'wire', buildings: 0.5 }],
    });
    assert.equal(r.diagnosis!.length, 2);
    const cards = r.diagnosis!.map((c) => c.members.map((m) => `${m.kind}:${m.ref}`).sort().join(' '));
    assert.deepEqual(cards.sort(), ['goal:gear pin-cap:gear', 'goal:wire pin-cap:wire']);
  });

  it('gives coupled conflicts one card naming every gesture involved', async () => {
    // Naphtha and solvent both come from the one capped refinery row.
    const r = await w.solve({
      goals: [{ good: 'naphtha', rate: 20 }, { good: 'solvent', rate: 40 }],
      recipes: [{ recipe: 'refine-brine', machine: 'refinery-unit' }],
      pins: [{ kind: 'cap', recipe: 'refine-brine', buildings: 0.5 }],
    });
    assert.equal(r.diagnosis!.length, 1);
    assert.deepEqual(gestures(r), ['goal:naphtha', 'goal:solvent', 'pin-cap:refine-brine']);
    near(member(r, 'pin-cap', 'refine-brine').shortBy, 3.5);
    assert.ok(r.diagnosis![0].fixes.some((f) => /^Together: lower the goal of Solvent to 5\/s and lower the goal of Naphtha to 2\.5\/s$/.test(f)), r.diagnosis![0].fixes.join('\n'));
  });

  it('never names gestures that are not involved', async () => {
    const r = await w.solve({
      ...gearCap,
      recipes: [...gearCap.recipes, { recipe: 'wire', machine: 'press' }, { recipe: 'azurite-plate', machine: 'kiln' }, { recipe: 'ferrite-plate', machine: 'kiln' }],
      made: ['azurite-plate', 'ferrite-plate', 'wire'],
      pins: [...gearCap.pins, { kind: 'count', recipe: 'wire', buildings: 1 }],
    });
    assert.equal(r.status, 'infeasible');
    assert.equal(r.diagnosis!.length, 1);
    assert.deepEqual(gestures(r), ['goal:gear', 'pin-cap:gear']);
  });

  it('explains a count pin that needs more of a made good than its capped producer gives', async () => {
    const r = await w.solve({
      recipes: [{ recipe: 'gear', machine: 'press' }, { recipe: 'ferrite-plate', machine: 'kiln' }],
      made: ['ferrite-plate'],
      pins: [{ kind: 'count', recipe: 'gear', buildings: 2 }, { kind: 'cap', recipe: 'ferrite-plate', buildings: 1 }],
    });
    assert.deepEqual(gestures(r), ['made:ferrite-plate', 'pin-cap:ferrite-plate', 'pin-count:gear']);
    near(member(r, 'pin-cap', 'ferrite-plate').shortBy, 14.36); // 4.8/s needs 15.36 kilns
    assert.ok(r.diagnosis![0].fixes.includes('Lower the pin on Gear to 0.13 buildings, or remove it'));
  });

  it('explains a drain nothing can consume', async () => {
    const r = await w.solve({ goals: [{ good: 'naphtha', rate: 20 }], recipes: [{ recipe: 'refine-brine', machine: 'refinery-unit' }], drains: ['solvent'] });
    assert.deepEqual(gestures(r), ['drain:solvent', 'goal:naphtha']);
    near(member(r, 'drain', 'solvent').shortBy, 40);
    assert.ok(r.diagnosis![0].fixes[0].startsWith('Remove the drain of Solvent (40/s would leave the block)'));
  });

  it('explains a consume goal beyond what a capped sink can take', async () => {
    const r = await w.solve({ goals: [{ good: 'tailings', rate: -10 }], recipes: [{ recipe: 'tailings-void', machine: 'void-pit' }], pins: [{ kind: 'cap', recipe: 'tailings-void', buildings: 0.5 }] });
    assert.deepEqual(gestures(r), ['goal:tailings', 'pin-cap:tailings-void']);
    near(member(r, 'goal', 'tailings').shortBy, 5);
    assert.ok(r.diagnosis![0].fixes.includes('Lower the consumption goal of Tailings to 5/s'));
  });

  it('explains overcommitted shares of a made good', async () => {
    const r = await w.solve({
      recipes: [{ recipe: 'ferrite-plate', machine: 'kiln' }, { recipe: 'gear', machine: 'press' }, { recipe: 'frame', machine: 'press' }],
      made: ['ferrite-plate'],
      pins: [
        { kind: 'count', recipe: 'ferrite-plate', buildings: 6.4 },
        { kind: 'share', recipe: 'gear', good: 'ferrite-plate', share: 0.7, base: 'total' },
        { kind: 'share', recipe: 'frame', good: 'ferrite-plate', share: 0.6, base: 'total' },
      ],
    });
    assert.equal(r.diagnosis!.length, 1);
    assert.deepEqual(gestures(r), ['made:ferrite-plate', 'pin-count:ferrite-plate', 'pin-share:frame', 'pin-share:gear']);
    near(member(r, 'made', 'ferrite-plate').shortBy, 0.6); // 130% of 2/s
  });

  it('explains a temperature shortage through the selectors, naming the bare fluid', async () => {
    // Dense circuits need steam ≥400°; only the capped superheater makes it.
    const r = await w.solve({
      goals: [{ good: 'dense-circuit', rate: 1 }],
      recipes: [{ recipe: 'dense-circuit', machine: 'press' }, { recipe: 'superheat-steam', machine: 'refinery-unit' }, { recipe: 'boil-steam-165' }],
      made: ['steam'],
      pins: [{ kind: 'cap', recipe: 'superheat-steam', buildings: 0.1 }],
    });
    assert.deepEqual(gestures(r), ['goal:dense-circuit', 'made:steam', 'pin-cap:superheat-steam']);
    near(member(r, 'pin-cap', 'superheat-steam').shortBy, 0.5);
    assert.match(member(r, 'made', 'steam').message, /≥400°/);
  });

  it('explains a zero-rate consume goal the block can only overproduce', async () => {
    const r = await w.solve({ recipes: [{ recipe: 'refine-brine', machine: 'refinery-unit' }], goals: [{ good: 'naphtha', rate: 20 }, { good: 'tailings', rate: 0, direction: 'consume' }] });
    assert.deepEqual(gestures(r), ['goal:naphtha', 'goal:tailings']);
    near(member(r, 'goal', 'tailings').shortBy, 30);
  });
});
