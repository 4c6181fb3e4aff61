-- Wire protocol shared with the PyOps app (src/core/bridge/protocol.ts): the envelope and the
-- limits of one datagram. PROTOCOL_VERSION must equal the TypeScript constant; a unit test reads
-- this file and compares.
local M = {}

M.PROTOCOL_VERSION = 1
M.MOD_NAME = "pyops-link"

-- The game silently drops outbound datagrams above the OS limit (~9.2 KB on macOS); stay below 8 KB.
M.MAX_DATAGRAM = 7900

-- Per-player settings (settings.lua); prefixed with the mod name because setting names are global.
M.SETTING_PORT = "pyops-link-port"
M.SETTING_ENABLED = "pyops-link-enabled"
M.SETTING_EVAL = "pyops-link-allow-eval"
M.SETTING_PAIRING = "pyops-link-pairing"

M.RELOAD_CONFIRM = "reload_mods"

function M.mod_version()
  local v = script.active_mods and script.active_mods[M.MOD_NAME]
  return v or "0.0.0"
end

--- The mod -> app envelope. `pairing` is the code from the player's settings (nil when blank):
--- the app applies game state and sends commands only to a game that presents its code.
function M.envelope(msg_type, player_index, payload, request_id, pairing)
  return {
    pairing = pairing,
    protocol_version = M.PROTOCOL_VERSION,
    type = msg_type,
    request_id = request_id or (game.tick .. "-" .. player_index .. "-" .. msg_type),
    tick = game.tick,
    player = player_index,
    mod_version = M.mod_version(),
    payload = payload or {},
  }
end

return M
