-- The real-time scene of the demo (R), with no drawing: units that walk in pixels along
-- the paths findPath gives, on a map with walls and terrain costs (issue 20). Each unit
-- has a route, a list of target cells it visits in turn: when it arrives it asks for a
-- path to the next one. The path mode (M) is the grid walk, "sight" (string pulling) or
-- "theta" (an any-angle search); the paths are flat ({x1, y1, x2, y2, ...}) and a unit
-- walks from one waypoint's pixel centre (grid:cellCentre) to the next, slowed by the
-- cost of the cell it is in. The simulation runs in fixed steps of STEP seconds, so a
-- run is the same whatever the frame rate (the screenshot test relies on it).
-- realtimeview.lua draws it.
local astar = require "astar"

local RealtimeBoard = {}
RealtimeBoard.__index = RealtimeBoard

-- '.' grass, 'f' forest (cost 2), 's' swamp (cost 5), '#' wall.
local MAP = {
  "......ff..........",
  "..#...fff....ss...",
  "..#....f....ssss..",
  "..#.........ssss..",
  "..####.......ss...",
  "..........#.......",
  "..ff......#...ff..",
  ".fff..ss..#..fff..",
  "..f..ssss.#...f...",
  "......ss..####....",
  "...........f......",
  "..###.....fff.....",
  "..........f.......",
}

RealtimeBoard.TERRAIN = {
  ["."] = { name = "grass", cost = 1 },
  f = { name = "forest", cost = 2 },
  s = { name = "swamp", cost = 5 },
  ["#"] = { name = "wall", wall = true },
}

-- The path modes M cycles through, and the smooth option of each.
RealtimeBoard.MODES = { "grid", "sight", "theta" }
local SMOOTH = { grid = false, sight = "sight", theta = "theta" }
local NEXT_MODE = { grid = "sight", sight = "theta", theta = "grid" }

RealtimeBoard.STEP = 1 / 60     -- seconds of one simulation step
RealtimeBoard.SPEED = 120       -- pixels a second on a cell of cost 1

-- The units: a start cell and a route of targets, visited in turn, round and round.
-- The dwarf's first target is two cells away, so it plans a second path early.
RealtimeBoard.UNITS = {
  { name = "Knight", letter = "K", x = 1, y = 1, route = { { 18, 13 }, { 1, 13 }, { 18, 1 }, { 1, 1 } } },
  { name = "Ranger", letter = "R", x = 18, y = 1, route = { { 1, 13 }, { 18, 7 }, { 18, 1 } } },
  { name = "Scout", letter = "S", x = 1, y = 7, route = { { 18, 6 }, { 4, 3 }, { 1, 7 } } },
  { name = "Dwarf", letter = "D", x = 9, y = 13, route = { { 7, 13 }, { 9, 1 }, { 17, 11 }, { 9, 13 } } },
}

-- size: the pixel width of a cell (the view's tile)
function RealtimeBoard.new(size)
  local self = setmetatable({}, RealtimeBoard)
  self.height, self.width = #MAP, #MAP[1]
  self.size = size
  self.tiles = {}
  self.grid = astar.new(self.width, self.height)   -- diagonal mode "no-obstacles"
  for y = 1, self.height do
    for x = 1, self.width do
      local t = RealtimeBoard.TERRAIN[MAP[y]:sub(x, x)]
      self.tiles[(y - 1) * self.width + x] = t
      if t.wall then self.grid:setWalkable(x, y, false) else self.grid:setCost(x, y, t.cost) end
    end
  end
  self.steps, self.carry, self.paused = 0, 0, false
  self.mode = "sight"
  self.smooth = SMOOTH[self.mode]
  self.units = {}
  for i, u in ipairs(RealtimeBoard.UNITS) do
    local px, py = self.grid:cellCentre(u.x, u.y, size)
    self.units[i] = { name = u.name, letter = u.letter, route = u.route, leg = 1, px = px, py = py,
      trips = 0 }
  end
  self:planAll()
  return self
end

function RealtimeBoard:tile(x, y)
  return self.tiles[(y - 1) * self.width + x]
end

function RealtimeBoard:inside(x, y)
  return x >= 1 and x <= self.width and y >= 1 and y <= self.height
end

-- findPath in the current mode, flat. A backend without "theta" raises for it: then
-- the scene falls back to "sight" and says so (self.fallback, the error).
function RealtimeBoard:findPath(sx, sy, gx, gy)
  local grid = self.grid
  local opts = { smooth = self.smooth, flat = true }
  if self.smooth ~= "theta" then return grid:findPath(sx, sy, gx, gy, opts) end
  local ok, path, cost = pcall(grid.findPath, grid, sx, sy, gx, gy, opts)
  if ok then return path, cost end
  self.fallback, self.smooth = tostring(path), "sight"
  return self:findPath(sx, sy, gx, gy)
end

-- A path from the cell the unit is in to its current target; a target it cannot reach
-- or stands on is skipped. The unit first walks to its cell's centre (path point 1).
function RealtimeBoard:plan(u)
  local x, y = self.grid:cellAt(u.px, u.py, self.size)
  for _ = 1, #u.route do
    local t = u.route[u.leg]
    local path, cost = self:findPath(x, y, t[1], t[2])
    if path and #path > 2 then
      u.path, u.cost, u.next = path, cost, 1
      return
    end
    u.leg = u.leg % #u.route + 1
  end
  u.path, u.cost, u.next = nil, nil, nil   -- nowhere to go
end

function RealtimeBoard:planAll()
  for _, u in ipairs(self.units) do self:plan(u) end
end

-- M: the next path mode; every unit plans again from where it is.
function RealtimeBoard:setMode(mode)
  self.mode, self.smooth, self.fallback = mode, SMOOTH[mode], nil
  self:planAll()
end

function RealtimeBoard:cycleMode()
  self:setMode(NEXT_MODE[self.mode])
end

-- The unit moves `dt` seconds along its path at SPEED divided by the cost of the cell
-- it is in (a swamp is slow going), waypoint after waypoint; at the last one it plans
-- the way to its next target.
function RealtimeBoard:follow(u, dt)
  local grid, size = self.grid, self.size
  local x, y = grid:cellAt(u.px, u.py, size)
  local budget = dt * RealtimeBoard.SPEED / grid:getCost(x, y)
  while u.path and budget > 0 do
    local i = 2 * u.next - 1
    local tx, ty = grid:cellCentre(u.path[i], u.path[i + 1], size)
    local dx, dy = tx - u.px, ty - u.py
    local d = math.sqrt(dx * dx + dy * dy)
    if d <= budget then
      u.px, u.py, u.next, budget = tx, ty, u.next + 1, budget - d
      if 2 * u.next - 1 > #u.path then
        u.leg, u.trips = u.leg % #u.route + 1, u.trips + 1
        self:plan(u)
      end
    else
      u.px, u.py, budget = u.px + dx / d * budget, u.py + dy / d * budget, 0
    end
  end
end

function RealtimeBoard:runSteps(n)
  for _ = 1, n do
    for _, u in ipairs(self.units) do self:follow(u, RealtimeBoard.STEP) end
    self.steps = self.steps + 1
  end
end

-- love.update: the frame's time in fixed steps (at most a quarter of a second a frame).
function RealtimeBoard:update(dt)
  if self.paused then return end
  self.carry = self.carry + math.min(dt or 0, 0.25)
  local n = math.floor(self.carry / RealtimeBoard.STEP)
  self.carry = self.carry - n * RealtimeBoard.STEP
  self:runSteps(n)
end

function RealtimeBoard:togglePause()
  self.paused = not self.paused
end

-- The scene as it is after `steps` steps in `mode`, built from the start the way the
-- screenshot scenes are (the probes compare a shot with the other modes' lines).
function RealtimeBoard.replay(size, mode, steps)
  local rb = RealtimeBoard.new(size)
  rb:setMode(mode)
  rb:runSteps(steps)
  return rb
end

return RealtimeBoard
