// Balance Factory: every goal change of a scenario result written as ONE undoable action, with the
// same stale-version protection as block edits — a result computed from other inputs (pins,
// priorities, a block saved since, another horizon) is refused and must be recalculated. What the
// scenario assumed (what-if pins, the science block's research) is saved in the same action.
import type { Project } from '../../../db/project';
import { applyPlan, BlockError, getBlock, type BlockSolver, type NewBlock } from '../blocks';
import { inputsFingerprint } from './fingerprint';
import type { ScenarioResult } from './scenario';
import { withGoals, scalableGoals } from './model';
import { putFactoryPins } from './inputs';

export interface BalanceApplied {
  updated: string[];
  created: string[];
  goals: number;
  label: string;
}

/** Is this result still the answer for the project as it is now? */
export function isStale(p: Project, r: Pick<ScenarioResult, 'fingerprint'>): boolean {
  return r.fingerprint !== inputsFingerprint(p);
}

export async function balanceFactory(p: Project, solve: BlockSolver, r: ScenarioResult): Promise<BalanceApplied> {
  if (r.status !== 'optimal') throw new BlockError(`The scenario did not solve (${r.status}${r.message ? `: ${r.message}` : ''}); there is nothing to apply.`, 'invalid');
  if (isStale(p, r)) throw new BlockError('The factory changed since this scenario was calculated (a block, a pin, a priority or the horizon); recalculate it and apply again.', 'stale');
  const byBlock = new Map<string, ScenarioResult['goalChanges']>();
  for (const c of r.goalChanges) byBlock.set(c.blockId, [...(byBlock.get(c.blockId) ?? []), c]);
  const update: Array<{ id: string; baseUpdatedAt: string; doc: unknown }> = [...byBlock].map(([id, changes]) => {
    const b = getBlock(p, id);
    const goals = scalableGoals(b);
    const mags = goals.map((v) => changes.find((c) => c.goalIndex === v.index)?.next ?? v.current);
    return { id, baseUpdatedAt: changes[0].updatedAt, doc: withGoals(b.doc, goals, mags) };
  });
  const create: NewBlock[] = [];
  const science = r.assumed?.science;
  if (science?.blockId) {
    const b = getBlock(p, science.blockId);
    update.push({ id: b.id, baseUpdatedAt: science.updatedAt ?? b.updatedAt, doc: { ...b.doc, science: science.spec } });
  } else if (science) create.push({ name: science.name, doc: { science: science.spec } });
  const parts = [
    r.goalChanges.length ? `${r.goalChanges.length} goal${r.goalChanges.length === 1 ? '' : 's'} in ${byBlock.size} block${byBlock.size === 1 ? '' : 's'}` : '',
    science ? 'science block' : '',
    r.assumed?.pins ? 'pins' : '',
  ].filter(Boolean);
  const label = `Balance factory (${parts.join(', ') || 'no changes'})`;
  if (!update.length && !create.length && !r.assumed?.pins) return { updated: [], created: [], goals: 0, label };
  const pins = r.assumed?.pins;
  const done = await applyPlan(p, solve, { create, update }, label, { snapshotReason: 'before balance', extra: pins ? (db) => putFactoryPins(db, pins) : undefined });
  return { updated: done.updated, created: done.created, goals: r.goalChanges.length, label };
}
