-- The Grid methods of the pure-Lua backend: argument checks and results as in
-- src/lua/lua_astar.c, arguments counted as in a method call (self is not
-- counted). Methods take `...` so that a missing argument ("no value") can be
-- told from nil, exactly as the C binding does; the fast path only unpacks it.
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local S = require "astar.pure.search"
local J = require "astar.pure.jps"
local Q = require "astar.pure.query_rules"
local O = require "astar.pure.options"
local SM = require "astar.pure.smooth"

local M = {}   -- the methods: astar.Grid

local META = G.META
local getmetatable, select, type, rawget = getmetatable, select, type, rawget
local floor, huge = math.floor, math.huge
local rawlen = rawlen or function(t) return #t end
local format = string.format
local toint = G.toint
local check_index, check_boolean, check_number = A.check_index, A.check_boolean, A.check_number
local arg_error, typename = A.arg_error, A.typename

-- ---- self and cells -------------------------------------------------------

-- The grid, or an error naming method fname (lua_astar.c check_grid).
local function check_grid(fname, nargs, self)
  if getmetatable(self) ~= META or type(self) ~= "table" then
    error(format("calling '%s' on bad self (astar.Grid expected, got %s)", fname,
      typename(self, nargs > 0)), 0)
  end
  if not self._open then error("attempt to use a closed astar.Grid", 0) end
  return self
end
G.check_grid = check_grid   -- for stepper.lua, not a method

-- The fast path: the index of cell (x, y) of an open grid, or nil for anything
-- that needs an error (which check_cell then raises).
local function cell_index(self, x, y)
  if getmetatable(self) ~= META or not self._open or type(x) ~= "number"
    or type(y) ~= "number" or x % 1 ~= 0 or y % 1 ~= 0 or x < 1 or y < 1
    or x > self._w or y > self._h then
    return nil
  end
  return y * self._stride + x + 1
end

-- Raises the error for self, x (argument 1) or y (argument 2); returns the
-- index when all three are fine.
local function check_cell(fname, nargs, self, x, y)
  check_grid(fname, nargs, self)
  check_index(x, nargs > 1, 1, fname, "x", self._w)
  check_index(y, nargs > 2, 2, fname, "y", self._h)
  return y * self._stride + x + 1
end

-- ---- sizes ------------------------------------------------------------------

function M.getWidth(...)
  local self = ...
  return check_grid("getWidth", select("#", ...), self)._w
end

function M.getHeight(...)
  local self = ...
  return check_grid("getHeight", select("#", ...), self)._h
end

function M.getDimensions(...)
  local self = ...
  check_grid("getDimensions", select("#", ...), self)
  return self._w, self._h
end

-- ---- cells ------------------------------------------------------------------

function M.setWalkable(...)
  local self, x, y, walkable = ...
  local i = cell_index(self, x, y)
  if not i or type(walkable) ~= "boolean" then
    local nargs = select("#", ...)
    i = check_cell("setWalkable", nargs, self, x, y)
    check_boolean(walkable, nargs > 3, 3, "setWalkable")
  end
  local open = self._open
  if open[i] ~= walkable then   -- a write that changes nothing is not a change
    open[i] = walkable
    G.changed(self, i)
  end
end

function M.isWalkable(...)
  local self, x, y = ...
  local i = cell_index(self, x, y) or check_cell("isWalkable", select("#", ...), self, x, y)
  return self._open[i]
end

function M.setCost(...)
  local self, x, y, cost = ...
  local i = cell_index(self, x, y)
  if not i or type(cost) ~= "number" or not (cost > 0 and cost <= G.MAX_COST) then
    local nargs = select("#", ...)
    i = check_cell("setCost", nargs, self, x, y)
    check_number(cost, nargs > 3, 3, "setCost")
    if not (cost > 0 and cost <= G.MAX_COST) then
      arg_error(3, "setCost", nil,
        "cost must be a positive finite number up to 1e15, got " .. A.number_text(cost))
    end
  end
  G.set_cost(self, i, cost + 0.0)
end

function M.getCost(...)
  local self, x, y = ...
  local i = cell_index(self, x, y) or check_cell("getCost", select("#", ...), self, x, y)
  local cost = self._cost
  if cost then return cost[i] end
  return 1.0
end

-- ---- settings ---------------------------------------------------------------

function M.setDiagonal(...)
  local self, mode = ...
  local nargs = select("#", ...)
  check_grid("setDiagonal", nargs, self)
  self._diagonal = A.check_diagonal(mode, nargs > 1, 1, "setDiagonal", nil, self._hex ~= nil)
end

function M.getDiagonal(...)
  local self = ...
  check_grid("getDiagonal", select("#", ...), self)
  -- a hex board moves to its sides: "never", whatever bytes it was decoded from
  return A.DIAGONAL_NAMES[self._hex and 1 or self._diagonal]
end

-- The heuristic in effect for a diagonal mode, given the grid's choice.
local function effective_heuristic(self, diagonal)
  if self._heuristic_chosen then return self._heuristic end
  if diagonal == 1 then return 1 end   -- "never": manhattan
  return 2                             -- octile
end

function M.setHeuristic(...)
  local self, name, weight = ...
  local nargs = select("#", ...)
  check_grid("setHeuristic", nargs, self)
  local h = A.check_heuristic(name, nargs > 1, 1, "setHeuristic")
  local w = 1.0
  if weight ~= nil then w = A.check_weight(weight, true, 2, "setHeuristic") + 0.0 end
  self._heuristic, self._weight, self._heuristic_chosen = h, w, true
end

function M.getHeuristic(...)
  local self = ...
  check_grid("getHeuristic", select("#", ...), self)
  local h = effective_heuristic(self, self._diagonal)
  if self._hex and h ~= 5 then return "hex", self._weight end   -- hex distance
  return A.HEURISTIC_NAMES[h], self._weight
end

-- ---- searching --------------------------------------------------------------

-- Reads an options table (argument `num` of fname) over the grid's settings
-- (options.lua read, then lua_astar.c check_query's last checks): diagonal,
-- heuristic, weight, partial, flat, into, algorithm, and the query's near,
-- maxCost, size, smooth (smooth.lua's number, false: none) and rules (cost,
-- blocked, occupied, move: o.rules, query_rules.lua's, made at the first of
-- them; false: none). Returns the settings; o.general is set when the query
-- needs the general loop (search.lua run_general): always when
-- o.fixed_general, and while the grid has moves (moves.lua).
local jps_diagonal = { true, false, false, true }   -- never, no-obstacles

local function read_options(self, fname, num, opts, present)
  -- every field made here: no rehash on the per-query path
  local o = { diagonal = self._diagonal, heuristic = false, weight = false, partial = false,
    near = 0, max_cost = huge, bounded = false, general = false, fixed_general = false, size = 1,
    rules = false, smooth = false }
  if opts ~= nil then o.rules = O.read(self, fname, num, opts, present, O.PATH, o) or false end
  -- heuristic and weight stay false when not given
  if not o.heuristic then
    o.heuristic = effective_heuristic(self, o.diagonal)
    if not o.weight then o.weight = self._weight end
  elseif not o.weight then
    o.weight = 1.0
  end
  o.bounded = o.max_cost ~= huge
  if o.algorithm == 3 and self._hex then
    arg_error(num, fname, nil, "opts.algorithm: jps does not run on hex grids")
  end
  if o.algorithm == 3 and not (jps_diagonal[o.diagonal]
    and self._min_count == self._w * self._h) then
    arg_error(num, fname, nil,
      "opts.algorithm: jps needs uniform costs and diagonal 'never' or 'no-obstacles'")
  end
  if o.smooth then   -- where "sight" and "theta" apply (smooth.lua)
    o.smooth = SM.applies(self, o.smooth, o.diagonal, o.size, o.rules and o.rules.move, num, fname)
  end
  -- moves (the grid's overrides and links: moves.lua) run the general loops too,
  -- and so does any-angle search (search.c: its goal test is the general one)
  o.fixed_general = o.near > 0 or o.bounded or o.rules ~= false or o.size > 1 or self._hex ~= nil
    or o.smooth == SM.THETA
  o.general = o.fixed_general or self._moves ~= nil
  return o
end
G.read_options = read_options

-- Checks (sx, sy, gx, gy) as arguments 1-4 of fname; returns the two indices.
local function check_ends(fname, nargs, self, sx, sy, gx, gy)
  check_grid(fname, nargs, self)
  local w, h = self._w, self._h
  sx = toint(check_index(sx, nargs > 1, 1, fname, "sx", w))
  sy = toint(check_index(sy, nargs > 2, 2, fname, "sy", h))
  gx = toint(check_index(gx, nargs > 3, 3, fname, "gx", w))
  gy = toint(check_index(gy, nargs > 4, 4, fname, "gy", h))
  local stride = self._stride
  return sy * stride + sx + 1, gy * stride + gx + 1
end
G.check_ends = check_ends

-- The points of a goal list as they are, unchecked: the list, each point and
-- its x and y.
local function read_points(goals, n)
  local ps, xs, ys = {}, {}, {}
  for i = 1, n do
    local p = rawget(goals, i)
    ps[i] = p
    if type(p) == "table" then xs[i], ys[i] = rawget(p, "x"), rawget(p, "y") end
  end
  return ps, xs, ys
end

-- Whether goals still holds what read_points read, checked without allocating.
local function same_points(goals, n, ps, xs, ys)
  if rawlen(goals) ~= n then return false end
  for i = 1, n do
    local p = rawget(goals, i)
    if p ~= ps[i] or type(p) == "table" and (rawget(p, "x") ~= xs[i] or rawget(p, "y") ~= ys[i])
    then
      return false
    end
  end
  return true
end

-- Checks the points read into lists of coordinates gx, gy.
local function check_points(fname, n, ps, xs, ys, w, h)
  local gx, gy = {}, {}
  for i = 1, n do
    if type(ps[i]) ~= "table" then
      arg_error(3, fname, nil, format("goals[%d]: table expected, got %s", i, type(ps[i])))
    end
    for k = 1, 2 do
      local name, max, v = "x", w, xs[i]
      if k == 2 then name, max, v = "y", h, ys[i] end
      if type(v) ~= "number" then
        arg_error(3, fname, nil, format("goals[%d].%s: number expected, got %s", i, name, type(v)))
      end
      if not (v >= 1 and v <= max) or v ~= floor(v) then
        arg_error(3, fname, nil, format("goals[%d].%s out of range 1..%d, got %s", i, name, max,
          A.number_text(v)))
      end
      if k == 1 then gx[i] = toint(v) else gy[i] = toint(v) end
    end
  end
  return gx, gy
end

-- A goal list (argument 3 of fname) into lists of coordinates gx, gy, as the
-- list was at one moment: the tables made while it is read may run
-- finalizers that change it, so it is read again until a check that
-- allocates nothing finds it unchanged, then checked (lua_astar.c read_goals
-- measures it again after its allocation; both give up with the same error).
local function read_goals(fname, goals, w, h)
  for _ = 1, G.MEASURE_TRIES do
    local n = rawlen(goals)
    if n == 0 then arg_error(3, fname, nil, "goals: empty list") end
    if n > G.MAX_CELLS then
      arg_error(3, fname, nil, format("goals: more than %d goals", G.MAX_CELLS))
    end
    local ps, xs, ys = read_points(goals, n)
    if same_points(goals, n, ps, xs, ys) then return check_points(fname, n, ps, xs, ys, w, h) end
  end
  error("goals changed during " .. fname, 0)
end

-- The arguments of findPath and newSearch (lua_astar.c check_query): self, sx,
-- sy, then gx, gy and opts (argument 5), or a goal list and opts (argument 4).
-- Returns the start's index, the goals' coordinates gx, gy (lists), whether
-- they were a list, and the options (o.rule: the rules, or nil).
local function check_query(fname, nargs, self, sx, sy, gx, gy, opts)
  local goal_list = type(gx) == "table"
  if not goal_list then
    local start, goal = check_ends(fname, nargs, self, sx, sy, gx, gy)
    local o = read_options(self, fname, 5, opts, nargs > 5)
    local stride = self._stride
    local x = (goal - 1) % stride
    return start, { toint(x) }, { toint((goal - 1 - x) / stride) }, false, o
  end
  check_grid(fname, nargs, self)
  local w, h = self._w, self._h
  sx = toint(check_index(sx, nargs > 1, 1, fname, "sx", w))
  sy = toint(check_index(sy, nargs > 2, 2, fname, "sy", h))
  local xs, ys = read_goals(fname, gx, w, h)
  local o = read_options(self, fname, 4, gy, nargs > 4)
  o.general, o.fixed_general = true, true
  return sy * self._stride + sx + 1, xs, ys, true, o
end
G.check_query = check_query

-- After check_query: the rules' lowest cost (query_rules_finish) and the last
-- check of the options. Returns the rules (nil without any).
local function finish_rules(self, fname, o)
  local rules = o.rules
  if not rules then return nil end
  Q.finish(rules, self)
  if o.algorithm == 3 and rules.used then   -- a move rule alone: A* runs
    arg_error(rules.argn[Q.BLOCKED], fname, nil,   -- every rule's: the options' argument
      "opts.algorithm: jps does not run with rules (cost, blocked, occupied)")
  end
  return rules
end
G.finish_rules = finish_rules

-- A finalizer (__gc of some object) can run at any allocation, even inside
-- findPath, and do anything: search the same grid, change it, close it. So
-- findPath takes the grid's scratch for itself while it runs (a nested
-- findPath finds none and makes a scratch of its own), checks after the
-- search that the grid is still open and unchanged (else it searches again,
-- at most MAX_RESTARTS times), and builds its result from scratch nobody else
-- can touch. A query interrupted by an error just loses the scratch: the next
-- one makes a new one.
local MAX_RESTARTS = G.MAX_RESTARTS

-- The grid's scratch, taken for one findPath (a nested findPath, from a
-- finalizer, finds none and makes its own); outcome() gives it back.
local function take_scratch(self)
  local s = self._search
  self._search = nil
  return s or S.new(self._cells)
end

-- What findPath returns once search s ended with status: the path in the
-- form o asks for and its cost, [the goal's index, or whether it was reached,]
-- or nil and the reason. The scratch goes back (and the statistics are this
-- query's) only now.
local function outcome(self, s, status, o, goal_list)
  if not self._open then error("grid closed during findPath", 0) end
  local path, cost
  if status == S.FOUND or status == S.PARTIAL then
    if o.smooth then
      path, cost = SM.result(s, o.into, o.flat)
    elseif o.into then
      path, cost = S.path_into(s, o.into, o.flat)
    elseif o.flat then
      path, cost = S.flat_path(s)
    else
      path, cost = S.path(s)
    end
  end
  self._expanded, self._touched = s.expanded, s.touched
  if self._open then self._search = s end
  if not path then return nil, status end   -- "goal is blocked" or "no path"
  if goal_list then return path, cost, status == S.FOUND and S.goal_index(s) or false end
  if not o.partial then return path, cost end
  return path, cost, status == S.FOUND
end

-- findPath's smoothing of the path search s found (smooth.lua), inside the
-- query: a grid changed meanwhile (a finalizer) starts the query again.
local function smoothed(self, s, status, mode)
  status = SM.after(s, status, mode)
  if mode and (status == S.FOUND or status == S.PARTIAL)
    and (self._version ~= s.version or not self._open) then
    return S.changed(s)
  end
  return status
end

-- findPath with rules, several goals, near or a budget: the general loop. A
-- rule that stops the query (a callback's error, a grid it closed or changed,
-- a bad value) is reported once the search returned; a grid changed by a
-- callback starts the query again (at most MAX_RESTARTS times).
local function find_general(self, start, gx, gy, goal_list, o)
  local rules = finish_rules(self, "findPath", o)
  local s = take_scratch(self)
  local status
  local restarts = 0
  while true do
    if not self._open then error("grid closed during findPath", 0) end
    if rules then Q.prepare(rules, self) end
    status = S.begin_general(s, self, start, gx, gy, o, rules)
    J.attach(s, o)
    if status ~= S.STOPPED then status = smoothed(self, s, S.step(s, 0), o.smooth) end
    if status == S.STOPPED then
      if not (rules.stop == Q.STOP_CHANGED and self._open and restarts < MAX_RESTARTS) then
        self._expanded, self._touched = s.expanded, s.touched
        if self._open then self._search = s end
        Q.raise(rules, "findPath")
      end
    elseif status ~= S.GRID_CHANGED then
      break
    elseif restarts == MAX_RESTARTS then
      error("grid changed during findPath", 0)
    end
    restarts = restarts + 1
  end
  return outcome(self, s, status, o, goal_list)
end

function M.findPath(...)
  local self, sx, sy, gx, gy, opts = ...
  local nargs = select("#", ...)
  if type(gx) == "table" then   -- a goal list
    local start, xs, ys, _, o = check_query("findPath", nargs, self, sx, sy, gx, gy, opts)
    return find_general(self, start, xs, ys, true, o)
  end
  local start, goal = check_ends("findPath", nargs, self, sx, sy, gx, gy)
  local o = read_options(self, "findPath", 5, opts, nargs > 5)
  if o.general then
    local stride = self._stride
    local x = (goal - 1) % stride
    return find_general(self, start, { toint(x) }, { toint((goal - 1 - x) / stride) }, false, o)
  end
  local s = take_scratch(self)
  local status
  local restarts = 0
  while true do
    if not self._open then error("grid closed during findPath", 0) end
    if self._moves then   -- a finalizer gave the grid moves: the general loop
      self._search = s
      o.general = true
      local x = (goal - 1) % self._stride
      return find_general(self, start, { toint(x) }, { toint((goal - 1 - x) / self._stride) },
        false, o)
    end
    S.begin(s, self, start, goal, o.diagonal, o.heuristic, o.weight, o.partial)
    J.attach(s, o)
    status = smoothed(self, s, S.step(s, 0), o.smooth)
    if status ~= S.GRID_CHANGED then break end
    if restarts == MAX_RESTARTS then error("grid changed during findPath", 0) end
    restarts = restarts + 1
  end
  return outcome(self, s, status, o, false)
end

function M.getSearchStats(...)
  local self = ...
  check_grid("getSearchStats", select("#", ...), self)
  return { expanded = self._expanded, touched = self._touched }
end

return M
