// Edges of the factory board: consumers filled from producers in supply-priority order (sample world;
// circuit takes 3 wire for 1 circuit, so 1 circuit/s takes 3 wire/s).
import assert from 'node:assert/strict';
import { planningContext } from '../../../../../src/core/planning/context';
import { createBlock, getBlock, listBlocks, setBlockLayouts, type BlockSolver } from '../../../../../src/core/planning/factory/blocks';
import { factoryLedger } from '../../../../../src/core/planning/factory/ledger';
import { factoryEdges } from '../../../../../src/core/planning/factory/edges';
import { readSupplyPriorities, setSupplyPriority } from '../../../../../src/core/planning/factory/scenario/inputs';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { useSampleProject } from '../../../../helpers/sampleProject';

describe('factory edges: who feeds whom, in supply order', () => {
  const s = useSampleProject({ horizon: 'future' });
  const solve: BlockSolver = (doc) => solveBlock(planningContext(s.project).g, planningContext(s.project).availability, doc);
  const ids: Record<string, string> = {};
  before(async () => {
    ids.circuits = await createBlock(s.project, solve, { name: 'Circuits', doc: { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }] } });
    ids.wireA = await createBlock(s.project, solve, { name: 'Wire A', doc: { goals: [{ good: 'wire', rate: 2 }], recipes: [{ recipe: 'wire' }] } });
    ids.wireB = await createBlock(s.project, solve, { name: 'Wire B', doc: { goals: [{ good: 'wire', rate: 2 }], recipes: [{ recipe: 'wire' }] } });
  });
  const edges = () => {
    const order = new Map(listBlocks(s.project).map((b, i) => [b.id, i]));
    return factoryEdges(factoryLedger(s.project), readSupplyPriorities(s.project), order, (x) => x);
  };

  it('fills the consumer from the first supplier in the Factory view order, the rest is surplus', () => {
    const e = edges();
    const wire = e.edges.filter((x) => x.good === 'wire');
    assert.deepEqual(wire.map((x) => [x.from, x.to, x.rate]), [[ids.wireA, ids.circuits, 2], [ids.wireB, ids.circuits, 1]]);
    assert.deepEqual(e.surplus.filter((x) => x.good === 'wire').map((x) => [x.blockId, x.rate]), [[ids.wireB, 1]]);
  });

  it('follows the player\'s supply order', () => {
    setSupplyPriority(s.project, { good: 'wire', order: [ids.wireB, ids.wireA] });
    const wire = edges().edges.filter((x) => x.good === 'wire');
    assert.deepEqual(wire.map((x) => [x.from, x.rate]), [[ids.wireB, 2], [ids.wireA, 1]]);
    setSupplyPriority(s.project, { good: 'wire', clear: true });
  });

  it('keeps board positions without an undo step or a new updatedAt', () => {
    const before = getBlock(s.project, ids.wireA);
    const undo = s.project.undoable()?.id;
    setBlockLayouts(s.project, [{ id: ids.wireA, layout: { x: 120, y: -40 } }]);
    const after = getBlock(s.project, ids.wireA);
    assert.deepEqual(after.layout, { x: 120, y: -40 });
    assert.equal(after.updatedAt, before.updatedAt);
    assert.equal(s.project.undoable()?.id, undo);
  });
});
