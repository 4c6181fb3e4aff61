import assert from 'node:assert/strict';
import { Project } from '../../../../../src/core/db/project';
import { createBlock, saveBlock, getBlock } from '../../../../../src/core/planning/factory/blocks';
import { planningContext } from '../../../../../src/core/planning/context';
import { factoryBalance } from '../../../../../src/core/planning/factory/balance';
import { fakeSolver } from './fakeSolver';
import { useSampleProject } from '../../../../helpers/sampleProject';

const solve = fakeSolver({ flows: (doc) => JSON.parse(doc.notes ?? '{}') });

describe('factory balance (the Factory Balance view)', () => {
  let p: Project;
  const sample = useSampleProject({});
  before(() => (p = sample.project));

  it('audits the enabled blocks, sums their power and bills whole buildings per machine', async () => {
    const plates = await createBlock(p, solve, { name: 'Plates', doc: { goals: [{ good: 'ferrite-plate', rate: 10 }], recipes: [{ recipe: 'ferrite-plate' }], notes: JSON.stringify({ imports: [{ good: 'ferrite-ore', rate: 10 }] }) } });
    await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 4 }], recipes: [{ recipe: 'gear' }, { recipe: 'gear-alt', machine: 'assembler' }], notes: JSON.stringify({ imports: [{ good: 'ferrite-plate', rate: 12 }] }) } });
    const b = await factoryBalance(p, planningContext(p), solve);
    assert.equal(b.audit.blocks, 2);
    assert.deepEqual(b.audit.underSupplied.map((x) => [x.good, x.shortBy]), [['ferrite-plate', 2]]);
    assert.deepEqual(b.audit.finalProducts.map((x) => x.good), ['gear']);
    assert.deepEqual(b.audit.unsourcedImports.map((x) => x.good), ['ferrite-ore']);
    // The fake solver runs 1.5 buildings per recipe at 100 kW a recipe: 2 whole buildings each.
    assert.equal(b.power.totalDemandW, 300_000);
    assert.deepEqual(b.buildings.map((x) => [x.machine, x.count, x.blocks.map((y) => [y.name, y.count])]), [
      ['press', 4, [['Gears', 2], ['Plates', 2]]],
      ['assembler', 2, [['Gears', 2]]],
    ]);
    // A disabled block leaves the balance, its buildings and its power.
    await saveBlock(p, solve, plates, { enabled: false }, getBlock(p, plates).updatedAt);
    const after = await factoryBalance(p, planningContext(p), solve);
    assert.equal(after.audit.blocks, 1);
    assert.deepEqual(after.audit.unsourcedImports.map((x) => x.good), ['ferrite-plate']);
    // Equal counts fall back to the display name.
    assert.deepEqual(after.buildings.map((x) => [x.machine, x.count]), [['assembler', 2], ['press', 2]]);
    assert.equal(after.power.totalDemandW, 200_000);
  });
});
