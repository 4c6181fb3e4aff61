// Running a tool: validate the input (errors say which field and why), execute, turn every
// exception into a structured error the caller can act on, and cap the result size — an
// oversized result is an error with a short preview ("narrow your query"), never a silent cut.
import type { AnyTool, ToolContext, ToolOutcome } from './types';
import { ProjectError } from '../../db/errors';
import { BlockError } from '../../planning/factory/blocks';
import { TaskError } from '../../work/tasks';

/** Results above this many characters of JSON are refused (about 12k tokens). */
export const MAX_RESULT_CHARS = 48_000;
const PREVIEW_CHARS = 1_500;

export class ToolError extends Error {
  constructor(
    message: string,
    readonly code: Exclude<ToolOutcome, { ok: true }>['code'] = 'failed',
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export function formatZodIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string; code?: string }>): string {
  return issues
    .slice(0, 6)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : 'input'}: ${i.message}`)
    .join('; ');
}

/** Whether a finished call changed the project: a write, or a draft kept as a pending proposal. */
export function changesProject(tool: AnyTool, outcome: ToolOutcome): boolean {
  if (!outcome.ok) return false;
  if (tool.tier === 'write') return true;
  const pending = (outcome.result as { pending?: { id?: unknown } } | null)?.pending;
  return tool.tier === 'proposal' && typeof pending?.id === 'string';
}

/** Game-link failures (LinkResult codes) that mean "no usable game": the caller should connect or pair one. */
const NO_GAME_CODES = new Set(['no-peer', 'unpaired', 'stopped']);

/**
 * A live tool reports a failed game call as `{ok:false, code, error}` (gameLink's LinkResult).
 * That is the tool failing, so every host must see it as an error (MCP isError, CLI exit 1).
 */
function gameFailure(tool: AnyTool, result: unknown): ToolOutcome | undefined {
  if (tool.tier !== 'live' && tool.tier !== 'developer') return undefined;
  if (!result || typeof result !== 'object') return undefined;
  const r = result as { ok?: unknown; error?: unknown; code?: unknown };
  if (r.ok !== false || typeof r.error !== 'string') return undefined;
  const code = typeof r.code === 'string' && NO_GAME_CODES.has(r.code) ? 'no-game' : r.code === 'invalid-input' ? 'invalid-input' : 'failed';
  return { ok: false, code, error: r.error, summary: `${tool.displayName} failed: ${r.error.slice(0, 160)}` };
}

export async function runTool(tool: AnyTool, rawInput: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  const parsed = tool.input.safeParse(rawInput ?? {});
  if (!parsed.success) {
    const error = `Invalid input for ${tool.name}: ${formatZodIssues(parsed.error.issues)}. Fix these fields and call it again.`;
    return { ok: false, code: 'invalid-input', error, summary: `${tool.displayName}: invalid input` };
  }
  let result: unknown;
  try {
    result = await tool.run(parsed.data, ctx);
  } catch (err) {
    const notFound = (err as Error)?.name === 'QueryError' || ((err instanceof BlockError || err instanceof TaskError) && err.code === 'not-found');
    const code = err instanceof ToolError ? err.code : notFound ? 'not-found' : err instanceof ProjectError && err.code === 'read-only' ? 'read-only' : 'failed';
    const error = err instanceof Error ? err.message : String(err);
    return { ok: false, code, error, summary: `${tool.displayName} failed: ${error.slice(0, 160)}` };
  }
  const failed = gameFailure(tool, result);
  if (failed) return failed;
  // The cap is on what the model reads; hosts keep the whole result (a draft's document, for Apply).
  const view = tool.forModel ? tool.forModel(result) : undefined;
  const json = JSON.stringify(view ?? result);
  if (json !== undefined && json.length > MAX_RESULT_CHARS) {
    return {
      ok: false,
      code: 'too-large',
      error: `The result of ${tool.name} is too large (${json.length} characters, limit ${MAX_RESULT_CHARS}) — narrow your query (lower a limit, pick fewer goods, or a smaller depth).`,
      preview: json.slice(0, PREVIEW_CHARS),
      summary: `${tool.displayName}: result too large`,
    };
  }
  let summary = tool.displayName;
  try {
    summary = tool.describe ? tool.describe(parsed.data, result) : `Ran ${tool.displayName}`;
  } catch {
    // a summary is cosmetic; never fail a tool for it
  }
  return { ok: true, result, summary, ...(view !== undefined ? { view } : {}) };
}
