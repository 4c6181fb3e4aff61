// Project records as Markdown files: `<scheme>:/<id>/<title>.md` is one record (a note, a task) of
// the active project as a document, so the editor's own features work (preview, outline, search,
// undo, dirty state, save conflicts). Saving writes the record (first heading = title) as one
// undoable project change; a change made elsewhere (undo, another view, the game, the assistant)
// is announced so an open editor reloads or reports the conflict.
import * as vscode from 'vscode';
import { noteFromMarkdown, noteToMarkdown } from '../../core/work/notes';
import type { Project } from '../../core/db/project';
import type { ProjectManager } from '../projectManager';
import { notOpenText, ProjectHomes } from '../projectHomes';

/** What a kind of record offers to the file system; `get` throws when the record is gone. */
export interface MarkdownRecordStore {
  /** "note", "task": used in messages. */
  noun: string;
  get(p: Project, id: string): { id: string; title: string; body: string; createdAt: string; updatedAt: string };
  save(p: Project, id: string, next: { title: string; body: string }): void;
  delete(p: Project, id: string): void;
  /** What to tell a user who tries to rename the file. */
  renameHint: string;
}

export function recordUri(scheme: string, id: string, title: string): vscode.Uri {
  // One line (a title may have line breaks), without the characters file names cannot hold.
  const name = title.replace(/\s+/g, ' ').replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-').trim().slice(0, 80);
  return vscode.Uri.from({ scheme, path: `/${id}/${name || 'untitled'}.md` });
}

const idOf = (uri: vscode.Uri) => uri.path.split('/')[1] ?? '';

export class MarkdownRecordFiles implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /**
   * Records an editor has read, with the text it saw and the mtime it was given; a project write
   * re-checks them. The text, not the record's updatedAt, decides: a task's steps change its
   * updatedAt but not its document, and an editor with unsaved changes must not see a conflict then.
   */
  private readonly seen = new Map<string, { uri: vscode.Uri; text: string; mtime: number }>();
  /** The project each record was read from, so a document left open across a switch can say where it lives. */
  private readonly homes = new ProjectHomes();
  /** Records whose project was switched away from while open: announced again when it comes back. */
  private readonly away = new Map<string, vscode.Uri>();
  private unsubscribe: (() => void) | undefined;
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly projects: ProjectManager,
    private readonly store: MarkdownRecordStore,
  ) {
    this.sub = projects.onDidChange(() => this.follow());
    this.follow();
  }

  private follow(): void {
    this.unsubscribe?.();
    this.unsubscribe = this.projects.active?.onDidWrite(() => this.announce());
    this.announce();
  }

  private announce(): void {
    const p = this.projects.active;
    const pid = p?.id;
    const events: vscode.FileChangeEvent[] = [];
    for (const [id, uri] of this.away) {
      if (this.homes.elsewhere(id, pid)) continue;
      this.away.delete(id);
      events.push({ type: vscode.FileChangeType.Created, uri });
    }
    for (const [id, s] of this.seen) {
      let now: ReturnType<MarkdownRecordStore['get']> | undefined;
      try {
        now = p ? this.store.get(p, id) : undefined;
      } catch {
        now = undefined;
      }
      if (now === undefined) {
        events.push({ type: vscode.FileChangeType.Deleted, uri: s.uri });
        this.seen.delete(id);
        if (this.homes.elsewhere(id, pid)) this.away.set(id, s.uri);
        continue;
      }
      const text = noteToMarkdown(now);
      if (text === s.text) continue;
      events.push({ type: vscode.FileChangeType.Changed, uri: s.uri });
      this.remember(s.uri, now, text, s.mtime);
    }
    if (events.length) this.changed.fire(events);
  }

  /** The mtime moves forward on every change the editor must reload, even within one millisecond. */
  private remember(uri: vscode.Uri, r: { id: string; updatedAt: string }, text: string, previous = 0): number {
    const mtime = Math.max(Date.parse(r.updatedAt) || 0, previous + 1);
    this.seen.set(r.id, { uri, text, mtime });
    return mtime;
  }

  private record(uri: vscode.Uri) {
    const p = this.projects.active;
    const id = idOf(uri);
    const home = this.homes.elsewhere(id, p?.id);
    // Unsaved text stays in the editor; saying where the record lives tells the user how to save it.
    if (home) throw vscode.FileSystemError.Unavailable(`${notOpenText(`This ${this.store.noun}`, home, p)} Open "${home.name}" again to see or save it.`);
    if (!p) throw vscode.FileSystemError.Unavailable('No PyOps project is open.');
    try {
      const r = this.store.get(p, id);
      this.homes.remember(id, p);
      return { p, r };
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    if (uri.path === '/' || !uri.path.endsWith('.md')) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const { r } = this.record(uri);
    const text = noteToMarkdown(r);
    const seen = this.seen.get(r.id);
    const mtime = seen?.text === text ? seen.mtime : Date.parse(r.updatedAt);
    return { type: vscode.FileType.File, ctime: Date.parse(r.createdAt), mtime, size: Buffer.byteLength(text), ...(this.projects.active?.readOnly ? { permissions: vscode.FilePermission.Readonly } : {}) };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const { r } = this.record(uri);
    const text = noteToMarkdown(r);
    const seen = this.seen.get(r.id);
    if (seen?.text !== text) this.remember(uri, r, text, seen?.mtime);
    return Buffer.from(text, 'utf8');
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const { p, r } = this.record(uri);
    if (p.readOnly) throw vscode.FileSystemError.NoPermissions(`"${p.name}" is read-only: ${p.readOnlyReason}`);
    const next = noteFromMarkdown(Buffer.from(content).toString('utf8'), r.title);
    // Saving an unchanged document writes nothing (no empty undo step).
    if (next.title !== r.title || next.body !== r.body) this.store.save(p, r.id, next);
    const saved = this.store.get(p, r.id);
    this.remember(uri, saved, noteToMarkdown(saved), this.seen.get(r.id)?.mtime);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  delete(uri: vscode.Uri): void {
    const { p, r } = this.record(uri);
    this.store.delete(p, r.id);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions(`A ${this.store.noun} is not a folder.`);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions(this.store.renameHint);
  }

  dispose(): void {
    this.unsubscribe?.();
    this.sub.dispose();
    this.changed.dispose();
  }
}
