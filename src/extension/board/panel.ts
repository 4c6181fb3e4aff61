// The factory board: one editor tab mapping the enabled blocks and the goods between them. It follows
// every write to the project (an edit, a Balance Factory, an undo, a game sync) like the other views.
// Positions the player gives are saved per block without an undo step (a view preference, not a
// change to the factory); a double-click opens the block, or the science block in its own editor.
import * as vscode from 'vscode';
import { planningContext } from '../../core/planning/context';
import { getBlock, listBlocks, setBlockLayouts } from '../../core/planning/factory/blocks';
import { fromBoardSchema, type BoardView, type ToBoard } from '../../webview/boardProtocol';
import type { ProjectManager } from '../projectManager';
import { WriteFollower } from '../views/followWrites';
import type { GameIcons } from '../icons';
import { closeUnrevived, iconUri, openTab, tabOptions, wireTab } from '../webviewTab';
import { boardView } from './viewModel';

export const BOARD_VIEW = 'pyops.board';
const PAGE = { title: 'Factory Board', script: 'board', css: ['board.css'], label: 'Factory board' };

export class FactoryBoard implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private readonly follower = new WriteFollower(80, () => this.update());
  private readonly subs: vscode.Disposable[] = [];
  /** The last state posted (tests read it). */
  lastView: BoardView | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly projects: ProjectManager,
    private readonly icons?: GameIcons,
  ) {
    this.subs.push(projects.onDidChange((p) => this.follower.follow(p)));
    if (icons) {
      this.subs.push(icons.onDidChange(() => {
        if (this.panel) this.panel.webview.options = tabOptions(context.extensionUri, icons);
        this.update();
      }));
    }
    this.follower.follow(projects.active);
  }

  show(): vscode.WebviewPanel {
    this.projects.require();
    if (this.panel) {
      this.panel.reveal();
      return this.panel;
    }
    closeUnrevived(BOARD_VIEW);
    const panel = openTab(this.context.extensionUri, this.icons, { viewType: BOARD_VIEW, ...PAGE }, this.wiring(() => panel));
    this.panel = panel;
    this.ready = false;
    return panel;
  }

  /** The board VS Code brings back after a window reload; it fills in once the startup project is open. */
  async restore(panel: vscode.WebviewPanel): Promise<void> {
    if (this.panel) {
      panel.dispose();
      return;
    }
    wireTab(panel, this.context.extensionUri, this.icons, PAGE, this.wiring(() => panel));
    this.panel = panel;
    this.ready = false;
    await this.projects.whenStarted();
    this.update();
  }

  private wiring(panel: () => vscode.WebviewPanel) {
    return {
      message: (raw: unknown) => void this.receive(raw),
      dispose: () => {
        if (this.panel === panel()) {
          this.panel = undefined;
          this.lastView = undefined;
        }
      },
    };
  }

  private post(m: ToBoard): void {
    void this.panel?.webview.postMessage(m);
  }

  private update(): void {
    const panel = this.panel;
    if (!panel || !this.ready) return;
    const p = this.projects.active;
    if (!p || p.isClosed) {
      this.lastView = { project: '', nodes: [], edges: [], empty: 'No PyOps project is open: open one and its factory shows here.' };
    } else if (!p.hasGameData()) {
      this.lastView = { project: p.name, nodes: [], edges: [], empty: 'This project has no game data yet; import it ("PyOps: Import Game Data…") to see its factory.' };
    } else {
      this.lastView = boardView(p, planningContext(p).g, (key) => iconUri(panel.webview, this.icons, key));
    }
    panel.title = this.lastView.project ? `Board: ${this.lastView.project}` : 'Factory Board';
    this.post({ type: 'state', view: this.lastView });
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = fromBoardSchema.safeParse(raw);
    if (!parsed.success) return this.post({ type: 'error', message: `The board sent a message PyOps does not understand (${parsed.error.issues[0]?.message ?? 'invalid'}); close and reopen it.` });
    const m = parsed.data;
    try {
      switch (m.type) {
        case 'ready':
          this.ready = true;
          this.update();
          return;
        case 'place': {
          const p = this.projects.requireWritable();
          const known = new Set(listBlocks(p).map((b) => b.id));
          setBlockLayouts(p, m.positions.filter((x) => known.has(x.id)).map((x) => ({ id: x.id, layout: { x: x.x, y: x.y } })));
          return;
        }
        case 'autoLayout': {
          const p = this.projects.requireWritable();
          setBlockLayouts(p, listBlocks(p).map((b) => ({ id: b.id, layout: null })));
          return;
        }
        case 'open':
          await this.open(m.id);
          return;
      }
    } catch (err) {
      this.post({ type: 'error', message: (err as Error).message });
      this.update();
    }
  }

  /** Open a block from the board: the science block in its editor, any other in the block editor. */
  async open(id: string): Promise<unknown> {
    const b = getBlock(this.projects.require(), id);
    return vscode.commands.executeCommand(b.doc.science ? 'pyops.science.open' : 'pyops.block.edit', { blockId: id });
  }

  dispose(): void {
    this.follower.dispose();
    for (const s of this.subs) s.dispose();
    this.panel?.dispose();
  }
}
