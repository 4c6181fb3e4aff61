// GameLink: the face of the running game that the assistant's live tools, the MCP developer tools
// and the side panel's "Run in game" / "Show in game" buttons use. Each call validates its input,
// sends one correlated command through the bridge, validates and bounds the mod's answer, and
// returns `{ok:true, …}` or `{ok:false, error}` with an error a model can act on. Nothing throws.
import crypto from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { Bridge, BridgeStatus } from './bridge';
import { RELOAD_CONFIRM_TOKEN, luaArray, type CommandType } from './protocol';
import type { CommandFailure } from './requests';
import { editImage, parseCrop, parseScale, readPng, screenshotLua, waitForFile, writePng } from './screenshot';
import { showBlockPayload, type ShowBlockPayload } from './showBlock';

export type LinkResult<T extends object = object> = ({ ok: true } & T) | { ok: false; error: string; code: CommandFailure };

export interface GameContext {
  player: string;
  force: string;
  surface: string;
  x: number;
  y: number;
  tick: number;
  selected?: EntityInfo;
}

export interface EntityInfo {
  name: string;
  type: string;
  x: number;
  y: number;
  recipe?: string;
  status?: string;
}

export interface InspectArea {
  surface: string;
  center: { x: number; y: number };
  radius: number;
  count: number;
  truncated: boolean;
  entities: EntityInfo[];
}

export interface FoundEntities {
  name: string;
  surface: string;
  count: number;
  truncated: boolean;
  sample: Array<{ x: number; y: number }>;
}

export interface ProductionStat {
  name: string;
  kind?: 'item' | 'fluid';
  produced: number;
  consumed: number;
}

export interface Screenshot {
  path: string;
  width: number;
  height: number;
  crop?: { width: number; height: number; x: number; y: number };
  scale?: number;
  original: string;
}

export interface GameLink {
  status(): BridgeStatus;
  gameContext(): Promise<LinkResult<GameContext>>;
  inspectArea(args: { x: number; y: number; radius?: number; surface?: string }): Promise<LinkResult<InspectArea>>;
  findEntities(args: { name: string; surface?: string; limit?: number }): Promise<LinkResult<FoundEntities>>;
  production(goods: string[]): Promise<LinkResult<{ stats: ProductionStat[] }>>;
  /** Run Lua in the game. The mod refuses unless the player enabled eval and the game is single-player. */
  eval(code: string): Promise<LinkResult<{ result: string; truncated: boolean }>>;
  /** Reload mod scripts on the next tick; `confirm` must be "reload_mods". */
  reloadMods(confirm: string): Promise<LinkResult<{ scheduled_tick: number }>>;
  showBlock(payload: ShowBlockPayload): Promise<LinkResult<{ panel: string; block: string }>>;
  hideBlock(): Promise<LinkResult>;
  /** Ask the game to push research, TURD, built machines and stats now. */
  requestSync(): Promise<LinkResult<{ sent: string[] }>>;
  /** Screenshot through eval; crop "WxH+X+Y", scale "50%" or a pixel width. */
  screenshot(args?: { crop?: string; scale?: string }): Promise<LinkResult<Screenshot>>;
}

export interface GameLinkOptions {
  /** `<factorio user data>/script-output`, where the game writes screenshots. */
  scriptOutputDir?: () => string | undefined;
  /** How long to wait for the screenshot file after the game acknowledged the eval. */
  screenshotWaitMs?: number;
}

// --- limits (domain D) ---
export const LIMITS = { inspectEntities: 60, findSample: 50, productionGoods: 20, evalChars: 8000, codeBytes: 20_000 } as const;

const num = z.number().refine(Number.isFinite, 'must be finite');
const str = z.string().max(200);
const entity = z.object({ name: str, type: str, x: num, y: num, recipe: str.optional(), status: str.optional() });
/** The mod's refusal; `code: "invalid-input"` when the arguments were wrong (an unknown surface or entity name, Lua that does not compile). */
const modFailure = z.object({ ok: z.literal(false), error: z.string().max(2000), code: z.string().max(40).optional() });

const replies = {
  context: z.object({ player: str, force: str, surface: str, x: num, y: num, tick: z.number().int().min(0), selected: entity.optional() }),
  inspect: z.object({ surface: str, center: z.object({ x: num, y: num }), radius: num, count: z.number().int().min(0), truncated: z.boolean(), entities: luaArray(entity, 1000) }),
  find: z.object({ name: str, surface: str, count: z.number().int().min(0), truncated: z.boolean().default(false), sample: luaArray(z.object({ x: num, y: num }), 1000) }),
  production: z.object({ stats: luaArray(z.object({ name: str, kind: z.enum(['item', 'fluid']).optional(), produced: num, consumed: num }), 100) }),
  eval: z.object({ result: z.string(), truncated: z.boolean().default(false) }),
  reload: z.object({ scheduled_tick: z.number().int().min(0) }),
  show: z.object({ panel: str.default('block'), block: str.default('') }),
  empty: z.looseObject({}),
  sync: z.object({ sent: luaArray(str, 20).default([]) }),
};

const inputs = {
  inspect: z.object({ x: num, y: num, radius: z.number().int().min(1).max(64).default(16), surface: str.min(1).optional() }),
  find: z.object({ name: str.min(1), surface: str.min(1).optional(), limit: z.number().int().min(1).max(50).default(20) }),
  production: z.array(str.min(1)).min(1).max(LIMITS.productionGoods),
  // The mod measures Lua strings in bytes, so non-ASCII code is measured the same way here.
  code: z.string().min(1).refine((c) => Buffer.byteLength(c, 'utf8') <= LIMITS.codeBytes, `is longer than ${LIMITS.codeBytes} bytes (UTF-8); shorten it`),
  screenshot: z.object({ crop: z.string().max(40).optional(), scale: z.string().max(20).optional() }),
};

function badInput(what: string, err: z.ZodError): { ok: false; error: string; code: CommandFailure } {
  const i = err.issues[0];
  return { ok: false, code: 'invalid-input', error: `Invalid ${what}: ${i?.path.join('.') || 'value'}: ${i?.message}.` };
}

export function createGameLink(bridge: Bridge, opts: GameLinkOptions = {}): GameLink {
  /** Send a command and validate the mod's answer against `schema`. */
  async function call<S extends z.ZodType>(type: CommandType, payload: unknown, schema: S, timeoutMs?: number): Promise<LinkResult<z.output<S> & object>> {
    const r = await bridge.request(type, payload, timeoutMs ? { timeoutMs } : {});
    if (!r.ok) return { ok: false, error: r.error, code: r.code };
    const fail = modFailure.safeParse(r.payload);
    if (fail.success) return { ok: false, code: fail.data.code === 'invalid-input' ? 'invalid-input' : 'refused', error: `The game refused ${type}: ${fail.data.error}` };
    const parsed = schema.safeParse(r.payload);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      return { ok: false, code: 'bad-reply', error: `The game's answer to ${type} was not understood (${i?.path.join('.') || 'payload'}: ${i?.message}); the companion mod may be outdated: reinstall it (PyOps: Install Companion Mod).` };
    }
    return { ok: true, ...(parsed.data as object) } as LinkResult<z.output<S> & object>;
  }

  const link: GameLink = {
    status: () => bridge.status(),

    gameContext: () => call('cmd.game_context', {}, replies.context),

    async inspectArea(args) {
      const a = inputs.inspect.safeParse(args);
      if (!a.success) return badInput('area', a.error);
      const r = await call('cmd.inspect_area', a.data, replies.inspect);
      if (!r.ok) return r;
      const truncated = r.truncated || r.entities.length > LIMITS.inspectEntities;
      return { ...r, truncated, entities: r.entities.slice(0, LIMITS.inspectEntities) };
    },

    async findEntities(args) {
      const a = inputs.find.safeParse(args);
      if (!a.success) return badInput('search', a.error);
      const r = await call('cmd.find_entities', a.data, replies.find);
      if (!r.ok) return r;
      return { ...r, truncated: r.truncated || r.sample.length > a.data.limit, sample: r.sample.slice(0, a.data.limit) };
    },

    async production(goods) {
      const a = inputs.production.safeParse(goods);
      if (!a.success) return badInput('goods list (1–20 internal names)', a.error);
      const r = await call('cmd.production', { goods: [...new Set(a.data)] }, replies.production);
      if (!r.ok) return r;
      return { ok: true, stats: r.stats.slice(0, LIMITS.productionGoods) };
    },

    async eval(code) {
      const a = inputs.code.safeParse(code);
      if (!a.success) return badInput('Lua code', a.error);
      const r = await call('cmd.eval', { code: a.data }, replies.eval);
      if (!r.ok) return r;
      const truncated = r.truncated || r.result.length > LIMITS.evalChars;
      return { ok: true, result: r.result.slice(0, LIMITS.evalChars), truncated };
    },

    async reloadMods(confirm) {
      if (confirm !== RELOAD_CONFIRM_TOKEN) {
        return { ok: false, code: 'invalid-input', error: `Reloading mods needs confirm: "${RELOAD_CONFIRM_TOKEN}". It re-runs every mod's control script (prototypes and settings need a game restart).` };
      }
      return call('cmd.dev.reload_mods', { confirm }, replies.reload);
    },

    async showBlock(payload) {
      const a = showBlockPayload.safeParse(payload);
      if (!a.success) return badInput('block summary', a.error);
      return call('cmd.show_block', a.data, replies.show);
    },

    hideBlock: () => call('cmd.hide_block', {}, replies.empty),

    requestSync: () => call('request.sync', {}, replies.sync),

    async screenshot(args = {}) {
      const a = inputs.screenshot.safeParse(args);
      if (!a.success) return badInput('screenshot options', a.error);
      const crop = a.data.crop ? parseCrop(a.data.crop) : undefined;
      if (a.data.crop && !crop) return { ok: false, code: 'invalid-input', error: `Invalid crop "${a.data.crop}": write it as WxH+X+Y in pixels, e.g. 800x600+100+50.` };
      const outDir = opts.scriptOutputDir?.();
      if (!outDir) {
        return { ok: false, code: 'unavailable', error: "PyOps does not know Factorio's user-data folder, so it cannot find screenshots. Set pyops.factorio.userDataPath (the folder holding script-output/)." };
      }
      const rel = `pyops/shot-${Date.now().toString(36)}-${crypto.randomBytes(3).toString('hex')}.png`;
      const file = path.join(outDir, ...rel.split('/'));
      const r = await link.eval(screenshotLua(rel));
      if (!r.ok) {
        return r.code === 'refused'
          ? { ...r, error: `${r.error} Screenshots run through eval: enable the mod's per-player setting "Allow app-driven Lua eval" in a single-player game.` }
          : r;
      }
      const st = await waitForFile(file, opts.screenshotWaitMs ?? 10_000);
      if (!st) {
        return { ok: false, code: 'timeout', error: `The game accepted the screenshot but ${file} did not appear. Screenshots are not taken by a headless server or while the game window is minimized; check pyops.factorio.userDataPath points to the game's user-data folder.` };
      }
      try {
        const png = readPng(file);
        const scale = a.data.scale ? parseScale(a.data.scale, crop ? Math.min(crop.width, png.width) : png.width) : undefined;
        if (a.data.scale && scale === undefined) return { ok: false, code: 'invalid-input', error: `Invalid scale "${a.data.scale}": use a percentage ("50%") or a target width in pixels ("800").` };
        if (!crop && scale === undefined) return { ok: true, path: file, width: png.width, height: png.height, original: file };
        const edited = editImage(png, crop, scale);
        const outFile = file.replace(/\.png$/, '-edited.png');
        writePng(outFile, edited.png);
        return { ok: true, path: outFile, width: edited.png.width, height: edited.png.height, original: file, ...(edited.crop ? { crop: edited.crop } : {}), ...(edited.scale !== undefined ? { scale: edited.scale } : {}) };
      } catch (err) {
        return { ok: false, code: 'bad-reply', error: `The screenshot ${file} could not be read as PNG (${(err as Error).message}); try again.` };
      }
    },
  };
  return link;
}
