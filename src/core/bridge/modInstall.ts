// Installing the companion mod into Factorio's user-data `mods/` folder and removing it again.
// Install copies the mod folder (or links it, for mod development), stamps info.json's
// factorio_version with the engine series the game reports (a 2.1 engine rejects a "2.0" mod and
// vice versa) and enables the mod in mod-list.json. Remove deletes only what is ours: a link, or
// a folder whose info.json names this mod; anything else is left alone with a message.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { atomicWriteFile } from '../db/atomicFile';
import { pairingLua } from './pairing';
import { factorioSeries } from '../gamedata/factorio';
import { MOD_LIST_FILE, modListSchema } from '../gamedata/factorio/modList';

export const COMPANION_MOD_NAME = 'pyops-link';

const infoSchema = z.looseObject({ name: z.string(), version: z.string(), factorio_version: z.string().optional() });

export type InstallMode = 'copy' | 'link';

export interface InstallOptions {
  /** The companion-mod folder shipped with PyOps. */
  sourceDir: string;
  /** Factorio's user-data folder (holds mods/). */
  userDataDir: string;
  /** The game's version ("2.0.77") or series ("2.1"). */
  factorioVersion: string;
  mode?: InstallMode;
  /** The app's pairing code, written into a copied mod as its setting's default (pairing.ts). */
  pairing?: string;
}

export interface InstallResult {
  modDir: string;
  mode: InstallMode;
  version: string;
  factorioVersion: string;
  /** Folders of an earlier install that were replaced. */
  replaced: string[];
  modListUpdated: boolean;
  /** The pairing code went into the mod (copy mode); otherwise the player sets it in the mod's settings. */
  pairingWritten: boolean;
}

export class ModInstallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModInstallError';
  }
}

function readInfo(dir: string): z.infer<typeof infoSchema> | undefined {
  try {
    const r = infoSchema.safeParse(JSON.parse(fs.readFileSync(path.join(dir, 'info.json'), 'utf8')));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Entries of mods/ that could be this mod: `pyops-link` or `pyops-link_<version>` (folders or links). */
function candidates(modsDir: string): string[] {
  if (!fs.existsSync(modsDir)) return [];
  return fs
    .readdirSync(modsDir)
    .filter((n) => n === COMPANION_MOD_NAME || (n.startsWith(`${COMPANION_MOD_NAME}_`) && !n.endsWith('.zip')))
    .map((n) => path.join(modsDir, n));
}

/** True when `p` is a link, or a folder whose info.json says it is this mod. */
export function isOurMod(p: string): boolean {
  if (isLink(p)) return true;
  return readInfo(p)?.name === COMPANION_MOD_NAME;
}

export function stampInfoJson(text: string, series: string): string {
  const info = JSON.parse(text) as Record<string, unknown>;
  info.factorio_version = series;
  return JSON.stringify(info, null, 2) + '\n';
}

function setModListEntry(modsDir: string, enabled: boolean | null): boolean {
  const file = path.join(modsDir, MOD_LIST_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    // no list yet: Factorio enables mods it finds on its own
    return false;
  }
  let list;
  try {
    const r = modListSchema.safeParse(JSON.parse(text));
    if (!r.success) return false;
    list = r.data;
  } catch {
    return false;
  }
  const has = list.mods.some((m) => m.name === COMPANION_MOD_NAME);
  let mods = list.mods;
  if (enabled === null) {
    if (!has) return false;
    mods = mods.filter((m) => m.name !== COMPANION_MOD_NAME);
  } else if (has) {
    if (list.mods.every((m) => m.name !== COMPANION_MOD_NAME || m.enabled === enabled)) return false;
    mods = mods.map((m) => (m.name === COMPANION_MOD_NAME ? { ...m, enabled } : m));
  } else {
    mods = [...mods, { name: COMPANION_MOD_NAME, enabled }];
  }
  atomicWriteFile(file, Buffer.from(JSON.stringify({ ...list, mods }, null, 2) + '\n', 'utf8'), { keepPrevious: false });
  return true;
}

/** Copy the mod folder, leaving out dotfiles (editor and VCS litter). */
function copyDir(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, filter: (src) => !path.basename(src).startsWith('.') || src === from });
}

export function installCompanionMod(o: InstallOptions): InstallResult {
  const mode = o.mode ?? 'copy';
  const source = path.resolve(o.sourceDir);
  const info = readInfo(source);
  if (!info || info.name !== COMPANION_MOD_NAME) {
    throw new ModInstallError(`${source} does not hold the PyOps Link mod (no info.json naming ${COMPANION_MOD_NAME}); reinstall the PyOps extension.`);
  }
  let series: string;
  try {
    series = factorioSeries(o.factorioVersion);
  } catch {
    throw new ModInstallError(`"${o.factorioVersion}" is not a Factorio version; PyOps needs the game's version (e.g. 2.0.77) to stamp the mod.`);
  }
  if (!fs.existsSync(o.userDataDir)) {
    throw new ModInstallError(`Factorio's user-data folder ${o.userDataDir} does not exist. Start Factorio once, or set pyops.factorio.userDataPath to the folder holding mods/.`);
  }
  const modsDir = path.join(o.userDataDir, 'mods');
  fs.mkdirSync(modsDir, { recursive: true });
  const existing = candidates(modsDir);
  const foreign = existing.filter((p) => !isOurMod(p));
  if (foreign.length) {
    throw new ModInstallError(`${foreign.join(', ')} already exists but is not the PyOps Link mod, so PyOps leaves it alone. Rename or remove it, then install again.`);
  }
  if (fs.readdirSync(modsDir).some((n) => n.startsWith(`${COMPANION_MOD_NAME}_`) && n.endsWith('.zip'))) {
    throw new ModInstallError(`${modsDir} holds a zipped ${COMPANION_MOD_NAME} already; Factorio refuses two copies of a mod. Remove the zip, then install again.`);
  }
  for (const p of existing) removeEntry(p);
  const modDir = path.join(modsDir, COMPANION_MOD_NAME);
  const infoText = fs.readFileSync(path.join(source, 'info.json'), 'utf8');
  const stamped = stampInfoJson(infoText, series);
  if (mode === 'link') {
    // A link serves the source folder itself, so the stamp goes into the source.
    if (stamped !== infoText) fs.writeFileSync(path.join(source, 'info.json'), stamped);
    fs.symlinkSync(source, modDir, process.platform === 'win32' ? 'junction' : 'dir');
  } else {
    copyDir(source, modDir);
    fs.writeFileSync(path.join(modDir, 'info.json'), stamped);
    // Not in link mode: that would write the code into the source checkout.
    if (o.pairing) fs.writeFileSync(path.join(modDir, 'pairing.lua'), pairingLua(o.pairing));
  }
  const modListUpdated = setModListEntry(modsDir, true);
  return { modDir, mode, version: info.version, factorioVersion: series, replaced: existing, modListUpdated, pairingWritten: mode === 'copy' && !!o.pairing };
}

function removeEntry(p: string): void {
  if (isLink(p)) fs.unlinkSync(p);
  else fs.rmSync(p, { recursive: true, force: true });
}

export interface RemoveResult {
  removed: string[];
  /** Entries named like the mod that are not ours, left in place. */
  skipped: string[];
  modListUpdated: boolean;
}

export function removeCompanionMod(userDataDir: string): RemoveResult {
  const modsDir = path.join(userDataDir, 'mods');
  const removed: string[] = [];
  const skipped: string[] = [];
  for (const p of candidates(modsDir)) {
    if (isOurMod(p)) {
      removeEntry(p);
      removed.push(p);
    } else {
      skipped.push(p);
    }
  }
  const modListUpdated = removed.length > 0 ? setModListEntry(modsDir, null) : false;
  return { removed, skipped, modListUpdated };
}

/** What is installed now, for the status view. */
export function companionModInstalled(userDataDir: string): { path: string; link: boolean; version?: string; factorioVersion?: string } | undefined {
  for (const p of candidates(path.join(userDataDir, 'mods'))) {
    if (!isOurMod(p)) continue;
    const info = readInfo(p);
    return { path: p, link: isLink(p), version: info?.version, factorioVersion: info?.factorio_version };
  }
  return undefined;
}
