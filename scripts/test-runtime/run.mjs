// `npm run test:integration`: runs test/integration inside a real VS Code. Installs the runtime if
// needed (.vscode-test/), builds and packages the extension, installs the .vsix into a fresh
// code-server profile, opens the workbench in headless Chromium with an extension-tests payload,
// and exits with the tests' exit code after printing "N passed, N failed".
import fs from 'node:fs';
import path from 'node:path';
import { ensureRuntime, isolatedEnv, ROOT, RUNTIME, CODE_SERVER_BIN } from './install.mjs';
import { vscePackageArgs } from '../vsce.mjs';
import { checkNpmStart } from './startCheck.mjs';
import { bundleTests } from './bundle.mjs';
import { serveUiRequests } from './ui.mjs';
import { createProfile, freePort, launchChromium, payloadUrl, run, startCodeServer, waitForCodeServer } from './codeServer.mjs';

const OUT = path.join(ROOT, 'test-output', 'integration');
const TIMEOUT_MS = Number(process.env.PYOPS_INTEGRATION_TIMEOUT_MS || 600_000);
/** Set when only some suites run (bundle.mjs picks them); the `npm start` check is then skipped. */
const ONLY = process.env.PYOPS_INTEGRATION_ONLY;
const log = (m) => console.log(`[integration] ${m}`);

async function main() {
  ensureRuntime();
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  if (!process.env.PYOPS_SKIP_BUILD) run(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')]);
  const testsEntry = await bundleTests(log);

  // Everything of this run (packages, profile) in its own folder, so two checkouts sharing one runtime
  // can run the suite at the same time; removed when the run ends.
  fs.mkdirSync(RUNTIME, { recursive: true });
  const runDir = fs.mkdtempSync(path.join(RUNTIME, 'run-'));
  process.on('exit', () => fs.rmSync(runDir, { recursive: true, force: true }));
  const vsix = path.join(runDir, 'pyops-test.vsix');
  run(process.execPath, vscePackageArgs(vsix, ['--skip-license']));
  log(`packaged ${path.relative(ROOT, vsix)} (${(fs.statSync(vsix).size / 1024).toFixed(0)} KB)`);

  // A fresh, isolated profile for every run; code-server and Chromium stay out of $HOME.
  const profile = createProfile(path.join(runDir, 'profile'));
  const { home, ud, exts, ws, work } = profile;
  const env = isolatedEnv(home, {
    PYOPS_TEST_REPO: ROOT, PYOPS_TEST_WORK: work, PYOPS_TEST_OUTPUT: OUT,
    PYOPS_TEST_SHARED_DATA: path.resolve(ROOT, '..', 'shared', 'data'),
  });
  run(CODE_SERVER_BIN, ['--user-data-dir', ud, '--extensions-dir', exts, '--install-extension', vsix], { env });
  const installed = fs.readdirSync(exts).find((d) => d.startsWith('pyops.pyops-vscode-'));
  if (!installed) throw new Error(`the .vsix did not install into ${exts}`);
  // A test-only language model (a stand-in for Copilot) in its own extension; it never ships.
  const fakeLmDir = path.join(ROOT, 'test', 'integration', 'fake-lm-extension');
  const fakeLm = path.join(runDir, 'pyops-fake-lm.vsix');
  run(process.execPath, vscePackageArgs(fakeLm, ['--skip-license', '--allow-missing-repository']), { cwd: fakeLmDir });
  run(CODE_SERVER_BIN, ['--user-data-dir', ud, '--extensions-dir', exts, '--install-extension', fakeLm], { env });
  if (!fs.readdirSync(exts).some((d) => d.startsWith('pyops-test.pyops-fake-lm-'))) throw new Error('the test language-model extension did not install');
  log('installed the test language-model extension');
  const extDir = path.join(exts, installed);
  log(`installed ${installed}`);

  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const { stop: stopServer } = startCodeServer({ host, profile, env, logFile: path.join(OUT, 'code-server.log') });

  let suite = { ok: false, passed: 0, failed: 1 };
  try {
    await waitForCodeServer(host, 'test-output/integration/code-server.log');
    suite = await runInBrowser(host, extDir, testsEntry, ws);
  } finally {
    stopServer();
  }
  // The README's `npm start`, checked as one more test once the suite has finished with the runtime
  // (not when only some suites were asked for).
  let startFailure;
  if (ONLY) log('skipped the `npm start` check (PYOPS_INTEGRATION_ONLY is set)');
  else {
    log('checking `npm start` (README) …');
    startFailure = await checkNpmStart({ port: await freePort(), outDir: OUT, log }).catch((err) => `npm start check crashed: ${err.message}`);
    if (startFailure) console.log(`  ✘ npm start serves the sample project\n    ${startFailure}`);
    else console.log('  ✔ npm start serves the sample project');
  }
  log(`screenshots and logs: ${path.relative(ROOT, OUT)}/`);
  const passed = suite.passed + (ONLY || startFailure ? 0 : 1);
  const failed = suite.failed + (startFailure ? 1 : 0);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(suite.ok && !startFailure ? 0 : 1);
}

async function runInBrowser(host, extDir, testsEntry, ws) {
  const url = payloadUrl(host, extDir, testsEntry, ws);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const consoleLog = fs.createWriteStream(path.join(OUT, 'extension-host-console.log'));
  let summary;
  page.on('console', (m) => {
    const t = m.text().replace(/%c|color: #[0-9a-f]+/gi, '').trim();
    consoleLog.write(t + '\n');
    const tagged = t.indexOf('[pyops-test] ');
    if (tagged >= 0) console.log(t.slice(tagged + '[pyops-test] '.length));
    const s = t.match(/(\d+) passed, (\d+) failed/);
    if (s) summary = s[0];
  });
  let finish;
  const exited = new Promise((r) => (finish = r));
  await page.exposeFunction('codeAutomationExit', (c) => finish(c));
  const t0 = Date.now();
  await page.goto(url);
  const timer = setTimeout(() => finish('timeout'), TIMEOUT_MS);
  const ui = serveUiRequests(page, OUT);
  const code = await exited;
  clearTimeout(timer);
  ui.stop();
  log(`extension tests finished in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  await page.screenshot({ path: path.join(OUT, 'workbench-end.png') }).catch(() => {});
  await browser.close();
  const m = summary && /(\d+) passed, (\d+) failed/.exec(summary);
  if (!m) console.log(`[integration] no test summary (exit ${code}); see test-output/integration/extension-host-console.log`);
  return { ok: code === 0, passed: m ? Number(m[1]) : 0, failed: m ? Number(m[2]) : 1 };
}

main().catch((err) => {
  console.error(`[integration] ${err.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
