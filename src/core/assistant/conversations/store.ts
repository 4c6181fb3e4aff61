// Per-project conversations and their messages. Messages are AI SDK UI messages stored verbatim
// (parts JSON, metadata JSON, position `seq`), so a reload reproduces the transcript exactly.
// Ordinary turns *sync* (upsert by id at its index, drop rows past the new end — which is also how
// edit and retry truncate); compaction and branching *replace* the list. Conversation writes are
// saved durably but are not undoable: chat history is not factory state.
import crypto from 'node:crypto';
import type { UIMessage } from 'ai';
import type { Project } from '../../db/project';
import type { Database, SqlValue } from '../../db/sqlite';
import { all, scalar } from '../../db/sqlite';
import { REASONING_EFFORTS, type ReasoningEffort } from '../models/catalog';
import { redactDeep, redactSecrets } from '../models/redact';

export interface StoredUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
  /** Concrete model id that served the turn. */
  modelId: string | null;
}

export interface Conversation {
  id: string;
  title: string | null;
  /** Model override for this conversation (null: the host default). */
  model: string | null;
  /** low | medium | high, or null for the model's default ("Auto"). */
  reasoningEffort: ReasoningEffort | null;
  /** The last completed turn's last-step usage; null when unknown or stale. */
  lastUsage: StoredUsage | null;
  /** Cached compaction summary and the id of the first message it does not cover. */
  compactionSummary: string | null;
  compactionAnchor: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ConversationSummary extends Conversation {
  messageCount: number;
}

export class ConversationError extends Error {
  constructor(
    message: string,
    readonly code: 'not-found' | 'bad-message' | 'id-taken',
  ) {
    super(message);
    this.name = 'ConversationError';
  }
}

export const newId = (): string => crypto.randomUUID();
const nowIso = () => new Date().toISOString();

interface ConversationRow {
  id: string;
  title: string | null;
  model: string | null;
  reasoning_effort: string | null;
  last_input_tokens: number | null;
  last_output_tokens: number | null;
  last_total_tokens: number | null;
  last_model_id: string | null;
  compaction_summary: string | null;
  compaction_anchor: string | null;
  created_at: string;
  updated_at: string;
  message_count?: number;
}

const asEffort = (v: string | null): ReasoningEffort | null => ((REASONING_EFFORTS as readonly string[]).includes(v ?? '') ? (v as ReasoningEffort) : null);

function fromRow(r: ConversationRow): Conversation {
  const hasUsage = r.last_input_tokens !== null || r.last_output_tokens !== null || r.last_total_tokens !== null;
  return {
    id: r.id,
    title: r.title,
    model: r.model,
    reasoningEffort: asEffort(r.reasoning_effort),
    lastUsage: hasUsage ? { inputTokens: r.last_input_tokens, outputTokens: r.last_output_tokens, totalTokens: r.last_total_tokens, modelId: r.last_model_id } : null,
    compactionSummary: r.compaction_summary,
    compactionAnchor: r.compaction_anchor,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

// Read-only projects opened before schema v2 have no metadata column.
const metadataColumn = new WeakMap<Project, boolean>();
function hasMetadata(p: Project): boolean {
  let v = metadataColumn.get(p);
  if (v === undefined) {
    v = p.query<{ name: string }>('PRAGMA main.table_info(conversation_messages)').some((c) => c.name === 'metadata');
    metadataColumn.set(p, v);
  }
  return v;
}

export function listConversations(p: Project): ConversationSummary[] {
  const rows = p.query<ConversationRow>(
    `SELECT c.*, (SELECT count(*) FROM main.conversation_messages m WHERE m.conversation_id = c.id) AS message_count
     FROM main.conversations c ORDER BY c.updated_at DESC, c.created_at DESC`,
  );
  return rows.map((r) => ({ ...fromRow(r), messageCount: Number(r.message_count ?? 0) }));
}

export function getConversation(p: Project, id: string): Conversation | undefined {
  const r = p.query<ConversationRow>('SELECT * FROM main.conversations WHERE id = ?', [id])[0];
  return r ? fromRow(r) : undefined;
}

function requireConversation(p: Project, id: string): Conversation {
  const c = getConversation(p, id);
  if (!c) throw new ConversationError(`No conversation with id "${id}" in this project.`, 'not-found');
  return c;
}

export interface NewConversation {
  id?: string;
  title?: string | null;
  model?: string | null;
  reasoningEffort?: ReasoningEffort | null;
}

export function createConversation(p: Project, init: NewConversation = {}): Conversation {
  const id = init.id ?? newId();
  const t = nowIso();
  p.write((db) => {
    if (scalar(db, 'SELECT 1 FROM main.conversations WHERE id = ?', [id])) throw new ConversationError(`A conversation with id "${id}" already exists.`, 'id-taken');
    db.run('INSERT INTO main.conversations(id, title, model, reasoning_effort, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      init.title ? redactSecrets(init.title) : null,
      init.model ?? null,
      init.reasoningEffort ?? null,
      t,
      t,
    ]);
  });
  return requireConversation(p, id);
}

export interface ConversationPatch {
  title?: string | null;
  model?: string | null;
  reasoningEffort?: ReasoningEffort | null;
  compactionSummary?: string | null;
  compactionAnchor?: string | null;
}

const PATCH_COLUMNS: Record<keyof ConversationPatch, string> = {
  title: 'title',
  model: 'model',
  reasoningEffort: 'reasoning_effort',
  compactionSummary: 'compaction_summary',
  compactionAnchor: 'compaction_anchor',
};

export function updateConversation(p: Project, id: string, patch: ConversationPatch): Conversation {
  requireConversation(p, id);
  const sets: string[] = [];
  const params: SqlValue[] = [];
  for (const [k, col] of Object.entries(PATCH_COLUMNS) as Array<[keyof ConversationPatch, string]>) {
    if (!(k in patch)) continue;
    let v = patch[k] ?? null;
    if (k === 'reasoningEffort' && v !== null && !(REASONING_EFFORTS as readonly string[]).includes(v)) {
      throw new ConversationError(`Reasoning effort must be low, medium, high or null (Auto), not "${v}".`, 'bad-message');
    }
    if (typeof v === 'string' && (k === 'title' || k === 'model')) v = v.trim() || null;
    // A title or summary may come from a model, which may have repeated the key.
    if (typeof v === 'string' && (k === 'title' || k === 'compactionSummary')) v = redactSecrets(v);
    sets.push(`${col} = ?`);
    params.push(v);
  }
  p.write((db) => {
    db.run(`UPDATE main.conversations SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE id = ?`, [...params, nowIso(), id]);
  });
  return requireConversation(p, id);
}

/** Store the last completed turn's last-step usage and concrete model id (null clears it). */
export function recordUsage(p: Project, id: string, usage: StoredUsage | null): void {
  p.write((db) => writeUsage(db, id, usage));
}

function writeUsage(db: Database, id: string, usage: StoredUsage | null): void {
  const total = usage ? (usage.totalTokens ?? (usage.inputTokens === null && usage.outputTokens === null ? null : (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0))) : null;
  db.run('UPDATE main.conversations SET last_input_tokens = ?, last_output_tokens = ?, last_total_tokens = ?, last_model_id = ?, updated_at = ? WHERE id = ?', [
    usage?.inputTokens ?? null,
    usage?.outputTokens ?? null,
    total,
    usage?.modelId ?? null,
    nowIso(),
    id,
  ]);
}

/** Permanently delete a conversation and all its messages (not undoable). */
export function deleteConversation(p: Project, id: string): boolean {
  if (!getConversation(p, id)) return false;
  p.write((db) => {
    db.run('DELETE FROM main.conversation_messages WHERE conversation_id = ?', [id]);
    db.run('DELETE FROM main.conversations WHERE id = ?', [id]);
  });
  return true;
}

interface MessageRow {
  id: string;
  role: string;
  parts: string;
  seq: number;
  created_at: string;
  metadata?: string | null;
}

function parseMessage(r: MessageRow): UIMessage {
  let parts: UIMessage['parts'];
  try {
    const v = JSON.parse(r.parts);
    parts = Array.isArray(v) ? v : [];
  } catch {
    // A damaged row still shows up, with its raw text, instead of hiding the whole conversation.
    parts = [{ type: 'text', text: r.parts }];
  }
  const m: UIMessage = { id: r.id, role: r.role as UIMessage['role'], parts };
  if (r.metadata) {
    try {
      m.metadata = JSON.parse(r.metadata);
    } catch {
      // metadata is cosmetic
    }
  }
  return m;
}

export function loadMessages(p: Project, conversationId: string): UIMessage[] {
  const cols = hasMetadata(p) ? 'id, role, parts, seq, created_at, metadata' : 'id, role, parts, seq, created_at';
  return p.query<MessageRow>(`SELECT ${cols} FROM main.conversation_messages WHERE conversation_id = ? ORDER BY seq`, [conversationId]).map(parseMessage);
}

function checkMessage(m: UIMessage): void {
  if (!m || typeof m.id !== 'string' || !m.id) throw new ConversationError('A message needs a non-empty id.', 'bad-message');
  if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system') throw new ConversationError(`Message ${m.id} has an unknown role "${String(m.role)}".`, 'bad-message');
  if (!Array.isArray(m.parts)) throw new ConversationError(`Message ${m.id} has no parts list.`, 'bad-message');
}

// Stored text never carries a secret: a provider may have echoed the key into an error part. The
// values are redacted, not the JSON text, so a redaction can never break the JSON around it.
const metaJson = (m: UIMessage) => (m.metadata === undefined ? null : JSON.stringify(redactDeep(m.metadata)));
const partsJson = (m: UIMessage) => JSON.stringify(redactDeep(m.parts));

function insertMessage(db: Database, conversationId: string, m: UIMessage, seq: number, withMeta: boolean, createdAt = nowIso()): void {
  const owner = scalar<string>(db, 'SELECT conversation_id FROM main.conversation_messages WHERE id = ?', [m.id]);
  if (owner !== undefined) throw new ConversationError(`Message id "${m.id}" is already used${owner === conversationId ? '' : ' by another conversation'}; give the message a fresh id.`, 'id-taken');
  if (withMeta) {
    db.run('INSERT INTO main.conversation_messages(id, conversation_id, role, parts, seq, created_at, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      m.id,
      conversationId,
      m.role,
      partsJson(m),
      seq,
      createdAt,
      metaJson(m),
    ]);
  } else {
    db.run('INSERT INTO main.conversation_messages(id, conversation_id, role, parts, seq, created_at) VALUES (?, ?, ?, ?, ?, ?)', [m.id, conversationId, m.role, partsJson(m), seq, createdAt]);
  }
}

function touch(db: Database, id: string): void {
  db.run('UPDATE main.conversations SET updated_at = ? WHERE id = ?', [nowIso(), id]);
}

export function appendMessage(p: Project, conversationId: string, message: UIMessage): void {
  checkMessage(message);
  requireConversation(p, conversationId);
  const withMeta = hasMetadata(p);
  p.write((db) => {
    const seq = Number(scalar(db, 'SELECT coalesce(max(seq), -1) + 1 FROM main.conversation_messages WHERE conversation_id = ?', [conversationId]));
    insertMessage(db, conversationId, message, seq, withMeta);
    touch(db, conversationId);
  });
}

export interface SyncResult {
  inserted: number;
  updated: number;
  deleted: number;
}

/**
 * Make the stored list equal `messages`: rows whose id sits at the same index are updated in
 * place (only when changed), everything else is inserted, and rows past the new end or whose
 * message moved are deleted. Editing or retrying is a sync with a shorter list.
 */
export function syncMessages(p: Project, conversationId: string, messages: readonly UIMessage[], opts: { usage?: StoredUsage | null } = {}): SyncResult {
  messages.forEach(checkMessage);
  const ids = new Set<string>();
  for (const m of messages) {
    if (ids.has(m.id)) throw new ConversationError(`Message id "${m.id}" appears twice in the list.`, 'bad-message');
    ids.add(m.id);
  }
  requireConversation(p, conversationId);
  const withMeta = hasMetadata(p);
  const out: SyncResult = { inserted: 0, updated: 0, deleted: 0 };
  p.write((db) => {
    const rows = all<MessageRow>(db, `SELECT id, role, parts, seq, created_at${withMeta ? ', metadata' : ''} FROM main.conversation_messages WHERE conversation_id = ?`, [conversationId]);
    const wanted = new Map(messages.map((m, i) => [m.id, i]));
    const kept = new Map<string, MessageRow>();
    for (const r of rows) {
      if (wanted.get(r.id) === r.seq) kept.set(r.id, r);
      else {
        db.run('DELETE FROM main.conversation_messages WHERE id = ?', [r.id]);
        out.deleted++;
      }
    }
    messages.forEach((m, i) => {
      const r = kept.get(m.id);
      if (!r) {
        insertMessage(db, conversationId, m, i, withMeta);
        out.inserted++;
        return;
      }
      const parts = partsJson(m);
      const meta = metaJson(m);
      if (r.role === m.role && r.parts === parts && (!withMeta || (r.metadata ?? null) === meta)) return;
      if (withMeta) db.run('UPDATE main.conversation_messages SET role = ?, parts = ?, metadata = ? WHERE id = ?', [m.role, parts, meta, m.id]);
      else db.run('UPDATE main.conversation_messages SET role = ?, parts = ? WHERE id = ?', [m.role, parts, m.id]);
      out.updated++;
    });
    if (opts.usage !== undefined) writeUsage(db, conversationId, opts.usage);
    else touch(db, conversationId);
  });
  return out;
}

/** Replace the whole list (compaction, branching). */
export function replaceMessages(p: Project, conversationId: string, messages: readonly UIMessage[]): void {
  messages.forEach(checkMessage);
  requireConversation(p, conversationId);
  const withMeta = hasMetadata(p);
  p.write((db) => {
    db.run('DELETE FROM main.conversation_messages WHERE conversation_id = ?', [conversationId]);
    messages.forEach((m, i) => insertMessage(db, conversationId, m, i, withMeta));
    touch(db, conversationId);
  });
}

/**
 * Drop a message and everything after it; returns what remains. The stored token measurement
 * described the longer transcript, so it is cleared.
 */
export function truncateFrom(p: Project, conversationId: string, messageId: string): UIMessage[] {
  const messages = loadMessages(p, conversationId);
  const i = messages.findIndex((m) => m.id === messageId);
  if (i < 0) throw new ConversationError(`Message "${messageId}" is not in conversation "${conversationId}".`, 'not-found');
  const kept = messages.slice(0, i);
  syncMessages(p, conversationId, kept, { usage: null });
  return kept;
}

/** Keep only the first `count` messages (a host history shorter than the stored one). */
export function truncateToCount(p: Project, conversationId: string, count: number): UIMessage[] {
  const messages = loadMessages(p, conversationId);
  if (count >= messages.length) return messages;
  const kept = messages.slice(0, Math.max(0, count));
  syncMessages(p, conversationId, kept, { usage: null });
  return kept;
}

/**
 * Copy a conversation's messages up to and including `throughMessageId` (all when omitted) into
 * a new conversation with fresh message ids and the same model and reasoning settings.
 */
export function branchConversation(p: Project, sourceId: string, throughMessageId?: string): { conversation: Conversation; messages: UIMessage[] } {
  const src = requireConversation(p, sourceId);
  const messages = loadMessages(p, sourceId);
  let end = messages.length;
  if (throughMessageId !== undefined) {
    const i = messages.findIndex((m) => m.id === throughMessageId);
    if (i < 0) throw new ConversationError(`Message "${throughMessageId}" is not in conversation "${sourceId}".`, 'not-found');
    end = i + 1;
  }
  const idMap = new Map<string, string>();
  const copied = messages.slice(0, end).map((m) => {
    const id = m.role === 'system' && m.id.startsWith('compaction-') ? `compaction-${newId()}` : newId();
    idMap.set(m.id, id);
    return { ...structuredClone(m), id };
  });
  const anchor = src.compactionAnchor ? idMap.get(src.compactionAnchor) : undefined;
  let created!: Conversation;
  p.write(() => {
    created = createConversation(p, { title: src.title ? `${src.title} (branch)` : null, model: src.model, reasoningEffort: src.reasoningEffort });
    replaceMessages(p, created.id, copied);
    if (anchor) updateConversation(p, created.id, { compactionSummary: src.compactionSummary, compactionAnchor: anchor });
  });
  return { conversation: requireConversation(p, created.id), messages: copied };
}

/**
 * Put one message into the stored list without disturbing anything else: replace it by id, or
 * insert it right after `afterId` (the user message it answers), else append. Used to save an
 * assistant message at the end of a turn or on stop, even if another turn changed the list
 * meanwhile. The common cases touch one row.
 */
export function upsertMessage(p: Project, conversationId: string, message: UIMessage, opts: { afterId?: string; usage?: StoredUsage | null } = {}): void {
  checkMessage(message);
  requireConversation(p, conversationId);
  const withMeta = hasMetadata(p);
  p.write((db) => {
    const finish = () => (opts.usage !== undefined ? writeUsage(db, conversationId, opts.usage) : touch(db, conversationId));
    const existing = all<{ conversation_id: string }>(db, 'SELECT conversation_id FROM main.conversation_messages WHERE id = ?', [message.id])[0];
    if (existing && existing.conversation_id === conversationId) {
      // Same place, new content (a partial answer saved on stop, then the final one).
      if (withMeta) db.run('UPDATE main.conversation_messages SET role = ?, parts = ?, metadata = ? WHERE id = ?', [message.role, partsJson(message), metaJson(message), message.id]);
      else db.run('UPDATE main.conversation_messages SET role = ?, parts = ? WHERE id = ?', [message.role, partsJson(message), message.id]);
      return finish();
    }
    const maxSeq = Number(scalar(db, 'SELECT coalesce(max(seq), -1) FROM main.conversation_messages WHERE conversation_id = ?', [conversationId]));
    const afterSeq = opts.afterId ? scalar<number>(db, 'SELECT seq FROM main.conversation_messages WHERE id = ? AND conversation_id = ?', [opts.afterId, conversationId]) : undefined;
    if (afterSeq === undefined || afterSeq === maxSeq) {
      // The usual case: the answer goes at the end.
      insertMessage(db, conversationId, message, maxSeq + 1, withMeta);
      return finish();
    }
    // Another turn added messages meanwhile: insert right after the message this one answers.
    const list = loadMessages(p, conversationId);
    list.splice(list.findIndex((m) => m.id === opts.afterId) + 1, 0, message);
    syncMessages(p, conversationId, list, { usage: opts.usage });
  });
}
