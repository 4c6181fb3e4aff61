// Live-game tools (read the running game through the bridge) and the developer tools MCP clients
// may use when enabled (run Lua directly, screenshots, reload mods, drive the in-game summary).
// Without a connected (and paired) game a call answers {ok:false, code, error}; runTool reports that
// as the tool failing (code no-game), so every host shows an error.
import { z } from 'zod';
import { defineTool, plural, type AnyTool, type ToolContext } from '../types';
import type { GameLink } from '../../../bridge/gameLink';
import type { ShowBlockPayload } from '../../../bridge/showBlock';
import { planning, solverFor } from '../context';
import { getBlock } from '../../../planning/factory/blocks';
import { beaconsPlaced, productAmount } from '../../../planning/effects';
import type { PlanningContext } from '../../../planning/context';
import type { SolveResult } from '../../../planning/solver/result';
import { RELOAD_CONFIRM_TOKEN } from '../../../bridge/protocol';
import { CROP_RE, SCALE_RE } from '../../../bridge/screenshot';

const NO_GAME = {
  ok: false as const,
  code: 'no-peer',
  error: 'No game is connected. Ask the user to start Factorio with --enable-lua-udp <port> and the PyOps Link mod (see "PyOps: Show Game Link Status"); meanwhile use productionStats / blockBuildStatus for the last sync.',
};

function link(ctx: ToolContext): GameLink | undefined {
  return ctx.game as GameLink | undefined;
}

const name = z.string().trim().min(1).max(200);

export const liveTools: AnyTool[] = [
  defineTool({
    name: 'gameContext',
    displayName: 'Game context',
    tier: 'live',
    tags: ['game'],
    description: "Where the player is in the connected game: player, force, surface, position, tick and the selected (or last hovered) entity with its recipe and status. Call it first when the user talks about 'this machine' or 'here'.",
    input: z.object({}),
    run: async (_i, ctx) => (await link(ctx)?.gameContext()) ?? NO_GAME,
    describe: (_i, o) => (o.ok ? 'Read the game context' : 'Could not read the game context'),
  }),
  defineTool({
    name: 'gameInspectArea',
    displayName: 'Inspect game area',
    tier: 'live',
    tags: ['game'],
    description: "The player's own entities in a square around a point (radius 1–64 tiles, default 16; at most 60 entities, `truncated` says when more exist): name, type, position, recipe, status. Use for questions about a specific part of the base.",
    input: z.object({ x: z.number().finite(), y: z.number().finite(), radius: z.number().int().min(1).max(64).default(16), surface: name.optional() }),
    run: async (i, ctx) => (await link(ctx)?.inspectArea(i)) ?? NO_GAME,
    describe: (i, o) => (o.ok ? `Inspected ${i.radius} tiles around ${i.x}, ${i.y}` : 'Could not inspect the area'),
  }),
  defineTool({
    name: 'gameFindEntities',
    displayName: 'Find game entities',
    tier: 'live',
    tags: ['game'],
    description: 'How many entities of one prototype the player has on a surface, with up to `limit` sample positions (1–50, default 20). For built-vs-planned comparisons prefer blockBuildStatus.',
    input: z.object({ name, surface: name.optional(), limit: z.number().int().min(1).max(50).default(20) }),
    run: async (i, ctx) => (await link(ctx)?.findEntities(i)) ?? NO_GAME,
    describe: (i, o) => (o.ok && 'count' in o ? `Found ${o.count} × ${i.name}` : `Could not count ${i.name}`),
  }),
  defineTool({
    name: 'gameProduction',
    displayName: 'Live production',
    tier: 'live',
    tags: ['game'],
    description: 'Live production and consumption per second (one-minute average, all surfaces) of up to 20 goods in the connected game. Without a game, productionStats gives the last synced numbers.',
    input: z.object({ goods: z.array(name).min(1).max(20) }),
    run: async (i, ctx) => (await link(ctx)?.production(i.goods)) ?? NO_GAME,
    describe: (i, o) => (o.ok ? `Read live production of ${plural(i.goods.length, 'good')}` : 'Could not read live production'),
  }),
];

/** The in-game summary panel payload for a solved block. */
export function summaryPayload(pc: PlanningContext, block: { id: string; name: string }, r: SolveResult): ShowBlockPayload {
  const g = pc.g;
  const flow = (f: { good: string; rate: number; kind: 'item' | 'fluid' }) => ({ name: f.good, kind: f.kind, rate: f.rate, display: g.displayOf(f.good) });
  return {
    blockId: block.id,
    name: block.name,
    powerW: r.powerW,
    heatW: r.heatW,
    recipes: r.rows.filter((x) => x.machine).slice(0, 60).map((x) => {
      const rec = g.recipes.get(x.recipe);
      const prodMult = 1 + (x.effects.productivity ?? 0);
      return {
        recipe: x.recipe, recipeDisplay: x.display, machine: x.machine!, machineDisplay: x.machineDisplay ?? undefined, count: x.wholeBuildings,
        modules: x.modules.flatMap((m) => Array(m.count).fill(m.name)),
        beacons: (x.beacons ?? []).map((b) => ({ beacon: b.beacon, count: beaconsPlaced(b, x.buildings), modules: b.modules.flatMap((m) => Array(m.count).fill(m.name)) })),
        products: (rec?.products ?? []).slice(0, 20).map((p) => ({ name: p.name, kind: p.kind, rate: productAmount(p, prodMult) * x.craftsPerSecond, display: g.displayOf(p.name) })),
        ingredients: (rec?.ingredients ?? []).slice(0, 20).map((p) => ({ name: p.name, kind: p.kind, rate: p.amount * x.craftsPerSecond, display: g.displayOf(p.name) })),
      };
    }),
    inputs: r.imports.filter((f) => !f.good.startsWith('pyops-')).slice(0, 60).map(flow),
    outputs: [...r.goals, ...r.byproducts].filter((f) => !f.good.startsWith('pyops-')).slice(0, 60).map(flow),
  };
}

export const developerTools: AnyTool[] = [
  defineTool({
    name: 'gameEval',
    displayName: 'Run Lua in the game',
    tier: 'developer',
    surfaces: ['mcp'],
    tags: ['game', 'developer'],
    description: 'Runs Lua in the connected game and returns a bounded repr of the result (8 s timeout). The mod refuses unless its "Allow app-driven Lua eval" setting is on and the game is single-player.',
    input: z.object({ code: z.string().trim().min(1).max(8000) }),
    run: async (i, ctx) => (await link(ctx)?.eval(i.code)) ?? NO_GAME,
    describe: (_i, o) => (o.ok ? 'Ran Lua in the game' : 'Lua eval failed'),
  }),
  defineTool({
    name: 'gameScreenshot',
    displayName: 'Game screenshot',
    tier: 'developer',
    tags: ['game', 'developer'],
    surfaces: ['mcp'],
    description: 'Takes a screenshot of the game (through eval, so eval must be allowed), optionally cropped ("WxH+X+Y") and scaled ("50%" or a width in px); returns the file path.',
    input: z.object({ crop: z.string().regex(CROP_RE, 'crop is WxH+X+Y').optional(), scale: z.string().regex(SCALE_RE, 'scale is like 50% or 800px').optional() }),
    run: async (i, ctx) => (await link(ctx)?.screenshot(i)) ?? NO_GAME,
    describe: (_i, o) => (o.ok ? 'Took a game screenshot' : 'Screenshot failed'),
  }),
  defineTool({
    name: 'gameReloadMods',
    displayName: 'Reload game mods',
    tier: 'developer',
    tags: ['game', 'developer'],
    surfaces: ['mcp'],
    description: `Reloads the mods' Lua (not prototypes) on the next tick, then the mod resyncs. Needs confirm = "${RELOAD_CONFIRM_TOKEN}".`,
    input: z.object({ confirm: z.literal(RELOAD_CONFIRM_TOKEN) }),
    run: async (i, ctx) => (await link(ctx)?.reloadMods(i.confirm)) ?? NO_GAME,
    describe: (_i, o) => (o.ok ? 'Scheduled a mod reload' : 'Mod reload refused'),
  }),
  defineTool({
    name: 'gameShowBlock',
    displayName: 'Show block in game',
    tier: 'developer',
    tags: ['game', 'developer'],
    surfaces: ['mcp'],
    description: "Opens the in-game summary panel for one of the user's blocks (machines, modules, inputs and outputs per second).",
    input: z.object({ blockId: z.string().min(1) }),
    run: async (i, ctx) => {
      const l = link(ctx);
      if (!l) return NO_GAME;
      const pc = planning(ctx);
      const b = getBlock(ctx.project, i.blockId);
      const r = await solverFor(pc)(b.doc);
      return l.showBlock(summaryPayload(pc, b, r));
    },
    describe: (i, o) => (o.ok ? `Showed block ${i.blockId} in the game` : 'Could not show the block'),
  }),
  defineTool({
    name: 'gameCloseSummary',
    displayName: 'Close in-game summary',
    tier: 'developer',
    tags: ['game', 'developer'],
    surfaces: ['mcp'],
    description: 'Closes the in-game block summary panel.',
    input: z.object({}),
    run: async (_i, ctx) => (await link(ctx)?.hideBlock()) ?? NO_GAME,
    describe: (_i, o) => (o.ok ? 'Closed the in-game summary' : 'Could not close the summary'),
  }),
];
