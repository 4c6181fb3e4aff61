// Bundles test/integration (mocha included) into one CommonJS file that VS Code loads as
// extensionTestsPath, whichever host runs it (code-server in the browser, or desktop VS Code).
import fs from 'node:fs';
import path from 'node:path';
import { bundleForExtensionHost } from './hostBundle.mjs';
import { ROOT } from './install.mjs';

export async function bundleTests(log = () => {}) {
  const files = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.ts')) files.push(p);
    }
  };
  walk(path.join(ROOT, 'test', 'integration'));
  files.sort();
  // PYOPS_INTEGRATION_ONLY=pyblock,workspace runs just those suites (by file name), for a quick look
  // at one surface while working on it; the full run (CI, npm test) never sets it.
  const only = (process.env.PYOPS_INTEGRATION_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (only.length) {
    const picked = files.filter((f) => only.some((o) => path.basename(f) === `${o}.test.ts`));
    if (!picked.length) throw new Error(`PYOPS_INTEGRATION_ONLY=${only.join(',')} names no suite in test/integration (give file names without .test.ts)`);
    files.splice(0, files.length, ...picked);
  }
  const suites = {
    name: 'suites',
    setup(b) {
      b.onResolve({ filter: /^pyops:suites$/ }, () => ({ path: 'suites', namespace: 'pyops' }));
      b.onLoad({ filter: /.*/, namespace: 'pyops' }, () => ({
        contents: `module.exports = function load() {\n${files.map((f) => `  require(${JSON.stringify(f)});`).join('\n')}\n};`,
        resolveDir: path.join(ROOT, 'test', 'integration'),
        loader: 'js',
      }));
    },
  };
  const outfile = path.join(ROOT, 'out', 'integration', 'index.cjs');
  await bundleForExtensionHost({ entry: path.join(ROOT, 'test', 'integration', 'index.ts'), outfile, plugins: [suites] });
  log(`bundled ${files.length} test file(s)`);
  return outfile;
}
