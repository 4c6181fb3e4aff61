// The game-link indicator in the status bar: listening / linked (who, which mod) / port problem /
// protocol mismatch / linked but unpaired (read-only). A click opens the game-link status quick pick.
import * as vscode from 'vscode';
import { gameUdpPortFor, type BridgeStatus } from '../../core/bridge';

export function renderGameStatus(item: vscode.StatusBarItem, s: BridgeStatus | undefined): void {
  item.backgroundColor = undefined;
  if (!s || s.state === 'stopped') {
    item.text = '$(debug-disconnect) Game';
    item.tooltip = 'PyOps game link is off (it runs while a project is open and pyops.bridge.enabled is on).';
    return;
  }
  if (s.state === 'error') {
    item.text = '$(error) Game link';
    item.tooltip = `PyOps game link: ${s.error ?? 'not listening'} Click for details and Retry.`;
    item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
    return;
  }
  const md = new vscode.MarkdownString(undefined, true);
  if (s.linked) {
    item.text = s.protocolMismatch ? '$(warning) Game: protocol mismatch' : s.paired ? `$(plug) Game: ${s.player ?? 'linked'}` : `$(unlock) Game: ${s.player ?? 'linked'} (read-only, not paired)`;
    if (s.protocolMismatch || !s.paired) item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    md.appendMarkdown(`**Factorio linked**: ${s.player ?? 'a player'}, mod ${s.modVersion ?? '?'}\n\n`);
    if (!s.paired) md.appendMarkdown(`$(unlock) **Not paired**: the game did not present this PyOps's pairing code, so nothing from it is saved and no commands are sent. Reinstall the companion mod from PyOps, or copy the code from the game-link status into the mod's "PyOps Link: pairing code" setting.\n\n`);
    if (s.protocolMismatch) md.appendMarkdown(`$(warning) The mod speaks protocol ${s.modProtocolVersion}, PyOps ${s.appProtocolVersion}. Reinstall the companion mod and restart the game.\n\n`);
  } else {
    item.text = '$(radio-tower) Game: waiting';
    md.appendMarkdown(`**Waiting for Factorio** on UDP ${s.host}:${s.port}.\n\nStart Factorio with \`--enable-lua-udp ${gameUdpPortFor(s.port)}\` and the PyOps Link mod enabled.\n\n`);
    if (s.peer) md.appendMarkdown(`Last seen ${new Date(s.peer.lastSeen).toLocaleTimeString()}.\n\n`);
  }
  if (s.lastRefused) md.appendMarkdown(`$(shield) Refused ${s.lastRefused.source} at ${new Date(s.lastRefused.at).toLocaleTimeString()}: ${s.lastRefused.reason}.\n\n`);
  md.appendMarkdown(`Datagrams in ${s.counters.in} · out ${s.counters.out} · malformed ${s.counters.malformed} · refused ${s.counters.refused}${s.relays ? ` · relays ${s.relays}` : ''}\n\nClick for game-link status and actions.`);
  item.tooltip = md;
}
