// The wire protocol between PyOps and the companion mod: the versioned JSON envelope, the message
// type names of both directions, and the size limits of a single datagram. Pure functions only; no
// sockets, no database. The Lua side keeps its own copy of PROTOCOL_VERSION in
// companion-mod/scripts/protocol.lua, and a unit test fails when the two drift.
//
// Trust (bridge.ts, pairing.ts): a mod → app envelope may carry `pairing`, the code from the mod's
// "pyops-link-pairing" setting. Only messages with the app's code may write (state.*, task.capture)
// or settle a command (bridge.result), and commands go only to a peer that presented it; the pong
// says `paired: true|false` so the mod can show a read-only link. Every message but the ping is
// ignored when its protocol_version differs from ours.
import { z } from 'zod';

/** Bump on any incompatible change of an envelope or payload shape, here and in protocol.lua. */
export const PROTOCOL_VERSION = 1;

export const DEFAULT_BRIDGE_PORT = 37657;

/** The port to suggest for Factorio's `--enable-lua-udp`: near the bridge's, never the same. */
export function gameUdpPortFor(bridgePort: number): number {
  return bridgePort === 37658 ? 37659 : 37658;
}
export const BRIDGE_HOST = '127.0.0.1';

/** The mod never receives datagrams of 8 KB or more; stay well below (measured limit, see docs). */
export const APP_TO_MOD_MAX_DATAGRAM = 3500;
/** What the mod reassembles at most (chunk.lua MAX_PARTS, MAX_BYTES); larger messages it drops unread. */
export const MOD_MAX_MESSAGE = { parts: 64, bytes: 256 * 1024 } as const;
/** Outbound datagrams above the OS limit (~9.2 KB on macOS) vanish silently on the game side. */
export const MOD_TO_APP_MAX_DATAGRAM = 8000;
/** Anything larger is not a datagram we could have sent or expect; dropped unread. */
export const MAX_INBOUND_DATAGRAM = 65_507;

/** Mod → app message types the app understands. */
export const MOD_MESSAGES = [
  'bridge.ping',
  'state.research',
  'state.turd',
  'state.built',
  'state.stats',
  'task.capture',
  'task.list',
  'bridge.result',
] as const;
export type ModMessageType = (typeof MOD_MESSAGES)[number];

/** App → mod message types. `cmd.*` and `request.sync` are answered by `bridge.result`. */
export const APP_MESSAGES = [
  'bridge.pong',
  'error',
  'request.sync',
  'task.captured',
  'task.list',
  'cmd.show_block',
  'cmd.hide_block',
  'cmd.game_context',
  'cmd.inspect_area',
  'cmd.find_entities',
  'cmd.production',
  'cmd.eval',
  'cmd.dev.reload_mods',
] as const;
export type AppMessageType = (typeof APP_MESSAGES)[number];

/** Correlated commands: sent with a request id, answered by `bridge.result`. */
export type CommandType = Extract<AppMessageType, 'request.sync' | `cmd.${string}`>;

/** The confirm token `cmd.dev.reload_mods` must carry; the mod refuses a reload without it. */
export const RELOAD_CONFIRM_TOKEN = 'reload_mods';

const TYPE_RE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** Mod → app envelope. The payload is validated per type by the handler that owns it. */
export const modEnvelopeSchema = z.object({
  protocol_version: z.number().int().min(0).max(1_000_000),
  type: z.string().min(3).max(64).regex(TYPE_RE),
  request_id: z.string().min(1).max(128).optional(),
  tick: z.number().int().min(0).optional(),
  player: z.number().int().min(0).max(65_535).optional(),
  mod_version: z.string().max(32).optional(),
  /** The pairing code from the mod's settings (pairing.ts); absent when the player set none. */
  pairing: z.string().max(128).optional(),
  payload: z.unknown().optional(),
});
export type ModEnvelope = z.infer<typeof modEnvelopeSchema>;

/** App → mod envelope, as the app writes it (and the fake game peer reads it). */
export const appEnvelopeSchema = z.object({
  protocol_version: z.number().int(),
  type: z.string().min(1).max(64),
  request_id: z.string().max(128).optional(),
  payload: z.unknown().optional(),
});
export type AppEnvelope = z.infer<typeof appEnvelopeSchema>;

export type DecodeResult = { ok: true; envelope: ModEnvelope } | { ok: false; reason: string };

/** Parse one complete (reassembled) message from the mod. Never throws. */
export function decodeModMessage(bytes: Uint8Array): DecodeResult {
  if (bytes.length === 0) return { ok: false, reason: 'empty datagram' };
  if (bytes[0] !== 0x7b /* { */) return { ok: false, reason: 'not a JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return { ok: false, reason: 'bad JSON' };
  }
  const r = modEnvelopeSchema.safeParse(value);
  if (!r.success) {
    const i = r.error.issues[0];
    return { ok: false, reason: `bad envelope (${i?.path.join('.') || 'root'}: ${i?.message})` };
  }
  return { ok: true, envelope: r.data };
}

/** Serialize an app → mod message. */
export function encodeAppMessage(type: AppMessageType, payload?: unknown, requestId?: string): string {
  const env: AppEnvelope = { protocol_version: PROTOCOL_VERSION, type };
  if (requestId !== undefined) env.request_id = requestId;
  if (payload !== undefined) env.payload = payload;
  return JSON.stringify(env);
}

// Lua has one table type, so an empty list and an empty map serialize alike, and how
// helpers.table_to_json writes an empty table is undocumented. These accept both spellings.
const isEmptyObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

/** An array schema that also accepts `{}` (an empty Lua table written as an object). */
export function luaArray<T extends z.ZodType>(item: T, max: number) {
  return z.preprocess((v) => (isEmptyObject(v) ? [] : v), z.array(item).max(max));
}

/** A record schema that also accepts `[]` (an empty Lua table written as an array). */
export function luaRecord<T extends z.ZodType>(value: T) {
  return z.preprocess((v) => (Array.isArray(v) && v.length === 0 ? {} : v), z.record(z.string().max(200), value));
}
