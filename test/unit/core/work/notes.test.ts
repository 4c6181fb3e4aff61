// Notes edited as ordinary Markdown documents: the first heading is the title, the rest the body,
// and a round trip changes nothing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../src/core/db/project';
import { createNote, deleteNote, getNote, noteFromMarkdown, noteToMarkdown, updateNote } from '../../../../src/core/work/notes';
import { tempDir } from '../../../helpers/paths';

describe('notes as Markdown', () => {
  it('round-trips a note through its Markdown document', () => {
    const n = { title: 'Coke line', body: 'Needs **coal**.\n\n- 4 ovens\n' };
    assert.deepEqual(noteFromMarkdown(noteToMarkdown(n), 'x'), n);
  });

  it('takes the title from a first-line heading and keeps it when there is none', () => {
    assert.deepEqual(noteFromMarkdown('# New name ##\r\n\r\nBody', 'Old'), { title: 'New name', body: 'Body' });
    assert.deepEqual(noteFromMarkdown('Just text\n# Not a title', 'Old'), { title: 'Old', body: 'Just text\n# Not a title' });
    assert.deepEqual(noteFromMarkdown('#  \nBody', 'Old'), { title: 'Old', body: '#  \nBody' });
  });

  it('keeps every # of a title: a closing run is only one that Markdown itself would drop', () => {
    for (const title of ['Learn C#', 'C# and F#', 'Item #', 'Issue ##', '###', '#1 priority', 'a # b', 'Tabs\t#']) {
      const md = noteToMarkdown({ title, body: 'b' });
      // Read as a new document (no current title to fall back on): the heading alone must carry it.
      assert.deepEqual(noteFromMarkdown(md, 'other'), { title, body: 'b' }, `${JSON.stringify(title)} as ${JSON.stringify(md)}`);
    }
    // The headings as CommonMark reads them (spec §4.2: a closing sequence follows a space or tab).
    assert.equal(noteToMarkdown({ title: 'Learn C#', body: '' }), '# Learn C#\n\n');
    assert.equal(noteToMarkdown({ title: 'Item #', body: '' }), '# Item # #\n\n');
    assert.deepEqual(noteFromMarkdown('# Learn C# ##\n\nx', 'old'), { title: 'Learn C#', body: 'x' });
    assert.deepEqual(noteFromMarkdown('# ###\nx', 'old'), { title: 'old', body: '# ###\nx' }, 'a heading of only a closing run is empty');
  });

  it('keeps a multi-line title whole and out of the body', () => {
    const n = { title: 'Line one\nLine two', body: 'The body.' };
    const md = noteToMarkdown(n);
    assert.equal(md, '# Line one Line two\n\nThe body.', 'a heading is one line');
    assert.deepEqual(noteFromMarkdown(md, n.title), n, 'saved unchanged, the title keeps its line breaks and the body is only the body');
    assert.deepEqual(noteFromMarkdown(md.replace('Line two', 'Line 2'), n.title), { title: 'Line one Line 2', body: 'The body.' }, 'an edited heading renames it');
  });

  it('gets, edits and deletes a note, each edit one undoable action', async () => {
    const dir = tempDir();
    const p = await Project.create(path.join(dir, 'n.pyops'));
    try {
      const n = createNote(p, { title: 'Ideas', body: 'a' });
      updateNote(p, n.id, noteFromMarkdown('# Better ideas\n\nb', 'Ideas'));
      assert.deepEqual([getNote(p, n.id).title, getNote(p, n.id).body], ['Better ideas', 'b']);
      assert.equal(p.undoable()?.label, 'Edit note "Better ideas"');
      deleteNote(p, n.id);
      assert.throws(() => getNote(p, n.id), /no note with id/);
      p.undo();
      assert.equal(getNote(p, n.id).title, 'Better ideas');
    } finally {
      p.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
