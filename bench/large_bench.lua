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
--
-- Usage: lua bench/large_bench.lua [maps dir] [only-size-1]
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
require "astar.tactics"
local scen = require "scen"
local time = require("timing").time

local dir = arg and arg[1] or "maps"
local ONLY_ONE = arg and arg[2] == "only-size-1"   -- for a build without opts.size
local QUERIES = 200

local function rng(seed)
  local state = seed
  return function(n)
    state = (state * 1103515245 + 12345) % 2147483648
    return math.floor(state / 65536) % n + 1
  end
end

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

local den = load("den312d.map")
run("den312d 64x64 cut", copy(den, 64, 64, 1, 9), "never")
run("den312d 64x64 cut", copy(den, 64, 64, 1, 9), "no-obstacles")
run("AR0011SR", load("AR0011SR.map"), "never")
run("AR0011SR", load("AR0011SR.map"), "no-obstacles")
