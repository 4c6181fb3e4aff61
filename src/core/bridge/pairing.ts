// The pairing code between PyOps and the companion mod. Any local process can send datagrams to
// the bridge's port, so being on 127.0.0.1 proves nothing. The app generates a code once and
// keeps it in the user-only config file (shared by VS Code and the `pyops` command, so one mod
// install pairs both); the install command writes it into the mod, or the player pastes it into
// the mod's "pairing code" setting. A game that presents it may write game state and receive
// commands; any other peer is linked read-only. The code travels in clear over loopback: it keeps
// out processes that cannot read the user's files, which is what a local attacker without the
// user's privileges is.
import crypto from 'node:crypto';
import type { SecretStore } from '../config/secretStore';
import { FileConfigStore, configDir } from '../config/fileStore';

/** Secret name of the pairing code in the user's config store. */
export const PAIRING_KEY = 'pyops.bridge.pairing';

// No look-alikes (0/O, 1/l/I): a player may type it into the mod setting by hand.
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
/** What a code looks like: "pyops-" and three groups of five (75 bits of randomness). */
export const PAIRING_RE = /^pyops-[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/;

export function newPairingCode(): string {
  const bytes = crypto.randomBytes(15);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  return `pyops-${chars.slice(0, 5).join('')}-${chars.slice(5, 10).join('')}-${chars.slice(10, 15).join('')}`;
}

/** The stored code, created (and stored) on first use. */
export async function loadPairingCode(store: SecretStore): Promise<string> {
  const stored = (await store.get(PAIRING_KEY))?.trim();
  if (stored && PAIRING_RE.test(stored)) return stored;
  const code = newPairingCode();
  await store.store(PAIRING_KEY, code);
  return code;
}

/** This user's code, from the user-only config file both hosts share (PYOPS_CONFIG_DIR overrides). */
export function pairingCodeFor(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return loadPairingCode(new FileConfigStore(configDir(env)));
}

/** Constant-time comparison of what a peer presented with the expected code. */
export function pairingMatches(presented: string | undefined, expected: string | undefined): boolean {
  if (!presented || !expected) return false;
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The Lua file the install command writes into the mod: the default of its pairing setting. */
export function pairingLua(code: string): string {
  if (!PAIRING_RE.test(code)) throw new Error(`"${code}" is not a PyOps pairing code`);
  return `-- Written by PyOps when it installed this mod: the pairing code of this user's PyOps.\nreturn "${code}"\n`;
}
