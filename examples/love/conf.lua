-- The tactics demo's window. View.size (view.lua) gives the same size for the
-- 18x13 board; main.lua resizes the window if the board changes.
-- luacheck: globals love
function love.conf(t)
  t.identity = "astar-tactics-demo"
  t.version = "11.0"
  t.window.title = "astar: tactics demo"
  t.window.width = 1072
  t.window.height = 600
  t.window.vsync = 1
  -- no sound in the demo (and no ALSA warnings on a machine without a card)
  t.modules.audio = false
  t.modules.sound = false
  t.modules.video = false
  t.modules.physics = false
  t.modules.joystick = false
end
