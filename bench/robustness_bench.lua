-- make bench-robustness (issue 10): what the ownership rules and the pooled
-- search scratch cost, on one Lua, CPU time (os.clock), medians of 5 passes.
--
--   search/findPath  grid:newSearch + step(math.huge) + result, dropped, against
--                    grid:findPath, over the same Moving AI scenarios of a map
--                    (Sturtevant 2012) with the default algorithm (JPS there)
--   setCost          every cost of a 512x512 grid rewritten twice, rising then
--                    falling values, in scan order: ns per call
--   queries          ranges with a callback, and grids dropped in a loop with no
--                    collectgarbage call (peak RSS is tests/rss.lua's job)
--
-- Usage: lua bench/robustness_bench.lua [maps dir] [map name]
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
require "astar.tactics"
local scen = require "scen"

local dir = arg and arg[1] or "maps"
local name = arg and arg[2] or "AR0011SR"
local PASSES = 5

local function median(list)
  table.sort(list)
  return list[math.floor((#list + 1) / 2)]
end

-- The median CPU time of fn() over PASSES passes.
local function time(fn)
  local times = {}
  for p = 1, PASSES do
    local t0 = os.clock()
    fn()
    times[p] = os.clock() - t0
  end
  return median(times)
end

local grid = astar.fromMovingAI(scen.read_all(dir .. "/" .. name .. ".map"))
local all = scen.read_scenarios(dir .. "/" .. name .. ".map.scen")
local queries = {}
for i = 1, #all, math.max(1, math.floor(#all / 400)) do
  local q = all[i]
  queries[#queries + 1] = { q.sx + 1, q.sy + 1, q.gx + 1, q.gy + 1 }
end

-- Both forms must give the same costs before anything is timed.
for _, q in ipairs(queries) do
  local _, cost = grid:findPath(q[1], q[2], q[3], q[4])
  local s = grid:newSearch(q[1], q[2], q[3], q[4])
  s:step(math.huge)
  local _, scost = s:result()
  assert(cost == scost, "newSearch and findPath disagree")
end

local function find_all()
  for _, q in ipairs(queries) do grid:findPath(q[1], q[2], q[3], q[4]) end
end
local function search_all()
  for _, q in ipairs(queries) do
    local s = grid:newSearch(q[1], q[2], q[3], q[4])
    s:step(math.huge)
    s:result()
  end
end
find_all()
search_all()
local tf, ts = time(find_all), time(search_all)
local n = #queries
print(("%-34s %10s %10s %8s"):format(name .. " (" .. n .. " queries)", "us/query", "", "ratio"))
print(("%-34s %10.2f"):format("findPath", tf / n * 1e6))
print(("%-34s %10.2f %10s %8.3f"):format("newSearch+step+result", ts / n * 1e6, "", ts / tf))

-- setCost: 2 * 512 * 512 writes per pass, rising then falling.
local big = astar.new(512, 512)
local function rewrite(base)
  for y = 1, 512 do
    for x = 1, 512 do big:setCost(x, y, base + (y - 1) * 512 + x) end
  end
  for y = 1, 512 do
    for x = 1, 512 do big:setCost(x, y, base + 1e6 - (y - 1) * 512 - x) end
  end
end
local round = 0
local tc = time(function() round = round + 1; rewrite(round * 2e6) end)
print(("%-34s %10.1f ns/call"):format("setCost 512x512 rising+falling", tc / (2 * 512 * 512) * 1e9))
local fp = big:findPath(1, 1, 512, 512)
assert(fp, "the rewritten grid still searches")

-- movementRange with a cost callback (the lent scratch and the callback checks).
local function ranges()
  for i = 1, 200 do
    grid:movementRange(200 + i % 50, 200, 12, { cost = function() return 1 end })
  end
end
local tr = time(ranges)
print(("%-34s %10.2f us/query"):format("movementRange 12, cost callback", tr / 200 * 1e6))

-- grids created and dropped with no explicit collection
local tg = time(function()
  for _ = 1, 200 do
    local g = astar.new(256, 256)
    g:setCost(1, 1, 2)
  end
end)
print(("%-34s %10.2f us/grid"):format("new(256,256) + setCost, dropped", tg / 200 * 1e6))
