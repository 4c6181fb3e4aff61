// OpenRouter models through @openrouter/ai-sdk-provider. `compatibility: 'strict'` makes the
// provider ask for usage in the stream (stream_options.include_usage); without it streamed
// turns report no tokens. The base URL is configurable for gateways and for the fake server.
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import type { LanguageModel } from 'ai';
import { DEFAULT_OPENROUTER_BASE_URL } from './catalog';

export interface OpenRouterOptions {
  apiKey: string;
  baseURL?: string;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  /** Shown on the OpenRouter dashboard (X-OpenRouter-Title). */
  appName?: string;
  /** Sent as HTTP-Referer for app attribution, when set. */
  appUrl?: string;
}

export const APP_NAME = 'PyOps';

export function openRouterModel(modelId: string, opts: OpenRouterOptions): LanguageModel {
  const provider = createOpenRouter({
    apiKey: opts.apiKey,
    baseURL: opts.baseURL ?? DEFAULT_OPENROUTER_BASE_URL,
    compatibility: 'strict',
    fetch: opts.fetch,
    headers: opts.headers,
    appName: opts.appName ?? APP_NAME,
    appUrl: opts.appUrl,
  });
  return provider.chat(modelId, { usage: { include: true } });
}

/** Provider options for one call: reasoning effort only where the model supports it. */
export function reasoningOptions(effort: string | null | undefined, supported: boolean, exclude = false): { openrouter: { reasoning: { effort: string; exclude: boolean } } } | undefined {
  if (!effort || !supported) return undefined;
  return { openrouter: { reasoning: { effort, exclude } } };
}
