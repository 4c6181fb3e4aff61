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
  /** The cache folder of the manifest read, and how many pictures it maps (both fixed per read). */
  private dir: vscode.Uri | undefined;
  private pictures = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  /** The pictures changed (another project, a new extraction): views redraw. */
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;

  constructor(private readonly projects: ProjectManager) {
    // Only an extraction writes the manifest, and it calls reload(); a project's other writes leave it.
    this.sub = projects.onDidChange((p) => {
      if ((p && !p.isClosed ? p.file : undefined) !== this.projectFile) this.reload();
    });
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
    this.dir = next && file ? vscode.Uri.file(iconCacheDir(file)) : undefined;
    this.pictures = next ? Object.keys(next.icons).length : 0;
    if (!same) this.changed.fire();
  }

  /** The cache folder, when there is one (webviews must be allowed to load from it). */
  get folder(): vscode.Uri | undefined {
    return this.dir;
  }

  /** A webview's resource roots with the cache folder added when there is one. */
  withCacheRoot(roots: vscode.Uri[]): vscode.Uri[] {
    return this.dir ? [...roots, this.dir] : roots;
  }

  /** Pictures available, for tests and the status of an extraction. */
  get count(): number {
    return this.pictures;
  }

  private uriOf(file: string | undefined): vscode.Uri | undefined {
    return file && this.dir ? vscode.Uri.joinPath(this.dir, file) : undefined;
  }

  icon(kind: IconKind, name: string): vscode.Uri | undefined {
    return this.manifest ? this.uriOf(this.manifest.icons[iconKey(kind, name)]) : undefined;
  }

  good(name: string): vscode.Uri | undefined {
    return this.manifest ? this.uriOf(goodIconFile(this.manifest, name)) : undefined;
  }

  /** By a view's key: `good:<name>` (item or fluid), `recipe:<name>` or `entity:<name>`. */
  byKey(key: string): vscode.Uri | undefined {
    const at = key.indexOf(':');
    const kind = key.slice(0, at);
    const name = key.slice(at + 1);
    return kind === 'good' ? this.good(name) : kind === 'recipe' || kind === 'entity' ? this.icon(kind, name) : undefined;
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
