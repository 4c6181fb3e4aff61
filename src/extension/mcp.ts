// The embedded MCP server: the tool registry (plus the developer tools when enabled) over
// Streamable HTTP on 127.0.0.1 with a random port and bearer token. Clients given its URL (PyOps:
// Show MCP Server Info) get every tool; VS Code itself already has the registry as language-model
// tools, so the definition announced to it points at a view with only the rest (the developer
// tools) — and is not announced at all while that view is empty. Its version changes whenever the
// tool list does.
import * as vscode from 'vscode';
import crypto from 'node:crypto';
import { startHttpMcp, type HttpMcpHandle } from '../core/mcp/http';
import { mcpTools } from '../core/assistant/tools/registry';
import { changesProject } from '../core/assistant/tools/run';
import { vscodeMcpTools } from '../core/assistant/tools/vscodeManifest';
import type { AnyTool } from '../core/assistant/tools/types';
import type { GameLink } from '../core/bridge';
import type { ProjectManager } from './projectManager';
import { readSettings } from './settings';

export const MCP_PROVIDER_ID = 'pyops.mcp';
/** The view of the server that VS Code's own definition uses. */
const VSCODE_VIEW = 'vscode';

export class EmbeddedMcp implements vscode.Disposable {
  private server: Promise<HttpMcpHandle | undefined> | undefined;
  private handle: HttpMcpHandle | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private version = '';

  constructor(
    private readonly projects: ProjectManager,
    private readonly game: () => GameLink | undefined,
    private readonly extensionVersion: string,
  ) {}

  /** Every tool, for MCP clients other than VS Code. */
  tools(): readonly AnyTool[] {
    return mcpTools(readSettings().mcpDeveloperTools);
  }

  /** What VS Code's definition offers: what its language-model tools do not. */
  vscodeTools(): readonly AnyTool[] {
    return vscodeMcpTools(readSettings().mcpDeveloperTools);
  }

  private toolVersion(): string {
    const names = this.vscodeTools().map((t) => `${t.name}:${t.tier}`).join(',');
    return `${this.extensionVersion}+${crypto.createHash('sha1').update(names).digest('hex').slice(0, 8)}`;
  }

  /** The running server, started on first need; overlapping callers share one start. */
  start(): Promise<HttpMcpHandle | undefined> {
    if (!readSettings().mcpEnabled) return Promise.resolve(undefined);
    if (!this.server) {
      const server: Promise<HttpMcpHandle | undefined> = startHttpMcp({
        tools: () => this.tools(),
        views: { [VSCODE_VIEW]: () => this.vscodeTools() },
        context: () => {
          const project = this.projects.active;
          if (!project) throw new Error('No PyOps project is open in VS Code; open one (PyOps: Open Project…) and call the tool again.');
          return { project, caller: 'mcp', game: this.game() };
        },
        info: { name: 'pyops', version: this.extensionVersion },
        onCall: (tool, outcome) => {
          if (changesProject(tool, outcome)) this.projects.touch();
        },
      }).then(
        (h) => {
          if (this.server !== server) {
            // Turned off (or disposed) while it was starting.
            void h.close();
            return undefined;
          }
          this.handle = h;
          this.version = this.toolVersion();
          this.changed.fire();
          return h;
        },
        (err: unknown) => {
          if (this.server === server) this.server = undefined; // the next call may try again
          throw err;
        },
      );
      this.server = server;
    }
    return this.server;
  }

  private async stop(): Promise<void> {
    const h = this.handle;
    this.server = undefined;
    this.handle = undefined;
    await h?.close();
  }

  /** Call when settings change: stops the server when turned off, and refreshes the definition. */
  async refresh(): Promise<void> {
    if (!readSettings().mcpEnabled) {
      await this.stop();
      this.version = ''; // so turning it back on announces the definition again
      this.changed.fire();
      return;
    }
    // No start here: VS Code asks for the definition after the change event, and that starts it.
    const v = this.toolVersion();
    if (v !== this.version) {
      this.version = v;
      this.changed.fire();
    }
  }

  info(): { url: string; token: string; tools: number; vscodeTools: number; version: string } | undefined {
    return this.handle ? { url: this.handle.url, token: this.handle.token, tools: this.tools().length, vscodeTools: this.vscodeTools().length, version: this.version } : undefined;
  }

  provider(): vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition> {
    return {
      onDidChangeMcpServerDefinitions: this.changed.event,
      provideMcpServerDefinitions: async () => {
        // An empty server would only add noise to the MCP list (and start a server nobody uses).
        if (!this.vscodeTools().length) return [];
        const h = await this.start();
        if (!h) return [];
        return [new vscode.McpHttpServerDefinition('PyOps developer tools', vscode.Uri.parse(h.viewUrl(VSCODE_VIEW)), h.headers, this.version)];
      },
    };
  }

  dispose(): void {
    void this.stop();
    this.changed.dispose();
  }
}
