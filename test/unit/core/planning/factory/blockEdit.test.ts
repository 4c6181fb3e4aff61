// The block editor's edits on the sample world, with expected numbers from the dump's records:
// circuit = 1 s for 1 circuit from 3 wire + 1 ferrite plate; wire = 0.5 s (the default) for 2 wire
// from 1 azurite plate; machines for "crafting": press (speed 0.6), press-mk2 (speed 1.1). Module,
// beacon and machine figures of the newer tests are read from the dump itself (`raw`), never from
// the game index the code under test uses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { applyBlockEdit, editBlock } from '../../../../../src/core/planning/factory/blockEdit';
import { createBlock, getBlock, listBlocks, redoAndResolve, undoAndResolve, BlockError, type BlockSolver } from '../../../../../src/core/planning/factory/blocks';
import { planningContext } from '../../../../../src/core/planning/context';
import { solverFor } from '../../../../../src/core/assistant/tools/context';
import { blockEditorView } from '../../../../../src/extension/blockEditor/viewModel';
import { writeSettings } from '../../../../../src/core/planning/settings';
import { useSampleProject } from '../../../../helpers/sampleProject';
import { SAMPLE_DUMP, requireSharedData } from '../../../../helpers/paths';
import path from 'node:path';
import { loadWorld } from '../queries/world';
import { createPreset, deletePreset, listPresets, renamePreset } from '../../../../../src/core/planning/modulePresets';
import { blockCompletion } from '../../../../../src/core/planning/proposals/complete';

/** The dump's own records: prototype type → name → record. */
const raw = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8')) as Record<string, Record<string, Record<string, any>>>;
/** "400kW" → 400000 (the dump's energy strings). */
const watts = (s: string) => Number(/^([\d.]+)([kMG]?)W$/.exec(s)![1]) * { '': 1, k: 1e3, M: 1e6, G: 1e9 }[/^([\d.]+)([kMG]?)W$/.exec(s)![2]]!;

const close = (a: number | null | undefined, b: number) => assert.ok(a !== null && a !== undefined && Math.abs(a - b) < 1e-6, `${a} ≠ ${b}`);

describe('block editor edits', () => {
  const sample = useSampleProject({ each: true, horizon: 'future' });

  async function circuits() {
    const p = sample.project;
    const ctx = planningContext(p);
    const id = await createBlock(p, solverFor(ctx), { name: 'Circuits', doc: { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }], made: ['wire'] } });
    return { p, ctx, id };
  }

  it('changes a goal rate and a machine, each solved once and saved as one undoable action', async () => {
    const { p, ctx, id } = await circuits();
    let solves = 0;
    const counting: BlockSolver = (doc) => {
      solves++;
      return solverFor(ctx)(doc);
    };
    let r = await editBlock(p, counting, id, { kind: 'goal-rate', index: 0, rate: 2 }, getBlock(p, id).updatedAt, ctx);
    assert.equal(solves, 1, 'the edit is solved once; the save stores that solve');
    const row = (recipe: string) => r.result!.rows.find((x) => x.recipe === recipe)!;
    // 2 circuits/s × 1 s ÷ 1.1 (press-mk2, the fastest buildable); 6 wire/s ÷ 2 per craft × 0.5 s ÷ 1.1.
    assert.equal(row('circuit').machine, 'press-mk2');
    close(row('circuit').buildings, 2 / 1.1);
    close(row('wire').buildings, (6 / 2) * 0.5 / 1.1);
    assert.equal(p.undoable()?.label, 'Set goal Circuit to 2/s in "Circuits"');
    r = await editBlock(p, solverFor(ctx), id, { kind: 'row-machine', recipe: 'circuit', machine: 'press' }, r.block.updatedAt);
    close(row('circuit').buildings, 2 / 0.6);
    assert.equal(getBlock(p, id).doc.recipes[0].machine, 'press');
    // The stored projection is the result shown, not a second solve's.
    assert.equal(getBlock(p, id).cache.status, 'optimal');
    await undoAndResolve(p, solverFor(ctx));
    assert.equal(getBlock(p, id).doc.recipes[0].machine, undefined);
    assert.equal(getBlock(p, id).doc.goals[0].rate, 2);
    await redoAndResolve(p, solverFor(ctx));
    assert.equal(getBlock(p, id).doc.recipes[0].machine, 'press');
  });

  it('refuses an edit made on an older version of the block, and changes nothing', async () => {
    const { p, ctx, id } = await circuits();
    const old = getBlock(p, id).updatedAt;
    await editBlock(p, solverFor(ctx), id, { kind: 'goal-rate', index: 0, rate: 3 }, old);
    const now = getBlock(p, id);
    await assert.rejects(editBlock(p, solverFor(ctx), id, { kind: 'row-remove', recipe: 'wire' }, old), (e: unknown) => e instanceof BlockError && e.code === 'stale' && /apply the change again/.test(e.message));
    assert.deepEqual(getBlock(p, id), now);
  });

  it('adds and removes goals and rows, toggles made and balanced goods, renames', async () => {
    const { p, ctx, id } = await circuits();
    const b = getBlock(p, id);
    let x = applyBlockEdit(b, { kind: 'row-remove', recipe: 'wire' });
    assert.deepEqual(x.doc.recipes.map((r) => r.recipe), ['circuit']);
    x = applyBlockEdit(b, { kind: 'good-made', good: 'wire', on: true });
    assert.deepEqual(x.doc.made, ['wire'], 'turning it on twice keeps one entry');
    x = applyBlockEdit({ ...b, doc: x.doc }, { kind: 'good-made', good: 'ferrite-plate', on: true });
    assert.deepEqual(x.doc.made, ['wire', 'ferrite-plate']);
    x = applyBlockEdit({ ...b, doc: x.doc }, { kind: 'good-made', good: 'wire', on: false });
    assert.deepEqual(x.doc.made, ['ferrite-plate']);
    x = applyBlockEdit(b, { kind: 'good-drain', good: 'ferrite-plate', on: true });
    assert.deepEqual(x.doc.drains, ['ferrite-plate']);
    assert.throws(() => applyBlockEdit(b, { kind: 'goal-add', good: 'circuit', rate: 1 }), /already has a goal/);
    assert.throws(() => applyBlockEdit(b, { kind: 'row-machine', recipe: 'gear', machine: 'press' }), /no row for recipe gear/);
    const r = await editBlock(p, solverFor(ctx), id, { kind: 'rename', name: 'Circuit line' }, b.updatedAt);
    assert.equal(r.block.name, 'Circuit line');
    assert.equal(listBlocks(p).length, 1);
    // The original document is not touched by a refused or applied edit.
    assert.equal(b.doc.recipes.length, 2);
  });

  it('requires the good a maker is added for made inside, in the same undoable edit, so the row runs', async () => {
    const p = sample.project;
    const ctx = planningContext(p);
    const id = await createBlock(p, solverFor(ctx), { name: 'Circuits', doc: { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }] } });
    const before = await solverFor(ctx)(getBlock(p, id).doc);
    assert.ok(before.imports.some((f) => f.good === 'wire'), 'the block imports wire before');
    const r = await editBlock(p, solverFor(ctx), id, { kind: 'row-add', recipe: 'wire', makes: 'wire' }, getBlock(p, id).updatedAt, ctx);
    assert.deepEqual(getBlock(p, id).doc.made, ['wire']);
    assert.equal(r.label, 'Add recipe Azurite wire and make it inside in "Circuits"');
    assert.equal(p.undoable()?.label, r.label);
    // 1 circuit/s takes 3 wire/s; wire makes 2 per 0.5 s craft on press-mk2 (speed 1.1): 3 ÷ 2 × 0.5 ÷ 1.1 buildings.
    const wire = r.result!.rows.find((x) => x.recipe === 'wire')!;
    close(wire.buildings, ((3 / raw.recipe.wire.results[0].amount) * (raw.recipe.wire.energy_required ?? 0.5)) / raw['assembling-machine']['press-mk2'].crafting_speed);
    assert.ok(!r.result!.imports.some((f) => f.good === 'wire'), 'wire is made, not imported');
    // One undo takes both the row and the made rule back.
    await undoAndResolve(p, solverFor(ctx));
    assert.deepEqual(getBlock(p, id).doc.recipes.map((x) => x.recipe), ['circuit']);
    assert.deepEqual(getBlock(p, id).doc.made, []);
    // A goal needs no made rule, nor does a recipe that does not make the good.
    const b = getBlock(p, id);
    assert.deepEqual(applyBlockEdit(b, { kind: 'row-add', recipe: 'circuit-lean', makes: 'circuit' }, { planning: ctx }).doc.made, []);
    assert.deepEqual(applyBlockEdit(b, { kind: 'row-add', recipe: 'gear', makes: 'wire' }, { planning: ctx }).doc.made, []);
  });

  it("completes a block's chain as one undoable edit: the goal's recipe and the private goods below it, not what other blocks make", async () => {
    const p = sample.project;
    const ctx = planningContext(p);
    // fast-conveyor = 5 gear + 1 conveyor; conveyor = 1 gear + 1 ferrite plate → 2 conveyor. The dump's
    // recipes using each: conveyor 1 (fast-conveyor: made here), gear 12 and ferrite plate 14
    // (commodities: imported).
    const users = (good: string) => Object.values(raw.recipe).filter((r) => (r.ingredients ?? []).some((i: { name: string }) => i.name === good)).length;
    assert.deepEqual([users('conveyor'), users('gear') >= 10, users('ferrite-plate') >= 10], [1, true, true]);
    const id = await createBlock(p, solverFor(ctx), { name: 'Fast belts', doc: { goals: [{ good: 'fast-conveyor', rate: 1 }], recipes: [] } });
    // A disabled block making conveyors supplies nothing: the completion makes them here.
    await createBlock(p, solverFor(ctx), { name: 'Belts (off)', enabled: false, doc: { goals: [{ good: 'conveyor', rate: 1 }], recipes: [{ recipe: 'conveyor' }] } });
    const c = blockCompletion(p, ctx, id);
    assert.deepEqual(c.added.map((x) => [x.good, x.recipe]), [['fast-conveyor', 'fast-conveyor'], ['conveyor', 'conveyor']]);
    const r = await editBlock(p, solverFor(ctx), id, { kind: 'rows-add', rows: c.added.map((x) => ({ recipe: x.recipe, makes: x.good })) }, getBlock(p, id).updatedAt, ctx);
    assert.match(r.label, /^Complete the chain: add 2 recipes .+ in "Fast belts"$/);
    assert.equal(p.undoable()?.label, r.label);
    assert.deepEqual(getBlock(p, id).doc.made, ['conveyor'], 'the good a row was added for is made inside; the goal needs no rule');
    // 1 fast conveyor/s takes 1 conveyor/s: conveyor crafts give 2 each.
    close(r.result!.rows.find((x) => x.recipe === 'conveyor')!.craftsPerSecond, 1 / raw.recipe.conveyor.results[0].amount);
    await undoAndResolve(p, solverFor(ctx));
    assert.deepEqual(getBlock(p, id).doc.recipes, []);
    // An enabled block making conveyors: the completion stops there and imports them.
    const belts = await createBlock(p, solverFor(ctx), { name: 'Belts', doc: { goals: [{ good: 'conveyor', rate: 1 }], recipes: [{ recipe: 'conveyor' }] } });
    assert.deepEqual(blockCompletion(p, ctx, id).added.map((x) => [x.good, x.recipe]), [['fast-conveyor', 'fast-conveyor']]);
    assert.throws(() => applyBlockEdit(getBlock(p, belts), { kind: 'rows-add', rows: [{ recipe: 'conveyor', makes: 'conveyor' }] }), /already has every one of those recipes/);
  });

  it('edits share pins, fluid temperatures, reactor layouts, spoil rates, the campaign and row groups', async () => {
    const { p, ctx, id } = await circuits();
    const b = getBlock(p, id);
    const ec = { planning: ctx, display: (n: string) => ctx.g.displayOf(n) };
    let x = applyBlockEdit(b, { kind: 'pin-share', recipe: 'circuit', good: 'wire', share: { share: 0.25, base: 'total' } }, ec);
    assert.deepEqual(x.doc.pins, [{ kind: 'share', recipe: 'circuit', good: 'wire', share: 0.25, base: 'total' }]);
    assert.equal(x.label, 'Give Circuit 25 % of the Azurite wire in "Circuits"');
    x = applyBlockEdit({ ...b, doc: x.doc }, { kind: 'pin-share', recipe: 'circuit', good: 'wire', share: null }, ec);
    assert.deepEqual(x.doc.pins, []);
    assert.throws(() => applyBlockEdit(b, { kind: 'pin-share', recipe: 'circuit', good: 'wire', share: { share: 1.5, base: 'total' } }, ec), /fraction from 0 to 1/);
    x = applyBlockEdit(b, { kind: 'row-temperature', recipe: 'circuit', fluid: 'steam', temperature: 165 }, ec);
    assert.deepEqual(x.doc.recipes[0].fluidTemperatures, { steam: 165 });
    assert.equal(applyBlockEdit({ ...b, doc: x.doc }, { kind: 'row-temperature', recipe: 'circuit', fluid: 'steam', temperature: null }, ec).doc.recipes[0].fluidTemperatures, undefined);
    x = applyBlockEdit(b, { kind: 'row-reactor', recipe: 'circuit', layout: { x: 2, y: 3 } }, ec);
    assert.deepEqual(x.doc.recipes[0].reactorLayout, { x: 2, y: 3 });
    assert.equal(x.label, 'Arrange Circuit as 2 × 3 reactors in "Circuits"');
    x = applyBlockEdit(b, { kind: 'spoil-rate', good: 'wire', rate: 0.5 }, ec);
    assert.deepEqual(x.doc.spoilRates, { wire: 0.5 });
    assert.equal(applyBlockEdit({ ...b, doc: x.doc }, { kind: 'spoil-rate', good: 'wire', rate: null }, ec).doc.spoilRates, undefined);
    x = applyBlockEdit(b, { kind: 'campaign', campaign: { duration: 3600, confidence: '95', quantities: [{ good: 'circuit', quantity: 400 }] } }, ec);
    assert.deepEqual(x.doc.campaign, { duration: 3600, confidence: '95', quantities: [{ good: 'circuit', quantity: 400 }] });
    assert.equal(x.label, 'Campaign: make 400 Circuit within 3600 s in "Circuits"');
    assert.equal(applyBlockEdit({ ...b, doc: x.doc }, { kind: 'campaign', campaign: null }, ec).doc.campaign, undefined);
    // Groups: a row belongs to one group; a composed group is kept whole; removing a row leaves its group.
    x = applyBlockEdit(b, { kind: 'group', group: { name: 'Wire', recipes: ['wire'] } }, ec);
    x = applyBlockEdit({ ...b, doc: x.doc }, { kind: 'group', group: { name: 'All', recipes: ['wire', 'circuit'], composed: { goal: { good: 'circuit', rate: 1 } } } }, ec);
    assert.deepEqual(x.doc.groups, [{ name: 'All', recipes: ['wire', 'circuit'], composed: { goal: { good: 'circuit', rate: 1 } } }], 'the emptied group is gone');
    assert.equal(x.label, 'Group 2 rows as "All" as a module making 1/s Circuit in "Circuits"');
    assert.throws(() => applyBlockEdit({ ...b, doc: x.doc }, { kind: 'group', group: { name: 'Gears', recipes: ['gear'] } }, ec), /names Gear, which is not a row/);
    const renamed = applyBlockEdit({ ...b, doc: x.doc }, { kind: 'group', name: 'All', group: { name: 'Circuit line', recipes: ['wire', 'circuit'] } }, ec);
    assert.deepEqual(renamed.doc.groups, [{ name: 'Circuit line', recipes: ['wire', 'circuit'] }]);
    assert.deepEqual(applyBlockEdit({ ...b, doc: renamed.doc }, { kind: 'row-remove', recipe: 'wire' }, ec).doc.groups, [{ name: 'Circuit line', recipes: ['circuit'] }]);
    assert.equal(applyBlockEdit({ ...b, doc: renamed.doc }, { kind: 'group', name: 'Circuit line', group: null }, ec).doc.groups, undefined);
    // Every one of them saves and solves through the real path.
    const r = await editBlock(p, solverFor(ctx), id, { kind: 'group', group: { name: 'All', recipes: ['wire', 'circuit'], composed: { goal: { good: 'circuit', rate: 1 } } } }, b.updatedAt, ctx);
    assert.equal(r.result?.status, 'optimal');
    assert.deepEqual(r.result?.groups?.map((g) => [g.name, g.scale]), [['All', 1]]);
  });

  it('shows energy as power under its plain name, and names the fluid behind a fluid-fuel row', async () => {
    const p = sample.project;
    const ctx = planningContext(p);
    // naphtha-furnace burns fluid (its energy source burns_fluid); burn-fluid-naphtha turns naphtha into the fuel pool.
    assert.equal(raw.furnace['naphtha-furnace'].energy_source.burns_fluid, true);
    const doc = { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'naphtha-furnace' }] };
    const id = await createBlock(p, solverFor(ctx), { name: 'Plates', doc });
    let b = getBlock(p, id);
    let v = blockEditorView(ctx, b, await solverFor(ctx)(b.doc));
    assert.equal(v.rows[0].fuelDisplay, 'Fluid fuel — imported');
    const pool = v.goods.find((g) => g.good === 'pyops-fluid-fuel')!;
    assert.deepEqual([pool.display, pool.energy], ['Fluid fuel', true]);
    await editBlock(p, solverFor(ctx), id, { kind: 'row-add', recipe: 'burn-fluid-naphtha' }, b.updatedAt, ctx);
    await editBlock(p, solverFor(ctx), id, { kind: 'good-made', good: 'pyops-fluid-fuel', on: true }, getBlock(p, id).updatedAt, ctx);
    b = getBlock(p, id);
    v = blockEditorView(ctx, b, await solverFor(ctx)(b.doc));
    assert.equal(v.rows.find((r) => r.recipe === 'ferrite-plate')!.fuelDisplay, `Fluid fuel — burns ${ctx.g.displayOf('naphtha')}`);
  });

  it('shows machines the horizon does not allow as locked, with what unlocks them', async () => {
    const { p, id } = await circuits();
    writeSettings(p, { research_mode: 'now' });
    const ctx = planningContext(p);
    const b = getBlock(p, id);
    const result = await solverFor(ctx)(b.doc);
    const v = blockEditorView(ctx, b, result);
    const circuit = v.rows.find((r) => r.recipe === 'circuit')!;
    const mk2 = circuit.machineOptions.find((m) => m.name === 'press-mk2')!;
    assert.ok(!['unlocked', 'buildable'].includes(mk2.state), mk2.state);
    // advanced-pressing unlocks press-mk2 in the dump.
    assert.ok(raw.technology['advanced-pressing'].effects.some((e: { recipe?: string }) => e.recipe === 'press-mk2'));
    assert.match(mk2.needs ?? '', new RegExp(`^research ${ctx.g.displayOf('advanced-pressing')}\\b`));
    // Usable machines are listed first.
    const firstLocked = circuit.machineOptions.findIndex((m) => !['unlocked', 'buildable'].includes(m.state));
    assert.ok(circuit.machineOptions.slice(firstLocked).every((m) => !['unlocked', 'buildable'].includes(m.state)));
    assert.equal(v.goals[0].display, ctx.g.displayOf('circuit'));
  });

  it('shows each row\'s modules, beacons and pin, locked modules with their research, the presets and the flow', async () => {
    const { p, id } = await circuits();
    writeSettings(p, { research_mode: 'now', available_science_packs: ['basic-research-pack'] });
    const ctx = planningContext(p);
    createPreset(p, ctx.g, { name: 'Fast', modules: [{ name: 'speed-module-s1', count: 2 }] });
    let b = getBlock(p, id);
    await editBlock(p, solverFor(ctx), id, { kind: 'row-modules', recipe: 'circuit', modules: [{ name: 'speed-module-s1', count: 1 }] }, b.updatedAt, ctx);
    await editBlock(p, solverFor(ctx), id, { kind: 'row-pin', recipe: 'wire', pin: { kind: 'cap', buildings: 5 } }, getBlock(p, id).updatedAt, ctx);
    b = getBlock(p, id);
    const v = blockEditorView(ctx, b, await solverFor(ctx)(b.doc));
    const circuit = v.rows.find((r) => r.recipe === 'circuit')!;
    assert.deepEqual(circuit.modules, [{ name: 'speed-module-s1', display: ctx.g.displayOf('speed-module-s1'), count: 1 }]);
    assert.equal(circuit.moduleSlots, circuit.machine === 'press-mk2' ? raw['assembling-machine']['press-mk2'].module_slots : raw['assembling-machine'].press.module_slots);
    close(circuit.effects!.speed, raw.module['speed-module-s1'].effect.speed);
    // speed-module-s2 is unlocked by modules-2, which takes advanced research packs: locked, saying so.
    assert.deepEqual(raw.technology['modules-2'].effects.map((e: { recipe?: string }) => e.recipe).includes('speed-module-s2'), true);
    const s2 = v.moduleCatalog['speed-module-s2'];
    assert.ok(circuit.moduleOptions.includes('speed-module-s2'));
    assert.equal(s2.state, 'needs-research');
    assert.match(s2.needs ?? '', new RegExp(`research ${ctx.g.displayOf('modules-2')}; ${ctx.g.displayOf('advanced-research-pack')} not produced yet`));
    const usable = circuit.moduleOptions.map((n) => ['unlocked', 'buildable'].includes(v.moduleCatalog[n].state));
    assert.deepEqual(usable, [...usable].sort((x, y) => Number(y) - Number(x)), 'usable modules first');
    assert.deepEqual(circuit.beaconOptions.sort(), Object.keys(raw.beacon).sort());
    assert.deepEqual(v.rows.find((r) => r.recipe === 'wire')!.pin, { kind: 'cap', buildings: 5 });
    assert.deepEqual(v.presets.map((x) => [x.name, x.summary]), [['Fast', `2 × ${ctx.g.displayOf('speed-module-s1')}`]]);
    // The flow diagram: one node per recipe and per good, the goal marked.
    assert.deepEqual(v.flow.nodes.filter((n) => n.kind === 'recipe').map((n) => n.id).sort(), ['r:circuit', 'r:wire']);
    assert.equal(v.flow.nodes.find((n) => n.id === 'g:circuit')?.role, 'goal');
    close(v.flow.edges.find((e) => e.from === 'r:circuit' && e.to === 'g:circuit')!.rate!, 1);
  });

  describe('modules, beacons and pins', () => {
    const speed1 = () => raw.module['speed-module-s1'].effect as { speed: number; consumption: number };
    const mk2 = () => raw['assembling-machine']['press-mk2'];
    const circuitTime = () => raw.recipe.circuit.energy_required as number;

    async function edit(id: string, e: Parameters<typeof editBlock>[3]) {
      const p = sample.project;
      const ctx = planningContext(p);
      return editBlock(p, solverFor(ctx), id, e, getBlock(p, id).updatedAt, ctx);
    }
    const circuitRow = (r: Awaited<ReturnType<typeof edit>>) => r.result!.rows.find((x) => x.recipe === 'circuit')!;

    it('speeds a row up by its machine modules: buildings fall by 1 + n × the module\'s speed', async () => {
      const { id } = await circuits();
      const r = await edit(id, { kind: 'row-modules', recipe: 'circuit', modules: [{ name: 'speed-module-s1', count: 2 }] });
      // 1 circuit/s × craft time ÷ (crafting speed × (1 + 2 × speed bonus)).
      close(circuitRow(r).buildings, (1 * circuitTime()) / (mk2().crafting_speed * (1 + 2 * speed1().speed)));
      close(circuitRow(r).effects.consumption, 2 * speed1().consumption);
      assert.deepEqual(getBlock(sample.project, id).doc.recipes[0].modules, [{ name: 'speed-module-s1', count: 2 }]);
      assert.equal(r.label, 'Set modules of Circuit to 2 × Speed module S1 in "Circuits"');
      // Electric draw per building: usage × (1 + consumption) plus the drain, which no module changes.
      close(circuitRow(r).powerW / circuitRow(r).buildings, watts(mk2().energy_usage) * (1 + 2 * speed1().consumption) + watts(mk2().energy_source.drain));
      const cleared = await edit(id, { kind: 'row-modules', recipe: 'circuit', modules: [] });
      assert.equal(cleared.label, 'Clear modules of Circuit in "Circuits"');
      close(circuitRow(cleared).buildings, circuitTime() / mk2().crafting_speed);
      assert.equal(getBlock(sample.project, id).doc.recipes[0].modules, undefined);
    });

    it('adds a beacon\'s modules × distribution effectivity × the profile entry for the beacon count × the count', async () => {
      const { id } = await circuits();
      const tower = raw.beacon['beacon-tower'];
      const r = await edit(id, { kind: 'row-beacons', recipe: 'circuit', beacons: [{ beacon: 'beacon-tower', count: 2, modules: [{ name: 'speed-module-s1', count: 2 }] }] });
      // Two beacons of one type: profile[2 − 1] (Factorio 2.0 indexes the profile by the beacon count).
      const speed = 2 * speed1().speed * tower.distribution_effectivity * tower.profile[1] * 2;
      close(circuitRow(r).effects.speed, speed);
      close(circuitRow(r).buildings, circuitTime() / (mk2().crafting_speed * (1 + speed)));
      assert.equal(r.label, 'Set beacons of Circuit to 2 × Beacon tower (2 × Speed module S1) in "Circuits"');
      // The machines draw by their activity; the beacons are placed whole (1 machine → its 2 beacons)
      // and each draws its full usage.
      const b = circuitRow(r).buildings;
      assert.ok(b < 1, `${b} buildings: one machine to place`);
      assert.equal(circuitRow(r).beaconBuildings, 2);
      close(circuitRow(r).powerW, b * (watts(mk2().energy_usage) * (1 + speed1().consumption * 2 * tower.distribution_effectivity * tower.profile[1] * 2) + watts(mk2().energy_source.drain)) + 2 * watts(tower.energy_usage));
      const cleared = await edit(id, { kind: 'row-beacons', recipe: 'circuit', beacons: [] });
      assert.equal(cleared.label, 'Clear beacons of Circuit in "Circuits"');
      assert.equal(getBlock(sample.project, id).doc.recipes[0].beacons, undefined);
    });

    it('refuses modules beyond the slots, productivity on a recipe without it, and effects a beacon does not transmit', async () => {
      const { p, ctx, id } = await circuits();
      const b = getBlock(p, id);
      const slots = mk2().module_slots as number;
      const ec = { planning: ctx, display: (n: string) => ctx.g.displayOf(n) };
      assert.throws(() => applyBlockEdit(b, { kind: 'row-modules', recipe: 'circuit', modules: [{ name: 'speed-module-s1', count: slots + 1 }] }, ec), new RegExp(`Press MK2 has ${slots} module slots, not ${slots + 1}`, 'i'));
      const pressBlock = { name: 'Presses', doc: { ...b.doc, recipes: [{ recipe: 'press' }] } };
      assert.throws(() => applyBlockEdit(pressBlock, { kind: 'row-modules', recipe: 'press', modules: [{ name: 'productivity-module-s1', count: 1 }] }, ec), /does not allow productivity/);
      // beacon-tower's allowed effects leave productivity out.
      assert.ok(!raw.beacon['beacon-tower'].allowed_effects.includes('productivity'));
      assert.throws(() => applyBlockEdit(b, { kind: 'row-beacons', recipe: 'circuit', beacons: [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'productivity-module-s1', count: 1 }] }] }, ec), /does not transmit the productivity effect/);
      assert.throws(() => applyBlockEdit(b, { kind: 'row-beacons', recipe: 'circuit', beacons: [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'speed-module-s1', count: 3 }] }] }, ec), /has 2 module slots, not 3/);
      // TURD modules are applied by the solve, never placed.
      assert.throws(() => applyBlockEdit(b, { kind: 'row-modules', recipe: 'circuit', modules: [{ name: 'tempered-press-module', count: 1 }] }, ec), /hidden module/);
      assert.throws(() => applyBlockEdit(b, { kind: 'row-modules', recipe: 'circuit', modules: [{ name: 'speed-module-s1', count: 1 }] }), /checked against the game data/);
    });

    it('keeps modules that fit a newly chosen machine, and drops those that do not', async () => {
      const { id } = await circuits();
      await edit(id, { kind: 'row-modules', recipe: 'circuit', modules: [{ name: 'speed-module-s1', count: 2 }] });
      await edit(id, { kind: 'row-machine', recipe: 'circuit', machine: 'press' });
      assert.deepEqual(getBlock(sample.project, id).doc.recipes[0].modules, [{ name: 'speed-module-s1', count: 2 }]);
      await edit(id, { kind: 'row-machine', recipe: 'circuit', machine: null });
      await edit(id, { kind: 'row-modules', recipe: 'circuit', modules: [{ name: 'speed-module-s1', count: 4 }] });
      // press has 2 slots: four modules do not fit it.
      await edit(id, { kind: 'row-machine', recipe: 'circuit', machine: 'press' });
      assert.equal(getBlock(sample.project, id).doc.recipes[0].modules, undefined);
    });

    it('pins a row to exactly N or at most N buildings, and shows an infeasible cap with its diagnosis', async () => {
      const { id } = await circuits();
      let r = await edit(id, { kind: 'row-pin', recipe: 'circuit', pin: { kind: 'count', buildings: 3 } });
      assert.equal(r.label, 'Pin Circuit to exactly 3 buildings in "Circuits"');
      close(circuitRow(r).buildings, 3);
      r = await edit(id, { kind: 'row-pin', recipe: 'circuit', pin: { kind: 'cap', buildings: 0.5 } });
      assert.equal(r.label, 'Cap Circuit at 0.5 buildings in "Circuits"');
      assert.deepEqual(getBlock(sample.project, id).doc.pins, [{ kind: 'cap', recipe: 'circuit', buildings: 0.5 }], 'one building pin per row');
      // The goal needs circuitTime / 1.1 ≈ 0.91 buildings: a cap of 0.5 cannot make it.
      assert.equal(r.result!.status, 'infeasible');
      assert.ok(r.result!.diagnosis?.some((c) => c.members.some((m) => m.kind === 'pin-cap' && m.ref === 'circuit')), JSON.stringify(r.result!.diagnosis));
      r = await edit(id, { kind: 'row-pin', recipe: 'circuit', pin: null });
      assert.equal(r.label, 'Unpin the buildings of Circuit in "Circuits"');
      assert.equal(r.result!.status, 'optimal');
      assert.deepEqual(getBlock(sample.project, id).doc.pins, []);
    });
  });

  describe('goals', () => {
    async function edit(id: string, e: Parameters<typeof editBlock>[3]) {
      const p = sample.project;
      const ctx = planningContext(p);
      return editBlock(p, solverFor(ctx), id, e, getBlock(p, id).updatedAt, ctx);
    }

    it('switches a goal to a stock (amount within a window) and back, and edits the stock', async () => {
      const { id } = await circuits();
      let r = await edit(id, { kind: 'goal-stock', index: 0, amount: 1200, window: 600 });
      assert.equal(r.label, 'Set goal Circuit to 1200 within 600 s in "Circuits"');
      assert.deepEqual(getBlock(sample.project, id).doc.goals[0], { good: 'circuit', stock: { amount: 1200, window: 600 } });
      // 1200 circuits in 600 s = 2/s.
      close(r.result!.rows.find((x) => x.recipe === 'circuit')!.craftsPerSecond, 2);
      r = await edit(id, { kind: 'goal-stock', index: 0, amount: 1200, window: 1200 });
      close(r.result!.rows.find((x) => x.recipe === 'circuit')!.craftsPerSecond, 1);
      r = await edit(id, { kind: 'goal-rate', index: 0, rate: 0.5 });
      assert.equal(r.label, 'Set goal Circuit to 0.5/s (was a stock goal) in "Circuits"');
      assert.deepEqual(getBlock(sample.project, id).doc.goals[0], { good: 'circuit', rate: 0.5 });
    });

    it('adds a consume goal, and refuses to make it a stock goal', async () => {
      const { p, id } = await circuits();
      const r = await edit(id, { kind: 'goal-add', good: 'ferrite-plate', rate: 2, direction: 'consume' });
      assert.equal(r.label, 'Add goal: take Ferrite plate 2/s in "Circuits"');
      assert.deepEqual(getBlock(p, id).doc.goals[1], { good: 'ferrite-plate', rate: 2, direction: 'consume' });
      await assert.rejects(edit(id, { kind: 'goal-stock', index: 1, amount: 10, window: 600 }), /takes it in; a stock goal makes an amount/);
    });
  });

  describe('module presets', () => {
    it('creates, applies, refuses where a module does not fit, renames and deletes presets, each undoable', async () => {
      const { p, ctx, id } = await circuits();
      const preset = createPreset(p, ctx.g, { name: 'Fast', modules: [{ name: 'speed-module-s1', count: 2 }], beacons: [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'speed-module-s1', count: 2 }] }] });
      assert.equal(p.undoable()?.label, 'Create module preset "Fast"');
      assert.throws(() => createPreset(p, ctx.g, { name: 'fast', modules: [{ name: 'speed-module-s1', count: 1 }] }), /named "Fast" exists already/);
      assert.throws(() => createPreset(p, ctx.g, { name: 'Empty' }), /needs modules or a beacon/);
      const r = await editBlock(p, solverFor(ctx), id, { kind: 'row-preset', recipe: 'circuit', preset: preset.id }, getBlock(p, id).updatedAt, ctx);
      assert.equal(r.label, 'Apply module preset "Fast" to Circuit in "Circuits"');
      const row = getBlock(p, id).doc.recipes[0];
      assert.deepEqual(row.modules, preset.modules);
      assert.deepEqual(row.beacons, preset.beacons);
      const tower = raw.beacon['beacon-tower'];
      const s1 = raw.module['speed-module-s1'].effect.speed as number;
      close(r.result!.rows[0].effects.speed, 2 * s1 + 2 * s1 * tower.distribution_effectivity * tower.profile[0] * 1);
      // A productivity preset cannot go onto a recipe without productivity: refused, nothing saved.
      const prod = createPreset(p, ctx.g, { name: 'Prod', modules: [{ name: 'productivity-module-s1', count: 2 }] });
      const presses = await createBlock(p, solverFor(ctx), { name: 'Presses', doc: { goals: [{ good: 'press', rate: 0.1 }], recipes: [{ recipe: 'press' }] } });
      await assert.rejects(editBlock(p, solverFor(ctx), presses, { kind: 'row-preset', recipe: 'press', preset: prod.id }, getBlock(p, presses).updatedAt, ctx), /Preset "Prod" does not fit Press: .*does not allow productivity/);
      assert.equal(getBlock(p, presses).doc.recipes[0].modules, undefined);
      renamePreset(p, prod.id, 'Productivity');
      assert.equal(p.undoable()?.label, 'Rename module preset "Prod" to "Productivity"');
      assert.deepEqual(listPresets(p).map((x) => x.name), ['Fast', 'Productivity']);
      deletePreset(p, prod.id);
      assert.deepEqual(listPresets(p).map((x) => x.name), ['Fast']);
      p.undo();
      assert.deepEqual(listPresets(p).map((x) => x.name), ['Fast', 'Productivity']);
      p.undo();
      assert.deepEqual(listPresets(p).map((x) => x.name), ['Fast', 'Prod']);
      // The row keeps what was applied when its preset goes: applying copies.
      deletePreset(p, preset.id);
      assert.deepEqual(getBlock(p, id).doc.recipes[0].modules, preset.modules);
      await assert.rejects(editBlock(p, solverFor(ctx), id, { kind: 'row-preset', recipe: 'circuit', preset: preset.id }, getBlock(p, id).updatedAt, ctx), /no module preset/);
    });
  });

  describe('on Py data (py-hightech 2.0)', function () {
    this.timeout(120_000);

    it('sizes a row with a speed module and three beacons by the 2.0 beacon profile, from the dump\'s records', async function () {
      const dir = requireSharedData(this, 'py-hightech-2.0-data-raw');
      const dump = JSON.parse(fs.readFileSync(path.join(dir, 'data-raw-dump.json'), 'utf8')) as typeof raw;
      const w = await loadWorld(dir);
      const ctx = w.ctx({ research_mode: 'future' });
      const p = w.project;
      const id = await createBlock(p, solverFor(ctx), { name: 'Gears (editor test)', doc: { goals: [{ good: 'iron-gear-wheel', rate: 10 }], recipes: [{ recipe: 'iron-gear-wheel', machine: 'automated-factory-mk01' }] } });
      let r = await editBlock(p, solverFor(ctx), id, { kind: 'row-modules', recipe: 'iron-gear-wheel', modules: [{ name: 'speed-module', count: 1 }] }, getBlock(p, id).updatedAt, ctx);
      r = await editBlock(p, solverFor(ctx), id, { kind: 'row-beacons', recipe: 'iron-gear-wheel', beacons: [{ beacon: 'beacon', count: 3, modules: [{ name: 'speed-module', count: 2 }] }] }, r.block.updatedAt, ctx);
      const s = dump.module['speed-module'].effect.speed as number;
      const b = dump.beacon.beacon;
      const m = dump['assembling-machine']['automated-factory-mk01'];
      // Machine module + 3 beacons × (2 modules × effectivity × profile[3 − 1]).
      const speed = s + 3 * 2 * s * b.distribution_effectivity * b.profile[2];
      const row = r.result!.rows[0];
      close(row.effects.speed, speed);
      close(row.buildings, (10 * dump.recipe['iron-gear-wheel'].energy_required) / (m.crafting_speed * (1 + speed)));
      // Whole machines, each with its 3 beacons (none shared).
      assert.equal(row.beaconBuildings, 3 * Math.ceil(row.buildings - 1e-6));
      close(row.powerW - (row.beaconPowerW ?? 0), row.buildings * (watts(m.energy_usage) * (1 + dump.module['speed-module'].effect.consumption + 3 * 2 * dump.module['speed-module'].effect.consumption * b.distribution_effectivity * b.profile[2]) + (m.energy_source.drain ? watts(m.energy_source.drain) : watts(m.energy_usage) / 30)));
      close(row.beaconPowerW, row.beaconBuildings * watts(b.energy_usage));
    });
  });
});

