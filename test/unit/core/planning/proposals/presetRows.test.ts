// Drafts that name module presets: a row's preset (or the block's default) becomes the row's modules
// and beacons instead of the auto-fill, the building counts follow the game's formulas for them, a
// preset that does not fit a row is left off it and said so, and an unknown name is an input error.
// Expected numbers come from the dump records (sample world; Py HighTech for a Py recipe).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { planningContext } from '../../../../../src/core/planning/context';
import { writeSettings } from '../../../../../src/core/planning/settings';
import { createPreset } from '../../../../../src/core/planning/modulePresets';
import { gameIndex } from '../../../../../src/core/planning/gameIndex';
import { buildDraft, specFromSubmit, submitBlockInput } from '../../../../../src/core/planning/proposals/draft';
import { reviseDraft } from '../../../../../src/core/planning/proposals/revise';
import { applyBlockDraft } from '../../../../../src/core/planning/proposals/apply';
import { getBlock } from '../../../../../src/core/planning/factory/blocks';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { findTool } from '../../../../../src/core/assistant/tools/registry';
import { runTool } from '../../../../../src/core/assistant/tools/run';
import { modelOutputOf } from '../../../../../src/core/assistant/agent/tools';
import { SAMPLE_DUMP, requireSharedData, tempDir } from '../../../../helpers/paths';

const raw = (file: string) => {
  const d = JSON.parse(fs.readFileSync(file, 'utf8'));
  return d.raw ?? d;
};
/** Recipe productivity the Future horizon counts: every technology's change-recipe-productivity for it. */
const researchProd = (dump: { technology: Record<string, { effects?: Array<{ type: string; recipe?: string; change?: number }> }> }, recipe: string) =>
  Object.values(dump.technology).reduce((n, t) => n + (Array.isArray(t.effects) ? t.effects : []).filter((e) => e.type === 'change-recipe-productivity' && e.recipe === recipe).reduce((m, e) => m + e.change!, 0), 0);
const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-9 * Math.max(1, expected), `${what}: ${actual} ≠ ${expected}`);

describe('drafts with module presets', () => {
  let dir: string;
  let p: Project;
  const ctx = () => planningContext(p);
  const draft = (input: unknown) => buildDraft(ctx(), specFromSubmit(ctx(), submitBlockInput.parse(input)));
  const preset = (name: string, data: Omit<Parameters<typeof createPreset>[2], 'name'>) => createPreset(p, gameIndex(p), { name, ...data });

  describe('sample world', () => {
    const dump = raw(SAMPLE_DUMP);
    const speedS1 = dump.module['speed-module-s1'].effect.speed as number; // 0.25
    const press = dump['assembling-machine'].press as { crafting_speed: number };
    const tower = dump.beacon['beacon-tower'] as { distribution_effectivity: number; profile: number[] };
    const gearTime = dump.recipe.gear.energy_required ?? 0.5; // the game's default craft time
    // Output per craft, research productivity included (gear-productivity-1: +10 %).
    const gearOut = (dump.recipe.gear.results[0].amount as number) * (1 + researchProd(dump, 'gear'));

    beforeEach(async () => {
      dir = tempDir();
      p = await Project.create(path.join(dir, 'presets.pyops'));
      await importGameData(p, SAMPLE_DUMP);
      writeSettings(p, { research_mode: 'future' });
    });
    afterEach(() => {
      p.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("uses a row's preset instead of the auto-fill, and the building count follows its speed", async () => {
      preset('Speed', { modules: [{ name: 'speed-module-s1', count: 2 }] });
      const d = await draft({ target: 'gear', rate: 3, recipes: [{ recipe: 'gear', machine: 'press', preset: 'speed' }] });
      assert.equal(d.ok, true, d.message);
      const row = d.rows[0];
      assert.deepEqual(row.modules, [{ name: 'speed-module-s1', count: 2 }], 'the auto-fill would have put productivity modules here');
      assert.equal(row.moduleReason, 'module preset "Speed"');
      // buildings = rate / (output per craft × crafting speed × (1 + Σ speed) / craft time)
      assert.ok(researchProd(dump, 'gear') > 0, 'the sample gives gear research productivity');
      close(row.buildings, 3 / ((gearOut * press.crafting_speed * (1 + 2 * speedS1)) / gearTime), 'buildings');
      assert.deepEqual(d.doc.recipes[0].modules, [{ name: 'speed-module-s1', count: 2 }], 'Create saves the preset on the row');
    });

    it('counts the beacons of a preset by the beacon formula (distribution effectivity, profile, count)', async () => {
      preset('Beaconed', { modules: [{ name: 'speed-module-s1', count: 2 }], beacons: [{ beacon: 'beacon-tower', count: 2, modules: [{ name: 'speed-module-s1', count: 2 }] }] });
      const d = await draft({ target: 'gear', rate: 3, preset: 'Beaconed', recipes: [{ recipe: 'gear', machine: 'press' }] });
      const row = d.rows[0];
      assert.deepEqual(row.beacons?.map((b) => [b.beacon, b.count]), [['beacon-tower', 2]]);
      assert.equal(row.moduleReason, `the block's module preset "Beaconed"`);
      const beaconSpeed = 2 * speedS1 * tower.distribution_effectivity * tower.profile[2 - 1] * 2;
      close(row.buildings, 3 / ((gearOut * press.crafting_speed * (1 + 2 * speedS1 + beaconSpeed)) / gearTime), 'buildings');
    });

    it("applies the block's preset where it fits, leaves it off the rest with the reason, and keeps a row's own modules", async () => {
      preset('Prod', { modules: [{ name: 'productivity-module-s1', count: 2 }] });
      const d = await draft({
        goals: [{ name: 'circuit', rate: 1 }, { name: 'brine', rate: 1 }, { name: 'gear', rate: 1 }],
        preset: 'Prod',
        recipes: ['circuit', { recipe: 'wire', machine: 'press' }, { recipe: 'reclaim-tailings', machine: 'refinery-unit' }, { recipe: 'gear', machine: 'press', modules: [{ name: 'efficiency-module-s1', count: 1 }] }],
      });
      assert.equal(d.ok, true, d.message);
      const row = (r: string) => d.rows.find((x) => x.recipe === r)!;
      for (const r of ['circuit', 'wire']) assert.deepEqual(row(r).modules, [{ name: 'productivity-module-s1', count: 2 }], r);
      assert.deepEqual(row('gear').modules, [{ name: 'efficiency-module-s1', count: 1 }], "a row's own modules win over the block's preset");
      // reclaim-tailings does not allow productivity: the preset is left off and the row auto-filled as without it.
      assert.ok(!row('reclaim-tailings').modules.some((m) => m.name === 'productivity-module-s1'));
      assert.match(row('reclaim-tailings').moduleReason!, /^the block's module preset "Prod" does not fit \(.*productivity.*\), so it was left off; /);
      assert.deepEqual(
        d.warnings.filter((w) => w.includes('"Prod"')),
        [`The block's module preset "Prod" was left off 1 row it does not fit: Tailings reclamation (${row('reclaim-tailings').moduleReason!.match(/\((.*)\), so/)![1]}).`],
      );
    });

    it("reports a row's own preset that does not fit on the row and in the warnings, without failing the draft", async () => {
      preset('Prod', { modules: [{ name: 'productivity-module-s1', count: 2 }] });
      const d = await draft({ target: 'brine', rate: 1, recipes: [{ recipe: 'reclaim-tailings', machine: 'refinery-unit', preset: 'Prod' }] });
      assert.equal(d.ok, true, d.message);
      assert.match(d.rows[0].moduleReason!, /^module preset "Prod" does not fit \(Productivity module.* does not fit Refinery running Tailings reclamation: .*\), so it was left off/);
      assert.ok(d.warnings.some((w) => /^Module preset "Prod" does not fit Tailings reclamation: .*; it was left off the row\.$/.test(w)), d.warnings.join(' | '));
      const kiln = await draft({ target: 'resin', rate: 1, recipes: ['resin', { recipe: 'cure-resin', machine: 'kiln', preset: 'Prod' }] });
      assert.ok(kiln.warnings.some((w) => w === 'Module preset "Prod" does not fit Cure resin: Kiln takes no modules; it was left off the row.'), kiln.warnings.join(' | '));
    });

    it('refuses an unknown preset naming the ones that exist, and a row with a preset and modules both', async () => {
      preset('Speed', { modules: [{ name: 'speed-module-s1', count: 2 }] });
      preset('Prod', { modules: [{ name: 'productivity-module-s1', count: 2 }] });
      const out = await runTool(findTool('submitBlock')!, { target: 'gear', rate: 1, recipes: [{ recipe: 'gear', preset: 'Fast' }] }, { project: p, caller: 'agent' });
      assert.equal(out.ok, false);
      assert.match((out as { error: string }).error, /no module preset named "Fast"; the project's presets: "Prod", "Speed"\. Use one of them/);
      const block = await runTool(findTool('submitBlock')!, { target: 'gear', rate: 1, preset: 'Fast', recipes: ['gear'] }, { project: p, caller: 'agent' });
      assert.match((block as { error: string }).error, /no module preset named "Fast"/);
      assert.throws(() => submitBlockInput.parse({ target: 'gear', rate: 1, recipes: [{ recipe: 'gear', preset: 'Speed', modules: [{ name: 'speed-module-s1', count: 1 }] }] }), /either a preset or its modules\/beacons/);
    });

    it('keeps the model view lean: the preset shows as the row\'s moduleReason, nothing more', async () => {
      preset('Speed', { modules: [{ name: 'speed-module-s1', count: 2 }] });
      const out = await runTool(findTool('submitBlock')!, { target: 'gear', rate: 3, recipes: [{ recipe: 'gear', machine: 'press', preset: 'Speed' }] }, { project: p, caller: 'agent' });
      assert.ok(out.ok);
      const seen = modelOutputOf(out).value as { rows: Array<Record<string, unknown>> };
      assert.deepEqual(Object.keys(seen.rows[0]).filter((k) => /preset|module/i.test(k)).sort(), ['moduleReason', 'modules']);
    });

    it("revises a block's row onto a preset; rows without one keep their modules", async () => {
      preset('Speed', { modules: [{ name: 'speed-module-s1', count: 2 }] });
      const d = await draft({ target: 'circuit', rate: 1, recipes: ['circuit', 'wire'] });
      const { id } = await applyBlockDraft(p, (doc) => solveBlock(ctx().g, ctx().availability, doc), d);
      const kept = getBlock(p, id).doc.recipes.find((r) => r.recipe === 'wire')!.modules;
      assert.ok(kept?.length, 'the draft gave wire modules of its own');
      const rev = await reviseDraft(ctx(), p, { blockId: id, recipes: [{ recipe: 'circuit', preset: 'Speed' }, 'wire'] });
      assert.deepEqual(rev.doc.recipes.find((r) => r.recipe === 'circuit')!.modules, [{ name: 'speed-module-s1', count: 2 }]);
      assert.deepEqual(rev.doc.recipes.find((r) => r.recipe === 'wire')!.modules, kept);
      assert.equal(rev.rows.find((r) => r.recipe === 'circuit')!.moduleReason, 'module preset "Speed"');
    });
  });

  describe('Py HighTech', () => {
    before(async function () {
      this.timeout(180_000);
      const py = requireSharedData(this, 'py-hightech-2.0-data-raw');
      dir = tempDir();
      p = await Project.create(path.join(dir, 'py.pyops'));
      await importGameData(p, py);
      writeSettings(p, { research_mode: 'future' });
    });
    after(() => {
      p?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('sizes coal dust in ball mills MK 02 with a two speed module 2 preset from the dump records', async function () {
      this.timeout(60_000);
      const py = raw(path.join(requireSharedData(this, 'py-hightech-2.0-data-raw'), 'data-raw-dump.json'));
      const mill = py['assembling-machine']['ball-mill-mk02'] as { crafting_speed: number; module_slots: number };
      const recipe = py.recipe['coal-dust'] as { energy_required: number; results: Array<{ name: string; amount: number }> };
      const speed2 = py.module['speed-module-2'].effect.speed as number;
      assert.equal(mill.module_slots, 2);
      preset('Mill speed', { modules: [{ name: 'speed-module-2', count: 2 }] });
      preset('Mill prod', { modules: [{ name: 'productivity-module-2', count: 2 }] });
      const d = await draft({ target: 'coal-dust', rate: 20, recipes: [{ recipe: 'coal-dust', machine: 'ball-mill-mk02', preset: 'Mill speed' }] });
      assert.equal(d.ok, true, d.message);
      const out = recipe.results.find((r) => r.name === 'coal-dust')!.amount * (1 + researchProd(py, 'coal-dust'));
      // Without research productivity: 20/s ÷ 10 per craft = 2 crafts/s; one mill: 2 × (1 + 2 × 0.6) / 4 s = 1.1 crafts/s → 1.818… mills.
      close(d.rows[0].buildings, 20 / out / ((mill.crafting_speed * (1 + 2 * speed2)) / recipe.energy_required), 'mills');
      assert.equal(d.rows[0].wholeBuildings, 2);
      // Coal dust does not allow productivity: the prod preset is reported on the row, the draft still solves.
      const prod = await draft({ target: 'coal-dust', rate: 20, recipes: [{ recipe: 'coal-dust', machine: 'ball-mill-mk02', preset: 'Mill prod' }] });
      assert.equal(prod.ok, true, prod.message);
      assert.match(prod.rows[0].moduleReason!, /^module preset "Mill prod" does not fit \(.*productivity.*\), so it was left off; /);
      assert.ok(prod.warnings.some((w) => w.startsWith('Module preset "Mill prod" does not fit')), prod.warnings.join(' | '));
      assert.ok(!prod.rows[0].modules.some((m) => m.name.startsWith('productivity')));
    });
  });
});
