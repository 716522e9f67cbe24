-- Searches spread over frames for the pure-Lua backend, as src/lua/lua_search.c:
-- grid:newSearch(sx, sy, gx, gy [, opts]) -> Search; search:step(n [, seconds]),
-- search:restart(sx, sy, gx, gy [, opts]), search:result(), getStatus,
-- getStats, getExpanded, getGrid; the same messages.
--
-- As there, a Search takes scratch from its grid's pool (grid._pool) while
-- it runs; when it finishes, its path, statistics and expanded cells are
-- copied out (self._done) and the scratch goes back to the pool, so the next
-- search on the grid starts without making per-cell arrays (O(1) of the
-- board: the scratch's stamps are by generation, never cleared).
local A = require "astar.pure.args"
local S = require "astar.pure.search"
local G = require "astar.pure.grid"
local methods = require "astar.pure.methods"
local Q = require "astar.pure.query_rules"
local SM = require "astar.pure.smooth"
local J = require "astar.pure.jps"
local BU = require "astar.pure.budget"

local select, getmetatable, setmetatable, format = select, getmetatable, setmetatable, string.format
local huge = math.huge
local POOL_SIZE = 4      -- scratch of finished searches kept per grid (lua_grid.h)

-- The grid's pool of scratch (lua/lease.c pool_take, pool_give).
local function pool_take(grid)
  local pool = grid._pool
  local n = pool and #pool or 0
  if n == 0 then return S.new(grid._cells) end
  local s = pool[n]
  pool[n] = nil
  return s
end

local function pool_give(grid, s)
  if not grid._open then return end   -- closed: its memory goes
  local pool = grid._pool
  if not pool then
    pool = {}
    grid._pool = pool
  end
  if #pool < POOL_SIZE then pool[#pool + 1] = s end
end

local SearchMethods = {}
local SEARCH_META = { __index = SearchMethods, __name = "astar.Search" }

local function status_name(status)
  if status == S.SEARCHING then return "searching" end
  if status == S.FOUND then return "found" end
  return "unreachable"
end

local function check_search(fname, nargs, self)
  if getmetatable(self) ~= SEARCH_META or type(self) ~= "table" then
    error(format("calling '%s' on bad self (astar.Search expected, got %s)", fname,
      A.typename(self, nargs > 0)), 0)
  end
  if self._released then error("attempt to use a released astar.Search", 0) end
  return self
end

-- A closed grid fails every call; so does a search its rules stopped (a
-- callback's error or bad value, or a change of the grid in a callback).
local function check_grid_alive(self)
  if not self._grid._open then error("attempt to use a closed astar.Grid", 0) end
  if self._stopped then error("search stopped by an error in its rules", 0) end
  if self._grid_changed then error("grid changed during search", 0) end
end

-- Starts (or starts again) the query on the grid as it is now. A query with
-- rules, goals, near or a budget may ask its rules about the goal, and its
-- smoothing may ask them about more cells when it finds its path at once:
-- the caller holds the search busy and reports a stop (leave_core).
local function start_query(self)
  local o, grid, s = self._options, self._grid, self._scratch
  o.general = o.fixed_general or grid._moves ~= nil   -- moves may have come or gone
  local status
  if o.general then
    status = S.begin_general(s, grid, self._start, self._xs, self._ys, o, self._rules)
  else
    status = S.begin(s, grid, self._start, self._goal, o.diagonal, o.heuristic, o.weight,
      o.partial)
  end
  J.attach(s, o)   -- jump point search where the C module runs it (jps.lua)
  -- the smoothing happens when the search finishes, inside the query (smooth.lua)
  self._status = SM.after(s, status, o.smooth)
end

-- The grid changed since the search last looked: a change it has reached
-- starts it again, as astar_search_step does (S.disturbed); a query C ran
-- with jump point search runs A* from then on (search.c restart_query).
-- getStats goes on counting the work of the runs before. Returns the
-- search's status after.
local function follow_changes(self)
  local s = self._scratch
  if S.disturbed(s, s.jps, self._options.weight) then
    if s.jps then self._options.algorithm = 2 end
    self._earlier_expanded = self._earlier_expanded + s.expanded
    self._earlier_touched = self._earlier_touched + s.touched
    start_query(self)
    self._restarts = self._restarts + 1
  else
    s.version = self._grid._version   -- nothing it read changed
  end
  return self._status
end

-- After a call into the search that may have run the rules' callbacks
-- (lua_search.c leave_core): a release made meanwhile is an error; a rule
-- that stopped the search fails it for good.
local function leave_core(self, status, fname)
  self._busy = false
  if self._released then
    if self._scratch then pool_give(self._grid, self._scratch) end
    self._scratch = nil
    error("search released during " .. fname, 0)
  end
  if status ~= S.STOPPED then return end
  local rules = self._rules
  if rules.stop == Q.STOP_CHANGED then
    self._grid_changed = true
  else
    self._stopped = true
  end
  self._status = S.NO_PATH
  Q.raise(rules, fname)
end

-- The statistics so far: the runs before its restarts (by changes) included.
local function stats(self, s)
  return self._earlier_expanded + s.expanded, self._earlier_touched + s.touched
end

-- The search has ended (found, unreachable): what result, getStats and
-- getExpanded will read is copied out of its scratch (O(path + expanded)),
-- and the scratch goes back to the grid's pool (lua_search.c finish).
local function finish(self)
  local s, status = self._scratch, self._status
  local expanded, touched = stats(self, s)
  local done = { status = status, expanded = expanded, touched = touched,
    restarts = self._restarts, algorithm = s.algorithm, cells = S.expanded_list(s) }
  if status == S.FOUND or status == S.PARTIAL then
    if self._options.smooth then
      done.path, done.cost = SM.result(s, nil, true)
    else
      done.path, done.cost = S.flat_path(s)
    end
    done.goal_index = status == S.FOUND and S.goal_index(s) or false
  end
  self._done, self._scratch = done, nil
  pool_give(self._grid, s)
end

-- Sets up search (new, or restarted by search:restart) for the query that
-- check_query read, and starts it: the rules may be asked about the goal.
local function begin(search, fname, start, xs, ys, goal_list, o, rules)
  local grid = search._grid
  search._busy = true   -- no finalizer may step or restart it from here
  local s = search._scratch or pool_take(grid)
  search._scratch = s
  -- a finalizer run by those allocations may have closed the grid
  if not grid._open then
    search._busy = false
    error("grid closed during " .. fname, 0)
  end
  search._partial, search._flat, search._options = o.partial, o.flat, o
  search._start, search._goal = start, ys[1] * grid._stride + xs[1] + 1
  search._xs, search._ys, search._goal_list = xs, ys, goal_list
  search._rules = rules or nil
  search._restarts, search._earlier_expanded, search._earlier_touched = 0, 0, 0
  search._grid_changed, search._stopped, search._done = false, false, nil
  if rules then Q.prepare(rules, grid) end
  start_query(search)                   -- it may ask the rules about the goal
  leave_core(search, search._status, fname)
  if search._status ~= S.SEARCHING then finish(search) end
  return search
end

function methods.newSearch(...)
  local self, sx, sy, gx, gy, opts = ...
  local nargs = select("#", ...)
  local start, xs, ys, goal_list, o = G.check_query("newSearch", nargs, self, sx, sy, gx, gy, opts)
  local rules = o.general and G.finish_rules(self, "newSearch", o)
  local search = setmetatable({ _grid = self, _busy = false, _released = false }, SEARCH_META)
  return begin(search, "newSearch", start, xs, ys, goal_list, o, rules)
end

-- search:restart(sx, sy, gx, gy [, opts]): the search starts again on a new
-- query, checked as newSearch checks it (opts omitted: the defaults, as for
-- newSearch), in the memory it has; its statistics start from zero.
function SearchMethods.restart(...)
  local self, sx, sy, gx, gy, opts = ...
  local nargs = select("#", ...)
  check_search("restart", nargs, self)
  if self._busy then error("search:restart called from one of its own rules", 0) end
  local grid = self._grid
  local start, xs, ys, goal_list, o = G.check_query("restart", nargs, grid, sx, sy, gx, gy, opts)
  local rules = o.general and G.finish_rules(grid, "restart", o)
  -- a finalizer may have released it, or be running one of its steps
  check_search("restart", nargs, self)
  if self._busy then error("search:restart called from one of its own rules", 0) end
  return begin(self, "restart", start, xs, ys, goal_list, o, rules)
end

-- Expands at most n cells (0: no limit), and with a time limit stops after
-- the chunk of expansions that used it up (budget.lua; lua_search.c
-- step_for): at least one chunk. A change or closing of the grid by a
-- finalizer, or a release, ends the chunks (the caller deals with them).
local function resume_for(self, n, seconds)
  local s, grid = self._scratch, self._grid
  local clock, started = BU.start(seconds)
  if not clock then return S.resume(s, n) end
  if n == 0 then n = huge end
  while true do
    local chunk = BU.chunk(n, clock)
    local status = S.resume(s, chunk)
    if status ~= S.SEARCHING or self._released or grid._version ~= s.version or not grid._open then
      return status
    end
    local spent
    n, spent = BU.spend(n, chunk, clock, started, seconds)
    if spent then return status end
  end
end

-- search:step(n [, seconds]): n is a whole number >= 1, or math.huge for no
-- limit; seconds, when given, a number > 0 (math.huge: no limit).
function SearchMethods.step(...)
  local self, n, seconds = ...
  local nargs = select("#", ...)
  check_search("step", nargs, self)
  n, seconds = A.check_step_budget(n, seconds, nargs, "step", "n")
  if n == huge then n = 0 end   -- 0: no limit
  if self._status == S.SEARCHING or self._grid_changed or self._stopped then
    check_grid_alive(self)
    -- a rule (or a finalizer) may not step or release the search it runs in
    if self._busy then error("search:step called from one of its own rules", 0) end
    local s, grid = self._scratch, self._grid
    local rules = self._rules
    if rules then Q.prepare(rules, grid) end
    self._busy = true
    local status = self._status
    if grid._version ~= s.version then status = follow_changes(self) end
    if status == S.SEARCHING then
      status = SM.after(s, resume_for(self, n, seconds), self._options.smooth)
    end
    leave_core(self, status, "step")
    self._status = status
    if not grid._open then   -- closed by a finalizer while it ran
      error("grid closed during step", 0)
    end
    -- changed by a finalizer while it ran: the cells it read may be a mix
    -- unless the changes did not reach it
    if grid._version ~= s.version then
      self._busy = true
      leave_core(self, follow_changes(self), "step")
    end
    if self._status ~= S.SEARCHING then finish(self) end
  end
  return status_name(self._status)
end

-- The same results as findPath: path, cost [, reached] or nil, reason.
function SearchMethods.result(...)
  local self = ...
  check_search("result", select("#", ...), self)
  if self._grid_changed or self._stopped then check_grid_alive(self) end
  local status = self._status
  if status == S.SEARCHING then
    error("search still running: step it until it returns 'found' or 'unreachable'", 0)
  elseif status == S.FOUND or status == S.PARTIAL then
    check_grid_alive(self)
    local done = self._done
    local path, cost = done.path, done.cost
    local copy = {}
    if self._flat then
      for k = 1, #path do copy[k] = path[k] end
    else
      for k = 1, #path / 2 do copy[k] = { x = path[2 * k - 1], y = path[2 * k] } end
    end
    path = copy
    if self._goal_list then return path, cost, done.goal_index end
    if not self._partial then return path, cost end
    return path, cost, status == S.FOUND
  end
  return nil, status   -- "goal is blocked" or "no path"
end

function SearchMethods.getStatus(...)
  local self = ...
  return status_name(check_search("getStatus", select("#", ...), self)._status)
end

-- All the work so far: the runs before its restarts (by changes) included;
-- algorithm: what the last run ran ("astar" after jump point search handed
-- over to A*).
function SearchMethods.getStats(...)
  local self = ...
  check_search("getStats", select("#", ...), self)
  local done = self._done
  if done then
    return { expanded = done.expanded, touched = done.touched, restarts = done.restarts,
      algorithm = done.algorithm }
  end
  local s = self._scratch
  local expanded, touched = stats(self, s)
  return { expanded = expanded, touched = touched, restarts = self._restarts,
    algorithm = s.algorithm }
end

-- The cells expanded so far (src/lua/lua_search.c search_get_expanded).
function SearchMethods.getExpanded(...)
  local self = ...
  check_search("getExpanded", select("#", ...), self)
  local grid = self._grid
  if not grid._open then error("attempt to use a closed astar.Grid", 0) end
  local done = self._done
  local list = done and done.cells or S.expanded_list(self._scratch)
  local cells = S.cells_in_rows(list, grid._stride)
  if done then done.cells = list end   -- sorted now: the next call sorts less
  return cells
end

function SearchMethods.getGrid(...)
  local self = ...
  return check_search("getGrid", select("#", ...), self)._grid
end

SEARCH_META.__tostring = function(self)
  if self._released then return "astar.Search (released)" end
  return "astar.Search (" .. status_name(self._status) .. ")"
end

-- __close: gives the scratch back to the grid's pool at once (while the
-- search runs its rules, once they return: leave_core); safe to call twice.
SEARCH_META.__close = function(self)
  if getmetatable(self) ~= SEARCH_META then return end
  self._released = true
  if self._scratch and not self._busy then
    pool_give(self._grid, self._scratch)
    self._scratch = nil
  end
end

return SearchMethods
