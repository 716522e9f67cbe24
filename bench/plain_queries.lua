-- Queries that use no rule, goal list, budget or size, for comparing two builds
-- of the module (a change must not slow them). CPU time, best of PASSES; or,
-- repeatable whatever the machine's load, instruction counts under callgrind
-- one row at a time (subtract a run with ROW=none, which only sets up):
--   PASSES=1 NQ=40 ROW="astar flat" valgrind --tool=callgrind lua5.4 bench/plain_queries.lua
-- tools/compare-instructions.sh BASE does that for every row (make bench-instructions).
-- Maps: AR0011SR from maps/ (Sturtevant 2012), a 64x64 board and a 64x64 hex board
-- with costs.
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
require "astar.tactics"
local scen = require "scen"

local PASSES = tonumber(os.getenv("PASSES") or "5")
local NQ = tonumber(os.getenv("NQ") or "200")
local ROW = os.getenv("ROW")

local grid = astar.fromMovingAI(scen.read_all("maps/AR0011SR.map"))
local list = scen.read_scenarios("maps/AR0011SR.map.scen")
local queries = {}
for i = 1, #list, math.max(1, math.floor(#list / NQ)) do queries[#queries + 1] = list[i] end

local small = astar.new(64, 64)
for y = 1, 64 do
  for x = 1, 64 do
    if (x * 7 + y * 13) % 11 == 0 then
      small:setWalkable(x, y, false)
    elseif (x + y) % 5 == 0 then
      small:setCost(x, y, 3)
    end
  end
end

local sum = 0   -- every answer is used, so nothing is optimised away
local function use(cost) sum = sum + (tonumber(cost) or 0) end

local function best_time(fn)
  local best = math.huge
  for _ = 1, PASSES do
    local t = os.clock()
    fn()
    t = os.clock() - t
    if t < best then best = t end
  end
  return best
end

local function row(name, fn)
  if ROW and not name:find(ROW, 1, true) then return end
  print(("%-36s %10.2f us/query"):format(name, best_time(fn) * 1e6 / #queries))
end

-- findPath over the AR0011SR scenarios (1-based cells) with opts.
local function scenarios(opts)
  return function()
    for _, s in ipairs(queries) do
      local _, cost = grid:findPath(s.sx + 1, s.sy + 1, s.gx + 1, s.gy + 1, opts)
      use(cost)
    end
  end
end

row("AR0011SR findPath auto (jps)", scenarios { diagonal = "no-obstacles" })
row("AR0011SR findPath auto flat", scenarios { diagonal = "no-obstacles", flat = true })
row("AR0011SR findPath astar flat",
  scenarios { diagonal = "no-obstacles", algorithm = "astar", flat = true })
row("AR0011SR findPath astar 4-dir flat",
  scenarios { diagonal = "never", algorithm = "astar", flat = true })
row("64x64 costs findPath astar", function()
  for i = 1, #queries do
    local _, cost = small:findPath(2, 2 + i % 50, 60, 60 - i % 40, { flat = true })
    use(cost)
  end
end)
row("64x64 movementRange 10", function()
  for i = 1, #queries do
    use(small:movementRange(20 + i % 20, 20 + i % 17, 10) and 1 or 0)   -- any build
  end
end)
row("AR0011SR newSearch+step+result", function()
  for _, s in ipairs(queries) do
    local search = grid:newSearch(s.sx + 1, s.sy + 1, s.gx + 1, s.gy + 1,
      { diagonal = "no-obstacles", flat = true })
    search:step(math.huge)
    local _, cost = search:result()
    use(cost)
  end
end)
local hex = astar.newHex(64, 64, "odd-r")
for y = 1, 64 do
  for x = 1, 64 do
    if (x * 5 + y * 11) % 13 == 0 then
      hex:setWalkable(x, y, false)
    elseif (x + 2 * y) % 7 == 0 then
      hex:setCost(x, y, 2)
    end
  end
end
row("64x64 hex costs findPath", function()
  for i = 1, #queries do
    local _, cost = hex:findPath(2, 2 + i % 50, 60, 60 - i % 40, { flat = true })
    use(cost)
  end
end)
row("AR0011SR findPath size 2 astar", function()
  for _, s in ipairs(queries) do
    local _, cost = grid:findPath(s.sx + 1, s.sy + 1, s.gx + 1, s.gy + 1,
      { diagonal = "no-obstacles", algorithm = "astar", size = 2, flat = true })
    use(cost)
  end
end)
-- distance maps from the goals of every eighth scenario
local function maps(diagonal)
  return function()
    for i = 1, #queries, 8 do
      local s = queries[i]
      local map = grid:distanceMap({ { x = s.gx + 1, y = s.gy + 1 } }, { diagonal = diagonal })
      use(map:get(s.sx + 1, s.sy + 1))
    end
  end
end
row("AR0011SR distanceMap 8-dir", maps("no-obstacles"))
row("AR0011SR distanceMap 4-dir", maps("never"))
row("64x64 costs distanceMap 8-dir", function()
  for i = 1, #queries, 4 do
    local map = small:distanceMap({ { x = 2, y = 2 + i % 50 }, { x = 60, y = 60 - i % 40 } },
      { diagonal = "one-obstacle" })
    use(map:get(30, 30))
  end
end)
row("64x64 hex distanceMap", function()
  for i = 1, #queries, 4 do
    local map = hex:distanceMap({ { x = 2, y = 2 + i % 50 } })
    use(map:get(60, 60 - i % 40))
  end
end)
row("64x64 movementRange 8-dir", function()
  for i = 1, #queries do
    use(small:movementRange(20 + i % 20, 20 + i % 17, 10, { diagonal = "no-obstacles" }):size())
  end
end)
row("64x64 hex movementRange", function()
  for i = 1, #queries do
    use(hex:movementRange(20 + i % 20, 20 + i % 17, 8):size())
  end
end)
row("64x64 movementRange size 2", function()
  for i = 1, #queries do
    use(small:movementRange(20 + i % 20, 20 + i % 17, 10, { size = 2 }):size())
  end
end)
io.stderr:write(("checksum %.6f\n"):format(sum))
