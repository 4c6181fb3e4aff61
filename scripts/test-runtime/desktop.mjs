// `npm run test:desktop`: the same integration suite (test/integration) in a desktop VS Code's
// Extension Development Host, through @vscode/test-electron. VS Code comes from
// PYOPS_VSCODE_EXECUTABLE (an installed `code` binary or Code.exe), else it is downloaded
// (PYOPS_VSCODE_VERSION, default "stable") into .vscode-test/desktop/. The UI checks the tests ask for
// are served by Playwright over the window's DevTools port, as the browser runner serves them.
// Machines that cannot reach VS Code's download servers (this project's CI) use `npm run test:integration`.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { ensureTools, ROOT, RUNTIME, TOOLS_DIR } from './install.mjs';
import { bundleTests } from './bundle.mjs';
import { serveUiRequests } from './ui.mjs';
import { freePort } from './codeServer.mjs';

const OUT = path.join(ROOT, 'test-output', 'desktop');
const log = (m) => console.log(`[desktop] ${m}`);

async function vscodeExecutable(testElectron) {
  const given = process.env.PYOPS_VSCODE_EXECUTABLE;
  if (given) {
    if (!fs.existsSync(given)) throw new Error(`PYOPS_VSCODE_EXECUTABLE is ${given}, but there is no file there; point it at VS Code's executable (the \`code\` binary's target, or Code.exe), or unset it to download VS Code.`);
    return given;
  }
  const version = process.env.PYOPS_VSCODE_VERSION || 'stable';
  try {
    return await testElectron.downloadAndUnzipVSCode({ version, cachePath: path.join(RUNTIME, 'desktop') });
  } catch (err) {
    throw new Error(`Could not download VS Code ${version} (${err.message}). Set PYOPS_VSCODE_EXECUTABLE to an installed VS Code, or use \`npm run test:integration\` (code-server from npm) on machines without access to VS Code's download servers.`);
  }
}

/** Serve the suite's UI checks from the Electron window, reached over its DevTools port. */
async function serveUiOverCdp(port) {
  const { chromium } = createRequire(path.join(TOOLS_DIR, 'package.json'))('playwright-core');
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
      const page = browser.contexts().flatMap((c) => c.pages()).find((p) => p.url().includes('workbench'));
      if (page) {
        const ui = serveUiRequests(page, OUT);
        return { stop: async () => { ui.stop(); await browser.close().catch(() => {}); } };
      }
      await browser.close().catch(() => {});
    } catch {
      // the window is not up yet
    }
    if (Date.now() > deadline) {
      log('could not reach the VS Code window over DevTools; UI checks will fail');
      return { stop: async () => {} };
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function main() {
  ensureTools();
  const testElectron = await import('@vscode/test-electron');
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
  const testsEntry = await bundleTests(log);
  const executable = await vscodeExecutable(testElectron);
  log(`VS Code: ${executable}`);

  const profile = path.join(RUNTIME, 'desktop-profile');
  fs.rmSync(profile, { recursive: true, force: true });
  const ud = path.join(profile, 'user-data');
  const exts = path.join(profile, 'extensions');
  const ws = path.join(profile, 'workspace');
  const work = path.join(profile, 'work');
  for (const d of [path.join(ud, 'User'), exts, ws, work]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(ud, 'User', 'settings.json'), JSON.stringify({
    'telemetry.telemetryLevel': 'off', 'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false,
    'workbench.startupEditor': 'none', 'update.mode': 'none', 'workbench.tips.enabled': false, 'chat.commandCenter.enabled': false,
  }, null, 2));
  const cdpPort = await freePort();
  const ui = serveUiOverCdp(cdpPort);
  let code = 1;
  try {
    code = await testElectron.runTests({
      vscodeExecutablePath: executable,
      // PyOps under development, and the test-only language model (a stand-in for Copilot).
      extensionDevelopmentPath: [ROOT, path.join(ROOT, 'test', 'integration', 'fake-lm-extension')],
      extensionTestsPath: testsEntry,
      extensionTestsEnv: {
        PYOPS_TEST_REPO: ROOT, PYOPS_TEST_WORK: work, PYOPS_TEST_OUTPUT: OUT,
        PYOPS_TEST_SHARED_DATA: path.resolve(ROOT, '..', 'shared', 'data'),
      },
      launchArgs: [ws, '--user-data-dir', ud, '--extensions-dir', exts, '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes', '--disable-telemetry', `--remote-debugging-port=${cdpPort}`],
      reuseMachineInstall: false,
    }).then(() => 0, (err) => {
      log(err.message);
      return 1;
    });
  } finally {
    await (await ui).stop();
  }
  // The suite's reporter prints its own "N passed, N failed" line on VS Code's stdout; repeat the verdict.
  log(code === 0 ? 'the suite passed' : 'the suite failed');
  log(`screenshots and logs: ${path.relative(ROOT, OUT)}/`);
  process.exit(code);
}

main().catch((err) => {
  console.error(`[desktop] ${err.message}`);
  process.exit(1);
});
