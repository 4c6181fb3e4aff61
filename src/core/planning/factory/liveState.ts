// Offline views of the last game sync: what is built against what blocks need, and production
// statistics. Both say when the snapshot was taken (null = never synced).
import type { Project } from '../../db/project';
import type { GameIndex } from '../gameIndex';
import { byBlock, getBlock, listBlocks, type BlockSolver } from './blocks';
import { factorySnapshot } from './fresh';

export interface BuildStatus {
  syncedAt: string | null;
  blocks: Array<{
    id: string;
    name: string;
    totalMissing: number | null;
    recipes: Array<{ recipe: string; machine: string; required: number; built: number | null; missing: number | null; machineFallback?: string }>;
  }>;
  truncated: boolean;
}

function syncedAt(p: Project, kind: string): { at: string | null; count: number } {
  const r = p.query<{ synced_at: string; count: number }>('SELECT synced_at, count FROM main.live_sync WHERE kind = ?', [kind])[0];
  return { at: r?.synced_at ?? null, count: r?.count ?? 0 };
}

/**
 * Built vs required machines, per block (required = ceiling of the current solve's count; stale
 * blocks are re-solved in memory like the other factory reads, nothing is written). Built machines
 * of one (machine, recipe) are claimed by the enabled blocks in their list order, so a block shows
 * the same numbers whether asked for alone or listed; a disabled block asked for by id claims only
 * what the enabled ones leave. Without a blockId, lists enabled blocks with a shortfall.
 */
export async function blockBuildStatus(p: Project, solve: BlockSolver, opts: { blockId?: string; limit?: number } = {}): Promise<BuildStatus> {
  const sync = syncedAt(p, 'built');
  const built = new Map<string, number>();
  const byRecipe = new Map<string, number>();
  for (const r of p.query<{ machine: string; recipe: string; count: number }>('SELECT machine, recipe, count FROM main.built_machines')) {
    built.set(`${r.machine}\0${r.recipe}`, r.count);
    byRecipe.set(r.recipe, (byRecipe.get(r.recipe) ?? 0) + r.count);
  }
  const blocks = listBlocks(p, { enabledOnly: true });
  if (opts.blockId && !blocks.some((b) => b.id === opts.blockId)) blocks.push(getBlock(p, opts.blockId));
  const need = byBlock((await factorySnapshot(p, solve, blocks)).machines);
  const out: BuildStatus['blocks'] = [];
  for (const b of blocks) {
    const rows = (need.get(b.id) ?? []).map((n) => {
      const required = Math.ceil(n.count - 1e-6);
      if (!sync.at) return { recipe: n.recipe, machine: n.machine, required, built: null, missing: null };
      const key = `${n.machine}\0${n.recipe}`;
      let have = built.get(key);
      let fallback: string | undefined;
      if (have === undefined && byRecipe.has(n.recipe)) {
        have = byRecipe.get(n.recipe)!;
        fallback = 'counted every machine running this recipe (none of the planned machine type is built)';
      }
      const claim = Math.min(have ?? 0, required);
      if (have !== undefined) {
        if (fallback) byRecipe.set(n.recipe, have - claim);
        else built.set(key, have - claim);
      }
      return { recipe: n.recipe, machine: n.machine, required, built: claim, missing: required - claim, ...(fallback ? { machineFallback: fallback } : {}) };
    });
    if (opts.blockId && b.id !== opts.blockId) continue;
    const totalMissing = sync.at ? rows.reduce((s, r) => s + (r.missing ?? 0), 0) : null;
    if (!opts.blockId && sync.at && !totalMissing) continue;
    out.push({ id: b.id, name: b.name, totalMissing, recipes: rows });
  }
  const limit = opts.limit ?? 10;
  return { syncedAt: sync.at, blocks: out.slice(0, limit), truncated: out.length > limit };
}

export interface ProductionStats {
  syncedAt: string | null;
  syncedCount: number;
  stats: Array<{ name: string; display: string; kind: string; produced: number; consumed: number }>;
  unknown: string[];
}

/** Last synced per-second production and consumption of the given goods. */
export function productionStats(p: Project, g: GameIndex, goods: string[]): ProductionStats {
  const sync = syncedAt(p, 'stats');
  const rows = new Map(p.query<{ name: string; kind: string; produced: number; consumed: number }>('SELECT name, kind, produced, consumed FROM main.production_stats').map((r) => [r.name, r]));
  const stats: ProductionStats['stats'] = [];
  const unknown: string[] = [];
  for (const name of goods) {
    const good = g.goods.get(name);
    if (!good) {
      unknown.push(name);
      continue;
    }
    const r = rows.get(name);
    stats.push({ name, display: good.display, kind: good.kind, produced: r?.produced ?? 0, consumed: r?.consumed ?? 0 });
  }
  return { syncedAt: sync.at, syncedCount: sync.count, stats, unknown };
}
