// WebSocket frames of the game-link relay. `pyops relay` (beside the game) and the relay server
// (in the extension host) exchange JSON text frames; datagrams travel base64-encoded with the
// game-side UDP port they came from or go to. Validated on both ends.
import { z } from 'zod';

export const RELAY_VERSION = 1;
/** A datagram is at most 64 KB; base64 and the frame around it stay below this. */
export const MAX_FRAME_BYTES = 96 * 1024;

const port = z.number().int().min(1).max(65_535);
const b64 = z.string().max(90_000).regex(/^[A-Za-z0-9+/]*={0,2}$/);

export const clientFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), version: z.number().int(), bridgePort: port.optional() }),
  z.object({ type: z.literal('datagram'), port, data: b64 }),
  /** The game's port refused a datagram (the game closed): the bridge forgets that peer. */
  z.object({ type: z.literal('unreachable'), port }),
]);
export type ClientFrame = z.infer<typeof clientFrame>;

export const serverFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('welcome'), version: z.number().int() }),
  z.object({ type: z.literal('datagram'), port, data: b64 }),
]);
export type ServerFrame = z.infer<typeof serverFrame>;

export function parseFrame<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> | undefined {
  const text = typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : Array.isArray(raw) ? Buffer.concat(raw as Buffer[]).toString('utf8') : raw instanceof ArrayBuffer ? Buffer.from(raw).toString('utf8') : undefined;
  if (text === undefined || text.length > MAX_FRAME_BYTES) return undefined;
  try {
    const r = schema.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

export const encodeFrame = (f: ClientFrame | ServerFrame): string => JSON.stringify(f);
