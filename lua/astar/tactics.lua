-- astar.tactics: movement ranges, attack ranges and danger zones for
-- turn-based games on a 4-direction grid.
--
-- The search (a bounded Dijkstra) and the attack areas run in the backend
-- `require "astar"` picked: _movementRange, _attackCells and _lineOfSight of
-- the C module (src/lua/lua_range.c) or of the pure-Lua fallback
-- (lua/astar/pure/range.lua); this file keeps the game rules: argument
-- checks, danger zone counts and the result objects.
-- Requiring it also adds movementRange, attackRange, dangerZone and
-- lineOfSight to every Grid as methods.
--
-- Errors are raised with level 0 ("bad argument #N to 'name' (...)" with no
-- position prefix), the same text as the C binding's on every Lua version;
-- arguments are counted as in the method call (the grid is not counted).
local core = require "astar"   -- the active backend's functions and Grid

local floor, huge = math.floor, math.huge
local sort = table.sort
local format = string.format

local Grid = core.Grid
local getDimensions = Grid.getDimensions
local attackCells = core._attackCells

local tactics = {}

local function argError(n, fname, msg, ...)
  error(format("bad argument #%d to '%s' (%s)", n, fname, format(msg, ...)), 0)
end

-- numbers as the C binding prints them (%.14g, nan, inf)
local function numText(v)
  if v ~= v then return "nan" end
  if v == huge then return "inf" end
  if v == -huge then return "-inf" end
  return format("%.14g", v)
end

local function checkGrid(grid, fname)
  local ok, w, h = pcall(getDimensions, grid)
  if not ok then
    if type(w) == "string" and w:find("closed", 1, true) then error(w, 0) end
    error(format("calling '%s' on bad self (astar.Grid expected, got %s)", fname, type(grid)), 0)
  end
  return w, h
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

local function checkOptions(opts, n, fname, known)
  if opts == nil then return {} end
  if type(opts) ~= "table" then argError(n, fname, "table expected, got %s", type(opts)) end
  for k in pairs(opts) do
    if type(k) ~= "string" then
      argError(n, fname, "option names must be strings, got %s", type(k))
    end
    if not known[k] then argError(n, fname, "unknown option '%s'", k) end
  end
  return opts
end

-- ---- result objects: sets of cells keyed by (y - 1) * width + x -------------

local function cellAt(self, x, y)
  if type(x) ~= "number" or type(y) ~= "number" then return nil end
  if x < 1 or x > self._width or y < 1 or y > self._height or x ~= floor(x) or y ~= floor(y) then
    return nil
  end
  return (y - 1) * self._width + x
end

local function sortedCells(self, withCount)
  local list, w, out = {}, self._width, {}
  for i = 1, #self._list do list[i] = self._list[i] end
  sort(list)
  for i = 1, #list do
    local k = list[i]
    local cell = { x = (k - 1) % w + 1, y = floor((k - 1) / w) + 1 }
    if withCount then cell.count = self._count[k] end
    out[i] = cell
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

-- every cell once, as {x =, y =}, in reading order (row by row)
function Area:cells() return sortedCells(self, false) end

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
function Zone:cells() return sortedCells(self, true) end

function Zone:size() return #self._list end

-- ---- the functions ----------------------------------------------------------

--- tactics.movementRange(grid, x, y, move [, opts]) -> astar.Range
-- opts.cost / blocked / occupied / zoc: each a function (x, y) or a table
-- indexed by tactics.cellIndex(grid, x, y). Implemented in C.
tactics.movementRange = core._movementRange

local ATTACK_OPTIONS = { lineOfSight = true }

--- tactics.attackRange(grid, range, minRange, maxRange [, opts]) -> attack range
function tactics.attackRange(grid, range, minRange, maxRange, opts)
  local fname = "attackRange"
  local w, h = checkGrid(grid, fname)
  if not isRange(range) then argError(1, fname, "astar.Range expected, got %s", type(range)) end
  local rw, rh = range:getGridDimensions()
  if rw ~= w or rh ~= h then
    argError(1, fname, "range was made on a %dx%d grid, not this %dx%d one", rw, rh, w, h)
  end
  checkRanges(minRange, maxRange, 2, fname, "")
  opts = checkOptions(opts, 4, fname, ATTACK_OPTIONS)
  local sight = checkSight(opts.lineOfSight, 4, fname)
  return newArea(w, h, attackCells(grid, range, minRange, maxRange, sight, fname))
end

local RULES = { "cost", "blocked", "occupied", "zoc" }
local ZONE_OPTIONS = { cost = true, blocked = true, occupied = true, zoc = true, lineOfSight = true }

-- The movement rules for one enemy: its own fields over the shared options.
local function enemyRules(enemy, opts, i)
  local rules
  for _, name in ipairs(RULES) do
    local v = enemy[name]
    if v == nil then v = opts[name] end
    if v ~= nil then
      if type(v) ~= "function" and type(v) ~= "table" then
        local where = enemy[name] ~= nil and format("enemies[%d].%s", i, name) or "opts." .. name
        argError(enemy[name] ~= nil and 1 or 2, "dangerZone", "%s: function or table expected, got %s",
          where, type(v))
      end
      rules = rules or {}
      rules[name] = v
    end
  end
  return rules
end

local function checkEnemy(e, i, w, h)
  local fname = "dangerZone"
  if type(e) ~= "table" then argError(1, fname, "enemies[%d]: table expected, got %s", i, type(e)) end
  local function coord(name, max)
    local v = e[name]
    if type(v) ~= "number" then
      argError(1, fname, "enemies[%d].%s: number expected, got %s", i, name, type(v))
    end
    if v ~= floor(v) or v < 1 or v > max then
      argError(1, fname, "enemies[%d].%s out of range 1..%d, got %s", i, name, max, numText(v))
    end
  end
  coord("x", w)
  coord("y", h)
  if type(e.move) ~= "number" then
    argError(1, fname, "enemies[%d].move: number expected, got %s", i, type(e.move))
  end
  if e.move ~= e.move or e.move < 0 then
    argError(1, fname, "enemies[%d].move must be a number >= 0, got %s", i, numText(e.move))
  end
  checkRanges(e.minRange, e.maxRange, 1, fname, format("enemies[%d].", i))
end

--- tactics.dangerZone(grid, enemies [, opts]) -> danger zone
-- enemies: a list of {x =, y =, move =, minRange =, maxRange =} (each may also
-- have its own cost / blocked / occupied / zoc over opts').
function tactics.dangerZone(grid, enemies, opts)
  local fname = "dangerZone"
  local w, h = checkGrid(grid, fname)
  if type(enemies) ~= "table" then argError(1, fname, "table expected, got %s", type(enemies)) end
  opts = checkOptions(opts, 2, fname, ZONE_OPTIONS)
  local sight = checkSight(opts.lineOfSight, 2, fname)
  local n = #enemies
  local rules = {}
  for i = 1, n do
    checkEnemy(enemies[i], i, w, h)
    rules[i] = enemyRules(enemies[i], opts, i)
  end
  local count, list = {}, {}
  for i = 1, n do
    local e = enemies[i]
    local range = tactics.movementRange(grid, e.x, e.y, e.move, rules[i])
    local hit = attackCells(grid, range, e.minRange, e.maxRange, sight, fname)
    for j = 1, #hit do
      local k = hit[j]
      local c = count[k]
      if c then
        count[k] = c + 1
      else
        count[k] = 1
        list[#list + 1] = k
      end
    end
  end
  return setmetatable({ _width = w, _height = h, _list = list, _count = count }, Zone)
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

--- tactics.cellSet(grid, cells) -> a set {[cellIndex] = true} of a list of {x =, y =}
function tactics.cellSet(grid, cells)
  local w = checkGrid(grid, "cellSet")
  local set = {}
  for i = 1, #cells do
    local c = cells[i]
    set[(c.y - 1) * w + c.x] = true
  end
  return set
end

-- Methods on every Grid: grid:movementRange(x, y, move, opts) and so on.
Grid.movementRange = tactics.movementRange
Grid.attackRange = tactics.attackRange
Grid.dangerZone = tactics.dangerZone
Grid.lineOfSight = tactics.lineOfSight

return tactics
