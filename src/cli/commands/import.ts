// `pyops import <project-file> <dump-or-data-set> [--json]`: a Factorio dump or a FactorioLab data
// set (file or folder; the format is told from what it holds).
import { Project } from '../../core/db/project';
import { ProjectError } from '../../core/db/errors';
import { importGameData } from '../../core/gamedata/import';
import { describeProvenance, readProvenance } from '../../core/gamedata/provenance';
import { parse } from '../args';
import type { CliIO } from '../io';


export async function importCommand(argv: string[], io: CliIO): Promise<number> {
  const a = parse(argv, { json: { type: 'boolean' } }, { min: 2, max: 2, names: 'the project file and the dump or FactorioLab data set (file or folder)' });
  const [projectFile, source] = a.positionals;
  const p = await Project.open(projectFile, { app: 'cli' });
  try {
    if (p.readOnly) throw new ProjectError('read-only', p.readOnlyReason ?? 'the project is read-only');
    const s = await importGameData(p, source, { onProgress: a.values.json || !io.interactive ? undefined : (_stage, msg) => io.err(msg) });
    const provenance = readProvenance(p);
    const what = provenance ? describeProvenance(provenance) : s.dumpFile;
    if (a.values.json) {
      io.out(JSON.stringify({ project: p.file, ...s.counts, fingerprint: s.fingerprint, dataFormatVersion: s.dataFormatVersion, format: s.format, source: what, dumpFile: s.dumpFile, localeFiles: s.localeFiles, mods: s.mods, factorioVersion: s.factorioVersion, turdReplacementSource: s.turdReplacementSource, lacks: s.lacks, warnings: s.warnings, seconds: s.seconds }));
    } else {
      const c = s.counts;
      io.out(
        `Imported the ${what} into "${p.name}" in ${s.seconds.toFixed(2)} s: ${c.items} items, ${c.fluids} fluids, ${c.recipes} recipes (+${c.synthesizedRecipes} synthesized), ` +
          `${c.machines} machines, ${c.modules} modules, ${c.beacons} beacons, ${c.technologies} technologies, ${c.turdMasters} TURD masters.`,
      );
      if (s.lacks.length) io.out(`The data set does not carry: ${s.lacks.join('; ')}.`);
      for (const w of s.warnings.slice(0, 10)) io.err(`warning: ${w}`);
      if (s.warnings.length > 10) io.err(`… and ${s.warnings.length - 10} more warnings`);
    }
  } finally {
    p.close();
  }
  return 0;
}
