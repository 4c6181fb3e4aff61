// Game-data commands: import a dump the user already has, or sync straight from their Factorio.
import * as vscode from 'vscode';
import path from 'node:path';
import { z } from 'zod';
import { importGameData, type ImportSummary } from '../../core/gamedata/import';
import { syncFromFactorio, FactorioSyncError } from '../../core/gamedata/factorio';
import { readSettings } from '../settings';
import { notFound } from '../bridge/modCommands';
import type { ProjectManager } from '../projectManager';
import { objectArg } from './args';
import { registerCommand } from './register';

export function describeImport(s: ImportSummary): string {
  const c = s.counts;
  return `${c.items} items, ${c.fluids} fluids, ${c.recipes} recipes (+${c.synthesizedRecipes} planner recipes), ${c.machines} machines, ${c.technologies} technologies${c.turdMasters ? `, ${c.turdMasters} TURD upgrades` : ''}.`;
}

export function registerGameDataCommands(projects: ProjectManager): vscode.Disposable[] {
  return [
    registerCommand('pyops.gamedata.import', async (arg?: unknown) => {
      const p = projects.requireWritable();
      let source = objectArg(arg, z.object({ source: z.string().min(1) }))?.source;
      if (!source) {
        const picked = await vscode.window.showOpenDialog({
          title: 'Pick data-raw-dump.json (the *-locale.json files beside it are read too)',
          filters: { 'Factorio data dump': ['json'] },
          canSelectMany: false,
        });
        if (!picked?.[0]) return undefined;
        source = picked[0].fsPath;
      }
      const summary = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `PyOps: importing game data into "${p.name}"` },
        (progress) => importGameData(p, source, { onProgress: (_stage, message) => progress.report({ message }) }),
      );
      projects.touch();
      void vscode.window.showInformationMessage(`PyOps: imported ${path.basename(summary.dumpFile)} — ${describeImport(summary)}${summary.warnings.length ? ` ${summary.warnings.length} warning(s), see the output.` : ''}`);
      return summary;
    }),

    registerCommand('pyops.gamedata.sync', async () => {
      const p = projects.requireWritable();
      const s = readSettings();
      try {
        const result = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'PyOps: syncing game data from Factorio', cancellable: true },
          (progress, token) => {
            const abort = new AbortController();
            token.onCancellationRequested(() => abort.abort());
            return syncFromFactorio(p, {
              executable: s.factorioExecutablePath || undefined,
              userDataDir: s.factorioUserDataPath || undefined,
              timeoutMs: s.factorioDumpTimeoutSeconds * 1000,
              signal: abort.signal,
              onProgress: (message) => progress.report({ message }),
            });
          },
        );
        projects.touch();
        void vscode.window.showInformationMessage(`PyOps: synced from Factorio ${result.factorioVersion} — ${describeImport(result.summary)}`);
        return result.summary;
      } catch (err) {
        if (err instanceof FactorioSyncError && err.code === 'aborted') return undefined;
        return notFound(err);
      }
    }),
  ];
}
