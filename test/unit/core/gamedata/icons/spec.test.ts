// Icon specs as the importer stores them: IconData defaults made explicit, colours and vectors in
// every shape the dump writes them, recipes inheriting their product's icon, and the specs kept in
// the game data through an import.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { color, iconSpecOf } from '../../../../../src/core/gamedata/icons/spec';
import { normalizeDump } from '../../../../../src/core/gamedata/normalize';
import { emptyLocale } from '../../../../../src/core/gamedata/locale';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { readIconSpecs } from '../../../../../src/core/gamedata/icons/extract';
import { Project } from '../../../../../src/core/db/project';
import { SAMPLE_DUMP, SAMPLE_WORLD, tempDir } from '../../../../helpers/paths';

type Raw = Record<string, Record<string, Record<string, unknown>>>;
const sampleWithIcons = (): Raw => {
  const raw = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8')) as Raw;
  raw.item['ferrite-plate'].icon = '__sample__/graphics/ferrite-plate.png';
  raw.item['ferrite-plate'].icon_size = 32;
  raw.recipe['crush-lignite'].icons = [{ icon: '__sample__/graphics/lignite.png' }, { icon: '__sample__/graphics/arrow.png', icon_size: 32, scale: 0.25, shift: [8, 8] }];
  raw['assembling-machine'].press.icon = '__sample__/graphics/press.png';
  raw.technology.electronics.icon = '__sample__/graphics/tech.png';
  raw.technology.electronics.icon_size = 256;
  return raw;
};

describe('icon specs', () => {
  it('fills in the slot-filling scale, no shift and no tint for a plain icon', () => {
    assert.deepEqual(iconSpecOf({ icon: '__m__/a.png', icon_size: 128 }, 'item'), {
      canvas: 32,
      layers: [{ icon: '__m__/a.png', size: 128, scale: 0.25, shift: [0, 0], tint: null, floating: false }],
    });
    // icon_size defaults to 64; technologies are drawn in a 128-unit slot.
    assert.deepEqual(iconSpecOf({ icon: '__m__/t.png' }, 'technology')!.layers[0], { icon: '__m__/t.png', size: 64, scale: 2, shift: [0, 0], tint: null, floating: false });
  });

  it('reads layers written as Lua tables keyed "1", "2", with vectors as {x, y}', () => {
    const s = iconSpecOf({ icons: { 1: { icon: '__m__/a.png', icon_size: 32 }, 2: { icon: '__m__/b.png', scale: 0.5, shift: { x: -4, y: 6 }, tint: { r: 1, a: 0.5 }, floating: true } } }, 'recipe')!;
    assert.equal(s.layers.length, 2);
    assert.deepEqual(s.layers[1], { icon: '__m__/b.png', size: 64, scale: 0.5, shift: [-4, 6], tint: [1, 0, 0, 0.5], floating: true });
  });

  it('reads colours on the 0..255 scale and as lists', () => {
    assert.deepEqual(color({ r: 255, g: 51, b: 0 }), [1, 0.2, 0, 1 / 255]);
    assert.deepEqual(color([0.5, 0.25, 1]), [0.5, 0.25, 1, 1]);
    assert.equal(color('red'), null);
  });

  it('has no spec for a prototype without an icon, or with only unusable layers', () => {
    assert.equal(iconSpecOf({ name: 'x' }, 'item'), undefined);
    assert.equal(iconSpecOf({ icons: [{ icon_size: 32 }] }, 'item'), undefined);
  });

  it('gives a recipe without an icon its main product\'s, and keeps entities and technologies', () => {
    const norm = normalizeDump(sampleWithIcons(), emptyLocale());
    const spec = (kind: string, name: string) => JSON.parse(norm.data.icons.find((r) => r.kind === kind && r.name === name)?.spec ?? 'null');
    assert.equal(spec('item', 'ferrite-plate').layers[0].icon, '__sample__/graphics/ferrite-plate.png');
    assert.deepEqual(spec('recipe', 'ferrite-plate'), spec('item', 'ferrite-plate'));
    assert.equal(spec('recipe', 'crush-lignite').layers[1].shift[0], 8);
    assert.equal(spec('entity', 'press').layers[0].icon, '__sample__/graphics/press.png');
    assert.equal(spec('technology', 'electronics').canvas, 128);
    assert.equal(spec('item', 'gear'), null);
  });

  it('stores the specs with the game data on import', async () => {
    const dir = tempDir();
    try {
      const dump = path.join(dir, 'data-raw-dump.json');
      fs.writeFileSync(dump, JSON.stringify(sampleWithIcons()));
      for (const f of fs.readdirSync(SAMPLE_WORLD)) if (f.endsWith('-locale.json')) fs.copyFileSync(path.join(SAMPLE_WORLD, f), path.join(dir, f));
      const p = await Project.create(path.join(dir, 'p.pyops'));
      try {
        await importGameData(p, dump);
        const specs = readIconSpecs(p);
        assert.ok(specs.some((s) => s.kind === 'recipe' && s.name === 'crush-lignite' && s.spec.layers.length === 2));
      } finally {
        p.close();
      }
      const again = await Project.open(path.join(dir, 'p.pyops'));
      try {
        assert.ok(readIconSpecs(again).some((s) => s.kind === 'item' && s.name === 'ferrite-plate'));
      } finally {
        again.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
