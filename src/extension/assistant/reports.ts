// Notes PyOps adds to a conversation outside a turn — "I created these blocks from your proposal" —
// as user messages: the model reads the text on the next turn; the data part (never sent to the
// model) lets the UI tell which proposal it answers. A Lua run's result is not a report: the user
// sends it as an ordinary chat message.
import type { UIMessage } from 'ai';
import type { ProposalRef } from '../../webview/protocol';

export const REPORT_PART = 'data-pyops-report';

export interface ReportData {
  kind: 'applied';
  /** The proposal it answers. */
  ref?: ProposalRef;
  created?: string[];
  updated?: string[];
  label?: string;
  at: string;
}

export function isReportMessage(m: UIMessage): boolean {
  return m.role === 'user' && m.parts.some((p) => p.type === REPORT_PART);
}

export function reportData(m: UIMessage): ReportData | undefined {
  const p = m.parts.find((x) => x.type === REPORT_PART) as { data?: ReportData } | undefined;
  return p?.data;
}

export function reportMessage(id: string, text: string, data: Omit<ReportData, 'at'>, now = new Date()): UIMessage {
  return {
    id,
    role: 'user',
    parts: [{ type: 'text', text }, { type: REPORT_PART, data: { ...data, at: now.toISOString() } } as UIMessage['parts'][number]],
  };
}
