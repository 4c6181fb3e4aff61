// logisticsFor on the sample world (C.9): belt throughput and the stack cap, inserter swing ticks and
// hand stacks, horizon-gated tiers, fluids.
import assert from 'node:assert/strict';
import { inserterItemsPerSec, logisticsFor, swingTicks } from '../../../../../src/core/planning/queries/logisticsFor';
import { privateSampleWorld, sampleWorld, type World } from './world';

const NOW_BASIC = { research_mode: 'now' as const, available_science_packs: ['basic-research-pack'] };
const EARLY = ['automation-basics', 'electronics'];

describe('logisticsFor', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('sizes belts at speed × 480 × stack (a yellow-belt-like conveyor moves 15/s)', () => {
    const r = logisticsFor(w.ctx(NOW_BASIC, EARLY), { good: 'gear', rate: 20 });
    assert.equal(r.beltStack, 1);
    assert.deepEqual(r.belts, [{ name: 'conveyor', display: 'Conveyor', itemsPerSec: 15, count: 2, saturation: 0.667 }]);
  });

  it('computes inserter swing ticks from extension and rotation, and counts inserters', () => {
    const r = logisticsFor(w.ctx(NOW_BASIC, EARLY), { good: 'gear', rate: 20 });
    assert.deepEqual(r.inserters, [{ name: 'arm', display: 'Arm', bulk: false, swingTicks: 36, handStack: 1, itemsPerSec: 0.8333, count: 24 }]);
    // Vanilla-like figures: rotation 0.02 / extension 0.035 → 25 ticks; 0.04 / 0.1 → 13 ticks.
    assert.equal(swingTicks({ pickup: [0, -1], dropoff: [0, 1.2], rotationSpeed: 0.02, extensionSpeed: 0.035 }), 25);
    assert.equal(swingTicks({ pickup: [0, -1], dropoff: [0, 1.2], rotationSpeed: 0.04, extensionSpeed: 0.1 }), 13);
    assert.equal(swingTicks({ pickup: [0, -1], dropoff: [1, 0], rotationSpeed: 0.04, extensionSpeed: 0.1 }), 7);
    assert.equal(swingTicks({ pickup: [0, -1], dropoff: [0, -1], rotationSpeed: 1, extensionSpeed: 1 }), 1);
    assert.equal(inserterItemsPerSec(25, 1), 1.2);
  });

  it('gates tiers by the horizon', () => {
    const now = logisticsFor(w.ctx(NOW_BASIC, EARLY), { good: 'gear', rate: 20 });
    assert.deepEqual(now.lockedTiers, ['fast-conveyor', 'fast-arm']);
    const future = logisticsFor(w.ctx({ research_mode: 'future' }), { good: 'gear', rate: 20 });
    assert.deepEqual(future.belts.map((b) => [b.name, b.count]), [['conveyor', 2], ['fast-conveyor', 1]]);
    const fast = future.inserters.find((i) => i.name === 'fast-arm')!;
    assert.equal(fast.swingTicks, 13);
    assert.equal(fast.count, Math.ceil(20 / (60 / 26)));
  });

  it('adds hand-stack bonuses (a manual stack bonus overrides research)', () => {
    const r = logisticsFor(w.ctx({ ...NOW_BASIC, logistics: { stackBonus: 2, inserter: 'arm' } }, EARLY), { good: 'gear', rate: 5 });
    assert.equal(r.inserters[0].handStack, 3);
    assert.equal(r.inserters[0].itemsPerSec, 2.5);
    assert.equal(r.inserters[0].preferred, true);
    assert.match(r.bonuses.source, /manual/);
  });

  it('caps the placed belt stack at 8', async () => {
    const pw = await privateSampleWorld();
    const t = pw.g.technologies.get('beacons')!;
    t.bonuses.push({ type: 'belt-stack-size-bonus', modifier: 10 });
    const r = logisticsFor(pw.ctx({ research_mode: 'future' }), { good: 'gear', rate: 100 });
    assert.equal(r.beltStack, 8);
    assert.equal(r.belts[0].itemsPerSec, 120);
    assert.equal(r.belts[0].count, 1);
    const now = logisticsFor(pw.ctx({ research_mode: 'now' }), { good: 'gear', rate: 100 });
    assert.equal(now.beltStack, 1);
  });

  it('answers a fluid with a note instead of belts', () => {
    const r = logisticsFor(w.ctx(), { good: 'steam', rate: 60 });
    assert.deepEqual(r.belts, []);
    assert.match(r.note!, /fluid/);
  });
});
