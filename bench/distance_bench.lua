-- make bench-distance (issue 13): distance maps against findPath, CPU time
-- (os.clock), medians of 5 passes (bench/timing.lua).
--
--   units       1000 units walking to the nearest of 5 goals: one distanceMap
--               from the goals plus a nextStep walk per unit (and one step per
--               unit, what a turn costs), against 1000 findPath calls with the
--               goal list; on AR0011SR (Moving AI, 512x512) and a 64x64 board
--   full map    distanceMap from one corner over a whole open board, 512x512
--               and 2048x2048, 4 and 8 directions, unit and varied costs; and
--               map:update(grid), the same without allocating the map
--   large units distanceMap with size = 2 and 3 (issue 14) over a whole open
--               512x512 board against size 1, 4 and 8 directions, unit and
--               varied costs
--   memory      bytes per cell of a map (collectgarbage("count"))
-- The costs of the two ways are checked equal before anything is timed.
--
-- Usage: lua bench/distance_bench.lua [maps dir]
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
local time = require("timing").time

local dir = arg and arg[1] or "maps"
local UNITS, GOALS = 1000, 5

local rng = require("rng").lcg

local function close(a, b) return a == b or (a and b and math.abs(a - b) <= 1e-9 * math.max(1, a)) end

local function row(label, t, n, base)
  print(("  %-44s %10.2f us%s %s"):format(label, t / n * 1e6, n > 1 and "/unit" or "     ",
    base and ("%7.1fx"):format(base / t) or ""))
end

local function board64()
  local g = astar.new(64, 64)
  local rand = rng(3)
  for y = 1, 64 do
    for x = 1, 64 do
      if rand(100) <= 22 then g:setWalkable(x, y, false) end
    end
  end
  return g
end

local function units_case(name, grid)
  local w, h = grid:getDimensions()
  local rand = rng(11)
  local function open()
    while true do
      local x, y = rand(w), rand(h)
      if grid:isWalkable(x, y) then return x, y end
    end
  end
  local goals, units = {}, {}
  for k = 1, GOALS do
    local x, y = open()
    goals[k] = { x = x, y = y }
  end
  for k = 1, UNITS do
    local x, y = open()
    units[k] = { x = x, y = y }
  end
  -- the same answers first
  local map = grid:distanceMap(goals)
  for _, u in ipairs(units) do
    local _, cost = grid:findPath(u.x, u.y, goals)
    assert(close(type(cost) == "number" and cost or nil, map:get(u.x, u.y)),
      "distanceMap and findPath disagree")
  end
  print(("%s (%dx%d, %d units, %d goals, diagonal %s, %s)"):format(name, w, h, UNITS, GOALS,
    grid:getDiagonal(), _VERSION .. (jit and " / " .. jit.version or "")))
  local find = time(function()
    for _, u in ipairs(units) do grid:findPath(u.x, u.y, goals) end
  end)
  local build = time(function() map = grid:distanceMap(goals) end)
  local walk = time(function()
    for _, u in ipairs(units) do
      local x, y = u.x, u.y
      while x do x, y = map:nextStep(x, y) end
    end
  end)
  local step = time(function()
    for _, u in ipairs(units) do map:nextStep(u.x, u.y) end
  end)
  local path = time(function()
    local into = {}
    for _, u in ipairs(units) do map:pathFrom(u.x, u.y, { flat = true, into = into }) end
  end)
  row("findPath(x, y, goals) x 1000", find, UNITS)
  row("distanceMap(goals), once", build, 1)
  row("map + nextStep walk to the goal x 1000", build + walk, UNITS, find)
  row("map + pathFrom (flat, into) x 1000", build + path, UNITS, find)
  row("map + one nextStep x 1000 (one turn)", build + step, UNITS, find)
  row("one nextStep (map already built)", step, UNITS)
end

local function full_case(size, diagonal, costs)
  local g = astar.new(size, size)
  if costs then
    local rand = rng(5)
    for y = 1, size do
      for x = 1, size do g:setCost(x, y, rand(4)) end
    end
  end
  local src = { { x = 1, y = 1 } }
  local opts = { diagonal = diagonal }
  local map
  local t = time(function() map = g:distanceMap(src, opts) end, size > 1000 and 3 or 5)
  assert(map:size() == size * size)
  local u = time(function() map:update(g) end, size > 1000 and 3 or 5)
  print(("  %4dx%-4d %-13s %-12s %9.2f ms  %6.1f ns/cell   update in place %9.2f ms"):format(
    size, size, diagonal, costs and "costs 1-4" or "unit costs", t * 1e3,
    t / (size * size) * 1e9, u * 1e3))
  return map
end

local f = io.open(dir .. "/AR0011SR.map", "rb")
if f then
  local text = f:read("*a")
  f:close()
  units_case("AR0011SR", astar.fromMovingAI(text))
end
units_case("random 64x64 (22% walls)", board64())

print(("full map (%s, backend %s)"):format(_VERSION .. (jit and " / " .. jit.version or ""),
  astar.backend))
local sizes = astar.backend == "c" and { 512, 2048 } or { 512 }
for _, size in ipairs(sizes) do
  full_case(size, "never", false)
  full_case(size, "never", true)
  full_case(size, "no-obstacles", false)
  full_case(size, "always", true)
end

-- large units: the same full map for a k x k unit
local function large_case(n, diagonal, costs)
  local g = astar.new(n, n)
  if costs then
    local rand = rng(5)
    for y = 1, n do
      for x = 1, n do g:setCost(x, y, rand(4)) end
    end
  end
  local src = { { x = 1, y = 1 } }
  local base
  for _, k in ipairs { 1, 2, 3 } do
    local opts = { diagonal = diagonal, size = k }
    local map
    local t = time(function() map = g:distanceMap(src, opts) end)
    assert(map:size() == (n - k + 1) * (n - k + 1))
    base = base or t
    print(("  %4dx%-4d %-13s %-12s size %d %9.2f ms  %6.1f ns/cell  %5.2fx size 1"):format(
      n, n, diagonal, costs and "costs 1-4" or "unit costs", k, t * 1e3, t / (n * n) * 1e9,
      t / base))
  end
end

print(("large units, full map (%s, backend %s)"):format(
  _VERSION .. (jit and " / " .. jit.version or ""), astar.backend))
large_case(512, "never", false)
large_case(512, "never", true)
large_case(512, "no-obstacles", false)
large_case(512, "always", true)

collectgarbage()
collectgarbage()
local before = collectgarbage("count")
local keep = astar.new(512, 512):distanceMap({ { x = 1, y = 1 } })
collectgarbage()
local after = collectgarbage("count")
print(("memory: %.1f bytes per cell (512x512 map, %s backend)"):format(
  (after - before) * 1024 / (512 * 512), astar.backend))
assert(keep:size() == 512 * 512)
