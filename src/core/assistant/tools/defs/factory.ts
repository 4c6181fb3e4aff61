// Read tools over the user's factory: the blocks, factory-wide balance, power, what-if rescaling,
// the building bill of planned blocks, and views of the last game sync.
import { z } from 'zod';
import { defineTool, plural, type AnyTool, type ToolContext } from '../types';
import { planning, solverFor, blockSupply } from '../context';
import { factorySnapshot } from '../../../planning/factory/fresh';
import { coherenceAudit } from '../../../planning/factory/audit';
import { factoryScenario } from '../../../planning/factory/scenario/scenario';
import { scenarioForModel } from '../../../planning/factory/scenario/modelView';
import { researchPlan, researchPlanInput } from '../../../planning/science/researchPlan';
import { factoryPower } from '../../../planning/factory/power';
import { blockBuildStatus, productionStats } from '../../../planning/factory/liveState';
import { buildingBill, buildingBillInput } from '../../../planning/proposals/bill';
import { planDraft, submitPlanInput, type SubmitPlanInput } from '../../../planning/proposals/plan';
import { snapshotWithDrafts } from '../../../planning/proposals/planFactory';

const draftPlan = submitPlanInput.optional().describe('a plan exactly as you would give it to submitPlan: judge the factory as it would be with the plan applied (nothing is saved)');

/** The factory as it is, or as it would be with a draft plan applied. */
async function snapshotFor(ctx: ToolContext, plan: SubmitPlanInput | undefined) {
  const pc = planning(ctx);
  if (!plan) return factorySnapshot(ctx.project, solverFor(pc));
  const d = await planDraft(pc, ctx.project, plan, blockSupply(ctx));
  return snapshotWithDrafts(ctx.project, pc, d);
}

const name = z.string().trim().min(1).max(200);

export const factoryTools: AnyTool[] = [
  defineTool({
    name: 'factoryBlocks',
    displayName: 'Factory blocks',
    tier: 'read',
    tags: ['factory'],
    description:
      "The user's existing enabled blocks: id, name, what each makes (good, rate, stock?), its byproducts and imports, as solved under the current horizon. Check it before drafting, to reuse a producer (resize with reviseBlock) instead of duplicating it.",
    input: z.object({}),
    run: async (_i, ctx) => {
      const pc = planning(ctx);
      const snap = await factorySnapshot(ctx.project, solverFor(pc));
      const blocks = snap.blocks.map((b) => {
        const f = snap.flows.filter((x) => x.block_id === b.id);
        // Fluids: the exact temperature of an output, or the range an import accepts.
        const flow = (x: (typeof f)[number]) => ({
          item: x.item, display: pc.g.displayOf(x.item), kind: x.kind, rate: x.rate,
          ...(x.temperature_mode === 'exact' ? { temperature: x.temperature_min } : {}),
          ...(x.temperature_mode === 'range' ? { minTemperature: x.temperature_min, maxTemperature: x.temperature_max } : {}),
        });
        return {
          id: b.id, name: b.name, status: snap.power.get(b.id)?.status ?? b.cache.status,
          makes: f.filter((x) => x.role === 'primary' || x.role === 'stock').map((x) => ({ ...flow(x), ...(x.role === 'stock' ? { stock: true } : {}) })),
          byproducts: f.filter((x) => x.role === 'byproduct').map(flow),
          imports: f.filter((x) => x.role === 'import').map(flow),
          powerW: snap.power.get(b.id)?.powerW ?? 0,
          updatedAt: b.updatedAt,
        };
      });
      return { blocks: blocks.slice(0, 60), total: blocks.length, truncated: blocks.length > 60, resolvedNow: snap.resolved.length };
    },
    describe: (_i, o) => `Read ${plural(o.total, 'block')}`,
  }),
  defineTool({
    name: 'coherenceAudit',
    displayName: 'Coherence audit',
    tier: 'read',
    tags: ['factory'],
    description:
      'Factory-wide balance of the enabled blocks: balanced links (|net| under 1 % of throughput, as in the factory view), under-supplied goods (short by how much), over-produced goods, imports no block makes (and whether they are craftable), dangling byproducts with a disposal verdict (route / void / nowhere; voidsNotSelectable says when a named void cannot be picked yet under the horizon) and the final products. With `plan`, audits the factory as it would be once that draft plan is applied (submitPlan already reports the balance of the goods the plan touches). Use when the user asks whether the factory adds up.',
    input: z.object({ plan: draftPlan }),
    run: async (i, ctx) => {
      const pc = planning(ctx);
      return coherenceAudit(ctx.project, pc.g, pc.availability, await snapshotFor(ctx, i.plan));
    },
    describe: (_i, o) => `Audited ${plural(o.blocks, 'block')} — ${plural(o.underSupplied.length, 'shortage')}, ${plural(o.danglingByproducts.length, 'dangling byproduct')}`,
  }),
  defineTool({
    name: 'factoryScenario',
    displayName: 'Factory scenario',
    tier: 'read',
    tags: ['factory', 'science'],
    description:
      "The whole factory solved toward its pins: the goods the factory must deliver (the player's pins, the science block's pack demand, and goal goods nothing consumes, kept at their current rate). Every enabled block's goals are computed: which blocks to resize (block, good, current → next rate), raw inputs from outside, goods no block can supply (what a new block would have to make, and why: no block makes it, only as a byproduct, or its suppliers are capped), and what is left over. Coproducts count as supply before anything grows; a block is never grown for its own byproducts; supply priorities decide which supplier grows first. `pins` replaces the stored pins for this question (e.g. \"what if 1 logistic science pack/s\"); nothing is saved — to apply, call balanceFactory with the same pins. Use it for \"scale my factory\", \"what must change for X/s\", not to draft new blocks.",
    input: z.object({
      pins: z.array(z.object({ good: name, rate: z.number().min(-1e9).max(1e9).describe('per second; negative = the factory must absorb this much from outside'), temperature: z.number().optional() })).max(50).optional(),
    }),
    run: async (i, ctx) => {
      const pc = planning(ctx);
      return factoryScenario(ctx.project, pc, solverFor(pc), i.pins ? { pins: i.pins } : {});
    },
    forModel: (o) => scenarioForModel(o),
    describe: (_i, o) => (o.status === 'optimal' ? `Solved the factory — ${plural(o.goalChanges.length, 'goal')} to change, ${plural(o.unsupplied.length, 'good')} unsupplied` : `Factory scenario: ${o.status}`),
  }),
  defineTool({
    name: 'researchPlan',
    displayName: 'Research plan',
    tier: 'read',
    tags: ['science', 'research'],
    description:
      'How many labs, and which science packs per second, to research a technology (or the one unlocking a recipe or good) within N minutes — with its prerequisites not yet researched under the completed research — on the science block\'s labs, modules and beacons (or the ones given). Labs are one pool: their count follows the total lab time. Returns packs per second and in total, labs, power, the technologies in research order and the `science` to pass to balanceFactory, which sizes the whole factory for it. Use researchPath for the route and its cost alone.',
    input: researchPlanInput,
    run: (i, ctx) => researchPlan(planning(ctx), ctx.project, i),
    describe: (_i, o) => `Planned research of ${o.display} in ${o.minutes} min — ${o.wholeLabs} labs`,
  }),
  defineTool({
    name: 'factoryPower',
    displayName: 'Factory power',
    tier: 'read',
    tags: ['factory', 'power'],
    description: 'Electric demand of all enabled blocks against the generation of power blocks: totals, net, the biggest consumers and the generators. Electricity is always treated as an import in drafts; this is the place to see whether the factory has enough — with `plan`, as it would be once that draft plan is applied.',
    input: z.object({ limit: z.number().int().min(1).max(30).default(10), plan: draftPlan }),
    run: async (i, ctx) => {
      const pc = planning(ctx);
      return factoryPower(ctx.project, pc.g, solverFor(pc), i.limit, i.plan ? await snapshotFor(ctx, i.plan) : undefined);
    },
    describe: (_i, o) => `Summed power: ${(o.totalDemandW / 1e6).toFixed(2)} MW demand, ${(o.totalGenerationW / 1e6).toFixed(2)} MW generation`,
  }),
  defineTool({
    name: 'buildingBill',
    displayName: 'Building bill',
    tier: 'read',
    tags: ['planning'],
    description:
      'The whole buildings (and beacons) a set of planned blocks (or a whole draft plan, as given to submitPlan) needs — rounded up per machine and recipe in each block, then summed, with the same module fill as the drafts — and which recipes make each building item. Use when the user asks what to build or wants the construction materials planned too.',
    input: buildingBillInput,
    run: (i, ctx) => buildingBill(planning(ctx), i, ctx.project, blockSupply(ctx)),
    describe: (_i, o) => `Counted ${plural(o.machines.reduce((s, m) => s + m.count, 0), 'building')}`,
  }),
  defineTool({
    name: 'blockBuildStatus',
    displayName: 'Block build status',
    tier: 'read',
    tags: ['factory', 'game'],
    description:
      'What is built in the game (from the last sync) against what the blocks need under the current horizon: per block the missing machines per recipe. Without blockId, lists enabled blocks with a shortfall. Says when the snapshot was taken (null = never synced). Answer "what is built" with this, not with game eval.',
    input: z.object({ blockId: z.string().min(1).optional(), limit: z.number().int().min(1).max(30).default(10) }),
    run: (i, ctx) => blockBuildStatus(ctx.project, solverFor(planning(ctx)), i),
    describe: (_i, o) => (o.syncedAt ? `Compared built machines (synced ${o.syncedAt}) for ${plural(o.blocks.length, 'block')}` : 'Checked build status (the game was never synced)'),
  }),
  defineTool({
    name: 'productionStats',
    displayName: 'Production stats',
    tier: 'read',
    tags: ['game'],
    description: 'Production and consumption per second of up to 30 goods from the last game sync, with the time of that sync (null = never synced). For live numbers use gameProduction when a game is connected.',
    input: z.object({ goods: z.array(name).min(1).max(30) }),
    run: (i, ctx) => productionStats(ctx.project, planning(ctx).g, i.goods),
    describe: (i, o) => `Read production stats of ${plural(i.goods.length, 'good')}${o.syncedAt ? '' : ' (never synced)'}`,
  }),
];
