// The command line's secret and preference store (the OpenRouter key, the game link's pairing code,
// preferences): one JSON file in the OS config folder ($XDG_CONFIG_HOME/pyops or ~/.config/pyops on
// Linux, ~/Library/Application Support/pyops on macOS, %APPDATA%\pyops on Windows; PYOPS_CONFIG_DIR
// overrides), readable by the user only (file 0600, folder 0700). Written atomically so a crash never leaves half a key behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SecretStore } from './secretStore';

export function configDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  if (env.PYOPS_CONFIG_DIR) return env.PYOPS_CONFIG_DIR;
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'pyops');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'pyops');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'pyops');
}

interface ConfigFile {
  secrets?: Record<string, string>;
  settings?: Record<string, unknown>;
}

export class FileConfigStore implements SecretStore {
  readonly file: string;

  constructor(readonly dir: string = configDir()) {
    this.file = path.join(dir, 'config.json');
  }

  async get(key: string): Promise<string | undefined> {
    const v = this.read().secrets?.[key];
    return typeof v === 'string' && v ? v : undefined;
  }

  async store(key: string, value: string): Promise<void> {
    const c = this.read();
    c.secrets = { ...c.secrets, [key]: value };
    this.write(c);
  }

  async delete(key: string): Promise<void> {
    const c = this.read();
    if (!c.secrets || !(key in c.secrets)) return;
    delete c.secrets[key];
    this.write(c);
  }

  /** A non-secret preference (e.g. the default model). */
  getSetting<T = unknown>(key: string): T | undefined {
    return this.read().settings?.[key] as T | undefined;
  }

  setSetting(key: string, value: unknown): void {
    const c = this.read();
    c.settings = { ...c.settings };
    if (value === undefined) delete c.settings[key];
    else c.settings[key] = value;
    this.write(c);
  }

  private read(): ConfigFile {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return {};
    }
    try {
      const v = JSON.parse(text);
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as ConfigFile) : {};
    } catch {
      // A hand-broken file is treated as empty rather than failing every command; the next write replaces it.
      return {};
    }
  }

  private write(c: ConfigFile): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, JSON.stringify(c, null, 2) + '\n', { mode: 0o600 });
    try {
      fs.chmodSync(tmp, 0o600);
    } catch {
      // Windows has no POSIX modes; the file sits in the user's own profile folder
    }
    fs.renameSync(tmp, this.file);
  }
}
