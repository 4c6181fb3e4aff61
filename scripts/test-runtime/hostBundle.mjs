// Bundles an entry that runs inside VS Code's extension host (extensionTestsPath) into one CommonJS
// file: `vscode` stays external, everything else (mocha, zod, src/) is bundled in.
import { build } from 'esbuild';

export async function bundleForExtensionHost({ entry, outfile, plugins = [] }) {
  await build({
    entryPoints: [entry],
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, external: ['vscode'],
    sourcemap: 'inline', logLevel: 'warning', plugins,
    // mocha's parallel mode (unused here) resolves worker files at run time.
    logOverride: { 'require-resolve-not-external': 'silent' },
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
  });
  return outfile;
}
