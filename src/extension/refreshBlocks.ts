// Keeps stored block projections current: after a change the solves depend on (game data, horizon,
// research or TURD state — from a command or a game sync), stale blocks are re-solved in the
// background. One refresh at a time; a request during a refresh runs once more afterwards.
import * as vscode from 'vscode';
import { refreshStale } from '../core/planning/factory/blocks';
import { planningContext } from '../core/planning/context';
import { solverFor } from '../core/assistant/tools/context';
import type { ProjectManager } from './projectManager';

let running: Promise<void> | undefined;
let again = false;

export async function refreshBlocks(projects: ProjectManager): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    // Let whoever announced the change (a project just opened, an import) finish first: loading
    // the planning index is the slow part, and the status bar and views need not wait for it.
    await new Promise((r) => setImmediate(r));
    do {
      again = false;
      const p = projects.active;
      if (!p || p.readOnly || p.isClosed) return;
      try {
        const ctx = planningContext(p);
        if (ctx.g.isEmpty) return;
        const done = await refreshStale(p, solverFor(ctx));
        if (done.length && projects.active === p) projects.touch();
      } catch (err) {
        // Closing or switching the project mid-solve makes the write fail; that is not news.
        if (p.isClosed || projects.active !== p) continue;
        void vscode.window.showWarningMessage(`PyOps: could not re-solve the blocks (${(err as Error).message}).`);
      }
    } while (again);
  })().finally(() => {
    running = undefined;
  });
  return running;
}
