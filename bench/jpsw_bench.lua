-- make bench-jpsw (issue 22): jump point search on a weighted grid against A*.
-- CPU time (os.clock), the median of PASSES passes over the queries
-- (bench/timing.lua); the ratio is A*'s time over auto's, in the same run.
--
-- The board is AR0011SR (Moving AI, 512x512; N. Sturtevant, "Benchmarks for
-- Grid-Based Pathfinding", 2012) with about 30% of its open cells in patches
-- of cost 2 to 4 (seed 22, bench/patches.lua), every STRIDE-th scenario, in
-- 8 directions ("no-obstacles") and 4 ("never"), flat paths into a reused
-- table. "auto" is the default (column "auto": what it ran, by the search
-- stats: jump point search with costs where edge cells are few, terrain.h's
-- terrain_pays), "astar" forces A*. SHARE=0.03 gives sparser patches. Every cost is checked against
-- A*'s, equal to the last bit (a path reports S + sqrt2 * D, its straight and
-- diagonal prices summed apart: the same for every cheapest path, issue 22);
-- the columns count the costs equal to the last bit and the largest difference.
--
-- Usage: lua bench/jpsw_bench.lua [maps dir]   (PASSES=n, STRIDE=n)
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
local scen = require "scen"
local time = require("timing").time
local patches = require "patches"

local MAP, queries, STRIDE, PASSES = scen.strided("AR0011SR", 4)

local SHARE = tonumber(os.getenv("SHARE")) or 0.3
local grid = astar.fromMovingAI(scen.read_all(MAP))
local share = patches.add(grid, SHARE, 22)

-- The share of the open cells that are edge cells (terrain.h): a walkable
-- neighbour costs something else.
local function edge_share()
  local w, h = grid:getDimensions()
  local open, edges = 0, 0
  for y = 1, h do
    for x = 1, w do
      if grid:isWalkable(x, y) then
        local c, edge = grid:getCost(x, y), false
        open = open + 1
        for dy = -1, 1 do
          for dx = -1, 1 do
            local nx, ny = x + dx, y + dy
            if nx >= 1 and ny >= 1 and nx <= w and ny <= h and grid:isWalkable(nx, ny)
              and grid:getCost(nx, ny) ~= c then edge = true end
          end
        end
        if edge then edges = edges + 1 end
      end
    end
  end
  return edges / open
end

-- The costs of both, checked to be the same double: {equal bits, largest
-- relative difference}.
local function check(mode)
  local same, worst, ran = 0, 0, nil
  for i, q in ipairs(queries) do
    local a = { diagonal = mode, flat = true }
    local p1, c1 = grid:findPath(q.sx + 1, q.sy + 1, q.gx + 1, q.gy + 1, a)
    ran = grid:getSearchStats().algorithm
    a.algorithm = "astar"
    local p2, c2 = grid:findPath(q.sx + 1, q.sy + 1, q.gx + 1, q.gy + 1, a)
    assert(p1 and p2, "no path for scenario " .. i)
    local diff = math.abs(c1 - c2) / math.max(1, c2)
    if c1 ~= c2 then
      error(("%s scenario %d: auto %.17g, astar %.17g"):format(mode, i, c1, c2))
    end
    same = same + 1
    if diff > worst then worst = diff end
  end
  return same, worst, ran
end

print(("%s, %s backend, AR0011SR 512x512 with %.1f%% of open cells costing 2-4 "
  .. "(%.1f%% edge cells), %d scenarios (every %dth), median of %d passes"):format(
  jit and jit.version or _VERSION, astar.backend or "?", share * 100, edge_share() * 100,
  #queries, STRIDE, PASSES))
print(("  %-13s %-6s %12s %12s %7s %12s %10s"):format("diagonal", "auto", "auto/query",
  "astar/query", "ratio", "bits equal", "worst"))
for _, mode in ipairs { "no-obstacles", "never" } do
  local same, worst, ran = check(mode)
  local auto = time(scen.find_all(grid, queries, { diagonal = mode, flat = true, into = {} }),
    PASSES) / #queries
  local plain = time(scen.find_all(grid, queries,
    { diagonal = mode, flat = true, into = {}, algorithm = "astar" }), PASSES) / #queries
  print(("  %-13s %-6s %9.1f us %9.1f us %6.2fx %7d/%-4d %10.2g"):format(mode, ran, auto * 1e6,
    plain * 1e6, plain / auto, same, #queries, worst))
end
