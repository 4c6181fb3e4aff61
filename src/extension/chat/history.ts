// VS Code keeps the chat's history; PyOps keeps the project conversation. They are tied together by
// the metadata each @pyops answer returns (`ChatResult.metadata`): the conversation id and the ids of
// the stored user and assistant messages. A later request reads it back from `context.history`.
// When VS Code shows fewer turns than were stored (the user edited a request or retried an
// answer), the stored transcript is cut back to the last turn VS Code still shows — keeping the
// notes PyOps added right after it (apply results) — before the new turn runs.
import { z } from 'zod';
import type { UIMessage } from 'ai';

export const turnMetadata = z.object({
  conversationId: z.string().min(1),
  userMessageId: z.string().min(1).optional(),
  assistantMessageId: z.string().min(1).optional(),
  followups: z.array(z.object({ prompt: z.string(), label: z.string().optional() })).max(8).optional(),
  /** The project the conversation is stored in, to tell "another project is open" from "deleted". */
  projectId: z.string().min(1).optional(),
  projectName: z.string().optional(),
});

export type TurnMetadata = z.infer<typeof turnMetadata>;

/** A history entry that is a response turn (duck-typed, so this module needs no editor). */
interface ResponseTurnLike {
  result: { metadata?: unknown };
}

const isResponseTurn = (h: unknown): h is ResponseTurnLike => !!h && typeof h === 'object' && 'result' in h && 'response' in h;

export function parseTurnMetadata(raw: unknown): TurnMetadata | undefined {
  const r = turnMetadata.safeParse(raw);
  return r.success ? r.data : undefined;
}

export interface HistoryLink {
  /** The conversation the chat's last PyOps answer belonged to. */
  conversationId: string;
  /** The newest stored message of that conversation VS Code still shows (undefined: none known). */
  anchorId?: string;
  /** The project that conversation is in (answers from before PyOps recorded it have none). */
  projectId?: string;
  projectName?: string;
}

/** Where the chat's history points: its last answer's conversation and newest known message. */
export function linkFromHistory(history: readonly unknown[]): HistoryLink | undefined {
  let newest: TurnMetadata | undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const h = history[i];
    if (!isResponseTurn(h)) continue;
    const meta = parseTurnMetadata(h.result.metadata);
    if (!meta) continue;
    newest ??= meta;
    if (meta.conversationId !== newest.conversationId) break;
    const anchorId = meta.assistantMessageId ?? meta.userMessageId;
    if (anchorId) return { ...projectOf(newest), conversationId: newest.conversationId, anchorId };
  }
  return newest ? { ...projectOf(newest), conversationId: newest.conversationId } : undefined;
}

const projectOf = (m: TurnMetadata) => ({ ...(m.projectId ? { projectId: m.projectId } : {}), ...(m.projectName ? { projectName: m.projectName } : {}) });

/**
 * How many stored messages to keep so the transcript matches what VS Code shows: everything up to
 * the anchor, plus PyOps notes that directly follow it. Without a known anchor nothing is cut.
 */
export function keepCount(stored: readonly UIMessage[], anchorId: string | undefined, isNote: (m: UIMessage) => boolean): number {
  if (!anchorId) return stored.length;
  const i = stored.findIndex((m) => m.id === anchorId);
  if (i < 0) return stored.length;
  let keep = i + 1;
  while (keep < stored.length && isNote(stored[keep])) keep++;
  return keep;
}
