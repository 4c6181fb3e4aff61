// `pyops project create|backup|restore|recover`
import path from 'node:path';
import { Project } from '../../core/db/project';
import { backupProject, defaultBackupPath, restoreBackup } from '../../core/db/bundle';
import { recoverProject, describeRecovery } from '../../core/db/recover';
import { parse, UsageError } from '../args';
import type { CliIO } from '../io';


export async function projectCommand(argv: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'create': {
      const a = parse(rest, { name: { type: 'string' } }, { min: 1, max: 1, names: 'the project file' });
      const file = withExtension(a.positionals[0]);
      const p = await Project.create(file, { name: a.values.name, app: 'cli' });
      io.out(`Created project "${p.name}" at ${p.file}`);
      p.close();
      return 0;
    }
    case 'backup': {
      const a = parse(rest, { out: { type: 'string' } }, { min: 1, max: 1, names: 'the project file' });
      const p = await Project.open(a.positionals[0], { readOnly: true, app: 'cli' });
      try {
        const dest = await backupProject(p, a.values.out ?? defaultBackupPath(p.file));
        io.out(`Backed up "${p.name}" to ${dest}`);
      } finally {
        p.close();
      }
      return 0;
    }
    case 'restore': {
      const a = parse(rest, {}, { min: 2, max: 2, names: 'the backup file and the project file to restore into' });
      const target = withExtension(a.positionals[1]);
      await restoreBackup(a.positionals[0], target);
      io.out(`Restored ${a.positionals[0]} into ${path.resolve(target)}`);
      return 0;
    }
    case 'recover': {
      const a = parse(rest, { yes: { type: 'boolean' }, json: { type: 'boolean' } }, { min: 1, max: 1, names: 'the project file' });
      // The dry run comes first by design: it says what would be lost before anything is.
      const report = await recoverProject(withExtension(a.positionals[0]), { apply: !!a.values.yes, app: 'cli (recover)' });
      if (a.values.json) io.out(JSON.stringify({ ...report, applied: !!report.keptIn }, null, 2));
      else for (const line of describeRecovery(report, !!report.keptIn)) io.out(line);
      return 0;
    }
    default:
      throw new UsageError(sub ? `unknown project command "${sub}"` : 'missing project command');
  }
}

function withExtension(file: string): string {
  return path.extname(file) ? file : file + '.pyops';
}
