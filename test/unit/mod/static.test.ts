// Static checks of the companion mod: Lua 5.2 syntax (Factorio's Lua rejects 5.3+ syntax that
// fengari would accept), Factorio 2.x API names (typed-factorio), locale keys and info.json.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import luaparse from 'luaparse';
import { loadApiIndex, lintFiles } from '../../mod/apiLint';
import { MOD_DIR, STUB_DIR } from '../../mod/harness';

function luaFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? luaFiles(p) : e.name.endsWith('.lua') ? [p] : [];
  });
}

const modFiles = luaFiles(MOD_DIR);
const hasLuac52 = spawnSync('luac5.2', ['-v'], { encoding: 'utf8' }).status === 0;

describe('companion mod: static checks', () => {
  it('has the files a Factorio mod needs', () => {
    for (const f of ['info.json', 'control.lua', 'settings.lua', 'data.lua', 'locale/en/pyops-link.cfg']) assert.ok(fs.existsSync(path.join(MOD_DIR, f)), f);
    const info = JSON.parse(fs.readFileSync(path.join(MOD_DIR, 'info.json'), 'utf8'));
    assert.equal(info.name, 'pyops-link');
    assert.match(info.version, /^\d+\.\d+\.\d+$/);
    assert.match(info.factorio_version, /^2\.\d+$/);
    for (const k of ['title', 'author']) assert.equal(typeof info[k], 'string');
  });

  it('parses every mod file (and the test runtime) as Lua 5.2', () => {
    assert.ok(modFiles.length >= 10);
    for (const f of [...modFiles, ...luaFiles(STUB_DIR)]) {
      assert.doesNotThrow(() => luaparse.parse(fs.readFileSync(f, 'utf8'), { luaVersion: '5.2' }), path.relative(MOD_DIR, f));
    }
  });

  it('would catch 5.3-only syntax (the check is not vacuous)', () => {
    for (const bad of ['local x = 7 // 2', 'local x = 1 << 2', 'local x = 1 ~ 2']) assert.throws(() => luaparse.parse(bad, { luaVersion: '5.2' }), bad);
  });

  it('compiles every mod file with luac5.2 -p when Lua 5.2 is installed', function () {
    if (!hasLuac52) {
      console.log('      (skipped: luac5.2 is not installed; apt-get install lua5.2)');
      this.skip();
    }
    const r = spawnSync('luac5.2', ['-p', ...modFiles], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('uses only Factorio 2.x API names that exist (typed-factorio)', () => {
    const api = loadApiIndex();
    assert.ok(api.interfaces.get('LuaHelpers')?.has('send_udp'), 'the API index loaded');
    const uses = lintFiles(modFiles, api);
    assert.ok(uses.length > 100, `checked ${uses.length} uses`);
    const bad = uses.filter((u) => !u.ok).map((u) => `${path.relative(MOD_DIR, u.file)}:${u.line} ${u.text}`);
    assert.deepEqual(bad, []);
    const names = new Set(uses.map((u) => u.text.split(' ')[0]));
    for (const n of ['helpers.send_udp', 'helpers.recv_udp', 'defines.events.on_udp_packet_received', 'game.is_multiplayer']) assert.ok(names.has(n), n);
  });

  it('never uses the 1.x names that are gone in 2.0', () => {
    for (const f of modFiles) {
      const text = fs.readFileSync(f, 'utf8').replace(/--[^\n]*/g, '');
      assert.doesNotMatch(text, /\bglobal\.|game\.(write_file|table_to_json|json_to_table|item_prototypes|entity_prototypes)\b/, path.relative(MOD_DIR, f));
    }
  });

  it('has a locale entry for every setting, hotkey and GUI string', () => {
    const cfg = fs.readFileSync(path.join(MOD_DIR, 'locale', 'en', 'pyops-link.cfg'), 'utf8');
    const sections = new Map<string, Set<string>>();
    let current = '';
    for (const line of cfg.split('\n')) {
      const s = /^\[(.+)\]\s*$/.exec(line);
      if (s) {
        current = s[1];
        sections.set(current, new Set());
      } else if (/^[\w-]+=/.test(line)) sections.get(current)!.add(line.split('=')[0]);
    }
    const settings = [...fs.readFileSync(path.join(MOD_DIR, 'settings.lua'), 'utf8').matchAll(/name = "([\w-]+)"/g)].map((m) => m[1]);
    assert.deepEqual(settings, ['pyops-link-port', 'pyops-link-enabled', 'pyops-link-allow-eval', 'pyops-link-pairing']);
    for (const s of settings) {
      assert.ok(sections.get('mod-setting-name')?.has(s), `mod-setting-name ${s}`);
      assert.ok(sections.get('mod-setting-description')?.has(s), `mod-setting-description ${s}`);
    }
    for (const m of fs.readFileSync(path.join(MOD_DIR, 'data.lua'), 'utf8').matchAll(/name = "([\w-]+)"/g)) assert.ok(sections.get('controls')?.has(m[1]), `controls ${m[1]}`);
    const used = new Set(modFiles.flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(/"pyops-link\.([\w-]+)"/g)].map((m) => m[1])));
    assert.ok(used.size > 10);
    for (const k of used) assert.ok(sections.get('pyops-link')?.has(k), `[pyops-link] ${k}`);
  });
});
