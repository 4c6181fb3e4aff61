// "Sync game data from Factorio": find the game → refuse while it runs → read its version →
// enable the helper mod → `--dump-data` → `--dump-prototype-locale` → always put the user's mods
// back → import the dump if this run wrote it → extract the icons it names (never failing the
// sync). Errors are FactorioSyncErrors (or the importer's DumpError) whose message says what to do;
// the project changes only when the import succeeds.
import fs from 'node:fs';
import path from 'node:path';
import type { Project } from '../../db/project';
import { ProjectError } from '../../db/errors';
import { importGameData, type ImportSummary } from '../import';
import { DUMP_FILE, findDumpSource, type DumpSource } from '../dump/read';
import { detectFactorio, gameFoldersOf, type LocateEnv } from './locate';
import { describeIconSummary, extractProjectIcons, type IconExtractSummary } from '../icons/extract';
import type { GameFolders } from '../icons/modFiles';
import { isFactorioRunning } from './process';
import { installHelperMod } from './helperMod';
import { HELPER_MOD_NAME } from './helperModFiles';
import { DEFAULT_TIMEOUT_MS, MTIME_SLACK_MS, readFactorioVersion, runFactorio } from './run';
import { errorEntries, writeDataPath } from './banner';
import { FactorioSyncError, USER_DATA_SETTING } from './errors';

export const SCRIPT_OUTPUT = 'script-output';

export interface SyncOptions {
  /** `pyops.factorio.executablePath`; searched for when unset. */
  executable?: string;
  /** `pyops.factorio.userDataPath`; derived from the install when unset. */
  userDataDir?: string;
  /** For the whole sync (default 10 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Progress, in the past tense. */
  onProgress?: (message: string) => void;
  /** Default: look at the process list. */
  isRunning?: () => boolean | Promise<boolean>;
  /** Platform, home, environment variables and file checks used to find the game. */
  env?: Partial<LocateEnv>;
  /** Environment of the Factorio process (default: this process's). */
  processEnv?: Record<string, string | undefined>;
  /** Extract the icons into the cache beside the project after the import (default true). */
  icons?: boolean;
}

export interface SyncResult {
  summary: ImportSummary;
  executable: string;
  userDataDir: string;
  /** As `factorio --version` printed it, e.g. `2.0.77`. */
  factorioVersion: string;
  /**
   * Whether the dump carried the helper mod's export. When false the game did not load the
   * helper (the importer then inferred TURD replacements from recipe names).
   */
  helperLoaded: boolean;
  /** The icon extraction after the import; it never fails the sync, so a failure is reported here. */
  icons?: IconExtractSummary | { error: string };
}

interface FileMark {
  mtimeMs: number;
  size: number;
  ino: number;
}

function mark(file: string): FileMark | undefined {
  try {
    const s = fs.statSync(file);
    return s.isFile() ? { mtimeMs: s.mtimeMs, size: s.size, ino: s.ino } : undefined;
  } catch {
    return undefined;
  }
}

/** Every file in script-output/ and script-output/prototype-locale/ as it was before the run. */
function markOutputs(dir: string): Map<string, FileMark> {
  const marks = new Map<string, FileMark>();
  for (const d of [dir, path.join(dir, 'prototype-locale')]) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(d);
    } catch {
      continue;
    }
    for (const n of names) {
      const m = mark(path.join(d, n));
      if (m) marks.set(path.join(d, n), m);
    }
  }
  return marks;
}

/**
 * Written during this run: changed since the mark taken just before it (which catches a dump from
 * an earlier run seconds ago) and not older than the start (which catches a file put back from
 * elsewhere with its old time).
 */
function writtenSince(file: string, before: FileMark | undefined, startedAt: number): boolean {
  const now = mark(file);
  if (!now || now.mtimeMs < startedAt - MTIME_SLACK_MS) return false;
  return !before || before.mtimeMs !== now.mtimeMs || before.size !== now.size || before.ino !== now.ino;
}

function samePath(a: string, b: string): boolean {
  const norm = (p: string) => path.resolve(p).replace(/[\\/]+$/, '');
  return process.platform === 'win32' || process.platform === 'darwin' ? norm(a).toLowerCase() === norm(b).toLowerCase() : norm(a) === norm(b);
}

function noOutputHint(userDataDir: string, gameOutput: string): string {
  const reported = writeDataPath(gameOutput);
  const errors = errorEntries(gameOutput);
  const where =
    reported && !samePath(reported, userDataDir)
      ? `Factorio reports its user-data folder as ${reported}, but PyOps used ${userDataDir}: set ${USER_DATA_SETTING} to ${reported}, then sync again.`
      : `Check that ${USER_DATA_SETTING} is the folder this Factorio writes to (the one holding factorio-current.log and script-output/), then sync again.`;
  return errors.length ? `${where}\nFactorio logged:\n${errors.map((l) => `  ${l}`).join('\n')}` : where;
}

function freshOutput(userDataDir: string, before: Map<string, FileMark>, startedAt: number, gameOutput: string): DumpSource {
  const dir = path.join(userDataDir, SCRIPT_OUTPUT);
  const dumpFile = path.join(dir, DUMP_FILE);
  if (!writtenSince(dumpFile, before.get(dumpFile), startedAt)) {
    const stale = fs.existsSync(dumpFile) ? ' (the file there is left from an earlier run, so PyOps did not import it)' : '';
    throw new FactorioSyncError('no-output', `Factorio finished "--dump-data" without writing ${dumpFile}${stale}. ${noOutputHint(userDataDir, gameOutput)}`);
  }
  const all = findDumpSource(dir).localeFiles;
  const localeFiles = all.filter((f) => writtenSince(f, before.get(f), startedAt));
  if (!localeFiles.length) {
    throw new FactorioSyncError(
      'no-output',
      `Factorio finished "--dump-prototype-locale" without writing any *-locale.json into ${dir}${all.length ? ' (those there are left from an earlier run)' : ''}. ${noOutputHint(userDataDir, gameOutput)}`,
    );
  }
  return { dumpFile, localeFiles };
}

export async function syncFromFactorio(project: Project, opts: SyncOptions = {}): Promise<SyncResult> {
  const say = opts.onProgress ?? (() => {});
  const budget = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + budget;
  const remaining = () => Math.max(1, deadline - Date.now());
  if (project.readOnly) {
    throw new ProjectError('read-only', `${project.name} is read-only (${project.readOnlyReason ?? 'opened read-only'}), so game data cannot be imported into it.`);
  }

  const paths = detectFactorio({ executable: opts.executable, userDataDir: opts.userDataDir }, opts.env);
  say(`Found Factorio at ${paths.executable} (user data in ${paths.userDataDir})`);
  if (await (opts.isRunning ?? (() => isFactorioRunning()))()) {
    throw new FactorioSyncError(
      'running',
      'Factorio is running. Save and quit the game, then sync again: the sync starts Factorio itself, with a helper mod enabled for that run. Nothing was changed.',
    );
  }
  const run = { signal: opts.signal, env: opts.processEnv, userDataDir: paths.userDataDir, timeoutBudgetMs: budget };
  const version = await readFactorioVersion(paths.executable, { ...run, timeoutMs: remaining() });
  say(`Read the game version: Factorio ${version.version}`);

  const before = markOutputs(path.join(paths.userDataDir, SCRIPT_OUTPUT));
  const startedAt = Date.now();
  const helper = installHelperMod(paths.userDataDir, version.version);
  say(`Enabled the helper mod ${HELPER_MOD_NAME} for this run`);
  let gameOutput = '';
  let failed: unknown;
  try {
    const dump = await runFactorio(paths.executable, ['--dump-data'], { ...run, timeoutMs: remaining() });
    gameOutput = dump.stdout + dump.stderr + dump.log;
    say(`Dumped the prototypes (${dump.seconds.toFixed(1)} s)`);
    const locale = await runFactorio(paths.executable, ['--dump-prototype-locale'], { ...run, timeoutMs: remaining() });
    gameOutput += locale.stdout + locale.stderr + locale.log;
    say(`Dumped the names (${locale.seconds.toFixed(1)} s)`);
  } catch (err) {
    failed = err;
    throw err;
  } finally {
    try {
      helper.restore();
      say(`Restored ${helper.modListFile} and removed the helper mod`);
    } catch (err) {
      const note = `Could not put ${helper.modListFile} back or remove ${helper.modDir} (${(err as Error).message}). The next sync undoes it; or remove that folder and the "${HELPER_MOD_NAME}" entry of mod-list.json by hand.`;
      if (failed instanceof Error) failed.message += `\n${note}`;
      else throw new FactorioSyncError('failed', note); // no earlier failure: this is the failure
    }
  }
  if (opts.signal?.aborted) throw new FactorioSyncError('aborted', 'Cancelled after the dump; the project was not changed.');

  const source = freshOutput(paths.userDataDir, before, startedAt, gameOutput);
  const summary = await importGameData(project, source, { onProgress: (stage, message) => stage !== 'done' && say(message) });
  const helperLoaded = summary.mods !== null;
  say(
    `Imported ${summary.counts.items} items, ${summary.counts.fluids} fluids and ${summary.counts.recipes} recipes from Factorio ${version.version}` +
      (helperLoaded ? '' : ' (the helper mod did not load, so TURD replacements were inferred from recipe names)'),
  );
  const icons = opts.icons === false ? undefined : await syncIcons(project, gameFoldersOf(paths, opts.env), opts.signal, say);
  return { summary, executable: paths.executable, userDataDir: paths.userDataDir, factorioVersion: version.version, helperLoaded, icons };
}

/** The data is in; pictures are a nicety, so whatever goes wrong here is reported, never thrown. */
async function syncIcons(project: Project, folders: GameFolders, signal: AbortSignal | undefined, say: (m: string) => void): Promise<IconExtractSummary | { error: string }> {
  try {
    const s = await extractProjectIcons(project, { folders, signal });
    say(`Extracted the icons (${describeIconSummary(s)}, ${s.seconds.toFixed(1)} s)`);
    return s;
  } catch (err) {
    const error = `${err instanceof Error ? err.message : String(err)} The game data was imported; the views show their usual symbols until "PyOps: Extract Icons from Factorio" succeeds.`;
    say(`Icons were not extracted: ${error}`);
    return { error };
  }
}
