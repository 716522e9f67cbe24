-- The board of the pure backend's one search engine (src/core/board.h): which
-- moves leave a cell, per board kind, and what a move costs. Directions are
-- 1-8 (E W S N SE SW NE NW: orthogonal ones first, so a diagonal's two sides
-- are looked at before it); a cell is a bordered index (grid.lua's layout):
-- its neighbour in direction d is cell + offset[d].
--
-- Kinds: "square" (4 or 8 directions: ndir), "hex" (six, ascending, by the
-- parity of the cell's row or column), "large" (a k x k unit's top-left
-- position: the square moves; a step covers the cells new_cells lists).
-- kernel.lua writes each kind's move loop into the loops it generates, from
-- the source text in M.SOURCE.
local M = {}

M.SQRT2 = 1.41421356237309504880   -- findPath's diagonal step
M.DX = { 1, -1, 0, 0, 1, -1, 1, -1 }
M.DY = { 0, 0, 1, -1, 1, 1, -1, -1 }
-- The orthogonal directions a diagonal one passes between (the corner rule).
M.CX = { 0, 0, 0, 0, 1, 2, 1, 2 }
M.CY = { 0, 0, 0, 0, 3, 3, 4, 4 }
-- The direction back, 0-based (a distance map's step codes).
M.OPPOSITE = { 1, 0, 3, 2, 7, 6, 5, 4 }
-- Diagonal modes (args.DIAGONAL_NAMES' positions).
M.NEVER, M.ALWAYS, M.ONE_OBSTACLE, M.NO_OBSTACLES = 1, 2, 3, 4
-- Hex layouts (hex.lua): odd-r, even-r (rows shoved), odd-q, even-q.
local ODD_R, EVEN_R, ODD_Q = 1, 2, 3

-- offset[d] on a grid of stride stride: one table per stride, made once and
-- shared (every query's loop asks for it; nobody writes to it).
local OFFSETS = {}
function M.offsets(stride)
  local offset = OFFSETS[stride]
  if offset then return offset end
  offset = {}
  for d = 1, 8 do offset[d] = M.DY[d] * stride + M.DX[d] end
  OFFSETS[stride] = offset
  return offset
end

-- The corner rule of diagonal mode `mode` for a diagonal with `walls` (0-2)
-- of its two sides blocked.
function M.corner_ok(mode, walls)
  return walls == 0 or (walls == 1 and mode ~= M.NO_OBSTACLES)
end

-- The directions of the six hex neighbours of bordered cell i, ascending:
-- besides E W S N, the two diagonals on the side the row (column) is shoved.
local HEX_DIRS = { { 1, 2, 3, 4, 5, 7 }, { 1, 2, 3, 4, 6, 8 },    -- rows: right, left
  { 1, 2, 3, 4, 5, 6 }, { 1, 2, 3, 4, 7, 8 } }                      -- columns: down, up
function M.hex_dirs(layout, stride, i)
  local cx = (i - 1) % stride
  if layout <= EVEN_R then
    local cy = (i - 1 - cx) / stride
    return HEX_DIRS[(cy - 1) % 2 == (layout == ODD_R and 1 or 0) and 1 or 2]
  end
  return HEX_DIRS[(cx - 1) % 2 == (layout == ODD_Q and 1 or 0) and 3 or 4]
end

-- The move loop of each kind, for kernel.lua: `open` starts it (d the
-- direction of the move out of cell u), `close` ends it, `step` prices the
-- move (gu + price: price is the entered cell's cost; a diagonal costs sqrt 2
-- times it), `cost` the move alone (step is gu + cost); `flags` are the kernel's --@if keys the kind sets. A square or
-- large loop needs ndir in scope, a hex one layout and stride.
M.SOURCE = {
  square = { open = "for d = 1, ndir do", close = "end",
    step = "d > 4 and gu + SQRT2 * price or gu + price", cost = "d > 4 and SQRT2 * price or price",
    flags = { diagonal = true } },
  large = { open = "for d = 1, ndir do", close = "end",
    step = "d > 4 and gu + SQRT2 * price or gu + price", cost = "d > 4 and SQRT2 * price or price",
    flags = { diagonal = true, large = true } },
  hex = { open = "local dirs = hex_dirs(layout, stride, u) for k = 1, 6 do local d = dirs[k]",
    close = "end", step = "gu + price", cost = "price", flags = { hex = true } },
}

-- What a query with moves (kernel.lua, flag "moves") writes per board kind:
-- `at` once per expanded cell u, `price` per move (u, d) of price $c (the
-- loop's variable): the grid's override of it replaces $c (false: no move); `back_price` the same
-- for the move (v, BACK[d]) into u (a flood over reversed moves). A large
-- unit's move is blocked by any covered cell's override false, priced by its
-- top-left cell's (large_price).
M.BACK = { 2, 1, 4, 3, 8, 7, 6, 5 }
M.MOVES = {
  square = { at = "local ov = over[u]",
    price = "if ov then local o = ov[d] if o ~= nil then $c = o end end",
    back_price = "local ov = over[v] if ov then local o = ov[BACK[d]] if o ~= nil then $c = o end end" },
  large = { at = "", price = "$c = large_price(over, u, d, size, stride, $c)",
    back_price = "$c = large_price(over, v, BACK[d], size, stride, $c)" },
}
M.MOVES.hex = M.MOVES.square

-- The price of a large unit's move from position u in direction d (default
-- step): false when a cell it covers at u has that move set false, else the
-- top-left cell's override when it has one, else step.
function M.large_price(over, u, d, size, stride, step)
  for row = u, u + (size - 1) * stride, stride do
    for c = row, row + size - 1 do
      local ov = over[c]
      if ov and ov[d] == false then return false end
    end
  end
  local ov = over[u]
  local o = ov and ov[d]
  if o then return o end
  return step
end

return M
