// The registry: every assistant tool in one list, consumed by the agent loop, vscode.lm tools,
// the MCP server and `pyops tool`. Surfaces filter it (the in-app assistant proposes game eval;
// MCP clients get the developer tools instead).
import type { AnyTool, ToolSurface, ToolTier } from './types';
import { planningTools } from './defs/planning';
import { factoryTools } from './defs/factory';
import { proposalTools } from './defs/proposals';
import { workTools } from './defs/work';
import { developerTools, liveTools } from './defs/live';

let extra: AnyTool[] = [];

/** Extra tools (tests, embedders); a tool of the same name replaces the earlier one. */
export function registerTools(tools: AnyTool[]): void {
  const names = new Set(tools.map((t) => t.name));
  extra = [...extra.filter((t) => !names.has(t.name)), ...tools];
}

export function allTools(): AnyTool[] {
  const list = [...planningTools, ...factoryTools, ...proposalTools, ...workTools, ...liveTools, ...developerTools, ...extra];
  const seen = new Set<string>();
  for (const t of list) {
    if (seen.has(`${t.name}\0${(t.surfaces ?? ['app', 'mcp']).join()}`)) throw new Error(`tool ${t.name} is registered twice`);
    seen.add(`${t.name}\0${(t.surfaces ?? ['app', 'mcp']).join()}`);
  }
  return list;
}

export function toolsFor(surface: ToolSurface): AnyTool[] {
  return allTools().filter((t) => (t.surfaces ?? ['app', 'mcp']).includes(surface));
}

export function findTool(name: string, surface: ToolSurface = 'app'): AnyTool | undefined {
  return toolsFor(surface).find((t) => t.name === name);
}

export const TIER_ORDER: ToolTier[] = ['read', 'proposal', 'write', 'live', 'developer'];
