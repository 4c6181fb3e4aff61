-- App-driven Lua eval, for developers. Runs only when the player turned on the per-player setting
-- "Allow app-driven Lua eval" (off by default) and only in single-player. The code runs in a
-- fresh environment with the game API but without the mod's internals (storage, script, require,
-- load, metatables, debug), and the answer is a bounded text rendering of the result.
local M = {}

M.MAX_OUTPUT = 8000
M.MAX_DEPTH = 4
M.MAX_ENTRIES = 40
M.MAX_CODE = 20000

local function copy(t)
  local c = {}
  if type(t) == "table" then
    for k, v in pairs(t) do c[k] = v end
  end
  return c
end

function M.environment(player)
  return {
    player = player,
    game = game,
    helpers = helpers,
    prototypes = prototypes,
    defines = defines,
    settings = settings,
    rendering = rendering,
    serpent = serpent,
    log = log,
    table_size = table_size,
    pairs = pairs,
    ipairs = ipairs,
    next = next,
    select = select,
    type = type,
    tostring = tostring,
    tonumber = tonumber,
    pcall = pcall,
    error = error,
    assert = assert,
    unpack = table.unpack or unpack,
    -- copies, so eval'd code cannot rewrite the libraries the mod itself uses
    math = copy(math),
    string = copy(string),
    table = copy(table),
    bit32 = copy(bit32),
  }
end

local function is_lua_object(v)
  if type(v) == "userdata" then return true end
  return type(v) == "table" and type(rawget(v, "object_name")) == "string"
end

local function object_text(v)
  local ok, text = pcall(function()
    if not v.valid then return "<" .. v.object_name .. " invalid>" end
    local name_ok, name = pcall(function() return v.name end)
    if name_ok and type(name) == "string" then return "<" .. v.object_name .. " " .. name .. ">" end
    return "<" .. v.object_name .. ">"
  end)
  return ok and text or "<userdata>"
end

local function number_text(v)
  if v ~= v then return "nan" end
  if v == math.floor(v) and math.abs(v) < 1e15 then return string.format("%.0f", v) end
  return string.format("%.14g", v)
end

local function key_text(k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") then return k end
  if type(k) == "number" then return "[" .. number_text(k) .. "]" end
  return "[" .. string.format("%q", tostring(k)) .. "]"
end

--- A bounded rendering of a value: depth, entries per table and total length are capped.
function M.repr(value)
  local out, len, truncated = {}, 0, false
  local function emit(s)
    if truncated then return end
    if len + #s > M.MAX_OUTPUT then
      out[#out + 1] = s:sub(1, M.MAX_OUTPUT - len)
      len = M.MAX_OUTPUT
      truncated = true
      return
    end
    out[#out + 1] = s
    len = len + #s
  end
  local seen = {}
  local function walk(v, depth)
    local t = type(v)
    if t == "nil" then emit("nil")
    elseif t == "boolean" then emit(tostring(v))
    elseif t == "number" then emit(number_text(v))
    elseif t == "string" then emit(string.format("%q", v))
    elseif is_lua_object(v) then emit(object_text(v))
    elseif t == "table" then
      if seen[v] then emit("<cycle>") return end
      if depth >= M.MAX_DEPTH then emit("{…}") return end
      seen[v] = true
      emit("{")
      local n = 0
      -- sequence part first, in order, then the rest
      local count = #v
      for i = 1, count do
        if n >= M.MAX_ENTRIES then break end
        if n > 0 then emit(", ") end
        walk(v[i], depth + 1)
        n = n + 1
      end
      for k, item in pairs(v) do
        if not (type(k) == "number" and k >= 1 and k <= count and k == math.floor(k)) then
          if n >= M.MAX_ENTRIES then emit(", …") break end
          if n > 0 then emit(", ") end
          emit(key_text(k) .. " = ")
          walk(item, depth + 1)
          n = n + 1
        end
      end
      if n >= M.MAX_ENTRIES and count > M.MAX_ENTRIES then emit(", …") end
      emit("}")
      seen[v] = nil
    else
      emit("<" .. t .. ">")
    end
  end
  walk(value, 0)
  return table.concat(out), truncated
end

--- Why eval is refused for this player right now, or nil when it may run.
function M.refusal(player, allowed)
  if game.is_multiplayer() then
    return "Lua eval only runs in single-player games; this game is multiplayer."
  end
  if not allowed then
    return "Lua eval is off for " .. player.name .. ". Turn on \"Allow app-driven Lua eval\" under Settings > Mod settings > Per player, then retry."
  end
  return nil
end

function M.run(player, code, allowed)
  local why = M.refusal(player, allowed)
  if why then return { ok = false, error = why } end
  if type(code) ~= "string" or code == "" then return { ok = false, code = "invalid-input", error = "no code to run" } end
  if #code > M.MAX_CODE then return { ok = false, code = "invalid-input", error = "the code is longer than " .. M.MAX_CODE .. " bytes" } end
  local env = M.environment(player)
  -- An expression first, so "game.tick" answers without an explicit return.
  local fn = load("return " .. code, "=pyops-eval", "t", env)
  if not fn then
    local err
    fn, err = load(code, "=pyops-eval", "t", env)
    if not fn then return { ok = false, code = "invalid-input", error = "compile error: " .. tostring(err) } end
  end
  local results = table.pack(pcall(fn))
  if not results[1] then return { ok = false, error = "runtime error: " .. tostring(results[2]) } end
  local text, truncated
  if results.n <= 2 then
    text, truncated = M.repr(results[2])
  else
    local parts = {}
    for i = 2, results.n do parts[i - 1] = results[i] end
    text, truncated = M.repr(parts)
  end
  return { ok = true, result = text, truncated = truncated }
end

return M
