// "PyOps: Science Block": opens the project's science block in its editor, creating it (empty, one
// undoable action) when the project has none. The Factory view and the factory board open it here too.
import * as vscode from 'vscode';
import { z } from 'zod';
import { planningContext } from '../../core/planning/context';
import { solverFor } from '../../core/assistant/tools/context';
import { createBlock, getBlock, scienceBlock } from '../../core/planning/factory/blocks';
import type { ProjectManager } from '../projectManager';
import type { GameIcons } from '../icons';
import { objectArg } from '../commands/args';
import { registerCommand } from '../commands/register';
import { ScienceEditor } from './panel';

const openArg = z.object({ blockId: z.string().min(1).optional() }).loose();

export function registerScienceEditor(context: vscode.ExtensionContext, projects: ProjectManager, icons?: GameIcons): { editor: ScienceEditor; disposables: vscode.Disposable[] } {
  const editor = new ScienceEditor(context, projects, icons);
  return {
    editor,
    disposables: [
      editor,
      registerCommand('pyops.science.open', async (arg?: unknown) => {
        const p = projects.require();
        const a = objectArg(arg, openArg);
        let id = a?.blockId ?? scienceBlock(p)?.id;
        if (id && !getBlock(p, id).doc.science) throw new Error(`"${getBlock(p, id).name}" is not the science block; open it with "Edit Block".`);
        if (!id) {
          const w = projects.requireWritable();
          const pc = planningContext(w);
          if (pc.g.isEmpty) throw new Error('This project has no game data yet; import it ("PyOps: Import Game Data from Dump…") before creating the science block.');
          id = await createBlock(w, solverFor(pc), { name: 'Science', doc: { science: {} } }, 'Create the science block');
        }
        editor.show(id);
        return id;
      }),
    ],
  };
}
