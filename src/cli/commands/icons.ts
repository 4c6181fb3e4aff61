// `pyops icons extract <project-file> --factorio <install-folder> [--mods <mods-folder>] [--json]`:
// what "PyOps: Extract Icons from Factorio" does, by hand, printing the same report. The project is
// only read (its icon specs); the pictures go into the cache beside it. Ctrl+C stops the extraction
// thread at once and keeps the icons extracted before.
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../core/db/project';
import { defaultUserDataDir, portableUserDataDir, systemLocateEnv } from '../../core/gamedata/factorio/locate';
import { describeIconReport, extractProjectIcons } from '../../core/gamedata/icons/extract';
import { parse, UsageError } from '../args';
import { processIO, type CliIO } from '../io';

export interface IconsDeps {
  /** Stops the extraction like Ctrl+C (tests). */
  signal?: AbortSignal;
}

const isDir = (p: string) => fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;

/** The mods folder the game uses with this install: its own user data when portable, else the system's. */
function defaultModsFolder(install: string): string {
  const env = systemLocateEnv();
  const executable = env.platform === 'darwin' ? path.join(install, 'MacOS', 'factorio') : path.join(install, 'bin', 'x64', env.platform === 'win32' ? 'factorio.exe' : 'factorio');
  return path.join(portableUserDataDir(env, executable) ?? defaultUserDataDir(env), 'mods');
}

export async function iconsCommand(argv: string[], io: CliIO, deps: IconsDeps = {}): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'extract') throw new UsageError(sub ? `unknown icons command "${sub}"` : 'missing icons command');
  const a = parse(rest, { factorio: { type: 'string' }, mods: { type: 'string' }, json: { type: 'boolean' } }, { min: 1, max: 1, names: 'the project file' });
  if (!a.values.factorio) throw new UsageError('missing --factorio <install-folder>');
  const install = path.resolve(a.values.factorio);
  const gameData = path.join(install, 'data');
  if (!isDir(gameData)) throw new Error(`${install} has no data folder; --factorio takes the Factorio install folder (the one holding bin/ and data/).`);
  const mods = a.values.mods ? path.resolve(a.values.mods) : defaultModsFolder(install);
  if (a.values.mods && !isDir(mods)) throw new Error(`--mods ${mods} is not a folder; give the mods folder of Factorio's user data (the one holding mod-list.json).`);

  const controller = new AbortController();
  const stop = () => controller.abort();
  deps.signal?.addEventListener('abort', stop, { once: true });
  if (io === processIO) process.once('SIGINT', stop);
  const project = await Project.open(a.positionals[0], { readOnly: true, app: 'cli' });
  try {
    let shown = 0;
    const s = await extractProjectIcons(project, {
      folders: { gameData, mods },
      signal: controller.signal,
      onProgress:
        a.values.json || !io.interactive
          ? undefined
          : (done, total) => {
              if (done < total && Date.now() - shown < 1000) return;
              shown = Date.now();
              io.err(`icons: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`);
            },
    });
    if (a.values.json) io.out(JSON.stringify({ project: project.file, gameData, mods, ...s }));
    else io.out(`${describeIconReport(s)} (${s.seconds.toFixed(1)} s)`);
    return 0;
  } finally {
    deps.signal?.removeEventListener('abort', stop);
    if (io === processIO) process.removeListener('SIGINT', stop);
    project.close();
  }
}
