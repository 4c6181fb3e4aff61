// The assistant's secret names. The store itself (an interface each host implements, and the CLI's
// user-only file) is shared infrastructure in core/config.

/** Secret name of the OpenRouter API key. */
export const OPENROUTER_KEY = 'pyops.openrouter.apiKey';
