// What tool executors need from the project: the planning context (game index + availability of the
// current horizon and TURD state), a solver for block documents, and what existing blocks make.
import type { ToolContext } from './types';
import { planningContext, type PlanningContext } from '../../planning/context';
import { solveBlock } from '../../planning/solver/solve';
import type { BlockSolver } from '../../planning/factory/blocks';
import { listBlocks, blockFlows } from '../../planning/factory/blocks';
import { ToolError } from './run';
import { gamedataProblem } from '../../db/project';

export function planning(ctx: ToolContext): PlanningContext {
  const pc = planningContext(ctx.project);
  // Say what the store knows (missing, unreadable, damaged, never imported), not just "no data".
  if (pc.g.isEmpty) throw new ToolError(`${gamedataProblem(ctx.project) ?? 'This project has no game data yet.'} Ask the user to do that, then try again.`, 'failed');
  return pc;
}

export function solverFor(pc: PlanningContext): BlockSolver {
  return (doc) => solveBlock(pc.g, pc.availability, doc);
}

const enabledBlockNames = (ctx: ToolContext) => new Map(listBlocks(ctx.project, { enabledOnly: true }).map((b) => [b.id, b.name]));

/** good → names of enabled blocks that make it (goal or byproduct), from the stored projections. */
export function blockSupply(ctx: ToolContext): Map<string, string[]> {
  const names = enabledBlockNames(ctx);
  const out = new Map<string, string[]>();
  for (const f of blockFlows(ctx.project)) {
    if (f.role === 'import' || !names.has(f.block_id)) continue;
    const l = out.get(f.item) ?? [];
    if (!l.includes(names.get(f.block_id)!)) l.push(names.get(f.block_id)!);
    out.set(f.item, l);
  }
  return out;
}

/** good → the first enabled block that makes it: the seam the planning queries stop at. */
export function blockGoods(ctx: ToolContext): Map<string, string> {
  return new Map([...blockSupply(ctx)].map(([k, v]) => [k, v[0]]));
}

/** Names of enabled blocks that import `good`, from the stored projections. */
export function blockImporters(ctx: ToolContext, good: string): string[] {
  const names = enabledBlockNames(ctx);
  return [...new Set(blockFlows(ctx.project).filter((f) => f.role === 'import' && f.item === good && names.has(f.block_id)).map((f) => names.get(f.block_id)!))];
}
