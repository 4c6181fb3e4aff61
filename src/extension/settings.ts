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
  const cfg = vscode.workspace.getConfiguration('pyops');
  const raw: Record<string, unknown> = {};
  for (const [k, key] of Object.entries(KEYS)) {
    const v = cfg.get(key);
    if (v !== undefined && v !== null) raw[k] = v;
  }
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const bad = r.error.issues.map((i) => `pyops.${KEYS[i.path[0] as keyof Settings] ?? i.path.join('.')}: ${i.message}`).join('; ');
  void vscode.window.showWarningMessage(`PyOps: ignoring invalid settings (${bad}); using defaults for them.`);
  const fallback: Record<string, unknown> = { ...raw };
  for (const i of r.error.issues) delete fallback[String(i.path[0])];
  return schema.parse(fallback);
}
