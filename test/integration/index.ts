// Runs inside the VS Code extension host (extensionTestsPath). Mocha is bundled in; the suites are
// required after the BDD globals exist. VS Code forwards console arguments unformatted, so the
// reporter prints finished lines, ending with "N passed, N failed" for the runner and CI.
import Mocha from 'mocha';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadSuites: () => void = require('pyops:suites');

/** Lines the runner shows start with this tag; everything else stays in the console log. */
const TAG = '[pyops-test] ';
const say = (text: string) => {
  for (const line of text.split('\n')) console.log(TAG + line);
};

class LineReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    let passed = 0;
    let failed = 0;
    let pending = 0;
    runner.on('suite', (s) => {
      if (s.title) say(s.title);
    });
    runner.on('pass', (t) => {
      passed++;
      say(`  ✔ ${t.title} (${t.duration ?? 0} ms)`);
    });
    runner.on('pending', (t) => {
      pending++;
      say(`  - ${t.title} (pending)`);
    });
    runner.on('fail', (t, err) => {
      failed++;
      say(`  ✘ ${t.fullTitle()}\n    ${String(err?.stack ?? err).split('\n').slice(0, 12).join('\n    ')}`);
    });
    runner.once('end', () => say(`${passed} passed, ${failed} failed${pending ? `, ${pending} pending` : ''}`));
  }
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: LineReporter });
  mocha.suite.emit('pre-require', globalThis, 'suites', mocha);
  loadSuites();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
  });
}
