-- make bench-moves (issue 19): queries on a grid with moves and links against
-- the same queries on the same grid without them. CPU time (os.clock),
-- medians of 5 passes (bench/timing.lua).
--
-- The board is AR0011SR (Moving AI, 512x512; N. Sturtevant, "Benchmarks for
-- Grid-Based Pathfinding", 2012) with its scenarios. "moves" overrides 1% of
-- the board's moves (cells x 8 directions), seeded: half made impossible (one
-- way), half priced at twice their default (uphill); "links" adds 100
-- two-way links (cost 10) between random open cells; "both" has the two.
-- Rows:
--   findPath 8-dir / 4-dir  the scenarios' queries (the plain board runs jump
--                           point search where it applies, "plain A*" forces
--                           A*: the algorithm the others run)
--   movementRange           move 40 from 50 open cells, 4 directions
--   distanceMap             one source, the whole board, 8 directions
-- Each row is the time per query, then the ratio against the plain board.
--
-- Usage: lua bench/moves_bench.lua [maps dir]
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
local tactics = require "astar.tactics"
local scen = require "scen"
local time = require("timing").time

local dir = arg and arg[1] or "maps"
local MAP = dir .. "/AR0011SR.map"
local QUERIES, STARTS = 200, 50

local rng = require("rng").lcg

local DX = { 1, -1, 0, 0, 1, -1, 1, -1 }
local DY = { 0, 0, 1, -1, 1, 1, -1, -1 }

local function load()
  return astar.fromMovingAI(scen.read_all(MAP))
end

local function open_cell(grid, rand)
  local w, h = grid:getDimensions()
  while true do
    local x, y = rand(w), rand(h)
    if grid:isWalkable(x, y) then return x, y end
  end
end

local function add_moves(grid)
  local w, h = grid:getDimensions()
  local rand = rng(19)
  local n = math.floor(w * h * 8 / 100)
  for _ = 1, n do
    local x, y, d = rand(w), rand(h), rand(8)
    local tx, ty = x + DX[d], y + DY[d]
    if tx >= 1 and ty >= 1 and tx <= w and ty <= h then
      grid:setMove(x, y, tx, ty, rand(2) == 1 and false or (d > 4 and 2 * math.sqrt(2) or 2))
    end
  end
  return n
end

local function add_links(grid)
  local rand = rng(23)
  for _ = 1, 100 do
    local x1, y1 = open_cell(grid, rand)
    local x2, y2 = open_cell(grid, rand)
    if x1 ~= x2 or y1 ~= y2 then grid:link(x1, y1, x2, y2, 10) end
  end
end

local boards = { { "plain" }, { "moves" }, { "links" }, { "both" } }
for _, b in ipairs(boards) do
  b.grid = load()
  if b[1] == "moves" or b[1] == "both" then add_moves(b.grid) end
  if b[1] == "links" or b[1] == "both" then add_links(b.grid) end
end

local all = scen.read_scenarios(MAP .. ".scen")
local queries = {}
for i = 1, QUERIES do queries[i] = all[math.floor((i - 1) * #all / QUERIES) + 1] end
local starts = {}
do
  local rand = rng(5)
  for i = 1, STARTS do starts[i] = { open_cell(boards[1].grid, rand) } end
end

local function paths(grid, opts)
  return function()
    for _, q in ipairs(queries) do grid:findPath(q.sx + 1, q.sy + 1, q.gx + 1, q.gy + 1, opts) end
  end
end

local function ranges(grid)
  return function()
    for _, s in ipairs(starts) do tactics.movementRange(grid, s[1], s[2], 40) end
  end
end

local function maps(grid)
  return function() grid:distanceMap({ { x = starts[1][1], y = starts[1][2] } }) end
end

local function rows(label, n, make, extra)
  local base
  for _, b in ipairs(boards) do
    local t = time(make(b.grid)) / n
    base = base or t
    print(("  %-28s %-6s %10.2f us %7.2fx"):format(label, b[1], t * 1e6, t / base))
  end
  if extra then
    local t = time(make(boards[1].grid, true)) / n
    print(("  %-28s %-6s %10.2f us %7.2fx"):format(label, extra, t * 1e6, t / base))
  end
end

print(("%s, AR0011SR 512x512: %d moves overridden (1%%), 100 links"):format(
  jit and jit.version or _VERSION, math.floor(512 * 512 * 8 / 100)))
rows("findPath 8-dir", #queries, function(g, astar_only)
  return paths(g, astar_only and { algorithm = "astar" } or nil)
end, "plain A*")
rows("findPath 4-dir", #queries, function(g, astar_only)
  return paths(g, { diagonal = "never", algorithm = astar_only and "astar" or nil })
end, "plain A*")
rows("movementRange move 40", #starts, ranges)
rows("distanceMap whole board", 1, maps)
