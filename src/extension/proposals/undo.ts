// Undo from a toast. "Create block X — done. [Undo]" stays on screen while the user keeps working,
// so by the time Undo is clicked the latest change may be a different one; undoing "the latest"
// would then revert something the toast never mentioned. A toast therefore carries the undo entry
// of its own change and undoes exactly that, or says why it cannot. No `vscode` here: it is tested
// against a real project.
import type { Project } from '../../core/db/project';
import { redoAndResolve, undoAndResolve, type BlockSolver } from '../../core/planning/factory/blocks';

/** The undo entry a change made (what its toast's Undo must revert). */
export interface UndoTarget {
  id: number;
  label: string;
}

export type UndoOutcome = { undone: true; label: string } | { undone: false; message: string };

/** The undo entry of the change just written, to hand to its toast. */
export function latestChange(project: Project): UndoTarget | undefined {
  const e = project.undoable();
  return e ? { id: e.id, label: e.label } : undefined;
}

/** Undo `target` if it is still the latest change; without a target, undo the latest change. */
export async function undoChange(project: Project, solve: BlockSolver, target?: UndoTarget): Promise<UndoOutcome> {
  const latest = project.undoable();
  if (target && latest?.id !== target.id) {
    // Entries are numbered in order and Undo always reverts the newest one still applied, so a newer
    // latest entry means later changes sit on top; an older (or none) means this one was undone already.
    const message =
      latest && latest.id > target.id
        ? `Cannot undo ${target.label} from this notice: ${latest.label} came after it. Undo that first ("PyOps: Undo Last Project Change"), or change it back by hand.`
        : `${target.label} is already undone.`;
    return { undone: false, message };
  }
  const r = await undoAndResolve(project, solve);
  return r ? { undone: true, label: r.label } : { undone: false, message: 'There is nothing to undo.' };
}

/** Redo `target` if it is the change Redo would re-apply now (the counterpart of undoChange). */
export async function redoChange(project: Project, solve: BlockSolver, target: UndoTarget): Promise<UndoOutcome> {
  const next = project.redoable();
  if (next?.id !== target.id) {
    const message = next ? `Cannot redo ${target.label}: ${next.label} would be redone first.` : `${target.label} cannot be redone: the project changed after it was undone.`;
    return { undone: false, message };
  }
  const r = await redoAndResolve(project, solve);
  return r ? { undone: true, label: r.label } : { undone: false, message: 'There is nothing to redo.' };
}
