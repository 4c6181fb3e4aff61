// Shared bits of the integration suites (inside the extension host).
import * as vscode from 'vscode';
import fs from 'node:fs';
import path from 'node:path';
import type { PyOpsApi } from '../../src/extension/extension';

export const EXTENSION_ID = 'pyops.pyops-vscode';

export function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set; run the integration tests through npm run test:integration`);
  return v;
}

export async function api(): Promise<PyOpsApi> {
  const ext = vscode.extensions.getExtension<PyOpsApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this VS Code`);
  return ext.activate();
}

export function workDir(name: string): string {
  const d = path.join(env('PYOPS_TEST_WORK'), name);
  fs.rmSync(d, { recursive: true, force: true });
  fs.mkdirSync(d, { recursive: true });
  return d;
}

export interface UiCheck {
  statusBarIncludes?: string[];
  screenshot?: { file: string; element?: 'statusbar' | 'page' };
}

let uiRequests = 0;

/**
 * Ask the runner (which drives the browser showing this workbench) to check the rendered UI, and
 * wait for its verdict. Returns the failures (empty when everything was found).
 */
export async function checkInWorkbench(check: UiCheck, timeoutMs = 30_000): Promise<string[]> {
  const out = env('PYOPS_TEST_OUTPUT');
  const id = `${process.pid}-${++uiRequests}`;
  fs.writeFileSync(path.join(out, `ui-request-${id}.json`), JSON.stringify(check));
  const result = path.join(out, `ui-result-${id}.json`);
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(result)) {
    if (Date.now() > deadline) return ['the test runner did not answer the UI check (is the suite running through npm run test:integration?)'];
    await new Promise((r) => setTimeout(r, 200));
  }
  const r = JSON.parse(fs.readFileSync(result, 'utf8')) as { ok: boolean; failures: string[] };
  return r.failures;
}
