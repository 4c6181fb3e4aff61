// The factory board's view of a real project on the sample world. By hand from the dump: a gear takes
// 2 ferrite plates, and gear-productivity-1 (+10 %, counted under Future) makes 1.1 gears a craft, so
// 1 gear/s takes 2 / 1.1 = 1.818 plates/s.
import assert from 'node:assert/strict';
import { planningContext } from '../../../src/core/planning/context';
import { createBlock, setBlockLayouts, type BlockSolver } from '../../../src/core/planning/factory/blocks';
import { solveBlock } from '../../../src/core/planning/solver/solve';
import { setSupplyPriority } from '../../../src/core/planning/factory/scenario/inputs';
import { boardView, nodeIconKey } from '../../../src/extension/board/viewModel';
import { useSampleProject } from '../../helpers/sampleProject';

const near = (a: number | undefined, b: number, tol = 1e-6) => assert.ok(a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);

describe('factory board: the view', function () {
  this.timeout(60_000);
  const sample = useSampleProject({ each: true, horizon: 'future' });
  const solve: BlockSolver = (doc) => solveBlock(planningContext(sample.project).g, planningContext(sample.project).availability, doc);

  it('says what to do when there is no block', () => {
    const v = boardView(sample.project, planningContext(sample.project).g);
    assert.deepEqual(v.nodes, []);
    assert.match(v.empty ?? '', /No enabled blocks yet/);
  });

  it('draws the goods between blocks in supply order: the consumer short in red, the last supplier with the surplus', async () => {
    const p = sample.project;
    const a = await createBlock(p, solve, { name: 'Plates A', doc: { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'kiln' }] } });
    const gears = await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } });
    let v = boardView(p, planningContext(p).g, (key) => `icon:${key}`);
    assert.deepEqual(v.nodes.map((n) => n.name), ['Plates A', 'Gears']);
    const g = v.nodes.find((n) => n.id === gears)!;
    assert.equal(g.goals, 'Gear 1/s');
    assert.equal(g.icon, 'icon:good:gear');
    assert.equal(g.state, 'solved');
    assert.ok(g.buildings >= 1);
    assert.equal(v.edges.length, 1);
    const e = v.edges[0];
    assert.deepEqual([e.from, e.to], [a, gears]);
    near(e.goods[0].rate, 1);
    assert.equal(e.goods[0].short, true, 'Gears takes 1.818 plates/s and gets 1');
    near(g.short.find((x) => x.good === 'ferrite-plate')?.rate, 2 / 1.1 - 1);
    // Ore and the kiln's fuel come from outside (no block makes them): listed, not marked short.
    const plates = v.nodes.find((n) => n.id === a)!;
    assert.deepEqual(plates.short, []);
    assert.ok(plates.imports.some((x) => x.good === 'ferrite-ore'));
    // Gears is the factory's product: nothing takes it, and it is not a surplus.
    assert.deepEqual(g.surplus, []);
    // A second plate block: A is filled first (the Factory view's order), B supplies the rest and keeps the surplus.
    const b = await createBlock(p, solve, { name: 'Plates B', doc: { goals: [{ good: 'ferrite-plate', rate: 2 }], recipes: [{ recipe: 'ferrite-plate', machine: 'kiln' }] } });
    v = boardView(p, planningContext(p).g);
    const fromB = v.edges.find((x) => x.from === b)!;
    near(fromB.goods[0].rate, 2 / 1.1 - 1);
    assert.equal(fromB.goods[0].short, false);
    assert.equal(fromB.goods[0].surplus, true);
    near(v.nodes.find((n) => n.id === b)!.surplus[0].rate, 2 - (2 / 1.1 - 1));
    assert.deepEqual(v.nodes.find((n) => n.id === gears)!.short, []);
    // The player puts B first: it feeds Gears alone, and A keeps its whole output.
    setSupplyPriority(p, { good: 'ferrite-plate', order: [b, a] });
    v = boardView(p, planningContext(p).g);
    assert.deepEqual(v.edges.map((x) => [x.from, x.to]), [[b, gears]]);
    near(v.nodes.find((n) => n.id === a)!.surplus[0].rate, 1);
  });

  it('keeps the positions the player gave, and the science block shows its research and lab', async () => {
    const p = sample.project;
    const plates = await createBlock(p, solve, { name: 'Plates', doc: { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate' }] } });
    const lab = await createBlock(p, solve, { name: 'Science', doc: { science: { research: { tech: 'electronics', minutes: 5 } } } });
    setBlockLayouts(p, [{ id: plates, layout: { x: 120, y: -40 } }]);
    const v = boardView(p, planningContext(p).g, (key) => key);
    assert.deepEqual(v.nodes.find((n) => n.id === plates)!.layout, { x: 120, y: -40 });
    const s = v.nodes.find((n) => n.id === lab)!;
    assert.equal(s.layout, null);
    assert.equal(s.science, true);
    assert.equal(s.goals, 'research Electronics in 5 min');
    assert.equal(s.icon, 'entity:lab-unit');
    assert.equal(nodeIconKey({ science: false }, undefined, undefined), undefined);
  });
});
