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

  it('counts byproducts as supply, as much as the blocks make, and imports the rest', async () => {
    const d = await plan([
      { name: 'Solvent', target: 'solvent', rate: 1, recipes: ['refine-brine'] },
      { name: 'Brine', target: 'brine', rate: 'fromPlan', recipes: ['reclaim-tailings'] },
    ]);
    const [solvent, brine] = d.blocks;
    assert.ok(Math.abs(brine.goals[0].rate - rateOf(solvent.imports, 'brine')) < 1e-9);
    // Reclaiming that much brine takes more tailings than the solvent block makes on the side.
    const made = rateOf(solvent.byproducts, 'tailings');
    const taken = rateOf(brine.imports, 'tailings');
    assert.ok(taken > made && made > 0, `${taken} > ${made}`);
    // The brine block takes all the solvent block makes, from that block, and the rest from outside.
    const fromBlocks = brine.importsFromBlocks.filter((f) => f.good === 'tailings');
    assert.deepEqual(fromBlocks.map((f) => f.blocks), [['Solvent']]);
    assert.ok(Math.abs(fromBlocks[0].rate - made) < 1e-9 * taken, `${fromBlocks[0].rate} vs ${made}`);
    assert.ok(Math.abs(rateOf(brine.importsExternal, 'tailings') - (taken - made)) < 1e-9 * taken);
    // A byproduct that covers part of an import is no shortfall: the rest is an import like any other.
    assert.deepEqual(d.balance.underSupplied, []);
    assert.equal(d.balance.ok, true);
    const rest = d.balance.unsourcedImports.find((u) => u.good === 'tailings')!;
    assert.ok(rest, JSON.stringify(d.balance));
    assert.ok(Math.abs(rest.rate - (taken - made)) < 1e-9 * taken);
    assert.deepEqual(rest.consumers, ['Brine']);
    assert.ok(Math.abs(rest.fromByproducts!.rate - made) < 1e-9 * taken);
    assert.deepEqual(rest.fromByproducts!.producers, ['Solvent']);
    assert.ok(!d.warnings.some((w) => /short between blocks/.test(w)), d.warnings.join('; '));
  });

  it('shares a byproduct among the blocks that take it, in proportion to what each takes', async () => {
    const d = await plan([
      { name: 'Solvent', target: 'solvent', rate: 1, recipes: ['refine-brine'] },
      { name: 'Brine A', target: 'brine', rate: 0.5, recipes: ['reclaim-tailings'] },
      { name: 'Brine B', target: 'brine', rate: 1.5, recipes: ['reclaim-tailings'] },
    ]);
    const [solvent, a, b] = d.blocks;
    const made = rateOf(solvent.byproducts, 'tailings');
    const takenA = rateOf(a.imports, 'tailings');
    const takenB = rateOf(b.imports, 'tailings');
    assert.ok(takenA + takenB > made, `${takenA + takenB} > ${made}`);
    for (const [blk, taken] of [[a, takenA], [b, takenB]] as const) {
      const share = (taken / (takenA + takenB)) * made;
      assert.ok(Math.abs(rateOf(blk.importsFromBlocks, 'tailings') - share) < 1e-9, `${blk.name}: ${rateOf(blk.importsFromBlocks, 'tailings')} vs ${share}`);
      assert.ok(Math.abs(rateOf(blk.importsExternal, 'tailings') - (taken - share)) < 1e-9);
    }
    assert.deepEqual(d.balance.underSupplied.filter((u) => u.good === 'tailings'), []);
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
