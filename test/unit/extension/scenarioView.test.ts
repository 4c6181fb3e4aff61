// The Scenario part of the Factory Balance view, built from a real scenario on the sample world.
// Expected numbers by hand from the dump: a gear takes 2 ferrite plates; a ferrite plate takes 1
// ferrite ore (which only mining makes, so it is a raw input); gear-productivity-1 (+10 %, counted
// under Future) makes 1.1 gears per craft; an advanced research pack takes a circuit and a filter,
// which no block here makes, for 2 packs.
import assert from 'node:assert/strict';
import { planningContext } from '../../../src/core/planning/context';
import { createBlock, type BlockSolver } from '../../../src/core/planning/factory/blocks';
import { solveBlock } from '../../../src/core/planning/solver/solve';
import { factoryScenario } from '../../../src/core/planning/factory/scenario/scenario';
import { setFactoryPin, setSupplyPriority, writeFactoryPins } from '../../../src/core/planning/factory/scenario/inputs';
import { parseRate, pinsNow, scenarioNodes, type ScenarioNode } from '../../../src/extension/views/scenarioView';
import { scenarioNow, supplyGoods } from '../../../src/extension/scenario/now';
import { perSecond } from '../../../src/webview/format';
import { useSampleProject } from '../../helpers/sampleProject';

const child = (n: ScenarioNode, label: string): ScenarioNode => {
  const c = n.children?.find((x) => x.label === label);
  assert.ok(c, `${n.label} has no child "${label}" (it has ${n.children?.map((x) => x.label).join(', ')})`);
  return c;
};
/** The rows as one node, so `child` finds a top-level row by its label. */
const rows = (list: ScenarioNode[]): ScenarioNode => ({ id: 'rows', label: 'the section', icon: '', children: list });

describe('Factory Balance: the scenario view', function () {
  this.timeout(60_000);
  const sample = useSampleProject({ each: true, horizon: 'future' });
  const solve: BlockSolver = (doc) => solveBlock(planningContext(sample.project).g, planningContext(sample.project).availability, doc);

  it('parses pin rates per second, minute or hour, and refuses zero and words', () => {
    assert.equal(parseRate('2'), 2);
    assert.equal(parseRate(' 120/min '), 2);
    assert.equal(parseRate('7200 / h'), 2);
    assert.equal(parseRate('-0.5/s'), -0.5);
    assert.match(String(parseRate('0')), /remove the pin/);
    assert.match(String(parseRate('two')), /A rate such as/);
  });

  it("takes the player's pins, the science block's demand unless pinned, and final products not pinned", () => {
    const d = (g: string) => g.toUpperCase();
    const pins = pinsNow(
      [{ good: 'gear', rate: 2 }],
      [{ good: 'gear', display: 'GEAR', rate: 9 }, { good: 'basic-research-pack', display: 'BASIC', rate: 0.2 }],
      [{ good: 'gear', display: 'GEAR', rate: 1 }, { good: 'circuit', display: 'CIRCUIT', rate: 3 }],
      d,
    );
    assert.deepEqual(pins.map((p) => [p.good, p.rate, p.source]), [['gear', 2, 'pin'], ['basic-research-pack', 0.2, 'science'], ['circuit', 3, 'final-product']]);
  });

  it('shows the pins, the goal changes (good, block, current → next), what no block supplies, and raw inputs', async () => {
    const p = sample.project;
    const gears = await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } });
    await createBlock(p, solve, { name: 'Plates', doc: { goals: [{ good: 'ferrite-plate', rate: 2 }], recipes: [{ recipe: 'ferrite-plate' }] } });
    await createBlock(p, solve, { name: 'Advanced packs', doc: { goals: [{ good: 'advanced-research-pack', rate: 0.1 }], recipes: [{ recipe: 'advanced-research-pack' }] } });
    setFactoryPin(p, { good: 'gear' }, 2);
    const pc = planningContext(p);
    const r = await factoryScenario(p, pc, solve);
    assert.equal(r.status, 'optimal', r.message);
    const node = rows(scenarioNodes({ pins: r.pins, priorities: [], suppliers: [], held: { result: r, stale: false }, rate: perSecond }));
    const head = child(node, 'Scenario');
    assert.equal(head.contextValue, 'pyops.scenario.ready', 'Balance Factory is offered on a fresh result with changes');
    assert.equal(head.children, undefined, 'the section is one level deep, like the audit');
    const pins = child(node, 'Pins');
    const gearPin = child(pins, 'Gear');
    assert.equal(gearPin.description, '2/s · yours');
    assert.deepEqual(gearPin.pin, { good: 'gear', display: 'Gear', rate: 2, source: 'pin' });
    assert.equal(child(pins, 'Advanced research pack').description, '0.1/s · final product');
    const result = node;
    const changes = child(result, 'Goal changes');
    assert.equal(child(changes, 'Gear').description, 'Gears: 1/s → 2/s');
    assert.deepEqual(child(changes, 'Gear').command, { command: 'pyops.block.edit', title: 'Edit Block', args: [{ blockId: gears }] });
    // 2 gears/s ÷ 1.1 per craft × 2 plates = 3.64 plates/s.
    assert.equal(child(changes, 'Ferrite plate').description, 'Plates: 2/s → 3.64/s');
    const short = child(result, 'Goods no block can supply');
    const filter = child(short, 'Filter cartridge');
    assert.match(filter.description!, /^0\.05\/s short · no enabled block makes it$/);
    assert.match(filter.tooltip!, /A new block would have to make 0\.05\/s Filter cartridge/);
    assert.equal(filter.command?.command, 'pyops.good.open');
    assert.equal(child(child(result, 'Raw inputs'), 'Ferrite ore').description, '3.64/s');
    // Circuits, filters and the naphtha furnaces' fluid fuel: no block makes them.
    assert.deepEqual(short.children!.map((x) => x.label).sort(), ['Circuit', 'Filter cartridge', 'Fluid fuel (MJ)']);
    assert.match(head.description!, /^2 changes · 3 goods short/);
  });

  it('marks a held result stale (and offers Recalculate, not Balance Factory), and says when it was applied', async () => {
    const p = sample.project;
    await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } });
    writeFactoryPins(p, [{ good: 'gear', rate: 3 }]);
    const r = await factoryScenario(p, planningContext(p), solve);
    const stale = rows(scenarioNodes({ pins: r.pins, priorities: [], suppliers: [], held: { result: r, stale: true }, rate: perSecond }));
    const head = child(stale, 'Scenario');
    assert.equal(head.contextValue, 'pyops.scenario.stale');
    assert.equal(head.description, 'stale — recalculate');
    assert.match(head.tooltip!, /recalculate before Balance Factory/);
    assert.equal(child(stale, 'Goal changes').description, '1 · stale');
    const applied = rows(scenarioNodes({ pins: r.pins, priorities: [], suppliers: [], held: { result: r, stale: true, applied: 'Balance factory (1 goal in 1 block)' }, rate: perSecond }));
    assert.match(child(applied, 'Scenario').description!, /^applied · /);
    assert.equal(child(applied, 'Scenario').contextValue, 'pyops.scenario.stale');
    assert.match(child(applied, 'Goal changes').tooltip!, /Applied as "Balance factory \(1 goal in 1 block\)"/);
    const running = rows(scenarioNodes({ pins: [], priorities: [], suppliers: [], running: { message: 'Solving the factory', fraction: 0.5 }, rate: perSecond }));
    assert.equal(child(running, 'Scenario').description, 'calculating · 50 %');
    assert.equal(child(running, 'Scenario').icon, 'loading~spin');
    assert.match(child(child(running, 'Pins'), 'No pins: add one (the factory must deliver a good at a rate), or create a science block.').icon, /info/);
    const none = rows(scenarioNodes({ pins: r.pins, priorities: [], suppliers: [], rate: perSecond }));
    assert.equal(child(none, 'Scenario').description, '1 pin · not calculated');
    assert.deepEqual(none.children!.map((x) => x.label), ['Scenario', 'Pins']);
  });

  it('lists goods several blocks make in supply order, with the order or shares the player set', async () => {
    const p = sample.project;
    const a = await createBlock(p, solve, { name: 'Plates A', doc: { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate' }] } });
    const b = await createBlock(p, solve, { name: 'Plates B', doc: { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate' }] } });
    await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } });
    const g = planningContext(p).g;
    assert.deepEqual(supplyGoods(p, g).map((s) => [s.good, s.blocks.map((x) => x.name)]), [['ferrite-plate', ['Plates A', 'Plates B']]]);
    setSupplyPriority(p, { good: 'ferrite-plate', order: [b, a] });
    const now = scenarioNow(p, g, []);
    assert.deepEqual(now.suppliers[0].blocks.map((x) => x.name), ['Plates B', 'Plates A']);
    let node = rows(scenarioNodes({ ...now, rate: perSecond }));
    const plate = child(child(node, 'Supply order'), 'Ferrite plate');
    assert.equal(plate.description, 'Plates B → Plates A');
    assert.equal(plate.contextValue, 'pyops.scenario.supply.set');
    assert.deepEqual(plate.supply, { good: 'ferrite-plate', display: 'Ferrite plate' });
    setSupplyPriority(p, { good: 'ferrite-plate', order: [], shares: { [a]: 0.7, [b]: 0.3 } });
    node = rows(scenarioNodes({ ...scenarioNow(p, g, []), rate: perSecond }));
    assert.equal(child(child(node, 'Supply order'), 'Ferrite plate').description, 'shares: Plates A 70 %, Plates B 30 %');
    setSupplyPriority(p, { good: 'ferrite-plate', clear: true });
    node = rows(scenarioNodes({ ...scenarioNow(p, g, []), rate: perSecond }));
    assert.equal(child(child(node, 'Supply order'), 'Ferrite plate').description, 'Plates A → Plates B (default)');
  });

  it("pins the science block's pack demand", async () => {
    const p = sample.project;
    await createBlock(p, solve, { name: 'Science', doc: { science: { packs: [{ pack: 'basic-research-pack', rate: 0.25, labSeconds: 10 }] } } });
    const now = scenarioNow(p, planningContext(p).g, []);
    assert.deepEqual(now.pins.map((x) => [x.good, x.rate, x.source]), [['basic-research-pack', 0.25, 'science']]);
    setFactoryPin(p, { good: 'basic-research-pack' }, 1);
    assert.deepEqual(scenarioNow(p, planningContext(p).g, []).pins.map((x) => [x.good, x.rate, x.source]), [['basic-research-pack', 1, 'pin']]);
  });
});
