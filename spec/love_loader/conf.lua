-- Headless, as spec/love/conf.lua: no window, graphics or audio.
-- luacheck: globals love
function love.conf(t)
  t.identity = "astar-loader-test"
  t.window = false
  t.console = false
  local m = t.modules
  m.window, m.graphics, m.audio, m.sound, m.video, m.font, m.image = false, false, false, false, false, false, false
  m.joystick, m.keyboard, m.mouse, m.touch, m.physics = false, false, false, false, false
  m.thread, m.timer, m.event, m.data, m.system, m.math = true, true, true, true, true, true
end
