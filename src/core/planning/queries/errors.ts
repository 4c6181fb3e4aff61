// Errors a model can act on: an unknown name says what it is not, suggests the closest real names
// and which query to call first. The tool runner maps QueryError to a "not-found" outcome.
import type { z } from 'zod';
import type { Beacon, Good, Module, Recipe } from '../gameIndex';
import type { PlanningContext } from '../context';
import { findNames, nameIndex, type NameKind } from './names';

export class QueryError extends Error {
  constructor(
    message: string,
    /** Closest real names, best first. */
    readonly suggestions: string[] = [],
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

/** Up to `n` closest names of a kind, exclusions applied. */
export function suggest(ctx: PlanningContext, kind: NameKind, query: string, n = 3): string[] {
  const a = ctx.availability;
  const entries = nameIndex(ctx.g, kind);
  const keep = (e: { name: string }) => !a.isExcluded(e.name);
  const whole = findNames(entries, query, keep).slice(0, n).map((h) => h.entry.name);
  if (whole.length) return whole;
  // Nothing close to the whole text: offer the best match of each word instead.
  const out: string[] = [];
  for (const word of query.split(/[^\p{L}\p{N}]+/u).filter((x) => x.length >= 3)) {
    const best = findNames(entries, word, keep)[0];
    if (best && !out.includes(best.entry.name)) out.push(best.entry.name);
  }
  return out.slice(0, n);
}

const didYouMean = (s: string[]) => (s.length ? `did you mean ${s.join(', ')}?` : 'nothing similar exists;');

export function requireGood(ctx: PlanningContext, name: string): Good {
  const x = ctx.g.goods.get(name);
  if (x) return x;
  const s = suggest(ctx, 'good', name);
  const also = ctx.g.recipes.has(name) ? ` ('${name}' is a recipe; call recipeInfo for it)` : ctx.g.technologies.has(name) ? ` ('${name}' is a technology)` : '';
  throw new QueryError(`no good named '${name}'${also}; ${didYouMean(s)} call searchGoods first`, s);
}

export function requireRecipe(ctx: PlanningContext, name: string): Recipe {
  const r = ctx.g.recipes.get(name);
  if (r) return r;
  if (ctx.g.goods.has(name)) {
    const makers = ctx.g.producersOf(name).slice(0, 4);
    throw new QueryError(
      `no recipe named '${name}'; '${name}' is a good${makers.length ? ` made by ${makers.join(', ')}` : ' that no recipe makes'}; call recipeOptions for its producers`,
      makers,
    );
  }
  const s = suggest(ctx, 'recipe', name);
  throw new QueryError(`no recipe named '${name}'; ${didYouMean(s)} call searchGoods, then recipeOptions, to find recipe names`, s);
}

export function requireModule(ctx: PlanningContext, name: string): Module {
  const m = ctx.g.modules.get(name);
  if (m) return m;
  const s = suggest(ctx, 'module', name);
  throw new QueryError(`no module named '${name}'; ${didYouMean(s)} call recipeInfo to see the modules that fit`, s);
}

export function requireBeacon(ctx: PlanningContext, name: string): Beacon {
  const b = ctx.g.beacons.get(name);
  if (b) return b;
  const s = suggest(ctx, 'beacon', name);
  throw new QueryError(`no beacon named '${name}'; ${didYouMean(s)}`, s);
}

/** Parse a query input with its schema (defaults applied); a bad input is a QueryError naming the fields. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, query: string): z.output<S> {
  const r = schema.safeParse(raw ?? {});
  if (r.success) return r.data;
  const what = r.error.issues
    .slice(0, 6)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : 'input'}: ${i.message}`)
    .join('; ');
  throw new QueryError(`invalid input for ${query}: ${what}`);
}
