// Read-only Markdown pages built from the open project (a block's page, a good's build-or-import
// page), served as files rather than virtual documents: VS Code restores file editors after a window
// reload (it drops virtual ones), and the `onFileSystem:<scheme>` activation event wakes PyOps for
// them. A page is rebuilt whenever the project is written or switched, and an open one reloads when
// its text changed.
import * as vscode from 'vscode';
import type { ProjectManager } from '../projectManager';

export class ProjectPages implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** The text each page was last served with and the mtime it was given (which moves when the text does). */
  private readonly served = new Map<string, { text: string; mtime: number }>();
  private unsubscribe: (() => void) | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly scheme: string,
    private readonly projects: ProjectManager,
    private readonly render: (uri: vscode.Uri) => string | Promise<string>,
  ) {
    const follow = () => {
      this.unsubscribe?.();
      this.unsubscribe = projects.active?.onDidWrite(() => this.refreshOpen());
      this.refreshOpen();
    };
    this.subs.push(projects.onDidChange(follow));
    follow();
  }

  /** Ask VS Code to read the open pages again (it stats them first; an unchanged text keeps its mtime). */
  refreshOpen(): void {
    const open = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === this.scheme).map((d) => d.uri);
    if (open.length) this.changed.fire(open.map((uri) => ({ type: vscode.FileChangeType.Changed, uri })));
  }

  private async page(uri: vscode.Uri): Promise<{ bytes: Uint8Array; mtime: number }> {
    // A page restored after a reload is asked for before the startup project is open.
    if (!this.projects.active) await this.projects.whenStarted();
    const text = await this.render(uri);
    const key = uri.toString();
    const last = this.served.get(key);
    const mtime = last?.text === text ? last.mtime : Math.max(Date.now(), (last?.mtime ?? 0) + 1);
    this.served.set(key, { text, mtime });
    return { bytes: Buffer.from(text, 'utf8'), mtime };
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (!uri.path.endsWith('.md')) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const { bytes, mtime } = await this.page(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime, size: bytes.byteLength, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.page(uri)).bytes;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  private refuse(): never {
    throw vscode.FileSystemError.NoPermissions('PyOps pages are built from the project and cannot be changed here; edit the block or the good itself.');
  }

  createDirectory(): void {
    this.refuse();
  }

  writeFile(): void {
    this.refuse();
  }

  delete(): void {
    this.refuse();
  }

  rename(): void {
    this.refuse();
  }

  dispose(): void {
    this.unsubscribe?.();
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}

/** Register `pages` for its scheme, read-only. */
export function registerPages(scheme: string, pages: ProjectPages): vscode.Disposable[] {
  return [pages, vscode.workspace.registerFileSystemProvider(scheme, pages, { isCaseSensitive: true, isReadonly: true })];
}
