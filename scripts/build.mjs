// Bundles the extension (node, cjs, `vscode` external), the `pyops` CLI and the webview with
// esbuild, and copies the sql.js and HiGHS wasm files next to the bundles (located at run time).
//   node scripts/build.mjs [--watch] [--production]
import { build, context } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { indexLoaderSourceHash } from './indexLoaderHash.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const dist = path.join(root, 'dist');

const wasmFiles = [require.resolve('sql.js/dist/sql-wasm.wasm'), require.resolve('highs/runtime')];

/** Copies the runtime assets (wasm, sample world, codicons, companion mod) into dist/ after a build.
 *  Attached to the extension's build only: the CLI reads the same dist/. */
const copyAssets = {
  name: 'copy-assets',
  setup(b) {
    b.onEnd(() => {
      fs.mkdirSync(dist, { recursive: true });
      for (const f of wasmFiles) fs.copyFileSync(f, path.join(dist, path.basename(f)));
      // The sample project's data ships with the extension (replaced whole, so no stale file lingers).
      fs.rmSync(path.join(dist, 'sample-world'), { recursive: true, force: true });
      fs.cpSync(path.join(root, 'test/fixtures/sample-world'), path.join(dist, 'sample-world'), { recursive: true, filter: (f) => !f.endsWith('.md') });
      // Codicons for the side panel's <vscode-icon> (the webview cannot reach VS Code's own font).
      const codicons = path.dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
      fs.mkdirSync(path.join(dist, 'codicons'), { recursive: true });
      for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(codicons, f), path.join(dist, 'codicons', f));
      // The companion mod, installed into the user's Factorio mods folder by a command.
      fs.rmSync(path.join(dist, 'companion-mod'), { recursive: true, force: true });
      fs.cpSync(path.join(root, 'companion-mod'), path.join(dist, 'companion-mod'), { recursive: true });
    });
  },
};

// The game index's snapshots are keyed by its loader's source files, so every bundle of one checkout
// reads the others' (scripts/indexLoaderHash.mjs).
const indexLoaderHash = indexLoaderSourceHash(root);

// highs.mjs calls createRequire(import.meta.url); in a CJS bundle import.meta.url is undefined and
// esbuild does not warn, so define it from __filename.
const importMetaFix = {
  define: { 'import.meta.url': 'importMetaUrl', PYOPS_VERSION: JSON.stringify(pkg.version), PYOPS_INDEX_LOADER_HASH: JSON.stringify(indexLoaderHash) },
  banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
};

const nodeCommon = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  ...importMetaFix,
};

const targets = [
  // The extension: a small entry (dist/extension.cjs, package.json's main) that runs the bundle with a
  // V8 code cache, as the command line does (src/extension/entry.ts; import() as below).
  { ...nodeCommon, entryPoints: [path.join(root, 'src/extension/extension.ts')], outfile: path.join(dist, 'extension-main.cjs'), external: ['vscode'], plugins: [copyAssets], supported: { 'dynamic-import': false } },
  { ...nodeCommon, entryPoints: [path.join(root, 'src/extension/entry.ts')], outfile: path.join(dist, 'extension.cjs'), external: ['vscode'], define: {}, banner: {}, sourcemap: false },
  // The solver's worker thread (large block solves off the extension host's main thread).
  { ...nodeCommon, entryPoints: [path.join(root, 'src/core/planning/solver/worker.ts')], outfile: path.join(dist, 'solver-worker.cjs') },
  // The icon extraction's thread (bounded decoding off the main thread; found beside either bundle).
  { ...nodeCommon, entryPoints: [path.join(root, 'src/core/gamedata/icons/worker.ts')], outfile: path.join(dist, 'icons-worker.cjs') },
  // The command line: a small launcher (dist/cli.cjs, the `pyops` bin) that loads the bundle with a
  // V8 code cache (src/cli/launch.ts). The bundle runs as a vm.Script, where a real import() needs an
  // experimental flag, so esbuild turns the dependencies' import() of Node modules into require().
  { ...nodeCommon, entryPoints: [path.join(root, 'src/cli/index.ts')], outfile: path.join(dist, 'cli-main.cjs'), supported: { 'dynamic-import': false } },
  { ...nodeCommon, entryPoints: [path.join(root, 'src/cli/launch.ts')], outfile: path.join(dist, 'cli.cjs'), banner: { js: '#!/usr/bin/env node' }, define: {}, sourcemap: false },
];

const webviewEntries = fs.existsSync(path.join(root, 'src/webview'))
  ? fs.readdirSync(path.join(root, 'src/webview')).filter((f) => /^[a-z-]+\.main\.ts$/.test(f))
  : [];
for (const f of webviewEntries) {
  targets.push({
    bundle: true, platform: 'browser', format: 'iife', target: 'es2022', sourcemap: !production, minify: production, logLevel: 'warning',
    entryPoints: [path.join(root, 'src/webview', f)], outfile: path.join(dist, 'webview', f.replace(/\.main\.ts$/, '.js')),
  });
}

if (watch) {
  for (const t of targets) await (await context(t)).watch();
  console.log('esbuild: watching');
} else {
  await Promise.all(targets.map((t) => build(t)));
  fs.chmodSync(path.join(dist, 'cli.cjs'), 0o755);
  // esbuild escapes non-ASCII text in strings but not in regular expressions. One such character
  // makes V8 hold the whole bundle as a two-byte string: twice the memory, and reading and compiling
  // it slower for every window and every `pyops` call. Write \u escapes in the source instead.
  // (Development builds keep comments, which may say anything.)
  for (const f of production ? ['extension-main.cjs', 'cli-main.cjs', 'solver-worker.cjs', 'icons-worker.cjs'] : []) {
    const bytes = fs.readFileSync(path.join(dist, f));
    const at = bytes.findIndex((b) => b > 0x7f);
    if (at >= 0) throw new Error(`dist/${f} is not ASCII near: ${JSON.stringify(bytes.subarray(Math.max(0, at - 60), at + 20).toString('utf8'))} — write the character as a \\u escape in the source`);
  }
  const size = (f) => (fs.statSync(path.join(dist, f)).size / 1024).toFixed(0) + ' KB';
  console.log(`built dist/extension-main.cjs (${size('extension-main.cjs')}), dist/cli-main.cjs (${size('cli-main.cjs')})${webviewEntries.length ? `, ${webviewEntries.length} webview bundle(s)` : ''}`);
}
