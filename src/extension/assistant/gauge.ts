// The context gauge of a conversation: how full the model's context is (the last turn's measured
// tokens plus an estimate of what came after, else an estimate of everything) against the window of
// the model the conversation last ran on. Shared by the status bar and the side panel.
import type { UIMessage } from 'ai';
import type { Project } from '../../core/db/project';
import { getConversation, loadMessages, type Conversation } from '../../core/assistant/conversations/store';
import { contextStatus } from '../../core/assistant/compaction/context';
import type { ContextView } from '../../webview/protocol';
import type { AssistantHost } from './host';

/** `loaded`: the conversation and its messages when the caller already has them (the panel does). */
export async function conversationGauge(
  host: AssistantHost,
  project: Project,
  conversationId: string,
  loaded?: { conv: Conversation; messages: readonly UIMessage[] },
): Promise<(ContextView & { title: string; messageCount: number }) | undefined> {
  const conv = loaded?.conv ?? getConversation(project, conversationId);
  if (!conv) return undefined;
  const messages = loaded?.messages ?? loadMessages(project, conversationId);
  const model = await host.modelOf(conv);
  const s = contextStatus({ messages, lastUsage: conv.lastUsage, contextWindow: model.contextWindow, overheadTokens: host.overheadTokens(project), resolvedModel: model.modelId });
  return { usedTokens: s.usedTokens, contextWindow: s.contextWindow, ratio: s.ratio, source: s.source, modelId: model.modelId, level: s.level, title: conv.title ?? 'New chat', messageCount: messages.length };
}
