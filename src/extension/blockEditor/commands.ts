// Commands of the block editor: edit a block in its tab, create a block by hand (name, goal,
// first recipe), and Redo (Undo lives with the assistant's commands; both re-solve what they touch).
import * as vscode from 'vscode';
import { z } from 'zod';
import { planningContext } from '../../core/planning/context';
import { solverFor } from '../../core/assistant/tools/context';
import { createBlock, getBlock, redoAndResolve } from '../../core/planning/factory/blocks';
import type { ProjectManager } from '../projectManager';
import { objectArg } from '../commands/args';
import { registerCommand } from '../commands/register';
import { confirmInStatusBar } from '../commands/confirm';
import { pickBlock } from '../commands/factory';
import { BlockEditors } from './panel';
import type { GameIcons } from '../icons';
import { pickGood, rankedFor, recipeItem } from './pickers';
import { RateUnits } from './units';

const newArg = z.object({ name: z.string().min(1).max(120), good: z.string().min(1), rate: z.number().finite(), recipe: z.string().min(1).optional() }).strict();

export function registerBlockEditor(context: vscode.ExtensionContext, projects: ProjectManager, icons?: GameIcons): { editors: BlockEditors; units: RateUnits; disposables: vscode.Disposable[] } {
  const units = new RateUnits(context.workspaceState);
  const editors = new BlockEditors(context, projects, units, icons);
  return {
    editors,
    units,
    disposables: [
      editors,
      units,
      registerCommand('pyops.block.edit', async (arg?: unknown) => {
        const id = await pickBlock(projects, arg, 'Edit which block?');
        if (!id) return undefined;
        // The lab bank has no recipes: it has an editor of its own.
        if (getBlock(projects.require(), id).doc.science) return vscode.commands.executeCommand('pyops.science.open', { blockId: id });
        await editors.show(id);
        return id;
      }),
      registerCommand('pyops.block.new', async (arg?: unknown) => {
        const p = projects.requireWritable();
        const ctx = planningContext(p);
        if (ctx.g.isEmpty) throw new Error('This project has no game data yet; import it ("PyOps: Import Game Data (Dump or FactorioLab Set)…") before creating blocks.');
        let a = objectArg(arg, newArg);
        if (!a) {
          const name = await vscode.window.showInputBox({ title: 'New block: its name', placeHolder: 'e.g. Iron plates', validateInput: (v) => (v.trim() ? undefined : 'A block needs a name') });
          if (!name) return undefined;
          const good = await pickGood(ctx, `New block "${name}": what should it make?`, { madeOnly: true });
          if (!good) return undefined;
          const rateText = await vscode.window.showInputBox({ title: `How much ${ctx.g.displayOf(good)} per second?`, value: '1', validateInput: (v) => (Number.isFinite(Number(v)) && Number(v) > 0 ? undefined : 'A positive number per second, e.g. 0.5') });
          if (!rateText) return undefined;
          const makers = rankedFor(ctx, good, 'produce', new Set()).map((r) => recipeItem(ctx, r));
          const recipe = makers.length === 1 ? makers[0].recipe : (await vscode.window.showQuickPick(makers, { title: `First recipe of "${name}" (more can be added in the editor)`, matchOnDescription: true }))?.recipe;
          a = { name: name.trim(), good, rate: Number(rateText), ...(recipe ? { recipe } : {}) };
        }
        const id = await createBlock(p, solverFor(ctx), { name: a.name, doc: { goals: [{ good: a.good, rate: a.rate }], recipes: a.recipe ? [{ recipe: a.recipe }] : [] } });
        projects.touch();
        await editors.show(id);
        return id;
      }),
      registerCommand('pyops.edit.redo', async () => {
        const p = projects.requireWritable();
        const r = await redoAndResolve(p, solverFor(planningContext(p)));
        projects.touch();
        confirmInStatusBar(r ? `$(redo) PyOps: redid "${r.label}"` : 'PyOps: nothing to redo');
        return r?.label;
      }),
    ],
  };
}
