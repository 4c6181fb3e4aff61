// An "API lint" for the companion mod: every Factorio name the Lua code reaches through a global
// (helpers.X, game.X, script.X, settings.X, remote.X, rendering.X, prototypes.X, defines.A.B) or
// through a conventionally named local (player.X, force.X, surface.X, entity.X …) must exist in the
// Factorio 2.x API as typed-factorio declares it. It catches removed 1.x names (game.write_file,
// global) and typos that only the real game would otherwise reveal.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import luaparse from 'luaparse';

const require = createRequire(import.meta.url);

export interface ApiIndex {
  interfaces: Map<string, Set<string>>;
  defines: Map<string, Set<string>>;
}

/** Member names of every `export interface X … { … }` in the d.ts files, inheritance resolved. */
export function loadApiIndex(): ApiIndex {
  const root = path.dirname(require.resolve('typed-factorio/package.json'));
  const dir = path.join(root, 'runtime', 'generated');
  const own = new Map<string, Set<string>>();
  const parents = new Map<string, string[]>();
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.d.ts'))) {
    const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = /^  export interface (\w+)(?:<[^>]*>)?(?: extends ([^{]+))? \{\s*$/.exec(lines[i]);
      if (!m) continue;
      const members = own.get(m[1]) ?? new Set<string>();
      own.set(m[1], members);
      if (m[2]) parents.set(m[1], [...(parents.get(m[1]) ?? []), ...m[2].split(',').map((s) => s.trim().replace(/<.*$/, ''))]);
      for (i++; i < lines.length && lines[i] !== '  }'; i++) {
        const mm = /^    (?:readonly |get |set )?(\w+)\??[(:<]/.exec(lines[i]);
        if (mm) members.add(mm[1]);
      }
    }
  }
  const resolved = new Map<string, Set<string>>();
  const resolve = (name: string, seen = new Set<string>()): Set<string> => {
    if (resolved.has(name)) return resolved.get(name)!;
    const out = new Set(own.get(name) ?? []);
    if (!seen.has(name)) {
      seen.add(name);
      for (const p of parents.get(name) ?? []) for (const x of resolve(p, seen)) out.add(x);
    }
    resolved.set(name, out);
    return out;
  };
  for (const n of own.keys()) resolve(n);

  const defines = new Map<string, Set<string>>();
  const text = fs.readFileSync(path.join(dir, 'defines.d.ts'), 'utf8').split('\n');
  for (let i = 0; i < text.length; i++) {
    const m = /^    (?:enum|namespace) (\w+) \{\s*$/.exec(text[i]);
    if (!m) continue;
    const set = new Set<string>();
    defines.set(m[1], set);
    const indent = '    }';
    for (i++; i < text.length && text[i] !== indent; i++) {
      const c = /^      (?:const )?(\w+)\s*(?:[:=,]|$)/.exec(text[i]);
      if (c) set.add(c[1]);
      const nested = /^      (?:enum|namespace) (\w+) \{/.exec(text[i]);
      if (nested) set.add(nested[1]);
    }
  }
  return { interfaces: resolved, defines };
}

/** Globals and the API class each stands for. */
export const GLOBALS: Record<string, string> = {
  game: 'LuaGameScript',
  script: 'LuaBootstrap',
  helpers: 'LuaHelpers',
  settings: 'LuaSettings',
  remote: 'LuaRemote',
  rendering: 'LuaRendering',
  prototypes: 'LuaPrototypes',
};

/** Locals whose name says what they hold, by the mod's own convention. */
export const LOCALS: Record<string, string> = {
  player: 'LuaPlayer',
  force: 'LuaForce',
  surface: 'LuaSurface',
  entity: 'LuaEntity',
  selected: 'LuaEntity',
  hovered: 'LuaEntity',
  target: 'LuaEntity',
  tech: 'LuaTechnology',
  stats: 'LuaFlowStatistics',
  fs: 'LuaFlowStatistics',
};

export interface ApiUse {
  file: string;
  line: number;
  text: string;
  ok: boolean;
}

/** Every API name the files use, each checked against the index. */
export function lintFiles(files: string[], api: ApiIndex): ApiUse[] {
  const uses: ApiUse[] = [];
  for (const file of files) {
    const ast = luaparse.parse(fs.readFileSync(file, 'utf8'), { luaVersion: '5.2', locations: true, scope: true });
    const visit = (node: any): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach(visit);
      if (node.type === 'MemberExpression' && node.indexer === '.') check(node);
      for (const k of Object.keys(node)) if (k !== 'loc' && k !== 'range') visit(node[k]);
    };
    const check = (node: any) => {
      const base = node.base;
      const line = node.loc?.start.line ?? 0;
      // defines.<group>.<member>
      if (base.type === 'MemberExpression' && base.indexer === '.' && base.base.type === 'Identifier' && base.base.name === 'defines') {
        const group = base.identifier.name;
        const member = node.identifier.name;
        uses.push({ file, line, text: `defines.${group}.${member}`, ok: !!api.defines.get(group)?.has(member) });
        return;
      }
      if (base.type !== 'Identifier') return;
      const cls = (base.isLocal ? LOCALS[base.name] : GLOBALS[base.name]) ?? (base.isLocal ? undefined : undefined);
      if (base.name === 'defines' && !base.isLocal) {
        uses.push({ file, line, text: `defines.${node.identifier.name}`, ok: api.defines.has(node.identifier.name) });
        return;
      }
      if (!cls) return;
      const members = api.interfaces.get(cls);
      uses.push({ file, line, text: `${base.name}.${node.identifier.name} (${cls})`, ok: !!members?.has(node.identifier.name) });
    };
    visit(ast);
  }
  return uses;
}
