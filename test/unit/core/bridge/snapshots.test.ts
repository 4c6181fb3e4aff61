import assert from 'node:assert/strict';
import { builtPayload, normalizeBuilt, normalizeResearch, normalizeStats, normalizeTurd, researchPayload, statsPayload, turdPayload } from '../../../../src/core/bridge/snapshots';
import { applyBuilt, applyResearch, applyStats, applyTurd } from '../../../../src/core/bridge/state';
import type { Project } from '../../../../src/core/db/project';
import { readPlanningState, readSettings } from '../../../../src/core/planning/settings';
import { makeProject } from './helpers';

describe('bridge snapshots: normalization', () => {
  it('de-duplicates and sorts the researched set and keeps only positive mining productivity', () => {
    const r = normalizeResearch(researchPayload.parse({ researched: ['b', 'a', 'b'], mining_productivity_bonus: 0, recipe_productivity_bonuses: { z: 0.1, y: 0, x: 1e999 } }));
    assert.deepEqual(r, { researched: ['a', 'b'], miningProductivity: null, recipeProductivity: { z: 0.1 } });
    assert.equal(normalizeResearch(researchPayload.parse({ researched: {}, mining_productivity_bonus: 0.3 })).miningProductivity, 0.3);
    assert.equal(normalizeResearch(researchPayload.parse({ researched: [], mining_productivity_bonus: -1 })).miningProductivity, null);
  });

  it('rejects a research snapshot whose list holds something other than names', () => {
    assert.equal(researchPayload.safeParse({ researched: ['a', 3] }).success, false);
    assert.equal(researchPayload.safeParse({ researched: 'a' }).success, false);
    assert.equal(researchPayload.safeParse({}).success, false);
  });

  it('skips TURD values that are not strings', () => {
    const t = normalizeTurd(turdPayload.parse({ selections: { m2: 'b2', m1: 'b1', m3: { x: 1 }, m4: 5, m5: '' } }));
    assert.deepEqual(t, { pairs: [['m1', 'b1'], ['m2', 'b2']], skipped: 3 });
    assert.deepEqual(normalizeTurd(turdPayload.parse({ selections: [] })), { pairs: [], skipped: 0 });
  });

  it('merges duplicate machine rows, zeroes non-finite counts and drops empty rows', () => {
    const rows = normalizeBuilt(builtPayload.parse({ machines: [
      { machine: 'press', recipe: 'gear', count: 2 }, { machine: 'press', recipe: 'gear', count: 3 },
      { machine: 'drill', recipe: 'mine-ore', count: 1e999 }, { machine: 'kiln', recipe: '', count: 0.0000001 }, { machine: 'boiler', recipe: '', count: 1 },
    ] }));
    assert.deepEqual(rows, [{ machine: 'boiler', recipe: '', count: 1 }, { machine: 'press', recipe: 'gear', count: 5 }]);
  });

  it('merges duplicate stats, drops dust and clamps negatives', () => {
    const rows = normalizeStats(statsPayload.parse({ items: [
      { name: 'plate', kind: 'item', produced: 1, consumed: 0.5 }, { name: 'plate', kind: 'item', produced: 1.123456789, consumed: 0 },
      { name: 'plate', kind: 'fluid', produced: 1e-7, consumed: 1e-7 }, { name: 'water', kind: 'fluid', produced: -3, consumed: 2 },
    ] }));
    assert.deepEqual(rows, [{ name: 'plate', kind: 'item', produced: 2.12346, consumed: 0.5 }, { name: 'water', kind: 'fluid', produced: 0, consumed: 2 }]);
    assert.equal(statsPayload.safeParse({ items: [{ name: 'x', kind: 'solid', produced: 1, consumed: 0 }] }).success, false);
  });
});

describe('bridge snapshots: stored state', () => {
  let ctx: Awaited<ReturnType<typeof makeProject>>;
  let p: Project;
  before(async () => {
    ctx = await makeProject({ gameData: true });
    p = ctx.project;
  });
  after(() => ctx.dispose());
  beforeEach(() => {
    p.write((db) => {
      for (const t of ['researched_techs', 'turd_selections', 'built_machines', 'production_stats', 'live_sync']) db.run(`DELETE FROM main.${t}`);
      db.run("DELETE FROM main.planning_settings WHERE key LIKE 'synced_%'");
    });
  });

  const generation = () => readSettings(p).solve_generation;

  it('replaces the researched set and the synced bonuses, bumping the solve generation only on change', () => {
    const g0 = generation();
    const s = normalizeResearch(researchPayload.parse({ researched: ['electronics', 'automation-basics'], mining_productivity_bonus: 0.2, recipe_productivity_bonuses: { gear: 0.1 } }));
    const first = applyResearch(p, s);
    assert.equal(first.changed, true);
    assert.deepEqual([...readPlanningState(p).researched].sort(), ['automation-basics', 'electronics']);
    assert.equal(readSettings(p).synced_mining_productivity, 0.2);
    assert.deepEqual(readSettings(p).synced_recipe_productivity, { gear: 0.1 });
    assert.equal(generation(), g0 + 1);
    const again = applyResearch(p, normalizeResearch(researchPayload.parse({ researched: ['automation-basics', 'electronics', 'electronics'], mining_productivity_bonus: 0.2, recipe_productivity_bonuses: { gear: 0.1 } })));
    assert.equal(again.changed, false);
    assert.equal(generation(), g0 + 1);
    assert.equal(p.query<{ count: number }>("SELECT count FROM live_sync WHERE kind = 'research'")[0].count, 2);
    const fewer = applyResearch(p, normalizeResearch(researchPayload.parse({ researched: ['electronics'], mining_productivity_bonus: 0.2, recipe_productivity_bonuses: { gear: 0.1 } })));
    assert.equal(fewer.changed, true);
  });

  it('treats a changed bonus alone as a change', () => {
    applyResearch(p, normalizeResearch(researchPayload.parse({ researched: ['electronics'], mining_productivity_bonus: 0.2 })));
    assert.equal(applyResearch(p, normalizeResearch(researchPayload.parse({ researched: ['electronics'], mining_productivity_bonus: 0.3 }))).changed, true);
    assert.equal(applyResearch(p, normalizeResearch(researchPayload.parse({ researched: ['electronics'], mining_productivity_bonus: 0.3, recipe_productivity_bonuses: [] }))).changed, false);
  });

  it('applies known TURD selections, reports unknown ones and ignores a push that matches nothing', () => {
    const r = applyTurd(p, normalizeTurd(turdPayload.parse({ selections: { 'press-upgrade': 'lean-press', 'unknown-master': 'x' } })));
    assert.equal(r.changed, true);
    assert.deepEqual(r.notes, ['unknown TURD selection unknown-master → x']);
    assert.deepEqual(p.query('SELECT master, branch, source FROM turd_selections'), [{ master: 'press-upgrade', branch: 'lean-press', source: 'synced' }]);
    assert.equal(applyTurd(p, normalizeTurd(turdPayload.parse({ selections: { 'press-upgrade': 'lean-press' } }))).changed, false);
    const g = generation();
    const ignored = applyTurd(p, normalizeTurd(turdPayload.parse({ selections: { 'other-master': 'other-branch' } })));
    assert.equal(ignored.changed, false);
    assert.match(ignored.ignored!, /none of its selections matches/);
    assert.equal(generation(), g);
    assert.equal(p.query('SELECT * FROM turd_selections').length, 1);
    // a branch of another master does not count as that master's choice
    assert.ok(applyTurd(p, normalizeTurd(turdPayload.parse({ selections: { 'wrong-master': 'lean-press' } }))).ignored);
  });

  it('lets the save override a manual TURD choice and keeps manual choices the save has not made', () => {
    p.write((db) => {
      db.run("INSERT INTO main.turd_selections VALUES ('press-upgrade', 'salvage-press', 'manual', '2026-01-01')");
      db.run("INSERT INTO main.turd_selections VALUES ('hand-picked', 'whatever', 'manual', '2026-01-01')");
    });
    applyTurd(p, normalizeTurd(turdPayload.parse({ selections: { 'press-upgrade': 'tempered-press' } })));
    assert.deepEqual(p.query('SELECT master, branch, source FROM turd_selections ORDER BY master'), [
      { master: 'hand-picked', branch: 'whatever', source: 'manual' },
      { master: 'press-upgrade', branch: 'tempered-press', source: 'synced' },
    ]);
    // an empty push clears synced choices, not manual ones
    assert.equal(applyTurd(p, normalizeTurd(turdPayload.parse({ selections: {} }))).changed, true);
    assert.deepEqual(p.query('SELECT master FROM turd_selections'), [{ master: 'hand-picked' }]);
  });

  it('replaces built machines and production stats as whole snapshots, idempotently', () => {
    const built = normalizeBuilt(builtPayload.parse({ machines: [{ machine: 'press', recipe: 'gear', count: 2 }, { machine: 'kiln', recipe: '', count: 1 }] }));
    assert.equal(applyBuilt(p, built).changed, true);
    assert.equal(applyBuilt(p, [...built].reverse()).changed, false);
    assert.equal(applyBuilt(p, [{ machine: 'press', recipe: 'gear', count: 3 }]).changed, true);
    assert.deepEqual(p.query('SELECT machine, recipe, count FROM built_machines'), [{ machine: 'press', recipe: 'gear', count: 3 }]);
    const g = generation();
    const stats = normalizeStats(statsPayload.parse({ items: [{ name: 'plate', kind: 'item', produced: 1.5, consumed: 1 }] }));
    assert.equal(applyStats(p, stats).changed, true);
    assert.equal(applyStats(p, normalizeStats(statsPayload.parse({ items: [{ name: 'plate', kind: 'item', produced: 1.5000001, consumed: 1 }] }))).changed, false);
    assert.equal(applyStats(p, []).changed, true);
    assert.equal(p.query('SELECT * FROM production_stats').length, 0);
    assert.equal(generation(), g, 'observations do not invalidate solves');
    assert.deepEqual(p.query<{ kind: string }>('SELECT kind FROM live_sync ORDER BY kind').map((r) => r.kind), ['built', 'stats']);
  });
});
