// Notes as files: `pyops-note:/<id>/<title>.md` is a note of the active project as a Markdown document,
// so the editor's own features work (preview, outline, search, undo, dirty state, save conflicts).
// Saving writes the note (first heading = title) as one undoable project change; a change made
// elsewhere (undo, another view) is announced so an open editor reloads or reports the conflict.
import * as vscode from 'vscode';
import { createNote, deleteNote, getNote, listNotes, noteFromMarkdown, noteToMarkdown, updateNote } from '../../core/work/notes';
import type { ProjectManager } from '../projectManager';

export const NOTE_SCHEME = 'pyops-note';

export function noteUri(id: string, title: string): vscode.Uri {
  return vscode.Uri.from({ scheme: NOTE_SCHEME, path: `/${id}/${title.replace(/[\\/:*?"<>|]/g, '-').slice(0, 80) || 'note'}.md` });
}

const idOf = (uri: vscode.Uri) => uri.path.split('/')[1] ?? '';

export class NoteFiles implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** Notes an editor has read, with the version it saw; a project write re-checks them. */
  private readonly seen = new Map<string, { uri: vscode.Uri; updatedAt: string }>();
  private unsubscribe: (() => void) | undefined;
  private readonly sub: vscode.Disposable;

  constructor(private readonly projects: ProjectManager) {
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
    const events: vscode.FileChangeEvent[] = [];
    for (const [id, s] of this.seen) {
      let now: string | undefined;
      try {
        now = p ? getNote(p, id).updatedAt : undefined;
      } catch {
        now = undefined;
      }
      if (now === s.updatedAt) continue;
      if (now === undefined) {
        events.push({ type: vscode.FileChangeType.Deleted, uri: s.uri });
        this.seen.delete(id);
      } else {
        events.push({ type: vscode.FileChangeType.Changed, uri: s.uri });
        s.updatedAt = now;
      }
    }
    if (events.length) this.changed.fire(events);
  }

  private note(uri: vscode.Uri) {
    const p = this.projects.active;
    if (!p) throw vscode.FileSystemError.Unavailable('No PyOps project is open.');
    try {
      return { p, n: getNote(p, idOf(uri)) };
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    if (uri.path === '/' || !uri.path.endsWith('.md')) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const { n } = this.note(uri);
    const text = Buffer.byteLength(noteToMarkdown(n));
    return { type: vscode.FileType.File, ctime: Date.parse(n.createdAt), mtime: Date.parse(n.updatedAt), size: text, ...(this.projects.active?.readOnly ? { permissions: vscode.FilePermission.Readonly } : {}) };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const { n } = this.note(uri);
    this.seen.set(n.id, { uri, updatedAt: n.updatedAt });
    return Buffer.from(noteToMarkdown(n), 'utf8');
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const { p, n } = this.note(uri);
    if (p.readOnly) throw vscode.FileSystemError.NoPermissions(`"${p.name}" is read-only: ${p.readOnlyReason}`);
    const next = noteFromMarkdown(Buffer.from(content).toString('utf8'), n.title);
    updateNote(p, n.id, next);
    const saved = getNote(p, n.id);
    this.seen.set(n.id, { uri, updatedAt: saved.updatedAt });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  delete(uri: vscode.Uri): void {
    const { p, n } = this.note(uri);
    deleteNote(p, n.id);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('Notes are not folders; use "PyOps: New Note…".');
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions("Rename a note by editing its first heading.");
  }

  dispose(): void {
    this.unsubscribe?.();
    this.sub.dispose();
    this.changed.dispose();
  }
}

export function registerNotes(projects: ProjectManager, registerCommand: (id: string, h: (...a: unknown[]) => unknown) => vscode.Disposable): vscode.Disposable[] {
  const files = new NoteFiles(projects);
  const idArg = (arg: unknown): string | undefined => {
    const a = arg as { kind?: string; note?: { id: string }; noteId?: unknown } | undefined;
    if (a?.kind === 'note' && a.note) return a.note.id;
    return typeof a?.noteId === 'string' ? a.noteId : undefined;
  };
  const open = async (id: string) => {
    const n = getNote(projects.require(), id);
    const doc = await vscode.workspace.openTextDocument(noteUri(n.id, n.title));
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc.uri.toString();
  };
  return [
    files,
    vscode.workspace.registerFileSystemProvider(NOTE_SCHEME, files, { isCaseSensitive: true }),
    registerCommand('pyops.note.new', async (arg?: unknown) => {
      const given = (arg as { title?: unknown } | undefined)?.title;
      const title = typeof given === 'string' ? given : await vscode.window.showInputBox({ title: 'New note', placeHolder: 'Title', validateInput: (v) => (v.trim() ? undefined : 'A note needs a title') });
      if (!title?.trim()) return undefined;
      const n = createNote(projects.requireWritable(), { title });
      projects.touch();
      return open(n.id);
    }),
    registerCommand('pyops.note.open', async (arg?: unknown) => {
      const id = idArg(arg);
      if (id) return open(id);
      const notes = listNotes(projects.require());
      if (!notes.length) throw new Error('This project has no notes yet; create one with "PyOps: New Note…".');
      const pick = await vscode.window.showQuickPick(notes.map((n) => ({ label: n.title, description: new Date(n.updatedAt).toLocaleString(), id: n.id })), { title: 'Open which note?' });
      return pick ? open(pick.id) : undefined;
    }),
    registerCommand('pyops.note.delete', async (arg?: unknown) => {
      const id = idArg(arg);
      if (!id) throw new Error('Choose a note in the Factory view to delete.');
      const p = projects.requireWritable();
      const n = getNote(p, id);
      const sure = (arg as { noteId?: unknown })?.noteId ? 'Delete' : await vscode.window.showWarningMessage(`Delete note "${n.title}"?`, { modal: true, detail: '"PyOps: Undo Last Project Change" brings it back.' }, 'Delete');
      if (sure !== 'Delete') return undefined;
      deleteNote(p, id);
      projects.touch();
      return id;
    }),
  ];
}
