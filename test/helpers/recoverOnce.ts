// Child process for the "killed during recovery" test: applies recovery to the project in argv.
import fs from 'node:fs';
import { recoverProject } from '../../src/core/db/recover';

recoverProject(process.argv[2], { apply: true }).then(
  (r) => fs.writeSync(1, `recovered ${r.keptIn ?? 'nothing'}\n`),
  (err) => {
    fs.writeSync(2, `${(err as Error).message}\n`);
    process.exit(1);
  },
);
