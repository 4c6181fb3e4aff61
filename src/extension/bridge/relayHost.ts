// Relay connections for remote setups (VS Code over SSH, WSL, containers): the extension host runs
// the relay server on 127.0.0.1 with a random token, and shows the `pyops relay` command line to
// run beside the game. asExternalUri maps the port to what the local machine can reach (VS Code
// forwards it when the window is remote).
import * as vscode from 'vscode';
import { DEFAULT_BRIDGE_PORT, RelayServer, type Bridge, type RelayServerInfo } from '../../core/bridge';

export class RelayHost implements vscode.Disposable {
  private server: RelayServer | undefined;

  constructor(
    private readonly bridge: Bridge,
    private readonly port: () => number,
  ) {}

  get running(): boolean {
    return !!this.server?.running;
  }

  get connections(): number {
    return this.server?.connections ?? 0;
  }

  async start(): Promise<RelayServerInfo> {
    if (this.server?.running) return this.server.info()!;
    this.server = new RelayServer({ bridge: this.bridge, port: this.port() });
    try {
      return await this.server.start();
    } catch (err) {
      this.server = undefined;
      throw new Error(`Could not accept relay connections on 127.0.0.1:${this.port()} (${(err as Error).message}). Set pyops.bridge.relayPort to a free port, or 0 for any.`);
    }
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    await s?.stop();
  }

  /** The command to run beside the game, with the URL as the local machine reaches it. */
  async commandLine(bridgePort: number): Promise<string> {
    const info = await this.start();
    const external = await vscode.env.asExternalUri(vscode.Uri.parse(`http://127.0.0.1:${info.port}/`));
    const ws = external.with({ scheme: external.scheme === 'https' ? 'wss' : 'ws' }).toString();
    return `pyops relay --to ${ws} --token ${info.token}${bridgePort !== DEFAULT_BRIDGE_PORT ? ` --port ${bridgePort}` : ''}`;
  }

  dispose(): void {
    void this.stop();
  }
}
