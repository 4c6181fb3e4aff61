// Proposal tools: they solve and return typed drafts — including the solver status and diagnosis —
// and never change the factory. The user applies a draft from its card (one undoable action). A
// chat's cards come from its conversation; drafts made from Copilot agent mode or an MCP client are
// kept as pending proposals for the side panel instead (see keepForPanel) — a write to the project,
// which the MCP annotations say — and the result names any older one that had to make room.
import { z } from 'zod';
import { defineTool, plural, type AnyTool, type ToolContext } from '../types';
import { planning, blockSupply, solverFor } from '../context';
import { factoryScenario } from '../../../planning/factory/scenario/scenario';
import { scenarioForModel } from '../../../planning/factory/scenario/modelView';
import { scienceSchema } from '../../../planning/block/document';
import { draftFromSubmit, submitBlockInput } from '../../../planning/proposals/draft';
import { reviseBlockInput, reviseDraft } from '../../../planning/proposals/revise';
import { planDraft, submitPlanInput } from '../../../planning/proposals/plan';
import { keepPending, MAX_PENDING, type DroppedPending, type PendingTool } from '../../../planning/proposals/pending';
import { draftForModel, planForModel } from '../../../planning/proposals/modelView';

export const PENDING_NOTE = 'Kept as a pending proposal: the user can apply it from the PyOps side panel (Proposals tab), as one undoable change. Nothing is saved until they do.';
/** The same for a draft made with `pyops tool`: the id is what `pyops proposal apply` takes. */
export const TERMINAL_PENDING_NOTE = 'Kept as a pending proposal: apply it with `pyops proposal apply <project> <id>` (or from the PyOps side panel), as one undoable change. Nothing is saved until then.';

/** The note when keeping this draft dropped older ones: which, so the user can be told. */
export function droppedNote(dropped: readonly DroppedPending[]): string {
  const names = dropped.map((d) => `"${d.title}"${d.applied ? ' (already applied; its blocks stay)' : ''}`).join(', ');
  return ` The side panel keeps the newest ${MAX_PENDING} pending proposals, so keeping this one dropped the oldest: ${names}. Tell the user, in case they still wanted ${dropped.length === 1 ? 'it' : 'one of them'}.`;
}

type Pending = { id: string | null; note: string; dropped?: Array<Pick<DroppedPending, 'id' | 'title' | 'createdAt' | 'applied'>> };

/**
 * Callers without a project conversation (VS Code language-model tools, MCP, `pyops tool`) get their
 * draft kept as a pending proposal, and the result says so — or says why it could not be kept, or
 * which older proposal it pushed out. Keeping never fails the tool: the draft itself is still the answer.
 */
export function keepForPanel<T extends object>(ctx: ToolContext, tool: PendingTool, input: unknown, draft: T): T | (T & { pending: Pending }) {
  if (ctx.caller !== 'vscode' && ctx.caller !== 'mcp' && ctx.caller !== 'terminal') return draft;
  if (ctx.project.readOnly) return { ...draft, pending: { id: null, note: `Not kept for the side panel: ${ctx.project.readOnlyReason ?? 'the project is open read-only here'}. Give the user the draft's details instead.` } };
  try {
    const { kept, dropped } = keepPending(ctx.project, { tool, source: ctx.caller, input, result: draft });
    const note = ctx.caller === 'terminal' ? TERMINAL_PENDING_NOTE : PENDING_NOTE;
    if (!dropped.length) return { ...draft, pending: { id: kept.id, note } };
    return { ...draft, pending: { id: kept.id, note: note + droppedNote(dropped), dropped: dropped.map(({ id, title, createdAt, applied }) => ({ id, title, createdAt, applied })) } };
  } catch (err) {
    return { ...draft, pending: { id: null, note: `Not kept for the side panel (${(err as Error).message}). Give the user the draft's details instead.` } };
  }
}

const mw = (w: number) => `${(w / 1e6).toFixed(2)} MW`;
const buildings = (rows: Array<{ wholeBuildings: number }>) => rows.reduce((s, r) => s + r.wholeBuildings, 0);

export const proposalTools: AnyTool[] = [
  defineTool({
    name: 'submitBlock',
    displayName: 'Draft a block',
    tier: 'proposal',
    tags: ['proposal'],
    description:
      'Drafts ONE block for the user to review: target+rate (or several goals, stock goals, or a campaign: a quantity within a duration at a confidence), the full recipe list — or, with `complete: true`, the recipes you chose on purpose and the tool adds the first-listed producer for the rest of the chain, down to raw goods, commodities (10+ consumers, unless in makeHere) and goods other blocks make, listing what it chose in `completed` with how many other recipes each good had — (optionally with composed groups: rows solved as a module the block scales), intermediates deliberately left to other blocks (subBlocksNeeded) and notes. It solves (machines by the default rule, modules auto-filled from the solved rates; a row\'s `preset`, or the block\'s for rows without modules of their own, names a module preset of the project used instead where it fits — a row it does not fit keeps the auto-fill and a warning says so) and returns the draft: status (and a diagnosis when infeasible — fix it before presenting), rows (internal names; machineChoice only when the machine is not the fastest buildable one: rule user/favorite/none-buildable, buildable, and needs = the technology unlocking a machine that is not buildable yet, also in warnings; `research` = the technologies not researched yet that unlock the row\'s recipe, machine and modules), buildings, imports split into from-blocks/external, byproducts, power, heat, pollution, TURD needs, `research` (every technology still to research for it, in research order with its science cost and the total), and — when it imports fluid fuel (MJ) — fuelOptions: the fluids the player can make now with the feed each needs. Changes no block: the user clicks Create (called from agent mode or MCP, the draft is kept as a pending proposal: see `pending`). Call it once per block, after recipeGraph/chainStatus.',
    input: submitBlockInput,
    run: async (i, ctx) => {
      const pc = planning(ctx);
      return keepForPanel(ctx, 'submitBlock', i, await draftFromSubmit(pc, i, blockSupply(ctx)));
    },
    forModel: (o) => draftForModel(o),
    describe: (_i, o) => `Drafted block "${o.name}" — ${o.status === 'optimal' ? `${buildings(o.rows)} buildings, ${mw(o.powerW)}` : o.status}`,
  }),
  defineTool({
    name: 'reviseBlock',
    displayName: 'Revise a block',
    tier: 'proposal',
    tags: ['proposal'],
    description:
      "Drafts a change to an existing block (blockId from factoryBlocks): a new rate for its first goal (other goals kept), a full new recipe list (kept rows keep their machines and modules), a new campaign and/or new composed groups, and/or complete: true (the chain under its rows completed as in submitBlock, listed in `completed`). Returns the solved draft plus what changed: old rate, recipes added/removed, new byproducts. Changes no block; the user applies it (from agent mode or MCP it is kept as a pending proposal). Prefer it over drafting a duplicate producer.",
    input: reviseBlockInput,
    run: async (i, ctx) => keepForPanel(ctx, 'reviseBlock', i, await reviseDraft(planning(ctx), ctx.project, i, blockSupply(ctx))),
    forModel: (o) => draftForModel(o),
    describe: (_i, o) => `Drafted a revision of "${o.name}" — ${o.status === 'optimal' ? `${buildings(o.rows)} buildings` : o.status}`,
  }),
  defineTool({
    name: 'submitPlan',
    displayName: 'Draft a plan',
    tier: 'proposal',
    tags: ['proposal'],
    description:
      'Drafts a multi-block plan: title, objective, the new blocks (each like submitBlock; with `complete: true` the chain of a block stops at the goods the other blocks of the plan make), updates to existing blocks (each like reviseBlock), whether building materials are included, notes. Blocks of the plan count as suppliers of each other (goals and byproducts alike); the rate of a supplier may be "fromPlan", sized from what the other blocks import of it. TURD choices are checked across the whole plan. Returns every draft with its status (each row names the technologies it still needs researched), the goals sized from the plan, `research` (the research the whole plan still needs, in research order with its science cost), and `balance`: what the blocks leave short, over-produced or dangling (fix shortfalls before presenting; each good left over says where it can go: topConsumers, else voidRecipes — call byproductSinks only for goods it does not list); changes no block — the user applies the whole plan as one undoable action (from agent mode or MCP it is kept as a pending proposal). Deliver the complete plan in one call.',
    input: submitPlanInput,
    run: async (i, ctx) => keepForPanel(ctx, 'submitPlan', i, await planDraft(planning(ctx), ctx.project, i, blockSupply(ctx))),
    forModel: (o) => planForModel(o),
    describe: (_i, o) => `Drafted plan "${o.title}" — ${plural(o.blocks.length, 'new block')}, ${plural(o.updates.length, 'update')}${o.ok ? '' : ' (needs attention)'}`,
  }),
  defineTool({
    name: 'balanceFactory',
    displayName: 'Balance the factory',
    tier: 'proposal',
    tags: ['proposal', 'factory', 'science'],
    description:
      'Proposes resizing the whole factory as ONE change the user applies: the factory scenario (see factoryScenario) with optional new `pins` (replacing the stored ones; saved on apply) and an optional `science` lab bank (from researchPlan: research a technology in N minutes — creates or updates the science block on apply). Returns every goal change, what no block can supply and what is left over; nothing changes until the user clicks Balance Factory (one undoable action, refused if the factory changed meanwhile; from agent mode or MCP it is kept as a pending proposal). Use it when the user asks to scale the factory ("research X in an hour", "1 logistic science pack/s"); draft missing supplier blocks separately (submitPlan) for the goods it reports unsupplied.',
    input: z.object({
      pins: z.array(z.object({ good: z.string().trim().min(1).max(200), rate: z.number().min(-1e9).max(1e9), temperature: z.number().optional() })).max(50).optional(),
      science: scienceSchema.optional().describe('the lab bank as researchPlan returns it in `science`'),
    }),
    run: async (i, ctx) => {
      const pc = planning(ctx);
      const r = await factoryScenario(ctx.project, pc, solverFor(pc), { ...(i.pins ? { pins: i.pins } : {}), ...(i.science ? { science: i.science } : {}) });
      return keepForPanel(ctx, 'balanceFactory', i, { ...r, kind: 'balance' as const });
    },
    forModel: (o) => ({ ...(scenarioForModel(o) as object), ...('pending' in o ? { pending: o.pending } : {}) }),
    describe: (_i, o) => (o.status === 'optimal' ? `Proposed balancing the factory — ${plural(o.goalChanges.length, 'goal')} to change` : `Balance factory: ${o.status}`),
  }),
  defineTool({
    name: 'gameEval',
    displayName: 'Propose Lua for the game',
    tier: 'proposal',
    surfaces: ['app'],
    tags: ['game'],
    description:
      'Proposes a Lua snippet to run in the connected game (single-player, and only if the user enabled app-driven eval in the mod settings). It does NOT run: the user sees the code with a note and clicks Run; the result comes back in their next message. Only for state the other tools cannot read, or for writes the user asked for; never for recipe or technology data.',
    input: z.object({ code: z.string().trim().min(1).max(8000), note: z.string().max(1000).optional().describe('what it does and why, for the user') }),
    run: (i) => ({ proposed: true, code: i.code, note: i.note ?? '', status: 'awaiting-approval' as const }),
    describe: () => 'Proposed a Lua snippet (waiting for the user to run it)',
  }),
];
