// Where Factorio lives: the executable and the user-data folder (the one holding mods/ and
// script-output/). Settings win; otherwise the usual install places per platform are tried,
// Steam libraries included. Platform, home, environment and file system are injectable so every
// platform's rules are tested on any machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXECUTABLE_SETTING, FactorioSyncError, USER_DATA_SETTING } from './errors';
import type { GameFolders } from '../icons/modFiles';

export interface LocateEnv {
  platform: NodeJS.Platform;
  homedir: string;
  /** Environment variables (APPDATA, ProgramFiles, …). */
  vars: Record<string, string | undefined>;
  exists(p: string): boolean;
  /** File text, or undefined when it cannot be read. */
  readFile(p: string): string | undefined;
}

export function systemLocateEnv(): LocateEnv {
  return {
    platform: process.platform,
    homedir: os.homedir(),
    vars: process.env,
    exists: (p) => fs.existsSync(p),
    readFile: (p) => {
      try {
        return fs.readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

export interface FactorioOverrides {
  /** `pyops.factorio.executablePath`. */
  executable?: string;
  /** `pyops.factorio.userDataPath`. */
  userDataDir?: string;
}

export interface FactorioPaths {
  executable: string;
  userDataDir: string;
  /** True when the user data is inside the install (zip/portable install). */
  portable: boolean;
  /** Every path looked at, in order. */
  tried: string[];
}

function pathsFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** The folder Factorio uses for user data when the install does not say otherwise. */
export function defaultUserDataDir(env: LocateEnv): string {
  const p = pathsFor(env.platform);
  switch (env.platform) {
    case 'win32':
      return p.join(env.vars.APPDATA || p.join(env.homedir, 'AppData', 'Roaming'), 'Factorio');
    case 'darwin':
      return p.join(env.homedir, 'Library', 'Application Support', 'factorio');
    default:
      return p.join(env.homedir, '.factorio');
  }
}

/** The executable's path inside a Factorio install folder (or a Steam `common/Factorio`). */
function executableInInstall(env: LocateEnv, installRoot: string): string {
  const p = pathsFor(env.platform);
  if (env.platform === 'win32') return p.join(installRoot, 'bin', 'x64', 'factorio.exe');
  if (env.platform === 'darwin') return p.join(installRoot, 'factorio.app', 'Contents', 'MacOS', 'factorio');
  return p.join(installRoot, 'bin', 'x64', 'factorio');
}

/** Steam installs Factorio under `<library>/steamapps/common/Factorio`. */
function steamRoots(env: LocateEnv): string[] {
  const p = pathsFor(env.platform);
  switch (env.platform) {
    case 'win32':
      return [
        p.join(env.vars['ProgramFiles(x86)'] || 'C:\\Program Files (x86)', 'Steam'),
        p.join(env.vars.ProgramFiles || 'C:\\Program Files', 'Steam'),
      ];
    case 'darwin':
      return [p.join(env.homedir, 'Library', 'Application Support', 'Steam')];
    default:
      return [p.join(env.homedir, '.steam', 'steam'), p.join(env.homedir, '.local', 'share', 'Steam')];
  }
}

/** Library folders listed in Steam's `libraryfolders.vdf` (games on other drives). */
export function steamLibraryFolders(vdf: string): string[] {
  const out: string[] = [];
  for (const m of vdf.matchAll(/"path"\s+"((?:[^"\\]|\\.)*)"/gi)) out.push(m[1].replace(/\\(.)/g, '$1'));
  return out;
}

/** Executable candidates in the order they are tried. */
export function executableCandidates(env: LocateEnv): string[] {
  const p = pathsFor(env.platform);
  const out: string[] = [];
  const steam = steamRoots(env);
  for (const root of steam) out.push(executableInInstall(env, p.join(root, 'steamapps', 'common', 'Factorio')));
  switch (env.platform) {
    case 'win32':
      out.unshift(
        p.join(env.vars.ProgramFiles || 'C:\\Program Files', 'Factorio', 'bin', 'x64', 'factorio.exe'),
        'C:\\Program Files\\Factorio\\bin\\x64\\factorio.exe',
      );
      break;
    case 'darwin':
      out.unshift('/Applications/factorio.app/Contents/MacOS/factorio', p.join(env.homedir, 'Applications', 'factorio.app', 'Contents', 'MacOS', 'factorio'));
      break;
    default:
      out.push(p.join(env.homedir, 'factorio', 'bin', 'x64', 'factorio'), '/opt/factorio/bin/x64/factorio', '/usr/share/factorio/bin/x64/factorio');
  }
  for (const root of steam) {
    const vdf = env.readFile(p.join(root, 'steamapps', 'libraryfolders.vdf'));
    if (!vdf) continue;
    for (const lib of steamLibraryFolders(vdf)) out.push(executableInInstall(env, p.join(lib, 'steamapps', 'common', 'Factorio')));
  }
  return dedupe(out, env.platform);
}

function dedupe(list: string[], platform: NodeJS.Platform): string[] {
  const seen = new Set<string>();
  const key = (s: string) => (platform === 'win32' || platform === 'darwin' ? s.toLowerCase() : s);
  return list.filter((s) => {
    const k = key(pathsFor(platform).normalize(s));
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The install folder: `<root>/bin/x64/factorio(.exe)`, or `factorio.app/Contents` on macOS. */
export function installRootOf(env: LocateEnv, executable: string): string {
  const p = pathsFor(env.platform);
  const dir = p.dirname(executable);
  return env.platform === 'darwin' ? p.dirname(dir) : p.dirname(p.dirname(dir));
}

/** The folders `__mod__/…` paths point into: the install's data/ (base, core, …) and the user's mods/. */
export function gameFoldersOf(paths: Pick<FactorioPaths, 'executable' | 'userDataDir'>, envIn: Partial<LocateEnv> = {}): GameFolders {
  const env: LocateEnv = { ...systemLocateEnv(), ...envIn };
  const p = pathsFor(env.platform);
  return { gameData: p.join(installRootOf(env, paths.executable), 'data'), mods: p.join(paths.userDataDir, 'mods') };
}

function cfgValue(text: string, key: string): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (t.startsWith(';') || t.startsWith('#')) continue;
    const eq = t.indexOf('=');
    if (eq > 0 && t.slice(0, eq).trim() === key) return t.slice(eq + 1).trim();
  }
  return undefined;
}

/** `write-data` from the `[path]` section of config.ini. */
function iniWriteData(text: string): string | undefined {
  let section = '';
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    const s = /^\[(.+)\]$/.exec(t);
    if (s) {
      section = s[1].trim();
      continue;
    }
    if (section !== 'path') continue;
    const eq = t.indexOf('=');
    if (eq > 0 && t.slice(0, eq).trim() === 'write-data') return t.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The user-data folder a zip/portable install writes to, or undefined for a system install.
 * Factorio reads `config-path.cfg` beside the install: `use-system-read-write-data-directories=false`
 * (or a config path under `__PATH__executable__`) means the user data lives in the install, at
 * the `write-data` of its config.ini (by default the install root).
 */
export function portableUserDataDir(env: LocateEnv, executable: string, tried: string[] = []): string | undefined {
  const p = pathsFor(env.platform);
  const root = installRootOf(env, executable);
  const exeDir = p.dirname(executable);
  const expand = (v: string) =>
    p.normalize(
      v
        .replace(/__PATH__executable__/g, exeDir)
        .replace(/__PATH__system-write-data__/g, defaultUserDataDir(env))
        .replace(/__PATH__system-read-data__/g, p.join(root, 'data')),
    );
  const cfgFile = p.join(root, 'config-path.cfg');
  tried.push(cfgFile);
  const cfg = env.readFile(cfgFile);
  let configDir: string;
  if (cfg !== undefined) {
    const useSystem = cfgValue(cfg, 'use-system-read-write-data-directories');
    const configPath = cfgValue(cfg, 'config-path');
    const portable = useSystem === 'false' || (!!configPath && configPath.includes('__PATH__executable__'));
    if (!portable) return undefined;
    configDir = configPath ? expand(configPath) : p.join(root, 'config');
  } else {
    configDir = p.join(root, 'config');
    tried.push(configDir);
    if (!env.exists(configDir)) return undefined;
  }
  const ini = env.readFile(p.join(configDir, 'config.ini'));
  const writeData = ini === undefined ? undefined : iniWriteData(ini);
  return writeData ? expand(writeData) : root;
}

/**
 * Find the executable and the user-data folder. Explicit settings win and are never second-guessed:
 * a setting that points nowhere is an error, not a reason to look elsewhere.
 */
export function detectFactorio(overrides: FactorioOverrides = {}, envIn: Partial<LocateEnv> = {}): FactorioPaths {
  const env: LocateEnv = { ...systemLocateEnv(), ...envIn };
  const p = pathsFor(env.platform);
  const tried: string[] = [];

  let executable: string | undefined;
  const exeSetting = overrides.executable?.trim();
  if (exeSetting) {
    executable = p.resolve(expandHome(env, exeSetting));
    tried.push(executable);
    if (!env.exists(executable)) {
      throw new FactorioSyncError(
        'not-found',
        `The ${EXECUTABLE_SETTING} setting points to ${executable}, but there is no file there. Set it to the Factorio executable (${exampleExecutable(env)}), or clear it to let PyOps search the usual install places.`,
        tried,
      );
    }
  } else {
    for (const c of executableCandidates(env)) {
      tried.push(c);
      if (env.exists(c)) {
        executable = c;
        break;
      }
    }
    if (!executable) {
      throw new FactorioSyncError(
        'not-found',
        `Could not find Factorio in the ${tried.length} usual install places (Steam libraries and standalone installs). ` +
          `Set the ${EXECUTABLE_SETTING} setting to the Factorio executable (${exampleExecutable(env)}), and ${USER_DATA_SETTING} to its user-data folder (the one holding mods/ and script-output/) if that is not ${defaultUserDataDir(env)}.`,
        tried,
      );
    }
  }

  const dataSetting = overrides.userDataDir?.trim();
  if (dataSetting) {
    const userDataDir = p.resolve(expandHome(env, dataSetting));
    tried.push(userDataDir);
    if (!env.exists(userDataDir)) {
      throw new FactorioSyncError(
        'not-found',
        `The ${USER_DATA_SETTING} setting points to ${userDataDir}, which does not exist. Set it to Factorio's user-data folder (the one holding mods/ and script-output/), or clear it to use the default.`,
        tried,
      );
    }
    return { executable, userDataDir, portable: false, tried };
  }

  const portable = portableUserDataDir(env, executable, tried);
  const userDataDir = portable ?? defaultUserDataDir(env);
  tried.push(userDataDir);
  if (!env.exists(userDataDir)) {
    throw new FactorioSyncError(
      'not-found',
      `Found Factorio at ${executable}, but not its user-data folder: ${userDataDir} does not exist. Start Factorio once so it creates the folder, or set ${USER_DATA_SETTING} to the folder holding mods/ and script-output/.`,
      tried,
    );
  }
  return { executable, userDataDir, portable: portable !== undefined, tried };
}

/** Settings are typed by hand: accept `~/…`. */
function expandHome(env: LocateEnv, s: string): string {
  return s === '~' || s.startsWith('~/') || s.startsWith('~\\') ? pathsFor(env.platform).join(env.homedir, s.slice(1)) : s;
}

function exampleExecutable(env: LocateEnv): string {
  if (env.platform === 'win32') return 'for example C:\\Program Files\\Factorio\\bin\\x64\\factorio.exe';
  if (env.platform === 'darwin') return 'for example /Applications/factorio.app/Contents/MacOS/factorio';
  return 'for example ~/factorio/bin/x64/factorio';
}
