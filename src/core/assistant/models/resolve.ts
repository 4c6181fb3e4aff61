// Which key, model and endpoint a turn uses. Key: OPENROUTER_API_KEY, else the host's stored key.
// Model: PYOPS_AGENT_MODEL → the conversation's override → the stored default → the built-in
// alias. Base URL: PYOPS_OPENROUTER_BASE_URL → the host setting → openrouter.ai. The agent loop
// itself takes any AI SDK model (`TurnModel`), so hosts may bring their own (the VS Code chat model).
import type { LanguageModel } from 'ai';
import { DEFAULT_OPENROUTER_BASE_URL, isAlias, sharedCatalog, type ModelCatalog, type ModelInfo } from './catalog';
import { openRouterModel } from './openrouter';
import { NoApiKeyError, DEFAULT_KEY_HINT } from './errors';
import { OPENROUTER_KEY } from './secrets';
import type { SecretStore } from '../../config/secretStore';
import { rememberSecret } from './redact';

export const DEFAULT_MODEL = '~anthropic/claude-sonnet-latest';

/** A model ready for a turn: the SDK model plus what compaction and reasoning gating need. */
export interface TurnModel {
  model: LanguageModel;
  /** The id the user chose (an alias stays an alias); stored and shown. */
  modelId: string;
  info: ModelInfo;
}

export type ModelSource = 'env' | 'conversation' | 'default' | 'built-in';

export interface ResolvedModel extends TurnModel {
  source: ModelSource;
  /** The id sent to OpenRouter (an alias resolved through the catalogue when possible). */
  requestId: string;
  baseURL: string;
}

export async function resolveApiKey(env: NodeJS.ProcessEnv, secrets?: SecretStore): Promise<{ key: string; source: 'env' | 'stored' } | undefined> {
  const fromEnv = env.OPENROUTER_API_KEY?.trim();
  if (fromEnv) {
    rememberSecret(fromEnv);
    return { key: fromEnv, source: 'env' };
  }
  try {
    const stored = (await secrets?.get(OPENROUTER_KEY))?.trim();
    if (stored) {
      rememberSecret(stored);
      return { key: stored, source: 'stored' };
    }
  } catch {
    // an unreadable secret store is the same as no key; the error says how to set one
  }
  return undefined;
}

export function resolveModelId(opts: { env?: NodeJS.ProcessEnv; override?: string | null; storedDefault?: string | null }): { id: string; source: ModelSource } {
  const env = opts.env?.PYOPS_AGENT_MODEL?.trim();
  if (env) return { id: env, source: 'env' };
  if (opts.override?.trim()) return { id: opts.override.trim(), source: 'conversation' };
  if (opts.storedDefault?.trim()) return { id: opts.storedDefault.trim(), source: 'default' };
  return { id: DEFAULT_MODEL, source: 'built-in' };
}

export function resolveBaseURL(opts: { env?: NodeJS.ProcessEnv; setting?: string | null }): string {
  const v = opts.env?.PYOPS_OPENROUTER_BASE_URL?.trim() || opts.setting?.trim() || DEFAULT_OPENROUTER_BASE_URL;
  return v.replace(/\/+$/, '');
}

export interface OpenRouterResolverOptions {
  env?: NodeJS.ProcessEnv;
  secrets?: SecretStore;
  /** The host's stored default model (VS Code setting, CLI config). */
  storedDefaultModel?: string | null;
  /** The host's base-URL setting. */
  baseURL?: string | null;
  fetch?: typeof fetch;
  catalog?: ModelCatalog;
  /** How this host tells a user to store a key, appended to key errors. */
  keyHint?: string;
  appName?: string;
  appUrl?: string;
}

/** Resolve key and model for a conversation's override. Throws NoApiKeyError without a key. */
export async function resolveOpenRouterModel(opts: OpenRouterResolverOptions & { override?: string | null }): Promise<ResolvedModel> {
  const env = opts.env ?? process.env;
  const key = await resolveApiKey(env, opts.secrets);
  if (!key) throw new NoApiKeyError(opts.keyHint ?? DEFAULT_KEY_HINT);
  const baseURL = resolveBaseURL({ env, setting: opts.baseURL });
  const { id, source } = resolveModelId({ env, override: opts.override, storedDefault: opts.storedDefaultModel });
  const catalog = opts.catalog ?? sharedCatalog(baseURL, { fetch: opts.fetch });
  const info = await catalog.info(id);
  // Send a concrete id when the catalogue resolved the alias; otherwise let OpenRouter resolve it.
  const requestId = isAlias(id) && info.source === 'catalog' ? info.id : id;
  const model = openRouterModel(requestId, { apiKey: key.key, baseURL, fetch: opts.fetch, appName: opts.appName, appUrl: opts.appUrl });
  return { model, modelId: id, requestId, info, source, baseURL };
}
