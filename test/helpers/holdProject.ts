// Child process for lock tests: opens a project, says so, and waits to be killed.
import { Project } from '../../src/core/db/project';

const p = await Project.open(process.argv[2], { app: 'test-holder' });
if (p.readOnly) {
  console.log('read-only');
  process.exit(3);
}
console.log('holding');
setInterval(() => {}, 1000);
