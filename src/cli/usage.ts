// The usage line of each command, apart from the commands themselves: `pyops --help` and a usage
// error print them without loading the heavier commands (the AI SDK, MCP, WebSocket code).

export const PROJECT_USAGE = `pyops project create <file> [--name <name>]
pyops project backup <file> [--out <backup-file>]
pyops project restore <backup-file> <file>
pyops project recover <file> [--yes] [--json]   (without --yes: report only, nothing changes)`;
export const IMPORT_USAGE = 'pyops import <project-file> <dump-or-factoriolab-data-set> [--json]   (a file, or the folder holding it)';
export const ICONS_USAGE = 'pyops icons extract <project-file> --factorio <install-folder> [--mods <mods-folder>] [--json]';
export const TOOLS_USAGE = `pyops tools [--json]
pyops tool <name> --project <file> [--input '<json>'] [--model-view]   (--model-view: exactly the text a model receives)`;
export const PROPOSAL_USAGE = `pyops proposal list <project-file> [--json]
pyops proposal apply <project-file> <id> [--yes] [--json]   (--yes: also an unsolved or already applied draft)
pyops proposal dismiss <project-file> <id>`;
export const SOLVE_USAGE = 'pyops solve <block.json> --project <file> [--json]';
export const BLOCK_USAGE = `pyops block create <project-file> <block.json> [--name <name>] [--json]
pyops block list <project-file> [--json]`;
export const FACTORY_USAGE = `pyops factory scenario <project-file> [--pin good=rate …] [--json]
pyops factory balance <project-file> [--pin good=rate …] [--yes] [--json]   (without --yes: report only)`;
export const ASK_USAGE = `pyops ask "<question>" --project <file> [--conversation <id>] [--model <id>] [--json]`;
export const BRIDGE_USAGE = 'pyops bridge --project <file> [--port <p>]';
export const RELAY_USAGE = 'pyops relay --to <ws-url> [--token <t>] [--port <p>]';
export const MCP_USAGE = 'pyops mcp --project <file> [--developer-tools] [--bridge-port <p> | --no-bridge]';
