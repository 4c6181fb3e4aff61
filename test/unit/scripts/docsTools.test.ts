// docs/tools.md stays true to the registry: its generated tables are what scripts/docs-tools.ts
// writes now, and every tool has a hand-written contract section.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { BEGIN, END, TOOLS_DOC, toolTables, withToolTables } from '../../../scripts/docs-tools';
import { allTools } from '../../../src/core/assistant/tools/registry';

describe('docs/tools.md', () => {
  const doc = fs.readFileSync(TOOLS_DOC, 'utf8');

  it('holds the generated tables of the current registry (run `node --import tsx scripts/docs-tools.ts` after changing a tool)', () => {
    assert.equal(doc, withToolTables(doc));
  });

  it('lists every registry tool once per definition, with its tier heading', () => {
    const tables = toolTables();
    for (const t of allTools()) {
      const rows = tables.split('\n').filter((l) => l.startsWith(`| \`${t.name}\``));
      const own = allTools().filter((x) => x.name === t.name).length;
      assert.equal(rows.length, own, `${t.name}: ${rows.length} rows for ${own} definitions`);
    }
    assert.match(tables, new RegExp(`^${allTools().length} tools\\.`, 'm'));
  });

  it('has a contract section naming every tool outside the generated tables', () => {
    const prose = doc.slice(0, doc.indexOf(BEGIN)) + doc.slice(doc.indexOf(END));
    const headings = [...prose.matchAll(/^#{3,4} (.+)$/gm)].map((m) => m[1]);
    const missing = [...new Set(allTools().map((t) => t.name))].filter(
      (n) => !headings.some((h) => h.split(/[ ,()]+/).includes(n)) && !new RegExp(`^\\| \`${n}\``, 'm').test(prose),
    );
    assert.deepEqual(missing, [], 'tools without a contract in docs/tools.md');
  });

  it('refuses a document without the markers instead of appending tables somewhere', () => {
    assert.throws(() => withToolTables('# Tools\n\nno markers here\n'), /lacks the markers/);
  });

  it('replaces only the text between the markers', () => {
    const out = withToolTables(`before\n${BEGIN}\nstale\n${END}\nafter\n`);
    assert.ok(out.startsWith(`before\n${BEGIN}\n`) && out.endsWith(`\n${END}\nafter\n`));
    assert.ok(!out.includes('stale') && out.includes('| `searchGoods` |'));
  });
});
