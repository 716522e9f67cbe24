-- The chase scene of the demo (C), with no drawing (issue 24): 1000 enemies run after
-- a player on a 256x256 map with terrain costs while walls are built and destroyed.
-- The enemies share ONE distance map toward the player: each reads map:nextStep (O(1))
-- when it moves; when the player enters a new cell the map's source moves, and after
-- wall edits the map is repaired with map:update(grid): one map, made once. The player walks a fixed
-- route; a wall is built or destroyed near it 5 times a second (a seeded generator, so
-- a run is the same every time). The simulation runs in fixed steps of STEP seconds.
--
-- The time spent in pathfinding (moving the map, repairing it, the enemies' nextStep
-- calls) is measured with the clock given to new() around those calls only, per frame;
-- stats() gives the median and the worst of the last FRAMES frames. chaseview.lua
-- draws the scene; bench/realtime_bench.lua runs it without LÖVE.
local astar = require "astar"

local ChaseBoard = {}
ChaseBoard.__index = ChaseBoard

ChaseBoard.SIZE = 256           -- the map is SIZE x SIZE cells
ChaseBoard.ENEMIES = 1000
ChaseBoard.STEP = 1 / 60        -- seconds of one simulation step
ChaseBoard.ENEMY_TICK = 6       -- an enemy acts every 6 steps (10 moves a second on grass)
ChaseBoard.PLAYER_TICK = 4      -- the player, every 4 (15 a second: it outruns them)
ChaseBoard.EDIT_EVERY = 12      -- a wall built or destroyed every 12 steps (5 a second),
ChaseBoard.EDIT_PHASE = 2       -- on the steps 2 after the player's: a repair of its own
ChaseBoard.EDIT_RADIUS = 24     -- ... within this many cells of the player
ChaseBoard.FRAMES = 300         -- the frames stats() reads
ChaseBoard.SEED = 24

ChaseBoard.TERRAIN = {
  grass = { name = "grass", cost = 1 },
  forest = { name = "forest", cost = 2 },
  swamp = { name = "swamp", cost = 5 },
  wall = { name = "wall", wall = true },
}

-- The player's route: it walks findPath's path from each corner to the next, round
-- and round (the cells of the route are kept open).
ChaseBoard.ROUTE = { { 40, 40 }, { 216, 48 }, { 208, 216 }, { 48, 208 } }

-- the distance map's options: 8 directions without cutting corners
local MAP_OPTS = { diagonal = "no-obstacles" }

-- Park and Miller's generator: its products stay below 2^53, so Lua 5.4's integers
-- and LuaJIT's doubles draw the same numbers (the same scene).
local function generator(seed)
  local state = seed
  return function(n)
    state = state * 16807 % 2147483647
    return state % n + 1
  end
end

function ChaseBoard:index(x, y)
  return (y - 1) * self.width + x
end

function ChaseBoard:inside(x, y)
  return x >= 1 and x <= self.width and y >= 1 and y <= self.height
end

function ChaseBoard:tile(x, y)
  if not self.grid:isWalkable(x, y) then return ChaseBoard.TERRAIN.wall end
  return self.terrain[self:index(x, y)]
end

-- ---- the map: terrain discs, wall segments, the route ----------------------------

local function disc(self, cx, cy, r, terrain)
  for y = math.max(1, cy - r), math.min(self.height, cy + r) do
    for x = math.max(1, cx - r), math.min(self.width, cx + r) do
      if (x - cx) ^ 2 + (y - cy) ^ 2 <= r * r then self.terrain[self:index(x, y)] = terrain end
    end
  end
end

-- Patches of forest and swamp on grass, then straight walls of 4 to 27 cells.
function ChaseBoard:makeTerrain()
  local T, rand = ChaseBoard.TERRAIN, self.rand
  for i = 1, self.width * self.height do self.terrain[i] = T.grass end
  for _ = 1, 90 do disc(self, rand(self.width), rand(self.height), 2 + rand(9), T.forest) end
  for _ = 1, 40 do disc(self, rand(self.width), rand(self.height), 2 + rand(7), T.swamp) end
  for y = 1, self.height do
    for x = 1, self.width do self.grid:setCost(x, y, self.terrain[self:index(x, y)].cost) end
  end
  for _ = 1, 700 do
    local x, y, len, across = rand(self.width), rand(self.height), 3 + rand(24), rand(2) == 1
    for k = 0, len - 1 do
      local wx, wy = across and x + k or x, across and y or y + k
      if self:inside(wx, wy) then self.grid:setWalkable(wx, wy, false) end
    end
  end
end

-- The route's cells, corner to corner; each corner's 3x3 is opened first.
function ChaseBoard:makeRoute()
  for _, c in ipairs(ChaseBoard.ROUTE) do
    for y = c[2] - 1, c[2] + 1 do
      for x = c[1] - 1, c[1] + 1 do self.grid:setWalkable(x, y, true) end
    end
  end
  self.route, self.onRoute = {}, {}
  for i, c in ipairs(ChaseBoard.ROUTE) do
    local goal = ChaseBoard.ROUTE[i % #ChaseBoard.ROUTE + 1]
    local path = assert(self.grid:findPath(c[1], c[2], goal[1], goal[2], { flat = true }))
    for k = 1, #path - 2, 2 do   -- each corner once: the next leg starts there
      self.route[#self.route + 1] = { x = path[k], y = path[k + 1] }
      self.onRoute[self:index(path[k], path[k + 1])] = true
    end
  end
end

-- ---- the enemies -----------------------------------------------------------------

-- A random open cell the map reaches, no one standing there, at least 30 cells from
-- the player (nil after many tries).
function ChaseBoard:spawnCell()
  local rand, p = self.rand, self.player
  for _ = 1, 200 do
    local x, y = rand(self.width), rand(self.height)
    local far = math.max(math.abs(x - p.x), math.abs(y - p.y)) >= 30
    if far and not self.occupied[self:index(x, y)] and self.map:get(x, y) then return x, y end
  end
  return nil
end

function ChaseBoard:placeEnemy(e)
  local x, y = self:spawnCell()
  if not x then return false end
  e.x, e.y, e.rest = x, y, 0
  self.occupied[self:index(x, y)] = true
  return true
end

function ChaseBoard.new(opts)
  opts = opts or {}
  local size = opts.size or ChaseBoard.SIZE
  local self = setmetatable({ width = size, height = size }, ChaseBoard)
  self.clock = opts.clock or os.clock
  self.rand = generator(ChaseBoard.SEED)
  self.grid = astar.new(size, size)   -- diagonal mode "no-obstacles"
  self.terrain, self.edited, self.occupied = {}, {}, {}
  self:makeTerrain()
  self:makeRoute()
  local start = self.route[1]
  self.player = { x = start.x, y = start.y, leg = 1, rest = 0 }
  self.sources = { { x = start.x, y = start.y } }
  self.map = self.grid:distanceMap(self.sources, MAP_OPTS)
  self.enemies = {}
  for i = 1, opts.enemies or ChaseBoard.ENEMIES do
    local e = {}
    if self:placeEnemy(e) then self.enemies[i] = e end
  end
  self.steps, self.carry, self.paused = 0, 0, false
  self.caught, self.edits, self.moves = 0, 0, 0
  self.times, self.nextTime = {}, 1
  self.wants = { enemy = {}, x = {}, y = {} }
  return self
end

-- ---- pathfinding: the only calls the clock measures ------------------------------

-- The player entered a new cell: the map's source follows it, recomputed in the map's
-- own memory on the grid as it is now (the source's table is reused: no garbage).
function ChaseBoard:moveTarget()
  local source = self.sources[1]
  source.x, source.y = self.player.x, self.player.y
  self.map:setSources(self.sources)
end

-- Each enemy of `group` that moves this step reads its next step, into the lists of
-- `wants` (reused from step to step: no table made here). Returns how many.
function ChaseBoard:readSteps(group, wants)
  local map, enemies, n = self.map, self.enemies, 0
  local who, wx, wy = wants.enemy, wants.x, wants.y
  for i = group, #enemies, ChaseBoard.ENEMY_TICK do
    local e = enemies[i]
    if e.rest == 0 then
      n = n + 1
      who[n], wx[n], wy[n] = e, map:nextStep(e.x, e.y)
    end
  end
  return n
end

-- ---- one step --------------------------------------------------------------------

-- Ticks to wait before leaving a cell of this cost.
local function restOn(cost) return cost - 1 end

-- The player takes the next cell of its route every PLAYER_TICK steps, slowed by cost.
-- Returns true when it entered a new cell.
function ChaseBoard:walkPlayer()
  local p = self.player
  if self.steps % ChaseBoard.PLAYER_TICK ~= 0 then return false end
  if p.rest > 0 then
    p.rest = p.rest - 1
    return false
  end
  p.leg = p.leg % #self.route + 1
  local c = self.route[p.leg]
  p.x, p.y, p.rest = c.x, c.y, restOn(self.grid:getCost(c.x, c.y))
  self.moves = self.moves + 1
  return true
end

-- A random cell within EDIT_RADIUS of the player that `fits` (nil after 20 tries).
function ChaseBoard:cellNearPlayer(fits)
  local p, r, rand = self.player, ChaseBoard.EDIT_RADIUS, self.rand
  for _ = 1, 20 do
    local x, y = p.x + rand(2 * r + 1) - r - 1, p.y + rand(2 * r + 1) - r - 1
    if self:inside(x, y) and fits(x, y) then return x, y end
  end
  return nil
end

-- Every EDIT_EVERY steps a wall is built on an open cell no one stands on and off the
-- route, or (every other time) a wall is destroyed. Returns true when one was.
function ChaseBoard:editWalls()
  local k = self.steps - ChaseBoard.EDIT_PHASE
  if k % ChaseBoard.EDIT_EVERY ~= 0 then return false end
  local grid, build = self.grid, (k / ChaseBoard.EDIT_EVERY) % 2 == 0
  local x, y = self:cellNearPlayer(function(x, y)
    local i = self:index(x, y)
    if not build then return not grid:isWalkable(x, y) end
    return grid:isWalkable(x, y) and not self.occupied[i] and not self.onRoute[i]
      and not (x == self.player.x and y == self.player.y)
  end)
  if not x then return false end
  grid:setWalkable(x, y, not build)
  local i = self:index(x, y)
  -- edited: the cell differs from the generated map (the view draws it so)
  if self.edited[i] then self.edited[i] = nil else self.edited[i] = build and "built" or "destroyed" end
  self.edits = self.edits + 1
  return true
end

-- The moves read by readSteps: onto a free cell, or onto the player (caught: the enemy
-- starts again far away); then a rest by the entered cell's cost.
function ChaseBoard:moveEnemies(wants, n)
  local p, occupied = self.player, self.occupied
  for k = 1, n do
    local e, x, y = wants.enemy[k], wants.x[k], wants.y[k]
    local i = x and self:index(x, y)
    if x == p.x and y == p.y then
      occupied[self:index(e.x, e.y)] = nil
      self.caught = self.caught + 1
      self:placeEnemy(e)
    elseif i and not occupied[i] then
      occupied[self:index(e.x, e.y)] = nil
      occupied[i] = true
      e.x, e.y, e.rest = x, y, restOn(self.grid:getCost(x, y))
    end
  end
end

-- The enemies of this step's group who are resting count down.
function ChaseBoard:restEnemies(group)
  for i = group, #self.enemies, ChaseBoard.ENEMY_TICK do
    local e = self.enemies[i]
    if e.rest > 0 then e.rest = e.rest - 1 end
  end
end

-- One step: the player walks, a wall may change, the map follows (timed), this
-- step's sixth of the enemies reads its steps (timed) and moves. Returns the seconds
-- spent in pathfinding.
function ChaseBoard:step()
  local moved = self:walkPlayer()
  local edited = self:editWalls()
  local group = self.steps % ChaseBoard.ENEMY_TICK + 1
  local wants, clock = self.wants, self.clock
  local t0 = clock()
  if moved then
    self:moveTarget()
  elseif edited then
    self.map:update(self.grid)
  end
  self.mapWork = moved and "moved" or edited and "repaired" or nil
  local n = self:readSteps(group, wants)
  local spent = clock() - t0
  self:moveEnemies(wants, n)
  self:restEnemies(group)
  self.steps = self.steps + 1
  return spent
end

-- The first cell where the map the scene keeps differs from a fresh map toward the
-- player on the grid as it is now (value or next step): "x,y: ..."; nil when none does.
-- (The screenshot run checks it: moving and repairing must give a fresh map's answers.)
function ChaseBoard:differenceFromFresh()
  local p, map = self.player, self.map
  local fresh = self.grid:distanceMap({ { x = p.x, y = p.y } }, MAP_OPTS)
  for y = 1, self.height do
    for x = 1, self.width do
      local v, w = map:get(x, y), fresh:get(x, y)
      local ax, ay = map:nextStep(x, y)
      local bx, by = fresh:nextStep(x, y)
      if v ~= w or ax ~= bx or ay ~= by then
        return ("%d,%d: value %s, step %s,%s; a fresh map: %s, %s,%s"):format(x, y,
          tostring(v), tostring(ax), tostring(ay), tostring(w), tostring(bx), tostring(by))
      end
    end
  end
  return nil
end

-- ---- frames and their pathfinding time -------------------------------------------

function ChaseBoard:recordFrame(seconds)
  self.times[self.nextTime] = seconds
  self.nextTime = self.nextTime % ChaseBoard.FRAMES + 1
end

-- median, worst (seconds) and count of the last FRAMES frames' pathfinding times
function ChaseBoard:stats()
  local list = {}
  for i, t in ipairs(self.times) do list[i] = t end
  if #list == 0 then return nil end
  table.sort(list)
  return list[math.floor((#list + 1) / 2)], list[#list], #list
end

-- n steps, each recorded as a frame (a scripted run, the benchmark: 60 frames a second)
function ChaseBoard:runSteps(n)
  for _ = 1, n do self:recordFrame(self:step()) end
end

-- love.update: the frame's time in fixed steps (at most a quarter of a second a
-- frame); one frame's record is the sum of its steps'.
function ChaseBoard:update(dt)
  if self.paused then return end
  self.carry = self.carry + math.min(dt or 0, 0.25)
  local n = math.floor(self.carry / ChaseBoard.STEP)
  self.carry = self.carry - n * ChaseBoard.STEP
  if n == 0 then return end
  local spent = 0
  for _ = 1, n do spent = spent + self:step() end
  self:recordFrame(spent)
end

function ChaseBoard:togglePause()
  self.paused = not self.paused
end

return ChaseBoard
