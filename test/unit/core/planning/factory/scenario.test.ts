// The factory scenario on real data, with every expected number worked out by hand from the dump
// records (not from the planner):
//  vanilla 2.0: iron-gear-wheel takes 2 iron-plate for 1 gear; iron-plate takes 1 iron-ore for 1 plate in
//  3.2 s; a stone furnace crafts at speed 1, so 16 of them make 16 / 3.2 = 5 plates/s.
//  Py: coal-gas takes 10 coal for 40 coal-gas + 50 tar + 6 coke + 0.3 iron-oxide; creosote takes 100
//  tar for 80 creosote.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { planningContext } from '../../../../../src/core/planning/context';
import { writeSettings } from '../../../../../src/core/planning/settings';
import { createBlock, getBlock, listBlocks, type BlockSolver } from '../../../../../src/core/planning/factory/blocks';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { factoryScenario } from '../../../../../src/core/planning/factory/scenario/scenario';
import { setFactoryPin, setSupplyPriority, writeFactoryPins } from '../../../../../src/core/planning/factory/scenario/inputs';
import { requireSharedData, tempDir } from '../../../../helpers/paths';

const near = (a: number | undefined, b: number, tol = 1e-6) => assert.ok(a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);

async function projectWith(dump: string): Promise<{ p: Project; dir: string; solve: BlockSolver }> {
  const dir = tempDir();
  const p = await Project.create(path.join(dir, 's.pyops'));
  await importGameData(p, dump);
  writeSettings(p, { research_mode: 'future' });
  const solve: BlockSolver = (doc) => solveBlock(planningContext(p).g, planningContext(p).availability, doc);
  return { p, dir, solve };
}

describe('factory scenario (vanilla 2.0, by hand)', function () {
  this.timeout(120_000);
  let p: Project;
  let dir: string;
  let solve: BlockSolver;
  let gears: string;
  let plates: string;
  before(async function () {
    ({ p, dir, solve } = await projectWith(requireSharedData(this, 'vanilla-2.0-data-raw')));
    gears = await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'iron-gear-wheel', rate: 1 }], recipes: [{ recipe: 'iron-gear-wheel', machine: 'assembling-machine-2' }] } });
    plates = await createBlock(p, solve, { name: 'Plates', doc: { goals: [{ good: 'iron-plate', rate: 2 }], recipes: [{ recipe: 'iron-plate', machine: 'stone-furnace' }] } });
  });
  after(() => {
    p?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const change = (r: Awaited<ReturnType<typeof factoryScenario>>, blockId: string) => r.goalChanges.find((c) => c.blockId === blockId);

  it('sizes the supplier from the pin: 5 gears/s needs 10 plates/s', async () => {
    writeFactoryPins(p, [{ good: 'iron-gear-wheel', rate: 5 }]);
    const r = await factoryScenario(p, planningContext(p), solve);
    assert.equal(r.status, 'optimal', r.message);
    near(change(r, gears)?.next, 5);
    near(change(r, plates)?.next, 10);
    const ore = r.rawInputs.find((x) => x.good === 'iron-ore');
    near(ore?.rate, 10);
    assert.equal(r.unsupplied.length, 0);
    assert.ok(r.balanced);
  });

  it('fills from the first supplier until its cap, then the next (16 stone furnaces = 5 plates/s)', async () => {
    const b = getBlock(p, plates);
    const { saveBlock } = await import('../../../../../src/core/planning/factory/blocks');
    await saveBlock(p, solve, plates, { doc: { ...b.doc, pins: [{ kind: 'cap', recipe: 'iron-plate', buildings: 16 }] } }, b.updatedAt);
    const second = await createBlock(p, solve, { name: 'Plates 2', doc: { goals: [{ good: 'iron-plate', rate: 1 }], recipes: [{ recipe: 'iron-plate', machine: 'stone-furnace' }] } });
    const r = await factoryScenario(p, planningContext(p), solve);
    assert.equal(r.status, 'optimal', r.message);
    near(change(r, plates)?.next, 5, 1e-5);
    near(change(r, second)?.next, 5, 1e-5);
    // The player puts the second block first: it takes everything and the capped one shrinks to nothing.
    setSupplyPriority(p, { good: 'iron-plate', order: [second, plates] });
    const r2 = await factoryScenario(p, planningContext(p), solve);
    near(change(r2, second)?.next, 10, 1e-5);
    near(change(r2, plates)?.next ?? getBlock(p, plates).doc.goals[0].rate!, 0, 1e-5);
    // Shares split it.
    setSupplyPriority(p, { good: 'iron-plate', order: [], shares: { [second]: 0.3 } });
    const r3 = await factoryScenario(p, planningContext(p), solve);
    near(change(r3, second)?.next, 3, 1e-5);
    near(change(r3, plates)?.next, 5, 1e-5);
    assert.ok(r3.unsupplied.some((x) => x.good === 'iron-plate' && x.reason === 'limited' && Math.abs(x.rate - 2) < 1e-4), JSON.stringify(r3.unsupplied));
    setSupplyPriority(p, { good: 'iron-plate', clear: true });
    setFactoryPin(p, { good: 'iron-gear-wheel' }, null);
  });

  it('keeps a final product at its rate until it is pinned', async () => {
    const r = await factoryScenario(p, planningContext(p), solve);
    assert.ok(r.pins.some((x) => x.good === 'iron-gear-wheel' && x.source === 'final-product' && Math.abs(x.rate - 1) < 1e-6));
    assert.equal(change(r, gears), undefined);
  });

  it('applies every goal change as one undoable action, and undo restores every goal exactly', async () => {
    const { balanceFactory } = await import('../../../../../src/core/planning/factory/scenario/apply');
    const { undoAndResolve } = await import('../../../../../src/core/planning/factory/blocks');
    writeFactoryPins(p, [{ good: 'iron-gear-wheel', rate: 5 }]);
    const before = new Map(listBlocks(p).map((b) => [b.id, JSON.stringify(b.doc.goals)]));
    const r = await factoryScenario(p, planningContext(p), solve);
    const done = await balanceFactory(p, solve, r);
    assert.ok(done.updated.includes(gears));
    assert.equal(getBlock(p, gears).doc.goals[0].rate, 5);
    assert.match(p.undoable()!.label, /Balance factory/);
    await undoAndResolve(p, solve);
    for (const b of listBlocks(p)) assert.equal(JSON.stringify(b.doc.goals), before.get(b.id), b.name);
    // The pin itself was its own action: undoing the balance left it.
    assert.equal(p.undoable()!.label, 'Set factory pins');
  });

  it('refuses a stale scenario', async () => {
    const { balanceFactory } = await import('../../../../../src/core/planning/factory/scenario/apply');
    const r = await factoryScenario(p, planningContext(p), solve);
    setFactoryPin(p, { good: 'iron-gear-wheel' }, 4);
    await assert.rejects(balanceFactory(p, solve, r), /changed since this scenario was calculated/);
  });

  it('is stale once an input changes', async () => {
    const { inputsFingerprint } = await import('../../../../../src/core/planning/factory/scenario/fingerprint');
    const r = await factoryScenario(p, planningContext(p), solve);
    assert.equal(r.fingerprint, inputsFingerprint(p));
    setFactoryPin(p, { good: 'iron-gear-wheel' }, 2);
    assert.notEqual(r.fingerprint, inputsFingerprint(p));
    assert.equal(listBlocks(p).length, 3);
  });
});

describe('factory scenario (Py, by hand): a coproduct is supply, never a reason to grow', function () {
  this.timeout(300_000);
  let p: Project;
  let dir: string;
  let solve: BlockSolver;
  let coalGas: string;
  let creosote: string;
  before(async function () {
    ({ p, dir, solve } = await projectWith(requireSharedData(this, 'py-hightech-2.0-data-raw')));
    coalGas = await createBlock(p, solve, { name: 'Coal gas', doc: { goals: [{ good: 'coal-gas', rate: 40 }], recipes: [{ recipe: 'coal-gas' }] } });
    creosote = await createBlock(p, solve, { name: 'Creosote', doc: { goals: [{ good: 'creosote', rate: 8 }], recipes: [{ recipe: 'creosote' }] } });
  });
  after(() => {
    p?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sizes the consumer for its pin and reports the tar the coal-gas block does not make', async () => {
    writeFactoryPins(p, [{ good: 'creosote', rate: 80 }]);
    const r = await factoryScenario(p, planningContext(p), solve);
    assert.equal(r.status, 'optimal', r.message);
    near(r.goalChanges.find((c) => c.blockId === creosote)?.next, 80);
    // 40 coal-gas/s is one craft a second: 50 tar/s. 80 creosote/s takes 100 tar/s.
    assert.equal(r.goalChanges.find((c) => c.blockId === coalGas), undefined, 'the coal-gas block keeps its goal');
    const tar = r.unsupplied.find((x) => x.good === 'tar');
    assert.ok(tar, JSON.stringify(r.unsupplied));
    near(tar.rate, 50);
    assert.equal(tar.reason, 'byproduct-only');
    assert.match(tar.newBlock, /tar/i);
    // Coke is left over (6/s): overproduced, not a reason to shrink anything.
    near(r.overproduced.find((x) => x.good === 'coke')?.rate, 6);
  });
});
