// Import game data into a project: find what the path holds (a Factorio dump or a FactorioLab data
// set) → read → normalize into the same tables → replace the reference tables in one transaction →
// save the game data. Project-owned rows are never touched; bad input leaves the project exactly as
// it was.
import type { Project } from '../db/project';
import { DATA_FORMAT_VERSION, HAND_CRAFTING_META } from '../db/schema/gamedata';
import { readDump, type DumpSource } from './dump/read';
import { normalizeDump } from './normalize';
import { readFlab } from './factoriolab/read';
import { normalizeFlab } from './factoriolab/normalize';
import { findGameDataSource, type GameDataSource } from './source';
import { estimateGameDataBytes, writeGameData } from './write';
import type { GameData, MachineKind } from './model';
import type { GameDataFormat } from './provenance';

export interface ImportCounts {
  items: number;
  fluids: number;
  recipes: number;
  synthesizedRecipes: number;
  machines: number;
  machinesByKind: Partial<Record<MachineKind, number>>;
  modules: number;
  beacons: number;
  technologies: number;
  turdMasters: number;
  turdBranches: number;
  turdReplacements: number;
  resources: number;
  labs: number;
}

export interface ImportSummary {
  counts: ImportCounts;
  fingerprint: string;
  dataFormatVersion: number;
  /** A dump, or a FactorioLab data set. */
  format: GameDataFormat;
  /** The file read (the dump, or the data set's data.json). */
  dumpFile: string;
  localeFiles: string[];
  warnings: string[];
  /** What the source format cannot say (said once; empty for a dump). */
  lacks: string[];
  mods: Record<string, string> | null;
  factorioVersion: string | null;
  turdReplacementSource: 'helper' | 'inferred' | 'none';
  seconds: number;
}

export type ImportStage = 'read' | 'normalize' | 'write' | 'done';
export interface ImportOptions {
  onProgress?: (stage: ImportStage, message: string) => void;
}

export function countGameData(d: GameData): ImportCounts {
  const byKind: Partial<Record<MachineKind, number>> = {};
  for (const m of d.crafting_machines) byKind[m.kind] = (byKind[m.kind] ?? 0) + 1;
  return {
    items: d.items.length,
    fluids: d.fluids.filter((f) => !f.synthetic).length,
    recipes: d.recipes.filter((r) => !r.synthetic).length,
    synthesizedRecipes: d.recipes.filter((r) => r.synthetic).length,
    machines: d.crafting_machines.length,
    machinesByKind: byKind,
    modules: d.modules.length,
    beacons: d.beacons.length,
    technologies: d.technologies.length,
    turdMasters: d.turd_masters.length,
    turdBranches: d.turd_branches.length,
    turdReplacements: d.turd_replacements.length,
    resources: d.resources.length,
    labs: d.labs.length,
  };
}

export async function importGameData(project: Project, source: string | DumpSource, opts: ImportOptions = {}): Promise<ImportSummary> {
  const t0 = performance.now();
  const progress = opts.onProgress ?? (() => {});
  const found: GameDataSource = typeof source === 'string' ? findGameDataSource(source) : { format: 'dump', dump: source };
  const read = readSource(found, progress);
  const counts = countGameData(read.data);
  progress('write', 'Writing game data');
  const importedAt = new Date().toISOString();
  project.replaceGameData((db) => writeGameData(db, read.data), {
    fingerprint: read.fingerprint,
    data_format_version: String(DATA_FORMAT_VERSION),
    imported_at: importedAt,
    source: read.file,
    format: found.format,
    mods: JSON.stringify(read.mods),
    factorio_version: read.factorioVersion ?? '',
    counts: JSON.stringify(counts),
    turd_replacement_source: read.turdReplacementSource,
    lacks: JSON.stringify(read.lacks),
    [HAND_CRAFTING_META]: JSON.stringify(read.handCraftingCategories),
  }, estimateGameDataBytes(read.data));
  progress('done', 'Imported');
  return {
    counts,
    fingerprint: read.fingerprint,
    dataFormatVersion: DATA_FORMAT_VERSION,
    format: found.format,
    dumpFile: read.file,
    localeFiles: read.localeFiles,
    warnings: read.warnings,
    lacks: read.lacks,
    mods: read.mods,
    factorioVersion: read.factorioVersion,
    turdReplacementSource: read.turdReplacementSource,
    seconds: (performance.now() - t0) / 1000,
  };
}

interface ReadSource {
  data: GameData;
  file: string;
  localeFiles: string[];
  fingerprint: string;
  warnings: string[];
  lacks: string[];
  mods: Record<string, string> | null;
  factorioVersion: string | null;
  turdReplacementSource: 'helper' | 'inferred' | 'none';
  /** Recipe categories the player character crafts by hand (none known from a FactorioLab set). */
  handCraftingCategories: string[];
}

function readSource(found: GameDataSource, progress: (stage: ImportStage, message: string) => void): ReadSource {
  if (found.format === 'factoriolab') {
    progress('read', `Reading the FactorioLab data set ${found.file}`);
    const set = readFlab(found.file);
    progress('normalize', 'Mapping the data set');
    const norm = normalizeFlab(set.data);
    return { ...norm, file: found.file, localeFiles: [], fingerprint: set.fingerprint, turdReplacementSource: 'none', handCraftingCategories: [] };
  }
  const src = found.dump;
  progress('read', `Reading ${src.dumpFile}`);
  const dump = readDump(src);
  progress('normalize', 'Normalizing prototypes');
  const norm = normalizeDump(dump.raw, dump.locale);
  return { ...norm, file: src.dumpFile, localeFiles: src.localeFiles, fingerprint: dump.fingerprint, lacks: [] };
}
