-- Paths a unit can follow (issue 20, docs/paths.md) for the pure-Lua
-- backend: opts.smooth ("corners", "sight", "theta") read and checked for
-- findPath and newSearch (options.lua, methods.lua), applied to a search's
-- walk when it finishes (methods.lua findPath, stepper.lua), to a range's or
-- a distance map's walk ("corners" only: they keep no grid), and
-- grid:smoothPath. "sight" prices its segments with segment.lua.
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local B = require "astar.pure.board"
local P = require "astar.pure.points"
local Q = require "astar.pure.query_rules"
local S = require "astar.pure.search"
local HX = require "astar.pure.hex"
local SEG = require "astar.pure.segment"
local O = require "astar.pure.options"
local GEO = require "astar.pure.geometry"

local M = {}

local type, rawget, rawset, next, select = type, rawget, rawset, next, select
local floor, huge = math.floor, math.huge
local format = string.format
local rawlen = rawlen or function(t) return #t end -- luacheck: ignore 113
local toint = G.toint
local arg_error, number_text = A.arg_error, A.number_text
local NEVER = B.NEVER

-- The smoothings, by their positions in NAMES (options.lua reads them); false:
-- none (the walk).
local CORNERS, SIGHT, THETA = 1, 2, 3
M.CORNERS, M.SIGHT, M.THETA = CORNERS, SIGHT, THETA
local NAMES = O.SMOOTH_NAMES

--- applies(grid, mode, diagonal, size, move_rule, num, fname) -> the
-- smoothing a query of fname (options: argument num) runs: "sight" and
-- "theta" need a square board, a one-cell unit and no moves, else an error
-- (in query_options.c's order, then lua_astar.c check_query's moves); in
-- 4-direction mode ("never") they are "corners" (docs/paths.md).
function M.applies(grid, mode, diagonal, size, move_rule, num, fname)
  if mode == CORNERS then return mode end
  local function refuse(why)
    arg_error(num, fname, nil, format("opts.smooth: '%s' %s", NAMES[mode], why))
  end
  if grid._hex then refuse("needs a square board") end
  if size > 1 then refuse("needs a one-cell unit") end
  if move_rule then refuse("needs a query without opts.move") end
  if grid._moves then refuse("needs a grid without move overrides or links") end
  if diagonal == NEVER then return CORNERS end
  return mode   -- "theta": search.lua runs theta.lua's loop
end

-- ---- "corners" ------------------------------------------------------------------

-- The direction of the step from (x0, y0) to (x1, y1) (1-based) when it is
-- a board move: (dx, dy) on a square board (any diagonal mode: the second
-- argument, unread), the axial step on a hex board of layout `hex`; nil for
-- any other step (a link).
local function direction(hex, _, x0, y0, x1, y1)
  local dx, dy
  if hex then
    local q0, r0 = HX.axial(hex, x0 - 1, y0 - 1)
    local q1, r1 = HX.axial(hex, x1 - 1, y1 - 1)
    dx, dy = q1 - q0, r1 - r0
    local ds = dx + dy
    if ds < -1 or ds > 1 then return nil end
  else
    dx, dy = x1 - x0, y1 - y0
  end
  if dx < -1 or dx > 1 or dy < -1 or dy > 1 or (dx == 0 and dy == 0) then return nil end
  return dx, dy
end

--- corners(xs, ys, n, hex, diagonal) -> keep, m: the positions in the walk
-- (xs[k], ys[k]), k = 1..n) of its start, its goal and every point where
-- the direction changes; both ends of a step that is not a board move.
function M.corners(xs, ys, n, hex, diagonal)
  local keep, m = { 1 }, 1
  if n == 1 then return keep, m end
  local pdx, pdy = direction(hex, diagonal, xs[1], ys[1], xs[2], ys[2])
  for k = 2, n - 1 do
    local dx, dy = direction(hex, diagonal, xs[k], ys[k], xs[k + 1], ys[k + 1])
    if not (dx and pdx and dx == pdx and dy == pdy) then
      m = m + 1
      keep[m] = k
    end
    pdx, pdy = dx, dy
  end
  keep[m + 1] = n
  return keep, m + 1
end

-- ---- "sight" --------------------------------------------------------------------

--- sight(cells, n, stride, diagonal, price) -> keep, m, cost: the string
-- pulling of docs/paths.md over the walk cells[1..n] (bordered cells), as
-- positions in the walk, and the polyline's cost (SEG.polyline_cost); nil
-- when price stopped.
function M.sight(cells, n, stride, diagonal, price)
  local cost = SEG.cost
  local step, W = {}, { 0.0 }   -- each step's cost; the walk's cost to each point
  for j = 2, n do
    local c = cost(stride, diagonal, price, cells[j - 1], cells[j])
    if c == nil then return nil end
    step[j] = c
    W[j] = W[j - 1] + c
  end
  local keep, m = { 1 }, 1
  local total, a = 0.0, 1
  local last   -- the cost of the segment ok() looked at last
  -- Whether the segment from p[a] to p[j] is legal and costs no more than
  -- the walk it replaces; nil when price stopped.
  local function ok(j)
    last = cost(stride, diagonal, price, cells[a], cells[j])
    if last == nil then return nil end
    return last < huge and total + last <= W[j]
  end
  while a < n do
    local best, best_cost = a + 1, step[a + 1]   -- a single step is always ok
    local k = 2
    while a + k <= n do
      local r = ok(a + k)
      if r == nil then return nil end
      if not r then break end
      best, best_cost, k = a + k, last, 2 * k
    end
    if a + k > n then
      if best < n then   -- the last cell, past the gallop
        local r = ok(n)
        if r == nil then return nil end
        if r then best, best_cost = n, last end
      end
    else                 -- a + k failed: bisect (best, a + k)
      local hi = a + k
      while hi - best > 1 do
        local mid = floor((best + hi) / 2)
        local r = ok(mid)
        if r == nil then return nil end
        if r then best, best_cost = mid, last else hi = mid end
      end
    end
    total = total + best_cost
    m = m + 1
    keep[m] = best
    a = best
  end
  -- its cost summed as a path's is (segment.lua polyline_cost)
  local sum = SEG.polyline_cost(stride, price, cells, keep, m)
  if sum == nil then return nil end
  return keep, m, sum
end

-- ---- results --------------------------------------------------------------------

--- emit(xs, ys, n, into, flat) -> the points (xs[k], ys[k]), k = 1..n, as a
-- path ({x =, y =} each) or flat ({x1, y1, ...}), in a new table or written
-- into `into` (its point tables reused, what it held past the end cleared).
function M.emit(xs, ys, n, into, flat)
  local t = into or {}
  if flat then
    for k = 1, n do
      rawset(t, 2 * k - 1, xs[k])
      rawset(t, 2 * k, ys[k])
    end
    n = 2 * n
  else
    for k = 1, n do P.set_point(t, k, xs[k], ys[k], nil, into ~= nil) end
  end
  if into then P.clear_tail(t, n + 1) end
  return t
end

-- The points of xs, ys at positions keep[1..m].
local function pick(xs, ys, keep, m)
  local kx, ky = {}, {}
  for i = 1, m do
    kx[i], ky[i] = xs[keep[i]], ys[keep[i]]
  end
  return kx, ky
end

--- walk_corners(xs, ys, n, hex, diagonal, into, flat) -> the "corners" of
-- a range's or a distance map's walk, in the form asked.
function M.walk_corners(xs, ys, n, hex, diagonal, into, flat)
  local kx, ky = pick(xs, ys, M.corners(xs, ys, n, hex, diagonal))
  return M.emit(kx, ky, #kx, into, flat)
end

-- ---- a search's walk ------------------------------------------------------------

-- The entry cost of bordered cell v for search s, priced as its loop prices
-- it (kernel.lua's entry: the rule asked once per query, never about the
-- start, its answer kept in s.rc, s.rs); nil when the rule stopped.
local function search_price(s, grid)
  local rule = s.general and s.rule
  if not rule then return SEG.grid_price(grid) end
  local open, cost, stride = grid._open, grid._cost, grid._stride
  local rc, rs, generation, start = s.rc, s.rs, s.generation, s.start
  return function(v)
    if not open[v] then return huge end
    local c
    if rs[v] == generation then
      c = rc[v]
    else
      local grid_cost = cost and cost[v] or 1.0
      if v == start then return grid_cost end
      local i0 = v - 1
      local x = i0 % stride
      local flags
      c, flags = Q.cell(rule, toint(x), toint((i0 - x) / stride), grid_cost)
      if c == nil then return nil end
      if flags == Q.NO_STOP and c ~= huge then c = -c end
      rc[v], rs[v] = c, generation
    end
    if c < 0 then return -c end   -- a cell the path may not end on
    return c
  end
end

--- finish(s, mode) -> status: smooths the walk of search s, which has just
-- ended FOUND or PARTIAL (its status, returned), for a query whose
-- smoothing is mode (applies'), into s.smooth_x, s.smooth_y, s.smooth_n
-- and s.smooth_cost. S.STOPPED when its rule stopped it (the search is
-- then over, "no path"). The caller sees to changes of the grid meanwhile.
function M.finish(s, mode)
  local grid, status = s.grid, s.status
  local stride, parent = grid._stride, s.parent
  local n = s.length
  local cells, xs, ys = {}, {}, {}
  local cell = s.finish
  for k = n, 1, -1 do
    local i0 = cell - 1
    local x = i0 % stride
    cells[k], xs[k], ys[k] = cell, toint(x), toint((i0 - x) / stride)
    cell = parent[cell]
  end
  local keep, m, cost
  if mode ~= CORNERS and (s.hex or s.size > 1 or s.moved or s.diagonal == NEVER) then
    mode = CORNERS   -- search.c smoothing: moves came since the query was read
  end
  if mode == THETA then   -- the any-angle search's path is its waypoints
    keep, m = {}, n
    for k = 1, n do keep[k] = k end
    cost = SEG.polyline_cost(stride, search_price(s, grid), cells, keep, m)
  elseif mode == SIGHT then
    keep, m, cost = M.sight(cells, n, stride, s.diagonal, search_price(s, grid))
    if not keep then
      s.n, s.tn, s.status = 0, 0, S.NO_PATH
      return S.STOPPED
    end
  else
    keep, m = M.corners(xs, ys, n, s.hex, s.diagonal)
    cost = s.cost
  end
  s.smooth_x, s.smooth_y = pick(xs, ys, keep, m)
  s.smooth_n, s.smooth_cost = m, cost
  return status
end

--- after(s, status, mode) -> status: finish(s, mode) when the search has
-- just found its path (FOUND or PARTIAL), else status as it is.
function M.after(s, status, mode)
  if mode and (status == S.FOUND or status == S.PARTIAL) then return M.finish(s, mode) end
  return status
end

--- result(s, into, flat) -> the smoothed path of s (finish) in the form
-- asked, and its cost.
function M.result(s, into, flat)
  return M.emit(s.smooth_x, s.smooth_y, s.smooth_n, into, flat), s.smooth_cost
end

-- ---- grid:smoothPath(path [, opts]) ---------------------------------------------

local SMOOTH_PATH = "smoothPath"
local PATH_OPTIONS = { smooth = 4, diagonal = 1, flat = 2, into = 3 }   -- the checking order

-- The options of smoothPath (argument 2): smooth, diagonal, flat, into.
-- A bad name first (one that is not a string, then the least), then the
-- values in the order diagonal, flat, into, smooth.
local function read_path_options(grid, opts, present)
  local hex = grid._hex ~= nil
  local o = { smooth = hex and CORNERS or SIGHT, diagonal = grid._diagonal, flat = nil, into = nil }
  if opts == nil then return o end
  if type(opts) ~= "table" then A.type_error(2, SMOOTH_PATH, nil, "table", opts, present) end
  local worst, has_worst, given = nil, false, {}
  for key, v in next, opts do
    local id = PATH_OPTIONS[key]
    if id then
      given[id] = v
    elseif O.worse_key(key, worst, has_worst) then
      worst, has_worst = key, true
    end
  end
  if has_worst then O.bad_key(SMOOTH_PATH, 2, worst) end
  if given[1] ~= nil then
    o.diagonal = A.check_diagonal(given[1], true, 2, SMOOTH_PATH, "opts.diagonal: ", hex)
  end
  if given[2] ~= nil then o.flat = A.check_boolean(given[2], true, 2, SMOOTH_PATH, "opts.flat: ") end
  if given[3] ~= nil then
    if type(given[3]) ~= "table" then
      A.type_error(2, SMOOTH_PATH, "opts.into: ", "table", given[3], true)
    end
    o.into = given[3]
  end
  if given[4] ~= nil then
    local function refuse(why)
      arg_error(2, SMOOTH_PATH, nil, format("opts.smooth: '%s' %s", NAMES[o.smooth], why))
    end
    o.smooth = O.read_smooth(given[4], 2, SMOOTH_PATH) or CORNERS   -- false: the corners
    if o.smooth == THETA then refuse("needs a search (findPath or newSearch)") end
    if o.smooth == SIGHT and hex then refuse("needs a square board") end
  end
  return o
end

local function bad_path(message, fname)
  arg_error(1, fname or SMOOTH_PATH, nil, message)
end

-- The form of path (a table, argument 1 of fname): whether it is flat (its
-- first value a number) and its number of points; an empty path or a flat
-- one of odd length is an error (lua_paths.c read_form).
local function path_form(path, fname)
  local n = rawlen(path)
  if n == 0 then bad_path("path is empty", fname) end
  local flat = type(rawget(path, 1)) == "number"
  if flat and n % 2 == 1 then bad_path("flat path has an odd length " .. n, fname) end
  return flat, flat and n / 2 or n
end

-- Point k of path in its form, as numbers, or the error naming the value
-- that is not one (lua_paths.c read_point). Raw reads, no table made.
local function path_point(path, flat, k, fname)
  if flat then
    local x, y = rawget(path, 2 * k - 1), rawget(path, 2 * k)
    if type(x) ~= "number" then
      bad_path(format("path[%d]: number expected, got %s", 2 * k - 1, type(x)), fname)
    end
    if type(y) ~= "number" then
      bad_path(format("path[%d]: number expected, got %s", 2 * k, type(y)), fname)
    end
    return x, y
  end
  local p = rawget(path, k)
  if type(p) ~= "table" then bad_path(format("path[%d]: point expected, got %s", k, type(p)), fname) end
  local x, y = rawget(p, "x"), rawget(p, "y")
  if type(x) ~= "number" then bad_path(format("path[%d].x: number expected, got %s", k, type(x)), fname) end
  if type(y) ~= "number" then bad_path(format("path[%d].y: number expected, got %s", k, type(y)), fname) end
  return x, y
end

-- The path's raw values: a flat array's numbers, or each point and its x, y.
local function read_raw(path, n, flat)
  local vs, xs, ys = {}, {}, {}
  for i = 1, n do
    local p = rawget(path, i)
    vs[i] = p
    if not flat and type(p) == "table" then xs[i], ys[i] = rawget(p, "x"), rawget(p, "y") end
  end
  return vs, xs, ys
end

-- Whether path still holds what read_raw read (checked without allocating).
local function unchanged(path, n, flat, vs, xs, ys)
  if rawlen(path) ~= n then return false end
  for i = 1, n do
    local p = rawget(path, i)
    if p ~= vs[i] or not flat and type(p) == "table"
      and (rawget(p, "x") ~= xs[i] or rawget(p, "y") ~= ys[i]) then
      return false
    end
  end
  return true
end

-- The walk's points as lists of numbers px, py and their count, checked as
-- numbers (the path as it was at one moment: the tables made while it is
-- read may run finalizers that change it).
local function read_walk(path)
  for _ = 1, G.MEASURE_TRIES do
    local flat, m = path_form(path)
    local n = flat and 2 * m or m
    local vs, xs, ys = read_raw(path, n, flat)
    if unchanged(path, n, flat, vs, xs, ys) then
      for k = 1, m do path_point(path, flat, k) end   -- (the path as read: nothing ran since)
      if not flat then return xs, ys, n end
      local px, py = {}, {}
      for k = 1, m do px[k], py[k] = vs[2 * k - 1], vs[2 * k] end
      return px, py, m
    end
  end
  error("path changed during " .. SMOOTH_PATH, 0)
end

-- The walk's cells (bordered) and its points as whole numbers, every point
-- on the grid and walkable in `open` (the first excepted), else the error
-- naming it; then (check_steps) each step a board move of the diagonal mode.
local function check_walk(grid, open, px, py, n)
  local w, h, stride = grid._w, grid._h, grid._stride
  local cells, xs, ys = {}, {}, {}
  for k = 1, n do
    local x, y = px[k], py[k]
    if not (x >= 1 and x <= w and y >= 1 and y <= h) or x ~= floor(x) or y ~= floor(y) then
      bad_path(format("point %d (%s, %s) is outside the %dx%d grid", k, number_text(x),
        number_text(y), w, h))
    end
    x, y = toint(x), toint(y)
    local cell = y * stride + x + 1
    if k > 1 and not open[cell] then
      bad_path(format("point %d (%d, %d) is not walkable", k, x, y))
    end
    cells[k], xs[k], ys[k] = cell, x, y
  end
  return cells, xs, ys
end

-- The cost of step k of a walk (smooth.c handed_step): the segment model's on
-- a square board, the entered cell's on a hex one; huge when it is not a
-- board move the mode allows. open, cost_of and price: the grid's cells as
-- they were when the attempt began.
local function step_cost(grid, open, cost_of, price, cells, xs, ys, k, diagonal)
  if not direction(grid._hex, diagonal, xs[k - 1], ys[k - 1], xs[k], ys[k]) then return huge end
  if not grid._hex then return SEG.cost(grid._stride, diagonal, price, cells[k - 1], cells[k]) end
  local c = cells[k]
  if not open[c] then return huge end
  return cost_of and cost_of[c] or 1.0
end

-- The walk's cost, its steps' costs added in order, or the error naming the
-- first step that is not a move.
local function check_steps(grid, open, cost_of, price, cells, xs, ys, n, diagonal)
  local total = 0.0
  for k = 2, n do
    local c = step_cost(grid, open, cost_of, price, cells, xs, ys, k, diagonal)
    if c == huge then
      bad_path(format("point %d (%d, %d) is not a move from point %d (%d, %d)", k, xs[k], ys[k],
        k - 1, xs[k - 1], ys[k - 1]))
    end
    total = total + c
  end
  return total
end

--- grid:smoothPath(path [, opts]) -> path, cost: the walk `path` (points or
-- flat) smoothed over the grid's walls and costs as they are.
function M.smoothPath(...)
  local self, path, opts = ...
  local nargs = select("#", ...)
  G.check_grid(SMOOTH_PATH, nargs, self)
  if type(path) ~= "table" then A.type_error(1, SMOOTH_PATH, nil, "table", path, nargs > 1) end
  local o = read_path_options(self, opts, nargs > 2)
  local mode = o.smooth
  if o.diagonal == NEVER then mode = CORNERS end
  local px, py, n = read_walk(path)
  local flat = o.flat
  if flat == nil then flat = type(rawget(path, 1)) == "number" end   -- the form it came in
  for _ = 0, G.MAX_RESTARTS do
    -- the grid's cells as they are now: a finalizer run by a table made
    -- below may close the grid, and this attempt ends on what it took
    local open, cost_of, version = self._open, self._cost, self._version
    if not open then error("grid closed during " .. SMOOTH_PATH, 0) end
    local price = SEG.cells_price(open, cost_of)
    local cells, xs, ys = check_walk(self, open, px, py, n)
    if o.smooth == SIGHT and self._moves then
      arg_error(2, SMOOTH_PATH, nil,
        "opts.smooth: 'sight' needs a grid without move overrides or links")
    end
    local cost = check_steps(self, open, cost_of, price, cells, xs, ys, n, o.diagonal)
    local keep, m
    if mode == SIGHT then
      keep, m, cost = M.sight(cells, n, self._stride, o.diagonal, price)
    else
      if not self._hex then   -- the walk's, summed as a path's is (segment.lua polyline_cost)
        local all = {}
        for k = 1, n do all[k] = k end
        cost = SEG.polyline_cost(self._stride, price, cells, all, n)
      end
      keep, m = M.corners(xs, ys, n, self._hex, o.diagonal)
    end
    -- a finalizer run by the tables made may have changed or closed the grid
    if not self._open then error("grid closed during " .. SMOOTH_PATH, 0) end
    if self._version == version then
      local kx, ky = pick(xs, ys, keep, m)
      return M.emit(kx, ky, m, o.into, flat), cost
    end
  end
  error("grid changed during " .. SMOOTH_PATH, 0)
end

-- ---- grid:firstBlocked(path [, from]) (issue 24) ---------------------------------

local FIRST_BLOCKED = "firstBlocked"

-- The bordered cell of point (x, y) when it is a cell of the grid, else nil.
local function grid_cell(grid, x, y)
  if not (x >= 1 and x <= grid._w and y >= 1 and y <= grid._h) or x ~= floor(x) or y ~= floor(y) then
    return nil
  end
  return toint(y * grid._stride + x + 1)
end

--- grid:firstBlocked(path [, from]) -> the index of the first cell of path,
-- from cell `from` on (default 1), that a unit can no longer enter
-- (geometry.lua enterable from the cell before it in the grid's mode; a
-- point off the grid; the first cell: its own wall), or nil. Reads the
-- points it checks and none past the first blocked one; makes no table.
function M.firstBlocked(...)
  local self, path, from = ...
  local nargs = select("#", ...)
  G.check_grid(FIRST_BLOCKED, nargs, self)
  if type(path) ~= "table" then A.type_error(1, FIRST_BLOCKED, nil, "table", path, nargs > 1) end
  local flat, n = path_form(path, FIRST_BLOCKED)
  if from == nil then
    from = 1
  else
    from = toint(A.check_index(from, true, 2, FIRST_BLOCKED, "from", n + 1))
  end
  local open, mode = self._open, self._diagonal
  local before   -- the cell of the point before k, when it is on the grid
  if from > 1 then before = grid_cell(self, path_point(path, flat, from - 1, FIRST_BLOCKED)) end
  for k = from, n do
    local c = grid_cell(self, path_point(path, flat, k, FIRST_BLOCKED))
    if not c then return k end
    if before then
      if not GEO.enterable(self, mode, before, c) then return k end
    elseif not open[c] then
      return k
    end
    before = c
  end
  return nil
end

return M
