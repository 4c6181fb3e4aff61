// `pyops tools --json` (the registry with tiers) and `pyops tool <name> --project <file> [--input '<json>']
// [--model-view]`. A person reads the whole result, pretty; --model-view prints exactly the text a
// model receives instead (the compact JSON of the tool's model view, or of the error). Drafts are
// kept as pending proposals, for `pyops proposal apply`.
import { Project } from '../../core/db/project';
import { toolsFor, findTool } from '../../core/assistant/tools/registry';
import { runTool } from '../../core/assistant/tools/run';
import { toJsonSchema } from '../../core/assistant/tools/schema';
import { modelText } from '../../core/assistant/tools/types';
import { parse, UsageError } from '../args';
import type { CliIO } from '../io';


export async function toolsCommand(argv: string[], io: CliIO): Promise<number> {
  const a = parse(argv, { json: { type: 'boolean' } }, { min: 0, max: 0, names: '' });
  const tools = toolsFor('app');
  if (a.values.json) {
    io.out(JSON.stringify({ tools: tools.map((t) => ({ name: t.name, displayName: t.displayName, tier: t.tier, surfaces: t.surfaces ?? ['app', 'mcp'], description: t.description, inputSchema: toJsonSchema(t.input) })) }));
  } else {
    for (const t of tools) io.out(`${t.name.padEnd(22)} ${t.tier.padEnd(9)} ${t.displayName}`);
  }
  return 0;
}

export async function toolCommand(argv: string[], io: CliIO): Promise<number> {
  const a = parse(argv, { project: { type: 'string' }, input: { type: 'string' }, 'model-view': { type: 'boolean' } }, { min: 1, max: 1, names: 'the tool name' });
  const name = a.positionals[0];
  const tool = findTool(name);
  if (!tool) throw new UsageError(`unknown tool "${name}" (pyops tools lists them)`);
  if (!a.values.project) throw new UsageError('missing --project <file>');
  let input: unknown = {};
  if (a.values.input !== undefined) {
    try {
      input = JSON.parse(a.values.input);
    } catch (err) {
      throw new UsageError(`--input is not JSON: ${(err as Error).message}`);
    }
  }
  // Reads never need the writer lock; writes do, and drafts take it to be kept as pending proposals
  // (when another window holds it, the draft says it was not kept).
  const project = await Project.open(a.values.project, { readOnly: tool.tier !== 'write' && tool.tier !== 'proposal', app: 'cli' });
  try {
    const outcome = await runTool(tool, input, { project, caller: 'terminal' });
    if (a.values['model-view']) {
      io.out(modelText(outcome));
      return outcome.ok ? 0 : outcome.code === 'invalid-input' ? 2 : 1;
    }
    if (!outcome.ok) {
      // Input the tool's schema refuses is a usage error, like --input that is not JSON.
      if (outcome.code === 'invalid-input') throw new UsageError(outcome.error);
      io.err(`pyops: ${outcome.error}`);
      return 1;
    }
    io.out(JSON.stringify(outcome.result, null, 2));
    return 0;
  } finally {
    project.close();
  }
}
