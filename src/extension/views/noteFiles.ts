// Notes as files: `pyops-note:/<title>.md?id=<id>` is a note of the active project as a Markdown document
// (see recordFiles.ts), with the commands that create, open and delete notes.
import * as vscode from 'vscode';
import { createNote, deleteNote, getNote, noteHeads, updateNote } from '../../core/work/notes';
import { MarkdownRecordFiles, recordUri, type MarkdownRecordStore } from './recordFiles';
import type { ProjectManager } from '../projectManager';
import { isTreeRow, textOption } from '../commands/args';

export const NOTE_SCHEME = 'pyops-note';

export function noteUri(id: string, title: string): vscode.Uri {
  return recordUri(NOTE_SCHEME, id, title);
}

const noteStore: MarkdownRecordStore = {
  noun: 'note',
  get: getNote,
  save: (p, id, next) => updateNote(p, id, next),
  delete: deleteNote,
  renameHint: 'Rename a note by editing its first heading.',
};

export function registerNotes(projects: ProjectManager, registerCommand: (id: string, h: (...a: unknown[]) => unknown) => vscode.Disposable): vscode.Disposable[] {
  const files = new MarkdownRecordFiles(projects, noteStore);
  const idArg = (arg: unknown): string | undefined => {
    const a = arg as { kind?: string; note?: { id: string } } | undefined;
    if (isTreeRow(arg) && a?.kind === 'note' && a.note) return a.note.id;
    return textOption(arg, 'noteId');
  };
  const pickNote = async (title: string): Promise<string | undefined> => {
    const notes = noteHeads(projects.require());
    if (!notes.length) throw new Error('This project has no notes yet; create one with "PyOps: New Note…".');
    const pick = await vscode.window.showQuickPick(notes.map((n) => ({ label: n.title, description: new Date(n.updatedAt).toLocaleString(), id: n.id })), { title });
    return pick?.id;
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
      const title = textOption(arg, 'title') ?? await vscode.window.showInputBox({ title: 'New note', placeHolder: 'Title', validateInput: (v) => (v.trim() ? undefined : 'A note needs a title') });
      if (!title?.trim()) return undefined;
      const n = createNote(projects.requireWritable(), { title });
      projects.touch();
      return open(n.id);
    }),
    registerCommand('pyops.note.open', async (arg?: unknown) => {
      const id = idArg(arg) ?? (await pickNote('Open which note?'));
      return id ? open(id) : undefined;
    }),
    registerCommand('pyops.note.delete', async (arg?: unknown) => {
      const id = idArg(arg) ?? (await pickNote('Delete which note?'));
      if (!id) return undefined;
      const p = projects.requireWritable();
      const n = getNote(p, id);
      const sure = textOption(arg, 'noteId') ? 'Delete' : await vscode.window.showWarningMessage(`Delete note "${n.title}"?`, { modal: true, detail: '"PyOps: Undo Last Project Change" brings it back.' }, 'Delete');
      if (sure !== 'Delete') return undefined;
      deleteNote(p, id);
      projects.touch();
      return id;
    }),
  ];
}
