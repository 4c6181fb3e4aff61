// The block editor: a custom editor over `pyops-block:` documents (one tab per block). Every change
// is one core edit (solved once, saved as one undoable action, refused when the block changed since
// the tab read it); the tab follows the project's writes, so a chat apply, an undo or another
// window's edit shows at once. Each edit made in the tab is also an edit of its document, so VS
// Code's own Undo and Redo (the Edit menu, Ctrl+Z outside a text field) undo exactly that project
// change — or say why not, when the project changed after it. The change is durable when it is made,
// so the document saves itself at once and a tab is never left dirty.
import * as vscode from 'vscode';
import { planningContext, type PlanningContext } from '../../core/planning/context';
import { solverFor } from '../../core/assistant/tools/context';
import { BlockError, getBlock, trySolve } from '../../core/planning/factory/blocks';
import { editBlock, type BlockEdit } from '../../core/planning/factory/blockEdit';
import { blockCompletion } from '../../core/planning/proposals/complete';
import { createPreset, describeModules, listPresets } from '../../core/planning/modulePresets';
import type { SolveResult } from '../../core/planning/solver/result';
import { fromBlockEditorSchema, type BlockEditorView, type FromBlockEditor, type ToBlockEditor } from '../../webview/blockEditorProtocol';
import type { ProjectManager } from '../projectManager';
import { notOpenText, type ProjectHome } from '../projectHomes';
import { WriteFollower } from '../views/followWrites';
import { confirmInStatusBar } from '../commands/confirm';
import { webviewHtml } from '../webviewHtml';
import { flowIconKey } from '../../webview/format';
import type { GameIcons } from '../icons';
import { redoChange, undoChange, type UndoTarget } from '../proposals/undo';
import { blockEditorView } from './viewModel';
import { bestMaker, pickGood, rankedFor, recipeItem, type RecipeItem } from './pickers';
import { blockUri, parseBlockUri } from './blockUri';
import type { RateUnits } from './units';

export const BLOCK_EDITOR_VIEW = 'pyops.blockEditor';

/** One block as VS Code sees it; the edits made in its tab, for the header's Undo and Redo. */
class BlockDocument implements vscode.CustomDocument {
  /** Undo entries of the edits made in this tab that are applied (oldest first), and those undone. */
  readonly past: UndoTarget[] = [];
  readonly future: UndoTarget[] = [];
  constructor(
    readonly uri: vscode.Uri,
    readonly projectId: string,
    readonly blockId: string,
  ) {}
  dispose(): void {}
}

interface OpenEditor {
  panel: vscode.WebviewPanel;
  doc: BlockDocument;
  /** The solve behind what the tab shows, and the block version it was solved for. */
  shown?: { updatedAt: string; result: SolveResult | null; broken?: string; ctx: PlanningContext };
  ready: boolean;
  busy: boolean;
  /** The project the block lives in: after a switch the tab waits for it instead of editing another project. */
  project: ProjectHome;
  /** What the last posted state was built from: a write that changes none of it (the follower after an edit) posts nothing. */
  posted?: { shown: OpenEditor['shown']; inputs: string };
}

const NAMES_KEY = 'pyops.projectNames';

export class BlockEditors implements vscode.CustomEditorProvider<BlockDocument>, vscode.Disposable {
  private readonly open = new Map<string, OpenEditor>();
  private readonly follower = new WriteFollower(60, () => this.refreshAll());
  private readonly subs: vscode.Disposable[] = [];
  private readonly docChanged = new vscode.EventEmitter<vscode.CustomDocumentEditEvent<BlockDocument>>();
  readonly onDidChangeCustomDocument = this.docChanged.event;
  /** The last state posted to each tab (tests read it). */
  readonly lastView = new Map<string, BlockEditorView>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly projects: ProjectManager,
    private readonly units: RateUnits,
    private readonly icons?: GameIcons,
  ) {
    this.subs.push(vscode.window.registerCustomEditorProvider(BLOCK_EDITOR_VIEW, this, { supportsMultipleEditorsPerDocument: false, webviewOptions: { retainContextWhenHidden: false } }));
    if (icons) {
      this.subs.push(icons.onDidChange(() => {
        for (const [id, ed] of this.open) {
          ed.panel.webview.options = this.options();
          this.postState(id);
        }
      }));
    }
    this.subs.push(units.onDidChange(() => {
      for (const id of this.open.keys()) this.postState(id);
    }));
    let project = projects.active;
    this.remember(project);
    this.subs.push(projects.onDidChange((p) => {
      this.remember(p);
      if (p === project) return this.refreshAll();
      // Another project: following it refreshes each tab, which says its block's project is not open.
      project = p;
      if (!p) this.reportClosed();
      this.follower.follow(p);
    }));
    this.follower.follow(project);
  }

  /** Project names by id, so a tab restored before its project opens can name the project. */
  private remember(p: { id: string; name: string } | undefined): void {
    if (!p) return;
    const names = this.context.workspaceState.get<Record<string, string>>(NAMES_KEY) ?? {};
    if (names[p.id] !== p.name) void this.context.workspaceState.update(NAMES_KEY, { ...names, [p.id]: p.name });
  }

  private home(projectId: string): ProjectHome {
    const p = this.projects.active;
    if (p?.id === projectId) return { projectId, name: p.name };
    return { projectId, name: this.context.workspaceState.get<Record<string, string>>(NAMES_KEY)?.[projectId] ?? 'another project' };
  }

  /** Open (or reveal) the editor tab of block `id` of the open project. */
  async show(id: string): Promise<vscode.WebviewPanel> {
    const p = this.projects.require();
    getBlock(p, id);
    const existing = this.open.get(id);
    if (existing) {
      existing.panel.reveal();
      return existing.panel;
    }
    await vscode.commands.executeCommand('vscode.openWith', blockUri(p.id, id), BLOCK_EDITOR_VIEW, { preview: false });
    const deadline = Date.now() + 10_000;
    while (!this.open.get(id)) {
      if (Date.now() > deadline) throw new Error(`The editor of block "${getBlock(p, id).name}" did not open; try "Edit Block" again.`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.open.get(id)!.panel;
  }

  // ── the custom editor ────────────────────────────────────────────────────

  openCustomDocument(uri: vscode.Uri): BlockDocument {
    const ids = parseBlockUri(uri);
    if (!ids) throw new Error(`${uri.toString()} is not a PyOps block; open blocks from the Factory view.`);
    return new BlockDocument(uri, ids.projectId, ids.blockId);
  }

  async resolveCustomEditor(doc: BlockDocument, panel: vscode.WebviewPanel): Promise<void> {
    // A tab restored after a reload comes before the startup project: wait for it, so the tab is
    // named after its block at once (not its file name, the block's id). The page is set after the
    // wait, so its "ready" finds the listener below.
    if (!this.projects.active) await this.projects.whenStarted();
    const id = doc.blockId;
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    panel.webview.options = this.options();
    panel.webview.html = this.html(panel.webview, dist, media);
    const p = this.projects.active;
    if (p?.id === doc.projectId) {
      try {
        panel.title = getBlock(p, id).name;
      } catch {
        // A deleted block: the tab says so once it is ready.
      }
    }
    const ed: OpenEditor = { panel, doc, ready: false, busy: false, project: this.home(doc.projectId) };
    this.open.set(id, ed);
    panel.onDidDispose(() => {
      if (this.open.get(id) === ed) {
        this.open.delete(id);
        this.lastView.delete(id);
      }
    });
    panel.webview.onDidReceiveMessage((raw) => void this.receive(id, raw));
  }

  /** Nothing is pending: every edit was saved to the project when it was made. */
  async saveCustomDocument(): Promise<void> {}

  async saveCustomDocumentAs(): Promise<void> {
    throw new Error('A block lives in its project and is saved with every change; to copy it, use "Duplicate" in the Factory view.');
  }

  async revertCustomDocument(doc: BlockDocument): Promise<void> {
    await this.refresh(doc.blockId, true);
  }

  /** The project holds the block: a backup needs nothing of its own. */
  async backupCustomDocument(_doc: BlockDocument, context: vscode.CustomDocumentBackupContext): Promise<vscode.CustomDocumentBackup> {
    return { id: context.destination.toString(), delete: () => undefined };
  }

  // ── messages from the tab ────────────────────────────────────────────────

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
      await this.handle(id, m);
    } catch (err) {
      this.post(id, { type: 'error', message: (err as Error).message });
      if (err instanceof BlockError && err.code === 'stale') await this.refresh(id, true);
    }
  }

  private async handle(id: string, m: FromBlockEditor): Promise<void> {
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
        const pick = await this.pickRecipe(id, m.good, m.role);
        if (pick) await this.edit(id, { kind: 'row-add', recipe: pick.recipe, ...(pick.makes ? { makes: pick.makes } : {}) }, this.base(id));
        return;
      }
      case 'completeChain': {
        const p = this.projects.require();
        const ctx = planningContext(p);
        const c = blockCompletion(p, ctx, id);
        if (!c.added.length) {
          void vscode.window.showInformationMessage(`Nothing to complete in "${getBlock(p, id).name}": every good it still takes is raw, a commodity (10 or more recipes use it), made by another block, or made by nothing you can build.`);
          return;
        }
        await this.edit(id, { kind: 'rows-add', rows: c.added.map((x) => ({ recipe: x.recipe, makes: x.good })) }, this.base(id));
        return;
      }
      case 'addBestMaker': {
        const p = this.projects.require();
        const ctx = planningContext(p);
        const recipe = bestMaker(ctx, m.good, new Set(getBlock(p, id).doc.recipes.map((r) => r.recipe)));
        if (!recipe) throw new Error(`No recipe makes ${ctx.g.displayOf(m.good)} that the block does not have already; it can only be imported.`);
        await this.edit(id, { kind: 'row-add', recipe, makes: m.good }, this.base(id));
        return;
      }
      case 'unit': {
        const ed = this.open.get(id);
        if (ed) await this.units.set(ed.doc.projectId, id, m.unit);
        return;
      }
      case 'pickCampaignGood':
        await this.addCampaignQuantity(id);
        return;
      case 'newGroup': {
        const p = this.projects.require();
        const name = await vscode.window.showInputBox({ title: `Put ${planningContext(p).g.displayOf(m.recipe)} into a new group`, placeHolder: 'e.g. Circuits', validateInput: (v) => (v.trim() ? undefined : 'A group needs a name') });
        if (name) await this.edit(id, { kind: 'group', group: { name: name.trim(), recipes: [m.recipe] } }, this.base(id));
        return;
      }
      case 'undo':
        await this.undoRedo(id, 'undo');
        return;
      case 'redo':
        await this.undoRedo(id, 'redo');
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
  }

  /** Why the tab cannot edit now, when its block's project is not the open one. */
  private elsewhere(id: string): string | undefined {
    const ed = this.open.get(id);
    const p = this.projects.active;
    if (!ed || p?.id === ed.project.projectId) return undefined;
    if (p) ed.project = this.home(ed.project.projectId);
    return `${notOpenText('This block', ed.project, p)} Open "${ed.project.name}" again to edit it; this tab picks it up.`;
  }

  private base(id: string): string {
    return this.open.get(id)?.shown?.updatedAt ?? getBlock(this.projects.require(), id).updatedAt;
  }

  /** Apply one edit: solve, save as one undoable action, show the result; an edit of the tab's document too. */
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
      const entry = p.undoable();
      if (ed && entry) this.recordEdit(ed.doc, { id: entry.id, label: entry.label });
    } finally {
      if (ed) this.setBusy(id, false);
    }
  }

  /** The edit as VS Code's own Undo and Redo see it: exactly this project change, or why not. */
  private recordEdit(doc: BlockDocument, target: UndoTarget): void {
    doc.past.push(target);
    doc.future.length = 0;
    this.docChanged.fire({ document: doc, label: target.label, undo: () => this.step(doc, target, 'undo'), redo: () => this.step(doc, target, 'redo') });
    this.saveSoon(doc);
  }

  /** Undo or redo exactly `target`; a refusal tells VS Code this document's history no longer matches the project's. */
  private async step(doc: BlockDocument, target: UndoTarget, which: 'undo' | 'redo'): Promise<void> {
    const p = this.projects.requireWritable();
    const r = await (which === 'undo' ? undoChange : redoChange)(p, solverFor(planningContext(p)), target);
    if (!r.undone) throw new Error(`PyOps: ${r.message}`);
    if (which === 'undo') move(doc.past, doc.future, target);
    else move(doc.future, doc.past, target);
    confirmInStatusBar(which === 'undo' ? `$(discard) PyOps: undid "${r.label}"` : `$(redo) PyOps: redid "${r.label}"`);
    this.saveSoon(doc);
  }

  /** The change is in the project already: mark the document saved once VS Code has taken the edit. */
  private saveSoon(doc: BlockDocument): void {
    setTimeout(() => void vscode.workspace.save(doc.uri).then(undefined, () => undefined), 0);
  }

  /**
   * The header's Undo/Redo: VS Code's own when the project's next step is one of this tab's edits (so
   * the Edit menu's history stays right), else the project's (a chat apply, another tab's change).
   */
  private async undoRedo(id: string, which: 'undo' | 'redo'): Promise<void> {
    const ed = this.open.get(id);
    const p = this.projects.requireWritable();
    const next = which === 'undo' ? p.undoable() : p.redoable();
    const mine = ed && (which === 'undo' ? ed.doc.past.at(-1) : ed.doc.future.at(-1));
    if (ed?.panel.active && mine && next && mine.id === next.id) await vscode.commands.executeCommand(which);
    else await vscode.commands.executeCommand(which === 'undo' ? 'pyops.edit.undo' : 'pyops.edit.redo');
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
    if (!ed?.shown || !p || p.id !== ed.project.projectId) return;
    let b;
    try {
      b = getBlock(p, id);
    } catch {
      return;
    }
    const undoLabel = p.undoable()?.label;
    const redoLabel = p.redoable()?.label;
    const unit = this.units.of(ed.doc.projectId, id);
    const inputs = JSON.stringify([b.updatedAt, undoLabel, redoLabel, listPresets(p), this.icons?.folder?.toString(), this.icons?.count, unit]);
    if (ed.posted?.shown === ed.shown && ed.posted.inputs === inputs) return;
    ed.posted = { shown: ed.shown, inputs };
    const view = blockEditorView(ed.shown.ctx, b, ed.shown.result, { broken: ed.shown.broken, undoLabel, redoLabel, unit });
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
    for (const r of view.rows) {
      r.icon = uri(icons.icon('recipe', r.recipe));
      for (const x of r.io) if (!x.energy) x.icon = uri(icons.good(x.good));
    }
    if (view.result) for (const f of [...view.result.imports, ...view.result.exports, ...view.result.byproducts]) f.icon = uri(icons.good(f.good));
    for (const n of view.flow.nodes) n.icon = uri(icons.byKey(flowIconKey(n)));
  }

  /**
   * A recipe to add: for `good` (its makers first when the block should make it), or — from "Add
   * Recipe…" — for a good picked with the block's imports and unmade goals on top. A maker comes back
   * with the good it makes, so the edit requires it made inside.
   */
  private async pickRecipe(id: string, good?: string, role: 'make' | 'use' = 'make'): Promise<{ recipe: string; makes?: string } | undefined> {
    const p = this.projects.require();
    const ctx = planningContext(p);
    const b = getBlock(p, id);
    const shown = this.open.get(id)?.shown?.result;
    const fmt = (x: number) => `${Number(x.toPrecision(3))}/s`;
    const target =
      good ??
      (await pickGood(ctx, `Add a recipe to "${b.name}": which good should it make or use?`, {
        first: [
          { title: 'Imported by this block', goods: (shown?.imports ?? []).filter((f) => ctx.g.producersOf(f.good).length && !ctx.g.goods.get(f.good)?.synthetic).map((f) => ({ good: f.good, detail: `imported ${fmt(f.rate)}` })) },
          { title: 'Goals nothing in the block makes', goods: (shown?.unmade ?? []).map((u) => ({ good: u.good, detail: 'goal' })) },
        ],
      }));
    if (!target) return undefined;
    const have = new Set(b.doc.recipes.map((r) => r.recipe));
    const makers = rankedFor(ctx, target, 'produce', have).map((r) => recipeItem(ctx, r, 'makes it'));
    const users = rankedFor(ctx, target, 'consume', have).map((r) => recipeItem(ctx, r, 'uses it'));
    if (!makers.length && !users.length) {
      void vscode.window.showInformationMessage(`PyOps: no other recipe makes or uses ${ctx.g.displayOf(target)}.`);
      return undefined;
    }
    const sep = (label: string): RecipeItem => ({ label, kind: vscode.QuickPickItemKind.Separator, recipe: '', usable: false });
    const sections: Array<[string, RecipeItem[]]> = role === 'use' ? [['Uses it', users], ['Makes it', makers]] : [['Makes it', makers], ['Uses it', users]];
    const items = sections.filter(([, l]) => l.length).flatMap(([label, l]) => [sep(label), ...l]);
    const pick = await vscode.window.showQuickPick(items, { title: `Add a recipe for ${ctx.g.displayOf(target)} to "${b.name}"`, matchOnDescription: true });
    if (!pick?.recipe) return undefined;
    return { recipe: pick.recipe, ...(makers.includes(pick) ? { makes: target } : {}) };
  }

  /** A campaign quantity: the good picked (the block's goals first) and how many, asked in VS Code. */
  private async addCampaignQuantity(id: string): Promise<void> {
    const p = this.projects.require();
    const ctx = planningContext(p);
    const b = getBlock(p, id);
    const good = await pickGood(ctx, `Campaign of "${b.name}": what should it make?`, { madeOnly: true, first: [{ title: 'Goals of this block', goods: b.doc.goals.map((g) => ({ good: g.good, detail: 'goal' })) }] });
    if (!good) return;
    const text = await vscode.window.showInputBox({
      title: `How many ${ctx.g.displayOf(good)} should the campaign make?`, value: '100',
      validateInput: (v) => (Number.isFinite(Number(v)) && Number(v) !== 0 ? undefined : 'A number other than 0 (negative: the campaign uses it up)'),
    });
    if (!text) return;
    const c = b.doc.campaign;
    const quantities = [...(c?.quantities ?? []).filter((q) => q.good !== good), { good, quantity: Number(text) }];
    await this.edit(id, { kind: 'campaign', campaign: { duration: c?.duration ?? 3600, confidence: c?.confidence ?? 'expected', quantities, ...(c?.completedAt ? { completedAt: c.completedAt } : {}) } }, this.base(id));
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
    this.docChanged.dispose();
    for (const ed of this.open.values()) ed.panel.dispose();
  }
}

/** Move `x` from one list to the other (its last occurrence). */
function move(from: UndoTarget[], to: UndoTarget[], x: UndoTarget): void {
  const i = from.findIndex((y) => y.id === x.id);
  if (i >= 0) from.splice(i, 1);
  to.push(x);
}
