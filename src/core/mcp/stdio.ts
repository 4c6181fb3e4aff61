// MCP over stdio, for `pyops mcp` and MCP clients outside VS Code.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { AnyTool, ToolContext } from '../assistant/tools/types';
import { buildMcpServer, type McpServerInfo } from './server';

export async function serveStdioMcp(tools: readonly AnyTool[], context: () => ToolContext | Promise<ToolContext>, info: McpServerInfo): Promise<{ close(): Promise<void> }> {
  const server = buildMcpServer(tools, context, info);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  return { close: () => server.close() };
}
