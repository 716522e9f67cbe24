-- A* over a pure-Lua grid (see grid.lua for the layout), a port of
-- src/core/search.c and astar_loop.c: same neighbour order, same open-list
-- order (a 4-ary heap by f alone, and beside it the ties stack: cells whose f
-- equals the f being expanded, taken last in first out before the heap), same
-- stale-entry and counting rules, so it expands the same cells in the same
-- order and finds the same paths with the same costs and statistics.
--
-- Scratch per cell: g, parent and a stamp: 2 * generation once the cell is
-- seen by the current query, 2 * generation + 1 once it is closed. A new query
-- bumps the generation instead of clearing the arrays.
local M = {}

local H_SCALE_MAX = 1e300
M.H_SCALE_MAX = H_SCALE_MAX

local toint = math.tointeger or function(v) return v end

local sqrt = math.sqrt
local SQRT2 = sqrt(2)
local OCT = SQRT2 - 1

-- Heuristic numbers: the positions in args.HEURISTIC_NAMES.
local MANHATTAN, OCTILE, EUCLIDEAN, CHEBYSHEV = 1, 2, 3, 4
-- Diagonal numbers: the positions in args.DIAGONAL_NAMES.
local NEVER, ALWAYS, ONE_OBSTACLE = 1, 2, 3

M.SEARCHING, M.FOUND, M.PARTIAL, M.GOAL_BLOCKED, M.NO_PATH, M.GRID_CHANGED =
  "searching", "found", "partial", "goal is blocked", "no path", "grid changed"

-- Directions as in search.c: 1-4 orthogonal, 5-8 diagonal; a diagonal passes
-- between the orthogonal directions SIDE_A and SIDE_B.
local DX = { 1, -1, 0, 0, 1, -1, 1, -1 }
local DY = { 0, 0, 1, -1, 1, 1, -1, -1 }
local SIDE_A = { 0, 0, 0, 0, 1, 2, 1, 2 }
local SIDE_B = { 0, 0, 0, 0, 3, 3, 4, 4 }

-- The unscaled estimate for |dx|, |dy|.
local function distance(heuristic, a, b)
  if a < 0 then a = -a end
  if b < 0 then b = -b end
  if heuristic == OCTILE then
    if a < b then return b + OCT * a end
    return a + OCT * b
  elseif heuristic == MANHATTAN then
    return a + b
  elseif heuristic == EUCLIDEAN then
    return sqrt(a * a + b * b)
  elseif heuristic == CHEBYSHEV then
    if a < b then return b end
    return a
  end
  return 0.0
end
M.distance = distance

-- Scratch for grids of `cells` cells (border included). Filling the arrays
-- once gives them an array part, which keeps every later access fast.
function M.new(cells)
  local stamp, g, parent = {}, {}, {}
  for i = 1, cells do
    stamp[i] = 0
    g[i] = 0.0
    parent[i] = 0
  end
  return {
    cells = cells, stamp = stamp, g = g, parent = parent, generation = 0,
    hf = {}, hc = {}, n = 0, ties = {}, tn = 0, ties_f = -1.0,
    status = M.NO_PATH, expanded = 0, touched = 0,
  }
end

-- The distance that ranks cells for partial results (search.c closeness).
local function closeness(s, cell)
  local stride = s.grid._stride
  local i0 = cell - 1
  local x = i0 % stride
  local y = (i0 - x) / stride
  local h = s.heuristic
  if h == 5 then h = s.diagonal == NEVER and MANHATTAN or OCTILE end
  return distance(h, x - s.goal_x, y - s.goal_y)
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

-- Prepares a query on grid from cell index start to cell index goal.
-- heuristic and diagonal are numbers; weight >= 1.
function M.begin(s, grid, start, goal, diagonal, heuristic, weight, partial)
  local generation = s.generation + 1
  s.generation = generation
  s.grid, s.version = grid, grid._version
  s.diagonal, s.heuristic, s.partial = diagonal, heuristic, partial
  s.start, s.goal = start, goal
  local stride = grid._stride
  local gx = (goal - 1) % stride
  s.goal_x, s.goal_y = gx, (goal - 1 - gx) / stride
  -- weight * lowest cost, capped so that no key becomes inf or nan (1e300 *
  -- a grid's longest distance is still finite; search.c does the same)
  local h_scale = weight * grid._min_cost
  if h_scale > H_SCALE_MAX then h_scale = H_SCALE_MAX end
  s.h_scale = h_scale
  s.n, s.tn, s.ties_f, s.expanded, s.touched = 0, 0, -1.0, 0, 1
  s.g[start] = 0.0
  s.stamp[start] = 2 * generation
  s.best, s.best_g = start, 0.0
  s.best_distance = closeness(s, start)
  if start == goal then return finish(s, M.FOUND, start) end
  if not grid._open[goal] and not partial then
    s.status = M.GOAL_BLOCKED
    return s.status
  end
  s.n = 1
  s.hf[1], s.hc[1] = 0.0, start
  s.status = M.SEARCHING
  return s.status
end

-- The search found the grid changed: it is over (status "no path" after the
-- GRID_CHANGED it returns).
local function changed(s)
  s.n, s.tn = 0, 0
  s.status = M.NO_PATH
  return M.GRID_CHANGED
end

local run

-- Expands at most `budget` cells (nil or 0: no limit; stale open-list entries
-- do not count), as astar_search_step does, and returns the status. A change
-- to the grid before or during the call (a finalizer can run at any
-- allocation) makes it GRID_CHANGED: the cells it read may be a mix.
function M.step(s, budget)
  if s.status ~= M.SEARCHING then return s.status end
  local grid = s.grid
  if grid._version ~= s.version or not grid._open then return changed(s) end
  local status = run(s, grid, budget)
  if grid._version ~= s.version then return changed(s) end
  return status
end

-- For a stepped search (stepper.lua): expands at most `budget` cells with no
-- check of the grid's version; the caller checks the changes (M.disturbed).
function M.resume(s, budget)
  if s.status ~= M.SEARCHING then return s.status end
  return run(s, s.grid, budget)
end

-- Whether the changes to the grid since the search last looked (s.version)
-- may alter what it has read, as disturbed() in src/core/search.c: for A*, a
-- changed cell with a touched cell (stamp of this generation) among itself
-- and its 8 neighbours, a change of the heuristic's scale (the lowest cost
-- times weight), or more changes than the grid remembers; `jps` (a query the
-- C backend runs with jump point search): any change. O(changes).
function M.disturbed(s, jps, weight)
  local grid = s.grid
  local now, v = grid._version, s.version
  local log = #grid._changes
  if jps or now - v > log then return true end
  local h_scale = weight * grid._min_cost
  if h_scale > H_SCALE_MAX then h_scale = H_SCALE_MAX end
  if h_scale ~= s.h_scale then return true end
  local changes, stamp, stride, seen = grid._changes, s.stamp, grid._stride, 2 * s.generation
  for k = v + 1, now do
    local cell = changes[k % log + 1]
    for row = cell - stride, cell + stride, stride do
      if stamp[row - 1] >= seen or stamp[row] >= seen or stamp[row + 1] >= seen then
        return true
      end
    end
  end
  return false
end

function run(s, grid, budget)
  if not budget or budget == 0 then budget = -1 end

  local open, cost = grid._open, grid._cost
  local stride = grid._stride
  local stamp, gs, parent = s.stamp, s.g, s.parent
  local hf, hc, ties = s.hf, s.hc, s.ties
  local n, tn, fc = s.n, s.tn, s.ties_f
  local seen = 2 * s.generation
  local closed = seen + 1
  local goal, goal_x, goal_y = s.goal, s.goal_x, s.goal_y
  local h_scale, heuristic, diagonal, partial = s.h_scale, s.heuristic, s.diagonal, s.partial
  local expanded, touched = s.expanded, s.touched
  local last_dir = diagonal == NEVER and 4 or 8
  local offset = {}
  for d = 1, 8 do offset[d] = DY[d] * stride + DX[d] end

  while n > 0 or tn > 0 do
    if budget == 0 then
      s.n, s.tn, s.ties_f, s.expanded, s.touched = n, tn, fc, expanded, touched
      return M.SEARCHING
    end
    budget = budget - 1

    local cell
    if tn > 0 then
      cell = ties[tn]
      tn = tn - 1
    else
      -- pop the first entry (heap.h heap_pop: a 4-ary heap by f alone)
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
      if cell == goal then
        s.n, s.tn, s.expanded, s.touched = 0, 0, expanded, touched
        return finish(s, M.FOUND, cell)
      end
      stamp[cell] = closed
      expanded = expanded + 1
      local g = gs[cell]
      if partial then
        local d = closeness(s, cell)
        if d < s.best_distance or (d == s.best_distance and g < s.best_g) then
          s.best, s.best_distance, s.best_g = cell, d, g
        end
      end
      local i0 = cell - 1
      local cx = i0 % stride
      local cy = (i0 - cx) / stride

      for d = 1, last_dir do
        local nb = cell + offset[d]
        if open[nb] then
          local allowed = true
          local step = cost and cost[nb] or 1.0
          if d > 4 then
            step = SQRT2 * step
            if diagonal ~= ALWAYS then
              local a, b = open[cell + offset[SIDE_A[d]]], open[cell + offset[SIDE_B[d]]]
              if diagonal == ONE_OBSTACLE then
                allowed = a or b
              else
                allowed = a and b
              end
            end
          end
          local st = stamp[nb]
          if allowed and st ~= closed then
            local ng = g + step
            if st ~= seen or ng < gs[nb] then
              if st ~= seen then touched = touched + 1 end
              gs[nb], stamp[nb], parent[nb] = ng, seen, cell
              local h = 0.0
              if heuristic ~= 5 then
                local a, b = cx + DX[d] - goal_x, cy + DY[d] - goal_y
                if a < 0 then a = -a end
                if b < 0 then b = -b end
                if heuristic == OCTILE then
                  if a < b then h = b + OCT * a else h = a + OCT * b end
                elseif heuristic == MANHATTAN then
                  h = a + b
                elseif heuristic == EUCLIDEAN then
                  h = sqrt(a * a + b * b)
                elseif a < b then
                  h = b
                else
                  h = a
                end
                h = h_scale * h
              end
              local f = ng + h
              if f == fc then
                tn = tn + 1           -- a tie with the cell being expanded
                ties[tn] = nb
              else
                -- push (heap.h heap_push)
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
          end
        end
      end
    else
      budget = budget + 1                       -- a stale duplicate: not an expansion
    end
  end

  s.n, s.tn, s.expanded, s.touched = 0, 0, expanded, touched
  if partial then return finish(s, M.PARTIAL, s.best) end
  s.status = open[goal] and M.NO_PATH or M.GOAL_BLOCKED
  return s.status
end

-- The cells the query expanded so far, {x =, y =} (1-based) in row order: a
-- scan of the whole grid, as astar_search_expanded_cell is asked cell by cell.
function M.expanded_cells(s)
  local grid, stamp = s.grid, s.stamp
  local stride, closed = grid._stride, 2 * s.generation + 1
  local out, n = {}, 0
  for y = 1, grid._h do
    local row = y * stride + 1
    for x = 1, grid._w do
      if stamp[row + x] == closed then
        n = n + 1
        out[n] = { x = toint(x), y = toint(y) }
      end
    end
  end
  return out
end

-- The result after FOUND or PARTIAL: an array of {x =, y =} (1-based) and its cost.
function M.path(s)
  local stride, parent = s.grid._stride, s.parent
  local cell = s.finish
  local path = {}
  for k = s.length, 1, -1 do
    local i0 = cell - 1
    local x = i0 % stride
    path[k] = { x = toint(x), y = toint((i0 - x) / stride) }
    cell = parent[cell]
  end
  return path, s.g[s.finish]
end

-- #t without __len (lua_rawlen); Lua 5.1's # never calls __len on a table.
local rawlen = rawlen or function(t) return #t end
local rawget, rawset, type = rawget, rawset, type

-- The path written into the caller's table `into` (findPath's opts.into), as
-- push_path in src/lua/lua_astar.c: flat, or as points reusing the point
-- tables already there (only x and y set); entries past the path's end, up
-- to #into, are cleared. Returns into and the cost.
function M.path_into(s, into, flat)
  local stride, parent = s.grid._stride, s.parent
  local cell = s.finish
  local n = s.length
  if flat then
    for k = 2 * n, 2, -2 do
      local i0 = cell - 1
      local x = i0 % stride
      rawset(into, k - 1, toint(x))
      rawset(into, k, toint((i0 - x) / stride))
      cell = parent[cell]
    end
    n = 2 * n
  else
    for k = n, 1, -1 do
      local i0 = cell - 1
      local x0 = i0 % stride
      local x, y = toint(x0), toint((i0 - x0) / stride)
      local p = rawget(into, k)
      if type(p) == "table" then
        rawset(p, "x", x)
        rawset(p, "y", y)
      else
        rawset(into, k, { x = x, y = y })
      end
      cell = parent[cell]
    end
  end
  for k = n + 1, rawlen(into) do rawset(into, k, nil) end
  return into, s.g[s.finish]
end

-- The path as one new flat array {x1, y1, x2, y2, ...} (1-based), and its cost.
function M.flat_path(s)
  return M.path_into(s, {}, true)
end

return M
