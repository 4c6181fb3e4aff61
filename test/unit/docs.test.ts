// The design docs name real things: every relative link (and its #anchor) resolves, and every source
// file a doc names in backticks exists, so a renamed or split module shows up here instead of
// leaving a dead reference behind.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers/paths';

const DOCS = path.join(REPO, 'docs');
const pages = fs.readdirSync(DOCS).filter((f) => f.endsWith('.md'));
/** Files a doc names that are not in the repository on purpose (written at install time). */
// Build outputs and files the mod writes at run time, named by the docs but not in the repository.
const NOT_IN_REPO = new Set(['pairing.lua', 'dist/cli.cjs', 'dist/cli-main.cjs', 'dist/extension.cjs', 'dist/extension-main.cjs']);
const SKIP_DIRS = new Set(['node_modules', '.git', '.vscode-test', 'dist', 'test-output']);

function repoFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) repoFiles(path.join(dir, e.name), out);
    } else out.push(path.relative(REPO, path.join(dir, e.name)).split(path.sep).join('/'));
  }
  return out;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
}

describe('design docs', () => {
  it('has the pages the README index lists', () => {
    for (const p of ['README.md', 'architecture.md', 'storage.md', 'domain.md', 'tools.md', 'companion-mod.md']) assert.ok(pages.includes(p), `docs/${p}`);
    assert.match(fs.readFileSync(path.join(REPO, 'README.md'), 'utf8'), /\]\(docs\/README\.md\)/, "the repository README links docs/");
  });

  it('turns headings into the anchors GitHub makes', () => {
    assert.equal(slug('The LP, its stages and the diagnosis'), 'the-lp-its-stages-and-the-diagnosis');
    assert.equal(slug('Modules, beacons and effects (Factorio 2.0)'), 'modules-beacons-and-effects-factorio-20');
    assert.equal(slug('Tier `read` (24)'), 'tier-read-24');
  });

  it('links only to pages and anchors that exist', () => {
    const bad: string[] = [];
    for (const page of pages) {
      const text = fs.readFileSync(path.join(DOCS, page), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/.test(target)) continue;
        const [file, anchor] = target.split('#');
        const abs = file ? path.resolve(DOCS, file) : path.join(DOCS, page);
        if (!fs.existsSync(abs)) bad.push(`${page}: ${target} (no such file)`);
        else if (anchor && abs.endsWith('.md') && !anchors(abs).has(anchor)) bad.push(`${page}: ${target} (no such heading)`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('names only source files that exist (a path may be given from any folder down)', () => {
    const files = repoFiles(REPO);
    const bad: string[] = [];
    for (const page of pages) {
      const text = fs.readFileSync(path.join(DOCS, page), 'utf8');
      for (const m of text.matchAll(/`([\w./-]+\.(?:ts|mts|mjs|cjs|lua))`/g)) {
        const name = m[1].replace(/^\.\//, '');
        if (NOT_IN_REPO.has(name)) continue;
        if (!files.some((f) => f === name || f.endsWith(`/${name}`))) bad.push(`${page}: ${name}`);
      }
    }
    assert.deepEqual(bad, []);
  });
});
