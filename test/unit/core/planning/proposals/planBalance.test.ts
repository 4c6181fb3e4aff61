// Plans balance themselves: "fromPlan" goals are sized from what the plan's other blocks import, a
// block's byproducts count as supply for the others, and the plan reports what its blocks leave short
// or over-produced — the verdicts coherenceAudit gives after applying it.
import assert from 'node:assert/strict';
import { Project } from '../../../../../src/core/db/project';
import { planningContext } from '../../../../../src/core/planning/context';
import { buildDraft, specFromSubmit, submitBlockInput } from '../../../../../src/core/planning/proposals/draft';
import { planDraft, submitPlanInput } from '../../../../../src/core/planning/proposals/plan';
import { applyPlanDraft } from '../../../../../src/core/planning/proposals/apply';
import { coherenceAudit } from '../../../../../src/core/planning/factory/audit';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { useSampleProject } from '../../../../helpers/sampleProject';

describe('plan balance', () => {
  let p: Project;
  const ctx = () => planningContext(p);
  const plan = (blocks: unknown[]) => planDraft(ctx(), p, submitPlanInput.parse({ title: 'T', objective: 'O', blocks }));
  const rateOf = (flows: Array<{ good: string; rate: number }>, good: string) => flows.filter((f) => f.good === good).reduce((s, f) => s + f.rate, 0);
  const sample = useSampleProject({ each: true, horizon: 'future' });
  beforeEach(() => (p = sample.project));

  it('sizes a chain of fromPlan suppliers to what the blocks downstream import', async () => {
    const d = await plan([
      { name: 'Circuits', target: 'circuit', rate: 1, recipes: ['circuit'], subBlocksNeeded: ['wire'] },
      { name: 'Wire', target: 'wire', rate: 'fromPlan', recipes: ['wire'] },
      { name: 'Azurite', target: 'azurite-plate', rate: 'fromPlan', recipes: ['azurite-plate'] },
    ]);
    const [circuits, wire, azurite] = d.blocks;
    assert.equal(d.ok, true, JSON.stringify(d.warnings));
    const wireNeeded = rateOf(circuits.imports, 'wire');
    assert.ok(wireNeeded > 0);
    assert.ok(Math.abs(wire.goals[0].rate - wireNeeded) < 1e-9 * wireNeeded + 1e-12, `${wire.goals[0].rate} vs ${wireNeeded}`);
    assert.equal(wire.goals[0].fromPlan, true);
    const azuriteNeeded = rateOf(wire.imports, 'azurite-plate') + rateOf(circuits.imports, 'azurite-plate');
    assert.ok(Math.abs(azurite.goals[0].rate - azuriteNeeded) < 1e-9 * azuriteNeeded);
    assert.deepEqual(d.sizedFromPlan.map((s) => s.block), ['Wire', 'Azurite']);
    assert.equal(d.balance.ok, true);
    assert.deepEqual(d.balance.underSupplied, []);
    assert.ok(d.balance.balancedLinks >= 2, JSON.stringify(d.balance));
    // Applied, the factory audits the same way the plan said it would.
    await applyPlanDraft(p, (doc) => solveBlock(ctx().g, ctx().availability, doc), d);
    const audit = coherenceAudit(p, ctx().g, ctx().availability);
    assert.deepEqual(audit.underSupplied, []);
    assert.ok(audit.balancedLinks.some((l) => l.good === 'wire') && audit.balancedLinks.some((l) => l.good === 'azurite-plate'));
  });

  it('counts byproducts as supply and reports the shortfall the blocks leave', async () => {
    const d = await plan([
      { name: 'Solvent', target: 'solvent', rate: 1, recipes: ['refine-brine'] },
      { name: 'Brine', target: 'brine', rate: 'fromPlan', recipes: ['reclaim-tailings'] },
    ]);
    const [solvent, brine] = d.blocks;
    // The brine block takes the solvent block's tailings: a supply from a block, not from outside.
    assert.deepEqual(brine.importsFromBlocks.filter((f) => f.good === 'tailings').map((f) => f.blocks), [['Solvent']]);
    assert.ok(!brine.importsExternal.some((f) => f.good === 'tailings'));
    assert.ok(Math.abs(brine.goals[0].rate - rateOf(solvent.imports, 'brine')) < 1e-9);
    // Tailings made as a byproduct fall short of what reclaiming that much brine takes.
    const made = rateOf(solvent.byproducts, 'tailings');
    const taken = rateOf(brine.imports, 'tailings');
    assert.ok(taken > made && made > 0, `${taken} > ${made}`);
    const short = d.balance.underSupplied.find((u) => u.good === 'tailings')!;
    assert.ok(short, JSON.stringify(d.balance));
    assert.ok(Math.abs(short.shortBy - (taken - made)) < 1e-9);
    assert.equal(d.balance.ok, false);
    assert.ok(d.warnings.some((w) => /short between blocks: .*Tailings/i.test(w)), d.warnings.join('; '));
  });

  it('says what a balanced plan leaves over between its blocks', async () => {
    // The solvent block's naphtha (20 per craft) and tailings (30) go nowhere; nothing is short.
    const d = await plan([{ name: 'Solvent', target: 'solvent', rate: 4, recipes: ['refine-brine'] }]);
    assert.equal(d.ok, true, JSON.stringify(d.warnings));
    assert.equal(d.balance.ok, true);
    const w = d.warnings.find((x) => x.startsWith('balanced, but left over between blocks: '));
    assert.ok(w, d.warnings.join('; '));
    assert.match(w, /Naphtha 2\.00\/s nothing takes \(from "Solvent"; route it to burn-fluid-naphtha, resin, superheat-steam\)/);
    assert.match(w, /Tailings 3\.00\/s nothing takes \(from "Solvent"; route it to reclaim-tailings, reclaim-tailings-salvage\)/);
  });

  it('lowers a fromPlan rate by what another block already makes of the good', async () => {
    // A solvent wash run for its tailings makes ferrite plates on the side; the plate block makes the rest.
    const d = await plan([
      { name: 'Gears', target: 'gear', rate: 2, recipes: ['gear'] },
      { name: 'Wash', target: 'tailings', rate: 0.5, recipes: ['solvent-wash'] },
      { name: 'Plates', target: 'ferrite-plate', rate: 'fromPlan', recipes: ['ferrite-plate'] },
    ]);
    const [gears, wash, plates] = d.blocks;
    const expected = rateOf(gears.imports, 'ferrite-plate') + rateOf(wash.imports, 'ferrite-plate') - rateOf(wash.exports, 'ferrite-plate');
    assert.ok(rateOf(wash.byproducts, 'ferrite-plate') > 0, 'the wash makes plates on the side');
    assert.ok(Math.abs(plates.goals[0].rate - expected) < 1e-9, `${plates.goals[0].rate} vs ${expected}`);
    assert.deepEqual(d.balance.underSupplied.filter((u) => u.good === 'ferrite-plate'), []);
  });

  it('warns when nothing in the plan imports a fromPlan good, and refuses fromPlan outside a plan', async () => {
    const d = await plan([
      { name: 'Gears', target: 'gear', rate: 1, recipes: ['gear'] },
      { name: 'Wire', target: 'wire', rate: 'fromPlan', recipes: ['wire'] },
    ]);
    assert.equal(d.sizedFromPlan[0].rate, 0);
    assert.ok(d.warnings.some((w) => /nothing in the plan imports .*wire.*"Wire" was sized to 0/i.test(w)), d.warnings.join('; '));
    const alone = await buildDraft(ctx(), specFromSubmit(ctx(), submitBlockInput.parse({ target: 'wire', rate: 'fromPlan', recipes: ['wire'] })));
    assert.equal(alone.ok, false);
    assert.ok(alone.invalid.some((i) => /only works for a block inside submitPlan/.test(i)));
  });
});
