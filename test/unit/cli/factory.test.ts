// `pyops block` and `pyops factory` on the sample world. From its dump: basic-research-pack takes 1 gear
// (+ 2 wire) for 1 pack; gear takes 2 ferrite-plate for 1 gear.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { run } from '../../../src/cli/main';
import { SAMPLE_DUMP, tempDir } from '../../helpers/paths';
import { capture } from '../../helpers/cliIO';

describe('pyops block and pyops factory', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;
  const cli = async (...argv: string[]) => {
    const io = capture();
    const code = await run(argv, io);
    return { code, ...io };
  };
  beforeEach(async () => {
    dir = tempDir();
    file = path.join(dir, 'f.pyops');
    await run(['project', 'create', file], capture());
    await run(['import', file, SAMPLE_DUMP], capture());
    fs.writeFileSync(path.join(dir, 'packs.json'), JSON.stringify({ goals: [{ good: 'basic-research-pack', rate: 0.5 }], recipes: [{ recipe: 'basic-research-pack' }] }));
    fs.writeFileSync(path.join(dir, 'gears.json'), JSON.stringify({ goals: [{ good: 'gear', rate: 0.2 }], recipes: [{ recipe: 'gear' }] }));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates blocks from documents and lists them', async () => {
    const a = await cli('block', 'create', file, path.join(dir, 'packs.json'), '--name', 'Packs', '--json');
    assert.equal(a.code, 0, a.stderr);
    assert.equal(JSON.parse(a.stdout).name, 'Packs');
    assert.equal((await cli('block', 'create', file, path.join(dir, 'gears.json'))).code, 0);
    const l = await cli('block', 'list', file, '--json');
    const blocks = JSON.parse(l.stdout).blocks as Array<{ name: string; goals: Array<{ good: string; rate: number }> }>;
    assert.deepEqual(blocks.map((b) => b.name), ['Packs', 'gear']);
  });

  it('reports a scenario for a pin without saving it, and balances with --yes as one undoable action', async () => {
    await cli('block', 'create', file, path.join(dir, 'packs.json'), '--name', 'Packs');
    await cli('block', 'create', file, path.join(dir, 'gears.json'), '--name', 'Gears');
    const s = await cli('factory', 'scenario', file, '--pin', 'basic-research-pack=2', '--json');
    assert.equal(s.code, 0, s.stderr);
    const r = JSON.parse(s.stdout) as { goalChanges: { items: Array<{ block: string; next: number }> } };
    assert.equal(r.goalChanges.items.find((c) => c.block === 'Gears')?.next, 2);
    const dry = await cli('factory', 'balance', file, '--pin', 'basic-research-pack=2');
    assert.match(dry.stdout, /Nothing was changed; add --yes/);
    const b = await cli('factory', 'balance', file, '--pin', 'basic-research-pack=2', '--yes');
    assert.equal(b.code, 0, b.stderr);
    assert.match(b.stdout, /Applied: Balance factory \(2 goals in 2 blocks, pins\)/);
    const l = JSON.parse((await cli('block', 'list', file, '--json')).stdout) as { blocks: Array<{ name: string; goals: Array<{ rate: number }> }> };
    assert.equal(l.blocks.find((x) => x.name === 'Gears')?.goals[0].rate, 2);
    // The pins were saved with it: a plain scenario now already fits.
    const again = JSON.parse((await cli('factory', 'scenario', file, '--json')).stdout) as { goalChanges: { items: unknown[] } };
    assert.equal(again.goalChanges.items.length, 0);
  });

  it('refuses a malformed pin as a usage error', async () => {
    const r = await cli('factory', 'scenario', file, '--pin', 'gear');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--pin takes good=rate/);
  });
});
