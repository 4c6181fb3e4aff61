-- Read-only inspection commands: where the player is, what is around a point, how many of an
-- entity exist, live production rates. Every result is bounded (entity lists, sample sizes) and
-- every argument is clamped, since the request comes from outside the game.
local snapshots = require("scripts.snapshots")

local M = {}

M.MAX_AREA_ENTITIES = 60
M.MAX_SAMPLE = 50
M.MAX_GOODS = 20

local status_names = nil
local function status_name(code)
  if code == nil then return nil end
  if not status_names then
    status_names = {}
    for name, value in pairs(defines.entity_status) do status_names[value] = name end
  end
  return status_names[code]
end

local function clamp(v, lo, hi, default)
  v = tonumber(v)
  if not v or v ~= v then return default end
  if v < lo then return lo end
  if v > hi then return hi end
  return v
end

local function round2(v)
  return math.floor(v * 100 + 0.5) / 100
end

--- A short, JSON-friendly description of an entity.
function M.describe(e)
  if not e or not e.valid then return nil end
  local d = { name = e.name, type = e.type, x = round2(e.position.x), y = round2(e.position.y) }
  d.recipe = snapshots.recipe_of(e)
  local ok, st = pcall(function() return e.status end)
  if ok then d.status = status_name(st) end
  return d
end

local function surface_for(player, name)
  if type(name) == "string" and name ~= "" then
    local s = game.get_surface(name)
    if not s then return nil, "there is no surface named \"" .. name .. "\"" end
    return s
  end
  return player.surface
end

function M.game_context(player)
  local selected = player.selected
  if not selected then
    local s = storage.pyops.players[player.index]
    local hovered = s and s.hovered
    if hovered and hovered.valid then selected = hovered end
  end
  return {
    ok = true,
    player = player.name,
    force = player.force.name,
    surface = player.surface.name,
    x = round2(player.position.x),
    y = round2(player.position.y),
    tick = game.tick,
    selected = M.describe(selected),
  }
end

function M.inspect_area(player, args)
  local surface, err = surface_for(player, args.surface)
  if not surface then return { ok = false, code = "invalid-input", error = err } end
  local x = clamp(args.x, -1e6, 1e6, player.position.x)
  local y = clamp(args.y, -1e6, 1e6, player.position.y)
  local r = math.floor(clamp(args.radius, 1, 64, 16))
  local found = surface.find_entities_filtered({ area = { { x - r, y - r }, { x + r, y + r } }, force = player.force })
  local entities, count = {}, 0
  for _, e in pairs(found) do
    if e.type ~= "character" then
      count = count + 1
      if #entities < M.MAX_AREA_ENTITIES then entities[#entities + 1] = M.describe(e) end
    end
  end
  return {
    ok = true,
    surface = surface.name,
    center = { x = round2(x), y = round2(y) },
    radius = r,
    count = count,
    truncated = count > #entities,
    entities = entities,
  }
end

function M.find_entities(player, args)
  local name = args.name
  if type(name) ~= "string" or name == "" then return { ok = false, code = "invalid-input", error = "give the entity prototype name to count" } end
  if not prototypes.entity[name] then
    return { ok = false, code = "invalid-input", error = "there is no entity prototype named \"" .. name .. "\" (use internal names, e.g. assembling-machine-1)" }
  end
  local surface, err = surface_for(player, args.surface)
  if not surface then return { ok = false, code = "invalid-input", error = err } end
  local limit = math.floor(clamp(args.limit, 1, M.MAX_SAMPLE, 20))
  -- The player's own: another force's machines (an ally's, a biter nest) are not part of this base.
  local count = surface.count_entities_filtered({ name = name, force = player.force })
  local sample = {}
  for _, e in pairs(surface.find_entities_filtered({ name = name, force = player.force, limit = limit })) do
    sample[#sample + 1] = { x = round2(e.position.x), y = round2(e.position.y) }
  end
  return { ok = true, name = name, surface = surface.name, count = count, truncated = count > #sample, sample = sample }
end

function M.production(player, args)
  local goods = type(args.goods) == "table" and args.goods or {}
  local force = player.force
  local stats = {}
  for i, name in ipairs(goods) do
    if i > M.MAX_GOODS then break end
    if type(name) == "string" then
      local kind = (prototypes.item[name] and "item") or (prototypes.fluid[name] and "fluid") or nil
      local produced, consumed = 0, 0
      if kind then
        for _, surface in pairs(game.surfaces) do
          local fs = kind == "item" and force.get_item_production_statistics(surface) or force.get_fluid_production_statistics(surface)
          local p, c = snapshots.flow_per_second(fs, name)
          produced = produced + p
          consumed = consumed + c
        end
      end
      stats[#stats + 1] = { name = name, kind = kind, produced = produced, consumed = consumed }
    end
  end
  return { ok = true, stats = stats }
end

return M
