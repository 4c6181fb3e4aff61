-- Full snapshots of the force's state for the app: research (with productivity bonuses), Py's
-- TURD selections, built machines per (machine, recipe), and production statistics per second.
-- Read-only: building a snapshot never changes game state. The app normalizes and de-duplicates,
-- so these stay simple.
local M = {}

M.MACHINE_TYPES = {
  "assembling-machine", "furnace", "rocket-silo", "mining-drill",
  "boiler", "generator", "reactor", "offshore-pump",
}
local HAS_RECIPE = { ["assembling-machine"] = true, ["furnace"] = true, ["rocket-silo"] = true }
local DUST = 1e-6

function M.research(force)
  local researched = {}
  for name, tech in pairs(force.technologies) do
    if tech.researched then researched[#researched + 1] = name end
  end
  local bonuses = {}
  for name, recipe in pairs(force.recipes) do
    local b = recipe.productivity_bonus
    if b and b ~= 0 then bonuses[name] = b end
  end
  return {
    force = force.name,
    researched = researched,
    mining_productivity_bonus = force.mining_drill_productivity_bonus or 0,
    recipe_productivity_bonuses = bonuses,
  }
end

--- Py's TURD page exposes the selections per force; nil when the interface is absent.
function M.turd(force)
  local iface = remote.interfaces["pywiki_turd_page"]
  if not iface or not iface["get_turd_selections"] then return nil end
  local ok, result = pcall(remote.call, "pywiki_turd_page", "get_turd_selections", force.index)
  if not ok or type(result) ~= "table" then return nil end
  local selections = {}
  for master, sub in pairs(result) do
    if type(master) == "string" and type(sub) == "string" then selections[master] = sub end
  end
  return { force = force.name, selections = selections }
end

--- The recipe a crafting machine is set to; nil for other entities and idle machines.
function M.recipe_of(entity)
  if not HAS_RECIPE[entity.type] then return nil end
  local ok, recipe = pcall(entity.get_recipe)
  if ok and recipe then return recipe.name end
  return nil
end

local function recipe_key(entity)
  if HAS_RECIPE[entity.type] then return M.recipe_of(entity) or "" end
  if entity.type == "mining-drill" then
    local target = entity.mining_target
    if target and target.valid then return "mine-" .. target.name end
  end
  return ""
end

function M.built(force)
  local counts = {}
  local order = {}
  for _, surface in pairs(game.surfaces) do
    for _, e in pairs(surface.find_entities_filtered({ force = force, type = M.MACHINE_TYPES })) do
      local recipe = recipe_key(e)
      local key = e.name .. "\0" .. recipe
      if not counts[key] then
        counts[key] = { machine = e.name, recipe = recipe, count = 0 }
        order[#order + 1] = key
      end
      counts[key].count = counts[key].count + 1
    end
  end
  local machines = {}
  for i, key in ipairs(order) do machines[i] = counts[key] end
  return { force = force.name, machines = machines }
end

--- Produced and consumed per second of one good in one flow statistics object: the game keeps
--- per-minute averages, the app wants per second. One-minute window.
function M.flow_per_second(stats, name)
  local precision = defines.flow_precision_index.one_minute
  local produced = stats.get_flow_count({ name = name, category = "input", precision_index = precision, count = false }) / 60
  local consumed = stats.get_flow_count({ name = name, category = "output", precision_index = precision, count = false }) / 60
  return produced, consumed
end

local function add_flows(stats, kind, into, order)
  local names = {}
  for name in pairs(stats.input_counts) do names[name] = true end
  for name in pairs(stats.output_counts) do names[name] = true end
  for name in pairs(names) do
    local produced, consumed = M.flow_per_second(stats, name)
    if produced > DUST or consumed > DUST then
      local key = kind .. ":" .. name
      local row = into[key]
      if not row then
        row = { name = name, kind = kind, produced = 0, consumed = 0 }
        into[key] = row
        order[#order + 1] = key
      end
      row.produced = row.produced + produced
      row.consumed = row.consumed + consumed
    end
  end
end

function M.stats(force)
  local rows, order = {}, {}
  for _, surface in pairs(game.surfaces) do
    add_flows(force.get_item_production_statistics(surface), "item", rows, order)
    add_flows(force.get_fluid_production_statistics(surface), "fluid", rows, order)
  end
  local items = {}
  for i, key in ipairs(order) do items[i] = rows[key] end
  return { force = force.name, items = items }
end

return M
