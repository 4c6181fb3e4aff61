// The `languageModelTools` contribution of package.json, derived from the registry so the two
// cannot drift (a test compares them; `npm run manifest` rewrites package.json). VS Code allows few
// tools per request, so only batch-friendly read, proposal, live and task tools are contributed.
import type { AnyTool } from './types';
import { mcpTools, toolsFor } from './registry';
import { toJsonSchema } from './schema';

/** Registry tools not offered to VS Code (a batch tool or another tool covers them). */
export const NOT_IN_VSCODE = new Set(['recipeOptions', 'availableTurds', 'listNotes', 'addTaskStep', 'linkTask', 'productionStats']);
/**
 * Agent mode offers at most 128 tools per request across every extension and MCP server. PyOps keeps
 * to a small share of that: its tools are offered once (see vscodeMcpTools), so this is all of them.
 */
export const MAX_VSCODE_TOOLS = 36;

export const vscodeToolName = (name: string) => `pyops_${name}`;
export const referenceName = (name: string) => `pyops${name[0].toUpperCase()}${name.slice(1)}`;

export function vscodeTools(): AnyTool[] {
  return toolsFor('app').filter((t) => !NOT_IN_VSCODE.has(t.name) && t.tier !== 'developer');
}

/**
 * What the embedded MCP server's definition offers VS Code itself: the MCP tools that are not already
 * language-model tools, so Copilot agent mode — whose picker holds at most 128 tools — lists each PyOps
 * tool once. Tools left out of VS Code on purpose (NOT_IN_VSCODE) stay out here too. Tools are
 * compared by definition, not by name: the developer `gameEval` runs Lua directly, unlike the in-app
 * one of the same name that only proposes it. `pyops mcp` and other clients keep `mcpTools`.
 */
export function vscodeMcpTools(developerTools: boolean): AnyTool[] {
  const asLmTools = new Set(vscodeTools());
  return mcpTools(developerTools).filter((t) => !asLmTools.has(t) && !NOT_IN_VSCODE.has(t.name));
}

export interface LanguageModelToolContribution {
  name: string;
  toolReferenceName: string;
  displayName: string;
  modelDescription: string;
  userDescription: string;
  canBeReferencedInPrompt: boolean;
  icon: string;
  tags: string[];
  inputSchema: Record<string, unknown>;
}

const ICON: Record<string, string> = { read: '$(search)', proposal: '$(lightbulb)', write: '$(edit)', live: '$(plug)' };

export function languageModelToolsContribution(): LanguageModelToolContribution[] {
  const tools = vscodeTools();
  if (tools.length > MAX_VSCODE_TOOLS) throw new Error(`${tools.length} tools for VS Code; at most ${MAX_VSCODE_TOOLS}`);
  return tools.map((t) => ({
    name: vscodeToolName(t.name),
    toolReferenceName: referenceName(t.name),
    displayName: `PyOps: ${t.displayName}`,
    modelDescription: t.description,
    userDescription: t.description.split(/(?<=\.)\s/)[0],
    canBeReferencedInPrompt: true,
    icon: ICON[t.tier] ?? '$(tools)',
    tags: ['pyops', 'factorio', t.tier, ...(t.tags ?? [])],
    inputSchema: toJsonSchema(t.input),
  }));
}
