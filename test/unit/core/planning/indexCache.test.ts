// The game index is read back from its snapshot beside the game data when that snapshot belongs to the
// same import and the same loader, and built from the database otherwise — never served stale.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../src/core/db/project';
import { importGameData } from '../../../../src/core/gamedata/import';
import { GameIndex, gameIndex, loadGameIndex, snapshotKey } from '../../../../src/core/planning/gameIndex';
import { decodeIndex, encodeIndex, readIndexCache, writeIndexCache } from '../../../../src/core/planning/indexCache';
import { indexLoaderHash } from '../../../../src/core/planning/indexLoaderHash';
import { indexLoaderSourceHash } from '../../../../scripts/indexLoaderHash.mjs';
import { REPO, requireSharedData, SAMPLE_DUMP, tempDir } from '../../../helpers/paths';
import { loadWorld } from './queries/world';
import { planningContext } from '../../../../src/core/planning/context';
import { searchGoods } from '../../../../src/core/planning/queries/searchGoods';

describe('game index snapshot', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = tempDir();
    file = path.join(dir, 'i.pyops');
    const p = await Project.create(file);
    await importGameData(p, SAMPLE_DUMP);
    p.close();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const keyOf = (p: Project) => snapshotKey(`${p.gamedataMeta('fingerprint')}@${p.gamedataMeta('imported_at')}`);

  it('writes the snapshot on first use and reads it back in the next process', async () => {
    let p = await Project.open(file);
    const built = gameIndex(p);
    const snap = `${p.gamedataFile}.index`;
    assert.ok(fs.existsSync(snap));
    // Mark the snapshot so that reading it is visible, then open the project afresh.
    const marked = readIndexCache(snap, keyOf(p), GameIndex.prototype)!;
    marked.recipes.get('gear')!.display = 'Gear (from the snapshot)';
    writeIndexCache(snap, keyOf(p), marked);
    p.close();
    p = await Project.open(file);
    try {
      const g = gameIndex(p);
      assert.ok(g instanceof GameIndex);
      assert.equal(g.recipes.get('gear')!.display, 'Gear (from the snapshot)');
      assert.equal(g.recipes.size, built.recipes.size);
      assert.deepEqual(g.machinesFor(g.recipes.get('gear')!).map((m) => m.name).sort(), built.machinesFor(built.recipes.get('gear')!).map((m) => m.name).sort());
    } finally {
      p.close();
    }
  });

  it('keys the snapshot by the loader\'s source files, as every bundle of the checkout does', () => {
    // What the build puts into the extension's and the command line's bundles, computed the same way
    // from the same files: a snapshot one of them wrote is the others' too.
    const built = indexLoaderSourceHash(REPO);
    assert.match(built, /^[0-9a-f]{64}$/);
    assert.equal(indexLoaderHash(() => 'unused'), built);
    const listed = JSON.parse(fs.readFileSync(path.join(REPO, 'src/core/planning/indexLoader.json'), 'utf8')).files as string[];
    for (const f of ['gameIndex.ts', 'indexCache.ts']) assert.ok(listed.includes(`src/core/planning/${f}`), `${f} is part of the key`);
    for (const f of listed) assert.ok(fs.existsSync(path.join(REPO, f)), `${f} exists`);
  });

  it('ignores a snapshot of another import, and a damaged one', async () => {
    let p = await Project.open(file);
    gameIndex(p);
    const snap = `${p.gamedataFile}.index`;
    const marked = readIndexCache(snap, keyOf(p), GameIndex.prototype)!;
    marked.recipes.get('gear')!.display = 'stale';
    writeIndexCache(snap, keyOf(p), marked);
    await importGameData(p, SAMPLE_DUMP); // a new import: the old snapshot no longer applies
    assert.notEqual(gameIndex(p).recipes.get('gear')!.display, 'stale');
    p.close();
    // Cut short: refused whole when opened.
    const good = fs.readFileSync(snap);
    fs.writeFileSync(snap, good.subarray(0, good.length - 100));
    p = await Project.open(file);
    try {
      assert.equal(readIndexCache(snap, keyOf(p), GameIndex.prototype), undefined);
      assert.notEqual(gameIndex(p).recipes.get('gear')!.display, 'stale');
      assert.ok(gameIndex(p).recipes.size > 0);
    } finally {
      p.close();
    }
  });

  it('decodes a field when it is first read, and takes a section that does not decode from the database', async () => {
    const p = await Project.open(file);
    try {
      const built = gameIndex(p);
      const snap = `${p.gamedataFile}.index`;
      const bytes = fs.readFileSync(snap);
      const lazy = readIndexCache(snap, keyOf(p), GameIndex.prototype)!;
      const decoded = (f: string) => 'value' in Object.getOwnPropertyDescriptor(lazy, f)!;
      assert.equal(decoded('goods'), false);
      assert.equal(lazy.goods.size, built.goods.size);
      assert.equal(decoded('goods'), true);
      assert.equal(decoded('recipes'), false, 'reading the goods leaves the recipes undecoded');
      assert.equal(lazy.recipes.get('gear')!.display, built.recipes.get('gear')!.display);
      assert.equal(decoded('machines'), false);
      assert.deepStrictEqual(lazy, built, 'every field comes back as built');

      // Replaced by another process's snapshot (another import) after it was opened: the fields not
      // read yet come from the database, and the other snapshot is left alone.
      const opened = readIndexCache(snap, keyOf(p), GameIndex.prototype, () => loadGameIndex(p.db, built.fingerprint))!;
      assert.equal(opened.goods.size, built.goods.size);
      const other = Buffer.from(bytes);
      other.write('0'.repeat(64), 8, 'latin1');
      fs.writeFileSync(snap, other);
      assert.equal(opened.recipes.get('gear')!.display, built.recipes.get('gear')!.display);
      assert.ok(fs.readFileSync(snap).equals(other));

      // The recipes section damaged in place (same length, so the file still looks whole).
      const nl = bytes.indexOf('\n', 72);
      const header = JSON.parse(bytes.toString('latin1', nl + 1, nl + 1 + Number(bytes.toString('latin1', 72, nl)))) as { sections: Array<[string, number]> };
      const before = header.sections.slice(0, header.sections.findIndex(([f]) => f === 'recipes')).reduce((n, [, len]) => n + len, 0);
      const at = bytes.indexOf('"gear"', nl + 1 + Number(bytes.toString('latin1', 72, nl)) + before);
      const damaged = Buffer.from(bytes);
      damaged.write('{{{{{{', at, 'latin1');
      fs.writeFileSync(snap, damaged);
      let rebuilt = 0;
      const healed = readIndexCache(snap, keyOf(p), GameIndex.prototype, () => (rebuilt++, loadGameIndex(p.db, built.fingerprint)))!;
      assert.equal(healed.goods.size, built.goods.size);
      assert.equal(rebuilt, 0, 'an intact section is served from the snapshot');
      assert.equal(healed.recipes.get('gear')!.display, built.recipes.get('gear')!.display);
      assert.equal(rebuilt, 1);
      assert.deepStrictEqual(healed.technologies, built.technologies);
      assert.ok(fs.readFileSync(snap).equals(bytes), 'the snapshot is written again from the database');
      // Without a way to rebuild, the damaged section says so where it is read.
      fs.writeFileSync(snap, damaged);
      const bare = readIndexCache(snap, keyOf(p), GameIndex.prototype)!;
      assert.throws(() => bare.recipes);
    } finally {
      p.close();
    }
  });

  it('lets a search over goods read no recipe', async () => {
    let p = await Project.open(file);
    gameIndex(p);
    p.close();
    p = await Project.open(file);
    try {
      const ctx = planningContext(p);
      const hits = searchGoods(ctx, { query: 'gear' });
      assert.ok(hits.matches.length > 0);
      assert.ok(!('value' in Object.getOwnPropertyDescriptor(ctx.g, 'recipes')!), 'the recipes section is still undecoded');
    } finally {
      p.close();
    }
  });

  describe('the snapshot format', function () {
    this.timeout(180_000);
    // Every field, Map, Set and nested property of the index comes back as the loader built it; on
    // the real data sets, so a new field of a shape the format cannot carry fails here.
    for (const set of ['py-hightech-2.0-data-raw', 'factoriolab-pysalf']) {
      it(`gives back the ${set} index exactly`, async function () {
        const w = await loadWorld(requireSharedData(this, set));
        const built = loadGameIndex(w.project.db, w.g.fingerprint);
        const text = encodeIndex(built);
        assert.ok(text, 'the index is encodable');
        const back = decodeIndex(text, GameIndex.prototype);
        assert.deepStrictEqual(back, built);
        assert.ok([...back.modules.values()].some((m) => m.limitation instanceof Set) || set.startsWith('py-'), 'module limitations come back as sets');
        // Modules that share a limitation list share it again: the same pairs, by identity.
        const sharing = (g: GameIndex) => {
          const ms = [...g.modules.values()];
          return ms.map((m, i) => (m.limitation ? ms.findIndex((o) => o.limitation === m.limitation) : -1)).join(',');
        };
        assert.equal(sharing(back), sharing(built));
        if (!set.startsWith('py-')) assert.ok(new Set([...back.modules.values()].map((m) => m.limitation)).size < back.modules.size / 2, 'full Py modules share their lists');
      });
    }

    it('refuses to encode what it could not give back: a Map deeper than one level, a non-finite number', () => {
      const nested = { recipes: new Map([['a', { deep: { m: new Map([['x', 1]]) } }]]), goods: new Map() };
      assert.equal(encodeIndex(nested), undefined);
      const inf = { recipes: new Map([['a', { energy: Infinity }]]), goods: new Map() };
      assert.equal(encodeIndex(inf), undefined);
      // A property a Set in one entry and a list in another would come back as two Sets.
      const mixed = { modules: new Map<string, { limitation: Set<string> | string[] }>([['a', { limitation: new Set(['r']) }], ['b', { limitation: ['r'] }]]), recipes: new Map(), goods: new Map() };
      assert.equal(encodeIndex(mixed), undefined);
      const ok = { recipes: new Map([['a', { display: 'Gear — grün 😀', limitation: new Set(['r']), none: null }]]), goods: new Map(), handCrafting: new Set(['crafting']) };
      assert.match(encodeIndex(ok)!, /^[\x00-\x7f]*$/, 'the text is ASCII (read back as one-byte)');
      const back = decodeIndex(encodeIndex(ok)!, Object.prototype) as typeof ok;
      assert.deepStrictEqual(back, ok);
    });

    it('writes a Map or Set several entries share once, and shares it again when read', () => {
      const list = new Set(['r1', 'r2']);
      const twin = new Set(['r1', 'r2']);
      const idx = { modules: new Map([['a', { limitation: list }], ['b', { limitation: twin }], ['c', { limitation: list }], ['d', { limitation: null }]]), recipes: new Map(), goods: new Map() };
      const text = encodeIndex(idx)!;
      assert.equal(text.match(/"r1"/g)?.length, 2, 'the shared list once, its equal twin once');
      const back = decodeIndex(text, Object.prototype) as typeof idx;
      assert.deepStrictEqual(back, idx);
      const [a, b, c] = ['a', 'b', 'c'].map((k) => back.modules.get(k)!.limitation);
      assert.equal(a, c);
      assert.notEqual(a, b);
    });

    it('writes no snapshot for an index it cannot encode, and the next open builds from the database', () => {
      const snap = path.join(dir, 'x.index');
      writeIndexCache(snap, 'k'.repeat(64), { recipes: new Map([['a', { energy: NaN }]]), goods: new Map() });
      assert.equal(fs.existsSync(snap), false);
    });
  });
});
