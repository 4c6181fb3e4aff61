// Name lookup shared by searchGoods and the "did you mean" part of every unknown-name error: a
// normalized index (lowercase, punctuation, `-`, `_` and spaces removed) over internal and
// localized names, built once per game index and kind of thing (goods, recipes, technologies, …).
import type { GameIndex } from '../gameIndex';

export type NameKind = 'good' | 'recipe' | 'technology' | 'machine' | 'module' | 'beacon';

export interface NameEntry {
  name: string;
  display: string;
  /** item | fluid for goods, else the NameKind. */
  kind: string;
  hidden: boolean;
  /** Recipes touching it (goods) — a popularity tie-break so common goods come first. */
  weight: number;
  nName: string;
  nDisplay: string;
  /** Lowercase words of the internal and localized names (for word-start matches). */
  words: string[];
}

export type MatchTier = 'exact' | 'prefix' | 'word' | 'substring' | 'words' | 'fuzzy' | 'some-words';
const TIER_ORDER: Record<MatchTier, number> = { exact: 0, prefix: 1, word: 2, substring: 3, words: 4, fuzzy: 5, 'some-words': 6 };

export interface NameHit {
  entry: NameEntry;
  tier: MatchTier;
  /** Lower is closer (length difference of the matched field, or the edit distance). */
  closeness: number;
}

/** The normal form every comparison uses. */
export function normalizeName(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function wordsOf(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * An entry of the index. Only the normal forms are made up front, since every query compares them;
 * the words and the weight are made on first use: a query reads the words of the few names it hits
 * and the weight of the hits it ranks, and a good's weight needs the producer and consumer lists,
 * which a fresh `pyops tool searchGoods` process then does not decode from the index snapshot.
 */
class IndexedName implements NameEntry {
  readonly nName: string;
  readonly nDisplay: string;
  private words_: string[] | undefined;
  private weight_: number | (() => number);

  constructor(
    readonly name: string,
    readonly display: string,
    readonly kind: string,
    readonly hidden: boolean,
    weight: number | (() => number),
  ) {
    this.nName = normalizeName(name);
    this.nDisplay = normalizeName(display);
    this.weight_ = weight;
  }

  get words(): string[] {
    return (this.words_ ??= [...new Set([...wordsOf(this.name), ...wordsOf(this.display)])]);
  }

  get weight(): number {
    if (typeof this.weight_ === 'function') this.weight_ = this.weight_();
    return this.weight_;
  }
}

const indexes = new WeakMap<GameIndex, Map<NameKind, NameEntry[]>>();

export function nameIndex(g: GameIndex, kind: NameKind): NameEntry[] {
  let byKind = indexes.get(g);
  if (!byKind) {
    byKind = new Map();
    indexes.set(g, byKind);
  }
  const hit = byKind.get(kind);
  if (hit) return hit;
  const out: NameEntry[] = [];
  const add = (name: string, display: string, k: string, hidden: boolean, weight: number | (() => number)) => out.push(new IndexedName(name, display, k, hidden, weight));
  switch (kind) {
    case 'good':
      for (const x of g.goods.values()) add(x.name, x.display, x.kind, x.hidden, () => g.producersOf(x.name).length + g.consumersOf(x.name).length);
      break;
    case 'recipe':
      for (const r of g.recipes.values()) add(r.name, r.display, 'recipe', r.hidden, r.ingredients.length + r.products.length);
      break;
    case 'technology':
      for (const t of g.technologies.values()) add(t.name, t.display, 'technology', t.hidden, t.unlocks.length);
      break;
    case 'machine':
      for (const m of g.machines.values()) add(m.name, m.display, 'machine', m.hidden, m.categories.length);
      break;
    case 'module':
      for (const m of g.modules.values()) add(m.name, m.display, 'module', m.hidden, 0);
      break;
    case 'beacon':
      for (const b of g.beacons.values()) add(b.name, b.display, 'beacon', b.hidden, 0);
      break;
  }
  byKind.set(kind, out);
  return out;
}

/** A query word found in a name, a plural `s` forgiven ("plates" finds iron-plate). */
function hasWord(e: NameEntry, w: string): boolean {
  if (e.nName.includes(w) || e.nDisplay.includes(w)) return true;
  if (w.length <= 3 || !w.endsWith('s')) return false;
  const stem = w.slice(0, -1);
  return e.nName.includes(stem) || e.nDisplay.includes(stem);
}

/** Query words long enough to mean something on their own. */
const MIN_SOME_WORD = 3;

/**
 * Ranked matches: visible before hidden (hidden goods are internal: a user's words rarely mean them),
 * then exact > prefix > word start > substring > all words in any order; then closer before looser,
 * more used before less, then name. Edit-distance matches are tried only when nothing else matched
 * (`fuzzy`), and when even those fail, names holding some of the words (`some-words`, most words
 * first) — so words that match something never give an empty answer.
 */
export function findNames(entries: NameEntry[], query: string, keep: (e: NameEntry) => boolean = () => true, fuzzy = true): NameHit[] {
  const q = normalizeName(query);
  if (!q) return [];
  const qWords = wordsOf(query);
  const hits: NameHit[] = [];
  for (const e of entries) {
    let tier: MatchTier | null = null;
    let closeness = 0;
    if (e.nName === q || e.nDisplay === q) tier = 'exact';
    else if (e.nName.startsWith(q) || e.nDisplay.startsWith(q)) {
      tier = 'prefix';
      closeness = Math.min(e.nName.startsWith(q) ? e.nName.length : Infinity, e.nDisplay.startsWith(q) ? e.nDisplay.length : Infinity) - q.length;
    } else if (e.nName.includes(q) || e.nDisplay.includes(q)) {
      tier = e.words.some((w) => w.startsWith(q)) ? 'word' : 'substring';
      closeness = Math.min(e.nName.includes(q) ? e.nName.length : Infinity, e.nDisplay.includes(q) ? e.nDisplay.length : Infinity) - q.length;
    } else if (qWords.length > 1 && qWords.every((w) => hasWord(e, w))) {
      tier = 'words';
      closeness = e.nDisplay.length;
    }
    if (tier && keep(e)) hits.push({ entry: e, tier, closeness });
  }
  if (!hits.length && fuzzy) {
    const max = Math.max(1, Math.min(3, Math.floor(q.length / 4)));
    for (const e of entries) {
      const d = Math.min(boundedDistance(q, e.nName, max), boundedDistance(q, e.nDisplay, max));
      if (d <= max && keep(e)) hits.push({ entry: e, tier: 'fuzzy', closeness: d });
    }
  }
  const some = qWords.filter((w) => w.length >= MIN_SOME_WORD);
  if (!hits.length && some.length) {
    for (const e of entries) {
      // Word starts only: a short word inside another ("red" in "powdered") is noise here.
      const found = some.filter((w) => e.words.some((x) => x.startsWith(w) || (w.endsWith('s') && w.length > MIN_SOME_WORD && x.startsWith(w.slice(0, -1))))).length;
      if (found && keep(e)) hits.push({ entry: e, tier: 'some-words', closeness: (some.length - found) * 1000 + e.nDisplay.length });
    }
  }
  hits.sort(
    (a, b) =>
      Number(a.entry.hidden) - Number(b.entry.hidden) ||
      TIER_ORDER[a.tier] - TIER_ORDER[b.tier] ||
      a.closeness - b.closeness ||
      b.entry.weight - a.entry.weight ||
      (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0),
  );
  return hits;
}

/** Levenshtein distance, or max + 1 as soon as it must exceed max. */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}
