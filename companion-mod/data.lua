-- Hotkeys of PyOps Link: toggle the panel and capture a task where you stand.
data:extend({
  {
    type = "custom-input",
    name = "pyops-link-toggle-panel",
    key_sequence = "CONTROL + ALT + P",
    consuming = "none",
    order = "a",
  },
  {
    type = "custom-input",
    name = "pyops-link-capture-task",
    key_sequence = "CONTROL + ALT + T",
    consuming = "none",
    order = "b",
  },
})
