-- A fake Factorio 2.x runtime for running the companion mod outside the game. It installs the
-- globals the mod uses (defines, script, game, helpers, settings, storage, remote, prototypes,
-- log, table_size) and returns a controller that advances ticks, raises events, delivers UDP
-- packets and inspects GUI state. It models what the mod relies on, with Factorio's rules where
-- they matter (send_udp raising without --enable-lua-udp, for_player 0 silently dropped, packets
-- arriving as events one tick after recv_udp, duplicate GUI names rejected, dot-call methods).
-- Pure Lua 5.2; runs under fengari in the unit tests and on lua5.2 for a smoke run.
local json = require("json")

local C = {
  tick = 0,
  udp_enabled = true,
  multiplayer = false,
  empty_as = "{}",
  handlers = { events = {}, nth = {}, custom = {} },
  outbox = {},
  printed = {},
  logs = {},
  screenshots = {},
  reloads = 0,
  inbound = {},
  pending_events = {},
  -- host hooks (set by the JS harness): send(port, data, player), screenshot(path)
  host = {},
}

-- defines -------------------------------------------------------------------------------------

local next_event_id = 100
local events = setmetatable({}, {
  __index = function(t, k)
    next_event_id = next_event_id + 1
    rawset(t, k, next_event_id)
    return next_event_id
  end,
})
defines = {
  events = events,
  entity_status = { working = 1, normal = 2, no_power = 3, low_power = 4, no_fuel = 5, no_recipe = 6, no_ingredients = 7, full_output = 8, item_ingredient_shortage = 9, waiting_for_space_in_destination = 10, no_minable_resources = 11 },
  flow_precision_index = { five_seconds = 0, one_minute = 1, ten_minutes = 2, one_hour = 3, ten_hours = 4, fifty_hours = 5, two_hundred_fifty_hours = 6, one_thousand_hours = 7 },
  direction = { north = 0, east = 4, south = 8, west = 12 },
}

-- script --------------------------------------------------------------------------------------

local function check_function(f, what)
  if type(f) ~= "function" then error(what .. " needs a function", 3) end
end

script = {
  mod_name = "pyops-link",
  active_mods = { base = "2.0.77", ["pyops-link"] = "0.1.0" },
  on_init = function(f) check_function(f, "on_init"); C.handlers.init = f end,
  on_load = function(f) check_function(f, "on_load"); C.handlers.load = f end,
  on_configuration_changed = function(f) check_function(f, "on_configuration_changed"); C.handlers.config = f end,
  on_event = function(ids, f, filters)
    if type(ids) ~= "table" then ids = { ids } end
    for _, id in ipairs(ids) do
      if type(id) == "string" then C.handlers.custom[id] = f
      elseif type(id) == "number" then C.handlers.events[id] = f
      else error("on_event: bad event id " .. tostring(id), 2) end
      if filters ~= nil and type(filters) ~= "table" then error("on_event: filters must be a table", 2) end
    end
  end,
  on_nth_tick = function(n, f)
    if type(n) ~= "number" or n < 1 then error("on_nth_tick: bad tick interval", 2) end
    C.handlers.nth[n] = f
  end,
}

-- players, forces, surfaces -------------------------------------------------------------------

local players_by_index = {}
local players = setmetatable({}, {
  __index = function(_, k)
    if type(k) == "string" then
      for _, p in pairs(players_by_index) do if p.name == k then return p end end
    end
    return players_by_index[k]
  end,
  __pairs = function() return pairs(players_by_index) end,
})
local surfaces = {}
local forces = {}
local entities = {}

C.players = players_by_index
C.surfaces = surfaces
C.forces = forces
C.entities = entities
C.flows = {}
C.prototypes = { entity = {}, item = {}, fluid = {} }

function C.add_surface(name)
  local s = { object_name = "LuaSurface", valid = true, name = name, index = #C.surface_list() + 1 }
  local function matches(e, f)
    if not e.valid or e.surface ~= s then return false end
    if f.force then
      local fname = type(f.force) == "table" and f.force.name or f.force
      if e.force.name ~= fname then return false end
    end
    local function in_list(v, want)
      if want == nil then return true end
      if type(want) == "string" then return v == want end
      for _, w in ipairs(want) do if v == w then return true end end
      return false
    end
    if not in_list(e.type, f.type) or not in_list(e.name, f.name) then return false end
    if f.area then
      local a, b = f.area[1] or f.area.left_top, f.area[2] or f.area.right_bottom
      local ax, ay = a.x or a[1], a.y or a[2]
      local bx, by = b.x or b[1], b.y or b[2]
      if e.position.x < ax or e.position.x > bx or e.position.y < ay or e.position.y > by then return false end
    end
    return true
  end
  s.find_entities_filtered = function(f)
    f = f or {}
    local out = {}
    for _, e in ipairs(entities) do
      if matches(e, f) then
        out[#out + 1] = e
        if f.limit and #out >= f.limit then break end
      end
    end
    return out
  end
  s.count_entities_filtered = function(f)
    local n = 0
    for _, e in ipairs(entities) do if matches(e, f or {}) then n = n + 1 end end
    return n
  end
  surfaces[name] = s
  return s
end

function C.surface_list()
  local out = {}
  for _, s in pairs(surfaces) do out[#out + 1] = s end
  return out
end

local function flow_stats(force, surface, kind)
  local key = force.name .. "|" .. surface.name .. "|" .. kind
  local rates = C.flows[key]
  if not rates then
    rates = {}
    C.flows[key] = rates
  end
  local st = { object_name = "LuaFlowStatistics", valid = true }
  local input_counts, output_counts = {}, {}
  for name, r in pairs(rates) do
    if (r.input or 0) > 0 then input_counts[name] = r.input * 10 end
    if (r.output or 0) > 0 then output_counts[name] = r.output * 10 end
  end
  st.input_counts = input_counts
  st.output_counts = output_counts
  st.get_flow_count = function(p)
    if type(p) ~= "table" or type(p.name) ~= "string" then error("get_flow_count: name required", 2) end
    if p.category ~= "input" and p.category ~= "output" and p.category ~= "storage" then error("get_flow_count: bad category " .. tostring(p.category), 2) end
    if type(p.precision_index) ~= "number" then error("get_flow_count: precision_index required", 2) end
    local r = rates[p.name]
    if not r then return 0 end
    -- rates are stored per minute for the one_minute precision, as the game reports them
    return (p.category == "input" and r.input or r.output) or 0
  end
  return st
end

function C.add_force(name)
  local f = { object_name = "LuaForce", valid = true, name = name, index = 0, technologies = {}, recipes = {}, mining_drill_productivity_bonus = 0 }
  local n = 0
  for _ in pairs(forces) do n = n + 1 end
  f.index = n + 1
  f.get_item_production_statistics = function(surface) return flow_stats(f, surface, "item") end
  f.get_fluid_production_statistics = function(surface) return flow_stats(f, surface, "fluid") end
  forces[name] = f
  return f
end

function C.set_flow(force, surface, kind, name, produced_per_min, consumed_per_min)
  flow_stats(force, surface, kind)
  C.flows[force.name .. "|" .. surface.name .. "|" .. kind][name] = { input = produced_per_min, output = consumed_per_min }
end

function C.add_tech(force, name, researched)
  force.technologies[name] = { object_name = "LuaTechnology", valid = true, name = name, researched = researched, force = force }
  return force.technologies[name]
end

function C.add_recipe(force, name, bonus)
  force.recipes[name] = { object_name = "LuaRecipe", valid = true, name = name, productivity_bonus = bonus or 0 }
end

function C.add_entity(spec)
  local e = {
    object_name = "LuaEntity", valid = true, name = spec.name, type = spec.type,
    position = { x = spec.x or 0, y = spec.y or 0 },
    surface = spec.surface, force = spec.force, status = spec.status, mining_target = spec.mining_target,
  }
  local recipe = spec.recipe
  e.get_recipe = function()
    if not (e.type == "assembling-machine" or e.type == "furnace" or e.type == "rocket-silo") then error("get_recipe: not a crafting machine", 2) end
    if recipe then return { object_name = "LuaRecipe", valid = true, name = recipe }, nil end
    return nil, nil
  end
  e.destroy = function() e.valid = false end
  entities[#entities + 1] = e
  C.prototypes.entity[spec.name] = C.prototypes.entity[spec.name] or { name = spec.name, type = spec.type }
  return e
end

-- GUI -----------------------------------------------------------------------------------------

local GUI_TYPES = { button = true, ["sprite-button"] = true, frame = true, flow = true, label = true, table = true, textfield = true, ["text-box"] = true, checkbox = true, ["scroll-pane"] = true, line = true, empty = true }

local function new_element(parent, spec, player_index)
  if type(spec) ~= "table" or not GUI_TYPES[spec.type] then error("LuaGuiElement.add: unknown element type " .. tostring(spec and spec.type), 3) end
  if spec.type == "checkbox" and type(spec.state) ~= "boolean" then error("LuaGuiElement.add: checkbox needs a boolean state", 3) end
  if spec.type == "table" and type(spec.column_count) ~= "number" then error("LuaGuiElement.add: table needs column_count", 3) end
  if spec.caption ~= nil and type(spec.caption) ~= "string" and type(spec.caption) ~= "table" and type(spec.caption) ~= "number" then error("LuaGuiElement.add: bad caption", 3) end
  if parent and spec.name then
    for _, c in ipairs(rawget(parent, "children")) do
      if c.name == spec.name then error("LuaGuiElement.add: an element named " .. spec.name .. " already exists in the parent", 3) end
    end
  end
  local el = {
    object_name = "LuaGuiElement", valid = true, type = spec.type, name = spec.name, caption = spec.caption,
    text = spec.text or "", state = spec.state, tags = spec.tags or {}, tooltip = spec.tooltip,
    style = {}, children = {}, parent = parent, player_index = player_index, visible = true,
  }
  el.add = function(s) return new_element(el, s, player_index) end
  el.clear = function()
    for _, c in ipairs(rawget(el, "children")) do c.valid = false end
    el.children = {}
  end
  el.destroy = function()
    el.valid = false
    if parent then
      local kids = rawget(parent, "children")
      for i, c in ipairs(kids) do if c == el then table.remove(kids, i) break end end
    end
  end
  el.force_auto_center = function() end
  el.bring_to_front = function() end
  el.focus = function() end
  setmetatable(el, {
    __index = function(t, k)
      for _, c in ipairs(rawget(t, "children")) do if c.name == k then return c end end
      return nil
    end,
  })
  if parent then table.insert(rawget(parent, "children"), el) end
  return el
end

function C.find_element(root, name)
  if root.name == name then return root end
  for _, c in ipairs(rawget(root, "children")) do
    local f = C.find_element(c, name)
    if f then return f end
  end
  return nil
end

--- Every caption under an element, flattened to text (localised strings as "key(args)").
function C.captions(root)
  local out = {}
  local function text(cap)
    if type(cap) == "table" then
      local parts = {}
      for i = 2, #cap do parts[#parts + 1] = text(cap[i]) end
      return tostring(cap[1]) .. "(" .. table.concat(parts, ",") .. ")"
    end
    return tostring(cap)
  end
  local function walk(e)
    if e.caption ~= nil then out[#out + 1] = text(e.caption) end
    for _, c in ipairs(rawget(e, "children")) do walk(c) end
  end
  walk(root)
  return out
end

function C.add_player(spec)
  local index = #players_by_index + 1
  local force = spec.force or forces.player
  local surface = spec.surface or surfaces.nauvis
  local p = {
    object_name = "LuaPlayer", valid = true, index = index, name = spec.name or ("player" .. index),
    connected = spec.connected ~= false, force = force, surface = surface,
    position = { x = spec.x or 0, y = spec.y or 0 }, selected = nil, opened = nil,
    display_resolution = { width = 1920, height = 1080 }, display_scale = 1,
    mod_settings = {
      ["pyops-link-port"] = { value = spec.port or 37657 },
      ["pyops-link-enabled"] = { value = spec.enabled ~= false },
      ["pyops-link-allow-eval"] = { value = spec.allow_eval == true },
      ["pyops-link-pairing"] = { value = spec.pairing or "" },
    },
  }
  p.gui = {
    top = new_element(nil, { type = "flow", name = "top" }, index),
    left = new_element(nil, { type = "flow", name = "left" }, index),
    center = new_element(nil, { type = "flow", name = "center" }, index),
    screen = new_element(nil, { type = "flow", name = "screen" }, index),
  }
  p.print = function(msg) C.printed[#C.printed + 1] = { player = index, message = msg } end
  players_by_index[index] = p
  C.inbound[index] = {}
  return p
end

-- game ----------------------------------------------------------------------------------------

game = setmetatable({
  players = players,
  surfaces = surfaces,
  forces = forces,
  get_player = function(i) return players[i] end,
  get_surface = function(name) return surfaces[name] end,
  is_multiplayer = function() return C.multiplayer end,
  print = function(msg) C.printed[#C.printed + 1] = { message = msg } end,
  reload_mods = function() C.reload_requested = true end,
  take_screenshot = function(p)
    if type(p) ~= "table" then error("take_screenshot needs a table", 2) end
    if p.path ~= nil and type(p.path) ~= "string" then error("take_screenshot: path must be a string", 2) end
    C.screenshots[#C.screenshots + 1] = p
    if C.host.screenshot then C.host.screenshot(p.path or "screenshot.png") end
  end,
}, {
  __index = function(_, k)
    if k == "tick" then return C.tick end
    if k == "connected_players" then
      local out = {}
      for _, p in pairs(players_by_index) do if p.connected then out[#out + 1] = p end end
      return out
    end
    return nil
  end,
  __newindex = function(_, k) error("game." .. tostring(k) .. " is read-only", 2) end,
})

prototypes = C.prototypes

-- helpers -------------------------------------------------------------------------------------

helpers = {
  table_to_json = function(t) return json.encode(t, C.empty_as) end,
  json_to_table = function(s)
    local ok, v = pcall(json.decode, s)
    if ok then return v end
    return nil
  end,
  send_udp = function(port, data, for_player)
    if not C.udp_enabled then error("UDP is not enabled; the game must be started with --enable-lua-udp", 2) end
    if type(port) ~= "number" or port < 1 or port > 65535 or port ~= math.floor(port) then error("send_udp: bad port " .. tostring(port), 2) end
    if type(data) ~= "string" then error("send_udp: the mod sends plain strings (tables are LocalisedStrings)", 2) end
    -- measured: in a graphical game, for_player 0 is dropped without an error
    if for_player == 0 then return end
    if C.host.send then C.host.send(port, data, for_player or 0)
    else C.outbox[#C.outbox + 1] = { port = port, data = data, for_player = for_player } end
  end,
  recv_udp = function(for_player)
    if not C.udp_enabled then error("UDP is not enabled; the game must be started with --enable-lua-udp", 2) end
    local queue = C.inbound[for_player or 0] or {}
    C.inbound[for_player or 0] = {}
    for _, pkt in ipairs(queue) do
      C.pending_events[#C.pending_events + 1] = { payload = pkt.payload, source_port = pkt.source_port, player_index = for_player or 0 }
    end
  end,
  write_file = function() end,
}

settings = {
  get_player_settings = function(p)
    local player = type(p) == "table" and p or players[p]
    return player.mod_settings
  end,
  global = {},
  startup = {},
}

remote = {
  interfaces = {},
  add_interface = function(name, fns)
    if remote.interfaces[name] then error("remote interface " .. name .. " already exists", 2) end
    local copy = {}
    for k, v in pairs(fns) do copy[k] = v end
    remote.interfaces[name] = copy
    C.remote_functions = C.remote_functions or {}
    C.remote_functions[name] = fns
  end,
  call = function(name, fn, ...)
    local iface = C.remote_functions and C.remote_functions[name]
    if not iface or not iface[fn] then error("unknown remote interface function " .. tostring(name) .. "." .. tostring(fn), 2) end
    return iface[fn](...)
  end,
}

storage = {}

log = function(msg) C.logs[#C.logs + 1] = tostring(msg) end
table_size = function(t)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  return n
end

-- controller ----------------------------------------------------------------------------------

local function event(name, fields)
  local e = { name = defines.events[name], tick = C.tick }
  for k, v in pairs(fields or {}) do e[k] = v end
  return e
end

--- Raise a game event (by defines name) or a custom input (by prototype name).
function C.raise(name, fields)
  local f = C.handlers.events[rawget(defines.events, name) or -1]
  local e
  if f then
    e = event(name, fields)
  else
    f = C.handlers.custom[name]
    e = { input_name = name, tick = C.tick }
    for k, v in pairs(fields or {}) do e[k] = v end
  end
  if f then f(e) end
  return f ~= nil
end

local MOD_MODULES = { "control", "scripts.protocol", "scripts.chunk", "scripts.link", "scripts.snapshots", "scripts.inspect", "scripts.eval", "scripts.panel", "scripts.commands" }

--- Run the mod's control.lua. `fresh`: a new game (on_init); otherwise a loaded save (on_load).
function C.load_mod(fresh)
  C.handlers = { events = {}, nth = {}, custom = {} }
  remote.interfaces = {}
  C.remote_functions = nil
  if C.turd_selections then C.install_turd(C.turd_selections) end
  for _, m in ipairs(MOD_MODULES) do package.loaded[m] = nil end
  require("control")
  if fresh ~= false then
    if C.handlers.init then C.handlers.init() end
  else
    if C.handlers.load then C.handlers.load() end
  end
end

--- Py's TURD interface, as pywiki_turd_page exposes it.
function C.install_turd(selections)
  C.turd_selections = selections
  local fns = { get_turd_selections = function(force_index) return C.turd_selections end }
  remote.interfaces["pywiki_turd_page"] = { get_turd_selections = true }
  C.remote_functions = C.remote_functions or {}
  C.remote_functions["pywiki_turd_page"] = fns
end

--- Queue a datagram for the game instance of `player_index` (what the OS buffer holds).
function C.deliver(player_index, payload, source_port)
  local q = C.inbound[player_index]
  if not q then
    q = {}
    C.inbound[player_index] = q
  end
  q[#q + 1] = { payload = payload, source_port = source_port }
end

function C.advance(n)
  for _ = 1, n or 1 do
    C.tick = C.tick + 1
    -- packets fetched by recv_udp arrive as events on a later tick, before the tick's handlers
    local pending = C.pending_events
    C.pending_events = {}
    local f = C.handlers.events[rawget(defines.events, "on_udp_packet_received") or -1]
    for _, pkt in ipairs(pending) do
      if f then f(event("on_udp_packet_received", pkt)) end
    end
    local on_tick = C.handlers.events[rawget(defines.events, "on_tick") or -1]
    if on_tick then on_tick(event("on_tick")) end
    for nth, handler in pairs(C.handlers.nth) do
      if C.tick % nth == 0 then handler({ tick = C.tick, nth_tick = nth }) end
    end
    if C.reload_requested then
      -- game.reload_mods(): scripts run again from scratch, storage survives
      C.reload_requested = false
      C.reloads = C.reloads + 1
      C.load_mod(false)
      if C.handlers.config then C.handlers.config({}) end
    end
  end
end

--- Click a GUI element by name (searching all of the player's GUI roots).
function C.click(player_index, name)
  local p = players_by_index[player_index]
  for _, root in pairs(p.gui) do
    local el = C.find_element(root, name)
    if el then
      C.raise("on_gui_click", { element = el, player_index = player_index })
      return true
    end
  end
  return false
end

--- All captions in the player's GUI, flattened.
function C.gui_text(player_index)
  local p = players_by_index[player_index]
  local out = {}
  for _, key in ipairs({ "top", "left", "center", "screen" }) do
    for _, c in ipairs(C.captions(p.gui[key])) do out[#out + 1] = c end
  end
  return table.concat(out, "\n")
end

function C.element(player_index, name)
  local p = players_by_index[player_index]
  for _, root in pairs(p.gui) do
    local el = C.find_element(root, name)
    if el then return el end
  end
  return nil
end

function C.take_outbox()
  local o = C.outbox
  C.outbox = {}
  return o
end

--- A small default world: one surface, one force, a few machines, research and flows.
function C.default_world()
  local nauvis = C.add_surface("nauvis")
  C.add_surface("platform-1")
  local force = C.add_force("player")
  C.add_force("enemy")
  C.add_tech(force, "automation", true)
  C.add_tech(force, "logistics", true)
  C.add_tech(force, "advanced-material-processing", false)
  C.add_recipe(force, "iron-gear-wheel", 0.1)
  C.add_recipe(force, "copper-cable", 0)
  force.mining_drill_productivity_bonus = 0.2
  local ore = C.add_entity({ name = "iron-ore", type = "resource", x = 10, y = 10, surface = nauvis, force = forces.enemy })
  for i = 1, 3 do
    C.add_entity({ name = "assembling-machine-2", type = "assembling-machine", x = i * 4, y = 0, surface = nauvis, force = force, recipe = "iron-gear-wheel", status = defines.entity_status.working })
  end
  C.add_entity({ name = "assembling-machine-2", type = "assembling-machine", x = 16, y = 0, surface = nauvis, force = force, status = defines.entity_status.no_recipe })
  C.add_entity({ name = "electric-mining-drill", type = "mining-drill", x = 10, y = 10, surface = nauvis, force = force, mining_target = ore, status = defines.entity_status.working })
  C.add_entity({ name = "stone-furnace", type = "furnace", x = -5, y = 3, surface = nauvis, force = force, recipe = "iron-plate" })
  C.add_entity({ name = "character", type = "character", x = 0, y = 0, surface = nauvis, force = force })
  C.add_entity({ name = "iron-chest", type = "container", x = 2, y = 2, surface = nauvis, force = force })
  C.prototypes.item["iron-plate"] = { name = "iron-plate" }
  C.prototypes.item["iron-gear-wheel"] = { name = "iron-gear-wheel" }
  C.prototypes.fluid["water"] = { name = "water" }
  C.set_flow(force, nauvis, "item", "iron-plate", 120, 60)
  C.set_flow(force, surfaces["platform-1"], "item", "iron-plate", 30, 0)
  C.set_flow(force, nauvis, "item", "iron-gear-wheel", 30, 0.00001)
  C.set_flow(force, nauvis, "fluid", "water", 1200, 1200)
  return force
end

return C
