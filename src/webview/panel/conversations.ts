// The project's conversations: title, model, reasoning effort, last usage; switch, open in chat,
// branch, rename, compact, delete, copy a link; the selected conversation's transcript; and the
// archived originals of a compaction.
import type { ArchivedMessage, ConversationRow, FromWebview, PanelState, TranscriptView } from '../protocol';
import { tokens } from '../format';
import { button, h, icon } from './dom';
import { transcriptSection } from './transcript';

export interface TranscriptShown {
  view: TranscriptView;
  focusMessageId?: string;
}

const EFFORT_LABEL = { low: 'Low', medium: 'Medium', high: 'High' } as const;

function usageText(u: ConversationRow['lastUsage']): string {
  if (!u) return 'no usage yet';
  const parts = [u.inputTokens !== null ? `${tokens(u.inputTokens)} in` : '', u.outputTokens !== null ? `${tokens(u.outputTokens)} out` : ''].filter(Boolean);
  return parts.length ? `last turn ${parts.join(' / ')}` : 'no usage yet';
}

function effortSelect(post: (m: FromWebview) => void, c: ConversationRow): HTMLElement {
  if (!c.efforts.length) return h('span', { class: 'sub muted', title: 'This model takes no reasoning setting' }, 'reasoning: model default');
  const select = h('vscode-single-select', { 'aria-label': `Reasoning effort for ${c.title}`, 'data-focus-key': `effort:${c.id}`, class: 'effort' });
  const options: Array<['' | 'low' | 'medium' | 'high', string]> = [['', 'Reasoning: Auto'], ...c.efforts.map((e) => [e, `Reasoning: ${EFFORT_LABEL[e]}`] as ['low' | 'medium' | 'high', string])];
  for (const [value, label] of options) select.appendChild(h('vscode-option', { value, selected: (c.reasoningEffort ?? '') === value }, label));
  select.addEventListener('change', () => {
    const v = (select as HTMLElement & { value: string }).value;
    post({ type: 'setEffort', conversationId: c.id, effort: v === 'low' || v === 'medium' || v === 'high' ? v : null });
  });
  return select;
}

function row(post: (m: FromWebview) => void, c: ConversationRow, active: boolean): HTMLElement {
  const when = c.updatedAt ? new Date(c.updatedAt).toLocaleString() : '';
  return h(
    'li',
    { class: `conversation${active ? ' active' : ''}`, 'aria-current': active ? 'true' : undefined },
    h(
      'button',
      {
        class: 'conversation-title',
        'data-focus-key': `switch:${c.id}`,
        title: active ? 'Show the transcript of the active conversation' : 'Make this the active conversation and show its transcript',
        onclick: () => {
          if (!active) post({ type: 'switchConversation', conversationId: c.id });
          post({ type: 'showTranscript', conversationId: c.id });
        },
      },
      icon(c.running ? 'loading codicon-modifier-spin' : active ? 'comment-discussion' : 'comment'),
      ' ',
      c.title,
    ),
    h('div', { class: 'sub' }, `${c.model} · ${c.messageCount} messages · ${usageText(c.lastUsage)}${when ? ` · ${when}` : ''}`),
    h(
      'div',
      { class: 'row-actions' },
      effortSelect(post, c),
      button('Open in Chat', () => post({ type: 'openInChat', conversationId: c.id }), { icon: 'comment-discussion', iconOnly: true, secondary: true, key: `chat:${c.id}` }),
      button('Branch', () => post({ type: 'branchConversation', conversationId: c.id }), { icon: 'git-branch', iconOnly: true, secondary: true, key: `branch:${c.id}` }),
      button('Copy Link', () => post({ type: 'copyLink', conversationId: c.id }), { icon: 'link', iconOnly: true, secondary: true, key: `link:${c.id}` }),
      button('Rename', () => post({ type: 'renameConversation', conversationId: c.id }), { icon: 'edit', iconOnly: true, secondary: true, key: `rename:${c.id}` }),
      button('Compact', () => post({ type: 'compactConversation', conversationId: c.id }), { icon: 'fold', iconOnly: true, secondary: true, disabled: c.running, key: `compact:${c.id}` }),
      button('Delete', () => post({ type: 'deleteConversation', conversationId: c.id }), { icon: 'trash', iconOnly: true, secondary: true, disabled: c.running, key: `delete:${c.id}` }),
    ),
    c.compactions.length
      ? h(
          'ul',
          { class: 'compactions' },
          c.compactions.map((k) =>
            h(
              'li',
              null,
              icon('archive'),
              ` ${k.originalCount} messages compacted${k.compactedAt ? ` on ${new Date(k.compactedAt).toLocaleString()}` : ''} `,
              h('button', { class: 'link', 'data-focus-key': `archive:${k.messageId}`, onclick: () => post({ type: 'showArchive', conversationId: c.id, messageId: k.messageId }) }, 'View originals'),
            ),
          ),
        )
      : null,
  );
}

export function conversationsView(
  post: (m: FromWebview) => void,
  state: PanelState,
  archive: { conversationId: string; messageId: string; messages: ArchivedMessage[] } | undefined,
  closeArchive: () => void,
  transcript: TranscriptShown | undefined,
  closeTranscript: () => void,
): HTMLElement {
  if (!state.project) return h('p', { class: 'empty' }, 'Open a PyOps project to see its conversations.');
  const items = state.conversations;
  return h(
    'div',
    { class: 'conversations' },
    h('div', { class: 'actions' }, button('New Conversation', () => post({ type: 'newConversation' }), { icon: 'add', key: 'new-conversation' })),
    items.length ? h('ul', { class: 'conversation-list', 'aria-label': 'Conversations' }, items.map((c) => row(post, c, c.id === state.activeConversationId))) : h('p', { class: 'empty' }, 'No conversations yet. Ask @pyops in the chat to start one.'),
    archive
      ? h(
          'section',
          { class: 'archive', 'aria-label': 'Archived messages' },
          h('header', null, icon('archive'), h('h3', null, `${archive.messages.length} archived messages`), button('Close', closeArchive, { icon: 'close', iconOnly: true, secondary: true, key: 'archive-close' })),
          h(
            'ol',
            null,
            archive.messages.map((m) => h('li', { class: `archived role-${m.role}` }, h('strong', null, m.role === 'user' ? 'You' : m.role === 'assistant' ? 'PyOps' : m.role), m.tools.length ? h('span', { class: 'sub' }, ` — tools: ${m.tools.join(', ')}`) : null, h('div', { class: 'text' }, m.text || '(no text)'))),
          ),
        )
      : null,
    transcript ? transcriptSection(post, transcript.view, closeTranscript, transcript.focusMessageId) : null,
  );
}
