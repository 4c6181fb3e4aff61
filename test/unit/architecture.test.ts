// Rooms: src/core runs in plain Node (tests, CLI, MCP server) and must never import `vscode`;
// src/webview runs in the browser and imports neither `vscode` nor Node built-ins.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers/paths';

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.(ts|mts|cts|js|mjs)$/.test(e.name) ? [p] : [];
  });
}

const imports = (src: string) => [...src.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);

describe('architecture rooms', () => {
  it('src/core never imports vscode or anything from src/extension', () => {
    const bad: string[] = [];
    for (const f of files(path.join(REPO, 'src', 'core'))) {
      for (const spec of imports(fs.readFileSync(f, 'utf8'))) {
        if (spec === 'vscode' || spec.includes('/extension/') || spec.startsWith('../extension')) bad.push(`${path.relative(REPO, f)} imports ${spec}`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('core/bridge and core/config import nothing from core/assistant (shared stores sit below both)', () => {
    const bad: string[] = [];
    for (const room of ['bridge', 'config']) {
      for (const f of files(path.join(REPO, 'src', 'core', room))) {
        for (const spec of imports(fs.readFileSync(f, 'utf8'))) {
          const target = spec.startsWith('.') ? path.resolve(path.dirname(f), spec) : spec;
          if (target.startsWith(path.join(REPO, 'src', 'core', 'assistant'))) bad.push(`${path.relative(REPO, f)} imports ${spec}`);
        }
      }
    }
    assert.deepEqual(bad, []);
  });

  it('src/webview imports neither vscode nor Node built-ins', () => {
    const bad: string[] = [];
    for (const f of files(path.join(REPO, 'src', 'webview'))) {
      for (const spec of imports(fs.readFileSync(f, 'utf8'))) {
        if (spec === 'vscode' || spec.startsWith('node:') || /^(fs|path|os|child_process|crypto)$/.test(spec)) bad.push(`${path.relative(REPO, f)} imports ${spec}`);
      }
    }
    assert.deepEqual(bad, []);
  });
});

describe('what the production build takes', () => {
  // The production build refuses a Node bundle with a byte outside ASCII (scripts/build.mjs: one such
  // character makes V8 hold the whole bundle as two-byte text). esbuild escapes non-ASCII in strings
  // but not in regular expressions, and only the production build strips comments, so the test
  // builds would not notice a "°" in a pattern: each file is compiled here as that build does.
  it('every source of the extension, the CLI and the workers is ASCII once compiled without comments', async () => {
    const { transformSync } = await import('esbuild');
    const bad: string[] = [];
    for (const room of ['core', 'extension', 'cli']) {
      for (const f of files(path.join(REPO, 'src', room))) {
        const { code } = transformSync(fs.readFileSync(f, 'utf8'), { loader: 'ts', minifyWhitespace: true, format: 'cjs', target: 'node20' });
        const at = [...code].findIndex((c) => c.charCodeAt(0) > 0x7f);
        if (at >= 0) bad.push(`${path.relative(REPO, f)}: ${JSON.stringify(code.slice(Math.max(0, at - 40), at + 10))}`);
      }
    }
    assert.deepEqual(bad, [], 'write such characters as \\u escapes');
  });
});
