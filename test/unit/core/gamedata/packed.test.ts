// Child tables packed into their parent's row: what is written comes back as the model held it, on
// the sample world and on FactorioLab's Space Age set (multi-category recipes, research packs, fuel
// categories), and a child without its parent is refused rather than dropped.
import assert from 'node:assert/strict';
import { findDumpSource, readDump } from '../../../../src/core/gamedata/dump/read';
import { normalizeDump } from '../../../../src/core/gamedata/normalize';
import { readFlab } from '../../../../src/core/gamedata/factoriolab/read';
import { normalizeFlab } from '../../../../src/core/gamedata/factoriolab/normalize';
import type { GameData } from '../../../../src/core/gamedata/model';
import { PACKED_CHILDREN, packedRows } from '../../../../src/core/gamedata/packed';
import { writeGameData } from '../../../../src/core/gamedata/write';
import { emptyGamedata } from '../../../../src/core/db/gamedataFile';
import { all, loadSqlJs } from '../../../../src/core/db/sqlite';
import { SAMPLE_DUMP, requireSharedData } from '../../../helpers/paths';

type Row = Record<string, unknown>;

/** The rows of a packed table as they should come back: grouped in the parent's order, each list in its order, positions from 0. */
function expected(data: GameData, spec: (typeof PACKED_CHILDREN)[number]): Row[] {
  const rows = data[spec.table] as unknown as Row[];
  const out: Row[] = [];
  for (const parent of data[spec.parent] as unknown as Array<{ name: string }>) {
    const mine = rows.filter((r) => r[spec.key] === parent.name);
    if (spec.order) mine.sort((a, b) => (a[spec.order!] as number) - (b[spec.order!] as number));
    mine.forEach((r, i) => {
      const row: Row = { [spec.key]: parent.name };
      if (spec.order) row[spec.order] = i;
      for (const f of spec.fields) row[f] = r[f] ?? null;
      out.push(row);
    });
  }
  return out;
}

async function roundTrip(data: GameData): Promise<void> {
  const gd = emptyGamedata(await loadSqlJs());
  try {
    writeGameData(gd, data, 'main');
    for (const spec of PACKED_CHILDREN) {
      const want = expected(data, spec);
      assert.deepEqual(packedRows(all(gd, `SELECT * FROM main.${spec.parent}`), spec.table), want, spec.table);
    }
  } finally {
    gd.close();
  }
}

function sampleData(): GameData {
  const dump = readDump(findDumpSource(SAMPLE_DUMP));
  return normalizeDump(dump.raw, dump.locale).data;
}

describe('packed game-data tables', () => {
  it('come back from the database as the sample world\'s rows', async () => {
    await roundTrip(sampleData());
  });

  it('come back from the database as the Space Age set\'s rows', async function () {
    const dir = requireSharedData(this, 'factoriolab-space-age-2.0');
    const data = normalizeFlab(readFlab(`${dir}/data.json`).data).data;
    await roundTrip(data);
  });

  it('keep a list in its own order, not the rows\' order, and store what SQL would (no NaN)', async () => {
    const data = sampleData();
    const recipe = data.recipe_ingredients.find((i) => i.idx === 1)!.recipe;
    const mine = data.recipe_ingredients.filter((i) => i.recipe === recipe);
    // The rows arrive last first, and one amount is not a number.
    data.recipe_ingredients = [...data.recipe_ingredients.filter((i) => i.recipe !== recipe), ...mine.reverse().map((i, n) => (n === 0 ? { ...i, amount: NaN } : i))];
    const gd = emptyGamedata(await loadSqlJs());
    try {
      writeGameData(gd, data, 'main');
      const got = packedRows<Row>(all(gd, 'SELECT * FROM main.recipes'), 'recipe_ingredients').filter((r) => r.recipe === recipe);
      assert.deepEqual(got.map((r) => r.name), [...mine].reverse().map((i) => i.name));
      assert.equal(got.at(-1)!.amount, null);
    } finally {
      gd.close();
    }
  });

  it('refuse a child whose parent the data does not have, writing nothing', async () => {
    const data = sampleData();
    data.tech_unlocks.push({ tech: 'no-such-technology', recipe: data.recipes[0].name });
    const gd = emptyGamedata(await loadSqlJs());
    try {
      assert.throws(() => writeGameData(gd, data, 'main'), /tech_unlocks row for "no-such-technology", which is not among the technologies/);
      assert.equal(gd.exec('SELECT count(*) FROM recipes')[0].values[0][0], 0);
    } finally {
      gd.close();
    }
  });
});
