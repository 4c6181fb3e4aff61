// `pyops mcp --project <file> [--developer-tools]`: the tool registry as an MCP server over stdio,
// for MCP clients outside VS Code (Claude Desktop, other editors, scripts). stdout carries the
// protocol, so every notice goes to stderr. The project is opened like in VS Code: a second
// writer gets it read-only (reads still work; writes answer with a read-only error). The UDP game
// bridge is bound too (port 37657 or --bridge-port), so live tools reach a running game; with
// --no-bridge, or when the port is taken (VS Code already owns it), they answer "no game".
import { Project } from '../../core/db/project';
import { toolsFor } from '../../core/assistant/tools/registry';
import { serveStdioMcp } from '../../core/mcp/stdio';
import { Bridge } from '../../core/bridge/bridge';
import { createGameLink, type GameLink } from '../../core/bridge/gameLink';
import { DEFAULT_BRIDGE_PORT } from '../../core/bridge/protocol';
import { detectFactorio } from '../../core/gamedata/factorio';
import path from 'node:path';
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
  let bridge: Bridge | undefined;
  let game: GameLink | undefined;
  if (!a.values['no-bridge']) {
    bridge = new Bridge({ port: port !== undefined ? Number(port) : DEFAULT_BRIDGE_PORT, project: () => project, appName: 'PyOps (pyops mcp)' });
    const s = await bridge.start();
    if (s.state === 'listening') {
      game = createGameLink(bridge, { scriptOutputDir: () => scriptOutput() });
      io.err(`pyops mcp: game bridge listening on UDP ${s.host}:${s.port}`);
    } else {
      io.err(`pyops mcp: no game bridge (${s.error}); live tools will answer "no game". Use --bridge-port <p> or --no-bridge.`);
      await bridge.stop();
      bridge = undefined;
    }
  }
  try {
    server = await serveStdioMcp(tools, () => ({ project, caller: 'mcp', game }), { name: 'pyops', version });
    io.err(`pyops mcp: serving ${tools.length} tools for "${project.name}" over stdio`);
    await (deps.until ?? clientGone());
    return 0;
  } finally {
    await server?.close().catch(() => {});
    await bridge?.stop();
    project.close();
  }
}

/** Factorio's script-output folder (screenshots land there), when the install can be found. */
function scriptOutput(): string | undefined {
  try {
    return path.join(detectFactorio({}).userDataDir, 'script-output');
  } catch {
    return undefined;
  }
}
