// Secrets out of everything we show, log or store. Providers echo what they received (a 401 body
// quoting the Authorization header, a gateway's stream error), so any text that came from a
// provider may carry the key. Every exit — model errors, CLI output, `--json`, stored messages —
// goes through `redactSecrets`: the keys this process was configured with, by value, plus
// anything shaped like an OpenRouter/OpenAI key or a bearer token.

const REDACTED = '[redacted]';

/** Too short to be a key: replacing it by value would mangle ordinary words. */
const MIN_SECRET_LENGTH = 8;

const known = new Set<string>();

/** Register a secret this process uses (the configured API key), so it is redacted by value. */
export function rememberSecret(value: string | null | undefined): void {
  const v = value?.trim();
  if (v && v.length >= MIN_SECRET_LENGTH) known.add(v);
}

// `Bearer <token>` in headers quoted back; `sk-or-v1-…` (OpenRouter), `sk-…`/`sk-proj-…` (OpenAI-style).
const BEARER_RE = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{16,}/gi;
const KEY_RE = /\bsk-(?:or-|proj-|ant-)?[A-Za-z0-9_-]{8,}/g;

/** `text` without the remembered secrets (and `extra`) or anything key-shaped. */
export function redactSecrets(text: string, extra: Iterable<string | null | undefined> = []): string {
  let out = text;
  for (const s of [...known, ...extra]) {
    const v = s?.trim();
    if (v && v.length >= MIN_SECRET_LENGTH && out.includes(v)) out = out.split(v).join(REDACTED);
  }
  return out.replace(BEARER_RE, `$1 ${REDACTED}`).replace(KEY_RE, REDACTED);
}

/** A JSON value with every string redacted (message parts, `--json` output). */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}

/** For tests: forget the remembered secrets. */
export function forgetSecrets(): void {
  known.clear();
}
