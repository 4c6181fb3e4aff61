// The lab bank against numbers worked out by hand from the vanilla 2.0 dump records:
//   automation            10 units × (1 red),          10 s/unit
//   steel-processing      50 units × (1 red),           5 s/unit
//   logistic-science-pack 75 units × (1 red),           5 s/unit
//   automation-2          40 units × (1 red + 1 green), 15 s/unit
// (its three trigger prerequisites researched), so researching automation-2 with its unresearched
// prerequisites takes 175 red, 40 green and 1325 lab-seconds at speed 1. The lab: researching_speed 1,
// 60 kW electric, 2 module slots; productivity-module +4 % prod, −5 % speed, +40 % consumption;
// speed-module +20 % speed, +50 % consumption; research-speed-1 +20 % lab speed.
import assert from 'node:assert/strict';
import { requireSharedData } from '../../../../helpers/paths';
import { loadWorld, type World } from '../queries/world';
import { solveScience } from '../../../../../src/core/planning/science/labBank';
import { researchWork } from '../../../../../src/core/planning/science/research';
import { parseBlockDoc } from '../../../../../src/core/planning/block/document';

const near = (a: number, b: number, tol = 1e-6) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);
const TRIGGERS = ['steam-power', 'electronics', 'automation-science-pack'];
const science = (s: unknown) => parseBlockDoc({ science: s }).science!;

describe('science block: the lab bank (vanilla 2.0, by hand)', function () {
  let w: World;
  before(async function () {
    this.timeout(120_000);
    w = await loadWorld(requireSharedData(this, 'vanilla-2.0-data-raw'));
  });

  it('lists the unresearched prerequisites in research order and the triggers apart', () => {
    const work = researchWork(w.g, new Set(TRIGGERS), 'automation-2');
    assert.deepEqual(work.items.map((i) => i.tech).sort(), ['automation', 'automation-2', 'logistic-science-pack', 'steel-processing']);
    assert.equal(work.items.at(-1)!.tech, 'automation-2');
    const all = researchWork(w.g, new Set(), 'automation-2');
    assert.ok(all.skipped.some((s) => s.tech === 'electronics' && /trigger/.test(s.reason)));
  });

  it('sizes one pool of labs from lab-seconds, with productivity dividing packs and labs', () => {
    const a = w.ctx({ research_mode: 'future' }, TRIGGERS).availability;
    const r = solveScience(w.g, a, science({ lab: 'lab', modules: [{ name: 'productivity-module', count: 2 }], research: { tech: 'automation-2', minutes: 10 } }));
    assert.equal(r.status, 'optimal');
    const s = r.science!;
    // Future counts every research bonus: research-speed-1..6 = +250 % lab speed.
    near(s.bonuses.speed, 0.2 + 0.3 + 0.4 + 0.5 + 0.5 + 0.6);
    near(s.productivity, 0.08);
    const red = s.packs.find((p) => p.pack === 'automation-science-pack')!.rate;
    const green = s.packs.find((p) => p.pack === 'logistic-science-pack')!.rate;
    near(red, 175 / 1.08 / 600);
    near(green, 40 / 1.08 / 600);
    near(s.labSecondsPerSecond, 1325 / 1.08 / 600);
    near(s.labSpeed, 1 * (1 + 2.5) * 0.9);
    near(s.labs, 1325 / 1.08 / 600 / (3.5 * 0.9));
    // 60 kW × (1 + 2 × 0.4) per lab, no drain on labs.
    near(r.powerW, 60_000 * 1.8 * s.labs);
    assert.deepEqual(r.imports.filter((f) => f.good !== 'pyops-electricity').map((f) => f.good).sort(), ['automation-science-pack', 'logistic-science-pack']);
  });

  it('counts only the research the player completed under Now (speed research multiplies the module bonus)', () => {
    const a = w.ctx({ research_mode: 'now', available_science_packs: ['automation-science-pack', 'logistic-science-pack'] }, [...TRIGGERS, 'research-speed-1']).availability;
    const r = solveScience(w.g, a, science({ lab: 'lab', modules: [{ name: 'speed-module', count: 2 }], research: { tech: 'automation-2', minutes: 10 } }));
    const s = r.science!;
    near(s.labSpeed, 1 * 1.2 * 1.4);
    near(s.productivity, 0);
    near(s.labs, 1325 / 600 / (1.2 * 1.4));
    near(r.powerW, 60_000 * (1 + 2 * 0.5) * s.labs);
  });

  it('keeps each pack\'s lab time when rates are set by hand, and sizes labs for the most demanding pack', () => {
    const a = w.ctx({ research_mode: 'future' }, TRIGGERS).availability;
    // 1 red/s at 10 s per pack and 0.5 green/s at 30 s per pack: the labs must give green 15 lab-s/s.
    const r = solveScience(w.g, a, science({ lab: 'lab', packs: [{ pack: 'automation-science-pack', rate: 1, labSeconds: 10 }, { pack: 'logistic-science-pack', rate: 0.5, labSeconds: 30 }] }));
    near(r.science!.labSecondsPerSecond, 15);
    near(r.science!.labs, 15 / 3.5);
    assert.ok(r.warnings.some((x) => /run out first/.test(x)));
  });

  it('refuses a lab that does not take a pack, and names one that does', () => {
    const a = w.ctx({ research_mode: 'future' }).availability;
    const r = solveScience(w.g, a, science({ lab: 'nope', research: { tech: 'automation-2', minutes: 10 } }));
    assert.equal(r.status, 'error');
    assert.match(r.message!, /no lab "nope".*lab/);
  });
});
