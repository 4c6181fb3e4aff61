// A draft that imports pooled fluid fuel lists the fluids the player can make to feed it.
import assert from 'node:assert/strict';
import { Project } from '../../../../../src/core/db/project';
import { planningContext } from '../../../../../src/core/planning/context';
import { writeSettings } from '../../../../../src/core/planning/settings';
import { buildDraft, specFromSubmit, submitBlockInput } from '../../../../../src/core/planning/proposals/draft';
import { fluidFuelOptions } from '../../../../../src/core/planning/proposals/fuelOptions';
import { useSampleProject } from '../../../../helpers/sampleProject';

describe('fluid fuel options', () => {
  let p: Project;
  const ctx = () => planningContext(p);
  // The sample world's only fluid fuel: naphtha, fuel_value "1.5MJ" in the dump.
  const NAPHTHA_MJ = 1.5;
  const sample = useSampleProject({ each: true });
  beforeEach(() => (p = sample.project));

  it('lists a makeable fluid fuel with the feed a fluid-burning block needs', async () => {
    writeSettings(p, { research_mode: 'future' });
    const d = await buildDraft(ctx(), specFromSubmit(ctx(), submitBlockInput.parse({ target: 'ferrite-plate', rate: 1, recipes: [{ recipe: 'ferrite-plate', machine: 'naphtha-furnace' }] })));
    const mj = d.imports.find((f) => f.good === 'pyops-fluid-fuel')!.rate;
    assert.ok(mj > 0);
    assert.equal(d.fuelOptions?.mjPerSecond, mj);
    const naphtha = d.fuelOptions!.options.find((o) => o.fluid === 'naphtha')!;
    assert.ok(naphtha, JSON.stringify(d.fuelOptions));
    assert.equal(naphtha.mjPerUnit, NAPHTHA_MJ);
    assert.ok(Math.abs(naphtha.feedPerSecond - mj / NAPHTHA_MJ) < 1e-12);
    assert.ok(naphtha.madeBy.includes('refine-brine'));
    const plain = await buildDraft(ctx(), specFromSubmit(ctx(), submitBlockInput.parse({ target: 'gear', rate: 1, recipes: ['gear'] })));
    assert.equal(plain.fuelOptions, undefined, 'no fluid fuel import, no options');
  });

  it('leaves out a fuel nothing buildable makes under the horizon', () => {
    writeSettings(p, { research_mode: 'now', available_science_packs: [] });
    const c = ctx();
    const makers = c.g.producersOf('naphtha').filter((r) => c.availability.recipe(r).buildableNow);
    assert.deepEqual(makers, [], 'precondition: under Now with no packs nothing makes naphtha');
    assert.deepEqual(fluidFuelOptions(c, 3).options, []);
  });
});
