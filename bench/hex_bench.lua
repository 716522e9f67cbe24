-- make bench-hex (issue 14, hex boards): A* on a hex board against A* on a
-- square board of the same size and the same walls, CPU time (os.clock),
-- medians of 5 passes. Boards: AR0011SR (Moving AI, 512x512; N. Sturtevant,
-- "Benchmarks for Grid-Based Pathfinding", 2012) read as a hex board of each
-- row layout, and a 256x256 board of random walls (20%) and costs 1..4.
-- The same 200 start/goal pairs on every board (pairs unreachable on one of
-- them are kept: each board answers them its own way). Square queries run A*
-- (algorithm = "astar": jump point search does not apply to hex boards), with
-- 4 directions ("never") and with 8 ("no-obstacles").
--
-- Columns: microseconds per query, expanded nodes per query, nanoseconds per
-- expanded node.
--
-- Usage: lua bench/hex_bench.lua [maps dir]
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
local time = require("timing").time

local dir = arg and arg[1] or "maps"
local QUERIES = 200

local rng = require("rng").park_miller

-- A square and a hex grid with the walls and costs of `fill(x, y)` -> open, cost.
local function boards(w, h, layout, fill)
  local s, x6 = astar.new(w, h), astar.newHex(w, h, layout)
  for y = 1, h do
    for x = 1, w do
      local open, cost = fill(x, y)
      s:setWalkable(x, y, open)
      x6:setWalkable(x, y, open)
      if cost ~= 1 then
        s:setCost(x, y, cost)
        x6:setCost(x, y, cost)
      end
    end
  end
  return s, x6
end

local function pairs_on(grid, seed)
  local w, h = grid:getDimensions()
  local rand = rng(seed)
  local out = {}
  while #out < QUERIES do
    local sx, sy, gx, gy = rand(w), rand(h), rand(w), rand(h)
    if grid:isWalkable(sx, sy) and grid:isWalkable(gx, gy) then
      out[#out + 1] = { sx, sy, gx, gy }
    end
  end
  return out
end

local function run(grid, queries, opts)
  local expanded, found = 0, 0
  local t = time(function()
    expanded, found = 0, 0
    for _, q in ipairs(queries) do
      local path = grid:findPath(q[1], q[2], q[3], q[4], opts)
      if path then found = found + 1 end
      expanded = expanded + grid:getSearchStats().expanded
    end
  end)
  return t, expanded, found
end

local function row(label, t, expanded, found)
  print(("  %-28s %9.1f us/query %9.0f expanded/query %7.1f ns/node  (%d/%d found)"):format(
    label, t / QUERIES * 1e6, expanded / QUERIES, expanded > 0 and t / expanded * 1e9 or 0,
    found, QUERIES))
end

local function case(name, w, h, fill)
  print(("%s (%dx%d), %s, backend %s"):format(name, w, h, _VERSION, astar.backend))
  local square, hex = boards(w, h, "odd-r", fill)
  local queries = pairs_on(square, 42)
  row("square A*, 4 directions", run(square, queries, { algorithm = "astar", diagonal = "never" }))
  row("square A*, 8 (no-obstacles)",
    run(square, queries, { algorithm = "astar", diagonal = "no-obstacles" }))
  row("hex A*, odd-r", run(hex, queries))
  local _, q = boards(w, h, "odd-q", fill)
  row("hex A*, odd-q", run(q, queries))
end

local f = io.open(dir .. "/AR0011SR.map", "rb")
if f then
  local text = f:read("*a")
  f:close()
  local map = astar.fromMovingAI(text)
  local w, h = map:getDimensions()
  case("AR0011SR", w, h, function(x, y) return map:isWalkable(x, y), 1 end)
else
  print("(no " .. dir .. "/AR0011SR.map: skipped)")
end
local rand = rng(7)
case("random walls and costs", 256, 256, function()
  return rand(100) > 20, rand(4)
end)
