-- make bench-path-table (issue 22): what the default path form, a new
-- {x =, y =} table per cell, costs against the flat form on the same queries
-- in one run. AR0011SR (512x512, open), 200 scenarios spread over its .scen
-- file, 8 directions ("no-obstacles"), the default algorithm (JPS), where the
-- search is short and the path table is most of findPath's time.
--
-- Each pass runs every query once; the passes follow one another without
-- collectgarbage, so the collector's work on the tables a pass leaves behind
-- is paid by the passes (steady state), as in a game loop. Rows:
--   table            findPath(...)                      a new path of new points
--   flat             findPath(..., {flat = true})       a new flat array
--   flat into        {flat = true, into = buf}          one buf reused by every query
--   table into       {into = buf}                       buf and its points reused
--   Lua {x=,y=} alone  no search: Lua code making as many {x =, y =} tables as
--                    the query's path has cells (Lua's own cost of the points)
--   distance pathFrom  a distance map from the goal, pathFrom(start) (table, flat)
--   range pathTo       a movementRange from the start, pathTo(goal) (table, flat)
-- Columns: µs per query (CPU time, the median of PASSES passes) and the ratio
-- to the flat-into row of the same source (findPath) or to the flat row
-- (pathFrom, pathTo). The issue's target: table within 1.5x of flat into.
--
-- Usage: lua bench/path_table_bench.lua [MAPS_DIR]   (PASSES=n)
package.path = "bench/?.lua;" .. package.path
local scen = require "scen"
local time = require("timing").time
local astar = require "astar"

local PASSES = tonumber(os.getenv("PASSES")) or 7
local QUERIES = 200
local dir = arg[1] or "maps"
local map_path = dir .. "/AR0011SR.map"

local grid = astar.fromMovingAI(scen.read_all(map_path))
grid:setDiagonal("no-obstacles")
local all = scen.read_scenarios(map_path .. ".scen")
local queries = {}
for i, k in ipairs(scen.spread(#all, QUERIES)) do
  local s = all[k]
  queries[i] = {s.sx + 1, s.sy + 1, s.gx + 1, s.gy + 1}
end

local cells = 0
for _, q in ipairs(queries) do
  q.length = #grid:findPath(q[1], q[2], q[3], q[4])
  cells = cells + q.length
end

-- Lua's floor: the same number of {x =, y =} tables as the query's path,
-- made by Lua code, with no search (what a new table per cell costs).
local function lua_points(q)
  local t = {}
  for i = 1, q.length do t[i] = {x = i, y = i} end
  return t
end

-- µs per query of query(q) over every query, median of PASSES passes.
local function per_query(query)
  for _, q in ipairs(queries) do query(q) end     -- warm-up (LuaJIT traces)
  return time(function()
    for _, q in ipairs(queries) do query(q) end
  end, PASSES) / #queries * 1e6
end

local buf_flat, buf_table = {}, {}
local FLAT, FLAT_INTO, TABLE_INTO = {flat = true}, {flat = true, into = buf_flat},
  {into = buf_table}

local rows = {
  {"findPath table", function(q) return grid:findPath(q[1], q[2], q[3], q[4]) end},
  {"findPath flat", function(q) return grid:findPath(q[1], q[2], q[3], q[4], FLAT) end},
  {"findPath flat into", function(q) return grid:findPath(q[1], q[2], q[3], q[4], FLAT_INTO) end,
    base = true},
  {"findPath table into", function(q) return grid:findPath(q[1], q[2], q[3], q[4], TABLE_INTO) end},
  {"Lua {x=,y=} alone", lua_points},
}

-- pathFrom and pathTo: the map and the range are made once per query, untimed
-- apart from the path (the ratio is what the path form costs).
local maps, ranges = {}, {}
for i, q in ipairs(queries) do
  if i % 10 == 5 then   -- 20 of them, spread over the lengths
    maps[i] = grid:distanceMap({{x = q[3], y = q[4]}})
    ranges[i] = grid:movementRange(q[1], q[2], 1e9)
  end
end
local function walk(list, call)
  return function()
    for i, q in ipairs(queries) do
      if list[i] then call(list[i], q) end
    end
  end
end
local sub = {
  {"distance pathFrom table", walk(maps, function(m, q) return m:pathFrom(q[1], q[2]) end)},
  {"distance pathFrom flat", walk(maps, function(m, q) return m:pathFrom(q[1], q[2], FLAT) end),
    base = true},
  {"range pathTo table", walk(ranges, function(r, q) return r:pathTo(q[3], q[4]) end)},
  {"range pathTo flat", walk(ranges, function(r, q) return r:pathTo(q[3], q[4], FLAT) end),
    base = true},
}

print(string.format("%s, AR0011SR, %d queries (%.0f cells per path), JPS, %d passes",
  (jit and jit.version) or _VERSION, #queries, cells / #queries, PASSES))
print(string.format("%-26s %10s %8s", "row", "us/query", "ratio"))
local base
for _, row in ipairs(rows) do
  row.us = per_query(function(q) row[2](q) end)
end
for _, row in ipairs(rows) do
  if row.base then base = row.us end
end
for _, row in ipairs(rows) do
  print(string.format("%-26s %10.2f %8.2f", row[1], row.us, row.us / base))
end
for i = 1, #sub, 2 do
  local t, f = sub[i], sub[i + 1]
  t.us = time(t[2], PASSES) / 20 * 1e6
  f.us = time(f[2], PASSES) / 20 * 1e6
  print(string.format("%-26s %10.2f %8.2f", t[1], t.us, t.us / f.us))
  print(string.format("%-26s %10.2f %8.2f", f[1], f.us, 1))
end
