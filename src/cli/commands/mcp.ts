// `pyops mcp --project <file> [--developer-tools]`: the tool registry as an MCP server over stdio,
// for MCP clients outside VS Code (Claude Desktop, other editors, scripts). stdout carries the
// protocol, so every notice goes to stderr. The project is opened like in VS Code: a second
// writer gets it read-only (reads still work; writes answer with a read-only error). The UDP game
// bridge is bound too (port 37657 or --bridge-port), so live tools reach a running game; with
// --no-bridge, or when the port is taken (VS Code already owns it), they answer "no game".
import { Project } from '../../core/db/project';
import { mcpTools } from '../../core/assistant/tools/registry';
import { serveStdioMcp } from '../../core/mcp/stdio';
import { Bridge } from '../../core/bridge/bridge';
import { createGameLink, type GameLink } from '../../core/bridge/gameLink';
import { DEFAULT_BRIDGE_PORT } from '../../core/bridge/protocol';
import { detectFactorio, SCRIPT_OUTPUT } from '../../core/gamedata/factorio';
import path from 'node:path';
import { parse, UsageError } from '../args';
import type { CliIO } from '../io';
import { VERSION } from '../version';
import { pairingCodeFor, parsePort, stopSignal } from './bridge';


export interface McpDeps {
  /** Resolves when the client goes away (default: stdin ends, or SIGINT/SIGTERM). */
  until?: Promise<void>;
}

function clientGone(): Promise<void> {
  const stop = stopSignal();
  return new Promise((resolve) => {
    const done = () => {
      stop.dispose();
      process.stdin.off('end', done);
      process.stdin.off('close', done);
      resolve();
    };
    process.stdin.once('end', done);
    process.stdin.once('close', done);
    stop.signal.addEventListener('abort', done, { once: true });
  });
}

export async function mcpCommand(argv: string[], io: CliIO, deps: McpDeps = {}): Promise<number> {
  const a = parse(
    argv,
    { project: { type: 'string' }, 'developer-tools': { type: 'boolean' }, 'bridge-port': { type: 'string' }, 'no-bridge': { type: 'boolean' } },
    { min: 0, max: 0, names: '' },
  );
  if (!a.values.project) throw new UsageError('missing --project <file>');
  const port = parsePort(a.values['bridge-port'], DEFAULT_BRIDGE_PORT, { flag: '--bridge-port' });
  if (a.values['bridge-port'] !== undefined && a.values['no-bridge']) throw new UsageError('give either --bridge-port or --no-bridge, not both');

  let project = await Project.open(a.values.project, { app: 'cli (mcp)' });
  const dev = !!a.values['developer-tools'];
  const tools = mcpTools(dev);
  if (project.readOnly) io.err(`pyops mcp: ${project.readOnlyReason ?? 'the project is read-only'}; tools that change it will answer with an error.`);
  // Read-only because another window held it: take it over for editing once that window lets go.
  const reopen = setInterval(() => {
    if (!project.canReopenWritable()) return;
    const old = project;
    Project.open(old.file, { app: 'cli (mcp)' }).then(
      (p) => {
        if (p.readOnly) return p.close();
        project = p;
        old.close();
        io.err(`pyops mcp: the other window closed "${p.name}"; it is now open here for editing.`);
      },
      () => {},
    );
  }, 2000);
  reopen.unref?.();
  let server: { close(): Promise<void> } | undefined;
  let bridge: Bridge | undefined;
  let game: GameLink | undefined;
  if (!a.values['no-bridge']) {
    bridge = new Bridge({ port, project: () => project, appName: 'PyOps (pyops mcp)', portHint: '--bridge-port option', pairing: await pairingCodeFor() });
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
    server = await serveStdioMcp(tools, () => ({ project, caller: 'mcp', game }), { name: 'pyops', version: VERSION });
    io.err(`pyops mcp: serving ${tools.length} tools for "${project.name}" over stdio`);
    await (deps.until ?? clientGone());
    return 0;
  } finally {
    clearInterval(reopen);
    await server?.close().catch(() => {});
    await bridge?.stop();
    project.close();
  }
}

/** Factorio's script-output folder (screenshots land there), when the install can be found. */
function scriptOutput(): string | undefined {
  try {
    return path.join(detectFactorio({}).userDataDir, SCRIPT_OUTPUT);
  } catch {
    return undefined;
  }
}
