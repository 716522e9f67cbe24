-- Jump point search in the pure backend, a port of src/core/jps.c: the same
-- jump rules, the same open list (kernel.lua's 4-ary heap on f and the ties
-- stack beside it, as search_pop / search_queue), the same sums, so it expands
-- the same jump points in the same order as the C module and unfolds the same
-- cells (search_record.c unfold_jumps). Only for square boards with uniform
-- costs and no rules, moves, links or large units: search.c choose() (M.attach)
-- says when, the same rules here.
--
-- NO_OBSTACLES (8 directions, no corner cutting): a straight run from p
-- through n stops at n when a side cell of n is open and the same side of p
-- is a wall; a diagonal run stops where one of its two straight sub-runs
-- finds a jump point. NEVER (4 directions): vertical runs play the
-- diagonal's part and also stop on the side rule; a jump point reached
-- horizontally goes on both ways vertically.
--
-- A jump point's parent is the jump point it was found from; the direction
-- it was reached by is read from the two (C keeps the direction in the
-- stamp). When the goal is taken, the lines between jump points are unfolded
-- into parents cell by cell, so the path readers (search.lua, smooth.lua)
-- read it as they read A*'s.
--
-- The loops are one text (SOURCE) compiled per variant by kernel.lua: flag
-- "four" (NEVER) or not, flag "multi" (a goal list or near: the cells that
-- end the path are marked in s.target, search.lua begin_general) or not.
local S = require "astar.pure.search"
local B = require "astar.pure.board"
local K = require "astar.pure.kernel"
local T = require "astar.pure.template"
local G = require "astar.pure.grid"

local M = {}

local NEVER, NO_OBSTACLES = B.NEVER, B.NO_OBSTACLES
local MANHATTAN = 1
local ASTAR, JPS = 2, 3          -- options.lua ALGORITHM_INDEX
local MAX_GOALS = 16             -- SEARCH_JPS_MAX_GOALS
local SQRT2 = B.SQRT2

-- Whether the C module runs query s (begun by search.lua: S.begin or
-- S.begin_general) with options o by jump point search (search.c
-- astar_search_begin and choose): never for hex boards, large units, moves
-- or links, any-angle search, rules, a bound, more than MAX_GOALS goals,
-- costs that differ or a corner rule JPS does not know; A* with a weight
-- above 1 or Manhattan in 8 directions (inadmissible: the path may cross
-- itself); "auto" leaves partial queries to A*.
local function chooses(s, o)
  local grid = s.grid
  if o.algorithm == ASTAR or grid._hex or not (o.diagonal == NEVER or o.diagonal == NO_OBSTACLES)
    or grid._min_count ~= grid._w * grid._h or o.bounded or o.size > 1 or s.theta then
    return false
  end
  if s.general and (s.rule or s.moved or s.ngoals > MAX_GOALS) then return false end
  if o.weight ~= 1 or (o.heuristic == MANHATTAN and o.diagonal ~= NEVER) then return false end
  return o.algorithm == JPS or not o.partial
end
M.chooses = chooses

-- The loops. straight(open, c, step, side, ...) is the distance from cell c
-- to the first jump point ahead in direction step (side: the offset to the
-- lines beside it), 0 when a wall comes first; diagonal and vertical the
-- same for their runs. $isgoal tests cell c. The search's loop below them
-- follows jps.c astar_run_jps and expand.
local SOURCE = [==[
local function straight(open, c, step, side, goal, target, tgen)
  local from = c
  local pa, pb = open[c + side], open[c - side]
  while true do
    c = c + step
    if not open[c] then return 0 end
    if $isgoal then break end
    local a, b = open[c + side], open[c - side]
    if a ~= pa or b ~= pb then               -- a side line changed: maybe a forced neighbour
      if (a and not pa) or (b and not pb) then break end
      pa, pb = a, b
    end
  end
  return toint((c - from) / step)
end

--@if four
local function vertical(open, c, step, stride, goal, target, tgen)
  local k = 0
  while true do
    c = c + step
    k = k + 1
    if not open[c] then return 0 end
    if $isgoal then return k end
    if (open[c + 1] and not open[c + 1 - step]) or (open[c - 1] and not open[c - 1 - step]) then
      return k
    end
    if straight(open, c, 1, stride, goal, target, tgen) > 0
      or straight(open, c, -1, stride, goal, target, tgen) > 0 then
      return k
    end
  end
end
--@else
local function diagonal(open, c, step, sa, sb, stride, goal, target, tgen)
  local k = 0
  while true do
    if not (open[c + sa] and open[c + sb] and open[c + step]) then return 0 end
    c = c + step
    k = k + 1
    if $isgoal or straight(open, c, sa, stride, goal, target, tgen) > 0
      or straight(open, c, sb, 1, goal, target, tgen) > 0 then
      return k
    end
  end
end
--@end

return function(s, grid, budget)
  if not budget or budget == 0 then budget = -1 end
  local asked = budget < 0 and 0 or budget
  local open = grid._open
  if not open then return changed(s) end
  local stride = grid._stride
  local stamp, gs, parent = s.stamp, s.g, s.parent
  local hf, hc, ties = s.hf, s.hc, s.ties
  local n, tn, fc = s.n, s.tn, s.ties_f
  local generation = s.generation
  local seen = 2 * generation
  local closed = seen + 1
  local goal, start, target, tgen = s.goal, s.start, s.target, generation
  local goal_x, goal_y, h_scale, heuristic = s.goal_x, s.goal_y, s.h_scale, s.heuristic
  local unit = grid._min_cost
  local unit_diagonal = SQRT2 * unit
  local expanded, touched = s.expanded, s.touched
  local rec = s.rec   -- the jump points expanded, in order (getExpanded)
  local offset = offsets(stride)
  local dirs = s.jps_dirs
  while n > 0 or tn > 0 do
    $next
    if stamp[u] ~= closed then
      local c = u
      if $isgoal then
        s.n, s.tn, s.expanded, s.touched = 0, 0, expanded, touched
        return found(s, grid, u)
      end
      stamp[u] = closed
      expanded = expanded + 1
      rec[expanded] = u
      local gu = gs[u]
      local cx = (u - 1) % stride
      local cy = (u - 1 - cx) / stride
      -- the directions pruning leaves (jps.c expand)
      local nd
      if u == start then
        --@if four
        dirs[1], dirs[2], dirs[3], dirs[4], nd = 1, 2, 3, 4, 4
        --@else
        for d = 1, 8 do dirs[d] = d end
        nd = 8
        --@end
      else
        local dx, dy = line_of(parent[u], u, stride)
        local dir = DIR[(dy + 1) * 3 + dx + 2]
        dirs[1], nd = dir, 1
        --@if four
        if dir <= 2 then dirs[2], dirs[3] = 3, 4 else dirs[2], dirs[3] = 1, 2 end
        nd = 3
        --@else
        if dir > 4 then
          dirs[2], dirs[3], nd = CX[dir], CY[dir], 3
        else
          local back = u - offset[dir]
          local p = dir <= 2 and 3 or 1
          for q = p, p + 1 do
            if open[u + offset[q]] and not open[back + offset[q]] then
              local h, v = dir, q
              if dir > 2 then h, v = q, dir end
              dirs[nd + 1], dirs[nd + 2] = q, h + (v == 4 and 6 or 4)
              nd = nd + 2
            end
          end
        end
        --@end
      end
      for i = 1, nd do
        local e = dirs[i]
        local step = offset[e]
        local k
        if e <= 2 then
          k = straight(open, u, step, stride, goal, target, tgen)
        --@if four
        else
          k = vertical(open, u, step, stride, goal, target, tgen)
        --@else
        elseif e <= 4 then
          k = straight(open, u, step, 1, goal, target, tgen)
        else
          k = diagonal(open, u, step, offset[CX[e]], offset[CY[e]], stride, goal, target, tgen)
        --@end
        end
        if k > 0 then
          local v = u + k * step
          local ng = gu + k * (e <= 4 and unit or unit_diagonal)
          local st = stamp[v]
          if st ~= closed and (st ~= seen or ng < gs[v]) then
            if st ~= seen then touched = touched + 1 end
            gs[v], stamp[v], parent[v] = ng, seen, u
            --@if multi
            local h = h_scale * box_distance(s, heuristic, cx + k * DX[e], cy + k * DY[e])
            --@else
            local h = h_scale * distance(heuristic, cx + k * DX[e] - goal_x, cy + k * DY[e] - goal_y)
            --@end
            local f = ng + h
            if f == fc then
              tn = tn + 1                   -- a tie with the cell being expanded
              ties[tn] = v
            else
              PUSH(f, v)
            end
          end
        end
      end
    else
      budget = budget + 1                   -- a stale duplicate: not an expansion
    end
  end
  s.n, s.tn, s.expanded, s.touched = 0, 0, expanded, touched
  return exhausted(s, grid, asked)
end
]==]

-- Direction (1-8, board.lua) by (dy + 1) * 3 + dx + 2.
local DIR = { 8, 4, 7, 2, 0, 1, 6, 3, 5 }

-- The steps dx, dy (-1, 0 or 1) of the line from cell p to cell c.
local function line_of(p, c, stride)
  local px, cx = (p - 1) % stride, (c - 1) % stride
  local dx = cx > px and 1 or cx < px and -1 or 0
  local dy = c - cx > p - px and 1 or c - cx < p - px and -1 or 0
  return dx, dy
end

-- search_record.c unfold_jumps: the lines between jump points into parents
-- cell by cell. A line's parent is the closed cell on it whose cost plus the
-- jump's is exactly the child's (the sum the loop computed: it matches bit
-- for bit); cells between get the one-step parent.
local function unfold(s, grid, last)
  local stride, parent, gs, stamp, open = grid._stride, s.parent, s.g, s.stamp, grid._open
  local closed, start = 2 * s.generation + 1, s.start
  local unit = grid._min_cost
  local unit_diagonal = SQRT2 * unit
  local cell = last
  while cell ~= start do
    local dx, dy = line_of(parent[cell], cell, stride)
    local step = dy * stride + dx
    local each = (dx ~= 0 and dy ~= 0) and unit_diagonal or unit
    local g = gs[cell]
    local prev, k = cell - step, 1
    parent[cell] = prev
    while not (stamp[prev] == closed and gs[prev] + k * each == g) and open[prev] do
      parent[prev] = prev - step
      prev = prev - step
      k = k + 1
    end
    -- a wall on the line: the grid changed under the search (found)
    if not open[prev] and prev ~= start then return false end
    cell = prev
  end
  return true
end

-- The goal is taken. A finalizer that edited the grid during the loop or
-- the unfolding (any table that grows may run one) leaves jumps read on two
-- grids, whose lines cannot be unfolded on either (their parents could even
-- form a cycle): the search is over, and the query starts again.
local function found(s, grid, cell)
  if not unfold(s, grid, cell) or grid._version ~= s.version then return S.changed(s) end
  return S.finish(s, S.FOUND, cell)
end

-- Out of open cells (search.c expand): a partial query starts again with A*
-- (budget: the step's, as C gives it again),
-- whose closest cell is the partial result (its statistics go on counting,
-- as C's restart does); else no path, or a blocked goal for one goal cell.
local function exhausted(s, grid, budget)
  if not s.partial then
    s.status = (s.general or grid._open[s.goal]) and S.NO_PATH or S.GOAL_BLOCKED
    return s.status
  end
  local old, generation = s.generation, s.generation + 1
  s.generation = generation
  if s.general then   -- the cells that end the path, marked again (search.c mark_targets)
    local target, stride, near, w, h = s.target, grid._stride, s.near, grid._w, grid._h
    for i = 1, s.ngoals do
      local gx, gy = s.gx[i], s.gy[i]
      for y = gy > near and gy - near or 1, gy + near < h and gy + near or h do
        for c = y * stride + 1 + (gx > near and gx - near or 1),
          y * stride + 1 + (gx + near < w and gx + near or w) do
          if target[c] == old then target[c] = generation end
        end
      end
    end
  end
  local start = s.start
  s.runner, s.jps, s.algorithm = nil, false, "astar"
  s.n, s.tn, s.ties_f = 1, 0, -1.0
  s.hf[1], s.hc[1] = 0.0, start
  s.g[start], s.stamp[start] = 0.0, 2 * generation
  s.best, s.best_g = start, 0.0
  return S.resume(s, budget)
end

local USES = { changed = S.changed, toint = G.toint, SEARCHING = S.SEARCHING, distance = S.distance,
  box_distance = S.box_distance, DX = B.DX, DY = B.DY, DIR = DIR, line_of = line_of,
  found = found, exhausted = exhausted }

local loops = {}

local function loop(four, multi)
  local key = (four and 1 or 0) + (multi and 2 or 0)
  local fn = loops[key]
  if fn then return fn end
  local text = T.fill(SOURCE, { isgoal = multi and "target[c] == tgen" or "c == goal" })
  fn = K.compile(text, { four = four, multi = multi }, USES,
    "jps" .. (four and " four" or "") .. (multi and " multi" or ""))
  loops[key] = fn
  return fn
end

-- After S.begin or S.begin_general: makes query s (options o) run jump point
-- search where the C module does (chooses). Returns whether it does; s.jps
-- says so while it runs (a partial query's hand-over to A* clears it).
function M.attach(s, o)
  local jps = chooses(s, o)
  s.jps = jps
  if jps then
    s.algorithm = "jps"
    s.jps_dirs = s.jps_dirs or {}
    s.runner = loop(o.diagonal == NEVER, s.general)
  end
  return jps
end

return M
