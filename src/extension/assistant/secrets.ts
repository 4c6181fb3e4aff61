// Core's SecretStore over VS Code SecretStorage: the OpenRouter key lives in the OS keychain (or
// VS Code's encrypted store), never in settings, the project file or logs.
import type * as vscode from 'vscode';
import { OPENROUTER_KEY } from '../../core/assistant/models/secrets';
import type { SecretStore } from '../../core/config/secretStore';

export class VsCodeSecretStore implements SecretStore {
  constructor(private readonly storage: vscode.SecretStorage) {}

  async get(key: string): Promise<string | undefined> {
    return this.storage.get(key);
  }

  async store(key: string, value: string): Promise<void> {
    await this.storage.store(key, value);
  }

  async delete(key: string): Promise<void> {
    await this.storage.delete(key);
  }

  /** Fires when the OpenRouter key is set or cleared (in this window or another). */
  onDidChangeKey(listener: () => void): vscode.Disposable {
    return this.storage.onDidChange((e) => {
      if (e.key === OPENROUTER_KEY) listener();
    });
  }
}
