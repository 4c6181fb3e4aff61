// Model failures in words a user can act on. The AI SDK surfaces HTTP failures as APICallError
// (401, 402, 400 "context too long", 5xx), rate limits as a RetryError around the last
// APICallError, errors inside the SSE stream as a provider stream error, and a cut connection as
// an APICallError about the response or a fetch/socket error.
import { redactSecrets } from './redact';

export type FailureKind = 'no-key' | 'auth' | 'credits' | 'rate-limit' | 'server' | 'network' | 'context-length' | 'bad-request' | 'unknown';

export interface ModelFailure {
  kind: FailureKind;
  status?: number;
  /** What happened and what to do, for the user. */
  message: string;
  /** The provider's own message, redacted (providers do echo keys: see redact.ts). */
  detail: string;
}

export class NoApiKeyError extends Error {
  constructor(hint: string) {
    super(`No OpenRouter API key is set. ${hint}`);
    this.name = 'NoApiKeyError';
  }
}

/** Where a user can put a key; hosts pass their own wording (a command name, a CLI flag). */
export const DEFAULT_KEY_HINT = 'Set the OPENROUTER_API_KEY environment variable, or store a key in PyOps.';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EAI_AGAIN', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'ABORT_ERR']);
const CONTEXT_RE = /context[ _-]?(length|window)|maximum context|too many tokens|prompt is too long|input is too long|context_length_exceeded|reduce the length/i;

interface ErrLike {
  name?: string;
  message?: string;
  statusCode?: number;
  lastError?: unknown;
  cause?: unknown;
  code?: string;
  responseBody?: string;
}

function chain(err: unknown): ErrLike[] {
  const out: ErrLike[] = [];
  let e: unknown = err;
  for (let i = 0; i < 6 && e && typeof e === 'object'; i++) {
    out.push(e as ErrLike);
    const x = e as ErrLike;
    e = x.lastError ?? x.cause;
  }
  return out;
}

export function isContextLengthError(err: unknown): boolean {
  return chain(err).some((e) => CONTEXT_RE.test(e.message ?? '') || CONTEXT_RE.test(e.responseBody ?? ''));
}

/** The failure in words a user can act on, with every secret redacted (this is where provider text leaves). */
export function describeModelError(err: unknown, keyHint = DEFAULT_KEY_HINT): ModelFailure {
  const f = classify(err, keyHint);
  return { ...f, message: redactSecrets(f.message), detail: redactSecrets(f.detail) };
}

function classify(err: unknown, keyHint: string): ModelFailure {
  if (err instanceof NoApiKeyError) return { kind: 'no-key', message: err.message, detail: err.message };
  const links = chain(err);
  const top = links[0] ?? {};
  const api = links.find((e) => typeof e.statusCode === 'number');
  const status = api?.statusCode;
  // Redacted before it is cut short: a clipped key is still most of a key.
  const detail = redactSecrets((api?.message ?? top.message ?? String(err)).trim());
  const short = detail.length > 300 ? detail.slice(0, 297) + '…' : detail;
  if (isContextLengthError(err)) {
    return { kind: 'context-length', status, detail, message: `The conversation no longer fits the model's context window (${short}). Compact the conversation or start a new one, then retry.` };
  }
  if (status === 401 || status === 403) {
    return { kind: 'auth', status, detail, message: `OpenRouter rejected the API key (${status}: ${short}). Check that the key is correct and not revoked. ${keyHint}` };
  }
  if (status === 402) {
    return { kind: 'credits', status, detail, message: `Your OpenRouter account has no credit left (402). Add credit at https://openrouter.ai/settings/credits or choose a cheaper model, then retry.` };
  }
  if (status === 429) {
    return { kind: 'rate-limit', status, detail, message: `Rate limited by OpenRouter or the model's provider (429). Wait a minute and retry, or choose another model.` };
  }
  const network = links.some((e) => (e.code && NETWORK_CODES.has(e.code)) || /fetch failed|terminated|socket|network|ECONNRESET|other side closed|Failed to process successful response/i.test(e.message ?? ''));
  if (network && (status === undefined || status === 200)) {
    return { kind: 'network', status, detail, message: `The connection to the model was lost (${short}). Check your network and retry; your message and any partial answer were saved.` };
  }
  if ((status !== undefined && status >= 500) || top.name === 'AI_StreamProviderError') {
    return { kind: 'server', status, detail, message: `The model's provider failed (${status ?? 'stream error'}: ${short}). Retry; if it keeps failing, choose another model.` };
  }
  if (status !== undefined && status >= 400) {
    return { kind: 'bad-request', status, detail, message: `OpenRouter refused the request (${status}: ${short}). Check the model id and settings, then retry.` };
  }
  return { kind: 'unknown', status, detail, message: `The model call failed: ${short}. Retry; if it keeps failing, choose another model.` };
}
