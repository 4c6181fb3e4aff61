// What the model sees, under review: the system prompt with each horizon contract is compared to
// a committed snapshot. After a deliberate change, regenerate with UPDATE_SNAPSHOTS=1.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSystemPrompt, MAX_STEPS } from '../../../../src/core/assistant/prompt/system';
import { readHorizon, type Horizon } from '../../../../src/core/assistant/prompt/horizon';
import { importGameData } from '../../../../src/core/gamedata/import';
import { writeSettings } from '../../../../src/core/planning/settings';
import { SAMPLE_DUMP } from '../../../helpers/paths';
import { tempProject } from './helpers';

const here = path.dirname(fileURLToPath(import.meta.url));
const SNAPSHOT = path.join(here, '__snapshots__', 'system-prompt.snap.md');

const HORIZONS: Record<string, Horizon> = {
  'now, no packs set': { mode: 'now', packs: [], target: null, targetTech: null, targetPacks: null },
  'now, two packs': { mode: 'now', packs: ['automation-science-pack', 'py-science-pack-1'], target: null, targetTech: null, targetPacks: null },
  'target with its tier': { mode: 'target', packs: [], target: 'dense-circuit', targetTech: 'advanced-pressing', targetPacks: ['advanced-research-pack', 'basic-research-pack'] },
  'target not set': { mode: 'target', packs: [], target: null, targetTech: null, targetPacks: null },
  'able to make a science pack': {
    mode: 'target', packs: [], target: 'logistic-science-pack', targetTech: 'logistic-science-pack', targetPacks: ['automation-science-pack'], scope: 'make',
    added: ['solder-mk01', 'py-storage-tanks', 'wood-processing', 'kicalk', 'moondrop', 'electronics', 't7', 't8', 't9', 't10', 't11', 't12', 't13', 't14'],
  },
  'able to make, nothing added': { mode: 'target', packs: [], target: 'dense-circuit', targetTech: 'advanced-pressing', targetPacks: ['advanced-research-pack', 'basic-research-pack'], scope: 'make', added: [] },
  future: { mode: 'future', packs: ['automation-science-pack'], target: null, targetTech: null, targetPacks: null },
  'now, data from a dump': {
    mode: 'now', packs: [], target: null, targetTech: null, targetPacks: null,
    data: { format: 'dump', source: '/home/p/.factorio/script-output/data-raw-dump.json', factorioVersion: '2.0.77', mods: { base: '2.0.77', pyalienlife: '3.0.67', pyalienlifegraphics: '3.0.0' }, importedAt: null, lacks: [] },
  },
  'future, data from a FactorioLab set': {
    mode: 'future', packs: [], target: null, targetTech: null, targetPacks: null,
    data: { format: 'factoriolab', source: '/data/factoriolab-pysalf/data.json', factorioVersion: '1.1.109', mods: { pyalienlife: '2.1.41', pycoalprocessing: '2.1.29', pycoalprocessinggraphics: '2.0.10' }, importedAt: null, lacks: ['inserters'] },
  },
};

function render(): string {
  return Object.entries(HORIZONS)
    .map(([name, h]) => `<!-- horizon: ${name} -->\n\n${buildSystemPrompt(h)}\n`)
    .join('\n---\n\n');
}

describe('assistant system prompt', () => {
  it('matches the committed snapshot for every horizon', () => {
    const actual = render();
    if (process.env.UPDATE_SNAPSHOTS) {
      fs.mkdirSync(path.dirname(SNAPSHOT), { recursive: true });
      fs.writeFileSync(SNAPSHOT, actual);
    }
    // A missing snapshot fails instead of being written, so CI cannot pass by accepting any prompt.
    assert.ok(fs.existsSync(SNAPSHOT), `no snapshot at ${path.relative(process.cwd(), SNAPSHOT)}; create it with UPDATE_SNAPSHOTS=1 npx mocha ${path.relative(process.cwd(), fileURLToPath(import.meta.url))}, review it and commit it`);
    const expected = fs.readFileSync(SNAPSHOT, 'utf8');
    assert.equal(actual, expected, 'the system prompt changed; review it and run with UPDATE_SNAPSHOTS=1 to accept');
  });

  it('appends exactly one horizon contract and the step limit', () => {
    for (const h of Object.values(HORIZONS)) {
      const p = buildSystemPrompt(h);
      assert.equal(p.match(/Current planning horizon: /g)?.length, 1);
      assert.ok(p.includes(`Current planning horizon: ${h.mode.toUpperCase()}`));
      assert.ok(p.endsWith(`Tool-loop limit: ${MAX_STEPS} steps per turn.`));
    }
    assert.match(buildSystemPrompt(HORIZONS['now, two packs']), /`automation-science-pack`, `py-science-pack-1`/);
    assert.match(buildSystemPrompt(HORIZONS['target with its tier']), /unlocked by `advanced-pressing`[\s\S]*Packs of that tier: `advanced-research-pack`, `basic-research-pack`/);
    const make = buildSystemPrompt(HORIZONS['able to make a science pack']);
    assert.match(make, /Able to make `logistic-science-pack`/);
    assert.match(make, /Added to the target's prerequisites so it can be made: `solder-mk01`, [^\n]*`t12` and 2 more\./, 'the added technologies are named, a bounded list');
    assert.match(buildSystemPrompt(HORIZONS['able to make, nothing added']), /nothing was added/);
  });

  it('says which game data the plan rests on, and what a FactorioLab set cannot say', () => {
    assert.doesNotMatch(buildSystemPrompt(HORIZONS.future), /Game data:/);
    assert.match(buildSystemPrompt(HORIZONS['now, data from a dump']), /\n- Game data: a dump of Factorio 2\.0\.77 with pyalienlife 3\.0\.67 \(data-raw-dump\.json\)\.\n/);
    const lab = buildSystemPrompt(HORIZONS['future, data from a FactorioLab set']);
    assert.match(lab, /- Game data: a FactorioLab data set factoriolab-pysalf \(Factorio 1\.1\.109 with pyalienlife 2\.1\.41, pycoalprocessing 2\.1\.29\), not a dump of the player's own game\./);
    assert.match(lab, /research cost per unit only \(no unit counts\)/);
  });

  it("names the project's module presets after the horizon, a bounded list, and nothing without presets", () => {
    const h = HORIZONS['now, two packs'];
    assert.equal(buildSystemPrompt(h, []), buildSystemPrompt(h));
    assert.match(buildSystemPrompt(h, ['Speed 2', 'Beacon 8']), /Current planning horizon: NOW[\s\S]*\n\nModule presets of this project: "Speed 2", "Beacon 8"\.\n\nTool-loop limit/);
    const many = Array.from({ length: 14 }, (_, i) => `P${i + 1}`);
    const line = /Module presets of this project: (.*)\./.exec(buildSystemPrompt(h, many))![1];
    assert.equal(line, `${many.slice(0, 12).map((n) => `"${n}"`).join(', ')} and 2 more`);
  });

  it("reads the project's horizon per turn, resolving the target tier from the game data", async () => {
    const tp = await tempProject('horizon');
    try {
      assert.deepEqual(readHorizon(tp.project), { mode: 'now', packs: [], target: null, targetTech: null, targetPacks: null });
      // Without game data a target still works, just without its tier.
      writeSettings(tp.project, { research_mode: 'target', horizon_target: 'dense-circuit' });
      assert.equal(readHorizon(tp.project).targetTech, null);
      await importGameData(tp.project, SAMPLE_DUMP);
      const h = readHorizon(tp.project);
      assert.equal(h.mode, 'target');
      assert.equal(h.targetTech, 'advanced-pressing');
      assert.deepEqual(h.targetPacks, ['advanced-research-pack', 'basic-research-pack']);
      assert.match(buildSystemPrompt(h), /Current planning horizon: TARGET[\s\S]*unlocked by `advanced-pressing`/);
      assert.equal(h.scope, 'research', 'dense-circuit is no science pack');
      writeSettings(tp.project, { horizon_target: 'basic-research-pack' });
      const pack = readHorizon(tp.project);
      assert.equal(pack.scope, 'make');
      assert.deepEqual(pack.added, ['electronics', 'fluid-handling']);
      assert.deepEqual(pack.targetPacks, ['basic-research-pack'], 'the packs of everything the horizon reaches');
      assert.match(buildSystemPrompt(pack), /Able to make `basic-research-pack`[\s\S]*so it can be made: `electronics`, `fluid-handling`\./);
      writeSettings(tp.project, { research_mode: 'future', available_science_packs: ['basic-research-pack'] });
      assert.match(buildSystemPrompt(readHorizon(tp.project)), /Current planning horizon: FUTURE[\s\S]*`basic-research-pack`/);
      assert.equal(readHorizon(tp.project).data?.format, 'dump');
      assert.match(buildSystemPrompt(readHorizon(tp.project)), /- Game data: a dump of Factorio.* \(sample-world\.dump\.json\)\./);
    } finally {
      tp.cleanup();
    }
  });
});
