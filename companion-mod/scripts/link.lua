-- The UDP link to the app: guarded send and poll, chunking of big messages, and the per-player
-- link state. helpers.send_udp / recv_udp raise when the game was started without
-- --enable-lua-udp, so every call goes through pcall; the first failure turns UDP off for this
-- session (a module-local flag). That flag only ever suppresses sends and, in single-player, adds
-- a hint to the panel: game state (storage, GUI in multiplayer) never depends on whether a send
-- or receive worked, because that differs between peers and would desync.
local protocol = require("scripts.protocol")
local chunk = require("scripts.chunk")

local M = {}

-- A player is linked while the app's last pong is younger than this (6 s, like the app's view).
M.LINK_TICKS = 360

local udp_ok = true
local udp_error = nil
local message_seq = 0

function M.udp_available()
  return udp_ok, udp_error
end

local function disable(err)
  if udp_ok then
    udp_ok = false
    udp_error = tostring(err)
    log("PyOps Link: UDP is not available (" .. udp_error .. "); start Factorio with --enable-lua-udp <port> to link the game to PyOps.")
  end
end

local function player_setting(player, name, default)
  local ok, value = pcall(function() return player.mod_settings[name].value end)
  if ok and value ~= nil then return value end
  return default
end

function M.app_port(player)
  return player_setting(player, protocol.SETTING_PORT, 37657)
end

function M.enabled_for(player)
  return player_setting(player, protocol.SETTING_ENABLED, true) == true
end

--- The pairing code this player set (or the install wrote as default); nil when blank.
function M.pairing(player)
  local code = player_setting(player, protocol.SETTING_PAIRING, "")
  if type(code) ~= "string" then return nil end
  code = code:match("^%s*(.-)%s*$")
  if code == "" then return nil end
  return code
end

function M.eval_allowed(player)
  return player_setting(player, protocol.SETTING_EVAL, false) == true
end

--- Per-player link state, in storage (written only from replicated events).
function M.state(player_index)
  local root = storage.pyops
  local s = root.players[player_index]
  if not s then
    s = { last_pong = nil, app_protocol = nil, app_project = nil, app_paired = nil, notice = nil }
    root.players[player_index] = s
  end
  return s
end

function M.is_linked(player_index)
  local s = storage.pyops and storage.pyops.players[player_index]
  return s ~= nil and s.last_pong ~= nil and game.tick - s.last_pong < M.LINK_TICKS
end

--- Send one message to the app (chunked when big). Returns nothing: outcomes must not drive state.
function M.send(player, msg_type, payload, request_id)
  if not udp_ok or not M.enabled_for(player) then return end
  local ok, text = pcall(helpers.table_to_json, protocol.envelope(msg_type, player.index, payload, request_id, M.pairing(player)))
  if not ok or type(text) ~= "string" then
    log("PyOps Link: could not encode " .. msg_type .. ": " .. tostring(text))
    return
  end
  message_seq = message_seq + 1
  local frames = chunk.split(text, protocol.MAX_DATAGRAM, "m" .. game.tick .. "x" .. message_seq)
  local port = M.app_port(player)
  for _, frame in ipairs(frames) do
    local sent, err = pcall(helpers.send_udp, port, frame, player.index)
    if not sent then
      disable(err)
      return
    end
  end
end

--- Ask the game for waiting datagrams; they arrive as on_udp_packet_received events.
function M.poll(player)
  if not udp_ok or not M.enabled_for(player) then return end
  local ok, err = pcall(helpers.recv_udp, player.index)
  if not ok then disable(err) end
end

--- Turn one received datagram into a decoded message table, or nil (partial, bad, not for us).
function M.decode(event)
  local payload = event.payload
  if type(payload) ~= "string" or #payload == 0 then return nil end
  if chunk.is_chunk(payload) then
    local r = chunk.accept(storage.pyops.chunks, tostring(event.player_index or 0), payload, event.tick or game.tick)
    if r == "partial" or r == "duplicate" or r == "invalid" then return nil end
    payload = r
  end
  local ok, msg = pcall(helpers.json_to_table, payload)
  if not ok or type(msg) ~= "table" or type(msg.type) ~= "string" then return nil end
  if type(msg.payload) ~= "table" then msg.payload = {} end
  return msg
end

function M.sweep()
  chunk.sweep(storage.pyops.chunks, game.tick)
end

return M
