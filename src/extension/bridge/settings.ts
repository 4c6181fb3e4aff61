// `pyops.bridge.*` settings, read through zod like the other PyOps settings: a hand-edited wrong
// value falls back to the default (with a warning) instead of breaking the game link.
import * as vscode from 'vscode';
import { z } from 'zod';
import { DEFAULT_BRIDGE_PORT } from '../../core/bridge';

const schema = z.object({
  enabled: z.boolean().default(true),
  port: z.number().int().min(1).max(65_535).default(DEFAULT_BRIDGE_PORT),
  relayPort: z.number().int().min(0).max(65_535).default(0),
});

export type BridgeSettings = z.infer<typeof schema>;

export function readBridgeSettings(): BridgeSettings {
  const cfg = vscode.workspace.getConfiguration('pyops.bridge');
  const raw: Record<string, unknown> = {};
  for (const k of Object.keys(schema.shape)) {
    const v = cfg.get(k);
    if (v !== undefined && v !== null) raw[k] = v;
  }
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const bad = r.error.issues.map((i) => `pyops.bridge.${String(i.path[0])}: ${i.message}`).join('; ');
  void vscode.window.showWarningMessage(`PyOps: ignoring invalid settings (${bad}); using defaults for them.`);
  for (const i of r.error.issues) delete raw[String(i.path[0])];
  return schema.parse(raw);
}
