import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { planningContext } from '../../../../../src/core/planning/context';
import { writeSettings } from '../../../../../src/core/planning/settings';
import { createBlock } from '../../../../../src/core/planning/factory/blocks';
import { factoryScenario } from '../../../../../src/core/planning/factory/scenario/scenario';
import { factoryPower } from '../../../../../src/core/planning/factory/power';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { parseBlockDoc } from '../../../../../src/core/planning/block/document';
import { SAMPLE_DUMP, tempDir } from '../../../../helpers/paths';

// circuit takes 3 wire + 1 ferrite-plate for 1 circuit; wire takes 1 azurite-plate for 2 wire (sample dump).
describe('a final product pinned, and factory power', () => {
  let dir: string;
  let p: Project;
  const solve = (doc: Parameters<typeof solveBlock>[2]) => solveBlock(planningContext(p).g, planningContext(p).availability, doc);
  before(async () => {
    dir = tempDir();
    p = await Project.create(path.join(dir, 'w.pyops'));
    await importGameData(p, SAMPLE_DUMP);
    writeSettings(p, { research_mode: 'future' });
    await createBlock(p, solve, { name: 'Circuits', doc: { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit', machine: 'press' }] } });
    await createBlock(p, solve, { name: 'Wire', doc: { goals: [{ good: 'wire', rate: 3 }], recipes: [{ recipe: 'wire', machine: 'press' }] } });
    await createBlock(p, solve, {
      name: 'Power',
      doc: { goals: [{ good: 'pyops-electricity', rate: 1 }], recipes: [{ recipe: 'boil-steam-165' }, { recipe: 'generate-steam-turbine-unit-165' }, { recipe: 'pump-pump-station' }], made: ['steam', 'fresh-water'] },
    });
  });
  after(() => {
    p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('scales the supplier blocks with a pinned final product and lists the raws', async () => {
    const r = await factoryScenario(p, planningContext(p), solve, { pins: [{ good: 'circuit', rate: 2 }] });
    assert.equal(r.status, 'optimal');
    // 2 circuits/s take 6 wire/s and 2 ferrite plates/s; 6 wire/s take 3 azurite plates/s.
    const wire = r.goalChanges.find((b) => b.block === 'Wire')!;
    assert.ok(Math.abs(wire.next - 6) < 1e-6, `wire to 6/s, got ${wire.next}`);
    assert.ok(Math.abs(r.goalChanges.find((b) => b.block === 'Circuits')!.next - 2) < 1e-6);
    // Plates are smelted, not mined: no enabled block makes them, so a new block would have to.
    const plate = r.unsupplied.find((x) => x.good === 'ferrite-plate');
    assert.ok(plate && Math.abs(plate.rate - 2) < 1e-6 && plate.reason === 'no-block', JSON.stringify(r.unsupplied));
    assert.ok(r.unsupplied.some((x) => x.good === 'azurite-plate' && Math.abs(x.rate - 3) < 1e-6));
  });

  it('grows the power block with the factory\'s draw when the factory has one', async () => {
    const r = await factoryScenario(p, planningContext(p), solve, { pins: [{ good: 'circuit', rate: 2 }] });
    // The oracle is each block's own solve at its new goal: the power block must cover the circuits'
    // and wire's draw plus its own (its pump), which grows with it.
    const draw = async (goals: Array<{ good: string; rate: number }>, recipes: string[]) => (await solve({ ...parseBlockDoc({ goals, recipes: recipes.map((recipe) => ({ recipe, machine: recipe === 'circuit' || recipe === 'wire' ? 'press' : undefined })) }) })).powerW / 1e6;
    const consumers = (await draw([{ good: 'circuit', rate: 2 }], ['circuit'])) + (await draw([{ good: 'wire', rate: 6 }], ['wire']));
    const own = await solve(parseBlockDoc({ goals: [{ good: 'pyops-electricity', rate: 1 }], recipes: [{ recipe: 'boil-steam-165' }, { recipe: 'generate-steam-turbine-unit-165' }, { recipe: 'pump-pump-station' }], made: ['steam', 'fresh-water'] }));
    const selfPerMw = own.powerW / 1e6;
    const power = r.goalChanges.find((c) => c.block === 'Power');
    assert.ok(power, JSON.stringify(r.goalChanges));
    assert.ok(Math.abs(power.next - consumers / (1 - selfPerMw)) < 1e-4, `${power.next} vs ${consumers / (1 - selfPerMw)}`);
  });

  it('sums demand and generation', async () => {
    const pw = await factoryPower(p, planningContext(p).g, solve);
    assert.equal(pw.blocks, 3);
    assert.ok(pw.totalDemandW > 0);
    assert.ok(pw.totalGenerationW >= 1e6 - 1, `generation ${pw.totalGenerationW}`);
    assert.ok(pw.generators.some((g) => g.machine === 'steam-turbine-unit'));
    assert.equal(pw.netW, pw.totalGenerationW - pw.totalDemandW);
  });
});
