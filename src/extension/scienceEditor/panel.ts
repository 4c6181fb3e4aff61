// The science block editor: one editor tab for the project's lab bank. Every change is one core edit
// (scienceEdit.ts: solved once, saved as one undoable action, refused when the block changed since
// the tab read it); the tab follows the project's writes, so a Balance Factory, an undo or a chat
// apply shows at once. Ctrl+Z / Ctrl+Shift+Z in the tab are PyOps' Undo / Redo (package.json).
import * as vscode from 'vscode';
import { planningContext, type PlanningContext } from '../../core/planning/context';
import { solverFor } from '../../core/assistant/tools/context';
import { BlockError, getBlock, scienceBlock, trySolve } from '../../core/planning/factory/blocks';
import { editScience, type ScienceEdit } from '../../core/planning/science/scienceEdit';
import type { SolveResult } from '../../core/planning/solver/result';
import { fromScienceEditorSchema, type ScienceEditorView, type ToScienceEditor } from '../../webview/scienceEditorProtocol';
import type { ProjectManager } from '../projectManager';
import { homeOf, notOpenText, type ProjectHome } from '../projectHomes';
import { WriteFollower } from '../views/followWrites';
import type { GameIcons } from '../icons';
import { closeUnrevived, iconUri, openTab, tabOptions, wireTab } from '../webviewTab';
import { scienceEditorView } from './viewModel';
import { askPack, askTechnology } from './pickers';

export const SCIENCE_EDITOR_VIEW = 'pyops.scienceEditor';

interface Tab {
  panel: vscode.WebviewPanel;
  blockId: string;
  project: ProjectHome;
  ready: boolean;
  busy: boolean;
  /** The solve behind what the tab shows, and the block version it was solved for. */
  shown?: { updatedAt: string; result: SolveResult | null; broken?: string; ctx: PlanningContext };
  /** What the last posted state was built from (a write that changes none of it posts nothing). */
  posted?: string;
}

export class ScienceEditor implements vscode.Disposable {
  private tab: Tab | undefined;
  private readonly follower = new WriteFollower(60, () => void this.refresh(false));
  private readonly subs: vscode.Disposable[] = [];
  /** The last state posted to the tab (tests read it). */
  lastView: ScienceEditorView | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly projects: ProjectManager,
    private readonly icons?: GameIcons,
  ) {
    if (icons) {
      this.subs.push(icons.onDidChange(() => {
        if (!this.tab) return;
        this.tab.panel.webview.options = tabOptions(context.extensionUri, icons);
        this.tab.posted = undefined;
        this.postState();
      }));
    }
    this.subs.push(projects.onDidChange((p) => this.follower.follow(p)));
    this.follower.follow(projects.active);
  }

  /** Open (or reveal) the tab on science block `id`. */
  show(id: string): vscode.WebviewPanel {
    const p = this.projects.require();
    const b = getBlock(p, id);
    if (this.tab) {
      if (this.tab.blockId !== id || this.tab.project.projectId !== p.id) {
        this.tab.blockId = id;
        this.tab.project = homeOf(p);
        this.tab.shown = undefined;
        void this.refresh(true);
      }
      this.tab.panel.reveal();
      return this.tab.panel;
    }
    closeUnrevived(SCIENCE_EDITOR_VIEW);
    const panel = openTab(this.context.extensionUri, this.icons, { viewType: SCIENCE_EDITOR_VIEW, ...this.page(b.name) }, this.wiring(() => tab));
    const tab: Tab = { panel, blockId: id, project: homeOf(p), ready: false, busy: false };
    this.tab = tab;
    return panel;
  }

  /**
   * A tab VS Code brings back after a window reload: once the startup project is open, it shows that
   * project's science block (one per project), or closes when the project has none any more.
   */
  async restore(panel: vscode.WebviewPanel): Promise<void> {
    await this.projects.whenStarted();
    const p = this.projects.active;
    const b = p && !p.isClosed && p.hasGameData() ? scienceBlock(p) : undefined;
    if (!p || !b || this.tab) {
      panel.dispose();
      return;
    }
    wireTab(panel, this.context.extensionUri, this.icons, this.page(b.name), this.wiring(() => tab));
    const tab: Tab = { panel, blockId: b.id, project: homeOf(p), ready: false, busy: false };
    this.tab = tab;
  }

  private page(title: string) {
    return { title, script: 'science-editor', css: ['block-editor.css', 'science-editor.css'], label: 'Science block editor' };
  }

  private wiring(tab: () => Tab | undefined) {
    return {
      message: (raw: unknown) => void this.receive(raw),
      dispose: () => {
        if (this.tab && this.tab === tab()) {
          this.tab = undefined;
          this.lastView = undefined;
        }
      },
    };
  }

  private post(m: ToScienceEditor): void {
    void this.tab?.panel.webview.postMessage(m);
  }

  /** Why the tab cannot edit now, when its block's project is not the open one. */
  private elsewhere(): string | undefined {
    const t = this.tab;
    const p = this.projects.active;
    if (!t || p?.id === t.project.projectId) return undefined;
    return `${notOpenText('This science block', t.project, p)} Open "${t.project.name}" again to edit it; this tab picks it up.`;
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = fromScienceEditorSchema.safeParse(raw);
    if (!parsed.success) {
      this.post({ type: 'error', message: `The editor sent a message PyOps does not understand (${parsed.error.issues[0]?.message ?? 'invalid'}); close and reopen the science block.` });
      return;
    }
    const m = parsed.data;
    const away = this.elsewhere();
    if (away && m.type !== 'ready') return this.post({ type: 'gone', message: away });
    try {
      switch (m.type) {
        case 'ready':
          if (this.tab) this.tab.ready = true;
          await this.refresh(true);
          return;
        case 'edit':
          await this.edit(m.edit, m.base);
          return;
        case 'pickTech': {
          const pick = await askTechnology(planningContext(this.projects.require()), this.current()?.doc.science?.research);
          if (pick) await this.edit({ kind: 'derive', ...pick }, this.base());
          return;
        }
        case 'pickPack': {
          const pick = await askPack(planningContext(this.projects.require()), this.lastView?.packOptions ?? []);
          if (pick) await this.edit({ kind: 'pack-add', ...pick }, this.base());
          return;
        }
        case 'undo':
          await vscode.commands.executeCommand('pyops.edit.undo');
          return;
        case 'redo':
          await vscode.commands.executeCommand('pyops.edit.redo');
          return;
        case 'openGood':
          await vscode.commands.executeCommand('pyops.good.open', { good: m.good });
          return;
      }
    } catch (err) {
      this.post({ type: 'error', message: (err as Error).message });
      if (err instanceof BlockError && err.code === 'stale') await this.refresh(true);
    }
  }

  private current() {
    const t = this.tab;
    const p = this.projects.active;
    if (!t || !p) return undefined;
    try {
      return getBlock(p, t.blockId);
    } catch {
      return undefined;
    }
  }

  private base(): string {
    const b = this.current();
    if (!b) throw new BlockError('The science block no longer exists (deleted, or undone); close the tab.', 'not-found');
    return this.tab?.shown?.updatedAt ?? b.updatedAt;
  }

  /** Apply one edit: solve, save as one undoable action, show the result. */
  async edit(edit: ScienceEdit, base: string): Promise<void> {
    const t = this.tab;
    if (!t) throw new Error('The science block editor is not open.');
    const away = this.elsewhere();
    if (away) throw new BlockError(away, 'invalid');
    const p = this.projects.requireWritable();
    const ctx = planningContext(p);
    if (ctx.g.isEmpty) throw new Error('This project has no game data yet; import it ("PyOps: Import Game Data from Dump…") before editing the science block.');
    this.setBusy(true);
    try {
      const r = await editScience(p, solverFor(ctx), t.blockId, edit, base, ctx);
      t.shown = { updatedAt: r.block.updatedAt, result: r.result, ...(r.broken ? { broken: r.broken } : {}), ctx };
      this.postState();
    } finally {
      this.setBusy(false);
    }
  }

  private setBusy(busy: boolean): void {
    if (!this.tab || this.tab.busy === busy) return;
    this.tab.busy = busy;
    this.post({ type: 'busy', busy });
  }

  /** Show the block as stored now; re-solve only when it changed since the shown solve. */
  private async refresh(force: boolean): Promise<void> {
    const t = this.tab;
    const p = this.projects.active;
    if (!t?.ready) return;
    const away = this.elsewhere();
    if (away || !p) return this.post({ type: 'gone', message: away ?? 'The project was closed.' });
    const b = this.current();
    if (!b) return this.post({ type: 'gone', message: 'This science block no longer exists (deleted, or undone). Undo brings it back; the tab can be closed.' });
    t.panel.title = b.name;
    const ctx = planningContext(p);
    if (force || !t.shown || t.shown.updatedAt !== b.updatedAt || t.shown.ctx !== ctx) {
      const solved = ctx.g.isEmpty ? { result: null } : await trySolve(solverFor(ctx), b.doc);
      t.shown = { updatedAt: b.updatedAt, ...solved, ctx };
      t.posted = undefined;
    }
    this.postState();
  }

  private postState(): void {
    const t = this.tab;
    const p = this.projects.active;
    const b = this.current();
    if (!t?.shown || !p || !b) return;
    const undoLabel = p.undoable()?.label;
    const redoLabel = p.redoable()?.label;
    const inputs = JSON.stringify([b.updatedAt, b.name, undoLabel, redoLabel, t.shown.updatedAt]);
    if (t.posted === inputs) return;
    t.posted = inputs;
    const view = scienceEditorView(t.shown.ctx, b, t.shown.result, { ...(t.shown.broken ? { broken: t.shown.broken } : {}), ...(undoLabel ? { undoLabel } : {}), ...(redoLabel ? { redoLabel } : {}) });
    const icon = (key: string) => iconUri(t.panel.webview, this.icons, key);
    for (const x of view.packs) x.icon = icon(`good:${x.pack}`);
    for (const x of view.result?.packs ?? []) x.icon = icon(`good:${x.pack}`);
    this.lastView = view;
    this.post({ type: 'state', view });
  }

  dispose(): void {
    this.follower.dispose();
    for (const s of this.subs) s.dispose();
    this.tab?.panel.dispose();
  }
}
