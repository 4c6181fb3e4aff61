// Beacons count: one block with beacons, counted by the solver, the block editor, the Factory view,
// the Factory Balance and the building bill — every one must agree, and agree with the game's rule
// worked out here from the sample world's own records: the player places whole machines, each with
// its beacons in reach (a beacon shared by `shared` machines), and a beacon draws its whole usage.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createBlock, getBlock } from '../../../../../src/core/planning/factory/blocks';
import { planningContext } from '../../../../../src/core/planning/context';
import { solverFor } from '../../../../../src/core/assistant/tools/context';
import { beaconsPlaced } from '../../../../../src/core/planning/effects';
import { countByEntity, placedBuildings } from '../../../../../src/core/planning/factory/buildings';
import { factoryBalance } from '../../../../../src/core/planning/factory/balance';
import { factoryOutline } from '../../../../../src/core/planning/factory/outline';
import { buildingBill, buildingBillInput } from '../../../../../src/core/planning/proposals/bill';
import { blockEditorView } from '../../../../../src/extension/blockEditor/viewModel';
import { useSampleProject } from '../../../../helpers/sampleProject';
import { SAMPLE_DUMP } from '../../../../helpers/paths';

const raw = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8')) as Record<string, Record<string, Record<string, any>>>;
const watts = (s: string) => {
  const m = /^([\d.]+)([kMG]?)W$/.exec(s)!;
  return Number(m[1]) * { '': 1, k: 1e3, M: 1e6, G: 1e9 }[m[2]]!;
};
const close = (a: number | undefined, b: number, what: string) => assert.ok(a !== undefined && Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)), `${what}: ${a} ≠ ${b}`);

describe('whole beacon buildings', () => {
  it('places each whole machine with its beacons, shared as the row says, never fewer than one machine needs', () => {
    // 0.13 machines with 2 beacons each: one machine, and it needs both beacons.
    assert.equal(beaconsPlaced({ count: 2 }, 0.13), 2);
    // 2.5 machines → 3 machines × 8 beacons, each beacon reaching 2 machines: 12 beacons.
    assert.equal(beaconsPlaced({ count: 8, shared: 2 }, 2.5), 12);
    // Float dust in a solved count asks for no extra machine, so no extra beacon.
    assert.equal(beaconsPlaced({ count: 1 }, 3.0000000001), 3);
    assert.equal(beaconsPlaced({ count: 0 }, 4), 0);
    assert.equal(beaconsPlaced({ count: 4 }, 0), 0);
    assert.deepEqual(
      countByEntity(placedBuildings([
        { recipe: 'a', machine: 'm', buildings: 1.2, beacons: [{ beacon: 'b', count: 1, shared: 2 }] },
        { recipe: 'c', machine: 'm', buildings: 0.4, beacons: [{ beacon: 'b', count: 2 }] },
      ])),
      [{ entity: 'b', count: 3, beacon: true }, { entity: 'm', count: 3, beacon: false }],
    );
  });

  describe('one block with beacons, counted everywhere', () => {
    const sample = useSampleProject({ horizon: 'future' });

    it('has the same buildings and power in the solver, the editor, the Factory view, the Balance and the bill', async () => {
      const p = sample.project;
      const ctx = planningContext(p);
      const solve = solverFor(ctx);
      const modules = [{ name: 'speed-module-s1', count: 2 }];
      const beacons = [{ beacon: 'beacon-tower', count: 3, shared: 2, modules: [{ name: 'speed-module-s1', count: 2 }] }];
      const rate = 2.5;
      const id = await createBlock(p, solve, { name: 'Beacon circuits', doc: { goals: [{ good: 'circuit', rate }], recipes: [{ recipe: 'circuit', machine: 'press-mk2', modules, beacons }] } });

      // The game's numbers, from the dump: speed = 2 × s + 3 beacons × 2 modules × s × effectivity × profile[3 − 1].
      const s1 = raw.module['speed-module-s1'].effect;
      const tower = raw.beacon['beacon-tower'];
      const mk2 = raw['assembling-machine']['press-mk2'];
      const speed = 2 * s1.speed + 3 * 2 * s1.speed * tower.distribution_effectivity * tower.profile[2];
      const consumption = 2 * s1.consumption + 3 * 2 * s1.consumption * tower.distribution_effectivity * tower.profile[2];
      const fractional = (rate * raw.recipe.circuit.energy_required) / (mk2.crafting_speed * (1 + speed));
      const machines = Math.ceil(fractional);
      const beaconBuildings = Math.max(3, Math.ceil((3 * machines) / 2));
      const power = fractional * (watts(mk2.energy_usage) * (1 + consumption) + watts(mk2.energy_source.drain)) + beaconBuildings * watts(tower.energy_usage);

      const result = await solve(getBlock(p, id).doc);
      const row = result.rows[0];
      close(row.buildings, fractional, 'solver: machines');
      assert.equal(row.wholeBuildings, machines, 'solver: whole machines');
      assert.equal(row.beaconBuildings, beaconBuildings, 'solver: beacon buildings');
      close(result.powerW, power, 'solver: power');

      const view = blockEditorView(ctx, getBlock(p, id), result);
      assert.equal(view.result!.buildings, machines + beaconBuildings, 'editor: buildings');
      assert.equal(view.result!.beaconBuildings, beaconBuildings, 'editor: beacon buildings');
      assert.equal(view.rows[0].beaconBuildings, beaconBuildings, 'editor row: beacon buildings');
      close(view.result!.powerW, power, 'editor: power');
      close(view.rows[0].beaconPowerW ?? undefined, beaconBuildings * watts(tower.energy_usage), 'editor row: beacon power');

      const outline = factoryOutline(p, ctx.g).blocks.find((b) => b.id === id)!;
      assert.equal(outline.buildings, machines + beaconBuildings, 'Factory view: buildings');
      close(outline.powerW ?? undefined, power, 'Factory view: power');

      const balance = await factoryBalance(p, ctx, solve);
      const counted = Object.fromEntries(balance.buildings.map((b) => [b.machine, b.count]));
      assert.deepEqual(counted, { 'press-mk2': machines, 'beacon-tower': beaconBuildings }, 'Balance: buildings');
      assert.equal(balance.buildings.find((b) => b.machine === 'beacon-tower')?.beacon, true);
      close(balance.power.totalDemandW, power, 'Balance: power');

      const bill = await buildingBill(ctx, buildingBillInput.parse({ blocks: [{ name: 'Beacon circuits', target: 'circuit', rate, recipes: [{ recipe: 'circuit', machine: 'press-mk2', modules, beacons }] }] }));
      assert.deepEqual(Object.fromEntries(bill.machines.map((m) => [m.entity, m.count])), { 'press-mk2': machines, 'beacon-tower': beaconBuildings }, 'building bill');
    });
  });
});
