// Where secrets live, as core sees it. Core declares the interface; each host implements it: the
// extension over VS Code SecretStorage, the CLI with a user-only file in the OS config folder
// (fileStore.ts). Shared by the assistant (the OpenRouter key) and the game link (the pairing code),
// so it sits below both. A secret never goes into the project file, logs or tool output.

/** The subset of VS Code's SecretStorage that core needs. */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** In-memory store, for tests and for hosts that must not persist anything. */
export class MemorySecretStore implements SecretStore {
  private readonly map = new Map<string, string>();
  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.map.set(k, v);
  }
  async get(key: string): Promise<string | undefined> {
    return this.map.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.map.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.map.delete(key);
  }
}
