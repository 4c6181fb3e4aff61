// Child process of the bounded-cost tests: runs one icon extraction (on its thread, as the
// extension does) from the job file named on the command line and prints the outcome with this
// process's peak resident memory, threads included.
import fs from 'node:fs';
import { extractIcons, type IconSpecRow } from '../../../../../src/core/gamedata/icons/extract';
import type { GameFolders } from '../../../../../src/core/gamedata/icons/modFiles';

interface Job {
  projectFile: string;
  specs: IconSpecRow[];
  folders: GameFolders;
}

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as Job;
const t0 = performance.now();
let outcome: Record<string, unknown>;
try {
  outcome = { summary: await extractIcons(job.projectFile, 'fp', job.specs, { folders: job.folders, size: 16 }) };
} catch (err) {
  outcome = { error: (err as Error).message };
}
process.stdout.write(JSON.stringify({ ...outcome, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), seconds: (performance.now() - t0) / 1000 }));
