-- Searches spread over frames for the pure-Lua backend, as src/lua/lua_search.c:
-- grid:newSearch(sx, sy, gx, gy [, opts]) -> Search; search:step(n [, seconds]),
-- search:result(), getStatus, getStats, getExpanded, getGrid; the same messages.
local A = require "astar.pure.args"
local S = require "astar.pure.search"
local G = require "astar.pure.grid"
local methods = require "astar.pure.methods"
local Q = require "astar.pure.query_rules"
local SM = require "astar.pure.smooth"
local J = require "astar.pure.jps"

local select, getmetatable, setmetatable, format = select, getmetatable, setmetatable, string.format
local huge = math.huge
local STEP_CHUNK = 256   -- expansions between two looks at the clock (lua_search.c)

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
  if not self._scratch then error("attempt to use a released astar.Search", 0) end
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
  if not self._scratch then error("search released during " .. fname, 0) end
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

function methods.newSearch(...)
  local self, sx, sy, gx, gy, opts = ...
  local nargs = select("#", ...)
  local start, xs, ys, goal_list, o = G.check_query("newSearch", nargs, self, sx, sy, gx, gy, opts)
  local rules = o.general and G.finish_rules(self, "newSearch", o)
  local scratch = S.new(self._cells)
  -- a finalizer run by those allocations may have closed the grid
  if not self._open then error("grid closed during newSearch", 0) end
  local search = setmetatable({
    _grid = self, _scratch = scratch, _partial = o.partial, _flat = o.flat,
    _options = o, _start = start, _goal = ys[1] * self._stride + xs[1] + 1, _xs = xs, _ys = ys,
    _restarts = 0, _earlier_expanded = 0, _earlier_touched = 0,
    _grid_changed = false, _stopped = false, _busy = false,
    _rules = rules or nil, _goal_list = goal_list,
  }, SEARCH_META)
  if rules then Q.prepare(rules, self) end
  search._busy = true                   -- begin may ask the rules about the goal
  start_query(search)
  leave_core(search, search._status, "newSearch")
  return search
end

-- Expands at most n cells (0: no limit), and with a time limit stops after
-- the chunk of STEP_CHUNK expansions that used it up (lua_search.c step_for):
-- at least one chunk. A change or closing of the grid by a finalizer, or a
-- release, ends the chunks (the caller deals with them).
local function resume_for(self, n, seconds)
  local s, grid = self._scratch, self._grid
  local clock = seconds ~= huge and G.best_clock()
  if not clock then return S.resume(s, n) end
  local started, limited = clock(), n ~= 0
  while true do
    local chunk = (limited and n < STEP_CHUNK) and n or STEP_CHUNK
    local status = S.resume(s, chunk)
    if status ~= S.SEARCHING or not self._scratch or grid._version ~= s.version or not grid._open then
      return status
    end
    if limited then
      n = n - chunk
      if n == 0 then return status end
    end
    if clock() - started >= seconds then return status end
  end
end

-- search:step(n [, seconds]): n is a whole number >= 1, or math.huge for no
-- limit; seconds, when given, a number > 0 (math.huge: no limit).
function SearchMethods.step(...)
  local self, n, seconds = ...
  local nargs = select("#", ...)
  check_search("step", nargs, self)
  A.check_number(n, nargs > 1, 1, "step")
  if not (n >= 1) or (n % 1 ~= 0 and n ~= huge) then -- luacheck: ignore 581 (nan)
    A.arg_error(1, "step", nil,
      "n must be a whole number >= 1 or math.huge, got " .. A.number_text(n))
  end
  if seconds == nil then
    seconds = huge
  else
    A.check_number(seconds, true, 2, "step")
    if not (seconds > 0) then -- luacheck: ignore 581 (nan)
      A.arg_error(2, "step", nil,
        "seconds must be a number > 0 or math.huge, got " .. A.number_text(seconds))
    end
  end
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
    local path, cost
    if self._options.smooth then
      path, cost = SM.result(self._scratch, nil, self._flat)
    else
      path, cost = (self._flat and S.flat_path or S.path)(self._scratch)
    end
    if self._goal_list then
      return path, cost, status == S.FOUND and S.goal_index(self._scratch) or false
    end
    if not self._partial then return path, cost end
    return path, cost, status == S.FOUND
  end
  return nil, status   -- "goal is blocked" or "no path"
end

function SearchMethods.getStatus(...)
  local self = ...
  return status_name(check_search("getStatus", select("#", ...), self)._status)
end

-- All the work so far: the runs before its restarts included.
function SearchMethods.getStats(...)
  local self = ...
  local s = check_search("getStats", select("#", ...), self)._scratch
  return { expanded = self._earlier_expanded + s.expanded, touched = self._earlier_touched + s.touched,
    restarts = self._restarts }
end

-- The cells expanded so far (src/lua/lua_search.c search_get_expanded).
function SearchMethods.getExpanded(...)
  local self = ...
  check_search("getExpanded", select("#", ...), self)
  if not self._grid._open then error("attempt to use a closed astar.Grid", 0) end
  return S.expanded_cells(self._scratch)
end

function SearchMethods.getGrid(...)
  local self = ...
  return check_search("getGrid", select("#", ...), self)._grid
end

SEARCH_META.__tostring = function(self)
  if not self._scratch then return "astar.Search (released)" end
  return "astar.Search (" .. status_name(self._status) .. ")"
end

-- __close: frees the scratch at once; safe to call twice.
SEARCH_META.__close = function(self)
  if getmetatable(self) == SEARCH_META then self._scratch = nil end
end

return SearchMethods
