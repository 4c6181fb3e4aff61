// The game link in VS Code: the extension host owns the UDP bridge while a project is open (it
// follows project switches and the pyops.bridge.port setting), shows the link in the status bar,
// reports a port in use with a Retry action, and registers the game-link commands (status, pull
// state, install/remove the companion mod, relay for remote windows). Planning logic stays in
// src/core; `onDidChangeState` tells the host when synced game state changed so it can re-solve.
import * as vscode from 'vscode';
import path from 'node:path';
import { Bridge, createGameLink, pairingCodeFor, type BridgeStatus, type GameLink, type StateKind } from '../../core/bridge';
import type { ProjectManager } from '../projectManager';
import { registerCommand } from '../commands/register';
import { readBridgeSettings } from './settings';
import { renderGameStatus } from './statusItem';
import { installModCommand, removeModCommand, userDataDirOrUndefined } from './modCommands';
import { RelayHost } from './relayHost';

export interface GameLinkRegistration extends vscode.Disposable {
  link: GameLink;
  bridge: Bridge;
  relay: RelayHost;
  /** Fires with the snapshot kinds whose stored state changed (re-solve affected blocks). */
  onDidChangeState: vscode.Event<StateKind[]>;
  /** Fires when the game becomes linked or the link lapses. */
  onDidChangeLinked: vscode.Event<boolean>;
}

export const GAME_COMMANDS = {
  status: 'pyops.game.status',
  retry: 'pyops.game.retry',
  sync: 'pyops.game.requestSync',
  installMod: 'pyops.game.installMod',
  removeMod: 'pyops.game.removeMod',
  showRelayCommand: 'pyops.game.showRelayCommand',
  startRelay: 'pyops.game.startRelay',
  stopRelay: 'pyops.game.stopRelay',
} as const;

export function registerGameLink(context: vscode.ExtensionContext, projects: ProjectManager): GameLinkRegistration {
  const stateChanged = new vscode.EventEmitter<StateKind[]>();
  const linkedChanged = new vscode.EventEmitter<boolean>();
  const settings = () => readBridgeSettings();
  // The pairing code lives in the user-only config file the `pyops` command uses too, so one mod
  // install pairs both. Until it is read, every peer is read-only.
  let pairing: string | undefined;
  const pairingReady = pairingCodeFor().then(
    (code) => (pairing = code),
    (err: Error) => {
      void vscode.window.showWarningMessage(`PyOps could not read or create the game-link pairing code (${err.message}); the game stays linked read-only. Check that the PyOps config folder is writable.`);
      return undefined;
    },
  );
  const bridge = new Bridge({
    pairing: () => pairing,
    port: settings().port,
    project: () => projects.active,
    onStateChanged: (kinds) => stateChanged.fire(kinds),
    appName: `PyOps (${vscode.env.appName})`,
  });
  const link = createGameLink(bridge, {
    scriptOutputDir: () => {
      const dir = userDataDirOrUndefined();
      return dir ? path.join(dir, 'script-output') : undefined;
    },
  });
  const relay = new RelayHost(bridge, () => settings().relayPort);
  const item = vscode.window.createStatusBarItem('pyops.game', vscode.StatusBarAlignment.Left, 49);
  item.name = 'PyOps Game Link';
  item.command = GAME_COMMANDS.status;
  const output = vscode.window.createOutputChannel('PyOps Game Link', { log: true });

  let lastLinked: boolean | undefined;
  const render = () => {
    const s = bridge.status();
    renderGameStatus(item, s);
    item.show();
    if (s.linked !== lastLinked) {
      lastLinked = s.linked;
      void vscode.commands.executeCommand('setContext', 'pyops.gameLinked', s.linked);
      linkedChanged.fire(s.linked);
    }
  };

  /** Start (or retry) listening; a bind failure is shown once per attempt with Retry. */
  const ensure = async (opts: { quiet?: boolean } = {}): Promise<BridgeStatus> => {
    const s = await bridge.start();
    render();
    if (s.state === 'error' && !opts.quiet) {
      void vscode.window.showErrorMessage(`PyOps game link: ${s.error}`, 'Retry', 'Open Settings').then((choice) => {
        if (choice === 'Retry') void ensure();
        if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'pyops.bridge');
      });
    }
    return s;
  };

  // The project manager also fires on every write (touch); only a new project is worth a popup
  // when the port is taken, and a write merely retries the bind quietly.
  // A project another window holds (read-only here) usually comes with that window's port taken: no
  // popup then, only when the project is taken over here (the same file, now writable) or opened anew.
  let followedFile: string | undefined;
  let followedHeld = false;
  const follow = async () => {
    const p = projects.active;
    const file = p?.file;
    const held = !!p?.readOnly && !!p.lockOwner;
    const switched = file !== followedFile || (followedHeld && !held);
    followedFile = file;
    followedHeld = held;
    if (file && settings().enabled) await ensure({ quiet: !switched || held });
    else {
      await bridge.stop();
      render();
    }
  };

  const unsubscribe = bridge.on((e) => {
    switch (e.type) {
      case 'linked':
        output.info(`Game linked: ${e.peer.playerName ?? `player ${e.peer.player ?? '?'}`} from ${e.peer.route.address}:${e.peer.route.port}${e.peer.route.via === 'relay' ? ' (relay)' : ''}, mod ${e.peer.modVersion ?? '?'}, protocol ${e.peer.protocolVersion}${e.peer.paired ? ', paired' : ' — NOT PAIRED: read-only'}`);
        break;
      case 'refused':
        output.warn(`Refused ${e.source}: ${e.reason}`);
        break;
      case 'lost':
        output.info(`Game lost: ${e.reason}`);
        break;
      case 'snapshot':
        output.info(`Snapshot ${e.kind}: ${e.ignored ? `ignored (${e.ignored})` : `${e.count} rows${e.changed ? ', changed' : ''}`}${e.notes.length ? ` — ${e.notes.join('; ')}` : ''}`);
        break;
      case 'task':
        void vscode.window.showInformationMessage(`PyOps: task captured in game — "${e.title}".`);
        output.info(`Task captured: ${e.title} (${e.id})`);
        break;
      case 'notice':
        output.warn(e.message);
        break;
      case 'error':
        output.error(e.message);
        break;
      case 'listening':
        output.info(`Listening on UDP 127.0.0.1:${e.port}`);
        break;
      default:
        break;
    }
    render();
  });
  // "linked" expires with time, not with an event
  const timer = setInterval(render, 2_000);

  const statusCommand = async () => {
    const s = bridge.status();
    const lines: Array<vscode.QuickPickItem & { run?: () => unknown }> = [];
    const stateText = s.state === 'listening' ? `Listening on UDP ${s.host}:${s.port}` : s.state === 'error' ? `Not listening: ${s.error}` : 'Stopped (no project open, or pyops.bridge.enabled is off)';
    lines.push({ label: `$(radio-tower) ${stateText}`, kind: vscode.QuickPickItemKind.Default });
    lines.push({
      label: s.linked ? `$(plug) Linked: ${s.player ?? 'a player'}` : s.peer ? `$(debug-disconnect) Not linked (last seen ${new Date(s.peer.lastSeen).toLocaleTimeString()})` : '$(debug-disconnect) No game seen yet',
      description: s.peer ? `${s.peer.route.via === 'relay' ? 'relay' : 'UDP'} ${s.peer.route.address}:${s.peer.route.port} · mod ${s.modVersion ?? '?'}` : undefined,
    });
    lines.push({ label: `Protocol: app ${s.appProtocolVersion}${s.modProtocolVersion !== undefined ? `, mod ${s.modProtocolVersion}` : ''}${s.protocolMismatch ? ' — MISMATCH: reinstall the mod' : ''}` });
    const code = await pairingReady;
    lines.push({
      label: s.peer ? (s.paired ? '$(lock) Paired: the game may save state and receive commands' : '$(unlock) NOT paired: read-only (nothing saved from the game, no commands sent)') : '$(key) Pairing',
      description: code ? `code ${code}` : 'no code (config folder not writable)',
      run: code ? () => vscode.env.clipboard.writeText(code) : undefined,
      detail: code ? 'Select to copy the code; paste it into the mod\'s "PyOps Link: pairing code" setting, or reinstall the mod from PyOps (it writes the code in).' : undefined,
    });
    if (s.lastRefused) lines.push({ label: `$(shield) Refused ${s.lastRefused.source}`, description: `${new Date(s.lastRefused.at).toLocaleTimeString()} — ${s.lastRefused.reason}` });
    const c = s.counters;
    lines.push({ label: `Datagrams: in ${c.in}, out ${c.out}, malformed ${c.malformed}, unknown ${c.unknown}, rejected ${c.rejected}, refused ${c.refused}, late ${c.late}, replies limited ${c.limited}` });
    for (const [kind, snap] of Object.entries(s.lastSnapshots)) {
      lines.push({ label: `Last ${kind} snapshot: ${snap.ignored ? `ignored — ${snap.ignored}` : `${snap.count} rows`}`, description: new Date(snap.at).toLocaleTimeString() });
    }
    lines.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    if (s.state !== 'listening') lines.push({ label: '$(refresh) Retry listening', run: () => vscode.commands.executeCommand(GAME_COMMANDS.retry) });
    lines.push({ label: '$(sync) Pull state from the game', run: () => vscode.commands.executeCommand(GAME_COMMANDS.sync) });
    lines.push({ label: '$(package) Install the companion mod into Factorio…', run: () => vscode.commands.executeCommand(GAME_COMMANDS.installMod) });
    lines.push({ label: '$(remote) Show the relay command line (VS Code runs remotely)…', description: relay.running ? `${relay.connections} connected` : undefined, run: () => vscode.commands.executeCommand(GAME_COMMANDS.showRelayCommand) });
    lines.push({ label: '$(output) Show the game-link log', run: () => output.show() });
    const picked = await vscode.window.showQuickPick(lines, { title: 'PyOps game link' });
    await picked?.run?.();
    return s;
  };

  let disposed = false;
  const disposables: vscode.Disposable[] = [
    item,
    output,
    relay,
    stateChanged,
    linkedChanged,
    { dispose: () => clearInterval(timer) },
    { dispose: unsubscribe },
    // Binding the port is no part of showing the project just opened: it runs once the views that
    // draw the project have had their turn (a game links seconds later at the earliest).
    projects.onDidChange(() =>
      setImmediate(() => {
        if (!disposed) void follow();
      }),
    ),
    { dispose: () => (disposed = true) },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('pyops.bridge')) return;
      const s = settings();
      if (!s.enabled || !projects.active) void follow();
      else void bridge.setPort(s.port).then(() => ensure());
    }),
    registerCommand(GAME_COMMANDS.status, statusCommand),
    registerCommand(GAME_COMMANDS.retry, async () => {
      if (!projects.active) throw new Error('Open a PyOps project first; the game link runs while a project is open.');
      return ensure();
    }),
    registerCommand(GAME_COMMANDS.sync, async () => {
      const r = await link.requestSync();
      if (!r.ok) throw new Error(r.error);
      void vscode.window.showInformationMessage(`PyOps: the game sent ${r.sent.join(', ')}.`);
      return r;
    }),
    registerCommand(GAME_COMMANDS.installMod, async (arg?: unknown) => installModCommand(context.extensionPath, settings().port, arg, await pairingReady)),
    registerCommand(GAME_COMMANDS.removeMod, () => removeModCommand()),
    registerCommand(GAME_COMMANDS.startRelay, async () => {
      const info = await relay.start();
      render();
      void vscode.window.showInformationMessage(`PyOps: accepting relay connections on 127.0.0.1:${info.port}. Run "PyOps: Show Relay Command Line" for the command to run beside the game.`);
      return { port: info.port };
    }),
    registerCommand(GAME_COMMANDS.stopRelay, async () => {
      await relay.stop();
      render();
      void vscode.window.showInformationMessage('PyOps: stopped accepting relay connections.');
    }),
    registerCommand(GAME_COMMANDS.showRelayCommand, async () => {
      const line = await relay.commandLine(settings().port);
      render();
      const choice = await vscode.window.showInformationMessage(
        `PyOps: run this beside the game (it listens on the game's side and forwards to this window): ${line}`,
        'Copy Command',
      );
      if (choice) await vscode.env.clipboard.writeText(line);
      return line;
    }),
  ];

  render();
  void follow();

  return {
    link,
    bridge,
    relay,
    onDidChangeState: stateChanged.event,
    onDidChangeLinked: linkedChanged.event,
    dispose: () => {
      for (const d of disposables.reverse()) {
        try {
          d.dispose();
        } catch {
          // keep disposing the rest
        }
      }
      void bridge.stop();
    },
  };
}
