-- Hex boards for the pure-Lua backend, a port of src/core/hex.c: offset
-- coordinates (Red Blob Games' names; "odd"/"even" count 0-based rows or
-- columns, so in "odd-r" the 1-based rows 2, 4, 6... are shoved right), hex
-- distance, and the A* loop of hex grids (the general loop of search.lua with
-- six neighbours: east, west, south, north, then the two diagonals on the
-- side the row or column is shoved to). A hex grid is a pure grid with
-- _hex = 1..4 (the layout's position in LAYOUT_NAMES).
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local Q = require "astar.pure.query_rules"

local M = {}

local huge = math.huge
local format = string.format
local select = select
local toint = G.toint

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

local function finish(s, status, cell)
  local parent, start = s.parent, s.start
  local length = 1
  s.status, s.finish = status, cell
  while cell ~= start do
    cell = parent[cell]
    length = length + 1
  end
  s.length = length
  return status
end

local MAX_BOXES = 8   -- SEARCH_MAX_BOXES

-- search.c begin_general for a hex grid (search.lua begin_general calls it
-- once it has made the general scratch).
function M.begin(S, s, grid, start, gx, gy, o, rule)
  local generation = s.generation
  s.hex = grid._hex
  s.runner = M.run
  s.general, s.size = true, 1   -- hex boards have no large units
  s.grid, s.version = grid, grid._version
  s.heuristic, s.partial = o.heuristic, o.partial
  s.rule, s.near, s.bounded, s.max_cost = rule, o.near, o.bounded, o.max_cost
  local stride = grid._stride
  local ngoals = #gx
  s.gx, s.gy, s.ngoals = gx, gy, ngoals
  local goal = gy[1] * stride + gx[1] + 1
  s.start, s.goal = start, goal
  local lowest = grid._min_cost
  s.rule_min = rule and rule.min_cost or huge
  if s.rule_min < lowest then lowest = s.rule_min end
  local h_scale = o.weight * lowest
  if h_scale > S.H_SCALE_MAX then h_scale = S.H_SCALE_MAX end
  s.h_scale = h_scale
  s.n, s.tn, s.ties_f, s.expanded, s.touched = 0, 0, -1.0, 0, 1
  s.status = S.NO_PATH
  local n = s.near
  -- the heuristic's targets: the goals' axial coordinates, or past MAX_BOXES
  -- goals the box around them all (Chebyshev in offset coordinates)
  local layout = s.hex
  if ngoals > MAX_BOXES then
    local x0, x1, y0, y1 = gx[1], gx[1], gy[1], gy[1]
    for i = 2, ngoals do
      local x, y = gx[i], gy[i]
      if x < x0 then x0 = x end
      if x > x1 then x1 = x end
      if y < y0 then y0 = y end
      if y > y1 then y1 = y end
    end
    s.hbox = { x0 - n, x1 + n, y0 - n, y1 + n }
    s.hq = nil
  else
    local hq, hr = {}, {}
    for i = 1, ngoals do hq[i], hr[i] = axial(layout, gx[i] - 1, gy[i] - 1) end
    s.hq, s.hr, s.hbox = hq, hr, nil
  end
  -- mark the targets, open the start
  local target = s.target
  local w, h = grid._w, grid._h
  for i = 1, ngoals do
    local cx, cy = gx[i], gy[i]
    local x0, x1 = cx - n, cx + n
    local y0, y1 = cy - n, cy + n
    if x0 < 1 then x0 = 1 end
    if x1 > w then x1 = w end
    if y0 < 1 then y0 = 1 end
    if y1 > h then y1 = h end
    for y = y0, y1 do
      local row = y * stride + 1
      for x = x0, x1 do
        if M.in_region(s, i, x, y) then target[row + x] = generation end
      end
    end
  end
  s.g[start] = 0.0
  s.stamp[start] = 2 * generation
  s.best, s.best_g = start, 0.0
  local sx = (start - 1) % stride
  s.best_distance = closeness(s, sx, (start - 1 - sx) / stride)
  s.n = 1
  s.hf[1], s.hc[1] = 0.0, start
  if target[start] == generation then       -- already there
    s.n = 0
    return finish(s, S.FOUND, start)
  end
  s.goal_checked = ngoals == 1 and n == 0 and not o.partial
  if s.goal_checked then return S.checked_goal(s, grid, goal, gx[1], gy[1], rule) end
  s.status = S.SEARCHING
  return s.status
end

-- hex.c astar_run_hex: expands at most `budget` cells (nil or 0: no limit).
function M.run(s, grid, budget)
  local S = s.S
  if not budget or budget == 0 then budget = -1 end
  local open, cost = grid._open, grid._cost
  if not open then return S.changed(s) end
  local stride = grid._stride
  local stamp, gs, parent = s.stamp, s.g, s.parent
  local hf, hc, ties = s.hf, s.hc, s.ties
  local n, tn, fc = s.n, s.tn, s.ties_f
  local generation = s.generation
  local seen = 2 * generation
  local closed = seen + 1
  local rc, rs, target = s.rc, s.rs, s.target
  local rule, start = s.rule, s.start
  local bounded, max_cost = s.bounded, s.max_cost
  local h_scale, partial = s.h_scale, s.partial
  local zero = s.heuristic == 5
  local expanded, touched = s.expanded, s.touched
  local layout = s.hex
  local rows = layout <= EVEN_R
  local odd_layout = (layout == ODD_R or layout == ODD_Q) and 1 or 0
  local hq, hr, hbox, near, ngoals = s.hq, s.hr, s.hbox, s.near, s.ngoals
  local ask = Q.cell

  local function entry(nb)
    if not open[nb] then return huge end
    if not rule then return cost and cost[nb] or 1.0 end
    if rs[nb] == generation then return rc[nb] end
    local grid_cost = cost and cost[nb] or 1.0
    if nb == start then return grid_cost end
    s.expanded, s.touched = expanded, touched   -- as they stand, should it stop
    local i0 = nb - 1
    local x = i0 % stride
    local c, flags = ask(rule, toint(x), toint((i0 - x) / stride), grid_cost)
    if c == nil then return nil end
    if flags == 1 and c ~= huge then c = -c end
    rc[nb], rs[nb] = c, generation
    return c
  end

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
  end

  local function relax(cell, nb, ng, nx, ny)
    if bounded and ng > max_cost then return end
    local st = stamp[nb]
    if st == closed or (st == seen and ng >= gs[nb]) then return end
    if st ~= seen then touched = touched + 1 end
    gs[nb], stamp[nb], parent[nb] = ng, seen, cell
    local f = ng + h_scale * hex_h(nx, ny)
    if f == fc then
      tn = tn + 1
      ties[tn] = nb
    else
      n = n + 1
      local j = n
      while j > 1 do
        local p = (j + 2 - (j + 2) % 4) / 4
        local pf = hf[p]
        if f < pf then
          hf[j], hc[j] = pf, hc[p]
          j = p
        else
          break
        end
      end
      hf[j], hc[j] = f, nb
    end
  end

  local function stopped()
    s.n, s.tn, s.expanded, s.touched = 0, 0, expanded, touched
    s.status = S.NO_PATH
    return S.STOPPED
  end

  local ddx, ddy = { 0, 0 }, { 0, 0 }
  while n > 0 or tn > 0 do
    if budget == 0 then
      s.n, s.tn, s.ties_f, s.expanded, s.touched = n, tn, fc, expanded, touched
      return S.SEARCHING
    end
    budget = budget - 1

    local cell
    if tn > 0 then
      cell = ties[tn]
      tn = tn - 1
    else
      cell, fc = hc[1], hf[1]
      local lf, lc = hf[n], hc[n]
      n = n - 1
      local i = 1
      while true do
        local first = 4 * i - 2
        if first > n then break end
        local best, bf = first, hf[first]
        local last = first + 3
        if last > n then last = n end
        for k = first + 1, last do
          if hf[k] < bf then best, bf = k, hf[k] end
        end
        if bf < lf then
          hf[i], hc[i] = bf, hc[best]
          i = best
        else
          break
        end
      end
      if n > 0 then hf[i], hc[i] = lf, lc end
    end

    if stamp[cell] ~= closed then
      if target[cell] == generation and not (rule and rc[cell] < 0) then
        s.n, s.tn, s.expanded, s.touched = 0, 0, expanded, touched
        return finish(s, S.FOUND, cell)
      end
      stamp[cell] = closed
      expanded = expanded + 1
      local g = gs[cell]
      local i0 = cell - 1
      local cx = i0 % stride
      local cy = (i0 - cx) / stride
      if partial and not (rule and cell ~= start and rc[cell] < 0) then
        local d = closeness(s, cx, cy)
        if d < s.best_distance or (d == s.best_distance and g < s.best_g) then
          s.best, s.best_distance, s.best_g = cell, d, g
        end
      end
      local e = entry(cell + 1)
      if e == nil then return stopped() end
      if e ~= huge then relax(cell, cell + 1, g + (e < 0 and -e or e), cx + 1, cy) end
      e = entry(cell - 1)
      if e == nil then return stopped() end
      if e ~= huge then relax(cell, cell - 1, g + (e < 0 and -e or e), cx - 1, cy) end
      e = entry(cell + stride)
      if e == nil then return stopped() end
      if e ~= huge then relax(cell, cell + stride, g + (e < 0 and -e or e), cx, cy + 1) end
      e = entry(cell - stride)
      if e == nil then return stopped() end
      if e ~= huge then relax(cell, cell - stride, g + (e < 0 and -e or e), cx, cy - 1) end
      local k = rows and cy or cx
      local side = ((k - 1) % 2 == odd_layout) and 1 or -1
      if rows then
        ddx[1], ddy[1], ddx[2], ddy[2] = side, 1, side, -1
      else
        ddx[1], ddy[1], ddx[2], ddy[2] = 1, side, -1, side
      end
      for d = 1, 2 do
        local dx, dy = ddx[d], ddy[d]
        local nb = cell + dy * stride + dx
        e = entry(nb)
        if e == nil then return stopped() end
        if e ~= huge then relax(cell, nb, g + (e < 0 and -e or e), cx + dx, cy + dy) end
      end
    else
      budget = budget + 1
    end
  end

  s.n, s.tn, s.expanded, s.touched = 0, 0, expanded, touched
  if partial then return finish(s, S.PARTIAL, s.best) end
  s.status = S.NO_PATH
  return s.status
end


-- ---- tactics ----------------------------------------------------------------

-- The offsets (bordered cell index) of the six neighbours of bordered cell
-- (cx, cy), in hex.c's order: east, west, south, north, then the diagonals.
function M.offsets(layout, stride, cx, cy)
  local side
  if layout <= EVEN_R then
    side = ((cy - 1) % 2 == (layout == ODD_R and 1 or 0)) and 1 or -1
    return { 1, -1, stride, -stride, stride + side, -stride + side }
  end
  side = ((cx - 1) % 2 == (layout == ODD_Q and 1 or 0)) and 1 or -1
  return { 1, -1, stride, -stride, side * stride + 1, side * stride - 1 }
end

-- 0-based offset cell of axial (q, r): the inverse of axial.
local function offset_of(layout, q, r)
  if layout == ODD_R then return q + (r - r % 2) / 2, r end
  if layout == EVEN_R then return q + (r + r % 2) / 2, r end
  if layout == ODD_Q then return q, r + (q - q % 2) / 2 end
  return q, r + (q + q % 2) / 2
end

local floor = math.floor
local NUDGE_Q, NUDGE_R = 1e-6, 2e-6

-- hex.c astar_hex_line_of_sight on 1-based cells.
function M.sees(grid, x0, y0, x1, y1)
  local layout = grid._hex
  local q0, r0 = axial(layout, x0 - 1, y0 - 1)
  local q1, r1 = axial(layout, x1 - 1, y1 - 1)
  local n = axial_distance(q1 - q0, r1 - r0)
  local aq, ar, bq, br = q0 + NUDGE_Q, r0 + NUDGE_R, q1 + NUDGE_Q, r1 + NUDGE_R
  local open, stride, w, h = grid._open, grid._stride, grid._w, grid._h
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
