// Child process for the crash test: saves the project in a tight loop and reports each completed
// save on stdout, until it is killed.
import fs from 'node:fs';
import { Project } from '../../src/core/db/project';

async function main(): Promise<void> {
  const file = process.argv[2];
  const p = fs.existsSync(file) ? await Project.open(file, { app: 'crash-test' }) : await Project.create(file, { app: 'crash-test' });
  if (p.readOnly) {
    fs.writeSync(2, `read-only: ${p.readOnlyReason}\n`);
    process.exit(3);
  }
  let n = Number(p.meta('counter') ?? 0);
  // The kill window starts at the first save, not at the one-time set-up before it.
  p.prepareWrites();
  fs.writeSync(1, 'ready\n');
  for (;;) {
    n++;
    p.write((db) => {
      db.run("INSERT INTO meta(key, value) VALUES ('counter', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [String(n)]);
      // Vary the file size so a torn file could not pass for a whole one.
      db.run('INSERT INTO notes(id, title, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [`n${n}`, 'crash', 'x'.repeat((n * 7919) % 3000), 't', 't']);
      if (n % 5 === 0) db.run('DELETE FROM notes WHERE id <> ?', [`n${n}`]);
    });
    fs.writeSync(1, `saved ${n}\n`);
  }
}

void main();
