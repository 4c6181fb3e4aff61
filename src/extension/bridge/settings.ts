// `pyops.bridge.*` settings, read through zod like the other PyOps settings: a hand-edited wrong
// value falls back to the default (with a warning) instead of breaking the game link.
import { z } from 'zod';
import { DEFAULT_BRIDGE_PORT } from '../../core/bridge';
import { readConfig } from '../settings';

const schema = z.object({
  enabled: z.boolean().default(true),
  port: z.number().int().min(1).max(65_535).default(DEFAULT_BRIDGE_PORT),
  relayPort: z.number().int().min(0).max(65_535).default(0),
});

export type BridgeSettings = z.infer<typeof schema>;

export function readBridgeSettings(): BridgeSettings {
  return readConfig('pyops.bridge', schema, { enabled: 'enabled', port: 'port', relayPort: 'relayPort' });
}
