// Damaged or unreadable game data is reported as what it is (missing, unreadable, damaged) with what
// to do, by the store, the tools (CLI `pyops tool`, MCP) and `pyops solve` — never as "no game data
// yet" and never as a raw SQLite or JSON error.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project, gamedataPath } from '../../../../src/core/db/project';
import { loadSqlJs } from '../../../../src/core/db/sqlite';
import { run } from '../../../../src/cli/main';
import { SAMPLE_DUMP, tempDir } from '../../../helpers/paths';
import { capture } from '../../../helpers/cliIO';

describe('damaged game data is reported as such', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;
  let good: Buffer;
  before(async () => {
    dir = tempDir();
    file = path.join(dir, 'g.pyops');
    await run(['project', 'create', file], capture());
    const io = capture();
    assert.equal(await run(['import', file, SAMPLE_DUMP], io), 0, io.stderr);
    good = fs.readFileSync(gamedataPath(file));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  afterEach(() => fs.writeFileSync(gamedataPath(file), good));

  async function otherSqlite(): Promise<Buffer> {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.run('CREATE TABLE t(x)');
    const b = Buffer.from(db.export());
    db.close();
    return b;
  }

  const flipped = () => {
    // A byte inside a recipe's stored JSON: SQLite's quick_check would pass it.
    const b = Buffer.from(good);
    const at = b.indexOf('refine-brine');
    b[at + 2] ^= 0x01;
    return b;
  };
  const cases: Array<[string, () => Buffer | Promise<Buffer> | undefined, string, RegExp]> = [
    ['a flipped byte', flipped, 'damaged', /is damaged: g\.pyops\.gamedata fails its checksum/],
    ['cut in half', () => good.subarray(0, Math.floor(good.length / 2)), 'damaged', /is damaged/],
    ['emptied', () => Buffer.alloc(0), 'damaged', /is damaged/],
    ['deleted', () => undefined, 'missing', /is missing: g\.pyops\.gamedata is gone/],
    ['another SQLite database', otherSqlite, 'unreadable', /is unreadable/],
  ];
  for (const [label, make, status, message] of cases) {
    it(`${label}: status ${status}, and the tools and pyops solve say so`, async () => {
      const bytes = await make();
      if (bytes) fs.writeFileSync(gamedataPath(file), bytes);
      else fs.rmSync(gamedataPath(file));
      const p = await Project.open(file, { readOnly: true });
      assert.equal(p.gamedataStatus, status);
      p.close();

      const io = capture();
      assert.equal(await run(['tool', 'recipeInfo', '--project', file, '--input', '{"recipe":"refine-brine"}'], io), 1);
      assert.match(io.stderr, message);
      assert.match(io.stderr, /Import it again/);
      assert.doesNotMatch(io.stderr, /no game data yet|SQLITE|Unexpected token|JSON/);

      const doc = path.join(dir, 'doc.json');
      fs.writeFileSync(doc, JSON.stringify({ goals: [{ good: 'solvent', rate: 1 }] }));
      const io2 = capture();
      assert.equal(await run(['solve', doc, '--project', file], io2), 1);
      assert.match(io2.stderr, message);
      if (bytes) assert.deepEqual(fs.readFileSync(gamedataPath(file)), bytes, 'the damaged file is left as it is');
    });
  }
});
