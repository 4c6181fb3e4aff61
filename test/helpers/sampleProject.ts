// A throw-away project with the sample world imported, for suites that plan on it: registers the
// mocha hooks that create it (before each test, or once) and remove it again.
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../src/core/db/project';
import { importGameData } from '../../src/core/gamedata/import';
import { writeSettings } from '../../src/core/planning/settings';
import type { ResearchMode } from '../../src/core/planning/settings';
import { SAMPLE_DUMP, tempDir } from './paths';

export function useSampleProject(opts: { each?: boolean; horizon?: ResearchMode } = {}): { readonly project: Project; readonly dir: string } {
  let dir = '';
  let project: Project | undefined;
  (opts.each ? beforeEach : before)(async () => {
    dir = tempDir();
    project = await Project.create(path.join(dir, 'sample.pyops'));
    await importGameData(project, SAMPLE_DUMP);
    if (opts.horizon) writeSettings(project, { research_mode: opts.horizon });
  });
  (opts.each ? afterEach : after)(() => {
    project?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get project() {
      if (!project) throw new Error('the sample project exists only inside a test');
      return project;
    },
    get dir() {
      return dir;
    },
  };
}
