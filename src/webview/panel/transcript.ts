// A stored conversation's transcript in the Conversations tab: messages in order, text with basic
// Markdown (code, bold, italic, headings, lists) built as DOM nodes — model text never becomes HTML —
// reasoning collapsed, each tool call one line that opens to its input and result, proposals as
// links to their cards, and per message "Branch from here" and "Copy Link".
import type { FromWebview, TranscriptBlock, TranscriptMessage, TranscriptView } from '../protocol';
import { button, h, icon } from './dom';

type Post = (m: FromWebview) => void;

const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*|__[^_\n]+__)|(\*[^*\s][^*\n]*\*|\b_[^_\s][^_\n]*_\b)|\[([^\]\n]+)\]\(([^)\s]+)\)/g;

/** One line's inline Markdown as text and elements. Links show their target instead of navigating. */
function inline(text: string): Array<Node | string> {
  const out: Array<Node | string> = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1]) out.push(h('code', null, m[1].slice(1, -1)));
    else if (m[2]) out.push(h('strong', null, m[2].slice(2, -2)));
    else if (m[3]) out.push(h('em', null, m[3].slice(1, -1)));
    else out.push(h('span', { class: 'md-link', title: m[5] }, m[4]), ` (${m[5]})`);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;

/** Block-level Markdown: fenced code, headings, lists, paragraphs. */
export function markdown(text: string): HTMLElement {
  const root = h('div', { class: 'md' });
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let para: string[] = [];
  let list: { ordered: boolean; el: HTMLElement } | undefined;
  const flush = () => {
    if (para.length) {
      const p = h('p');
      para.forEach((l, i) => {
        if (i) p.appendChild(h('br'));
        for (const c of inline(l)) p.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
      });
      root.appendChild(p);
    }
    para = [];
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)\s*([\w+-]*)/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) body.push(lines[i]);
      root.appendChild(h('pre', { class: 'code', 'data-lang': fence[2] || undefined }, h('code', null, body.join('\n'))));
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      root.appendChild(h('p', { class: 'md-heading' }, h('strong', null, ...inline(heading[1]))));
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const ordered = /^\s*\d/.test(line);
      if (para.length || !list || list.ordered !== ordered) {
        flush();
        list = { ordered, el: h(ordered ? 'ol' : 'ul') };
        root.appendChild(list.el);
      }
      list.el.appendChild(h('li', null, ...inline(line.replace(LIST_ITEM, ''))));
      continue;
    }
    if (list) list = undefined;
    para.push(line);
  }
  flush();
  return root;
}

const ROLE_LABEL: Record<TranscriptMessage['role'], string> = { user: 'You', assistant: 'PyOps', system: 'System' };

function speaker(m: TranscriptMessage): string {
  if (m.origin === 'report') return 'PyOps note';
  if (m.origin === 'compaction') return 'Summary';
  return ROLE_LABEL[m.role];
}

function block(post: Post, b: TranscriptBlock): HTMLElement {
  switch (b.kind) {
    case 'text':
      return h('div', { class: 'msg-text' }, markdown(b.text), b.truncated ? h('p', { class: 'sub muted' }, '(shortened here; the chat has the full text)') : null);
    case 'reasoning':
      // Closed by default: the reasoning is there for the curious, not in the reading path.
      return h('details', { class: 'reasoning' }, h('summary', null, icon('lightbulb'), ' Reasoning'), markdown(b.text));
    case 'tool':
      return h(
        'details',
        { class: `tool-call tool-${b.status}` },
        h('summary', { title: b.tool }, icon(b.status === 'failed' ? 'error' : b.status === 'pending' ? 'circle-slash' : 'tools'), ' ', h('span', { class: 'tool-name' }, b.tool), ' — ', b.summary),
        b.detail ? h('pre', { class: 'code' }, b.detail) : h('p', { class: 'sub muted' }, 'No input or result was stored.'),
      );
    case 'proposal':
      return h(
        'div',
        { class: 'msg-proposal' },
        icon(b.proposal === 'plan' ? 'list-tree' : b.proposal === 'eval' ? 'terminal' : 'package'),
        ' ',
        h('button', { class: 'link', title: 'Show this proposal as a card in the Proposals tab', 'data-focus-key': `proposal:${b.ref.messageId}:${b.ref.toolCallId}`, onclick: () => post({ type: 'revealProposal', ref: b.ref }) }, b.title),
      );
    case 'note':
      return h('p', { class: 'sub muted msg-note' }, icon('info'), ' ', b.text);
  }
}

function message(post: Post, t: TranscriptView, m: TranscriptMessage, focused: boolean): HTMLElement {
  return h(
    'li',
    { class: `msg role-${m.role} origin-${m.origin}${focused ? ' highlight' : ''}`, 'data-message-id': m.id },
    h(
      'div',
      { class: 'msg-head' },
      h('strong', null, speaker(m)),
      h(
        'span',
        { class: 'msg-actions' },
        button('Branch from here', () => post({ type: 'branchFromMessage', conversationId: t.conversationId, messageId: m.id }), { icon: 'git-branch', secondary: true, title: 'Start a new conversation with the messages up to and including this one', key: `branch-msg:${m.id}` }),
        button('Copy Link', () => post({ type: 'copyLink', conversationId: t.conversationId, messageId: m.id }), { icon: 'link', iconOnly: true, secondary: true, key: `link-msg:${m.id}` }),
      ),
    ),
    m.blocks.length ? m.blocks.map((b) => block(post, b)) : h('p', { class: 'sub muted' }, '(no text)'),
  );
}

export function transcriptSection(post: Post, t: TranscriptView, close: () => void, focusMessageId?: string): HTMLElement {
  const end = t.start + t.messages.length;
  const size = Math.max(t.messages.length, 1);
  return h(
    'section',
    { class: 'transcript', 'aria-label': `Transcript of ${t.title}` },
    h(
      'header',
      null,
      icon('comment-discussion'),
      h('h3', null, t.title),
      h('span', { class: 'sub' }, t.total === 1 ? '1 message' : `${t.total} messages`),
      button('Copy Link', () => post({ type: 'copyLink', conversationId: t.conversationId }), { icon: 'link', iconOnly: true, secondary: true, key: 'transcript-link' }),
      button('Close Transcript', close, { icon: 'close', iconOnly: true, secondary: true, key: 'transcript-close' }),
    ),
    t.start > 0 ? h('button', { class: 'link more', 'data-focus-key': 'transcript-earlier', onclick: () => post({ type: 'showTranscript', conversationId: t.conversationId, start: Math.max(0, t.start - size) }) }, `Show earlier messages (${t.start} more)`) : null,
    t.messages.length ? h('ol', { class: 'messages', start: t.start + 1 }, t.messages.map((m) => message(post, t, m, m.id === focusMessageId))) : h('p', { class: 'empty' }, 'This conversation has no messages yet.'),
    end < t.total ? h('button', { class: 'link more', 'data-focus-key': 'transcript-later', onclick: () => post({ type: 'showTranscript', conversationId: t.conversationId, start: end }) }, `Show later messages (${t.total - end} more)`) : null,
  );
}
