// The tool contract. Each assistant tool is declared once — name, trust tier, model-facing
// description, zod input, bounded executor — and that single definition feeds the AI SDK agent
// loop, vscode.lm.registerTool, the MCP server and `pyops tool`.
import type { z } from 'zod';
import type { Project } from '../../db/project';

/**
 * read: looks, never changes anything · proposal: solves and returns a draft, changes no block (a draft
 * made from agent mode or MCP is kept as a pending proposal, see keepForPanel) ·
 * write: one reversible (undoable) change per call · live: reads the running game ·
 * developer: drives the game directly (MCP only).
 */
export type ToolTier = 'read' | 'proposal' | 'write' | 'live' | 'developer';

/** Where a tool is offered: the in-app assistant (chat, LM tools, CLI) and/or MCP clients. */
export type ToolSurface = 'app' | 'mcp';

export interface ToolContext {
  project: Project;
  /** Live game access; absent when no bridge runs in this process. */
  game?: unknown;
  signal?: AbortSignal;
  /** Who is calling, for results that differ (e.g. gameEval proposes in-app, runs over MCP). `cli` is
   *  `pyops ask` (an agent turn with a conversation); `terminal` a direct `pyops tool` call. */
  caller: 'agent' | 'vscode' | 'mcp' | 'cli' | 'terminal';
}

export interface ToolDefinition<S extends z.ZodObject = z.ZodObject, O = unknown> {
  /** Stable internal name, camelCase (domain.md D). */
  name: string;
  /** Short human title. */
  displayName: string;
  tier: ToolTier;
  /** For the model: when to call it, what the result means, what not to use it for, which batch tool to prefer. */
  description: string;
  input: S;
  surfaces?: ToolSurface[];
  /** Keywords for VS Code tool sets. */
  tags?: string[];
  run(input: z.output<S>, ctx: ToolContext): O | Promise<O>;
  /**
   * What a model reads of the result, when that is less than hosts need (a draft keeps its block
   * document and duplicate views for the cards and Apply; the model needs neither). The size cap
   * applies to this view.
   */
  forModel?(output: O): unknown;
  /** Past-tense progress line for the transcript ("Solved block 'Coke' — 12 buildings"). */
  describe?(input: z.output<S>, output: O): string;
}

export type AnyTool = ToolDefinition<z.ZodObject, unknown>;

export type ToolOutcome =
  | { ok: true; result: unknown; summary: string; /** The model's view of `result` (see ToolDefinition.forModel); absent = the result itself. */ view?: unknown }
  | { ok: false; error: string; code: 'invalid-input' | 'not-found' | 'too-large' | 'failed' | 'no-game' | 'read-only'; preview?: string; summary: string };

/** Declare a tool with its input type inferred from the schema. */
export function defineTool<S extends z.ZodObject, O>(def: ToolDefinition<S, O>): AnyTool {
  return def as unknown as AnyTool;
}

/** "1 block", "3 blocks", "2 matches": counts in the past-tense summaries users see. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** What a model reads of a successful outcome. */
export function modelView(outcome: Extract<ToolOutcome, { ok: true }>): unknown {
  return 'view' in outcome && outcome.view !== undefined ? outcome.view : outcome.result;
}

/**
 * The text a model receives for an outcome, as MCP and the VS Code language-model tools send it (the
 * agent sends the same JSON for a result): the compact JSON of the model's view, or of the error.
 */
export function modelText(outcome: ToolOutcome): string {
  if (outcome.ok) return JSON.stringify(modelView(outcome) ?? null);
  return JSON.stringify({ error: outcome.error, code: outcome.code, ...(outcome.preview ? { preview: outcome.preview } : {}) });
}
