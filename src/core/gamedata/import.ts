// Import a dump into a project: read → normalize → replace the reference tables in one
// transaction → save the game data. Project-owned rows are never touched; a bad dump leaves the
// project exactly as it was.
import type { Project } from '../db/project';
import { DATA_FORMAT_VERSION, HAND_CRAFTING_META } from '../db/schema/gamedata';
import { findDumpSource, readDump, type DumpSource } from './dump/read';
import { normalizeDump } from './normalize';
import { writeGameData } from './write';
import type { GameData, MachineKind } from './model';

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
  dumpFile: string;
  localeFiles: string[];
  warnings: string[];
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
  const src = typeof source === 'string' ? findDumpSource(source) : source;
  progress('read', `Reading ${src.dumpFile}`);
  const dump = readDump(src);
  progress('normalize', 'Normalizing prototypes');
  const norm = normalizeDump(dump.raw, dump.locale);
  const counts = countGameData(norm.data);
  progress('write', 'Writing game data');
  const importedAt = new Date().toISOString();
  project.replaceGameData((db) => writeGameData(db, norm.data), {
    fingerprint: dump.fingerprint,
    data_format_version: String(DATA_FORMAT_VERSION),
    imported_at: importedAt,
    source: src.dumpFile,
    mods: JSON.stringify(norm.mods),
    factorio_version: norm.factorioVersion ?? '',
    counts: JSON.stringify(counts),
    turd_replacement_source: norm.turdReplacementSource,
    [HAND_CRAFTING_META]: JSON.stringify(norm.handCraftingCategories),
  });
  progress('done', 'Imported');
  return {
    counts,
    fingerprint: dump.fingerprint,
    dataFormatVersion: DATA_FORMAT_VERSION,
    dumpFile: src.dumpFile,
    localeFiles: src.localeFiles,
    warnings: norm.warnings,
    mods: norm.mods,
    factorioVersion: norm.factorioVersion,
    turdReplacementSource: norm.turdReplacementSource,
    seconds: (performance.now() - t0) / 1000,
  };
}
