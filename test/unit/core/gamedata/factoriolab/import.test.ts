// Importing a FactorioLab data set through the one import path a dump takes: the format is told
// from the path (folder or file, whatever its name), the provenance lands in the game data's meta,
// and a malformed, truncated or inconsistent data.json is refused with the field it broke at while
// the project keeps the game data it had.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { findGameDataSource } from '../../../../../src/core/gamedata/source';
import { describeProvenance, readProvenance, shortProvenance } from '../../../../../src/core/gamedata/provenance';
import { describePosition } from '../../../../../src/core/gamedata/factoriolab/read';
import { requireSharedData, SAMPLE_DUMP, tempDir } from '../../../../helpers/paths';

type Json = { items: Array<Record<string, unknown>>; recipes: Array<Record<string, unknown> & { id: string; in: Record<string, unknown> }> } & Record<string, unknown>;

describe('FactorioLab import', function () {
  this.timeout(120_000);
  let dir: string;
  let set: string;
  let text: string;
  let project: Project;

  before(async function () {
    set = requireSharedData(this, 'factoriolab-vanilla-2.0');
    text = fs.readFileSync(path.join(set, 'data.json'), 'utf8');
    dir = tempDir('pyops-flab-');
    project = await Project.create(path.join(dir, 'p.pyops'));
  });
  after(() => {
    project?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A copy of the data set with one change, written under another name. */
  function variant(name: string, change: (j: Json) => void): string {
    const j = JSON.parse(text) as Json;
    change(j);
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(j));
    return file;
  }

  it('tells the formats apart by folder content or by a file\'s first key', () => {
    assert.deepEqual(findGameDataSource(set), { format: 'factoriolab', file: path.join(set, 'data.json') });
    const renamed = path.join(dir, 'vanilla-lab.json');
    fs.writeFileSync(renamed, text);
    assert.equal(findGameDataSource(renamed).format, 'factoriolab');
    assert.equal(findGameDataSource(SAMPLE_DUMP).format, 'dump');
    const empty = path.join(dir, 'empty-folder');
    fs.mkdirSync(empty);
    assert.throws(() => findGameDataSource(empty), /holds neither a data-raw-dump\.json nor a FactorioLab data\.json/);
  });

  it('imports a data set folder like a dump and records where it came from', async () => {
    const s = await importGameData(project, set);
    assert.equal(s.format, 'factoriolab');
    assert.equal(s.dumpFile, path.join(set, 'data.json'));
    assert.equal(s.counts.recipes, 207);
    assert.equal(s.factorioVersion, '2.0.47');
    assert.ok(s.lacks.some((l) => l.startsWith('inserters')));
    assert.equal(project.gamedataMeta('format'), 'factoriolab');
    const p = readProvenance(project)!;
    assert.deepEqual([p.format, p.factorioVersion, p.mods], ['factoriolab', '2.0.47', null]);
    assert.ok(p.lacks.length >= 5);
    assert.equal(describeProvenance(p), 'FactorioLab data set factoriolab-vanilla-2.0 (Factorio 2.0.47)');
    assert.equal(shortProvenance(p), 'FactorioLab factoriolab-vanilla-2.0, Factorio 2.0.47');
    const rows = project.query<{ n: number }>('SELECT count(*) AS n FROM gd.recipes WHERE synthetic = 0')[0].n;
    assert.equal(rows, 207);
  });

  /** The project still holds the vanilla set, byte for byte what the import wrote. */
  function assertUnchanged(fingerprint: string, recipes: number): void {
    assert.equal(project.gamedataMeta('fingerprint'), fingerprint);
    assert.equal(project.query<{ n: number }>('SELECT count(*) AS n FROM gd.recipes')[0].n, recipes);
    assert.equal(readProvenance(project)!.format, 'factoriolab');
  }

  it('refuses a wrong field by its path and the entry id, leaving the project as it was', async () => {
    const fp = project.gamedataMeta('fingerprint')!;
    const n = project.query<{ n: number }>('SELECT count(*) AS n FROM gd.recipes')[0].n;
    const i = JSON.parse(text).recipes.findIndex((r: { id: string }) => r.id === 'electronic-circuit');
    const bad = variant('bad-time.json', (j) => {
      j.recipes[i].time = 'fast';
    });
    await assert.rejects(importGameData(project, bad), (e: Error) => {
      assert.match(e.message, /The FactorioLab data set is not usable/);
      assert.match(e.message, new RegExp(`recipes\\[${i}\\] \\("electronic-circuit"\\)\\.time: .*number.*\\(found "fast"\\)`));
      return true;
    });
    assertUnchanged(fp, n);
    const negative = variant('bad-amount.json', (j) => {
      j.recipes[i].in = { 'iron-plate': -1 };
    });
    await assert.rejects(importGameData(project, negative), /recipes\[\d+\] \("electronic-circuit"\)\.in\.iron-plate: .*>=0 \(found -1\)/);
    assertUnchanged(fp, n);
  });

  it('refuses a truncated file, saying the section and the entry where it breaks', async () => {
    const fp = project.gamedataMeta('fingerprint')!;
    const n = project.query<{ n: number }>('SELECT count(*) AS n FROM gd.recipes')[0].n;
    const cut = Math.floor(text.length * 0.7);
    const file = path.join(dir, 'data-cut.json');
    fs.writeFileSync(file, text.slice(0, cut));
    // Which recipe starts last before the cut, read from the text itself.
    const before = text.slice(text.indexOf('"recipes":'), cut);
    const last = [...before.matchAll(/\{"id":"([^"]+)"/g)].pop()![1];
    await assert.rejects(importGameData(project, file), (e: Error) => {
      assert.match(e.message, /data-cut\.json is not valid JSON/);
      assert.ok(e.message.includes(`in recipes, after the entry "${last}"`), e.message);
      assert.match(e.message, /the file may be cut short/);
      return true;
    });
    assertUnchanged(fp, n);
  });

  it('refuses references to goods, machines and technologies the set does not have', async () => {
    const fp = project.gamedataMeta('fingerprint')!;
    const n = project.query<{ n: number }>('SELECT count(*) AS n FROM gd.recipes')[0].n;
    const file = variant('dangling.json', (j) => {
      const ec = j.recipes.find((r) => r.id === 'electronic-circuit')!;
      ec.in = { ...ec.in, 'no-such-plate': 1 };
      ec.producers = ['assembling-machine-1', 'no-such-assembler'];
      const auto = j.items.find((e) => e.id === 'automation')!;
      auto.technology = { prerequisites: ['no-such-tech'] };
    });
    await assert.rejects(importGameData(project, file), (e: Error) => {
      assert.match(e.message, /recipe "electronic-circuit" uses unknown item "no-such-plate"/);
      assert.match(e.message, /recipes "electronic-circuit"\.producers: "no-such-assembler" is not a machine of the items list/);
      assert.match(e.message, /technology "automation" requires unknown technology "no-such-tech"/);
      return true;
    });
    assertUnchanged(fp, n);
  });

  it('names the section, entry and field of a syntax error position', () => {
    const t = '{"version":{},"items":[{"id":"a","name":"A","stack":1},{"id":"b","name":"B","stack":';
    assert.equal(describePosition(t, t.length), `— it breaks in items, after the entry "b", at field "stack" (character ${t.length})`);
    assert.equal(describePosition('{"vers', 6), '— it breaks at the top level (character 6)');
  });
});
