// A model reads a draft without what only the hosts need; hosts keep the whole draft (Apply saves its
// document). The cap applies to what the model reads, so a large Py block can still be drafted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { writeSettings } from '../../../../../src/core/planning/settings';
import { findTool } from '../../../../../src/core/assistant/tools/registry';
import { MAX_RESULT_CHARS, runTool } from '../../../../../src/core/assistant/tools/run';
import { modelOutputOf } from '../../../../../src/core/assistant/agent/tools';
import { compactPlan, foldWarnings, rounded } from '../../../../../src/core/planning/proposals/modelView';
import type { Draft } from '../../../../../src/core/planning/proposals/draft';
import { SAMPLE_DUMP, requireSharedData, tempDir } from '../../../../helpers/paths';

describe('drafts as a model reads them', () => {
  let dir: string | undefined;
  let p: Project | undefined;
  afterEach(() => {
    p?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    p = dir = undefined;
  });

  it('folds one warning per row about the same unbuildable machine into one line per machine', () => {
    const why = 'it is unlocked by Assembly 3 [automation-3], which needs logistic-science-pack.';
    const folded = foldWarnings([
      `Gear: Press [press] is not buildable under the now horizon: ${why}`,
      `Arm: Press [press] is not buildable under the now horizon: ${why}`,
      'Steam at 90° is outside its accepted range; the range is kept.',
    ]);
    assert.deepEqual(folded, ['Steam at 90° is outside its accepted range; the range is kept.', `Press [press] is not buildable under the now horizon (Gear, Arm): ${why}`]);
  });

  it('gives the model the draft without its document, building list, unsplit imports, display names or default machine choices; the host keeps all', async () => {
    dir = tempDir();
    p = await Project.create(path.join(dir, 'v.pyops'));
    await importGameData(p, SAMPLE_DUMP);
    writeSettings(p, { research_mode: 'future' });
    const out = await runTool(findTool('submitBlock')!, { target: 'circuit', rate: 2, recipes: [{ recipe: 'circuit', machine: 'press' }, 'wire'] }, { project: p!, caller: 'agent' });
    assert.ok(out.ok);
    const full = out.result as Draft;
    const seen = modelOutputOf(out).value as Record<string, unknown> & { rows: Array<Record<string, unknown>>; importsExternal: Array<Record<string, unknown>> };
    assert.ok(full.doc && full.buildings.length && full.imports.length, 'the host keeps what Apply and the cards use');
    for (const k of ['doc', 'buildings', 'imports']) assert.ok(!(k in seen), `${k} is not sent to the model`);
    // Temperature bounds a flow does not have (null) are left out; bounds it has stay.
    const noBounds = (f: Record<string, unknown>) => Object.fromEntries(Object.entries(f).filter(([k, x]) => !(x === null && /^m(in|ax)Temperature$/.test(k))));
    assert.deepEqual(seen.importsExternal, full.importsExternal.map(({ display: _d, ...f }) => noBounds({ ...f, rate: Number(f.rate.toPrecision(4)) })));
    const tempered = await runTool(findTool('submitBlock')!, { target: 'gear', rate: 1, recipes: ['gear-tempered'] }, { project: p!, caller: 'agent' });
    assert.ok(tempered.ok);
    // gear-tempered takes steam(≥150°): its import keeps the lower bound only.
    const steam = (modelOutputOf(tempered).value as { importsExternal: Array<Record<string, unknown>> }).importsExternal.find((f) => f.good === 'steam');
    assert.deepEqual(steam && Object.keys(steam).filter((k) => /Temperature$/.test(k)), ['minTemperature']);
    assert.equal(steam!.minTemperature, 150);
    assert.deepEqual(
      seen.rows.map((r) => [r.recipe, r.machine, r.buildings, r.wholeBuildings]),
      full.rows.map((r) => [r.recipe, r.machine, Number(r.buildings.toPrecision(4)), r.wholeBuildings]),
    );
    assert.ok(seen.rows.every((r) => !('machineRule' in r) && !('display' in r) && !('machineDisplay' in r)));
    // The circuit row names its machine (rule user): the choice is said; the wire row took the default.
    const circuit = full.rows.find((r) => r.recipe === 'circuit')!;
    const wire = full.rows.find((r) => r.recipe === 'wire')!;
    assert.equal(circuit.machineChoice.rule, 'user');
    assert.deepEqual(seen.rows.find((r) => r.recipe === 'circuit')!.machineChoice, { rule: 'user', buildable: true });
    assert.equal(wire.machineChoice.rule, 'fastest-buildable');
    assert.ok(!('machineChoice' in seen.rows.find((r) => r.recipe === 'wire')!), 'the default rule is not repeated per row');
    assert.ok(JSON.stringify(seen).length < JSON.stringify(full).length);
  });

  it('rounds numbers to four significant digits and leaves integers and text alone', () => {
    assert.deepEqual(rounded({ a: 0.041666666666666664, b: [2.0833333333333335, 12], c: 'x 0.123456', d: 1234567.891, e: null }), { a: 0.04167, b: [2.083, 12], c: 'x 0.123456', d: 1235000, e: null });
  });

  it('keeps a 40-recipe Py draft under the result cap for the model', async function () {
    this.timeout(180_000);
    const py = requireSharedData(this, 'py-hightech-2.0-data-raw');
    dir = tempDir();
    p = await Project.create(path.join(dir, 'py.pyops'));
    await importGameData(p, py);
    const { buildChain } = await import('../../../../../bench/solve');
    const { gameIndex } = await import('../../../../../src/core/planning/gameIndex');
    const recipes = (buildChain(gameIndex(p!), 'utility-science-pack', { size: 40 }).recipes ?? []).map((r) => r.recipe);
    assert.equal(recipes.length, 40);
    const out = await runTool(findTool('submitBlock')!, { target: 'utility-science-pack', rate: 1, recipes }, { project: p!, caller: 'agent' });
    assert.equal(out.ok, true, out.ok ? '' : out.error);
    if (!out.ok) return;
    assert.ok(JSON.stringify(modelOutputOf(out).value).length <= MAX_RESULT_CHARS);
    assert.equal((out.result as Draft).rows.length, 40);
  });
});

describe('a plan too large to read whole', () => {
  const flows = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ good: `${prefix}-${i}`, display: `${prefix} ${i}`, rate: i + 1 }));
  const block = (name: string) => ({
    name, status: 'optimal', ok: true, goals: [{ good: name, rate: 1 }],
    rows: Array.from({ length: 20 }, (_, i) => ({ recipe: `${name}-r${i}`, machine: 'assembler', craftsPerSecond: 0.5, buildings: 1.5, wholeBuildings: 2, research: { machine: 'automation' }, machineChoice: { rule: 'none-buildable', buildable: false, needs: 'automation' } })),
    importsExternal: flows(`${name}-in`, 40),
    byproducts: flows(`${name}-by`, 20),
    fuelOptions: { mjPerSecond: 3, options: [{ fluid: 'naphtha', display: 'Naphtha', mjPerUnit: 0.5, feedPerSecond: 6, burnRecipe: 'burn-naphtha', madeBy: ['refinery'] }], more: 0 },
  });
  const plan = () => ({
    kind: 'plan', ok: true, blocks: ['a', 'b', 'c', 'd'].map(block), updates: [],
    balance: {
      ok: true, unsourcedImports: flows('raw', 60),
      danglingByproducts: flows('left', 40).map((f, i) => ({ ...f, producers: ['a'], disposal: i % 2 ? 'route' : 'void', topConsumers: i % 2 ? [`use-${f.good}`] : [], voidRecipes: i % 2 ? [] : [`void-${f.good}`] })),
    },
    warnings: [`balanced, but left over between blocks: ${flows('left', 30).map((f) => `${f.display} ${f.rate}/s nothing takes`).join('; ')}`],
    research: { steps: Array.from({ length: 50 }, (_, i) => ({ tech: `t${i}`, packs: { red: i } })), total: { techs: 50, packs: { red: 1225 } } },
  });

  it('is left as it is under the budget', () => {
    const p = plan();
    assert.equal(compactPlan(p, 1e9), p);
  });

  it('is shortened step by step, saying what it left out, never its goals, rows or statuses', () => {
    const p = plan();
    const full = JSON.stringify(p).length;
    const v = compactPlan(p, 20_000) as ReturnType<typeof plan> & { shortened?: string; fluidFuels?: unknown[]; balance: Record<string, unknown> };
    assert.ok(JSON.stringify(v).length < full / 2, `${JSON.stringify(v).length} of ${full}`);
    assert.equal(JSON.stringify(p).length, full, 'the plan itself (the card, Apply) is untouched');
    assert.match(v.shortened ?? '', /shortened: fluid fuels are listed once/);
    assert.deepEqual(v.fluidFuels, [{ fluid: 'naphtha', mjPerUnit: 0.5, burnRecipe: 'burn-naphtha', madeBy: ['refinery'] }]);
    assert.deepEqual(v.blocks[0].fuelOptions, { mjPerSecond: 3, fluids: ['naphtha'] });
    // The largest kept, the rest counted.
    assert.equal((v.balance.unsourcedImports as unknown[]).length, 15);
    assert.equal(v.balance.unsourcedImportsMore, 45);
    assert.deepEqual((v.balance.unsourcedImports as Array<{ good: string }>)[0], { good: 'raw-59', rate: 60 });
    assert.equal(v.blocks[0].importsExternal.length, 15);
    assert.equal((v.blocks[0] as Record<string, unknown>).importsExternalMore, 25);
    // Goods left over keep where each can go, every one of them, in short.
    const left = v.balance.danglingByproducts as Array<Record<string, unknown>>;
    assert.equal(left.length, 40);
    assert.deepEqual(left.find((x) => x.good === 'left-1'), { good: 'left-1', rate: 2, topConsumers: ['use-left-1'] });
    assert.deepEqual(left.find((x) => x.good === 'left-0'), { good: 'left-0', rate: 1, voidRecipes: ['void-left-0'] });
    assert.match(v.shortened ?? '', /danglingByproducts leave out producers .* and disposal/);
    for (const b of v.blocks) {
      assert.equal(b.rows.length, 20);
      assert.deepEqual(b.goals, [{ good: b.name, rate: 1 }]);
      assert.equal(b.status, 'optimal');
      for (const r of b.rows) assert.ok(r.recipe && r.buildings === 1.5 && r.research.machine === 'automation');
    }
  });

  it('when the first steps are not enough, cuts further but keeps every row with its recipe, machine, buildings and research', () => {
    const p = plan();
    for (const b of p.blocks) for (const r of b.rows as Array<Record<string, unknown>>) r.moduleReason = 'preset: speed modules where they fit';
    const v = compactPlan(p, 0) as ReturnType<typeof plan> & { shortened?: string; balance: Record<string, unknown> };
    assert.match(v.shortened ?? '', /`research` is one line/);
    assert.match(v.shortened ?? '', /keep only their 5 largest/);
    for (const b of v.blocks) {
      assert.equal(b.rows.length, 20);
      for (const r of b.rows as Array<Record<string, unknown>>) {
        assert.deepEqual([r.recipe !== undefined, r.machine, r.buildings, r.research], [true, 'assembler', 1.5, 'machine automation']);
        assert.ok(!('moduleReason' in r));
      }
      // 40 imports: the 15 largest, then the 5 largest of those; the rest counted either way.
      assert.deepEqual(b.importsExternal.map((f) => f.rate), [40, 39, 38, 37, 36]);
      assert.equal((b as Record<string, unknown>).importsExternalMore, 35);
    }
    assert.equal((v.balance.unsourcedImports as unknown[]).length, 5);
    assert.equal(v.balance.unsourcedImportsMore, 55);
    // Cut last and least: the 30 largest of the goods left over, each still saying where it goes.
    const left = v.balance.danglingByproducts as Array<{ rate: number; topConsumers?: string[]; voidRecipes?: string[] }>;
    assert.equal(left.length, 30);
    assert.equal(v.balance.danglingByproductsMore, 10);
    assert.equal(left[0].rate, 40);
    assert.ok(left.every((x) => (x.topConsumers ?? x.voidRecipes)?.length === 1));
    assert.equal(v.research.steps.length, 5);
    assert.equal((v.research as { stepsOmitted?: number }).stepsOmitted, 45);
    assert.equal(v.research.total.techs, 50, 'the total still counts every step');
  });

  it('at last leaves out what says nothing or says it twice, and says so', () => {
    const p = plan();
    Object.assign(p, { sizedFromPlan: [{ good: 'b', block: 'b', rate: 1 }] });
    for (const b of p.blocks as Array<Record<string, unknown>>) {
      Object.assign(b, { kind: 'block', fuelW: 0, heatW: 0, powerW: 0, heatSourceNeeded: false, exports: [], unmade: [], turd: { requirements: [], conflicts: [] }, subBlocksNeeded: [{ good: 'x', rate: 1 }], importsFromBlocks: [{ good: 'x', rate: 1, blocks: ['a'] }] });
    }
    (p.blocks[1] as Record<string, unknown>).turd = { requirements: [{ master: 'm', branch: 'b' }], conflicts: [] };
    const v = compactPlan(p, 0) as unknown as { shortened: string; sizedFromPlan?: unknown; blocks: Array<Record<string, unknown>> };
    assert.match(v.shortened, /blocks leave out `kind`, empty lists, zero figures and false flags, and subBlocksNeeded/);
    assert.equal(v.sizedFromPlan, undefined);
    for (const b of v.blocks) {
      for (const k of ['kind', 'fuelW', 'heatW', 'heatSourceNeeded', 'exports', 'unmade', 'subBlocksNeeded']) assert.ok(!(k in b), k);
      assert.equal(b.powerW, 0, 'power is a figure the model reports, zero or not');
      assert.deepEqual(b.importsFromBlocks, [{ good: 'x', rate: 1, blocks: ['a'] }]);
    }
    assert.equal(v.blocks[0].turd, undefined);
    assert.deepEqual(v.blocks[1].turd, { requirements: [{ master: 'm', branch: 'b' }], conflicts: [] }, 'a TURD requirement is kept');
  });

  it('stops at the first step that fits', () => {
    const p = plan();
    const afterFuel = JSON.stringify(compactPlan(p, 0)).length;
    const v = compactPlan(p, JSON.stringify(p).length - 10) as { shortened?: string; balance: Record<string, unknown> };
    assert.match(v.shortened ?? '', /fluid fuels/);
    assert.doesNotMatch(v.shortened ?? '', /balance lists/);
    assert.equal((v.balance.unsourcedImports as unknown[]).length, 60);
    assert.ok(afterFuel < JSON.stringify(v).length);
  });
});
