-- PyOps Link: connects this game to the PyOps planning assistant over UDP on 127.0.0.1.
-- Timers poll for the app's datagrams and send a heartbeat; snapshots go out on connect, on
-- request, after relevant events (debounced) and periodically. The logic lives in scripts/*; this
-- file registers handlers, identically on every load as Factorio requires.
local protocol = require("scripts.protocol")
local link = require("scripts.link")
local snapshots = require("scripts.snapshots")
local commands = require("scripts.commands")
local panel = require("scripts.panel")

local POLL_TICKS = 10         -- recv_udp; a command waits at most this long before it is read
local BEAT_TICKS = 120        -- heartbeat (the app counts a game as linked for 6 s after a datagram)
local DIRTY_TICKS = 60        -- debounced research/built pushes
local BUILT_SETTLE_TICKS = 180 -- wait for building to pause before rescanning machines
local STATS_TICKS = 600
local RECONCILE_TICKS = 3600  -- research, TURD and built snapshots even without events

-- Session-local, and only used to decide what to *send*: the first heartbeat after the scripts
-- (re)load pushes everything, so the app resyncs after a save load or a mod reload.
local beat_since_load = {}

local function init_storage()
  storage.pyops = storage.pyops or {}
  local s = storage.pyops
  s.players = s.players or {}
  s.chunks = s.chunks or {}
  s.research_dirty = s.research_dirty or {}
  if s.built_dirty == nil then s.built_dirty = false end
end

local function ensure_buttons()
  for _, player in pairs(game.players) do panel.ensure_button(player) end
end

script.on_init(function()
  init_storage()
  ensure_buttons()
end)

script.on_configuration_changed(function()
  init_storage()
  ensure_buttons()
end)

local function linked_players(force_index)
  local out = {}
  for _, player in pairs(game.connected_players) do
    if link.is_linked(player.index) and (not force_index or player.force.index == force_index) then out[#out + 1] = player end
  end
  return out
end

-- timers --------------------------------------------------------------------------------------

-- Players of one force get the same snapshot; a scan of every surface is the expensive part, so
-- each handler builds it once per force (a fresh cache per call: snapshots must not go stale).
local function per_force(snapshot)
  local cache = {}
  return function(force)
    local hit = cache[force.index]
    if not hit then
      hit = { value = snapshot(force) }
      cache[force.index] = hit
    end
    return hit.value
  end
end

script.on_nth_tick(POLL_TICKS, function()
  for _, player in pairs(game.connected_players) do link.poll(player) end
end)

script.on_nth_tick(BEAT_TICKS, function()
  for _, player in pairs(game.connected_players) do
    if link.enabled_for(player) then
      if not beat_since_load[player.index] then
        beat_since_load[player.index] = true
        commands.send_full(player)
      else
        link.send(player, "bridge.ping", commands.ping_payload(player))
      end
    end
    panel.refresh_status(player)
  end
end)

script.on_nth_tick(DIRTY_TICKS, function(e)
  local s = storage.pyops
  local reconcile = e.tick % RECONCILE_TICKS == 0
  -- TURD choices are not always research events; the hourly reconcile catches those too
  local research_for = reconcile and linked_players() or {}
  if not reconcile then
    for force_index in pairs(s.research_dirty) do
      for _, player in ipairs(linked_players(force_index)) do research_for[#research_for + 1] = player end
    end
  end
  local research, turd_of = per_force(snapshots.research), per_force(snapshots.turd)
  for _, player in ipairs(research_for) do
    link.send(player, "state.research", research(player.force))
    local turd = turd_of(player.force)
    if turd then link.send(player, "state.turd", turd) end
  end
  s.research_dirty = {}
  if (s.built_dirty and e.tick - s.built_dirty >= BUILT_SETTLE_TICKS) or reconcile then
    s.built_dirty = false
    local built = per_force(snapshots.built)
    for _, player in ipairs(linked_players()) do link.send(player, "state.built", built(player.force)) end
  end
  link.sweep()
end)

script.on_nth_tick(STATS_TICKS, function()
  local stats = per_force(snapshots.stats)
  for _, player in ipairs(linked_players()) do link.send(player, "state.stats", stats(player.force)) end
end)

script.on_event(defines.events.on_tick, function(e)
  local s = storage.pyops
  if s and s.reload_at and e.tick >= s.reload_at then
    s.reload_at = nil
    game.reload_mods()
  end
end)

-- datagrams -----------------------------------------------------------------------------------

script.on_event(defines.events.on_udp_packet_received, function(e)
  local player = e.player_index and game.get_player(e.player_index)
  if not player then return end
  -- Only the app's port speaks for the app (it answers from the port the mod sends to).
  if e.source_port ~= link.app_port(player) then return end
  local ok, msg = pcall(link.decode, e)
  if ok and msg then commands.dispatch(player, msg) end
end)

-- game events that make snapshots stale --------------------------------------------------------

local function research_changed(e)
  storage.pyops.research_dirty[e.research.force.index] = true
end
script.on_event(defines.events.on_research_finished, research_changed)
script.on_event(defines.events.on_research_reversed, research_changed)

local function built_changed()
  local s = storage.pyops
  if not s.built_dirty then s.built_dirty = game.tick end
end

local machine_filter = {}
for i, t in ipairs(snapshots.MACHINE_TYPES) do
  machine_filter[i] = { filter = "type", type = t }
end
for _, id in ipairs({
  defines.events.on_built_entity,
  defines.events.on_robot_built_entity,
  defines.events.on_space_platform_built_entity,
  defines.events.script_raised_built,
  defines.events.script_raised_revive,
  defines.events.on_player_mined_entity,
  defines.events.on_robot_mined_entity,
  defines.events.on_space_platform_mined_entity,
  defines.events.on_entity_died,
  defines.events.script_raised_destroy,
  defines.events.on_entity_cloned,
}) do
  script.on_event(id, built_changed, machine_filter)
end
script.on_event(defines.events.on_entity_settings_pasted, built_changed)

-- players and GUI -----------------------------------------------------------------------------

local function ensure_player(e)
  local player = game.get_player(e.player_index)
  if player then panel.ensure_button(player) end
end
script.on_event(defines.events.on_player_created, ensure_player)
script.on_event(defines.events.on_player_joined_game, ensure_player)

script.on_event(defines.events.on_selected_entity_changed, function(e)
  local player = game.get_player(e.player_index)
  if player and player.selected then link.state(player.index).hovered = player.selected end
end)

script.on_event(defines.events.on_runtime_mod_setting_changed, function(e)
  if not e.player_index then return end
  local player = game.get_player(e.player_index)
  if player then panel.refresh(player) end
end)

local function open_tasks(player)
  panel.open(player, "tasks", true)
  link.send(player, "task.list", {})
end

local clicks = {
  [panel.BUTTON] = function(player) panel.toggle(player) end,
  pyops_link_close = function(player) panel.close(player) end,
  pyops_link_tab_block = function(player) panel.open(player, "block", true) end,
  pyops_link_tab_tasks = open_tasks,
  pyops_link_tasks_refresh = function(player) link.send(player, "task.list", {}) end,
  pyops_link_task_new = function(player) panel.open_capture(player) end,
  pyops_link_capture_cancel = function(player) panel.close_capture(player) end,
  pyops_link_capture_send = function(player)
    local payload = panel.capture_payload(player)
    if not payload then
      player.print({ "pyops-link.capture-needs-title" })
      return
    end
    link.send(player, "task.capture", payload)
    link.state(player.index).notice = { "pyops-link.task-sending", payload.title }
    panel.close_capture(player)
    panel.refresh(player)
  end,
}

script.on_event(defines.events.on_gui_click, function(e)
  local element = e.element
  if not (element and element.valid) then return end
  local handler = clicks[element.name]
  if not handler then return end
  local player = game.get_player(e.player_index)
  if player then handler(player) end
end)

script.on_event(defines.events.on_gui_closed, function(e)
  local player = game.get_player(e.player_index)
  if not player then return end
  if e.element and e.element.valid and e.element.name == panel.FRAME then panel.close(player) end
  -- A machine's GUI closed: its recipe may have changed.
  if e.entity then built_changed() end
end)

script.on_event("pyops-link-toggle-panel", function(e)
  local player = game.get_player(e.player_index)
  if player then panel.toggle(player) end
end)

script.on_event("pyops-link-capture-task", function(e)
  local player = game.get_player(e.player_index)
  if player then panel.open_capture(player) end
end)

remote.add_interface("pyops-link", {
  --- For other mods and the console: is this player linked to the app right now?
  linked = function(player_index) return link.is_linked(player_index) end,
  protocol_version = function() return protocol.PROTOCOL_VERSION end,
})
