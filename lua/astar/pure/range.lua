-- The tactics primitives of the pure-Lua backend, a port of src/core/range.c
-- and src/lua/lua_range.c: _movementRange (a 4- or 8-direction Dijkstra
-- bounded by a budget, with the game's rules), _attackCells and _lineOfSight, wrapped by
-- lua/astar/tactics.lua. Same argument checks, messages, rule order, result
-- order (the same 4-ary heap, so ties settle in the same order) and results.
--
-- The game's functions may do anything (README, Robustness): a query takes
-- the grid's scratch for itself while it runs (take_scratch), so a query made
-- from inside a callback (or a finalizer) makes its own; a callback's error
-- propagates unchanged (the scratch it held is dropped, nothing half-done is
-- left where the next query looks); callbacks are called through a C function
-- (string.gsub), so a yield in one is the same error as on the C backend;
-- after each callback the grid is checked: closed raises "grid closed during
-- <fname>", changed starts the query again (at most G.MAX_RESTARTS times, then
-- "grid changed during <fname>"). A change made by a finalizer is found at
-- the end of a run, with the same outcome.
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local P = require "astar.pure.points"
local Q = require "astar.pure.query_rules"
local O = require "astar.pure.options"
local HX = require "astar.pure.hex"
local B = require "astar.pure.board"
local K = require "astar.pure.kernel"
-- large units (clearance.lua), loaded on first use: it requires search.lua
local clearance_module
local function clearance()
  clearance_module = clearance_module or require "astar.pure.clearance"
  return clearance_module
end

-- smoothing (smooth.lua, which requires search.lua): loaded on first use
local smooth_module
local function smoothing()
  smooth_module = smooth_module or require "astar.pure.smooth"
  return smooth_module
end

local M = {}

local floor, huge = math.floor, math.huge
local format, gsub = string.format, string.gsub
local getmetatable, setmetatable, select, type, rawget =
  getmetatable, setmetatable, select, type, rawget
local toint = G.toint
local arg_error, type_error, typename = A.arg_error, A.type_error, A.typename

local NO_STOP, ENDS_MOVE = 1, 2   -- ASTAR_RANGE_NO_STOP, ASTAR_RANGE_ENDS_MOVE
local METRIC_INDEX = { manhattan = 1, chebyshev = 2, euclidean = 3 }

-- ---- the Range object ---------------------------------------------------------

-- A Range holds, per settled cell k (1 = the start, in settling order): _x[k],
-- _y[k] (1-based), _cost[k], _stop[k] and _parent[k] (a position, the start's
-- is itself); _slot maps the cell key (y - 1) * width + x to k, made on the
-- first look-up (a range that is only listed or attacked from never needs it).
local Range = {}
local RANGE = { __index = Range, __name = "astar.Range" }

local function check_self(fname, nargs, self)
  if getmetatable(self) ~= RANGE or type(self) ~= "table" then
    error(format("calling '%s' on bad self (astar.Range expected, got %s)", fname,
      typename(self, nargs > 0)), 0)
  end
  return self
end

-- The position of (x, y) (method arguments 1 and 2) in the range, or nil:
-- coordinates must be numbers, anything outside or not whole is absent.
local function find_cell(fname, nargs, self, x, y)
  check_self(fname, nargs, self)
  A.check_number(x, nargs > 1, 1, fname)
  A.check_number(y, nargs > 2, 2, fname)
  local w = self._w
  if not (x >= 1 and x <= w and y >= 1 and y <= self._h) or x ~= floor(x) or y ~= floor(y) then
    return nil
  end
  local slot = self._slot
  if not slot then
    slot = {}
    local xs, ys = self._x, self._y
    for k = 1, self._n do slot[(ys[k] - 1) * w + xs[k]] = k end
    self._slot = slot
  end
  return slot[(y - 1) * w + x]
end

function Range.contains(...)
  local self, x, y = ...
  local k = find_cell("contains", select("#", ...), self, x, y)
  return k ~= nil and self._stop[k]
end

function Range.costTo(...)
  local self, x, y = ...
  local k = find_cell("costTo", select("#", ...), self, x, y)
  if k then return self._cost[k] end
  return nil
end

local set_point, clear_tail = P.set_point, P.clear_tail

function Range.pathTo(...)
  local self, x, y, opts = ...
  local nargs = select("#", ...)
  local k = find_cell("pathTo", nargs, self, x, y)
  local flat, into, smooth = P.read_path_options(opts, nargs > 3, "pathTo")
  if not k or not self._stop[k] then return nil end   -- into is not touched
  local parent, len = self._parent, 1
  local j = k
  while j ~= 1 do
    j = parent[j]
    len = len + 1
  end
  local xs, ys = self._x, self._y
  if smooth then   -- "corners" (smooth.lua): the walk's points first
    local wx, wy = {}, {}
    for i = len, 1, -1 do
      wx[i], wy[i] = xs[k], ys[k]
      k = parent[k]
    end
    return smoothing().walk_corners(wx, wy, len, self._hex, self._diagonal, into, flat)
  end
  local path = into or {}
  for i = len, 1, -1 do
    if flat then
      rawset(path, 2 * i - 1, xs[k])
      rawset(path, 2 * i, ys[k])
    else
      set_point(path, i, xs[k], ys[k], nil, into)
    end
    k = parent[k]
  end
  if into then clear_tail(path, flat and 2 * len + 1 or len + 1) end
  return path
end

-- Every stop cell once, {x =, y =, cost =}, in settling order (cheapest
-- first); into: a table to fill instead of a new one.
function Range.cells(...)
  local self, into = ...
  local nargs = select("#", ...)
  check_self("cells", nargs, self)
  if into ~= nil and type(into) ~= "table" then type_error(1, "cells", nil, "table", into, true) end
  local out, n = into or {}, 0
  local xs, ys, cost, stop = self._x, self._y, self._cost, self._stop
  for k = 1, self._n do
    if stop[k] then
      n = n + 1
      set_point(out, n, xs[k], ys[k], cost[k], into)
    end
  end
  if into then clear_tail(out, n + 1) end
  return out
end

-- How many stop cells (#range:cells()).
function Range.size(...)
  local self = ...
  check_self("size", select("#", ...), self)
  return self._stops
end

function Range.getStart(...)
  local self = ...
  check_self("getStart", select("#", ...), self)
  return self._x[1], self._y[1]
end

function Range.getGridDimensions(...)
  local self = ...
  check_self("getGridDimensions", select("#", ...), self)
  return self._w, self._h
end

-- The diagonal mode the range ran with ("never" on a hex board).
function Range.getDiagonal(...)
  local self = ...
  check_self("getDiagonal", select("#", ...), self)
  return A.DIAGONAL_NAMES[self._diagonal]
end

RANGE.__tostring = function(self)
  check_self("__tostring", 1, self)
  return format("astar.Range (%d cells from %d,%d)", self._n, self._x[1], self._y[1])
end

-- ---- calling the game's functions -------------------------------------------------

-- A caller of rule functions f(x, y) for one query. f is called by
-- string.gsub, a C function that calls it with lua_call: a yield inside f is
-- then the error Lua gives for a yield across a C-call boundary, exactly as
-- when the C backend calls it with lua_pcall, and errors pass unchanged. Each
-- query makes its own (nested queries must not share these upvalues).
local function rule_caller()
  local f, a, b, result
  local function call() result = f(a, b) end
  return function(fn, x, y)
    f, a, b = fn, x, y
    gsub("", "", call)
    return result
  end
end

-- The same for move rules f(fromX, fromY, toX, toY, cost) (moves.lua).
local function move_caller()
  local f, a, b, c, d, e, result
  local function call() result = f(a, b, c, d, e) end
  return function(fn, fx, fy, tx, ty, cost)
    f, a, b, c, d, e = fn, fx, fy, tx, ty, cost
    gsub("", "", call)
    return result
  end
end

-- The same for line-of-sight functions f(fromX, fromY, toX, toY).
local function sight_caller()
  local f, a, b, c, d, result
  local function call() result = f(a, b, c, d) end
  return function(fn, fx, fy, tx, ty)
    f, a, b, c, d = fn, fx, fy, tx, ty
    gsub("", "", call)
    return result
  end
end

-- After one of the game's functions ran during query q: a closed grid
-- raises, a changed one is noted (the run is abandoned and started again).
local function check_grid_after(q)
  local grid = q.grid
  if not grid._open then error("grid closed during " .. q.fname, 0) end
  if grid._version ~= q.version then q.changed = true end
end

-- The run was abandoned because the grid changed: one more restart, or the error.
local function restart(q)
  if q.restarts == G.MAX_RESTARTS then error("grid changed during " .. q.fname, 0) end
  q.restarts = q.restarts + 1
  q.changed = false
end

-- ---- the rules: Lua callbacks or tables ---------------------------------------

-- Names for messages (lua_range.c read_names): from where[name] = {argn,
-- label} (read raw; dangerZone passes its own; each part that is not a number
-- / a string keeps its default), per rule, into rules r (query_rules.lua's:
-- argument 4, "opts.<name>").
local NAMED = { "blocked", "cost", "occupied", "zoc", "move" }   -- Q's numbers, move last
local function read_names(r, where)
  if type(where) ~= "table" then return end
  local argn, label = {}, {}   -- r's own: Q.init's are shared
  for which, name in ipairs(NAMED) do
    argn[which], label[which] = r.argn[which], r.label[which]
    local w = rawget(where, name)
    if type(w) == "table" then
      local n, l = rawget(w, 1), rawget(w, 2)
      if type(n) == "number" then argn[which] = toint(floor(n)) or n end
      if type(l) == "string" then label[which] = l end
    end
  end
  r.argn, r.label = argn, label
end

-- The rule of a range query from the rules read (options.lua): rule[name]
-- its function or table by cell number, points[name] for a table made from
-- a list of points, calls when some is a function, argn[name] and label[name]
-- for messages; nil when no rule was given.
local function range_rule(r)
  local used = r.move and true or false
  for which = 1, #Q.RULE_NAMES do used = used or r.index[which] ~= nil end
  if not used then return nil end   -- the common case: no table made
  local rule = { argn = {}, label = {} }
  for which, name in ipairs(Q.RULE_NAMES) do
    local v = r.index[which]
    rule.argn[name], rule.label[name] = r.argn[which], r.label[which]
    if v ~= nil then
      rule[name] = v
      if r.points[which] then
        rule.points = rule.points or {}
        rule.points[name] = true
      end
      if type(v) == "function" then rule.calls = true end
    end
  end
  if r.move then   -- the move rule (moves.lua): about moves, asked by the search
    rule.move = r.move
    rule.argn.move, rule.label.move = r.argn[Q.MOVE], r.label[Q.MOVE]
  end
  return rule
end

-- Reads opts (argument 4 of fname; options.lua, OPTS_RANGE) of a query on
-- grid: nil, or {blocked, cost, occupied, zoc, diagonal, size}. Returns the
-- rule (range_rule), the diagonal mode (1-based: 1 never .. 4 no-obstacles)
-- and the unit's size (large units, as findPath's opts.size).
local function read_rule(grid, opts, present, fname, where)
  local r = Q.init(fname, 4)
  read_names(r, where)
  local o = { diagonal = 1, size = 1 }   -- tactics: 4 directions unless asked
  O.read(grid, fname, 4, opts, present, O.RANGE, o, r)
  return range_rule(r), o.diagonal, o.size
end

-- What rule r (a table or a function) says about cell (x, y) with key k;
-- name and rule for the message about a cell table that holds a table.
local function ask(q, r, k, x, y, rule, name)
  if type(r) == "table" then
    local v = rawget(r, k)
    if type(v) == "table" then   -- a mix of the two table forms (query_rules.c)
      arg_error(rule.argn[name], q.fname, nil, format(
        "%s: cell %d holds a table; a list of points must start at index 1", rule.label[name], k))
    end
    return v
  end
  local v = q.call(r, x, y)
  check_grid_after(q)
  return v
end

local COST_ERROR = "%s gave %s for (%d, %d); "
  .. "expected a positive number up to 1e15, nil, false or math.huge"

-- The entry cost of walkable cell (x, y) (huge: impassable) and its flags;
-- lua_range.c lua_rule: blocked, cost, occupied, zoc, each asked once.
-- Returns nil when a callback changed the grid.
local function apply_rule(q, rule, k, x, y, grid_cost)
  local r = rule.blocked
  if r then
    local v = ask(q, r, k, x, y, rule, "blocked")
    if q.changed then return nil end
    if v then return huge, 0 end
  end
  local cost = grid_cost
  r = rule.cost
  if r then
    local v = ask(q, r, k, x, y, rule, "cost")
    if q.changed then return nil end
    if v == nil and rule.points and rule.points.cost then
      v = grid_cost                                   -- not listed: the grid's cost
    end
    if v == nil or v == false then return huge, 0 end
    if type(v) == "number" then
      cost = v * 1.0   -- a float; -0.0 stays -0.0 for the message
      if not ((cost > 0 and cost <= G.MAX_COST) or cost == huge) then
        arg_error(rule.argn.cost, q.fname, nil,
          format(COST_ERROR, rule.label.cost, A.number_text(cost), x, y))
      end
      if cost == huge then return huge, 0 end
    else
      arg_error(rule.argn.cost, q.fname, nil, format(COST_ERROR, rule.label.cost, type(v), x, y))
    end
  end
  local flags = 0
  r = rule.occupied
  if r then
    local v = ask(q, r, k, x, y, rule, "occupied")
    if q.changed then return nil end
    if v then flags = NO_STOP end
  end
  r = rule.zoc
  if r then
    local v = ask(q, r, k, x, y, rule, "zoc")
    if q.changed then return nil end
    if v then flags = flags + ENDS_MOVE end
  end
  return cost, flags
end

-- The entry cost of walkable bordered cell `cell` for query q, the first
-- time a run needs it: the grid's, or the rule's; kept in entry[cell], the
-- rule's flags in flags[cell]. nil when a callback changed the grid.
local function look_up(q, rule, cell, entry, flags)
  local grid = q.grid
  local costs = grid._cost
  local c = costs and costs[cell] or 1.0
  if rule then
    local stride = grid._stride
    local x = (cell - 1) % stride
    local y = floor((cell - 1) / stride)
    local f
    c, f = apply_rule(q, rule, (y - 1) * grid._w + x, x, y, c)
    if c == nil then return nil end
    flags[cell] = f
  else
    flags[cell] = 0
  end
  entry[cell] = c
  return c
end

-- ---- movementRange --------------------------------------------------------------

-- The Range of a finished run: the cells in the order settled (order[1] the
-- start), their costs and parents, which of them a move may end on (flags:
-- an even value; for a unit of size > 1, a position not in no_stop, and the
-- start always), by bordered cell.
local function new_range(w, h, stride, order, count, g, parent, slot, flags, size, no_stop,
                         diagonal, hex)
  local xs, ys, costs, stop, parents = {}, {}, {}, {}, {}
  local stops = 0
  for k = 1, count do
    local cell = order[k]   -- a whole number: x and y come out as integers
    local cy = floor((cell - 1) / stride)
    xs[k], ys[k] = cell - 1 - cy * stride, cy
    costs[k] = g[cell]
    local on
    if size > 1 then on = k == 1 or not no_stop[cell] else on = flags[cell] % 2 == 0 end
    stop[k] = on
    if on then stops = stops + 1 end
    parents[k] = k == 1 and 1 or slot[parent[cell]]
  end
  return setmetatable({ _w = w, _h = h, _n = count, _stops = stops, _x = xs, _y = ys, _cost = costs,
    _stop = stop, _parent = parents, _size = size > 1 and size or nil,
    _diagonal = diagonal, _hex = hex }, RANGE)   -- hex: the layout, for "corners"
end

-- Is orthogonal neighbour o of an expanded cell a wall for the corner rule?
-- Looked up already by the expansion (range.c corner_wall): no rule is asked.
local function corner_wall(open, entry, o, start)
  return not open[o] or (o ~= start and entry[o] == huge)
end

-- A large unit's look at covered cell `cell` (look_up, then range.c
-- mark_no_stop): a cell no unit may stop on (an ally) marks every position
-- whose k x k square holds it, in t.no_stop, so that none of them is a stop.
local function large_look_up(t, cell)
  local flags = t.flags
  local c = look_up(t.q, t.rule, cell, t.entry, flags)
  if c ~= nil and flags[cell] % 2 == 1 then
    local k, stride, no_stop = t.k, t.stride, t.no_stop
    local x, y = (cell - 1) % stride, floor((cell - 1) / stride)
    for py = y > k and y - k + 1 or 1, y do
      for px = x > k and x - k + 1 or 1, x do
        no_stop[py * stride + px + 1] = true
      end
    end
  end
  return c
end

-- range.c large_step: the cost from position c by direction d (huge: not
-- allowed), whether a covered cell ends the move; nil when the grid changed.
-- From the start every cell of the new position is looked up (row by row,
-- each cell once a query); from any other position c, c's were when it was
-- entered (and c fits, and none of them ends the move: c was expanded), so
-- only the new ones.
local function large_step(t, c, d)
  local q, entry, flags, open, k = t.q, t.entry, t.flags, t.open, t.k
  local stride, cells = t.stride, t.cells
  local nb = c + t.offset[d]
  local new = t.new_cells(cells, nb, B.DX[d], B.DY[d], k, stride)
  local worst, ends = 0.0, false
  if c == t.start then
    if not t.fits(open, q.grid, nb, k) then return huge, false end
    for row = nb, nb + (k - 1) * stride, stride do
      for cell = row, row + k - 1 do
        local v = entry[cell] or large_look_up(t, cell)
        if v == nil or v == huge then return v, false end
        if flags[cell] >= ENDS_MOVE then ends = true end
      end
    end
  else
    for i = 1, new do
      if not open[cells[i]] then return huge, false end
    end
  end
  for i = 1, new do
    local cell = cells[i]
    local v = entry[cell] or large_look_up(t, cell)
    if v == nil or v == huge then return v, false end
    if flags[cell] >= ENDS_MOVE then ends = true end
    if v > worst then worst = v end
  end
  return worst, ends
end

-- A link's target position v for a unit of size k > 1 (moves.lua): huge
-- when it does not fit there or covers an impassable cell (each cell looked
-- up once a query, row by row), else 0; whether a covered cell ends the
-- move; nil when a callback changed the grid.
local function large_link(t, v)
  local q, entry, flags, k, stride = t.q, t.entry, t.flags, t.k, t.stride
  if not t.fits(t.open, q.grid, v, k) then return huge, false end
  local ends = false
  for row = v, v + (k - 1) * stride, stride do
    for cell = row, row + k - 1 do
      local c = entry[cell] or large_look_up(t, cell)
      if c == nil or c == huge then return c, false end
      if flags[cell] >= ENDS_MOVE then ends = true end
    end
  end
  return 0, ends
end

-- What the move rule (rule.move) says of the move from bordered cell `from`
-- to `to` that the grid prices at cost: its cost, false (no move), nil when
-- the callback changed the grid; a bad answer is an error naming the option.
local function ask_move(q, rule, from, to, cost)
  local stride = q.grid._stride
  local fx, tx = (from - 1) % stride, (to - 1) % stride
  local fy, ty = toint((from - 1 - fx) / stride), toint((to - 1 - tx) / stride)
  fx, tx = toint(fx), toint(tx)
  local v = q.call_move(rule.move, fx, fy, tx, ty, cost)
  check_grid_after(q)
  if q.changed then return nil end
  if v == false then return false end
  if type(v) == "number" and v > 0 and v <= G.MAX_COST then return v * 1.0 end
  arg_error(rule.argn.move, q.fname, nil, Q.bad_move_message(rule.label.move, v, fx, fy, tx, ty))
end

-- The largest grid (cells, border included) that gets a scratch: its five
-- arrays take 16 bytes an entry on Lua 5.4 (8 on LuaJIT), rounded up to a
-- power of two, so 5 MB at most; a larger grid's ranges use fresh tables (a
-- range covers a small part of such a grid).
local SCRATCH_MAX = 65536

-- The scratch of a range on a grid (kept in grid._range between queries,
-- taken by one query while it runs, as findPath's: a query made meanwhile,
-- from a callback or a finalizer, makes its own; one that ends in an error
-- drops it): per bordered cell entry, flags, g, parent and slot (false where
-- unknown: filled once, so every later access is to the array part), the
-- cells looked at (touched[1..nt], put back to false after each run), the
-- settling order and the heap's arrays.
local function take_scratch(grid)
  local t = grid._range
  grid._range = nil
  if t and t.cells == grid._cells then return t end
  local entry, flags, g, parent, slot = {}, {}, {}, {}, {}
  for i = 1, grid._cells do
    entry[i], flags[i], g[i], parent[i], slot[i] = false, false, false, false, false
  end
  return { cells = grid._cells, entry = entry, flags = flags, g = g, parent = parent,
    slot = slot, touched = {}, nt = 0, order = {}, hf = {}, hc = {} }
end

local function give_back(grid, t)
  local entry, flags, g, parent, slot, touched = t.entry, t.flags, t.g, t.parent, t.slot, t.touched
  for i = 1, t.nt do
    local c = touched[i]
    entry[c], flags[c], g[c], parent[c], slot[c] = false, false, false, false, false
  end
  t.nt, t.q, t.rule, t.open, t.zoc = 0, nil, nil, nil, nil
  if grid._open then grid._range = t end
end

-- The scratch with its marks for attack cells (by cell key, 1..w * h): a
-- cell is marked in this run when its mark is the generation returned. A
-- grid too large for a scratch gets fresh marks.
local function take_marks(grid)
  if grid._cells > SCRATCH_MAX then return nil, {}, 1 end
  local t = take_scratch(grid)
  local mark = t.mark
  if not mark then
    mark = {}
    for i = 1, grid._w * grid._h do mark[i] = 0 end
    t.mark, t.mark_gen = mark, 0
  end
  t.mark_gen = t.mark_gen + 1
  return t, mark, t.mark_gen
end

-- The search of a movement range on the kernel (range.c dk_settle, dk_look,
-- dk_relax): a Dijkstra from the start bounded by move. The corner rule is
-- checked before the diagonal cell is looked up (so the rules see the calls
-- they saw before), from the looks already made: for a large unit, whether
-- the positions beside it could be entered. A zone of control ends the move
-- (for a large unit, any covered cell's). Returns how many cells settled, or
-- nil when a callback changed the grid.
local RANGE_LOOP = { name = "range", args = "t, move",
  uses = { apply_rule = apply_rule, floor = floor, corner_wall = corner_wall,
    large_step = large_step, ENDS_MOVE = ENDS_MOVE, look_up = look_up, large_link = large_link,
    ask_rule = ask_move },
  prepare = [=[
    local q, rule, start, diagonal, open = t.q, t.rule, t.start, t.diagonal, t.open
    local grid = q.grid
    local stride, grid_costs, layout, width = grid._stride, grid._cost, grid._hex, grid._w
    local ndir = diagonal > 1 and 8 or 4
    local cornered = diagonal > 2
    local entry, flags, zoc = t.entry, t.flags, t.zoc
    local g, parent, slot, order = t.g, t.parent, t.slot, t.order
    local touched, nt = t.touched, t.nt
    local count = 0
    local hf, hc, n = t.hf, t.hc, 1
    hf[1], hc[1] = 0.0, start
    --@if large
    local p = {}
    --@end
    --@if moves
    local moves, move_rule, size = grid._moves, rule and rule.move, t.k
    --@end]=],
  fresh = "not slot[u]",
  settle = [=[
    count = count + 1
    slot[u], order[count] = count, u
    local gu = g[u] ]=],
  expand = [=[
    --@if large
    u == start or not zoc[u]
    --@else
    u == start or flags[u] < ENDS_MOVE
    --@end]=],
  look = [=[
    --@if large
    local ends
    local pass = true
    if d > 4 then
      local a, b = p[CX[d]], p[CY[d]]
      if diagonal == 3 then pass = a or b
      elseif diagonal == 4 then pass = a and b end
    end
    if pass then
      local c
      c, ends = large_step(t, u, d)
      if c == nil then return nil end
      if d <= 4 then p[d] = c ~= huge end
      if c < huge then price = c end
    end
    --@else
    -- a settled cell (the start too) was looked up already and takes no move
    local pass = open[v] and not slot[v]
    --@if diagonal
    if pass and d > 4 and cornered then
      local walls = (corner_wall(open, entry, u + offset[CX[d]], start) and 1 or 0)
        + (corner_wall(open, entry, u + offset[CY[d]], start) and 1 or 0)
      pass = walls == 0 or (walls == 1 and diagonal == 3)
    end
    --@end
    if pass then
      local c = entry[v]
      if not c then
        -- the first look at v (look_up, written in: a call per cell costs
        -- the rule rows 5-10%)
        c = grid_costs and grid_costs[v] or 1.0
        if rule then
          local x = (v - 1) % stride
          local y = floor((v - 1) / stride)
          local f
          c, f = apply_rule(q, rule, (y - 1) * width + x, x, y, c)
          if c == nil then return nil end
          flags[v] = f
        else
          flags[v] = 0
        end
        entry[v] = c
        --@if moves
        --@else
        nt = nt + 1   -- in the scratch: cleared after the run
        touched[nt] = v
        --@end
      end
      if c < huge then price = c end
    end
    --@end
    --@if moves
    if slot[v] then price = nil end   -- settled: no move is offered, no rule asked (range.c)
    --@end]=],
  relax = [=[
    if ng <= move and not slot[v] and not (g[v] and ng >= g[v]) then
      g[v], parent[v] = ng, u
      --@if large
      zoc[v] = ends
      --@end
      PUSH(ng, v)
    end]=],
  -- moves (moves.lua): the rule asked about each move, a link's target
  -- entered as by a board move (a large unit: fits there)
  askmove = "mc = ask_rule(q, rule, $from, $to, mc) if mc == nil then return nil end",
  linklook = [=[
    --@if large
    local c, ends = large_link(t, v)
    if c == nil then return nil end
    pass = c < huge and not slot[v]
    --@else
    if open[v] and v ~= start then
      local c = entry[v] or look_up(q, rule, v, entry, flags)
      if c == nil then return nil end
      pass = c < huge and not slot[v]
    end
    --@end]=],
  finish = "t.nt = nt return count",
}

-- One run of the search from cell (x, y) for a unit of size k; returns the
-- Range, or nil when the grid changed under it (the caller starts again).
-- diagonal: 1 never, 2 always, 3 one-obstacle, 4 no-obstacles. A unit of
-- size k > 1 reaches top-left positions, each step priced by the highest
-- entry cost among the cells it newly covers (clearance.lua fits for where
-- it fits); it may not stop on a position covering an "occupied" cell.
local function run_range(q, x, y, move, rule, diagonal, k)
  local grid = q.grid
  -- the query's own walls: a finalizer (at a table made, or a trace exit on
  -- LuaJIT) may close the grid at any point from the caller's check on
  local open = grid._open
  if not open then error("grid closed during " .. q.fname, 0) end
  q.version = grid._version
  local w, h, stride = grid._w, grid._h, grid._stride
  local start = y * stride + x + 1
  local kind = grid._hex and "hex" or "square"
  local moved = grid._moves ~= nil or (rule ~= nil and rule.move ~= nil)
  local t
  if k == 1 and not moved and grid._cells <= SCRATCH_MAX then
    t = take_scratch(grid)
    t.entry[start], t.flags[start], t.g[start] = 0.0, 0, 0.0
    t.touched[1], t.nt = start, 1
  else   -- large units, moves and large grids: fresh tables
    t = { entry = { [start] = 0.0 }, flags = { [start] = 0 }, g = { [start] = 0.0 },
      parent = {}, slot = {}, order = {}, hf = {}, hc = {}, touched = {}, nt = 0 }
  end
  t.q, t.rule, t.start, t.diagonal, t.k = q, rule, start, diagonal, k
  t.open = open   -- the query's own: a finalizer may close the grid
  if k > 1 then
    kind, t.entry, t.flags, t.no_stop, t.zoc = "large", {}, {}, {}, {}
    t.stride, t.offset, t.cells = stride, B.offsets(stride), {}
    t.fits, t.new_cells = clearance().fits, clearance().new_cells
  end
  local count = K.loop(RANGE_LOOP, kind, moved)(t, move)
  if count == nil then return nil end   -- the scratch is dropped
  -- a finalizer may have closed or changed the grid while the tables grew
  check_grid_after(q)
  local range
  if not q.changed then
    range = new_range(w, h, stride, t.order, count, t.g, t.parent, t.slot, t.flags, k, t.no_stop,
      diagonal, grid._hex)
  end
  if t.cells then give_back(grid, t) end   -- a scratch
  return range
end

--- _movementRange(grid, x, y, move [, opts [, fname [, where]]]) -> astar.Range
-- fname (default "movementRange") names the caller in every message; where
-- gives per rule the argument number and label for messages (rule_label).
function M.movement_range(...)
  local grid, x, y, move, opts, fname, where = ...
  local nargs = select("#", ...)
  if type(fname) ~= "string" then fname = "movementRange" end
  G.check_grid(fname, nargs, grid)
  local w, h = grid._w, grid._h
  x = toint(A.check_index(x, nargs > 1, 1, fname, "x", w))
  y = toint(A.check_index(y, nargs > 2, 2, fname, "y", h))
  A.check_number(move, nargs > 3, 3, fname)
  if not (move >= 0) then
    arg_error(3, fname, nil, "move must be a number >= 0, got " .. A.number_text(move))
  end
  local rule, diagonal, size = read_rule(grid, opts, nargs > 4, fname, where)
  local q = { grid = grid, fname = fname, version = 0, changed = false, restarts = 0,
    call = rule and rule.calls and rule_caller(), call_move = rule and rule.move and move_caller() }
  while true do
    -- read_rule and the last run allocate: a finalizer may have closed the grid
    if not grid._open then error("grid closed during " .. fname, 0) end
    local range = run_range(q, x, y, move, rule, diagonal, size)
    -- a finalizer that closed the grid meanwhile left the run reading a mix
    -- (the costs it had taken, and none after): as C, no answer then
    if not grid._open then error("grid closed during " .. fname, 0) end
    if range then return range end
    restart(q)
  end
end

--- _cellSet(grid, cells) -> {[(y - 1) * width + x] = true}: every cell of
-- each unit {x =, y = [, size =]} of the list, read as the rules' lists are
-- (query_rules.lua points_table; lua_range.c astar_lua_cell_set).
function M.cell_set(...)
  local grid, cells = ...
  local nargs = select("#", ...)
  G.check_grid("cellSet", nargs, grid)
  if type(cells) ~= "table" then type_error(1, "cellSet", nil, "table", cells, nargs > 1) end
  return (Q.points_table(cells, Q.FLAG, grid, false,
    { fname = "cellSet", argn = 1, label = "cells" }))
end

-- ---- line of sight ----------------------------------------------------------------

-- range.c astar_line_of_sight on 1-based cells: walks the cells the segment
-- between the centres crosses, leaving each through the side it meets first
-- (a corner when both at once); only the end cells may be walls.
local function sees(open, stride, x0, y0, x1, y1)
  local nx, ny = x1 - x0, y1 - y0
  local sx, sy = 1, 1
  if nx < 0 then nx, sx = -nx, -1 end
  if ny < 0 then ny, sy = -ny, -1 end
  local ix, iy, x, y = 0, 0, x0, y0
  while ix < nx or iy < ny do
    local decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
    if decision == 0 then
      x, y, ix, iy = x + sx, y + sy, ix + 1, iy + 1
    elseif decision < 0 then
      x, ix = x + sx, ix + 1
    else
      y, iy = y + sy, iy + 1
    end
    if (x ~= x1 or y ~= y1) and not open[y * stride + x + 1] then return false end
  end
  return true
end

--- _lineOfSight(grid, x1, y1, x2, y2) -> boolean
function M.line_of_sight(...)
  local grid, x0, y0, x1, y1 = ...
  local nargs = select("#", ...)
  local fname = "lineOfSight"
  G.check_grid(fname, nargs, grid)
  local w, h = grid._w, grid._h
  x0 = A.check_index(x0, nargs > 1, 1, fname, "x1", w)
  y0 = A.check_index(y0, nargs > 2, 2, fname, "y1", h)
  x1 = A.check_index(x1, nargs > 3, 3, fname, "x2", w)
  y1 = A.check_index(y1, nargs > 4, 4, fname, "y2", h)
  if grid._hex then return HX.sees(grid, x0, y0, x1, y1) end
  return sees(grid._open, grid._stride, x0, y0, x1, y1)
end

-- ---- attack cells -----------------------------------------------------------------

-- floor(sqrt(v)) exactly, for whole v >= 0 (range.c isqrt).
local function isqrt(v)
  local s = floor(v ^ 0.5)
  while s > 0 and s * s > v do s = s - 1 end
  while (s + 1) * (s + 1) <= v do s = s + 1 end
  return s
end

-- Row ady (<= hi) of the area around a cell: |dx| <= rem is within hi, |dx|
-- < gap closer than lo (range.c attack_row). metric: 1 manhattan, 2
-- chebyshev, 3 euclidean.
local function attack_row(metric, lo, hi, ady)
  if metric == 2 then
    return hi, ady >= lo and 0 or lo
  elseif metric == 3 then
    local inner = lo * lo - ady * ady
    return isqrt(hi * hi - ady * ady), inner <= 0 and 0 or isqrt(inner - 1) + 1
  end
  return hi - ady, lo - ady
end

-- One run of range.c astar_range_attack_large (astar_range_attack_metric is
-- its size 1); returns the list, or nil when the grid changed under it. The
-- area of a unit of size k on each stop position of the range: a target's
-- distance is the one from the position's nearest covered cell (the target
-- clamped into the square), sight is asked from that cell. sight: nil, the
-- built-in rule (true) or a function.
local function run_attack(q, range, lo, hi, sight, metric, k)
  local grid = q.grid
  q.version = grid._version
  local w, h = grid._w, grid._h
  local open, stride = grid._open, grid._stride
  if not open then error("grid closed during " .. q.fname, 0) end
  local call = q.call
  local xs, ys, stop = range._x, range._y, range._stop
  local t, mark, gen = take_marks(grid)
  local out, count = {}, 0
  for i = 1, range._n do
    if stop[i] then
      local px, py = xs[i], ys[i]
      local qx, qy = px + k - 1, py + k - 1
      local y0 = py - hi < 1 and 1 or py - hi
      local y1 = qy + hi > h and h or qy + hi
      for ty = y0, y1 do
        local ady = ty < py and py - ty or ty > qy and ty - qy or 0
        local rem, gap = attack_row(metric, lo, hi, ady)
        local x0 = px - rem < 1 and 1 or px - rem
        local x1 = qx + rem > w and w or qx + rem
        local sy = ty < py and py or ty > qy and qy or ty
        local row = (ty - 1) * w
        -- the row's cells left to right, the inner part (closer than lo) left
        -- out: [x0, x1] whole, or [x0, px - gap] and [qx + gap, x1]
        local left, right = x1, x1 + 1
        if gap > 0 then
          left = px - gap < x1 and px - gap or x1
          right = qx + gap > x0 and qx + gap or x0
        end
        for part = 1, 2 do
          local from, to = x0, left
          if part == 2 then from, to = right, x1 end
          for tx = from, to do
            local key = row + tx
            if mark[key] ~= gen then
              local seen = true
              if sight == true then
                seen = sees(open, stride, tx < px and px or tx > qx and qx or tx, sy, tx, ty)
              elseif sight then
                local sx = tx < px and px or tx > qx and qx or tx
                seen = call(sight, toint(sx), toint(sy), toint(tx), toint(ty))
                check_grid_after(q)
                if q.changed then return nil end
              end
              if seen then
                mark[key] = gen
                count = count + 1
                out[count] = key
              end
            end
          end
        end
      end
    end
  end
  if t then give_back(grid, t) end
  check_grid_after(q)
  if q.changed then return nil end
  return out
end

-- range.c astar_range_attack_hex: the cells at hex distance lo..hi of each
-- stop cell, each source's bounding box scanned row by row.
local function run_attack_hex(q, range, lo, hi, sight)
  local grid = q.grid
  q.version = grid._version
  local w, h, layout = grid._w, grid._h, grid._hex
  local open = grid._open   -- the query's own: a finalizer may close the grid
  if not open then error("grid closed during " .. q.fname, 0) end
  local call = q.call
  local xs, ys, stop = range._x, range._y, range._stop
  local t, mark, gen = take_marks(grid)
  local out, count = {}, 0
  for i = 1, range._n do
    if stop[i] then
      local cx, cy = xs[i], ys[i]
      local x0, x1 = cx - hi < 1 and 1 or cx - hi, cx + hi > w and w or cx + hi
      local y0, y1 = cy - hi < 1 and 1 or cy - hi, cy + hi > h and h or cy + hi
      for ty = y0, y1 do
        for tx = x0, x1 do
          local d = HX.distance(layout, cx - 1, cy - 1, tx - 1, ty - 1)
          local key = (ty - 1) * w + tx
          if d >= lo and d <= hi and mark[key] ~= gen then
            local seen = true
            if sight == true then
              seen = HX.sees(grid, cx, cy, tx, ty, open)
            elseif sight then
              seen = call(sight, cx, cy, toint(tx), toint(ty))
              check_grid_after(q)
              if q.changed then return nil end
            end
            if seen then
              mark[key] = gen
              count = count + 1
              out[count] = key
            end
          end
        end
      end
    end
  end
  if t then give_back(grid, t) end
  check_grid_after(q)
  if q.changed then return nil end
  return out
end

--- _attackCells(grid, range, min, max, sight, fname [, metric]) -> array of cell keys
-- (y - 1) * width + x, in the order found (range.c astar_range_attack). The
-- caller (tactics.lua) has checked min and max (whole numbers >= 0) and sight
-- (nil, a boolean or a function); distances beyond width + height mean the
-- whole grid and are cut there, so no loop runs over a huge number of rows.
function M.attack_cells(...)
  local grid, range, lo, hi, sight, fname, metric = ...
  local nargs = select("#", ...)
  if type(fname) ~= "string" then type_error(6, "_attackCells", nil, "string", fname, nargs > 5) end
  G.check_grid(fname, nargs, grid)
  if getmetatable(range) ~= RANGE or type(range) ~= "table" then
    type_error(1, fname, nil, "astar.Range", range, nargs > 1)
  end
  local w, h = grid._w, grid._h
  if range._w ~= w or range._h ~= h then
    arg_error(1, fname, nil, "range was made on another grid")
  end
  A.check_number(lo, nargs > 2, 2, fname)
  A.check_number(hi, nargs > 3, 3, fname)
  local far = w + h                            -- beyond any distance on the grid
  if not (lo <= far) then lo = far end         -- nan too
  if not (hi <= far) then hi = far end
  if lo < 0 then lo = 0 end
  lo, hi = toint(floor(lo)), toint(floor(hi))   -- callbacks get integers, as from C
  if metric ~= nil and grid._hex then
    arg_error(4, fname, nil, "opts.metric: not supported on hex grids")
  end
  if metric ~= nil then
    metric = A.check_name(metric, true, 6, fname, "opts.metric: ", "metric", METRIC_INDEX,
      "manhattan, chebyshev or euclidean")
  end
  if sight == false then
    sight = nil
  elseif sight ~= nil and type(sight) ~= "function" then
    sight = true                               -- the built-in rule
  end
  local q = { grid = grid, fname = fname, version = 0, changed = false, restarts = 0,
    call = type(sight) == "function" and sight_caller() or nil }
  while true do
    if not grid._open then error("grid closed during " .. fname, 0) end
    local out
    if grid._hex then
      out = run_attack_hex(q, range, lo, hi, sight)
    else
      out = run_attack(q, range, lo, hi, sight, metric or 1, range._size or 1)
    end
    if not grid._open then error("grid closed during " .. fname, 0) end
    if out then return out end
    restart(q)
  end
end

return M
