-- The screenshot checker runs headless: no window, no graphics; love.image
-- decodes the PNG.
-- luacheck: globals love
function love.conf(t)
  t.identity = "astar-screenshot-check"
  t.window = false
  local m = t.modules
  m.window, m.graphics, m.audio, m.sound, m.video, m.font = false, false, false, false, false, false
  m.joystick, m.keyboard, m.mouse, m.touch, m.physics, m.thread = false, false, false, false, false, false
  m.image, m.data, m.event, m.timer, m.system, m.math = true, true, true, true, true, true
end
