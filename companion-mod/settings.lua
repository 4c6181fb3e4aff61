-- Per-player settings of PyOps Link. The port is the one PyOps listens on (VS Code setting
-- pyops.bridge.port); the game itself must be started with --enable-lua-udp <another port>.
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
})
