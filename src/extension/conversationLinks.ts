// Conversation links — `vscode://pyops.pyops-vscode/conversation/<id>?project=<project id>&message=<id>` —
// written by "Copy Link" and read by the URI handler. Kept free of `vscode` so both directions are
// unit-tested; a link arrives from outside (a chat, a note, a browser), so its query is validated.
import { z } from 'zod';

export interface ConversationLink {
  conversationId: string;
  /** The project the conversation lives in; absent in links made before projects were named in them. */
  projectId?: string;
  messageId?: string;
}

const id = z.string().trim().min(1).max(200);
const querySchema = z.object({ project: id.optional(), message: id.optional() }).strict();

type LinkParse = { ok: true; link: ConversationLink } | { ok: false; error: string };

const EXAMPLE = 'vscode://pyops.pyops-vscode/conversation/<id>?project=<project id>&message=<message id>';

/** Read a link's path and query (as VS Code hands them to a URI handler: query not yet split). */
export function parseConversationLink(path: string, query: string): LinkParse {
  const m = /^\/conversation\/([^/]+)\/?$/.exec(path);
  if (!m) return { ok: false, error: `this link is not one PyOps understands (${path}). Links look like ${EXAMPLE}.` };
  let conversationId: string;
  try {
    conversationId = decodeURIComponent(m[1]);
  } catch {
    return { ok: false, error: 'the conversation id in this link is not valid URL encoding; copy the link again from the side panel.' };
  }
  const params = new URLSearchParams(query);
  const raw: Record<string, string> = {};
  for (const [k, v] of params) {
    if (k in raw) return { ok: false, error: `this link names "${k}" twice; copy the link again from the side panel.` };
    raw[k] = v;
  }
  const parsed = querySchema.safeParse(raw);
  if (!parsed.success || !id.safeParse(conversationId).success) {
    const issue = parsed.success ? 'the conversation id is empty or too long' : parsed.error.issues.map((i) => (i.code === 'unrecognized_keys' ? `unknown part ${i.keys.map((k) => `"${k}"`).join(', ')}` : `"${i.path.join('.')}" ${i.message}`)).join('; ');
    return { ok: false, error: `this link is damaged (${issue}). Copy the link again from the side panel; links look like ${EXAMPLE}.` };
  }
  return { ok: true, link: { conversationId, ...(parsed.data.project ? { projectId: parsed.data.project } : {}), ...(parsed.data.message ? { messageId: parsed.data.message } : {}) } };
}

/** The link's path and query, for `Uri.from({ scheme, authority, path, query })`. */
export function conversationLinkParts(link: ConversationLink): { path: string; query: string } {
  const q = new URLSearchParams();
  if (link.projectId) q.set('project', link.projectId);
  if (link.messageId) q.set('message', link.messageId);
  return { path: `/conversation/${encodeURIComponent(link.conversationId)}`, query: q.toString() };
}
