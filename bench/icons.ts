// Icon extraction on the Py data's own icon specs: every file they name is made up as a PNG of the
// declared size with its mipmaps beside it (the game's own mods as folders, the Py mods as one
// deflated zip each, as the mod portal ships them), then extracted into a project's cache cold
// (everything drawn) and warm (everything already there). The extraction thread runs from a bundle
// of its entry, as it does for users: from source each thread would first compile its TypeScript.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Project } from '../src/core/db/project';
import { importGameData } from '../src/core/gamedata/import';
import { extractProjectIcons, readIconSpecs } from '../src/core/gamedata/icons/extract';
import { splitModPath } from '../src/core/gamedata/icons/modFiles';
import { setIconWorkerEntry } from '../src/core/gamedata/icons/thread';
import { png, zip } from '../test/helpers/iconFiles';
import { round } from './stats';

const BUILT_IN = new Set(['base', 'core', 'space-age', 'quality', 'elevated-rails']);

export interface IconBench {
  icons: number;
  sourceFiles: number;
  zips: number;
  zipMB: number;
  coldSeconds: number;
  warmSeconds: number;
  extracted: number;
  missing: number;
  cacheMB: number;
}

/** A picture with some structure, so it compresses like art rather than like a flat colour. */
function fakeIcon(size: number): Buffer {
  let w = size;
  for (let s = size / 2; s >= 8; s /= 2) w += s;
  return png(w, size, (x, y) => [(x * 37) & 255, (y * 91) & 255, ((x ^ y) * 13) & 255, (x + y) % 7 ? 255 : 0]);
}

export async function benchIcons(dumpDir: string): Promise<IconBench> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pyops-bench-icons-'));
  const entry = path.join(dir, 'icons-worker.cjs');
  await build({ entryPoints: [fileURLToPath(new URL('../src/core/gamedata/icons/worker.ts', import.meta.url))], outfile: entry, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
  setIconWorkerEntry(entry);
  try {
    const project = await Project.create(path.join(dir, 'py.pyops'));
    try {
      await importGameData(project, dumpDir);
      const specs = readIconSpecs(project);
      const sizes = new Map<string, number>();
      for (const s of specs) for (const l of s.spec.layers) sizes.set(l.icon, Math.max(sizes.get(l.icon) ?? 0, l.size));
      const gameData = path.join(dir, 'install', 'data');
      const mods = path.join(dir, 'user', 'mods');
      const zipped = new Map<string, Record<string, Buffer>>();
      for (const [file, size] of sizes) {
        const [mod, rest] = splitModPath(file)!;
        const bytes = fakeIcon(size);
        if (BUILT_IN.has(mod)) {
          const to = path.join(gameData, mod, rest);
          fs.mkdirSync(path.dirname(to), { recursive: true });
          fs.writeFileSync(to, bytes);
        } else {
          const entries = zipped.get(mod) ?? {};
          entries[`${mod}_3.0.0/${rest}`] = bytes;
          zipped.set(mod, entries);
        }
      }
      fs.mkdirSync(mods, { recursive: true });
      let zipBytes = 0;
      for (const [mod, entries] of zipped) {
        const z = zip(entries, { deflate: true });
        zipBytes += z.length;
        fs.writeFileSync(path.join(mods, `${mod}_3.0.0.zip`), z);
      }
      const folders = { gameData, mods };
      const cold = await extractProjectIcons(project, { folders });
      const warm = await extractProjectIcons(project, { folders });
      const cacheDir = cold.dir;
      const cacheBytes = fs.readdirSync(cacheDir).reduce((n, f) => n + fs.statSync(path.join(cacheDir, f)).size, 0);
      return {
        icons: specs.length,
        sourceFiles: sizes.size,
        zips: zipped.size,
        zipMB: round(zipBytes / 1e6, 1),
        coldSeconds: round(cold.seconds, 2),
        warmSeconds: round(warm.seconds, 2),
        extracted: cold.extracted,
        missing: cold.missing,
        cacheMB: round(cacheBytes / 1e6, 1),
      };
    } finally {
      project.close();
    }
  } finally {
    setIconWorkerEntry(undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
