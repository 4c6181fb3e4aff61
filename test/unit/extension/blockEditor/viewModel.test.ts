// What the block editor shows, built from real solves on the sample world, with expected numbers from
// the dump's records: an idle row says why and carries the edit that puts it to work; a fluid burner
// offers the fluids it can burn, shows the fuel's power, and "Fuel bought in" leaves out fuel made
// inside; a count pin's surplus is an export with a note on the pin (in the block's unit); a block
// solved with what the horizon does not allow reads as a warning; rows list what they take and give.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createBlock, getBlock } from '../../../../src/core/planning/factory/blocks';
import { editBlock } from '../../../../src/core/planning/factory/blockEdit';
import { planningContext } from '../../../../src/core/planning/context';
import { solverFor } from '../../../../src/core/assistant/tools/context';
import { readSettings, writeSettings } from '../../../../src/core/planning/settings';
import { changePlanningSettings, changeSettingsInput } from '../../../../src/core/planning/settingsChange';
import { blockEditorView } from '../../../../src/extension/blockEditor/viewModel';
import { useSampleProject } from '../../../helpers/sampleProject';
import { SAMPLE_DUMP, requireSharedData } from '../../../helpers/paths';
import path from 'node:path';
import { loadWorld } from '../../core/planning/queries/world';

const raw = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8')) as Record<string, Record<string, Record<string, any>>>;
const watts = (s: string) => {
  const m = /^([\d.]+)([kMG]?)W$/.exec(s)!;
  return Number(m[1]) * { '': 1, k: 1e3, M: 1e6, G: 1e9 }[m[2]]!;
};
const joules = (s: string) => watts(s.replace(/J$/, 'W'));
const close = (a: number | null | undefined, b: number, what = '') => assert.ok(a !== null && a !== undefined && Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)), `${what} ${a} ≠ ${b}`);

describe('block editor view', () => {
  const sample = useSampleProject({ each: true, horizon: 'future' });

  async function block(doc: unknown, name = 'Test') {
    const p = sample.project;
    const ctx = planningContext(p);
    const id = await createBlock(p, solverFor(ctx), { name, doc });
    const view = async (unit?: 's' | 'min' | 'h') => {
      const c = planningContext(p);
      const b = getBlock(p, id);
      return blockEditorView(c, b, await solverFor(c)(b.doc), { unit });
    };
    const edit = async (e: Parameters<typeof editBlock>[3]) => editBlock(p, solverFor(planningContext(p)), id, e, getBlock(p, id).updatedAt, planningContext(p));
    return { p, ctx, id, view, edit };
  }

  it('says on the row why it is idle (the solver’s advice) and applies the fix it offers', async () => {
    const { view, edit } = await block({ goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }] });
    let v = await view();
    const wire = v.rows.find((r) => r.recipe === 'wire')!;
    assert.equal(wire.buildings, 0);
    // The solver's advice, in the editor's words (no internal [names]).
    assert.equal(wire.advice.length, 1);
    assert.ok(wire.advice[0].idle);
    assert.match(wire.advice[0].reason, /^Azurite wire does not run: the block imports 3\/s of Azurite wire instead/);
    assert.ok(!/\[wire\]/.test(wire.advice[0].reason), wire.advice[0].reason);
    assert.deepEqual(wire.advice[0].fixes[0], { label: 'Make Azurite wire inside', edit: { kind: 'good-made', good: 'wire', on: true } });
    await edit(wire.advice[0].fixes[0].edit);
    v = await view();
    const running = v.rows.find((r) => r.recipe === 'wire')!;
    assert.deepEqual(running.advice, []);
    // 3 wire/s for 1 circuit/s; 2 wire per craft of the recipe's time on press-mk2.
    close(running.buildings, ((3 / raw.recipe.wire.results[0].amount) * (raw.recipe.wire.energy_required ?? 0.5)) / raw['assembling-machine']['press-mk2'].crafting_speed);
  });

  it('lists what each row takes and gives per second at its size, fuel marked', async () => {
    const { view } = await block({ goals: [{ good: 'azurite-plate', rate: 2 }], recipes: [{ recipe: 'azurite-plate', machine: 'kiln' }] });
    const v = await view();
    const r = v.rows[0];
    const kiln = raw.furnace.kiln;
    // A kiln burns lignite (the preferred fuel it can burn here): usage ÷ effectivity per building, in items of lignite's value.
    const buildings = (2 * raw.recipe['azurite-plate'].energy_required) / kiln.crafting_speed;
    close(r.buildings, buildings, 'kiln buildings');
    const byGood = Object.fromEntries(r.io.map((x) => [x.good, x]));
    close(byGood['azurite-ore'].rate, -2, 'ore in');
    close(byGood['azurite-plate'].rate, 2, 'plates out');
    const fuel = r.io.find((x) => x.fuel && x.rate < 0)!;
    assert.ok(fuel, 'the burnt fuel is listed');
    close(-fuel.rate, (buildings * watts(kiln.energy_usage)) / kiln.energy_source.effectivity / joules(raw.item[fuel.good].fuel_value), 'fuel items/s');
    close(r.fuelW, (buildings * watts(kiln.energy_usage)) / kiln.energy_source.effectivity, 'fuel power of the row');
    close(v.result!.fuelW, r.fuelW!, 'fuel power in the headline');
    assert.ok(r.fuelOptions.every((f) => f.kind === 'item') && r.fuelOptions.some((f) => f.name === 'lignite'));
    assert.match(r.fuelDefault, /^Default \(/);
    assert.ok(r.io.findIndex((x) => x.rate > 0) > r.io.findIndex((x) => x.rate < 0), 'inputs first');
  });

  it('offers a fluid burner the fluids it can burn, and leaves fuel made inside out of "Fuel bought in"', async () => {
    const { view, edit } = await block({ goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'naphtha-furnace' }] });
    let v = await view();
    let row = v.rows[0];
    assert.deepEqual(row.fuelOptions.map((f) => [f.name, f.kind]), [['naphtha', 'fluid']], 'naphtha is the sample world’s one fluid with a fuel value');
    assert.equal(row.fuelDefault, 'Fluid fuel — imported');
    await edit({ kind: 'row-fuel', recipe: 'ferrite-plate', fuel: 'naphtha' });
    v = await view();
    row = v.rows[0];
    const furnace = raw.furnace['naphtha-furnace'];
    const buildings = raw.recipe['ferrite-plate'].energy_required / furnace.crafting_speed;
    const fuelW = (buildings * watts(furnace.energy_usage)) / furnace.energy_source.effectivity;
    close(row.fuelW, fuelW, 'fuel power');
    const naphtha = fuelW / joules(raw.fluid.naphtha.fuel_value);
    assert.deepEqual(v.result!.fuel.map((f) => f.fuel), ['naphtha']);
    close(v.result!.fuel[0].rate, naphtha, 'naphtha bought per second');
    // Made inside (brine refining gives naphtha), it is no longer bought.
    await edit({ kind: 'row-add', recipe: 'refine-brine', makes: 'naphtha' });
    v = await view();
    assert.deepEqual(v.result!.fuel, [], 'nothing bought');
    assert.ok(!v.result!.imports.some((f) => f.good === 'naphtha'));
  });

  it('shows what a count pin makes past the goal as an export, with a note on the pin in the block’s unit', async () => {
    const { view } = await block({ goals: [{ good: 'circuit', rate: 0.5 }], recipes: [{ recipe: 'circuit' }], pins: [{ kind: 'count', recipe: 'circuit', buildings: 2 }] });
    const v = await view('min');
    // 2 press-mk2 make 2 × 1.1 ÷ 1 s circuits per second; the goal takes 0.5.
    const made = (2 * raw['assembling-machine']['press-mk2'].crafting_speed) / raw.recipe.circuit.energy_required;
    assert.equal(v.result!.surplus.length, 1);
    close(v.result!.surplus[0].rate, made - 0.5, 'surplus');
    close(v.result!.surplus[0].goal, 0.5, 'goal');
    assert.deepEqual(v.result!.surplus[0].pins, ['Circuit']);
    assert.equal(v.unit, 'min');
    assert.equal(v.rows[0].pinNote, `The pin makes ${Number(((made - 0.5) * 60).toFixed(0))}/min Circuit more than the goal of 30/min: it leaves the block as an export.`);
  });

  it('reads as a warning, not "solved", when a row uses a machine or recipe the horizon does not allow', async () => {
    const { p, view } = await block({ goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit', machine: 'press-mk2' }, { recipe: 'wire' }], made: ['wire'] });
    assert.equal((await view()).tone, 'ok');
    writeSettings(p, { research_mode: 'now' });
    const v = await view();
    assert.equal(v.state, 'solved');
    assert.equal(v.tone, 'warn');
    const circuit = v.rows.find((r) => r.recipe === 'circuit')!;
    assert.match(circuit.machineWarning ?? '', /Press MK2 cannot be built under the horizon — needs /);
    // The circuit recipe is locked in the dump (enabled: false) and unlocked by research.
    assert.equal(raw.recipe.circuit.enabled, false);
    assert.ok(circuit.recipeLock && !['unlocked', 'buildable'].includes(circuit.recipeLock.state));
    assert.match(circuit.recipeLock!.needs ?? '', /^research /);
    assert.match(v.stateDetail ?? '', /^Solved, but not buildable as planned: .*machine that cannot be built yet.*recipe not unlocked yet/);
  });

  it('shows the campaign, the groups with their module scale, and the spoil rates of the document', async () => {
    const { view } = await block({
      goals: [], campaign: { duration: 3600, confidence: 'expected', quantities: [{ good: 'circuit', quantity: 360 }] },
      recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }], made: ['wire'],
      groups: [{ name: 'Circuits', recipes: ['circuit', 'wire'], composed: { goal: { good: 'circuit', rate: 0.05 } } }],
    });
    const v = await view();
    assert.equal(v.result!.status, 'optimal');
    assert.deepEqual(v.campaign, { duration: 3600, confidence: 'expected', quantities: [{ good: 'circuit', display: 'Circuit', quantity: 360, planned: 360, rate: 0.1 }] });
    assert.deepEqual(v.groups.map((g) => [g.name, g.recipes, g.composed?.good, g.composed?.rate]), [['Circuits', ['circuit', 'wire'], 'circuit', 0.05]]);
    close(v.groups[0].composed!.scale, 2, 'the block runs the 0.05/s module twice for 0.1/s');
    assert.ok(v.rows.every((r) => r.group === 'Circuits'));
  });
});

describe('favourite fluid fuel', () => {
  const sample = useSampleProject({ horizon: 'future' });

  it('makes fluid burners without a fuel of their own burn it, by its fuel value', async () => {
    const p = sample.project;
    const ctx0 = planningContext(p);
    const id = await createBlock(p, solverFor(ctx0), { name: 'Plates', doc: { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'naphtha-furnace' }] } });
    changePlanningSettings(ctx0, p, changeSettingsInput.parse({ favoriteFluidFuel: 'naphtha' }));
    assert.equal(readSettings(p).favorite_fluid_fuel, 'naphtha');
    const ctx = planningContext(p);
    const b = getBlock(p, id);
    const r = await solverFor(ctx)(b.doc);
    const v = blockEditorView(ctx, b, r);
    assert.equal(v.rows[0].fuel, 'naphtha');
    assert.equal(v.rows[0].fuelDefault, 'Default (burn Naphtha)');
    const furnace = raw.furnace['naphtha-furnace'];
    const naphtha = ((raw.recipe['ferrite-plate'].energy_required / furnace.crafting_speed) * watts(furnace.energy_usage)) / furnace.energy_source.effectivity / joules(raw.fluid.naphtha.fuel_value);
    close(r.imports.find((f) => f.good === 'naphtha')?.rate, naphtha, 'naphtha imported');
    assert.ok(!r.imports.some((f) => f.good === 'pyops-fluid-fuel'), 'no pooled fluid fuel');
  });
});

describe('reactor layout (vanilla 2.0 data)', function () {
  this.timeout(120_000);

  it('shows a reactor row’s neighbour bonus, and a 2 × 2 layout triples each reactor’s heat', async function () {
    const dir = requireSharedData(this, 'vanilla-2.0-data-raw');
    const dump = JSON.parse(fs.readFileSync(path.join(dir, 'data-raw-dump.json'), 'utf8')) as typeof raw;
    const w = await loadWorld(dir);
    const ctx = w.ctx({ research_mode: 'future' });
    const p = w.project;
    const id = await createBlock(p, solverFor(ctx), { name: 'Reactors', doc: { goals: [{ good: 'steam', rate: 100, temperature: 500 }], recipes: [{ recipe: 'generate-heat-nuclear-reactor' }, { recipe: 'boil-steam-500' }] } });
    let b = getBlock(p, id);
    const alone = blockEditorView(ctx, b, await solverFor(ctx)(b.doc)).rows[0];
    const bonus = dump.reactor['nuclear-reactor'].neighbour_bonus;
    assert.deepEqual(alone.reactor, { bonus, layout: null, multiplier: 1 });
    const r = await editBlock(p, solverFor(ctx), id, { kind: 'row-reactor', recipe: 'generate-heat-nuclear-reactor', layout: { x: 2, y: 2 } }, b.updatedAt, ctx);
    b = getBlock(p, id);
    const paired = blockEditorView(ctx, b, r.result).rows[0];
    // In a 2 × 2 every reactor has two neighbours: 1 + 2 × bonus.
    assert.deepEqual(paired.reactor, { bonus, layout: { x: 2, y: 2 }, multiplier: 1 + 2 * bonus });
    close(paired.buildings, alone.buildings! / (1 + 2 * bonus), 'reactors for the same heat');
  });
});
