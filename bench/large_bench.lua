-- make bench-large (issue 14, large units): findPath for units of size 2 and
-- 3 against size 1, CPU time (os.clock), medians of 5 passes, on a 64x64 cut
-- of den312d and on AR0011SR (Moving AI maps, N. Sturtevant, "Benchmarks for
-- Grid-Based Pathfinding", 2012). The queries go between cells where a 3x3
-- unit fits, so every size answers each of them.
--
--   size k (auto)        the algorithm the grid picks: jump point search on
--                        the size's layer with uniform costs
--   size k (astar)       opts.algorithm = "astar"
--   size k (costs)       a grid with one costed cell: the loop that prices
--                        each step by the cells it newly covers
--   first query, size k  building the layer (a new grid each time)
--   setWalkable          toggling a cell with the layers of sizes 2 and 3 kept
--   movementRange size k a budget of 20 from 40 starts, uniform and costed
--   growth in k          (issue 17) findPath, movementRange and distanceMap of
--                        sizes 1, 4, 16 and 64 on a 512x512 board with one cell of
--                        cost 2 (the loops that price each step by the cells it
--                        newly covers), time per expanded position: a step
--                        newly covers k cells (2k - 1 diagonally), so this may
--                        grow at most linearly in k
--
-- Usage: lua bench/large_bench.lua [maps dir] [only-size-1 | growth]
-- (growth: only the growth rows, for the pure-Lua backend: ASTAR_BACKEND=lua)
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
require "astar.tactics"
local scen = require "scen"
local time = require("timing").time

local dir = arg and arg[1] or "maps"
local ONLY_ONE = arg and arg[2] == "only-size-1"   -- for a build without opts.size
local ONLY_GROWTH = arg and arg[2] == "growth"
local QUERIES = 200

local rng = require("rng").lcg

local function copy(whole, w, h, x0, y0)
  local g = astar.new(w, h)
  for y = 1, h do
    for x = 1, w do g:setWalkable(x, y, whole:isWalkable(x + x0 - 1, y + y0 - 1)) end
  end
  return g
end

local function fits3(grid, x, y)
  local w, h = grid:getDimensions()
  if x + 2 > w or y + 2 > h then return false end
  for cy = y, y + 2 do
    for cx = x, x + 2 do
      if not grid:isWalkable(cx, cy) then return false end
    end
  end
  return true
end

local function queries(grid, seed)
  local w, h = grid:getDimensions()
  local rand, list = rng(seed), {}
  local function cell()
    while true do
      local x, y = rand(w), rand(h)
      if fits3(grid, x, y) then return x, y end
    end
  end
  while #list < QUERIES do
    local sx, sy = cell()
    local gx, gy = cell()
    if grid:findPath(sx, sy, gx, gy, not ONLY_ONE and { size = 3 } or nil) then
      list[#list + 1] = { sx, sy, gx, gy }
    end
  end
  return list
end

local function row(label, t, n, base)
  print(("  %-34s %10.2f us/query %s"):format(label, t / n * 1e6,
    base and ("%6.2fx size 1"):format(t / base) or ""))
end

local function run(name, grid, mode)
  grid:setDiagonal(mode)
  local qs = queries(grid, 11)
  local n = #qs
  print(("%s (%dx%d, diagonal %s, %d queries, %s)"):format(name, grid:getWidth(), grid:getHeight(),
    mode, n, _VERSION .. (jit and " / " .. jit.version or "")))
  local function all(opts)
    return time(function()
      for _, q in ipairs(qs) do grid:findPath(q[1], q[2], q[3], q[4], opts) end
    end)
  end
  local base = all(nil)
  row("size 1 (auto)", base, n)
  local base_a = all({ algorithm = "astar" })
  row("size 1 (astar)", base_a, n)
  if ONLY_ONE then return end
  for k = 2, 3 do
    -- the same costs whatever the algorithm
    for _, q in ipairs(qs) do
      local _, a = grid:findPath(q[1], q[2], q[3], q[4], { size = k })
      local _, b = grid:findPath(q[1], q[2], q[3], q[4], { size = k, algorithm = "astar" })
      assert(a == b or math.abs(a - b) < 1e-9 * a, "auto and astar disagree")
    end
    row(("size %d (auto)"):format(k), all({ size = k }), n, base)
    row(("size %d (astar)"):format(k), all({ size = k, algorithm = "astar" }), n, base_a)
  end
  local w, h = grid:getDimensions()
  for k = 2, 3 do
    local passes, spent = w * h > 10000 and 5 or 40, 0
    for _ = 1, passes do
      local g = copy(grid, w, h, 1, 1)
      local t0 = os.clock()
      g:findPath(qs[1][1], qs[1][2], qs[1][1], qs[1][2], { size = k })
      spent = spent + (os.clock() - t0)
    end
    row(("first query, size %d (layer)"):format(k), spent / passes, 1)
  end
  -- a costed grid: the step-pricing loop
  local costed = copy(grid, w, h, 1, 1)
  costed:setDiagonal(mode)
  costed:setCost(1, 1, 2)
  local cbase = time(function()
    for _, q in ipairs(qs) do costed:findPath(q[1], q[2], q[3], q[4]) end
  end)
  row("size 1 (costs)", cbase, n)
  for k = 2, 3 do
    row(("size %d (costs)"):format(k), time(function()
      for _, q in ipairs(qs) do costed:findPath(q[1], q[2], q[3], q[4], { size = k }) end
    end), n, cbase)
  end
  -- setWalkable with and without layers
  local plain = copy(grid, w, h, 1, 1)
  local layered = copy(grid, w, h, 1, 1)
  layered:findPath(1, 1, 1, 1, { size = 2 })
  layered:findPath(1, 1, 1, 1, { size = 3 })
  local function toggle(g)
    return time(function()
      for i = 1, 20000 do
        local x, y = i % w + 1, (i * 7) % h + 1
        local was = g:isWalkable(x, y)
        g:setWalkable(x, y, not was)
        g:setWalkable(x, y, was)
      end
    end)
  end
  local t0, t1 = toggle(plain), toggle(layered)
  row("setWalkable, no layer", t0, 40000)
  row("setWalkable, layers 2 and 3", t1, 40000)
  -- movementRange with a budget of 20 from 40 starts: uniform costs (a
  -- one-cell range on the size's layer) and the costed grid (the loop that
  -- prices each step by the cells it newly covers)
  local function ranges(g, k)
    local opts = { diagonal = mode, size = k }
    return time(function()
      for i = 1, 40 do g:movementRange(qs[i][1], qs[i][2], 20, opts) end
    end)
  end
  for _, case in ipairs { { "", grid }, { " costs", costed } } do
    local rbase = ranges(case[2], 1)
    row(("movementRange size 1%s"):format(case[1]), rbase, 40)
    for k = 2, 3 do
      row(("movementRange size %d%s"):format(k, case[1]), ranges(case[2], k), 40, rbase)
    end
  end
end

local function load(file)
  return astar.fromMovingAI(scen.read_all(dir .. "/" .. file))
end

-- The CPU time of one fn() and what it returns: the median of 3 passes, each
-- repeating fn for 50 ms or so, or the first call alone when it took 0.5 s.
local function time_one(fn)
  local t0 = os.clock()
  local result = fn()
  local once = os.clock() - t0
  if once >= 0.5 then return once, result end
  local reps = math.max(1, math.ceil(0.05 / math.max(once, 1e-6)))
  return time(function()
    for _ = 1, reps do fn() end
  end, 3) / reps, result
end

-- Growth in k (see the top of the file): each query's time per position it
-- expanded (findPath: getSearchStats().expanded; movementRange and
-- distanceMap: the positions in the result, each settled once), against
-- size 1's and against the size before (k 4 times as large: at most 4x when
-- the growth is at most linear).
local function growth()
  local grid = astar.new(512, 512)
  grid:setCost(256, 256, 2)
  grid:setDiagonal("no-obstacles")
  print(("growth in k: 512x512, one cell of cost 2, diagonal no-obstacles (%s, %s backend)"):format(
    _VERSION .. (jit and " / " .. jit.version or ""), astar.backend or "?"))
  local rows = {
    { "findPath 100,100 -> 400,300", function(k)
      local path = grid:findPath(100, 100, 400, 300, { size = k })
      assert(path, "no path")
      return grid:getSearchStats().expanded
    end },
    { "movementRange 200,200 move 40", function(k)
      return grid:movementRange(200, 200, 40, { size = k, diagonal = "no-obstacles" }):size()
    end },
    { "distanceMap 200,200 maxCost 100", function(k)
      return grid:distanceMap({ { x = 200, y = 200 } },
        { size = k, diagonal = "no-obstacles", maxCost = 100 }):size()
    end },
  }
  for _, q in ipairs(rows) do
    local base, before
    for _, k in ipairs { 1, 4, 16, 64 } do
      q[2](k)                           -- the layer for k is built on first use
      local t, positions = time_one(function() return q[2](k) end)
      local per = t / positions
      base = base or per
      print(("  %-32s size %2d %6d positions %9.3f us/position %6.2fx size 1 %s")
        :format(q[1], k, positions, per * 1e6, per / base,
          before and ("%5.2fx size %d"):format(per / before, k / 4) or ""))
      before = per
    end
  end
end

if ONLY_GROWTH then
  growth()
  return
end

local den = load("den312d.map")
run("den312d 64x64 cut", copy(den, 64, 64, 1, 9), "never")
run("den312d 64x64 cut", copy(den, 64, 64, 1, 9), "no-obstacles")
run("AR0011SR", load("AR0011SR.map"), "never")
run("AR0011SR", load("AR0011SR.map"), "no-obstacles")
if not ONLY_ONE then growth() end
