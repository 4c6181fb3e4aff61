import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { planningContext } from '../../../../../src/core/planning/context';
import { writeSettings } from '../../../../../src/core/planning/settings';
import { createBlock } from '../../../../../src/core/planning/factory/blocks';
import { whatIf } from '../../../../../src/core/planning/factory/whatIf';
import { factoryPower } from '../../../../../src/core/planning/factory/power';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { SAMPLE_DUMP, tempDir } from '../../../../helpers/paths';

describe('what-if and factory power', () => {
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

  it('scales the supplier blocks with a final product and lists the raws', async () => {
    const r = await whatIf(p, planningContext(p).g, solve, [{ good: 'circuit', rate: 2 }]);
    assert.equal(r.status, 'optimal');
    const wire = r.blocksToResize.find((b) => b.name === 'Wire')!;
    assert.ok(Math.abs(wire.rate - 6) < 1e-6, `wire to 6/s, got ${wire.rate}`);
    const circ = r.blocksToResize.find((b) => b.name === 'Circuits')!;
    assert.ok(Math.abs(circ.scale - 2) < 1e-6);
    assert.ok(r.rawsNeeded.some((x) => x.good === 'ferrite-plate' && Math.abs(x.rate - 2) < 1e-6));
  });

  it('ignores overrides of goods that are not final products, saying why', async () => {
    const r = await whatIf(p, planningContext(p).g, solve, [{ good: 'wire', rate: 10 }, { good: 'nope', rate: 1 }]);
    assert.deepEqual(r.ignoredOverrides.map((o) => o.good), ['wire', 'nope']);
    assert.match(r.ignoredOverrides[0].reason, /intermediate/);
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
