-- make bench-smooth (issue 20): findPath with opts.smooth against the same
-- query without it. CPU time (os.clock), the median of PASSES passes over
-- the queries (bench/timing.lua); each mode's ratio is against the plain
-- query timed in the same run.
--
-- The board is AR0011SR (Moving AI, 512x512; N. Sturtevant, "Benchmarks for
-- Grid-Based Pathfinding", 2012), every 10th of its scenarios, 8 directions
-- ("no-obstacles"), algorithm "auto", flat paths into a reused table (as a
-- game would ask). Rows:
--   uniform   the map as it is: plain findPath runs jump point search;
--             "corners" and "sight" post-process its walk, "theta" searches
--             (Theta*, over A*: the "A*" row forces A* on the plain query)
--   costs     the same map with about 30% of its open cells in patches of
--             cost 2 to 4 (seeded, bench/patches.lua): plain findPath runs
--             jump point search with costs (issue 22), "A*" forces A*
-- Columns: time per query and its ratio to plain; the total of the returned
-- costs; the mean % that cost saves against the grid path (per query); the
-- mean length of the polyline in cells and its saving; mean waypoints.
--
-- Usage: lua bench/smooth_bench.lua [maps dir]   (PASSES=n, STRIDE=n)
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
local scen = require "scen"
local time = require("timing").time
local patches = require "patches"

local MAP, queries, STRIDE, PASSES = scen.strided("AR0011SR", 10)
local MODES = { "plain", "corners", "sight", "theta", "A*" }

-- "A*": the plain query with algorithm "astar", the search theta builds on.
local function options(mode)
  local plain = mode == "plain" or mode == "A*"
  return { diagonal = "no-obstacles", flat = true, into = {},
           smooth = not plain and mode or nil, algorithm = mode == "A*" and "astar" or nil }
end

-- The polyline's length in cells (centre to centre).
local function length(flat)
  local sum = 0
  for i = 3, #flat, 2 do
    local dx, dy = flat[i] - flat[i - 2], flat[i + 1] - flat[i - 1]
    sum = sum + math.sqrt(dx * dx + dy * dy)
  end
  return sum
end

-- Per mode: total cost, mean % saved in cost and in length against the grid
-- path, mean waypoints (one untimed pass).
local function measure(grid)
  local out, grid_cost, grid_len = {}, {}, {}
  for _, mode in ipairs(MODES) do
    local o = { total = 0, saved = 0, len_saved = 0, len = 0, points = 0 }
    for i, q in ipairs(queries) do
      local path, cost = grid:findPath(q.sx + 1, q.sy + 1, q.gx + 1, q.gy + 1, options(mode))
      assert(path, "no path for scenario " .. i)
      local len = length(path)
      if mode == "plain" then grid_cost[i], grid_len[i] = cost, len end
      o.total, o.len, o.points = o.total + cost, o.len + len, o.points + #path / 2
      if grid_cost[i] > 0 then
        o.saved = o.saved + 100 * (1 - cost / grid_cost[i])
        o.len_saved = o.len_saved + 100 * (1 - len / grid_len[i])
      end
    end
    out[mode] = o
  end
  return out
end

local function rows(label, grid, skip)
  local stats, base = measure(grid), nil
  for _, mode in ipairs(MODES) do
    if mode == skip then break end
    local t = time(scen.find_all(grid, queries, options(mode)), PASSES) / #queries
    base = base or t
    local s, n = stats[mode], #queries
    print(("  %-8s %-8s %9.1f us %6.2fx %13.1f %7.2f%% %9.1f %7.2f%% %8.1f"):format(
      label, mode, t * 1e6, t / base, s.total, s.saved / n, s.len / n, s.len_saved / n,
      s.points / n))
  end
end

local uniform = astar.fromMovingAI(scen.read_all(MAP))
local costs = astar.fromMovingAI(scen.read_all(MAP))
local share = patches.add(costs, 0.3, 20)
print(("%s, AR0011SR 512x512, %d scenarios (every %dth), median of %d passes; "
  .. "costs: %.1f%% of open cells cost 2-4"):format(jit and jit.version or _VERSION,
  #queries, STRIDE, PASSES, share * 100))
print(("  %-8s %-8s %12s %7s %13s %8s %9s %8s %8s"):format("map", "smooth", "time/query",
  "ratio", "cost total", "saved", "length", "saved", "points"))
rows("uniform", uniform)
rows("costs", costs)
