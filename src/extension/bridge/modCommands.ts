// Installing and removing the companion mod from VS Code: find the game and its user-data folder
// (the pyops.factorio.* settings win), ask the game for its version so info.json carries the right
// factorio_version, then copy (or link) the mod into mods/.
import * as vscode from 'vscode';
import fs from 'node:fs';
import path from 'node:path';
import { detectFactorio, readFactorioVersion, FactorioSyncError } from '../../core/gamedata/factorio';
import { gameUdpPortFor, installCompanionMod, removeCompanionMod, type InstallMode } from '../../core/bridge';
import { readSettings } from '../settings';

/** The mod folder shipped in the extension (dist/ in a package, the repository folder in development). */
export function companionModSource(extensionPath: string): string {
  for (const p of [path.join(extensionPath, 'dist', 'companion-mod'), path.join(extensionPath, 'companion-mod')]) {
    if (fs.existsSync(path.join(p, 'info.json'))) return p;
  }
  throw new Error(`The PyOps Link mod is missing from the extension (looked in ${extensionPath}/dist/companion-mod); reinstall PyOps.`);
}

export function factorioPaths() {
  const s = readSettings();
  return detectFactorio({ executable: s.factorioExecutablePath || undefined, userDataDir: s.factorioUserDataPath || undefined });
}

/** Factorio's user-data folder, or undefined when it cannot be found (for screenshots). */
export function userDataDirOrUndefined(): string | undefined {
  const s = readSettings();
  if (s.factorioUserDataPath) return s.factorioUserDataPath;
  try {
    return factorioPaths().userDataDir;
  } catch {
    return undefined;
  }
}

/** Factorio not found: say so with a way to the settings (undefined); any other error is rethrown. */
export async function notFound(err: unknown): Promise<undefined> {
  if (err instanceof FactorioSyncError && err.code === 'not-found') {
    // A notification flattens line breaks, so the places searched go to a modal's detail, one a line.
    const buttons = err.tried.length ? ['Open Settings', 'Show Places Searched'] : ['Open Settings'];
    const choice = await vscode.window.showErrorMessage(`PyOps: ${err.message}`, ...buttons);
    if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'pyops.factorio');
    if (choice === 'Show Places Searched') {
      const again = await vscode.window.showInformationMessage('PyOps looked for Factorio here:', { modal: true, detail: err.tried.join('\n') }, 'Open Settings');
      if (again) void vscode.commands.executeCommand('workbench.action.openSettings', 'pyops.factorio');
    }
    return undefined;
  }
  throw err;
}

export async function installModCommand(extensionPath: string, bridgePort: number, arg?: unknown, pairing?: string): Promise<unknown> {
  const source = companionModSource(extensionPath);
  let paths;
  try {
    paths = factorioPaths();
  } catch (err) {
    return notFound(err);
  }
  const wanted = typeof arg === 'object' && arg && 'mode' in arg ? (arg as { mode: InstallMode }).mode : undefined;
  const mode =
    wanted ??
    (
      await vscode.window.showQuickPick(
        [
          { label: 'Copy the mod', description: 'recommended', mode: 'copy' as const },
          { label: 'Link the mod folder', description: 'for mod development: edits apply on the next game start', mode: 'link' as const },
        ],
        { title: 'Install the PyOps Link mod into Factorio' },
      )
    )?.mode;
  if (!mode) return undefined;
  const version = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'PyOps: asking Factorio for its version' }, () =>
    readFactorioVersion(paths.executable),
  );
  const r = installCompanionMod({ sourceDir: source, userDataDir: paths.userDataDir, factorioVersion: version.version, mode, pairing });
  const gamePort = gameUdpPortFor(bridgePort);
  // Not awaited: the command is done once the mod is in place, whether or not the notice is clicked.
  void vscode.window
    .showInformationMessage(
      `PyOps: installed PyOps Link ${r.version} for Factorio ${r.factorioVersion} (${r.mode === 'link' ? 'linked' : 'copied'} into ${r.modDir}). Start Factorio with --enable-lua-udp ${gamePort} (Steam: Properties → Launch options); the mod talks to PyOps on port ${bridgePort}.${r.pairingWritten ? ' The mod carries this PyOps\'s pairing code.' : ' Linked mods do not carry the pairing code: copy it from "PyOps: Show Game Link Status" into the mod\'s "PyOps Link: pairing code" setting, or the link stays read-only.'}`,
      'Copy Launch Option',
    )
    .then((choice) => (choice ? vscode.env.clipboard.writeText(`--enable-lua-udp ${gamePort}`) : undefined));
  return r;
}

export async function removeModCommand(): Promise<unknown> {
  let paths;
  try {
    paths = factorioPaths();
  } catch (err) {
    return notFound(err);
  }
  const r = removeCompanionMod(paths.userDataDir);
  if (r.removed.length === 0) {
    void vscode.window.showInformationMessage(`PyOps: the PyOps Link mod is not installed in ${path.join(paths.userDataDir, 'mods')}.${r.skipped.length ? ` Left alone (not ours): ${r.skipped.join(', ')}.` : ''}`);
  } else {
    void vscode.window.showInformationMessage(`PyOps: removed ${r.removed.join(', ')}. Restart Factorio to unload it.${r.skipped.length ? ` Left alone (not ours): ${r.skipped.join(', ')}.` : ''}`);
  }
  return r;
}
