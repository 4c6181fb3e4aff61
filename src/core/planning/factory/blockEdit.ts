// One edit of a block as the block editor makes it: a small, named change to the block document
// (a goal's rate, a row's machine or fuel, a row added or removed, a good made or drained), solved
// once and saved as one undoable action with stale-save protection. The editor, tests and the
// benchmark all go through here, so "an edit re-solves in time" is measured on the real path.
import type { Project } from '../../db/project';
import type { SolveResult } from '../solver/result';
import { drainGood, parseBlockDoc, type BlockDoc, type Goal } from '../block/document';
import { BlockError, getBlock, saveBlock, type BlockRecord, type BlockSolver } from './blocks';

export type BlockEdit =
  | { kind: 'rename'; name: string }
  | { kind: 'goal-add'; good: string; rate: number }
  | { kind: 'goal-rate'; index: number; rate: number }
  | { kind: 'goal-remove'; index: number }
  | { kind: 'row-add'; recipe: string }
  | { kind: 'row-remove'; recipe: string }
  | { kind: 'row-disable'; recipe: string; disabled: boolean }
  | { kind: 'row-machine'; recipe: string; machine: string | null }
  | { kind: 'row-fuel'; recipe: string; fuel: string | null }
  | { kind: 'good-made'; good: string; on: boolean }
  | { kind: 'good-drain'; good: string; on: boolean };

export interface AppliedEdit {
  doc: BlockDoc;
  name?: string;
  /** What Undo will say, e.g. `Set goal Iron plate to 2/s in "Smelting"`. */
  label: string;
}

const rateText = (r: number) => `${Number(r.toPrecision(4))}/s`;

/** The document after `edit`, with the words for Undo; throws a BlockError a user can act on. */
export function applyBlockEdit(b: Pick<BlockRecord, 'name' | 'doc'>, edit: BlockEdit, display: (name: string) => string = (n) => n): AppliedEdit {
  const doc: BlockDoc = structuredClone(b.doc);
  const inBlock = ` in "${b.name}"`;
  const row = (recipe: string) => {
    const r = doc.recipes.find((x) => x.recipe === recipe);
    if (!r) throw new BlockError(`"${b.name}" has no row for recipe ${recipe}; reload the editor.`, 'invalid');
    return r;
  };
  const goal = (index: number): Goal => {
    const g = doc.goals[index];
    if (!g) throw new BlockError(`"${b.name}" has no goal number ${index + 1}; reload the editor.`, 'invalid');
    return g;
  };
  switch (edit.kind) {
    case 'rename': {
      const name = edit.name.trim();
      if (!name) throw new BlockError('A block needs a name.', 'invalid');
      return { doc, name, label: `Rename block "${b.name}" to "${name}"` };
    }
    case 'goal-add':
      if (doc.goals.some((g) => g.good === edit.good)) throw new BlockError(`"${b.name}" already has a goal for ${display(edit.good)}; change its rate instead.`, 'invalid');
      doc.goals.push({ good: edit.good, rate: edit.rate });
      return { doc, label: `Add goal ${display(edit.good)} ${rateText(edit.rate)}${inBlock}` };
    case 'goal-rate': {
      const g = goal(edit.index);
      if (g.stock) throw new BlockError(`The goal for ${display(g.good)} is a stock goal (an amount over a time); edit it in the block document.`, 'invalid');
      // The sign says the direction; keep the goal's own direction when it has one.
      g.rate = g.direction === 'consume' ? Math.abs(edit.rate) : edit.rate;
      return { doc, label: `Set goal ${display(g.good)} to ${rateText(edit.rate)}${inBlock}` };
    }
    case 'goal-remove': {
      const g = goal(edit.index);
      doc.goals.splice(edit.index, 1);
      return { doc, label: `Remove goal ${display(g.good)}${inBlock}` };
    }
    case 'row-add':
      if (doc.recipes.some((r) => r.recipe === edit.recipe)) throw new BlockError(`"${b.name}" already has ${display(edit.recipe)}.`, 'invalid');
      doc.recipes.push({ recipe: edit.recipe });
      return { doc, label: `Add recipe ${display(edit.recipe)}${inBlock}` };
    case 'row-remove':
      row(edit.recipe);
      doc.recipes = doc.recipes.filter((r) => r.recipe !== edit.recipe);
      // Pins of a removed row would only fail the next solve.
      doc.pins = doc.pins.filter((p) => p.recipe !== edit.recipe);
      return { doc, label: `Remove recipe ${display(edit.recipe)}${inBlock}` };
    case 'row-disable': {
      const r = row(edit.recipe);
      if (edit.disabled) r.disabled = true;
      else delete r.disabled;
      return { doc, label: `${edit.disabled ? 'Disable' : 'Enable'} recipe ${display(edit.recipe)}${inBlock}` };
    }
    case 'row-machine': {
      const r = row(edit.recipe);
      if (edit.machine) r.machine = edit.machine;
      else delete r.machine;
      // Modules and fuel were chosen for the old machine; the solver's defaults fit the new one.
      delete r.modules;
      delete r.fuel;
      return { doc, label: edit.machine ? `Use ${display(edit.machine)} for ${display(edit.recipe)}${inBlock}` : `Default machine for ${display(edit.recipe)}${inBlock}` };
    }
    case 'row-fuel': {
      const r = row(edit.recipe);
      if (edit.fuel) r.fuel = edit.fuel;
      else delete r.fuel;
      return { doc, label: edit.fuel ? `Burn ${display(edit.fuel)} in ${display(edit.recipe)}${inBlock}` : `Default fuel for ${display(edit.recipe)}${inBlock}` };
    }
    case 'good-made': {
      doc.made = doc.made.filter((g) => g !== edit.good);
      if (edit.on) doc.made.push(edit.good);
      return { doc, label: `${edit.on ? 'Make' : 'Stop requiring'} ${display(edit.good)} inside${inBlock}` };
    }
    case 'good-drain': {
      doc.drains = doc.drains.filter((d) => drainGood(d) !== edit.good);
      if (edit.on) doc.drains.push(edit.good);
      return { doc, label: `${edit.on ? 'Balance' : 'Export'} ${display(edit.good)}${edit.on ? ' inside' : ''}${inBlock}` };
    }
  }
}

/**
 * Apply `edit` to block `id` as the editor read it at `baseUpdatedAt`: solve once, save with that
 * result as one undoable action, and return the saved block with the result to show. A block
 * changed meanwhile (another window, the chat, an undo) is refused with a 'stale' BlockError.
 */
export async function editBlock(
  p: Project, solve: BlockSolver, id: string, edit: BlockEdit, baseUpdatedAt: string, display?: (name: string) => string,
): Promise<{ block: BlockRecord; result: SolveResult | null; broken?: string; label: string }> {
  const current = getBlock(p, id);
  if (current.updatedAt !== baseUpdatedAt) {
    throw new BlockError(`Block "${current.name}" was changed since the editor loaded it; it now shows the current version — apply the change again.`, 'stale');
  }
  const applied = applyBlockEdit(current, edit, display);
  const doc = parseBlockDoc(applied.doc);
  let result: SolveResult | null = null;
  let broken: string | undefined;
  try {
    result = await solve(doc);
  } catch (err) {
    broken = (err as Error).message;
  }
  // The save stores the projection of the solve we already have instead of solving again.
  const reuse: BlockSolver = async () => {
    if (!result) throw new Error(broken ?? 'the block could not be solved');
    return result;
  };
  const block = await saveBlock(p, reuse, id, { doc, ...(applied.name ? { name: applied.name } : {}) }, baseUpdatedAt, { label: applied.label });
  return { block, result, ...(broken ? { broken } : {}), label: applied.label };
}
