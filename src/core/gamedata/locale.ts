// Display names. Two sources: Factorio's own `--dump-prototype-locale` output (`item-locale.json`
// etc., already resolved by the game) and cfg-style dictionaries (section → key → text, as in
// `locale-en-names.json`), for which we resolve LocalisedStrings ourselves.

import { humanize } from './units';

export type LocaleKind = 'item' | 'fluid' | 'recipe' | 'entity' | 'technology' | 'item-group' | 'tile';

export interface LocaleSources {
  /** From `<kind>-locale.json` files: kind → name → resolved text. */
  resolved: Map<string, Map<string, string>>;
  /** cfg sections: section → key → raw text (may contain __1__ and __ITEM__x__ macros). */
  cfg: Map<string, Map<string, string>>;
}

export function emptyLocale(): LocaleSources {
  return { resolved: new Map(), cfg: new Map() };
}

export interface Prototype {
  name: string;
  localised_name?: unknown;
  place_result?: string;
  main_product?: string;
  results?: unknown;
}

export class Localizer {
  constructor(private readonly src: LocaleSources) {}

  /** Display name or undefined when no source knows it. */
  name(kind: LocaleKind, proto: Prototype, fallbacks: Array<() => string | undefined> = []): string | undefined {
    const resolved = this.src.resolved.get(kind)?.get(proto.name);
    if (resolved) return resolved;
    if (this.src.cfg.size) {
      if (proto.localised_name !== undefined) {
        const t = this.resolve(proto.localised_name, 0);
        if (t) return t;
      }
      const t = this.key(`${kind}-name`, proto.name) ?? (kind === 'technology' ? this.levelled(proto.name) : undefined);
      if (t) return t;
    }
    for (const f of fallbacks) {
      const t = f();
      if (t) return t;
    }
    return undefined;
  }

  private levelled(name: string): string | undefined {
    const m = /^(.*)-(\d+)$/.exec(name);
    if (!m) return undefined;
    const base = this.key('technology-name', m[1]);
    return base ? `${base} ${m[2]}` : undefined;
  }

  private key(section: string, key: string, params: unknown[] = [], depth = 0): string | undefined {
    const raw = this.src.cfg.get(section)?.get(key);
    if (raw === undefined) return undefined;
    return this.substitute(raw, params, depth);
  }

  /**
   * A parameter or macro names something the dictionaries lack (Py's "__1__ canister" filled with a
   * base-game fluid the locale files do not carry): the game would print "Unknown key"; we print its
   * internal name readably, so four canisters do not all read "canister".
   */
  private substitute(raw: string, params: unknown[], depth: number): string {
    return raw
      .replace(/__(\d+)__/g, (_, i) => this.resolve(params[Number(i) - 1], depth + 1) ?? readableKey(params[Number(i) - 1]) ?? '')
      .replace(/__(ITEM|FLUID|ENTITY|RECIPE|TECHNOLOGY|TILE)__([^_][^]*?)__/g, (_, t: string, n: string) => {
        const section = `${t.toLowerCase()}-name`;
        return this.key(section, n, [], depth + 1) ?? humanize(n);
      })
      .replace(/__plural_for_parameter__\d+__\{[^}]*\}__/g, '')
      .trim();
  }

  /** Resolve a LocalisedString value. */
  resolve(ls: unknown, depth: number): string | undefined {
    if (depth > 12) return undefined;
    if (typeof ls === 'number') return String(ls);
    if (typeof ls === 'string') return ls;
    const arr = Array.isArray(ls) ? ls : ls && typeof ls === 'object' ? Object.values(ls) : undefined;
    if (!arr || arr.length === 0) return undefined;
    const [head, ...params] = arr;
    if (head === '') return params.map((p) => this.resolve(p, depth + 1) ?? '').join('');
    if (head === '?') {
      for (const p of params) {
        const t = this.resolve(p, depth + 1);
        if (t) return t;
      }
      return undefined;
    }
    if (typeof head !== 'string') return undefined;
    const dot = head.indexOf('.');
    if (dot <= 0) return undefined;
    return this.key(head.slice(0, dot), head.slice(dot + 1), params, depth);
  }
}

/** `["fluid-name.crude-oil"]` → "Crude oil"; the first alternative of a `"?"` list; undefined for anything else. */
function readableKey(ls: unknown): string | undefined {
  if (!Array.isArray(ls) || typeof ls[0] !== 'string') return undefined;
  if (ls[0] === '?') {
    for (const alt of ls.slice(1)) {
      const t = readableKey(alt);
      if (t) return t;
    }
    return undefined;
  }
  const dot = ls[0].indexOf('.');
  return dot > 0 ? humanize(ls[0].slice(dot + 1)) : undefined;
}
