// Owns the active project of this window: opening, creating, closing, the sample project, and
// remembering the last project across reloads. Everything project-specific lives in src/core; this
// class only adds the VS Code gestures (notices, events, global state).
import * as vscode from 'vscode';
import fs from 'node:fs';
import path from 'node:path';
import { Project, gamedataProblem } from '../core/db/project';
import { copiesBeside, projectPath } from '../core/db/projectFile';
import { ProjectError } from '../core/db/errors';
import { importGameData, type ImportSummary } from '../core/gamedata/import';
import { completeWalkthroughStep } from './walkthrough';

const LAST_PROJECT_KEY = 'pyops.lastProject';

export class ProjectManager implements vscode.Disposable {
  private current: Project | undefined;
  private readonly changed = new vscode.EventEmitter<Project | undefined>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly context: vscode.ExtensionContext) {}

  get active(): Project | undefined {
    return this.current;
  }

  /** The active project, or a thrown error telling the user how to get one. */
  require(): Project {
    if (!this.current) throw new Error('No PyOps project is open. Run "PyOps: Open Project…", "PyOps: New Project…" or "PyOps: Open Sample Project".');
    return this.current;
  }

  /** The active project if it may be changed, else a thrown error saying why not. */
  requireWritable(): Project {
    const p = this.require();
    if (p.readOnly) throw new Error(`"${p.name}" is read-only: ${p.readOnlyReason}`);
    return p;
  }

  async open(file: string, opts: { quiet?: boolean } = {}): Promise<Project> {
    // The project's own name for itself (through symlinks), so opening it by a link finds it open.
    file = projectPath(file);
    if (this.current && this.current.file === file && !this.current.isClosed) return this.current;
    const p = await Project.open(file, { app: `vscode (${vscode.env.appName})` });
    this.replace(p);
    if (p.damage) {
      void vscode.window.showErrorMessage(`PyOps: ${p.damage}`, 'Recover…').then((c) => {
        if (c) void vscode.commands.executeCommand('pyops.project.recover', { file: p.file });
      });
    } else if (p.readOnly && !opts.quiet) {
      void vscode.window.showWarningMessage(`PyOps: ${p.readOnlyReason}`);
    }
    if (p.readOnly && p.lockOwner) this.offerReopenWhenFree(p);
    const gdProblem = ['missing', 'unreadable', 'damaged'].includes(p.gamedataStatus) ? gamedataProblem(p) : undefined;
    if (!opts.quiet && gdProblem) void vscode.window.showWarningMessage(`PyOps: ${gdProblem}`);
    return p;
  }

  /** When the window that held the project lets go, offer to reopen it here for editing. */
  private offerReopenWhenFree(p: Project): void {
    const timer = setInterval(() => {
      if (this.current !== p || p.isClosed) return clearInterval(timer);
      if (!p.canReopenWritable()) return;
      clearInterval(timer);
      void vscode.window.showInformationMessage(`PyOps: "${p.name}" was closed in the other window. Reopen it here to edit it?`, 'Reopen').then(async (c) => {
        if (!c || this.current !== p) return;
        this.replace(undefined);
        await this.open(p.file);
      });
    }, 2000);
    this.context.subscriptions.push({ dispose: () => clearInterval(timer) });
  }

  async create(file: string, name?: string): Promise<Project> {
    const p = await Project.create(file, { name, app: `vscode (${vscode.env.appName})` });
    this.replace(p);
    return p;
  }

  close(): void {
    this.replace(undefined);
  }

  /** Notify listeners that the active project's contents changed (e.g. after an import). */
  touch(): void {
    this.changed.fire(this.current);
  }

  /** The built-in sample project in global storage, (re)imported from the bundled sample world. */
  async openSample(): Promise<{ project: Project; imported?: ImportSummary }> {
    const file = this.sampleFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const source = this.sampleDump();
    const project = fs.existsSync(file) ? await this.open(file, { quiet: true }) : await this.create(file, 'Sample world');
    let imported: ImportSummary | undefined;
    if (!project.readOnly && (!project.hasGameData() || project.gamedataMeta('source') !== source)) {
      imported = await importGameData(project, source);
      this.touch();
    }
    return { project, imported };
  }

  /** Where the sample project lives (global storage). */
  sampleFile(): string {
    return path.join(vscode.Uri.joinPath(this.context.globalStorageUri, 'sample').fsPath, 'sample.pyops');
  }

  /** The bundled sample world's dump (its *-locale.json files lie beside it). */
  sampleDump(): string {
    return vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'sample-world', 'sample-world.dump.json').fsPath;
  }

  /** Whether restoreLast will open a project (so its loading can start early). */
  expectsStartupProject(openSampleIfNone: boolean): boolean {
    const last = this.context.globalState.get<string>(LAST_PROJECT_KEY);
    return openSampleIfNone || (!!last && fs.existsSync(last));
  }

  /** At startup: reopen the last project, else the sample project when the workspace asks for it. */
  async restoreLast(openSampleIfNone: boolean): Promise<void> {
    const last = this.context.globalState.get<string>(LAST_PROJECT_KEY);
    // A last project whose file is gone but whose copies are beside it is opened too, so the error
    // offers to recover it instead of the window silently starting without it.
    if (last && (fs.existsSync(last) || copiesBeside(last).length)) {
      try {
        await this.open(last);
        return;
      } catch (err) {
        const message = `PyOps: could not reopen ${path.basename(last)}: ${(err as Error).message}`;
        if (err instanceof ProjectError && err.code === 'damaged') {
          void vscode.window.showErrorMessage(message, 'Recover…').then((c) => {
            if (c) void vscode.commands.executeCommand('pyops.project.recover', { file: last });
          });
        } else {
          void vscode.window.showWarningMessage(message);
        }
      }
    }
    if (openSampleIfNone && !this.current) {
      // Through the command, so a first run shows what the command shows: the Factory view and the walkthrough.
      await vscode.commands.executeCommand('pyops.project.openSample');
      // A workspace that asks for the sample (npm start, the walkthrough) wants PyOps in view, not an empty window.
      void vscode.commands.executeCommand('pyops.panel.open');
    }
  }

  private replace(p: Project | undefined): void {
    if (this.current && this.current !== p) this.current.close();
    this.current = p;
    void this.context.globalState.update(LAST_PROJECT_KEY, p?.file);
    void vscode.commands.executeCommand('setContext', 'pyops.projectOpen', !!p);
    // The walkthrough's "Open the sample project" step checks itself on this key (package.json completionEvents).
    const sample = !!p && p.file === projectPath(this.sampleFile());
    void vscode.commands.executeCommand('setContext', 'pyops.sampleOpen', sample);
    if (sample) completeWalkthroughStep('sample');
    this.changed.fire(p);
    // Set up saving once the window has settled, so the first edit does not pay for it.
    clearTimeout(this.prepareTimer);
    if (p && !p.readOnly) {
      this.prepareTimer = setTimeout(() => {
        if (this.current !== p || p.isClosed) return;
        try {
          p.prepareWrites();
        } catch {
          // The first write reports whatever went wrong here, with its own context.
        }
      }, 2000);
    }
  }

  private prepareTimer: NodeJS.Timeout | undefined;

  dispose(): void {
    clearTimeout(this.prepareTimer);
    this.current?.close();
    this.current = undefined;
    this.changed.dispose();
  }
}
