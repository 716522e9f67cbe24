-- Searches spread over frames for the pure-Lua backend, as src/lua/lua_search.c:
-- grid:newSearch(sx, sy, gx, gy [, opts]) -> Search; search:step(n),
-- search:result(), getStatus, getStats, getExpanded, getGrid; the same messages.
local A = require "astar.pure.args"
local S = require "astar.pure.search"
local G = require "astar.pure.grid"
local methods = require "astar.pure.methods"
local Q = require "astar.pure.query_rules"

local select, getmetatable, setmetatable, format = select, getmetatable, setmetatable, string.format
local huge = math.huge

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

-- A closed grid, or one changed under a running search, fails every call; so
-- does a search its rules stopped (a callback's error, a bad value).
local function check_grid_alive(self)
  if not self._grid._open then error("attempt to use a closed astar.Grid", 0) end
  if self._stopped then error("search stopped by an error in its rules", 0) end
  if self._grid_changed then error("grid changed during search", 0) end
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
  if not o.general then
    local goal = ys[1] * self._stride + xs[1] + 1
    local status = S.begin(scratch, self, start, goal, o.diagonal, o.heuristic, o.weight, o.partial)
    return setmetatable({
      _grid = self, _scratch = scratch, _partial = o.partial, _flat = o.flat, _status = status,
      _grid_changed = false,
    }, SEARCH_META)
  end
  local search = setmetatable({
    _grid = self, _scratch = scratch, _partial = o.partial, _flat = o.flat,
    _status = S.NO_PATH, _grid_changed = false, _stopped = false, _busy = false,
    _rules = rules or nil, _goal_list = goal_list,
  }, SEARCH_META)
  if rules then Q.prepare(rules, self) end
  search._busy = true                   -- begin may ask the rules about the goal
  local status = S.begin_general(scratch, self, start, xs, ys, o, rules or nil)
  leave_core(search, status, "newSearch")
  search._status = status
  return search
end

-- search:step(n): n is a whole number >= 1, or math.huge for no limit.
function SearchMethods.step(...)
  local self, n = ...
  local nargs = select("#", ...)
  check_search("step", nargs, self)
  A.check_number(n, nargs > 1, 1, "step")
  if not (n >= 1) or (n % 1 ~= 0 and n ~= huge) then -- luacheck: ignore 581 (nan)
    A.arg_error(1, "step", nil,
      "n must be a whole number >= 1 or math.huge, got " .. A.number_text(n))
  end
  if n == huge then n = 0 end   -- 0: no limit
  if self._status == S.SEARCHING or self._grid_changed or self._stopped then
    check_grid_alive(self)
    -- a rule (or a finalizer) may not step or release the search it runs in
    if self._busy then error("search:step called from one of its own rules", 0) end
    local rules = self._rules
    if rules then Q.prepare(rules, self._grid) end
    self._busy = true
    local status = S.step(self._scratch, n)
    leave_core(self, status, "step")
    if not self._grid._open then   -- closed by a finalizer while it ran
      if status == S.GRID_CHANGED then
        self._grid_changed, status = true, S.NO_PATH
      end
      self._status = status
      error("grid closed during step", 0)
    end
    if status == S.GRID_CHANGED then
      self._grid_changed, self._status = true, S.NO_PATH
      error("grid changed during search", 0)
    end
    self._status = status
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
    local path, cost = (self._flat and S.flat_path or S.path)(self._scratch)
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

function SearchMethods.getStats(...)
  local self = ...
  local s = check_search("getStats", select("#", ...), self)._scratch
  return { expanded = s.expanded, touched = s.touched }
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
