// The tool registry as an MCP server. Each request gets the same definitions the agent loop and
// VS Code use; results go through runTool (validation, structured errors, size cap). The SDK
// would validate a tools/call itself — answering arguments that are not an object with -32603 and
// a raw zod dump, other mistakes with plain text — so PyOps' own tools/call handler takes the
// request as it arrives: malformed params get -32602 with what to send, and arguments that are
// not an object, like every other bad input, the structured error (`{error, code:
// "invalid-input"}`) every other host gets. Annotations say what a tool really does: proposal
// tools keep drafts from MCP callers as pending proposals, so they are not read-only.
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError, type CallToolResult, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { modelText, type AnyTool, type ToolContext, type ToolOutcome } from '../assistant/tools/types';
import { runTool } from '../assistant/tools/run';
import { isPendingTool } from '../planning/proposals/pending';

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
        annotations: annotationsOf(t),
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
  // Replaces the SDK's handler (registered above for the listing). Registered on the protocol
  // layer: the SDK's Server would parse the request against its own schema before this runs.
  server.server.removeRequestHandler('tools/call');
  const register = Protocol.prototype.setRequestHandler as (this: unknown, schema: unknown, handler: (request: z.infer<typeof rawCallRequest>) => Promise<CallToolResult>) => void;
  register.call(server.server, rawCallRequest, async (request) => {
    const params = request.params;
    if (!isObject(params)) throw new McpError(ErrorCode.InvalidParams, 'tools/call needs params: {"name": "<a tool from tools/list>", "arguments": {…its fields}}.');
    const name = params.name;
    if (typeof name !== 'string' || !name) throw new McpError(ErrorCode.InvalidParams, 'tools/call needs params.name: the name of a tool from tools/list.');
    const t = byName.get(name);
    if (!t) return failure({ error: `There is no PyOps tool "${name}"; list the tools and call one of them.`, code: 'not-found' });
    const args = params.arguments;
    if (args !== undefined && !isObject(args)) {
      return failure({ error: `The arguments of ${name} must be a JSON object of its fields (see its inputSchema in tools/list), not ${kindOf(args)}.`, code: 'invalid-input' });
    }
    return call(t, args ?? {});
  });
  return server;
}

/** A tools/call as it arrives: nothing about its params assumed yet. */
const rawCallRequest = z.object({ method: z.literal('tools/call'), params: z.unknown() });

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

function failure(body: { error: string; code: string; preview?: string }): CallToolResult {
  return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(body) }] };
}

/**
 * What a tool does, for MCP clients that decide from it whether to ask the user first. Proposal
 * tools change no block, but a draft made over MCP is kept as a pending proposal (the oldest is
 * dropped when the list is full), so they write and are not idempotent.
 */
export function annotationsOf(t: AnyTool): ToolAnnotations {
  const keepsPending = t.tier === 'proposal' && isPendingTool(t.name);
  return {
    title: t.displayName,
    readOnlyHint: (t.tier === 'read' || t.tier === 'live' || t.tier === 'proposal') && !keepsPending,
    destructiveHint: keepsPending,
    idempotentHint: t.tier !== 'write' && t.tier !== 'developer' && !keepsPending,
    openWorldHint: t.tier === 'live' || t.tier === 'developer',
  };
}
