// Notes: the user's own free text (title + markdown body). The assistant may read them, never
// write them; edits come from the user through the UI and are undoable.
import { z } from 'zod';
import type { Project } from '../db/project';
import { newId, now } from './ids';

export interface Note { id: string; title: string; body: string; createdAt: string; updatedAt: string }

export const noteInput = z.object({ title: z.string().trim().min(1).max(200), body: z.string().max(100_000).default('') });

export function listNotes(p: Project): Note[] {
  return p.query<{ id: string; title: string; body: string; created_at: string; updated_at: string }>('SELECT * FROM notes ORDER BY updated_at DESC').map((n) => ({
    id: n.id, title: n.title, body: n.body, createdAt: n.created_at, updatedAt: n.updated_at,
  }));
}

/** Notes without their bodies, newest first (the Factory view lists them after every write). */
export function noteHeads(p: Project): Array<Omit<Note, 'body'>> {
  return p.query<{ id: string; title: string; created_at: string; updated_at: string }>('SELECT id, title, created_at, updated_at FROM notes ORDER BY updated_at DESC').map((n) => ({
    id: n.id, title: n.title, createdAt: n.created_at, updatedAt: n.updated_at,
  }));
}

export function createNote(p: Project, input: { title: string; body?: string }): Note {
  const n = noteInput.parse(input);
  const id = newId('n');
  const ts = now();
  p.write((db) => db.run('INSERT INTO notes(id, title, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [id, n.title, n.body, ts, ts]), { undo: `Add note "${n.title}"` });
  return { id, title: n.title, body: n.body, createdAt: ts, updatedAt: ts };
}

export function updateNote(p: Project, id: string, input: { title?: string; body?: string }): void {
  const cur = p.query<{ title: string; body: string }>('SELECT title, body FROM notes WHERE id = ?', [id])[0];
  if (!cur) throw new Error(`There is no note with id "${id}".`);
  const n = noteInput.parse({ title: input.title ?? cur.title, body: input.body ?? cur.body });
  p.write((db) => db.run('UPDATE notes SET title = ?, body = ?, updated_at = ? WHERE id = ?', [n.title, n.body, now(), id]), { undo: `Edit note "${n.title}"` });
}

export function getNote(p: Project, id: string): Note {
  const n = p.query<{ id: string; title: string; body: string; created_at: string; updated_at: string }>('SELECT * FROM notes WHERE id = ?', [id])[0];
  if (!n) throw new Error(`There is no note with id "${id}"; it may have been deleted.`);
  return { id: n.id, title: n.title, body: n.body, createdAt: n.created_at, updatedAt: n.updated_at };
}

export function deleteNote(p: Project, id: string): void {
  const n = getNote(p, id);
  p.write((db) => db.run('DELETE FROM notes WHERE id = ?', [id]), { undo: `Delete note "${n.title}"` });
}

/** A note as the Markdown document the editor shows: its title as the first heading, then the body. */
export function noteToMarkdown(n: Pick<Note, 'title' | 'body'>): string {
  return `# ${n.title}\n\n${n.body}`;
}

/**
 * A saved Markdown document back to title and body: a first-line `# heading` is the title (so
 * renaming a note is editing its heading); without one the title stays and everything is the body.
 */
export function noteFromMarkdown(text: string, currentTitle: string): { title: string; body: string } {
  const m = /^\uFEFF?#[ \t]+(.+?)[ \t]*#*[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m || !m[1].trim()) return { title: currentTitle, body: text };
  return { title: m[1].trim().slice(0, 200), body: text.slice(m[0].length).replace(/^(?:\r?\n)+/, '') };
}
