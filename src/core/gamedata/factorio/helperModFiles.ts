// The files of `pyops-dump-helper`, the temporary mod a sync enables for one `--dump-data` run.
// They are string constants so the bundled extension carries them. The mod adds one prototype,
// data.raw["mod-data"]["pyops-export"], which the importer reads (see `helperExportSchema`):
// the active mods and Py's TURD recipe replacements, taken from Py's own definition tables.
import { HELPER_EXPORT_NAME } from '../normalize';
import { TURD_GATE_PREFIX } from '../normalize/turd';

export const HELPER_MOD_NAME = 'pyops-dump-helper';
export const HELPER_MOD_VERSION = '1.0.0';
/** With the name, identifies a folder as ours (never touch someone else's mod of that name). */
export const HELPER_MOD_AUTHOR = 'PyOps';
export const HELPER_EXPORT_FORMAT = 1;

/** `2.0.77` → `2.0`. Factorio only loads a mod whose `factorio_version` is the engine's major.minor. */
export function factorioSeries(version: string): string {
  const m = /^(\d+)\.(\d+)/.exec(version.trim());
  if (!m) throw new Error(`not a Factorio version: "${version}"`);
  return `${Number(m[1])}.${Number(m[2])}`;
}

export function helperInfoJson(factorioVersion: string): string {
  const info = {
    name: HELPER_MOD_NAME,
    version: HELPER_MOD_VERSION,
    title: 'PyOps dump helper',
    author: HELPER_MOD_AUTHOR,
    description:
      'Temporary: PyOps enables this mod for one "factorio --dump-data" run and removes it afterwards. It records the active mods and the TURD recipe replacements for the PyOps planner.',
    factorio_version: factorioSeries(factorioVersion),
    // Optional dependency: load after Py Alien Life so its TURD definitions can be required.
    dependencies: ['base', '? pyalienlife'],
  };
  return JSON.stringify(info, null, 2) + '\n';
}

/**
 * Data stage, Lua 5.2 as Factorio runs it. Every step is guarded: this mod must never stop the
 * game from loading, and without TURD rows the importer infers replacements from recipe names.
 *
 * Py's upgrade files (`__pyalienlife__/prototypes/upgrades/<master without -upgrade>.lua`) create
 * their recipes with `data:extend` unless the global `yafc_turd_integration` is set, then return
 * `{master_tech = …, sub_techs = {{name, effects = {{type = "recipe-replacement", old, new}, …}}}}`.
 * We set that flag while requiring them, so reading a definition changes no prototype.
 */
export const HELPER_DATA_FINAL_FIXES_LUA = `-- PyOps dump helper: data-final-fixes.lua (temporary, removed after the PyOps sync).
local EXPORT_NAME = "${HELPER_EXPORT_NAME}"
local GATE_PREFIX = "${TURD_GATE_PREFIX}"
local UPGRADES = "__pyalienlife__/prototypes/upgrades/"

local function copy_mods()
  local out = {}
  for name, version in pairs(mods or {}) do
    out[name] = version
  end
  return out
end

-- A TURD branch has exactly two prerequisites: its master and the gate "turd-select-<branch>".
-- Returns master name -> set of branch names, and the master names in a stable order.
local function find_masters(techs)
  local masters, order = {}, {}
  for name, tech in pairs(techs) do
    local pre = type(tech) == "table" and tech.prerequisites or nil
    if type(name) == "string" and type(pre) == "table" and #pre == 2 then
      local gate = GATE_PREFIX .. name
      local master = nil
      if pre[1] == gate then master = pre[2] elseif pre[2] == gate then master = pre[1] end
      if type(master) == "string" and techs[gate] ~= nil then
        if not masters[master] then
          masters[master] = {}
          order[#order + 1] = master
        end
        masters[master][name] = true
      end
    end
  end
  table.sort(order)
  return masters, order
end

local function load_definition(master)
  local file = (string.gsub(master, "%-upgrade$", ""))
  local previous = rawget(_G, "yafc_turd_integration")
  rawset(_G, "yafc_turd_integration", true)
  local ok, definition = pcall(require, UPGRADES .. file)
  rawset(_G, "yafc_turd_integration", previous)
  if ok and type(definition) == "table" then return definition end
  return nil
end

local function rows_for(master, branches)
  local rows = {}
  local definition = load_definition(master)
  if not definition or type(definition.sub_techs) ~= "table" then return rows end
  for _, sub in pairs(definition.sub_techs) do
    if type(sub) == "table" and branches[sub.name] and type(sub.effects) == "table" then
      for _, effect in pairs(sub.effects) do
        if type(effect) == "table" and effect.type == "recipe-replacement"
          and type(effect.old) == "string" and type(effect.new) == "string" then
          rows[#rows + 1] = {branch = sub.name, old = effect.old, new = effect.new}
        end
      end
    end
  end
  return rows
end

local function turd_replacements()
  local rows = {}
  if not (mods and mods["pyalienlife"]) then return rows end
  local techs = data and data.raw and data.raw.technology
  if type(techs) ~= "table" then return rows end
  local masters, order = find_masters(techs)
  for _, master in ipairs(order) do
    local ok, found = pcall(rows_for, master, masters[master])
    if ok then
      for _, row in ipairs(found) do rows[#rows + 1] = row end
    end
  end
  return rows
end

local ok, export = pcall(function()
  local ok_rows, rows = pcall(turd_replacements)
  return {
    format = ${HELPER_EXPORT_FORMAT},
    -- base's version is the engine's version
    factorio_version = mods and mods["base"] or nil,
    mods = copy_mods(),
    turd_replacements = ok_rows and rows or {},
  }
end)
if ok and type(export) == "table" then
  pcall(function()
    data:extend{{type = "mod-data", name = EXPORT_NAME, data = export}}
  end)
end
`;
