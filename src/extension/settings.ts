// `pyops.*` settings, read through zod so a hand-edited settings.json with a wrong type gives a
// warning and the default instead of a crash deep inside a command.
import * as vscode from 'vscode';
import { z } from 'zod';

const schema = z.object({
  factorioExecutablePath: z.string().default(''),
  factorioUserDataPath: z.string().default(''),
  factorioDumpTimeoutSeconds: z.number().int().min(30).max(7200).default(600),
  openSampleProjectOnStartup: z.boolean().default(false),
  mcpEnabled: z.boolean().default(true),
  mcpDeveloperTools: z.boolean().default(false),
  /** OpenRouter model for new conversations ('' = the built-in default). */
  defaultModel: z.string().trim().max(200).default(''),
  /** Reasoning effort for new conversations; 'auto' leaves it to the model. */
  reasoningEffort: z.enum(['auto', 'low', 'medium', 'high']).default('auto'),
  /** Endpoint for OpenRouter-compatible gateways (and the tests' fake server); '' = openrouter.ai. */
  openrouterBaseUrl: z.string().trim().max(500).default(''),
  /** Extra OpenRouter model ids offered in VS Code's model picker. */
  extraModels: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
});

export type Settings = z.infer<typeof schema>;

const KEYS: Record<keyof Settings, string> = {
  factorioExecutablePath: 'factorio.executablePath',
  factorioUserDataPath: 'factorio.userDataPath',
  factorioDumpTimeoutSeconds: 'factorio.dumpTimeoutSeconds',
  openSampleProjectOnStartup: 'startup.openSampleProject',
  mcpEnabled: 'mcp.enabled',
  mcpDeveloperTools: 'mcp.developerTools',
  defaultModel: 'models.default',
  reasoningEffort: 'models.reasoningEffort',
  openrouterBaseUrl: 'openrouter.baseUrl',
  extraModels: 'models.extra',
};

export function readSettings(): Settings {
  return readConfig('pyops', schema, KEYS);
}

// Settings are read on hot paths (every turn, every panel refresh): one bad value must not toast each time.
const warned = new Set<string>();

/**
 * `section`'s settings through `schema` (`keys`: field → setting key under `section`). A value that
 * fails the schema falls back to its default, with a warning shown once per distinct problem.
 */
export function readConfig<S extends z.ZodObject>(section: string, schema: S, keys: Record<keyof S['shape'] & string, string>): z.output<S> {
  const cfg = vscode.workspace.getConfiguration(section);
  const raw: Record<string, unknown> = {};
  for (const [k, key] of Object.entries<string>(keys)) {
    const v = cfg.get(key);
    if (v !== undefined && v !== null) raw[k] = v;
  }
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const bad = r.error.issues.map((i) => `${section}.${(keys as Record<string, string>)[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`).join('; ');
  if (!warned.has(bad)) {
    warned.add(bad);
    void vscode.window.showWarningMessage(`PyOps: ignoring invalid settings (${bad}); using defaults for them.`);
  }
  for (const i of r.error.issues) delete raw[String(i.path[0])];
  return schema.parse(raw);
}
