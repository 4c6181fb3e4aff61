// A turn's UI message chunks → the chat response: answer text as markdown, each finished tool call
// as a past-tense progress line (the tool's own summary, so the transcript stays true afterwards),
// references to the goods and blocks a proposal involves, compaction as a note — and, after the
// answer (`finish()`), each proposal as a markdown summary with its buttons (Create Block / Apply
// Plan / Apply Revision / Run in Game / Open in Side Panel). What it rendered (message id,
// proposals, follow-ups) goes into the turn's ChatResult metadata.
import * as vscode from 'vscode';
import type { UIMessageChunk } from 'ai';
import { isToolOutcome } from '../../core/assistant/agent/tools';
import { findTool } from '../../core/assistant/tools/registry';
import type { ProposalRef } from '../../webview/protocol';
import { isProposalTool, PROPOSAL_TOOLS } from '../proposals/extract';
import { toBalanceView, toDraftView, toEvalView, toPlanView, type GameNames } from '../proposals/views';
import { balanceMarkdown, dedupeFollowups, draftFollowups, draftMarkdown, evalMarkdown, planFollowups, planMarkdown, type Followup } from './proposalSummary';
import { blockUri, goodUri } from './references';

export const PROPOSAL_COMMANDS = {
  apply: 'pyops.proposal.apply',
  reveal: 'pyops.proposal.reveal',
  runEval: 'pyops.proposal.runEval',
} as const;

const APPLY_TITLE = { block: 'Create Block', update: 'Apply Revision', plan: 'Apply Plan', balance: 'Balance Factory' } as const;

export interface RenderedProposal {
  ref: ProposalRef;
  kind: (typeof PROPOSAL_TOOLS)[keyof typeof PROPOSAL_TOOLS];
  title: string;
}

export interface RenderContext {
  conversationId: string;
  names: GameNames;
  /** Block ids by name, for references to supplier blocks; asked once, and only if an answer names a block. */
  blockIds: () => Map<string, string>;
  /** The good's game icon, when the project's icons were extracted. */
  goodIcon?: (good: string) => vscode.Uri | undefined;
}

function md(text: string): vscode.MarkdownString {
  const s = new vscode.MarkdownString(text, true);
  s.isTrusted = false;
  return s;
}

export class ChatRenderer {
  messageId: string | undefined;
  readonly proposals: RenderedProposal[] = [];
  readonly progress: string[] = [];
  /** Buttons shown, in order (kept for the integration tests). */
  readonly buttons: vscode.Command[] = [];
  private followupList: Followup[] = [];
  private toolNames = new Map<string, string>();
  private referenced = new Set<string>();
  private afterBlock = false;
  private readonly pending: Array<{ ref: ProposalRef; kind: RenderedProposal['kind']; text: string }> = [];
  wroteText = false;
  private blockIds: Map<string, string> | undefined;

  constructor(
    private readonly stream: vscode.ChatResponseStream,
    private readonly ctx: RenderContext,
  ) {}

  get followups(): Followup[] {
    return dedupeFollowups(this.followupList);
  }

  chunk(c: UIMessageChunk): void {
    switch (c.type) {
      case 'start':
        if (c.messageId) this.messageId = c.messageId;
        return;
      case 'text-delta':
        if (!c.delta) return;
        this.stream.markdown(this.afterBlock ? `\n\n${c.delta.replace(/^\n+/, '')}` : c.delta);
        this.afterBlock = false;
        this.wroteText = true;
        return;
      case 'tool-input-start':
      case 'tool-input-available':
        this.toolNames.set(c.toolCallId, c.toolName);
        return;
      case 'tool-output-available':
        this.toolOutput(c.toolCallId, c.output);
        return;
      case 'tool-output-error':
        this.note(`${this.displayName(c.toolCallId)} failed: ${c.errorText.slice(0, 200)}`);
        return;
      default:
        if (c.type === 'data-pyops-compaction') {
          const d = (c as { data?: { summarized?: number; kept?: number } }).data;
          this.note(`Compacted ${d?.summarized ?? 0} earlier messages into a summary (${d?.kept ?? 0} kept verbatim)`);
        }
    }
  }

  private displayName(callId: string): string {
    const name = this.toolNames.get(callId) ?? 'tool';
    return findTool(name)?.displayName ?? name;
  }

  private note(text: string): void {
    this.progress.push(text);
    this.stream.progress(text);
    this.afterBlock = true;
  }

  private toolOutput(callId: string, output: unknown): void {
    const name = this.toolNames.get(callId) ?? '';
    if (!isToolOutcome(output)) {
      this.note(`Ran ${this.displayName(callId)}`);
      return;
    }
    this.note(output.summary);
    if (!output.ok || !isProposalTool(name) || !this.messageId) return;
    const ref: ProposalRef = { conversationId: this.ctx.conversationId, messageId: this.messageId, toolCallId: callId };
    const kind = PROPOSAL_TOOLS[name];
    const { names } = this.ctx;
    let title: string;
    let text: string;
    if (kind === 'plan') {
      const plan = toPlanView(output.result, names);
      title = plan.title;
      text = planMarkdown(plan);
      for (const b of plan.blocks) this.referenceGoods(b.goals.map((g) => [g.good, g.display]));
      this.followupList.push(...planFollowups(plan));
    } else if (kind === 'balance') {
      const b = toBalanceView(output.result, names);
      title = 'Balance factory';
      text = balanceMarkdown(b);
      this.referenceGoods(b.unsupplied.slice(0, 4).map((x) => [x.good, x.label] as [string, string]));
    } else if (kind === 'eval') {
      title = 'Lua for the game';
      text = evalMarkdown(toEvalView(output.result));
    } else {
      const d = toDraftView(output.result, names);
      title = d.name;
      text = draftMarkdown(d);
      this.referenceGoods([...d.goals.map((g) => [g.good, g.display] as [string, string]), ...d.importsExternal.slice(0, 4).map((f) => [f.good, f.display] as [string, string])]);
      for (const f of d.importsFromBlocks) for (const b of f.blocks ?? []) this.referenceBlock(b);
      if (d.revision) this.referenceBlock(d.name, d.revision.blockId);
      this.followupList.push(...draftFollowups(d));
    }
    this.proposals.push({ ref, kind, title });
    this.pending.push({ ref, kind, text });
  }

  /**
   * Proposals go after the answer: VS Code folds everything before the last text into its
   * "Completed N steps" section, and a proposal's summary and buttons must stay in view.
   */
  finish(): void {
    for (const p of this.pending) {
      this.stream.markdown(md(`${this.wroteText ? '\n\n' : ''}${p.text}`));
      this.wroteText = true;
      if (p.kind === 'eval') this.button({ command: PROPOSAL_COMMANDS.runEval, title: 'Run in Game', arguments: [p.ref] });
      else this.button({ command: PROPOSAL_COMMANDS.apply, title: APPLY_TITLE[p.kind], arguments: [p.ref] });
      this.button({ command: PROPOSAL_COMMANDS.reveal, title: 'Open in Side Panel', arguments: [p.ref] });
    }
    this.pending.length = 0;
  }

  private button(c: vscode.Command): void {
    this.buttons.push(c);
    this.stream.button(c);
  }

  private referenceGoods(goods: Array<[string, string]>): void {
    for (const [good, display] of goods) {
      if (!good || this.referenced.has(`g:${good}`)) continue;
      this.referenced.add(`g:${good}`);
      this.stream.reference(goodUri(good, display), this.ctx.goodIcon?.(good) ?? new vscode.ThemeIcon('package'));
    }
  }

  private referenceBlock(name: string, id = (this.blockIds ??= this.ctx.blockIds()).get(name)): void {
    if (!id || this.referenced.has(`b:${id}`)) return;
    this.referenced.add(`b:${id}`);
    this.stream.reference(blockUri(id, name), new vscode.ThemeIcon('symbol-structure'));
  }
}

