// Runs inside the VS Code extension host (extensionTestsPath). Mocha is bundled in; the suites are
// required after the BDD globals exist. VS Code forwards console arguments unformatted, so the
// reporter prints finished lines, ending with "N passed, N failed" for the runner and CI.
//
// A suite may ask for a window reload (helpers.reloadAfterSuites): once every other test has run,
// its preparation runs, the tally is written down and the window reloads; VS Code then runs this
// entry again in the new extension host, which runs only the tests titled AFTER_RELOAD and prints
// the combined summary.
import Mocha from 'mocha';
import * as vscode from 'vscode';
import fs from 'node:fs';
import path from 'node:path';
import { AFTER_RELOAD, reloadRequested } from './helpers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadSuites: () => void = require('pyops:suites');

/** Lines the runner shows start with this tag; everything else stays in the console log. */
const TAG = '[pyops-test] ';
const say = (text: string) => {
  for (const line of text.split('\n')) console.log(TAG + line);
};

interface Tally {
  passed: number;
  failed: number;
  pending: number;
}

const resumeFile = () => (process.env.PYOPS_TEST_OUTPUT ? path.join(process.env.PYOPS_TEST_OUTPUT, 'reload-resume.json') : undefined);

/** The tally of the run before a reload, when this run is its second half (read once, then removed). */
function takeResume(): Tally | undefined {
  const f = resumeFile();
  if (!f || !fs.existsSync(f)) return undefined;
  const t = JSON.parse(fs.readFileSync(f, 'utf8')) as Tally;
  fs.rmSync(f, { force: true });
  return t;
}

function lineReporter(before: Tally | undefined, onEnd: (t: Tally) => boolean) {
  return class LineReporter extends Mocha.reporters.Base {
    constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
      super(runner, options);
      const t: Tally = { passed: before?.passed ?? 0, failed: before?.failed ?? 0, pending: before?.pending ?? 0 };
      runner.on('suite', (s) => {
        if (s.title) say(s.title);
      });
      runner.on('pass', (x) => {
        t.passed++;
        say(`  ✔ ${x.title} (${x.duration ?? 0} ms)`);
      });
      runner.on('pending', (x) => {
        t.pending++;
        say(`  - ${x.title} (pending)`);
      });
      runner.on('fail', (x, err) => {
        t.failed++;
        say(`  ✘ ${x.fullTitle()}\n    ${String(err?.stack ?? err).split('\n').slice(0, 12).join('\n    ')}`);
      });
      runner.once('end', () => {
        // A reload follows: the summary comes from the run after it.
        if (onEnd(t)) return;
        say(`${t.passed} passed, ${t.failed} failed${t.pending ? `, ${t.pending} pending` : ''}`);
      });
    }
  };
}

export function run(): Promise<void> {
  const before = takeResume();
  let reloading: Tally | undefined;
  const reporter = lineReporter(before, (t) => {
    if (before || !reloadRequested() || !resumeFile()) return false;
    reloading = t;
    return true;
  });
  // Before a reload: everything but the AFTER_RELOAD tests; after it: only those.
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter, grep: AFTER_RELOAD, invert: !before });
  mocha.suite.emit('pre-require', globalThis, 'suites', mocha);
  loadSuites();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => {
      const t = reloading;
      if (t) {
        // Never settle: the reload ends this extension host, and VS Code runs the tests again after it.
        void reloadRequested()!()
          .catch((err: Error) => {
            t.failed++;
            say(`  ✘ preparing the window reload\n    ${String(err?.stack ?? err).split('\n').slice(0, 12).join('\n    ')}`);
          })
          .then(() => {
            fs.writeFileSync(resumeFile()!, JSON.stringify(t));
            say(`(${t.passed} passed so far; reloading the window for the tests that run after it)`);
            return vscode.commands.executeCommand('workbench.action.reloadWindow');
          });
        return;
      }
      const total = failures + (before?.failed ?? 0);
      if (total) reject(new Error(`${total} integration test(s) failed`));
      else resolve();
    });
  });
}
