// sql.js's WebAssembly compiled ahead by an entry (the extension's) is what sql.js then runs, and a
// compile that failed costs nothing but the time: sql.js compiles the file itself. Each case is its own
// process: sql.js loads once per process, and the compile changes a process-wide V8 flag.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { REPO } from '../../../helpers/paths';

const WASM = createRequire(path.join(REPO, 'package.json')).resolve('sql.js/dist/sql-wasm.wasm');

const DRIVER = `
const { compileWasmAhead, handOverSqlWasm, takeSqlWasm } = require(${JSON.stringify(path.join(REPO, 'src/core/db/wasmAhead.ts'))});
const { loadSqlJs, scalar } = require(${JSON.stringify(path.join(REPO, 'src/core/db/sqlite.ts'))});
(async () => {
  const ahead = compileWasmAhead(process.argv[1]);
  handOverSqlWasm(ahead);
  let compiled = false;
  ahead.module.then(() => (compiled = true), () => undefined);
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  const answer = scalar(db, 'SELECT 6 * 7');
  db.close();
  await ahead.settled;
  process.stdout.write(JSON.stringify({ answer, compiled, takenOnce: takeSqlWasm() === undefined }));
})().catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });
`;

function run(wasmFile: string): { answer: number; compiled: boolean; takenOnce: boolean } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', DRIVER, wasmFile], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('sql.js compiled ahead', function () {
  this.timeout(60_000);

  it('runs statements on the module the entry compiled, and hands it over once', () => {
    assert.deepEqual(run(WASM), { answer: 42, compiled: true, takenOnce: true });
  });

  it('compiles the file itself when the compile handed over failed', () => {
    assert.deepEqual(run(path.join(REPO, 'no-such-file.wasm')), { answer: 42, compiled: false, takenOnce: true });
  });
});
