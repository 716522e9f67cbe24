-- The scripted frame for the screenshot test:
--   love examples/love --screenshot out.png [--scene tactics|astar|danger|enemy|crowd|flee|hex|floors|
--                                           realtime-grid|realtime-sight|realtime-theta|chase]
-- (or ASTAR_DEMO_SCREENSHOT=out.png). Sets up a scene (a unit selected, the
-- mouse on a tile), draws a few frames, saves the frame as a PNG with
-- love.graphics.captureScreenshot, writes out.png.probes (points whose colour
-- the test checks: x y r g b what, 0..255) and quits. Any error prints and
-- quits with status 1 instead of showing LÖVE's error screen.
-- luacheck: globals love
local View = require "view"
local HexView = require "hexview"
local FloorView = require "floorview"
local RealtimeView = require "realtimeview"
local ChaseView = require "chaseview"

local Script = {}
Script.__index = Script

-- Frames drawn before the capture (the first frames may still be settling).
local WARMUP_FRAMES = 3

-- The real-time scene's shots: this many fixed simulation steps (3 s at 60 a second)
-- from the start (the frames drawn after it add no time: main.lua gives a scripted
-- run dt 0), so the three modes are seen at the same moment.
local REALTIME_STEPS = 180

-- R, in one path mode, after REALTIME_STEPS steps: the dwarf has reached its first
-- target and walks its second path, the others are on their first.
local function realtime(mode)
  return function(board)
    board:toggleRealtime(View.TILE)
    local rb = board.realtime
    rb:setMode(mode)
    rb:runSteps(REALTIME_STEPS)
    return nil
  end
end

-- The chase's shot: this many fixed steps (5 s), each timed as a frame; the scene
-- prints its pathfinding time per frame, and its map must answer as a fresh one.
local CHASE_STEPS = 300

local SCENES = {
  -- the blue knight selected, the mouse on a forest tile (cost 5 in 4 steps)
  tactics = function(board)
    board:select(board:unitAt(3, 7))
    return { x = 7, y = 7 }
  end,
  -- the same, with the enemy danger zone shown
  danger = function(board)
    board:toggleDanger()
    board:select(board:unitAt(5, 9))
    return { x = 7, y = 11 }
  end,
  -- the blue knight moves up, then the enemy turn: the mage gets in reach of it,
  -- the others walk as far as their move allows toward their nearest target
  enemy = function(board)
    board:select(board:unitAt(3, 7))
    board:click(7, 6)
    board:enemyTurn()
    return nil
  end,
  -- the crowd flows to a tile on the far side: one distance map, 6 ticks of nextStep
  crowd = function(board)
    for _ = 1, 3 do board:cycleMode() end
    board.crowdPaused = true
    board:setFlowTarget(16, 12)
    for _ = 1, 6 do board:crowdStep() end
    return nil
  end,
  -- the crowd flees from a tile in the middle: the map's flee(), 6 ticks
  flee = function(board)
    for _ = 1, 3 do board:cycleMode() end
    board.crowdPaused = true
    board:toggleFlee()
    board:setFlowTarget(9, 7)
    for _ = 1, 6 do board:crowdStep() end
    return nil
  end,
  -- the hex board (odd-r): the knight's range, the path across the ford to a far tile
  hex = function(board)
    board:toggleHex()
    board.hex:setTarget(13, 4)
    return nil
  end,
  -- the building (G): the door open, the knight's range through it, up the stairs
  -- and down the ledge; the mouse on the upper floor past the ledge, the path
  -- through the door, a link step up the stairs and the drop
  floors = function(board)
    board:toggleFloors()
    if not board.floors.door.open then board.floors:toggleDoor() end
    return { x = 15, y = 11 }
  end,
  ["realtime-grid"] = realtime("grid"),
  ["realtime-sight"] = realtime("sight"),
  ["realtime-theta"] = realtime("theta"),
  -- C: the chase after 5 s, the player on its route's first leg, walls edited near it
  chase = function(board)
    board:toggleChase(love.timer.getTime)
    local cb = board.chase
    cb:runSteps(CHASE_STEPS)
    -- the map just repaired after a wall edit, then just moved after the player
    for _, work in ipairs { "repaired", "moved" } do
      for _ = 1, 60 do
        cb:runSteps(1)
        if cb.mapWork == work then break end
      end
      if cb.mapWork ~= work then error("no step of the chase " .. work .. " its map", 0) end
      local differs = cb:differenceFromFresh()
      if differs then error("the chase's map " .. work .. " is not a fresh map's at " .. differs, 0) end
    end
    print(("love-demo chase (%s backend): %s"):format(require("astar").backend,
      ChaseView.timing(board.chase)))
    return nil
  end,
  -- free A* with 8 directions around the walls
  astar = function(board)
    board:cycleMode()
    board:cycleMode()
    board:setAstarStart(2, 6)
    board:setAstarGoal(15, 12)
    return { x = 15, y = 12 }
  end,
}

local function absolute(path)
  if path:sub(1, 1) == "/" or path:match("^%a:[/\\]") then return path end
  return love.filesystem.getWorkingDirectory() .. "/" .. path
end

local function fail(msg)
  io.stderr:write("love-demo screenshot: ", tostring(msg), "\n")
  io.stderr:flush()
  love.event.quit(1)
end

-- Errors end a screenshot run with status 1 instead of LÖVE's error screen
-- (which would wait for a user that is not there).
function Script.quitOnError()
  function love.errorhandler(msg)
    io.stderr:write("love-demo screenshot: ", debug.traceback(tostring(msg), 2), "\n")
    return function() return 1 end
  end
end

-- true when the command line or the environment asks for a screenshot
function Script.requested(args)
  for i = 1, #(args or {}) do
    if args[i] == "--screenshot" then return true end
  end
  local env = os.getenv("ASTAR_DEMO_SCREENSHOT")
  return env ~= nil and env ~= ""
end

-- nil unless the game was asked for a screenshot
function Script.fromArgs(args)
  local out, scene
  for i = 1, #args do
    if args[i] == "--screenshot" then out = args[i + 1] end
    if args[i] == "--scene" then scene = args[i + 1] end
  end
  out = out or os.getenv("ASTAR_DEMO_SCREENSHOT")
  if not out or out == "" then return nil end
  scene = scene or "tactics"
  if not SCENES[scene] then error("unknown scene '" .. scene .. "'", 0) end
  Script.quitOnError()
  return setmetatable({ out = absolute(out), scene = scene, frames = 0 }, Script)
end

-- Returns the hovered tile of the scene.
function Script:setUp(board)
  return SCENES[self.scene](board)
end

local function writeFile(path, data)
  local f, err = io.open(path, "wb")
  if not f then return nil, err end
  f:write(data)
  f:close()
  return true
end

function Script:frameDrawn(board, path, hover)
  if self.done then return end
  self.frames = self.frames + 1
  local searching = board.astar and board.astar.status == "searching"
  if self.frames < WARMUP_FRAMES or searching then return end
  self.done = true
  local views = { hex = HexView, floors = FloorView, realtime = RealtimeView, chase = ChaseView }
  local probes = (views[board.mode] or View).probes(board, path, hover)
  local out = self.out
  love.graphics.captureScreenshot(function(image)
    local okPng, err = writeFile(out, image:encode("png"):getString())
    if not okPng then return fail("cannot write " .. out .. ": " .. tostring(err)) end
    local lines = {}
    for _, p in ipairs(probes) do
      lines[#lines + 1] = ("%d %d %d %d %d %s"):format(math.floor(p.x), math.floor(p.y),
        math.floor(p.rgb[1] * 255 + 0.5), math.floor(p.rgb[2] * 255 + 0.5),
        math.floor(p.rgb[3] * 255 + 0.5), p.what)
    end
    local okProbes, err2 = writeFile(out .. ".probes", table.concat(lines, "\n") .. "\n")
    if not okProbes then return fail("cannot write probes: " .. tostring(err2)) end
    print(("love-demo screenshot: %s (%dx%d, scene %s, %d frames)"):format(out,
      image:getWidth(), image:getHeight(), self.scene, self.frames))
    love.event.quit(0)
  end)
end

return Script
