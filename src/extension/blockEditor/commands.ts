// Commands of the block editor: edit a block in its tab, create a block by hand (name, goal,
// first recipe), and Redo (Undo lives with the assistant's commands; both re-solve what they touch).
import * as vscode from 'vscode';
import { z } from 'zod';
import { planningContext } from '../../core/planning/context';
import { solverFor } from '../../core/assistant/tools/context';
import { createBlock, listBlocks, redoAndResolve } from '../../core/planning/factory/blocks';
import type { ProjectManager } from '../projectManager';
import type { FactoryNode } from '../views/factoryTree';
import { objectArg } from '../commands/args';
import { registerCommand } from '../commands/register';
import { BlockEditors } from './panel';

const editArg = z.object({ blockId: z.string().min(1) }).loose();
const newArg = z.object({ name: z.string().min(1).max(120), good: z.string().min(1), rate: z.number().finite(), recipe: z.string().min(1).optional() }).strict();

export function registerBlockEditor(context: vscode.ExtensionContext, projects: ProjectManager): { editors: BlockEditors; disposables: vscode.Disposable[] } {
  const editors = new BlockEditors(context, projects);
  const blockIdOf = async (arg: unknown): Promise<string | undefined> => {
    const n = arg as FactoryNode | undefined;
    if (n && typeof n === 'object' && 'kind' in n && (n.kind === 'block' || n.kind === 'snapshots')) return n.block.id;
    const a = objectArg(arg, editArg);
    if (a) return a.blockId;
    const blocks = listBlocks(projects.require());
    if (!blocks.length) throw new Error('This project has no blocks yet: create one with "PyOps: New Block…", or ask @pyops for one.');
    const pick = await vscode.window.showQuickPick(blocks.map((b) => ({ label: b.name, description: b.enabled ? undefined : 'disabled', id: b.id })), { title: 'Edit which block?' });
    return pick?.id;
  };
  return {
    editors,
    disposables: [
      editors,
      registerCommand('pyops.block.edit', async (arg?: unknown) => {
        const id = await blockIdOf(arg);
        if (!id) return undefined;
        await editors.show(id);
        return id;
      }),
      registerCommand('pyops.block.new', async (arg?: unknown) => {
        const p = projects.requireWritable();
        const ctx = planningContext(p);
        if (ctx.g.isEmpty) throw new Error('This project has no game data yet; import it ("PyOps: Import Game Data from Dump…") before creating blocks.');
        let a = objectArg(arg, newArg);
        if (!a) {
          const name = await vscode.window.showInputBox({ title: 'New block: its name', placeHolder: 'e.g. Iron plates', validateInput: (v) => (v.trim() ? undefined : 'A block needs a name') });
          if (!name) return undefined;
          const goods = [...ctx.g.goods.values()]
            .filter((x) => !x.hidden && ctx.g.producersOf(x.name).length)
            .map((x) => ({ label: x.display, description: x.name, good: x.name }))
            .sort((x, y) => x.label.localeCompare(y.label));
          const good = (await vscode.window.showQuickPick(goods, { title: `New block "${name}": what should it make?`, matchOnDescription: true }))?.good;
          if (!good) return undefined;
          const rateText = await vscode.window.showInputBox({ title: `How much ${ctx.g.displayOf(good)} per second?`, value: '1', validateInput: (v) => (Number.isFinite(Number(v)) && Number(v) > 0 ? undefined : 'A positive number per second, e.g. 0.5') });
          if (!rateText) return undefined;
          const makers = ctx.g.producersOf(good).map((r) => {
            const v = ctx.availability.recipeVerdict(r);
            const ok = v.state === 'unlocked' || v.state === 'buildable';
            return { label: `${ok ? '' : '$(lock) '}${ctx.g.displayOf(r)}`, description: r, detail: ok ? undefined : `not usable under the horizon: ${v.state}`, recipe: r, ok };
          }).sort((x, y) => Number(y.ok) - Number(x.ok));
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
        if (r) void vscode.window.showInformationMessage(`PyOps: redid "${r.label}".`);
        else void vscode.window.showWarningMessage('PyOps: nothing to redo.');
        return r?.label;
      }),
    ],
  };
}
