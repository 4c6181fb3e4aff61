// `pyops mcp --project <file> [--developer-tools]`: the tool registry as an MCP server over stdio,
// for MCP clients outside VS Code (Claude Desktop, other editors, scripts). stdout carries the
// protocol, so every notice goes to stderr. The project is opened like in VS Code: a second
// writer gets it read-only (reads still work; writes answer with a read-only error). Without a
// game link the live tools answer "no game". `--bridge-port <p>` and `--no-bridge` are accepted
// for the game-link options of this command and do not change anything yet.
import { Project } from '../../core/db/project';
import { toolsFor } from '../../core/assistant/tools/registry';
import { serveStdioMcp } from '../../core/mcp/stdio';
import { parse, UsageError } from '../args';
import type { CliIO } from '../io';

export const MCP_USAGE = 'pyops mcp --project <file> [--developer-tools] [--bridge-port <p> | --no-bridge]';

declare const PYOPS_VERSION: string | undefined;

export interface McpDeps {
  /** Resolves when the client goes away (default: stdin ends, or SIGINT/SIGTERM). */
  until?: Promise<void>;
}

function clientGone(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    process.stdin.once('end', done);
    process.stdin.once('close', done);
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export async function mcpCommand(argv: string[], io: CliIO, deps: McpDeps = {}): Promise<number> {
  const a = parse(
    argv,
    { project: { type: 'string' }, 'developer-tools': { type: 'boolean' }, 'bridge-port': { type: 'string' }, 'no-bridge': { type: 'boolean' } },
    { min: 0, max: 0, names: '' },
  );
  if (!a.values.project) throw new UsageError('missing --project <file>');
  const port = a.values['bridge-port'];
  if (port !== undefined && !(Number.isInteger(Number(port)) && Number(port) >= 1 && Number(port) <= 65_535)) throw new UsageError(`--bridge-port must be a port number (1–65535), not "${port}"`);
  if (port !== undefined && a.values['no-bridge']) throw new UsageError('give either --bridge-port or --no-bridge, not both');

  const project = await Project.open(a.values.project, { app: 'cli (mcp)' });
  const dev = !!a.values['developer-tools'];
  const tools = toolsFor('mcp').filter((t) => dev || t.tier !== 'developer');
  if (project.readOnly) io.err(`pyops mcp: ${project.readOnlyReason ?? 'the project is read-only'}; tools that change it will answer with an error.`);
  const version = typeof PYOPS_VERSION === 'string' ? PYOPS_VERSION : 'dev';
  let server: { close(): Promise<void> } | undefined;
  try {
    server = await serveStdioMcp(tools, () => ({ project, caller: 'mcp' }), { name: 'pyops', version });
    io.err(`pyops mcp: serving ${tools.length} tools for "${project.name}" over stdio`);
    await (deps.until ?? clientGone());
    return 0;
  } finally {
    await server?.close().catch(() => {});
    project.close();
  }
}
