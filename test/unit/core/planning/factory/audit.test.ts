import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { gameIndex } from '../../../../../src/core/planning/gameIndex';
import { createBlock, saveBlock, getBlock, listBlocks } from '../../../../../src/core/planning/factory/blocks';
import { factorySnapshot } from '../../../../../src/core/planning/factory/fresh';
import { readSettings, writeSettings } from '../../../../../src/core/planning/settings';
import { Availability } from '../../../../../src/core/planning/availability';
import { isBalanced } from '../../../../../src/core/planning/factory/ledger';
import type { BlockDoc } from '../../../../../src/core/planning/block/document';
import { coherenceAudit } from '../../../../../src/core/planning/factory/audit';
import { blockBuildStatus, productionStats } from '../../../../../src/core/planning/factory/liveState';
import { fakeSolver } from './fakeSolver';
import { SAMPLE_DUMP, tempDir } from '../../../../helpers/paths';
import { useSampleProject } from '../../../../helpers/sampleProject';

// Each block's flows are given in its notes (a JSON object) so the tests control the ledger.
const solve = fakeSolver({ flows: (doc) => JSON.parse(doc.notes ?? '{}') });
const block = (good: string, rate: number, flows: { imports?: unknown[]; exports?: unknown[] }) => ({
  goals: [{ good, rate }],
  recipes: [{ recipe: good }],
  notes: JSON.stringify(flows),
});

describe('factory coherence audit', () => {
  let p: Project;
  const sample = useSampleProject({});
  before(() => (p = sample.project));

  it('classifies links, shortages, surpluses, unsourced imports, dangling byproducts and final products', async () => {
    await createBlock(p, solve, { name: 'Plates', doc: block('ferrite-plate', 10, { imports: [{ good: 'ferrite-ore', rate: 10 }] }) });
    await createBlock(p, solve, { name: 'Gears', doc: block('gear', 4, { imports: [{ good: 'ferrite-plate', rate: 8 }] }) });
    await createBlock(p, solve, { name: 'Frames', doc: block('frame', 1, { imports: [{ good: 'gear', rate: 2 }, { good: 'ferrite-plate', rate: 3 }] }) });
    await createBlock(p, solve, { name: 'Refinery', doc: block('solvent', 4, { imports: [{ good: 'brine', rate: 10, kind: 'fluid' }], exports: [{ good: 'tailings', rate: 3, kind: 'fluid' }, { good: 'sludge-cake', rate: 0.2 }] }) });
    const a = coherenceAudit(p, gameIndex(p));
    assert.equal(a.blocks, 4);
    assert.deepEqual(a.underSupplied.map((x) => [x.good, x.shortBy]), [['ferrite-plate', 1]]);
    assert.deepEqual(a.overProduced.map((x) => [x.good, x.surplus]), [['gear', 2]]);
    // A surplus says where it can go, as a dangling byproduct does: recipes of the sample that take gears.
    const g = gameIndex(p);
    const gearUsers = g.consumersOf('gear').filter((r) => !g.recipes.get(r)!.synthetic).sort();
    assert.ok(gearUsers.length > 0);
    assert.equal(a.overProduced[0].disposal, 'route');
    assert.deepEqual(a.overProduced[0].topConsumers, gearUsers.slice(0, 3));
    assert.deepEqual(a.unsourcedImports.map((x) => [x.good, x.craftable]).sort(), [['brine', true], ['ferrite-ore', true]]);
    const tail = a.danglingByproducts.find((x) => x.good === 'tailings')!;
    assert.equal(tail.disposal, 'route');
    assert.ok(tail.topConsumers.includes('reclaim-tailings'));
    assert.deepEqual(tail.voidRecipes, ['tailings-void']);
    assert.deepEqual(a.finalProducts.map((x) => x.good).sort(), ['frame', 'solvent']);
    assert.equal(a.danglingByproducts.find((x) => x.good === 'sludge-cake')?.disposal, 'route');
  });

  it('counts a balanced link within the tolerance and ignores disabled blocks', async () => {
    const plates = (await import('../../../../../src/core/planning/factory/blocks')).listBlocks(p).find((b) => b.name === 'Plates')!;
    await saveBlock(p, solve, plates.id, { doc: block('ferrite-plate', 11, { imports: [{ good: 'ferrite-ore', rate: 11 }] }) }, getBlock(p, plates.id).updatedAt);
    let a = coherenceAudit(p, gameIndex(p));
    assert.ok(a.balancedLinks.some((l) => l.good === 'ferrite-plate'));
    await saveBlock(p, solve, plates.id, { enabled: false }, getBlock(p, plates.id).updatedAt);
    a = coherenceAudit(p, gameIndex(p));
    assert.ok(a.unsourcedImports.some((l) => l.good === 'ferrite-plate'));
  });

  it('lists a stale block whose in-memory re-solve fails as not solved', async () => {
    writeSettings(p, { research_mode: 'future' });
    assert.ok(listBlocks(p, { enabledOnly: true }).every((b) => !b.cache.fresh && b.cache.status === 'optimal'), 'every stored solve is stale but was optimal');
    assert.deepEqual(coherenceAudit(p, gameIndex(p)).notSolved.map((b) => [b.name, b.status]).sort(), [['Frames', 'stale'], ['Gears', 'stale'], ['Refinery', 'stale']]);
    const gearsFail = async (doc: BlockDoc) => ({ ...(await solve(doc)), ...(doc.goals[0].good === 'gear' ? { status: 'infeasible' as const } : {}) });
    const snap = await factorySnapshot(p, gearsFail);
    assert.deepEqual(coherenceAudit(p, gameIndex(p), undefined, snap).notSolved.map((b) => [b.name, b.status]), [['Gears', 'infeasible']]);
  });
});

describe('factory coherence audit: tolerance and voids', () => {
  let dir: string;
  let p: Project;
  beforeEach(async () => {
    dir = tempDir();
    p = await Project.create(path.join(dir, 't.pyops'));
    await importGameData(p, SAMPLE_DUMP);
  });
  afterEach(() => {
    p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uses the balance view\'s relative tolerance: under 1 % of throughput is balanced', async () => {
    // 10.0002 made vs 10 taken (0.002 %): balanced; 10.2 vs 10 (2 %): over-produced.
    await createBlock(p, solve, { name: 'Plates', doc: block('ferrite-plate', 10.0002, { imports: [{ good: 'ferrite-ore', rate: 1 }] }) });
    await createBlock(p, solve, { name: 'Gears', doc: block('gear', 5, { imports: [{ good: 'ferrite-plate', rate: 10 }] }) });
    let a = coherenceAudit(p, gameIndex(p));
    assert.deepEqual(a.balancedLinks.map((x) => x.good), ['ferrite-plate']);
    assert.deepEqual(a.overProduced, []);
    const plates = listBlocks(p).find((b) => b.name === 'Plates')!;
    await saveBlock(p, solve, plates.id, { doc: block('ferrite-plate', 10.2, { imports: [{ good: 'ferrite-ore', rate: 1 }] }) }, getBlock(p, plates.id).updatedAt);
    a = coherenceAudit(p, gameIndex(p));
    assert.equal(a.overProduced.length, 1);
    assert.ok(Math.abs(a.overProduced[0].surplus - 0.2) < 1e-9);
    assert.equal(isBalanced(100, 99.01), true);
    assert.equal(isBalanced(100, 99), false);
  });

  it('says when a void it names is not selectable yet under the horizon', async () => {
    await createBlock(p, solve, { name: 'Refinery', doc: block('solvent', 4, { exports: [{ good: 'tailings', rate: 3, kind: 'fluid' }] }) });
    const g = gameIndex(p);
    // Now without packs: the void pit (electronics, basic packs) cannot be built.
    const none = new Availability(g, { settings: { ...readSettings(p), research_mode: 'now', available_science_packs: [] }, researched: new Set(), turd: new Map(), researchSyncedAt: null });
    const tail = coherenceAudit(p, g, none).danglingByproducts.find((x) => x.good === 'tailings')!;
    assert.deepEqual(tail.voidRecipes, ['tailings-void']);
    assert.deepEqual(tail.voidsNotSelectable, [{ recipe: 'tailings-void', reason: 'not selectable yet under the now horizon: no machine for it is available yet' }]);
    const basic = new Availability(g, { settings: { ...readSettings(p), research_mode: 'now', available_science_packs: ['basic-research-pack'] }, researched: new Set(), turd: new Map(), researchSyncedAt: null });
    assert.equal(coherenceAudit(p, g, basic).danglingByproducts.find((x) => x.good === 'tailings')!.voidsNotSelectable, undefined);
  });
});

describe('factory coherence audit: byproduct supply', () => {
  let p: Project;
  const sample = useSampleProject({ each: true });
  beforeEach(() => (p = sample.project));

  it('counts a good blocks make only on the side as supply up to what they make, the rest an import', async () => {
    // The refinery leaves 3 tailings/s; a reclaimer takes 5/s. Nobody is short: 2/s come from outside.
    await createBlock(p, solve, { name: 'Refinery', doc: block('solvent', 4, { exports: [{ good: 'tailings', rate: 3, kind: 'fluid' }] }) });
    await createBlock(p, solve, { name: 'Reclaim', doc: block('brine', 2, { imports: [{ good: 'tailings', rate: 5, kind: 'fluid' }] }) });
    let a = coherenceAudit(p, gameIndex(p));
    const tailings = <T extends { good: string }>(xs: T[]) => xs.filter((x) => x.good === 'tailings');
    assert.deepEqual(tailings(a.underSupplied), []);
    assert.deepEqual(tailings(a.unsourcedImports).map((x) => [x.rate, x.consumers, x.fromByproducts]), [[2, ['Reclaim'], { rate: 3, producers: ['Refinery'] }]]);
    // A block that makes the good as its goal and too little of it is short, byproducts or not.
    await createBlock(p, solve, { name: 'Tailings', doc: block('tailings', 1, {}) });
    a = coherenceAudit(p, gameIndex(p));
    assert.deepEqual(tailings(a.underSupplied).map((x) => [x.shortBy, x.producers]), [[1, ['Refinery', 'Tailings']]]);
    assert.deepEqual(tailings(a.unsourcedImports), []);
  });
});

describe('live-state views', () => {
  let dir: string;
  let p: Project;
  beforeEach(async () => {
    dir = tempDir();
    p = await Project.create(path.join(dir, 'l.pyops'));
    await importGameData(p, SAMPLE_DUMP);
  });
  afterEach(() => {
    p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('says when nothing was synced, then compares built machines with the solved counts', async () => {
    const id = await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear', machine: 'press' }] } });
    let s = await blockBuildStatus(p, solve, { blockId: id });
    assert.equal(s.syncedAt, null);
    assert.deepEqual(s.blocks[0].recipes[0], { recipe: 'gear', machine: 'press', required: 2, built: null, missing: null });
    p.write((db) => {
      db.run("INSERT INTO built_machines(machine, recipe, count) VALUES ('press', 'gear', 1)");
      db.run("INSERT INTO live_sync(kind, synced_at, count) VALUES ('built', '2026-12-02T10:00:00Z', 1)");
    });
    s = await blockBuildStatus(p, solve, { blockId: id });
    assert.equal(s.syncedAt, '2026-12-02T10:00:00Z');
    assert.deepEqual([s.blocks[0].recipes[0].built, s.blocks[0].recipes[0].missing, s.blocks[0].totalMissing], [1, 1, 1]);
    assert.equal((await blockBuildStatus(p, solve)).blocks.length, 1, 'list mode shows blocks with a shortfall');
  });

  const synced = (machines: Array<[string, string, number]>) =>
    p.write((db) => {
      for (const [machine, recipe, count] of machines) db.run('INSERT INTO built_machines(machine, recipe, count) VALUES (?, ?, ?)', [machine, recipe, count]);
      db.run("INSERT INTO live_sync(kind, synced_at, count) VALUES ('built', '2026-12-02T10:00:00Z', 1)");
    });
  const gears = { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear', machine: 'press' }] };

  it('gives a block the same numbers asked for alone as in the list: disabled blocks claim no built machines', async () => {
    const off = await createBlock(p, solve, { name: 'Old gears', enabled: false, doc: gears });
    const on = await createBlock(p, solve, { name: 'Gears', doc: gears });
    synced([['press', 'gear', 2]]);
    const alone = await blockBuildStatus(p, solve, { blockId: on });
    assert.deepEqual([alone.blocks[0].recipes[0].built, alone.blocks[0].totalMissing], [2, 0]);
    assert.deepEqual((await blockBuildStatus(p, solve)).blocks, [], 'no enabled block is short');
    const disabled = await blockBuildStatus(p, solve, { blockId: off });
    assert.deepEqual([disabled.blocks[0].name, disabled.blocks[0].recipes[0].built, disabled.blocks[0].totalMissing], ['Old gears', 0, 2], 'a disabled block gets what the enabled ones leave');
    await assert.rejects(blockBuildStatus(p, solve, { blockId: 'nope' }), /no block with id "nope"/);
  });

  it('compares against the current solve of a stale block, solved in memory without writing', async () => {
    const id = await createBlock(p, solve, { name: 'Gears', doc: gears });
    synced([['press', 'gear', 2]]);
    writeSettings(p, { research_mode: 'future' });
    const bigger = async (doc: BlockDoc) => {
      const r = await solve(doc);
      return { ...r, rows: r.rows.map((x) => ({ ...x, buildings: 3.2, wholeBuildings: 4 })) };
    };
    const before = Buffer.from(p.db.export());
    const s = await blockBuildStatus(p, bigger, { blockId: id });
    assert.deepEqual([s.blocks[0].recipes[0].required, s.blocks[0].recipes[0].built, s.blocks[0].totalMissing], [4, 2, 2]);
    assert.deepEqual(Buffer.from(p.db.export()), before, 'a read tool never writes');
  });

  it('reports synced production statistics with their timestamp', () => {
    const g = gameIndex(p);
    assert.deepEqual(productionStats(p, g, ['gear']), { syncedAt: null, syncedCount: 0, stats: [{ name: 'gear', display: 'Gear', kind: 'item', produced: 0, consumed: 0 }], unknown: [] });
    p.write((db) => {
      db.run("INSERT INTO production_stats(name, kind, produced, consumed) VALUES ('gear', 'item', 3.5, 1.25)");
      db.run("INSERT INTO live_sync(kind, synced_at, count) VALUES ('stats', '2026-12-02T11:00:00Z', 1)");
    });
    const r = productionStats(p, g, ['gear', 'nope']);
    assert.equal(r.syncedAt, '2026-12-02T11:00:00Z');
    assert.deepEqual([r.stats[0].produced, r.stats[0].consumed], [3.5, 1.25]);
    assert.deepEqual(r.unknown, ['nope']);
  });
});
