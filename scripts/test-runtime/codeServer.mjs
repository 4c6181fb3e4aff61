// Starting the installed VS Code (code-server) and opening its workbench in headless Chromium with
// a `payload` that runs an entry inside the extension host. Shared by the integration runner
// (run.mjs) and the platform benchmark (bench/platform.ts).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { ROOT, CODE_SERVER_BIN, NODE24_DIR, TOOLS_DIR } from './install.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './versions.mjs';

/** Why the installed runtime cannot be used (a missing part), or undefined when it is all there. */
export function runtimeProblem() {
  const parts = [
    [CODE_SERVER_BIN, 'code-server'],
    [path.join(NODE24_DIR, 'bin', 'node'), 'Node 24'],
    [path.join(TOOLS_DIR, 'node_modules', 'playwright-core', 'package.json'), 'playwright-core'],
    [CHROMIUM, 'Chromium'],
  ];
  const missing = parts.filter(([f]) => !fs.existsSync(f)).map(([, name]) => name);
  return missing.length ? `the VS Code test runtime is not installed (missing: ${missing.join(', ')}); run \`node scripts/test-runtime/install.mjs\` or \`npm test\` first` : undefined;
}

/** Runs a command to completion (cwd: the repository); its output is shown only when it fails. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...opts });
  if (r.status !== 0) {
    process.stderr.write((r.stdout ?? '') + (r.stderr ?? ''));
    throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed (${r.status})`);
  }
  return r.stdout;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * A fresh code-server profile under `dir` (emptied first): home, user data with quiet settings
 * (plus `settings`), extensions, workspace and a scratch folder. Keeps code-server and Chromium out of $HOME.
 */
export function createProfile(dir, settings = {}) {
  fs.rmSync(dir, { recursive: true, force: true });
  const profile = {
    dir,
    home: path.join(dir, 'home'),
    ud: path.join(dir, 'user-data'),
    exts: path.join(dir, 'extensions'),
    ws: path.join(dir, 'workspace'),
    work: path.join(dir, 'work'),
  };
  for (const d of [profile.home, path.join(profile.ud, 'User'), profile.exts, profile.ws, profile.work]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(profile.ud, 'User', 'settings.json'), JSON.stringify({
    'telemetry.telemetryLevel': 'off', 'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false,
    'workbench.startupEditor': 'none', 'update.mode': 'none', 'workbench.tips.enabled': false,
    'chat.commandCenter.enabled': false,
    ...settings,
  }, null, 2));
  return profile;
}

/**
 * Starts code-server for `profile` on `host` (127.0.0.1:port), logging to `logFile`. Each page load
 * starts a new extension host; a short reconnection grace lets the old ones exit. Stopped at exit.
 */
export function startCodeServer({ host, profile, env, logFile }) {
  const out = fs.openSync(logFile, 'w');
  const cs = spawn(CODE_SERVER_BIN, [
    '--auth', 'none', '--bind-addr', host, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--reconnection-grace-time', '5', '--vscode-option', 'enable-smoke-test-driver',
    '--user-data-dir', profile.ud, '--extensions-dir', profile.exts, profile.ws,
  ], { env, stdio: ['ignore', out, out], detached: true });
  const stop = () => {
    try {
      process.kill(-cs.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.on('exit', stop);
  return { pid: cs.pid, stop };
}

/** Resolves once code-server answers /healthz; `logHint` says where its log is when it does not. */
export async function waitForCodeServer(host, logHint, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`http://${host}/healthz`).then((r) => r.ok, () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`code-server did not come up within ${Math.round(timeoutMs / 1000)} s; see ${logHint}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The workbench URL that loads `extDir` as the development extension and runs `entry` in its extension host. */
export function payloadUrl(host, extDir, entry, ws) {
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${host}${extDir}`],
    ['extensionTestsPath', `vscode-remote://${host}${entry}`],
  ];
  return `http://${host}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

function playwright() {
  return createRequire(path.join(TOOLS_DIR, 'package.json'))('playwright-core');
}

export function launchChromium() {
  return playwright().chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** Chromium keeping its storage in `userDataDir` across page loads (the workbench's layout and extension state live there). */
export function launchPersistentChromium(userDataDir, viewport = { width: 1400, height: 900 }) {
  return playwright().chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport });
}
