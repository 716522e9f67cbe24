-- Hex boards for the pure-Lua backend, a port of src/core/hex*.c: offset
-- coordinates (Red Blob Games' names; "odd"/"even" count 0-based rows or
-- columns, so in "odd-r" the 1-based rows 2, 4, 6... are shoved right), hex
-- distance, and the A* loop of hex grids (the general loop of search.lua with
-- six neighbours: east, west, south, north, then the two diagonals on the
-- side the row or column is shoved to). A hex grid is a pure grid with
-- _hex = 1..4 (the layout's position in LAYOUT_NAMES).
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local B = require "astar.pure.board"
local K = require "astar.pure.kernel"

local M = {}

local huge = math.huge
local format = string.format
local select = select

local LAYOUT_NAMES = { "odd-r", "even-r", "odd-q", "even-q" }
local LAYOUT_INDEX = { ["odd-r"] = 1, ["even-r"] = 2, ["odd-q"] = 3, ["even-q"] = 4 }
M.LAYOUT_NAMES = LAYOUT_NAMES
local ODD_R, EVEN_R, ODD_Q = 1, 2, 3

-- Axial (q, r) of 0-based offset cell (x, y), x, y >= 0.
local function axial(layout, x, y)
  if layout == ODD_R then return x - (y - y % 2) / 2, y end
  if layout == EVEN_R then return x - (y + y % 2) / 2, y end
  if layout == ODD_Q then return x, y - (x - x % 2) / 2 end
  return x, y - (x + x % 2) / 2
end
M.axial = axial

local function axial_distance(dq, dr)
  local ds = dq + dr
  if dq < 0 then dq = -dq end
  if dr < 0 then dr = -dr end
  if ds < 0 then ds = -ds end
  return (dq + dr + ds) / 2
end

-- Steps between 0-based offset cells (x0, y0) and (x1, y1).
local function distance(layout, x0, y0, x1, y1)
  local q0, r0 = axial(layout, x0, y0)
  local q1, r1 = axial(layout, x1, y1)
  return axial_distance(q1 - q0, r1 - r0)
end
M.distance = distance

-- ---- the API ---------------------------------------------------------------

function M.new_hex(...)
  local w, h, layout = ...
  local nargs = select("#", ...)
  w = A.check_index(w, nargs > 0, 1, "newHex", "width", G.MAX_SIDE)
  h = A.check_index(h, nargs > 1, 2, "newHex", "height", G.MAX_SIDE)
  local hex = 1
  if layout ~= nil then
    hex = A.check_name(layout, true, 3, "newHex", nil, "layout", LAYOUT_INDEX,
      "odd-r, even-r, odd-q or even-q")
  end
  if w * h > G.MAX_CELLS then
    A.arg_error(2, "newHex", nil,
      format("width * height exceeds the maximum of %d cells", G.MAX_CELLS))
  end
  local grid = G.new(w, h)
  grid._hex = hex
  grid._diagonal = 1    -- "never": the sides (lua_hex.c)
  return grid
end

-- Methods; check_grid is methods.lua's (G.check_grid).
function M.getShape(...)
  local self = ...
  return G.check_grid("getShape", select("#", ...), self)._hex and "hex" or "square"
end

function M.getLayout(...)
  local self = ...
  local hex = G.check_grid("getLayout", select("#", ...), self)._hex
  return hex and LAYOUT_NAMES[hex] or nil
end

-- ---- searching -------------------------------------------------------------
-- S is search.lua's module (passed in: it requires this file).

-- Is bordered (x, y) within hex distance near of goal i? (hex.c astar_hex_in_region)
function M.in_region(s, i, x, y)
  return distance(s.hex, x - 1, y - 1, s.gx[i] - 1, s.gy[i] - 1) <= s.near
end

-- The hex distance from bordered (x, y) to the nearest goal region.
local function closeness(s, x, y)
  local best = huge
  local layout, gx, gy, near = s.hex, s.gx, s.gy, s.near
  for i = 1, s.ngoals do
    local d = distance(layout, x - 1, y - 1, gx[i] - 1, gy[i] - 1) - near
    if d < 0 then d = 0 end
    if d < best then best = d end
  end
  return best + 0.0
end

-- The hex distance from bordered cell `cell` to the nearest goal region.
function M.cell_closeness(s, cell)
  local stride = s.grid._stride
  local x = (cell - 1) % stride
  return closeness(s, x, (cell - 1 - x) / stride)
end

-- The heuristic's targets of a hex query (search.lua begin_general asks):
-- the goals' axial coordinates, or, given the box x0..x1, y0..y1 around
-- them all (past SEARCH_MAX_BOXES goals), that box grown by near n
-- (Chebyshev in offset coordinates).
function M.set_targets(s, gx, gy, ngoals, n, x0, x1, y0, y1)
  local layout = s.hex
  if x0 then
    s.hbox = { x0 - n, x1 + n, y0 - n, y1 + n }
    s.hq = nil
  else
    local hq, hr = {}, {}
    for i = 1, ngoals do hq[i], hr[i] = axial(layout, gx[i] - 1, gy[i] - 1) end
    s.hq, s.hr, s.hbox = hq, hr, nil
  end
end

-- hex.c astar_run_hex on kernel.lua's A* loop: search.lua's general loop
-- with the six hex neighbours (board.lua hex_dirs), each step the entered
-- cell's cost, the heuristic the hex distance to the nearest goal region.
local HEX = { name = "astar hex", flags = { "general" },
  prepare = [=[
    local zero = heuristic == 5
    local layout = s.hex
    local hq, hr, hbox, near, ngoals = s.hq, s.hr, s.hbox, s.near, s.ngoals

    -- the unscaled distance from bordered (x, y) to the nearest goal region
    local function hex_h(x, y)
      if zero then return 0.0 end
      if not hq then
        local a, c = 0, 0
        if x < hbox[1] then a = hbox[1] - x elseif x > hbox[2] then a = x - hbox[2] end
        if y < hbox[3] then c = hbox[3] - y elseif y > hbox[4] then c = y - hbox[4] end
        if a < c then return c + 0.0 end
        return a + 0.0
      end
      local q, r = axial(layout, x - 1, y - 1)
      local best = huge
      for i = 1, ngoals do
        local d = axial_distance(q - hq[i], r - hr[i]) - near
        if d < best then best = d end
      end
      if best > 0 then return best + 0.0 end
      return 0.0
    end]=],
  goal = "target[u] == generation and not (rule and rc[u] < 0)",
  best = "partial and not (rule and u ~= start and rc[u] < 0)",
  closeness = "closeness(s, cx, cy)",
  moves = [=[
    local dirs = hex_dirs(layout, stride, u)
    for k = 1, 6 do
      local d = dirs[k]
      local v = u + offset[d]
      local e = entry(v)
      if e == nil then return stopped() end
      if e ~= huge then
        local step = e < 0 and -e or e
        RELAX
      end
    end]=],
  heuristic = "local h = h_scale * hex_h($hx, $hy)",
  kind = "hex",
}

-- Expands at most `budget` cells (nil or 0: no limit). Compiled on first
-- use, with search.lua's statuses and finish (s.S: it requires this file).
local run_hex
function M.run(s, grid, budget)
  if not run_hex then
    local S = s.S
    HEX.uses = { changed = S.changed, closeness = closeness, finish = S.finish, axial = axial,
      within_max_cost = S.within_max_cost,
      axial_distance = axial_distance, DX = B.DX, DY = B.DY,
      SEARCHING = S.SEARCHING, FOUND = S.FOUND, PARTIAL = S.PARTIAL, NO_PATH = S.NO_PATH,
      STOPPED = S.STOPPED }
    HEX.link_look = S.ENTER_LINK
    run_hex = K.astar(HEX)
  end
  if s.moved then return K.astar(HEX, "moves")(s, grid, budget) end
  return run_hex(s, grid, budget)
end

-- ---- line of sight ------------------------------------------------------------

-- 0-based offset cell of axial (q, r): the inverse of axial.
local function offset_of(layout, q, r)
  if layout == ODD_R then return q + (r - r % 2) / 2, r end
  if layout == EVEN_R then return q + (r + r % 2) / 2, r end
  if layout == ODD_Q then return q, r + (q - q % 2) / 2 end
  return q, r + (q + q % 2) / 2
end

local floor = math.floor
local NUDGE_Q, NUDGE_R = 1e-6, 2e-6

-- hex_geometry.c astar_hex_line_of_sight on 1-based cells; open, when given,
-- is the query's own walls (a finalizer may have closed the grid since).
function M.sees(grid, x0, y0, x1, y1, open)
  local layout = grid._hex
  local q0, r0 = axial(layout, x0 - 1, y0 - 1)
  local q1, r1 = axial(layout, x1 - 1, y1 - 1)
  local n = axial_distance(q1 - q0, r1 - r0)
  local aq, ar, bq, br = q0 + NUDGE_Q, r0 + NUDGE_R, q1 + NUDGE_Q, r1 + NUDGE_R
  local stride, w, h = grid._stride, grid._w, grid._h
  open = open or grid._open
  for i = 1, n - 1 do
    local t = i / n
    local q, r = aq + (bq - aq) * t, ar + (br - ar) * t
    local s = -q - r
    local rq, rr, rs = floor(q + 0.5), floor(r + 0.5), floor(s + 0.5)
    local dq, dr, ds = math.abs(rq - q), math.abs(rr - r), math.abs(rs - s)
    if dq > dr and dq > ds then
      rq = -rr - rs
    elseif dr > ds then
      rr = -rq - rs
    end
    local x, y = offset_of(layout, rq, rr)
    if x >= 0 and y >= 0 and x < w and y < h and not open[(y + 1) * stride + x + 2] then
      return false
    end
  end
  return true
end

return M
