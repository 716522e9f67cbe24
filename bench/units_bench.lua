-- make bench-units (issue 12): a board full of units, CPU time (os.clock),
-- medians of 5 passes, on a 64x64 cut of den312d and on AR0011SR (Moving AI
-- maps, N. Sturtevant, "Benchmarks for Grid-Based Pathfinding", 2012).
--
--   rule/toggle   findPath around 20 units given as opts.blocked (a list of
--                 points, and a table by cell number) against the workaround
--                 it replaces: wall the 20 cells, findPath, open them again
--   near/cells    one findPath with near = 1 to a unit against a findPath to
--                 each of its open neighbours, keeping the cheapest
--   goals/each    one findPath to a list of 5 goals against 5 findPath calls,
--                 on the bare board and around the 20 units
--   plain         findPath with no rule, for scale
-- Every pair is checked to give the same costs before anything is timed.
--
-- Usage: lua bench/units_bench.lua [maps dir]
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
local scen = require "scen"

local time = require("timing").time

local dir = arg and arg[1] or "maps"
local UNITS, QUERIES = 20, 200

-- a small deterministic generator (the same board on every Lua)
local rng = require("rng").lcg

local function cutOf(whole, w, h, x0, y0)
  local g = astar.new(w, h)
  for y = 1, h do
    for x = 1, w do g:setWalkable(x, y, whole:isWalkable(x + x0 - 1, y + y0 - 1)) end
  end
  return g
end

-- Units on open cells, queries between open cells that are not units.
local function board(grid, seed)
  local w, h = grid:getDimensions()
  local rand = rng(seed)
  local function openCell(taken)
    while true do
      local x, y = rand(w), rand(h)
      if grid:isWalkable(x, y) and not taken[(y - 1) * w + x] then return x, y end
    end
  end
  local units, taken = {}, {}
  for i = 1, UNITS do
    local x, y = openCell(taken)
    units[i] = { x = x, y = y }
    taken[(y - 1) * w + x] = true
  end
  local queries = {}
  for i = 1, QUERIES do
    local sx, sy = openCell(taken)
    local gx, gy = openCell(taken)
    local goals = {}
    for k = 1, 5 do
      local x, y = openCell(taken)
      goals[k] = { x = x, y = y }
    end
    queries[i] = { sx = sx, sy = sy, gx = gx, gy = gy, unit = units[(i - 1) % UNITS + 1],
      goals = goals }
  end
  return units, taken, queries
end

local function close(a, b) return a == b or (a and b and math.abs(a - b) <= 1e-9 * math.max(1, a)) end

local function row(label, t, n, base)
  print(("  %-38s %9.2f us/query %s"):format(label, t / n * 1e6,
    base and ("%6.2fx"):format(base / t) or ""))
end

local function run(name, grid)
  local units, taken, queries = board(grid, 7)
  local n = #queries
  local asList = { blocked = units }
  local asTable = { blocked = taken }
  local function toggled(q)
    for _, u in ipairs(units) do grid:setWalkable(u.x, u.y, false) end
    local _, cost = grid:findPath(q.sx, q.sy, q.gx, q.gy)
    for _, u in ipairs(units) do grid:setWalkable(u.x, u.y, true) end
    return cost
  end
  local function eachNeighbour(q)
    local best
    local u = q.unit
    for _, d in ipairs({ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } }) do
      local x, y = u.x + d[1], u.y + d[2]
      local w, h = grid:getDimensions()
      if x >= 1 and y >= 1 and x <= w and y <= h and not taken[(y - 1) * w + x] then
        local _, c = grid:findPath(q.sx, q.sy, x, y, asList)
        if type(c) == "number" and (not best or c < best) then best = c end
      end
    end
    return best
  end
  local function eachGoal(q, opts)
    local best
    for _, goal in ipairs(q.goals) do
      local _, c = grid:findPath(q.sx, q.sy, goal.x, goal.y, opts)
      if type(c) == "number" and (not best or c < best) then best = c end
    end
    return best
  end
  -- the same answers first
  for _, q in ipairs(queries) do
    local _, a = grid:findPath(q.sx, q.sy, q.gx, q.gy, asList)
    local _, b = grid:findPath(q.sx, q.sy, q.gx, q.gy, asTable)
    local c = toggled(q)
    assert(close(type(a) == "number" and a, type(c) == "number" and c) and close(a, b)
      or (type(a) ~= "number" and type(c) ~= "number"), "blocked rule and toggled walls disagree")
    local _, d = grid:findPath(q.sx, q.sy, q.unit.x, q.unit.y, { blocked = units, near = 1 })
    assert(close(type(d) == "number" and d or nil, eachNeighbour(q)), "near disagrees")
    local _, e = grid:findPath(q.sx, q.sy, q.goals)
    assert(close(type(e) == "number" and e or nil, eachGoal(q)), "goal list disagrees")
    _, e = grid:findPath(q.sx, q.sy, q.goals, asList)
    assert(close(type(e) == "number" and e or nil, eachGoal(q, asList)), "goal list disagrees")
  end
  print(("%s (%dx%d, %d units, %d queries, %s)"):format(name, grid:getWidth(), grid:getHeight(),
    UNITS, n, _VERSION .. (jit and " / " .. jit.version or "")))
  local plain = time(function() for _, q in ipairs(queries) do grid:findPath(q.sx, q.sy, q.gx, q.gy) end end)
  local toggle = time(function() for _, q in ipairs(queries) do toggled(q) end end)
  local list = time(function()
    for _, q in ipairs(queries) do grid:findPath(q.sx, q.sy, q.gx, q.gy, asList) end
  end)
  local tbl = time(function()
    for _, q in ipairs(queries) do grid:findPath(q.sx, q.sy, q.gx, q.gy, asTable) end
  end)
  row("plain findPath (no units)", plain, n)
  row("toggle 20 walls + findPath", toggle, n)
  row("blocked = list of 20 points", list, n, toggle)
  row("blocked = table by cell number", tbl, n, toggle)
  local cells = time(function() for _, q in ipairs(queries) do eachNeighbour(q) end end)
  local near = time(function()
    local opts = { blocked = units, near = 1 }
    for _, q in ipairs(queries) do grid:findPath(q.sx, q.sy, q.unit.x, q.unit.y, opts) end
  end)
  row("findPath to each neighbour of a unit", cells, n)
  row("near = 1", near, n, cells)
  local each = time(function() for _, q in ipairs(queries) do eachGoal(q) end end)
  local goals = time(function() for _, q in ipairs(queries) do grid:findPath(q.sx, q.sy, q.goals) end end)
  row("5 findPath calls, keep the cheapest", each, n)
  row("one findPath to a list of 5 goals", goals, n, each)
  -- with the units on the board, as a game has them
  local eachRuled = time(function() for _, q in ipairs(queries) do eachGoal(q, asList) end end)
  local goalsRuled = time(function()
    for _, q in ipairs(queries) do grid:findPath(q.sx, q.sy, q.goals, asList) end
  end)
  row("the same 5 calls around 20 units", eachRuled, n)
  row("one call to 5 goals around 20 units", goalsRuled, n, eachRuled)
end

local function load(file)
  return astar.fromMovingAI(scen.read_all(dir .. "/" .. file))
end

run("den312d 64x64 cut", cutOf(load("den312d.map"), 64, 64, 1, 9))
run("AR0011SR", load("AR0011SR.map"))
