// The block editor: one editor tab (a webview panel) per block. Every change is one core edit
// (solved once, saved as one undoable action, refused when the block changed since the tab read
// it); the tab follows the project's writes, so a chat apply, an undo or another window's edit shows
// at once. Ctrl+Z / Ctrl+Shift+Z in the tab are PyOps' Undo / Redo (package.json keybindings).
import * as vscode from 'vscode';
import { planningContext, type PlanningContext } from '../../core/planning/context';
import { solverFor } from '../../core/assistant/tools/context';
import { BlockError, getBlock, trySolve } from '../../core/planning/factory/blocks';
import { editBlock, type BlockEdit } from '../../core/planning/factory/blockEdit';
import { createPreset, describeModules, listPresets } from '../../core/planning/modulePresets';
import type { SolveResult } from '../../core/planning/solver/result';
import { fromBlockEditorSchema, type BlockEditorView, type ToBlockEditor } from '../../webview/blockEditorProtocol';
import type { ProjectManager } from '../projectManager';
import { homeOf, notOpenText, type ProjectHome } from '../projectHomes';
import { WriteFollower } from '../views/followWrites';
import { webviewHtml } from '../webviewHtml';
import { flowIconKey } from '../../webview/format';
import type { GameIcons } from '../icons';
import { blockEditorView } from './viewModel';
import { pickGood, recipeItem } from './pickers';

export const BLOCK_EDITOR_VIEW = 'pyops.blockEditor';

interface OpenEditor {
  panel: vscode.WebviewPanel;
  /** The solve behind what the tab shows, and the block version it was solved for. */
  shown?: { updatedAt: string; result: SolveResult | null; broken?: string; ctx: PlanningContext };
  ready: boolean;
  busy: boolean;
  /** The project the block lives in: after a switch the tab waits for it instead of editing another project. */
  project: ProjectHome;
  /** What the last posted state was built from: a write that changes none of it (the follower after an edit) posts nothing. */
  posted?: { shown: OpenEditor['shown']; inputs: string };
}

export class BlockEditors implements vscode.Disposable {
  private readonly open = new Map<string, OpenEditor>();
  private readonly follower = new WriteFollower(60, () => this.refreshAll());
  private readonly subs: vscode.Disposable[] = [];
  /** The last state posted to each tab (tests read it). */
  readonly lastView = new Map<string, BlockEditorView>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly projects: ProjectManager,
    private readonly icons?: GameIcons,
  ) {
    if (icons) {
      this.subs.push(icons.onDidChange(() => {
        for (const [id, ed] of this.open) {
          ed.panel.webview.options = this.options();
          this.postState(id);
        }
      }));
    }
    let project = projects.active;
    this.subs.push(projects.onDidChange((p) => {
      if (p === project) return this.refreshAll();
      // Another project: following it refreshes each tab, which says its block's project is not open.
      project = p;
      if (!p) this.reportClosed();
      this.follower.follow(p);
    }));
    this.follower.follow(project);
  }

  /** Open (or reveal) the editor tab of block `id`. */
  async show(id: string): Promise<vscode.WebviewPanel> {
    const p = this.projects.require();
    const b = getBlock(p, id);
    const existing = this.open.get(id);
    if (existing) {
      existing.panel.reveal();
      return existing.panel;
    }
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(BLOCK_EDITOR_VIEW, b.name, vscode.ViewColumn.Active, { ...this.options(), retainContextWhenHidden: false });
    panel.webview.html = this.html(panel.webview, dist, media);
    const ed: OpenEditor = { panel, ready: false, busy: false, project: homeOf(p) };
    this.open.set(id, ed);
    panel.onDidDispose(() => {
      this.open.delete(id);
      this.lastView.delete(id);
    });
    panel.webview.onDidReceiveMessage((raw) => void this.receive(id, raw));
    return panel;
  }

  private post(id: string, m: ToBlockEditor): void {
    void this.open.get(id)?.panel.webview.postMessage(m);
  }

  private async receive(id: string, raw: unknown): Promise<void> {
    const parsed = fromBlockEditorSchema.safeParse(raw);
    if (!parsed.success) {
      this.post(id, { type: 'error', message: `The editor sent a message PyOps does not understand (${parsed.error.issues[0]?.message ?? 'invalid'}); close and reopen the block.` });
      return;
    }
    const m = parsed.data;
    const away = this.elsewhere(id);
    if (away && m.type !== 'ready') {
      this.post(id, { type: 'gone', message: away });
      return;
    }
    try {
      switch (m.type) {
        case 'ready':
          this.open.get(id)!.ready = true;
          await this.refresh(id, true);
          return;
        case 'edit':
          await this.edit(id, m.edit, m.base);
          return;
        case 'pickGoal': {
          const consume = m.direction === 'consume';
          const good = await pickGood(planningContext(this.projects.require()), consume ? 'Add a goal: which good should the block take in (consume)?' : 'Add a goal: which good should the block make?');
          if (good) await this.edit(id, { kind: 'goal-add', good, rate: 1, ...(consume ? { direction: 'consume' as const } : {}) }, this.base(id));
          return;
        }
        case 'savePreset':
          await this.savePreset(id, m.recipe);
          return;
        case 'pickRecipe': {
          const recipe = await this.pickRecipe(id, m.good);
          if (recipe) await this.edit(id, { kind: 'row-add', recipe }, this.base(id));
          return;
        }
        case 'undo':
          await vscode.commands.executeCommand('pyops.edit.undo');
          return;
        case 'redo':
          await vscode.commands.executeCommand('pyops.edit.redo');
          return;
        case 'ask': {
          const b = getBlock(this.projects.require(), id);
          await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@pyops About my block "${b.name}": `, isPartialQuery: true });
          return;
        }
        case 'openGood':
          await vscode.commands.executeCommand('pyops.good.open', { good: m.good });
          return;
      }
    } catch (err) {
      this.post(id, { type: 'error', message: (err as Error).message });
      if (err instanceof BlockError && err.code === 'stale') await this.refresh(id, true);
    }
  }

  /** Why the tab cannot edit now, when its block's project is not the open one. */
  private elsewhere(id: string): string | undefined {
    const ed = this.open.get(id);
    const p = this.projects.active;
    if (!ed || p?.id === ed.project.projectId) return undefined;
    return `${notOpenText('This block', ed.project, p)} Open "${ed.project.name}" again to edit it; this tab picks it up.`;
  }

  private base(id: string): string {
    return this.open.get(id)?.shown?.updatedAt ?? getBlock(this.projects.require(), id).updatedAt;
  }

  /** Apply one edit: solve, save as one undoable action, show the result. */
  async edit(id: string, edit: BlockEdit, base: string): Promise<void> {
    const ed = this.open.get(id);
    const away = this.elsewhere(id);
    if (away) throw new BlockError(away, 'invalid');
    const p = this.projects.requireWritable();
    const ctx = planningContext(p);
    if (ctx.g.isEmpty) throw new Error('This project has no game data yet; import it ("PyOps: Import Game Data (Dump or FactorioLab Set)…") before editing blocks.');
    if (ed) this.setBusy(id, true);
    try {
      const r = await editBlock(p, solverFor(ctx), id, edit, base, ctx);
      if (ed) ed.shown = { updatedAt: r.block.updatedAt, result: r.result, broken: r.broken, ctx };
      this.postState(id);
    } finally {
      if (ed) this.setBusy(id, false);
    }
  }

  private setBusy(id: string, busy: boolean): void {
    const ed = this.open.get(id);
    if (!ed || ed.busy === busy) return;
    ed.busy = busy;
    this.post(id, { type: 'busy', busy });
  }

  private refreshAll(): void {
    for (const id of this.open.keys()) void this.refresh(id, false);
  }

  /** Show the block as stored now; re-solve only when it changed since the shown solve. */
  private async refresh(id: string, force: boolean): Promise<void> {
    const ed = this.open.get(id);
    const p = this.projects.active;
    if (!ed?.ready || !p) return;
    const away = this.elsewhere(id);
    if (away) {
      this.post(id, { type: 'gone', message: away });
      return;
    }
    let b;
    try {
      b = getBlock(p, id);
    } catch {
      this.post(id, { type: 'gone', message: 'This block no longer exists (deleted, or undone). Undo brings it back; the tab can be closed.' });
      return;
    }
    ed.panel.title = b.name;
    const ctx = planningContext(p);
    if (force || !ed.shown || ed.shown.updatedAt !== b.updatedAt || ed.shown.ctx !== ctx) {
      const solved = ctx.g.isEmpty ? { result: null } : await trySolve(solverFor(ctx), b.doc);
      ed.shown = { updatedAt: b.updatedAt, ...solved, ctx };
    }
    this.postState(id);
  }

  private postState(id: string): void {
    const ed = this.open.get(id);
    const p = this.projects.active;
    if (!ed?.shown || !p) return;
    const b = getBlock(p, id);
    const undoLabel = p.undoable()?.label;
    const redoLabel = p.redoable()?.label;
    const inputs = JSON.stringify([b.updatedAt, undoLabel, redoLabel, listPresets(p), this.icons?.folder?.toString(), this.icons?.count]);
    if (ed.posted?.shown === ed.shown && ed.posted.inputs === inputs) return;
    ed.posted = { shown: ed.shown, inputs };
    const view = blockEditorView(ed.shown.ctx, b, ed.shown.result, { broken: ed.shown.broken, undoLabel, redoLabel });
    this.withIcons(view, ed.panel.webview);
    this.lastView.set(id, view);
    this.post(id, { type: 'state', view });
  }

  /** The extension's files, and the project's icon cache when it has one. */
  private options(): vscode.WebviewOptions {
    const ext = this.context.extensionUri;
    const roots = [vscode.Uri.joinPath(ext, 'dist'), vscode.Uri.joinPath(ext, 'media')];
    return { enableScripts: true, localResourceRoots: this.icons?.withCacheRoot(roots) ?? roots };
  }

  private withIcons(view: BlockEditorView, webview: vscode.Webview): void {
    const icons = this.icons;
    if (!icons?.count) return;
    const uri = (u: vscode.Uri | undefined) => (u ? webview.asWebviewUri(u).toString() : undefined);
    for (const g of view.goals) g.icon = uri(icons.good(g.good));
    for (const r of view.rows) r.icon = uri(icons.icon('recipe', r.recipe));
    if (view.result) for (const f of [...view.result.imports, ...view.result.exports, ...view.result.byproducts]) f.icon = uri(icons.good(f.good));
    for (const n of view.flow.nodes) n.icon = uri(icons.byKey(flowIconKey(n)));
  }

  /** Recipes that make or use a good (the block's goals and imports first), each with its state. */
  private async pickRecipe(id: string, good?: string): Promise<string | undefined> {
    const p = this.projects.require();
    const ctx = planningContext(p);
    const b = getBlock(p, id);
    const target = good ?? (await pickGood(ctx, `Add a recipe to "${b.name}": which good should it make or use?`));
    if (!target) return undefined;
    const have = new Set(b.doc.recipes.map((r) => r.recipe));
    const makers = ctx.g.producersOf(target).filter((r) => !have.has(r)).map((r) => recipeItem(ctx, r, 'makes it'));
    const users = ctx.g.consumersOf(target).filter((r) => !have.has(r)).map((r) => recipeItem(ctx, r, 'uses it'));
    if (!makers.length && !users.length) {
      void vscode.window.showInformationMessage(`PyOps: no other recipe makes or uses ${ctx.g.displayOf(target)}.`);
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      [{ label: 'Makes it', kind: vscode.QuickPickItemKind.Separator, recipe: '', usable: false }, ...makers, { label: 'Uses it', kind: vscode.QuickPickItemKind.Separator, recipe: '', usable: false }, ...users],
      { title: `Add a recipe for ${ctx.g.displayOf(target)} to "${b.name}"`, matchOnDescription: true },
    );
    return pick?.recipe || undefined;
  }

  /** Save a row's modules and beacons as a named preset (one undoable action), the name asked here. */
  private async savePreset(id: string, recipe: string): Promise<void> {
    const p = this.projects.requireWritable();
    const ctx = planningContext(p);
    const row = getBlock(p, id).doc.recipes.find((r) => r.recipe === recipe);
    if (!row) throw new Error(`The block has no row for ${ctx.g.displayOf(recipe)} any more; reload the editor.`);
    const taken = new Set(listPresets(p).map((x) => x.name.toLowerCase()));
    const name = await vscode.window.showInputBox({
      title: `Save the modules of ${ctx.g.displayOf(recipe)} as a preset`,
      prompt: describeModules((n) => ctx.g.displayOf(n), { modules: row.modules ?? [], beacons: row.beacons ?? [] }),
      placeHolder: 'e.g. Speed with 8 beacons',
      validateInput: (v) => (!v.trim() ? 'A preset needs a name' : taken.has(v.trim().toLowerCase()) ? 'A preset with this name exists already' : undefined),
    });
    if (!name) return;
    createPreset(p, ctx.g, { name, modules: row.modules ?? [], beacons: row.beacons ?? [] });
    this.projects.touch();
    this.postState(id);
  }

  private reportClosed(): void {
    for (const id of [...this.open.keys()]) this.post(id, { type: 'gone', message: this.elsewhere(id) ?? 'The project was closed.' });
  }

  private html(webview: vscode.Webview, dist: vscode.Uri, media: vscode.Uri): string {
    return webviewHtml(webview, this.context.extensionUri, { script: vscode.Uri.joinPath(dist, 'webview', 'block-editor.js'), css: [vscode.Uri.joinPath(media, 'flow-diagram.css'), vscode.Uri.joinPath(media, 'block-editor.css')], title: 'Block', label: 'Block editor' });
  }

  dispose(): void {
    this.follower.dispose();
    for (const s of this.subs) s.dispose();
    for (const ed of this.open.values()) ed.panel.dispose();
  }
}
