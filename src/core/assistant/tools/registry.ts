// The registry: every assistant tool in one list, consumed by the agent loop, vscode.lm tools,
// the MCP server and `pyops tool`. Surfaces filter it (the in-app assistant proposes game eval;
// MCP clients get the developer tools instead).
import type { AnyTool, ToolSurface, ToolTier } from './types';
import { planningTools } from './defs/planning';
import { factoryTools } from './defs/factory';
import { proposalTools } from './defs/proposals';
import { workTools } from './defs/work';
import { settingsTools } from './defs/settings';
import { developerTools, liveTools } from './defs/live';

/** Where a tool is offered; a tool without `surfaces` is on all of them. */
export function surfacesOf(t: AnyTool): readonly ToolSurface[] {
  return t.surfaces ?? ['app', 'mcp'];
}

// Built once: the defs never import the registry, so every list is ready at module load. Two
// tools may share a name only when they are offered on different surfaces.
const ALL: readonly AnyTool[] = (() => {
  const list = [...planningTools, ...factoryTools, ...proposalTools, ...workTools, ...settingsTools, ...liveTools, ...developerTools];
  const seen = new Set<string>();
  for (const t of list) {
    const key = `${t.name}\0${surfacesOf(t).join()}`;
    if (seen.has(key)) throw new Error(`tool ${t.name} is registered twice`);
    seen.add(key);
  }
  return list;
})();

const bySurface = new Map<ToolSurface, readonly AnyTool[]>();

export function allTools(): readonly AnyTool[] {
  return ALL;
}

export function toolsFor(surface: ToolSurface): readonly AnyTool[] {
  let list = bySurface.get(surface);
  if (!list) bySurface.set(surface, (list = ALL.filter((t) => surfacesOf(t).includes(surface))));
  return list;
}

/** What an MCP client is offered: the MCP surface, developer tools only when the user turned them on. */
export function mcpTools(developerTools: boolean): readonly AnyTool[] {
  return toolsFor('mcp').filter((t) => developerTools || t.tier !== 'developer');
}

export function findTool(name: string, surface: ToolSurface = 'app'): AnyTool | undefined {
  return toolsFor(surface).find((t) => t.name === name);
}

export const TIER_ORDER: ToolTier[] = ['read', 'proposal', 'write', 'live', 'developer'];
