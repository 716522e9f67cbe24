---@meta _
-- A search spread over frames: grid:newSearch (README, Searches spread over frames).

---A search that runs a few nodes at a time; it keeps its grid alive.
---`tostring(search)` is `astar.Search (searching)`.
---@class astar.Search
local Search = {}

---Expands at most `n` nodes (`math.huge`: no limit), and stops sooner when
---`seconds` have passed (checked every few hundred expansions).
---@param n number
---@param seconds? number a time budget in seconds
---@return astar.SearchStatus
function Search:step(n, seconds) end

---The same search started again on a new query, in the memory it has: the
---arguments of `grid:newSearch`, checked the same way (`opts` omitted: the
---defaults, not the options of the query before). Its statistics start from
---zero.
---@param sx integer
---@param sy integer
---@param gx integer
---@param gy integer
---@param opts? astar.NewSearchOptions
---@return astar.Search
---@overload fun(self: astar.Search, sx: integer, sy: integer, goals: astar.Point[], opts?: astar.NewSearchOptions): astar.Search
function Search:restart(sx, sy, gx, gy, opts) end

---What `findPath` would return: `path, cost [, reached]`, or `nil, reason`
---(the flat form with `flat = true`).
---@return astar.Path|astar.FlatPath|nil path
---@return number|string costOrReason
---@return boolean|integer|nil reached
function Search:result() end

---The status, without stepping.
---@return astar.SearchStatus
function Search:getStatus() end

---All the work done so far, runs before a restart by a change included, and
---the algorithm the current run runs.
---@return astar.SearchRunStats
function Search:getStats() end

---The cells the current run expanded, in row order (for visualisations).
---@return astar.Point[]
function Search:getExpanded() end

---The grid it searches.
---@return astar.Grid
function Search:getGrid() end

---@class astar.SearchRunStats: astar.SearchStats
---@field restarts integer how often a change to the grid started it again
