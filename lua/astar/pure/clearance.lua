-- Large units (src/core/clearance.c): a unit of size k covers the k x k cells
-- whose top-left cell is its position. A position is allowed when every cell
-- it covers is in the grid, walkable and not impassable by the rules (the
-- start's own cells are not checked); entering it costs the highest entry
-- cost among the cells it newly covers (SQRT2 times that diagonally); the
-- corner rule applies to the positions beside a diagonal step; goals, near
-- and "occupied" are about the top-left cell. The C core keeps a layer of
-- the positions where the unit fits per size; this backend checks the k x k
-- cells where it needs them. Queries of size > 1 run run_large, a copy of
-- search.lua's run_general that prices each step by the cells it newly
-- covers; the begin and the rest are search.lua's.
local S = require "astar.pure.search"
local Q = require "astar.pure.query_rules"

local M = {}

local toint = math.tointeger or function(v) return v end
local huge, SQRT2 = math.huge, math.sqrt(2)
local NEVER, ALWAYS, ONE_OBSTACLE = 1, 2, 3

-- Does a unit of size k fit with its top-left at bordered cell `cell`? open
-- is the query's own reference to the grid's walkable cells, taken when it
-- started: a finalizer may close the grid (grid._open = nil) at any
-- allocation, and the query must then finish on what it took, as in C.
local function fits(open, grid, cell, k)
  local stride = grid._stride
  local i0 = cell - 1
  local x = i0 % stride
  local y = (i0 - x) / stride
  if x + k - 1 > grid._w or y + k - 1 > grid._h then return false end
  for row = cell, cell + (k - 1) * stride, stride do
    for c = row, row + k - 1 do
      if not open[c] then return false end
    end
  end
  return true
end
M.fits = fits

-- The cells a unit of size k newly covers when it steps by (dx, dy) onto
-- position q (clearance.h astar_new_cells): those of q that q - (dx, dy) does
-- not cover, k of them, 2k - 1 for a diagonal step. What a step costs and
-- what it must check, so search, ranges and distance maps all walk them with
-- this, in the row-by-row order the rules are asked in: in row j of q all k
-- cells when j is the new row (dy ~= 0), else the one cell of the new column
-- (dx ~= 0). Bordered cells (row length stride) into list[1..n]; returns n.
function M.new_cells(list, q, dx, dy, k, stride)
  local n = 0
  local new_row = dy > 0 and k - 1 or dy < 0 and 0 or -1
  local new_col = dx > 0 and k - 1 or 0
  local row = q
  for j = 0, k - 1 do
    if j == new_row then
      for c = row, row + k - 1 do
        n = n + 1
        list[n] = c
      end
    elseif dx ~= 0 then
      n = n + 1
      list[n] = row + new_col
    end
    row = row + stride
  end
  return n
end
local new_cells = M.new_cells

-- The entry cost of bordered cell c for the query: the rule's (asked once
-- per query; negative where the path may not end) or the grid's; nil when
-- the rule stopped the query.
local function value(s, grid, c)
  local cost = grid._cost
  local grid_cost = cost and cost[c] or 1.0
  local rule = s.rule
  if not rule then return grid_cost end
  local generation = s.generation
  if s.rs[c] == generation then return s.rc[c] end
  local stride = grid._stride
  local i0 = c - 1
  local x = i0 % stride
  local v, flags = Q.cell(rule, toint(x), toint((i0 - x) / stride), grid_cost)
  if v == nil then return nil end
  if flags == Q.NO_STOP and v ~= huge then v = -v end
  s.rc[c], s.rs[c] = v, generation
  return v
end

-- Every cell of position p, row by row (clearance.c check_footprint): nil
-- when the rule stopped the query, huge at the first impassable one, else 0.
local function check_footprint(s, grid, p)
  local k, stride = s.size, grid._stride
  for row = p, p + (k - 1) * stride, stride do
    for c = row, row + k - 1 do
      local v = value(s, grid, c)
      if v == nil or v == huge then return v end
    end
  end
  return 0
end

-- The goal position's value (search.c begin_general): its top-left cell's
-- entry cost (negative: the path may not end there), huge when it does not
-- fit or covers an impassable cell, nil when the rule stopped the query.
function M.goal_value(s, grid, goal, open)
  if not fits(open, grid, goal, s.size) then return huge end
  local v = check_footprint(s, grid, goal)
  if v ~= 0 then return v end
  return value(s, grid, goal)
end

-- The cost of moving from position c by (dx, dy) to position n
-- (clearance.c move_cost): the highest entry cost among the cells n newly
-- covers (found in cells, a scratch list). c fits and its cells were checked
-- when it was entered, so only the new cells are, but from the start, whose
-- cells were never checked: from there the whole position is.
local function move_cost(s, grid, open, c, n, dx, dy, cells)
  local k, stride = s.size, grid._stride
  local count = new_cells(cells, n, dx, dy, k, stride)
  if c == s.start then
    if not fits(open, grid, n, k) then return huge end
    if s.rule then
      local v = check_footprint(s, grid, n)
      if v ~= 0 then return v end
    end
  else
    for i = 1, count do
      if not open[cells[i]] then return huge end
    end
  end
  local worst = 0.0
  for i = 1, count do
    local v = value(s, grid, cells[i])
    if v == nil or v == huge then return v end
    if v < 0 then v = -v end
    if v > worst then worst = v end
  end
  return worst
end

-- search.lua run_general with move_cost for the entry costs.
function M.run_large(s, grid, budget)
  if not budget or budget == 0 then budget = -1 end
  if not grid._open then return S.changed(s) end
  local stride, open = grid._stride, grid._open
  local stamp, gs, parent = s.stamp, s.g, s.parent
  local hf, hc, ties = s.hf, s.hc, s.ties
  local n, tn, fc = s.n, s.tn, s.ties_f
  local generation = s.generation
  local seen = 2 * generation
  local closed = seen + 1
  local rc, target = s.rc, s.target
  local rule, start = s.rule, s.start
  local bounded, max_cost = s.bounded, s.max_cost
  local h_scale, heuristic, diagonal, partial = s.h_scale, s.heuristic, s.diagonal, s.partial
  local box_distance, closeness = S.box_distance, S.general_closeness

  local function relax(cell, nb, ng, nx, ny)
    if bounded and ng > max_cost then return end
    local st = stamp[nb]
    if st == closed or (st == seen and ng >= gs[nb]) then return end
    if st ~= seen then s.touched = s.touched + 1 end
    gs[nb], stamp[nb], parent[nb] = ng, seen, cell
    local f = ng + h_scale * box_distance(s, heuristic, nx, ny)
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
    s.n, s.tn = 0, 0
    s.status = S.NO_PATH
    return S.STOPPED
  end

  local DX = { 1, -1, 0, 0, 1, -1, 1, -1 }
  local DY = { 0, 0, 1, -1, 1, 1, -1, -1 }
  local SA = { 0, 0, 0, 0, 1, 2, 1, 2 }
  local SB = { 0, 0, 0, 0, 3, 3, 4, 4 }
  local p, cells = {}, {}
  local last = diagonal == NEVER and 4 or 8

  while n > 0 or tn > 0 do
    if budget == 0 then
      s.n, s.tn, s.ties_f = n, tn, fc
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
        local l = first + 3
        if l > n then l = n end
        for q = first + 1, l do
          if hf[q] < bf then best, bf = q, hf[q] end
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
      if target[cell] == generation and not (rule and cell ~= start and rc[cell] < 0) then
        s.n, s.tn = 0, 0
        return S.finish(s, S.FOUND, cell)
      end
      stamp[cell] = closed
      s.expanded = s.expanded + 1
      local g = gs[cell]
      if partial and not (rule and cell ~= start and rc[cell] < 0) then
        local d = closeness(s, cell)
        if d < s.best_distance or (d == s.best_distance and g < s.best_g) then
          s.best, s.best_distance, s.best_g = cell, d, g
        end
      end
      local i0 = cell - 1
      local cx = i0 % stride
      local cy = (i0 - cx) / stride
      for d = 1, last do
        local ok = true
        if d > 4 then
          local a, b = p[SA[d]], p[SB[d]]
          if diagonal == ONE_OBSTACLE then ok = a or b
          elseif diagonal ~= ALWAYS then ok = a and b end
        end
        if ok then
          local nb = cell + DY[d] * stride + DX[d]
          local v = move_cost(s, grid, open, cell, nb, DX[d], DY[d], cells)
          if v == nil then return stopped() end
          if d <= 4 then p[d] = v ~= huge end
          if v ~= huge then
            relax(cell, nb, g + (d <= 4 and v or SQRT2 * v), cx + DX[d], cy + DY[d])
          end
        end
      end
    else
      budget = budget + 1
    end
  end

  s.n, s.tn = 0, 0
  if partial then return S.finish(s, S.PARTIAL, s.best) end
  s.status = S.NO_PATH
  return s.status
end

return M
