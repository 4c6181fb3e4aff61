// Which game data a project holds — a dump of the player's Factorio or a FactorioLab data set, the
// game and mod versions — read from the game data's own meta, for every place that says it: the
// import summary, the assistant's horizon contract, the status bar and the Factory view.
import path from 'node:path';
import type { Project } from '../db/project';

export type GameDataFormat = 'dump' | 'factoriolab';

export interface Provenance {
  format: GameDataFormat;
  /** The file imported. */
  source: string;
  factorioVersion: string | null;
  /** Mod name → version, when the source records them (a FactorioLab set always does). */
  mods: Record<string, string> | null;
  importedAt: string | null;
  /** What the format cannot say (FactorioLab sets). */
  lacks: string[];
}

function parse<T>(s: string | undefined, fallback: T): T {
  if (!s) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
}

/** The project's provenance, or null without game data (or when it cannot be read). */
export function readProvenance(project: Project): Provenance | null {
  try {
    if (!project.hasGameData()) return null;
    const m = (k: string) => project.gamedataMeta(k);
    // Game data imported before FactorioLab sets existed came from a dump.
    const format: GameDataFormat = m('format') === 'factoriolab' ? 'factoriolab' : 'dump';
    const mods = parse<Record<string, string> | null>(m('mods'), null);
    return { format, source: m('source') ?? '', factorioVersion: m('factorio_version') || null, mods: mods && Object.keys(mods).length ? mods : null, importedAt: m('imported_at') ?? null, lacks: parse<string[]>(m('lacks'), []) };
  } catch {
    return null;
  }
}

/** Graphics-only mods say nothing about recipes, and the game's own are its version: left out of the short form. */
const inShortForm = (mod: string) => !/graphics\d*$/.test(mod) && mod !== 'base' && mod !== 'core';

/** `pyalienlife 2.1.41, pycoalprocessing 2.1.29, … (+3 more)`: the mods that shape recipes. */
export function modsLine(mods: Record<string, string> | null, max = 8): string {
  if (!mods) return '';
  const names = Object.keys(mods).filter(inShortForm).sort();
  const shown = names.slice(0, max).map((m) => `${m} ${mods[m]}`);
  return shown.join(', ') + (names.length > max ? ` (+${names.length - max} more)` : '');
}

/** What the project holds, in one line: "FactorioLab data set factoriolab-pysalf (Factorio 1.1.109 with pyalienlife 2.1.41, …)". */
export function describeProvenance(p: Provenance, maxMods = 8): string {
  const mods = modsLine(p.mods, maxMods);
  const game = `${p.factorioVersion ? `Factorio ${p.factorioVersion}` : 'Factorio, version not recorded'}${mods ? ` with ${mods}` : ''}`;
  if (p.format === 'factoriolab') return `FactorioLab data set ${path.basename(path.dirname(p.source)) || path.basename(p.source)} (${game})`;
  return `dump of ${game} (${path.basename(p.source)})`;
}

/** The short form for narrow places (a tree line): "FactorioLab factoriolab-pysalf, Factorio 1.1.109". */
export function shortProvenance(p: Provenance): string {
  const game = p.factorioVersion ? `Factorio ${p.factorioVersion}` : 'Factorio';
  return p.format === 'factoriolab' ? `FactorioLab ${path.basename(path.dirname(p.source)) || path.basename(p.source)}, ${game}` : `dump, ${game}`;
}
