// @pyops in the chat panel. A request finds its project conversation through the metadata of the
// chat's earlier answers (a fresh chat starts a new conversation, or continues the one the user
// opened from the side panel), cuts the stored transcript back when VS Code shows fewer turns
// (edit/retry), and runs one core turn: on OpenRouter when the chat's model is one of PyOps' own,
// otherwise on the chat's model through the AI SDK adapter. The stop button aborts the run; the
// partial answer is kept. /compact and /new act on the conversation without a model call.
import * as vscode from 'vscode';
import type { Project } from '../../core/db/project';
import { getConversation, loadMessages, truncateToCount, updateConversation } from '../../core/assistant/conversations/store';
import type { TurnModel } from '../../core/assistant/models/resolve';
import { gameIndex } from '../../core/planning/gameIndex';
import type { AssistantHost } from '../assistant/host';
import { isReportMessage } from '../assistant/reports';
import { isPyOpsModel } from '../models/picker';
import { namesFrom, NO_NAMES } from '../proposals/views';
import { keepCount, linkFromHistory, parseTurnMetadata, type TurnMetadata } from './history';
import { ChatRenderer } from './render';
import { blockIdsByName } from './references';
import type { GameIcons } from '../icons';
import { emptyCommandHint, framedMessage, PROMPT_COMMANDS } from './slashCommands';
import { keySetupAnswer, staleThreadNotice } from './setup';
import { vscodeTurnModel } from './vscodeModel';
import { completeWalkthroughStep } from '../walkthrough';
import { tokens } from '../../webview/format';

export const PARTICIPANT_ID = 'pyops.assistant';

const JUSTIFICATION = 'PyOps answers your Factorio planning question with this model, using its own planning tools.';

export function registerChatParticipant(host: AssistantHost, context: vscode.ExtensionContext, icons?: GameIcons): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, chatContext, stream, token) => handleRequest(host, request, chatContext, stream, token, icons));
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = {
    provideFollowups(result) {
      return (parseTurnMetadata(result.metadata)?.followups ?? []).map((f) => ({ prompt: f.prompt, label: f.label }));
    },
  };
  return participant;
}

function noProject(stream: vscode.ChatResponseStream): vscode.ChatResult {
  stream.markdown('No PyOps project is open. Open one to plan with your own game data, or try the sample world first.\n\n');
  stream.button({ command: 'pyops.project.openSample', title: 'Open Sample Project' });
  stream.button({ command: 'pyops.project.open', title: 'Open Project…' });
  stream.button({ command: 'pyops.project.new', title: 'New Project…' });
  return {};
}

/**
 * The conversation this request continues (reconciled with what VS Code shows), or undefined for a
 * new one; `notice` says so when the chat's thread is not in the open project (shown in the answer).
 */
function reconcile(host: AssistantHost, project: Project, chatContext: vscode.ChatContext): { conversationId?: string; notice?: string } {
  const link = linkFromHistory(chatContext.history);
  if (!link) {
    const pending = host.takePendingContinue();
    return pending && getConversation(project, pending) ? { conversationId: pending } : {};
  }
  host.takePendingContinue(); // this chat already has its conversation
  if (!getConversation(project, link.conversationId)) return { notice: staleThreadNotice(link, project) };
  const stored = loadMessages(project, link.conversationId);
  const keep = keepCount(stored, link.anchorId, isReportMessage);
  if (keep < stored.length) truncateToCount(project, link.conversationId, keep);
  return { conversationId: link.conversationId };
}

/** What every answer returns: its conversation, and the project it is stored in. */
function answerMetadata(project: Project, conversationId: string, extra: Omit<TurnMetadata, 'conversationId' | 'projectId' | 'projectName'> = {}): TurnMetadata {
  return { conversationId, projectId: project.id, projectName: project.name, ...extra };
}

async function compactNow(host: AssistantHost, project: Project, conversationId: string | undefined, model: TurnModel | undefined, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  if (!conversationId) {
    stream.markdown('There is nothing to compact yet: this chat has no PyOps conversation. Ask a question first.');
    return {};
  }
  const abort = new AbortController();
  token.onCancellationRequested(() => abort.abort());
  stream.progress('Compacting the conversation…');
  const r = await host.compact(project, conversationId, model, abort.signal);
  if (!r) {
    stream.markdown('An answer is still being written in this conversation. Wait for it to finish (or stop it), then run `/compact` again.');
  } else if (r.reason === 'cancelled') {
    stream.markdown('Compaction was stopped; the conversation is unchanged.');
  } else if (!r.compacted) {
    stream.markdown(`This conversation is too short to compact (${r.messages.length} messages; compaction keeps at least the newest 8 and needs 15 or more).`);
  } else {
    stream.markdown(
      `Compacted ${r.summarizedCount} earlier messages into a ${r.method === 'model' ? 'summary' : 'digest (no model was available for a summary)'}; the newest ${r.keptCount} stay verbatim. Estimated context: ${tokens(r.estimatedBefore)} → ${tokens(r.estimatedAfter)} tokens. The originals stay viewable in the PyOps side panel.`,
    );
    stream.button({ command: 'pyops.panel.open', title: 'Show Conversations', arguments: [{ tab: 'conversations' }] });
  }
  return { metadata: answerMetadata(project, conversationId) };
}

export async function handleRequest(
  host: AssistantHost,
  request: vscode.ChatRequest,
  chatContext: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  icons?: GameIcons,
): Promise<vscode.ChatResult> {
  const project = host.projects.active;
  if (!project) return noProject(stream);
  if (project.readOnly) {
    stream.markdown(`The project "${project.name}" is open read-only (${project.readOnlyReason}), so PyOps cannot save this conversation. Close it in the other window, or open a copy.`);
    return {};
  }
  const command = request.command;
  const thread = command === 'new' ? {} : reconcile(host, project, chatContext);
  let conversationId = thread.conversationId;

  // Which model serves the turn: PyOps' own OpenRouter models directly, anything else through the adapter.
  const chat = request.model as vscode.LanguageModelChat | undefined;
  const onOpenRouter = !chat || isPyOpsModel(chat);
  const vscodeModel = !onOpenRouter && chat ? vscodeTurnModel(chat, vscode, { justification: JUSTIFICATION }) : undefined;

  if (command === 'compact') {
    const model = vscodeModel ?? (await host.openRouterModel(chat?.id).catch(() => undefined));
    return compactNow(host, project, conversationId, model, stream, token);
  }
  if (command === 'new' && !request.prompt.trim()) {
    const conv = host.newConversation(project);
    stream.markdown('Started a new PyOps conversation. Ask away — for example "what do I need for 1 circuit per second?".');
    return { metadata: answerMetadata(project, conv.id) };
  }
  const message = framedMessage(command === 'new' ? undefined : command, request.prompt);
  if (!message) {
    stream.markdown(command && command in PROMPT_COMMANDS ? emptyCommandHint(command as keyof typeof PROMPT_COMMANDS) : 'Ask me about your factory: a block to draft, a plan, research, or TURD choices.');
    return conversationId ? { metadata: answerMetadata(project, conversationId) } : {};
  }
  // PyOps' own model without a key: answer with the set-up steps instead of failing the turn.
  if (onOpenRouter && !(await host.hasKey())) {
    keySetupAnswer(stream, chat?.id ?? host.defaultModelId());
    return conversationId ? { metadata: answerMetadata(project, conversationId) } : {};
  }
  if (thread.notice) stream.markdown(`${thread.notice}\n\n`);

  conversationId ??= host.newConversation(project).id;
  host.setActive(conversationId);

  const abort = new AbortController();
  const sub = token.onCancellationRequested(() => abort.abort());
  const g = project.hasGameData() ? gameIndex(project) : undefined;
  const renderer = new ChatRenderer(stream, { conversationId, names: g ? namesFrom(g) : NO_NAMES, blockIds: () => blockIdsByName(host.projects), goodIcon: icons ? (good) => icons.good(good) : undefined });
  const id = conversationId;
  try {
    const result = await host.turn({
      project,
      conversationId: id,
      message,
      signal: abort.signal,
      onChunk: (c) => renderer.chunk(c),
      source: onOpenRouter ? 'openrouter' : 'vscode',
      ...(vscodeModel ? { vscodeModel: { modelId: vscodeModel.modelId, contextWindow: vscodeModel.info.contextWindow } } : {}),
      model:
        vscodeModel ??
        (async (conv) => {
          const pick = chat?.id ?? null;
          if (pick && conv.model !== pick) updateConversation(project, conv.id, { model: pick });
          return host.openRouterModel(pick);
        }),
    });
    renderer.finish();
    // A first question answered is the walkthrough's last step, however it was asked.
    if (!result.error) completeWalkthroughStep('ask');
    host.recordResponse({
      conversationId: result.conversationId,
      command,
      proposals: renderer.proposals,
      buttons: renderer.buttons.map((b) => ({ command: b.command, title: b.title })),
      progress: renderer.progress,
      followups: renderer.followups,
      error: result.error?.message,
    });
    const metadata: TurnMetadata = {
      ...answerMetadata(project, result.conversationId),
      ...(result.userMessage ? { userMessageId: result.userMessage.id } : {}),
      ...(result.message ? { assistantMessageId: result.message.id } : {}),
      ...(renderer.followups.length ? { followups: renderer.followups } : {}),
    };
    if (result.error && !result.aborted) {
      if (result.error.kind === 'no-key') {
        stream.button({ command: 'pyops.openrouter.setKey', title: 'Set OpenRouter API Key…' });
      } else if (result.error.kind === 'context-length') {
        stream.button({ command: 'pyops.conversation.compact', title: 'Compact Conversation', arguments: [{ conversationId: result.conversationId }] });
      }
      return { metadata, errorDetails: { message: result.error.message } };
    }
    if (!renderer.wroteText && !result.aborted && !result.message) stream.markdown('_The model returned no answer. Retry, or pick another model._');
    return { metadata };
  } finally {
    sub.dispose();
  }
}
