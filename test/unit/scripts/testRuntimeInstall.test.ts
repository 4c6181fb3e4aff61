// The VS Code test runtime is installed from inside `npm test` / `npm start`, i.e. under an outer npm
// run on the machine's Node. These tests install a probe package the way the installer installs
// code-server and check what its install script saw: the nested npm must not inherit the outer run's
// user agent, nodedir, NODE or lifecycle PATH entries (code-server's postinstall refused Node 20 that way).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { cleanNpmEnv } from '../../../scripts/test-runtime/npmEnv.mjs';
import { npmInstall } from '../../../scripts/test-runtime/install.mjs';
import { tempDir } from '../../helpers/paths';

const FOREIGN = {
  npm_config_user_agent: 'npm/0.0.1 node/v0.0.0-foreign linux x64 workspaces/false',
  npm_config_nodedir: '/foreign/node',
  npm_lifecycle_event: 'test',
  npm_execpath: '/foreign/npm-cli.js',
  NODE: '/foreign/bin/node',
  INIT_CWD: '/foreign',
};

function withOuterNpmRun<T>(fn: () => T): T {
  const saved = { ...process.env };
  Object.assign(process.env, FOREIGN, { PATH: `/foreign/project/node_modules/.bin${path.delimiter}${process.env.PATH}` });
  try {
    return fn();
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** A package whose install script records the environment it runs in. */
function probePackage(dir: string): string {
  const src = path.join(dir, 'probe-src');
  fs.mkdirSync(src, { recursive: true });
  const record = `require('fs').writeFileSync(process.env.PROBE_OUT, JSON.stringify({ version: process.version, execPath: process.execPath, env: process.env }))`;
  fs.writeFileSync(path.join(src, 'package.json'), JSON.stringify({ name: 'pyops-env-probe', version: '1.0.0', scripts: { postinstall: `node -e "${record}"` } }));
  const tgz = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: src, encoding: 'utf8', env: cleanNpmEnv(process.env) }).trim().split('\n').pop()!;
  return path.join(dir, tgz);
}

describe('test runtime installer', function () {
  this.timeout(120_000);

  it('runs a nested install with the chosen Node and none of the outer npm run’s exports', function () {
    const dir = tempDir('pyops-installer-');
    const tgz = probePackage(dir);
    const out = path.join(dir, 'probe.json');
    withOuterNpmRun(() => npmInstall(path.join(dir, 'target'), [tgz], { node: process.execPath, env: { PROBE_OUT: out }, quiet: true }));
    const seen = JSON.parse(fs.readFileSync(out, 'utf8')) as { version: string; env: Record<string, string> };
    assert.equal(seen.version, process.version);
    assert.match(seen.env.npm_config_user_agent, new RegExp(`node/${process.version.replace(/\./g, '\\.')} `));
    for (const [k, v] of Object.entries(FOREIGN)) assert.notEqual(seen.env[k], v, `${k} leaked into the nested install`);
    assert.ok(!seen.env.PATH.includes('/foreign/project/node_modules/.bin'), 'the outer project’s .bin leaked onto PATH');
    assert.ok(seen.env.PATH.split(path.delimiter)[0] !== '/foreign/project/node_modules/.bin');
  });

  it('keeps network settings a user set in the shell and puts the chosen Node first on PATH', function () {
    const env = cleanNpmEnv(
      { ...FOREIGN, npm_config_registry: 'https://registry.example.invalid/', npm_config_https_proxy: 'http://proxy.invalid:3128', PATH: ['/x/node_modules/.bin', '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin', '/usr/bin'].join(path.delimiter), HOME: '/home/ada' },
      { nodeBinDir: '/opt/node24/bin' },
    );
    assert.equal(env.npm_config_registry, 'https://registry.example.invalid/');
    assert.equal(env.npm_config_https_proxy, 'http://proxy.invalid:3128');
    assert.equal(env.HOME, '/home/ada');
    assert.deepEqual(env.PATH!.split(path.delimiter), ['/opt/node24/bin', '/usr/bin']);
    for (const k of Object.keys(FOREIGN)) assert.equal(env[k], undefined, k);
  });
});
