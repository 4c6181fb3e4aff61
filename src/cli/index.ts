// Entry of the command line's bundle, dist/cli-main.cjs (dist/cli.cjs loads it, see launch.ts).
import { run } from './main';

/**
 * Exit as soon as the command is done and its output is out. Every command returns only when its
 * work is finished (servers when they stop), but Node would still wait for V8's background work, such
 * as optimizing what just ran, before exiting: up to ~100 ms of a `pyops tool` call spent on nothing.
 */
function exitWhenFlushed(code: number): void {
  let pending = 2;
  const flushed = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', flushed);
  process.stderr.write('', flushed);
}

// A reader that stops early (`pyops tools | head`) closes the pipe: that ends the output, not in a crash.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

run(process.argv.slice(2)).then(exitWhenFlushed, (err) => {
  process.stderr.write(`pyops: ${err instanceof Error ? err.message : String(err)}\n`);
  exitWhenFlushed(1);
});
