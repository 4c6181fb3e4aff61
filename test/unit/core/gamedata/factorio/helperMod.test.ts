import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { FactorioSyncError, HELPER_MOD_NAME, installHelperMod, recoverHelperMod } from '../../../../../src/core/gamedata/factorio';
import { HELPER_DATA_FINAL_FIXES_LUA, factorioSeries, helperInfoJson } from '../../../../../src/core/gamedata/factorio/helperModFiles';
import { helperExportSchema } from '../../../../../src/core/gamedata/dump/schema';
import { SAMPLE_DUMP, snapshotTree, tempDir, USER_MOD_LIST } from './helpers';

describe('helper mod install and restore', () => {
  let userData: string;
  let mods: string;
  let modList: string;
  const helperDir = () => path.join(mods, HELPER_MOD_NAME);

  beforeEach(() => {
    userData = tempDir('helper');
    mods = path.join(userData, 'mods');
    modList = path.join(mods, 'mod-list.json');
    fs.mkdirSync(mods);
  });
  afterEach(() => fs.rmSync(userData, { recursive: true, force: true }));

  it('writes info.json stamped with the engine series and enables the mod', () => {
    fs.writeFileSync(modList, USER_MOD_LIST);
    const h = installHelperMod(userData, '2.1.14');
    const info = JSON.parse(fs.readFileSync(path.join(helperDir(), 'info.json'), 'utf8'));
    assert.equal(info.name, HELPER_MOD_NAME);
    assert.equal(info.factorio_version, '2.1');
    assert.match(info.version, /^\d+\.\d+\.\d+$/);
    assert.ok(info.title && info.author);
    assert.deepEqual(info.dependencies, ['base', '? pyalienlife']);
    assert.equal(fs.readFileSync(path.join(helperDir(), 'data-final-fixes.lua'), 'utf8'), HELPER_DATA_FINAL_FIXES_LUA);
    const list = JSON.parse(fs.readFileSync(modList, 'utf8'));
    assert.deepEqual(list.mods.at(-1), { name: HELPER_MOD_NAME, enabled: true });
    assert.deepEqual(list.mods.slice(0, 3).map((m: { name: string }) => m.name), ['base', 'pyalienlife', 'some-old-mod']);
    h.restore();
  });

  it('puts back an odd mod-list.json byte for byte, even one that already named the helper', () => {
    const odd = '{"mods":[{"name":"base","enabled":true},\r\n {"name":"pyops-dump-helper","enabled":false, "version": "0.9.0"}]}\r\n\r\n';
    fs.writeFileSync(modList, odd);
    const h = installHelperMod(userData, '2.0.77');
    const enabled = JSON.parse(fs.readFileSync(modList, 'utf8')).mods.filter((m: { name: string }) => m.name === HELPER_MOD_NAME);
    assert.deepEqual(enabled, [{ name: HELPER_MOD_NAME, enabled: true, version: '0.9.0' }]);
    fs.writeFileSync(modList, '{"mods": []}'); // the game may rewrite the list while it runs
    h.restore();
    h.restore();
    assert.equal(fs.readFileSync(modList, 'latin1'), odd);
    assert.equal(fs.existsSync(helperDir()), false);
    assert.deepEqual(fs.readdirSync(mods), ['mod-list.json'], 'no temp files are left');
  });

  it('creates mod-list.json when there is none and deletes it again', () => {
    installHelperMod(userData, '2.0').restore();
    assert.deepEqual(fs.readdirSync(mods), []);
  });

  it("refuses a folder of that name that is not PyOps' and touches nothing", () => {
    fs.writeFileSync(modList, USER_MOD_LIST);
    fs.mkdirSync(helperDir());
    fs.writeFileSync(path.join(helperDir(), 'info.json'), JSON.stringify({ name: HELPER_MOD_NAME, author: 'someone else', version: '1.0.0' }));
    const before = snapshotTree(userData);
    assert.throws(() => installHelperMod(userData, '2.0.77'), (e: unknown) => e instanceof FactorioSyncError && e.code === 'failed' && /not the PyOps helper/.test(e.message));
    assert.deepEqual(snapshotTree(userData), before);
  });

  it('refuses when a zipped copy of a mod with that name is installed', () => {
    fs.writeFileSync(path.join(mods, `${HELPER_MOD_NAME}_0.1.0.zip`), 'zip');
    const before = snapshotTree(userData);
    assert.throws(() => installHelperMod(userData, '2.0.77'), /another copy of a mod named/);
    assert.deepEqual(snapshotTree(userData), before);
  });

  it('refuses a mod-list.json that is not a mod list and leaves it alone', () => {
    for (const bad of ['{"mods": [', '{"mods": {"base": true}}']) {
      fs.writeFileSync(modList, bad);
      const before = snapshotTree(userData);
      assert.throws(() => installHelperMod(userData, '2.0.77'), (e: unknown) => e instanceof FactorioSyncError && /mod-list\.json/.test(e.message));
      assert.deepEqual(snapshotTree(userData), before);
    }
  });

  it('undoes a helper left by a sync that was killed before it could restore', () => {
    fs.writeFileSync(modList, USER_MOD_LIST);
    installHelperMod(userData, '2.0.77'); // the process "dies" here: no restore
    assert.equal(recoverHelperMod(userData), true);
    assert.equal(fs.readFileSync(modList, 'utf8'), USER_MOD_LIST);
    assert.equal(fs.existsSync(helperDir()), false);
    assert.equal(recoverHelperMod(userData), false);
  });

  it('a new install first undoes a leftover, so the restore returns the true original', () => {
    fs.writeFileSync(modList, USER_MOD_LIST);
    installHelperMod(userData, '2.0.77');
    installHelperMod(userData, '2.0.77').restore();
    assert.equal(fs.readFileSync(modList, 'utf8'), USER_MOD_LIST);
    assert.equal(fs.existsSync(helperDir()), false);
  });

  it('after a leftover, keeps changes the user made since and only takes our entry out', () => {
    fs.writeFileSync(modList, USER_MOD_LIST);
    installHelperMod(userData, '2.0.77');
    const list = JSON.parse(fs.readFileSync(modList, 'utf8'));
    list.mods.push({ name: 'new-mod', enabled: true });
    fs.writeFileSync(modList, JSON.stringify(list));
    recoverHelperMod(userData);
    const names = JSON.parse(fs.readFileSync(modList, 'utf8')).mods.map((m: { name: string }) => m.name);
    assert.deepEqual(names, ['base', 'pyalienlife', 'some-old-mod', 'new-mod']);
  });

  it('reads the series from a full version', () => {
    assert.equal(factorioSeries('2.0.77'), '2.0');
    assert.equal(factorioSeries('2.1'), '2.1');
    assert.throws(() => factorioSeries('latest'));
    assert.equal(JSON.parse(helperInfoJson('2.0.77')).factorio_version, '2.0');
  });
});

// The data stage, run under a plain Lua 5.2 with a mock `data`, `mods` and Py's definition files.
const LUA = ['lua5.2', 'lua'].find((bin) => spawnSync(bin, ['-v'], { encoding: 'utf8' }).status === 0);

const JSON_LUA = `
local function encode(v)
  local t = type(v)
  if t == "nil" then return "null" end
  if t == "boolean" or t == "number" then return tostring(v) end
  if t == "string" then return (string.format("%q", v):gsub("\\\\\\n", "\\\\n")) end
  if next(v) == nil then return "[]" end
  if #v > 0 then
    local parts = {}
    for _, x in ipairs(v) do parts[#parts + 1] = encode(x) end
    return "[" .. table.concat(parts, ",") .. "]"
  end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = encode(tostring(k)) .. ":" .. encode(v[k]) end
  return "{" .. table.concat(parts, ",") .. "}"
end
local export = data.raw["mod-data"] and data.raw["mod-data"]["pyops-export"]
print(encode({export = export and export.data or nil, flag_during = rawget(_G, "FLAG_DURING"), flag_after = rawget(_G, "yafc_turd_integration"), required = rawget(_G, "REQUIRED") or {}}))
`;

function luaString(s: string): string {
  return JSON.stringify(s);
}

/** `data.raw.technology` of the sample world as a Lua table constructor. */
function sampleTechnologiesLua(): string {
  const raw = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8')) as { technology: Record<string, { prerequisites?: string[] }> };
  const entries = Object.entries(raw.technology).map(
    ([name, t]) => `[${luaString(name)}] = {type = "technology", name = ${luaString(name)}, prerequisites = {${(t.prerequisites ?? []).map(luaString).join(', ')}}}`,
  );
  return `{\n${entries.join(',\n')}\n}`;
}

/** Py's definition file for the sample world's TURD master, shaped like pyalienlife's upgrades. */
const PRESS_DEFINITION = `
package.preload["__pyalienlife__/prototypes/upgrades/press"] = function()
  FLAG_DURING = rawget(_G, "yafc_turd_integration")
  REQUIRED = rawget(_G, "REQUIRED") or {}
  REQUIRED[#REQUIRED + 1] = "press"
  if not rawget(_G, "yafc_turd_integration") then data:extend{{type = "recipe", name = "side-effect"}} end
  return {
    master_tech = {name = "press-upgrade"},
    sub_techs = {
      {name = "tempered-press", effects = {
        {type = "module-effects", speed = 0.5},
        {type = "recipe-replacement", old = "gear", new = "gear-tempered"},
      }},
      {name = "lean-press", effects = {
        {type = "recipe-replacement", old = "frame", new = "frame-lean"},
        {type = "recipe-replacement", old = "circuit", new = "circuit-lean"},
        {type = "unlock-recipe", recipe = "extra"},
      }},
      {name = "salvage-press", effects = {
        {type = "recipe-replacement", old = "reclaim-tailings", new = "reclaim-tailings-salvage"},
        {type = "machine-replacement", old = "press", new = "press-mk2"},
      }},
      {name = "not-a-branch-here", effects = {{type = "recipe-replacement", old = "a", new = "b"}}},
    },
  }
end
`;

interface LuaOutcome {
  export: unknown;
  flag_during?: boolean;
  flag_after?: unknown;
  required: string[] | Record<string, never>;
}

function runHelperLua(dir: string, setup: string): LuaOutcome {
  const helper = path.join(dir, 'data-final-fixes.lua');
  fs.writeFileSync(helper, HELPER_DATA_FINAL_FIXES_LUA);
  const script = path.join(dir, 'harness.lua');
  const mockData = `
data = {raw = {technology = ${sampleTechnologiesLua()}, recipe = {}}}
function data:extend(list)
  for _, p in ipairs(list) do
    self.raw[p.type] = self.raw[p.type] or {}
    self.raw[p.type][p.name] = p
  end
end
`;
  fs.writeFileSync(script, `${mockData}\n${setup}\ndofile(${luaString(helper)})\n${JSON_LUA}`);
  const r = spawnSync(LUA!, [script], { encoding: 'utf8' });
  assert.equal(r.status, 0, `lua failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as LuaOutcome;
}

describe('helper mod data stage (Lua 5.2)', function () {
  let dir: string;
  before(function () {
    if (!LUA) this.skip(); // needs a lua5.2 binary (apt-get install lua5.2)
  });
  beforeEach(() => (dir = tempDir('lua')));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const SAMPLE_MODS = 'mods = {base = "2.0.77", pyalienlife = "3.0.67", ["pyops-dump-helper"] = "1.0.0"}';

  it("exports the mods and the TURD replacements read from Py's definitions, without side effects", () => {
    const out = runHelperLua(dir, `${SAMPLE_MODS}\n${PRESS_DEFINITION}`);
    const exp = helperExportSchema.parse(out.export);
    assert.equal(exp.format, 1);
    assert.equal(exp.factorio_version, '2.0.77');
    assert.deepEqual(exp.mods, { base: '2.0.77', pyalienlife: '3.0.67', 'pyops-dump-helper': '1.0.0' });
    const sample = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8'))['mod-data']['pyops-export'].data;
    const key = (r: { branch: string; old: string }) => `${r.branch}/${r.old}`;
    assert.deepEqual(exp.turd_replacements!.map(key).sort(), sample.turd_replacements.map(key).sort());
    assert.equal(out.flag_during, true, 'Py definitions are required with yafc_turd_integration set');
    assert.equal(out.flag_after, undefined, 'the flag is cleared again');
    assert.deepEqual(out.required, ['press']);
  });

  it('still exports the mods when the definition cannot be required', () => {
    const out = runHelperLua(dir, `${SAMPLE_MODS}\npackage.preload["__pyalienlife__/prototypes/upgrades/press"] = function() error("boom") end`);
    const exp = helperExportSchema.parse(out.export);
    assert.deepEqual(exp.turd_replacements, []);
    assert.equal(exp.mods?.pyalienlife, '3.0.67');
  });

  it('does not look for Py definitions without Py Alien Life', () => {
    const out = runHelperLua(dir, `mods = {base = "2.1.14"}\n${PRESS_DEFINITION}`);
    const exp = helperExportSchema.parse(out.export);
    assert.deepEqual(exp.turd_replacements, []);
    assert.equal(exp.factorio_version, '2.1.14');
    assert.deepEqual(out.required, []);
  });

  it('survives a strict global table, a missing technology table and a failing data:extend', () => {
    const strict = 'setmetatable(_G, {__index = function(_, k) error("undefined global " .. tostring(k), 2) end})';
    let out = runHelperLua(dir, `${SAMPLE_MODS}\n${PRESS_DEFINITION}\n${strict}`);
    assert.equal(helperExportSchema.parse(out.export).turd_replacements!.length, 4);
    out = runHelperLua(dir, `${SAMPLE_MODS}\ndata.raw.technology = nil`);
    assert.deepEqual(helperExportSchema.parse(out.export).turd_replacements, []);
    out = runHelperLua(dir, `${SAMPLE_MODS}\nfunction data:extend() error("prototype rejected") end`);
    assert.equal(out.export, undefined, 'no export, and no error out of the data stage');
  });
});
