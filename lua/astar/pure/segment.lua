-- The segment model of issue 20 (docs/paths.md) for the pure-Lua backend, a
-- port of src/core/segment.c: the straight line between the centres of two
-- cells of a square board, the cells it passes through in order (integer
-- arithmetic only, so both backends meet the same cells and the same grid
-- corners), the corner rule at the corners it meets exactly, and its cost.
-- Cells are bordered indices (grid.lua's layout). The entry costs come from
-- the caller's price(cell): > 0, huge when the cell cannot be entered, nil
-- to stop (a rule asked to); the cells are priced in the order segment.c
-- prices them, so a rule is asked about the same cells in the same order.
local B = require "astar.pure.board"

local M = {}

local sqrt, huge = math.sqrt, math.huge
local NEVER, ALWAYS, ONE_OBSTACLE = B.NEVER, B.ALWAYS, B.ONE_OBSTACLE
local SQRT2 = B.SQRT2

-- May the line pass the grid corner whose two cells beside it are c1 and c2
-- (segment.c corner_passes)? true, false, or nil to stop.
local function corner_passes(diagonal, price, c1, c2)
  if diagonal == ALWAYS then return true end
  if diagonal == NEVER then return false end
  local p1 = price(c1)
  if p1 == nil then return nil end
  if diagonal == ONE_OBSTACLE and p1 < huge then return true end
  local p2 = price(c2)
  if p2 == nil then return nil end
  if diagonal == ONE_OBSTACLE then return p2 < huge end
  return p1 < huge and p2 < huge
end

-- The line from the centre of bordered cell a to that of b on a grid of
-- stride `stride` (segment.c line_highest): the highest entry cost among the
-- cells it passes through, a excepted (0 when a == b), huge when it is not
-- legal under diagonal mode `diagonal` (board.lua's numbers), nil when price
-- stopped; then its offsets adx, ady. The line crosses the i-th vertical
-- grid line (of adx) at parameter (2i + 1) / (2 adx), the j-th horizontal one
-- at (2j + 1) / (2 ady): comparing (2i + 1) ady with (2j + 1) adx says which
-- comes first, and equality is a grid corner.
local function highest_on(stride, diagonal, price, a, b)
  local ax, bx = (a - 1) % stride, (b - 1) % stride
  local ay, by = (a - 1 - ax) / stride, (b - 1 - bx) / stride
  local sx, sy = bx > ax and 1 or -1, by > ay and stride or -stride
  local adx = bx > ax and bx - ax or ax - bx
  local ady = by > ay and by - ay or ay - by
  local i, j = 0, 0
  local cell = a
  local highest = 0.0
  while i < adx or j < ady do
    local lx = i < adx and (2 * i + 1) * ady or huge
    local ly = j < ady and (2 * j + 1) * adx or huge
    if lx < ly then
      cell = cell + sx
      i = i + 1
    elseif ly < lx then
      cell = cell + sy
      j = j + 1
    else
      local pass = corner_passes(diagonal, price, cell + sx, cell + sy)
      if pass == nil then return nil, adx, ady end
      if not pass then return huge, adx, ady end
      cell = cell + sx + sy
      i, j = i + 1, j + 1
    end
    local p = price(cell)
    if p == nil or p == huge then return p, adx, ady end   -- stopped; a wall on the line
    if p > highest then highest = p end
  end
  return highest, adx, ady
end

--- cost(stride, diagonal, price, a, b) -> the cost of the segment between
-- the centres of bordered cells a and b of a grid of stride `stride`: its
-- length (in cells) times the highest entry cost among the cells it passes
-- through, a excepted; huge when it is not legal under diagonal mode
-- `diagonal` (board.lua's numbers); nil when price stopped. 0 when a == b.
function M.cost(stride, diagonal, price, a, b)
  local highest, adx, ady = highest_on(stride, diagonal, price, a, b)
  if highest == nil then return nil end
  return sqrt(adx * adx + ady * ady) * highest
end

--- polyline_cost(stride, price, cells, keep, m) -> the cost of the polyline
-- through cells[keep[1]], ..., cells[keep[m]] (segment.c
-- segment_polyline_cost, docs/paths.md): S + SQRT2 * D + O, a row's or a
-- column's length times its highest price into S, a diagonal's into D, any
-- other segment's cost into O, each added from the start; nil when price
-- stopped. The segments are legal (checked when they were chosen): no
-- corner is asked about again.
function M.polyline_cost(stride, price, cells, keep, m)
  local straight, diagonal, other = 0.0, 0.0, 0.0
  for k = 2, m do
    local highest, adx, ady = highest_on(stride, ALWAYS, price, cells[keep[k - 1]], cells[keep[k]])
    if highest == nil or highest == huge then return highest end
    if adx == 0 or ady == 0 then
      straight = straight + (adx + ady) * highest
    elseif adx == ady then
      diagonal = diagonal + adx * highest
    else
      other = other + sqrt(adx * adx + ady * ady) * highest
    end
  end
  return straight + SQRT2 * diagonal + other
end

-- The price of bordered cell `cell` on walls `open` and costs `cost`: a
-- grid's, as a call took them (a finalizer may close the grid meanwhile).
function M.cells_price(open, cost)
  return function(cell)
    if not open[cell] then return huge end
    return cost and cost[cell] or 1.0
  end
end

-- The price of bordered cell `cell` on a grid's own walls and costs.
function M.grid_price(grid)
  return M.cells_price(grid._open, grid._cost)
end

return M
