// Secrets out of everything we show, log or store. Providers echo what they received (a 401 body
// quoting the Authorization header, a gateway's stream error), and a model may repeat a key it was
// shown — split over many stream deltas, upper-cased, or cut off by a title or a progress line. So
// every exit goes through here: the keys this process was configured with, by value and without
// regard to case, including any run of FRAGMENT or more of their characters (a clipped key is still
// most of a key), plus anything shaped like an OpenRouter/OpenAI key or a bearer token.
//
// `redactSecrets` is for whole texts; `StreamRedactor` for text that arrives in pieces: it holds
// back a carry-over window longer than the longest key (and any unfinished key-shaped token), so a
// key split across deltas is redacted as a whole before any of it is passed on.

const REDACTED = '[redacted]';

/** Too short to be a key: replacing it by value would mangle ordinary words. */
const MIN_SECRET_LENGTH = 8;
/** A run of this many characters of a known secret is redacted on its own (a key cut short). */
const FRAGMENT = 12;
/** A stream holds back at most this much for an unfinished key-shaped token of unknown length. */
const MAX_TOKEN_HOLD = 2048;

interface Secret {
  length: number;
  /** Lower-cased substrings of `gram` characters (the whole secret when it is shorter than FRAGMENT). */
  gram: number;
  grams: Set<string>;
  /** The lower-cased characters it is made of: only a run of these can hold a piece of it. */
  chars: Set<number>;
}

const known = new Map<string, Secret>();

function secretOf(value: string): Secret {
  const lower = lowerAscii(value);
  const gram = Math.min(FRAGMENT, lower.length);
  const grams = new Set<string>();
  for (let i = 0; i + gram <= lower.length; i++) grams.add(lower.slice(i, i + gram));
  const chars = new Set<number>();
  for (let i = 0; i < lower.length; i++) chars.add(lower.charCodeAt(i));
  return { length: value.length, gram, grams, chars };
}

/** Register a secret this process uses (the configured API key), so it is redacted by value. */
export function rememberSecret(value: string | null | undefined): void {
  const v = value?.trim();
  if (v && v.length >= MIN_SECRET_LENGTH && !known.has(v)) known.set(v, secretOf(v));
}

/** For tests: forget the remembered secrets. */
export function forgetSecrets(): void {
  known.clear();
}

// Case is folded for ASCII letters only, so every index in the folded text is the same in the original.
const lowerAscii = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

// The token after `Bearer ` in headers quoted back; `sk-or-v1-…` (OpenRouter), `sk-…`/`sk-proj-…` (OpenAI-style).
const BEARER_RE = /(?<=\bBearer\s+)[A-Za-z0-9._~+/=-]{16,}/gi;
const KEY_RE = /\bsk-(?:or-|proj-|ant-)?[A-Za-z0-9_-]{8,}/gi;
/** Text without either can hold neither shape (one quick test instead of two scans). */
const SHAPE_HINT = /sk-|bearer/i;
/** Characters a key-shaped token is made of. */
const TOKEN_CHAR = /[A-Za-z0-9._~+/=-]/;

type Span = [start: number, end: number];

function secretsFor(extra: Iterable<string | null | undefined>): Secret[] {
  const list = [...known.values()];
  for (const s of extra) {
    const v = s?.trim();
    if (v && v.length >= MIN_SECRET_LENGTH && !known.has(v)) list.push(secretOf(v));
  }
  return list;
}

/** Where `text` holds something to redact, merged and in order. */
function spans(text: string, secrets: readonly Secret[]): Span[] {
  const found: Span[] = [];
  if (secrets.length) {
    const lower = lowerAscii(text);
    for (const s of secrets) {
      // Only runs of the secret's own characters can hold a piece of it: one pass finds them, and
      // just those are looked up (ordinary prose has almost none as long as a piece).
      for (let start = 0, i = 0; i <= lower.length; i++) {
        if (i < lower.length && s.chars.has(lower.charCodeAt(i))) continue;
        for (let j = start; j + s.gram <= i; j++) if (s.grams.has(lower.slice(j, j + s.gram))) found.push([j, j + s.gram]);
        start = i + 1;
      }
    }
  }
  if (SHAPE_HINT.test(text)) for (const re of [BEARER_RE, KEY_RE]) for (const m of text.matchAll(re)) found.push([m.index, m.index + m[0].length]);
  if (found.length < 2) return found;
  found.sort((a, b) => a[0] - b[0]);
  const merged: Span[] = [found[0]];
  for (const [s, e] of found.slice(1)) {
    const last = merged[merged.length - 1];
    if (s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

function replace(text: string, found: readonly Span[]): string {
  if (!found.length) return text;
  let out = '';
  let at = 0;
  for (const [s, e] of found) {
    out += text.slice(at, s) + REDACTED;
    at = e;
  }
  return out + text.slice(at);
}

/** `text` without the remembered secrets (and `extra`), in any case or cut short, or anything key-shaped. */
export function redactSecrets(text: string, extra: Iterable<string | null | undefined> = []): string {
  return replace(text, spans(text, secretsFor(extra)));
}

const isPlainObject = (v: object) => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * A JSON value with every string (and key) redacted: message parts, tool input before it runs,
 * `--json` output. Returns `value` itself when nothing needed redacting.
 */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redactDeep(v);
      changed ||= r !== v;
      return r;
    });
    return (changed ? out : value) as T;
  }
  if (value && typeof value === 'object' && isPlainObject(value)) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const rk = redactSecrets(k);
      const rv = redactDeep(v);
      changed ||= rk !== k || rv !== v;
      out[rk] = rv;
    }
    return (changed ? out : value) as T;
  }
  return value;
}

/**
 * Redaction for text that arrives in pieces (a model's stream deltas). `push` returns what is safe
 * to pass on now; `flush` the rest when the text ends. Held back: the last characters that could
 * still be the start of a remembered secret (a window as long as the longest one), an unfinished
 * key-shaped token, and anything a match would straddle.
 */
export class StreamRedactor {
  private carry = '';

  push(delta: string): string {
    if (!delta) return '';
    const raw = this.carry + delta;
    const cut = safeCut(raw);
    this.carry = raw.slice(cut);
    return cut ? redactSecrets(raw.slice(0, cut)) : '';
  }

  flush(): string {
    const rest = this.carry;
    this.carry = '';
    return rest ? redactSecrets(rest) : '';
  }

  /** Characters held back right now. */
  get held(): number {
    return this.carry.length;
  }
}

/** How much of `raw` can be redacted and passed on without cutting through a possible secret. */
function safeCut(raw: string): number {
  const secrets = secretsFor([]);
  const window = secrets.reduce((n, s) => Math.max(n, s.length), 0);
  let cut = raw.length - window;
  if (cut <= 0) return 0;
  // An unfinished token at the cut may be a key-shaped secret of unknown length: hold it whole,
  // together with a `Bearer` in front of it — unless it is already too long to be a key.
  let t = cut;
  while (t > 0 && TOKEN_CHAR.test(raw[t - 1]) && (t === raw.length || TOKEN_CHAR.test(raw[t]))) t--;
  if (raw.length - t <= MAX_TOKEN_HOLD) {
    cut = t;
    const bearer = /\bBearer\s+$/i.exec(raw.slice(Math.max(0, cut - 64), cut));
    if (bearer) cut -= bearer[0].length;
  }
  // Never between the two ends of a match: the part before would be redacted without its rest.
  const found = spans(raw, secrets);
  for (let moved = true; moved && cut > 0; ) {
    moved = false;
    for (const [s, e] of found) {
      if (s < cut && cut < e) {
        cut = s;
        moved = true;
      }
    }
  }
  return cut;
}
