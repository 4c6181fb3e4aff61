// Shared state of one normalization run: the raw dump, the output tables, display names, and the
// problems found so far. Problems are collected (not thrown one by one) so a bad dump is reported
// with every broken prototype the user would otherwise discover one import at a time.
import type { z } from 'zod';
import { emptyGameData, type GameData } from '../model';
import { LimitationLists } from '../limitationLists';
import { Localizer, type LocaleKind, type Prototype } from '../locale';
import { humanize, parseEnergy } from '../units';
import { compiled } from '../compiledSchema';

export type RawDump = Record<string, Record<string, unknown>>;

export const MAX_REPORTED_PROBLEMS = 20;

export class DumpError extends Error {
  constructor(
    readonly problems: string[],
    readonly total = problems.length,
    /** What was read: a dump, or another game-data source (a FactorioLab data set). */
    subject = 'game-data dump',
  ) {
    const shown = problems.slice(0, MAX_REPORTED_PROBLEMS);
    const more = total > shown.length ? `\n  … and ${total - shown.length} more` : '';
    super(`The ${subject} is not usable (${total} problem${total === 1 ? '' : 's'}):\n  ${shown.join('\n  ')}${more}`);
    this.name = 'DumpError';
  }
}

export class Ctx {
  readonly out: GameData = emptyGameData();
  readonly limitations = new LimitationLists(this.out.limitation_lists);
  readonly problems: string[] = [];
  readonly warnings: string[] = [];
  /** name → display, for goods; recipes fall back to their main product's display. */
  readonly goodDisplay = new Map<string, string>();
  readonly entityDisplay = new Map<string, string>();

  constructor(
    readonly raw: RawDump,
    readonly locale: Localizer,
  ) {}

  /**
   * Prototypes of one type, validated; invalid ones are recorded as problems and skipped. A
   * prototype filed under another key than its `name` is refused: every table keys rows by name,
   * and the game itself never writes such a dump.
   */
  protos<S extends z.ZodType>(type: string, schema: S): Array<z.output<S>> {
    const table = this.raw[type];
    if (!table) return [];
    const out: Array<z.output<S>> = [];
    for (const [key, value] of Object.entries(table)) {
      if (UNSAFE_KEYS.has(key)) {
        this.problem(`${type} "${key}": "${key}" is not a usable prototype name`);
        continue;
      }
      const r = compiled(schema).safeParse(value);
      if (r.success) {
        const name = (r.data as { name?: unknown }).name;
        if (typeof name === 'string' && name !== key) {
          this.problem(`${type} "${key}".name: found "${name}"; a prototype's name must be the key it is filed under ("${key}")`);
          continue;
        }
        out.push(r.data);
      } else {
        for (const issue of r.error.issues.slice(0, 3)) {
          const where = issue.path.length ? `.${issue.path.join('.')}` : '';
          this.problem(`${type} "${key}"${where}: ${issue.message}${found(value, issue.path)}`);
        }
      }
    }
    return out;
  }

  problem(msg: string): void {
    this.problems.push(msg);
  }

  warn(msg: string): void {
    if (this.warnings.length < 200) this.warnings.push(msg);
  }

  display(kind: LocaleKind, proto: Prototype, ...fallbacks: Array<() => string | undefined>): string {
    return this.locale.name(kind, proto, fallbacks) ?? humanize(proto.name);
  }

  /**
   * Energy string in W/J, reporting a problem (and returning 0) when it cannot be read or is not a
   * finite amount ≥ 0 (a negative usage would solve to negative power; "1e999W" overflows).
   */
  energy(value: unknown, where: string, unit: 'W' | 'J'): number {
    if (value === undefined || value === null) return 0;
    const v = parseEnergy(value, unit);
    if (v === undefined) {
      this.problem(`${where}: "${String(value)}" is not an energy value in ${unit} (like "150k${unit}")`);
      return 0;
    }
    if (!Number.isFinite(v) || v < 0) {
      this.problem(`${where}: found "${String(value)}"; an energy must be a finite amount of at least 0${unit}`);
      return 0;
    }
    return v;
  }
}

/** Keys that would reach an object's prototype instead of naming a prototype of the game. */
export const UNSAFE_KEYS = new Set(['__proto__']);

/** ` (found …)` for the value at a zod issue's path, so the message shows what the file holds. */
export function found(value: unknown, at: ReadonlyArray<PropertyKey>): string {
  let v = value;
  for (const k of at) {
    // Lua lists written as {"1": …} are renumbered by validation; then the path has no raw match.
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, k)) return '';
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  if (v === undefined || (typeof v === 'object' && v !== null)) return '';
  const text = JSON.stringify(v) ?? String(v);
  return ` (found ${text.length > 60 ? text.slice(0, 57) + '…' : text})`;
}

/** Tile footprint from a collision box ([[x1,y1],[x2,y2]]), rounded up to whole tiles. */
export function footprint(box: unknown): { width: number | null; height: number | null } {
  const b = Array.isArray(box) ? box : box && typeof box === 'object' ? Object.values(box) : undefined;
  if (!b || b.length !== 2) return { width: null, height: null };
  const p = (v: unknown) => (Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : []) as number[];
  const [a, c] = [p(b[0]), p(b[1])];
  if (a.length < 2 || c.length < 2) return { width: null, height: null };
  return { width: Math.ceil(c[0] - a[0] - 1e-6), height: Math.ceil(c[1] - a[1] - 1e-6) };
}

export const b = (v: boolean | undefined, dflt = false): number => ((v ?? dflt) ? 1 : 0);
export const json = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));
