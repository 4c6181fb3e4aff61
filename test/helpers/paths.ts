// Shared test locations. Real game data lives outside the repository (licences forbid copying it);
// tests that need it skip with a reason when it is absent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(here, '..', '..');
export const SAMPLE_WORLD = path.join(REPO, 'test', 'fixtures', 'sample-world');
/** The sample world's dump; its *-locale.json files lie beside it. */
export const SAMPLE_DUMP = path.join(SAMPLE_WORLD, 'sample-world.dump.json');
export const SHARED_DATA = path.resolve(REPO, '..', 'shared', 'data');

export function sharedData(sub: string): string | undefined {
  const p = path.join(SHARED_DATA, sub);
  return fs.existsSync(p) ? p : undefined;
}

/** Skip the current test (or suite, from `before`) when a real-data folder is missing, saying why. */
export function requireSharedData(ctx: Mocha.Context, sub: string): string {
  const p = sharedData(sub);
  if (!p) {
    console.log(`      (skipped: ${path.join(SHARED_DATA, sub)} is not present; real-data tests need ../shared/data)`);
    ctx.skip();
  }
  return p!;
}

export function tempDir(prefix = 'pyops-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Every file below `dir`, recursively (a project with its journal, backups, config). */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : [full];
  });
}
