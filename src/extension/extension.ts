// Entry point of the VS Code extension: wires commands, the status bar and the project manager.
// Activation stays light — sql.js is only loaded when a project is (about to be) opened.
import * as vscode from 'vscode';
import path from 'node:path';
import { loadSqlJs, setSqlWasmDir } from '../core/db/sqlite';
import { setHighsWasmDir } from '../core/planning/solver/highs';
import { configureSolverWorker, stopSolverWorker } from '../core/planning/solver/pool';
import { ProjectManager } from './projectManager';
import { readSettings } from './settings';
import { createProjectStatus } from './statusBar';
import { registerProjectCommands, WALKTHROUGH_SHOWN_KEY } from './commands/project';
import { registerGameDataCommands } from './commands/gamedata';
import { registerPlanningCommands } from './commands/planning';
import { recentCommandErrors, registerCommand } from './commands/register';
import { markingRows } from './commands/args';
import { registerLanguageModelTools } from './lmTools';
import { EmbeddedMcp, MCP_PROVIDER_ID } from './mcp';
import { registerGameLink } from './bridge/gameLink';
import { refreshBlocks } from './refreshBlocks';
import { registerAssistant, type AssistantSurfaces } from './assistant/register';
import { FactoryTree, type FactoryNode } from './views/factoryTree';
import { registerFactoryCommands } from './commands/factory';
import { registerNotes } from './views/noteFiles';
import { registerPlanningSettingsCommands } from './commands/planningSettings';
import { startupClock, type StartupTiming } from './startupTiming';
import { BalanceTree, type BalanceNode } from './views/balanceTree';
import { registerTaskCommands } from './commands/tasks';
import { registerGoodCommands } from './commands/goods';
import { registerBlockEditor } from './blockEditor/commands';
import type { BlockEditors } from './blockEditor/panel';
import { GameIcons } from './icons';
import { ScenarioStore } from './scenario/store';
import { registerScenarioCommands } from './scenario/commands';
import { registerScienceEditor } from './scienceEditor/commands';
import type { ScienceEditor } from './scienceEditor/panel';
import { BOARD_VIEW, FactoryBoard } from './board/panel';
import { SCIENCE_EDITOR_VIEW } from './scienceEditor/panel';

/** What `activate` returns; integration tests use it to look inside. */
export interface PyOpsApi {
  projects: ProjectManager;
  recentCommandErrors: typeof recentCommandErrors;
  mcp: EmbeddedMcp;
  gameLink: ReturnType<typeof registerGameLink>;
  /** @pyops, the OpenRouter model provider, the side panel and the assistant commands. */
  assistant: AssistantSurfaces;
  /** The Factory view's tree. */
  factory: FactoryTree;
  /** Activation to the startup project open and the views showing it (the platform benchmark reads it). */
  startup(): StartupTiming | undefined;
  /** The Factory Balance view's tree. */
  balance: BalanceTree;
  /** The block editor tabs. */
  blockEditors: BlockEditors;
  /** Game icons of the active project (from the cache beside it). */
  icons: GameIcons;
  /** The science block's editor tab. */
  scienceEditor: ScienceEditor;
  /** The factory board tab. */
  board: FactoryBoard;
  /** The factory scenario's last result and the recalculation in progress. */
  scenario: ScenarioStore;
  /** The two tree views (tests reveal and expand nodes in them). */
  views: { factory: vscode.TreeView<FactoryNode>; balance: vscode.TreeView<BalanceNode> };
  /** The trees as VS Code reads them: their rows are the objects menus hand to commands (tests drive every menu with them). */
  rows: { factory: vscode.TreeDataProvider<FactoryNode>; balance: vscode.TreeDataProvider<BalanceNode> };
  /** Whether the walkthrough has been shown on a first run (it opens once). */
  walkthroughShown(): boolean;
}

export function activate(context: vscode.ExtensionContext): PyOpsApi {
  startupClock.begin();
  const dist = path.join(context.extensionPath, 'dist');
  setSqlWasmDir(dist);
  setHighsWasmDir(dist);
  // Large solves run on a worker thread so the extension host stays responsive.
  configureSolverWorker({ enabled: true, entry: path.join(dist, 'solver-worker.cjs') });
  const projects = new ProjectManager(context);
  // The startup project needs sql.js: compile its WebAssembly while the rest of activation runs.
  const settings = readSettings();
  if (projects.expectsStartupProject(settings.openSampleProjectOnStartup)) void loadSqlJs().then(() => startupClock.mark('sqlReady'), () => undefined);
  context.subscriptions.push(projects, createProjectStatus(projects));
  const icons = new GameIcons(projects);
  context.subscriptions.push(icons, ...registerProjectCommands(projects, context.globalState), ...registerGameDataCommands(projects, icons), ...registerPlanningCommands(projects));
  const factory = new FactoryTree(projects, icons);
  const factoryRows = markingRows(factory);
  const factoryView = vscode.window.createTreeView('pyops.factory', { treeDataProvider: factoryRows, showCollapseAll: true, manageCheckboxStateManually: true });
  const blockEditor = registerBlockEditor(context, projects, icons);
  const scenario = new ScenarioStore(projects);
  const balance = new BalanceTree(projects, icons, blockEditor.units, scenario);
  const balanceRows = markingRows(balance);
  const balanceView = vscode.window.createTreeView('pyops.balance', { treeDataProvider: balanceRows, showCollapseAll: true });
  context.subscriptions.push(
    factory,
    factoryView,
    registerCommand('pyops.factory.refresh', () => factory.refresh()),
    ...registerFactoryCommands(projects),
    ...registerNotes(projects, registerCommand),
    ...registerPlanningSettingsCommands(projects),
    ...registerTaskCommands(projects, factoryView, () => factory.refresh()),
    ...registerGoodCommands(projects),
    balance,
    balanceView,
    registerCommand('pyops.balance.refresh', () => balance.refresh()),
    scenario,
    ...registerScenarioCommands(projects, scenario),
  );
  context.subscriptions.push(...blockEditor.disposables);
  const science = registerScienceEditor(context, projects, icons);
  context.subscriptions.push(...science.disposables);
  const board = new FactoryBoard(context, projects, icons);
  context.subscriptions.push(
    board,
    registerCommand('pyops.board.open', () => void board.show()),
    // Tabs VS Code brings back after a window reload (activation: onWebviewPanel:<viewType>).
    vscode.window.registerWebviewPanelSerializer(SCIENCE_EDITOR_VIEW, { deserializeWebviewPanel: (panel) => science.editor.restore(panel) }),
    vscode.window.registerWebviewPanelSerializer(BOARD_VIEW, { deserializeWebviewPanel: (panel) => board.restore(panel) }),
  );
  // The game link: UDP bridge owned by this extension host, companion-mod commands, relay.
  const gameLink = registerGameLink(context, projects);
  context.subscriptions.push(gameLink);
  const game = () => gameLink.link;
  context.subscriptions.push(gameLink.onDidChangeState(() => void refreshBlocks(projects)));
  // Opening a project, an import, a horizon or TURD change: re-solve whatever became stale.
  context.subscriptions.push(projects.onDidChange(() => void refreshBlocks(projects)));
  context.subscriptions.push(...registerLanguageModelTools(projects, game));
  const assistant = registerAssistant(context, projects, game, [gameLink.onDidChangeState, gameLink.onDidChangeLinked], icons);
  context.subscriptions.push(assistant);
  const mcp = new EmbeddedMcp(projects, game, String(context.extension.packageJSON.version ?? '0'));
  context.subscriptions.push(
    mcp,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp.provider()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('pyops.mcp')) mcp.refresh().catch((err: Error) => void vscode.window.showErrorMessage(`PyOps MCP server: ${err.message}`));
    }),
    registerCommand('pyops.mcp.showInfo', async () => {
      const info = (await mcp.start()) ? mcp.info() : undefined;
      if (!info) {
        void vscode.window.showInformationMessage('PyOps: the embedded MCP server is off (setting pyops.mcp.enabled).');
        return undefined;
      }
      const choice = await vscode.window.showInformationMessage(
        `PyOps MCP server: ${info.url} — ${info.tools} tools (VS Code agent mode gets ${info.vscodeTools} of them from it; the rest are its PyOps language-model tools), version ${info.version}. Clients must send "Authorization: Bearer <token>". For other MCP clients outside VS Code use \`pyops mcp --project <file>\` (stdio).`,
        'Copy URL',
        'Copy Token',
      );
      if (choice === 'Copy URL') await vscode.env.clipboard.writeText(info.url);
      if (choice === 'Copy Token') await vscode.env.clipboard.writeText(info.token);
      return info;
    }),
  );
  void vscode.commands.executeCommand('setContext', 'pyops.projectOpen', false);
  // The startup project counts as open when it is active (the status bar and the views follow that
  // event), not when the first-run extras after it (the walkthrough) are done.
  const firstProject = projects.onDidChange((p) => {
    if (!p) return;
    startupClock.projectSettled(p.file);
    firstProject.dispose();
  });
  context.subscriptions.push(firstProject);
  void projects
    .restoreLast(settings.openSampleProjectOnStartup)
    .catch((err) => {
      void vscode.window.showWarningMessage(`PyOps: ${(err as Error).message}`);
    })
    .finally(() => startupClock.projectSettled(projects.active?.file ?? null));
  startupClock.mark('activated');
  return { projects, recentCommandErrors, mcp, gameLink, assistant, factory, balance, scenario, scienceEditor: science.editor, board, blockEditors: blockEditor.editors, icons, views: { factory: factoryView, balance: balanceView }, rows: { factory: factoryRows, balance: balanceRows }, walkthroughShown: () => !!context.globalState.get(WALKTHROUGH_SHOWN_KEY), startup: () => startupClock.snapshot() };
}

/** For extension/entry.ts, which loads this bundle: the clock notes how the code was loaded. */
export { startupClock };

export function deactivate(): void {
  // Disposables registered on the context close the project and release its lock.
  stopSolverWorker();
}
