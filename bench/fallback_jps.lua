-- Issue 23's acceptance: the pure-Lua fallback's findPath with the default
-- "auto" (jump point search on a uniform-cost map) on AR0011SR, 30 scenarios
-- evenly spread over its scenario file, one run; and A* on the same queries
-- in the same run. Every path is checked step by step under the no-corner-
-- cutting rule and its cost against the .scen optimum (1e-6). Runs on Lua
-- 5.1/LuaJIT and 5.4:
--
--   LUA_PATH="lua/?.lua;lua/?/init.lua;bench/?.lua;;" luajit bench/fallback_jps.lua [maps dir] [count]
local P = require "astar.pure"
local scen = require "scen"

local dir = arg and arg[1] or "maps"
local count = tonumber(arg and arg[2]) or 30
local SQRT2 = math.sqrt(2)

local grid = P.fromMovingAI(scen.read_all(dir .. "/AR0011SR.map"))
local all = scen.read_scenarios(dir .. "/AR0011SR.map.scen")
local list = {}
for i, k in ipairs(scen.spread(#all, count)) do list[i] = all[k] end

-- The cost of walking path (8 directions, no corner cutting), or an error.
local function walk(path, sc)
  local first, last = path[1], path[#path]
  assert(first.x == sc.sx + 1 and first.y == sc.sy + 1 and last.x == sc.gx + 1
    and last.y == sc.gy + 1, "the path does not join the scenario's ends")
  local total = 0
  for i = 2, #path do
    local a, b = path[i - 1], path[i]
    local dx, dy = b.x - a.x, b.y - a.y
    assert(math.abs(dx) <= 1 and math.abs(dy) <= 1 and dx * dx + dy * dy > 0, "not a move")
    assert(grid:isWalkable(b.x, b.y), "enters a wall")
    if dx ~= 0 and dy ~= 0 then
      assert(grid:isWalkable(a.x + dx, a.y) and grid:isWalkable(a.x, a.y + dy), "cuts a corner")
      total = total + SQRT2
    else
      total = total + 1
    end
  end
  return total
end

-- One run of every query with opts; ms per query and the expansions per query.
local function run(opts)
  local paths, costs, expanded = {}, {}, 0
  local t0 = os.clock()
  for k, sc in ipairs(list) do
    paths[k], costs[k] = grid:findPath(sc.sx + 1, sc.sy + 1, sc.gx + 1, sc.gy + 1, opts)
    expanded = expanded + grid:getSearchStats().expanded
  end
  local ms = (os.clock() - t0) * 1e3 / #list
  for k, sc in ipairs(list) do
    assert(paths[k], "scenario " .. k .. ": " .. tostring(costs[k]))
    local walked = walk(paths[k], sc)
    assert(math.abs(walked - costs[k]) < 1e-9 * math.max(1, walked), "cost is not the walk's")
    assert(math.abs(costs[k] - sc.optimal) <= 1e-6 * math.max(1, sc.optimal),
      ("scenario %d: cost %.8f, optimal %.8f"):format(k, costs[k], sc.optimal))
  end
  return ms, expanded / #list
end

local engine = jit and jit.version or _VERSION
grid:findPath(1, 1, 1, 1)   -- the scratch arrays, made once
local auto_ms, auto_expanded = run(nil)
local astar_ms, astar_expanded = run({ algorithm = "astar" })
print(("%s, AR0011SR, %d queries, one run: auto (jps) %.3f ms a query, %.0f expanded; "
  .. "A* %.3f ms, %.0f expanded; every path optimal"):format(engine, #list, auto_ms,
  auto_expanded, astar_ms, astar_expanded))
