-- Minimal JSON for the fake Factorio runtime (helpers.table_to_json / json_to_table). Pure Lua
-- that runs on Lua 5.2 and under fengari (5.3). Not part of the mod.
local M = {}

local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }

local function encode_string(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return escapes[c] or string.format("\\u%04x", c:byte())
  end) .. '"'
end

local function is_array(t)
  local n = 0
  for k in pairs(t) do
    if type(k) ~= "number" or k < 1 or k ~= math.floor(k) then return false end
    n = n + 1
  end
  for i = 1, n do
    if t[i] == nil then return false end
  end
  return true, n
end

local function encode_number(v)
  if v ~= v or v == math.huge or v == -math.huge then error("cannot encode " .. tostring(v) .. " as JSON") end
  if v == math.floor(v) and math.abs(v) < 1e15 then return string.format("%.0f", v) end
  return string.format("%.17g", v)
end

--- empty_as: how an empty table is written ("{}" or "[]"); Factorio's choice is undocumented.
function M.encode(value, empty_as)
  empty_as = empty_as or "{}"
  local out = {}
  local function walk(v, depth)
    if depth > 100 then error("JSON nesting too deep") end
    local t = type(v)
    if t == "nil" then out[#out + 1] = "null"
    elseif t == "boolean" then out[#out + 1] = tostring(v)
    elseif t == "number" then out[#out + 1] = encode_number(v)
    elseif t == "string" then out[#out + 1] = encode_string(v)
    elseif t == "table" then
      if next(v) == nil then out[#out + 1] = empty_as return end
      local arr, n = is_array(v)
      if arr then
        out[#out + 1] = "["
        for i = 1, n do
          if i > 1 then out[#out + 1] = "," end
          walk(v[i], depth + 1)
        end
        out[#out + 1] = "]"
      else
        out[#out + 1] = "{"
        local first = true
        for k, item in pairs(v) do
          if type(k) == "string" or type(k) == "number" then
            if not first then out[#out + 1] = "," end
            first = false
            out[#out + 1] = encode_string(tostring(k))
            out[#out + 1] = ":"
            walk(item, depth + 1)
          end
        end
        out[#out + 1] = "}"
      end
    else
      error("cannot encode a " .. t .. " as JSON")
    end
  end
  walk(value, 0)
  return table.concat(out)
end

local function utf8_char(cp)
  if cp < 0x80 then return string.char(cp) end
  if cp < 0x800 then return string.char(0xC0 + math.floor(cp / 0x40), 0x80 + cp % 0x40) end
  if cp < 0x10000 then return string.char(0xE0 + math.floor(cp / 0x1000), 0x80 + math.floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40) end
  return string.char(0xF0 + math.floor(cp / 0x40000), 0x80 + math.floor(cp / 0x1000) % 0x40, 0x80 + math.floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40)
end

function M.decode(s)
  local pos = 1
  local function fail(msg) error("bad JSON at " .. pos .. ": " .. msg) end
  local function skip()
    pos = s:find("[^ \t\r\n]", pos) or (#s + 1)
  end
  local value
  local function str()
    local buf = {}
    pos = pos + 1
    while true do
      local c = s:sub(pos, pos)
      if c == "" then fail("unterminated string") end
      if c == '"' then pos = pos + 1 break end
      if c == "\\" then
        local e = s:sub(pos + 1, pos + 1)
        local map = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", ['"'] = '"', ["\\"] = "\\", ["/"] = "/" }
        if map[e] then
          buf[#buf + 1] = map[e]
          pos = pos + 2
        elseif e == "u" then
          local cp = tonumber(s:sub(pos + 2, pos + 5), 16)
          if not cp then fail("bad \\u escape") end
          pos = pos + 6
          if cp >= 0xD800 and cp <= 0xDBFF and s:sub(pos, pos + 1) == "\\u" then
            local lo = tonumber(s:sub(pos + 2, pos + 5), 16)
            if lo and lo >= 0xDC00 and lo <= 0xDFFF then
              cp = 0x10000 + (cp - 0xD800) * 0x400 + (lo - 0xDC00)
              pos = pos + 6
            end
          end
          buf[#buf + 1] = utf8_char(cp)
        else
          fail("bad escape")
        end
      else
        if c:byte() < 32 then fail("control character in string") end
        buf[#buf + 1] = c
        pos = pos + 1
      end
    end
    return table.concat(buf)
  end
  function value()
    skip()
    local c = s:sub(pos, pos)
    if c == "{" then
      local t = {}
      pos = pos + 1
      skip()
      if s:sub(pos, pos) == "}" then pos = pos + 1 return t end
      while true do
        skip()
        if s:sub(pos, pos) ~= '"' then fail("expected a key") end
        local k = str()
        skip()
        if s:sub(pos, pos) ~= ":" then fail("expected ':'") end
        pos = pos + 1
        t[k] = value()
        skip()
        local d = s:sub(pos, pos)
        pos = pos + 1
        if d == "}" then return t end
        if d ~= "," then fail("expected ',' or '}'") end
      end
    elseif c == "[" then
      local t = {}
      pos = pos + 1
      skip()
      if s:sub(pos, pos) == "]" then pos = pos + 1 return t end
      local n = 0
      while true do
        n = n + 1
        t[n] = value()
        skip()
        local d = s:sub(pos, pos)
        pos = pos + 1
        if d == "]" then return t end
        if d ~= "," then fail("expected ',' or ']'") end
      end
    elseif c == '"' then
      return str()
    elseif s:sub(pos, pos + 3) == "true" then pos = pos + 4 return true
    elseif s:sub(pos, pos + 4) == "false" then pos = pos + 5 return false
    elseif s:sub(pos, pos + 3) == "null" then pos = pos + 4 return nil
    else
      local num = s:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
      if not num or num == "" then fail("unexpected character") end
      pos = pos + #num
      return tonumber(num)
    end
  end
  local v = value()
  skip()
  if pos <= #s then fail("trailing characters") end
  return v
end

return M
