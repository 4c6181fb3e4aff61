// The settings tool on the sample world: names checked with suggestions and nothing saved on an
// error, research following the game's tree, favourites reaching the solver, and the whole request
// saved as one undoable action.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Project } from '../../../../src/core/db/project';
import { importGameData } from '../../../../src/core/gamedata/import';
import { findTool } from '../../../../src/core/assistant/tools/registry';
import { runTool } from '../../../../src/core/assistant/tools/run';
import { planningContext } from '../../../../src/core/planning/context';
import { readPlanningState, readSettings } from '../../../../src/core/planning/settings';
import { SAMPLE_DUMP, tempDir } from '../../../helpers/paths';
import { createPreset, listPresets } from '../../../../src/core/planning/modulePresets';
import { gameIndex } from '../../../../src/core/planning/gameIndex';
import { changeSettingsForModel } from '../../../../src/core/planning/settingsChange';

type Outcome = Awaited<ReturnType<typeof runTool>>;

const dump = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8'));
const raw = dump.raw ?? dump;
/** Joules of an energy string of the dump ("3.5MJ", "90kW" per second). */
const joules = (s: string) => Number(s.replace(/[a-zA-Z]+$/, '')) * { k: 1e3, M: 1e6, G: 1e9 }[s.replace(/^[\d.]+/, '')[0] as 'k' | 'M' | 'G'];

describe('changePlanningSettings', function () {
  this.timeout(30_000);
  let dir: string;
  let project: Project;
  const call = (input: unknown) => runTool(findTool('changePlanningSettings')!, input, { project, caller: 'vscode' });
  const ok = (o: Outcome) => {
    assert.equal(o.ok, true, JSON.stringify(o));
    return (o as { result: any }).result;
  };
  const err = (o: Outcome) => {
    assert.equal(o.ok, false, JSON.stringify(o));
    return (o as { error: string }).error;
  };
  const undoCount = () => project.query<{ n: number }>('SELECT COUNT(*) AS n FROM undo_actions')[0].n;

  beforeEach(async () => {
    dir = tempDir('pyops-settings-');
    project = await Project.create(`${dir}/s.pyops`, { name: 'Settings' });
    await importGameData(project, SAMPLE_DUMP);
  });
  afterEach(() => {
    project.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('saves horizon, packs, favourites, fuel, exclusions, mining productivity and research as ONE undoable action', async () => {
    const before = JSON.stringify([readSettings(project), [...readPlanningState(project).researched]]);
    const undos = undoCount();
    const r = ok(
      await call({
        horizon: 'now',
        sciencePacks: ['basic-research-pack'],
        favoriteMachines: [{ machine: 'press-mk2', category: 'crafting' }],
        favoriteFuel: 'lignite',
        excludedRecipes: { add: ['cure-resin'] },
        miningProductivity: 20,
        researched: { add: ['electronics'] },
      }),
    );
    assert.deepEqual(r.changes.map((c: { setting: string }) => c.setting).sort(), ['excludedRecipes', 'favoriteFuel', 'favoriteMachines', 'miningProductivity', 'researched', 'sciencePacks']);
    assert.equal(undoCount(), undos + 1, 'one undo entry for the whole request');
    const s = readSettings(project);
    assert.deepEqual(s.favorite_machines, { crafting: 'press-mk2' });
    assert.equal(s.favorite_fuel, 'lignite');
    assert.ok(s.exclusions.includes('cure-resin'));
    assert.deepEqual(s.mining_productivity, { source: 'manual', percent: 20 });
    assert.deepEqual(r.settings.sciencePacks, ['basic-research-pack']);
    project.undo();
    assert.equal(JSON.stringify([readSettings(project), [...readPlanningState(project).researched]]), before, 'one undo restores everything');
  });

  describe('a target horizon', () => {
    it('is "able to make" a science pack by default and names the technologies that adds', async () => {
      const r = ok(await call({ horizon: 'target', horizonTarget: 'basic-research-pack' }));
      // Mining ferrite ore takes solvent, which refine-brine (fluid-handling, after electronics) makes.
      assert.deepEqual(r.horizon, { target: 'basic-research-pack', targetTech: 'automation-basics', scope: 'make', addedTechnologies: ['electronics', 'fluid-handling'], technologies: 3 });
      assert.equal(r.settings.horizonScope, 'make');
      assert.equal(readSettings(project).horizon_target_scope, null, 'the default is kept as the default, not stored');
      assert.equal(planningContext(project).availability.recipe('refine-brine').availableNow, true);
    });

    it('keeps to the prerequisite closure when asked, and a new target takes its own default again', async () => {
      const r = ok(await call({ horizon: 'target', horizonTarget: 'basic-research-pack', horizonScope: 'research' }));
      assert.deepEqual(r.horizon, { target: 'basic-research-pack', targetTech: 'automation-basics', scope: 'research', technologies: 1 });
      assert.equal(planningContext(project).availability.recipe('refine-brine').availableNow, false);
      const again = ok(await call({ horizonTarget: 'advanced-research-pack' }));
      assert.equal(readSettings(project).horizon_target_scope, null);
      assert.equal(again.horizon.scope, 'make');
      assert.deepEqual(again.horizon.addedTechnologies, []);
      assert.ok(again.changes.some((c: { setting: string }) => c.setting === 'horizonScope'));
    });

    it('names the first 25 added technologies to the model and counts the rest', async () => {
      const r = ok(await call({ horizon: 'target', horizonTarget: 'basic-research-pack' }));
      assert.deepEqual(changeSettingsForModel(r), r, 'a short list is read whole');
      const many = Array.from({ length: 262 }, (_, i) => `tech-${i}`);
      const v = changeSettingsForModel({ ...r, horizon: { ...r.horizon, addedTechnologies: many } }) as { horizon: { addedTechnologies: string[]; addedTechnologiesMore: number; addedTechnologiesNote: string } };
      assert.deepEqual(v.horizon.addedTechnologies, many.slice(0, 25));
      assert.equal(v.horizon.addedTechnologiesMore, 237);
      assert.match(v.horizon.addedTechnologiesNote, /first 25 of 262/);
    });

    it('reports no horizon when nothing about it changed', async () => {
      ok(await call({ horizon: 'target', horizonTarget: 'dense-circuit' }));
      const r = ok(await call({ favoriteFuel: 'lignite' }));
      assert.equal(r.horizon, undefined);
      assert.equal(r.settings.horizonScope, 'research', 'dense-circuit is no science pack');
    });
  });

  it('shows the module presets the block editor saved in the settings the assistant reads', async () => {
    createPreset(project, gameIndex(project), { name: 'Beaconed speed', modules: [{ name: 'speed-module-s1', count: 2 }], beacons: [{ beacon: 'beacon-tower', count: 4, modules: [{ name: 'speed-module-s1', count: 2 }] }] });
    const r = ok(await call({ horizon: 'future' }));
    assert.deepEqual(r.settings.modulePresets, [{ name: 'Beaconed speed', modules: [{ name: 'speed-module-s1', count: 2 }], beacons: [{ beacon: 'beacon-tower', count: 4, modules: [{ name: 'speed-module-s1', count: 2 }] }] }]);
  });

  describe('module presets', () => {
    const presets = () => listPresets(project).map(({ name, modules, beacons }) => ({ name, modules, beacons }));
    const speed = { name: 'speed-module-s1', count: 2 };

    it('adds, renames and removes presets beside other settings as ONE undoable action', async () => {
      createPreset(project, gameIndex(project), { name: 'Old', modules: [{ name: 'efficiency-module-s1', count: 1 }] });
      createPreset(project, gameIndex(project), { name: 'Draft speed', modules: [speed] });
      const undos = undoCount();
      const before = JSON.stringify([presets(), readSettings(project)]);
      const r = ok(
        await call({
          horizon: 'future',
          modulePresets: {
            remove: ['old'], // names match ignoring case, as they are unique ignoring case
            rename: [{ from: 'Draft speed', to: 'Speed 2' }],
            add: [{ name: 'Beaconed', modules: [speed], beacons: [{ beacon: 'beacon-tower', count: 4, modules: [{ name: 'speed-module-s2', count: 2 }] }] }],
          },
        }),
      );
      assert.equal(undoCount(), undos + 1, 'one undo entry for presets and horizon together');
      assert.deepEqual(r.changes.find((c: { setting: string }) => c.setting === 'modulePresets'), { setting: 'modulePresets', before: ['Draft speed', 'Old'], after: ['Beaconed', 'Speed 2'] });
      assert.deepEqual(presets(), [
        { name: 'Beaconed', modules: [speed], beacons: [{ beacon: 'beacon-tower', count: 4, modules: [{ name: 'speed-module-s2', count: 2 }] }] },
        { name: 'Speed 2', modules: [speed], beacons: [] },
      ]);
      assert.deepEqual(r.settings.modulePresets.map((x: { name: string }) => x.name), ['Beaconed', 'Speed 2'], 'the result shows the presets as saved');
      project.undo();
      assert.equal(JSON.stringify([presets(), readSettings(project)]), before, 'one undo restores presets and horizon');
    });

    it('lets a removed or renamed name be taken again in the same call', async () => {
      createPreset(project, gameIndex(project), { name: 'Speed', modules: [speed] });
      ok(await call({ modulePresets: { rename: [{ from: 'Speed', to: 'Speed (old)' }], add: [{ name: 'Speed', modules: [{ name: 'speed-module-s2', count: 2 }] }] } }));
      assert.deepEqual(presets().map((x) => [x.name, x.modules[0].name]), [['Speed', 'speed-module-s2'], ['Speed (old)', 'speed-module-s1']]);
    });

    it('refuses unknown presets and modules, taken names and misfits with what to do, and saves nothing', async () => {
      createPreset(project, gameIndex(project), { name: 'Speed', modules: [speed] });
      const before = JSON.stringify([presets(), readSettings(project)]);
      const undos = undoCount();
      const cases: Array<[unknown, RegExp]> = [
        [{ modulePresets: { remove: ['Sped'] } }, /no module preset named "Sped" to remove; the project's presets: "Speed"\./],
        [{ modulePresets: { rename: [{ from: 'Nope', to: 'X' }] } }, /no module preset named "Nope" to rename; the project's presets: "Speed"/],
        [{ modulePresets: { add: [{ name: 'speed', modules: [speed] }] } }, /a module preset named "Speed" exists already; choose another name/],
        [{ modulePresets: { add: [{ name: 'A', modules: [speed] }, { name: 'A', modules: [speed] }] } }, /a module preset named "A" exists already/],
        [{ modulePresets: { add: [{ name: 'Fast', modules: [{ name: 'speed-modul-s2', count: 2 }] }] } }, /module preset "Fast": The game data has no module speed-modul-s2 to place\. Did you mean speed-module-s2/],
        [{ modulePresets: { add: [{ name: 'TURD', modules: [{ name: 'tempered-press-module', count: 1 }] }] } }, /no module tempered-press-module to place/],
        [{ modulePresets: { add: [{ name: 'Tower', beacons: [{ beacon: 'beacon-towr', count: 2, modules: [speed] }] }] } }, /no beacon beacon-towr to place\. Did you mean beacon-tower/],
        [{ modulePresets: { add: [{ name: 'Prod tower', beacons: [{ beacon: 'beacon-tower', count: 2, modules: [{ name: 'productivity-module-s1', count: 2 }] }] }] } }, /cannot go into Beacon tower/i],
        [{ modulePresets: { add: [{ name: 'Empty' }] } }, /needs modules or a beacon; it was given neither/],
        // A valid change beside a refused preset is not saved either.
        [{ horizon: 'future', modulePresets: { remove: ['Speed'], add: [{ name: 'B', modules: [{ name: 'nope', count: 1 }] }] } }, /no module nope/],
      ];
      for (const [input, re] of cases) assert.match(err(await call(input)), re, JSON.stringify(input));
      assert.equal(JSON.stringify([presets(), readSettings(project)]), before);
      assert.equal(undoCount(), undos);
      assert.match(err(await call({ modulePresets: { add: [{ name: ' ', modules: [speed] }] } })), /a preset needs a name/);
    });

    it('writes nothing for a rename to the same name', async () => {
      createPreset(project, gameIndex(project), { name: 'Speed', modules: [speed] });
      const undos = undoCount();
      assert.deepEqual(ok(await call({ modulePresets: { rename: [{ from: 'Speed', to: 'Speed' }] } })).changes, []);
      assert.equal(undoCount(), undos);
    });
  });

  it('marks prerequisites researched with a technology, and unmarks what requires a removed one', async () => {
    // advanced-pressing ← advanced-research ← fluid-handling ← electronics ← automation-basics (the dump's prerequisites).
    const chain = (t: string): string[] => [t, ...(raw.technology[t].prerequisites ?? []).flatMap(chain)];
    const r = ok(await call({ researched: { add: ['advanced-pressing'] } }));
    assert.deepEqual([...readPlanningState(project).researched].sort(), [...new Set(chain('advanced-pressing'))].sort());
    assert.deepEqual(r.research.alsoAddedPrerequisites, ['advanced-research', 'automation-basics', 'electronics', 'fluid-handling']);
    const gone = ok(await call({ researched: { remove: ['fluid-handling'] } }));
    assert.deepEqual([...readPlanningState(project).researched].sort(), ['automation-basics', 'electronics']);
    assert.deepEqual(gone.research.alsoRemovedDependants, ['advanced-pressing', 'advanced-research']);
    assert.match(err(await call({ researched: { add: ['electronic'] } })), /no technology named 'electronic'\. Did you mean electronics\?/);
    assert.match(err(await call({ researched: { add: ['tempered-press'] } })), /tempered-press is a TURD choice, not research.*Select TURD Branch/);
    // The master is research; its branches are chosen.
    ok(await call({ researched: { add: ['press-upgrade'] } }));
    assert.ok(readPlanningState(project).researched.has('press-upgrade'));
  });

  it('favours a machine for every category it crafts, or one; clears with null; and the default-machine rule follows', async () => {
    ok(await call({ horizon: 'future', favoriteMachines: [{ machine: 'press-mk2' }] }));
    assert.deepEqual(readSettings(project).favorite_machines, Object.fromEntries(raw['assembling-machine']['press-mk2'].crafting_categories.map((c: string) => [c, 'press-mk2'])));
    const d = planningContext(project).availability.defaultMachine('gear');
    assert.deepEqual([d.machine?.name, d.rule], ['press-mk2', 'favorite']);
    ok(await call({ favoriteMachines: [{ machine: null, category: 'crafting' }] }));
    assert.deepEqual(readSettings(project).favorite_machines, { 'steam-pressing': 'press-mk2' });
    assert.notEqual(planningContext(project).availability.defaultMachine('gear').rule, 'favorite');
  });

  it('burns the favourite fuel in drafts: same energy, fuel rate scaled by the fuel values', async () => {
    ok(await call({ horizon: 'future', favoriteMachines: [{ machine: 'kiln' }] }));
    const draft = async () => ok(await runTool(findTool('submitBlock')!, { target: 'ferrite-plate', rate: 1, recipes: ['ferrite-plate'] }, { project, caller: 'agent' }));
    const plain = await draft();
    assert.equal(plain.rows[0].machine, 'kiln');
    // The kiln's building count from the dump: 1/s of a 3.2 s recipe at crafting speed 1 (no productivity on a kiln: 0 module slots).
    const buildings = raw.recipe['ferrite-plate'].energy_required / raw.furnace.kiln.crafting_speed;
    assert.ok(Math.abs(plain.rows[0].buildings - buildings) < 1e-9);
    const usageW = joules(raw.furnace.kiln.energy_usage) / raw.furnace.kiln.energy_source.effectivity;
    const fuelOf = (d: { fuel: Array<{ fuel: string; rate: number }> }, f: string) => d.fuel.find((x) => x.fuel === f)?.rate;
    assert.ok(plain.rows[0].fuel !== 'lignite', 'lignite is not the default fuel, so the favourite is what changes it');

    ok(await call({ favoriteFuel: 'lignite' }));
    const fav = await draft();
    assert.equal(fav.rows[0].fuel, 'lignite');
    const expected = (buildings * usageW) / joules(raw.item.lignite.fuel_value);
    assert.ok(Math.abs(fuelOf(fav, 'lignite')! - expected) < 1e-9, `${fuelOf(fav, 'lignite')} lignite/s, expected ${expected}`);
    // One-building math says where the fuel choice came from.
    const one = ok(await runTool(findTool('calcRecipe')!, { recipe: 'ferrite-plate', machine: 'kiln' }, { project, caller: 'agent' }));
    assert.deepEqual([one.perBuilding.fuel.fuel, one.perBuilding.fuel.rule], ['lignite', 'favorite']);
    const given = ok(await runTool(findTool('calcRecipe')!, { recipe: 'ferrite-plate', machine: 'kiln', fuel: 'charcoal' }, { project, caller: 'agent' }));
    assert.deepEqual([given.perBuilding.fuel.fuel, given.perBuilding.fuel.rule], ['charcoal', 'picked']);
  });

  it('answers unknown or impossible values with suggestions and saves nothing', async () => {
    const before = JSON.stringify(readSettings(project));
    const undos = undoCount();
    const cases: Array<[unknown, RegExp]> = [
      [{ favoriteMachines: [{ machine: 'press-mk3' }] }, /no machine named 'press-mk3'\. Did you mean press-mk2\?/],
      [{ favoriteMachines: [{ machine: 'press', category: 'craftin' }] }, /no crafting category named 'craftin'\. Did you mean crafting\?/],
      [{ favoriteMachines: [{ machine: 'kiln', category: 'crafting' }] }, /Kiln \[kiln\] does not craft category 'crafting'.*machines for crafting: press, press-mk2/],
      [{ favoriteFuel: 'lignit' }, /no item named 'lignit'.*Did you mean lignite\?/],
      [{ favoriteFuel: 'ferrite-plate' }, /'ferrite-plate' is not a solid fuel.*Fuels: lignite, charcoal/],
      [{ favoriteFluidFuel: 'lignite' }, /'lignite' is not a fluid with a fuel value.*Fluids: naphtha/],
      [{ favoriteFluidFuel: 'naptha' }, /no fluid named 'naptha'.*Did you mean naphtha\?/],
      [{ sciencePacks: ['basic-research'] }, /'basic-research' is not a science pack.*Did you mean basic-research-pack\?/],
      [{ horizon: 'target' }, /horizon "target" needs a horizonTarget/],
      [{ horizon: 'target', horizonTarget: 'ferrit-plate' }, /no good or technology named 'ferrit-plate'.*Did you mean ferrite-plate/],
      [{ excludedRecipes: { add: ['zzz-*'] } }, /the pattern 'zzz-\*' matches no recipe/],
      [{ excludedRecipes: { add: ['cure-resn'] } }, /no recipe named 'cure-resn'\. Did you mean cure-resin\?/],
      [{ excludedRecipes: { remove: ['gear'] } }, /'gear' is not in the excluded list/],
      // A valid change beside an invalid one is not saved either.
      [{ horizon: 'future', favoriteFuel: 'nope' }, /no item named 'nope'/],
    ];
    for (const [input, re] of cases) assert.match(err(await call(input)), re, JSON.stringify(input));
    assert.equal(JSON.stringify(readSettings(project)), before);
    assert.equal(undoCount(), undos);
    assert.match(err(await call({})), /^Invalid input for changePlanningSettings: input: give at least one setting to change/);
    assert.match(err(await call({ favoriteMachines: [{ machine: null }] })), /a null machine needs its category/);
  });

  it('applies exclusions and mining productivity to planning, and writes nothing when nothing changes', async () => {
    ok(await call({ horizon: 'future', excludedRecipes: { add: ['cure-*'] }, miningProductivity: 25 }));
    const pc = planningContext(project);
    assert.equal(pc.availability.isExcluded('cure-resin'), true);
    const mining = [...pc.g.recipes.values()].find((r) => r.kind === 'mining')!;
    assert.equal(pc.availability.productivityBonus(mining), 0.25);
    const undos = undoCount();
    const again = await call({ excludedRecipes: { add: ['cure-*'] }, miningProductivity: 25 });
    assert.deepEqual(ok(again).changes, []);
    assert.equal(again.summary, 'Planning settings already as asked (nothing changed)');
    assert.equal(undoCount(), undos);
    ok(await call({ miningProductivity: 'research', excludedRecipes: { remove: ['cure-*'] } }));
    assert.equal(planningContext(project).availability.isExcluded('cure-resin'), false);
    assert.equal(readSettings(project).mining_productivity.source, 'research');
  });
});
