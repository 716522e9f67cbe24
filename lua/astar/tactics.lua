-- astar.tactics: movement ranges, attack ranges and danger zones for
-- turn-based games on a 4- or 8-direction grid.
--
-- The search (a bounded Dijkstra) and the attack areas run in the backend
-- `require "astar"` picked: _movementRange, _attackCells and _lineOfSight of
-- the C module (src/lua/lua_range.c) or of the pure-Lua fallback
-- (lua/astar/pure/range.lua); this file keeps the game rules: argument
-- checks, danger zone counts and the result objects.
-- Requiring it also puts movementRange, attackRange, dangerZone and
-- lineOfSight on every Grid as methods, in place of the stand-ins that
-- astar.lua puts there (which require this file at their first call).
--
-- Errors are raised with level 0 ("bad argument #N to 'name' (...)" with no
-- position prefix), the same text as the C binding's on every Lua version;
-- arguments are counted as in the method call (the grid is not counted).
--
-- Options tables are read raw (next, rawget: __index and __pairs are
-- ignored), as the backends read theirs; an enemy's fields are read once
-- each, before any search. Callbacks may do anything (README, Robustness): the
-- primitives deal with what happens during one of them, and dangerZone
-- starts again when the grid changed between them.
local core = require "astar"   -- the active backend's functions and Grid
-- name checks with the binding's text (args.c check_name), whatever the backend
local args = require "astar.pure.args"

local floor, huge = math.floor, math.huge
local sort = table.sort
local format, gsub, sub = string.format, string.gsub, string.sub
local next, rawget, rawset, tonumber = next, rawget, rawset, tonumber

local Grid = core.Grid
local getDimensions = Grid.getDimensions
local getShape = Grid.getShape
local attackCells = core._attackCells
local movementRange = core._movementRange
-- the grid's change counter, where the backend has one
local gridVersion = core._gridVersion or function() return 0 end
local MAX_RESTARTS = 3

local tactics = {}

local function argError(n, fname, msg, ...)
  error(format("bad argument #%d to '%s' (%s)", n, fname, format(msg, ...)), 0)
end

-- numbers as the C binding prints them: %.14g, or %.17g when that does not
-- read back as the same number; nan, inf, -inf
local function numText(v)
  v = v * 1.0   -- a float (-0.0 stays -0.0)
  if v ~= v then return "nan" end
  if v == huge then return "inf" end
  if v == -huge then return "-inf" end
  local s = format("%.14g", v)
  if tonumber(s) ~= v then s = format("%.17g", v) end
  return s
end

-- a user's string in a message, as the C binding quotes it: at most 40
-- bytes, bytes outside printable ASCII as '?', "..." when cut
local function quoted(str)
  local shown = gsub(sub(str, 1, 40), "[^\32-\126]", "?")
  if #str > 40 then shown = shown .. "..." end
  return shown
end

local function checkGrid(grid, fname)
  local ok, w, h = pcall(getDimensions, grid)
  if not ok then
    if type(w) == "string" and w:find("closed", 1, true) then error(w, 0) end
    error(format("calling '%s' on bad self (astar.Grid expected, got %s)", fname, type(grid)), 0)
  end
  return w, h, getShape(grid) == "hex"
end

-- A userdata from C, a table from the pure-Lua backend.
local function isRange(v)
  local mt = (type(v) == "userdata" or type(v) == "table") and getmetatable(v)
  return type(mt) == "table" and mt.__name == "astar.Range"
end

-- A whole number >= 0 (what a Manhattan distance can be); name is the field
-- ("minRange" or "enemies[2].minRange"), prefix goes before type errors.
local function checkDistance(v, n, fname, name, prefix)
  if type(v) ~= "number" then
    argError(n, fname, "%snumber expected, got %s", prefix, type(v))
  end
  if v ~= floor(v) or v < 0 or v == huge then
    argError(n, fname, "%s must be a whole number >= 0, got %s", name, numText(v))
  end
  return v
end

local function checkRanges(lo, hi, n, fname, field)
  local nmax = field == "" and n + 1 or n
  checkDistance(lo, n, fname, field .. "minRange", field == "" and "" or field .. "minRange: ")
  checkDistance(hi, nmax, fname, field .. "maxRange", field == "" and "" or field .. "maxRange: ")
  if hi < lo then
    argError(nmax, fname, "%smaxRange must be >= %sminRange, got %s < %s",
      field, field, numText(hi), numText(lo))
  end
end

local function checkSight(v, n, fname)
  if v ~= nil and type(v) ~= "boolean" and type(v) ~= "function" then
    argError(n, fname, "opts.lineOfSight: boolean or function expected, got %s", type(v))
  end
  return v
end

-- opts.diagonal / enemies[i].diagonal: nil or a mode name (as findPath's;
-- "never" alone on hex boards, which have no diagonal moves)
local function checkDiagonal(v, n, fname, field, hex)
  if v ~= nil then args.check_diagonal(v, true, n, fname, field .. "diagonal: ", hex) end
  return v
end

-- opts.metric / enemies[i].metric (hex boards' attack ranges count hex steps)
local METRIC_INDEX = { manhattan = 1, chebyshev = 2, euclidean = 3 }
local function checkMetric(v, n, fname, field, hex)
  if v ~= nil and hex then argError(n, fname, "%smetric: not supported on hex grids", field) end
  if v ~= nil then
    args.check_name(v, true, n, fname, field .. "metric: ", "metric", METRIC_INDEX,
      "manhattan, chebyshev or euclidean")
  end
  return v
end

-- Why opts.size is no option of attackRange and dangerZone (large units).
local SIZE_NOTE = {
  attackRange = "not an option here; a range made with a size keeps it",
  dangerZone = "give each enemy its own (enemies[i].size)",
}

local function checkOptions(opts, n, fname, known)
  if opts == nil then return {} end
  if type(opts) ~= "table" then argError(n, fname, "table expected, got %s", type(opts)) end
  for k in next, opts do
    if type(k) ~= "string" then
      argError(n, fname, "option names must be strings, got %s", type(k))
    end
    if k == "size" and not known[k] then argError(n, fname, "opts.size: %s", SIZE_NOTE[fname]) end
    if not known[k] then argError(n, fname, "unknown option '%s'", quoted(k)) end
  end
  return opts
end

-- A distance past width + height reaches every cell of the grid: cut there,
-- so no backend loops over 2^53 rows. Whole numbers (integers on 5.3+).
local toint = math.tointeger or function(v) return v end
local function clampDistance(v, w, h)
  if v > w + h then v = w + h end
  return toint(v) or v
end

-- ---- result objects: sets of cells keyed by (y - 1) * width + x -------------

local function cellAt(self, x, y)
  if type(x) ~= "number" or type(y) ~= "number" then return nil end
  if x < 1 or x > self._width or y < 1 or y > self._height or x ~= floor(x) or y ~= floor(y) then
    return nil
  end
  return (y - 1) * self._width + x
end

-- #t without __len (lua_rawlen); Lua 5.1's # never calls __len on a table.
local rawlen = rawlen or function(t) return #t end -- luacheck: ignore 113

-- The cells as {x =, y = [, count =]} in reading order, in a new table or
-- filled into `into` (its entry tables reused with rawset, the tail up to
-- #into cleared), as range:cells(into).
local function sortedCells(self, withCount, into)
  if into ~= nil and type(into) ~= "table" then
    argError(1, "cells", "table expected, got %s", type(into))
  end
  local list, w, out = {}, self._width, into or {}
  for i = 1, #self._list do list[i] = self._list[i] end
  sort(list)
  for i = 1, #list do
    local k = list[i]
    local x, y = (k - 1) % w + 1, floor((k - 1) / w) + 1
    local count = withCount and self._count[k] or nil
    local cell = into and rawget(out, i)
    if type(cell) == "table" then
      rawset(cell, "x", x)
      rawset(cell, "y", y)
      if count then rawset(cell, "count", count) end
    else
      rawset(out, i, { x = x, y = y, count = count })
    end
  end
  if into then
    for i = #list + 1, rawlen(out) do rawset(out, i, nil) end
  end
  return out
end

-- An attack range: the cells a unit can hit.
local Area = {}
Area.__index = Area
Area.__name = "astar.AttackRange"

-- true when (x, y) can be attacked
function Area:contains(x, y)
  local k = cellAt(self, x, y)
  return k ~= nil and self._set[k] == true
end

-- every cell once, as {x =, y =}, in reading order (row by row); into: a
-- table to fill instead of a new one
function Area:cells(into) return sortedCells(self, false, into) end

-- how many cells
function Area:size() return #self._list end

local function newArea(w, h, list)
  local set = {}
  for i = 1, #list do set[list[i]] = true end
  return setmetatable({ _width = w, _height = h, _list = list, _set = set }, Area)
end

-- A danger zone: the cells some enemy can attack this turn, with how many.
local Zone = {}
Zone.__index = Zone
Zone.__name = "astar.DangerZone"

function Zone:contains(x, y)
  local k = cellAt(self, x, y)
  return k ~= nil and self._count[k] ~= nil
end

-- how many enemies threaten (x, y); 0 when none (or outside the grid)
function Zone:count(x, y)
  local k = cellAt(self, x, y)
  return k and self._count[k] or 0
end

-- every threatened cell once, as {x =, y =, count =}, in reading order
function Zone:cells(into) return sortedCells(self, true, into) end

function Zone:size() return #self._list end

-- ---- the functions ----------------------------------------------------------

--- tactics.movementRange(grid, x, y, move [, opts]) -> astar.Range
-- opts.cost / blocked / occupied / zoc: each a function (x, y) or a table
-- indexed by tactics.cellIndex(grid, x, y); opts.diagonal; opts.size (large
-- units: top-left positions). Implemented in the backend.
tactics.movementRange = core._movementRange

local ATTACK_OPTIONS = { lineOfSight = true, metric = true }

--- tactics.attackRange(grid, range, minRange, maxRange [, opts]) -> attack range
function tactics.attackRange(grid, range, minRange, maxRange, opts)
  local fname = "attackRange"
  local w, h, hex = checkGrid(grid, fname)
  if not isRange(range) then argError(1, fname, "astar.Range expected, got %s", type(range)) end
  local rw, rh = range:getGridDimensions()
  if rw ~= w or rh ~= h then
    argError(1, fname, "range was made on a %dx%d grid, not this %dx%d one", rw, rh, w, h)
  end
  checkRanges(minRange, maxRange, 2, fname, "")
  opts = checkOptions(opts, 4, fname, ATTACK_OPTIONS)
  local sight = checkSight(rawget(opts, "lineOfSight"), 4, fname)
  local metric = checkMetric(rawget(opts, "metric"), 4, fname, "opts.", hex)
  return newArea(w, h, attackCells(grid, range, clampDistance(minRange, w, h),
    clampDistance(maxRange, w, h), sight, fname, metric))
end

local RULES = { "cost", "blocked", "occupied", "zoc", "move" }
local ZONE_OPTIONS = { cost = true, blocked = true, occupied = true, zoc = true, move = true,
  lineOfSight = true, diagonal = true, metric = true }
-- what _movementRange's messages say about a rule from opts (argument #2)
local SHARED = {}
for _, name in ipairs(RULES) do SHARED[name] = { 2, "opts." .. name } end

-- Reads enemies[i] once into a plain record {x, y, move, minRange, maxRange,
-- metric, rules, where}: its own cost / blocked / occupied / zoc / diagonal /
-- metric over opts' (read raw, checked by dangerZone), and for each rule the
-- argument number and label of messages about it (enemies[i].cost is
-- argument #1, opts.cost argument #2). The diagonal mode goes with the rules.
local function readEnemy(e, i, w, h, opts, hex)
  local fname = "dangerZone"
  if type(e) ~= "table" then argError(1, fname, "enemies[%d]: table expected, got %s", i, type(e)) end
  local x, y, move, lo, hi = e.x, e.y, e.move, e.minRange, e.maxRange
  local function coord(name, v, max)
    if type(v) ~= "number" then
      argError(1, fname, "enemies[%d].%s: number expected, got %s", i, name, type(v))
    end
    if v ~= floor(v) or v < 1 or v > max then
      argError(1, fname, "enemies[%d].%s out of range 1..%d, got %s", i, name, max, numText(v))
    end
  end
  coord("x", x, w)
  coord("y", y, h)
  if type(move) ~= "number" then
    argError(1, fname, "enemies[%d].move: number expected, got %s", i, type(move))
  end
  if move ~= move or move < 0 then
    argError(1, fname, "enemies[%d].move must be a number >= 0, got %s", i, numText(move))
  end
  checkRanges(lo, hi, 1, fname, format("enemies[%d].", i))
  local size = e.size
  if size ~= nil then   -- large units: a whole number from 1 to 65535, as findPath's opts.size
    if type(size) ~= "number" then
      argError(1, fname, "enemies[%d].size: number expected, got %s", i, type(size))
    end
    if not (size >= 1 and size <= 65535) or size ~= floor(size) then
      argError(1, fname, "enemies[%d].size must be a whole number from 1 to 65535, got %s", i,
        numText(size))
    end
    if size > 1 and hex then argError(1, fname, "enemies[%d].size: large units need a square grid", i) end
    size = toint(size)
  end
  local diagonal = checkDiagonal(e.diagonal, 1, fname, format("enemies[%d].", i), hex)
  local metric = checkMetric(e.metric, 1, fname, format("enemies[%d].", i), hex)
  if diagonal == nil then diagonal = rawget(opts, "diagonal") end
  if metric == nil then metric = rawget(opts, "metric") end
  local rules, where
  for _, name in ipairs(RULES) do
    -- an enemy's own move is its budget: opts.move is the one move rule
    local v, label = name ~= "move" and e[name] or nil, nil
    if v == nil then
      v, label = rawget(opts, name), SHARED[name]
    elseif type(v) == "function" or type(v) == "table" then
      label = { 1, format("enemies[%d].%s", i, name) }
    else
      argError(1, fname, "enemies[%d].%s: function or table expected, got %s", i, name, type(v))
    end
    if v ~= nil then
      if type(v) ~= "function" and type(v) ~= "table" then
        argError(2, fname, "opts.%s: function or table expected, got %s", name, type(v))
      end
      rules, where = rules or {}, where or {}
      rules[name], where[name] = v, label
    end
  end
  if diagonal ~= nil then
    rules = rules or {}
    rules.diagonal = diagonal
  end
  if size ~= nil then
    rules = rules or {}
    rules.size = size
  end
  return { x = x, y = y, move = move, minRange = clampDistance(lo, w, h),
    maxRange = clampDistance(hi, w, h), metric = metric, rules = rules, where = where }
end

--- tactics.dangerZone(grid, enemies [, opts]) -> danger zone
-- enemies: a list of {x =, y =, move =, minRange =, maxRange =} (each may also
-- have its own cost / blocked / occupied / zoc / diagonal / metric over opts',
-- and a size: a unit of size x size cells, its range made with that size and
-- its attack measured from the nearest cell it covers).
function tactics.dangerZone(grid, enemies, opts)
  local fname = "dangerZone"
  local w, h, hex = checkGrid(grid, fname)
  if type(enemies) ~= "table" then argError(1, fname, "table expected, got %s", type(enemies)) end
  opts = checkOptions(opts, 2, fname, ZONE_OPTIONS)
  -- the one move rule of every enemy: checked here, enemies or not
  local moveRule = rawget(opts, "move")
  if moveRule ~= nil and type(moveRule) ~= "function" then
    argError(2, fname, "opts.move: function expected, got %s", type(moveRule))
  end
  local sight = checkSight(rawget(opts, "lineOfSight"), 2, fname)
  checkDiagonal(rawget(opts, "diagonal"), 2, fname, "opts.", hex)
  checkMetric(rawget(opts, "metric"), 2, fname, "opts.", hex)
  local n = #enemies
  local list = {}
  for i = 1, n do list[i] = readEnemy(enemies[i], i, w, h, opts, hex) end
  -- A table in opts that no enemy reads (no enemies, or each has its own) is
  -- still checked, by the one reader, on a range that makes no move: a bad
  -- point is an error whatever the enemies are. (Functions are not called.)
  local unread
  for _, name in ipairs(RULES) do
    local v = rawget(opts, name)
    if type(v) == "table" then
      local read = false
      for i = 1, n do read = read or (list[i].rules ~= nil and list[i].rules[name] == v) end
      if not read then
        unread = unread or {}
        unread[name] = v
      end
    end
  end
  if unread then movementRange(grid, 1, 1, 0, unread, fname, SHARED) end
  -- The zone must be the one of a single state of the grid: when a callback
  -- (or a finalizer) changed it while the enemies were done one by one, all
  -- of them are done again (each primitive also starts again by itself when
  -- the grid changes during its own run).
  for _ = 0, MAX_RESTARTS do
    local version = gridVersion(grid)
    local count, cells = {}, {}
    for i = 1, n do
      local e = list[i]
      local range = movementRange(grid, e.x, e.y, e.move, e.rules, fname, e.where)
      local hit = attackCells(grid, range, e.minRange, e.maxRange, sight, fname, e.metric)
      for j = 1, #hit do
        local k = hit[j]
        local c = count[k]
        if c then
          count[k] = c + 1
        else
          count[k] = 1
          cells[#cells + 1] = k
        end
      end
    end
    if gridVersion(grid) == version then
      return setmetatable({ _width = w, _height = h, _list = cells, _count = count }, Zone)
    end
  end
  error("grid changed during " .. fname, 0)
end

--- tactics.lineOfSight(grid, x1, y1, x2, y2) -> boolean: the built-in rule
-- (opts.lineOfSight = true): the segment between the two cells' centres
-- crosses the inside of no wall other than the two end cells.
tactics.lineOfSight = core._lineOfSight

--- tactics.cellIndex(grid, x, y) -> (y - 1) * width + x: the key of the table
-- form of opts.cost / blocked / occupied / zoc.
function tactics.cellIndex(grid, x, y)
  local w = checkGrid(grid, "cellIndex")
  return (y - 1) * w + x
end

--- tactics.cellSet(grid, cells) -> a set {[cellIndex] = true} of every cell
-- of a list of units {x =, y = [, size =]} (a unit of size k covers the k x k
-- cells from (x, y)), read by the backend as the rules' lists of points are.
tactics.cellSet = core._cellSet

-- Methods on every Grid: grid:movementRange(x, y, move, opts) and so on.
Grid.movementRange = tactics.movementRange
Grid.attackRange = tactics.attackRange
Grid.dangerZone = tactics.dangerZone
Grid.lineOfSight = tactics.lineOfSight

return tactics
