// Installing and removing the temporary helper mod in the user's Factorio folder. Install writes
// `mods/pyops-dump-helper/` and enables it in `mods/mod-list.json`; restore puts mod-list.json
// back byte for byte (or deletes it when we created it) and removes the folder. A restore record
// inside the helper folder lets the next sync undo a run that was killed before it could restore.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { z } from 'zod';
import { atomicWriteFile } from '../../db/atomicFile';
import { FactorioSyncError } from './errors';
import { HELPER_DATA_FINAL_FIXES_LUA, HELPER_MOD_AUTHOR, HELPER_MOD_NAME, helperInfoJson } from './helperModFiles';
import { MOD_LIST_FILE, modListSchema, type ModList } from './modList';

/** Inside the helper folder; Factorio ignores files it does not know. */
const RESTORE_RECORD = 'pyops-restore.json';

const infoSchema = z.looseObject({ name: z.string().optional(), author: z.string().optional() });

const restoreRecordSchema = z.object({
  /** mod-list.json before the sync, base64; null when there was none. */
  original: z.string().nullable(),
  /** sha256 of the mod-list.json we wrote. */
  written: z.string(),
  createdModsDir: z.boolean(),
});

export interface HelperModInstall {
  readonly modDir: string;
  readonly modListFile: string;
  /** Undo the install. Idempotent; safe to call from `finally`. */
  restore(): void;
}

const sha256 = (b: Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');

function readIfExists(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function parseModList(bytes: Buffer, file: string): ModList {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new FactorioSyncError(
      'failed',
      `${file} is not valid JSON (${(err as Error).message}). Start Factorio once so it rewrites the file, or fix it by hand, then sync again.`,
    );
  }
  const parsed = modListSchema.safeParse(value);
  if (!parsed.success) {
    throw new FactorioSyncError('failed', `${file} does not look like Factorio's mod list (expected {"mods": [{"name": …, "enabled": …}]}). Start Factorio once so it rewrites the file, then sync again.`);
  }
  return parsed.data;
}

function isOurs(modDir: string): boolean {
  const text = readIfExists(path.join(modDir, 'info.json'));
  if (!text) return false;
  try {
    const info = infoSchema.safeParse(JSON.parse(text.toString('utf8')));
    return info.success && info.data.name === HELPER_MOD_NAME && info.data.author === HELPER_MOD_AUTHOR;
  } catch {
    return false;
  }
}

function withoutHelper(list: ModList): ModList {
  return { ...list, mods: list.mods.filter((m) => m.name !== HELPER_MOD_NAME) };
}

function writeJson(file: string, value: unknown): Buffer {
  const bytes = Buffer.from(JSON.stringify(value, null, 2) + '\n', 'utf8');
  atomicWriteFile(file, bytes, { keepPrevious: false });
  return bytes;
}

function removeEmptyDir(dir: string): void {
  try {
    if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  } catch {
    // not there, or not empty: leave it
  }
}

/**
 * Undo a helper left behind by a sync that was killed mid-run. When mod-list.json is still what
 * we wrote, the original comes back byte for byte; when the user (or the game) changed it since,
 * only our entry is taken out. Returns true when there was something to undo.
 */
export function recoverHelperMod(userDataDir: string): boolean {
  const modsDir = path.join(userDataDir, 'mods');
  const modDir = path.join(modsDir, HELPER_MOD_NAME);
  if (!fs.existsSync(modDir) || !isOurs(modDir)) return false;
  const modListFile = path.join(modsDir, MOD_LIST_FILE);
  const current = readIfExists(modListFile);
  let record: z.infer<typeof restoreRecordSchema> | undefined;
  try {
    const parsed = restoreRecordSchema.safeParse(JSON.parse(fs.readFileSync(path.join(modDir, RESTORE_RECORD), 'utf8')));
    if (parsed.success) record = parsed.data;
  } catch {
    // no record: fall back to taking our entry out
  }
  if (current && record && sha256(current) === record.written) {
    if (record.original === null) fs.rmSync(modListFile, { force: true });
    else atomicWriteFile(modListFile, Buffer.from(record.original, 'base64'), { keepPrevious: false });
  } else if (current) {
    try {
      const list = parseModList(current, modListFile);
      if (list.mods.some((m) => m.name === HELPER_MOD_NAME)) writeJson(modListFile, withoutHelper(list));
    } catch {
      // an unreadable list is the game's to repair; we only remove our folder
    }
  }
  fs.rmSync(modDir, { recursive: true, force: true });
  return true;
}

/** Write the helper into `<userDataDir>/mods` and enable it, stamped for `factorioVersion` ("2.0.77" or "2.0"). */
export function installHelperMod(userDataDir: string, factorioVersion: string): HelperModInstall {
  const modsDir = path.join(userDataDir, 'mods');
  const modDir = path.join(modsDir, HELPER_MOD_NAME);
  const modListFile = path.join(modsDir, MOD_LIST_FILE);
  const infoJson = helperInfoJson(factorioVersion);

  if (fs.existsSync(modDir)) {
    if (!isOurs(modDir)) {
      throw new FactorioSyncError(
        'failed',
        `${modDir} exists but is not the PyOps helper mod (its info.json differs), so PyOps leaves it alone. Rename or remove that folder, then sync again.`,
      );
    }
    recoverHelperMod(userDataDir);
  }
  const createdModsDir = !fs.existsSync(modsDir);
  const others = createdModsDir ? [] : fs.readdirSync(modsDir).filter((n) => n !== HELPER_MOD_NAME && (n.startsWith(`${HELPER_MOD_NAME}_`) || n === `${HELPER_MOD_NAME}.zip`));
  if (others.length) {
    throw new FactorioSyncError(
      'failed',
      `${modsDir} already holds ${others.join(', ')}, another copy of a mod named ${HELPER_MOD_NAME}; Factorio would refuse two copies. Remove it, then sync again.`,
    );
  }

  const original = readIfExists(modListFile);
  // Without a list Factorio treats every mod it finds with its defaults; we add only our entry.
  const list: ModList = original ? parseModList(original, modListFile) : { mods: [] };
  const entry = list.mods.find((m) => m.name === HELPER_MOD_NAME);
  const next: ModList = entry
    ? { ...list, mods: list.mods.map((m) => (m.name === HELPER_MOD_NAME ? { ...m, enabled: true } : m)) }
    : { ...list, mods: [...list.mods, { name: HELPER_MOD_NAME, enabled: true }] };
  const nextBytes = Buffer.from(JSON.stringify(next, null, 2) + '\n', 'utf8');

  let restored = false;
  const restore = () => {
    if (restored) return;
    if (original === null) fs.rmSync(modListFile, { force: true });
    else atomicWriteFile(modListFile, original, { keepPrevious: false });
    fs.rmSync(modDir, { recursive: true, force: true });
    if (createdModsDir) removeEmptyDir(modsDir);
    restored = true;
  };

  try {
    fs.mkdirSync(modDir, { recursive: true });
    fs.writeFileSync(path.join(modDir, 'info.json'), infoJson);
    fs.writeFileSync(path.join(modDir, 'data-final-fixes.lua'), HELPER_DATA_FINAL_FIXES_LUA);
    // The record goes in before mod-list.json changes, so a crash from here on is recoverable.
    const record: z.infer<typeof restoreRecordSchema> = { original: original ? original.toString('base64') : null, written: sha256(nextBytes), createdModsDir };
    fs.writeFileSync(path.join(modDir, RESTORE_RECORD), JSON.stringify(record));
    atomicWriteFile(modListFile, nextBytes, { keepPrevious: false });
  } catch (err) {
    try {
      restore();
    } catch {
      // report the first failure
    }
    if (err instanceof FactorioSyncError) throw err;
    throw new FactorioSyncError('failed', `Could not install the PyOps helper mod into ${modsDir}: ${(err as Error).message}`);
  }
  return { modDir, modListFile, restore };
}
