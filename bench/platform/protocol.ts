// What the platform benchmark and its entry inside VS Code's extension host say to each other: the
// runner writes a job file before each page load, the entry answers in a result file. Both sides
// validate with zod (the files cross a process boundary), and the figures are computed here so
// they can be tested without VS Code.
import { z } from 'zod';
import { median, round } from '../stats';

/** One tool call of the memory launch, through vscode.lm.invokeTool (the registry the assistant uses). */
export const toolCallSchema = z.object({
  role: z.enum(['search', 'solve', 'draft']),
  tool: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

export const jobSchema = z.object({
  launch: z.number().int().min(0),
  /**
   * warmup: a first start (the sample project is imported into global storage) · activation: only
   * read the startup timing · memory: also open `pyProject` and run `tools`, measuring rss around them.
   */
  kind: z.enum(['warmup', 'activation', 'memory']),
  resultFile: z.string().min(1),
  readyTimeoutMs: z.number().int().positive(),
  pyProject: z.string().optional(),
  tools: z.array(toolCallSchema).optional(),
});
export type Job = z.infer<typeof jobSchema>;

const marksSchema = z.object({
  activated: z.number().optional(),
  sqlReady: z.number().optional(),
  projectOpen: z.number().optional(),
  panelResolved: z.number().optional(),
  panelReady: z.number().optional(),
  panelShowsProject: z.number().optional(),
});

export const startupSchema = z.object({
  project: z.string().nullable(),
  marks: marksSchema,
  activationToReadyMs: z.number().optional(),
  codeCache: z.enum(['used', 'stored', 'off']).optional(),
  codeLoadMs: z.number().optional(),
});
export type Startup = z.infer<typeof startupSchema>;

export const toolRunSchema = z.object({ role: toolCallSchema.shape.role, tool: z.string(), ms: z.number(), ok: z.boolean(), error: z.string().optional() });

export const hostResultSchema = z.object({
  launch: z.number().int(),
  kind: jobSchema.shape.kind,
  /** The extension's own startup timing (undefined when it never activated). */
  startup: startupSchema.optional(),
  memory: z
    .object({
      rssBeforeBytes: z.number().int().positive(),
      rssAfterBytes: z.number().int().positive(),
      tools: z.array(toolRunSchema),
    })
    .optional(),
  error: z.string().optional(),
});
export type HostResult = z.infer<typeof hostResultSchema>;

/** A result file's text, checked; the message names the file so a broken run can be found. */
export function parseHostResult(text: string, file: string): HostResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON (${(err as Error).message}); see the extension-host log beside it`);
  }
  const r = hostResultSchema.safeParse(raw);
  if (!r.success) throw new Error(`${file} is not a platform bench result: ${r.error.issues.map((i) => `${i.path.join('.') || 'result'}: ${i.message}`).join('; ')}`);
  return r.data;
}

/** What a launch must have reached for its activation time to count. */
export function startupProblem(r: HostResult, wantProject: (file: string) => boolean): string | undefined {
  if (r.error) return `launch ${r.launch}: ${r.error}`;
  const s = r.startup;
  if (!s) return `launch ${r.launch}: the extension reported no startup timing`;
  if (!s.project || !wantProject(s.project)) return `launch ${r.launch}: the startup project was ${s.project ?? 'none'}, not the one under test`;
  if (s.activationToReadyMs === undefined) return `launch ${r.launch}: never ready (marks: ${JSON.stringify(s.marks)})`;
  return undefined;
}

export interface ActivationFigure {
  /** Median over the launches of activate() → project open and views showing it. */
  ms: number;
  runsMs: number[];
  /** Median of the project open alone, and of the side panel's first state naming it (null unless the panel was on screen in every launch). */
  projectOpenMs: number;
  panelShowsProjectMs: number | null;
  /** Median of loading the extension's code before activate() (not in `ms`; VS Code's own activation time includes it), and how many launches ran from the code cache. */
  codeLoadMs: number | null;
  codeCacheUsed: number;
}

export function activationFigure(results: HostResult[], wantProject: (file: string) => boolean): ActivationFigure {
  if (!results.length) throw new Error('no launches to measure');
  const problems = results.map((r) => startupProblem(r, wantProject)).filter((p): p is string => !!p);
  if (problems.length) throw new Error(problems.join('\n'));
  const runs = results.map((r) => r.startup!.activationToReadyMs!);
  const panel = results.map((r) => r.startup!.marks.panelShowsProject).filter((x): x is number => x !== undefined);
  const load = results.map((r) => r.startup!.codeLoadMs).filter((x): x is number => x !== undefined);
  return {
    ms: round(median(runs), 1),
    runsMs: runs.map((x) => round(x, 1)),
    projectOpenMs: round(median(results.map((r) => r.startup!.marks.projectOpen!)), 1),
    panelShowsProjectMs: panel.length === results.length ? round(median(panel), 1) : null,
    codeLoadMs: load.length === results.length ? round(median(load), 1) : null,
    codeCacheUsed: results.filter((r) => r.startup!.codeCache === 'used').length,
  };
}

export interface MemoryFigure {
  /** Resident memory the extension host gained (MiB). */
  mb: number;
  beforeMb: number;
  afterMb: number;
  tools: Array<{ role: string; tool: string; ms: number }>;
}

const MIB = 1024 * 1024;

export function memoryFigure(r: HostResult): MemoryFigure {
  if (r.error) throw new Error(`memory launch: ${r.error}`);
  if (!r.memory) throw new Error('memory launch: no memory figures in the result');
  const failed = r.memory.tools.filter((t) => !t.ok);
  if (failed.length) throw new Error(`memory launch: ${failed.map((t) => `${t.tool} failed: ${t.error ?? 'no reason given'}`).join('; ')}`);
  const { rssBeforeBytes: before, rssAfterBytes: after } = r.memory;
  return {
    mb: round((after - before) / MIB, 1),
    beforeMb: round(before / MIB, 1),
    afterMb: round(after / MIB, 1),
    tools: r.memory.tools.map((t) => ({ role: t.role, tool: t.tool, ms: round(t.ms, 1) })),
  };
}
