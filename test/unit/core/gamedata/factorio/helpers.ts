// Shared set-up for the Factorio sync tests: paths of the fixtures, temp folders, and a
// byte-level snapshot of a folder tree.
import fs from 'node:fs';
import path from 'node:path';
import { REPO, tempDir as sharedTempDir } from '../../../../helpers/paths';

export { SAMPLE_DUMP, SAMPLE_WORLD } from '../../../../helpers/paths';
export const FAKE_FACTORIO = path.join(REPO, 'test/fixtures/fake-factorio/factorio');

/** git may drop the executable bit; the tests need it. */
export function ensureFakeIsExecutable(): void {
  fs.chmodSync(FAKE_FACTORIO, 0o755);
}

export function tempDir(prefix: string): string {
  return sharedTempDir(`pyops-${prefix}-`);
}

/** Relative path → file bytes (hex-free: base64) for every file under `dir`. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        out[path.relative(dir, p) + '/'] = '';
        walk(p);
      } else out[path.relative(dir, p)] = fs.readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

/** A mod-list.json as a user's game leaves it: the game's own 2-space layout, a few mods. */
export const USER_MOD_LIST =
  '{\n  "mods": [\n    {\n      "name": "base",\n      "enabled": true\n    },\n    {\n      "name": "pyalienlife",\n      "enabled": true\n    },\n    {\n      "name": "some-old-mod",\n      "enabled": false\n    }\n  ]\n}';
