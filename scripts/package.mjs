// `npm run package`: production build, then the .vsix with @vscode/vsce (dependencies are bundled,
// so none are packed; .vscodeignore keeps the file small).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vscePackageArgs } from './vsce.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const step = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
step([path.join(root, 'scripts', 'build.mjs'), '--production']);
const out = path.join(root, `${pkg.name}-${pkg.version}.vsix`);
step(vscePackageArgs(out));
console.log(`packaged ${path.basename(out)} (${(fs.statSync(out).size / 1024).toFixed(0)} KB)`);
