// Temperatures between blocks (sample world, numbers from its dump records): superheat-steam takes 60
// steam at 150–200° for 50 steam at 500°; dense-circuit takes 30 steam at ≥ 400° for 1 dense circuit;
// resin takes 10 steam at ≥ 150° (with 20 naphtha) for 2 fresh resin; the boiler's steam leaves at 165°.
import assert from 'node:assert/strict';
import { planningContext } from '../../../../../src/core/planning/context';
import { createBlock, type BlockSolver } from '../../../../../src/core/planning/factory/blocks';
import { factoryLedger, ledgerEntriesOf } from '../../../../../src/core/planning/factory/ledger';
import { coherenceAudit } from '../../../../../src/core/planning/factory/audit';
import { factoryScenario } from '../../../../../src/core/planning/factory/scenario/scenario';
import { writeFactoryPins } from '../../../../../src/core/planning/factory/scenario/inputs';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { useSampleProject } from '../../../../helpers/sampleProject';

const near = (a: number | undefined, b: number, tol = 1e-6) => assert.ok(a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);

describe('temperatures between blocks: 165° and 500° steam are different supplies', () => {
  const s = useSampleProject({ horizon: 'future' });
  const solve: BlockSolver = (doc) => solveBlock(planningContext(s.project).g, planningContext(s.project).availability, doc);
  const ids: Record<string, string> = {};
  before(async () => {
    const p = s.project;
    ids.boiler = await createBlock(p, solve, { name: 'Boiler', doc: { goals: [{ good: 'steam', rate: 60, temperature: 165 }], recipes: [{ recipe: 'boil-steam-165' }, { recipe: 'pump-pump-station' }], made: ['fresh-water'] } });
    ids.superheat = await createBlock(p, solve, { name: 'Superheat', doc: { goals: [{ good: 'steam', rate: 10, temperature: 500 }], recipes: [{ recipe: 'superheat-steam' }] } });
    ids.dense = await createBlock(p, solve, { name: 'Dense', doc: { goals: [{ good: 'dense-circuit', rate: 0.5 }], recipes: [{ recipe: 'dense-circuit' }] } });
  });

  it('splits the ledger by supply temperature and fills each demand from what its range accepts', () => {
    const entries = ledgerEntriesOf(factoryLedger(s.project), 'steam');
    const at165 = entries.find((e) => e.temperature === 165)!;
    const at500 = entries.find((e) => e.temperature === 500)!;
    // The boiler's 60/s goes to superheat (12/s for its 10/s at 500°); dense circuits take 15/s at 500°.
    near(at165.produced, 60);
    near(at165.consumed, 12);
    assert.deepEqual(at165.consumers.map((c) => c.blockName), ['Superheat']);
    near(at500.produced, 10);
    near(at500.consumed, 10);
    // 15 wanted, 10 made: 5/s at ≥ 400° that no supply meets.
    const unmet = entries.find((e) => e.range?.min === 400)!;
    near(unmet.consumed, 5);
    const audit = coherenceAudit(s.project, planningContext(s.project).g);
    assert.ok(audit.unsourcedImports.some((x) => x.display === 'Steam ≥ 400°' && Math.abs(x.rate - 5) < 1e-6) || audit.underSupplied.some((x) => /400/.test(x.display)), JSON.stringify(audit));
  });

  it('grows the 500° supplier for the dense circuits and the 165° one for the superheater', async () => {
    writeFactoryPins(s.project, [{ good: 'dense-circuit', rate: 1 }]);
    const r = await factoryScenario(s.project, planningContext(s.project), solve);
    assert.equal(r.status, 'optimal', r.message);
    const next = (id: string) => r.goalChanges.find((c) => c.blockId === id)?.next;
    near(next(ids.dense), 1);
    // 1 dense circuit/s takes 30 steam at ≥ 400°: 30/s at 500°, which takes 36/s at 150–200°.
    near(next(ids.superheat), 30);
    near(next(ids.boiler), 36);
    assert.ok(!r.unsupplied.some((x) => x.good === 'steam'), JSON.stringify(r.unsupplied));
  });
});
