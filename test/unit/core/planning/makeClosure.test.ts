// The "able to make" horizon: the research needed to research a target AND make it. Expected sets are
// read off the dumps (the technologies' prerequisites and unlocks, the resources' mining fluids),
// never from the code under test; a private copy of the sample world moves one unlock at a time to
// open a gap the prerequisite closure does not cover.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Availability } from '../../../../src/core/planning/availability';
import { targetScope } from '../../../../src/core/planning/makeClosure';
import { loadWorld, privateSampleWorld, sampleWorld, type World } from './queries/world';
import { SAMPLE_DUMP, requireSharedData } from '../../../helpers/paths';

const raw = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8'));

/** A dump list (Lua writes an empty one as {}). */
const list = <T>(x: T[] | Record<string, never> | undefined): T[] => (Array.isArray(x) ? x : []);

/** Technology t and its prerequisites, from a dump's technology records. */
function dumpClosure(techs: Record<string, { prerequisites?: string[] | Record<string, never> }>, t: string): Set<string> {
  const out = new Set<string>();
  const stack = [t];
  while (stack.length) {
    const x = stack.pop()!;
    if (out.has(x)) continue;
    out.add(x);
    stack.push(...list(techs[x]?.prerequisites));
  }
  return out;
}

const unlocksOf = (techs: Record<string, { effects?: Array<{ type: string; recipe?: string }> | Record<string, never> }>, recipe: string) =>
  Object.entries(techs).filter(([, t]) => list(t.effects).some((e) => e.type === 'unlock-recipe' && e.recipe === recipe)).map(([n]) => n);

describe('the "able to make" horizon', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });
  const target = (world: World, good: string, scope: 'research' | 'make' | null, researched: string[] = []) =>
    new Availability(world.g, world.state({ research_mode: 'target', horizon_target: good, horizon_target_scope: scope }, researched));

  it('is the default for a science pack (what labs take) and the prerequisite closure otherwise', () => {
    assert.deepEqual(raw.lab['lab-unit'].inputs, ['basic-research-pack', 'advanced-research-pack']);
    assert.equal(targetScope(w.g, { horizon_target: 'basic-research-pack', horizon_target_scope: null }), 'make');
    assert.equal(targetScope(w.g, { horizon_target: 'dense-circuit', horizon_target_scope: null }), 'research');
    assert.equal(targetScope(w.g, { horizon_target: 'basic-research-pack', horizon_target_scope: 'research' }), 'research', 'a scope set by the user wins');
    assert.equal(target(w, 'basic-research-pack', null).targetScope, 'make');
    assert.equal(new Availability(w.g, w.state({ research_mode: 'now' })).targetScope, null);
  });

  it("adds the research a drill's mining fluid takes, in prerequisite order, and says so", () => {
    // basic-research-pack ← gear ← ferrite-plate ← ferrite-ore, mined with solvent, which only
    // refine-brine makes; fluid-handling unlocks it and needs electronics first.
    assert.equal(raw.resource['ferrite-ore'].minable.required_fluid, 'solvent');
    const solventMakers = Object.entries(raw.recipe as Record<string, { results?: Array<{ name: string }> }>).filter(([, r]) => (r.results ?? []).some((x) => x.name === 'solvent')).map(([n]) => n);
    assert.deepEqual(solventMakers, ['refine-brine']);
    assert.deepEqual(unlocksOf(raw.technology, 'refine-brine'), ['fluid-handling']);
    assert.deepEqual(raw.technology['fluid-handling'].prerequisites, ['electronics']);
    const base = dumpClosure(raw.technology, 'automation-basics');
    assert.deepEqual([...base], ['automation-basics']);

    const research = target(w, 'basic-research-pack', 'research');
    assert.deepEqual([...research.targetClosure!], ['automation-basics']);
    assert.deepEqual(research.targetAdded, { techs: [], unmakeable: [] });
    assert.equal(research.recipe('refine-brine').availableNow, false);

    const make = target(w, 'basic-research-pack', 'make');
    assert.deepEqual(make.targetAdded.techs, ['electronics', 'fluid-handling']);
    assert.deepEqual([...make.targetClosure!].sort(), ['automation-basics', 'electronics', 'fluid-handling']);
    assert.equal(make.recipe('refine-brine').availableNow, true);
    // Only what making the pack takes: nothing beyond fluid-handling's closure.
    assert.equal(make.recipe('resin').availableNow, false);
  });

  it('never adds research the save has already done', () => {
    const a = target(w, 'basic-research-pack', 'make', ['automation-basics', 'electronics']);
    assert.deepEqual(a.targetAdded.techs, ['fluid-handling']);
  });

  it('adds nothing when the prerequisites already make the target', () => {
    // advanced-research-pack: circuit (electronics) and filter (advanced-research) ← resin ← naphtha
    // (refine-brine, fluid-handling) — all prerequisites of advanced-research.
    assert.deepEqual([...dumpClosure(raw.technology, 'advanced-research')].sort(), ['advanced-research', 'automation-basics', 'electronics', 'fluid-handling']);
    const a = target(w, 'advanced-research-pack', 'make');
    assert.deepEqual(a.targetAdded.techs, []);
    assert.deepEqual([...a.targetClosure!].sort(), ['advanced-research', 'automation-basics', 'electronics', 'fluid-handling']);
  });

  it('closes over every recipe a technology target unlocks, when asked to make it', () => {
    // electronics unlocks sift-sludge, which takes sludge-cake: only reclaim-tailings (fluid-handling) makes it.
    assert.ok(unlocksOf(raw.technology, 'sift-sludge').includes('electronics'));
    assert.deepEqual(unlocksOf(raw.technology, 'reclaim-tailings'), ['fluid-handling']);
    assert.equal(target(w, 'electronics', null).targetScope, 'research', 'a technology is no science pack');
    assert.deepEqual(target(w, 'electronics', null).targetAdded.techs, []);
    assert.deepEqual(target(w, 'electronics', 'make').targetAdded.techs, ['fluid-handling']);
  });

  describe('gaps opened in a private copy of the sample world', () => {
    it('follows an ingredient whose recipe a technology outside the prerequisites unlocks', async () => {
      const pw = await privateSampleWorld();
      // circuit moves from electronics to modules-1 (after advanced-pressing): the advanced pack needs it.
      pw.g.recipes.get('circuit')!.unlockedBy = ['modules-1'];
      const research = target(pw, 'advanced-research-pack', 'research');
      assert.equal(research.recipeVerdict('circuit').state, 'needs-research');
      const make = target(pw, 'advanced-research-pack', 'make');
      assert.deepEqual(make.targetAdded.techs, ['advanced-pressing', 'modules-1']);
      assert.equal(make.recipeVerdict('circuit').state, 'buildable');
    });

    it("follows a machine whose item's recipe a technology outside the prerequisites unlocks", async () => {
      const pw = await privateSampleWorld();
      // refine-brine runs only in refinery-unit; its item now comes with advanced-pressing.
      assert.deepEqual(pw.g.machinesFor(pw.g.recipes.get('refine-brine')!).map((m) => m.name), ['refinery-unit']);
      pw.g.recipes.get('refinery-unit')!.unlockedBy = ['advanced-pressing'];
      const make = target(pw, 'advanced-research-pack', 'make');
      assert.deepEqual(make.targetAdded.techs, ['advanced-pressing']);
      assert.equal(make.machine('refinery-unit').buildableNow, true);
    });

    it('names a good on the chain that no research makes, and adds nothing for it', async () => {
      const pw = await privateSampleWorld();
      const filter = pw.g.recipes.get('filter')!;
      filter.unlockedBy = [];
      const make = target(pw, 'advanced-research-pack', 'make');
      assert.deepEqual(make.targetAdded.unmakeable, ['filter']);
      assert.deepEqual(make.targetAdded.techs, []);
    });
  });

  it("on the Py data, adds electronics for the logistic science pack's circuits", async function () {
    this.timeout(180_000);
    const dir = requireSharedData(this, 'py-hightech-2.0-data-raw');
    const dump = JSON.parse(fs.readFileSync(path.join(dir, 'data-raw-dump.json'), 'utf8'));
    const techs = dump.technology as Record<string, { prerequisites?: string[] | Record<string, never>; effects?: Array<{ type: string; recipe?: string }> | Record<string, never> }>;
    // From the dump: the pack's technology, its closure, and who unlocks the circuit recipe.
    assert.deepEqual(unlocksOf(techs, 'logistic-science-pack'), ['logistic-science-pack']);
    const base = dumpClosure(techs, 'logistic-science-pack');
    assert.deepEqual(unlocksOf(techs, 'electronic-circuit'), ['electronics']);
    assert.ok(!base.has('electronics'), 'electronics is no prerequisite of the pack');
    // The chain: the pack takes lab-instrument, whose equipment-chassi takes electronic-circuit.
    const ingredients = (r: string) => (dump.recipe[r].ingredients as Array<{ name: string }>).map((i) => i.name);
    assert.ok(ingredients('logistic-science-pack').includes('lab-instrument'));
    assert.ok(ingredients('lab-instrument').includes('equipment-chassi'));
    assert.ok(ingredients('equipment-chassi').includes('electronic-circuit'));

    const py = await loadWorld(dir);
    const research = target(py, 'logistic-science-pack', 'research');
    assert.deepEqual([...research.targetClosure!].sort(), [...base].sort());
    assert.equal(research.recipe('electronic-circuit').buildableNow, false);
    const make = target(py, 'logistic-science-pack', null);
    assert.equal(make.targetScope, 'make');
    assert.ok(make.targetAdded.techs.includes('electronics'));
    for (const t of make.targetAdded.techs) assert.ok(!base.has(t), `${t} was not in the closure before`);
    // Each added technology comes after its prerequisites.
    const pos = new Map(make.targetAdded.techs.map((t, i) => [t, i]));
    for (const t of make.targetAdded.techs) for (const p of list(techs[t].prerequisites)) if (pos.has(p)) assert.ok(pos.get(p)! < pos.get(t)!, `${p} before ${t}`);
    // electronics' own prerequisites are all in reach now.
    for (const p of dumpClosure(techs, 'electronics')) assert.ok(make.targetClosure!.has(p), `${p} in the horizon`);
    assert.equal(make.recipe('electronic-circuit').buildableNow, true);
    assert.deepEqual(make.targetAdded.unmakeable, []);
  });
});
