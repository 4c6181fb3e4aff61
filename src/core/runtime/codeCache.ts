// Runs a CommonJS bundle with a V8 code cache: the start of the command line (cli/launch.ts) and of
// the extension (extension/entry.ts).
//
// Compiling the 2 MB command-line bundle is a sixth of a `pyops tool` call's time (~100 ms), paid
// again by every process, and a model's host or a script runs many. Node 22 caches compiled code
// itself (module.enableCompileCache), but only for a process that turns it on, and VS Code's
// extension host does not; on Node 20 it does not exist. This does the same with vm.Script's
// cachedData: the first run compiles and then stores V8's code, with every function that run compiled
// on the way (the CLI at exit, the extension once its startup project is open), in the user's cache
// folder; later runs start from it, so activate() does not compile what it calls function by
// function. V8 rejects data of another V8 build, source length or flags, and the file is named for
// the bundle's path, size and time, so a rebuilt bundle never runs old code. Failing to read or write
// the cache only costs the time it would have saved.
import crypto from 'node:crypto';
import fs from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

/** The per-user cache folder: PYOPS_CACHE_DIR, else the platform's usual place. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PYOPS_CACHE_DIR) return env.PYOPS_CACHE_DIR;
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(os.homedir(), 'AppData', 'Local'), 'pyops', 'Cache');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'pyops');
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'pyops');
}

const hash = (s: string, chars: number) => crypto.createHash('sha256').update(s).digest('hex').slice(0, chars);

/**
 * `<name>[.<variant>]-<where>-<build>.v8cache`: where = the bundle's path, build = Node and the
 * bundle's size and time; variant = the V8 flags the process set for itself (V8 refuses code cached
 * under other flags, so each set keeps its own file instead of each run replacing the other's).
 */
export function codeCacheFile(bundle: string, cacheDir: string, variant?: string): string {
  const stat = fs.statSync(bundle);
  const where = hash(path.resolve(bundle), 12);
  const build = hash(`${process.version}\0${process.arch}\0${stat.size}\0${stat.mtimeMs}`, 12);
  return path.join(cacheDir, `${path.basename(bundle, path.extname(bundle))}${variant ? `.${variant}` : ''}-${where}-${build}.v8cache`);
}

function writeCache(file: string, data: Buffer): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.renameSync(tmp, file);
    dropOlderBuilds(file);
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // the folder itself could not be made
    }
  }
}

/**
 * Removes the code of earlier builds of the same bundle (same name and place, another build): each
 * update of PyOps would otherwise leave a megabyte behind. Bundles elsewhere (another install, a
 * checkout) keep theirs; names of the older scheme, without the place, go too.
 */
function dropOlderBuilds(file: string): void {
  const dir = path.dirname(file);
  const m = /^(.*)-([0-9a-f]{12})-[0-9a-f]{12}\.v8cache$/.exec(path.basename(file));
  if (!m) return;
  const [, name, where] = m;
  for (const f of fs.readdirSync(dir)) {
    if (f === path.basename(file) || !f.startsWith(`${name}-`)) continue;
    const rest = f.slice(name.length + 1);
    if ((rest.startsWith(`${where}-`) && rest.endsWith('.v8cache')) || /^[0-9a-f]{24}\.v8cache$/.test(rest)) fs.rmSync(path.join(dir, f), { force: true });
  }
}

export interface CodeCacheOptions {
  /** undefined: no cache (PYOPS_NO_CODE_CACHE). */
  cacheDir?: string;
  /** Names the V8 flags this process set for itself before loading (see codeCacheFile). */
  variant?: string;
  /** Store at process exit (a command-line run); otherwise the host calls `store()` when its start is done. */
  storeAtExit?: boolean;
  /**
   * Called once the stored code has been checked and before the bundle runs: the place for work
   * that changes V8's flags (db/wasmAhead.ts), which V8 would otherwise take for another build's
   * code and refuse the cache.
   */
  beforeRun?: () => void;
}

/** What happened to the cache: `used` = the run started from stored code (the extension's entry stores later only when not). */
export type CodeCacheUse = 'used' | 'stored' | 'off';

export interface CodeCacheRun {
  /** `stored` once a run without usable code has stored it (or will, at exit). */
  use: CodeCacheUse;
  /** The bundle's module.exports. */
  exports: unknown;
  /** Stores the code compiled so far, when this run did not start from stored code; later calls do nothing. */
  store(): void;
}

/** Loads and runs `bundle` as Node's require would, from its code cache when there is a valid one. */
export function runWithCodeCache(bundle: string, opts: CodeCacheOptions): CodeCacheRun {
  const source = fs.readFileSync(bundle, 'utf8');
  const file = opts.cacheDir ? codeCacheFile(bundle, opts.cacheDir, opts.variant) : undefined;
  let cachedData: Buffer | undefined;
  if (file) {
    try {
      cachedData = fs.readFileSync(file);
    } catch {
      // the first run of this bundle
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
  const used = !!cachedData && !script.cachedDataRejected;
  let pending = !!file && !used;
  const store = () => {
    if (!pending || !file) return;
    pending = false;
    writeCache(file, script.createCachedData());
  };
  // At exit the cache holds every function the whole run compiled.
  if (pending && opts.storeAtExit) process.once('exit', store);
  opts.beforeRun?.();
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(bundle));
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  wrapper.call(mod.exports, mod.exports, Module.createRequire(bundle), mod, bundle, path.dirname(bundle));
  mod.loaded = true;
  return { use: used ? 'used' : file ? 'stored' : 'off', exports: mod.exports, store };
}
