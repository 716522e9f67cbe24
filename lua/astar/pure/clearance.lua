-- Large units (src/core/clearance.c, large.c): a unit of size k covers the k x k cells
-- whose top-left cell is its position. A position is allowed when every cell
-- it covers is in the grid, walkable and not impassable by the rules (the
-- start's own cells are not checked); entering it costs the highest entry
-- cost among the cells it newly covers (SQRT2 times that diagonally); the
-- corner rule applies to the positions beside a diagonal step; goals and
-- near are about the top-left cell, and a path never ends on a position
-- covering an "occupied" cell. The C core keeps a layer of
-- the positions where the unit fits per size; this backend checks the k x k
-- cells where it needs them. Queries of size > 1 run run_large, search.lua's
-- general loop on kernel.lua that prices each step by the cells it newly
-- covers; the begin and the rest are search.lua's.
local S = require "astar.pure.search"
local Q = require "astar.pure.query_rules"
local B = require "astar.pure.board"
local K = require "astar.pure.kernel"

local M = {}

local toint = math.tointeger or function(v) return v end
local huge = math.huge
local NEVER, ALWAYS, ONE_OBSTACLE = B.NEVER, B.ALWAYS, B.ONE_OBSTACLE

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

-- Every cell of position p, row by row (large.c check_footprint): nil
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

-- Whether position p may not be ended on (large.c large_no_stop): a cell
-- it covers may not (an ally under any part of the unit). Every cell of an
-- entered position was asked about, so the answers are read, never asked.
local function no_stop(s, grid, p)
  local k, stride, rc, rs, generation = s.size, grid._stride, s.rc, s.rs, s.generation
  for row = p, p + (k - 1) * stride, stride do
    for c = row, row + k - 1 do
      if rs[c] == generation and rc[c] < 0 then return true end
    end
  end
  return false
end

-- The goal position's value (search.c begin_general): its top-left cell's
-- entry cost (negative: the path may not end there, a covered cell may not
-- be ended on), huge when it does not fit or covers an impassable cell, nil
-- when the rule stopped the query.
function M.goal_value(s, grid, goal, open)
  if not fits(open, grid, goal, s.size) then return huge end
  local v = check_footprint(s, grid, goal)
  if v ~= 0 then return v end
  v = value(s, grid, goal)
  if v ~= nil and s.rule and no_stop(s, grid, goal) and v > 0 then v = -v end
  return v
end

-- The cost of moving from position c by (dx, dy) to position n
-- (large.c large_look): the highest entry cost among the cells n newly
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

-- Whether a unit may be taken by a link to position v (moves.lua): huge
-- when it does not fit there or covers an impassable cell, nil when the
-- rule stopped the query, else 0.
local function link_target(s, grid, open, v)
  if not fits(open, grid, v, s.size) then return huge end
  return check_footprint(s, grid, v)
end

-- search.lua's general loop on kernel.lua with move_cost for the entry
-- costs, the corner rule over the positions beside a diagonal step.
local LARGE = { name = "astar large", flags = { "general" },
  uses = { changed = S.changed, closeness = S.general_closeness, finish = S.finish,
    within_max_cost = S.within_max_cost,
    box_distance = S.box_distance, move_cost = move_cost, link_target = link_target,
    no_stop = no_stop,
    DX = B.DX, DY = B.DY, NEVER = NEVER, ALWAYS = ALWAYS, ONE_OBSTACLE = ONE_OBSTACLE,
    SEARCHING = S.SEARCHING, FOUND = S.FOUND,
    PARTIAL = S.PARTIAL, NO_PATH = S.NO_PATH, STOPPED = S.STOPPED },
  prepare = [=[
    local p, cells = {}, {}
    local last = diagonal == NEVER and 4 or 8]=],
  goal = "target[u] == generation and not (rule and u ~= start and no_stop(s, grid, u))",
  best = "partial and not (rule and u ~= start and no_stop(s, grid, u))",
  closeness = "closeness(s, u)",
  moves = [=[
    for d = 1, last do
      local ok = true
      if d > 4 then
        local a, b = p[CX[d]], p[CY[d]]
        if diagonal == ONE_OBSTACLE then ok = a or b
        elseif diagonal ~= ALWAYS then ok = a and b end
      end
      if ok then
        local v = u + offset[d]
        if rule then s.expanded, s.touched = expanded, touched end   -- as they stand for the rule
        local c = move_cost(s, grid, open, u, v, DX[d], DY[d], cells)
        if c == nil then return stopped() end
        if d <= 4 then p[d] = c ~= huge end
        if c ~= huge then
          local step = d <= 4 and c or SQRT2 * c
          RELAX
        end
      end
    end]=],
  heuristic = "local h = h_scale * box_distance(s, heuristic, $hx, $hy)",
  -- a link moves the unit to its target position when it fits there
  link_look = [=[
    local e = link_target(s, grid, open, v)
    if e == nil then return stopped() end
    local pass = e ~= huge]=],
  kind = "large",
}
local run_large = K.astar(LARGE)

function M.run_large(s, grid, budget)
  if s.moved then return K.astar(LARGE, "moves")(s, grid, budget) end
  return run_large(s, grid, budget)
end

return M
