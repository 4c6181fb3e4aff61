-- Per-player settings of PyOps Link. The port is the one PyOps listens on (VS Code setting
-- pyops.bridge.port); the game itself must be started with --enable-lua-udp <another port>.
local function pairing_default()
  local ok, code = pcall(require, "pairing")
  if ok and type(code) == "string" then return code end
  return ""
end

data:extend({
  {
    type = "int-setting",
    name = "pyops-link-port",
    setting_type = "runtime-per-user",
    default_value = 37657,
    minimum_value = 1,
    maximum_value = 65535,
    order = "a",
  },
  {
    type = "bool-setting",
    name = "pyops-link-enabled",
    setting_type = "runtime-per-user",
    default_value = true,
    order = "b",
  },
  {
    type = "bool-setting",
    name = "pyops-link-allow-eval",
    setting_type = "runtime-per-user",
    default_value = false,
    order = "c",
  },
  {
    -- The pairing code PyOps generated: the app accepts game state and sends commands only to a
    -- game presenting it (without it the link is read-only). The install command writes it into
    -- pairing.lua, which becomes the default; a player can also paste it here.
    type = "string-setting",
    name = "pyops-link-pairing",
    setting_type = "runtime-per-user",
    default_value = pairing_default(),
    allow_blank = true,
    order = "d",
  },
})
