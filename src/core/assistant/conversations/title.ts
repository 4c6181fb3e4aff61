// Conversation titles. A new conversation is named from its first user text at once; after the
// first completed exchange the conversation's own model proposes a short title (low reasoning,
// reasoning excluded from the reply). A generated title only replaces an automatic one — never a
// title the user typed — and failures are silent: a title is a convenience.
import { generateText, type UIMessage } from 'ai';
import type { TurnModel } from '../models/resolve';
import { reasoningOptions } from '../models/openrouter';
import { redactSecrets } from '../models/redact';

export const NEW_CHAT = 'New chat';

export function messageText(m: UIMessage | undefined): string {
  if (!m) return '';
  return m.parts
    .filter((p): p is { type: 'text'; text: string } => p.type === 'text')
    .map((p) => p.text)
    .join('\n')
    .trim();
}

/**
 * The user's own words of a stored user message. A host's slash command (VS Code's `/block`, `/plan`…)
 * stores its instruction for the agent in front of them as one paragraph, `/<command>: <instruction>`,
 * then a blank line; a title must not be made of that framing.
 */
export function userWords(text: string): string {
  const framed = /^\/[a-z][a-z-]*: [^\n]*\n\n(?=\S)/.exec(text);
  return framed ? text.slice(framed[0].length) : text;
}

/**
 * First user text (without a slash command's framing), ≤ 60 characters (57 + "…" when longer), else
 * "New chat". Secrets are taken out before the cut, which would leave most of a key behind.
 */
export function deriveTitle(text: string | undefined): string {
  const t = redactSecrets(userWords(text ?? '')).replace(/\s+/g, ' ').trim();
  if (!t) return NEW_CHAT;
  return t.length <= 60 ? t : `${t.slice(0, 57).trimEnd()}…`;
}

/** True while the title is still automatic (unset, "New chat", or derived from the first user text). */
export function isAutomaticTitle(title: string | null, messages: readonly UIMessage[]): boolean {
  if (!title || title === NEW_CHAT) return true;
  const first = messages.find((m) => m.role === 'user');
  return title === deriveTitle(messageText(first));
}

/** Strip quotes/backticks, collapse spaces, trim trailing dots, cap at 70 characters — secrets out first. */
export function cleanTitle(raw: string): string {
  let t = redactSecrets(raw).split('\n').find((l) => l.trim()) ?? '';
  t = t.replace(/^\s*(title\s*:\s*)/i, '').replace(/[`"\u201c\u201d\u2018\u2019*#]/g, '').replace(/^'+|'+$/g, '');
  t = t.replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
  if (t.length > 70) t = `${t.slice(0, 69).trimEnd()}…`;
  return t;
}

export interface TitleRequest {
  model: TurnModel;
  userText: string;
  assistantText: string;
  signal?: AbortSignal;
}

/** A short title from the first exchange, or undefined on any failure. */
export async function generateTitle(req: TitleRequest): Promise<string | undefined> {
  const clip = (s: string) => (s.length > 600 ? s.slice(0, 600) : s);
  try {
    const r = await generateText({
      model: req.model.model,
      instructions: 'You name chat conversations. Reply with a title of at most 6 words, plain text: no quotes, no punctuation at the end, no markdown.',
      prompt: `User:\n${clip(userWords(req.userText))}\n\nAssistant:\n${clip(req.assistantText)}\n\nTitle:`,
      maxOutputTokens: 512,
      maxRetries: 1,
      abortSignal: req.signal,
      providerOptions: reasoningOptions('low', req.model.info.supportsReasoning, true) as any,
    });
    const t = cleanTitle(r.text);
    return t || undefined;
  } catch {
    return undefined;
  }
}
