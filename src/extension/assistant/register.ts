// Wires the assistant surfaces into the extension: the host (runs, models, active conversation),
// @pyops, the OpenRouter language-model provider, the side panel, the status items, the assistant
// commands, `pyops:` reference documents and the conversation links. One call from activate().
import * as vscode from 'vscode';
import type { GameLink } from '../../core/bridge';
import type { ProjectManager } from '../projectManager';
import { AssistantHost } from './host';
import { registerChatParticipant } from '../chat/participant';
import { ReferenceDocuments, REFERENCE_SCHEME } from '../chat/references';
import { OpenRouterChatProvider } from '../models/provider';
import { PYOPS_VENDOR } from '../models/picker';
import { ProposalActions } from '../proposals/actions';
import { AssistantPanel, PANEL_VIEW_ID } from '../panel/provider';
import { createAssistantStatus } from '../status/assistantStatus';
import { registerAssistantCommands } from '../commands/assistant';
import { registerUriHandler } from '../uriHandler';
import type { GameIcons } from '../icons';

export interface AssistantSurfaces extends vscode.Disposable {
  host: AssistantHost;
  actions: ProposalActions;
  panel: AssistantPanel;
}

export function registerAssistant(
  context: vscode.ExtensionContext,
  projects: ProjectManager,
  game: () => GameLink | undefined,
  gameEvents: ReadonlyArray<vscode.Event<unknown>> = [],
  icons?: GameIcons,
): AssistantSurfaces {
  const host = new AssistantHost(context, projects, game);
  const actions = new ProposalActions(host);
  const panel = new AssistantPanel(context, host, actions, gameEvents, icons);
  const refs = new ReferenceDocuments(projects);
  const disposables: vscode.Disposable[] = [
    host,
    actions,
    panel,
    refs,
    vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, panel, { webviewOptions: { retainContextWhenHidden: true } }),
    registerChatParticipant(host, context, icons),
    vscode.lm.registerLanguageModelChatProvider(PYOPS_VENDOR, new OpenRouterChatProvider(host)),
    vscode.workspace.registerFileSystemProvider(REFERENCE_SCHEME, refs.pages, { isCaseSensitive: true, isReadonly: true }),
    createAssistantStatus(host),
    ...registerAssistantCommands(host, actions, panel),
    registerUriHandler(panel),
  ];
  return { host, actions, panel, dispose: () => vscode.Disposable.from(...disposables).dispose() };
}
