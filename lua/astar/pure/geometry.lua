-- Board geometry for the pure-Lua backend (issue 20), a port of
-- src/core/board_geometry.c and src/lua/lua_geometry.c: cellCentre, cellAt,
-- neighbours and distance, with the same arithmetic in the same order, so
-- both backends give the same numbers.
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local B = require "astar.pure.board"
local HX = require "astar.pure.hex"
local MV = require "astar.pure.moves"

local M = {}

local select, type, next = select, type, next
local floor, abs, huge = math.floor, math.abs, math.huge
local toint = G.toint
local check_index, arg_error, number_text = A.check_index, A.arg_error, A.number_text

local SQRT3 = 1.73205080756887729353
local ODD_R, EVEN_R, ODD_Q = 1, 2, 3
local NEVER = B.NEVER

-- ---- geometry (board_geometry.c) ---------------------------------------------

-- The centre of hex (col, row), 0-based offset numbers of any sign.
local function hex_centre(layout, col, row, size)
  local w = SQRT3 * size   -- across a hex, from side to side
  if layout == ODD_R then return w * (col + 0.5 * (row % 2)), 1.5 * size * row end
  if layout == EVEN_R then return w * (col + 0.5 * (1 - row % 2)), 1.5 * size * row end
  if layout == ODD_Q then return 1.5 * size * col, w * (row + 0.5 * (col % 2)) end
  return 1.5 * size * col, w * (row + 0.5 * (1 - col % 2))
end

-- Offset (col, row) of axial (q, r).
local function from_axial(layout, q, r)
  if layout == ODD_R then return q + (r - r % 2) / 2, r end
  if layout == EVEN_R then return q + (r + r % 2) / 2, r end
  if layout == ODD_Q then return q, r + (q - q % 2) / 2 end
  return q, r + (q + q % 2) / 2
end

-- Is centre (ax, ay) at squared distance da nearer than (bx, by) at db, or
-- as near and further right, then lower?
local function nearer(da, ax, ay, db, bx, by)
  return da < db or (da == db and (ax > bx or (ax == bx and ay > by)))
end

local DQ, DR = { 1, -1, 0, 0, 1, -1 }, { 0, 0, 1, -1, -1, 1 }

-- The hex (0-based offset numbers) nearest (px, py): cube rounding, then
-- the nearest of that hex and its neighbours.
local function hex_at(layout, px, py, size)
  local bx, by = hex_centre(layout, 0, 0, size)
  local fq, fr
  if layout <= EVEN_R then
    fr = (py - by) * (2 / 3) / size
    fq = (px - bx) * (SQRT3 / 3) / size - fr / 2
  else
    fq = (px - bx) * (2 / 3) / size
    fr = (py - by) * (SQRT3 / 3) / size - fq / 2
  end
  local fs = -fq - fr
  local rq, rr, rs = floor(fq + 0.5), floor(fr + 0.5), floor(fs + 0.5)
  local eq, er, es = abs(rq - fq), abs(rr - fr), abs(rs - fs)
  if eq > er and eq > es then
    rq = -rr - rs
  elseif er > es then
    rr = -rq - rs
  end
  local q, r = toint(rq), toint(rr)
  local col, row = from_axial(layout, q, r)
  bx, by = hex_centre(layout, col, row, size)
  local best = (px - bx) * (px - bx) + (py - by) * (py - by)
  for k = 1, 6 do
    local c, w = from_axial(layout, q + DQ[k], r + DR[k])
    local cx, cy = hex_centre(layout, c, w, size)
    local d = (px - cx) * (px - cx) + (py - cy) * (py - cy)
    if nearer(d, cx, cy, best, bx, by) then
      best, bx, by, col, row = d, cx, cy, c, w
    end
  end
  return col, row
end

-- 0-based (x, y) under pixel (px, py), or nil off the board.
local function cell_at(grid, px, py, size)
  local layout = grid._hex
  if not layout then
    local fx, fy = floor(px / size), floor(py / size)
    if not (fx >= 0 and fx < grid._w and fy >= 0 and fy < grid._h) then return nil end
    return fx, fy
  end
  if not (abs(px / size) < 4.0 * G.MAX_SIDE and abs(py / size) < 4.0 * G.MAX_SIDE) then
    return nil
  end
  local col, row = hex_at(layout, px, py, size)
  if col < 0 or row < 0 or col >= grid._w or row >= grid._h then return nil end
  return col, row
end

-- The price of the board move out of bordered cell c in direction d when
-- the grid allows it (the entered cell walkable, the corner rule of mode
-- `mode`, an override not false), else nil (board_geometry.c board_move_open).
local function move_open(grid, c, d, mode)
  local open, cost, stride, hex = grid._open, grid._cost, grid._stride, grid._hex
  local v = c + B.DY[d] * stride + B.DX[d]
  if not open[v] then return nil end
  if not hex and d > 4 and mode ~= B.ALWAYS then
    local walls = (open[c + B.DY[B.CX[d]] * stride + B.DX[B.CX[d]]] and 0 or 1)
      + (open[c + B.DY[B.CY[d]] * stride + B.DX[B.CY[d]]] and 0 or 1)
    if not B.corner_ok(mode, walls) then return nil end
  end
  local c1 = cost and cost[v] or 1.0
  local step = (not hex and d > 4) and B.SQRT2 * c1 or c1
  local o = MV.override(grid, c, d)
  if o ~= nil then step = o end
  return step or nil
end

-- The moves leaving bordered cell c in diagonal mode `mode` (board.lua's
-- 1-4), in order, as flat lists of targets and costs (astar_cell_moves).
local ALL8 = { 1, 2, 3, 4, 5, 6, 7, 8 }
local function cell_moves(grid, c, mode)
  local open, stride = grid._open, grid._stride
  local hex = grid._hex
  local dirs, n = ALL8, (mode == NEVER) and 4 or 8
  if hex then dirs, n = B.hex_dirs(hex, stride, c), 6 end
  local to, price = {}, {}
  for k = 1, n do
    local d = dirs[k]
    local step = move_open(grid, c, d, mode)
    if step then to[#to + 1], price[#price + 1] = c + B.DY[d] * stride + B.DX[d], step end
  end
  local m = grid._moves
  local links = m and m.out[c]
  for k = 1, links and #links or 0, 2 do
    if open[links[k]] then to[#to + 1], price[#price + 1] = links[k], links[k + 1] end
  end
  return to, price
end

--- enterable(grid, mode, c, v) -> whether a unit in bordered cell c can
-- still enter bordered cell v (astar_cell_enterable): v walkable and, when
-- it is a board neighbour of c, a move of mode `mode` (a diagonal in mode
-- "never" is none) or a link; any other step is judged by v alone.
function M.enterable(grid, mode, c, v)
  if not grid._open[v] then return false end
  local stride, hex = grid._stride, grid._hex
  local dirs, n = ALL8, 8
  if hex then dirs, n = B.hex_dirs(hex, stride, c), 6 end
  for k = 1, n do
    local d = dirs[k]
    if c + B.DY[d] * stride + B.DX[d] == v then
      if (hex or d <= 4 or mode ~= NEVER) and move_open(grid, c, d, hex and NEVER or mode) then
        return true
      end
      return MV.link_cost(grid, c, v) ~= nil
    end
  end
  return true   -- not a board move (a link, a smoothed leg): the cell alone
end

-- ---- the methods (lua_geometry.c) ----------------------------------------------

local function check_size(v, present, num, fname)
  A.check_number(v, present, num, fname)
  if not (v > 0 and v < huge) then -- luacheck: ignore 581 (nan fails too)
    arg_error(num, fname, nil, "size must be a positive finite number, got " .. number_text(v))
  end
  return v
end

local function check_pixel(v, present, num, fname, name)
  A.check_number(v, present, num, fname)
  if not (v > -huge and v < huge) then -- luacheck: ignore 581 (nan fails too)
    arg_error(num, fname, nil, name .. " must be a finite number, got " .. number_text(v))
  end
  return v
end

--- grid:cellCentre(x, y, size) -> px, py
function M.cellCentre(...)
  local self, x, y, size = ...
  local nargs = select("#", ...)
  G.check_grid("cellCentre", nargs, self)
  x = check_index(x, nargs > 1, 1, "cellCentre", "x", self._w)
  y = check_index(y, nargs > 2, 2, "cellCentre", "y", self._h)
  size = check_size(size, nargs > 3, 3, "cellCentre")
  if self._hex then return hex_centre(self._hex, toint(x - 1), toint(y - 1), size) end
  return (x - 1 + 0.5) * size, (y - 1 + 0.5) * size
end

--- grid:cellAt(px, py, size) -> x, y, or nil off the board
function M.cellAt(...)
  local self, px, py, size = ...
  local nargs = select("#", ...)
  G.check_grid("cellAt", nargs, self)
  px = check_pixel(px, nargs > 1, 1, "cellAt", "px")
  py = check_pixel(py, nargs > 2, 2, "cellAt", "py")
  size = check_size(size, nargs > 3, 3, "cellAt")
  local x, y = cell_at(self, px, py, size)
  if not x then return nil end
  return toint(x + 1), toint(y + 1)
end

--- grid:distance(x1, y1, x2, y2): hex steps, Manhattan in mode "never", else octile.
function M.distance(...)
  local self, x1, y1, x2, y2 = ...
  local nargs = select("#", ...)
  G.check_grid("distance", nargs, self)
  x1 = toint(check_index(x1, nargs > 1, 1, "distance", "x1", self._w))
  y1 = toint(check_index(y1, nargs > 2, 2, "distance", "y1", self._h))
  x2 = toint(check_index(x2, nargs > 3, 3, "distance", "x2", self._w))
  y2 = toint(check_index(y2, nargs > 4, 4, "distance", "y2", self._h))
  if self._hex then return toint(HX.distance(self._hex, x1 - 1, y1 - 1, x2 - 1, y2 - 1)) end
  local dx, dy = abs(x1 - x2), abs(y1 - y2)
  if self._diagonal == NEVER then return dx + dy end
  local lo, hi = dx, dy
  if dy < dx then lo, hi = dy, dx end
  return (hi - lo) + B.SQRT2 * lo
end

-- opts of neighbours: nil, or a table whose one option is diagonal.
local function neighbours_mode(self, opts, present)
  if opts == nil then return self._diagonal end
  if type(opts) ~= "table" then A.type_error(3, "neighbours", nil, "table", opts, present) end
  local mode = self._diagonal
  for key, value in next, opts do
    if type(key) ~= "string" then
      arg_error(3, "neighbours", nil, "option names must be strings, got " .. type(key))
    elseif key ~= "diagonal" then
      arg_error(3, "neighbours", nil, "unknown option '" .. A.quoted(key) .. "'")
    end
    mode = A.check_diagonal(value, true, 3, "neighbours", "opts.diagonal: ", self._hex)
  end
  return mode
end

--- grid:neighbours(x, y [, opts]) -> {{x =, y =, cost =}, ...}
function M.neighbours(...)
  local self, x, y, opts = ...
  local nargs = select("#", ...)
  G.check_grid("neighbours", nargs, self)
  x = check_index(x, nargs > 1, 1, "neighbours", "x", self._w)
  y = check_index(y, nargs > 2, 2, "neighbours", "y", self._h)
  local mode = neighbours_mode(self, opts, nargs > 3)
  local stride = self._stride
  local c = toint(y * stride + x + 1)
  -- the list is read until no finalizer (run by its tables) changed the grid
  for _ = 1, G.MEASURE_TRIES do
    local version = self._version
    local to, price = cell_moves(self, c, mode)
    local out = {}
    for k = 1, #to do
      local v = to[k]
      local cx = (v - 1) % stride
      out[k] = { x = toint(cx), y = toint((v - 1 - cx) / stride), cost = price[k] }
    end
    if not self._open then error("attempt to use a closed astar.Grid", 0) end
    if self._version == version then return out end
  end
  error("grid changed during neighbours", 0)
end

return M
