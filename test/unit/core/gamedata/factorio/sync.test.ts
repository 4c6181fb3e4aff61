// End to end against the fake Factorio executable (test/fixtures/fake-factorio/factorio).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import { importGameData, type ImportCounts } from '../../../../../src/core/gamedata/import';
import { FactorioSyncError, HELPER_MOD_NAME, syncFromFactorio, type SyncOptions } from '../../../../../src/core/gamedata/factorio';
import { iconCacheDir } from '../../../../../src/core/gamedata/icons/cache';
import { ensureFakeIsExecutable, FAKE_FACTORIO, SAMPLE_DUMP, SAMPLE_WORLD, snapshotTree, tempDir, USER_MOD_LIST } from './helpers';

interface Seen {
  arg: string;
  enabled: boolean;
  infoFactorioVersion: string | null;
  active: boolean;
}

async function rejectsWith(p: Promise<unknown>, code: string): Promise<FactorioSyncError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof FactorioSyncError, `expected a FactorioSyncError, got ${(err as Error)?.stack ?? err}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected a "${code}" error, but the sync succeeded`);
}

describe('syncFromFactorio (fake Factorio)', () => {
  let sampleCounts: ImportCounts;
  let tmp: string;
  let userData: string;
  let modListFile: string;
  let seenFile: string;
  let project: Project;

  before(async function () {
    if (process.platform === 'win32') this.skip(); // the fake is a #! script
    ensureFakeIsExecutable();
    const dir = tempDir('sample');
    const p = await Project.create(path.join(dir, 'sample.pyops'));
    try {
      sampleCounts = (await importGameData(p, SAMPLE_DUMP)).counts;
    } finally {
      p.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  beforeEach(async () => {
    tmp = tempDir('sync');
    userData = path.join(tmp, 'user-data');
    fs.mkdirSync(path.join(userData, 'mods'), { recursive: true });
    modListFile = path.join(userData, 'mods', 'mod-list.json');
    fs.writeFileSync(modListFile, USER_MOD_LIST);
    fs.writeFileSync(path.join(userData, 'mods', 'some-old-mod_0.1.0.zip'), 'not really a zip');
    seenFile = path.join(tmp, 'seen.jsonl');
    project = await Project.create(path.join(tmp, 'world.pyops'));
  });

  afterEach(() => {
    project.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  function opts(mode = 'ok', extra: Partial<SyncOptions> & { version?: string } = {}): SyncOptions {
    const { version, ...rest } = extra;
    return {
      executable: FAKE_FACTORIO,
      userDataDir: userData,
      isRunning: () => false,
      processEnv: {
        ...process.env,
        FAKE_FACTORIO_USERDATA: userData,
        FAKE_FACTORIO_MODE: mode,
        FAKE_FACTORIO_LOG: seenFile,
        ...(version ? { FAKE_FACTORIO_VERSION: version } : {}),
      },
      ...rest,
    };
  }

  const seen = (): Seen[] =>
    fs.existsSync(seenFile)
      ? fs
          .readFileSync(seenFile, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Seen)
      : [];
  const helperDir = () => path.join(userData, 'mods', HELPER_MOD_NAME);

  function assertModsRestored(): void {
    assert.equal(fs.readFileSync(modListFile, 'utf8'), USER_MOD_LIST, 'mod-list.json is byte-identical to before the sync');
    assert.equal(fs.existsSync(helperDir()), false, 'the helper mod folder is gone');
  }

  it('imports the dump the game wrote with the helper active, then restores mod-list.json byte for byte', async () => {
    const progress: string[] = [];
    const result = await syncFromFactorio(project, opts('ok', { onProgress: (m) => progress.push(m) }));

    assert.deepEqual(result.summary.counts, sampleCounts);
    assert.equal(result.summary.counts.items, 44);
    assert.equal(result.summary.counts.recipes, 49);
    assert.equal(result.summary.turdReplacementSource, 'helper');
    assert.equal(result.helperLoaded, true);
    assert.equal(result.factorioVersion, '2.0.77');
    assert.equal(result.executable, FAKE_FACTORIO);
    assert.equal(result.userDataDir, userData);
    assert.equal(result.summary.localeFiles.length, 5);
    assert.ok(project.hasGameData());
    assert.equal(project.counts(['gd.items'])['gd.items'], 44);

    const dumps = seen().filter((s) => s.arg === '--dump-data');
    assert.equal(dumps.length, 1);
    assert.deepEqual({ enabled: dumps[0].enabled, v: dumps[0].infoFactorioVersion }, { enabled: true, v: '2.0' });
    assertModsRestored();
    assert.ok(fs.existsSync(path.join(userData, 'mods', 'some-old-mod_0.1.0.zip')), "the user's own mods are untouched");
    assert.ok(progress.some((m) => m.startsWith('Dumped the prototypes')));
    assert.ok(progress.some((m) => m.startsWith('Restored')));
    assert.ok(progress.at(-2)!.startsWith('Imported 44 items'));
    assert.ok(progress.at(-1)!.startsWith('Extracted the icons (icons: 0 extracted, 0 missing'));
  });

  it('extracts the icons after the import, and a failure there does not fail the sync', async () => {
    const ok = await syncFromFactorio(project, opts());
    // The sample world declares no icons: an empty cache, nothing missing.
    assert.deepEqual(ok.icons && 'extracted' in ok.icons ? [ok.icons.extracted, ok.icons.missing] : ok.icons, [0, 0]);
    // A file where the cache folder should be: the sync still imports and says what happened.
    fs.rmSync(iconCacheDir(project.file), { recursive: true });
    fs.writeFileSync(iconCacheDir(project.file), 'in the way');
    const progress: string[] = [];
    const failed = await syncFromFactorio(project, opts('ok', { onProgress: (m) => progress.push(m) }));
    assert.equal(failed.summary.counts.items, 44);
    assert.match(failed.icons && 'error' in failed.icons ? failed.icons.error : '', /Extract Icons from Factorio/);
    assert.ok(progress.some((m) => m.startsWith('Icons were not extracted')));
  });

  it('stamps the helper with the engine series, so a 2.1 game loads it', async () => {
    const result = await syncFromFactorio(project, opts('ok', { version: '2.1.14' }));
    assert.equal(result.factorioVersion, '2.1.14');
    assert.equal(result.summary.turdReplacementSource, 'helper');
    const dump = seen().find((s) => s.arg === '--dump-data')!;
    assert.equal(dump.infoFactorioVersion, '2.1');
    assert.equal(dump.active, true);
  });

  it('deletes the mod-list.json it had to create, and the mods folder it created', async () => {
    fs.rmSync(path.join(userData, 'mods'), { recursive: true });
    const result = await syncFromFactorio(project, opts());
    assert.equal(result.summary.turdReplacementSource, 'helper');
    assert.equal(seen().find((s) => s.arg === '--dump-data')!.enabled, true);
    assert.equal(fs.existsSync(modListFile), false);
    assert.equal(fs.existsSync(path.join(userData, 'mods')), false);
  });

  it('deletes a created mod-list.json but keeps an existing mods folder', async () => {
    fs.rmSync(modListFile);
    await syncFromFactorio(project, opts());
    assert.equal(fs.existsSync(modListFile), false);
    assert.equal(fs.existsSync(helperDir()), false);
    assert.ok(fs.existsSync(path.join(userData, 'mods', 'some-old-mod_0.1.0.zip')));
  });

  it('reports an error banner printed with exit code 0, restores the mods and leaves the project without data', async () => {
    const err = await rejectsWith(syncFromFactorio(project, opts('banner')), 'error-banner');
    assert.match(err.message, /Error in assignID: item with name 'unobtainium' does not exist/);
    assert.match(err.message, /Mods to disable/);
    assert.match(err.message, /disable the failing mod in Factorio/);
    assert.doesNotMatch(err.message, /^\s+\d+\.\d{3} /m, 'timestamps are stripped from the quote');
    assertModsRestored();
    assert.equal(project.hasGameData(), false);
  });

  it('finds the error banner in factorio-current.log when the game prints nothing', async () => {
    const err = await rejectsWith(syncFromFactorio(project, opts('banner-log')), 'error-banner');
    assert.match(err.message, /Failed to load mods/);
    assertModsRestored();
  });

  it('reports a non-zero exit as failed, quoting the last output', async () => {
    const err = await rejectsWith(syncFromFactorio(project, opts('exit1')), 'failed');
    assert.match(err.message, /exit code 1/);
    assert.match(err.message, /simulated crash/);
    assertModsRestored();
    assert.equal(project.hasGameData(), false);
  });

  it('stops a hanging game at the timeout and removes the helper', async () => {
    const t0 = Date.now();
    const err = await rejectsWith(syncFromFactorio(project, opts('hang', { timeoutMs: 1500 })), 'timeout');
    assert.ok(Date.now() - t0 < 10_000, 'stopped at the time limit, not left hanging');
    assert.match(err.message, /did not finish within the sync.s time limit of 1\.5 seconds/);
    assertModsRestored();
    assert.equal(project.hasGameData(), false);
  });

  it('stops the game when the signal aborts and removes the helper', async () => {
    const ctrl = new AbortController();
    const onProgress = (m: string) => {
      if (m.startsWith('Enabled the helper')) setTimeout(() => ctrl.abort(), 200);
    };
    const err = await rejectsWith(syncFromFactorio(project, opts('hang', { signal: ctrl.signal, onProgress })), 'aborted');
    assert.match(err.message, /Cancelled/);
    assertModsRestored();
    assert.equal(project.hasGameData(), false);
  });

  it('refuses while Factorio is running and writes nothing to the user-data folder', async () => {
    const before = snapshotTree(userData);
    const err = await rejectsWith(syncFromFactorio(project, opts('ok', { isRunning: async () => true })), 'running');
    assert.match(err.message, /Factorio is running/);
    assert.deepEqual(snapshotTree(userData), before);
    assert.deepEqual(seen(), [], 'the game was not started');
  });

  it('does nothing when the signal is already aborted', async () => {
    const before = snapshotTree(userData);
    await rejectsWith(syncFromFactorio(project, opts('ok', { signal: AbortSignal.abort() })), 'aborted');
    assert.deepEqual(snapshotTree(userData), before);
    assert.deepEqual(seen(), []);
  });

  it('says so when the executable cannot be started', async () => {
    const notExecutable = path.join(tmp, 'factorio');
    fs.writeFileSync(notExecutable, 'plain text', { mode: 0o644 });
    const err = await rejectsWith(syncFromFactorio(project, opts('ok', { executable: notExecutable })), 'failed');
    assert.match(err.message, /Could not start Factorio/);
    assert.equal(fs.readFileSync(modListFile, 'utf8'), USER_MOD_LIST);
  });

  it('refuses a read-only project before starting the game', async () => {
    const readOnly = await Project.open(project.file, { readOnly: true });
    try {
      await assert.rejects(syncFromFactorio(readOnly, opts()), (e: Error) => e.name === 'ProjectError' && /read-only/.test(e.message));
      assert.deepEqual(seen(), []);
    } finally {
      readOnly.close();
    }
  });

  it('lists the places it looked when no executable is found (in tried; the message stays one short paragraph)', async () => {
    const home = path.join(tmp, 'home');
    const err = await rejectsWith(
      syncFromFactorio(project, { isRunning: () => false, env: { platform: 'linux', homedir: home, vars: {}, exists: () => false, readFile: () => undefined } }),
      'not-found',
    );
    const steam = path.join(home, '.steam/steam/steamapps/common/Factorio/bin/x64/factorio');
    assert.ok(err.tried.includes(steam));
    assert.ok(err.tried.includes('/opt/factorio/bin/x64/factorio'));
    assert.ok(!err.message.includes('\n'), 'a notification flattens line breaks; the list is shown on request');
    assert.match(err.message, new RegExp(`in the ${err.tried.length} usual install places`));
    assert.match(err.message, /pyops\.factorio\.executablePath/);
    assert.match(err.message, /pyops\.factorio\.userDataPath/);
  });

  it('does not import a dump left by an earlier run when the game writes none', async () => {
    const out = path.join(userData, 'script-output');
    fs.mkdirSync(out);
    fs.copyFileSync(SAMPLE_DUMP, path.join(out, 'data-raw-dump.json'));
    fs.copyFileSync(path.join(SAMPLE_WORLD, 'item-locale.json'), path.join(out, 'item-locale.json'));
    const err = await rejectsWith(syncFromFactorio(project, opts('stale')), 'no-output');
    assert.match(err.message, /left from an earlier run/);
    assert.equal(project.hasGameData(), false);
    assertModsRestored();
  });

  it('reports a game that exits cleanly without writing anything', async () => {
    const err = await rejectsWith(syncFromFactorio(project, opts('no-output')), 'no-output');
    assert.match(err.message, /without writing .*data-raw-dump\.json/);
    assert.match(err.message, /pyops\.factorio\.userDataPath/);
    assertModsRestored();
  });

  it('points at the folder the game really writes to when the user-data setting is wrong', async () => {
    const wrong = path.join(tmp, 'wrong-user-data');
    fs.mkdirSync(wrong);
    const o = opts('ok', { userDataDir: wrong });
    const err = await rejectsWith(syncFromFactorio(project, o), 'no-output');
    assert.ok(err.message.includes(`reports its user-data folder as ${userData}`), err.message);
    assert.equal(fs.existsSync(path.join(wrong, 'mods', HELPER_MOD_NAME)), false);
  });

  it('finds a portable install under the home folder and uses its own user data', async () => {
    const home = path.join(tmp, 'home');
    const root = path.join(home, 'factorio');
    const exe = path.join(root, 'bin', 'x64', 'factorio');
    fs.mkdirSync(path.dirname(exe), { recursive: true });
    fs.copyFileSync(FAKE_FACTORIO, exe);
    fs.copyFileSync(path.join(path.dirname(FAKE_FACTORIO), 'package.json'), path.join(root, 'bin', 'x64', 'package.json'));
    fs.chmodSync(exe, 0o755);
    fs.writeFileSync(path.join(root, 'config-path.cfg'), 'config-path=__PATH__executable__/../../config\nuse-system-read-write-data-directories=false\n');
    const result = await syncFromFactorio(project, {
      isRunning: () => false,
      env: { platform: 'linux', homedir: home },
      processEnv: { ...process.env, FAKE_FACTORIO_USERDATA: root, FAKE_FACTORIO_SAMPLE: SAMPLE_WORLD, FAKE_FACTORIO_LOG: seenFile },
    });
    assert.equal(result.executable, exe);
    assert.equal(result.userDataDir, root);
    assert.equal(result.summary.turdReplacementSource, 'helper');
    assert.ok(fs.existsSync(path.join(root, 'script-output', 'data-raw-dump.json')));
    assert.equal(fs.existsSync(path.join(root, 'mods')), false, 'the mods folder the sync created is gone again');
  });

  it('replaces the game data of a project that already has some', async () => {
    await syncFromFactorio(project, opts());
    const first = project.gamedataMeta('imported_at');
    await new Promise((r) => setTimeout(r, 5));
    const again = await syncFromFactorio(project, opts());
    assert.deepEqual(again.summary.counts, sampleCounts);
    assert.notEqual(project.gamedataMeta('imported_at'), first);
    assertModsRestored();
  });
});
