-- The in-game PyOps panel: a status line (linked or not, and how to fix it), a Block tab that lays
-- out the summary the app sent with cmd.show_block (the mod does no solving), and a Tasks tab
-- listing the project's tasks with a dialog to capture a new one. Everything drawn comes from
-- storage, which only replicated events write; the single exception is the "UDP is off" hint,
-- drawn in single-player only, where there are no peers to disagree.
local protocol = require("scripts.protocol")
local link = require("scripts.link")

local M = {}

M.BUTTON = "pyops_link_button"
M.FRAME = "pyops_link_frame"
M.CAPTURE = "pyops_link_capture"
local MAX_TASK_ROWS = 30
local MAX_BLOCK_ROWS = 60

local function state(player)
  return link.state(player.index)
end

function M.ensure_button(player)
  if player.gui.top[M.BUTTON] then return end
  player.gui.top.add({ type = "button", name = M.BUTTON, caption = { "pyops-link.button" }, tooltip = { "pyops-link.button-tooltip" } })
end

local function fmt_rate(v)
  v = tonumber(v) or 0
  if math.abs(v) >= 100 then return string.format("%.0f", v) end
  if math.abs(v) >= 1 then return string.format("%.2f", v) end
  return string.format("%.3f", v)
end

local function fmt_power(w)
  w = tonumber(w) or 0
  if w >= 1e9 then return string.format("%.2f GW", w / 1e9) end
  if w >= 1e6 then return string.format("%.2f MW", w / 1e6) end
  return string.format("%.1f kW", w / 1e3)
end

local function text(v, fallback)
  if type(v) == "string" and v ~= "" then return v end
  return fallback or ""
end

local function status_caption(player)
  if not link.enabled_for(player) then return { "pyops-link.status-disabled" } end
  local s = state(player)
  if link.is_linked(player.index) then
    if s.app_protocol and s.app_protocol ~= protocol.PROTOCOL_VERSION then
      return { "pyops-link.status-mismatch", tostring(s.app_protocol), tostring(protocol.PROTOCOL_VERSION) }
    end
    -- An unpaired game is not told the project's name (nor its tasks), only how to pair.
    if s.app_paired == false then return { "pyops-link.status-unpaired" } end
    return { "pyops-link.status-linked", text(s.app_project, "-") }
  end
  return { "pyops-link.status-unlinked", tostring(link.app_port(player)) }
end

local function render_status(player, parent)
  local flow = parent.add({ type = "flow", name = "pyops_link_status", direction = "vertical" })
  flow.add({ type = "label", name = "pyops_link_status_text", caption = status_caption(player) })
  if not link.is_linked(player.index) and link.enabled_for(player) then
    flow.add({ type = "label", name = "pyops_link_hint", caption = { "pyops-link.hint-udp", tostring(link.app_port(player)) } })
    -- Only a single-player game may show what this session's UDP calls did (see the header).
    local udp_ok = link.udp_available()
    if not game.is_multiplayer() and not udp_ok then
      flow.add({ type = "label", name = "pyops_link_udp_off", caption = { "pyops-link.status-udp-off" } })
    end
  end
  local s = state(player)
  if s.notice then
    flow.add({ type = "label", name = "pyops_link_notice", caption = s.notice })
  end
end

local function goods_table(parent, name, title, goods)
  if type(goods) ~= "table" or #goods == 0 then return end
  local heading = parent.add({ type = "label", caption = title })
  heading.style.font = "default-bold"
  local t = parent.add({ type = "table", name = name, column_count = 3 })
  for i, g in ipairs(goods) do
    if i > MAX_BLOCK_ROWS then break end
    t.add({ type = "label", caption = text(g.display, text(g.name, "?")) })
    t.add({ type = "label", caption = fmt_rate(g.rate) .. "/s" })
    local extra = ""
    if tonumber(g.belts) then extra = string.format("%.1f belts", g.belts) end
    if type(g.note) == "string" then extra = extra .. " " .. g.note end
    t.add({ type = "label", caption = extra })
  end
end

local function render_block(player, parent)
  local block = state(player).block
  if type(block) ~= "table" then
    parent.add({ type = "label", name = "pyops_link_block_empty", caption = { "pyops-link.block-empty" } })
    return
  end
  local heading = parent.add({ type = "label", name = "pyops_link_block_name", caption = text(block.name, "?") })
  heading.style.font = "default-large-bold"
  local facts = {}
  if tonumber(block.powerW) then facts[#facts + 1] = "Power " .. fmt_power(block.powerW) end
  if tonumber(block.heatW) and block.heatW > 0 then facts[#facts + 1] = "Heat " .. fmt_power(block.heatW) end
  local lg = block.logistics
  if type(lg) == "table" and type(lg.belt) == "string" then facts[#facts + 1] = "Belt " .. lg.belt end
  if #facts > 0 then parent.add({ type = "label", name = "pyops_link_block_facts", caption = table.concat(facts, "  ·  ") }) end
  local rows = parent.add({ type = "table", name = "pyops_link_block_recipes", column_count = 4 })
  for i, r in ipairs(type(block.recipes) == "table" and block.recipes or {}) do
    if i > MAX_BLOCK_ROWS then break end
    rows.add({ type = "label", caption = string.format("%.0f×", tonumber(r.count) or 0) })
    rows.add({ type = "label", caption = text(r.machineDisplay, text(r.machine, "?")) })
    rows.add({ type = "label", caption = text(r.recipeDisplay, text(r.recipe, "?")) })
    local mods = type(r.modules) == "table" and #r.modules or 0
    rows.add({ type = "label", caption = mods > 0 and (mods .. " modules") or "" })
  end
  goods_table(parent, "pyops_link_block_inputs", { "pyops-link.block-inputs" }, block.inputs)
  goods_table(parent, "pyops_link_block_outputs", { "pyops-link.block-outputs" }, block.outputs)
end

local function render_tasks(player, parent)
  local s = state(player)
  local bar = parent.add({ type = "flow", name = "pyops_link_tasks_bar", direction = "horizontal" })
  bar.add({ type = "button", name = "pyops_link_tasks_refresh", caption = { "pyops-link.tasks-refresh" } })
  bar.add({ type = "button", name = "pyops_link_task_new", caption = { "pyops-link.task-new" } })
  local tasks = type(s.tasks) == "table" and s.tasks or nil
  if not tasks then
    parent.add({ type = "label", name = "pyops_link_tasks_none", caption = { "pyops-link.tasks-loading" } })
    return
  end
  local list = parent.add({ type = "table", name = "pyops_link_tasks", column_count = 2 })
  for i, t in ipairs(tasks) do
    if i > MAX_TASK_ROWS then break end
    local progress = ""
    if tonumber(t.stepTotal) and t.stepTotal > 0 then progress = string.format("%d/%d", math.floor(tonumber(t.stepDone) or 0), math.floor(t.stepTotal)) end
    list.add({ type = "label", caption = "[" .. text(t.status, "open") .. "] " .. text(t.title, "?") })
    list.add({ type = "label", caption = progress })
  end
  if #tasks == 0 then parent.add({ type = "label", name = "pyops_link_tasks_empty", caption = { "pyops-link.tasks-empty" } }) end
  if s.tasks_truncated or #tasks > MAX_TASK_ROWS then parent.add({ type = "label", caption = { "pyops-link.tasks-more" } }) end
end

local function render(player, frame)
  frame.clear()
  render_status(player, frame)
  local tabs = frame.add({ type = "flow", name = "pyops_link_tabs", direction = "horizontal" })
  tabs.add({ type = "button", name = "pyops_link_tab_block", caption = { "pyops-link.tab-block" } })
  tabs.add({ type = "button", name = "pyops_link_tab_tasks", caption = { "pyops-link.tab-tasks" } })
  tabs.add({ type = "button", name = "pyops_link_close", caption = { "pyops-link.close" } })
  local content = frame.add({ type = "scroll-pane", name = "pyops_link_content" })
  content.style.maximal_height = 600
  if state(player).tab == "tasks" then render_tasks(player, content) else render_block(player, content) end
end

function M.is_open(player)
  return player.gui.screen[M.FRAME] ~= nil
end

--- Open (or redraw) the panel. `focus`: the player asked for it, so it becomes the opened GUI
--- (Escape closes it); the app opening it must not steal focus from whatever the player is doing.
function M.open(player, tab, focus)
  local s = state(player)
  if tab then s.tab = tab end
  local frame = player.gui.screen[M.FRAME]
  if not frame then
    frame = player.gui.screen.add({ type = "frame", name = M.FRAME, caption = { "pyops-link.title" }, direction = "vertical" })
    frame.style.minimal_width = 420
    frame.force_auto_center()
  end
  render(player, frame)
  if focus then player.opened = frame end
  return frame
end

function M.close(player)
  local frame = player.gui.screen[M.FRAME]
  if frame then frame.destroy() end
end

function M.toggle(player)
  if M.is_open(player) then M.close(player) else M.open(player, nil, true) end
end

--- Redraw if open (after new data arrived).
function M.refresh(player)
  local frame = player.gui.screen[M.FRAME]
  if frame then render(player, frame) end
end

--- Update only the status line (called on the heartbeat; cheap).
function M.refresh_status(player)
  local frame = player.gui.screen[M.FRAME]
  if not frame then return end
  local status = frame["pyops_link_status"]
  if status and status["pyops_link_status_text"] then status["pyops_link_status_text"].caption = status_caption(player) end
end

function M.open_capture(player)
  if player.gui.screen[M.CAPTURE] then return player.gui.screen[M.CAPTURE] end
  local f = player.gui.screen.add({ type = "frame", name = M.CAPTURE, caption = { "pyops-link.capture-title" }, direction = "vertical" })
  f.add({ type = "textfield", name = "pyops_link_capture_title" })
  f.add({ type = "text-box", name = "pyops_link_capture_body" })
  f.add({ type = "checkbox", name = "pyops_link_capture_here", caption = { "pyops-link.capture-here" }, state = true })
  local selected = player.selected
  if selected and selected.valid then
    f.add({ type = "checkbox", name = "pyops_link_capture_entity", caption = { "pyops-link.capture-entity", selected.name }, state = true, tags = { entity = selected.name } })
  end
  local bar = f.add({ type = "flow", name = "pyops_link_capture_bar", direction = "horizontal" })
  bar.add({ type = "button", name = "pyops_link_capture_cancel", caption = { "pyops-link.cancel" } })
  bar.add({ type = "button", name = "pyops_link_capture_send", caption = { "pyops-link.capture-send" } })
  f.force_auto_center()
  f["pyops_link_capture_title"].focus()
  return f
end

function M.close_capture(player)
  local f = player.gui.screen[M.CAPTURE]
  if f then f.destroy() end
end

--- The task.capture payload from the dialog, or nil when the title is empty.
function M.capture_payload(player)
  local f = player.gui.screen[M.CAPTURE]
  if not f then return nil end
  local title = f["pyops_link_capture_title"].text or ""
  if not title:match("%S") then return nil end
  local payload = { title = title, body = f["pyops_link_capture_body"].text or "", anchor = "none" }
  if f["pyops_link_capture_here"].state then
    payload.anchor = "position"
    payload.surface = player.surface.name
    payload.x = math.floor(player.position.x + 0.5)
    payload.y = math.floor(player.position.y + 0.5)
  end
  local ent = f["pyops_link_capture_entity"]
  if ent and ent.state and ent.tags and type(ent.tags.entity) == "string" then
    payload.entity = ent.tags.entity
    if payload.anchor == "none" then payload.anchor = "entity" end
  end
  return payload
end

return M
