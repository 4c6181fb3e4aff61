// Project commands: new, open, sample, close, back up, restore, recover, and the status-bar action menu.
import * as vscode from 'vscode';
import path from 'node:path';
import { z } from 'zod';
import { backupProject, defaultBackupPath, restoreBackup, BACKUP_EXTENSION } from '../../core/db/bundle';
import { ProjectError } from '../../core/db/errors';
import { projectPath } from '../../core/db/projectFile';
import { recoverProject, describeRecovery } from '../../core/db/recover';
import type { ProjectManager } from '../projectManager';
import { fileArg, objectArg } from './args';
import { registerCommand } from './register';
import { describeImport } from './gamedata';
import { WALKTHROUGH_ID } from '../walkthrough';

const PYOPS_FILTER = { 'PyOps project': ['pyops'] };

function defaultFolder(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

export function registerProjectCommands(projects: ProjectManager): vscode.Disposable[] {
  return [
    registerCommand('pyops.project.new', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ file: z.string().min(1), name: z.string().optional() }));
      let file = a?.file;
      let name = a?.name;
      if (!file) {
        name = await vscode.window.showInputBox({ title: 'New PyOps project', prompt: 'Project name', value: 'My factory', validateInput: (v) => (v.trim() ? undefined : 'Enter a name') });
        if (!name) return undefined;
        const base = defaultFolder();
        const uri = await vscode.window.showSaveDialog({
          title: 'Save the new PyOps project as',
          filters: PYOPS_FILTER,
          defaultUri: base ? vscode.Uri.joinPath(base, `${name.trim().replace(/[^\w.-]+/g, '-')}.pyops`) : undefined,
        });
        if (!uri) return undefined;
        file = uri.fsPath;
      }
      if (!path.extname(file)) file += '.pyops';
      const p = await projects.create(file, name);
      const next = await (a ? undefined : vscode.window.showInformationMessage(`PyOps: created "${p.name}". Import its game data now?`, 'Sync from Factorio', 'Import a dump…'));
      if (next === 'Sync from Factorio') void vscode.commands.executeCommand('pyops.gamedata.sync');
      if (next === 'Import a dump…') void vscode.commands.executeCommand('pyops.gamedata.import');
      return p.file;
    }),

    registerCommand('pyops.project.open', async (arg?: unknown) => {
      let file = fileArg(arg);
      if (!file) {
        const picked = await vscode.window.showOpenDialog({ title: 'Open a PyOps project', filters: PYOPS_FILTER, canSelectMany: false, defaultUri: defaultFolder() });
        if (!picked?.[0]) return undefined;
        file = picked[0].fsPath;
      }
      try {
        const p = await projects.open(file);
        return p.file;
      } catch (err) {
        if (err instanceof ProjectError && err.code === 'damaged') {
          const choice = await vscode.window.showErrorMessage(`PyOps: ${err.message}`, 'Recover…');
          if (choice) return vscode.commands.executeCommand('pyops.project.recover', { file });
          return undefined;
        }
        if (err instanceof ProjectError && err.code === 'is-bundle') {
          const choice = await vscode.window.showWarningMessage(`PyOps: ${path.basename(file)} is a backup. Restore it into a working project?`, 'Restore…');
          if (choice) return vscode.commands.executeCommand('pyops.project.restore', { backup: file });
          return undefined;
        }
        throw err;
      }
    }),

    registerCommand('pyops.project.openSample', async () => {
      const { project, imported } = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'PyOps: opening the sample project' },
        () => projects.openSample(),
      );
      if (imported) void vscode.window.showInformationMessage(`PyOps: sample project ready — ${describeImport(imported)}`);
      // First run: the sample's factory in the side bar and the walkthrough beside it, at its next step.
      await showSampleFirstRun();
      return project.file;
    }),

    registerCommand('pyops.project.close', () => projects.close()),

    registerCommand('pyops.project.backup', async (arg?: unknown) => {
      const p = projects.require();
      let dest = fileArg(arg, 'dest');
      if (!dest) {
        const uri = await vscode.window.showSaveDialog({
          title: `Back up "${p.name}" to`,
          defaultUri: vscode.Uri.file(defaultBackupPath(p.file)),
          filters: { 'PyOps backup': [BACKUP_EXTENSION.slice(1)] },
        });
        if (!uri) return undefined;
        dest = uri.fsPath;
      }
      const written = await backupProject(p, dest);
      void vscode.window.showInformationMessage(`PyOps: backed up "${p.name}" to ${written}`, 'Reveal').then((c) => {
        if (c) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(written));
      });
      return written;
    }),

    registerCommand('pyops.project.restore', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ backup: z.string().min(1), file: z.string().min(1).optional() }));
      let backup = a?.backup;
      if (!backup) {
        const picked = await vscode.window.showOpenDialog({ title: 'Pick a PyOps backup to restore', filters: { 'PyOps backup': [BACKUP_EXTENSION.slice(1), 'pyops'] }, canSelectMany: false });
        if (!picked?.[0]) return undefined;
        backup = picked[0].fsPath;
      }
      let file = a?.file;
      if (!file) {
        const suggested = projects.active?.file ?? path.join(path.dirname(backup), path.basename(backup).replace(/-\d{4}-\d\d-\d\dT[\d-]+\.pyops-backup$|\.pyops-backup$/, '') + '.pyops');
        const uri = await vscode.window.showSaveDialog({ title: 'Restore into project file', defaultUri: vscode.Uri.file(suggested), filters: PYOPS_FILTER });
        if (!uri) return undefined;
        file = uri.fsPath;
      }
      const wasActive = projects.active?.file === projectPath(file);
      if (wasActive) projects.close();
      await restoreBackup(backup, file);
      const p = await projects.open(file);
      void vscode.window.showInformationMessage(`PyOps: restored "${p.name}" from ${path.basename(backup)}${wasActive ? ' (the replaced version is kept as .bak)' : ''}.`);
      return p.file;
    }),

    registerCommand('pyops.project.recover', async (arg?: unknown) => {
      // `confirm: true` is for tests and scripts; a person always sees the report first.
      const a = objectArg(arg, z.object({ file: z.string().min(1), confirm: z.boolean().optional() }));
      let file = a?.file ?? projects.active?.file;
      if (!file) {
        const picked = await vscode.window.showOpenDialog({ title: 'Pick the PyOps project to recover', filters: PYOPS_FILTER, canSelectMany: false, defaultUri: defaultFolder() });
        if (!picked?.[0]) return undefined;
        file = picked[0].fsPath;
      }
      // The project's own name for itself (through symlinks), so the open copy below is recognised.
      file = projectPath(file);
      const dry = await recoverProject(file, { apply: false });
      if (dry.healthy) {
        void vscode.window.showInformationMessage(`PyOps: ${path.basename(file)} is not damaged; there is nothing to recover.`);
        return dry;
      }
      const lines = describeRecovery(dry, false).filter((l) => !l.startsWith('Nothing was changed'));
      const go =
        a?.confirm ??
        (await vscode.window.showWarningMessage(
          `PyOps: recover "${path.basename(file)}"?`,
          { modal: true, detail: `${lines.join('\n')}\n\nThe current files are copied into a folder beside the project first.` },
          'Recover',
        )) === 'Recover';
      if (!go) return undefined;
      // Our own copy is read-only (damage) or holds the lock; either way it must let go first.
      if (projects.active?.file === file) projects.close();
      const done = await recoverProject(file, { apply: true, app: `vscode (${vscode.env.appName})` });
      await projects.open(file);
      void vscode.window.showInformationMessage(`PyOps: recovered "${path.basename(file)}" (${done.savesReplayed} saves replayed${done.lost.length ? `; ${done.lost.length} loss${done.lost.length === 1 ? '' : 'es'} listed in the report` : ', nothing lost'}). The original files are in ${path.basename(done.keptIn ?? '')}.`);
      return done;
    }),

    registerCommand('pyops.project.actions', async () => {
      const p = projects.active;
      const items: Array<vscode.QuickPickItem & { command: string }> = [
        ...(p
          ? [
              { label: '$(cloud-download) Sync game data from Factorio', command: 'pyops.gamedata.sync' },
              { label: '$(file-add) Import game data from a dump…', command: 'pyops.gamedata.import' },
              { label: '$(archive) Back up project…', command: 'pyops.project.backup' },
              ...(p.damage ? [{ label: '$(debug-restart) Recover project…', command: 'pyops.project.recover', description: 'damaged' }] : []),
              { label: '$(close) Close project', command: 'pyops.project.close', description: p.name },
            ]
          : []),
        { label: '$(folder-opened) Open project…', command: 'pyops.project.open' },
        { label: '$(new-file) New project…', command: 'pyops.project.new' },
        { label: '$(beaker) Open sample project', command: 'pyops.project.openSample' },
        { label: '$(history) Restore project from backup…', command: 'pyops.project.restore' },
      ];
      const pick = await vscode.window.showQuickPick(items, { title: p ? `PyOps — ${p.name}` : 'PyOps', placeHolder: p?.file });
      if (pick) await vscode.commands.executeCommand(pick.command);
    }),
  ];
}

/** Bring the Factory view and the walkthrough (at "Ask a first question") into sight; neither is essential. */
async function showSampleFirstRun(): Promise<void> {
  await vscode.commands.executeCommand('pyops.factory.focus').then(undefined, () => undefined);
  // VS Code joins the two into the step's full id (`<category>#<step>`).
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', { category: WALKTHROUGH_ID, step: 'ask' }, true).then(undefined, () => undefined);
}
