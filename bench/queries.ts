// Planning-query benchmarks on the run's Py data set: searchGoods over 200 queries (exact internal
// names, localized names, prefixes, substrings, localized words) and recipeGraph at default bounds
// for several deep Py targets. Every call goes through planningContext(project), as a tool call does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project } from '../src/core/db/project';
import { importGameData } from '../src/core/gamedata/import';
import { planningContext } from '../src/core/planning/context';
import { recipeGraph } from '../src/core/planning/queries/recipeGraph';
import { searchGoods } from '../src/core/planning/queries/searchGoods';
import { median, percentile, round, time } from './stats';
import { BENCH_DATA } from './data';

export interface SearchBench {
  p50Ms: number;
  p95Ms: number;
  queries: number;
}

export interface RecipeGraphBench {
  p50Ms: number;
  runs: number;
  targets: string[];
}

let shared: Promise<{ project: Project; dir: string }> | undefined;

/** One project of the run's data set for the query, economy and session benchmarks (imported once, removed at exit). */
export function pyProject(): Promise<{ project: Project; dir: string }> {
  const PY = BENCH_DATA.source;
  if (!fs.existsSync(PY)) throw new Error(`${PY} is missing (the query benchmarks need the Py data)`);
  shared ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pyops-bench-q-'));
    const project = await Project.create(path.join(dir, 'bench.pyops'));
    await importGameData(project, PY);
    process.once('exit', () => {
      project.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    return { project, dir };
  })();
  return shared;
}

/** 200 deterministic queries drawn from the data: every fifth kind of query in turn. */
function searchQueries(project: Project): string[] {
  const { g } = planningContext(project);
  const goods = [...g.goods.values()].filter((x) => !x.synthetic).sort((a, b) => (a.name < b.name ? -1 : 1));
  const pick = (i: number) => goods[(i * 7919) % goods.length];
  const words = [...new Set(goods.flatMap((x) => x.display.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length >= 4))].sort();
  const out: string[] = [];
  for (let i = 0; out.length < 200; i++) {
    const x = pick(i);
    switch (i % 5) {
      case 0: out.push(x.name); break; // exact internal name
      case 1: out.push(x.display); break; // exact localized name
      case 2: out.push(x.name.slice(0, 3 + (i % 4))); break; // prefix
      case 3: out.push(x.name.slice(Math.floor(x.name.length / 3), Math.floor(x.name.length / 3) + 5)); break; // substring
      case 4: out.push(words[(i * 104729) % words.length]); break; // localized word
    }
  }
  return out;
}

export async function benchSearch(): Promise<SearchBench> {
  const { project } = await pyProject();
  const queries = searchQueries(project);
  searchGoods(planningContext(project), { query: 'warm-up' }); // builds the name index once
  const ms = queries.map((q) => time(() => searchGoods(planningContext(project), { query: q }))[1]);
  return { p50Ms: round(median(ms)), p95Ms: round(percentile(ms, 95)), queries: queries.length };
}

export const GRAPH_TARGETS = BENCH_DATA.graphTargets;

export async function benchRecipeGraph(rounds = 5): Promise<RecipeGraphBench> {
  const { project } = await pyProject();
  const { g } = planningContext(project);
  const targets = GRAPH_TARGETS.filter((t) => g.goods.has(t));
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) for (const target of targets) ms.push(time(() => recipeGraph(planningContext(project), { target }))[1]);
  return { p50Ms: round(median(ms)), runs: ms.length, targets };
}

// `node --import tsx bench/queries.ts` prints both figures.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const search = await benchSearch();
  const graph = await benchRecipeGraph();
  console.log(JSON.stringify({ search, recipeGraph: graph }));
  process.exit(0);
}
