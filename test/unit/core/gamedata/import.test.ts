// Importing into a project: one transaction, project rows untouched, bad dumps rejected with a
// clear reason and no change at all.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project, gamedataPath } from '../../../../src/core/db/project';
import { importGameData } from '../../../../src/core/gamedata/import';
import { DumpError } from '../../../../src/core/gamedata/normalize';
import { PROJECT_TABLES } from '../../../../src/core/db/schema/project';
import { SAMPLE_DUMP, tempDir } from '../../../helpers/paths';
import { unsealImage } from '../../../../src/core/db/seal';
import { DATA_FORMAT_VERSION } from '../../../../src/core/db/schema/gamedata';
import type { Database } from '../../../../src/core/db/sqlite';

const sampleDump = () => JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8'));

function fillProjectRows(p: Project): void {
  p.write((db) => {
    db.run("INSERT INTO blocks(id, name, data, created_at, updated_at) VALUES ('b1', 'Gears', '{\"goals\":[]}', 't', 't')");
    db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('n1', 'Note', 'body', 't', 't')");
    db.run("INSERT INTO conversations(id, title, created_at, updated_at) VALUES ('c1', 'Chat', 't', 't')");
    db.run("INSERT INTO conversation_messages(id, conversation_id, role, parts, seq, created_at) VALUES ('m1', 'c1', 'user', '[]', 0, 't')");
    db.run("INSERT INTO tasks(id, title, created_at, updated_at) VALUES ('t1', 'Build gears', 't', 't')");
    db.run("INSERT INTO turd_selections(master, branch, source, updated_at) VALUES ('press-upgrade', 'lean-press', 'manual', 't')");
  });
}

function projectSnapshot(p: Project): string {
  return JSON.stringify(PROJECT_TABLES.filter((t) => t !== 'meta').map((t) => p.query(`SELECT * FROM main.${t} ORDER BY 1`)));
}

describe('game-data import into a project', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('imports the sample world, records provenance and survives a reopen', async () => {
    const file = path.join(dir, 'p.pyops');
    const p = await Project.create(file);
    const stages: string[] = [];
    const s = await importGameData(p, SAMPLE_DUMP, { onProgress: (st) => stages.push(st) });
    assert.deepEqual(stages, ['read', 'normalize', 'write', 'done']);
    assert.equal(s.counts.items, 44);
    assert.equal(s.counts.recipes, 49);
    assert.equal(s.counts.synthesizedRecipes, 11);
    assert.equal(s.counts.turdMasters, 1);
    assert.equal(s.localeFiles.length, 5);
    assert.match(s.fingerprint, /^[0-9a-f]{64}$/);
    assert.equal(p.gamedataMeta('fingerprint'), s.fingerprint);
    assert.equal(p.meta('data_fingerprint'), s.fingerprint);
    assert.deepEqual(JSON.parse(p.gamedataMeta('mods')!), { base: '2.0.77', 'pyops-sample-world': '1.0.0' });
    p.close();
    const again = await Project.open(file);
    assert.equal(again.gamedataStatus, 'ok');
    assert.equal(again.counts(['items'])['items'], 44);
    assert.equal(again.query("SELECT display FROM recipes WHERE name = 'refine-brine'")[0].display, 'Brine refining');
    again.close();
  });

  it('re-imports in one transaction and leaves every project-owned row untouched', async () => {
    const p = await Project.create(path.join(dir, 'p.pyops'));
    await importGameData(p, SAMPLE_DUMP);
    fillProjectRows(p);
    const before = projectSnapshot(p);
    // A changed dump: one recipe fewer (49 → 48).
    const changed = sampleDump();
    delete changed.recipe['salvage-ash'];
    delete changed.technology['salvage-press'].effects[1];
    changed.technology['salvage-press'].effects = changed.technology['salvage-press'].effects.filter(Boolean);
    const d2 = path.join(dir, 'dump2');
    fs.mkdirSync(d2);
    fs.writeFileSync(path.join(d2, 'data-raw-dump.json'), JSON.stringify(changed));
    const s = await importGameData(p, d2);
    assert.equal(s.counts.recipes, 48);
    assert.equal(p.counts(['recipes'])['recipes'], 48 + s.counts.synthesizedRecipes);
    assert.equal(projectSnapshot(p), before);
    p.close();
  });

  it('keeps the game data it had when writing the new rows fails, or saving them does', async () => {
    const file = path.join(dir, 'p.pyops');
    const p = await Project.create(file);
    await importGameData(p, SAMPLE_DUMP);
    const gdBytes = fs.readFileSync(gamedataPath(file));
    const fingerprint = p.gamedataMeta('fingerprint');
    const fill = (db: Database) => {
      db.run("INSERT INTO items(name, type) VALUES ('half-written', 'item')");
      throw new Error('the disk hiccuped');
    };
    assert.throws(() => p.replaceGameData(fill, { fingerprint: 'x' }, 1_000_000), /the disk hiccuped/);
    assert.equal(p.counts(['items'])['items'], 44);
    assert.equal(p.gamedataMeta('fingerprint'), fingerprint);
    assert.equal(p.query("SELECT count(*) AS n FROM items WHERE name = 'half-written'")[0].n, 0);
    assert.deepEqual(fs.readFileSync(gamedataPath(file)), gdBytes);
    // The sidecar cannot be replaced (a folder stands where it goes): the new rows are dropped too.
    fs.rmSync(gamedataPath(file));
    fs.mkdirSync(gamedataPath(file));
    fs.writeFileSync(path.join(gamedataPath(file), 'x'), '');
    await assert.rejects(importGameData(p, SAMPLE_DUMP));
    assert.equal(p.counts(['items'])['items'], 44);
    assert.equal(p.gamedataMeta('fingerprint'), fingerprint);
    assert.equal(p.meta('data_fingerprint'), fingerprint);
    fs.rmSync(gamedataPath(file), { recursive: true });
    await importGameData(p, SAMPLE_DUMP);
    assert.equal(p.counts(['items'])['items'], 44);
    p.close();
  });

  it('saves just the pages the game data fills, whatever room the new database was given', async () => {
    const file = path.join(dir, 'p.pyops');
    const p = await Project.create(file);
    await importGameData(p, SAMPLE_DUMP);
    const rows = p.query('SELECT * FROM items');
    // 8 MB of room for ~300 kB of data, and too little room (it grows as it goes).
    for (const room of [8_000_000, 10_000]) {
      p.replaceGameData((db) => {
        for (const r of rows) db.run('INSERT INTO items(name, type, display) VALUES (?, ?, ?)', [r.name, r.type, r.display]);
      }, { fingerprint: `room-${room}`, data_format_version: String(DATA_FORMAT_VERSION) }, room);
      const bytes = fs.readFileSync(gamedataPath(file));
      const { image, state } = unsealImage(bytes);
      assert.equal(state, 'sealed');
      const header = Buffer.from(image.buffer, image.byteOffset, 100);
      const pages = header.readUInt32BE(28) * (header.readUInt16BE(16) || 65536);
      assert.equal(image.length, pages, `room ${room}: the file is its pages and nothing more`);
      assert.ok(image.length < 1_000_000);
      assert.equal(p.counts(['items'])['items'], 44);
      assert.equal(p.exportGameData().length, pages);
    }
    p.close();
    const again = await Project.open(file);
    assert.equal(again.gamedataStatus, 'ok');
    assert.equal(again.counts(['items'])['items'], 44);
    again.close();
  });

  const bad: Array<[string, (dir: string) => string, RegExp]> = [
    ['a file that is not JSON', (d) => write(d, 'data-raw-dump.json', '{"recipe": {'), /not valid JSON/],
    ['an empty file', (d) => write(d, 'data-raw-dump.json', ''), /is empty/],
    ['JSON of the wrong shape', (d) => write(d, 'data-raw-dump.json', '[1, 2, 3]'), /data\.raw shape/],
    ['a dump without recipes', (d) => write(d, 'data-raw-dump.json', JSON.stringify({ item: {}, fluid: {} })), /no "recipe" table/],
    ['a folder without a dump', (d) => d, /holds neither a data-raw-dump\.json nor a FactorioLab data\.json/],
    [
      'a recipe with a missing amount',
      (d) => dumpWith(d, (x) => delete x.recipe.gear.ingredients[0].amount),
      /recipe "gear"\.ingredients\.0/,
    ],
    [
      'a dangling ingredient',
      (d) => dumpWith(d, (x) => (x.recipe.gear.ingredients[0].name = 'unobtainium')),
      /recipe "gear" uses unknown item "unobtainium"/,
    ],
    [
      'a dangling prerequisite and unlock',
      (d) => dumpWith(d, (x) => {
        x.technology.electronics.prerequisites = ['no-such-tech'];
        x.technology.electronics.effects.push({ type: 'unlock-recipe', recipe: 'no-such-recipe' });
      }),
      /requires unknown technology "no-such-tech"[^]*unlocks unknown recipe "no-such-recipe"/,
    ],
    [
      'an unreadable energy value',
      (d) => dumpWith(d, (x) => (x['assembling-machine'].press.energy_usage = 'lots')),
      /"lots" is not an energy value/,
    ],
    // Numbers the game would never load: each message names the prototype, the field and the value.
    [
      'a negative energy usage',
      (d) => dumpWith(d, (x) => (x['assembling-machine'].press.energy_usage = '-90kW')),
      /assembling-machine "press"\.energy_usage: found "-90kW"; an energy must be a finite amount of at least 0W/,
    ],
    [
      'a negative energy usage given as a number',
      (d) => dumpWith(d, (x) => (x.beacon['beacon-tower'].energy_usage = -480)),
      /beacon "beacon-tower"\.energy_usage: found "-480"/,
    ],
    [
      'an energy that overflows to infinity',
      (d) => dumpWith(d, (x) => (x['mining-drill'].digger.energy_usage = '1e999W')),
      /mining-drill "digger"\.energy_usage: found "1e999W"/,
    ],
    [
      'a negative fuel value',
      (d) => dumpWith(d, (x) => (x.item.lignite.fuel_value = '-4MJ')),
      /item "lignite"\.fuel_value: found "-4MJ"/,
    ],
    [
      'a crafting speed of 0',
      (d) => dumpWith(d, (x) => (x['assembling-machine']['press-mk2'].crafting_speed = 0)),
      /assembling-machine "press-mk2"\.crafting_speed: must be greater than 0 \(found 0\)/,
    ],
    [
      'a negative stack size',
      (d) => dumpWith(d, (x) => (x.item.lignite.stack_size = -5)),
      /item "lignite"\.stack_size: must be at least 1 \(found -5\)/,
    ],
    [
      'a prototype whose name is not its key',
      (d) => dumpWith(d, (x) => (x.recipe.gear.name = 'circuit')),
      /recipe "gear"\.name: found "circuit"; a prototype's name must be the key it is filed under \("gear"\)/,
    ],
    [
      'two machines of different types with one name',
      (d) => dumpWith(d, (x) => (x.furnace.press = { ...x.furnace.kiln, name: 'press' })),
      /furnace "press"\.name: found "press", already the name of assembling-machine "press"/,
    ],
    [
      'a prototype keyed __proto__',
      (d) => dumpWith(d, (x) => Object.defineProperty(x.item, '__proto__', { value: { ...x.item.lignite, name: '__proto__' }, enumerable: true })),
      /item "__proto__": "__proto__" is not a usable prototype name/,
    ],
  ];
  for (const [label, make, message] of bad) {
    it(`rejects ${label} with a clear reason and changes nothing`, async () => {
      const file = path.join(dir, 'p.pyops');
      const p = await Project.create(file);
      await importGameData(p, SAMPLE_DUMP);
      fillProjectRows(p);
      const projectBytes = fs.readFileSync(file);
      const gdBytes = fs.readFileSync(gamedataPath(file));
      const src = make(fs.mkdtempSync(path.join(dir, 'bad-')));
      await assert.rejects(importGameData(p, src), (e: unknown) => e instanceof DumpError && message.test(e.message));
      assert.deepEqual(fs.readFileSync(file), projectBytes);
      assert.deepEqual(fs.readFileSync(gamedataPath(file)), gdBytes);
      assert.equal(p.counts(['items'])['items'], 44);
      p.close();
    });
  }

  it('accepts 2.1 recipe categories and shared probabilities', async () => {
    const p = await Project.create(path.join(dir, 'p.pyops'));
    const src = dumpWith(fs.mkdtempSync(path.join(dir, 'v21-')), (x) => {
      const r = x.recipe['sift-sludge'];
      r.categories = ['crafting', 'refining'];
      r.results = [
        { type: 'item', name: 'catalyst', amount: 1, shared_probability: { min: 0, max: 0.2 } },
        { type: 'item', name: 'azurite-ore', amount: 1, probability: 0.5, shared_probability: { min: 0.2, max: 1 } },
      ];
    });
    await importGameData(p, src);
    assert.deepEqual(p.query("SELECT j.value AS category FROM recipes, json_each(categories) j WHERE name = 'sift-sludge' ORDER BY 1").map((r) => r.category), ['crafting', 'refining']);
    // A product is [kind, name, amount, amount_min, amount_max, probability, temperature, ignored_by_productivity].
    const probs = p.query("SELECT j.value->>1 AS name, j.value->>5 AS probability FROM recipes, json_each(products) j WHERE recipes.name = 'sift-sludge' ORDER BY j.key");
    assert.equal(probs[0].probability, 0.2);
    assert.ok(Math.abs(Number(probs[1].probability) - 0.4) < 1e-12);
    p.close();
  });
});

function write(dir: string, name: string, text: string): string {
  fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

function dumpWith(dir: string, edit: (d: any) => void): string {
  const d = sampleDump();
  edit(d);
  return write(dir, 'data-raw-dump.json', JSON.stringify(d));
}
