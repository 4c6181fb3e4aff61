// The hash of the game index loader's source files that scripts/build.mjs puts into every bundle
// (src/core/planning/indexLoaderHash.ts explains the key; it computes the same from source).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** sha256 over the files src/core/planning/indexLoader.json lists, each with \n line ends, separated by NUL. */
export function indexLoaderSourceHash(root) {
  const { files } = JSON.parse(fs.readFileSync(path.join(root, 'src/core/planning/indexLoader.json'), 'utf8'));
  const h = crypto.createHash('sha256');
  for (const f of files) h.update(fs.readFileSync(path.join(root, f), 'utf8').replace(/\r\n/g, '\n')).update('\0');
  return h.digest('hex');
}
