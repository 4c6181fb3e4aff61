// Running a tool: take any secret out of the input before anything can store or show it (a model
// may put the key into a task title), validate the input (errors say which field and why),
// execute, turn every exception into a structured error the caller can act on — a refused input
// is `invalid-input` wherever the refusal is found — and cap the result size: an oversized result
// is an error with a short preview ("narrow your query"), never a silent cut.
import { ZodError } from 'zod';
import type { AnyTool, ToolContext, ToolOutcome } from './types';
import { redactDeep, redactSecrets } from '../models/redact';
import { ProjectError } from '../../db/errors';
import { BlockError } from '../../planning/factory/blocks';
import { TaskError } from '../../work/tasks';

/** Results above this many characters of JSON are refused (about 12k tokens). */
export const MAX_RESULT_CHARS = 48_000;
const PREVIEW_CHARS = 1_500;

export class ToolError extends Error {
  constructor(
    message: string,
    readonly code: FailureCode = 'failed',
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

type FailureCode = Exclude<ToolOutcome, { ok: true }>['code'];

/**
 * What kind of failure an exception from a tool's run is. A check deeper down that refuses the
 * input (a task moved under itself, an update with nothing to change, a second schema) is the
 * caller's to fix, exactly like a field the tool's own schema refused.
 */
function failureCode(err: unknown): FailureCode {
  if (err instanceof ToolError) return err.code;
  if ((err as Error)?.name === 'QueryError') return 'not-found';
  if (err instanceof BlockError || err instanceof TaskError) return err.code === 'not-found' ? 'not-found' : err.code === 'invalid' ? 'invalid-input' : 'failed';
  if (err instanceof ZodError) return 'invalid-input';
  if (err instanceof ProjectError && err.code === 'read-only') return 'read-only';
  return 'failed';
}

export async function runTool(tool: AnyTool, rawInput: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  const parsed = tool.input.safeParse(redactDeep(rawInput ?? {}));
  if (!parsed.success) {
    const error = redactSecrets(`Invalid input for ${tool.name}: ${formatZodIssues(parsed.error.issues)}. Fix these fields and call it again.`);
    return { ok: false, code: 'invalid-input', error, summary: `${tool.displayName}: invalid input` };
  }
  let result: unknown;
  try {
    result = await tool.run(parsed.data, ctx);
  } catch (err) {
    const code = failureCode(err);
    const message = err instanceof ZodError ? `Invalid input for ${tool.name}: ${formatZodIssues(err.issues)}. Fix these fields and call it again.` : err instanceof Error ? err.message : String(err);
    const error = redactSecrets(message);
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
