-- The Grid methods of the pure-Lua backend: argument checks and results as in
-- src/lua/lua_astar.c, arguments counted as in a method call (self is not
-- counted). Methods take `...` so that a missing argument ("no value") can be
-- told from nil, exactly as the C binding does; the fast path only unpacks it.
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local S = require "astar.pure.search"

local M = {}   -- the methods: astar.Grid

local META = G.META
local getmetatable, select, type, next = getmetatable, select, type, next
local format = string.format
local toint = G.toint
local check_index, check_boolean, check_number = A.check_index, A.check_boolean, A.check_number
local arg_error, type_error, typename = A.arg_error, A.type_error, A.typename

-- ---- self and cells -------------------------------------------------------

-- The grid, or an error naming method fname (lua_astar.c check_grid).
local function check_grid(fname, nargs, self)
  if getmetatable(self) ~= META or type(self) ~= "table" then
    error(format("calling '%s' on bad self (astar.Grid expected, got %s)", fname,
      typename(self, nargs > 0)), 0)
  end
  if not self._open then error("attempt to use a closed astar.Grid", 0) end
  return self
end
G.check_grid = check_grid   -- for stepper.lua, not a method

-- The fast path: the index of cell (x, y) of an open grid, or nil for anything
-- that needs an error (which check_cell then raises).
local function cell_index(self, x, y)
  if getmetatable(self) ~= META or not self._open or type(x) ~= "number"
    or type(y) ~= "number" or x % 1 ~= 0 or y % 1 ~= 0 or x < 1 or y < 1
    or x > self._w or y > self._h then
    return nil
  end
  return y * self._stride + x + 1
end

-- Raises the error for self, x (argument 1) or y (argument 2); returns the
-- index when all three are fine.
local function check_cell(fname, nargs, self, x, y)
  check_grid(fname, nargs, self)
  check_index(x, nargs > 1, 1, fname, "x", self._w)
  check_index(y, nargs > 2, 2, fname, "y", self._h)
  return y * self._stride + x + 1
end

-- ---- sizes ------------------------------------------------------------------

function M.getWidth(...)
  local self = ...
  return check_grid("getWidth", select("#", ...), self)._w
end

function M.getHeight(...)
  local self = ...
  return check_grid("getHeight", select("#", ...), self)._h
end

function M.getDimensions(...)
  local self = ...
  check_grid("getDimensions", select("#", ...), self)
  return self._w, self._h
end

-- ---- cells ------------------------------------------------------------------

function M.setWalkable(...)
  local self, x, y, walkable = ...
  local i = cell_index(self, x, y)
  if not i or type(walkable) ~= "boolean" then
    local nargs = select("#", ...)
    i = check_cell("setWalkable", nargs, self, x, y)
    check_boolean(walkable, nargs > 3, 3, "setWalkable")
  end
  local open = self._open
  if open[i] ~= walkable then   -- a write that changes nothing is not a change
    open[i] = walkable
    G.changed(self, i)
  end
end

function M.isWalkable(...)
  local self, x, y = ...
  local i = cell_index(self, x, y) or check_cell("isWalkable", select("#", ...), self, x, y)
  return self._open[i]
end

function M.setCost(...)
  local self, x, y, cost = ...
  local i = cell_index(self, x, y)
  if not i or type(cost) ~= "number" or not (cost > 0 and cost <= G.MAX_COST) then
    local nargs = select("#", ...)
    i = check_cell("setCost", nargs, self, x, y)
    check_number(cost, nargs > 3, 3, "setCost")
    if not (cost > 0 and cost <= G.MAX_COST) then
      arg_error(3, "setCost", nil,
        "cost must be a positive finite number up to 1e15, got " .. A.number_text(cost))
    end
  end
  G.set_cost(self, i, cost + 0.0)
end

function M.getCost(...)
  local self, x, y = ...
  local i = cell_index(self, x, y) or check_cell("getCost", select("#", ...), self, x, y)
  local cost = self._cost
  if cost then return cost[i] end
  return 1.0
end

-- ---- settings ---------------------------------------------------------------

function M.setDiagonal(...)
  local self, mode = ...
  local nargs = select("#", ...)
  check_grid("setDiagonal", nargs, self)
  self._diagonal = A.check_diagonal(mode, nargs > 1, 1, "setDiagonal")
end

function M.getDiagonal(...)
  local self = ...
  return A.DIAGONAL_NAMES[check_grid("getDiagonal", select("#", ...), self)._diagonal]
end

-- The heuristic in effect for a diagonal mode, given the grid's choice.
local function effective_heuristic(self, diagonal)
  if self._heuristic_chosen then return self._heuristic end
  if diagonal == 1 then return 1 end   -- "never": manhattan
  return 2                             -- octile
end

function M.setHeuristic(...)
  local self, name, weight = ...
  local nargs = select("#", ...)
  check_grid("setHeuristic", nargs, self)
  local h = A.check_heuristic(name, nargs > 1, 1, "setHeuristic")
  local w = 1.0
  if weight ~= nil then w = A.check_weight(weight, true, 2, "setHeuristic") + 0.0 end
  self._heuristic, self._weight, self._heuristic_chosen = h, w, true
end

function M.getHeuristic(...)
  local self = ...
  check_grid("getHeuristic", select("#", ...), self)
  return A.HEURISTIC_NAMES[effective_heuristic(self, self._diagonal)], self._weight
end

-- ---- searching --------------------------------------------------------------

-- Reads an options table (argument `num` of fname) over the grid's settings:
-- diagonal, heuristic, weight, partial, flat, into, algorithm. Returns the settings.
-- The table is read raw (next), as lua_next does: __index and __pairs are ignored.
local ALGORITHM_INDEX = { auto = 1, astar = 2, jps = 3 }
local jps_diagonal = { true, false, false, true }   -- never, no-obstacles

local function read_options(self, fname, num, opts, present)
  local o = { diagonal = self._diagonal, partial = false }
  local has_heuristic, has_weight, weight = false, false, 1.0
  if opts ~= nil and type(opts) ~= "table" then
    type_error(num, fname, nil, "table", opts, present)
  end
  if opts then
    for key, v in next, opts do
      if type(key) ~= "string" then
        arg_error(num, fname, nil, "option names must be strings, got " .. type(key))
      end
      if key == "diagonal" then
        o.diagonal = A.check_diagonal(v, true, num, fname, "opts.diagonal: ")
      elseif key == "heuristic" then
        o.heuristic = A.check_heuristic(v, true, num, fname, "opts.heuristic: ")
        has_heuristic = true
      elseif key == "weight" then
        weight = A.check_weight(v, true, num, fname, "opts.weight: ") + 0.0
        has_weight = true
      elseif key == "partial" then
        o.partial = check_boolean(v, true, num, fname, "opts.partial: ")
      elseif key == "flat" then
        o.flat = check_boolean(v, true, num, fname, "opts.flat: ")
      elseif key == "into" then
        -- a stepped search returns its path frames later: no table to hold
        if fname ~= "findPath" then
          arg_error(num, fname, nil, "opts.into: only findPath fills a table")
        end
        if type(v) ~= "table" then type_error(num, fname, "opts.into: ", "table", v, true) end
        o.into = v
      elseif key == "algorithm" then
        -- JPS is only a speed-up: this backend runs A* for every algorithm
        o.algorithm = A.check_name(v, true, num, fname, "opts.algorithm: ", "algorithm",
          ALGORITHM_INDEX, "auto, astar or jps")
      else
        arg_error(num, fname, nil, "unknown option '" .. A.quoted(key) .. "'")
      end
    end
  end
  if not has_heuristic then o.heuristic = effective_heuristic(self, o.diagonal) end
  if has_weight then
    o.weight = weight
  elseif has_heuristic then
    o.weight = 1.0
  else
    o.weight = self._weight
  end
  if o.algorithm == 3 and not (jps_diagonal[o.diagonal]
    and self._min_count == self._w * self._h) then
    arg_error(num, fname, nil,
      "opts.algorithm: jps needs uniform costs and diagonal 'never' or 'no-obstacles'")
  end
  return o
end
G.read_options = read_options

-- Checks (sx, sy, gx, gy) as arguments 1-4 of fname; returns the two indices.
local function check_ends(fname, nargs, self, sx, sy, gx, gy)
  check_grid(fname, nargs, self)
  local w, h = self._w, self._h
  sx = toint(check_index(sx, nargs > 1, 1, fname, "sx", w))
  sy = toint(check_index(sy, nargs > 2, 2, fname, "sy", h))
  gx = toint(check_index(gx, nargs > 3, 3, fname, "gx", w))
  gy = toint(check_index(gy, nargs > 4, 4, fname, "gy", h))
  local stride = self._stride
  return sy * stride + sx + 1, gy * stride + gx + 1
end
G.check_ends = check_ends

-- A finalizer (__gc of some object) can run at any allocation, even inside
-- findPath, and do anything: search the same grid, change it, close it. So
-- findPath takes the grid's scratch for itself while it runs (a nested
-- findPath finds none and makes a scratch of its own), checks after the
-- search that the grid is still open and unchanged (else it searches again,
-- at most MAX_RESTARTS times), and builds its result from scratch nobody else
-- can touch. A query interrupted by an error just loses the scratch: the next
-- one makes a new one.
local MAX_RESTARTS = G.MAX_RESTARTS

function M.findPath(...)
  local self, sx, sy, gx, gy, opts = ...
  local nargs = select("#", ...)
  local start, goal = check_ends("findPath", nargs, self, sx, sy, gx, gy)
  local o = read_options(self, "findPath", 5, opts, nargs > 5)
  local s = self._search
  self._search = nil
  if not s then s = S.new(self._cells) end
  local status
  local restarts = 0
  while true do
    if not self._open then error("grid closed during findPath", 0) end
    S.begin(s, self, start, goal, o.diagonal, o.heuristic, o.weight, o.partial)
    status = S.step(s, 0)
    if status ~= S.GRID_CHANGED then break end
    if restarts == MAX_RESTARTS then error("grid changed during findPath", 0) end
    restarts = restarts + 1
  end
  if not self._open then error("grid closed during findPath", 0) end
  local path, cost
  if status == S.FOUND or status == S.PARTIAL then
    if o.into then
      path, cost = S.path_into(s, o.into, o.flat)
    elseif o.flat then
      path, cost = S.flat_path(s)
    else
      path, cost = S.path(s)
    end
  end
  -- the scratch goes back (and the statistics are this query's) only now
  self._expanded, self._touched = s.expanded, s.touched
  if self._open then self._search = s end
  if not path then return nil, status end   -- "goal is blocked" or "no path"
  if not o.partial then return path, cost end
  return path, cost, status == S.FOUND
end

function M.getSearchStats(...)
  local self = ...
  check_grid("getSearchStats", select("#", ...), self)
  return { expanded = self._expanded, touched = self._touched }
end

return M
