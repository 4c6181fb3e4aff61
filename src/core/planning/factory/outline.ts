// The factory at a glance, for the Factory view: blocks with their state, goals and building counts,
// tasks with their progress, notes, and the planning horizon with its research and TURD picks. Read
// from the cached projections only (no solving), so it is cheap enough to rebuild after every write.
import type { Project } from '../../db/project';
import type { GameIndex } from '../gameIndex';
import { blockMachines, byBlock, listBlocks, snapshotHeads, type BlockRecord } from './blocks';
import { goalRate } from '../block/document';
import { placedBuildings, rowsOfBlock } from './buildings';
import { listTasks, type TaskStatus } from '../../work/tasks';
import { noteHeads } from '../../work/notes';
import { targetScope } from '../makeClosure';
import { readPlanningState, type TargetScope } from '../settings';
import { presetSummaries } from '../modulePresets';
import { describeProvenance, readProvenance, shortProvenance } from '../../gamedata/provenance';

export type BlockState = 'solved' | 'infeasible' | 'error' | 'broken' | 'stale' | 'disabled';

export interface OutlineBlock {
  id: string;
  name: string;
  state: BlockState;
  /** Why the state is not `solved`, in words. */
  stateDetail?: string;
  goals: Array<{ good: string; display: string; rate: number; direction: 'produce' | 'consume'; stock: boolean }>;
  /** Whole buildings (each machine and recipe rounded up, beacon buildings included). */
  buildings: number;
  powerW: number | null;
  snapshots: Array<{ id: string; label: string; createdAt: string }>;
  updatedAt: string;
}

export interface FactoryOutline {
  blocks: OutlineBlock[];
  tasks: Array<{ id: string; parentId: string | null; title: string; status: TaskStatus; done: number; total: number }>;
  notes: Array<{ id: string; title: string; updatedAt: string }>;
  planning: {
    horizon: string; target: string | null;
    /** Horizon "target": its display name and what it covers (the automatic default resolved when game data is there). */
    targetDisplay: string | null; targetScope: TargetScope;
    packs: string[]; researched: number; turd: Array<{ master: string; branch: string; source: string }>;
    favoriteMachines: Array<{ category: string; machine: string; display: string }>;
    favoriteFuel: { name: string; display: string } | null;
    favoriteFluidFuel: { name: string; display: string } | null;
    exclusions: string[];
    /** "research" (from researched technologies), or a manual bonus in percent. */
    miningProductivity: { source: 'research' | 'manual'; percent: number };
    /** Module presets: name and contents in words. */
    presets: Array<{ id: string; name: string; summary: string }>;
    /** Which game data the project holds (a dump or a FactorioLab data set, its versions) and what its format lacks. */
    gameData: { short: string; text: string; lacks: string[] } | null;
  };
}

export function blockState(b: BlockRecord): { state: BlockState; detail?: string } {
  if (!b.enabled) return { state: 'disabled', detail: 'left out of the factory views' };
  if (!b.cache.fresh) return { state: 'stale', detail: 'solved under other game data, horizon or TURD picks; it re-solves when the project is open' };
  switch (b.cache.status) {
    case 'optimal':
      return { state: 'solved' };
    case 'infeasible':
      return { state: 'infeasible', detail: 'its goals and rules cannot all be met; open it for the diagnosis' };
    case 'broken':
      return { state: 'broken', detail: 'it names a recipe or good the game data does not have' };
    default:
      return { state: b.cache.status ? 'error' : 'stale', detail: b.cache.status ? 'the solver failed on it' : 'not solved yet' };
  }
}

export function factoryOutline(p: Project, g: GameIndex | undefined): FactoryOutline {
  const machines = byBlock(blockMachines(p));
  const snaps = new Map<string, OutlineBlock['snapshots']>();
  for (const s of snapshotHeads(p)) {
    const l = snaps.get(s.blockId) ?? [];
    l.push({ id: s.id, label: s.name ?? s.reason, createdAt: s.createdAt });
    snaps.set(s.blockId, l);
  }
  const display = (n: string) => g?.displayOf(n) ?? n;
  const blocks = listBlocks(p).map((b): OutlineBlock => {
    const { state, detail } = blockState(b);
    return {
      id: b.id, name: b.name, state, ...(detail ? { stateDetail: detail } : {}),
      goals: b.doc.goals.map((x) => {
        const r = goalRate(x);
        return { good: x.good, display: display(x.good), rate: Math.abs(r.rate), direction: r.direction, stock: r.stock };
      }),
      buildings: placedBuildings(rowsOfBlock(b.doc, machines.get(b.id) ?? [])).reduce((n, x) => n + x.count, 0),
      powerW: b.cache.powerW,
      snapshots: snaps.get(b.id) ?? [],
      updatedAt: b.updatedAt,
    };
  });
  const state = readPlanningState(p);
  return {
    blocks,
    tasks: listTasks(p).map((t) => ({ id: t.id, parentId: t.parentId, title: t.title, status: t.status, done: t.progress.done, total: t.progress.total })),
    notes: noteHeads(p).map((n) => ({ id: n.id, title: n.title, updatedAt: n.updatedAt })),
    planning: {
      horizon: state.settings.research_mode,
      target: state.settings.horizon_target ?? null,
      targetDisplay: state.settings.horizon_target ? display(state.settings.horizon_target) : null,
      targetScope: g ? targetScope(g, state.settings) : (state.settings.horizon_target_scope ?? 'research'),
      packs: state.settings.available_science_packs ?? [],
      researched: state.researched.size,
      turd: [...state.turd].map(([master, t]) => ({ master, branch: t.branch, source: t.source })).sort((a, b) => a.master.localeCompare(b.master)),
      favoriteMachines: Object.entries(state.settings.favorite_machines)
        .map(([category, machine]) => ({ category, machine, display: display(machine) }))
        .sort((a, b) => a.category.localeCompare(b.category)),
      favoriteFuel: state.settings.favorite_fuel ? { name: state.settings.favorite_fuel, display: display(state.settings.favorite_fuel) } : null,
      favoriteFluidFuel: state.settings.favorite_fluid_fuel ? { name: state.settings.favorite_fluid_fuel, display: display(state.settings.favorite_fluid_fuel) } : null,
      exclusions: state.settings.exclusions,
      miningProductivity: state.settings.mining_productivity,
      presets: presetSummaries(p, display),
      gameData: provenanceOf(p),
    },
  };
}

function provenanceOf(p: Project): FactoryOutline['planning']['gameData'] {
  const prov = readProvenance(p);
  return prov ? { short: shortProvenance(prov), text: describeProvenance(prov), lacks: prov.lacks } : null;
}
