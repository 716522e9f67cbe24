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

--- cost(stride, diagonal, price, a, b) -> the cost of the segment between
-- the centres of bordered cells a and b of a grid of stride `stride`: its
-- length (in cells) times the highest entry cost among the cells it passes
-- through, a excepted; huge when it is not legal under diagonal mode
-- `diagonal` (board.lua's numbers); nil when price stopped. 0 when a == b.
-- The line crosses the i-th vertical grid line (of adx) at parameter
-- (2i + 1) / (2 adx), the j-th horizontal one at (2j + 1) / (2 ady):
-- comparing (2i + 1) ady with (2j + 1) adx says which comes first, and
-- equality is a grid corner.
function M.cost(stride, diagonal, price, a, b)
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
      if pass == nil then return nil end
      if not pass then return huge end
      cell = cell + sx + sy
      i, j = i + 1, j + 1
    end
    local p = price(cell)
    if p == nil or p == huge then return p end   -- stopped; a wall on the line
    if p > highest then highest = p end
  end
  return sqrt(adx * adx + ady * ady) * highest
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
