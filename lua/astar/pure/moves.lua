-- Moves and links (issue 19, docs/moves.md) of the pure-Lua backend: the
-- grid's own changes to the moves between its cells, and the Grid methods
-- that edit them (setMove, getMove, setWallBetween, link, unlink, getLinks).
--
-- A grid without any has grid._moves == nil, so a query tests one field to
-- know it runs the loops it ran before. Otherwise grid._moves holds, by
-- bordered cell (grid.lua's layout):
--   over[c]  {[d] = cost or false}: the overrides of the moves out of c,
--            d a board direction (board.lua: 1-8, E W S N SE SW NE NW)
--   out[c]   {to1, cost1, to2, cost2, ...}: the links leaving c, by target
--   into[c]  {from1, cost1, ...}: the links arriving at c, by source (a
--            distance map floods backwards)
-- and count (overrides), nlinks (directed links), ratio (the lowest
-- override / step length, nil until asked again after an edit).
-- grid._link_edits counts the edits of links: a link bounds the heuristic
-- of every cell, so a running search starts again after one (stepper.lua).
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local B = require "astar.pure.board"

local M = {}

local select, type, pairs, next = select, type, pairs, next
local format = string.format
local huge = math.huge
local toint = G.toint
local check_index, arg_error, typename = A.check_index, A.arg_error, A.typename

-- ---- storage ------------------------------------------------------------------

local function moves_of(grid)
  local m = grid._moves
  if not m then
    m = { over = {}, out = {}, into = {}, count = 0, nlinks = 0, ratio = huge }
    grid._moves = m
  end
  return m
end

-- A grid whose last override or link went: its queries run the plain loops again.
local function drop_if_empty(grid)
  local m = grid._moves
  if m and m.count == 0 and m.nlinks == 0 then grid._moves = nil end
end

-- The step length of direction d (the heuristic's ratio): a square diagonal
-- is sqrt 2 long, every hex step 1.
local function step_length(grid, d)
  if d > 4 and not grid._hex then return B.SQRT2 end
  return 1.0
end

-- The lowest override / step length over the priced overrides (huge: none),
-- counted again after an edit, when a query asks.
function M.min_ratio(grid)
  local m = grid._moves
  if not m then return huge end
  local ratio = m.ratio
  if ratio then return ratio end
  ratio = huge
  for _, ov in pairs(m.over) do
    for d, cost in pairs(ov) do
      if cost then
        local r = cost / step_length(grid, d)
        if r < ratio then ratio = r end
      end
    end
  end
  m.ratio = ratio
  return ratio
end

-- The override of the move out of bordered cell c in direction d: a cost,
-- false (no move), or nil.
function M.override(grid, c, d)
  local m = grid._moves
  local ov = m and m.over[c]
  if ov then return ov[d] end
  return nil
end

-- Sets (cost a number or false) or removes (nil) the override of move (c, d).
local function set_override(grid, c, d, cost)
  if M.override(grid, c, d) == cost then return end   -- not a change
  local m = moves_of(grid)
  local ov = m.over[c]
  if cost == nil then
    ov[d] = nil
    m.count = m.count - 1
    if next(ov) == nil then m.over[c] = nil end
  else
    if not ov then
      ov = {}
      m.over[c] = ov
    end
    if ov[d] == nil then m.count = m.count + 1 end
    ov[d] = cost
  end
  m.ratio = nil
  drop_if_empty(grid)
  G.changed(grid, c)
end
M.set_override = set_override

-- Where `key` is, or goes, in flat list {k1, v1, k2, v2, ...} ordered by key:
-- its position (odd) and whether it is there.
local function find_pair(list, key)
  local lo, hi = 1, #list / 2
  while lo <= hi do
    local mid = (lo + hi - (lo + hi) % 2) / 2
    local k = list[2 * mid - 1]
    if k == key then return 2 * mid - 1, true end
    if k < key then lo = mid + 1 else hi = mid - 1 end
  end
  return 2 * lo - 1, false
end

-- Puts key -> value in lists[at] (a flat ordered list); whether it is new.
local function put_pair(lists, at, key, value)
  local list = lists[at]
  if not list then
    list = {}
    lists[at] = list
  end
  local i, found = find_pair(list, key)
  if found then
    list[i + 1] = value
    return false
  end
  table.insert(list, i, value)
  table.insert(list, i, key)
  return true
end

-- Removes key from lists[at]; whether it was there.
local function remove_pair(lists, at, key)
  local list = lists[at]
  if not list then return false end
  local i, found = find_pair(list, key)
  if not found then return false end
  table.remove(list, i)
  table.remove(list, i)
  if #list == 0 then lists[at] = nil end
  return true
end

-- The cost of the link a -> b (bordered cells), or nil.
function M.link_cost(grid, a, b)
  local m = grid._moves
  local list = m and m.out[a]
  if not list then return nil end
  local i, found = find_pair(list, b)
  return found and list[i + 1] or nil
end

-- Adds (or prices again) the directed link a -> b; whether anything changed.
local function set_link(grid, a, b, cost)
  if M.link_cost(grid, a, b) == cost then return false end
  local m = moves_of(grid)
  if put_pair(m.out, a, b, cost) then m.nlinks = m.nlinks + 1 end
  put_pair(m.into, b, a, cost)
  return true
end
M.set_link = set_link

-- Removes the directed link a -> b; whether there was one.
local function remove_link(grid, a, b)
  local m = grid._moves
  if not m or not remove_pair(m.out, a, b) then return false end
  remove_pair(m.into, b, a)
  m.nlinks = m.nlinks - 1
  return true
end

-- A link edit: the version, both ends logged, the links' edit count.
local function links_changed(grid, a, b)
  grid._link_edits = (grid._link_edits or 0) + 1
  drop_if_empty(grid)
  G.changed(grid, a)
  G.changed(grid, b)
end

-- A copy of the grid's moves as they are now (nil: none), for a distance
-- map that keeps them: later edits of the grid do not reach it.
function M.snapshot(grid)
  local m = grid._moves
  if not m then return nil end
  local function copy(lists)
    local t = {}
    for c, list in pairs(lists) do
      local l = {}
      for k, v in pairs(list) do l[k] = v end
      t[c] = l
    end
    return t
  end
  return { over = copy(m.over), out = copy(m.out), into = copy(m.into), count = m.count,
    nlinks = m.nlinks }
end

-- ---- the methods ------------------------------------------------------------

-- Checks self and the cells (x1, y1), (x2, y2) (arguments 1-4 of fname);
-- returns both bordered indices. With distinct (link, unlink): two cells.
local function check_pair(fname, nargs, self, x1, y1, x2, y2, distinct)
  G.check_grid(fname, nargs, self)
  local w, h, stride = self._w, self._h, self._stride
  x1 = check_index(x1, nargs > 1, 1, fname, "x1", w)
  y1 = check_index(y1, nargs > 2, 2, fname, "y1", h)
  x2 = check_index(x2, nargs > 3, 3, fname, "x2", w)
  y2 = check_index(y2, nargs > 4, 4, fname, "y2", h)
  if distinct and x1 == x2 and y1 == y2 then
    arg_error(3, fname, nil, format("a link joins two different cells, got (%d, %d) twice", x1,
      y1))
  end
  return toint(y1 * stride + x1 + 1), toint(y2 * stride + x2 + 1)
end

local function cell_text(grid, c)
  local stride = grid._stride
  local x = (c - 1) % stride
  return format("(%d, %d)", x, (c - 1 - x) / stride)
end

-- The board direction (1-8) from bordered cell a to b when b is a board
-- neighbour of a (orthogonal only: one of the four sides; every hex
-- neighbour is a side), else an error on argument 3 of fname.
local function check_neighbour(fname, grid, a, b, orthogonal)
  local offset = B.offsets(grid._stride)
  local dirs = grid._hex and B.hex_dirs(grid._hex, grid._stride, a) or { 1, 2, 3, 4, 5, 6, 7, 8 }
  local last = (orthogonal and not grid._hex) and 4 or #dirs
  for k = 1, last do
    local d = dirs[k]
    if a + offset[d] == b then return d end
  end
  arg_error(3, fname, nil, format("%s is not %s of %s", cell_text(grid, b),
    last == 4 and "an orthogonal neighbour" or "a neighbour", cell_text(grid, a)))
end
M.check_neighbour = check_neighbour

-- A move's cost (argument num of fname): a number in (0, 1e15], or, with
-- or_false, false or nil.
local function check_cost(fname, num, cost, present, or_false)
  if type(cost) == "number" then
    if not (cost > 0 and cost <= G.MAX_COST) then
      arg_error(num, fname, nil, "cost must be a positive finite number up to 1e15"
        .. (or_false and ", false or nil" or "") .. ", got " .. A.number_text(cost))
    end
    return cost + 0.0
  end
  if or_false and (cost == false or cost == nil) then return cost end
  arg_error(num, fname, nil, (or_false and "number, false or nil" or "number")
    .. " expected, got " .. typename(cost, present))
end

--- grid:setMove(x1, y1, x2, y2, cost): cost a number, false (no move) or nil (the default).
function M.setMove(...)
  local self, x1, y1, x2, y2, cost = ...
  local nargs = select("#", ...)
  local a, b = check_pair("setMove", nargs, self, x1, y1, x2, y2)
  local d = check_neighbour("setMove", self, a, b)
  set_override(self, a, d, check_cost("setMove", 5, cost, nargs > 5, true))
end

--- grid:getMove(x1, y1, x2, y2) -> the override (a number or false), or nil.
function M.getMove(...)
  local self, x1, y1, x2, y2 = ...
  local a, b = check_pair("getMove", select("#", ...), self, x1, y1, x2, y2)
  return M.override(self, a, check_neighbour("getMove", self, a, b))
end

--- grid:setWallBetween(x1, y1, x2, y2, wall): both moves false, or both back to nil.
function M.setWallBetween(...)
  local self, x1, y1, x2, y2, wall = ...
  local nargs = select("#", ...)
  local a, b = check_pair("setWallBetween", nargs, self, x1, y1, x2, y2)
  local d = check_neighbour("setWallBetween", self, a, b, true)
  if wall ~= nil and type(wall) ~= "boolean" then
    A.type_error(5, "setWallBetween", nil, "boolean", wall, true)
  end
  local back = check_neighbour("setWallBetween", self, b, a, true)
  local value = nil
  if wall then value = false end
  set_override(self, a, d, value)
  set_override(self, b, back, value)
end

--- grid:link(x1, y1, x2, y2, cost [, oneway])
function M.link(...)
  local self, x1, y1, x2, y2, cost, oneway = ...
  local nargs = select("#", ...)
  local a, b = check_pair("link", nargs, self, x1, y1, x2, y2, true)
  cost = check_cost("link", 5, cost, nargs > 5, false)
  if oneway ~= nil and type(oneway) ~= "boolean" then
    A.type_error(6, "link", nil, "boolean", oneway, true)
  end
  local changed = set_link(self, a, b, cost)
  if not oneway then changed = set_link(self, b, a, cost) or changed end
  if changed then links_changed(self, a, b) end
end

--- grid:unlink(x1, y1, x2, y2): removes the links between the cells, both ways.
function M.unlink(...)
  local self, x1, y1, x2, y2 = ...
  local a, b = check_pair("unlink", select("#", ...), self, x1, y1, x2, y2, true)
  local removed = remove_link(self, a, b)
  removed = remove_link(self, b, a) or removed
  if removed then links_changed(self, a, b) end
end

--- grid:getLinks(x, y) -> {{x =, y =, cost =}, ...} by target cell.
function M.getLinks(...)
  local self, x, y = ...
  local nargs = select("#", ...)
  G.check_grid("getLinks", nargs, self)
  local stride = self._stride
  x = check_index(x, nargs > 1, 1, "getLinks", "x", self._w)
  y = check_index(y, nargs > 2, 2, "getLinks", "y", self._h)
  local m = self._moves
  local list = m and m.out[y * stride + x + 1]
  local version = self._version
  local out = {}
  -- each entry made may run a finalizer that edits or closes the grid
  for k = 1, list and #list or 0, 2 do
    local entry = {}
    if not self._open then error("grid closed during getLinks", 0) end
    if self._version ~= version then error("grid changed during getLinks", 0) end
    local c = list[k]
    local cx = (c - 1) % stride
    entry.x, entry.y, entry.cost = toint(cx), toint((c - 1 - cx) / stride), list[k + 1]
    out[#out + 1] = entry
  end
  return out
end

return M
