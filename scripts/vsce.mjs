// One way to call @vscode/vsce: dependencies are bundled by esbuild, so none are packed, and the
// README's relative image links stay relative (there is no public repository to rewrite them against).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Node arguments that package the extension in the working directory into `out`. */
export function vscePackageArgs(out, extra = []) {
  return [path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--no-rewrite-relative-links', ...extra, '-o', out];
}
