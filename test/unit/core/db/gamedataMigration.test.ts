// Game data imported before a game-data schema change still opens: the sidecar (or a backup) from
// schema 1 has no beacons.beacon_counter; it gets the Factorio 2.0 default `same_type` and the
// project reports its data as `outdated` (usable; a re-import refreshes it). Schema 3's limitation
// rows become schema 4's shared lists, and schema 4's child rows schema 5's lists in their parents'
// rows, with nothing lost: the game index built from the converted data is the one built from an
// import.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project, gamedataPath } from '../../../../src/core/db/project';
import { backupProject, restoreBackup } from '../../../../src/core/db/bundle';
import { loadSqlJs, scalar } from '../../../../src/core/db/sqlite';
import { unsealImage } from '../../../../src/core/db/seal';
import { latestVersion } from '../../../../src/core/db/migrate';
import { GAMEDATA_MIGRATIONS } from '../../../../src/core/db/schema/gamedata';
import { importGameData } from '../../../../src/core/gamedata/import';
import { gameIndex } from '../../../../src/core/planning/gameIndex';
import { encodeIndex } from '../../../../src/core/planning/indexCache';
import { SAMPLE_DUMP, tempDir } from '../../../helpers/paths';

/** The child tables schema 4 had, and how to read each back out of its schema-5 list (`j`: json_each of it). */
const SCHEMA4_CHILDREN: Array<[parent: string, column: string, ddl: string, select: string]> = [
  ['recipes', 'ingredients', `recipe_ingredients (
    recipe TEXT NOT NULL, idx INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, amount REAL NOT NULL,
    min_temp REAL, max_temp REAL, PRIMARY KEY (recipe, idx))`, "j.key, j.value->>0, j.value->>1, j.value->>2, j.value->>3, j.value->>4"],
  ['recipes', 'products', `recipe_products (
    recipe TEXT NOT NULL, idx INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
    amount REAL, amount_min REAL, amount_max REAL, probability REAL NOT NULL, temperature REAL,
    ignored_by_productivity REAL NOT NULL DEFAULT 0, PRIMARY KEY (recipe, idx))`, 'j.key, j.value->>0, j.value->>1, j.value->>2, j.value->>3, j.value->>4, j.value->>5, j.value->>6, j.value->>7'],
  ['recipes', 'categories', 'recipe_categories (recipe TEXT NOT NULL, category TEXT NOT NULL, PRIMARY KEY (recipe, category))', 'j.value'],
  ['crafting_machines', 'categories', 'machine_categories (machine TEXT NOT NULL, category TEXT NOT NULL, PRIMARY KEY (machine, category))', 'j.value'],
  ['crafting_machines', 'fuel_categories', 'machine_fuel_categories (machine TEXT NOT NULL, fuel_category TEXT NOT NULL, PRIMARY KEY (machine, fuel_category))', 'j.value'],
  ['technologies', 'prerequisites', 'tech_prerequisites (tech TEXT NOT NULL, prerequisite TEXT NOT NULL, PRIMARY KEY (tech, prerequisite))', 'j.value'],
  ['technologies', 'unlocks', 'tech_unlocks (tech TEXT NOT NULL, recipe TEXT NOT NULL, PRIMARY KEY (tech, recipe))', 'j.value'],
  ['technologies', 'ingredients', 'tech_ingredients (tech TEXT NOT NULL, pack TEXT NOT NULL, amount REAL NOT NULL, PRIMARY KEY (tech, pack))', 'j.value->>0, j.value->>1'],
];

/** Rewrite a current game-data database as schema 4 wrote it: one row per ingredient, product, category, prerequisite, unlock and pack. */
function toSchema4(db: import('sql.js').Database, schema = 'main'): void {
  for (const [parent, column, ddl, select] of SCHEMA4_CHILDREN) {
    const table = ddl.slice(0, ddl.indexOf(' '));
    db.run(`CREATE TABLE ${schema}.${ddl}`);
    db.run(`INSERT INTO ${schema}.${table} SELECT p.name, ${select} FROM ${schema}.${parent} p, json_each(p.${column}) j ORDER BY p.rowid, j.key`);
  }
  for (const [parent, column] of SCHEMA4_CHILDREN) db.run(`ALTER TABLE ${schema}.${parent} DROP COLUMN ${column}`);
}

/** Rewrite a current game-data database as schema 3 wrote it: one limitation row per module and recipe, the secondary indexes. */
function toSchema3(db: import('sql.js').Database, schema = 'main'): void {
  toSchema4(db, schema);
  db.run(`CREATE TABLE ${schema}.module_limitations (module TEXT NOT NULL, recipe TEXT NOT NULL, PRIMARY KEY (module, recipe))`);
  db.run(`INSERT INTO ${schema}.module_limitations SELECT m.name, j.value FROM ${schema}.modules m JOIN ${schema}.limitation_lists l ON l.name = m.limitation, json_each(l.recipes) j`);
  db.run(`DROP TABLE ${schema}.limitation_lists`);
  db.run(`ALTER TABLE ${schema}.modules DROP COLUMN limitation`);
  for (const [name, on] of [
    ['items_display', 'items(display COLLATE NOCASE)'], ['recipes_category', 'recipes(category)'], ['recipe_categories_cat', 'recipe_categories(category)'],
    ['recipe_ingredients_name', 'recipe_ingredients(name)'], ['recipe_products_name', 'recipe_products(name)'], ['machine_categories_cat', 'machine_categories(category)'],
    ['tech_prerequisites_pre', 'tech_prerequisites(prerequisite)'], ['tech_unlocks_recipe', 'tech_unlocks(recipe)'],
  ]) db.run(`CREATE INDEX ${schema}.${name} ON ${on}`);
}

/** Rewrite a current game-data database as schema 1 wrote it: no beacon_counter, no icons, format 1. */
function downgrade(db: import('sql.js').Database, schema = 'main'): void {
  toSchema3(db, schema);
  db.run(`DROP TABLE ${schema}.icons`);
  db.run(`ALTER TABLE ${schema}.beacons DROP COLUMN beacon_counter`);
  db.run(`UPDATE ${schema}.gd_meta SET value = '1' WHERE key = 'data_format_version'`);
}

/** Give the sample's two speed modules one limitation list and the productivity module its own, as an import would. */
function limitModules(db: import('sql.js').Database): void {
  db.run(`INSERT INTO limitation_lists (name, recipes) VALUES ('speed-module-s1', '["iron-gear-wheel","copper-cable"]'), ('productivity-module-s1', '["copper-cable"]')`);
  db.run(`UPDATE modules SET limitation = 'speed-module-s1' WHERE name IN ('speed-module-s1', 'speed-module-s2')`);
  db.run(`UPDATE modules SET limitation = 'productivity-module-s1' WHERE name = 'productivity-module-s1'`);
}

function limitations(p: Project): Record<string, string[] | null> {
  const out: Record<string, string[] | null> = {};
  for (const m of gameIndex(p).modules.values()) out[m.name] = m.limitation ? [...m.limitation].sort() : null;
  return out;
}

const LIMITED = {
  'speed-module-s1': ['copper-cable', 'iron-gear-wheel'], 'speed-module-s2': ['copper-cable', 'iron-gear-wheel'],
  'productivity-module-s1': ['copper-cable'], 'efficiency-module-s1': null,
};

/** Rewrite an SQLite file (a sidecar or a backup) in place. */
async function rewrite(file: string, edit: (db: import('sql.js').Database) => void): Promise<void> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(fs.readFileSync(file));
  edit(db);
  fs.writeFileSync(file, db.export());
  db.close();
}

/** A project at `file` with the sample world imported and closed. */
async function sampleProject(file: string): Promise<void> {
  const p = await Project.create(file);
  await importGameData(p, SAMPLE_DUMP);
  p.close();
}

describe('game data from an older schema', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('opens a schema-1 sidecar as outdated, with beacons counted per prototype', async () => {
    const file = path.join(dir, 'old.pyops');
    await sampleProject(file);
    await rewrite(gamedataPath(file), (gd) => {
      downgrade(gd);
      gd.run('PRAGMA user_version = 1');
    });

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
    const reread = new (await loadSqlJs()).Database(fs.readFileSync(gamedataPath(file)));
    assert.equal(scalar(reread, 'PRAGMA user_version'), latestVersion(GAMEDATA_MIGRATIONS));
    reread.close();
  });

  it('restores a backup written before beacon_counter existed', async () => {
    const p = await Project.create(path.join(dir, 'src.pyops'));
    await importGameData(p, SAMPLE_DUMP);
    const backup = await backupProject(p, path.join(dir, 'old.pyops-backup'));
    p.close();
    await rewrite(backup, (bundle) => downgrade(bundle));

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

  it('converts a schema-3 sidecar\'s limitation rows into lists, keeping every limitation', async () => {
    const file = path.join(dir, 'v3.pyops');
    await sampleProject(file);
    await rewrite(gamedataPath(file), (gd) => {
      limitModules(gd);
      toSchema3(gd);
      assert.equal(scalar(gd, 'SELECT count(*) FROM module_limitations'), 5);
      gd.run('PRAGMA user_version = 3');
    });

    const again = await Project.open(file);
    try {
      // The same normalizer wrote it: the data is current, only stored another way.
      assert.equal(again.gamedataStatus, 'ok');
      const got = limitations(again);
      for (const [m, want] of Object.entries(LIMITED)) assert.deepEqual(got[m], want, m);
      assert.equal(Object.values(got).filter(Boolean).length, 3);
    } finally {
      again.close();
    }
  });

  it('restores a backup written with schema 3 with its limitations', async () => {
    const file = path.join(dir, 'src.pyops');
    await sampleProject(file);
    await rewrite(gamedataPath(file), limitModules);
    const src = await Project.open(file);
    const backup = await backupProject(src, path.join(dir, 'v3.pyops-backup'));
    src.close();
    await rewrite(backup, (bundle) => {
      toSchema3(bundle);
      bundle.run("UPDATE meta SET value = '3' WHERE key = 'bundle_gamedata_version'");
    });

    const target = path.join(dir, 'restored.pyops');
    await restoreBackup(backup, target);
    const r = await Project.open(target);
    try {
      const got = limitations(r);
      for (const [m, want] of Object.entries(LIMITED)) assert.deepEqual(got[m], want, m);
    } finally {
      r.close();
    }
    // The retired table does not travel into the restored project.
    const restored = new (await loadSqlJs()).Database(fs.readFileSync(target));
    assert.equal(scalar(restored, "SELECT count(*) FROM sqlite_master WHERE name = 'module_limitations'"), 0);
    restored.close();
  });

  it('converts a schema-4 sidecar\'s child rows into their parents\' lists, building the same game index', async () => {
    const file = path.join(dir, 'v4.pyops');
    await sampleProject(file);
    await rewrite(gamedataPath(file), limitModules);
    const before = await Project.open(file);
    const want = encodeIndex(gameIndex(before));
    const rows = (db: import('sql.js').Database, t: string) => Number(scalar(db, `SELECT count(*) FROM ${t}`));
    before.close();
    await rewrite(gamedataPath(file), (gd) => {
      toSchema4(gd);
      // Every kind of list is there to convert.
      for (const [, , ddl] of SCHEMA4_CHILDREN) assert.ok(rows(gd, ddl.slice(0, ddl.indexOf(' '))) > 0, ddl);
      gd.run('PRAGMA user_version = 4');
    });
    fs.rmSync(`${gamedataPath(file)}.index`, { force: true });

    const old = fs.readFileSync(gamedataPath(file));
    const again = await Project.open(file);
    try {
      assert.equal(again.gamedataStatus, 'ok');
      assert.equal(encodeIndex(gameIndex(again)), want);
    } finally {
      again.close();
    }
    // The project's writer saved the converted data, sealed, keeping the old file beside it: the
    // next open reads schema 5 as it is.
    const bytes = fs.readFileSync(gamedataPath(file));
    const { image, state } = unsealImage(bytes);
    assert.equal(state, 'sealed');
    const saved = new (await loadSqlJs()).Database(image);
    assert.equal(scalar(saved, 'PRAGMA user_version'), latestVersion(GAMEDATA_MIGRATIONS));
    saved.close();
    assert.deepEqual(fs.readFileSync(`${gamedataPath(file)}.bak`), old);
    // Vacuumed: the pages the moved rows left are not saved (without it the file cannot shrink).
    assert.ok(bytes.length < old.length, `${bytes.length} bytes saved from ${old.length}`);
    fs.rmSync(`${gamedataPath(file)}.index`, { force: true });
    const third = await Project.open(file);
    try {
      assert.equal(encodeIndex(gameIndex(third)), want);
    } finally {
      third.close();
    }
  });

  it('leaves an older sidecar as it is when the project opens read-only', async () => {
    const file = path.join(dir, 'ro.pyops');
    await sampleProject(file);
    await rewrite(gamedataPath(file), (gd) => {
      toSchema4(gd);
      gd.run('PRAGMA user_version = 4');
    });
    const old = fs.readFileSync(gamedataPath(file));
    const p = await Project.open(file, { readOnly: true });
    try {
      assert.equal(p.gamedataStatus, 'ok');
      assert.ok(gameIndex(p).recipes.size > 0);
    } finally {
      p.close();
    }
    assert.deepEqual(fs.readFileSync(gamedataPath(file)), old);
  });

  it('restores a backup written with schema 4 with every recipe\'s ingredients and products', async () => {
    const file = path.join(dir, 'src.pyops');
    await sampleProject(file);
    const src = await Project.open(file);
    const want = encodeIndex(gameIndex(src));
    const backup = await backupProject(src, path.join(dir, 'v4.pyops-backup'));
    src.close();
    await rewrite(backup, (bundle) => {
      toSchema4(bundle);
      bundle.run("UPDATE meta SET value = '4' WHERE key = 'bundle_gamedata_version'");
    });

    const target = path.join(dir, 'restored.pyops');
    await restoreBackup(backup, target);
    const r = await Project.open(target);
    try {
      assert.equal(encodeIndex(gameIndex(r)), want);
    } finally {
      r.close();
    }
    const restored = new (await loadSqlJs()).Database(fs.readFileSync(target));
    assert.equal(scalar(restored, "SELECT count(*) FROM sqlite_master WHERE name = 'recipe_ingredients'"), 0);
    restored.close();
  });
});
