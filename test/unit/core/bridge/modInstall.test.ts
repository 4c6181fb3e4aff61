import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { COMPANION_MOD_NAME, companionModInstalled, installCompanionMod, removeCompanionMod } from '../../../../src/core/bridge/modInstall';
import { REPO, tempDir } from '../../../helpers/paths';
import { newPairingCode } from '../../../../src/core/bridge/pairing';
import { createVM } from '../../../mod/harness';

const MOD = path.join(REPO, 'companion-mod');
const readJson = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8'));

describe('companion mod install and removal', () => {
  let userData: string;
  beforeEach(() => {
    userData = tempDir('pyops-factorio-');
    fs.mkdirSync(path.join(userData, 'mods'));
    fs.writeFileSync(path.join(userData, 'mods', 'mod-list.json'), JSON.stringify({ mods: [{ name: 'base', enabled: true }] }));
  });
  afterEach(() => fs.rmSync(userData, { recursive: true, force: true }));

  it('copies the mod, stamps the game\'s version series and enables it', () => {
    const r = installCompanionMod({ sourceDir: MOD, userDataDir: userData, factorioVersion: '2.1.14' });
    assert.equal(r.mode, 'copy');
    assert.equal(r.factorioVersion, '2.1');
    const info = readJson(path.join(r.modDir, 'info.json'));
    assert.equal(info.name, COMPANION_MOD_NAME);
    assert.equal(info.factorio_version, '2.1');
    assert.equal(readJson(path.join(MOD, 'info.json')).factorio_version, '2.0', 'the shipped copy is untouched');
    for (const f of ['control.lua', 'settings.lua', 'data.lua', 'scripts/link.lua', 'locale/en/pyops-link.cfg']) assert.ok(fs.existsSync(path.join(r.modDir, f)), f);
    assert.deepEqual(readJson(path.join(userData, 'mods', 'mod-list.json')).mods, [{ name: 'base', enabled: true }, { name: COMPANION_MOD_NAME, enabled: true }]);
    assert.equal(companionModInstalled(userData)?.factorioVersion, '2.1');
    // installing again replaces the earlier copy
    const again = installCompanionMod({ sourceDir: MOD, userDataDir: userData, factorioVersion: '2.0.77' });
    assert.deepEqual(again.replaced, [r.modDir]);
    assert.equal(readJson(path.join(again.modDir, 'info.json')).factorio_version, '2.0');
  });

  it("writes the app's pairing code into a copied mod, where its settings stage makes it the default", () => {
    const code = newPairingCode();
    const r = installCompanionMod({ sourceDir: MOD, userDataDir: userData, factorioVersion: '2.0.77', pairing: code });
    assert.equal(r.pairingWritten, true);
    assert.ok(!fs.existsSync(path.join(MOD, 'pairing.lua')), 'the shipped copy carries no code');
    // Run the installed settings.lua (Lua 5.2 in fengari) the way Factorio's settings stage would.
    const defaultOf = (modDir: string) => {
      const vm = createVM({ modDir, setup: 'C.default_world()' });
      try {
        return vm.run<string>('local got; data = { extend = function(_, list) got = list end }; package.loaded["settings"] = nil; require("settings"); for _, s in ipairs(got) do if s.name == "pyops-link-pairing" then return s.default_value end end');
      } finally {
        void vm.close();
      }
    };
    assert.equal(defaultOf(r.modDir), code);
    assert.equal(defaultOf(MOD), '', 'without pairing.lua the setting starts blank (read-only link)');
  });

  it('links the mod folder for development', () => {
    const src = tempDir('pyops-modsrc-');
    try {
      fs.cpSync(MOD, src, { recursive: true });
      const r = installCompanionMod({ sourceDir: src, userDataDir: userData, factorioVersion: '2.1.0', mode: 'link' });
      assert.ok(fs.lstatSync(r.modDir).isSymbolicLink());
      assert.equal(readJson(path.join(src, 'info.json')).factorio_version, '2.1', 'a link serves the stamped source');
      assert.equal(companionModInstalled(userData)?.link, true);
      const removed = removeCompanionMod(userData);
      assert.deepEqual(removed.removed, [r.modDir]);
      assert.ok(fs.existsSync(path.join(src, 'control.lua')), 'removing the link leaves its target alone');
    } finally {
      fs.rmSync(src, { recursive: true, force: true });
    }
  });

  it('removes only its own mod and takes it out of mod-list.json', () => {
    installCompanionMod({ sourceDir: MOD, userDataDir: userData, factorioVersion: '2.0' });
    const impostor = path.join(userData, 'mods', `${COMPANION_MOD_NAME}_9.9.9`);
    fs.mkdirSync(impostor);
    fs.writeFileSync(path.join(impostor, 'info.json'), JSON.stringify({ name: 'someone-else', version: '9.9.9' }));
    const r = removeCompanionMod(userData);
    assert.deepEqual(r.removed, [path.join(userData, 'mods', COMPANION_MOD_NAME)]);
    assert.deepEqual(r.skipped, [impostor]);
    assert.ok(fs.existsSync(impostor));
    assert.deepEqual(readJson(path.join(userData, 'mods', 'mod-list.json')).mods, [{ name: 'base', enabled: true }]);
  });

  it('refuses to overwrite a folder of the same name that is not this mod', () => {
    const other = path.join(userData, 'mods', COMPANION_MOD_NAME);
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'info.json'), JSON.stringify({ name: 'not-pyops', version: '1.0.0' }));
    assert.throws(() => installCompanionMod({ sourceDir: MOD, userDataDir: userData, factorioVersion: '2.0' }), /not the PyOps Link mod, so PyOps leaves it alone/);
    assert.ok(fs.existsSync(path.join(other, 'info.json')));
  });

  it('explains a missing user-data folder and a bad version', () => {
    assert.throws(() => installCompanionMod({ sourceDir: MOD, userDataDir: path.join(userData, 'nope'), factorioVersion: '2.0' }), /does not exist.*pyops\.factorio\.userDataPath/);
    assert.throws(() => installCompanionMod({ sourceDir: MOD, userDataDir: userData, factorioVersion: 'latest' }), /not a Factorio version/);
  });
});
