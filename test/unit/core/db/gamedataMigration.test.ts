// Game data imported before a game-data schema change still opens: the sidecar (or a backup) from
// schema 1 has no beacons.beacon_counter; it gets the Factorio 2.0 default `same_type` and the
// project reports its data as `outdated` (usable; a re-import refreshes it).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project, gamedataPath } from '../../../../src/core/db/project';
import { backupProject, restoreBackup } from '../../../../src/core/db/bundle';
import { loadSqlJs, scalar } from '../../../../src/core/db/sqlite';
import { latestVersion } from '../../../../src/core/db/migrate';
import { GAMEDATA_MIGRATIONS } from '../../../../src/core/db/schema/gamedata';
import { importGameData } from '../../../../src/core/gamedata/import';
import { gameIndex } from '../../../../src/core/planning/gameIndex';
import { SAMPLE_DUMP, tempDir } from '../../../helpers/paths';

/** Rewrite a current game-data database as schema 1 wrote it: no beacon_counter, no icons, format 1. */
function downgrade(db: import('sql.js').Database, schema = 'main'): void {
  db.run(`DROP TABLE ${schema}.icons`);
  db.run(`ALTER TABLE ${schema}.beacons DROP COLUMN beacon_counter`);
  db.run(`UPDATE ${schema}.gd_meta SET value = '1' WHERE key = 'data_format_version'`);
}

describe('game data from an older schema', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('opens a schema-1 sidecar as outdated, with beacons counted per prototype', async () => {
    const file = path.join(dir, 'old.pyops');
    const p = await Project.create(file);
    await importGameData(p, SAMPLE_DUMP);
    p.close();
    const SQL = await loadSqlJs();
    const gd = new SQL.Database(fs.readFileSync(gamedataPath(file)));
    downgrade(gd);
    gd.run('PRAGMA user_version = 1');
    fs.writeFileSync(gamedataPath(file), gd.export());
    gd.close();

    const again = await Project.open(file);
    try {
      assert.equal(again.gamedataStatus, 'outdated');
      const g = gameIndex(again);
      assert.equal(g.beacons.get('relay-beacon')!.counter, 'same_type');
      assert.equal(g.recipes.size > 0, true);
      // A re-import writes the current schema and the dump's own counter.
      await importGameData(again, SAMPLE_DUMP);
      assert.equal(gameIndex(again).beacons.get('relay-beacon')!.counter, 'total');
    } finally {
      again.close();
    }
    const reread = new SQL.Database(fs.readFileSync(gamedataPath(file)));
    assert.equal(scalar(reread, 'PRAGMA user_version'), latestVersion(GAMEDATA_MIGRATIONS));
    reread.close();
  });

  it('restores a backup written before beacon_counter existed', async () => {
    const p = await Project.create(path.join(dir, 'src.pyops'));
    await importGameData(p, SAMPLE_DUMP);
    const backup = await backupProject(p, path.join(dir, 'old.pyops-backup'));
    p.close();
    const SQL = await loadSqlJs();
    const bundle = new SQL.Database(fs.readFileSync(backup));
    downgrade(bundle);
    fs.writeFileSync(backup, bundle.export());
    bundle.close();

    const target = path.join(dir, 'restored.pyops');
    await restoreBackup(backup, target);
    const r = await Project.open(target);
    try {
      assert.equal(r.gamedataStatus, 'outdated');
      assert.equal(gameIndex(r).beacons.get('beacon-tower')!.counter, 'same_type');
      assert.equal(gameIndex(r).beacons.size, 2);
    } finally {
      r.close();
    }
  });
});
