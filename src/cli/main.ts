// The `pyops` command line: thin shells over src/core. Exit codes: 0 success, 1 failure (one-line
// reason on stderr), 2 usage error.
import { oneLine, UsageError } from './args';
import { processIO, type CliIO } from './io';
import { toolCommand, toolsCommand } from './commands/tools';
import { VERSION } from './version';
import { ASK_USAGE, BLOCK_USAGE, BRIDGE_USAGE, FACTORY_USAGE, ICONS_USAGE, IMPORT_USAGE, MCP_USAGE, PROJECT_USAGE, PROPOSAL_USAGE, RELAY_USAGE, SOLVE_USAGE, TOOLS_USAGE } from './usage';

export const USAGE = `Usage:
${PROJECT_USAGE}
${IMPORT_USAGE}
${ICONS_USAGE}
${SOLVE_USAGE}
${BLOCK_USAGE}
${FACTORY_USAGE}
${TOOLS_USAGE}
${PROPOSAL_USAGE}
${ASK_USAGE}
${BRIDGE_USAGE}
${RELAY_USAGE}
${MCP_USAGE}
pyops --help | --version`;

export async function run(argv: string[], io: CliIO = processIO): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'project':
        return await (await import('./commands/project')).projectCommand(rest, io);
      case 'import':
        return await (await import('./commands/import')).importCommand(rest, io);
      case 'icons':
        return await (await import('./commands/icons')).iconsCommand(rest, io);
      case 'solve':
        return await (await import('./commands/solve')).solveCommand(rest, io);
      case 'block':
        return await (await import('./commands/block')).blockCommand(rest, io);
      case 'factory':
        return await (await import('./commands/factory')).factoryCommand(rest, io);
      // Every command but the tools is loaded on use: a quick `pyops tool` call (what a script or a
      // model's host runs most) initializes only what it needs.
      case 'tools':
        return await toolsCommand(rest, io);
      case 'tool':
        return await toolCommand(rest, io);
      case 'proposal':
        return await (await import('./commands/proposal')).proposalCommand(rest, io);
      // They bring the AI SDK, MCP and WebSocket code besides.
      case 'ask':
        return await (await import('./commands/ask')).askCommand(rest, io);
      case 'bridge':
        return await (await import('./commands/bridge')).bridgeCommand(rest, io);
      case 'relay':
        return await (await import('./commands/relay')).relayCommand(rest, io);
      case 'mcp':
        return await (await import('./commands/mcp')).mcpCommand(rest, io);
      case '--version':
      case '-v':
        io.out(VERSION);
        return 0;
      case '--help':
      case '-h':
      case 'help':
        io.out(USAGE);
        return 0;
      case undefined:
        throw new UsageError('missing command');
      default:
        throw new UsageError(`unknown command "${cmd}"`);
    }
  } catch (err) {
    // By name too: a command loaded on use may come from another instance of the module (under tsx).
    if (err instanceof UsageError || (err instanceof Error && err.name === 'UsageError')) {
      io.err(`pyops: ${err.message}\n${USAGE}`);
      return 2;
    }
    io.err(`pyops: ${oneLine(err)}`);
    if (process.env.PYOPS_DEBUG && err instanceof Error && err.stack) io.err(err.stack);
    return 1;
  }
}
