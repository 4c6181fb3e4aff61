// Child process for the damage tests: creates a project, saves one note per write and reports each
// acknowledged save on stdout, checkpoints after the writes listed in argv, then waits to be killed
// (so the journal is left unfolded, as after a crash).
import fs from 'node:fs';
import { Project } from '../../src/core/db/project';

async function main(): Promise<void> {
  const [file, count, ...checkpoints] = process.argv.slice(2);
  const at = new Set(checkpoints.map(Number));
  const p = await Project.create(file, { app: 'damage-test' });
  for (let i = 1; i <= Number(count); i++) {
    p.write((db) => db.run('INSERT INTO tasks(id, title, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [`t${i}`, `Task number ${i}`, 'x'.repeat((i * 131) % 700), 't', 't']));
    fs.writeSync(1, `ack ${i}\n`);
    if (at.has(i)) p.checkpoint();
  }
  fs.writeSync(1, 'done\n');
  setInterval(() => {}, 1000);
}

void main();
