// The game index is read back from its snapshot beside the game data when that snapshot belongs to the
// same import and the same loader, and built from the database otherwise — never served stale.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../src/core/db/project';
import { importGameData } from '../../../../src/core/gamedata/import';
import { GameIndex, gameIndex, loadGameIndex } from '../../../../src/core/planning/gameIndex';
import { indexCacheKey, readIndexCache, writeIndexCache } from '../../../../src/core/planning/indexCache';
import { SAMPLE_DUMP, tempDir } from '../../../helpers/paths';

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

  const keyOf = (p: Project) => indexCacheKey(`${p.gamedataMeta('fingerprint')}@${p.gamedataMeta('imported_at')}`, loadGameIndex.toString());

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
    fs.writeFileSync(snap, Buffer.from('PYOPSIX1' + 'x'.repeat(200)));
    p = await Project.open(file);
    try {
      assert.notEqual(gameIndex(p).recipes.get('gear')!.display, 'stale');
      assert.ok(gameIndex(p).recipes.size > 0);
    } finally {
      p.close();
    }
  });
});
