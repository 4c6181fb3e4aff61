// The OpenRouter model catalogue (GET {baseURL}/models): context windows, reasoning support and
// efforts, and `~family-latest` alias resolution. Fetched at most every 6 hours (memory, plus an
// optional cache file for short-lived processes such as the CLI), parsed loosely, and never
// throws — offline, a small built-in table answers instead.
import fs from 'node:fs';
import path from 'node:path';

export const DEFAULT_OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';
export const CATALOG_TTL_MS = 6 * 60 * 60 * 1000;
export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const REASONING_EFFORTS = ['low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export interface CatalogModel {
  id: string;
  name: string;
  /** Unix seconds; orders alias candidates. */
  created: number;
  contextWindow: number;
  supportsReasoning: boolean;
  /** Efforts the model accepts (all three when it supports reasoning but lists none). */
  efforts: ReasoningEffort[];
  supportsTools: boolean;
}

export interface ModelInfo {
  /** The id as requested (may be an alias). */
  requestedId: string;
  /** Concrete id the alias resolved to, or the requested id. */
  id: string;
  contextWindow: number;
  /** Whether reasoning options may be sent; false when unknown. */
  supportsReasoning: boolean;
  /** Efforts to offer in a picker: catalogue levels, or all three when unknown. */
  efforts: ReasoningEffort[];
  source: 'catalog' | 'offline';
}

/** A model in the picker. */
export interface PickerEntry {
  id: string;
  label: string;
}

/** Curated picker entries (aliases first, a few concrete ids, the router, then "custom"). */
export const CURATED_MODELS: PickerEntry[] = [
  { id: '~anthropic/claude-sonnet-latest', label: 'Claude Sonnet (latest)' },
  { id: '~anthropic/claude-opus-latest', label: 'Claude Opus (latest)' },
  { id: '~google/gemini-flash-latest', label: 'Gemini Flash (latest)' },
  { id: '~moonshotai/kimi-latest', label: 'Kimi (latest)' },
  { id: '~openai/gpt-latest', label: 'GPT (latest)' },
  { id: '~openai/gpt-mini-latest', label: 'GPT mini (latest)' },
  { id: 'anthropic/claude-sonnet-4.5', label: 'Claude Sonnet 4.5' },
  { id: 'google/gemini-2.5-pro', label: 'Gemini 2.5 Pro' },
  { id: 'openrouter/auto', label: 'OpenRouter Auto' },
];

interface OfflineEntry {
  id: string;
  contextWindow: number;
  supportsReasoning: boolean;
}

/** Used when the catalogue cannot be fetched. Aliases also match concrete ids that contain all their tokens. */
export const OFFLINE_MODELS: OfflineEntry[] = [
  { id: '~anthropic/claude-sonnet-latest', contextWindow: 1_000_000, supportsReasoning: true },
  { id: '~anthropic/claude-opus-latest', contextWindow: 1_000_000, supportsReasoning: true },
  { id: '~anthropic/claude-haiku-latest', contextWindow: 1_000_000, supportsReasoning: true },
  { id: '~google/gemini-flash-latest', contextWindow: 1_048_576, supportsReasoning: true },
  { id: '~google/gemini-pro-latest', contextWindow: 1_048_576, supportsReasoning: true },
  { id: '~moonshotai/kimi-latest', contextWindow: 262_144, supportsReasoning: true },
  { id: '~openai/gpt-mini-latest', contextWindow: 400_000, supportsReasoning: true },
  { id: '~openai/gpt-latest', contextWindow: 400_000, supportsReasoning: true },
];

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const posInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined);

/** One `/models` entry → CatalogModel, or undefined if it has no id. Every field is optional. */
export function parseCatalogEntry(raw: unknown): CatalogModel | undefined {
  if (!isObj(raw) || typeof raw.id !== 'string' || !raw.id) return undefined;
  const top = isObj(raw.top_provider) ? raw.top_provider : {};
  const params = Array.isArray(raw.supported_parameters) ? raw.supported_parameters.filter((p): p is string => typeof p === 'string') : [];
  const supportsReasoning = params.includes('reasoning') || params.includes('reasoning_effort');
  const listed = isObj(raw.reasoning) && Array.isArray(raw.reasoning.supported_efforts) ? raw.reasoning.supported_efforts : [];
  const efforts = REASONING_EFFORTS.filter((e) => listed.includes(e));
  return {
    id: raw.id,
    name: typeof raw.name === 'string' ? raw.name : raw.id,
    created: typeof raw.created === 'number' ? raw.created : 0,
    contextWindow: posInt(top.context_length) ?? posInt(raw.context_length) ?? DEFAULT_CONTEXT_WINDOW,
    supportsReasoning,
    efforts: supportsReasoning ? (efforts.length ? efforts : [...REASONING_EFFORTS]) : [],
    supportsTools: params.includes('tools'),
  };
}

/** Parse a `/models` response body; duplicates keep the first entry. */
export function parseCatalog(body: unknown): CatalogModel[] {
  const data = isObj(body) && Array.isArray(body.data) ? body.data : Array.isArray(body) ? body : [];
  const seen = new Map<string, CatalogModel>();
  for (const raw of data) {
    const m = parseCatalogEntry(raw);
    if (m && !seen.has(m.id)) seen.set(m.id, m);
  }
  return [...seen.values()];
}

export const isAlias = (id: string) => id.startsWith('~');

/** `~vendor/family-latest` → `vendor/family`. */
export function aliasFamily(id: string): string {
  return id.replace(/^~/, '').replace(/-latest$/, '');
}

/**
 * The newest (`created`) catalogue id equal to, or prefixed by, the alias family. Variants
 * (`…:free`, `…:thinking`) only match when the family itself names one.
 */
export function resolveAlias(id: string, models: readonly CatalogModel[]): CatalogModel | undefined {
  if (!isAlias(id)) return models.find((m) => m.id === id);
  const family = aliasFamily(id);
  let best: CatalogModel | undefined;
  for (const m of models) {
    if (m.id !== family && !m.id.startsWith(family)) continue;
    if (m.id.includes(':') && !family.includes(':')) continue;
    if (!best || m.created > best.created || (m.created === best.created && m.id < best.id)) best = m;
  }
  return best;
}

const tokens = (id: string) => aliasFamily(id).toLowerCase().split(/[/\-.:_]+/).filter(Boolean);

/** The offline answer for an id: an alias entry, a concrete id containing all of an alias's tokens, else defaults. */
export function offlineInfo(id: string): ModelInfo {
  const lower = id.toLowerCase();
  const exact = OFFLINE_MODELS.find((e) => e.id === id);
  const fuzzy = exact ?? OFFLINE_MODELS.find((e) => !isAlias(id) && tokens(e.id).every((t) => lower.includes(t)));
  if (fuzzy) {
    return { requestedId: id, id, contextWindow: fuzzy.contextWindow, supportsReasoning: fuzzy.supportsReasoning, efforts: [...REASONING_EFFORTS], source: 'offline' };
  }
  // Unknown model: a conservative window, no reasoning options sent, all efforts offered.
  return { requestedId: id, id, contextWindow: DEFAULT_CONTEXT_WINDOW, supportsReasoning: false, efforts: [...REASONING_EFFORTS], source: 'offline' };
}

export interface CatalogOptions {
  baseURL?: string;
  fetch?: typeof fetch;
  ttlMs?: number;
  /** Persist the last good catalogue here (the CLI uses its config folder). */
  cacheFile?: string;
  timeoutMs?: number;
  now?: () => number;
}

export interface CatalogSnapshot {
  models: CatalogModel[];
  source: 'live' | 'cache' | 'offline';
  fetchedAt: number | null;
}

export class ModelCatalog {
  private cached: { models: CatalogModel[]; fetchedAt: number } | undefined;
  private inflight: Promise<CatalogSnapshot> | undefined;
  private readonly baseURL: string;

  constructor(private readonly opts: CatalogOptions = {}) {
    this.baseURL = (opts.baseURL ?? DEFAULT_OPENROUTER_BASE_URL).replace(/\/+$/, '');
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /** The catalogue: fresh cache, else a fetch, else a stale cache, else the offline table (empty list). */
  async list(): Promise<CatalogSnapshot> {
    const ttl = this.opts.ttlMs ?? CATALOG_TTL_MS;
    this.cached ??= this.readCacheFile();
    if (this.cached && this.now() - this.cached.fetchedAt < ttl) return { ...this.cached, source: 'cache' };
    this.inflight ??= this.refresh().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async refresh(): Promise<CatalogSnapshot> {
    try {
      const f = this.opts.fetch ?? fetch;
      const res = await f(`${this.baseURL}/models`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.opts.timeoutMs ?? 8000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const models = parseCatalog(await res.json());
      if (!models.length) throw new Error('empty catalogue');
      this.cached = { models, fetchedAt: this.now() };
      this.writeCacheFile();
      return { ...this.cached, source: 'live' };
    } catch {
      if (this.cached) return { ...this.cached, source: 'cache' };
      return { models: [], source: 'offline', fetchedAt: null };
    }
  }

  /** What is known about a model id (alias or concrete). Never throws. */
  async info(id: string): Promise<ModelInfo> {
    const { models } = await this.list();
    const hit = models.length ? resolveAlias(id, models) : undefined;
    if (!hit) return offlineInfo(id);
    return { requestedId: id, id: hit.id, contextWindow: hit.contextWindow, supportsReasoning: hit.supportsReasoning, efforts: hit.supportsReasoning ? hit.efforts : [...REASONING_EFFORTS], source: 'catalog' };
  }

  private readCacheFile(): { models: CatalogModel[]; fetchedAt: number } | undefined {
    if (!this.opts.cacheFile) return undefined;
    try {
      const v = JSON.parse(fs.readFileSync(this.opts.cacheFile, 'utf8'));
      if (v?.baseURL !== this.baseURL || typeof v.fetchedAt !== 'number' || !Array.isArray(v.models)) return undefined;
      const models = (v.models as unknown[]).filter((m): m is CatalogModel => isObj(m) && typeof m.id === 'string' && typeof m.contextWindow === 'number');
      return models.length ? { models, fetchedAt: v.fetchedAt } : undefined;
    } catch {
      return undefined;
    }
  }

  private writeCacheFile(): void {
    if (!this.opts.cacheFile || !this.cached) return;
    try {
      fs.mkdirSync(path.dirname(this.opts.cacheFile), { recursive: true });
      const tmp = `${this.opts.cacheFile}.tmp-${process.pid}`;
      fs.writeFileSync(tmp, JSON.stringify({ baseURL: this.baseURL, ...this.cached }));
      fs.renameSync(tmp, this.opts.cacheFile);
    } catch {
      // a cache is optional
    }
  }
}

const shared = new Map<string, ModelCatalog>();

/** One catalogue per base URL per process, so every turn shares the 6-hour cache. */
export function sharedCatalog(baseURL: string = DEFAULT_OPENROUTER_BASE_URL, opts: Omit<CatalogOptions, 'baseURL'> = {}): ModelCatalog {
  const key = baseURL.replace(/\/+$/, '');
  let c = shared.get(key);
  if (!c) {
    c = new ModelCatalog({ ...opts, baseURL: key });
    shared.set(key, c);
  }
  return c;
}
