// The PyOps side panel (browser side): three tabs — Proposals, Conversations, Live run — rendered
// from the state the extension posts. It talks to the extension only through typed messages
// (protocol.ts); everything it shows comes from the stored conversation, so a reloaded window
// shows the same cards. Focus and open sections survive re-renders.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import type { ArchivedMessage, FromWebview, PanelState, ProposalRef, Tab, ToWebview } from './protocol';
import { percent, tokens } from './format';
import { append, clear, h, icon } from './panel/dom';
import { pendingCard, pendingKey, proposalCard, refKey, type CardContext } from './panel/cards';
import { conversationsView, type TranscriptShown } from './panel/conversations';
import { LiveRun } from './panel/liveRun';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };

const vscode = acquireVsCodeApi();
const post = (m: FromWebview) => vscode.postMessage(m);
const TABS: Tab[] = ['proposals', 'conversations', 'run'];
const saved = (vscode.getState() ?? {}) as { tab?: Tab; open?: Array<[string, boolean]> };

let state: PanelState | undefined;
let tab: Tab = saved.tab && TABS.includes(saved.tab) ? saved.tab : 'proposals';
const open = new Map<string, boolean>(saved.open ?? []);
const busy = new Set<string>();
let archive: { conversationId: string; messageId: string; messages: ArchivedMessage[] } | undefined;
let pendingFocus: ProposalRef | undefined;
let transcript: TranscriptShown | undefined;
/** Scroll to the transcript (or its focused message) once, after the render that shows it. */
let scrollTranscript = false;
let transcriptShownFor: string | undefined;
const run = new LiveRun();

const root = document.getElementById('app')!;
const header = h('div', { class: 'panel-header' });
const panels = {
  proposals: h('div', { class: 'tab-content', id: 'tab-proposals' }),
  conversations: h('div', { class: 'tab-content', id: 'tab-conversations' }),
  run: h('div', { class: 'tab-content', id: 'tab-run' }),
};
const counter = h('span', { class: 'tab-count' });
const runDot = h('span', { class: 'tab-count' });
const tabs = h(
  'vscode-tabs',
  { 'selected-index': TABS.indexOf(tab), 'aria-label': 'PyOps side panel' },
  h('vscode-tab-header', { slot: 'header', id: 'tab-header-proposals' }, 'Proposals', counter),
  h('vscode-tab-panel', null, panels.proposals),
  h('vscode-tab-header', { slot: 'header', id: 'tab-header-conversations' }, 'Conversations'),
  h('vscode-tab-panel', null, panels.conversations),
  h('vscode-tab-header', { slot: 'header', id: 'tab-header-run' }, 'Live Run', runDot),
  h('vscode-tab-panel', null, panels.run),
);
tabs.addEventListener('vsc-tabs-select', (e) => {
  const next = TABS[(e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex];
  if (next && next !== tab) {
    tab = next;
    persist();
    post({ type: 'tab', tab });
  }
});
root.append(header, tabs);

function persist(): void {
  vscode.setState({ tab, open: [...open].slice(-300) });
}

function selectTab(t: Tab): void {
  tab = t;
  (tabs as HTMLElement & { selectedIndex: number }).selectedIndex = TABS.indexOf(t);
  persist();
}

/** Re-render a container, keeping keyboard focus on the same control. */
function rerender(container: HTMLElement, build: () => Node): void {
  const active = document.activeElement as HTMLElement | null;
  const key = active && container.contains(active) ? active.closest('[data-focus-key]')?.getAttribute('data-focus-key') : null;
  clear(container);
  container.appendChild(build());
  if (key) (container.querySelector(`[data-focus-key="${CSS.escape(key)}"]`) as HTMLElement | null)?.focus();
}

function renderHeader(): void {
  clear(header);
  if (!state?.project) {
    header.append(h('p', { class: 'empty' }, icon('info'), ' No PyOps project is open. Use "PyOps: Open Sample Project" or "PyOps: Open Project…".'));
    return;
  }
  const ctx = state.context;
  append(header, [
    h('div', { class: 'project' }, icon('circuit-board'), ' ', state.project.name, state.project.readOnly ? h('span', { class: 'badge badge-warn' }, 'read-only') : null),
    h('div', { class: 'active-conversation' }, icon('comment-discussion'), ' ', state.activeTitle ?? 'No active conversation'),
    ctx
      ? h(
          'div',
          { class: `gauge gauge-${ctx.level}`, role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': ctx.contextWindow, 'aria-valuenow': ctx.usedTokens, 'aria-label': 'Context used', title: `${ctx.usedTokens.toLocaleString()} of ${ctx.contextWindow.toLocaleString()} tokens (${ctx.source}) · ${ctx.modelId}` },
          h('div', { class: 'gauge-bar' }, h('div', { class: 'gauge-fill', style: `width: ${Math.min(100, Math.round(ctx.ratio * 100))}%` })),
          h('span', { class: 'gauge-text' }, `${tokens(ctx.usedTokens)} / ${tokens(ctx.contextWindow)} (${percent(ctx.ratio)}, ${ctx.source}) · ${ctx.modelId}`),
        )
      : null,
  ]);
}

/** The active conversation's cards, or why there are none. */
function conversationCards(s: PanelState, ctx: CardContext): Node {
  if (!s.activeConversationId) return h('p', { class: 'empty' }, 'No active conversation. Ask @pyops in the chat — for example "/block 1 circuit per second" — and its proposals appear here.');
  if (!s.proposals.length) return h('p', { class: 'empty' }, 'This conversation has no proposals yet. Ask @pyops to draft a block (/block) or a plan (/plan).');
  return h('div', { class: 'cards' }, s.proposals.map((p) => proposalCard(ctx, p)));
}

function renderProposals(): void {
  rerender(panels.proposals, () => {
    if (!state?.project) return h('p', { class: 'empty' }, 'Open a project, then ask @pyops for a block or a plan; its proposals appear here as cards.');
    const ctx: CardContext = { post, game: state.game, open, busy, toggled: persist, icons: state.icons ?? {} };
    if (!state.pending.length) return conversationCards(state, ctx);
    // Drafts from Copilot agent mode and MCP clients belong to no conversation: they come first, in their own group.
    return h(
      'div',
      null,
      h('section', { class: 'pending', 'aria-label': 'Pending proposals' }, h('h2', { class: 'group-title' }, icon('inbox'), ' Pending — from agent mode and MCP'), h('div', { class: 'cards' }, state.pending.map((p) => pendingCard(ctx, p)))),
      h('section', { 'aria-label': 'Proposals of the active conversation' }, h('h2', { class: 'group-title' }, icon('comment-discussion'), ' ', state.activeTitle ?? 'Conversation'), conversationCards(state, ctx)),
    );
  });
  const waiting = (state?.pending ?? []).filter((p) => !p.applied || p.applied.undone).length;
  const count = (state?.proposals.length ?? 0) + waiting;
  counter.textContent = count ? ` ${count}` : '';
  if (pendingFocus) focusCard(pendingFocus);
}

function focusCard(ref: ProposalRef): void {
  const card = panels.proposals.querySelector(`[data-ref="${CSS.escape(refKey(ref))}"]`) as HTMLElement | null;
  if (!card) return;
  pendingFocus = undefined;
  card.classList.add('highlight');
  card.scrollIntoView({ block: 'start' });
  (card.querySelector('vscode-button') as HTMLElement | null)?.focus();
  setTimeout(() => card.classList.remove('highlight'), 1500);
}

function renderConversations(): void {
  rerender(panels.conversations, () =>
    conversationsView(
      post,
      state ?? emptyState(),
      archive,
      () => {
        archive = undefined;
        renderConversations();
      },
      transcript,
      () => {
        transcript = undefined;
        renderConversations();
      },
    ),
  );
  if (scrollTranscript && transcript) {
    scrollTranscript = false;
    const focus = transcript.focusMessageId;
    const target = (focus && panels.conversations.querySelector(`[data-message-id="${CSS.escape(focus)}"]`)) || panels.conversations.querySelector('.transcript');
    (target as HTMLElement | null)?.scrollIntoView({ block: 'start' });
  }
}

/** The transcript on view is of a conversation that changed (a turn ended, it was compacted): fetch it again. */
function refreshTranscript(s: PanelState): void {
  if (!transcript) return;
  const row = s.conversations.find((c) => c.id === transcript!.view.conversationId);
  if (!row) transcript = undefined;
  else if (row.messageCount !== transcript.view.total) post({ type: 'showTranscript', conversationId: row.id });
}

function renderRun(): void {
  rerender(panels.run, () => run.render((id) => post({ type: 'stopRun', conversationId: id }), state?.conversations.find((c) => c.id === run.conversationId)?.title ?? state?.activeTitle ?? null));
  runDot.textContent = run.state === 'running' ? ' ●' : '';
}

function emptyState(): PanelState {
  return { project: null, activeConversationId: null, activeTitle: null, conversations: [], proposals: [], pending: [], context: null, game: { linked: false, detail: '' } };
}

let runFrame = 0;
window.addEventListener('message', (e: MessageEvent<ToWebview>) => {
  const m = e.data;
  switch (m.type) {
    case 'state':
      state = m.state;
      if (archive && !state.conversations.some((c) => c.id === archive!.conversationId)) archive = undefined;
      refreshTranscript(state);
      renderHeader();
      renderProposals();
      renderConversations();
      renderRun();
      return;
    case 'run':
      run.apply(m.event);
      // Chunks come fast: draw at most once per frame.
      if (!runFrame) runFrame = requestAnimationFrame(() => ((runFrame = 0), renderRun()));
      return;
    case 'focus':
      selectTab(m.tab);
      if (m.ref) {
        pendingFocus = m.ref;
        focusCard(m.ref);
      }
      return;
    case 'archive':
      archive = { conversationId: m.conversationId, messageId: m.messageId, messages: m.messages };
      selectTab('conversations');
      renderConversations();
      return;
    case 'transcript':
      transcript = { view: m.transcript, ...(m.focusMessageId ? { focusMessageId: m.focusMessageId } : {}) };
      // A refetch of the transcript already on view keeps the reader's place; a new one is scrolled to.
      scrollTranscript = !!m.focusMessageId || transcriptShownFor !== m.transcript.conversationId;
      transcriptShownFor = m.transcript.conversationId;
      selectTab('conversations');
      renderConversations();
      return;
    case 'busy':
      if (m.busy) busy.add(refKey(m.ref));
      else busy.delete(refKey(m.ref));
      renderProposals();
      return;
    case 'busyPending':
      if (m.busy) busy.add(pendingKey(m.id));
      else busy.delete(pendingKey(m.id));
      renderProposals();
      return;
  }
});

renderHeader();
post({ type: 'ready' });
