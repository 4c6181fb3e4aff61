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

// A record (note or task) as a Markdown document: the title is the first heading, the rest the
// body. A heading is one line, and Markdown drops a closing run of `#` from it, so a title is
// written so that it reads back whole: line breaks become spaces (an unchanged heading keeps the
// title as it was), and a title ending in a `#` run after a space gets an explicit closing ` #`.

/** The title on one line, as its heading shows it. */
function headingLine(title: string): string {
  return title.replace(/\s*[\r\n]+\s*/g, ' ');
}

/** A note as the Markdown document the editor shows: its title as the first heading, then the body. */
export function noteToMarkdown(n: Pick<Note, 'title' | 'body'>): string {
  const line = headingLine(n.title);
  // "Learn C#" stays as it is (a `#` run right after a letter closes nothing); "Item #" would lose its `#`.
  const heading = /(?:^|[ \t])#+$/.test(line) ? `${line} #` : line;
  return `# ${heading}\n\n${n.body}`;
}

/**
 * A saved Markdown document back to title and body: a first-line `# heading` is the title (so
 * renaming a note is editing its heading); without one the title stays and everything is the body.
 */
export function noteFromMarkdown(text: string, currentTitle: string): { title: string; body: string } {
  const m = /^\uFEFF?#[ \t]+([^\r\n]*)(?:\r?\n|$)/.exec(text);
  const heading = m ? headingText(m[1]) : '';
  if (!m || !heading) return { title: currentTitle, body: text };
  const title = heading === headingLine(currentTitle) ? currentTitle : heading.slice(0, 200);
  return { title, body: text.slice(m[0].length).replace(/^(?:\r?\n)+/, '') };
}

/** A heading's text without its closing sequence (CommonMark: a `#` run after a space or tab, or all there is). */
function headingText(raw: string): string {
  const s = raw.trim();
  let j = s.length;
  while (j > 0 && s[j - 1] === '#') j--;
  if (j === s.length || (j > 0 && s[j - 1] !== ' ' && s[j - 1] !== '\t')) return s;
  return s.slice(0, j).trim();
}
