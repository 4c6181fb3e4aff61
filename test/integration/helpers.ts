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

/** The repository's sample world: the folder, and the dump in it (locale files lie beside it). */
export function sampleWorld(): { dir: string; dump: string } {
  const dir = path.join(env('PYOPS_TEST_REPO'), 'test', 'fixtures', 'sample-world');
  return { dir, dump: path.join(dir, 'sample-world.dump.json') };
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
  /** Resize the browser window first (it stays so until a request sets another size). */
  viewport?: { width: number; height: number };
  statusBarIncludes?: string[];
  /** Click these (Playwright selectors on the workbench page), in order, before the other checks. */
  pageClicks?: string[];
  /** Wait until the workbench page shows an element for each CSS selector. */
  pageSelectors?: string[];
  /** Fail when the page shows an element for any of these CSS selectors (checked once, after the waits above). */
  pageSelectorsAbsent?: string[];
  /** Wait until VS Code's quick input (an input box or quick pick) shows each text. */
  quickInputIncludes?: string[];
  /** Then type this on the page (into whatever has focus: the quick input). */
  pageType?: string;
  /** Then press these keys on the page, in order ("Enter", "Escape"). */
  pagePress?: string[];
  /** Wait until the editor area shows each text (text editors, their error placeholders). */
  editorIncludes?: string[];
  /** Wait until the editor area shows none of these. */
  editorExcludes?: string[];
  /** Wait until the side bar (the PyOps trees) shows each text. */
  sidebarIncludes?: string[];
  /** Wait until the side bar no longer shows any of these. */
  sidebarExcludes?: string[];
  /** Type this into the chat input (and press Enter unless chatSubmit is false). */
  chatType?: string;
  chatSubmit?: boolean;
  /** Wait until the chat's response list shows each text. */
  chatIncludes?: string[];
  collectChat?: boolean;
  /** Which PyOps webview the webview checks look at: the one showing this text (default: the side panel). */
  webview?: string;
  /** Wait until the PyOps side panel (webview) shows each text. */
  webviewIncludes?: string[];
  /** Click the webview's button (a VS Code button or a plain one) with this text. */
  webviewClick?: string;
  /** Double-click the webview's element showing exactly this text (after any click). */
  webviewDblClick?: string;
  /** Click the webview's body, then press this key (Playwright's names, e.g. "Control+z"). */
  webviewFocusPress?: string;
  /** Scroll the webview to the element with exactly this text (after any click), e.g. before a screenshot. */
  webviewReveal?: string;
  collectWebview?: boolean;
  /** Click in the webview at this CSS selector (after any webviewClick). */
  webviewClickSelector?: string;
  /** Hold these keys (Playwright names: "ControlOrMeta", "Shift") for webviewClick / webviewClickSelector. */
  webviewClickModifiers?: string[];
  /** Scroll the webview to the element at this CSS selector. */
  webviewRevealSelector?: string;
  /** Choose the option with this value in the select at `selector` (a change, as a player's pick). */
  webviewSelect?: { selector: string; value: string };
  /** Click the field at `selector` in the webview, optionally select all, and type `text` key by key. */
  webviewType?: { selector: string; text: string; selectAll?: boolean };
  /** Then press these keys, in order ("ControlOrMeta+z", "Enter", "Tab"). */
  webviewPress?: string[];
  /** Read the value of the field at this CSS selector (after typing and keys). */
  webviewValueOf?: string;
  /** Measure the webview's page (true) and the element at a CSS selector: widths, and whether it scrolls sideways. */
  webviewMeasure?: true | string;
  /** A quick pick VS Code shows: type to filter (optional), then click the row showing `click`. */
  quickPick?: { click: string; type?: string };
  timeoutMs?: number;
  screenshot?: { file: string; element?: 'statusbar' | 'page' | 'sidebar' | 'auxiliarybar' };
}

export interface UiResult {
  ok: boolean;
  failures: string[];
  /** Visible text of the chat's response list (when asked for). */
  chatText?: string;
  /** Visible text of the side bar (when side bar texts were checked). */
  sidebarText?: string;
  /** Visible text of the PyOps side panel (when asked for). */
  webviewText?: string;
  /** What the quick input showed (quickInputIncludes), and what its input box held. */
  quickInputText?: string;
  quickInputValue?: string;
  /** Visible text of the editor area (editorIncludes / editorExcludes). */
  editorText?: string;
  /** The field's value (webviewValueOf). */
  webviewValue?: string;
  /** The page's widths (webviewMeasure). */
  measure?: { viewWidth: number; scrollWidth: number; widestRight: number; element: { width: number; scrollWidth: number; clientWidth: number } | null; error?: string };
  /** What the quick pick showed before the click. */
  quickPickText?: string;
}

let uiRequests = 0;

/** Ask the runner (which drives the browser showing this workbench) to check or drive the rendered UI. */
export async function uiRequest(check: UiCheck, timeoutMs = 60_000): Promise<UiResult> {
  const out = env('PYOPS_TEST_OUTPUT');
  const id = `${process.pid}-${++uiRequests}`;
  // Written aside and renamed, so the runner, which polls the folder, never reads half a request.
  const request = path.join(out, `ui-request-${id}.json`);
  fs.writeFileSync(`${request}.part`, JSON.stringify(check));
  fs.renameSync(`${request}.part`, request);
  const result = path.join(out, `ui-result-${id}.json`);
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(result)) {
    if (Date.now() > deadline) return { ok: false, failures: ['the test runner did not answer the UI check (is the suite running through npm run test:integration?)'] };
    await new Promise((r) => setTimeout(r, 200));
  }
  return JSON.parse(fs.readFileSync(result, 'utf8')) as UiResult;
}

/**
 * Ask the runner to check the rendered UI, and wait for its verdict. Returns the failures (empty
 * when everything was found).
 */
export async function checkInWorkbench(check: UiCheck, timeoutMs = 30_000): Promise<string[]> {
  return (await uiRequest(check, timeoutMs)).failures;
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Poll until `fn` returns a truthy value. */
export async function waitFor<T>(fn: () => T | PromiseLike<T>, what: string, timeoutMs = 30_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Tests whose full title contains this run in the extension host after the window reload (index.ts). */
export const AFTER_RELOAD = 'after the window reload';

let reload: (() => Promise<void>) | undefined;

/**
 * Reload the window once every test has run, then run the AFTER_RELOAD tests (see index.ts).
 * `prepare` runs just before the reload, after every other test: it sets the window up as the
 * AFTER_RELOAD tests expect to find it (the project open, the tabs in place).
 */
export function reloadAfterSuites(prepare: () => Promise<void>): void {
  reload = prepare;
}

export function reloadRequested(): (() => Promise<void>) | undefined {
  return reload;
}
