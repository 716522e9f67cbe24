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
--   edited           step(100) per frame on a grid edited every frame (issue 12):
--                    a far cell each frame, and a cell beside the path, against
--                    the same stepped searches unedited
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

-- A stepped search on a grid edited every frame (issue 12): step(100) per
-- frame over the longest scenarios, against the same search unedited: one
-- far-away cell toggled every frame (not reached: the search goes on), and
-- that plus a cell beside the path, a tenth of the way along, toggled every
-- 10th frame during the first 200 frames (reached: it starts again; a search
-- whose reached cells keep changing faster than it can finish never
-- finishes, so the near edits stop). Each final cost is checked against
-- findPath on the final grid. Default algorithm (JPS here: its first restart
-- makes it A*) and A*.
local STEP = 100
local long = {}
for i = #all, 1, -math.max(1, math.floor(#all / 40)) do
  local q = all[i]
  if #long < 20 then long[#long + 1] = { q.sx + 1, q.sy + 1, q.gx + 1, q.gy + 1 } end
end
local W, H = grid:getDimensions()
for _, q in ipairs(long) do
  -- the walkable cell farthest from both ends (on a coarse lattice)
  local best, bd = nil, -1
  for y = 1, H, 7 do
    for x = 1, W, 7 do
      if grid:isWalkable(x, y) then
        local d = math.min(math.abs(x - q[1]) + math.abs(y - q[2]), math.abs(x - q[3]) + math.abs(y - q[4]))
        if d > bd then best, bd = { x, y }, d end
      end
    end
  end
  q.far = best
  -- a walkable cell beside the path a tenth of the way along, off it
  local path = grid:findPath(q[1], q[2], q[3], q[4])
  local mid = path[math.floor(#path / 10) + 1]
  local on = {}
  for _, p in ipairs(path) do on[p.y * 1e4 + p.x] = true end
  for dy = -1, 1 do
    for dx = -1, 1 do
      local x, y = mid.x + dx, mid.y + dy
      if not q.near and not on[y * 1e4 + x] and grid:isWalkable(x, y) then q.near = { x, y } end
    end
  end
  assert(q.near, "no cell beside the path")
end

-- Runs every long query stepped, editing as `mode` says; returns frames and
-- restarts in total; with `check`, compares each cost with findPath's on the
-- final grid (not timed). The grid ends as it began.
local function stepped(mode, opts, check)
  local frames, restarts = 0, 0
  for _, q in ipairs(long) do
    local s = grid:newSearch(q[1], q[2], q[3], q[4], opts)
    local f = 0
    while s:step(STEP) == "searching" do
      f = f + 1
      if mode ~= "none" then
        grid:setWalkable(q.far[1], q.far[2], f % 2 == 0)
        if mode == "near" and f % 10 == 0 and f <= 200 then
          grid:setWalkable(q.near[1], q.near[2], f % 20 ~= 0)
        end
      end
    end
    local _, cost = s:result()
    if check then
      local _, want = grid:findPath(q[1], q[2], q[3], q[4], opts)
      assert(cost == want or math.abs(cost - want) <= 1e-9 * want, "a stepped search's cost is wrong")
    end
    grid:setWalkable(q.far[1], q.far[2], true)
    grid:setWalkable(q.near[1], q.near[2], true)
    frames, restarts = frames + f + 1, restarts + s:getStats().restarts
  end
  return frames, restarts
end

print(("%-34s %10s %10s %8s %9s"):format("step(" .. STEP .. ") per frame, " .. #long .. " long queries",
  "us/query", "frames", "ratio", "restarts"))
for _, alg in ipairs { "auto", "astar" } do
  local opts = { algorithm = alg }
  local base
  for _, mode in ipairs { "none", "far", "near" } do
    local frames, restarts = stepped(mode, opts, true)
    local t = time(function() stepped(mode, opts) end)
    base = base or t
    print(("%-34s %10.1f %10.1f %8.3f %9.1f"):format(alg .. ", " .. (mode == "none" and "unedited"
      or mode == "far" and "a far cell each frame" or "far + beside the path /10"),
      t / #long * 1e6, frames / #long, t / base, restarts / #long))
  end
end
