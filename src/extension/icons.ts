// The active project's game icons for the views: file URIs into the cache beside the project, read
// from its manifest when the project opens or its data changes, and after an extraction. Without a
// cache every lookup is undefined and each view keeps its own symbol, so nothing shows broken.
import * as vscode from 'vscode';
import { goodIconFile, iconCacheDir, iconKey, readManifest, type IconManifest } from '../core/gamedata/icons/cache';
import type { IconKind } from '../core/gamedata/icons/spec';
import type { ProjectManager } from './projectManager';

export class GameIcons implements vscode.Disposable {
  private manifest: IconManifest | undefined;
  private projectFile: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** The pictures changed (another project, a new extraction): views redraw. */
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;

  constructor(private readonly projects: ProjectManager) {
    this.sub = projects.onDidChange(() => this.reload());
    this.reload();
  }

  /** Re-read the manifest of the active project; fires onDidChange when what it maps changed. */
  reload(): void {
    const p = this.projects.active;
    const file = p && !p.isClosed ? p.file : undefined;
    const next = file ? readManifest(file) : undefined;
    const same = file === this.projectFile && next?.extractedAt === this.manifest?.extractedAt;
    this.projectFile = file;
    this.manifest = next;
    if (!same) this.changed.fire();
  }

  /** The cache folder, when there is one (webviews must be allowed to load from it). */
  get folder(): vscode.Uri | undefined {
    return this.manifest && this.projectFile ? vscode.Uri.file(iconCacheDir(this.projectFile)) : undefined;
  }

  /** Pictures available, for tests and the status of an extraction. */
  get count(): number {
    return this.manifest ? Object.keys(this.manifest.icons).length : 0;
  }

  private uriOf(file: string | undefined): vscode.Uri | undefined {
    return file && this.projectFile ? vscode.Uri.joinPath(vscode.Uri.file(iconCacheDir(this.projectFile)), file) : undefined;
  }

  icon(kind: IconKind, name: string): vscode.Uri | undefined {
    return this.manifest ? this.uriOf(this.manifest.icons[iconKey(kind, name)]) : undefined;
  }

  good(name: string): vscode.Uri | undefined {
    return this.manifest ? this.uriOf(goodIconFile(this.manifest, name)) : undefined;
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
