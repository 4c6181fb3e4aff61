// Entry point of the VS Code extension: wires commands, the status bar and the project manager.
// Activation stays light — sql.js is only loaded when a project is opened.
import * as vscode from 'vscode';
import path from 'node:path';
import { setSqlWasmDir } from '../core/db/sqlite';
import { ProjectManager } from './projectManager';
import { readSettings } from './settings';
import { createProjectStatus } from './statusBar';
import { registerProjectCommands } from './commands/project';
import { registerGameDataCommands } from './commands/gamedata';
import { registerPlanningCommands } from './commands/planning';
import { recentCommandErrors } from './commands/register';

/** What `activate` returns; integration tests use it to look inside. */
export interface PyOpsApi {
  projects: ProjectManager;
  recentCommandErrors: typeof recentCommandErrors;
}

export function activate(context: vscode.ExtensionContext): PyOpsApi {
  setSqlWasmDir(path.join(context.extensionPath, 'dist'));
  const projects = new ProjectManager(context);
  context.subscriptions.push(projects, createProjectStatus(projects));
  context.subscriptions.push(...registerProjectCommands(projects), ...registerGameDataCommands(projects), ...registerPlanningCommands(projects));
  void vscode.commands.executeCommand('setContext', 'pyops.projectOpen', false);
  void projects.restoreLast(readSettings().openSampleProjectOnStartup).catch((err) => {
    void vscode.window.showWarningMessage(`PyOps: ${(err as Error).message}`);
  });
  return { projects, recentCommandErrors };
}

export function deactivate(): void {
  // Disposables registered on the context close the project and release its lock.
}
