-- Independent reference of the segment model of docs/paths.md (issue 20), for the
-- smoothing specs. It never steps along a line (no DDA): for each candidate cell it
-- decides by exact rational arithmetic whether the segment meets the cell's open
-- interior, and it finds the grid corners on the segment by an integer
-- collinearity test.
--
-- Geometry is done in doubled coordinates, where everything is a whole number:
-- cell (x, y) spans the open square (2x - 2, 2x) x (2y - 2, 2y) and its centre is
-- (2x - 1, 2y - 1). A segment is P(t) = A + t * D, t in [0, 1].
--
-- A grid description is the one of helpers/reference.lua ({w, h, walkable, cost}).
-- Paths are lists of {x =, y =}. Works on Lua 5.1 (LuaJIT) to 5.4.

local R = require "helpers.reference"

local M = {}

-- Rationals num / den with den > 0; nil stands for an unbounded end.
local function less(an, ad, bn, bd)
  return an * bd < bn * ad
end

-- The open t-interval where lo < a + t * d < hi, as (lower, upper) rationals, or
-- false when it is empty (d == 0 and a outside). nil ends are unbounded.
local function open_interval(a, d, lo, hi)
  if d == 0 then
    if lo < a and a < hi then return nil, nil, nil, nil end
    return false
  elseif d > 0 then
    return lo - a, d, hi - a, d
  else
    return a - hi, -d, a - lo, -d
  end
end

-- Does the segment from centre (ax, ay) to centre (bx, by) meet the open interior
-- of cell (cx, cy)? Exact: the segment meets the open square when the open
-- t-intervals of x and y overlap each other and the closed [0, 1].
local function meets_cell(ax, ay, bx, by, cx, cy)
  local a1, a2 = 2 * ax - 1, 2 * ay - 1
  local d1, d2 = 2 * (bx - ax), 2 * (by - ay)
  local xl, xld, xu, xud = open_interval(a1, d1, 2 * cx - 2, 2 * cx)
  if xl == false then return false end
  local yl, yld, yu, yud = open_interval(a2, d2, 2 * cy - 2, 2 * cy)
  if yl == false then return false end
  -- L = max(lower ends), U = min(upper ends); unbounded ends drop out
  local ln, ld = xl, xld
  if yl ~= nil and (ln == nil or less(ln, ld, yl, yld)) then ln, ld = yl, yld end
  local un, ud = xu, xud
  if yu ~= nil and (un == nil or less(yu, yud, un, ud)) then un, ud = yu, yud end
  if ln ~= nil and un ~= nil and not less(ln, ld, un, ud) then return false end -- L < U
  if ln ~= nil and not less(ln, ld, 1, 1) then return false end                  -- L < 1
  if un ~= nil and not less(0, 1, un, ud) then return false end                  -- U > 0
  return true
end
M.meets_cell = meets_cell

-- Candidate cells of column cx: the rows the segment's stretch over that column
-- covers, found in floating point and widened by a row on each side (so the exact
-- test, not the rounding, decides), clamped to the segment's bounding box.
local function column_rows(ax, ay, bx, by, cx)
  local ylo, yhi = math.min(ay, by), math.max(ay, by)
  if ax == bx then return ylo, yhi end
  local slope = (by - ay) / (bx - ax)
  local x1 = math.max(cx - 1, math.min(ax, bx) - 0.5)
  local x2 = math.min(cx, math.max(ax, bx) - 0.5)
  local y1 = (ay - 0.5) + (x1 - (ax - 0.5)) * slope
  local y2 = (ay - 0.5) + (x2 - (ax - 0.5)) * slope
  local lo = math.floor(math.min(y1, y2))
  local hi = math.floor(math.max(y1, y2)) + 2
  return math.max(lo, ylo), math.min(hi, yhi)
end

-- The cells the segment passes through, in row-major order (y, then x), as a
-- list of {x =, y =}; the segment's two end cells included.
function M.cells(ax, ay, bx, by)
  local out = {}
  for cx = math.min(ax, bx), math.max(ax, bx) do
    local lo, hi = column_rows(ax, ay, bx, by, cx)
    for cy = lo, hi do
      if meets_cell(ax, ay, bx, by, cx, cy) then out[#out + 1] = { x = cx, y = cy } end
    end
  end
  table.sort(out, function(p, q) return p.y < q.y or (p.y == q.y and p.x < q.x) end)
  return out
end

-- The grid corners (points with whole coordinates) the segment passes exactly
-- through, each as {x =, y =, beside = {{x =, y =}, {x =, y =}}}: the corner (X, Y)
-- is the bottom-right corner of cell (X, Y), and `beside` the two cells at it the
-- segment does not enter. The ends are centres, so a corner is strictly inside.
function M.corners(ax, ay, bx, by)
  local out = {}
  local a1, a2 = 2 * ax - 1, 2 * ay - 1
  local d1, d2 = 2 * (bx - ax), 2 * (by - ay)
  if d1 == 0 or d2 == 0 then return out end -- along a row or column of centres
  local step = d1 > 0 and 2 or -2
  -- even doubled x strictly between the ends (a1 is odd)
  for x2 = a1 + step / 2, a1 + d1 - step / 2, step do
    local num = (x2 - a1) * d2
    if num % d1 == 0 then
      local y2 = a2 + num / d1
      if y2 % 2 == 0 then
        local X, Y = math.floor(x2 / 2 + 0.5), math.floor(y2 / 2 + 0.5)
        local beside
        if d1 * d2 > 0 then
          beside = { { x = X + 1, y = Y }, { x = X, y = Y + 1 } }
        else
          beside = { { x = X, y = Y }, { x = X + 1, y = Y + 1 } }
        end
        out[#out + 1] = { x = X, y = Y, beside = beside }
      end
    end
  end
  return out
end

-- Is (x, y) enterable on the description? (in the grid and walkable)
local function enterable(w, h, walk, x, y)
  return x >= 1 and x <= w and y >= 1 and y <= h and walk(x, y) and true or false
end

-- The segment between the centres of a and b on a description, in a diagonal mode.
-- Returns legal, cost, reason (reason says why it is not legal). The segment's own
-- start cell is not checked (a unit stands there; on a walk it is walkable anyway)
-- and its cost is not paid.
function M.segment(desc, mode, a, b)
  local w, h, walk, cost = R.normalise(desc)
  local highest = 0
  for _, c in ipairs(M.cells(a.x, a.y, b.x, b.y)) do
    if not (c.x == a.x and c.y == a.y) then
      if not enterable(w, h, walk, c.x, c.y) then
        return false, nil, ("cell (%d, %d) is not enterable"):format(c.x, c.y)
      end
      highest = math.max(highest, cost(c.x, c.y))
    end
  end
  for _, k in ipairs(M.corners(a.x, a.y, b.x, b.y)) do
    local open1 = enterable(w, h, walk, k.beside[1].x, k.beside[1].y)
    local open2 = enterable(w, h, walk, k.beside[2].x, k.beside[2].y)
    local ok
    if mode == "always" then
      ok = true
    elseif mode == "one-obstacle" then
      ok = open1 or open2
    elseif mode == "no-obstacles" then
      ok = open1 and open2
    else
      error("no corner rule for diagonal mode " .. tostring(mode))
    end
    if not ok then
      return false, nil, ("corner (%d, %d) is closed in %s"):format(k.x, k.y, mode)
    end
  end
  local dx, dy = b.x - a.x, b.y - a.y
  return true, math.sqrt(dx * dx + dy * dy) * highest, nil, highest
end

-- Sums apart, as docs/paths.md adds up a polyline (and findPath a path): a
-- segment along a row or a column adds its length times its highest cost to
-- S, one along a diagonal to D, any other its cost to O, each from the start;
-- the total is S + SQRT2 * D + O.
local SQRT2 = 1.41421356237309504880

local function sums()
  local t = { s = 0, d = 0, o = 0 }
  function t.add(a, b, c, highest)
    local adx, ady = math.abs(b.x - a.x), math.abs(b.y - a.y)
    if adx == 0 or ady == 0 then
      t.s = t.s + (adx + ady) * highest
    elseif adx == ady then
      t.d = t.d + adx * highest
    else
      t.o = t.o + c
    end
  end
  function t.total() return t.s + SQRT2 * t.d + t.o end
  return t
end

-- A polyline's legality and cost, summed apart (sums above). Returns legal,
-- cost, reason (naming the first illegal segment).
function M.polyline(desc, mode, path)
  local total = sums()
  for i = 2, #path do
    local legal, c, why, highest = M.segment(desc, mode, path[i - 1], path[i])
    if not legal then
      return false, nil, ("segment %d (%d, %d) -> (%d, %d): %s"):format(i - 1,
        path[i - 1].x, path[i - 1].y, path[i].x, path[i].y, why)
    end
    total.add(path[i - 1], path[i], c, highest)
  end
  return true, total.total()
end

-- The cost of a walk, its steps summed apart (sums above; on a hex board, `hex`
-- true, each step the entered cell's cost, added in walk order). Also the running
-- sums W[1..n] that "sight" compares against, added step by step in walk order:
-- each step the entered cell's cost times sqrt(dx^2 + dy^2), as the model prices a
-- single step.
function M.walk_cost(desc, path, hex)
  local _, _, _, cost = R.normalise(desc)
  local W, total = { 0 }, sums()
  for i = 2, #path do
    local dx, dy = path[i].x - path[i - 1].x, path[i].y - path[i - 1].y
    local length = hex and 1 or math.sqrt(dx * dx + dy * dy)
    local c = cost(path[i].x, path[i].y)
    W[i] = W[i - 1] + length * c
    total.add(path[i - 1], path[i], length * c, c)
  end
  return hex and W[#path] or total.total(), W
end

-- Is path a walk on a square board in the mode? Every point in the grid, walkable
-- (the first excepted), each step one of the eight (four in "never") moves the mode
-- allows. Returns true, or false and the reason.
function M.is_walk(desc, mode, path)
  local w, h, walk = R.normalise(desc)
  if #path < 1 then return false, "empty path" end
  for i, p in ipairs(path) do
    if not (p.x >= 1 and p.x <= w and p.y >= 1 and p.y <= h) then
      return false, ("path[%d] off the grid"):format(i)
    end
    if i > 1 then
      if not walk(p.x, p.y) then return false, ("path[%d] is a wall"):format(i) end
      local q = path[i - 1]
      local dx, dy = p.x - q.x, p.y - q.y
      local ok
      if math.abs(dx) + math.abs(dy) == 1 then
        ok = true
      elseif math.abs(dx) == 1 and math.abs(dy) == 1 then
        ok = R.diagonal_allowed(walk, mode, q.x, q.y, dx, dy)
      else
        ok = false
      end
      if not ok then return false, ("path[%d] is not a move from path[%d]"):format(i, i - 1) end
    end
  end
  return true
end

-- Cube coordinates (q, r) of a hex cell in a layout (docs: README "Hex boards").
local function hex_axial(layout, x, y)
  local col, row = x - 1, y - 1
  if layout == "odd-r" then return col - (row - row % 2) / 2, row
  elseif layout == "even-r" then return col - (row + row % 2) / 2, row
  elseif layout == "odd-q" then return col, row - (col - col % 2) / 2
  elseif layout == "even-q" then return col, row - (col + col % 2) / 2
  end
  error("unknown layout " .. tostring(layout))
end

local HEX_STEP = { ["1,0"] = true, ["-1,0"] = true, ["0,1"] = true, ["0,-1"] = true,
  ["1,-1"] = true, ["-1,1"] = true }

-- The direction of a step as a key, or nil when it is not a board move (a link).
local function direction(layout, p, q)
  local dx, dy
  if layout then
    local q1, r1 = hex_axial(layout, p.x, p.y)
    local q2, r2 = hex_axial(layout, q.x, q.y)
    dx, dy = q2 - q1, r2 - r1
    local key = ("%d,%d"):format(dx, dy)
    return HEX_STEP[key] and key or nil
  end
  dx, dy = q.x - p.x, q.y - p.y
  if (dx ~= 0 or dy ~= 0) and math.abs(dx) <= 1 and math.abs(dy) <= 1 then
    return ("%d,%d"):format(dx, dy)
  end
  return nil
end

-- "corners" of a walk: its start, its goal, every cell where the step direction
-- changes, and both ends of a step that is no board move. layout: nil for a square
-- board, else the hex layout.
function M.corners_of(path, layout)
  local n = #path
  if n <= 2 then
    local out = {}
    for i = 1, n do out[i] = { x = path[i].x, y = path[i].y } end
    return out
  end
  local keep = { [1] = true, [n] = true }
  for i = 2, n do
    local d = direction(layout, path[i - 1], path[i])
    if d == nil then
      keep[i - 1], keep[i] = true, true
    elseif i < n and direction(layout, path[i], path[i + 1]) ~= d then
      keep[i] = true
    end
  end
  local out = {}
  for i = 1, n do
    if keep[i] then out[#out + 1] = { x = path[i].x, y = path[i].y } end
  end
  return out
end

-- "sight" of a walk, as docs/paths.md writes it (gallop, then bisect). Returns the
-- points and the polyline's cost (summed apart, as M.polyline).
function M.sight(desc, mode, walk)
  local n = #walk
  local _, W = M.walk_cost(desc, walk)
  local out = { { x = walk[1].x, y = walk[1].y } }
  local S, a = 0, 1
  while a < n do
    local function ok(j)
      local legal, c = M.segment(desc, mode, walk[a], walk[j])
      return legal and S + c <= W[j]
    end
    local best, k = a + 1, 2
    while a + k <= n and ok(a + k) do best = a + k; k = 2 * k end
    if a + k > n and best < n and ok(n) then
      best = n
    elseif a + k <= n then
      local lo, hi = best, a + k
      while hi - lo > 1 do
        local mid = math.floor((lo + hi) / 2)
        if ok(mid) then lo = mid else hi = mid end
      end
      best = lo
    end
    local _, c = M.segment(desc, mode, walk[a], walk[best])
    S = S + c
    out[#out + 1] = { x = walk[best].x, y = walk[best].y }
    a = best
  end
  local _, cost = M.polyline(desc, mode, out)
  return out, cost
end

-- {x1, y1, x2, y2, ...} to {{x =, y =}, ...} and back.
function M.from_flat(flat)
  local out = {}
  for i = 1, #flat, 2 do out[#out + 1] = { x = flat[i], y = flat[i + 1] } end
  return out
end
function M.to_flat(path)
  local out = {}
  for _, p in ipairs(path) do out[#out + 1] = p.x; out[#out + 1] = p.y end
  return out
end

-- Only x and y of each point (a path's points may carry no other fields, but a
-- compared list should not depend on that).
function M.points(path)
  local out = {}
  for i, p in ipairs(path) do out[i] = { x = p.x, y = p.y } end
  return out
end

return M
