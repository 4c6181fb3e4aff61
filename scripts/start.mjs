// `npm start`: run PyOps on the built-in sample project. With a desktop VS Code (`code` on PATH) it
// opens an Extension Development Host; without one (servers, containers, CI machines) it serves
// VS Code in the browser with code-server from .vscode-test/ and prints the address to open.
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { ensureRuntime, codeServerEnv, ROOT, RUNTIME, CODE_SERVER_BIN } from './test-runtime/install.mjs';
import { vscePackageArgs } from './vsce.mjs';

const step = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

// The folder `npm start` was run from is the workspace (new projects are saved there by default,
// PYOPS_START_FOLDER picks another); a workspace file kept in .vscode-test/ carries the settings that
// ask PyOps to open the sample project when nothing else is open, so the folder itself is not written.
const folder = path.resolve(process.env.PYOPS_START_FOLDER || process.env.INIT_CWD || process.cwd());
const workspace = path.join(RUNTIME, 'pyops-start.code-workspace');
fs.mkdirSync(RUNTIME, { recursive: true });
fs.writeFileSync(workspace, JSON.stringify({ folders: [{ path: folder }], settings: { 'pyops.startup.openSampleProject': true } }, null, 2));

step(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')]);

const hasDesktop = process.env.PYOPS_START_MODE !== 'browser' && spawnSync(process.platform === 'win32' ? 'where' : 'which', ['code'], { stdio: 'ignore' }).status === 0;
if (hasDesktop) {
  step('code', ['--new-window', `--extensionDevelopmentPath=${ROOT}`, workspace], { shell: process.platform === 'win32' });
  console.log('Opened VS Code with PyOps (Extension Development Host) on the sample project.');
  process.exit(0);
}

ensureRuntime();
const vsix = path.join(RUNTIME, 'pyops-start.vsix');
step(process.execPath, vscePackageArgs(vsix), { stdio: ['ignore', 'ignore', 'inherit'] });
// PYOPS_START_PROFILE: another profile folder (the integration run's `npm start` check uses a temporary one).
const profile = process.env.PYOPS_START_PROFILE || path.join(RUNTIME, 'start-profile');
const ud = path.join(profile, 'user-data');
const exts = path.join(profile, 'extensions');
const state = path.join(profile, 'state');
for (const d of [path.join(ud, 'User'), exts, state]) fs.mkdirSync(d, { recursive: true });
const userSettings = path.join(ud, 'User', 'settings.json');
if (!fs.existsSync(userSettings)) fs.writeFileSync(userSettings, JSON.stringify({ 'telemetry.telemetryLevel': 'off', 'update.mode': 'none', 'workbench.startupEditor': 'none' }, null, 2));
// This is the user's own session, so HOME stays theirs: PyOps finds their Factorio (Steam, ~/.factorio)
// for "Sync Game Data" and "Install Companion Mod". Only code-server's own files (its config, data and
// cache) are kept inside the profile.
const configFile = path.join(profile, 'code-server.yaml');
if (!fs.existsSync(configFile)) fs.writeFileSync(configFile, 'auth: none\n');
const env = codeServerEnv({ XDG_CONFIG_HOME: path.join(state, 'config'), XDG_DATA_HOME: path.join(state, 'data'), XDG_CACHE_HOME: path.join(state, 'cache') });
step(CODE_SERVER_BIN, ['--config', configFile, '--user-data-dir', ud, '--extensions-dir', exts, '--install-extension', vsix, '--force'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const bind = process.env.PYOPS_START_BIND || '127.0.0.1:8080';
console.log(`\nPyOps is running in VS Code for the browser: open http://${bind}/ (Ctrl+C to stop).\n`);
// A browser closed without a clean exit leaves its extension host running (holding the project and
// the game link's UDP port) for the reconnection grace time: code-server's default is 3 hours, ours is
// 30 s, after which a reopened page takes the project over. CODE_SERVER_RECONNECTION_GRACE_TIME overrides it.
const grace = ['--reconnection-grace-time', '30'];
const cs = spawn(CODE_SERVER_BIN, ['--config', configFile, '--auth', 'none', '--bind-addr', bind, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', ...grace, '--user-data-dir', ud, '--extensions-dir', exts, workspace], { env, stdio: 'inherit' });
const stop = () => cs.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
cs.on('exit', (code) => process.exit(code ?? 0));
