import assert from 'node:assert/strict';
import { FactorioSyncError, detectFactorio, executableCandidates, type LocateEnv } from '../../../../../src/core/gamedata/factorio';

/** A fake machine: the given files exist (folders implied by their paths), with optional contents. */
function machine(platform: NodeJS.Platform, homedir: string, files: Record<string, string | true>, vars: Record<string, string> = {}): LocateEnv {
  const sep = platform === 'win32' ? '\\' : '/';
  const norm = (p: string) => (platform === 'win32' ? p.toLowerCase() : p);
  const paths = Object.keys(files).map(norm);
  return {
    platform,
    homedir,
    vars,
    exists: (p) => paths.some((f) => f === norm(p) || f.startsWith(norm(p) + sep)),
    readFile: (p) => {
      const hit = Object.entries(files).find(([f]) => norm(f) === norm(p));
      return hit && typeof hit[1] === 'string' ? hit[1] : undefined;
    },
  };
}

function notFound(fn: () => unknown): FactorioSyncError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof FactorioSyncError);
    assert.equal(err.code, 'not-found');
    return err;
  }
  assert.fail('expected not-found');
}

describe('locating Factorio', () => {
  describe('on Linux', () => {
    const home = '/home/ada';

    it('tries the Steam folders, then the standalone places', () => {
      assert.deepEqual(executableCandidates(machine('linux', home, {})), [
        '/home/ada/.steam/steam/steamapps/common/Factorio/bin/x64/factorio',
        '/home/ada/.local/share/Steam/steamapps/common/Factorio/bin/x64/factorio',
        '/home/ada/factorio/bin/x64/factorio',
        '/opt/factorio/bin/x64/factorio',
        '/usr/share/factorio/bin/x64/factorio',
      ]);
    });

    it('finds a Steam install and uses ~/.factorio', () => {
      const exe = '/home/ada/.local/share/Steam/steamapps/common/Factorio/bin/x64/factorio';
      const env = machine('linux', home, {
        [exe]: true,
        '/home/ada/.local/share/Steam/steamapps/common/Factorio/config-path.cfg': 'config-path=__PATH__system-write-data__/config\nuse-system-read-write-data-directories=true\n',
        '/home/ada/.factorio/mods/mod-list.json': '{}',
      });
      const found = detectFactorio({}, env);
      assert.equal(found.executable, exe);
      assert.equal(found.userDataDir, '/home/ada/.factorio');
      assert.equal(found.portable, false);
      assert.deepEqual(found.tried.slice(0, 2), ['/home/ada/.steam/steam/steamapps/common/Factorio/bin/x64/factorio', exe]);
    });

    it('finds Factorio in another Steam library listed in libraryfolders.vdf', () => {
      const exe = '/mnt/games/SteamLibrary/steamapps/common/Factorio/bin/x64/factorio';
      const vdf = '"libraryfolders"\n{\n\t"0"\n\t{\n\t\t"path"\t\t"/home/ada/.local/share/Steam"\n\t}\n\t"1"\n\t{\n\t\t"path"\t\t"/mnt/games/SteamLibrary"\n\t\t"apps"\n\t\t{\n\t\t\t"427520"\t\t"123"\n\t\t}\n\t}\n}\n';
      const env = machine('linux', home, { '/home/ada/.local/share/Steam/steamapps/libraryfolders.vdf': vdf, [exe]: true, '/home/ada/.factorio/config/config.ini': '' });
      assert.equal(detectFactorio({}, env).executable, exe);
    });

    it('takes the user data of a zip install from the install itself', () => {
      const exe = '/home/ada/factorio/bin/x64/factorio';
      const env = machine('linux', home, {
        [exe]: true,
        '/home/ada/factorio/config-path.cfg': 'config-path=__PATH__executable__/../../config\nuse-system-read-write-data-directories=false\n',
        '/home/ada/factorio/config/config.ini': '; version=12\n[path]\nread-data=__PATH__executable__/../../data\nwrite-data=__PATH__executable__/../..\n[general]\nlocale=\n',
      });
      const found = detectFactorio({}, env);
      assert.equal(found.executable, exe);
      assert.equal(found.userDataDir, '/home/ada/factorio');
      assert.equal(found.portable, true);
    });

    it('follows a write-data path set in the zip install config.ini', () => {
      const env = machine('linux', home, {
        '/opt/factorio/bin/x64/factorio': true,
        '/opt/factorio/config-path.cfg': 'config-path=__PATH__executable__/../../config\nuse-system-read-write-data-directories=false\n',
        '/opt/factorio/config/config.ini': '[path]\nwrite-data=/srv/factorio-data\n',
        '/srv/factorio-data/mods/mod-list.json': '{}',
      });
      assert.equal(detectFactorio({}, env).userDataDir, '/srv/factorio-data');
    });

    it('treats an install with its own config folder and no config-path.cfg as portable', () => {
      const env = machine('linux', home, { '/opt/factorio/bin/x64/factorio': true, '/opt/factorio/config/config.ini': '[path]\n' });
      assert.equal(detectFactorio({}, env).userDataDir, '/opt/factorio');
    });

    it('lets the settings win over everything it would find', () => {
      const env = machine('linux', home, {
        '/home/ada/.steam/steam/steamapps/common/Factorio/bin/x64/factorio': true,
        '/home/ada/.factorio/mods/mod-list.json': '{}',
        '/games/factorio-2.1/bin/x64/factorio': true,
        '/games/data-2.1/mods/mod-list.json': '{}',
      });
      const found = detectFactorio({ executable: '/games/factorio-2.1/bin/x64/factorio', userDataDir: '/games/data-2.1' }, env);
      assert.deepEqual([found.executable, found.userDataDir], ['/games/factorio-2.1/bin/x64/factorio', '/games/data-2.1']);
      assert.equal(detectFactorio({ executable: '~/.steam/steam/steamapps/common/Factorio/bin/x64/factorio' }, env).userDataDir, '/home/ada/.factorio');
      assert.equal(detectFactorio({ userDataDir: '/games/data-2.1' }, env).executable, '/home/ada/.steam/steam/steamapps/common/Factorio/bin/x64/factorio');
    });

    it('reports a setting that points nowhere instead of searching elsewhere', () => {
      const env = machine('linux', home, { '/home/ada/.steam/steam/steamapps/common/Factorio/bin/x64/factorio': true, '/home/ada/.factorio/x': true });
      let err = notFound(() => detectFactorio({ executable: '/nope/factorio' }, env));
      assert.match(err.message, /pyops\.factorio\.executablePath setting points to \/nope\/factorio/);
      assert.deepEqual(err.tried, ['/nope/factorio']);
      err = notFound(() => detectFactorio({ userDataDir: '/nope/data' }, env));
      assert.match(err.message, /pyops\.factorio\.userDataPath setting points to \/nope\/data/);
    });

    it('says what it tried and which settings to set when nothing is installed', () => {
      const err = notFound(() => detectFactorio({}, machine('linux', home, {})));
      // The places tried travel in `tried` (shown one a line on request); the message stays one paragraph.
      assert.deepEqual(err.tried, executableCandidates(machine('linux', home, {})));
      assert.ok(!err.message.includes('\n'));
      assert.match(err.message, new RegExp(`in the ${err.tried.length} usual install places`));
      assert.match(err.message, /pyops\.factorio\.executablePath/);
    });

    it('asks for the user-data setting when the default folder does not exist', () => {
      const err = notFound(() => detectFactorio({}, machine('linux', home, { '/opt/factorio/bin/x64/factorio': true })));
      assert.match(err.message, /\/home\/ada\/\.factorio does not exist/);
      assert.match(err.message, /pyops\.factorio\.userDataPath/);
    });
  });

  describe('on Windows', () => {
    const home = 'C:\\Users\\Ada';
    const vars = { APPDATA: 'C:\\Users\\Ada\\AppData\\Roaming', ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'C:\\Program Files (x86)' };

    it('tries Program Files, then Steam, then other Steam libraries', () => {
      const vdf = '"libraryfolders"\n{\n\t"1"\n\t{\n\t\t"path"\t\t"D:\\\\SteamLibrary"\n\t}\n}\n';
      const env = machine('win32', home, { 'C:\\Program Files (x86)\\Steam\\steamapps\\libraryfolders.vdf': vdf }, vars);
      assert.deepEqual(executableCandidates(env), [
        'C:\\Program Files\\Factorio\\bin\\x64\\factorio.exe',
        'C:\\Program Files (x86)\\Steam\\steamapps\\common\\Factorio\\bin\\x64\\factorio.exe',
        'C:\\Program Files\\Steam\\steamapps\\common\\Factorio\\bin\\x64\\factorio.exe',
        'D:\\SteamLibrary\\steamapps\\common\\Factorio\\bin\\x64\\factorio.exe',
      ]);
    });

    it('finds a Steam install and uses %APPDATA%\\Factorio', () => {
      const exe = 'C:\\Program Files (x86)\\Steam\\steamapps\\common\\Factorio\\bin\\x64\\factorio.exe';
      const env = machine('win32', home, { [exe]: true, 'C:\\Users\\Ada\\AppData\\Roaming\\Factorio\\mods\\mod-list.json': '{}' }, vars);
      const found = detectFactorio({}, env);
      assert.equal(found.executable, exe);
      assert.equal(found.userDataDir, 'C:\\Users\\Ada\\AppData\\Roaming\\Factorio');
    });

    it('takes the user data of a zip install from the install itself', () => {
      const exe = 'D:\\Games\\Factorio_2.0.77\\bin\\x64\\factorio.exe';
      const env = machine(
        'win32',
        home,
        {
          [exe]: true,
          'D:\\Games\\Factorio_2.0.77\\config-path.cfg': 'config-path=__PATH__executable__/../../config\r\nuse-system-read-write-data-directories=false\r\n',
        },
        vars,
      );
      const found = detectFactorio({ executable: exe }, env);
      assert.equal(found.userDataDir, 'D:\\Games\\Factorio_2.0.77');
      assert.equal(found.portable, true);
    });

    it('falls back to the home folder when APPDATA is not set', () => {
      const env = machine('win32', home, { 'C:\\Program Files\\Factorio\\bin\\x64\\factorio.exe': true, 'C:\\Users\\Ada\\AppData\\Roaming\\Factorio\\x': true });
      assert.equal(detectFactorio({}, env).userDataDir, 'C:\\Users\\Ada\\AppData\\Roaming\\Factorio');
    });
  });

  describe('on macOS', () => {
    const home = '/Users/ada';

    it('tries /Applications, ~/Applications, then Steam', () => {
      assert.deepEqual(executableCandidates(machine('darwin', home, {})), [
        '/Applications/factorio.app/Contents/MacOS/factorio',
        '/Users/ada/Applications/factorio.app/Contents/MacOS/factorio',
        '/Users/ada/Library/Application Support/Steam/steamapps/common/Factorio/factorio.app/Contents/MacOS/factorio',
      ]);
    });

    it('finds a Steam install and uses ~/Library/Application Support/factorio', () => {
      const exe = '/Users/ada/Library/Application Support/Steam/steamapps/common/Factorio/factorio.app/Contents/MacOS/factorio';
      const env = machine('darwin', home, { [exe]: true, '/Users/ada/Library/Application Support/factorio/mods/mod-list.json': '{}' });
      const found = detectFactorio({}, env);
      assert.equal(found.executable, exe);
      assert.equal(found.userDataDir, '/Users/ada/Library/Application Support/factorio');
      assert.equal(found.portable, false);
    });
  });
});
