-- Splitting a message too big for one datagram into numbered parts, and reassembling parts that
-- arrive from the app. Same frame as src/core/bridge/chunking.ts:
--   "PYC1 <message id> <part> <parts>\n" .. slice
-- Slices are cut on UTF-8 boundaries. Incomplete messages live in storage (packet events are
-- replicated, so every peer holds the same parts) and expire after TIMEOUT_TICKS.
local M = {}

M.MAGIC = "PYC1 "
M.TIMEOUT_TICKS = 600
M.MAX_PARTS = 64
M.MAX_PENDING = 16
M.MAX_BYTES = 256 * 1024

local HEADER_PATTERN = "^PYC1 ([%w_%.:%-]+) (%d+) (%d+)\n"

function M.is_chunk(payload)
  return type(payload) == "string" and payload:sub(1, #M.MAGIC) == M.MAGIC
end

--- Largest cut <= stop that does not split a UTF-8 sequence.
local function utf8_cut(s, start, stop)
  if stop >= #s then return #s end
  local cut = stop
  while cut > start do
    local b = s:byte(cut + 1)
    -- 0x80..0xBF are continuation bytes: the character began before this position
    if b < 128 or b >= 192 then break end
    cut = cut - 1
  end
  return cut
end

--- The datagrams for one message: the text itself if it fits, else chunk frames.
function M.split(text, max_datagram, message_id)
  if #text <= max_datagram then return { text } end
  local header_max = #(M.MAGIC .. message_id .. " 9999 9999\n")
  local room = max_datagram - header_max
  local slices = {}
  local at = 0
  while at < #text do
    local cut = utf8_cut(text, at + 1, at + room)
    if cut <= at then cut = math.min(#text, at + room) end
    slices[#slices + 1] = text:sub(at + 1, cut)
    at = cut
  end
  local frames = {}
  for i, s in ipairs(slices) do
    frames[i] = M.MAGIC .. message_id .. " " .. i .. " " .. #slices .. "\n" .. s
  end
  return frames
end

--- id, part, parts, body of a frame; nil when it is not a well-formed frame.
function M.parse(frame)
  local id, part, parts = frame:match(HEADER_PATTERN)
  if not id or #id > 40 then return nil end
  part, parts = tonumber(part), tonumber(parts)
  if not part or not parts or parts < 2 or part < 1 or part > parts then return nil end
  local nl = frame:find("\n", 1, true)
  return id, part, parts, frame:sub(nl + 1)
end

local function count_pending(store)
  local n, oldest_key, oldest_tick = 0, nil, nil
  for k, p in pairs(store) do
    n = n + 1
    if not oldest_tick or p.first < oldest_tick then oldest_key, oldest_tick = k, p.first end
  end
  return n, oldest_key
end

--- Feed one frame. Returns "partial", "duplicate", "invalid", or the complete message string.
function M.accept(store, source, frame, tick)
  local id, part, parts, body = M.parse(frame)
  if not id then return "invalid" end
  if parts > M.MAX_PARTS then return "invalid" end
  local key = source .. ":" .. id
  local p = store[key]
  if p and p.parts ~= parts then return "invalid" end
  if not p then
    local n, oldest = count_pending(store)
    if n >= M.MAX_PENDING and oldest then store[oldest] = nil end
    p = { parts = parts, got = {}, count = 0, bytes = 0, first = tick }
    store[key] = p
  end
  if p.got[part] then return "duplicate" end
  if p.bytes + #body > M.MAX_BYTES then
    store[key] = nil
    return "invalid"
  end
  p.got[part] = body
  p.count = p.count + 1
  p.bytes = p.bytes + #body
  if p.count < p.parts then return "partial" end
  store[key] = nil
  local pieces = {}
  for i = 1, p.parts do pieces[i] = p.got[i] end
  return table.concat(pieces)
end

--- Drop incomplete messages older than the timeout.
function M.sweep(store, tick)
  for k, p in pairs(store) do
    if tick - p.first >= M.TIMEOUT_TICKS then store[k] = nil end
  end
end

return M
