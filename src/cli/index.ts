// Entry of dist/cli.cjs.
import { run } from './main';

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`pyops: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
