// Runs the real companion mod (companion-mod/*.lua) inside fengari, an in-process Lua VM, on top
// of the fake Factorio runtime in lua/factorio_stub.lua. `attachUdp` gives the fake game a real UDP
// socket (its --enable-lua-udp port), so tests drive the mod through the same round trip the game
// uses: helpers.send_udp → datagram → bridge, and bridge → datagram → recv_udp → event.
import dgram from 'node:dgram';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lua, lauxlib, lualib, to_luastring } from 'fengari';

const here = path.dirname(fileURLToPath(import.meta.url));
export const MOD_DIR = path.resolve(here, '..', '..', 'companion-mod');
export const STUB_DIR = path.join(here, 'lua');

export interface VMOptions {
  modDir?: string;
  /** Lua run after the stub loads and before the mod does (world setup); `C` is the controller. */
  setup?: string;
  /** Run on_init (a new game, default) or on_load (a loaded save). */
  fresh?: boolean;
}

export interface ModVM {
  /** Run Lua (a chunk body; `C` is the stub controller) and return its JSON-able result. */
  run<T = unknown>(code: string): T;
  advance(ticks: number): void;
  /** Give the fake game a real UDP socket; returns its port. */
  attachUdp(): Promise<number>;
  /** Advance ticks, letting UDP flow between steps, until `done()` holds. */
  runUntil(done: () => boolean | Promise<boolean>, opts?: { timeoutMs?: number; ticksPerStep?: number }): Promise<void>;
  /** Datagrams the fake game sent (with attachUdp they also went out on the socket). */
  sent: Array<{ port: number; data: Buffer; forPlayer: number }>;
  onScreenshot?: (relPath: string) => void;
  close(): Promise<void>;
}

function luaError(L: any, what: string): Error {
  const msg = lua.lua_tojsstring(L, -1);
  lua.lua_pop(L, 1);
  return new Error(`${what}: ${msg}`);
}

export function createVM(opts: VMOptions = {}): ModVM {
  const L = lauxlib.luaL_newstate();
  lualib.luaL_openlibs(L);
  const modDir = opts.modDir ?? MOD_DIR;
  const doString = (code: string, what: string) => {
    if (lauxlib.luaL_loadstring(L, to_luastring(code)) !== lua.LUA_OK) throw luaError(L, `${what} (compile)`);
    if (lua.lua_pcall(L, 0, 1, 0) !== lua.LUA_OK) throw luaError(L, what);
  };
  // package.path: the mod root (require("scripts.x")) and the stub folder (json, factorio_stub)
  doString(`package.path = ${JSON.stringify(`${modDir}/?.lua;${STUB_DIR}/?.lua`)} .. ";" .. package.path; return nil`, 'package.path');
  lua.lua_pop(L, 1);

  const sent: ModVM['sent'] = [];
  let socket: dgram.Socket | undefined;
  const vm: ModVM = {
    sent,
    run<T>(code: string): T {
      doString(`local json = require("json"); local C = __stub; local r = (function() ${code} end)(); if r == nil then return "null" end; return json.encode(r, "[]")`, 'Lua');
      const text = lua.lua_tojsstring(L, -1);
      lua.lua_pop(L, 1);
      return JSON.parse(text) as T;
    },
    advance(ticks) {
      doString(`__stub.advance(${Math.max(0, Math.floor(ticks))})`, 'advance');
      lua.lua_pop(L, 1);
    },
    async attachUdp() {
      const s = dgram.createSocket('udp4');
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.bind(0, '127.0.0.1', () => resolve());
      });
      s.on('message', (msg, rinfo) => {
        // the game instance of player 1 receives; recv_udp turns it into an event
        lua.lua_getglobal(L, to_luastring('__stub'));
        lua.lua_getfield(L, -1, to_luastring('deliver'));
        lua.lua_pushinteger(L, 1);
        lua.lua_pushstring(L, new Uint8Array(msg.buffer, msg.byteOffset, msg.byteLength));
        lua.lua_pushinteger(L, rinfo.port);
        if (lua.lua_pcall(L, 3, 0, 0) !== lua.LUA_OK) throw luaError(L, 'deliver');
        lua.lua_pop(L, 1);
      });
      socket = s;
      return s.address().port;
    },
    async runUntil(done, o = {}) {
      const deadline = Date.now() + (o.timeoutMs ?? 3000);
      const step = o.ticksPerStep ?? 5;
      while (!(await done())) {
        if (Date.now() > deadline) throw new Error('runUntil: condition not met in time');
        vm.advance(step);
        await new Promise((r) => setTimeout(r, 1));
      }
    },
    async close() {
      const s = socket;
      socket = undefined;
      if (s) await new Promise<void>((r) => s.close(() => r()));
    },
  };

  // host hooks: the stub calls these for UDP sends and screenshots
  lua.lua_newtable(L);
  lua.lua_pushjsfunction(L, (Ls: any) => {
    const port = lua.lua_tointeger(Ls, 1);
    const data = Buffer.from(lua.lua_tolstring(Ls, 2) as Uint8Array);
    const forPlayer = lua.lua_tointeger(Ls, 3);
    sent.push({ port, data, forPlayer });
    socket?.send(data, port, '127.0.0.1');
    return 0;
  });
  lua.lua_setfield(L, -2, to_luastring('send'));
  lua.lua_pushjsfunction(L, (Ls: any) => {
    const rel = lua.lua_tojsstring(Ls, 1);
    vm.onScreenshot?.(rel);
    return 0;
  });
  lua.lua_setfield(L, -2, to_luastring('screenshot'));
  lua.lua_setglobal(L, to_luastring('__host'));

  doString(`__stub = require("factorio_stub"); __stub.host = __host; return nil`, 'stub');
  lua.lua_pop(L, 1);
  if (opts.setup) {
    doString(`local C = __stub; ${opts.setup}; return nil`, 'setup');
    lua.lua_pop(L, 1);
  }
  doString(`__stub.load_mod(${opts.fresh === false ? 'false' : 'true'}); return nil`, 'load mod');
  lua.lua_pop(L, 1);
  return vm;
}
