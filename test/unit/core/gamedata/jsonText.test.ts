// A UTF-8 JSON file read as one-byte text with its non-ASCII characters escaped parses to exactly
// what its UTF-8 text parses to, and a broken file is still reported at its own position.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { jsonText, parseJsonFile, readJsonFile } from '../../../../src/core/gamedata/jsonText';
import { readFlab } from '../../../../src/core/gamedata/factoriolab/read';
import { requireSharedData, tempDir } from '../../../helpers/paths';

const parseBoth = (buf: Buffer) => [JSON.parse(jsonText(buf)), JSON.parse(buf.toString('utf8'))];

describe('jsonText', () => {
  it('gives an ASCII file as it is', () => {
    const buf = Buffer.from('{"a":[1,"b\\u00e9",null]}');
    assert.equal(jsonText(buf), buf.toString('utf8'));
  });

  it('escapes two-, three- and four-byte characters so that they parse back the same, keys included', () => {
    const value = { 'Crème brûlée': ['Größe', '温度', '🦀 crab', 'a\u00a0b', 'ß"quoted"ß', '\\back\\slash é'], plain: 1.5 };
    const buf = Buffer.from(JSON.stringify(value, null, 1), 'utf8');
    const text = jsonText(buf);
    assert.match(text, /^[\x00-\x7f]*$/);
    const [mine, utf8] = parseBoth(buf);
    assert.deepEqual(mine, utf8);
    assert.deepEqual(mine, value);
  });

  it('reads bytes that are not UTF-8 as the UTF-8 decoder does (U+FFFD)', () => {
    const buf = Buffer.concat([Buffer.from('["x'), Buffer.from([0xc3, 0x28, 0xff, 0xe2, 0x82]), Buffer.from('y"]')]);
    const [mine, utf8] = parseBoth(buf);
    assert.deepEqual(mine, utf8);
  });

  it('escapes a file read with room in its own bytes, and leaves any other buffer as it was', () => {
    const dir = tempDir();
    try {
      const value = { 'Crème brûlée': ['Größe', '温度', '🦀 crab', 'a\u00a0b'], plain: [1.5, 'x'.repeat(5000)], end: 'ß' };
      const utf8 = Buffer.from(JSON.stringify(value), 'utf8');
      const file = path.join(dir, 'a.json');
      fs.writeFileSync(file, utf8);
      const read = readJsonFile(file);
      assert.deepEqual(Buffer.from(read), utf8);
      assert.deepEqual(parseJsonFile(read), value);
      assert.notDeepEqual(Buffer.from(read), utf8, 'escaped where it lies');
      const copy = Buffer.from(utf8);
      assert.deepEqual(parseJsonFile(copy), value);
      assert.deepEqual(copy, utf8, 'a buffer without room is not changed');
      // More non-ASCII than the room holds: escaped into a new text instead.
      const wide = { many: 'é'.repeat(40_000) };
      fs.writeFileSync(file, JSON.stringify(wide));
      const big = readJsonFile(file);
      assert.deepEqual(parseJsonFile(big), wide);
      assert.deepEqual(big, fs.readFileSync(file));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parses full Py\'s FactorioLab set to the same value as its UTF-8 text', function () {
    const dir = requireSharedData(this, 'factoriolab-pysalf');
    const file = path.join(dir, 'data.json');
    const [mine, utf8] = parseBoth(fs.readFileSync(file));
    assert.deepEqual(mine, utf8);
    assert.deepEqual(parseJsonFile(readJsonFile(file)), utf8);
  });

  it('leaves a broken file reported at the file\'s own position', () => {
    const dir = tempDir();
    try {
      // Non-ASCII before the break would shift positions in the escaped text.
      const text = '{"version":{"Crème":"1.0 ééé"},"categories":[{"id":"a","name":"Ä"}],"items":[{"id":"x" "name":"y"}]}';
      const file = path.join(dir, 'data.json');
      fs.writeFileSync(file, text);
      let pos = -1;
      try {
        JSON.parse(text);
      } catch (err) {
        pos = Number(/position (\d+)/.exec((err as Error).message)?.[1]);
      }
      assert.ok(pos > 0);
      assert.throws(() => readFlab(file), (err: Error) => err.message.includes(`position ${pos}`) && err.message.includes(`(character ${pos})`) && /in items, after the entry "x"/.test(err.message));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
