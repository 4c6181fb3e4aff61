// Shared set-up for the bridge tests: a project (optionally with the sample world's game data)
// and a fingerprint of every project-owned table, to prove a run changed nothing.
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../src/core/db/project';
import { PROJECT_TABLES } from '../../../../src/core/db/schema/project';
import { importGameData } from '../../../../src/core/gamedata/import';
import { SAMPLE_DUMP, tempDir } from '../../../helpers/paths';
import { newPairingCode } from '../../../../src/core/bridge/pairing';

/** The pairing code the test bridges expect and the test games present. */
export const PAIRING = newPairingCode();

export async function makeProject(opts: { gameData?: boolean } = {}): Promise<{ project: Project; dir: string; dispose(): void }> {
  const dir = tempDir('pyops-bridge-');
  const project = await Project.create(path.join(dir, 'bridge.pyops'));
  if (opts.gameData) await importGameData(project, SAMPLE_DUMP);
  return {
    project,
    dir,
    dispose: () => {
      project.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every row of every project-owned table, as one string. */
export function fingerprint(p: Project): string {
  return PROJECT_TABLES.map((t) => `${t}:${JSON.stringify(p.query(`SELECT * FROM main.${t} ORDER BY rowid`))}`).join('\n');
}

/** Resolve when `cond` holds, polling. */
export async function eventually(cond: () => boolean, timeoutMs = 2000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
