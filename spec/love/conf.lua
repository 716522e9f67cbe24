-- Headless: no window, graphics or audio, so the game runs on a machine without a
-- display (CI) and without SDL_VIDEODRIVER tricks or xvfb.
-- luacheck: globals love
function love.conf(t)
  t.identity = "astar-love-test"
  t.window = false
  t.console = false
  local m = t.modules
  m.window, m.graphics, m.audio, m.sound, m.video, m.font, m.image = false, false, false, false, false, false, false
  m.joystick, m.keyboard, m.mouse, m.touch, m.physics = false, false, false, false, false
  m.thread, m.timer, m.event, m.data, m.system, m.math = true, true, true, true, true, true
end
