import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { run } from '../../../src/cli/main';
import { REPO, requireSharedData, SAMPLE_DUMP, tempDir } from '../../helpers/paths';
import { capture } from '../../helpers/cliIO';

describe('pyops command line', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates a project and imports a dump with --json counts', async () => {
    const file = path.join(dir, 'cli.pyops');
    const io = capture();
    assert.equal(await run(['project', 'create', file, '--name', 'CLI factory'], io), 0);
    assert.match(io.stdout, /Created project "CLI factory"/);
    const io2 = capture();
    assert.equal(await run(['import', file, SAMPLE_DUMP, '--json'], io2), 0, io2.stderr);
    const out = JSON.parse(io2.stdout);
    for (const k of ['items', 'fluids', 'recipes', 'synthesizedRecipes', 'machines', 'modules', 'beacons', 'technologies', 'turdMasters']) {
      assert.equal(typeof out[k], 'number', `--json has ${k}`);
    }
    assert.deepEqual([out.items, out.fluids, out.recipes, out.synthesizedRecipes, out.modules, out.beacons, out.technologies, out.turdMasters], [44, 6, 49, 11, 7, 2, 17, 1]);
  });

  it('imports a FactorioLab data set folder, saying what it is and what it lacks once', async function () {
    const set = requireSharedData(this, 'factoriolab-vanilla-2.0');
    const file = path.join(dir, 'lab.pyops');
    await run(['project', 'create', file], capture());
    const io = capture();
    assert.equal(await run(['import', file, set], io), 0, io.stderr);
    assert.match(io.stdout, /^Imported the FactorioLab data set factoriolab-vanilla-2\.0 \(Factorio 2\.0\.47\) into "lab" in [\d.]+ s: 194 items, 9 fluids, 207 recipes/);
    assert.equal(io.stdout.match(/The data set does not carry: icons.*; inserters; /g)?.length, 1);
    const io2 = capture();
    assert.equal(await run(['import', file, path.join(set, 'data.json'), '--json'], io2), 0, io2.stderr);
    const out = JSON.parse(io2.stdout);
    assert.deepEqual([out.format, out.source, out.factorioVersion, out.recipes], ['factoriolab', 'FactorioLab data set factoriolab-vanilla-2.0 (Factorio 2.0.47)', '2.0.47', 207]);
    assert.ok(out.lacks.length >= 5);
  });

  it('fails with exit code 1 and a one-line reason', async () => {
    const file = path.join(dir, 'x.pyops');
    await run(['project', 'create', file], capture());
    const io = capture();
    fs.writeFileSync(path.join(dir, 'data-raw-dump.json'), '{"recipe": {"a": {"name": "a", "ingredients": [{"name": "nope", "amount": 1}]}}, "item": {}, "fluid": {}}');
    assert.equal(await run(['import', file, dir], io), 1);
    assert.equal(io.stderr.trim().split('\n').length, 1);
    assert.match(io.stderr, /^pyops: .*unknown item "nope"/);
    const io2 = capture();
    assert.equal(await run(['import', path.join(dir, 'missing.pyops'), SAMPLE_DUMP], io2), 1);
    assert.match(io2.stderr, /does not exist/);
  });

  it('refuses a dump with impossible numbers, naming the prototype, the field and the value', async () => {
    const file = path.join(dir, 'n.pyops');
    await run(['project', 'create', file], capture());
    const dump = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8'));
    dump['mining-drill'].digger.energy_usage = '-90kW';
    fs.writeFileSync(path.join(dir, 'data-raw-dump.json'), JSON.stringify(dump));
    const io = capture();
    assert.equal(await run(['import', file, dir], io), 1);
    assert.equal(io.stderr.trim().split('\n').length, 1);
    assert.match(io.stderr, /^pyops: .*mining-drill "digger"\.energy_usage: found "-90kW"/);
  });

  it('fails with exit code 2 and the usage on a usage error', async () => {
    for (const argv of [[], ['frobnicate'], ['import', 'only-one'], ['project', 'create'], ['project', 'create', 'a', '--bogus']]) {
      const io = capture();
      assert.equal(await run(argv, io), 2, argv.join(' '));
      assert.match(io.stderr, /Usage:/);
    }
  });

  it('backs up and restores from the command line', async () => {
    const file = path.join(dir, 'b.pyops');
    await run(['project', 'create', file], capture());
    await run(['import', file, SAMPLE_DUMP], capture());
    const backup = path.join(dir, 'b.pyops-backup');
    assert.equal(await run(['project', 'backup', file, '--out', backup], capture()), 0);
    assert.equal(await run(['project', 'restore', backup, path.join(dir, 'r.pyops')], capture()), 0);
    assert.ok(fs.existsSync(path.join(dir, 'r.pyops.gamedata')));
  });

  it('runs as a process with the documented exit codes', () => {
    const cli = ['--import', 'tsx', path.join(REPO, 'src', 'cli', 'index.ts')];
    const ok = spawnSync(process.execPath, [...cli, 'project', 'create', path.join(dir, 'p.pyops')], { cwd: REPO, encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stderr);
    const usage = spawnSync(process.execPath, [...cli, 'nonsense'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(usage.status, 2);
    const fail = spawnSync(process.execPath, [...cli, 'import', path.join(dir, 'p.pyops'), path.join(dir, 'nowhere')], { cwd: REPO, encoding: 'utf8' });
    assert.equal(fail.status, 1);
    assert.match(fail.stderr, /^pyops: .*does not exist/);
  });
});

describe('pyops solve, tool and tools', () => {
  let dir: string;
  let file: string;
  before(async () => {
    dir = tempDir();
    file = path.join(dir, 's.pyops');
    await run(['project', 'create', file], capture());
    await run(['import', file, SAMPLE_DUMP], capture());
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('solves a minimal block document without saving it', async () => {
    const doc = path.join(dir, 'block.json');
    // Tailings are drained (net 0) by reclaiming them into brine, which feeds the refining again.
    fs.writeFileSync(doc, JSON.stringify({ goals: [{ good: 'solvent', rate: 4 }], recipes: [{ recipe: 'refine-brine', machine: 'refinery-unit' }, { recipe: 'reclaim-tailings' }], made: [], drains: ['tailings'] }));
    const before = fs.readFileSync(file);
    const io = capture();
    assert.equal(await run(['solve', doc, '--project', file, '--json'], io), 0, io.stderr);
    const out = JSON.parse(io.stdout);
    assert.equal(out.status, 'optimal');
    assert.deepEqual(out.recipes.map((r: { recipe: string; machine: string }) => [r.recipe, r.machine]), [['refine-brine', 'refinery-unit'], ['reclaim-tailings', 'refinery-unit']]);
    assert.ok(Math.abs(out.recipes[0].craftsPerSecond - 0.1) < 1e-9, '4 solvent/s = 0.1 crafts/s of 40 each');
    assert.ok(Math.abs(out.recipes[1].craftsPerSecond - 0.06) < 1e-9, '3 tailings/s reclaimed at 50 a craft');
    assert.ok(!out.exports.some((e: { good: string }) => e.good === 'tailings'), 'tailings are drained inside');
    assert.ok(out.exports.some((e: { good: string }) => e.good === 'naphtha'));
    const brine = out.imports.find((e: { good: string }) => e.good === 'brine');
    assert.ok(Math.abs(brine.rate - (10 - 0.06 * 40)) < 1e-9, 'reclaimed brine offsets the import');
    assert.ok(out.powerW > 0 && typeof out.pollutionPerMinute === 'number');
    assert.deepEqual(fs.readFileSync(file), before);
  });

  it('carries temperatures on goals, imports and exports, and lists byproducts', async () => {
    // superheat-steam: 60 steam at 150–200° + 5 naphtha → 50 steam at 500° per 1 s craft. 5/s at 500°
    // is 0.1 crafts/s: it buys 6/s of steam the recipe accepts only between 150° and 200°.
    const doc = path.join(dir, 'superheat.json');
    fs.writeFileSync(doc, JSON.stringify({ goals: [{ good: 'steam', rate: 5, temperature: 500 }], recipes: [{ recipe: 'superheat-steam', machine: 'refinery-unit' }] }));
    const io = capture();
    assert.equal(await run(['solve', doc, '--project', file, '--json'], io), 0, io.stderr);
    const out = JSON.parse(io.stdout);
    assert.deepEqual(out.goals, [{ good: 'steam', rate: 5, temperature: 500 }]);
    assert.deepEqual(out.imports.find((f: { good: string }) => f.good === 'steam'), { good: 'steam', rate: 6, minTemperature: 150, maxTemperature: 200 });
    assert.deepEqual(out.byproducts, []);
    const text = capture();
    assert.equal(await run(['solve', doc, '--project', file], text), 0, text.stderr);
    assert.match(text.stdout, /Goals: steam \(500°\) 5\.000\/s/);
    assert.match(text.stdout, /steam \(150–200°\) 6\.000\/s/);
    // The brine block's naphtha (refining) and sludge cake (reclaiming) are byproducts; solvent is its goal.
    const brine = path.join(dir, 'block.json');
    const io2 = capture();
    assert.equal(await run(['solve', brine, '--project', file, '--json'], io2), 0, io2.stderr);
    assert.deepEqual(JSON.parse(io2.stdout).byproducts.map((f: { good: string }) => f.good).sort(), ['naphtha', 'sludge-cake']);
  });

  it('solves a campaign block and says what it plans for', async () => {
    // sift-sludge yields a catalyst with probability 0.25: 40 within 1 h, 95 % sure, plans χ²_80(0.95)/2 = 101.879/2.
    const doc = path.join(dir, 'campaign.json');
    fs.writeFileSync(doc, JSON.stringify({ campaign: { duration: 3600, confidence: '95', quantities: [{ good: 'catalyst', quantity: 40 }] }, recipes: [{ recipe: 'sift-sludge' }] }));
    const io = capture();
    assert.equal(await run(['solve', doc, '--project', file, '--json'], io), 0, io.stderr);
    const out = JSON.parse(io.stdout);
    assert.ok(Math.abs(out.campaign.quantities[0].planned - 101.879 / 2) < 1e-3);
    assert.ok(Math.abs(out.goals[0].rate - 101.879 / 2 / 3600) < 1e-6);
    assert.equal(out.goals[0].campaign, true);
    const text = capture();
    assert.equal(await run(['solve', doc, '--project', file], text), 0, text.stderr);
    assert.match(text.stdout, /Campaign over 3600 s, 95% confidence: catalyst 40 \(plans 50\.94\) → 0\.01415\/s/);
  });

  it('solves a block with a composed group and marks the group\'s rows', async () => {
    // 1 circuit/s from a circuits module sized for 2/s: scale 0.5; wire 1.5 crafts/s (3 wire a circuit, 2 a craft).
    const doc = path.join(dir, 'group.json');
    fs.writeFileSync(doc, JSON.stringify({ goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }], groups: [{ name: 'Circuits', recipes: ['circuit', 'wire'], composed: { goal: { good: 'circuit', rate: 2 } } }] }));
    const io = capture();
    assert.equal(await run(['solve', doc, '--project', file, '--json'], io), 0, io.stderr);
    const out = JSON.parse(io.stdout);
    assert.deepEqual(out.groups, [{ name: 'Circuits', good: 'circuit', referenceRate: 2, scale: 0.5, rate: 1 }]);
    const wire = out.recipes.find((x: { recipe: string }) => x.recipe === 'wire');
    assert.equal(wire.group, 'Circuits');
    assert.ok(Math.abs(wire.craftsPerSecond - 1.5) < 1e-9);
    const text = capture();
    assert.equal(await run(['solve', doc, '--project', file], text), 0, text.stderr);
    assert.match(text.stdout, /Group Circuits: module for 2\/s circuit, run at ×0\.500 \(1\.000\/s\)/);
  });

  it('reports an infeasible block with a diagnosis', async () => {
    const doc = path.join(dir, 'bad.json');
    fs.writeFileSync(doc, JSON.stringify({ goals: [{ good: 'solvent', rate: 4 }], recipes: [{ recipe: 'refine-brine' }], made: [], drains: ['naphtha'] , pins: [{ kind: 'cap', recipe: 'refine-brine', buildings: 0.1 }] }));
    const io = capture();
    assert.equal(await run(['solve', doc, '--project', file, '--json'], io), 0, io.stderr);
    const out = JSON.parse(io.stdout);
    assert.equal(out.status, 'infeasible');
    assert.ok(out.diagnosis.length > 0);
  });

  it('lists the registry with tiers and runs a read tool by name', async () => {
    const io = capture();
    assert.equal(await run(['tools', '--json'], io), 0);
    const tools = JSON.parse(io.stdout).tools as Array<{ name: string; tier: string; inputSchema: unknown }>;
    assert.ok(tools.find((t) => t.name === 'searchGoods')?.tier === 'read');
    assert.ok(tools.find((t) => t.name === 'submitBlock')?.tier === 'proposal');
    assert.ok(tools.every((t) => t.inputSchema));
    const io2 = capture();
    assert.equal(await run(['tool', 'recipeInfo', '--project', file, '--input', '{"recipe":"refine-brine"}'], io2), 0, io2.stderr);
    assert.equal(JSON.parse(io2.stdout).category, 'refining');
    const io3 = capture();
    assert.equal(await run(['tool', 'recipeInfo', '--project', file, '--input', '{"recipe":"refine-brines"}'], io3), 1);
    assert.match(io3.stderr, /refine-brine/);
    assert.equal(await run(['tool', 'nope', '--project', file], capture()), 2);
    const io4 = capture();
    assert.equal(await run(['tool', 'recipeInfo', '--project', file, '--input', '{"bogus":1}'], io4), 2, 'input the schema refuses is a usage error');
    assert.match(io4.stderr, /Invalid input for recipeInfo/);
  });

  it('prints with --model-view exactly the text a model receives: the compact model view, or the error', async () => {
    const input = '{"target":"circuit","rate":1,"recipes":["circuit","wire"]}';
    const pretty = capture();
    assert.equal(await run(['tool', 'submitBlock', '--project', file, '--input', input], pretty), 0, pretty.stderr);
    const full = JSON.parse(pretty.stdout);
    assert.ok(full.doc, 'a person reads the whole draft, its document included');
    const io = capture();
    assert.equal(await run(['tool', 'submitBlock', '--project', file, '--input', input, '--model-view'], io), 0, io.stderr);
    const text = io.stdout.replace(/\n$/, '');
    assert.ok(!text.includes('\n'), 'one line of compact JSON');
    const seen = JSON.parse(text);
    assert.equal(seen.doc, undefined, 'the block document never reaches a model');
    assert.equal(seen.status, full.status);
    // The same text the MCP server sends for the same call.
    const { findTool } = await import('../../../src/core/assistant/tools/registry');
    const { runTool } = await import('../../../src/core/assistant/tools/run');
    const { modelText } = await import('../../../src/core/assistant/tools/types');
    const { Project } = await import('../../../src/core/db/project');
    const p = await Project.open(file, { readOnly: true });
    try {
      const o = await runTool(findTool('submitBlock')!, JSON.parse(input), { project: p, caller: 'mcp' });
      const mcp = JSON.parse(modelText(o));
      for (const k of ['pending']) delete mcp[k], delete seen[k];
      assert.deepEqual(seen, mcp);
    } finally {
      p.close();
    }
    const bad = capture();
    assert.equal(await run(['tool', 'recipeInfo', '--project', file, '--input', '{"recipe":"refine-brines"}', '--model-view'], bad), 1);
    const err = JSON.parse(bad.stdout);
    assert.equal(err.code, 'not-found');
    assert.match(err.error, /refine-brine/);
    assert.equal(bad.stderr, '', 'the model-view text is all there is');
  });
});

describe('pyops proposal', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = tempDir();
    file = path.join(dir, 'p.pyops');
    await run(['project', 'create', file], capture());
    await run(['import', file, SAMPLE_DUMP], capture());
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const json = async (argv: string[], code = 0) => {
    const io = capture();
    assert.equal(await run(argv, io), code, io.stderr);
    return io.stdout ? JSON.parse(io.stdout) : undefined;
  };

  it('keeps a `pyops tool` draft, applies it as one undoable change, and the block can be resized right after', async () => {
    const drafted = await json(['tool', 'submitBlock', '--project', file, '--input', '{"name":"Circuits","target":"circuit","rate":1,"recipes":["circuit","wire"]}']);
    assert.match(drafted.pending.id, /^pp/);
    assert.match(drafted.pending.note, /pyops proposal apply/);
    const listed = (await json(['proposal', 'list', file, '--json'])).proposals;
    assert.deepEqual(listed.map((x: { id: string; kind: string; source: string; title: string; ok: boolean }) => [x.id, x.kind, x.source, x.title, x.ok]), [[drafted.pending.id, 'block', 'terminal', 'Circuits', true]]);
    const text = capture();
    assert.equal(await run(['proposal', 'list', file], text), 0);
    assert.match(text.stdout, new RegExp(`${drafted.pending.id}\\s+block\\s+ready\\s+Circuits`));

    const applied = await json(['proposal', 'apply', file, drafted.pending.id, '--json']);
    assert.equal(applied.label, 'Create block "Circuits"');
    assert.equal(applied.created.length, 1);
    const blocks = (await json(['tool', 'factoryBlocks', '--project', file])).blocks as Array<{ id: string; name: string }>;
    assert.deepEqual(blocks.map((b) => [b.id, b.name]), [[applied.created[0], 'Circuits']]);
    assert.equal((await json(['proposal', 'list', file, '--json'])).proposals[0].applied.created[0], applied.created[0]);

    // Resize the new block: a revision draft, kept and applied the same way.
    const revised = await json(['tool', 'reviseBlock', '--project', file, '--input', JSON.stringify({ blockId: applied.created[0], rate: 2 })]);
    assert.equal(revised.oldRate, 1);
    assert.equal(revised.goals[0].rate, 2);
    const again = await json(['proposal', 'apply', file, revised.pending.id, '--json']);
    assert.deepEqual(again.updated, [applied.created[0]]);
    const { Project } = await import('../../../src/core/db/project');
    const { getBlock } = await import('../../../src/core/planning/factory/blocks');
    const p = await Project.open(file, { readOnly: true });
    try {
      assert.equal(getBlock(p, applied.created[0]).doc.goals[0].rate, 2);
    } finally {
      p.close();
    }
  });

  it('applies an applied or unsolved draft again only with --yes, and dismisses one by id', async () => {
    const drafted = await json(['tool', 'submitBlock', '--project', file, '--input', '{"target":"circuit","rate":1,"recipes":["circuit","wire"]}']);
    const id = drafted.pending.id;
    await json(['proposal', 'apply', file, id, '--json']);
    const io = capture();
    assert.equal(await run(['proposal', 'apply', file, id], io), 1);
    assert.match(io.stderr, /already applied[\s\S]*--yes/);
    const twice = await json(['proposal', 'apply', file, id, '--yes', '--json']);
    assert.equal(twice.created.length, 1);

    const unsolved = await json(['tool', 'submitBlock', '--project', file, '--input', '{"target":"circuit","rate":1,"recipes":["circuit","wire","no-such-recipe"]}']);
    assert.equal(unsolved.ok, false);
    const refused = capture();
    assert.equal(await run(['proposal', 'apply', file, unsolved.pending.id], refused), 1);
    assert.match(refused.stderr, /not solved[\s\S]*--yes/);

    const out = capture();
    assert.equal(await run(['proposal', 'dismiss', file, id], out), 0);
    assert.match(out.stdout, /Dismissed/);
    assert.deepEqual((await json(['proposal', 'list', file, '--json'])).proposals.map((x: { id: string }) => x.id), [unsolved.pending.id]);
    const gone = capture();
    assert.equal(await run(['proposal', 'dismiss', file, id], gone), 1);
    assert.match(gone.stderr, /gone/);
    assert.equal(await run(['proposal', 'frob', file], capture()), 2);
    assert.equal(await run(['proposal', 'apply', file], capture()), 2);
  });
});
