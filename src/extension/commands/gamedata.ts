// Game-data commands: import a dump the user already has, or sync straight from their Factorio.
import * as vscode from 'vscode';
import path from 'node:path';
import { z } from 'zod';
import { importGameData, type ImportSummary } from '../../core/gamedata/import';
import { syncFromFactorio, FactorioSyncError, gameFoldersOf } from '../../core/gamedata/factorio';
import { describeIconReport, extractProjectIcons, IconsCancelled, type IconExtractSummary } from '../../core/gamedata/icons/extract';
import { readSettings } from '../settings';
import { factorioPaths, notFound } from '../bridge/modCommands';
import type { ProjectManager } from '../projectManager';
import type { GameIcons } from '../icons';
import { objectArg } from './args';
import { registerCommand } from './register';

export function describeImport(s: ImportSummary): string {
  const c = s.counts;
  return `${c.items} items, ${c.fluids} fluids, ${c.recipes} recipes (+${c.synthesizedRecipes} planner recipes), ${c.machines} machines, ${c.technologies} technologies${c.turdMasters ? `, ${c.turdMasters} TURD upgrades` : ''}.`;
}

/** What an extraction left out, in a form the user can act on (the CLI prints the same report). */
function iconReport(s: IconExtractSummary | { error: string } | undefined): string {
  if (!s) return '';
  return 'error' in s ? ` Icons: ${s.error}` : ` ${describeIconReport(s)}`;
}

export function registerGameDataCommands(projects: ProjectManager, icons?: GameIcons): vscode.Disposable[] {
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
        icons?.reload();
        void vscode.window.showInformationMessage(`PyOps: synced from Factorio ${result.factorioVersion} — ${describeImport(result.summary)}${iconReport(result.icons)}`);
        return result.summary;
      } catch (err) {
        if (err instanceof FactorioSyncError && err.code === 'aborted') return undefined;
        return notFound(err);
      }
    }),

    // Projects imported from a dump file have specs but no pictures; a sync extracts them itself.
    registerCommand('pyops.gamedata.extractIcons', async () => {
      const p = projects.require();
      let folders;
      try {
        folders = gameFoldersOf(factorioPaths());
      } catch (err) {
        return notFound(err);
      }
      const summary = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `PyOps: extracting icons for "${p.name}" from ${folders.gameData} and ${folders.mods}`, cancellable: true },
        (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          let last = 0;
          // The extraction runs on its own thread; the notification counts what it has settled.
          const onProgress = (done: number, total: number) => {
            const increment = total ? ((done - last) / total) * 100 : 0;
            last = done;
            progress.report({ message: `${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} icons`, increment });
          };
          return extractProjectIcons(p, { folders, signal: abort.signal, onProgress }).catch((err: unknown) => {
            if (err instanceof IconsCancelled) return undefined;
            throw err;
          });
        },
      );
      if (!summary) {
        void vscode.window.showInformationMessage('PyOps: icon extraction cancelled; the icons extracted before stay in use.');
        return undefined;
      }
      icons?.reload();
      void vscode.window.showInformationMessage(`PyOps:${iconReport(summary)} (${summary.seconds.toFixed(1)} s)`);
      return summary;
    }),
  ];
}
