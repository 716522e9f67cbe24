-- Grid storage for the pure-Lua backend, a port of src/core/grid.c.
--
-- Cells are stored row by row with a one-cell wall border, so a neighbour is
-- always cell + offset with no bounds check: cell (x, y), 1-based, is index
-- y * stride + x + 1 with stride = width + 2. Fields start with "_" so they
-- never hide a method added to astar.Grid.
local M = {}

M.MAX_SIDE = 65535
M.MAX_CELLS = 268435456   -- 2^28, written out so it is an integer on Lua 5.3+
M.MAX_COST = 1e15
-- A query that finds the grid changed under it (by one of its callbacks or a
-- finalizer) starts again at most this many times, then raises
-- "grid changed during <function>".
M.MAX_RESTARTS = 3
-- A list read from Lua while tables are made (which may run finalizers that
-- change it) is read again until it holds still, at most this many times
-- (lua_grid.h MEASURE_TRIES), then "<list> changed during <function>".
M.MEASURE_TRIES = 4
-- How many of its latest changes a grid remembers (grid_layout.h
-- ASTAR_CHANGE_LOG): the change that made version v wrote cell index
-- _changes[v % CHANGE_LOG + 1]. A running stepped search reads them to tell
-- whether the changes since its last step reached it (stepper.lua).
local CHANGE_LOG = 64
M.CHANGE_LOG = CHANGE_LOG

local toint = math.tointeger or function(v) return v end
M.toint = toint

-- The metatable shared by every grid; grid_methods.lua fills it in.
M.META = {}

-- A width x height grid (both valid), every cell walkable with cost 1.
function M.new(width, height)
  width, height = toint(width), toint(height)
  local stride = width + 2
  local cells = stride * (height + 2)
  local open = {}
  for i = 1, cells do open[i] = false end
  for y = 1, height do
    local row = y * stride + 1
    for x = row + 1, row + width do open[x] = true end
  end
  local changes = {}
  for k = 1, CHANGE_LOG do changes[k] = 0 end   -- filled: a write never allocates
  return setmetatable({
    _w = width, _h = height, _stride = stride, _cells = cells,
    _open = open,
    _cost = nil,                -- nil while every cost is 1
    _min_cost = 1.0, _min_count = width * height,
    _version = 0,
    _changes = changes,         -- the cells of the last CHANGE_LOG changes
    _diagonal = 4,              -- "no-obstacles"
    _heuristic = 2,             -- "octile"
    _heuristic_chosen = false,  -- until setHeuristic: follows the diagonal mode
    _weight = 1.0,
    _moves = nil,               -- overrides and links (moves.lua); nil while none
    _link_edits = 0,            -- how many times links were made, repriced or removed
    _search = nil,              -- findPath's scratch, made on first use
    _pool = nil,                -- scratch of finished stepped searches (stepper.lua)
    _range = nil,               -- movementRange's scratch (range.lua), made on first use
    _expanded = 0, _touched = 0, -- the last findPath's statistics
  }, M.META)
end

function M.index(grid, x, y)
  return y * grid._stride + x + 1
end

-- Counts a change of cell i: the version and the change log.
local function changed(grid, i)
  local v = grid._version + 1
  grid._version = v
  grid._changes[v % CHANGE_LOG + 1] = i
end
M.changed = changed

-- A write that changes nothing is not a change: the version (which running
-- searches and ranges watch) only moves when a cell really changes.
function M.set_walkable(grid, i, walkable)
  local open = grid._open
  if open[i] == walkable then return end
  open[i] = walkable
  changed(grid, i)
end

-- Recounts the lowest cost after its last holder was raised (O(cells), only
-- when the cheapest terrain disappears entirely).
local function recount_min_cost(grid)
  local cost, stride = grid._cost, grid._stride
  local lowest, count = M.MAX_COST, 0
  for y = 1, grid._h do
    local row = y * stride + 1
    for i = row + 1, row + grid._w do
      local c = cost[i]
      if c < lowest then
        lowest, count = c, 1
      elseif c == lowest then
        count = count + 1
      end
    end
  end
  grid._min_cost, grid._min_count = lowest, count
end

-- cost is a float in (0, MAX_COST]. The cost layer is filled before it is
-- attached: a finalizer run by its allocations sees the grid as it was.
function M.set_cost(grid, i, cost)
  local costs = grid._cost
  if not costs then
    if cost == 1 then return end
    costs = {}
    for k = 1, grid._cells do costs[k] = 1.0 end
    if not grid._open then return end   -- closed by a finalizer: too late to write
    if grid._cost then
      costs = grid._cost        -- a finalizer made one meanwhile
    else
      grid._cost = costs
    end
  end
  local old = costs[i]
  if cost == old then return end
  costs[i] = cost
  changed(grid, i)
  local min = grid._min_cost
  if cost < min then
    grid._min_cost, grid._min_count = cost, 1
  elseif cost == min then
    grid._min_count = grid._min_count + 1
  end
  if old == grid._min_cost then
    grid._min_count = grid._min_count - 1
    if grid._min_count == 0 then recount_min_cost(grid) end
  end
end

-- Releases the cells; every method then raises "attempt to use a closed astar.Grid".
function M.close(grid)
  grid._open, grid._cost, grid._search, grid._pool, grid._range = nil, nil, nil, nil, nil
end

return M
