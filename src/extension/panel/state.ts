// The side panel's state, rebuilt from the project whenever something changes: the conversations
// (title, model, reasoning effort, last usage, compactions), the active conversation's proposals as
// card views (with whether they were applied — and undone since), the project's pending proposals
// (drafts from Copilot agent mode and MCP clients), its context gauge, and whether a game is linked.
// Derived from the project, never kept here: a reloaded window shows the same cards.
import type { UIMessage } from 'ai';
import type { Project } from '../../core/db/project';
import { listConversations, loadMessages, type Conversation } from '../../core/assistant/conversations/store';
import { compactionData, isCompactionMessage } from '../../core/assistant/compaction/summarize';
import { REASONING_EFFORTS } from '../../core/assistant/models/catalog';
import { gameIndex } from '../../core/planning/gameIndex';
import { listPending } from '../../core/planning/proposals/pending';
import type { AppliedView, ArchivedMessage, ConversationRow, PanelState, PendingProposalView, ProposalView } from '../../webview/protocol';
import type { AssistantHost } from '../assistant/host';
import { conversationGauge } from '../assistant/gauge';
import { appliedReport, blocksGone, proposalsIn } from '../proposals/extract';
import type { ProposalActions } from '../proposals/actions';
import { gameState } from '../proposals/game';
import { namesFrom, NO_NAMES, toBalanceView, toDraftView, toEvalView, toPlanView, type GameNames } from '../proposals/views';

export function proposalViews(project: Project, conversationId: string, messages: readonly UIMessage[], names: GameNames, actions?: ProposalActions): ProposalView[] {
  const out: ProposalView[] = [];
  for (const r of proposalsIn(conversationId, messages)) {
    const report = appliedReport(messages, r.ref);
    const applied = report
      ? { label: report.label ?? 'Applied', created: report.created ?? [], updated: report.updated ?? [], at: report.at, undone: blocksGone(project, report.created ?? []) }
      : undefined;
    if (r.kind === 'plan') {
      const plan = toPlanView(r.result, names);
      out.push({ kind: 'plan', ref: r.ref, title: plan.title, plan, ...(applied ? { applied } : {}) });
    } else if (r.kind === 'balance') {
      out.push({ kind: 'balance', ref: r.ref, title: 'Balance factory', balance: toBalanceView(r.result, names), ...(applied ? { applied } : {}) });
    } else if (r.kind === 'eval') {
      const ev = toEvalView(r.result);
      const result = actions?.evalResult(r.ref);
      out.push({ kind: 'eval', ref: r.ref, title: 'Lua for the game', eval: { ...ev, ...(result ? { result } : {}) } });
    } else {
      const draft = toDraftView(r.result, names);
      out.push({ kind: r.kind, ref: r.ref, title: draft.name, draft, ...(applied ? { applied } : {}) });
    }
  }
  return out.reverse();
}

/** The project's pending proposals as card views, newest first. */
export function pendingViews(project: Project, names: GameNames): PendingProposalView[] {
  return listPending(project).map((x) => {
    const base = { id: x.id, source: x.source, createdAt: x.createdAt };
    const applied: AppliedView | undefined = x.applied ? { ...x.applied, undone: x.undone } : undefined;
    const extra = applied ? { applied } : {};
    if (x.kind === 'plan') {
      const plan = toPlanView(x.result, names);
      return { ...base, kind: 'plan', title: plan.title, plan, ...extra };
    }
    if (x.kind === 'balance') return { ...base, kind: 'balance', title: x.title, balance: toBalanceView(x.result, names), ...extra };
    const draft = toDraftView(x.result, names);
    return { ...base, kind: x.kind, title: draft.name, draft, ...extra };
  });
}

function compactions(messages: readonly UIMessage[]): ConversationRow['compactions'] {
  return messages.filter(isCompactionMessage).map((m) => {
    const d = compactionData(m);
    return { messageId: m.id, originalCount: d?.originalCount ?? 0, compactedAt: d?.compactedAt ?? '' };
  });
}

/** The archived originals of one compaction, as plain text for the panel. */
export function archivedMessages(messages: readonly UIMessage[], messageId: string): ArchivedMessage[] {
  const m = messages.find((x) => x.id === messageId);
  const d = m ? compactionData(m) : undefined;
  if (!d) return [];
  return d.originals.map((o) => ({
    id: o.id,
    role: o.role,
    text: o.parts
      .filter((p) => p.type === 'text')
      .map((p) => (p as { text: string }).text)
      .join('\n'),
    tools: o.parts.filter((p) => p.type.startsWith('tool-')).map((p) => p.type.slice(5)),
  }));
}

export async function buildPanelState(host: AssistantHost, actions: ProposalActions): Promise<PanelState> {
  const game = gameState(host.game());
  const project = host.projects.active;
  if (!project) return { project: null, activeConversationId: null, activeTitle: null, conversations: [], proposals: [], pending: [], context: null, game };
  const activeId = host.activeConversationId() ?? null;
  const rows: ConversationRow[] = [];
  let active: { conv: Conversation; messages: UIMessage[] } | undefined;
  for (const c of listConversations(project)) {
    const model = await host.modelOf(c);
    const messages = c.id === activeId ? loadMessages(project, c.id) : undefined;
    if (messages) active = { conv: c, messages };
    rows.push({
      id: c.id,
      title: c.title ?? 'New chat',
      model: model.modelId,
      reasoningEffort: c.reasoningEffort,
      efforts: model.info?.supportsReasoning ? model.info.efforts : model.source === 'vscode' ? [] : [...REASONING_EFFORTS],
      lastUsage: c.lastUsage,
      messageCount: c.messageCount,
      updatedAt: c.updatedAt,
      running: host.isRunning(c.id),
      compactions: messages ? compactions(messages) : [],
    });
  }
  const names = project.hasGameData() ? namesFrom(gameIndex(project)) : NO_NAMES;
  const gauge = activeId ? await conversationGauge(host, project, activeId, active) : undefined;
  return {
    project: { name: project.name, readOnly: project.readOnly },
    activeConversationId: activeId,
    activeTitle: active ? (active.conv.title ?? 'New chat') : null,
    conversations: rows,
    proposals: activeId ? proposalViews(project, activeId, active?.messages ?? [], names, actions) : [],
    pending: pendingViews(project, names),
    context: gauge ? { usedTokens: gauge.usedTokens, contextWindow: gauge.contextWindow, ratio: gauge.ratio, source: gauge.source, modelId: gauge.modelId, level: gauge.level } : null,
    game,
  };
}
