// The tool registry as an MCP server. Each request gets the same definitions the agent loop and
// VS Code use; results go through runTool (validation, structured errors, size cap). The SDK
// would validate arguments itself and answer a bad call with plain text; PyOps' own tools/call
// handler hands the raw arguments to runTool instead, so an MCP client gets the same structured
// error (`{error, code}`) as every other host.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { modelText, type AnyTool, type ToolContext, type ToolOutcome } from '../assistant/tools/types';
import { runTool } from '../assistant/tools/run';

export interface McpServerInfo {
  name: string;
  version: string;
}

/** Called after each tool call (e.g. to tell the extension's listeners what changed). */
export type McpCallListener = (tool: AnyTool, outcome: ToolOutcome) => void;

export function buildMcpServer(tools: readonly AnyTool[], context: () => ToolContext | Promise<ToolContext>, info: McpServerInfo, onCall?: McpCallListener): McpServer {
  const server = new McpServer(info, { capabilities: { tools: {} } });
  for (const t of tools) {
    server.registerTool(
      t.name,
      {
        title: t.displayName,
        description: t.description,
        inputSchema: t.input,
        annotations: {
          title: t.displayName,
          readOnlyHint: t.tier === 'read' || t.tier === 'live' || t.tier === 'proposal',
          destructiveHint: false,
          idempotentHint: t.tier !== 'write' && t.tier !== 'developer',
          openWorldHint: t.tier === 'live' || t.tier === 'developer',
        },
      },
      async (args: unknown) => call(t, args),
    );
  }
  const byName = new Map(tools.map((t) => [t.name, t]));
  async function call(t: AnyTool, args: unknown): Promise<CallToolResult> {
    const outcome = await runTool(t, args, await context());
    onCall?.(t, outcome);
    return { ...(outcome.ok ? {} : { isError: true }), content: [{ type: 'text' as const, text: modelText(outcome) }] };
  }
  // Replaces the SDK's handler (registered above for the listing): validation happens in runTool.
  server.server.removeRequestHandler('tools/call');
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const t = byName.get(request.params.name);
    if (!t) {
      return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify({ error: `There is no PyOps tool "${request.params.name}"; list the tools and call one of them.`, code: 'not-found' }) }] };
    }
    return call(t, request.params.arguments ?? {});
  });
  return server;
}
