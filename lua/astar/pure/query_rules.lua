-- The rules of one query for the pure-Lua backend, a port of
-- src/lua/query_rules.c: opts.cost, blocked and occupied of findPath,
-- newSearch and distanceMap (and zoc, read here for movementRange) as a
-- function (x, y), a table by cell number, or a list of points. A list is
-- turned into a table by cell number once, while the options are read
-- (options.lua; so it is asked like the table form, raw); a function is
-- called at most once per cell, by the search (search.lua run_general).
--
-- The same messages as the C binding, in the same order. A function is called
-- through a C function (string.gsub), so a yield in it is the same error as on
-- the C backend, and under pcall: as in C, a callback's error (or a grid
-- closed or changed by it, a bad cost, a cell table holding a table) stops
-- the query, which then reports it (raise) once the search has returned.
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local B = require "astar.pure.board"

local M = {}

local floor, huge = math.floor, math.huge
local format, gsub = string.format, string.gsub
local type, rawget, rawset, next, pcall, error = type, rawget, rawset, next, pcall, error
local rawlen = rawlen or function(t) return #t end
local toint = G.toint
local arg_error, number_text = A.arg_error, A.number_text

local BLOCKED, COST, OCCUPIED, ZOC = 1, 2, 3, 4
M.BLOCKED, M.COST, M.OCCUPIED, M.ZOC = BLOCKED, COST, OCCUPIED, ZOC
-- opts.move (moves.lua, docs/moves.md): a rule about moves, not cells; its
-- messages have a slot beside the cell rules' (argn[MOVE], label[MOVE]).
local MOVE = 5
M.MOVE = MOVE
local RULE_NAMES = { "blocked", "cost", "occupied", "zoc" }
M.RULE_NAMES = RULE_NAMES
-- where messages about each rule point by default (query_rules_init); shared,
-- never written: a caller with other labels sets a table of its own
local DEFAULT_LABELS = { "opts.blocked", "opts.cost", "opts.occupied", "opts.zoc", "opts.move" }
M.NO_STOP = 1   -- ASTAR_RANGE_NO_STOP

-- Why a query with rules stopped early (QR_STOP_*).
local STOP_ERROR, STOP_CLOSED, STOP_CHANGED, STOP_BAD_COST, STOP_BAD_FORM, STOP_BAD_MOVE =
  "error", "closed", "changed", "bad cost", "bad form", "bad move"
M.STOP_ERROR, M.STOP_CLOSED, M.STOP_CHANGED = STOP_ERROR, STOP_CLOSED, STOP_CHANGED

-- query_rules_init: empty rules of fname, whose options are argument argn;
-- messages about rule `which` name argument argn[which] and label[which]
-- ("opts.cost"; range.lua read_names sets tables of its own for dangerZone).
local SAME_ARGN = {}   -- {argn, argn, argn, argn} by argn: shared, never written
function M.init(fname, argn)
  local same = SAME_ARGN[argn]
  if not same then
    same = { argn, argn, argn, argn, argn }
    SAME_ARGN[argn] = same
  end
  return { fname = fname, argn = same, label = DEFAULT_LABELS,
    index = {}, points = {}, used = false, callbacks = false, min_cost = 0, width = 0,
    move = nil, stop = nil }
end

-- Where a rule's messages point: {fname =, argn =, label =} ("opts.blocked").
local function name_of(r, which)
  return { fname = r.fname, argn = r.argn[which], label = r.label[which] }
end

local function rule_error(n, message)
  arg_error(n.argn, n.fname, nil, n.label .. message)
end

-- A whole coordinate in 1..max of point p (entry i), field name.
local function point_coordinate(n, p, i, name, max)
  local where = format("[%d].%s", i, name)
  local v = rawget(p, name)
  if type(v) ~= "number" then
    rule_error(n, format("%s: number expected, got %s", where, type(v)))
  end
  if not (v >= 1 and v <= max) or v ~= floor(v) then
    rule_error(n, format("%s out of range 1..%d, got %s", where, max, number_text(v)))
  end
  return v
end

-- A key of a list that is not 1..n, for the message (query_rules.c key_text).
local function key_text(k)
  local t = type(k)
  if t == "string" then return "'" .. A.quoted(k) .. "'" end
  if t == "number" then return number_text(k) end
  if t == "boolean" then return k and "true" or "false" end
  return t
end

-- The size of unit p (entry i) at (x, y), its optional field size
-- (query_rules.c unit_size): a whole number with which the k x k square from
-- (x, y) stays on the grid (1 when absent); only 1 on a hex grid.
local function unit_size(n, p, i, x, y, grid)
  local v = rawget(p, "size")
  if v == nil then return 1 end
  local where = format("[%d].size", i)
  if type(v) ~= "number" then
    rule_error(n, format("%s: number expected, got %s", where, type(v)))
  end
  if grid._hex and v > 1 and v == floor(v) then
    rule_error(n, where .. ": large units need a square grid")
  end
  local max = grid._w - x + 1
  if grid._h - y + 1 < max then max = grid._h - y + 1 end
  if not (v >= 1 and v <= max) or v ~= floor(v) then
    rule_error(n, format("%s out of range 1..%d, got %s", where, max, number_text(v)))
  end
  return toint(v)
end

-- t[cell] = value on the k x k square from (x, y) (1-based) of a grid of width w.
local function set_square(t, x, y, k, w, value)
  for cy = y, y + k - 1 do
    for cx = x, x + k - 1 do rawset(t, toint((cy - 1) * w + cx), value) end
  end
end

-- t[cell] = true on every cell next to the k x k square from (x, y) (1-based),
-- outside it: its sides, the corners too when diagonal; on a hex grid the
-- six neighbours of the cell (k is 1 there).
local function mark_around(t, x, y, k, grid, diagonal)
  local w, h = grid._w, grid._h
  if grid._hex then
    local stride = grid._stride
    local dirs = B.hex_dirs(grid._hex, stride, y * stride + x + 1)
    for j = 1, 6 do
      local nx, ny = x + B.DX[dirs[j]], y + B.DY[dirs[j]]
      if nx >= 1 and ny >= 1 and nx <= w and ny <= h then rawset(t, toint((ny - 1) * w + nx), true) end
    end
    return
  end
  local lo, hi = -1, k
  for j = lo, hi do
    for i = lo, hi do
      local side = ((i == lo or i == hi) and 1 or 0) + ((j == lo or j == hi) and 1 or 0)
      local nx, ny = x + i, y + j
      if side > 0 and (side == 1 or diagonal) and nx >= 1 and ny >= 1 and nx <= w and ny <= h then
        rawset(t, toint((ny - 1) * w + nx), true)
      end
    end
  end
end

-- What points_table makes of a list: flags, costs, or the cells next to
-- each unit (zoc's around).
local FLAG, COST_POINTS, AROUND = 1, 2, 3
M.FLAG, M.COST_POINTS, M.AROUND = FLAG, COST_POINTS, AROUND

-- rule_points_table: the list of points v as a table by cell number
-- (y - 1) * width + x. Each point is a unit {x =, y = [, size =]}: the k x k
-- cells from (x, y). kind FLAG: true on each; COST_POINTS: the point's cost
-- (or false for impassable) on each; AROUND: true on the cells next to each
-- unit (diagonal: corners too). Returns it and the lowest finite cost listed
-- (0: none). Errors name n.fname, argument n.argn and n.label.
function M.points_table(v, kind, grid, diagonal, n)
  local is_cost = kind == COST_POINTS
  local width, height = grid._w, grid._h
  local count = rawlen(v)
  local min_cost = 0
  for k in next, v do                       -- only 1..count: no other key
    if not (type(k) == "number" and k >= 1 and k <= count and k == floor(k)) then
      rule_error(n, ": a list of points cannot also have key " .. key_text(k))
    end
  end
  local t = {}
  for i = 1, count do
    local p = rawget(v, i)
    if type(p) ~= "table" then
      rule_error(n, format("[%d]: point expected, got %s", i, type(p)))
    end
    local x = point_coordinate(n, p, i, "x", width)
    local y = point_coordinate(n, p, i, "y", height)
    local k = unit_size(n, p, i, x, y, grid)
    local value = true
    if kind == AROUND then
      mark_around(t, x, y, k, grid, diagonal)
    elseif is_cost then
      local c = rawget(p, "cost")
      local ok = c == false or (type(c) == "number" and ((c > 0 and c <= G.MAX_COST) or c == huge))
      if not ok then
        rule_error(n, format(
          "[%d].cost: expected a positive number up to 1e15, false or math.huge, got %s", i,
          type(c) == "number" and number_text(c) or type(c)))
      end
      if c == false or c == huge then
        value = false
      else
        value = c * 1.0
        if min_cost == 0 or value < min_cost then min_cost = value end
      end
    end
    if kind ~= AROUND then set_square(t, x, y, k, width, value) end
  end
  return t, min_cost
end

-- Whether rule table v is zoc's {around = units} (query_rules.c
-- zoc_around): around a table, and no other key. n names the rule.
local function zoc_around(v, n)
  local units = rawget(v, "around")
  if units == nil then return nil end
  if type(units) ~= "table" then
    rule_error(n, ".around: table expected, got " .. type(units))
  end
  for k in next, v do
    if k ~= "around" then
      rule_error(n, ": {around = units} cannot also have key " .. key_text(k))
    end
  end
  return units
end

-- A table by cell number: its first key says whether it is one (a point
-- {x =, y =} given alone is the common slip). n names the rule.
function M.check_cell_table(v, n)
  local k = next(v)
  if k ~= nil and type(k) ~= "number" then
    rule_error(n, ": a table by cell number or a list of points expected, got key " .. key_text(k))
  end
end

-- query_rules_read: rule `which` from value v, as the options give it, for
-- a query on grid with diagonal moves or not (the cells next to a unit). An
-- empty table is no rule (an empty list of points, not a cell table that
-- makes every cell impassable).
function M.read(r, which, v, grid, diagonal)
  local t = type(v)
  local n = name_of(r, which)
  if t ~= "function" and t ~= "table" then
    rule_error(n, ": function or table expected, got " .. t)
  end
  if t == "table" and next(v) == nil then
    r.index[which], r.points[which] = nil, false
    return
  end
  local units = t == "table" and which == ZOC and zoc_around(v, n)
  if units then
    n.label = n.label .. ".around"
    r.points[which] = false
    r.index[which] = M.points_table(units, AROUND, grid, diagonal, n)
    return
  end
  r.points[which] = t == "table" and type(rawget(v, 1)) == "table"
  if t == "table" and not r.points[which] then M.check_cell_table(v, n) end
  if r.points[which] then
    local lowest
    v, lowest = M.points_table(v, which == COST and COST_POINTS or FLAG, grid, diagonal, n)
    if which == COST then r.min_cost = lowest end   -- the grid's lowest joins it later
  end
  r.index[which] = v
end

-- query_rules_finish: after every option is read, the lowest cost the rules
-- give of their own.
function M.finish(r, grid)
  r.width = grid._w
  r.used, r.callbacks = false, false
  for which = BLOCKED, ZOC do
    local v = r.index[which]
    if v ~= nil then
      r.used = true
      if type(v) == "function" then r.callbacks = true end
    end
  end
  -- the rules' own lowest cost; the search takes the lower of it and the
  -- grid's, as the grid is when it (re)starts (search.c heuristic_scale)
  if r.index[COST] == nil then
    r.min_cost = huge                       -- the grid's costs stand
  elseif not r.points[COST] then
    r.min_cost = 0                          -- any cost: the heuristic is off
  elseif r.min_cost == 0 then
    r.min_cost = huge                       -- only walls listed
  end
  if r.callbacks and not r.call then r.call = M.caller() end
  if r.move and not r.call_move then r.call_move = M.move_caller() end
  return r.used
end

-- opts.move (the options' value v): a function, else the error.
function M.read_move(r, v)
  if type(v) ~= "function" then
    arg_error(r.argn[MOVE], r.fname, nil, r.label[MOVE] .. ": function expected, got " .. type(v))
  end
  r.move = v
end

-- A caller of rule functions f(x, y) for one query. f runs under pcall inside
-- string.gsub (a C function calling it with lua_call): a yield in f is the
-- error Lua gives for a yield across a C-call boundary, as when the C backend
-- calls it with lua_pcall. Returns pcall's ok and value.
function M.caller()
  local f, a, b, ok, result
  local function call() ok, result = pcall(f, a, b) end
  return function(fn, x, y)
    f, a, b = fn, x, y
    gsub("", "", call)
    local o, v = ok, result
    f, result = nil, nil
    return o, v
  end
end

-- The same for the move rule f(fx, fy, tx, ty, cost).
function M.move_caller()
  local f, a, b, c, d, e, ok, result
  local function call() ok, result = pcall(f, a, b, c, d, e) end
  return function(fn, fx, fy, tx, ty, cost)
    f, a, b, c, d, e = fn, fx, fy, tx, ty, cost
    gsub("", "", call)
    local o, v = ok, result
    f, result = nil, nil
    return o, v
  end
end

-- Whether a callback left the grid as the query found it; else the stop.
local function grid_unchanged(r)
  local grid = r.grid
  if not grid._open then
    r.stop = STOP_CLOSED
    return false
  elseif grid._version ~= r.version then
    r.stop = STOP_CHANGED
    return false
  end
  return true
end

-- What the move rule of rules r says of the move from bordered cell u to v
-- (grid rows of stride) that the grid prices at cost: the move's cost, false
-- (no move), or nil when the query must stop (r.stop says why).
function M.move_step(r, u, v, cost, stride)
  local ux, vx = (u - 1) % stride, (v - 1) % stride
  local fx, fy = toint(ux), toint((u - 1 - ux) / stride)
  local tx, ty = toint(vx), toint((v - 1 - vx) / stride)
  local ok, value = r.call_move(r.move, fx, fy, tx, ty, cost)
  if not ok then
    r.stop, r.err = STOP_ERROR, value
    return nil
  end
  if not grid_unchanged(r) then return nil end
  if value == false then return false end
  if type(value) == "number" and value > 0 and value <= G.MAX_COST then return value * 1.0 end
  r.stop, r.bad_value = STOP_BAD_MOVE, value
  r.bad_x, r.bad_y, r.bad_tx, r.bad_ty = fx, fy, tx, ty
  return nil
end

-- The message about a bad answer v of a move rule (label: "opts.move") about
-- the move (fx, fy) -> (tx, ty): the number as errors print numbers, else its type.
function M.bad_move_message(label, v, fx, fy, tx, ty)
  return format("%s gave %s for (%d, %d) -> (%d, %d); expected a positive number up to 1e15 or false",
    label, type(v) == "number" and number_text(v) or type(v), fx, fy, tx, ty)
end

-- Before a run of the search: the grid the callbacks may disturb.
function M.prepare(r, grid)
  r.grid, r.version, r.stop, r.err = grid, grid._version, nil, nil
end

-- What rule `which` says of cell k = (y - 1) * width + x; stop (nil, true)
-- when the query must stop.
local function rule_value(r, which, k, x, y)
  local v = r.index[which]
  if type(v) == "table" then
    local value = rawget(v, k)
    if type(value) == "table" then          -- a mix of the two table forms
      r.stop, r.bad_rule, r.bad_k = STOP_BAD_FORM, which, k
      return nil, true
    end
    return value
  end
  local ok, value = r.call(v, x, y)
  if not ok then
    r.stop, r.err = STOP_ERROR, value
    return nil, true
  end
  if not grid_unchanged(r) then return nil, true end
  return value
end

-- query_rules_cell: the entry cost of walkable cell (x, y) (1-based) for the
-- query (huge: impassable) and its flags, or nil when the query must stop.
function M.cell(r, x, y, grid_cost)
  local k = toint((y - 1) * r.width + x)
  local index = r.index
  if index[BLOCKED] ~= nil then
    local v, stop = rule_value(r, BLOCKED, k, x, y)
    if stop then return nil end
    if v then return huge, 0 end
  end
  local cost = grid_cost
  if index[COST] ~= nil then
    local v, stop = rule_value(r, COST, k, x, y)
    if stop then return nil end
    if v == nil and r.points[COST] then
      cost = grid_cost                      -- not listed: the grid's cost
    elseif v == nil or v == false then
      return huge, 0
    else
      local bad = type(v) ~= "number"
      if not bad then
        cost = v * 1.0
        bad = not ((cost > 0 and cost <= G.MAX_COST) or cost == huge)
      end
      if bad then
        r.stop, r.bad_value, r.bad_x, r.bad_y = STOP_BAD_COST, v, x, y
        return nil
      end
      if cost == huge then return huge, 0 end
    end
  end
  if index[OCCUPIED] ~= nil then
    local v, stop = rule_value(r, OCCUPIED, k, x, y)
    if stop then return nil end
    if v then return cost, 1 end
  end
  return cost, 0
end

-- query_rules_raise: the error the query stopped with; fname names the call.
function M.raise(r, fname)
  local stop = r.stop
  if stop == STOP_ERROR then
    error(r.err, 0)                         -- the callback's error, unchanged
  elseif stop == STOP_CLOSED then
    error("grid closed during " .. fname, 0)
  elseif stop == STOP_CHANGED then
    error("grid changed during " .. fname, 0)
  elseif stop == STOP_BAD_MOVE then
    arg_error(r.argn[MOVE], r.fname, nil, M.bad_move_message(r.label[MOVE], r.bad_value, r.bad_x,
      r.bad_y, r.bad_tx, r.bad_ty))
  elseif stop == STOP_BAD_FORM then
    arg_error(r.argn[r.bad_rule], r.fname, nil, format(
      "%s: cell %d holds a table; a list of points must start at index 1",
      r.label[r.bad_rule], r.bad_k))
  end
  local v = r.bad_value
  arg_error(r.argn[COST], r.fname, nil, format("%s gave %s for (%d, %d); "
    .. "expected a positive number up to 1e15, nil, false or math.huge", r.label[COST],
    type(v) == "number" and number_text(v) or type(v), r.bad_x, r.bad_y))
end

return M
