-- What the mod does with each message from the app. Correlated commands (cmd.*, request.sync)
-- answer with bridge.result carrying the command's request_id; unknown types are ignored. Every
-- handler runs under pcall: a bad message must never raise a script error in the player's game.
local protocol = require("scripts.protocol")
local link = require("scripts.link")
local snapshots = require("scripts.snapshots")
local inspect = require("scripts.inspect")
local evaluator = require("scripts.eval")
local panel = require("scripts.panel")

local M = {}

function M.ping_payload(player)
  return {
    player_name = player.name,
    force = player.force.name,
    multiplayer = game.is_multiplayer(),
    game_version = script.active_mods["base"],
  }
end

--- Push a ping and every snapshot (the ping first, so the app knows who is talking). Sends only;
--- returns the kinds sent.
function M.send_full(player)
  local force = player.force
  local sent = {}
  link.send(player, "bridge.ping", M.ping_payload(player))
  link.send(player, "state.research", snapshots.research(force))
  sent[#sent + 1] = "research"
  local turd = snapshots.turd(force)
  if turd then
    link.send(player, "state.turd", turd)
    sent[#sent + 1] = "turd"
  end
  link.send(player, "state.built", snapshots.built(force))
  sent[#sent + 1] = "built"
  link.send(player, "state.stats", snapshots.stats(force))
  sent[#sent + 1] = "stats"
  return sent
end

local function reply(player, msg, result)
  if type(msg.request_id) ~= "string" then return end
  link.send(player, "bridge.result", { request_id = msg.request_id, payload = result }, msg.request_id)
end

local handlers = {}

handlers["bridge.pong"] = function(player, msg)
  local s = link.state(player.index)
  local was_linked = link.is_linked(player.index)
  s.last_pong = game.tick
  s.app_protocol = tonumber(msg.payload.protocol_version)
  s.app_project = type(msg.payload.project) == "string" and msg.payload.project or nil
  -- false only when the app says so: an app from before pairing sends no such field
  s.app_paired = msg.payload.paired ~= false
  if not was_linked then
    -- (re)connected: the app gets everything at once
    M.send_full(player)
    panel.refresh(player)
  else
    panel.refresh_status(player)
  end
end

handlers["error"] = function(player, msg)
  local text = type(msg.payload.message) == "string" and msg.payload.message or "unknown error"
  link.state(player.index).notice = "PyOps: " .. text:sub(1, 300)
  panel.refresh(player)
end

handlers["request.sync"] = function(player, msg)
  local sent = M.send_full(player)
  reply(player, msg, { ok = true, sent = sent })
end

handlers["task.captured"] = function(player, msg)
  local p = msg.payload
  local s = link.state(player.index)
  if p.ok then
    s.notice = { "pyops-link.task-saved", type(p.title) == "string" and p.title or "" }
  else
    s.notice = { "pyops-link.task-failed", type(p.error) == "string" and p.error:sub(1, 300) or "" }
  end
  player.print(s.notice)
  panel.refresh(player)
end

handlers["task.list"] = function(player, msg)
  local s = link.state(player.index)
  s.tasks = type(msg.payload.tasks) == "table" and msg.payload.tasks or {}
  s.tasks_truncated = msg.payload.truncated == true
  panel.refresh(player)
end

handlers["cmd.show_block"] = function(player, msg)
  local s = link.state(player.index)
  s.block = msg.payload
  panel.open(player, "block")
  reply(player, msg, { ok = true, panel = "block", block = type(msg.payload.name) == "string" and msg.payload.name or "" })
end

handlers["cmd.hide_block"] = function(player, msg)
  local s = link.state(player.index)
  s.block = nil
  if s.tab ~= "tasks" then panel.close(player) end
  reply(player, msg, { ok = true })
end

handlers["cmd.game_context"] = function(player, msg)
  reply(player, msg, inspect.game_context(player))
end

handlers["cmd.inspect_area"] = function(player, msg)
  reply(player, msg, inspect.inspect_area(player, msg.payload))
end

handlers["cmd.find_entities"] = function(player, msg)
  reply(player, msg, inspect.find_entities(player, msg.payload))
end

handlers["cmd.production"] = function(player, msg)
  reply(player, msg, inspect.production(player, msg.payload))
end

handlers["cmd.eval"] = function(player, msg)
  reply(player, msg, evaluator.run(player, msg.payload.code, link.eval_allowed(player)))
end

handlers["cmd.dev.reload_mods"] = function(player, msg)
  if msg.payload.confirm ~= protocol.RELOAD_CONFIRM then
    reply(player, msg, { ok = false, code = "invalid-input", error = "reloading mods needs confirm = \"" .. protocol.RELOAD_CONFIRM .. "\"" })
    return
  end
  if game.is_multiplayer() then
    reply(player, msg, { ok = false, error = "mods are only reloaded from PyOps in single-player games" })
    return
  end
  -- Deferred one tick so this answer leaves before the scripts restart.
  storage.pyops.reload_at = game.tick + 1
  reply(player, msg, { ok = true, scheduled_tick = game.tick + 1 })
end

function M.dispatch(player, msg)
  local handler = handlers[msg.type]
  if not handler then return end
  -- Payload shapes belong to a protocol version. The pong is read anyway so the panel can show the
  -- mismatch; anything else from an app speaking another version is not acted on.
  if msg.type ~= "bridge.pong" and tonumber(msg.protocol_version) ~= protocol.PROTOCOL_VERSION then
    log("PyOps Link: ignored " .. msg.type .. " from an app speaking protocol " .. tostring(msg.protocol_version) .. " (this mod: " .. protocol.PROTOCOL_VERSION .. ")")
    return
  end
  local ok, err = pcall(handler, player, msg)
  if not ok then
    log("PyOps Link: handling " .. msg.type .. " failed: " .. tostring(err))
    reply(player, msg, { ok = false, error = "the mod failed handling " .. msg.type .. ": " .. tostring(err) })
  end
end

return M
