// `npm run bench [-- --json]`: speed figures on real data from ../shared/data, as one JSON object
// (with --json) or a readable table. Targets are stated next to each figure; tests never time.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchImport, benchSmallWrite } from './store';

const here = path.dirname(fileURLToPath(import.meta.url));
const SHARED = path.resolve(here, '..', '..', 'shared', 'data');
const json = process.argv.includes('--json');

interface Entry {
  target: string;
  met: boolean;
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = { machine: { node: process.version, cpus: (await import('node:os')).cpus().length }, skipped: [] as string[] };
  const skipped = out.skipped as string[];
  const checks: Record<string, Entry> = {};
  const py = path.join(SHARED, 'py-hightech-2.0-data-raw');
  if (fs.existsSync(py)) {
    const imp = await benchImport(py);
    out.import = imp.result;
    checks.import = { target: 'ratio ≤ 6', met: imp.result.ratio <= 6 };
    const sw = await benchSmallWrite(imp.projectFile);
    out.smallWrite = sw;
    checks.smallWrite = { target: 'ms ≤ 10 and ≥ 20× below fullExportMs', met: sw.ms <= 10 && sw.fullExportMs >= 20 * sw.ms };
    fs.rmSync(imp.dir, { recursive: true, force: true });
  } else {
    skipped.push(`import, smallWrite: ${py} is missing`);
  }
  out.targets = checks;
  if (json) {
    process.stdout.write(JSON.stringify(out) + '\n');
  } else {
    for (const [k, v] of Object.entries(out)) if (k !== 'targets') console.log(k.padEnd(12), JSON.stringify(v));
    for (const [k, c] of Object.entries(checks)) console.log(`${c.met ? '✔' : '✘'} ${k}: ${c.target}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
