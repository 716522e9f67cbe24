-- Re-entrancy (issue 10, README Robustness): the game's callbacks and
-- finalizers may do anything in the middle of a call, and the call still
-- gives the right answer or a clear error, never a crash or a wrong answer.
--
-- 1. The callback matrix: every kind of callback (movementRange's cost,
--    blocked, occupied and zoc functions, attackRange's lineOfSight function,
--    dangerZone's rules and lineOfSight) times every action (a nested query on
--    the same grid, changing the grid once or on every call, closing it, a
--    full collection, errors with values that are not strings, a yield).
--    Answers are checked against the independent references of
--    spec/helpers/ on the grid as it is at the end (a mirror the actions keep).
-- 2. Finalizer-armed loops: objects whose __gc does one of those things to
--    the same grid, with the collector made so eager that it runs at almost
--    every allocation, while every API function that allocates is called;
--    every answer is checked against the reference for a state the grid was in
--    during the call, or the error must be one the contract allows.
-- 3. Writes that change nothing: they abort no stepped search and restart no
--    range.
-- Finalizers that act while a call reads its options, and around every
-- method of every object: spec/reentrancy_finalizers_spec.lua.
local astar = require "astar"
local tactics = require "astar.tactics"
local ref = require "helpers.tactics_reference"
local R = require "helpers.reference"

local unpack = unpack or table.unpack -- luacheck: ignore 143
local pack = table.pack or function(...) return { n = select("#", ...), ... } end

-- LuaJIT 2.1.0-beta3 spins in its own code (no Lua frame) now and then when
-- callbacks that raise, yield and close run inside the pure backend's compiled
-- loops (as reentrancy_finalizers_spec found): with the pure backend this file
-- runs with the compiler off; the answers and errors it checks are the same
if astar.backend == "lua" and jit then
  jit.off()
  jit.flush()
end

-- ---- the map and its references -------------------------------------------------

local PICTURE = {
  ".........",
  "..#..2...",
  "..#..2#..",
  ".....3#..",
  ".##......",
  "...2..#..",
  ".........",
}
local W, H = 9, 7
local TEXT = table.concat(PICTURE, "\n")

-- {w, h, wall = {[y][x] = true}, cost = {[y][x] = n}} from the picture
local function parseMap()
  local m = { w = W, h = H, wall = {}, cost = {} }
  for y = 1, H do
    m.wall[y], m.cost[y] = {}, {}
    for x = 1, W do
      local c = PICTURE[y]:sub(x, x)
      m.wall[y][x] = c == "#"
      m.cost[y][x] = tonumber(c) or 1
    end
  end
  return m
end

local function copyMap(m)
  local c = { w = m.w, h = m.h, wall = {}, cost = {} }
  for y = 1, m.h do
    c.wall[y], c.cost[y] = {}, {}
    for x = 1, m.w do c.wall[y][x], c.cost[y][x] = m.wall[y][x], m.cost[y][x] end
  end
  return c
end

-- the same map as a description for helpers/reference.lua
local function desc(m)
  return { w = m.w, h = m.h, walkable = function(x, y) return not m.wall[y][x] end,
    cost = function(x, y) return m.cost[y][x] end }
end

-- Checks that the grid holds exactly map m (walls and costs).
local function sameAsMap(grid, m)
  for y = 1, m.h do
    for x = 1, m.w do
      if grid:isWalkable(x, y) == m.wall[y][x] or grid:getCost(x, y) ~= m.cost[y][x] then
        return false
      end
    end
  end
  return true
end

local function build() return astar.fromString(TEXT) end

-- the game's rules, as pure functions of the cell
local function costOf(x, y) return 1 + (x * 7 + y * 3) % 3 end
local function blockedOf(x, y) return (x == 6 and y == 4) or (x == 1 and y == 4) end
local function occupiedOf(x, y) return (x + y) % 4 == 0 end
local function zocOf(x, y) return x == 6 and y <= 3 end
-- a line-of-sight rule that depends on the grid: the target must be walkable
local function pattern(fx, tx, ty) return (fx + tx + ty) % 5 ~= 0 end
local function refSight(m)
  return function(fx, _, tx, ty) return not m.wall[ty][tx] and pattern(fx, tx, ty) end
end

local SX, SY, MOVE = 4, 3, 4
local ENEMY1 = { x = 2, y = 6, move = 2, minRange = 1, maxRange = 1 }
local ENEMY2 = { x = 8, y = 2, move = 2, minRange = 1, maxRange = 2 }

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- Maps that never change keep their references here (the finalizer loops
-- ask the same questions many times): FROZEN[map] = {[question] = answer}.
local FROZEN = setmetatable({}, { __mode = "k" })
local function memo(m, key, compute)
  local cache = FROZEN[m]
  if not cache then return compute() end
  local v = cache[key]
  if v == nil then
    v = compute()
    cache[key] = v
  end
  return v
end

local function rulesKey(rules)
  return tostring(rules.cost) .. tostring(rules.blocked) .. tostring(rules.occupied) .. tostring(rules.zoc)
    .. tostring(rules.diagonal)
end

local function movement(m, sx, sy, move, rules)
  local r = memo(m, ("mv %d %d %s %s"):format(sx, sy, tostring(move), rulesKey(rules)), function()
    return { ref.movement(m, sx, sy, move, rules, rules.diagonal) }
  end)
  return r[1], r[2]
end

-- nil, or what is wrong with `range` against the reference on map m (in 8
-- directions when rules.diagonal is a mode other than "never").
local function rangeMismatch(range, m, sx, sy, move, rules)
  local dist, stop = movement(m, sx, sy, move, rules)
  local entry = rules.cost or function(x, y) return m.cost[y][x] end
  local nstop = 0
  for y = 1, m.h do
    for x = 1, m.w do
      local want, got = dist[y][x], range:costTo(x, y)
      if (want == nil) ~= (got == nil) or (want and not R.close(want, got)) then
        return ("costTo(%d, %d) = %s, the reference says %s"):format(x, y, tostring(got), tostring(want))
      end
      if (stop[y][x] == true) ~= range:contains(x, y) then
        return ("contains(%d, %d) = %s"):format(x, y, tostring(range:contains(x, y)))
      end
      if stop[y][x] then
        nstop = nstop + 1
        local path = range:pathTo(x, y)
        if type(path) ~= "table" or path[1].x ~= sx or path[1].y ~= sy
          or path[#path].x ~= x or path[#path].y ~= y then
          return ("pathTo(%d, %d) does not join the start to the cell"):format(x, y)
        end
        local sum = 0
        local eight = rules.diagonal ~= nil and rules.diagonal ~= "never"
        for i = 2, #path do
          local a, b = path[i - 1], path[i]
          local dx, dy = math.abs(a.x - b.x), math.abs(a.y - b.y)
          local diag = eight and dx == 1 and dy == 1
          if (dx + dy ~= 1 and not diag) or m.wall[b.y][b.x] then
            return ("pathTo(%d, %d): bad step %d"):format(x, y, i)
          end
          sum = sum + (diag and math.sqrt(2) or 1) * entry(b.x, b.y)
        end
        if not R.close(sum, want) then return ("pathTo(%d, %d) costs %s"):format(x, y, sum) end
      end
    end
  end
  if #range:cells() ~= nstop then return "cells() has " .. #range:cells() .. " cells" end
  return nil
end

-- the stop cells of the reference, for attack areas
local function stopCells(m, sx, sy, move, rules)
  local _, stop = movement(m, sx, sy, move, rules or {})
  return stop
end

local function areaMismatch(area, m, stop, lo, hi, sight)
  local hit = memo(m, ("at %s %d %d %s"):format(tostring(stop), lo, hi, tostring(sight)), function()
    return ref.attack(m, stop, lo, hi, sight)
  end)
  local n = 0
  for y = 1, m.h do
    for x = 1, m.w do
      if (hit[y][x] == true) ~= area:contains(x, y) then
        return ("contains(%d, %d) = %s"):format(x, y, tostring(area:contains(x, y)))
      end
      if hit[y][x] then n = n + 1 end
    end
  end
  if area:size() ~= n then return "size() = " .. area:size() .. ", the reference says " .. n end
  return nil
end

-- enemies: {x, y, move, minRange, maxRange, rules = {...}} with plain rules
local function zoneMismatch(zone, m, enemies, sight)
  local want, n = {}, 0
  for y = 1, m.h do
    want[y] = {}
    for x = 1, m.w do want[y][x] = 0 end
  end
  for _, e in ipairs(enemies) do
    local stop = stopCells(m, e.x, e.y, e.move, e.rules)
    local hit = memo(m, ("at %s %d %d %s"):format(tostring(stop), e.minRange, e.maxRange, tostring(sight)),
      function() return ref.attack(m, stop, e.minRange, e.maxRange, sight) end)
    for y = 1, m.h do
      for x = 1, m.w do
        if hit[y][x] then want[y][x] = want[y][x] + 1 end
      end
    end
  end
  for y = 1, m.h do
    for x = 1, m.w do
      if want[y][x] ~= zone:count(x, y) then
        return ("count(%d, %d) = %d, the reference says %d"):format(x, y, zone:count(x, y), want[y][x])
      end
      if want[y][x] > 0 then n = n + 1 end
    end
  end
  if zone:size() ~= n then return "size() = " .. zone:size() end
  return nil
end

-- nil, or what is wrong with a path and cost from (sx, sy) to (gx, gy) on map m
-- (the grid's default settings: no-obstacles, octile, weight 1: optimal).
local function pathMismatch(path, cost, m, sx, sy, gx, gy)
  if type(path) ~= "table" then return "no path: " .. tostring(cost) end
  local d = desc(m)
  local sum, why = R.validate(d, "no-obstacles", path, sx, sy, gx, gy)
  if not sum then return why end
  if not R.close(sum, cost) then return ("the path costs %s, findPath says %s"):format(sum, cost) end
  local best = memo(m, ("dj %d %d"):format(sx, sy), function()
    return R.dijkstra(d, "no-obstacles", sx, sy)
  end)[gx][gy]
  if not R.close(best, cost) then return ("cost %s, the optimum is %s"):format(cost, best) end
  return nil
end

-- {x1, y1, ...} -> {{x =, y =}, ...}
local function points(flat)
  local out = {}
  for i = 1, #flat, 2 do out[#out + 1] = { x = flat[i], y = flat[i + 1] } end
  return out
end

-- The error Lua gives for a yield across a C-call boundary on this version,
-- raised from yielder (LuaJIT puts the position of the yielding function in
-- front): table.sort calls its comparator through lua_call.
local function yielder() coroutine.yield("paused") end
local YIELD_ERROR = (function()
  local co = coroutine.create(function()
    table.sort({ 3, 2, 1 }, function() yielder() return false end)
  end)
  local ok, err = coroutine.resume(co)
  assert(not ok and type(err) == "string" and err:find("yield across", 1, true), tostring(err))
  return err
end)()

-- ---- 1. the callback matrix -------------------------------------------------------

-- Each kind runs the user's call with callback f and checks the answer on map
-- m: the answer of the callback itself is plain(grid, args...), then the
-- action runs. cell(args...) is the cell the action "change once" walls.
local KINDS = {
  {
    name = "movementRange cost function", fname = "movementRange",
    plain = function(_, x, y) return costOf(x, y) end,
    run = function(grid, f) return grid:movementRange(SX, SY, MOVE, { cost = f }) end,
    check = function(r, m) return rangeMismatch(r, m, SX, SY, MOVE, { cost = costOf }) end,
    cell = function(x, y) return x, y end,
  },
  {
    name = "movementRange cost function, 8 directions", fname = "movementRange",
    plain = function(_, x, y) return costOf(x, y) end,
    run = function(grid, f)
      return grid:movementRange(SX, SY, MOVE, { cost = f, diagonal = "one-obstacle" })
    end,
    check = function(r, m)
      return rangeMismatch(r, m, SX, SY, MOVE, { cost = costOf, diagonal = "one-obstacle" })
    end,
    cell = function(x, y) return x, y end,
  },
  {
    name = "movementRange blocked function", fname = "movementRange",
    plain = function(_, x, y) return blockedOf(x, y) end,
    run = function(grid, f) return grid:movementRange(SX, SY, MOVE, { blocked = f }) end,
    check = function(r, m) return rangeMismatch(r, m, SX, SY, MOVE, { blocked = blockedOf }) end,
    cell = function(x, y) return x, y end,
  },
  {
    name = "movementRange occupied function", fname = "movementRange",
    plain = function(_, x, y) return occupiedOf(x, y) end,
    run = function(grid, f) return grid:movementRange(SX, SY, MOVE, { occupied = f }) end,
    check = function(r, m) return rangeMismatch(r, m, SX, SY, MOVE, { occupied = occupiedOf }) end,
    cell = function(x, y) return x, y end,
  },
  {
    name = "movementRange zoc function", fname = "movementRange",
    plain = function(_, x, y) return zocOf(x, y) end,
    run = function(grid, f) return tactics.movementRange(grid, SX, SY, MOVE, { zoc = f }) end,
    check = function(r, m) return rangeMismatch(r, m, SX, SY, MOVE, { zoc = zocOf }) end,
    cell = function(x, y) return x, y end,
  },
  {
    -- the range is made first, on the grid as it is then
    name = "attackRange lineOfSight function", fname = "attackRange",
    plain = function(grid, fx, _, tx, ty) return grid:isWalkable(tx, ty) and pattern(fx, tx, ty) end,
    prepare = function(grid) return grid:movementRange(SX, SY, 1) end,
    run = function(grid, f, range) return grid:attackRange(range, 1, 2, { lineOfSight = f }) end,
    check = function(area, m, initial)
      return areaMismatch(area, m, stopCells(initial, SX, SY, 1), 1, 2, refSight(m))
    end,
    cell = function(_, _, tx, ty) return tx, ty end,
  },
  {
    -- enemy 2's own blocked rule; a change made there also moves enemy 1's
    -- area, done before it: dangerZone must start again
    name = "dangerZone rule function", fname = "dangerZone",
    plain = function(_, x, y) return blockedOf(x, y) end,
    run = function(grid, f)
      local e2 = copy(ENEMY2)
      e2.blocked = f
      return grid:dangerZone({ copy(ENEMY1), e2 }, { cost = costOf })
    end,
    check = function(zone, m)
      local e1, e2 = copy(ENEMY1), copy(ENEMY2)
      e1.rules, e2.rules = { cost = costOf }, { cost = costOf, blocked = blockedOf }
      return zoneMismatch(zone, m, { e1, e2 })
    end,
    cell = function() return ENEMY1.x + 1, ENEMY1.y end,
  },
  {
    -- asked first about enemy 1, whose movement is done by then
    name = "dangerZone lineOfSight function", fname = "dangerZone",
    plain = function(grid, fx, _, tx, ty) return grid:isWalkable(tx, ty) and pattern(fx, tx, ty) end,
    run = function(grid, f)
      return tactics.dangerZone(grid, { copy(ENEMY1), copy(ENEMY2) }, { lineOfSight = f })
    end,
    check = function(zone, m) return zoneMismatch(zone, m, { ENEMY1, ENEMY2 }, refSight(m)) end,
    cell = function() return ENEMY1.x + 1, ENEMY1.y end,
  },
}

-- findPath's rule functions (README, Units on the board), from (1, 1) to
-- (GX, GY) in the grid's default mode: the reference on map m with the rule.
-- (Not to (W, H): "changing the grid on every call" toggles that cell.)
local GX, GY = W - 1, H
local function ruledDesc(m, costRule, blockedRule)
  return { w = m.w, h = m.h,
    walkable = function(x, y) return not m.wall[y][x] and not (blockedRule and blockedRule(x, y)) end,
    cost = function(x, y) return costRule and costRule(x, y) or m.cost[y][x] end }
end
local function ruledPathMismatch(r, m, costRule, blockedRule)
  local path, cost = r[1], r[2]
  if type(path) ~= "table" then return "no path: " .. tostring(cost) end
  local d = ruledDesc(m, costRule, blockedRule)
  local sum, why = R.validate(d, "no-obstacles", path, 1, 1, GX, GY)
  if not sum then return why end
  if not R.close(sum, cost) then return ("the path costs %s, findPath says %s"):format(sum, cost) end
  local best = R.dijkstra(d, "no-obstacles", 1, 1)[GX][GY]
  if not R.close(best, cost) then return ("cost %s, the optimum is %s"):format(cost, best) end
  return nil
end
-- A cell whose walling makes the ruled optimum dearer (what "changing the grid
-- once" walls for the findPath kinds).
local function cutCell(costRule, blockedRule)
  local m = parseMap()
  local d = ruledDesc(m, costRule, blockedRule)
  local best = R.dijkstra(d, "no-obstacles", 1, 1)[GX][GY]
  for y = 1, H do
    for x = 1, W do
      if not m.wall[y][x] and not (x == 1 and y == 1) and not (x == GX and y == GY) then
        m.wall[y][x] = true
        local now = R.dijkstra(d, "no-obstacles", 1, 1)[GX][GY]
        m.wall[y][x] = false
        if now and now < math.huge and not R.close(now, best) then return x, y end
      end
    end
  end
  error("no cell changes the optimum")
end
local CUT_COST = { cutCell(costOf, nil) }
local CUT_BLOCKED = { cutCell(nil, blockedOf) }
KINDS[#KINDS + 1] = {
  name = "findPath cost function", fname = "findPath",
  plain = function(_, x, y) return costOf(x, y) end,
  run = function(grid, f) return { grid:findPath(1, 1, GX, GY, { cost = f }) } end,
  check = function(r, m) return ruledPathMismatch(r, m, costOf, nil) end,
  cell = function() return CUT_COST[1], CUT_COST[2] end,
}
KINDS[#KINDS + 1] = {
  name = "findPath blocked function", fname = "findPath",
  plain = function(_, x, y) return blockedOf(x, y) end,
  run = function(grid, f) return { grid:findPath(1, 1, GX, GY, { blocked = f }) } end,
  check = function(r, m) return ruledPathMismatch(r, m, nil, blockedOf) end,
  cell = function() return CUT_BLOCKED[1], CUT_BLOCKED[2] end,
}

-- The move rule (opts.move, issue 19) of findPath and movementRange: a pure
-- function of the move, some moves dearer, some impossible (none out of the
-- start), with its own reference here: Dijkstra over map m in 8 directions
-- with the grid's corner rule (no-obstacles), or 4 for a range (budget:
-- cells reached within it; the start is not entered again).
local HAS_MOVES = astar.new(2, 2).setMove ~= nil
local function moveOf(fx, fy, tx, ty, cost)
  if (fx + 2 * ty) % 7 == 0 and not (fx == 1 and fy == 1) and not (fx == SX and fy == SY) then return false end
  return cost * (1 + (tx + fy) % 2)
end
local SQRT2 = math.sqrt(2)
-- the price of the step (x, y) -> (tx, ty) on map m, or nil
local function moveStep(m, x, y, tx, ty, eight)
  if tx < 1 or ty < 1 or tx > m.w or ty > m.h or m.wall[ty][tx] then return nil end
  local dx, dy = math.abs(tx - x), math.abs(ty - y)
  if dx + dy == 0 or dx > 1 or dy > 1 or (dx + dy == 2 and not eight) then return nil end
  if dx + dy == 2 and (m.wall[y][tx] or m.wall[ty][x]) then return nil end
  local v = moveOf(x, y, tx, ty, m.cost[ty][tx] * (dx + dy == 2 and SQRT2 or 1))
  return v or nil
end
local function moveDist(m, sx, sy, eight, budget)
  local dist, done = {}, {}
  for y = 1, m.h do dist[y], done[y] = {}, {} end
  dist[sy][sx] = 0
  while true do
    local bx, by
    for y = 1, m.h do
      for x = 1, m.w do
        if dist[y][x] and not done[y][x] and (not bx or dist[y][x] < dist[by][bx]) then bx, by = x, y end
      end
    end
    if not bx then return dist end
    done[by][bx] = true
    for dy = -1, 1 do
      for dx = -1, 1 do
        local tx, ty = bx + dx, by + dy
        local c = moveStep(m, bx, by, tx, ty, eight)
        if c and not (tx == sx and ty == sy) then
          local nd = dist[by][bx] + c
          if (not budget or nd <= budget) and (dist[ty][tx] == nil or nd < dist[ty][tx]) then dist[ty][tx] = nd end
        end
      end
    end
  end
end
-- nil, or what is wrong with a walk (a list of points) and its cost
local function moveWalkMismatch(m, path, cost, want, eight)
  local sum = 0
  for i = 2, #path do
    local c = moveStep(m, path[i - 1].x, path[i - 1].y, path[i].x, path[i].y, eight)
    if not c then return ("bad step %d"):format(i) end
    sum = sum + c
  end
  if not R.close(sum, cost) then return ("the walk costs %s, the call says %s"):format(sum, cost) end
  if not R.close(want, cost) then return ("cost %s, the optimum is %s"):format(cost, want) end
  return nil
end
local function movePathMismatch(r, m)
  local path, cost = r[1], r[2]
  if type(path) ~= "table" then return "no path: " .. tostring(cost) end
  if path[1].x ~= 1 or path[1].y ~= 1 or path[#path].x ~= GX or path[#path].y ~= GY then return "wrong ends" end
  return moveWalkMismatch(m, path, cost, moveDist(m, 1, 1, true)[GY][GX], true)
end
local function moveRangeMismatch(range, m)
  local dist = moveDist(m, SX, SY, false, MOVE)
  local n = 0
  for y = 1, m.h do
    for x = 1, m.w do
      local want, got = dist[y][x], range:costTo(x, y)
      if (want == nil) ~= (got == nil) or (want and not R.close(want, got)) then
        return ("costTo(%d, %d) = %s, the reference says %s"):format(x, y, tostring(got), tostring(want))
      end
      if range:contains(x, y) ~= (want ~= nil) then return ("contains(%d, %d) is wrong"):format(x, y) end
      if want then
        n = n + 1
        local path = range:pathTo(x, y)
        if path[1].x ~= SX or path[1].y ~= SY or path[#path].x ~= x or path[#path].y ~= y then
          return ("pathTo(%d, %d) does not join the start to the cell"):format(x, y)
        end
        local wrong = moveWalkMismatch(m, path, got, want, false)
        if wrong then return ("pathTo(%d, %d): %s"):format(x, y, wrong) end
      end
    end
  end
  if range:size() ~= n then return "size() = " .. range:size() end
  return nil
end
local CUT_MOVE = { (function()
  local m = parseMap()
  local best = moveDist(m, 1, 1, true)[GY][GX]
  for y = 1, H do
    for x = 1, W do
      if not m.wall[y][x] and not (x == 1 and y == 1) and not (x == GX and y == GY) then
        m.wall[y][x] = true
        local now = moveDist(m, 1, 1, true)[GY][GX]
        m.wall[y][x] = false
        if now and not R.close(now, best) then return x, y end
      end
    end
  end
  error("no cell changes the optimum")
end)() }
do
  KINDS[#KINDS + 1] = {
    name = "findPath move rule", fname = "findPath", moves = true,
    plain = function(_, ...) return moveOf(...) end,
    run = function(grid, f) return { grid:findPath(1, 1, GX, GY, { move = f }) } end,
    check = function(r, m) return movePathMismatch(r, m) end,
    cell = function() return CUT_MOVE[1], CUT_MOVE[2] end,
  }
  KINDS[#KINDS + 1] = {
    name = "movementRange move rule", fname = "movementRange", moves = true,
    plain = function(_, ...) return moveOf(...) end,
    run = function(grid, f) return grid:movementRange(SX, SY, MOVE, { move = f }) end,
    check = function(r, m) return moveRangeMismatch(r, m) end,
    cell = function(_, _, tx, ty) return tx, ty end,
  }
  -- (newSearch's move rule: "rule functions of a stepped search" below)
  KINDS[#KINDS + 1] = {
    name = "distanceMap move rule", fname = "distanceMap", moves = true,
    plain = function(_, ...) return moveOf(...) end,
    run = function(grid, f) return grid:distanceMap({ { x = SX, y = SY } }, { move = f }) end,
    check = function(map, m)
      -- each cell's value: its cheapest walk to the source, over the moves the rule prices
      for y = 1, m.h do
        for x = 1, m.w do
          -- a wall is a start cell (issue 24): its cheapest walk out, as from any cell
          local want = moveDist(m, x, y, true)[SY][SX]
          local got = map:get(x, y)
          if (want == nil) ~= (got == nil) or (want and not R.close(want, got)) then
            return ("get(%d, %d) = %s, the reference says %s"):format(x, y, tostring(got), tostring(want))
          end
        end
      end
      return nil
    end,
    cell = function(fx, fy) return fx, fy end,   -- the walker's cell: out of the map as a wall
  }
  -- map:setSources (issue 24): the map's rule, asked again; the map is made
  -- from another source with the plain rule first
  local made = KINDS[#KINDS]
  KINDS[#KINDS + 1] = {
    name = "setSources move rule", fname = "setSources", moves = true, setSources = true,
    plain = made.plain,
    run = function(grid, f)
      local rule = function(...) return moveOf(...) end
      local map = grid:distanceMap({ { x = 1, y = 1 } }, { move = function(...) return rule(...) end })
      rule = f
      return map:setSources({ { x = SX, y = SY } })
    end,
    check = made.check,
    cell = made.cell,
  }
  -- maps built a slice at a time (issue 24): the map's cost rule asked in
  -- the slices of setSources with a budget, or of map:step; the answer is a
  -- fresh map's on the grid as the mirror has it
  local function freshMismatch(map, m)
    local g = astar.new(m.w, m.h)
    for y = 1, m.h do
      for x = 1, m.w do g:setWalkable(x, y, not m.wall[y][x]) end
    end
    local want = g:distanceMap({ { x = SX, y = SY } }, { cost = costOf })
    for y = 1, m.h do
      for x = 1, m.w do
        local nx, ny = map:nextStep(x, y)
        local wx, wy = want:nextStep(x, y)
        if map:get(x, y) ~= want:get(x, y) or nx ~= wx or ny ~= wy then
          return ("(%d, %d): get %s, a fresh map %s"):format(x, y, tostring(map:get(x, y)),
            tostring(want:get(x, y)))
        end
      end
    end
    return nil
  end
  local function slicedMap(grid)
    local rule = costOf
    local map = grid:distanceMap({ { x = 1, y = 1 } }, { cost = function(x, y) return rule(x, y) end })
    return map, function(f) rule = f end
  end
  KINDS[#KINDS + 1] = {
    name = "setSources with a budget, cost function", fname = "setSources", sliced = true,
    plain = function(_, x, y) return costOf(x, y) end,
    run = function(grid, f)
      local map, use = slicedMap(grid)
      use(f)
      return (map:setSources({ { x = SX, y = SY } }, { seconds = math.huge }))
    end,
    check = freshMismatch,
    cell = function(x, y) return x, y end,
  }
  KINDS[#KINDS + 1] = {
    name = "map:step, cost function", fname = "step", sliced = true,
    plain = function(_, x, y) return costOf(x, y) end,
    run = function(grid, f)
      local map, use = slicedMap(grid)
      assert(not select(2, map:setSources({ { x = SX, y = SY } }, { cells = 1 })))
      use(f)
      assert(map:step(math.huge))
      return map
    end,
    check = freshMismatch,
    cell = function(x, y) return x, y end,
  }
end

local TOGGLE_X, TOGGLE_Y = 9, 7   -- the cell "change on every call" flips
local MARKER = setmetatable({}, { __tostring = function() return "the marker table" end })

-- What a nested query must answer: on the grid as it is (the mirror).
local function nestedFindPath(ctx)
  local path, cost = ctx.grid:findPath(1, 1, W, H)
  return pathMismatch(path, cost, ctx.mirror, 1, 1, W, H)
end
local function nestedRange(ctx)
  local r = ctx.grid:movementRange(1, 1, 3, { cost = function(x, y) return costOf(x, y) end })
  return rangeMismatch(r, ctx.mirror, 1, 1, 3, { cost = costOf })
end
local function nestedSearch(ctx)
  local s = ctx.grid:newSearch(W, H, 1, 1)
  local n = 0
  while s:step(3) == "searching" do n = n + 1 end
  local path, cost = s:result()
  return pathMismatch(path, cost, ctx.mirror, W, H, 1, 1)
end

-- The actions: act(ctx, args...) runs inside the callback after its answer
-- is computed; expect(ctx, ok, result) checks the outcome of the user's call.
local ACTIONS = {
  {
    name = "a nested findPath", limit = 6, nested = true,
    act = function(ctx) ctx.nested[#ctx.nested + 1] = nestedFindPath(ctx) or false end,
  },
  {
    name = "a nested movementRange", limit = 6, nested = true,
    act = function(ctx) ctx.nested[#ctx.nested + 1] = nestedRange(ctx) or false end,
  },
  {
    name = "a nested newSearch, step and result", limit = 6, nested = true,
    act = function(ctx) ctx.nested[#ctx.nested + 1] = nestedSearch(ctx) or false end,
  },
  {
    name = "changing the grid once", changes = true, limit = 1,
    act = function(ctx, ...)
      local x, y = ctx.kind.cell(...)
      assert(ctx.grid:isWalkable(x, y), "the change must be a real one")
      ctx.grid:setWalkable(x, y, false)
      ctx.mirror.wall[y][x] = true
    end,
  },
  {
    name = "changing the grid on every call",
    act = function(ctx)
      local open = ctx.grid:isWalkable(TOGGLE_X, TOGGLE_Y)
      ctx.grid:setWalkable(TOGGLE_X, TOGGLE_Y, not open)
      ctx.mirror.wall[TOGGLE_Y][TOGGLE_X] = open
    end,
    error = function(kind) return "grid changed during " .. kind.fname end,
  },
  {
    -- issue 19: an edit of a move is a change as a cell's is (the move out
    -- of the cell "change on every call" flips, far from every answer)
    name = "changing a move on every call", moves = true,
    act = function(ctx)
      local g = ctx.grid
      local v = g:getMove(TOGGLE_X, TOGGLE_Y, TOGGLE_X - 1, TOGGLE_Y)
      g:setMove(TOGGLE_X, TOGGLE_Y, TOGGLE_X - 1, TOGGLE_Y, v == nil and 5 or nil)
    end,
    error = function(kind) return "grid changed during " .. kind.fname end,
  },
  {
    name = "closing the grid", closes = true, limit = 1,
    act = function(ctx) getmetatable(ctx.grid).__close(ctx.grid) end,
    error = function(kind) return "grid closed during " .. kind.fname end,
  },
  {
    name = 'collectgarbage("collect")', limit = 3,
    act = function() collectgarbage("collect") end,
  },
  {
    name = "an error with a table", from = 3,
    act = function() error(MARKER) end,
    error = function() return MARKER end,
  },
  {
    name = "an error with a number", from = 3,
    act = function() error(42, 0) end,
    error = function() return 42 end,
  },
  {
    name = "an error with false", from = 3,
    act = function() error(false) end,
    error = function() return false end,
  },
  {
    name = "coroutine.yield", from = 2, yields = true,
    act = function() yielder() end,
    error = function() return YIELD_ERROR end,
  },
}

describe("callbacks that do anything", function()
  for _, kind in ipairs(KINDS) do
    for _, action in ipairs(ACTIONS) do
      it(kind.name .. " x " .. action.name, function()
        if (kind.moves or action.moves) and not HAS_MOVES then return pending("this backend has no moves yet") end
        local grid = build()
        local ctx = { grid = grid, mirror = parseMap(), kind = kind, calls = 0, nested = {} }
        local initial = copyMap(ctx.mirror)
        local prepared = kind.prepare and kind.prepare(grid)
        local f = function(...)
          ctx.calls = ctx.calls + 1
          local answer = kind.plain(grid, ...)
          local n = ctx.calls - (action.from or 1) + 1
          if n >= 1 and (not action.limit or n <= action.limit) then action.act(ctx, ...) end
          return answer
        end
        local ok, result
        if action.yields then
          local co = coroutine.create(function() return kind.run(grid, f, prepared) end)
          ok, result = coroutine.resume(co)
          assert.are.equal("dead", coroutine.status(co))
        else
          ok, result = pcall(kind.run, grid, f, prepared)
        end
        assert.is_true(ctx.calls >= (action.from or 1), "the callback was called " .. ctx.calls .. " times")

        if action.error then
          assert.is_false(ok, "the call succeeded")
          local want = action.error(kind)
          assert(rawequal(want, result), ("expected the error %s, got %s (a %s)"):format(
            tostring(want), tostring(result), type(result)))
          if math.type then assert.are.equal(math.type(want), math.type(result)) end
        else
          assert(ok, tostring(result))
          local wrong = kind.check(result, ctx.mirror, initial)
          assert(not wrong, wrong)
          if action.changes then
            -- the change mattered: the answer on the grid as it was is another one
            assert(kind.check(result, initial, initial), "the change did not change the answer")
          end
        end
        for i, bad in ipairs(ctx.nested) do
          assert(not bad, ("nested query %d: %s"):format(i, tostring(bad)))
        end
        if action.nested then
          assert.are.equal(math.min(ctx.calls, action.limit), #ctx.nested)
        end

        if action.closes then
          assert.are.equal("attempt to use a closed astar.Grid", select(2, pcall(grid.getWidth, grid)))
        else
          -- the grid is what the actions made it, and still answers right
          assert.is_true(sameAsMap(grid, ctx.mirror))
          local path, cost = grid:findPath(1, 1, W, H)
          local wrong = pathMismatch(path, cost, ctx.mirror, 1, 1, W, H)
          assert(not wrong, wrong)
          local again = kind.run(grid, function(...) return kind.plain(grid, ...) end, prepared)
          wrong = kind.check(again, ctx.mirror, initial)
          assert(not wrong, wrong)
        end
      end)
    end
  end

  it("starts again at most 3 times: a 4th change in one call is an error", function()
    -- the cell next to the start is asked about first in every run; changing
    -- some other cell while it is asked makes one restart per change
    for changes = 1, 5 do
      local grid = build()
      local mirror = parseMap()
      local made, runs = 0, 0
      local function cost(x, y)
        if x == SX + 1 and y == SY then
          runs = runs + 1
          if made < changes then
            made = made + 1
            grid:setCost(1, 7, made + 1)   -- always a new cost: a real change
            mirror.cost[7][1] = made + 1
          end
        end
        return costOf(x, y)
      end
      local ok, r = pcall(grid.movementRange, grid, SX, SY, MOVE, { cost = cost })
      if changes <= 3 then
        assert(ok, tostring(r))
        assert.are.equal(changes + 1, runs)
        local wrong = rangeMismatch(r, mirror, SX, SY, MOVE, { cost = costOf })
        assert(not wrong, wrong)
      else
        assert.are.same({ false, "grid changed during movementRange" }, { ok, r })
        assert.are.equal(4, runs)
      end
    end
  end)

  it("asks the callbacks again after a restart", function()
    local grid = build()
    local asked, first = {}, true
    local r = grid:movementRange(SX, SY, MOVE, { cost = function(x, y)
      local k = (y - 1) * W + x
      asked[k] = (asked[k] or 0) + 1
      if first then
        first = false
        grid:setWalkable(TOGGLE_X, TOGGLE_Y, false)   -- far away: the answer stays the same
      end
      return costOf(x, y)
    end })
    local again = {}
    local plain = grid:movementRange(SX, SY, MOVE, { cost = function(x, y)
      local k = (y - 1) * W + x
      again[k] = (again[k] or 0) + 1
      return costOf(x, y)
    end })
    assert.are.same(plain:cells(), r:cells())
    local firstCell = (SY - 1) * W + SX + 1
    assert.is_true(asked[firstCell] >= 2)   -- asked in the run that was abandoned, then again
    for k, n in pairs(again) do assert.is_true(asked[k] >= n) end
  end)
end)

-- the cost rule, and the move rule (issue 19: asked about moves, not cells,
-- and not while newSearch begins)
local STEPPED = {
  { "", function(rule) return { cost = function(x, y) return rule(costOf(x, y)) end } end },
  { " (opts.move)", function(rule)
    return { move = function(...) return rule(moveOf(...)) end }
  end, moves = true },
}
-- each stepped by nodes, and by time (issue 21: the rules run in chunks
-- between looks at the clock)
local STEPPINGS = {
  { "", function(s) return s:step(2) end },
  { ", step(n, seconds)", function(s) return s:step(math.huge, 1e-9) end },
}
for _, form in ipairs(STEPPED) do
  for _, stepping in ipairs(STEPPINGS) do
    if form.moves and not HAS_MOVES then
      pending("rule functions of a stepped search" .. form[1] .. ": this backend has no move rule yet")
    else
      describe("rule functions of a stepped search" .. form[1] .. stepping[1], function()
        -- a search whose rule runs act() on its n-th call
        local function searchWith(grid, n, act)
          local calls = 0
          return grid:newSearch(1, 1, W - 1, H, form[2](function(answer)
            calls = calls + 1
            if calls == n then act() end
            return answer
          end))
        end
        local function finish(s)
          local status
          repeat status = stepping[2](s) until status ~= "searching"
          return status
        end

        it("stop at a change of the grid, which stays usable", function()
          local grid = build()
          local s = searchWith(grid, 6, function() grid:setCost(9, 1, 7) end)
          assert.are.same({ false, "grid changed during step" }, { pcall(finish, s) })
          assert.are.same({ false, "grid changed during search" }, { pcall(s.step, s, 1) })
          assert.are.same({ false, "grid changed during search" }, { pcall(s.result, s) })
          local mirror = parseMap()
          mirror.cost[1][9] = 7
          local path, cost = grid:findPath(1, 1, W, H)
          local wrong = pathMismatch(path, cost, mirror, 1, 1, W, H)
          assert(not wrong, wrong)
        end)

        it("stop at a change made while newSearch asks about the goal", function()
          if form.moves then return end   -- (a move rule is not asked then)
          local grid = build()
          assert.are.same({ false, "grid changed during newSearch" },
            { pcall(searchWith, grid, 1, function() grid:setWalkable(9, 1, false) end) })
        end)

        it("stop when the grid is closed", function()
          local grid = build()
          local s = searchWith(grid, 4, function() getmetatable(grid).__close(grid) end)
          assert.are.same({ false, "grid closed during step" }, { pcall(finish, s) })
          assert.are.same({ false, "attempt to use a closed astar.Grid" }, { pcall(s.step, s, 1) })
        end)

        it("stop with the rule's own error, any value", function()
          for _, value in ipairs({ MARKER, 42, false }) do
            local grid = build()
            local s = searchWith(grid, 3, function() error(value, 0) end)
            local ok, err = pcall(finish, s)
            assert.is_false(ok)
            assert(rawequal(value, err), tostring(err))
            assert.are.same({ false, "search stopped by an error in its rules" }, { pcall(s.step, s, 1) })
            assert.are.same({ false, "search stopped by an error in its rules" }, { pcall(s.result, s) })
          end
        end)

        it("cannot step their own search, nor yield", function()
          local grid = build()
          local s
          s = searchWith(grid, 2, function() s:step(1) end)
          assert.are.same({ false, "search:step called from one of its own rules" }, { pcall(finish, s) })
          local t = searchWith(grid, 2, yielder)
          local co = coroutine.create(function() return finish(t) end)
          local ok, err = coroutine.resume(co)
          assert.is_false(ok)
          assert.are.equal(YIELD_ERROR, err)
        end)

        it("cannot restart their own search", function()
          local grid = build()
          local s
          s = searchWith(grid, 2, function() s:restart(1, 1, W, H) end)
          assert.are.same({ false, "search:restart called from one of its own rules" }, { pcall(finish, s) })
          assert.are.same({ false, "search stopped by an error in its rules" }, { pcall(s.step, s, 1) })
          s:restart(1, 1, W, H)                 -- from outside: it runs again
          assert.are.equal("found", finish(s))
          local path, cost = s:result()
          local wrong = pathMismatch(path, cost, parseMap(), 1, 1, W, H)
          assert(not wrong, wrong)
        end)

        it("may release their own search: the step then raises", function()
          local grid = build()
          local s
          s = searchWith(grid, 3, function() getmetatable(s).__close(s) end)
          assert.are.same({ false, "search released during step" }, { pcall(finish, s) })
          assert.are.same({ false, "attempt to use a released astar.Search" }, { pcall(s.step, s, 1) })
          -- the grid and its pooled scratch still serve new searches
          local again = grid:newSearch(1, 1, W, H)
          again:step(math.huge)
          local path, cost = again:result()
          local wrong = pathMismatch(path, cost, parseMap(), 1, 1, W, H)
          assert(not wrong, wrong)
        end)
      end)
    end
  end
end

-- A large unit's blocked rule is asked while newSearch builds the unit's
-- clearance: a real change there stops the search at once, as at the goal
-- above (no restart as in findPath); a write that changes nothing does not
-- (the Lua API fuzzer's seed newsearch-size2-wall).
describe("the blocked rule of a stepped search for a unit of size 2", function()
  local L = require "helpers.large_reference"
  local FX, FY, TX, TY = 1, 1, 10, 9
  local function wallRule(x, y) return x == 6 and y <= 9 end
  -- a 12 x 12 open grid; the rule's 4th call runs write(grid)
  local function searchWith(write)
    local grid, calls = astar.new(12, 12), 0
    local ok, s = pcall(grid.newSearch, grid, FX, FY, TX, TY, { size = 2, blocked = function(x, y)
      calls = calls + 1
      if calls == 4 then write(grid) end
      return wallRule(x, y)
    end })
    return grid, ok, s
  end
  -- the search's answer against the large-unit reference on the grid as it is
  local function answerMismatch(grid, path, cost)
    local b = { w = 12, h = 12, k = 2, diagonal = grid:getDiagonal(), value = function(x, y)
      if not grid:isWalkable(x, y) or wallRule(x, y) then return L.INF end
      return grid:getCost(x, y)
    end }
    local want = L.cost(b, FX, FY, { { TX, TY } })
    if not path then return want ~= L.INF and "no path, want cost " .. want end
    local walked, why = L.path_cost(b, path, FX, FY)
    if not walked then return why end
    local last = path[#path]
    if last.x ~= TX or last.y ~= TY then return "does not end at the goal" end
    if math.abs(walked - cost) > 1e-9 or math.abs(cost - want) > 1e-9 then
      return ("cost %s, walked %s, want %s"):format(cost, walked, want)
    end
  end
  local function finished(grid, s)
    assert.are.equal("found", s:step(math.huge))
    local wrong = answerMismatch(grid, s:result())
    assert(not wrong, wrong)
  end

  it("stops at a wall added there, and the grid stays usable", function()
    local grid, ok, err = searchWith(function(g) g:setWalkable(8, 5, false) end)
    assert.are.same({ false, "grid changed during newSearch" }, { ok, err })
    assert.is_false(grid:isWalkable(8, 5))
    finished(grid, grid:newSearch(FX, FY, TX, TY, { size = 2, blocked = wallRule }))
  end)

  it("goes on after a write that changes nothing", function()
    local grid, ok, s = searchWith(function(g) g:setWalkable(8, 5, true) end)
    assert.is_true(ok, tostring(s))
    finished(grid, s)
  end)
end)

-- A cost rule asked while "sight" smooths findPath's walk (issue 20): the
-- smoothing prices the cells its straight lines cross, and may ask the rule
-- about a cell the search never asked about. On this 7x7 board the row 1 and
-- the column 7 cost 1, the rest 9: the walk follows the row and the column,
-- A* never reaches the dear inside, and only the smoothing asks about (5, 3)
-- (a line from (1, 1) down the column). What the rule does there follows the
-- contract of README Callbacks, as anywhere in findPath.
describe("a cost rule asked only while 'sight' smooths", function()
  local SEG = require "helpers.segment_reference"
  local N, QX, QY = 7, 5, 3
  local function dear(x, y) return (y == 1 or x == N) and 1 or 9 end
  local PLAIN = { { x = 1, y = 1 }, { x = 6, y = 1 }, { x = 7, y = 2 }, { x = 7, y = 7 } }
  -- with (7, 5) a wall: around it through the dear cells
  local AROUND = { { x = 1, y = 1 }, { x = 6, y = 1 }, { x = 7, y = 2 }, { x = 7, y = 4 }, { x = 6, y = 4 },
    { x = 6, y = 6 }, { x = 7, y = 7 } }
  -- the exact cost of a polyline on the board (its walls as the grid has them)
  local function priced(grid, line)
    local board = { w = N, h = N, walkable = function(x, y) return grid:isWalkable(x, y) end, cost = dear }
    local legal, cost, why = SEG.polyline(board, grid:getDiagonal(), line)
    assert(legal, why)
    return cost
  end
  -- findPath from (1, 1) to (7, 7), smoothed, whose rule runs act(grid, n)
  -- the n-th time it is asked about (QX, QY); returns pcall's results and n
  local function smoothWith(act)
    local grid, asked = astar.new(N, N), 0
    local results = pack(pcall(grid.findPath, grid, 1, 1, N, N, { smooth = "sight", cost = function(x, y)
      if x == QX and y == QY then
        asked = asked + 1
        act(grid, asked)
      end
      return dear(x, y)
    end }))
    return grid, results, asked
  end
  local function assertPath(grid, want, path, cost)
    assert.are.same(want, SEG.points(path))
    assert.are.equal(priced(grid, want), cost)
  end

  it("is asked about a cell the search never asked about", function()
    local grid, searched = astar.new(N, N), {}
    grid:findPath(1, 1, N, N, { cost = function(x, y)
      searched[#searched + 1] = x .. "," .. y
      return dear(x, y)
    end })
    for _, k in ipairs(searched) do assert.are_not.equal(QX .. "," .. QY, k) end
    local _, r, asked = smoothWith(function() end)
    assert(r[1], tostring(r[2]))
    assert.are.equal(1, asked)
    assertPath(grid, PLAIN, r[2], r[3])
  end)

  it("gives the path on the grid as it is after a change there (one restart)", function()
    local grid, r, asked = smoothWith(function(g, n)
      if n == 1 then g:setWalkable(7, 5, false) end
    end)
    assert(r[1], tostring(r[2]))
    assert.are.equal(2, asked)
    assertPath(grid, AROUND, r[2], r[3])
  end)

  it("starts again at most 3 times: a 4th change is an error", function()
    for changes = 1, 5 do
      -- a new cost for (1, 7) each time: a real change the rule hides
      local grid, r, asked = smoothWith(function(g, n)
        if n <= changes then g:setCost(1, 7, n + 1) end
      end)
      if changes <= 3 then
        assert(r[1], tostring(r[2]))
        assert.are.equal(changes + 1, asked)
        assertPath(grid, PLAIN, r[2], r[3])
      else
        assert.are.same({ false, "grid changed during findPath" }, { r[1], r[2] })
        assert.are.equal(4, asked)
        assert.are.equal(5, grid:getCost(1, 7))
      end
    end
  end)

  it("raises 'grid closed during findPath' when the grid is closed there", function()
    local grid, r = smoothWith(function(g) getmetatable(g).__close(g) end)
    assert.are.same({ false, "grid closed during findPath" }, { r[1], r[2] })
    assert.are.same({ false, "attempt to use a closed astar.Grid" }, { pcall(grid.getWidth, grid) })
  end)

  it("passes the rule's own error on unchanged, and the grid stays usable", function()
    for _, value in ipairs({ MARKER, 42, "plain text", false }) do
      local grid, r = smoothWith(function() error(value, 0) end)
      assert.is_false(r[1])
      assert(rawequal(value, r[2]), tostring(r[2]))
      assertPath(grid, PLAIN, grid:findPath(1, 1, N, N, { smooth = "sight", cost = dear }))
    end
  end)

  it("lets the rule run findPath, smoothed, on the same grid", function()
    local nested = {}
    local grid, r = smoothWith(function(g)
      nested[#nested + 1] = pack(g:findPath(1, 1, N, N, { smooth = "sight", cost = dear }))
    end)
    assert(r[1], tostring(r[2]))
    assertPath(grid, PLAIN, r[2], r[3])
    assert.are.equal(1, #nested)
    assertPath(grid, PLAIN, nested[1][1], nested[1][2])
  end)

  -- a stepped search smooths in the step that ends it: the contract of a
  -- stepped search's rules (the search stops, with the step's error)
  it("stops a stepped search: changed, closed, an error", function()
    local function searchWith(act)
      local grid = astar.new(N, N)
      local s = grid:newSearch(1, 1, N, N, { smooth = "sight", cost = function(x, y)
        if x == QX and y == QY then act(grid) end
        return dear(x, y)
      end })
      return grid, s, pack(pcall(s.step, s, math.huge))
    end
    local grid, s, r = searchWith(function(g) g:setCost(1, 7, 3) end)
    assert.are.same({ false, "grid changed during step" }, { r[1], r[2] })
    assert.are.same({ false, "grid changed during search" }, { pcall(s.result, s) })
    assertPath(grid, PLAIN, grid:findPath(1, 1, N, N, { smooth = "sight", cost = dear }))
    local _, closedSearch, closed = searchWith(function(g) getmetatable(g).__close(g) end)
    assert.are.same({ false, "grid closed during step" }, { closed[1], closed[2] })
    assert.are.same({ false, "attempt to use a closed astar.Grid" }, { pcall(closedSearch.step, closedSearch, 1) })
    local raisedGrid, raisedSearch, raised = searchWith(function() error(MARKER) end)
    assert.is_false(raised[1])
    assert(rawequal(MARKER, raised[2]), tostring(raised[2]))
    assert.are.same({ false, "search stopped by an error in its rules" }, { pcall(raisedSearch.result, raisedSearch) })
    assertPath(raisedGrid, PLAIN, raisedGrid:findPath(1, 1, N, N, { smooth = "sight", cost = dear }))
  end)
end)

-- ---- 2. finalizers ------------------------------------------------------------------

local F = require "helpers.finalizers"
local GC_MODES, eagerCollector, arm, nearNextCollection = F.GC_MODES, F.eagerCollector, F.arm,
  F.nearNextCollection

-- The two states the finalizers flip the grid between: the cell (4, 4) open
-- (state 0) or a wall (state 1). Everything the calls are checked against.
local FLIP_X, FLIP_Y = 4, 4
local MAPS = { [0] = parseMap() }
MAPS[1] = copyMap(MAPS[0])
MAPS[1].wall[FLIP_Y][FLIP_X] = true
local ENCODED = {}
for s = 0, 1 do
  local g = build()
  g:setWalkable(FLIP_X, FLIP_Y, s == 0)
  ENCODED[s] = g:encode()
end
local MOVINGAI = "type octile\nheight " .. H .. "\nwidth " .. W .. "\nmap\n"
  .. TEXT:gsub("[1-9]", "."):gsub("#", "@") .. "\n"
local UNIFORM = parseMap()
for y = 1, H do for x = 1, W do UNIFORM.cost[y][x] = 1 end end
local EMPTY = { w = W, h = H, wall = {}, cost = {} }
for y = 1, H do
  EMPTY.wall[y], EMPTY.cost[y] = {}, {}
  for x = 1, W do EMPTY.wall[y][x], EMPTY.cost[y][x] = false, 1 end
end
FROZEN[MAPS[0]], FROZEN[MAPS[1]] = {}, {}
-- the built-in line of sight on each of them, one function per map (memo keys)
local SIGHT = {}
for s = 0, 1 do SIGHT[MAPS[s]] = function(...) return ref.lineOfSight(MAPS[s], ...) end end
local BLOCKED = {}   -- movementRange's blocked rule as a table
for y = 1, H do for x = 1, W do if blockedOf(x, y) then BLOCKED[(y - 1) * W + x] = true end end end

-- The errors a call may raise when a finalizer closed (closed) or changed
-- (changed) its grid while it ran.
local function allowedError(err, closed, changed)
  if type(err) ~= "string" then return false end
  if closed and (err == "attempt to use a closed astar.Grid" or err:find("^grid closed during %a+$")) then
    return true
  end
  return changed and err:find("^grid changed during %a+$") ~= nil
end

-- The finalizers' actions on env.grid (whatever grid that is when they run).
-- They cannot raise: what goes wrong is written to env.failures.
local function nestedCheck(env, name, query)
  local g = env.grid
  local flips = env.flips[g] or 0
  local ok, wrong = pcall(query, g, MAPS[flips % 2])
  -- only the picture grids have known answers (not setCost's fresh grid,
  -- whose cost may or may not be written yet), and only if nothing moved
  if not env.picture[g] or (env.flips[g] or 0) ~= flips then return end
  if not ok then
    if not allowedError(wrong, env.closed[g], false) then
      env.failures[#env.failures + 1] = name .. " in a finalizer raised " .. tostring(wrong)
    end
  elseif wrong then
    env.failures[#env.failures + 1] = name .. " in a finalizer: " .. wrong
  end
end

local FINALIZERS = {
  { name = "a nested findPath", run = function(env)
    nestedCheck(env, "findPath", function(g, m)
      local path, cost = g:findPath(1, 1, W, H)
      return pathMismatch(path, cost, m, 1, 1, W, H)
    end)
  end },
  { name = "a nested movementRange", run = function(env)
    nestedCheck(env, "movementRange", function(g, m)
      return rangeMismatch(g:movementRange(2, 2, 3, { cost = costOf }), m, 2, 2, 3, { cost = costOf })
    end)
  end },
  { name = "a setWalkable that changes the grid", changes = true, run = function(env)
    local g = env.grid
    if env.closed[g] then return end
    local open = g:isWalkable(FLIP_X, FLIP_Y)
    g:setWalkable(FLIP_X, FLIP_Y, not open)
    env.flips[g] = (env.flips[g] or 0) + 1
  end },
  { name = "closing the grid", closes = true, run = function(env)
    local g = env.grid
    getmetatable(g).__close(g)
    env.closed[g] = true
  end },
  { name = 'collectgarbage("collect")', run = function() collectgarbage("collect") end },
}

-- Runs fn(...) as a call on grid g; returns true and its results, or false
-- after an error the contract allows. Any other error is a failure.
local function attempt(env, g, fn, ...)
  local flips = env.flips[g] or 0
  env.inCall = true
  local r = pack(pcall(fn, ...))
  env.inCall = false
  if r[1] then return unpack(r, 1, r.n) end
  if not allowedError(r[2], env.closed[g], (env.flips[g] or 0) ~= flips) then
    env.failures[#env.failures + 1] = "raised " .. tostring(r[2])
  end
  return false
end

-- The states grid g may have had during a call that started at `flips`.
local function states(env, g, flips)
  if (env.flips[g] or 0) == flips then return { flips % 2 } end
  return { 0, 1 }
end

-- nil when some state passes check(map), else the first complaint.
local function anyState(list, check)
  local first
  for _, s in ipairs(list) do
    local wrong = check(MAPS[s], s)
    if not wrong then return nil end
    first = first or wrong
  end
  return first
end

local function gridMismatch(g, m)
  if g:getWidth() ~= W or g:getHeight() ~= H then return "wrong size" end
  if not sameAsMap(g, m) then return "wrong cells" end
  return nil
end

-- Every API function that allocates: call(env, g) makes the call on grid g
-- and returns nil or what is wrong.
local CALLS = {
  { "astar.new", function(env)
    local ok, g = attempt(env, env.grid, astar.new, W, H)
    return ok and gridMismatch(g, EMPTY)
  end },
  { "astar.fromString", function(env)
    local ok, g = attempt(env, env.grid, astar.fromString, TEXT)
    return ok and gridMismatch(g, MAPS[0])
  end },
  { "astar.fromMovingAI", function(env)
    local ok, g = attempt(env, env.grid, astar.fromMovingAI, MOVINGAI)
    return ok and gridMismatch(g, UNIFORM)
  end },
  { "astar.decode", function(env)
    local ok, g = attempt(env, env.grid, astar.decode, ENCODED[1])
    return ok and gridMismatch(g, MAPS[1])
  end },
  { "grid:encode", function(env, g)
    local flips = env.flips[g] or 0
    local ok, s = attempt(env, g, g.encode, g)
    return ok and anyState(states(env, g, flips), function(_, state)
      return s ~= ENCODED[state] and "not the encoding of the grid" or nil
    end)
  end },
  { "grid:findPath", function(env, g)
    local flips = env.flips[g] or 0
    local ok, path, cost = attempt(env, g, g.findPath, g, 1, 1, W, H)
    return ok and anyState(states(env, g, flips), function(m)
      return pathMismatch(path, cost, m, 1, 1, W, H)
    end)
  end },
  { "grid:findPath flat", function(env, g)
    local flips = env.flips[g] or 0
    local ok, flat, cost = attempt(env, g, g.findPath, g, 1, 1, W, H, { flat = true })
    return ok and anyState(states(env, g, flips), function(m)
      return pathMismatch(points(flat), cost, m, 1, 1, W, H)
    end)
  end },
  { "grid:findPath into", function(env, g)
    local flips = env.flips[g] or 0
    local into = { { x = 0, y = 0 }, "junk", 5 }
    local ok, path, cost = attempt(env, g, g.findPath, g, W, H, 1, 1, { into = into })
    if ok and path ~= into then return "did not fill opts.into" end
    return ok and anyState(states(env, g, flips), function(m)
      return pathMismatch(path, cost, m, W, H, 1, 1)
    end)
  end },
  { "grid:newSearch, step, result", function(env, g)
    local flips = env.flips[g] or 0
    local ok, path, cost = attempt(env, g, function()
      local s = g:newSearch(1, 1, W, H)
      while s:step(2) == "searching" do end
      return s:result()
    end)
    return ok and anyState(states(env, g, flips), function(m)
      return pathMismatch(path, cost, m, 1, 1, W, H)
    end)
  end },
  { "search:restart, step, result", function(env, g)
    local flips = env.flips[g] or 0
    local ok, path, cost = attempt(env, g, function()
      local s = g:newSearch(W, H, 1, 1)
      s:step(2)
      s:restart(1, 1, W, H)
      while s:step(2) == "searching" do end
      return s:result()
    end)
    return ok and anyState(states(env, g, flips), function(m)
      return pathMismatch(path, cost, m, 1, 1, W, H)
    end)
  end },
  { "search:getExpanded", function(env, g)
    local ok, cells, stats = attempt(env, g, function()
      local s = g:newSearch(W, 1, 1, H, { algorithm = "astar" })
      while s:step(3) == "searching" do end
      return s:getExpanded(), s:getStats()
    end)
    if not ok then return nil end
    -- the cells are the last run's, the stats all the runs' (README, Searches
    -- spread over frames): equal unless a flip started the search again
    if #cells ~= stats.expanded and not (stats.restarts > 0 and #cells < stats.expanded) then
      return #cells .. " cells, " .. stats.expanded .. " expanded, " .. stats.restarts .. " restarts"
    end
    local seen = {}
    for _, c in ipairs(cells) do
      local k = (c.y - 1) * W + c.x
      if c.x < 1 or c.x > W or c.y < 1 or c.y > H or seen[k] then return "bad cell list" end
      seen[k] = true
    end
    return nil
  end },
  { "grid:getSearchStats", function(env, g)
    local ok, stats = attempt(env, g, function()
      g:findPath(1, 1, W, H)
      return g:getSearchStats()
    end)
    if ok and not (stats.expanded >= 1 and stats.touched >= stats.expanded) then
      return "stats " .. stats.expanded .. ", " .. stats.touched
    end
    return nil
  end },
  { "grid:movementRange", function(env, g)
    local flips = env.flips[g] or 0
    local ok, r = attempt(env, g, g.movementRange, g, SX, SY, MOVE, { blocked = BLOCKED })
    return ok and anyState(states(env, g, flips), function(m)
      return rangeMismatch(r, m, SX, SY, MOVE, { blocked = blockedOf })
    end)
  end },
  { "range:cells and pathTo", function(env)
    local r = env.range   -- made on a grid nothing touches
    local ok, wrong = attempt(env, env.grid, rangeMismatch, r, MAPS[0], 1, 1, 3, {})
    return ok and wrong or nil
  end },
  { "grid:attackRange", function(env, g)
    local flips = env.flips[g] or 0
    local ok, area = attempt(env, g, g.attackRange, g, env.range, 1, 2, { lineOfSight = true })
    return ok and anyState(states(env, g, flips), function(m)
      return areaMismatch(area, m, env.rangeStop, 1, 2, SIGHT[m])
    end)
  end },
  { "grid:dangerZone", function(env, g)
    local flips = env.flips[g] or 0
    local ok, zone = attempt(env, g, g.dangerZone, g, { ENEMY1, ENEMY2 }, { lineOfSight = true })
    return ok and anyState(states(env, g, flips), function(m)
      return zoneMismatch(zone, m, { ENEMY1, ENEMY2 }, SIGHT[m])
    end)
  end },
  { "grid:setCost (the first cost)", function(env, g)
    local fresh = astar.new(W, H)
    env.grid = fresh          -- the finalizers work on this one meanwhile
    local ok = attempt(env, fresh, fresh.setCost, fresh, 3, 5, 7)
    env.grid = g
    if not ok or env.closed[fresh] then return nil end
    for y = 1, H do
      for x = 1, W do
        if fresh:getCost(x, y) ~= ((x == 3 and y == 5) and 7 or 1) then return "wrong costs" end
      end
    end
    return nil
  end },
}

describe("finalizers that do anything, with an eager collector", function()
  local ROUNDS, MAX_ROUNDS = 2, 400
  for _, mode in ipairs(GC_MODES) do
    for _, fin in ipairs(FINALIZERS) do
      it(mode .. " collector, finalizers doing " .. fin.name, function()
        local range = astar.fromString(TEXT):movementRange(1, 1, 3)
        local env = { grid = build(), flips = {}, closed = {}, failures = {}, inCall = false,
          inside = 0, range = range, rangeStop = stopCells(MAPS[0], 1, 1, 3), active = true,
          picture = setmetatable({}, { __mode = "k" }) }
        env.picture[env.grid] = true
        local function finalizer()
          if not env.active then return end
          if env.inCall then env.inside = env.inside + 1 end
          fin.run(env)
        end
        local undo = eagerCollector(mode)
        finally(function()
          env.active = false
          undo()
          collectgarbage("collect")
          collectgarbage("collect")
        end)
        -- at least ROUNDS rounds, more (up to MAX_ROUNDS) until finalizers
        -- have run inside calls (how soon depends on the heap's size: in the
        -- whole suite the heap is large and a cycle can take dozens of rounds)
        local round = 0
        while round < ROUNDS or (env.inside == 0 and round < MAX_ROUNDS) do
          round = round + 1
          for _, call in ipairs(CALLS) do
            -- a grid to replace a closed one, made first: making it allocates
            local spare = build()
            env.picture[spare] = true
            if mode == "generational" then nearNextCollection() end
            if env.closed[env.grid] then env.grid = spare end   -- closed meanwhile
            for _ = 1, 4 do arm(finalizer) end
            local g = env.grid
            local wrong = call[2](env, g)
            if wrong then
              env.failures[#env.failures + 1] = ("round %d, %s: %s"):format(round, call[1], wrong)
            end
          end
        end
        env.active = false
        assert.are.same({}, env.failures)
        -- the finalizers did run inside the calls
        assert.is_true(env.inside > 0, "no finalizer ran inside a call in " .. round .. " rounds")
      end)
    end
  end
end)

-- ---- 3. writes that change nothing ----------------------------------------------------

describe("writes that change nothing", function()
  for _, costs in ipairs({ false, true }) do
    local label = costs and "with a cost layer" or "without a cost layer"

    it("restart no range, " .. label, function()
      local grid = costs and build() or astar.new(W, H)
      local calls = 0
      local plain = grid:movementRange(SX, SY, MOVE, { cost = function(x, y)
        calls = calls + 1
        return costOf(x, y)
      end })
      local alone = calls
      calls = 0
      local r = grid:movementRange(SX, SY, MOVE, { cost = function(x, y)
        calls = calls + 1
        grid:setWalkable(x, y, grid:isWalkable(x, y))
        grid:setCost(x, y, grid:getCost(x, y))
        return costOf(x, y)
      end })
      assert.are.equal(alone, calls)
      assert.are.same(plain:cells(), r:cells())
      calls = 0
      local zone = grid:dangerZone({ ENEMY1, ENEMY2 }, { lineOfSight = function(_, _, tx, ty)
        calls = calls + 1
        grid:setWalkable(tx, ty, grid:isWalkable(tx, ty))
        grid:setCost(tx, ty, grid:getCost(tx, ty))
        return true
      end })
      local seen = calls
      calls = 0
      local same = grid:dangerZone({ ENEMY1, ENEMY2 }, { lineOfSight = function()
        calls = calls + 1
        return true
      end })
      assert.are.equal(calls, seen)
      assert.are.same(same:cells(), zone:cells())
    end)

    it("abort no stepped search, " .. label, function()
      local grid = costs and build() or astar.new(W, H)
      local expected = pack(grid:findPath(1, 1, W, H))
      local search = grid:newSearch(1, 1, W, H)
      while search:step(1) == "searching" do
        grid:setWalkable(2, 1, grid:isWalkable(2, 1))
        grid:setCost(5, 2, grid:getCost(5, 2))
        grid:setCost(1, 1, grid:getCost(1, 1))
      end
      assert.are.same(expected, pack(search:result()))
    end)
  end
end)

-- ---- the first object of a type ----------------------------------------------------
-- A Range's and a DistanceMap's metatable are made by the first call that returns
-- one, and making it allocates. A finalizer that ran then and made an object of
-- the same type got a half-made metatable (the Lua API fuzzer: "attempt to index
-- a astar.Range value"). The registry's entry is taken away so that the next call
-- makes the metatable again, with a finalizer armed at each of its first
-- allocations in turn; both objects must work. (The pure backend has no such
-- entry: there the calls run as they are.)
describe("the first object of a type, while a finalizer makes another", function()
  local CASES = {
    { "astar.Range", function(g) return g:movementRange(1, 1, 3) end,
      function(r) return r:size() end },
    { "astar.DistanceMap", function(g) return g:distanceMap({ { x = 1, y = 1 } }) end,
      function(m) return m:get(4, 2) end },
  }
  for _, case in ipairs(CASES) do
    local tname, make, use = case[1], case[2], case[3]
    it(tname, function()
      local registry = debug.getregistry()
      local saved = registry[tname]
      local g = astar.new(6, 6)
      local want = use(make(g))
      local failures, inside = {}, 0
      local undoCollector = F.eagerCollector("incremental")
      local ok, err = pcall(function()
        for n = 1, 8 do
          if astar.backend == "c" then registry[tname] = nil end
          local inner, inCall = nil, true
          local undo = F.armNext(function()
            if inCall then inside = inside + 1 end
            local okMake, obj = pcall(make, g)
            inner = { pcall(function() return okMake and use(obj) or error(obj) end) }
          end, "incremental", n)
          local outer = make(g)
          inCall = false
          undo()
          local okUse, got = pcall(use, outer)
          if not okUse or got ~= want then
            failures[#failures + 1] = ("n = %d, the call's own: %s"):format(n, tostring(got))
          end
          if inner and (not inner[1] or inner[2] ~= want) then
            failures[#failures + 1] = ("n = %d, the finalizer's: %s"):format(n, tostring(inner[2]))
          end
        end
      end)
      undoCollector()
      registry[tname] = saved
      assert(ok, err)
      assert.are.same({}, failures)
      assert(inside > 0, "no finalizer ran inside a call")
    end)
  end
end)
