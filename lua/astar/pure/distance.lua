-- Distance maps for the pure-Lua backend, a port of src/core/distance.c and
-- src/lua/lua_distance.c: grid:distanceMap, astar.blend and the
-- astar.DistanceMap methods. Same checks, messages, tie order and results.
--
-- A map holds, per bordered cell index i (grid.lua's layout): _dist[i] (the
-- value; nil outside the map), _cost[i] (the entry cost: huge can't be
-- entered, nil not asked), _origin[i] (the start entry the walk ends at) and
-- _step[i] (0-7 the direction of the first step, E W S N SE SW NE NW; 8 the
-- walk ends here; 9 a link to _via[i]; nil outside the map); _moves, the
-- grid's overrides and links as the map was made (moves.lua snapshot: flee
-- and blend follow them; the move rule is not asked again). The rules run through
-- query_rules.lua, under pcall; after each callback a closed grid stops the
-- flood with an error, a changed one starts it again (G.MAX_RESTARTS times).
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local P = require "astar.pure.points"
local Q = require "astar.pure.query_rules"
local O = require "astar.pure.options"
local EN = require "astar.pure.encode"
local B = require "astar.pure.board"
local K = require "astar.pure.kernel"
local new_cells = require("astar.pure.clearance").new_cells
local MV = require "astar.pure.moves"
local FL = require "astar.pure.distance_flood"
local RP = require "astar.pure.distance_repair"
local BU = require "astar.pure.budget"

local M = {}

local floor, huge = math.floor, math.huge
local format = string.format
local getmetatable, setmetatable, select, type, rawget, rawset, next =
  getmetatable, setmetatable, select, type, rawget, rawset, next
local toint = G.toint
local arg_error, type_error, typename = A.arg_error, A.type_error, A.typename
local rawlen = rawlen or function(t) return #t end -- luacheck: ignore 113

local END = 8   -- a step code: the walk ends here
-- A step code: the walk takes a link (moves.lua) to cell _via[i]. A flood
-- relaxes a link as direction LINK (kernel.lua), whose code it is.
local LINK = 9
local SQRT2, DX, DY, CX, CY = B.SQRT2, B.DX, B.DY, B.CX, B.CY
local OPPOSITE = { [LINK] = LINK }   -- the step code of a relaxed move, by direction
for d = 1, 8 do OPPOSITE[d] = B.OPPOSITE[d] end
local NEVER, ALWAYS = B.NEVER, B.ALWAYS

local Map = {}
local MAP = { __index = Map, __name = "astar.DistanceMap" }
M.MAP = MAP

local function check_self(fname, nargs, self)
  if getmetatable(self) ~= MAP or type(self) ~= "table" then
    error(format("calling '%s' on bad self (astar.DistanceMap expected, got %s)", fname,
      typename(self, nargs > 0)), 0)
  end
  if self._busy then
    error(format("calling '%s' on a distance map that is being computed", fname), 0)
  end
  return self
end

local function empty_map(w, h, diagonal, hex, size)
  local stride = w + 2
  return setmetatable({ _w = w, _h = h, _stride = stride, _cells = stride * (h + 2),
    _diagonal = diagonal, _hex = hex, _size = size or 1, _dist = {}, _cost = {}, _origin = {}, _step = {},
    _via = {}, _moves = nil,    -- the link steps' targets; the grid's moves as the map was made
    -- start cells (issue 21): closed by the rules, a walk may start there (true, or
    -- its step code once found), with their values
    _start = {}, _sdist = {},
    _reached = 0,
    _sources = {}, _max = huge, _derived = false, _busy = false,
    _fills = 0, _built = false }, MAP)   -- builds made; per-cell tables of its own
end

-- The index of (x, y) (method arguments 1 and 2) when it is in the map, else nil.
local function find_cell(fname, nargs, self, x, y)
  check_self(fname, nargs, self)
  A.check_number(x, nargs > 1, 1, fname)
  A.check_number(y, nargs > 2, 2, fname)
  if not (x >= 1 and x <= self._w and y >= 1 and y <= self._h) or x ~= floor(x)
    or y ~= floor(y) then
    return nil
  end
  local i = toint(y * self._stride + x + 1)
  if self._step[i] == nil and self._sdist[i] == nil then return nil end
  return i
end

local function cell_xy(self, i)
  local s = self._stride
  return toint((i - 1) % s), toint(floor((i - 1) / s))
end

-- Is bordered index i a cell of the board (not its border)?
local function inside(self, i)
  local x, y = cell_xy(self, i)
  return x >= 1 and x <= self._w and y >= 1 and y <= self._h
end
M.inside = inside

function Map.get(...)
  local self, x, y = ...
  local i = find_cell("get", select("#", ...), self, x, y)
  if i then return self._dist[i] or self._sdist[i] end
  return nil
end

-- The index a step leads to from i in steps step of a map of stride stride
-- (a neighbour, or a link's target in via), or nil at the end of a walk.
-- start: the start cells' codes (a walk's first cell may be one).
local function step_from(step, stride, i, via, start)
  local d = step[i]
  if d == nil and start then d = start[i] end
  if not d or d == END or d == true then return nil end
  if d == LINK then return via[i] end
  return i + DY[d + 1] * stride + DX[d + 1]
end

local function next_index(self, i)
  return step_from(self._step, self._stride, i, self._via, self._start)
end

function Map.nextStep(...)
  local self, x, y = ...
  local i = find_cell("nextStep", select("#", ...), self, x, y)
  local n = i and next_index(self, i)
  if not n then return nil end
  return cell_xy(self, n)
end

function Map.nearest(...)
  local self, x, y = ...
  local i = find_cell("nearest", select("#", ...), self, x, y)
  if i and not self._derived then return toint(self._origin[i] + 1) end
  return nil
end

function Map.size(...)
  local self = ...
  return check_self("size", select("#", ...), self)._reached
end

function Map.getDimensions(...)
  local self = ...
  check_self("getDimensions", select("#", ...), self)
  return self._w, self._h
end

local set_point, clear_tail = P.set_point, P.clear_tail

-- After a copy out of map self that began at its fill count `fills` (the
-- copy makes tables, so a finalizer may have rebuilt the map in place
-- meanwhile): false when the map is as it was, else true to start the copy
-- again, or an error after G.MAX_RESTARTS restarts (lua_distance.c map_moved).
local function map_moved(self, fills, restarts, fname)
  if self._fills == fills then return false end
  if restarts > G.MAX_RESTARTS then error("distance map changed during " .. fname, 0) end
  return true
end

-- pathFrom's options (lua_distance.c read_walk_options): flat, into and the
-- walk's limits, read by the queries' reader on the map's shape. Returns
-- flat, into and the walk (nil: no limit given).
local function read_walk_options(self, opts)
  local o = { max_cost = huge }
  local shape = { _w = self._w, _h = self._h, _hex = self._hex }
  local r = O.read(shape, "pathFrom", 3, opts, true, O.WALK, o, Q.init("pathFrom", 3))
  local given = type(opts) == "table"
  local near = given and rawget(opts, "near") ~= nil
  if near and self._derived then
    arg_error(3, "pathFrom", nil, "opts.near: a map made by flee or blend has no sources")
  end
  local blocked = r.index[Q.BLOCKED]
  if blocked ~= nil and type(blocked) ~= "table" then
    arg_error(3, "pathFrom", nil,
      "opts.blocked: a list of points or a table by cell number expected, got " .. type(blocked))
  end
  local corners = o.smooth == 1
  if not (given and (rawget(opts, "maxCost") ~= nil or near or blocked ~= nil)) then
    return o.flat, o.into, nil, corners
  end
  return o.flat, o.into, { max_cost = o.max_cost, near = near and o.near or nil, blocked = blocked },
    corners
end

function Map.pathFrom(...)
  local self, x, y, opts = ...
  local nargs = select("#", ...)
  local i = find_cell("pathFrom", nargs, self, x, y)
  local flat, into, walk, corners
  if opts ~= nil or nargs > 3 then flat, into, walk, corners = read_walk_options(self, opts) end
  if not i then return nil end
  local cells, value, spent
  local restarts = 0
  repeat   -- the walk again when a finalizer rebuilt the map as it was read
    local fills = self._fills
    i = find_cell("pathFrom", nargs, self, x, y)
    if not i then return nil end
    local step, stride, reached = self._step, self._stride, self._reached
    local via, start = self._via, self._start
    value = self._dist[i] or self._sdist[i]
    cells = { i }
    local c = i
    spent = 0.0
    while #cells <= reached do   -- bounded as in C (a decoded map may loop)
      if walk then
        local price
        c, price = M.walk_next(self, walk, c, spent)
        if c then spent = spent + price end
      else
        c = step_from(step, stride, c, via, #cells == 1 and start or nil)
      end
      if not c then break end
      cells[#cells + 1] = c
    end
    restarts = restarts + 1
  until not map_moved(self, fills, restarts, "pathFrom")
  if corners then   -- "corners" (smooth.lua) of the walk's points
    local xs, ys = {}, {}
    for k = 1, #cells do xs[k], ys[k] = cell_xy(self, cells[k]) end
    local path = require("astar.pure.smooth").walk_corners(xs, ys, #cells, self._hex, nil, into,
      flat)
    if walk then return path, spent end
    return path, value
  end
  local t = into or {}
  for k = 1, #cells do
    local cx, cy = cell_xy(self, cells[k])
    if flat then
      rawset(t, 2 * k - 1, cx)
      rawset(t, 2 * k, cy)
    else
      set_point(t, k, cx, cy, nil, into ~= nil)
    end
  end
  local k = #cells
  if into then clear_tail(t, flat and 2 * k + 1 or k + 1) end
  if walk then return t, spent end
  return t, value
end

function Map.cells(...)
  local self, into = ...
  local nargs = select("#", ...)
  check_self("cells", nargs, self)
  if into ~= nil and type(into) ~= "table" then type_error(1, "cells", nil, "table", into, true) end
  local t, k
  local restarts = 0
  repeat   -- the cells again when a finalizer rebuilt the map as they were read
    local fills = self._fills
    t, k = into or {}, 0
    local stride, step, dist = self._stride, self._step, self._dist
    for y = 1, self._h do
      for x = 1, self._w do
        local i = y * stride + x + 1
        if step[i] ~= nil then
          k = k + 1
          set_point(t, k, x, y, dist[i], into ~= nil)
        end
      end
    end
    restarts = restarts + 1
  until not map_moved(self, fills, restarts, "cells")
  if into then clear_tail(t, k + 1) end
  return t
end

MAP.__tostring = function(self)
  return format("astar.DistanceMap (%d cells of %dx%d)", self._reached, self._w, self._h)
end

-- ---- the flood (distance.c), on kernel.lua --------------------------------------

-- Large units (issue 14): maps over the top-left cells of k x k units.
-- distance.c's sized_open and sized_price: the flood relaxes v from a settled
-- u (the walk steps v -> u), priced by the cells u covers and v does not;
-- v's cells that u does not cover are the ones to check.

-- Position v = u + direction d beside an allowed position u: 1 when the cells
-- of v not covered by u can be entered (asking the rule, row by row, stopping
-- at the first that cannot), 0 when one cannot, -1 when the rule stopped.
-- grid nil: from the known costs only (a cell never asked counts as
-- enterable). cells: a scratch list for clearance.lua new_cells.
local function sized_open(m, grid, u, d, r, cells)
  local cost, stride = m._cost, m._stride
  local grid_costs = grid and grid._cost
  for i = 1, new_cells(cells, u + DY[d] * stride + DX[d], DX[d], DY[d], m._size, stride) do
    local c = cells[i]
    local e = cost[c]
    if e == nil and grid then
      local x, y = cell_xy(m, c)
      e = Q.cell(r, x, y, grid_costs and grid_costs[c] or 1.0)
      if e == nil then return -1 end
      cost[c] = e
    end
    if e == huge then return 0 end
  end
  return 1
end

-- The price of the step from p by (dx, dy): the highest entry cost among the
-- cells the step newly covers.
local function sized_price(m, p, dx, dy, cells)
  local cost, stride = m._cost, m._stride
  local worst = 0.0
  for i = 1, new_cells(cells, p + dy * stride + dx, dx, dy, m._size, stride) do
    local e = cost[cells[i]]
    if e > worst then worst = e end
  end
  return worst
end

-- Source position c (a cell, or a unit's top-left position): 1 when the
-- unit fits there, 0 when not, -1 when the rule stopped.
local function source_fit(m, grid, c, r)
  local cost, stride, k = m._cost, m._stride, m._size
  local cx, cy = cell_xy(m, c)
  if cx - 1 + k > m._w or cy - 1 + k > m._h then return 0 end
  local grid_costs = grid._cost
  for y = cy, cy + k - 1 do
    for x = cx, cx + k - 1 do
      local i = y * stride + x + 1
      local e = cost[i]
      if e == nil then
        if m._open[i] then
          e = Q.cell(r, x, y, grid_costs and grid_costs[i] or 1.0)
          if e == nil then return -1 end
        else
          e = huge
        end
        if e == huge and k == 1 then m._start[i] = true end   -- a start cell (a wall too)
        cost[i] = e
      end
      if e == huge then return 0 end
    end
  end
  return 1
end

-- The flood from the heap (hf, hc, n) on map m (distance.c dk_settle,
-- dk_look, dk_relax on the kernel): grid nil, a rescan over the cells in the
-- map. Returns false when a rule stopped it. A large unit's step from a
-- settled u relaxes v (the walk steps v -> u), priced by the cells u covers
-- and v does not, the corner rule over the positions beside it.
local FLOOD = { name = "flood", args = "m, hf, hc, n, grid, r, max_cost",
  uses = { Q = Q, next = next, cell_xy = cell_xy, sized_open = sized_open, sized_price = sized_price,
    OPPOSITE = OPPOSITE, END = END, NEVER = NEVER, ALWAYS = ALWAYS, DX = DX, DY = DY, inside = inside,
    LINK = LINK, source_fit = source_fit },
  reversed = true,   -- the flood walks moves backwards: overrides and links into u
  prepare = [=[
    local dist, cost, step, origin = m._dist, m._cost, m._step, m._origin
    local start = m._start
    --@if moves
    local moves, via, size = m._moves, m._via, m._size
    local move_rule = grid and r.move and r
    --@end
    local stride, mode, layout = m._stride, m._diagonal, m._hex
    local ndir = mode == NEVER and 4 or 8
    local cornered = mode ~= ALWAYS
    local closed = m._closed or {}   -- a map's own, kept between floods
    m._closed = closed
    for k in next, closed do closed[k] = nil end
    local grid_costs, grid_open = grid and grid._cost, grid and m._open
    local reached = 0
    --@if large
    local side, cells = {}, {}
    --@end]=],
  fresh = "not closed[u]",
  settle = [=[
    closed[u] = true
    reached = reached + 1
    local gu, cu = dist[u], cost[u] ]=],
  look = [=[
    --@if large
    if closed[v] then
      if d <= 4 then side[d] = true end
    else
      local ok = sized_open(m, grid, u, d, r, cells)
      if ok < 0 then return false end
      if d <= 4 then side[d] = ok == 1 end
      local pass
      if grid then pass = ok == 1 else pass = step[v] ~= nil end
      if pass and d > 4 and cornered then
        local walls = (side[CX[d]] and 0 or 1) + (side[CY[d]] and 0 or 1)
        pass = walls == 0 or (walls == 1 and mode ~= NO_OBSTACLES)
      end
      if pass then price = sized_price(m, v, -DX[d], -DY[d], cells) end
    end
    --@else
    local pass = not closed[v]
    if pass then
      if grid then
        local ev = cost[v]
        if ev == nil then
          if grid_open[v] then
            local vx, vy = cell_xy(m, v)
            ev = Q.cell(r, vx, vy, grid_costs and grid_costs[v] or 1.0)
            if ev == nil then return false end
            if ev == huge then start[v] = true end   -- closed by the rules: a start cell
          else
            ev = huge
            if inside(m, v) then start[v] = true end   -- a wall: a start cell (issue 24)
          end
          cost[v] = ev
        end
        pass = ev < huge
      else
        pass = step[v] ~= nil
      end
    end
    --@if diagonal
    if pass and d > 4 and cornered then
      local walls = (cost[u + offset[CX[d]]] == huge and 1 or 0)
        + (cost[u + offset[CY[d]]] == huge and 1 or 0)
      pass = walls == 0 or (walls == 1 and mode ~= NO_OBSTACLES)
    end
    --@end
    if pass then price = cu end
    --@end]=],
  relax = [=[
    if ng <= max_cost then
      local s = OPPOSITE[d]
      local dv = dist[v]
      if dv == nil or ng < dv then
        dist[v], step[v], origin[v] = ng, s, origin[u]
        --@if moves
        via[v] = u
        --@end
        PUSH(ng, v)
      elseif ng == dv and step[v] ~= END and s < step[v] then
        step[v], origin[v] = s, origin[u]
        --@if moves
        via[v] = u
        --@end
      end
    end]=],
  -- moves (moves.lua): the rule asked about each move as walked (v to u);
  -- the source v of a link into u may be a cell (position) of the map
  askmove = "mc = ask_move(move_rule, $from, $to, mc, stride) if mc == nil then return false end",
  linklook = [=[
    local d = LINK
    if not closed[v] then
      if grid then
        local fit = source_fit(m, grid, v, r)
        if fit < 0 then return false end
        pass = fit == 1
      else
        pass = step[v] ~= nil
      end
    end]=],
  finish = [=[
    m._reached = reached
    return true]=],
}

local function flood(m, hf, hc, n, grid, r, max_cost)
  local kind = m._hex and "hex" or m._size > 1 and "large" or "square"
  local moved = m._moves ~= nil or (grid ~= nil and r.move ~= nil)
  return K.loop(FLOOD, kind, moved)(m, hf, hc, n, grid, r, max_cost)
end

-- The flood a slice at a time (issue 24; distance_slice.c): FLOOD's loop
-- that, once `left` cells are settled, yields (to the coroutine of the map's
-- pending build) before it settles another; the resume's value is the next
-- slice's count. A query of its own, so the plain flood compiles as before.
local SLICED = {}
for k, v in pairs(FLOOD) do SLICED[k] = v end
SLICED.name, SLICED.args = "sliced flood", FLOOD.args .. ", left"
SLICED.uses = { yield = coroutine.yield }
for k, v in pairs(FLOOD.uses) do SLICED.uses[k] = v end
SLICED.settle = [=[
    if left <= 0 then left = yield() end
    left = left - 1
]=] .. FLOOD.settle

local starts, value_starts   -- the start cells' steps (below)

-- The map's entry costs before a flood: for large units every cell's (the
-- fit of a position reads cells no flood looks at); else none: the flood
-- asks each cell it looks at (entry_cost), so a capped map costs by the
-- cells it reaches, not by the grid.
-- A table for one entry per cell of m: an uncapped map is expected to reach
-- most of the grid, so its tables get their array part at once (LuaJIT's
-- table.new; elsewhere a constructor of that many nils, compiled once per
-- size): entries written all over a growing table cost several times as
-- much. A capped map's tables grow with the cells it reaches.
local table_new = rawget(_G, "jit") and select(2, pcall(require, "table.new"))
if type(table_new) ~= "function" then table_new = nil end
local sized_tables = {}   -- cells -> a function making a table of that array size
local PRESIZE_MIN, PRESIZE_MAX = 4096, 1048576
local function cell_table(m)
  local n = m._cells
  if m._max < huge or n < PRESIZE_MIN then return {} end
  if table_new then return table_new(n, 0) end
  if n > PRESIZE_MAX then return {} end
  local make = sized_tables[n]
  if not make then
    make = load("return function() return {" .. string.rep("nil,", n) .. "} end")()
    sized_tables[n] = make
  end
  return make()
end

-- cost: the map's table to fill (nil: a new one).
local function known_costs(m, open, costs, r, cost)
  cost = cost or cell_table(m)
  if m._size == 1 then return cost end
  local ruled = r.used
  for i = 1, m._cells do
    if not open[i] then
      cost[i] = huge
    elseif not ruled then
      cost[i] = costs and costs[i] or 1.0
    end
  end
  return cost
end

-- LuaJIT's table.clear (keeps the table's memory), else a loop over the entries.
local table_clear = rawget(_G, "jit") and select(2, pcall(require, "table.clear"))
if type(table_clear) ~= "function" then
  table_clear = function(t)
    for k in next, t do t[k] = nil end   -- clearing fields while traversing is allowed
  end
end

-- The map's per-cell tables emptied of what the last build wrote, for the
-- next one to fill in the same memory (issue 24: a map moved every frame
-- does not make new tables). Readers copying out of the map see _fills
-- change and start again (lua_distance.c fills).
local function clear_cells(m)
  m._fills = m._fills + 1
  m._reached = 0
  local cost, dist, step, origin, start, sdist, via = m._cost, m._dist, m._step, m._origin,
    m._start, m._sdist, m._via
  if m._max == huge and not table_new then
    -- an uncapped map wrote most cells: one pass over them beats a
    -- traversal of each table (Lua 5.4: 1.7 against 9 ms on 256x256)
    for i = 1, m._cells do
      cost[i], dist[i], step[i], origin[i], start[i], sdist[i], via[i] = nil, nil, nil, nil, nil,
        nil, nil
    end
    return
  end
  for _, t in ipairs { cost, dist, step, origin, start, sdist, via } do table_clear(t) end
end

-- The map's per-cell tables on the first build, emptied on later ones.
local function fresh_cells(m, grid, r)
  local open = grid._open
  if m._built then
    clear_cells(m)
    if m._size > 1 then known_costs(m, open, grid._cost, r, m._cost) end
    return
  end
  m._built = true
  m._fills = m._fills + 1
  m._cost, m._dist, m._step, m._origin, m._reached = known_costs(m, open, grid._cost, r),
    cell_table(m), cell_table(m), cell_table(m), 0
  m._start, m._sdist = cell_table(m), cell_table(m)   -- the walls beside it
  m._via = {}
end

-- astar_distance_run: one flood of m on grid; false when a rule stopped it.
-- The map's tables are filled in place (fresh_cells). With left (a build a
-- slice at a time, in its coroutine: no moves; m is then the pending build,
-- on the map's second tables) the sliced flood, pausing after every `left`
-- settled cells.
local function run(m, grid, r, left)
  local open = grid._open
  if not open then                  -- closed by a finalizer since fill looked
    r.stop = Q.STOP_CLOSED
    return false
  end
  -- the grid's tables as they are now: a finalizer run by the tables made
  -- below may close the grid (fill sees it after)
  m._open = open
  fresh_cells(m, grid, r)
  m._moves = MV.snapshot(grid)   -- the map keeps the moves it is made with
  local dist, step, origin = m._dist, m._step, m._origin
  -- the open list's arrays are the map's, kept between runs (entries past n are stale)
  local heap = m._heap or { {}, {} }
  m._heap = heap
  local hf, hc, n = heap[1], heap[2], 0
  local stride = m._stride
  for k, s in ipairs(m._sources) do
    local c = s.y * stride + s.x + 1
    local fit = source_fit(m, grid, c, r)
    if fit < 0 then
      clear_cells(m)
      return false
    end
    local v = s.value
    if fit == 1 and v <= m._max and (dist[c] == nil or v < dist[c]) then
      dist[c], step[c], origin[c] = v, END, k - 1
      n = K.push(hf, hc, n, v, c)
    end
  end
  if FL.fits(m, grid, r) then
    -- sources on walls are start cells with no value yet; the loop values
    -- them with the others as it goes
    for i in next, m._start do m._start[i] = false end
    FL.run(m, open, hf, hc, n, left)
    return true
  end
  local flooded
  if left then
    local kind = m._hex and "hex" or m._size > 1 and "large" or "square"
    flooded = K.loop(SLICED, kind, false)(m, hf, hc, n, grid, r, m._max, left)
  else
    flooded = flood(m, hf, hc, n, grid, r, m._max)
  end
  if not flooded then
    clear_cells(m)
    return false
  end
  if next(m._start) ~= nil and not starts(m, r.move and r) then
    clear_cells(m)
    return false
  end
  return true
end

-- astar_distance_rescan, in place.
local function rescan(m)
  local step, dist, origin = m._step, m._dist, m._origin
  local hf, hc, n = {}, {}, 0
  local w = m._w
  for i = 1, m._cells do
    if step[i] ~= nil then
      step[i] = END
      local x, y = cell_xy(m, i)
      origin[i] = (y - 1) * w + x - 1
      n = K.push(hf, hc, n, dist[i], i)
    end
  end
  flood(m, hf, hc, n, nil, nil, huge)
end

-- The cost of the move out of cell (position) i in direction d whose
-- default cost is step, by the map's moves: false when it is set false.
local function moved_step(m, moves, i, d, step)
  if m._size > 1 then return B.large_price(moves.over, i, d, m._size, m._stride, step) end
  local ov = moves.over[i]
  local o = ov and ov[d]
  if o ~= nil then return o end
  return step
end

-- Does the move from cell (position) i to u enter a cell the walk's blocked
-- table closes? The cells of u's footprint that i's does not cover
-- (distance.c enters_closed).
local function enters_closed(m, walk, i, u)
  local blocked = walk and walk.blocked
  if not blocked then return false end
  local k, w = m._size, m._w
  local ix, iy = cell_xy(m, i)
  local ux, uy = cell_xy(m, u)
  for y = uy, uy + k - 1 do
    for x = ux, ux + k - 1 do
      if not (x >= ix and x < ix + k and y >= iy and y < iy + k)
        and rawget(blocked, (y - 1) * w + x) then
        return true
      end
    end
  end
  return false
end

-- distance.c choose_move: among the moves out of cell (position) i to
-- members u with dist(u) < below whose cells the walk may enter (walk nil:
-- all), the first (E W S N SE SW NE NW, then links by target) minimising
-- dist(u) + price when that is below best. Returns its code (0-7, LINK;
-- END when none), the value through it, its price and u.
local SQUARE_DIRS = { 1, 2, 3, 4, 5, 6, 7, 8 }
-- ask: the rules whose move rule is asked about each move (nil: none); a
-- stop returns nil.
local function choose_move(m, i, below, walk, best, scratch, ask)
  local step, dist, cost = m._step, m._dist, m._cost
  local stride, mode, layout, large = m._stride, m._diagonal, m._hex, m._size > 1
  local ndir = layout and 6 or mode == NEVER and 4 or 8
  local cornered = not layout and mode ~= ALWAYS
  local offset = scratch.offset
  local side, cells = scratch.side, scratch.cells
  local moves = m._moves
  local bs, bprice, bto = END, nil, nil
  local dirs = layout and B.hex_dirs(layout, stride, i) or SQUARE_DIRS
  if large then
    for d = 1, 4 do side[d] = sized_open(m, nil, i, d, nil, cells) == 1 end
  end
  for k = 1, ndir do
    local d = dirs[k]
    local u = i + offset[d]
    local pass = step[u] ~= nil and dist[u] < below
    if pass and d > 4 and cornered then
      local walls
      if large then
        walls = (side[CX[d]] and 0 or 1) + (side[CY[d]] and 0 or 1)
      else
        walls = (cost[i + offset[CX[d]]] == huge and 1 or 0)
          + (cost[i + offset[CY[d]]] == huge and 1 or 0)
      end
      pass = B.corner_ok(mode, walls)
    end
    if pass then
      local price = large and sized_price(m, i, DX[d], DY[d], cells) or cost[u]
      price = d > 4 and not layout and SQRT2 * price or price
      if moves then price = moved_step(m, moves, i, d, price) end
      if price and ask then
        price = Q.move_step(ask, i, u, price, stride)
        if price == nil then return nil end
      end
      if price and dist[u] + price < best and not enters_closed(m, walk, i, u) then
        best, bs, bprice, bto = dist[u] + price, d - 1, price, u
      end
    end
  end
  local list = moves and moves.out[i]
  if list then
    for k = 1, #list, 2 do
      local t, price = list[k], list[k + 1]
      if step[t] ~= nil and dist[t] < below then
        if ask then
          price = Q.move_step(ask, i, t, price, stride)
          if price == nil then return nil end
        end
        if price and dist[t] + price < best and not enters_closed(m, walk, i, t) then
          best, bs, bprice, bto = dist[t] + price, LINK, price, t
        end
      end
    end
  end
  return bs, best, bprice, bto
end

local function move_scratch(m)
  return { offset = B.offsets(m._stride), side = {}, cells = {} }
end

-- astar_distance_descend: steps from values alone, on any board (distance.c
-- descend): each cell steps to the neighbour it is cheapest through.
local function descend(m)
  local step, origin = m._step, m._origin
  local w = m._w
  local reached = 0
  local new, via = {}, {}
  local scratch = move_scratch(m)
  local dist = m._dist
  for i = 1, m._cells do
    if step[i] ~= nil then
      reached = reached + 1
      local bs, _, _, to = choose_move(m, i, huge, nil, dist[i], scratch)
      if bs == LINK then via[i] = to end
      new[i] = bs
      local x, y = cell_xy(m, i)
      origin[i] = (y - 1) * w + x - 1
    end
  end
  m._step, m._via, m._reached = new, via, reached
end

-- distance.c starts: each start cell of a map of one-cell units takes its
-- best move into the map (ask: the rules whose move rule is asked) when its
-- value is at most the map's maxCost. False when the rule stopped.
function starts(m, ask)
  -- in cell order, as C asks the move rule: the start cells alone, not the grid
  local list = {}
  for i in next, m._start do list[#list + 1] = i end
  if ask then table.sort(list) end   -- no rule asked: any order gives the same
  return value_starts(m, list, ask)
end

-- Values the start cells of list (each on its own); false when the rule stopped.
function value_starts(m, list, ask)
  local start, sdist, origin, via = m._start, m._sdist, m._origin, m._via
  local scratch = move_scratch(m)
  for k = 1, #list do
    local i = list[k]
    local bs, best, _, to = choose_move(m, i, huge, nil, huge, scratch, ask)
    if bs == nil then return false end
    if bs == END or not (best <= m._max) then
      start[i], sdist[i] = false, nil
    else
      start[i], sdist[i], origin[i] = bs, best, origin[to]
      if bs == LINK then via[i] = to end
    end
  end
  return true
end

-- Is cell (position) i within walk.near of a source (distance.c near_source)?
local function near_source(m, walk, i)
  local x, y = cell_xy(m, i)
  local n = walk.near
  for _, src in ipairs(m._sources) do
    local dx, dy = x - src.x, y - src.y
    if dx < 0 then dx = -dx end
    if dy < 0 then dy = -dy end
    local within
    if m._hex then
      within = require("astar.pure.hex").distance(m._hex, x - 1, y - 1, src.x - 1, src.y - 1) <= n
    elseif m._diagonal == NEVER then
      within = dx + dy <= n
    else
      within = dx <= n and dy <= n
    end
    if within then return true end
  end
  return false
end

--- walk_next(m, walk, i, spent) -> the next cell of pathFrom's walk and the
-- step's price, or nil (distance.c astar_distance_walk_next).
function M.walk_next(m, walk, i, spent)
  if walk.near and near_source(m, walk, i) then return nil end
  -- made before the map is read: a finalizer run by it may rebuild the map
  -- (pathFrom starts again), the reads below then see one state
  local scratch = move_scratch(m)
  local d = m._step[i]
  if d == nil then d = m._start[i] end
  if not d or d == END or d == true then return nil end
  local to, price
  if d == LINK then to = m._via[i] else to = i + DY[d + 1] * m._stride + DX[d + 1] end
  if enters_closed(m, walk, i, to) then
    local bs, _
    bs, _, price, to = choose_move(m, i, m._dist[i] or m._sdist[i], walk, huge, scratch)
    if bs == END then return nil end
  elseif d == LINK then
    price = huge
    local list = m._moves.out[i]
    for k = 1, #list, 2 do
      if list[k] == to and list[k + 1] < price then price = list[k + 1] end
    end
  else
    price = m._size > 1 and sized_price(m, i, DX[d + 1], DY[d + 1], scratch.cells) or m._cost[to]
    price = d >= 4 and not m._hex and SQRT2 * price or price
    if m._moves then price = moved_step(m, m._moves, i, d + 1, price) end
  end
  if not (spent + price <= walk.max_cost) then return nil end
  return to, price
end

-- Fills m on grid with rules r until it completes (lua_distance.c fill).
local function fill(m, grid, r, fname)
  local restarts = 0
  while true do
    if not grid._open then error("grid closed during " .. fname, 0) end
    Q.prepare(r, grid)
    m._busy = true
    local ok = run(m, grid, r)
    m._busy, m._open = false, nil   -- the grid's cells were read during the run only
    if not ok then
      if r.stop == Q.STOP_CHANGED and grid._open and restarts < G.MAX_RESTARTS then
        restarts = restarts + 1
      else
        Q.raise(r, fname)
      end
    else
      -- a finalizer may have closed or changed the grid while tables grew
      if not grid._open then error("grid closed during " .. fname, 0) end
      if grid._version == r.version or restarts >= G.MAX_RESTARTS then
        m._version = r.version   -- what an update repairs from
        return
      end
      restarts = restarts + 1
    end
  end
end

-- ---- entry points -----------------------------------------------------------------

local function read_sources(t, w, h, fname)
  local out = {}
  local max = { x = w, y = h }
  for i = 1, rawlen(t) do
    local p = rawget(t, i)
    if type(p) ~= "table" then
      arg_error(1, fname, nil, format("sources[%d]: point expected, got %s", i, type(p)))
    end
    local c = {}
    for _, name in ipairs { "x", "y" } do
      local v = rawget(p, name)
      if type(v) ~= "number" then
        arg_error(1, fname, nil,
          format("sources[%d].%s: number expected, got %s", i, name, type(v)))
      end
      if not (v >= 1 and v <= max[name]) or v ~= floor(v) then
        arg_error(1, fname, nil, format("sources[%d].%s out of range 1..%d, got %s",
          i, name, max[name], A.number_text(v)))
      end
      c[name] = toint(v)
    end
    local value = rawget(p, "value")
    if value ~= nil then
      if type(value) ~= "number" then
        arg_error(1, fname, nil,
          format("sources[%d].value: number expected, got %s", i, type(value)))
      end
      if not (value > -huge and value < huge) then
        arg_error(1, fname, nil,
          format("sources[%d].value must be finite, got %s", i, A.number_text(value)))
      end
    end
    out[i] = { x = c.x, y = c.y, value = value and value * 1.0 or 0.0 }
  end
  return out
end

--- grid:distanceMap(sources [, opts]) -> astar.DistanceMap
function M.distance_map(...)
  local grid, sources, opts = ...
  local nargs = select("#", ...)
  G.check_grid("distanceMap", nargs, grid)
  if type(sources) ~= "table" then
    type_error(1, "distanceMap", nil, "table", sources, nargs > 1)
  end
  local w, h = grid._w, grid._h
  local list = read_sources(sources, w, h, "distanceMap")
  local r = Q.init("distanceMap", 2)
  -- sources may hold values below 0: maxCost may be any number but nan
  local o = { diagonal = grid._diagonal, max_cost = huge, any_max_cost = true, size = 1 }
  O.read(grid, "distanceMap", 2, opts, true, O.MAP, o, r)
  local diagonal, max_cost, size = o.diagonal, o.max_cost, o.size
  Q.finish(r, grid)
  if not grid._open then error("attempt to use a closed astar.Grid", 0) end
  local m = empty_map(w, h, diagonal, grid._hex, size)
  m._sources, m._max, m._rules, m._ruled = list, max_cost, r, r.used or r.move ~= nil
  m._grid = grid   -- setSources recomputes on it
  fill(m, grid, r, "distanceMap")
  return m
end

-- The map's rules (a decoded map has none) for a new flood by fname on grid.
local function same_rules(self, fname, grid)
  local r = Q.init(fname, 1)
  local old = self._rules   -- nil for a decoded map (made without rules)
  if old then
    r.index[1], r.index[2] = old.index[1], old.index[2]
    r.points[1], r.points[2] = old.points[1], old.points[2]
    r.move = old.move
  end
  Q.finish(r, grid)
  return r
end

-- ---- a build a slice at a time (issue 24; lua_distance.c build_sliced) --------
--
-- A pending build is a copy of the map's fields (self._pending) that a run
-- fills in a coroutine, the sliced flood pausing every so many cells. It
-- fills the map's second set of per-cell tables (self._second: made by the
-- first sliced build, then cleared and refilled by every later one, as
-- fresh_cells does the map's own), so every read answers the previous values
-- until the build completes; then the two sets swap (lua_distance.c
-- complete_build, distance_slice.c).

-- The per-cell tables and the flood's open lists a run fills: the map's and
-- the second set, swapped when a build completes.
local CELL_FIELDS = { "_cost", "_dist", "_step", "_origin", "_start", "_sdist", "_via",
  "_built", "_heap", "_closed", "_flood" }
-- What else a run writes, made the map's when the build completes.
local RUN_FIELDS = { "_open", "_reached", "_moves", "_sources", "_grid", "_version" }

-- opts.cells and opts.seconds of fname (argument 2): cells, seconds (huge:
-- none), and whether either was given.
local function read_budget(self, fname, opts, present)
  local o = { cells = huge, seconds = huge }
  O.read(self, fname, 2, opts, present, O.BUILD, o)
  return o.cells, o.seconds, opts ~= nil and (rawget(opts, "cells") ~= nil or rawget(opts, "seconds") ~= nil)
end

-- A new pending build of self on grid (replacing any), from sources, on the
-- map's second tables (none yet: the run makes them, kept_second keeps them).
local function begin_build(self, grid, r, sources)
  local second = self._second or { _built = false }
  self._second = second
  local p = {}
  for k, v in next, self do p[k] = v end
  for _, k in ipairs(CELL_FIELDS) do p[k] = second[k] end
  p._pending, p._second, p._sources, p._grid, p._rules_run = nil, nil, sources, grid, r
  self._pending = p
end

-- The pending build's tables are the map's second set (made by its first run).
local function keep_second(self, p)
  local second = self._second
  for _, k in ipairs(CELL_FIELDS) do second[k] = p[k] end
end

-- The pending build p is complete: its tables become the map's, the map's
-- the second set; readers copying out of the map start again.
local function complete_build(self, p)
  local second = self._second
  for _, k in ipairs(CELL_FIELDS) do self[k], second[k] = p[k], self[k] end
  for _, k in ipairs(RUN_FIELDS) do self[k] = p[k] end
  self._fills = self._fills + 1
  self._pending = nil
end

-- The build's coroutine, made again when the grid changed since it began.
local function build_routine(p, grid)
  if p._co and grid._version == p._seen then return p._co end
  p._seen = grid._version
  p._co = coroutine.create(function(left)
    local ok = run(p, grid, p._rules_run, left)
    return ok
  end)
  return p._co
end

-- The slices of one call of self's pending build p (advance_build): true
-- when it completed, false when the budget is spent; raises as fill does,
-- dropping the build (the map keeps its values).
local function run_slices(self, p, cells, seconds, fname)
  local grid, r = p._grid, p._rules_run
  local clock, started = BU.start(seconds)
  local restarts = 0
  r.fname = fname
  while true do
    local chunk = BU.chunk(cells, clock)
    if not grid._open then
      self._pending = nil
      error("grid closed during " .. fname, 0)
    end
    Q.prepare(r, grid)
    local co = build_routine(p, grid)
    local resumed, ok = coroutine.resume(co, chunk)
    keep_second(self, p)
    if not resumed then
      self._pending = nil
      error(ok, 0)
    end
    local again = false   -- the build starts again on the grid as it is, budget unspent
    if coroutine.status(co) == "dead" then
      if not ok then
        if r.stop ~= Q.STOP_CHANGED or not grid._open or restarts >= G.MAX_RESTARTS then
          self._pending = nil
          Q.raise(r, fname)
        end
        restarts, again, p._co = restarts + 1, true, nil
      elseif not grid._open then
        self._pending = nil
        error("grid closed during " .. fname, 0)
      elseif grid._version ~= r.version and restarts < G.MAX_RESTARTS then
        restarts, again, p._co = restarts + 1, true, nil   -- changed while tables grew
      else
        p._version, p._open = r.version, nil
        complete_build(self, p)
        return true
      end
    end
    if not again then
      local spent
      cells, spent = BU.spend(cells, chunk, clock, started, seconds)
      if spent then return false end
    end
  end
end

-- Runs the pending build of self for at most `cells` settled cells and
-- `seconds` (the clock read after every chunk of budget.lua's, after one chunk
-- at least); true when it completed. The map is busy for the whole call, as
-- C's (no Lua runs between its slices): a finalizer run by a coroutine made
-- here, or between two slices, finds the map being computed and cannot end
-- or replace the build under this call.
local function advance_build(self, cells, seconds, fname)
  self._busy = true
  local ok, done = pcall(run_slices, self, self._pending, cells, seconds, fname)
  self._busy = false
  if not ok then error(done, 0) end
  return done
end

-- update and setSources with a budget: a build of self on grid from
-- sources with rules r, for the budget; maps that follow moves, links or a
-- move rule are built whole. Returns done.
local function build_sliced(self, grid, r, sources, cells, seconds, fname)
  if grid._moves ~= nil or r.move ~= nil then
    self._pending = nil
    self._sources, self._grid = sources, grid
    fill(self, grid, r, fname)
    return true
  end
  begin_build(self, grid, r, sources)
  return advance_build(self, cells, seconds, fname)
end

--- map:step(cells [, seconds]) -> done: continues the pending build.
function Map.step(...)
  local self, n, seconds = ...
  local nargs = select("#", ...)
  check_self("step", nargs, self)
  n, seconds = A.check_step_budget(n, seconds, nargs, "step", "cells")
  local p = self._pending
  if not p then return true end
  local grid = p._grid
  if not grid._open then
    self._pending = nil
    error("calling 'step' on a map whose grid is closed", 0)
  end
  if grid._moves ~= nil then
    -- the grid has moves now: the build is done whole, as update's
    self._pending = nil
    self._sources, self._grid = p._sources, grid
    fill(self, grid, same_rules(self, "step", grid), "step")
    return true
  end
  return advance_build(self, n, seconds, "step")
end

--- map:isBuilding() -> whether a build begun with a budget is pending.
function Map.isBuilding(...)
  local self = ...
  check_self("isBuilding", select("#", ...), self)
  return self._pending ~= nil
end

--- map:update(grid [, opts]) -> map, done: the same sources and options on grid as it is now.
function Map.update(...)
  local self, grid, opts = ...
  local nargs = select("#", ...)
  check_self("update", nargs, self)
  if self._derived then error("calling 'update' on a map made by flee or blend", 0) end
  if self._rules_lost then
    error("calling 'update' on a decoded map that was made with rules", 0)
  end
  if getmetatable(grid) ~= G.META or type(grid) ~= "table" then
    type_error(1, "update", nil, "astar.Grid", grid, nargs > 1)
  end
  if not grid._open then error("attempt to use a closed astar.Grid", 0) end
  if grid._w ~= self._w or grid._h ~= self._h then
    arg_error(1, "update", nil, format("grid is %dx%d, the map %dx%d", grid._w, grid._h,
      self._w, self._h))
  end
  if grid._hex ~= self._hex then
    arg_error(1, "update", nil, "the grid is not of the map's board shape")
  end
  local cells, seconds, budget = read_budget(self, "update", opts, nargs > 2)
  if budget then
    return self, build_sliced(self, grid, same_rules(self, "update", grid), self._sources, cells,
      seconds, "update")
  end
  self._pending = nil   -- a whole update replaces a pending build
  if RP.fits(self, grid) then   -- a few edits since: repaired in place
    local version = grid._version
    self._busy = true   -- a finalizer's call on the map waits (the tables are being written)
    self._fills = self._fills + 1   -- a reader copying out of the map starts again
    local done, valued = RP.repair(self, grid, B.offsets)
    if done then value_starts(self, valued, nil) end
    self._busy = false
    -- a finalizer that changed or closed the grid meanwhile: a rebuild
    if done and grid._open and grid._version == version then return self, true end
  end
  self._grid = grid
  fill(self, grid, same_rules(self, "update", grid), "update")
  return self, true
end

--- map:setSources(sources) -> map: these sources, the map's options, on the
-- grid it was made (or last updated) on as that grid is now.
function Map.setSources(...)
  local self, sources, opts = ...
  local nargs = select("#", ...)
  check_self("setSources", nargs, self)
  if self._derived then error("calling 'setSources' on a map made by flee or blend", 0) end
  local grid = self._grid   -- a decoded map has one once updated on a grid
  if not grid then error("calling 'setSources' on a map made by astar.decodeMap", 0) end
  if type(sources) ~= "table" then
    type_error(1, "setSources", nil, "table", sources, nargs > 1)
  end
  local list = read_sources(sources, self._w, self._h, "setSources")
  local cells, seconds, budget = read_budget(self, "setSources", opts, nargs > 2)
  if not grid._open then error("calling 'setSources' on a map whose grid is closed", 0) end
  if budget then
    return self, build_sliced(self, grid, same_rules(self, "setSources", grid), list, cells, seconds,
      "setSources")
  end
  self._pending = nil   -- a whole setSources replaces a pending build
  self._sources = list
  fill(self, grid, same_rules(self, "setSources", grid), "setSources")
  return self, true
end

local function derived(from)
  local m = empty_map(from._w, from._h, from._diagonal, from._hex, from._size)
  local cost = {}
  for i, c in next, from._cost do cost[i] = c end
  m._cost, m._derived = cost, true
  m._moves = from._moves   -- a snapshot: never written
  return m
end

--- map:flee([k]) -> a new map: -k times this one's values, rescanned. A value
-- that would overflow a double is an error (lua_distance.c map_flee).
function Map.flee(...)
  local self, k = ...
  local nargs = select("#", ...)
  check_self("flee", nargs, self)
  if k == nil then
    k = 1.2
  else
    A.check_number(k, true, 1, "flee")
    if not (k > 0 and k < huge) then
      arg_error(1, "flee", nil, "k must be a finite number > 0, got " .. A.number_text(k))
    end
  end
  local f
  local restarts = 0
  repeat   -- the values again when a finalizer rebuilt the map as they were read
    local fills = self._fills
    f = derived(self)
    local dist, step, from = f._dist, f._step, self._dist
    for i = 1, self._cells do   -- in index order, the rows in order: the first overflow
      if self._step[i] ~= nil then
        local v = -k * from[i]
        if not (v > -huge and v < huge) and self._fills == fills then
          local x, y = cell_xy(self, i)
          arg_error(1, "flee", nil, format("k * value at (%d, %d) overflows: %s * %s", x, y,
            A.number_text(k), A.number_text(from[i])))
        end
        dist[i], step[i] = v, END
      end
    end
    restarts = restarts + 1
  until not map_moved(self, fills, restarts, "flee")
  rescan(f)
  return f
end

--- astar.blend({mapA, wA, mapB, wB, ...} [, opts]) -> a new map
function M.blend(...)
  local list, opts = ...
  local nargs = select("#", ...)
  if type(list) ~= "table" then type_error(1, "blend", nil, "table", list, nargs > 0) end
  local rescanned = false
  if opts ~= nil then
    if type(opts) ~= "table" then type_error(2, "blend", nil, "table", opts, true) end
    for key, v in next, opts do
      if type(key) ~= "string" then
        arg_error(2, "blend", nil, "option names must be strings, got " .. type(key))
      end
      if key ~= "rescan" then arg_error(2, "blend", nil, "unknown option '" .. A.quoted(key) .. "'") end
      rescanned = A.check_boolean(v, true, 2, "blend", "opts.rescan: ")
    end
  end
  local n = rawlen(list)
  if n == 0 or n % 2 == 1 then
    arg_error(1, "blend", nil, format("{map, weight, ...} expected, got %d entries", n))
  end
  local first
  local maps, weights = {}, {}   -- the list as checked, read from here on
  for k = 1, n do
    local v = rawget(list, k)
    if k % 2 == 1 then
      maps[#maps + 1] = v
      if getmetatable(v) ~= MAP or type(v) ~= "table" then
        arg_error(1, "blend", nil, format("[%d]: astar.DistanceMap expected, got %s", k, type(v)))
      end
      if v._busy then arg_error(1, "blend", nil, format("[%d]: the map is being computed", k)) end
      first = first or v
      if v._w ~= first._w or v._h ~= first._h then
        arg_error(1, "blend", nil, format("[%d]: map is %dx%d, [1] is %dx%d", k, v._w, v._h,
          first._w, first._h))
      end
      if v._hex ~= first._hex then
        arg_error(1, "blend", nil, format("[%d]: map of another board shape than [1]", k))
      end
      if v._size ~= first._size then
        arg_error(1, "blend", nil, format("[%d]: map for units of size %d, [1] for size %d", k,
          v._size, first._size))
      end
    else
      if type(v) ~= "number" then
        arg_error(1, "blend", nil, format("[%d]: weight expected, got %s", k, type(v)))
      end
      if not (v > -huge and v < huge) then
        arg_error(1, "blend", nil, format("[%d]: weight must be finite, got %s", k,
          A.number_text(v)))
      end
      weights[#weights + 1] = v
    end
  end
  -- the weighted sum in list order on the cells every map holds, in index
  -- order (the first overflow is the C backend's); an overflow is an error
  local b
  local restarts = 0
  local function fills()   -- the maps' fill counts together (one map may come twice)
    local total = 0
    for k = 1, #maps do total = total + maps[k]._fills end
    return total
  end
  repeat   -- the sums again when a finalizer rebuilt a map as they were read
    local before = fills()
    b = derived(first)
    local dist, step = b._dist, b._step
    for i = 1, first._cells do
      local sum = 0
      for k = 1, #maps do
        local m = maps[k]
        local d = m._step[i] ~= nil and m._dist[i]
        if not d then
          sum = nil
          break
        end
        sum = sum + weights[k] * d
      end
      if sum then
        if not (sum > -huge and sum < huge) and fills() == before then
          local x, y = cell_xy(b, i)
          arg_error(1, "blend", nil, format("weighted sum at (%d, %d) overflows", x, y))
        end
        dist[i], step[i] = sum, END
      end
    end
    restarts = restarts + 1
  until not map_moved({ _fills = fills() }, before, restarts, "blend")
  if rescanned then rescan(b) else descend(b) end
  return b
end

-- ---- map:encode() and astar.decodeMap(s): distance.c's format ----------------
-- A map that keeps moves (flag 16) also has, after the values: the moves
-- section of the grid's format (encode.lua), then the target cell (u32) of
-- each link step (code 9), in cell order.

local byte, char, sub, concat = string.byte, string.char, string.sub, table.concat
local function u16(s, i) return byte(s, i) + byte(s, i + 1) * 256 end
local le, u32, f64_any, get_f64 = EN.le, EN.u32, EN.f64_any, EN.get_f64
local DIAGONAL_CODE = { [1] = 0, [2] = 1, [3] = 2, [4] = 3 }   -- index -> AstarDiagonal

-- The targets of the map's link steps, in cell order (u32 cell numbers).
local function link_steps(self)
  local out = {}
  local stride, w, step, via, start = self._stride, self._w, self._step, self._via, self._start
  for y = 1, self._h do
    for x = 1, w do
      local i = y * stride + x + 1
      if step[i] == LINK or start[i] == LINK then
        local t = via[i]
        local tx = (t - 1) % stride
        out[#out + 1] = le(((t - 1 - tx) / stride - 1) * w + tx - 1, 4)
      end
    end
  end
  return concat(out)
end

-- Format version 2 (distance.c describes it): the costs as a palette of at
-- most 256 (or binary64 per cell), the values in one block, the origins in
-- the width they need, Adler-32. Version 1 (2.0.0) still decodes.
local VERSION, PALETTE, CHUNK = 2, 256, 128   -- CHUNK: numbers per string.char / pack call
local tunpack = table.unpack or unpack        -- luacheck: ignore 143
local spack, sunpack = EN.pack, EN.unpack     -- string.pack, string.unpack: nil before 5.3
local rep = string.rep
local u32_bytes = EN.u32_bytes
local NAN_KEY = {}                            -- the palette's key for NaN

-- The bytes list[1..n] (whole numbers 0-255) as a string.
local function chars(list, n)
  local out = {}
  for a = 1, n, CHUNK do
    local b = a + CHUNK - 1
    if b > n then b = n end
    out[#out + 1] = char(tunpack(list, a, b))
  end
  return concat(out)
end

-- The binary64s of the numbers list[1..n], none NaN.
local function doubles(list, n)
  local out = {}
  if not spack then   -- (Lua 5.1, LuaJIT) the bytes by arithmetic, a string per CHUNK / 8 values
    local bytes, f64_bytes, j = {}, EN.f64_bytes, 0
    for k = 1, n do
      bytes[j + 1], bytes[j + 2], bytes[j + 3], bytes[j + 4], bytes[j + 5], bytes[j + 6],
        bytes[j + 7], bytes[j + 8] = f64_bytes(list[k])
      j = j + 8
    end
    return chars(bytes, j)
  end
  local whole = "<" .. rep("d", CHUNK)
  for a = 1, n, CHUNK do
    local b = a + CHUNK - 1
    if b > n then
      out[#out + 1] = spack("<" .. rep("d", n - a + 1), tunpack(list, a, n))
    else
      out[#out + 1] = spack(whole, tunpack(list, a, b))
    end
  end
  return concat(out)
end

-- The n binary64s at byte at of s, as a list.
local function read_doubles(s, at, n)
  local out = {}
  if not sunpack then
    for k = 1, n do out[k] = get_f64(s, at + 8 * (k - 1)) end
    return out
  end
  local whole = "<" .. rep("d", CHUNK)
  for a = 1, n, CHUNK do
    local m = n - a + 1
    if m > CHUNK then m = CHUNK end
    local got = { sunpack(m == CHUNK and whole or "<" .. rep("d", m), s, at + 8 * (a - 1)) }
    for j = 1, m do out[a + j - 1] = got[j] end
  end
  return out
end

-- The cost section: 2 bytes P, the palette and an index per cell, or (P = 0,
-- more than 256 distinct costs) a binary64 per cell.
local function cost_section(costs, n)
  local index, palette, idx = {}, {}, {}
  for c = 1, n do
    local v = costs[c]
    local key = v == v and v or NAN_KEY
    local k = index[key]
    if not k then
      if #palette == PALETTE then
        local raw = {}
        for j = 1, n do raw[j] = f64_any(costs[j]) end
        return "\0\0" .. concat(raw)
      end
      palette[#palette + 1] = f64_any(v)
      k = #palette - 1
      index[key] = k
    end
    idx[c] = k
  end
  return char(#palette % 256, (#palette - #palette % 256) / 256) .. concat(palette) .. chars(idx, n)
end

-- The map's bytes before the checksum, read as they are (Map.encode starts
-- again when a finalizer rebuilt the map meanwhile: a cell half rebuilt reads
-- as some number, never an error).
local function encode_once(self)
  local sized = self._size > 1   -- large units: flag 8, the size after the header
  local moved = self._moves ~= nil   -- flag 16: the moves it keeps, then the link steps
  local flags = (self._derived and 1 or 0) + ((self._ruled or self._rules_lost) and 2 or 0)
    + (self._hex and 4 or 0) + (sized and 8 or 0) + (moved and 16 or 0)
  local mode = self._hex and self._hex - 1 or DIAGONAL_CODE[self._diagonal]
  local stride, step, cost, dist, origin = self._stride, self._step, self._cost, self._dist,
    self._origin
  local start, sdist = self._start, self._sdist
  local steps, costs, values, origins = {}, {}, {}, {}
  local c, m, most = 0, 0, 0
  for y = 1, self._h do
    for x = 1, self._w do
      local i = y * stride + x + 1
      local st, sv = step[i], start[i]
      if st == nil and sv then st = sv end   -- a start cell with a step (issue 21)
      c = c + 1
      steps[c] = st or 15
      costs[c] = sv ~= nil and -huge or cost[i] or 0 / 0   -- a start cell: -inf
      if st then
        m = m + 1
        values[m] = dist[i] or sdist[i] or 0.0
        local o = origin[i] or 0
        origins[m] = o
        if o > most then most = o end
      end
    end
  end
  local width = most == 0 and 0 or most < 256 and 1 or most < 65536 and 2 or 4
  local out = { "ASTARDMP" .. char(VERSION, width, mode, flags) .. u32_bytes(self._w)
    .. u32_bytes(self._h) .. u32_bytes(#self._sources) .. f64_any(self._max)
    .. (sized and u32_bytes(self._size) or "") }
  for _, src in ipairs(self._sources) do
    out[#out + 1] = u32_bytes(src.x - 1) .. u32_bytes(src.y - 1) .. f64_any(src.value)
  end
  out[#out + 1] = chars(steps, c)
  out[#out + 1] = cost_section(costs, c)
  out[#out + 1] = doubles(values, m)
  if width == 1 then
    out[#out + 1] = chars(origins, m)
  elseif width > 1 then
    local parts = {}
    for k = 1, m do parts[k] = sub(u32_bytes(origins[k]), 1, width) end
    out[#out + 1] = concat(parts)
  end
  if moved then out[#out + 1] = EN.encode_moves(self) .. link_steps(self) end
  return concat(out)
end

function Map.encode(...)
  local self = ...
  check_self("encode", select("#", ...), self)
  local s
  local restarts = 0
  repeat
    local fills = self._fills
    s = encode_once(self)
    restarts = restarts + 1
  until not map_moved(self, fills, restarts, "encode")
  return s .. u32_bytes(EN.adler32(s, 1, #s))
end

-- The moves section at byte at + 1 of a decoded map (checked) as the
-- snapshot a map keeps (moves.lua), set on a stand-in for a grid.
local function decoded_moves(s, at, m)
  local stand_in = { _w = m._w, _h = m._h, _stride = m._stride, _hex = m._hex, _version = 0,
    _changes = {} }
  EN.decode_moves(s, at, stand_in)
  return stand_in._moves
end

local function bad_map(message)
  arg_error(1, "decodeMap", nil, "not an astar distance map: " .. message)
end

-- distance.c sized_members_fit: every member position of a map of large units
-- has its k x k cells in the grid, each with a finite entry cost (counts of the
-- cells without one above and left of each corner, in O(cells)).
local function sized_members_fit(s, w, h, k, steps, cost_of)
  local row = w + 1
  local bad = {}
  for x = 0, w do bad[x] = 0 end
  for y = 0, h - 1 do
    local count = 0
    bad[(y + 1) * row] = 0
    for x = 0, w - 1 do
      local c = cost_of[y * w + x + 1]
      if not (c > 0 and c < huge) then count = count + 1 end
      bad[(y + 1) * row + x + 1] = bad[y * row + x + 1] + count
    end
  end
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if byte(s, steps + y * w + x) ~= 15 then
        if x + k > w or y + k > h
          or bad[(y + k) * row + x + k] - bad[y * row + x + k] - bad[(y + k) * row + x]
            + bad[y * row + x] ~= 0 then
          bad_map("bad position")
        end
      end
    end
  end
end

function M.decode_map(...)
  local s = ...
  if type(s) ~= "string" then type_error(1, "decodeMap", nil, "string", s, select("#", ...) > 0) end
  local length = #s
  if length < 36 or sub(s, 1, 8) ~= "ASTARDMP" then bad_map("bad magic or too short") end
  local version, width = byte(s, 9), byte(s, 10)
  if not (version == 1 and width == 0 or version == 2 and (width <= 2 or width == 4)) then
    bad_map("unknown format version")
  end
  if version == 1 then width = 4 end
  local diagonal, flags = byte(s, 11), byte(s, 12)
  if diagonal > 3 or flags > 31 then bad_map("bad diagonal mode or flags") end
  local moved = flags >= 16   -- the moves the map keeps, and link steps
  local hex = flags % 8 >= 4 and diagonal + 1 or nil   -- a hex map: the layout in the mode byte
  local w, h, n = u32(s, 13), u32(s, 17), u32(s, 21)
  local max_cost = get_f64(s, 25)
  local cells = w * h
  if w < 1 or h < 1 or w > G.MAX_SIDE or h > G.MAX_SIDE or cells > G.MAX_CELLS then
    bad_map("bad size")
  end
  if max_cost ~= max_cost then bad_map("bad maxCost") end
  local size, head = 1, 32
  if flags % 16 >= 8 then
    if length < 40 then bad_map("truncated") end
    size, head = u32(s, 33), 36
    if size < 2 or size > G.MAX_SIDE or hex then bad_map("bad unit size") end
  end
  local fixed = head + 16 * n + (version == 1 and 9 * cells or cells + 2) + 4
  if fixed > length then bad_map("truncated") end
  local sum = version == 1 and EN.fnv1a(EN.FNV_OFFSET, s, 1, length - 4) or EN.adler32(s, 1, length - 4)
  if sum ~= u32(s, length - 3) then bad_map("bad checksum") end
  local m = empty_map(toint(w), toint(h), hex and 1 or diagonal + 1, hex, toint(size))
  local p = head + 1
  for k = 1, n do
    local x, y, v = u32(s, p), u32(s, p + 4), get_f64(s, p + 8)
    if x >= w or y >= h or not (v > -huge and v < huge) then bad_map("bad source") end
    m._sources[k] = { x = toint(x + 1), y = toint(y + 1), value = v }
    p = p + 16
  end
  local steps = p
  -- version 2's cost section: P (0: a binary64 per cell), where it ends
  local npalette = version == 2 and byte(s, p + cells) + 256 * byte(s, p + cells + 1)
  local values = version == 1 and p + 9 * cells
    or p + cells + 2 + (npalette > 0 and 8 * npalette + cells or 8 * cells)
  local fits = version == 1 or npalette <= PALETTE and values - 1 + 4 <= length
  if moved and not fits then bad_map("truncated") end   -- (C: read with the moves' counts)
  local members, linked = 0, 0
  for c = 0, cells - 1 do
    local st = byte(s, steps + c)
    if st == LINK and moved then
      linked = linked + 1
    elseif st ~= 15 and st > END then
      bad_map("bad step")
    end
    if st ~= 15 then members = members + 1 end
  end
  if not fits then bad_map("bad length") end
  local moves_at = values - 1 + (version == 1 and 12 or 8 + width) * members   -- after the values
  local via_at = moves_at
  if moved then via_at = EN.moves_end(s, moves_at) or bad_map("bad length") end
  if via_at + 4 * linked + 4 ~= length then bad_map("bad length") end
  local cost_of = {}   -- each cell's entry cost, in cell order
  if version == 1 then
    cost_of = read_doubles(s, p + cells, cells)
  elseif npalette == 0 then
    cost_of = read_doubles(s, p + cells + 2, cells)
  else
    local palette, at = {}, p + cells + 2
    for k = 0, npalette - 1 do palette[k] = get_f64(s, at + 8 * k) end
    at = at + 8 * npalette
    for c = 1, cells do
      local v = palette[byte(s, at + c - 1)]
      if v == nil then bad_map("bad cost") end
      cost_of[c] = v
    end
  end
  -- the values and origins of the members, in cell order
  local vals, origs = {}, {}
  if version == 1 then   -- values 12 bytes apart
    for k = 1, members do vals[k] = get_f64(s, values + 12 * (k - 1)) end
  else
    vals = read_doubles(s, values, members)
  end
  local at = values + (version == 1 and 8 or 8 * members)
  local ostride = version == 1 and 12 or width
  for k = 1, members do
    if width == 0 then
      origs[k] = 0
    elseif width == 1 then
      origs[k] = byte(s, at)
    elseif width == 2 then
      origs[k] = u16(s, at)
    else
      origs[k] = u32(s, at)
    end
    at = at + ostride
  end
  if size > 1 then sized_members_fit(s, w, h, size, steps, cost_of) end
  if moved then
    local message = EN.check_moves(s, moves_at, w, h, hex)
    if message then bad_map(message) end
  end
  local stride = m._stride
  if moved then m._moves = decoded_moves(s, moves_at, m) end
  local step, cost, dist, origin = m._step, m._cost, m._dist, m._origin
  via_at = via_at + 1
  local reached, member = 0, 0
  for i = 1, m._cells do cost[i] = huge end
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      local i = (y + 1) * stride + x + 2
      local c = y * w + x
      local st = byte(s, steps + c)
      local cc = cost_of[c + 1]
      local start = cc == -huge and size == 1   -- a start cell (issue 21)
      if start then
        cc = huge
        m._start[i] = false
      end
      if not (cc > 0) and cc == cc then bad_map("bad cost") end
      cost[i] = cc == cc and cc or nil
      if st ~= 15 then
        if not (cc > 0 and cc < huge) and not start then bad_map("bad cost") end
        if start and st == END then bad_map("bad step") end
        if st == LINK then                  -- to a cell of the map a link leads to
          local t = u32(s, via_at)
          via_at = via_at + 4
          local tx, ty = t % w, (t - t % w) / w
          if t >= cells or byte(s, steps + t) == 15
            or not MV.link_cost({ _moves = m._moves }, i, (ty + 1) * stride + tx + 2) then
            bad_map("bad step")
          end
          m._via[i] = toint((ty + 1) * stride + tx + 2)
        elseif st < 8 then
          local nx, ny = x + DX[st + 1], y + DY[st + 1]
          if nx < 0 or ny < 0 or nx >= w or ny >= h or byte(s, steps + ny * w + nx) == 15 then
            bad_map("bad step")
          end
          if hex and st >= 4 then           -- a hex map steps to a hex neighbour
            local dirs = B.hex_dirs(hex, stride, i)
            if st + 1 ~= dirs[5] and st + 1 ~= dirs[6] then bad_map("bad step") end
          end
        end
        local v
        member = member + 1
        v, origin[i] = vals[member], origs[member]
        if not (v > -huge and v < huge) or origin[i] >= (flags % 2 == 1 and cells or n) then
          bad_map("bad value")
        end
        if start then
          m._start[i], m._sdist[i] = st, v
        else
          step[i], dist[i] = st, v
          reached = reached + 1
        end
      end
    end
  end
  m._reached, m._built = reached, true
  m._max = max_cost
  m._derived = flags % 2 == 1
  m._rules_lost = flags % 4 >= 2
  return m
end

return M
