-- make bench-search-start (issue 24): what a stepped search costs against
-- findPath on the same query. A game that slices its searches over frames
-- pays newSearch + step + result per query; on a 256x256 board that must not
-- cost more than findPath (the issue's target: within 1.2x on the pure-Lua
-- fallback, 1.05x in C), so newSearch may not cost in proportion to the board.
--
-- The board: 256x256, 20% walls and terrain costs 1 to 4 (Park and Miller's
-- generator, seed 24: the same board on Lua 5.4 and LuaJIT), 8 directions
-- ("no-obstacles"), so every query runs A*. QUERIES pairs of open cells,
-- drawn from the same generator, the goal within 32 cells of the start each
-- way (an enemy chasing the player: a short search on a big board, where
-- what a query costs before its first step shows). Rows, per backend (C, then the fallback):
--   findPath              grid:findPath(...)
--   newSearch+step+result grid:newSearch(...), step(math.huge), result()
--   restart+step+result   one search, search:restart(...) per query
-- Columns: time per query (CPU time, os.clock) and its ratio to findPath.
-- The rows take turns within each pass (PASSES passes, each starting one row
-- later than the one before: what runs before a row changes its cache), so a
-- slow moment of the shared machine falls on all of them; a pass of a row
-- runs the query list enough times to last about PASS_MS ms (at least once).
-- The time is the median over the passes, the ratio the median of the
-- passes' own ratios: on the shared 2-core VM, runs of the same build agree
-- within about 1% (5 passes, each row in one block, moved them by 5%).
--
-- Usage: lua bench/search_start_bench.lua   (PASSES=n, PASS_MS=n, QUERIES=n)
package.path = "bench/?.lua;" .. package.path
local median = require("timing").median

local PASSES = tonumber(os.getenv("PASSES")) or 61
local PASS_SECONDS = (tonumber(os.getenv("PASS_MS")) or 5) / 1000   -- a pass of a row lasts about this long
local QUERIES = tonumber(os.getenv("QUERIES")) or 40
local SIZE = 256
local REACH = 32   -- goals within 32 cells of the start each way: an enemy chasing
local OPTS = { diagonal = "no-obstacles" }

local rng = require("rng").park_miller   -- the same numbers on every Lua

local function board(astar)
  local rand = rng(24)
  local grid = astar.new(SIZE, SIZE)
  for y = 1, SIZE do
    for x = 1, SIZE do
      if rand(100) <= 20 then
        grid:setWalkable(x, y, false)
      else
        grid:setCost(x, y, rand(4))
      end
    end
  end
  local queries = {}
  while #queries < QUERIES do
    local sx, sy = rand(SIZE), rand(SIZE)
    local gx, gy = sx + rand(2 * REACH + 1) - REACH - 1, sy + rand(2 * REACH + 1) - REACH - 1
    gx, gy = math.max(1, math.min(SIZE, gx)), math.max(1, math.min(SIZE, gy))
    local q = { sx, sy, gx, gy }
    if grid:isWalkable(q[1], q[2]) and grid:isWalkable(q[3], q[4]) then
      queries[#queries + 1] = q
    end
  end
  return grid, queries
end

local function find_all(grid, queries)
  return function()
    for _, q in ipairs(queries) do grid:findPath(q[1], q[2], q[3], q[4], OPTS) end
  end
end

local function stepped_all(grid, queries)
  return function()
    for _, q in ipairs(queries) do
      local search = grid:newSearch(q[1], q[2], q[3], q[4], OPTS)
      search:step(math.huge)
      search:result()
    end
  end
end

local function restarted_all(grid, queries)
  local search = grid:newSearch(1, 1, 1, 1)
  if not search.restart then return nil end
  return function()
    for _, q in ipairs(queries) do
      search:restart(q[1], q[2], q[3], q[4], OPTS)
      search:step(math.huge)
      search:result()
    end
  end
end

local engine = jit and jit.version or _VERSION
print(("stepped searches against findPath, %s, %dx%d, 20%% walls, costs 1-4, %d queries"):format(
  engine, SIZE, SIZE, QUERIES))
print(("%-8s %-22s %10s %8s"):format("backend", "row", "us/query", "ratio"))
-- How many times a pass runs the query list so that it lasts PASS_SECONDS.
local function repeats(fn)
  local t0 = os.clock()
  fn()
  local once = math.max(os.clock() - t0, 1e-6)
  return math.max(1, math.floor(PASS_SECONDS / once + 0.5))
end

-- Per row, the seconds per query of every pass; the rows take turns.
local function measure(rows, nqueries)
  local times = {}
  for i, row in ipairs(rows) do
    row.rounds = repeats(row.fn)   -- also the warm-up: scratch made, loops compiled
    times[i] = {}
  end
  for p = 1, PASSES do
    for k = 0, #rows - 1 do   -- each pass starts one row later: no row always follows the same one
      local i = (p + k) % #rows + 1
      local row = rows[i]
      local t0 = os.clock()
      for _ = 1, row.rounds do row.fn() end
      times[i][p] = (os.clock() - t0) / (row.rounds * nqueries)
    end
  end
  return times
end

for _, backend in ipairs({ { "C", "astar.core" }, { "fallback", "astar.pure" } }) do
  local astar = require(backend[2])
  local grid, queries = board(astar)
  local rows = {}
  for _, row in ipairs({ { "findPath", find_all(grid, queries) },
    { "newSearch+step+result", stepped_all(grid, queries) },
    { "restart+step+result", restarted_all(grid, queries) } }) do
    if row[2] then rows[#rows + 1] = { name = row[1], fn = row[2] } end
  end
  local times = measure(rows, #queries)
  for i, row in ipairs(rows) do
    local ratios = {}
    for p = 1, PASSES do ratios[p] = times[i][p] / times[1][p] end
    local copy = {}   -- median sorts its list: times[1] pairs with the next rows
    for p = 1, PASSES do copy[p] = times[i][p] end
    local per = median(copy)
    print(("%-8s %-22s %10.1f %7.3fx"):format(backend[1], row.name, per * 1e6, median(ratios)))
  end
  collectgarbage()
end
