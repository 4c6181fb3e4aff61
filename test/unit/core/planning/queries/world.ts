// Test worlds for the planning tests: the sample world (imported once per process) and the real
// dumps, with planning contexts built from an in-memory state so each test states its horizon.
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { gameIndex, type GameIndex } from '../../../../../src/core/planning/gameIndex';
import { contextFrom, type PlanningContext } from '../../../../../src/core/planning/context';
import { readSettings, type PlanningSettings, type PlanningState } from '../../../../../src/core/planning/settings';
import { SAMPLE_DUMP, tempDir } from '../../../../helpers/paths';

export interface World {
  project: Project;
  g: GameIndex;
  defaults: PlanningSettings;
  /** A context with these settings, researched technologies and TURD selections (master → branch). */
  ctx(settings?: Partial<PlanningSettings>, researched?: string[], turd?: Record<string, string>): PlanningContext;
  state(settings?: Partial<PlanningSettings>, researched?: string[], turd?: Record<string, string>): PlanningState;
}

const worlds = new Map<string, Promise<World>>();
const dirs: string[] = [];

export function loadWorld(dumpDir: string): Promise<World> {
  let w = worlds.get(dumpDir);
  if (!w) {
    w = (async () => {
      const dir = tempDir('pyops-planning-');
      dirs.push(dir);
      const project = await Project.create(path.join(dir, 'w.pyops'));
      await importGameData(project, dumpDir);
      return worldOf(project);
    })();
    worlds.set(dumpDir, w);
  }
  return w;
}

/** A fresh project of the sample world whose index a test may change (never shared). */
export async function privateSampleWorld(): Promise<World> {
  const dir = tempDir('pyops-planning-');
  dirs.push(dir);
  const project = await Project.create(path.join(dir, 'w.pyops'));
  await importGameData(project, SAMPLE_DUMP);
  return worldOf(project);
}

function worldOf(project: Project): World {
  const g = gameIndex(project);
  const defaults = readSettings(project);
  const state = (settings: Partial<PlanningSettings> = {}, researched: string[] = [], turd: Record<string, string> = {}): PlanningState => ({
    settings: { ...defaults, ...settings },
    researched: new Set(researched),
    turd: new Map(Object.entries(turd).map(([m, b]) => [m, { branch: b, source: 'manual' as const }])),
    researchSyncedAt: null,
  });
  return { project, g, defaults, state, ctx: (s, r, t) => contextFrom(g, state(s, r, t), project) };
}

export const sampleWorld = (): Promise<World> => loadWorld(SAMPLE_DUMP);

process.once('exit', () => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
