// The game link as the proposals see it. The bridge owns the real link; this module only says
// whether a game is linked and what to do when none is there.
import type { GameLink, ShowBlockPayload } from '../../core/bridge';
import type { DraftView } from '../../webview/protocol';

export const NO_GAME_MESSAGE = 'No game is linked. Start Factorio with the PyOps Link mod (see "PyOps: Show Game Link Status"), load your save, and try again.';

export function gameState(link: GameLink | undefined): { linked: boolean; detail: string } {
  const s = link?.status();
  if (!s) return { linked: false, detail: 'The game link is not available in this window.' };
  if (s.linked) return { linked: true, detail: `Linked${s.player ? ` to ${s.player}` : ''}.` };
  return { linked: false, detail: NO_GAME_MESSAGE };
}

/** The in-game summary panel's payload for a draft (the mod lays it out; caps as in the bridge schema). */
export function showBlockPayload(d: DraftView, blockId?: string): ShowBlockPayload {
  const expand = (ms: Array<{ name: string; count: number }>) => ms.flatMap((m) => Array<string>(Math.max(0, Math.min(20, Math.round(m.count)))).fill(m.name)).slice(0, 20);
  const good = (f: { good: string; display: string; rate: number; kind?: 'item' | 'fluid' }) => ({ name: f.good, display: f.display, rate: f.rate, kind: f.kind ?? 'item' });
  return {
    ...(blockId ? { blockId } : {}),
    name: d.name.slice(0, 200) || 'Block',
    powerW: d.powerW,
    heatW: d.heatW,
    recipes: d.rows
      .filter((r) => r.machine)
      .slice(0, 60)
      .map((r) => ({
        recipe: r.recipe,
        recipeDisplay: r.display,
        machine: r.machine!,
        machineDisplay: r.machineDisplay ?? undefined,
        count: r.wholeBuildings,
        modules: expand(r.modules),
        beacons: r.beacons.slice(0, 10).map((b) => ({ beacon: b.beacon, count: b.count, modules: expand(b.modules) })),
      })),
    inputs: [...d.importsFromBlocks, ...d.importsExternal].slice(0, 60).map(good),
    outputs: [...d.goals.map((g) => ({ ...g, kind: 'item' as const })), ...d.byproducts].slice(0, 60).map(good),
  };
}
