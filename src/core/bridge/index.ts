// Public face of the game link (plain Node; no VS Code): the UDP bridge, the GameLink the live
// tools call, companion-mod install/remove, and the WebSocket relay for remote setups.
export { Bridge, LINK_WINDOW_MS, type BridgeOptions, type BridgeStatus, type BridgeEvent, type BridgeCounters, type BridgeState, type PeerInfo, type PeerRoute, type RelayLink } from './bridge';
export { createGameLink, LIMITS as GAME_LINK_LIMITS, type GameLink, type GameLinkOptions, type LinkResult, type GameContext, type InspectArea, type FoundEntities, type ProductionStat, type Screenshot, type EntityInfo } from './gameLink';
export { PROTOCOL_VERSION, DEFAULT_BRIDGE_PORT, gameUdpPortFor, BRIDGE_HOST, RELOAD_CONFIRM_TOKEN, type AppMessageType, type ModMessageType, type CommandType } from './protocol';
export { PAIRING_KEY, PAIRING_RE, newPairingCode, loadPairingCode, pairingCodeFor, pairingMatches } from './pairing';
export { READ_TIMEOUT_MS, SLOW_TIMEOUT_MS, type CommandOutcome, type CommandFailure } from './requests';
export { STATE_KINDS, type StateKind } from './snapshots';
export { showBlockPayload, type ShowBlockPayload } from './showBlock';
export { COMPANION_MOD_NAME, installCompanionMod, removeCompanionMod, companionModInstalled, isOurMod, ModInstallError, type InstallMode, type InstallOptions, type InstallResult, type RemoveResult } from './modInstall';
export { RelayServer, newRelayToken, type RelayServerInfo, type RelayServerOptions } from './relay/server';
export { RelayClient, type RelayClientEvent, type RelayClientOptions } from './relay/client';
