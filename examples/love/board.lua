-- The demo's game state, with no drawing: the map, the units, and what the
-- module computes for them (movement and attack ranges, the danger zone, a
-- free A* search spread over frames). view.lua draws it; main.lua feeds it
-- the mouse and the keys.
local astar = require "astar"
local tactics = require "astar.tactics"
local HexBoard = require "hexboard"
local FloorBoard = require "floorboard"
local RealtimeBoard = require "realtimeboard"
local ChaseBoard = require "chaseboard"

local Board = {}
Board.__index = Board

-- '.' grass, 'f' forest (cost 2), 'm' mountain (cost 3), '~' water (walkers
-- cannot enter it; the flier can), '#' wall.
local MAP = {
  "..ff......~~......",
  "..fff.....~~..mm..",
  "...f..#...~~...m..",
  "......#....~......",
  "..mm..#...........",
  "..m.......ff..###.",
  "......ff.fff....#.",
  "~~....ff........#.",
  "~~~.........mm....",
  "..~~..###...m.....",
  "...~.....#....ff..",
  "...~~....#...fff..",
  "....~.........f...",
}

Board.TERRAIN = {
  ["."] = { name = "grass", cost = 1 },
  f = { name = "forest", cost = 2 },
  m = { name = "mountain", cost = 3 },
  ["~"] = { name = "water", cost = 1, water = true },
  ["#"] = { name = "wall", wall = true },
}

-- move: movement points; minRange..maxRange: the weapon (Manhattan distance).
local UNITS = {
  { team = "blue", name = "Knight", letter = "K", x = 3, y = 7, move = 5, minRange = 1, maxRange = 1 },
  { team = "blue", name = "Archer", letter = "A", x = 5, y = 9, move = 4, minRange = 2, maxRange = 3 },
  { team = "blue", name = "Cavalry", letter = "C", x = 2, y = 4, move = 7, minRange = 1, maxRange = 1 },
  { team = "blue", name = "Pegasus", letter = "P", x = 1, y = 12, move = 6, minRange = 1, maxRange = 1, flies = true },
  { team = "red", name = "Soldier", letter = "S", x = 13, y = 4, move = 4, minRange = 1, maxRange = 1 },
  { team = "red", name = "Archer", letter = "A", x = 16, y = 8, move = 4, minRange = 2, maxRange = 3 },
  { team = "red", name = "Knight", letter = "K", x = 11, y = 11, move = 5, minRange = 1, maxRange = 1 },
  { team = "red", name = "Mage", letter = "M", x = 9, y = 2, move = 4, minRange = 1, maxRange = 2 },
}

-- Cells searched per frame in A* mode: small, so the search visibly takes a
-- few frames, as a long one would in a big game.
Board.STEP_BUDGET = 12

function Board.new()
  local self = setmetatable({}, Board)
  self.height = #MAP
  self.width = #MAP[1]
  self.tiles = {}
  -- grid: the tactics board (water walkable; walkers forbid it with a cost
  -- table). walkGrid: the same map with water as walls, for free A*.
  self.grid = astar.new(self.width, self.height)
  self.walkGrid = astar.new(self.width, self.height)
  self.walkCost, self.flyCost = {}, {}
  for y = 1, self.height do
    for x = 1, self.width do
      local t = Board.TERRAIN[MAP[y]:sub(x, x)]
      self.tiles[(y - 1) * self.width + x] = t
      local k = tactics.cellIndex(self.grid, x, y)
      if t.wall then
        self.grid:setWalkable(x, y, false)
        self.walkGrid:setWalkable(x, y, false)
      elseif t.water then
        self.walkGrid:setWalkable(x, y, false)
        self.flyCost[k] = 1
      else
        self.grid:setCost(x, y, t.cost)
        self.walkGrid:setCost(x, y, t.cost)
        self.walkCost[k] = t.cost
        self.flyCost[k] = 1
      end
    end
  end
  self.units = {}
  for i, u in ipairs(UNITS) do
    local copy = {}
    for k, v in pairs(u) do copy[k] = v end
    self.units[i] = copy
  end
  self.showDanger = false
  self.mode = "tactics"           -- or "astar4", "astar8", "crowd", "hex", "floors", "realtime", "chase"
  self:refresh()
  return self
end

function Board:tile(x, y)
  return self.tiles[(y - 1) * self.width + x]
end

function Board:inside(x, y)
  return x >= 1 and x <= self.width and y >= 1 and y <= self.height
end

function Board:unitAt(x, y)
  for _, u in ipairs(self.units) do
    if u.x == x and u.y == y then return u end
  end
end

-- The module's rules for a unit of `team`: its enemies block it, its allies
-- may be crossed but not stopped on, and the cells next to an enemy are a
-- zone of control (entering one ends the move). Tables keyed by cellIndex.
function Board:rulesFor(unit)
  local blocked, occupied, zoc = {}, {}, {}
  local w = self.width
  for _, u in ipairs(self.units) do
    local k = (u.y - 1) * w + u.x
    if u.team == unit.team then
      if u ~= unit then occupied[k] = true end
    else
      blocked[k] = true
      for _, d in ipairs { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } } do
        local x, y = u.x + d[1], u.y + d[2]
        if self:inside(x, y) then zoc[(y - 1) * w + x] = true end
      end
    end
  end
  return {
    cost = unit.flies and self.flyCost or self.walkCost,
    blocked = blocked,
    occupied = occupied,
    zoc = zoc,
  }
end

-- Everything that depends on where the units stand.
function Board:refresh()
  local enemies = {}
  for _, u in ipairs(self.units) do
    if u.team == "red" then
      local rules = self:rulesFor(u)
      enemies[#enemies + 1] = {
        x = u.x, y = u.y, move = u.move, minRange = u.minRange, maxRange = u.maxRange,
        cost = rules.cost, blocked = rules.blocked, occupied = rules.occupied,
      }
    end
  end
  self.danger = self.grid:dangerZone(enemies)
  if self.selected then self:select(self.selected) end
end

function Board:select(unit)
  self.selected = unit
  self.range, self.attack = nil, nil
  if not unit then return end
  self.range = self.grid:movementRange(unit.x, unit.y, unit.move, self:rulesFor(unit))
  self.attack = self.grid:attackRange(self.range, unit.minRange, unit.maxRange)
end

-- The path from the selected unit to (x, y) and its cost, when it can stop there.
function Board:pathTo(x, y)
  if not (self.range and self:inside(x, y) and self.range:contains(x, y)) then return nil end
  return self.range:pathTo(x, y), self.range:costTo(x, y)
end

-- A click in tactics mode: select a unit, move the selected blue unit to a
-- tile in its range, or deselect.
function Board:click(x, y)
  if not self:inside(x, y) then return end
  if self.mode == "crowd" then return self:setFlowTarget(x, y) end
  if self.mode ~= "tactics" then return self:setAstarStart(x, y) end
  local u = self:unitAt(x, y)
  if u and u ~= self.selected then return self:select(u) end
  local s = self.selected
  if s and s.team == "blue" and not u and self.range:contains(x, y) then
    s.x, s.y = x, y
    self.enemyMoves = nil
    self:refresh()
  else
    self:select(nil)
  end
end

function Board:toggleDanger() self.showDanger = not self.showDanger end

-- ---- the enemy turn ------------------------------------------------------------

-- The red team's turn on one distance map toward the blue units (README, A team's
-- turn on one map). The red units are `blocked` on the map: their cells are start
-- cells, closed to the others' walks. Each red unit in turn walks down the map with
-- pathFrom: at most `move` (maxCost), until its weapon reaches a blue unit (near =
-- maxRange), never onto a cell a unit holds now (blocked = every unit, where they
-- stand as the turn goes on). Its target is the blue unit the map leads it to
-- (nearest). The map knows no zone of control; near = maxRange may stop an archer
-- closer than its minRange.
function Board:enemyTurn()
  self:select(nil)
  self.enemyMoves = {}
  local reds, blues = {}, {}
  for _, u in ipairs(self.units) do
    if u.team == "red" then reds[#reds + 1] = u else blues[#blues + 1] = u end
  end
  local map = self.grid:distanceMap(blues, { diagonal = "never", cost = self.walkCost, blocked = reds })
  for _, u in ipairs(reds) do
    local path, cost = map:pathFrom(u.x, u.y, { maxCost = u.move, near = u.maxRange, blocked = self.units })
    if path then
      local target = blues[map:nearest(u.x, u.y)]
      local last = path[#path]
      u.x, u.y = last.x, last.y
      self.enemyMoves[#self.enemyMoves + 1] = { unit = u, target = target, path = path, cost = cost,
        inReach = math.abs(u.x - target.x) + math.abs(u.y - target.y) <= u.maxRange }
    end
  end
  self:refresh()
end

-- ---- the crowd: one distance map read by every unit ---------------------------

-- A crowd of walkers (on walkGrid: water is a wall) flows to a clicked tile, or
-- flees from it (F): one grid:distanceMap per click, then every unit takes the
-- map's nextStep each tick, waiting when another unit stands there. No findPath.
Board.CROWD_SIZE = 30
Board.CROWD_TICK = 10    -- frames between two steps of the crowd

function Board:placeCrowd()
  self.crowd = {}
  for y = 1, self.height do
    for x = 1, self.width do
      if #self.crowd < Board.CROWD_SIZE and (3 * x + 5 * y) % 7 == 0
        and self.walkGrid:isWalkable(x, y) then
        self.crowd[#self.crowd + 1] = { x = x, y = y }
      end
    end
  end
end

function Board:crowdAt(x, y)
  for _, u in ipairs(self.crowd or {}) do
    if u.x == x and u.y == y then return u end
  end
end

-- Makes the map for the target: toward it, or away from it when fleeing.
function Board:setFlowTarget(x, y)
  if not (self:inside(x, y) and self.walkGrid:isWalkable(x, y)) then return end
  self.flowTarget = { x = x, y = y }
  local map = self.walkGrid:distanceMap({ { x = x, y = y } }, { diagonal = "no-obstacles" })
  if self.fleeing then map = map:flee() end
  self.flow = map
  -- the range of the values, for the colours
  local lo, hi = math.huge, -math.huge
  for _, c in ipairs(map:cells()) do
    if c.cost < lo then lo = c.cost end
    if c.cost > hi then hi = c.cost end
  end
  self.flowLo, self.flowHi = lo, hi
end

function Board:toggleFlee()
  self.fleeing = not self.fleeing
  local t = self.flowTarget
  if t then self:setFlowTarget(t.x, t.y) end
end

-- One tick: every unit in turn steps downhill unless the cell is taken.
function Board:crowdStep()
  if not self.flow then return end
  local taken = {}
  for _, u in ipairs(self.crowd) do taken[u.y * 1000 + u.x] = true end
  for _, u in ipairs(self.crowd) do
    local nx, ny = self.flow:nextStep(u.x, u.y)
    if nx and not taken[ny * 1000 + nx] then
      taken[u.y * 1000 + u.x] = nil
      taken[ny * 1000 + nx] = true
      u.x, u.y = nx, ny
    end
  end
end

-- ---- the hex board (hexboard.lua): H and back; the building (floorboard.lua): G;
-- ---- the real-time scene (realtimeboard.lua): R; the chase (chaseboard.lua): C ----

-- the modes that are scenes of their own, not the square board's
local SCENES = { hex = true, floors = true, realtime = true, chase = true }

-- Into a scene of its own, or back to the square board's mode from it.
function Board:toggleScene(mode)
  if self.mode == mode then
    self.mode = self.squareMode
    return
  end
  if not SCENES[self.mode] then self.squareMode = self.mode end
  self.mode = mode
end

function Board:toggleHex()
  self:toggleScene("hex")
  self.hex = self.hex or HexBoard.new(Board.TERRAIN)
end

function Board:toggleFloors()
  self:toggleScene("floors")
  self.floors = self.floors or FloorBoard.new()
end

-- size: the pixel width of a cell as drawn (the units walk in those pixels)
function Board:toggleRealtime(size)
  self:toggleScene("realtime")
  self.realtime = self.realtime or RealtimeBoard.new(size)
end

-- clock: the function that times the chase's pathfinding (love.timer.getTime)
function Board:toggleChase(clock)
  self:toggleScene("chase")
  self.chase = self.chase or ChaseBoard.new({ clock = clock })
end

-- ---- free A*: any start, any goal, on walkGrid (water is a wall) -----------

local NEXT_MODE = { tactics = "astar4", astar4 = "astar8", astar8 = "crowd", crowd = "tactics" }

function Board:cycleMode()
  self.mode = NEXT_MODE[self.mode]
  if self.mode == "crowd" then
    self:placeCrowd()
    self.flow, self.flowTarget, self.crowdClock = nil, nil, 0
    return
  end
  if self.mode ~= "tactics" then
    self:select(nil)
    self.astarStart = self.astarStart or { x = 1, y = 1 }
    self:setAstarGoal(self.astarGoal and self.astarGoal.x, self.astarGoal and self.astarGoal.y, true)
  end
end

function Board:diagonal()
  return self.mode == "astar8" and "no-obstacles" or "never"
end

function Board:setAstarStart(x, y)
  if not self.walkGrid:isWalkable(x, y) then return end   -- no start in a wall
  self.astarStart = { x = x, y = y }
  if self.astarGoal then self:setAstarGoal(self.astarGoal.x, self.astarGoal.y, true) end
end

-- Starts a search to (x, y); update() steps it a few cells per frame.
function Board:setAstarGoal(x, y, force)
  if not (x and self:inside(x, y)) then return end
  local g = self.astarGoal
  if g and g.x == x and g.y == y and not force then return end
  self.astarGoal = { x = x, y = y }
  self.astar = { status = "searching" }
  local s = self.astarStart
  -- always A* (the costs rule out jump point search anyway): its expanded
  -- cells are what the board shades
  local opts = { diagonal = self:diagonal(), algorithm = "astar" }
  if self.walkGrid.newSearch then
    self.astar.search = self.walkGrid:newSearch(s.x, s.y, x, y, opts)
  else
    -- a module without newSearch: one findPath call
    local path, cost = self.walkGrid:findPath(s.x, s.y, x, y, opts)
    self:finishAstar(path, cost, self.walkGrid:getSearchStats().expanded)
  end
end

function Board:update(dt)
  if self.mode == "realtime" then return self.realtime:update(dt) end
  if self.mode == "chase" then return self.chase:update(dt) end
  if SCENES[self.mode] then return end   -- the square board waits
  if self.mode == "crowd" then
    self.crowdClock = (self.crowdClock or 0) + 1
    if not self.crowdPaused and self.crowdClock % Board.CROWD_TICK == 0 then self:crowdStep() end
    return
  end
  local a = self.astar
  if not (a and a.search and a.status == "searching") then return end
  a.status = a.search:step(Board.STEP_BUDGET)
  a.expanded = a.search:getStats().expanded
  -- the cells A* has expanded so far: a scan of the board, a few hundred cells
  a.explored = a.search:getExpanded()
  if a.status ~= "searching" then
    local path, cost = a.search:result()
    self:finishAstar(path, cost, a.expanded)
  end
end

function Board:finishAstar(path, cost, expanded)
  local a = self.astar
  a.expanded = expanded
  if path then
    a.status, a.path, a.cost = "found", path, cost
  else
    a.status, a.reason = "unreachable", cost
  end
end

return Board
