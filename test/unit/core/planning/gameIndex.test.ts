// The game index holds data of any size: lists as long as a huge dump makes them (one good made by
// more recipes than a function call can take arguments) are built without spreading them into a call.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../src/core/db/project';
import { gameIndex } from '../../../../src/core/planning/gameIndex';
import { planningContext } from '../../../../src/core/planning/context';
import { recipeOptions } from '../../../../src/core/planning/queries/recipeOptions';
import { tempDir } from '../../../helpers/paths';

/** Well past the ~125k arguments at which `push(...list)` overflows Node's stack. */
const RECIPES = 200_000;

describe('game index at scale', function () {
  this.timeout(300_000);
  let dir: string;
  let p: Project;
  before(async () => {
    dir = tempDir();
    p = await Project.create(path.join(dir, 'big.pyops'));
    p.replaceGameData((db) => {
      db.run("INSERT INTO gd.items(name, type, stack_size) VALUES ('ore', 'item', 50), ('plate', 'item', 100)");
      const each = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${RECIPES})`;
      // Lists as packed.ts lays them out: [kind, name, amount, min_temp, max_temp] and [kind, name, amount, amount_min, amount_max, probability, temperature, ignored_by_productivity].
      db.run(`${each} INSERT INTO gd.recipes(name, kind, category, energy_required, enabled, hidden, allow_productivity, ingredients, products)
        SELECT 'plate-' || i, 'recipe', 'smelting', 1, 1, 0, 0, '[["item","ore",1,null,null]]', '[["item","plate",1,null,null,1,null,0]]' FROM n`);
    }, { fingerprint: 'big', imported_at: 't' });
  });
  after(() => {
    p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`indexes a good made by ${RECIPES.toLocaleString('en')} recipes, and recipeOptions answers for it`, () => {
    const g = gameIndex(p);
    assert.equal(g.producers.get('plate')?.length, RECIPES);
    assert.equal(g.consumers.get('ore')?.length, RECIPES);
    const r = recipeOptions(planningContext(p), { good: 'plate', limit: 3 });
    assert.equal(r.total, RECIPES);
    assert.equal(r.candidates.length, 3);
  });
});
