// Where the benchmarks find real game data: ../shared/data beside the repository (never copied in),
// and which data set a run measures. `--data py` (the default) is the Py subset dump
// (py-hightech-2.0); `--data pysalf` is the full Pyanodons FactorioLab set (Alien Life and
// Alternative Energy included), imported through the same path. Every section — and any new one,
// such as the factory scenario — reads its data and its targets from BENCH_DATA.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SHARED_DATA = path.resolve(here, '..', '..', 'shared', 'data');
export const PY_DATA = path.join(SHARED_DATA, 'py-hightech-2.0-data-raw');

export interface BenchDataSet {
  /** As given to --data. */
  id: string;
  /** What the figures were measured on, for the output. */
  label: string;
  /** What importGameData reads (a dump folder or a FactorioLab data set folder). */
  source: string;
  /** The JSON file whose JSON.parse time the import is compared with. */
  parseFile: string;
  /** recipeGraph timing targets (those the data has are used). */
  graphTargets: string[];
  /** The scripted tool session: what a Py player early in the game asks for, per second. */
  sessionTargets: Array<{ good: string; rate: number; why: string }>;
  /** The late-game good the 100-recipe block (and the platform's draft) is walked down from. */
  chainTarget: string;
  /** Goods the 50-block factory is drafted from. */
  factoryTargets: string[];
  /** Why the icons section cannot run on this data, if it cannot. */
  noIcons?: string;
}

/** Deep Py targets both data sets have. */
const GRAPH = ['advanced-circuit', 'processing-unit', 'nexelit-plate', 'titanium-plate', 'intelligent-unit', 'low-density-structure', 'chemical-science-pack', 'super-alloy'];
const LATE = ['processing-unit', 'advanced-circuit', 'nexelit-plate', 'titanium-plate', 'low-density-structure', 'super-alloy', 'chemical-science-pack', 'intelligent-unit'];

export const DATA_SETS: Record<string, BenchDataSet> = {
  py: {
    id: 'py',
    label: 'py-hightech-2.0 (dump, Py subset)',
    source: PY_DATA,
    parseFile: path.join(PY_DATA, 'data-raw-dump.json'),
    graphTargets: GRAPH,
    sessionTargets: [
      { good: 'automation-science-pack', rate: 0.5, why: 'automation science' },
      { good: 'iron-plate', rate: 3, why: 'a smelted plate' },
      { good: 'coal-gas', rate: 10, why: 'a coal-processing fluid' },
    ],
    chainTarget: 'utility-science-pack',
    factoryTargets: LATE,
  },
  pysalf: {
    id: 'pysalf',
    label: 'factoriolab-pysalf (FactorioLab set, full Py incl. Alien Life and Alternative Energy)',
    source: path.join(SHARED_DATA, 'factoriolab-pysalf'),
    parseFile: path.join(SHARED_DATA, 'factoriolab-pysalf', 'data.json'),
    graphTargets: GRAPH,
    sessionTargets: [
      { good: 'automation-science-pack', rate: 0.5, why: 'automation science' },
      { good: 'moss', rate: 0.5, why: 'a farm product (moss farms and their moss modules)' },
      { good: 'scrude', rate: 10, why: 'a petroleum product (shale oil)' },
    ],
    chainTarget: 'utility-science-pack',
    factoryTargets: LATE,
    noIcons: 'a FactorioLab data set carries no icon specs (its sprite sheet is not read)',
  },
};

function chosen(): BenchDataSet {
  const argv = process.argv;
  const i = argv.findIndex((a) => a === '--data' || a.startsWith('--data='));
  const id = i < 0 ? 'py' : argv[i].startsWith('--data=') ? argv[i].slice(7) : argv[i + 1];
  const set = DATA_SETS[id ?? ''];
  if (!set) throw new Error(`--data ${id ?? ''}: unknown data set; use one of ${Object.keys(DATA_SETS).join(', ')}`);
  return set;
}

/** The data set of this run (`--data`, default py). */
export const BENCH_DATA: BenchDataSet = chosen();

export const benchDataPresent = (d: BenchDataSet = BENCH_DATA): boolean => fs.existsSync(d.parseFile);
