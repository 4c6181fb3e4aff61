// What the proposal buttons do, from the chat or the side panel: Create block / Apply revision /
// Apply plan go through core's apply functions (the normal save path, ONE undoable action each)
// and the result is reported back into the conversation; Run in game sends a gameEval proposal's
// Lua through the game link and keeps the result for the card and the next message; Show in game
// draws a draft in the in-game summary panel. A proposal is found by its reference in the stored
// conversation, or in the run still being written. Pending proposals (drafts from Copilot agent mode
// and MCP clients, kept in the project) are applied, dismissed and shown by their id the same way.
import * as vscode from 'vscode';
import type { UIMessage } from 'ai';
import type { Project } from '../../core/db/project';
import { loadMessages } from '../../core/assistant/conversations/store';
import { planningContext } from '../../core/planning/context';
import { solverFor } from '../../core/assistant/tools/context';
import { applicable, type ApplyOutcome } from '../../core/planning/proposals/apply';
import { applyPending, dismissPending, getPending } from '../../core/planning/proposals/pending';
import { getBlock } from '../../core/planning/factory/blocks';
import type { DraftView, ProposalRef } from '../../webview/protocol';
import type { AssistantHost } from '../assistant/host';
import { appliedReport, blocksGone, findProposal, type ProposalRecord } from './extract';
import { gameState, NO_GAME_MESSAGE, showBlockPayload } from './game';
import { namesFrom, toDraftView, toEvalView, toPlanView } from './views';
import { latestChange, undoChange, type UndoOutcome, type UndoTarget } from './undo';
import { gameIndex } from '../../core/planning/gameIndex';

export type { ApplyOutcome };

/** An applied proposal plus the undo entry it made, so its toast's Undo reverts exactly this change. */
export interface AppliedChange extends ApplyOutcome {
  undo?: UndoTarget;
}

export interface EvalOutcome {
  ok: boolean;
  text: string;
  truncated?: boolean;
  at: string;
}

const refKey = (r: ProposalRef) => `${r.conversationId}\0${r.messageId}\0${r.toolCallId}`;

export class ProposalActions {
  private readonly evalResults = new Map<string, EvalOutcome>();
  private readonly evalChanged = new vscode.EventEmitter<ProposalRef>();
  readonly onDidChangeEvalResult = this.evalChanged.event;

  constructor(private readonly host: AssistantHost) {}

  /** Stored messages of the proposal's conversation, plus the answer still being written. */
  private messagesFor(project: Project, conversationId: string): UIMessage[] {
    const stored = loadMessages(project, conversationId);
    const live = this.host.runs.get(conversationId)?.snapshot?.();
    return live && !stored.some((m) => m.id === live.id) ? [...stored, live] : stored;
  }

  locate(ref: ProposalRef): { project: Project; record: ProposalRecord; messages: UIMessage[] } {
    const project = this.host.projects.require();
    const messages = this.messagesFor(project, ref.conversationId);
    const record = findProposal(ref, messages);
    if (!record) throw new Error('That proposal is not in the open project any more (its conversation was deleted, edited or belongs to another project). Ask @pyops to draft it again.');
    return { project, record, messages };
  }

  evalResult(ref: ProposalRef): EvalOutcome | undefined {
    return this.evalResults.get(refKey(ref));
  }

  /** Create block / Apply revision / Apply plan. Asks before applying an unsolved draft or applying twice. */
  async apply(ref: ProposalRef, opts: { confirm?: boolean } = {}): Promise<AppliedChange | undefined> {
    const { project, record, messages } = this.locate(ref);
    this.host.projects.requireWritable();
    if (record.kind === 'eval') throw new Error('A Lua proposal is run in the game, not applied; use "Run in Game".');
    const ask = opts.confirm !== false;
    const previous = appliedReport(messages, ref);
    if (ask && previous && !blocksGone(project, previous.created ?? [])) {
      const again = await vscode.window.showWarningMessage(`This proposal was already applied (${previous.label ?? 'earlier'}). Apply it again?`, { modal: true }, 'Apply Again');
      if (again !== 'Apply Again') return undefined;
    }
    const target = applicable(record.kind, record.result);
    if (ask && !target.ok && !(await confirmUnsolved(target.problem!))) return undefined;
    const outcome: AppliedChange = await target.apply(project, solverFor(requireGameData(project)));
    outcome.undo = latestChange(project);
    this.host.appendReport(project, ref.conversationId, reportText(project, outcome), { kind: 'applied', ref, created: outcome.created, updated: outcome.updated, label: outcome.label });
    this.host.projects.touch();
    return outcome;
  }

  /** Apply a pending proposal (one undoable action), asking before an unsolved or repeated apply. */
  async applyPending(id: string, opts: { confirm?: boolean } = {}): Promise<AppliedChange | undefined> {
    const project = this.host.projects.requireWritable();
    const ask = opts.confirm !== false;
    const outcome = await applyPending(project, solverFor(requireGameData(project)), id, async (q) => {
      if (!ask) return true;
      if (q.kind === 'again') return (await vscode.window.showWarningMessage(q.message, { modal: true }, 'Apply Again')) === 'Apply Again';
      return confirmUnsolved(q.message);
    });
    if (!outcome) return undefined;
    this.host.projects.touch();
    return { ...outcome, undo: latestChange(project) };
  }

  /** Remove a pending proposal from the side panel (blocks it created stay). */
  dismissPending(id: string): void {
    dismissPending(this.host.projects.requireWritable(), id);
    this.host.projects.touch();
  }

  /** Undo `target` (a toast's own change) if it is still the latest, else the latest change; re-solves what it touched. */
  async undo(target?: UndoTarget): Promise<UndoOutcome> {
    const project = this.host.projects.requireWritable();
    const ctx = planningContext(project);
    const r = await undoChange(project, solverFor(ctx), target);
    if (r.undone) {
      this.host.projects.touch();
      this.host.changed();
    }
    return r;
  }

  /** Run a gameEval proposal's Lua in the linked game (the mod decides whether eval is allowed). */
  async runEval(ref: ProposalRef): Promise<EvalOutcome> {
    const { record } = this.locate(ref);
    if (record.kind !== 'eval') throw new Error('Only a Lua proposal can be run in the game.');
    const link = this.host.game();
    if (!link || !gameState(link).linked) throw new Error(NO_GAME_MESSAGE);
    const code = toEvalView(record.result).code;
    const r = await link.eval(code);
    const outcome: EvalOutcome = r.ok
      ? { ok: true, text: r.result, truncated: r.truncated, at: new Date().toISOString() }
      : { ok: false, text: r.error ?? 'The game refused to run the snippet.', at: new Date().toISOString() };
    this.evalResults.set(refKey(ref), outcome);
    this.evalChanged.fire(ref);
    return outcome;
  }

  /** The next chat message, prefilled with a Lua run's result (the user edits and sends it). */
  async sendEvalResult(ref: ProposalRef): Promise<void> {
    const r = this.evalResult(ref);
    if (!r) throw new Error('Run the snippet in the game first; then its result can be sent.');
    const body = r.text.length > 8000 ? `${r.text.slice(0, 8000)}\n… (cut at 8000 characters)` : r.text;
    const query = `@pyops ${r.ok ? 'Here is what the Lua snippet returned' : 'The Lua snippet failed'}${r.truncated ? ' (the game cut the output)' : ''}:\n\`\`\`\n${body}\n\`\`\`\n`;
    this.host.continueInChat(ref.conversationId);
    await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: true });
  }

  /** Draw a block draft (or one block of a plan) in the in-game summary panel. */
  async showInGame(ref: ProposalRef, blockIndex = 0): Promise<void> {
    const { project, record } = this.locate(ref);
    const names = namesFrom(gameIndex(project));
    await this.show(record.kind === 'plan' ? toPlanView(record.result, names).blocks[blockIndex] : record.kind === 'eval' || record.kind === 'balance' ? undefined : toDraftView(record.result, names));
  }

  /** Draw a pending block draft (or one block of a pending plan) in the in-game summary panel. */
  async showPendingInGame(id: string, blockIndex = 0): Promise<void> {
    const project = this.host.projects.require();
    const x = getPending(project, id);
    if (!x) throw new Error('That pending proposal is gone (dismissed, or dropped as one of the oldest).');
    const names = namesFrom(gameIndex(project));
    await this.show(x.kind === 'plan' ? toPlanView(x.result, names).blocks[blockIndex] : x.kind === 'balance' ? undefined : toDraftView(x.result, names));
  }

  private async show(draft: DraftView | undefined): Promise<void> {
    const link = this.host.game();
    if (!link || !gameState(link).linked) throw new Error(NO_GAME_MESSAGE);
    if (!draft) throw new Error('That proposal has no block to show.');
    const r = await link.showBlock(showBlockPayload(draft, draft.revision?.blockId));
    if (!r.ok) throw new Error(`The game did not show the block: ${r.error ?? 'no reason given'}.`);
  }

  dispose(): void {
    this.evalChanged.dispose();
  }
}

function requireGameData(project: Project) {
  const ctx = planningContext(project);
  if (ctx.g.isEmpty) throw new Error(`"${project.name}" has no game data; import a dump or sync from Factorio first.`);
  return ctx;
}

async function confirmUnsolved(what: string): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(`${what} Apply it anyway? The blocks are saved as drafted and can be fixed or undone later.`, { modal: true }, 'Apply Anyway');
  return choice === 'Apply Anyway';
}

function reportText(project: Project, o: ApplyOutcome): string {
  const name = (id: string) => {
    try {
      return `"${getBlock(project, id).name}" (id ${id})`;
    } catch {
      return `id ${id}`;
    }
  };
  const parts = [o.created.length ? `created ${o.created.map(name).join(', ')}` : '', o.updated.length ? `updated ${o.updated.map(name).join(', ')}` : ''].filter(Boolean);
  return `[PyOps] I applied your proposal (${o.label}): ${parts.join('; ')}. It is one undoable change in the project.`;
}
