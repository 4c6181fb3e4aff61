import assert from 'node:assert/strict';
import { findErrorBanner, parseVersionOutput } from '../../../../../src/core/gamedata/factorio';
import { errorEntries, writeDataPath } from '../../../../../src/core/gamedata/factorio/banner';

const CLEAN_LOG = `   0.000 2025-11-20 10:12:31; Factorio 2.0.77 (build 83912, linux64, full, space-age)
   0.013 Program arguments: "/home/ada/factorio/bin/x64/factorio" "--dump-data"
   0.013 Read data path: /home/ada/factorio/data
   0.013 Write data path: /home/ada/.factorio [50442/120039MB]
   0.120 Loading mod core 0.0.0 (data.lua)
   0.250 Loading mod base 2.0.77 (data.lua)
   1.400 Checksum for core: 1234
   1.900 Goodbye
`;

const ASSIGN_ID = `   0.901 Loading mod pyalienlife 3.0.67 (data-final-fixes.lua)
   1.234 Error ModManager.cpp:1075: Error in assignID: item with name 'py-foo' does not exist.

Source: py-bar (recipe).
   1.240 Error Util.cpp:83: Failed to load mods: Error in assignID: item with name 'py-foo' does not exist.

Source: py-bar (recipe).

Mods to disable:
  pyalienlife
   1.300 Goodbye
`;

const LUA_ERROR = `   0.700 Loading mod broken 0.1.0 (data.lua)
   0.712 Error Util.cpp:83: Failed to load mods: __broken__/data.lua:3: attempt to index global 'foo' (a nil value)
stack traceback:
	[C]: in function 'error'
	__broken__/data.lua:3: in main chunk
	[C]: in function 'require'

Mods to disable:
  broken
`;

describe('reading Factorio output', () => {
  it('finds no banner in a clean run', () => {
    assert.equal(findErrorBanner(CLEAN_LOG), null);
  });

  it('quotes the assignID banner without timestamps, with the source line', () => {
    const lines = findErrorBanner(CLEAN_LOG + ASSIGN_ID)!;
    assert.ok(lines);
    assert.equal(lines[0], "Error ModManager.cpp:1075: Error in assignID: item with name 'py-foo' does not exist.");
    assert.equal(lines[1], 'Source: py-bar (recipe).');
    assert.ok(lines.some((l) => l.startsWith('Error Util.cpp:83: Failed to load mods')));
    assert.ok(lines.length <= 6);
  });

  it('quotes a Lua error from the data stage with the start of its traceback', () => {
    const lines = findErrorBanner(LUA_ERROR)!;
    assert.match(lines[0], /Failed to load mods: __broken__\/data\.lua:3/);
    assert.equal(lines[1], 'stack traceback:');
  });

  it('recognises the other banners', () => {
    for (const text of [
      '   2.000 Error while loading entity prototype "foo" (assembling-machine): Key "energy_usage" not found',
      'Mods to disable:\n  some-mod',
      "   0.050 Error Main.cpp:1200: Couldn't acquire exclusive lock on /home/ada/.factorio/.lock. Is another instance already running?",
    ]) {
      assert.ok(findErrorBanner(text), text);
    }
  });

  it('reads the error entries and the write-data folder for hints', () => {
    assert.equal(writeDataPath(CLEAN_LOG), '/home/ada/.factorio');
    assert.equal(writeDataPath('   0.013 Write data path: C:/Users/Ada/AppData/Roaming/Factorio [1/2MB]\r\n'), 'C:/Users/Ada/AppData/Roaming/Factorio');
    assert.equal(writeDataPath('nothing'), undefined);
    assert.deepEqual(errorEntries(ASSIGN_ID).length, 2);
  });

  it('parses the version line', () => {
    assert.deepEqual(parseVersionOutput('Version: 2.0.77 (build 83912, linux64, full, space-age)\nBinary version: 64\n'), { version: '2.0.77', series: '2.0', build: 83912 });
    assert.deepEqual(parseVersionOutput('Version: 2.1.14 (build 84001, win64, steam)'), { version: '2.1.14', series: '2.1', build: 84001 });
    assert.equal(parseVersionOutput('usage: factorio [options]'), undefined);
  });
});
