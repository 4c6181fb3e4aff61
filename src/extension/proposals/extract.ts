// Proposals are the outputs of the proposal tools (submitBlock, reviseBlock, submitPlan, gameEval)
// inside a conversation's stored assistant messages. Nothing else stores them: the side panel's
// cards and the chat's buttons are rebuilt from these tool parts, so they survive a reload, and
// whether one was applied is read from the report PyOps added to the conversation afterwards.
import type { UIMessage } from 'ai';
import { isToolOutcome } from '../../core/assistant/agent/tools';
export { blocksGone } from '../../core/planning/proposals/apply';
import type { ProposalRef } from '../../webview/protocol';
import { isReportMessage, reportData, type ReportData } from '../assistant/reports';

export const PROPOSAL_TOOLS = { submitBlock: 'block', reviseBlock: 'update', submitPlan: 'plan', balanceFactory: 'balance', gameEval: 'eval' } as const;
export type ProposalTool = keyof typeof PROPOSAL_TOOLS;
export type ProposalKind = (typeof PROPOSAL_TOOLS)[ProposalTool];

export interface ProposalRecord {
  ref: ProposalRef;
  tool: ProposalTool;
  kind: ProposalKind;
  /** The tool's result (a Draft, RevisionDraft, PlanDraft or eval proposal), as stored. */
  result: unknown;
  input: unknown;
}

interface ToolPartLike {
  type: string;
  toolCallId?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
}

export function isProposalTool(name: string): name is ProposalTool {
  return Object.prototype.hasOwnProperty.call(PROPOSAL_TOOLS, name);
}

/** The proposal in one tool part, if it is a successful proposal tool call. */
export function proposalOfPart(conversationId: string, messageId: string, part: unknown): ProposalRecord | undefined {
  const p = part as ToolPartLike;
  if (!p || typeof p.type !== 'string' || !p.type.startsWith('tool-') || p.state !== 'output-available' || !p.toolCallId) return undefined;
  const tool = p.type.slice(5);
  if (!isProposalTool(tool)) return undefined;
  const out = p.output;
  if (!isToolOutcome(out) || !out.ok || !out.result || typeof out.result !== 'object') return undefined;
  return { ref: { conversationId, messageId, toolCallId: p.toolCallId }, tool, kind: PROPOSAL_TOOLS[tool], result: out.result, input: p.input };
}

/** Every proposal of a conversation, oldest first. */
export function proposalsIn(conversationId: string, messages: readonly UIMessage[]): ProposalRecord[] {
  const out: ProposalRecord[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const part of m.parts) {
      const r = proposalOfPart(conversationId, m.id, part);
      if (r) out.push(r);
    }
  }
  return out;
}

export function findProposal(ref: ProposalRef, messages: readonly UIMessage[]): ProposalRecord | undefined {
  const m = messages.find((x) => x.id === ref.messageId);
  if (!m) return undefined;
  for (const part of m.parts) {
    const r = proposalOfPart(ref.conversationId, m.id, part);
    if (r && r.ref.toolCallId === ref.toolCallId) return r;
  }
  return undefined;
}

export const sameRef = (a: ProposalRef | undefined, b: ProposalRef | undefined) => !!a && !!b && a.conversationId === b.conversationId && a.messageId === b.messageId && a.toolCallId === b.toolCallId;

/** The latest "applied" report for a proposal. */
export function appliedReport(messages: readonly UIMessage[], ref: ProposalRef): ReportData | undefined {
  let found: ReportData | undefined;
  for (const m of messages) {
    if (!isReportMessage(m)) continue;
    const d = reportData(m);
    if (d?.kind === 'applied' && sameRef(d.ref, ref)) found = d;
  }
  return found;
}
