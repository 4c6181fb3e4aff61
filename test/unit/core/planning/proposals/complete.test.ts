// Chain completion (`complete: true`): which goods the tool walks and which it leaves to import, the
// producer it takes, and what a completed draft and plan come to. Expectations are read from the
// vanilla 2.0 dump's recipe table (consumer counts, products and their amounts), not from the code.
import assert from 'node:assert/strict';
import { completeChain, producerFor } from '../../../../../src/core/planning/proposals/complete';
import { draftFromSubmit, submitBlockInput, type Draft } from '../../../../../src/core/planning/proposals/draft';
import { planDraft, submitPlanInput } from '../../../../../src/core/planning/proposals/plan';
import type { PlanningContext } from '../../../../../src/core/planning/context';
import { requireSharedData } from '../../../../helpers/paths';
import { loadWorld, type World } from '../queries/world';

const block = (ctx: PlanningContext, input: unknown) => draftFromSubmit(ctx, submitBlockInput.parse(input), new Map());
const recipesOf = (d: Draft) => d.rows.map((r) => r.recipe).sort();
const externally = (d: Draft) => d.importsExternal.map((f) => f.good).sort();

describe('chain completion', () => {
  describe('the input', () => {
    it('takes an empty recipe list only with complete, and makeHere only with complete', () => {
      assert.equal(submitBlockInput.safeParse({ target: 'engine-unit', rate: 1 }).success, false);
      assert.equal(submitBlockInput.safeParse({ target: 'engine-unit', rate: 1, complete: true }).success, true);
      const r = submitBlockInput.safeParse({ target: 'engine-unit', rate: 1, recipes: ['engine-unit'], makeHere: ['pipe'] });
      assert.equal(r.success, false);
      assert.match(JSON.stringify(r.error!.issues), /makeHere only works with complete/);
    });
  });

  describe('vanilla 2.0', function () {
    this.timeout(60_000);
    let w: World;
    let ctx: PlanningContext;
    before(async function () {
      w = await loadWorld(requireSharedData(this, 'vanilla-2.0-data-raw'));
      ctx = w.ctx({ research_mode: 'future' });
    });

    // From the dump: electric-engine-unit = 1 engine-unit + 15 lubricant + 2 electronic-circuit.
    // Recipes taking each: engine-unit 8 (< 10: made here), electronic-circuit 47 (a commodity:
    // imported), lubricant 5 (made here: lubricant = 10 heavy-oil → 10 lubricant). engine-unit =
    // steel-plate (60) + iron-gear-wheel (43) + 2 pipe (15): all commodities.
    it('walks goods with fewer than 10 consumers and imports commodities, raw goods and what the block names in subBlocksNeeded', () => {
      const c = completeChain(ctx, { recipes: [], goals: ['electric-engine-unit'], imported: new Set(['lubricant']) });
      assert.deepEqual(c.added.map((a) => [a.good, a.recipe]), [
        ['electric-engine-unit', 'electric-engine-unit'],
        ['engine-unit', 'engine-unit'],
      ]);
      assert.deepEqual(c.added.map((a) => a.others), [0, 0], 'one recipe each makes them');
      assert.equal(c.stoppedAt, undefined);
    });

    it('makes a commodity the block names in makeHere, and never gives a good a second producer', () => {
      // electronic-circuit = iron-plate (44) + 3 copper-cable (13): both commodities.
      const c = completeChain(ctx, { recipes: ['engine-unit'], goals: ['electric-engine-unit'], imported: new Set(['lubricant']), makeHere: new Set(['electronic-circuit']) });
      assert.deepEqual(c.added.map((a) => a.recipe), ['electric-engine-unit', 'electronic-circuit']);
    });

    it("takes a producer whose main output is the good: coal liquefaction for heavy oil (90 of it against 20 light oil and 10 gas), not advanced oil processing (25 heavy, 45 light, 55 gas)", () => {
      const p = producerFor(ctx, 'heavy-oil')!;
      assert.equal(p.chosen.info.recipe.name, 'coal-liquefaction');
      // Coal liquefaction takes 25 heavy oil and gives 90 back: a catalyst, not a loop to avoid.
      assert.equal(producerFor(ctx, 'heavy-oil', new Set(['heavy-oil']))!.chosen.info.recipe.name, 'coal-liquefaction');
      assert.ok(p.others >= 1, 'advanced oil processing makes heavy oil too');
    });

    it('drafts a completed block: the model names nothing, the tool lists what it chose, and the block solves', async () => {
      const d = await block(ctx, { target: 'electric-engine-unit', rate: 1, complete: true, subBlocksNeeded: ['lubricant'] });
      assert.equal(d.status, 'optimal');
      assert.deepEqual(recipesOf(d), ['electric-engine-unit', 'engine-unit']);
      assert.deepEqual(d.completed!.added.map((a) => a.good), ['electric-engine-unit', 'engine-unit']);
      assert.deepEqual(externally(d), ['electronic-circuit', 'iron-gear-wheel', 'lubricant', 'pipe', 'steel-plate']);
      assert.deepEqual(d.doc.made, ['engine-unit'], 'the linked good is made in the block');
    });

    it("in a plan, stops at the goods the plan's other blocks make and takes them from those blocks", async () => {
      const plan = await planDraft(ctx, w.project, submitPlanInput.parse({
        title: 'Engines', objective: 'electric engines with their engines from a block of their own',
        blocks: [
          { name: 'electric engines', target: 'electric-engine-unit', rate: 1, complete: true },
          { name: 'engines', target: 'engine-unit', rate: 'fromPlan', complete: true },
        ],
      }));
      const [ee, e] = plan.blocks;
      assert.equal(plan.ok, true);
      // lubricant has 5 consumers: made in the block (10 heavy oil → 10 lubricant); heavy oil by coal
      // liquefaction (10 coal + 25 heavy oil + 50 steam), its steam from a boiler (165 °C).
      assert.deepEqual(recipesOf(ee), ['boil-steam-165', 'coal-liquefaction', 'electric-engine-unit', 'lubricant']);
      assert.deepEqual(ee.importsFromBlocks.map((f) => [f.good, f.blocks]), [['engine-unit', ['engines']]]);
      assert.deepEqual(recipesOf(e), ['engine-unit']);
      // Each electric engine takes one engine; productivity modules in the electric engines' row
      // lower what it takes, so the supplier is sized to exactly that import.
      const taken = ee.importsFromBlocks[0].rate;
      assert.ok(Math.abs(e.goals[0].rate - taken) < 1e-6 * taken, `${e.goals[0].rate} vs ${taken}`);
    });
  });

  describe('full Py (FactorioLab)', function () {
    this.timeout(120_000);
    let w: World;
    before(async function () {
      w = await loadWorld(requireSharedData(this, 'factoriolab-pysalf'));
    });

    // The logistic pack's chain as the scripted plan names it from its recipe graph. Completed with
    // every first-listed producer, the lead chain (grade-2 crushing and screening) feeds on itself
    // and the block cannot balance without importing what it marks as made; the second completion
    // leaves such producers out and solves.
    it('completes again without self-feeding producers when the first completion is infeasible, and drops completed rows the solve leaves idle', async () => {
      const ctx = w.ctx({ research_mode: 'target', horizon_target: 'logistic-science-pack' });
      const d = await block(ctx, {
        target: 'logistic-science-pack', rate: 0.25, complete: true,
        recipes: ['cottongut-science-blue-seeds', 'nano-cellulose', 'adrenal-cortex', 'animal-sample-01', 'battery-2'],
        subBlocksNeeded: ['alien-sample01', 'alien-sample-02', 'cottongut', 'navens', 'blood', 'lab-instrument', 'stainless-steel'],
      });
      assert.equal(d.status, 'optimal');
      assert.equal(d.completed!.loopsAvoided, true);
      assert.deepEqual(d.rows.filter((r) => r.buildings <= 1e-9).map((r) => r.recipe), []);
      for (const a of d.completed!.added) assert.ok(d.rows.some((r) => r.recipe === a.recipe), `${a.recipe} is a row`);
    });
  });
});
