-- The re-entrancy matrix, part 2 (issue 17; README Robustness, Finalizers):
-- finalizers that run while a call is still reading its options, and around
-- every method of every object (Grid, Search, Range, DistanceMap, the
-- tactics' areas and zones, the module's functions).
--
-- spec/reentrancy_spec.lua arms finalizers around calls with short options;
-- a call that reads a list of thousands of points (rules, goals, sources,
-- tiles, enemies) allocates while it reads, and a finalizer run there may
-- close the grid, change it, update a distance map, make the same call again
-- or raise. Each case here is one entry point x one such disturbance, run in
-- a loop with the collector at its most eager: every round arms finalizers
-- ("bombs") that wait for the call and then count down a few collections
-- (so that they act at one of its allocations, a different one from round to
-- round) before they act. Every outcome must be clean:
--   - the answer the same call gives, without finalizers, on an identical
--     fresh world in a state the world was in during the call (the grid
--     edited or not, the distance map updated or not; for calls whose answer
--     is read after the call, such as a search stepped to its end or a grid
--     written to, the state at the end), or
--   - one of the documented errors: "grid closed during <fname>" or
--     "attempt to use a closed astar.Grid" when the grid was closed, "grid
--     changed during <fname>" when it was edited, the finalizer's own error
--     value where Lua passes it on (LuaJIT and Lua 5.1 raise a finalizer's
--     error from the allocation that ran it; Lua 5.4 turns it into a warning).
-- Afterwards an open grid holds exactly the cells of its state. A re-entered
-- call is held to the same answer as the outer one.
--
-- The loops tagged #slow use lists of LONG points and SLOW_ROUNDS rounds;
-- each case also runs untagged with SHORT points and FEW_ROUNDS rounds, so
-- that valgrind (which skips #slow) still meets every case.
local astar = require "astar"
local tactics = require "astar.tactics"
local F = require "helpers.finalizers"
local stream = require("helpers.tactics_reference").rng   -- numbers in 1..n, the same on every Lua

local unpack = table.unpack or unpack -- luacheck: ignore 143
local pack = table.pack or function(...) return { n = select("#", ...), ... } end
local format = string.format

-- (the pure-Lua backend, many times slower, runs shorter loops: it has no
-- memory to corrupt, only answers and errors to get right)
local PURE = astar.backend == "lua"
local LONG, SLOW_ROUNDS = PURE and 1000 or 3000, PURE and 4 or 10
local SHORT, FEW_ROUNDS = 120, 2
local LIVES = 6   -- a bomb acts at the 1st to LIVES-th collection inside the call

local CLOSED = "attempt to use a closed astar.Grid"
local MARKER = setmetatable({}, { __tostring = function() return "the finalizer's error" end })

-- ---- the world: a board, lists of points, objects made on it ---------------------

local W, H = 32, 32
local GX, GY = 30, 30                 -- findPath's goal
local RX, RY, RMOVE = 16, 8, 9        -- the range the Range methods read
local FX, FY, CX, CY = 12, 3, 4, 5    -- the cells an edit toggles (a wall, a cost)

local function boardText(cell)
  local rows = {}
  for y = 1, H do
    local row = {}
    for x = 1, W do row[x] = cell(x, y) end
    rows[y] = table.concat(row)
  end
  return table.concat(rows, "\n")
end
-- walls every 6th column with gaps, costs 1 to 4
local BOARD = boardText(function(x, y)
  if x % 6 == 0 and y % 8 ~= 3 then return "#" end
  return tostring(1 + (x * 3 + y * 5) % 4)
end)
-- the distance maps' grids: an 8x8 corner open, or every cell
local SMALL = boardText(function(x, y) return (x <= 8 and y <= 8) and "." or "#" end)
local OPEN = boardText(function() return "." end)
local MOVINGAI = "type octile\nheight " .. H .. "\nwidth " .. W .. "\nmap\n"
  .. BOARD:gsub("[1-9]", "."):gsub("#", "@") .. "\n"

-- Toggles the two cells of an edit (a real change each time): a wall, and a
-- cost between the board's and 9.
local BOARD_COST = astar.fromString(BOARD):getCost(CX, CY)
local function edit(grid)
  grid:setWalkable(FX, FY, not grid:isWalkable(FX, FY))
  grid:setCost(CX, CY, grid:getCost(CX, CY) == 9 and BOARD_COST or 9)
end

local ENCODED = { [0] = astar.fromString(BOARD):encode() }
do
  local g = astar.decode(ENCODED[0])
  edit(g)
  ENCODED[1] = g:encode()
end
local SMALL_ENC, OPEN_ENC = astar.fromString(SMALL):encode(), astar.fromString(OPEN):encode()

-- The walk grid:smoothPath reads (issue 20): from (1, 1) to (11, 14), away
-- from the cells an edit toggles, as a table and as a flat array.
local WALK = astar.decode(ENCODED[0]):findPath(1, 1, 11, 14)
local WALK_FLAT = {}
for i, p in ipairs(WALK) do WALK_FLAT[2 * i - 1], WALK_FLAT[2 * i] = p.x, p.y end

-- Moves and links (issue 19): the board of the entries that need them has
-- overrides, thin walls and links, one cell (2, 2) with many links leaving it
-- (getLinks makes a table for each). The backends that do not have them yet
-- skip those entries (pending).
local HAS_MOVES = astar.new(2, 2).setMove ~= nil
local function addMoves(grid)
  grid:setMove(3, 3, 4, 3, false)
  grid:setMove(10, 10, 11, 11, 0.5)
  grid:setMove(20, 20, 20, 21, 7)
  grid:setWallBetween(8, 5, 8, 6, true)
  grid:setWallBetween(15, 15, 16, 15, true)
  grid:link(2, 2, 28, 28, 3)
  grid:link(5, 20, 25, 4, 2, true)
  for i = 1, 40 do
    local x, y = 1 + (i * 7) % W, 1 + (i * 11) % H
    if x ~= 2 or y ~= 2 then grid:link(2, 2, x, y, 1 + i % 5, true) end
  end
end
-- the move rule of the entries' queries: some moves dearer, some impossible
local function moveRule(fx, fy, tx, ty, cost)
  if (fx * 3 + ty * 5 + tx) % 11 == 0 then return false end
  return cost * (1 + (fx + fy + tx) % 3)
end
local MOVES_ENCODED = {}
if HAS_MOVES then
  for state = 0, 1 do
    local g = astar.decode(ENCODED[state])
    addMoves(g)
    MOVES_ENCODED[state] = g:encode()
  end
end

local TILE_IDS = { "grass", "road", "tree", "water", "mud", 17 }
local TILE_RULE = { grass = 1, road = 0.5, mud = 3, water = false, [17] = 2,
  default = false }   -- a tree: no entry, the default: a wall
local function tileRule(id) return TILE_RULE[id] end
local function tiles(side)
  local t = {}
  for y = 1, side do
    t[y] = {}
    for x = 1, side do t[y][x] = TILE_IDS[(x * 5 + y * 3 + x * y) % #TILE_IDS + 1] end
  end
  return t
end
-- The same tiles as a layer: Tiled's (flat gids, the index in TILE_IDS, every
-- third one flipped, mud an empty cell: 0) or STI's (rows of tiles, tables
-- with the gid; nil where empty). GID_RULE says what TILE_RULE says.
local GID_RULE = { [0] = 3, [1] = 1, [2] = 0.5, [4] = false, [6] = 2, default = false }
local function gidRule(id) return GID_RULE[id] end
local function layer(side, sti)
  local data, gids = {}, {}
  for id, name in ipairs(TILE_IDS) do gids[name] = name == "mud" and 0 or id end
  for y, row in ipairs(tiles(side)) do
    if sti then data[y] = {} end
    for x, name in ipairs(row) do
      local gid = gids[name]
      if gid ~= 0 and (x + y) % 3 == 0 then gid = gid + 0x80000000 end
      if sti then
        data[y][x] = gid ~= 0 and { gid = gid, properties = {} } or nil
      else
        data[(y - 1) * side + x] = gid
      end
    end
  end
  return { type = "tilelayer", width = side, height = side, data = data }
end

-- The lists of n points the calls read, made once for each n.
local LISTS = {}
local function lists(n)
  if LISTS[n] then return LISTS[n] end
  local r = stream(n)
  local L = { n = n, block = {}, cost = {}, occupied = {}, zoc = {}, goals = {}, sources = {},
    cells = {}, enemies = {}, into = {}, units = {}, walk = {} }
  -- a few blocked cells around the start, then a sparse field far from it
  for _, p in ipairs({ { 4, 1 }, { 4, 2 }, { 4, 3 }, { 3, 4 }, { 2, 4 }, { 1, 4 } }) do
    L.block[#L.block + 1] = { x = p[1], y = p[2] }
  end
  while #L.block < n do
    local x, y = 17 + r(16), 17 + r(16)
    if x <= W and y <= H and (x * 7 + y * 13) % 3 == 0 and not (x == GX and y == GY) then
      L.block[#L.block + 1] = { x = x, y = y }
    end
  end
  for i = 1, n do
    L.walk[i] = { x = r(8), y = r(8) }   -- cells a map's walk may not enter (on the small grid)
    L.cost[i] = { x = r(W), y = r(H), cost = 1 + i % 4 }
    L.occupied[i] = { x = r(W), y = r(H) }
    L.cells[i] = { x = r(W), y = r(H) }
    if i % 10 == 0 then L.sources[#L.sources + 1] = { x = r(W), y = r(H), value = i % 3 } end
    L.goals[i] = { x = 22 + r(10), y = 20 + r(12) }
    local zx, zy = 8 + r(24), r(H)
    L.zoc[i] = { x = zx, y = (zx + zy) % 5 == 0 and zy or (zy % H) + 1 }
    L.into[i] = i % 3 == 0 and { x = 0, y = 0, keep = i } or (i % 3 == 1 and "junk" or i)
    -- units of sizes 1 to 3 (issue 21), away from the starts, each on the board
    L.units[i] = { x = 6 + r(W - 8), y = 6 + r(H - 8), size = 1 + i % 3 }
  end
  for i = 1, math.max(8, math.floor(n / 30)) do
    L.enemies[i] = { x = r(W), y = r(H), move = 2, minRange = 1, maxRange = 1 + i % 2 }
  end
  L.fewEnemies = { unpack(L.enemies, 1, 4) }
  L.tiles = tiles(math.floor(math.sqrt(n)) + 1)
  L.tiles32 = tiles(W)
  L.layer = layer(math.floor(math.sqrt(n)) + 1)
  L.stiLayer32 = layer(W, true)
  LISTS[n] = L
  return L
end

local function copyList(t)
  local c = {}
  for i = 1, #t do c[i] = t[i] end
  return c
end

-- A world for one round: the grid, and what the entry needs made on it.
local function newWorld(entry, L, withMap)
  local w = { grid = astar.decode(ENCODED[0]), L = L }
  local needs = entry.needs
  if needs.moves then addMoves(w.grid) end
  if needs.searched then w.grid:findPath(2, 2, GX, GY, { algorithm = "astar" }) end
  if needs.range or needs.area then
    w.range = w.grid:movementRange(RX, RY, RMOVE, { cost = lists(SHORT).cost, diagonal = "one-obstacle" })
  end
  if needs.area then w.area = w.grid:attackRange(w.range, 1, 2) end
  if needs.zone then w.zone = w.grid:dangerZone(lists(SHORT).fewEnemies) end
  if needs.search then
    w.search = w.grid:newSearch(2, 2, GX, GY, { cost = lists(SHORT).cost, algorithm = "astar" })
    w.search:step(needs.finished and math.huge or 3)
  end
  if needs.map or withMap then
    w.small, w.open = astar.decode(SMALL_ENC), astar.decode(OPEN_ENC)
    w.map = w.small:distanceMap({ { x = 1, y = 1 }, { x = 5, y = 6, value = 2 } }, { cost = lists(SHORT).cost })
    w.map2 = w.small:distanceMap({ { x = 8, y = 8 } })
    w.mapGrown = false
    -- a build pending (issue 24): new sources, three cells settled
    if needs.building then w.map:setSources({ { x = 3, y = 2 } }, { cells = 3 }) end
  end
  if needs.into then w.into = copyList(L.into) end
  return w
end

-- What the "update a distance map" disturbance does: the map made on the small
-- grid is recomputed on the open one (it grows from 64 cells to 1024), or back.
local function grow(w)
  w.map:update(w.mapGrown and w.small or w.open)
  w.mapGrown = not w.mapGrown
end

-- ---- answers as text ------------------------------------------------------------

local canon
local function finish(s)
  while s:step(math.huge) == "searching" do end
  local r = pack(s:result())
  return canon(r)
end
local VIEWS = {
  ["astar.Grid"] = function(g) return tostring(g) .. " " .. canon(g:encode()) end,
  ["astar.Range"] = function(r) return tostring(r) .. " " .. r:getDiagonal() .. " " .. canon(r:cells()) end,
  ["astar.DistanceMap"] = function(m) return tostring(m) .. " " .. canon(m:encode()) end,
  ["astar.Search"] = finish,
  ["astar.AttackRange"] = function(a) return "area " .. canon(a:cells()) end,
  ["astar.DangerZone"] = function(z) return "zone " .. canon(z:cells()) end,
}

-- A value as text: numbers exactly, tables by sorted keys, the library's
-- objects by what they hold.
function canon(v)
  local t = type(v)
  if t == "number" then return format("%.17g", v) end
  if t == "string" then return format("%q", v) end
  if t ~= "table" and t ~= "userdata" then return tostring(v) end
  local mt = getmetatable(v)
  local view = type(mt) == "table" and VIEWS[rawget(mt, "__name")]
  if view then return view(v) end
  if t == "userdata" then return tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) and type(a) ~= "table" and type(a) ~= "boolean" then return a < b end
    return type(a) < type(b)
  end)
  local parts = {}
  for i, k in ipairs(keys) do parts[i] = canon(k) .. "=" .. canon(v[k]) end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- ---- the entry points -------------------------------------------------------------

-- name, fname (the name errors give), needs, call(w) -> results; judge:
-- "any" (the default: a state the world was in during the call) or "final"
-- (the answer is read after the call: the state at the end); writes: the
-- call changes the grid (its answer is the grid); mapAnswer: the answer is
-- the distance map itself, read after the call, so a finalizer's update that
-- comes after the call's own (the call tells the collector what it allocated
-- at its end, which may run finalizers) is what the map holds.
local ENTRIES = {}
local function entry(name, fname, call, opts)
  opts = opts or {}
  ENTRIES[#ENTRIES + 1] = { name = name, fname = fname, call = call, needs = opts.needs or {},
    judge = opts.judge or (opts.writes and "final") or "any", writes = opts.writes, view = opts.view,
    mapAnswer = opts.mapAnswer, moves = opts.needs and opts.needs.moves or fname == "setMove" or fname == "link",
    setSources = opts.setSources, sliced = opts.sliced }
end
local function wrote(w) return w.grid end   -- the answer of a write: the grid itself

-- Grid methods (src/lua/lua_astar.c, and the tactics' methods)
entry("grid:getWidth", "getWidth", function(w) return w.grid:getWidth() end)
entry("grid:getHeight", "getHeight", function(w) return w.grid:getHeight() end)
entry("grid:getDimensions", "getDimensions", function(w) return w.grid:getDimensions() end)
entry("grid:isWalkable", "isWalkable", function(w) return w.grid:isWalkable(FX, FY) end)
entry("grid:getCost", "getCost", function(w) return w.grid:getCost(CX, CY) end)
entry("grid:getDiagonal", "getDiagonal", function(w) return w.grid:getDiagonal() end)
entry("grid:getHeuristic", "getHeuristic", function(w) return w.grid:getHeuristic() end)
entry("grid:getShape", "getShape", function(w) return w.grid:getShape() end)
entry("grid:getLayout", "getLayout", function(w) return w.grid:getLayout() end)
entry("tostring(grid)", "__tostring", function(w) return tostring(w.grid) end)
entry("grid:getSearchStats", "getSearchStats", function(w) return w.grid:getSearchStats() end,
  { needs = { searched = true } })
entry("grid:setWalkable", "setWalkable", function(w) w.grid:setWalkable(5, 9, false) return wrote(w) end,
  { writes = true })
entry("grid:setCost", "setCost", function(w) w.grid:setCost(7, 9, 6.5) return wrote(w) end, { writes = true })
entry("grid:setDiagonal", "setDiagonal", function(w) w.grid:setDiagonal("never") return wrote(w) end,
  { writes = true })
entry("grid:setHeuristic", "setHeuristic", function(w) w.grid:setHeuristic("euclidean", 1.5) return wrote(w) end,
  { writes = true })
entry("grid:setTiles, a rule table", "setTiles", function(w)
  w.grid:setTiles(w.L.tiles32, TILE_RULE)
  return wrote(w)
end, { writes = true })
entry("grid:setTiles, a rule function", "setTiles", function(w)
  w.grid:setTiles(w.L.tiles32, tileRule, 1, 1)
  return wrote(w)
end, { writes = true })
-- (the layers: one entry each, a rule function for STI's rows of tiles, a
-- table for Tiled's flat gids)
entry("grid:setTiles, an STI layer, a rule function", "setTiles", function(w)
  w.grid:setTiles(w.L.stiLayer32, gidRule, 1, 1)
  return wrote(w)
end, { writes = true })
entry("grid:encode", "encode", function(w) return w.grid:encode() end)
entry("grid:findPath, blocked list, size 2", "findPath", function(w)
  return w.grid:findPath(1, 1, 5, 5, { blocked = w.L.block, size = 2 })
end)
entry("grid:findPath, blocked list (walls of the query)", "findPath", function(w)
  return w.grid:findPath(2, 2, GX, GY, { blocked = w.L.block })
end)
entry("grid:findPath, cost and occupied lists, 4 directions", "findPath", function(w)
  return w.grid:findPath(1, 1, 5, 5, { cost = w.L.cost, occupied = w.L.occupied, diagonal = "never" })
end)
entry("grid:findPath, a goal list, near and blocked", "findPath", function(w)
  return w.grid:findPath(2, 2, w.L.goals, { near = 1, blocked = w.L.block })
end)
entry("grid:findPath, into and a cost list", "findPath", function(w)
  return w.grid:findPath(2, 2, GX, GY, { into = w.into, cost = w.L.cost })
end, { needs = { into = true } })
entry("grid:findPath, flat, partial, maxCost, occupied list", "findPath", function(w)
  return w.grid:findPath(2, 2, GX, GY, { flat = true, partial = true, maxCost = 25, occupied = w.L.occupied })
end)
entry("grid:newSearch, occupied list, size 2", "newSearch", function(w)
  return w.grid:newSearch(1, 1, 5, 5, { occupied = w.L.occupied, size = 2 })
end, { judge = "final" })
entry("grid:newSearch, blocked and cost lists", "newSearch", function(w)
  return w.grid:newSearch(2, 2, GX, GY, { blocked = w.L.block, cost = w.L.cost })
end, { judge = "final" })
entry("grid:newSearch, a goal list", "newSearch", function(w)
  return w.grid:newSearch(2, 2, w.L.goals, { near = 2 })
end, { judge = "final" })
entry("grid:distanceMap, a source list", "distanceMap", function(w)
  return w.grid:distanceMap(w.L.sources)
end)
entry("grid:distanceMap, one source", "distanceMap", function(w)
  return w.grid:distanceMap({ { x = 1, y = 1 } })
end)
entry("grid:distanceMap, blocked and cost lists", "distanceMap", function(w)
  return w.grid:distanceMap({ { x = 1, y = 1 } }, { blocked = w.L.block, cost = w.L.cost })
end)
entry("grid:distanceMap, blocked list, size 2", "distanceMap", function(w)
  return w.grid:distanceMap({ { x = 1, y = 1 } }, { blocked = w.L.block, size = 2 })
end)
entry("grid:movementRange, blocked, cost and occupied lists", "movementRange", function(w)
  return w.grid:movementRange(1, 1, 5, { blocked = w.L.block, cost = w.L.cost, occupied = w.L.occupied })
end)
entry("grid:movementRange, blocked list, diagonal always", "movementRange", function(w)
  return w.grid:movementRange(1, 1, 5, { blocked = w.L.block, diagonal = "always" })
end)
entry("tactics.movementRange, zoc and cost lists, size 2", "movementRange", function(w)
  return tactics.movementRange(w.grid, 14, 14, 7, { zoc = w.L.zoc, cost = w.L.cost, size = 2 })
end)
-- lists of units with sizes and zoc = {around = units} (issue 21)
entry("tactics.movementRange, zoc around units, occupied units, size 2", "movementRange", function(w)
  return tactics.movementRange(w.grid, 2, 2, 9, { zoc = { around = w.L.units }, occupied = w.L.units, size = 2 })
end)
entry("grid:findPath, size 2, occupied units, near", "findPath", function(w)
  return w.grid:findPath(1, 1, GX, GY, { size = 2, occupied = w.L.units, near = 1 })
end)
entry("grid:attackRange, built-in line of sight, euclidean", "attackRange", function(w)
  return w.grid:attackRange(w.range, 1, 3, { lineOfSight = true, metric = "euclidean" })
end, { needs = { range = true } })
entry("grid:attackRange, a line-of-sight function", "attackRange", function(w)
  return w.grid:attackRange(w.range, 2, 4, { lineOfSight = function(fx, fy, tx, ty)
    return (fx + fy + tx + ty) % 3 ~= 0
  end })
end, { needs = { range = true } })
entry("grid:dangerZone, blocked and cost lists", "dangerZone", function(w)
  return w.grid:dangerZone(w.L.fewEnemies, { blocked = w.L.block, cost = w.L.cost, lineOfSight = true })
end)
entry("grid:dangerZone, a long enemies list", "dangerZone", function(w)
  return w.grid:dangerZone(w.L.enemies, { metric = "chebyshev" })
end)
entry("grid:lineOfSight", "lineOfSight", function(w) return w.grid:lineOfSight(1, 1, 29, 31) end)
-- moves and links (issue 19): the board has some (MOVES), the writes add or
-- remove one, the queries follow them with a move rule
local MOVES = { moves = true }
entry("grid:setMove", "setMove", function(w) w.grid:setMove(5, 9, 6, 10, 2.5) return wrote(w) end,
  { writes = true, needs = MOVES })
entry("grid:setMove, false", "setMove", function(w) w.grid:setMove(7, 9, 7, 8, false) return wrote(w) end,
  { writes = true })
entry("grid:getMove", "getMove", function(w) return w.grid:getMove(10, 10, 11, 11), w.grid:getMove(3, 3, 4, 3) end,
  { needs = MOVES })
entry("grid:setWallBetween", "setWallBetween", function(w)
  w.grid:setWallBetween(9, 9, 9, 10, true)
  w.grid:setWallBetween(8, 5, 8, 6, false)
  return wrote(w)
end, { writes = true, needs = MOVES })
entry("grid:link", "link", function(w) w.grid:link(3, 30, 30, 3, 4.5) return wrote(w) end,
  { writes = true, needs = MOVES })
entry("grid:link, one way", "link", function(w) w.grid:link(6, 6, 26, 26, 1.5, true) return wrote(w) end,
  { writes = true })
entry("grid:unlink", "unlink", function(w) w.grid:unlink(28, 28, 2, 2) return wrote(w) end,
  { writes = true, needs = MOVES })
entry("grid:getLinks, many", "getLinks", function(w) return w.grid:getLinks(2, 2) end, { needs = MOVES })
-- board geometry (issue 20): neighbours lists the moves of a cell with many links
entry("grid:neighbours, many links", "neighbours", function(w) return w.grid:neighbours(2, 2) end,
  { needs = MOVES })
entry("grid:neighbours, opts", "neighbours", function(w)
  return w.grid:neighbours(RX, RY, { diagonal = "always" })
end)
entry("grid:cellCentre", "cellCentre", function(w) return w.grid:cellCentre(RX, RY, 24) end)
entry("grid:cellAt", "cellAt", function(w) return w.grid:cellAt(100.5, 37.25, 24) end)
entry("grid:distance", "distance", function(w) return w.grid:distance(2, 3, GX, GY) end)
entry("grid:findPath, a move rule", "findPath", function(w)
  return w.grid:findPath(2, 2, GX, GY, { move = moveRule })
end, { needs = MOVES })
entry("grid:findPath, a move rule and a cost list", "findPath", function(w)
  return w.grid:findPath(1, 1, GX, GY, { move = moveRule, cost = w.L.cost, diagonal = "never" })
end, { needs = MOVES })
entry("grid:newSearch, a move rule and a blocked list", "newSearch", function(w)
  return w.grid:newSearch(2, 2, GX, GY, { move = moveRule, blocked = w.L.block })
end, { judge = "final", needs = MOVES })
entry("grid:movementRange, a move rule and a cost list", "movementRange", function(w)
  return w.grid:movementRange(2, 2, 9, { move = moveRule, cost = w.L.cost })
end, { needs = MOVES })
entry("tactics.movementRange, a move rule, zoc list, diagonal", "movementRange", function(w)
  return tactics.movementRange(w.grid, 14, 14, 7, { move = moveRule, zoc = w.L.zoc, diagonal = "one-obstacle" })
end, { needs = MOVES })
entry("grid:dangerZone, a move rule and a cost list", "dangerZone", function(w)
  return w.grid:dangerZone(w.L.fewEnemies, { move = moveRule, cost = w.L.cost })
end, { needs = MOVES })
entry("grid:distanceMap, a move rule and a blocked list", "distanceMap", function(w)
  return w.grid:distanceMap(w.L.sources, { move = moveRule, blocked = w.L.block })
end, { needs = MOVES })
-- smoothing (issue 20): a search smooths its path when it ends, asking a
-- cost rule about the cells its lines cross (some the search never asked
-- about); smoothPath smooths a walk read from a table or a flat array
local function costRule(x, y) return 1 + (x * 5 + y * 3) % 4 end
entry("grid:findPath, smooth sight, a cost rule, blocked list, flat", "findPath", function(w)
  return w.grid:findPath(2, 2, GX, GY, { smooth = "sight", cost = costRule, blocked = w.L.block, flat = true })
end)
entry("grid:findPath, smooth corners, into and a cost list", "findPath", function(w)
  return w.grid:findPath(2, 2, GX, GY, { smooth = "corners", into = w.into, cost = w.L.cost })
end, { needs = { into = true } })
entry("grid:newSearch, smooth sight, a cost rule, a goal list", "newSearch", function(w)
  return w.grid:newSearch(2, 2, w.L.goals, { smooth = "sight", cost = costRule })
end, { judge = "final" })
entry("grid:smoothPath, a walk table, into", "smoothPath", function(w)
  return w.grid:smoothPath(WALK, { into = w.into })
end, { needs = { into = true } })
entry("grid:smoothPath, a flat walk, corners, into", "smoothPath", function(w)
  return w.grid:smoothPath(WALK_FLAT, { smooth = "corners", into = w.into })
end, { needs = { into = true } })
-- issue 24: firstBlocked reads a walk raw and makes no table
entry("grid:firstBlocked, a walk table", "firstBlocked", function(w)
  return w.grid:firstBlocked(WALK)
end)
entry("grid:firstBlocked, a flat walk, from", "firstBlocked", function(w)
  return w.grid:firstBlocked(WALK_FLAT, 3)
end)
-- the module and the tactics' functions
entry("astar.new", "new", function() return astar.new(W, H) end)
entry("astar.newHex", "newHex", function() return astar.newHex(20, 12, "even-q") end)
entry("astar.fromString", "fromString", function() return astar.fromString(BOARD) end)
entry("astar.fromMovingAI", "fromMovingAI", function() return astar.fromMovingAI(MOVINGAI) end)
entry("astar.decode", "decode", function() return astar.decode(ENCODED[1]) end)
entry("astar.fromTiles, a rule table", "fromTiles", function(w) return astar.fromTiles(w.L.tiles, TILE_RULE) end)
entry("astar.fromTiles, a rule function", "fromTiles", function(w) return astar.fromTiles(w.L.tiles, tileRule) end)
entry("astar.fromTiles, a Tiled layer, a rule table", "fromTiles", function(w)
  return astar.fromTiles(w.L.layer, GID_RULE)
end)
entry("astar.blend", "blend", function(w) return astar.blend({ w.map, 1, w.map2, -0.5 }, { rescan = true }) end,
  { needs = { map = true } })
entry("astar.decodeMap", "decodeMap", function(w) return astar.decodeMap(w.map:encode()) end,
  { needs = { map = true } })
entry("tactics.cellIndex", "cellIndex", function(w) return tactics.cellIndex(w.grid, 3, 4) end)
entry("tactics.cellSet", "cellSet", function(w) return tactics.cellSet(w.grid, w.L.cells) end)
-- Search methods (src/lua/lua_search.c): a search 3 steps in, or finished
local RUNNING, DONE = { search = true }, { search = true, finished = true }
entry("search:step", "step", function(w) return w.search:step(4), w.search end,
  { needs = RUNNING, judge = "final" })
entry("search:step, seconds", "step", function(w) return w.search:step(math.huge, 1e-9), w.search end,
  { needs = RUNNING, judge = "final" })
entry("search:restart", "restart", function(w)
  return w.search:restart(3, 2, GX, GY, { blocked = w.L.block, cost = w.L.cost }), w.search
end, { needs = RUNNING, judge = "final" })
entry("search:restart, finished", "restart", function(w)
  return w.search:restart(2, 2, w.L.goals, { near = 2 }), w.search
end, { needs = DONE, judge = "final" })
entry("search:result", "result", function(w) return w.search:result() end, { needs = DONE })
entry("search:getStatus", "getStatus", function(w) return w.search:getStatus() end, { needs = DONE })
entry("search:getStats", "getStats", function(w) return w.search:getStats() end, { needs = DONE })
entry("search:getExpanded", "getExpanded", function(w) return w.search:getExpanded() end, { needs = DONE })
entry("search:getGrid", "getGrid", function(w) return rawequal(w.search:getGrid(), w.grid) end,
  { needs = RUNNING })
entry("tostring(search)", "__tostring", function(w) return tostring(w.search) end, { needs = DONE })
-- Range methods (src/lua/lua_range.c)
local RANGE, RANGE_INTO = { range = true }, { range = true, into = true }
entry("range:contains", "contains", function(w) return w.range:contains(RX + 2, RY + 1) end, { needs = RANGE })
entry("range:costTo", "costTo", function(w) return w.range:costTo(RX + 2, RY + 1) end, { needs = RANGE })
entry("range:pathTo, into", "pathTo", function(w) return w.range:pathTo(RX + 3, RY + 4, { into = w.into }) end,
  { needs = RANGE_INTO })
entry("range:pathTo, flat", "pathTo", function(w) return w.range:pathTo(RX - 4, RY + 2, { flat = true }) end,
  { needs = RANGE })
entry("range:pathTo, smooth corners", "pathTo", function(w)
  return w.range:pathTo(RX + 3, RY + 4, { smooth = "corners" })
end, { needs = RANGE })
entry("range:cells, into", "cells", function(w) return w.range:cells(w.into) end, { needs = RANGE_INTO })
entry("range:size", "size", function(w) return w.range:size() end, { needs = RANGE })
entry("range:getStart", "getStart", function(w) return w.range:getStart() end, { needs = RANGE })
entry("range:getGridDimensions", "getGridDimensions", function(w) return w.range:getGridDimensions() end,
  { needs = RANGE })
entry("range:getDiagonal", "getDiagonal", function(w) return w.range:getDiagonal() end, { needs = RANGE })
entry("tostring(range)", "__tostring", function(w) return tostring(w.range) end, { needs = RANGE })
-- DistanceMap methods (src/lua/lua_distance.c): a map of the small grid
local MAP, MAP_INTO = { map = true }, { map = true, into = true }
entry("map:encode", "encode", function(w) return w.map:encode() end, { needs = MAP })
entry("map:get", "get", function(w) return w.map:get(6, 7) end, { needs = MAP })
entry("map:nextStep", "nextStep", function(w) return w.map:nextStep(20, 7) end, { needs = MAP })
entry("map:pathFrom, into", "pathFrom", function(w) return w.map:pathFrom(7, 8, { into = w.into }) end,
  { needs = MAP_INTO })
entry("map:pathFrom, flat", "pathFrom", function(w) return w.map:pathFrom(30, 29, { flat = true }) end,
  { needs = MAP })
entry("map:pathFrom, maxCost, near, a blocked list, into", "pathFrom", function(w)
  return w.map:pathFrom(8, 7, { maxCost = 6, near = 1, blocked = w.L.walk, into = w.into, flat = true })
end, { needs = MAP_INTO })
entry("map:nearest", "nearest", function(w) return w.map:nearest(8, 2) end, { needs = MAP })
entry("map:size", "size", function(w) return w.map:size() end, { needs = MAP })
entry("map:cells, into", "cells", function(w) return w.map:cells(w.into) end, { needs = MAP_INTO })
entry("map:getDimensions", "getDimensions", function(w) return w.map:getDimensions() end, { needs = MAP })
entry("map:flee", "flee", function(w) return w.map:flee(1.5) end, { needs = MAP })
entry("map:update", "update", function(w) return w.map:update(w.grid) end, { needs = MAP, mapAnswer = true })
entry("map:setSources", "setSources", function(w)
  return w.map:setSources({ { x = 2, y = 3 }, { x = 6, y = 6, value = 1 } })
end, { needs = MAP, mapAnswer = true, setSources = true })
-- a build a slice at a time (issue 24): whole within the call, or one pending
local MAP_BUILDING = { map = true, building = true }
entry("map:update, a slice at a time", "update", function(w)
  return w.map:update(w.grid, { cells = 1e9 })
end, { needs = MAP, mapAnswer = true, sliced = true })
entry("map:setSources, a slice at a time", "setSources", function(w)
  return w.map:setSources({ { x = 2, y = 3 }, { x = 6, y = 6, value = 1 } }, { seconds = math.huge })
end, { needs = MAP, mapAnswer = true, sliced = true })
entry("map:step", "step", function(w) return w.map:step(math.huge), w.map end,
  { needs = MAP_BUILDING, mapAnswer = true, sliced = true })
entry("map:isBuilding", "isBuilding", function(w) return w.map:isBuilding() end,
  { needs = MAP_BUILDING, sliced = true })
entry("tostring(map)", "__tostring", function(w) return tostring(w.map) end, { needs = MAP })
-- the tactics' attack areas and danger zones (lua/astar/tactics.lua)
local AREA, AREA_INTO, ZONE_INTO = { area = true }, { area = true, into = true }, { zone = true, into = true }
entry("area:contains", "contains", function(w) return w.area:contains(RX, RY + 2) end, { needs = AREA })
entry("area:cells, into", "cells", function(w) return w.area:cells(w.into) end, { needs = AREA_INTO })
entry("area:size", "size", function(w) return w.area:size() end, { needs = AREA })
entry("zone:count and contains", "count", function(w) return w.zone:count(5, 5), w.zone:contains(6, 6) end,
  { needs = { zone = true } })
entry("zone:cells, into", "cells", function(w) return w.zone:cells(w.into) end, { needs = ZONE_INTO })
entry("zone:size", "size", function(w) return w.zone:size() end, { needs = { zone = true } })

-- ---- running a call, its answer ------------------------------------------------------

-- {ok = true, text = the answer} or {ok = false, err = the error}. The
-- finalizers of round env act during the call, not while its answer is read.
-- after(w), when given, runs between the call and the reading of its answer.
local function run(e, w, env, after)
  -- the call ends inside the pcall: packing its results allocates, and a
  -- finalizer that acts (raises) there must still meet the pcall
  local function call()
    local r = pack(e.call(w))
    if env then env.inCall = false end
    return r
  end
  if env then env.inCall = true end
  local ok, r = pcall(call)
  if env then env.inCall = false end
  if not ok then return { ok = false, err = r } end
  if after then after(w) end
  local okText, text = pcall(canon, r)
  if not okText then return { ok = false, err = text, late = true } end
  return { ok = true, text = text }
end

-- The answer of entry e on a fresh world in state (edited, grown), made
-- without finalizers: computed once for each list length and state. With
-- late ("small" or "open"), the map is updated on that grid after the call.
local function expected(e, L, edited, grown, late)
  local key = format("%d %s %s %s", L.n, tostring(edited), tostring(grown), tostring(late))
  e.answers = e.answers or {}
  if e.answers[key] == nil then
    local w = newWorld(e, L, grown)
    if edited then edit(w.grid) end
    if grown then grow(w) end
    local out = run(e, w, nil, late and function() w.map:update(w[late]) end)
    assert(out.ok, ("%s raised %s without finalizers"):format(e.name, tostring(out.err)))
    e.answers[key] = out.text
  end
  return e.answers[key]
end

local function short(text)
  text = tostring(text)
  return #text > 200 and text:sub(1, 200) .. "..." or text
end

-- nil, or what is wrong with outcome `out` of entry e in world w, given
-- what the finalizers did meanwhile (env).
local function wrongOutcome(e, w, env, out)
  if not out.ok then
    local err = out.err
    if env.closed and (err == CLOSED or err == "grid closed during " .. e.fname) then return nil end
    if env.flips > 0 and err == "grid changed during " .. e.fname then return nil end
    if env.raised and rawequal(err, MARKER) then return nil end
    return ("raised %s%s"):format(short(err), out.late and " (reading the answer)" or "")
  end
  local edits = e.judge == "final" and { env.flips % 2 == 1 } or (env.flips > 0 and { false, true } or { false })
  local grows = e.judge == "final" and { env.grows % 2 == 1 } or (env.grows > 0 and { false, true } or { false })
  for _, edited in ipairs(edits) do
    for _, grown in ipairs(grows) do
      if out.text == expected(e, w.L, edited, grown) then return nil end
    end
  end
  if e.mapAnswer and env.grows > 0 then
    for _, late in ipairs({ "small", "open" }) do
      if out.text == expected(e, w.L, false, false, late) then return nil end
    end
  end
  local want = expected(e, w.L, edits[1], grows[1])
  local at = 1
  while out.text:sub(at, at) == want:sub(at, at) and at <= #want do at = at + 1 end
  return ("answered ...%s..., expected ...%s... (from byte %d)"):format(short(out.text:sub(at, at + 120)),
    short(want:sub(at, at + 120)), at)
end

-- ---- the disturbances -----------------------------------------------------------------

-- act(w, env, e) runs in a finalizer inside the call; env.failures gets what
-- goes wrong there (a finalizer cannot report it otherwise).
local NESTED_ERRORS = {
  ["calling 'update' on a distance map that is being computed"] = true,
  ["calling 'setSources' on a distance map that is being computed"] = true,
  ["calling 'step' on a distance map that is being computed"] = true,
  ["search:step called from one of its own rules"] = true,
  ["search:restart called from one of its own rules"] = true,
}
local DISTURBANCES = {
  { name = "closing the grid", act = function(w, env)
    getmetatable(w.grid).__close(w.grid)
    env.closed = true
  end },
  { name = "editing the grid", act = function(w, env)
    if env.closed then return end
    edit(w.grid)
    env.flips = env.flips + 1
  end },
  { name = "updating a distance map (it grows or shrinks)", withMap = true, act = function(w, env)
    local ok, err = pcall(grow, w)
    if ok then
      env.grows = env.grows + 1
    elseif not NESTED_ERRORS[err] then
      env.failures[#env.failures + 1] = "map:update in a finalizer raised " .. short(err)
    end
  end },
  { name = "making the same call again", act = function(w, env, e)
    if env.reentered then return end
    env.reentered = true
    local out = run(e, w)
    if not out.ok and NESTED_ERRORS[out.err] then return end
    local wrong = wrongOutcome(e, w, env, out)
    if wrong then env.failures[#env.failures + 1] = "the same call in a finalizer " .. wrong end
  end },
  { name = "raising an error", act = function(_, env)
    env.raised = true
    error(MARKER)
  end },
}

-- ---- the loop ---------------------------------------------------------------------

local current   -- the env of the round running, or nil

-- A bomb of round env: it waits for the call, then for `lives` collections
-- inside it, then acts; one of an earlier round does nothing.
local function plant(env, lives)
  F.arm(function()
    if current ~= env or env.done then return end
    if not env.inCall or lives > 1 then
      plant(env, env.inCall and lives - 1 or lives)
      return
    end
    env.fired = env.fired + 1
    env.act(env.world, env, env.entry)
  end)
end

-- Runs entry e under disturbance d for `rounds` rounds with lists of n
-- points; returns the failures and how many rounds had a finalizer act
-- inside the call.
local function runCase(e, d, n, rounds)
  local L = lists(n)
  expected(e, L, false, false)
  local failures, hit = {}, 0
  -- On LuaJIT every case runs with the compiler off and its traces flushed
  -- (LuaJIT 2.1.0-beta3's own faults, none of this module's):
  --   - it crashes when a finalizer's error unwinds compiled code (a loop
  --     that makes tables under pcall is enough, without this module);
  --   - with finalizers running at the trace exits of compiled loops (the
  --     pure backend's, this spec's, a move rule's) it spins in its own code,
  --     at a different case from run to run, in about one run of this file
  --     in three; perf: 97% of the time in luajit itself, none in this
  --     module, and the case run alone passes.
  -- With the compiler off the cases check the same answers and errors.
  local nojit = jit
  if nojit then
    jit.off()
    jit.flush()
  end
  local ok, err = pcall(function()
    for round = 1, rounds do
      -- the world is made and the outcome judged with the collector as usual,
      -- the call is made with it eager
      local w = newWorld(e, L, d.withMap)
      local env = { world = w, entry = e, act = d.act, flips = 0, grows = 0, fired = 0, failures = failures }
      current = env
      F.setCollector(true)
      for b = 1, 2 do plant(env, 1 + (round + 3 * b) % LIVES) end
      local out = run(e, w, env)
      F.setCollector(false)
      env.done = true
      current = nil
      if env.fired > 0 then hit = hit + 1 end
      local wrong = wrongOutcome(e, w, env, out)
      if wrong then failures[#failures + 1] = ("round %d: %s"):format(round, wrong) end
      -- the grid holds the cells of its state (a raise or a close may have
      -- left a query's walls or scratch behind)
      if not env.closed and not e.writes then
        local okEnc, bytes = pcall(w.grid.encode, w.grid)
        local want = (e.needs.moves and MOVES_ENCODED or ENCODED)[env.flips % 2]
        if not okEnc or bytes ~= want then
          failures[#failures + 1] = ("round %d: afterwards the grid holds other cells (%s)"):format(round,
            short(okEnc and "encode differs" or bytes))
        end
      end
      if #failures > 0 then break end
    end
  end)
  current = nil
  F.setCollector(false)
  if nojit then jit.on() end
  assert(ok, err)
  return failures, hit
end

describe("finalizers while options are read and around every method", function()
  for _, e in ipairs(ENTRIES) do
    for _, d in ipairs(DISTURBANCES) do
      local name = e.name .. " x " .. d.name
      it(name, function()
        if e.moves and not HAS_MOVES then return pending("this backend has no moves and links yet") end
        local failures = runCase(e, d, SHORT, FEW_ROUNDS)
        assert.are.same({}, failures)
      end)
      it(name .. ", long lists #slow", function()
        if e.moves and not HAS_MOVES then return pending("this backend has no moves and links yet") end
        local failures = runCase(e, d, LONG, SLOW_ROUNDS)
        assert.are.same({}, failures)
      end)
    end
  end
end)
