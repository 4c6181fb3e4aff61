// searchGoods: free text → internal good names, over internal and localized names, visible before
// hidden, exact > prefix > word start > substring > all words in any order > near spellings > some
// of the words; case and `-`/`_`/space insensitive, exclusions applied. The normalized index is
// built once per game index (names.ts), so a query is one linear scan.
import type { PlanningContext } from '../context';
import { parseInput } from './errors';
import { findNames, nameIndex, type MatchTier } from './names';
import { searchGoodsInput, type SearchGoodsInput } from './schemas';

export interface SearchGoodsResult {
  query: string;
  matches: Array<{ name: string; display: string; kind: string; match: MatchTier }>;
  truncated: boolean;
  /** Set when nothing matched. */
  note?: string;
}

export function searchGoods(ctx: PlanningContext, raw: SearchGoodsInput): SearchGoodsResult {
  const input = parseInput(searchGoodsInput, raw, 'searchGoods');
  const a = ctx.availability;
  const hits = findNames(nameIndex(ctx.g, 'good'), input.query, (e) => !a.isExcluded(e.name));
  const matches = hits.slice(0, input.limit).map((h) => ({ name: h.entry.name, display: h.entry.display, kind: h.entry.kind, match: h.tier }));
  return {
    query: input.query,
    matches,
    truncated: hits.length > input.limit,
    ...(matches.length
      ? matches[0].match === 'some-words'
        ? { note: `nothing matches every word of '${input.query}'; these match some of them` }
        : {}
      : { note: `no good matches '${input.query}'; try a shorter or different word` }),
  };
}
