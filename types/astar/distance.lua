---@meta _
-- Distance maps: grid:distanceMap (README, Distance maps: one search for many units).

---A snapshot of the cost from every cell to the nearest source (a "Dijkstra
---map"): later changes to the grid do not change it.
---`tostring(map)` is `astar.DistanceMap (48 cells of 10x5)`.
---@class astar.DistanceMap
local DistanceMap = {}

---The value of (x, y), `nil` outside the map (unreachable, beyond `maxCost`,
---out of the grid or not whole).
---@param x integer
---@param y integer
---@return number?
function DistanceMap:get(x, y) end

---The first step of a cheapest walk from (x, y) (downhill); `nil` at a source
---or outside the map.
---@param x integer
---@param y integer
---@return integer? x
---@return integer? y
function DistanceMap:nextStep(x, y) end

---The whole walk of `nextStep` from (x, y), (x, y) first, and its value;
---`nil` outside the map.
---@param x integer
---@param y integer
---@param opts? astar.PathFromOptions
---@return astar.Path|astar.FlatPath|nil path
---@return number? cost
function DistanceMap:pathFrom(x, y, opts) end

---The index in `sources` of the source the walk from (x, y) ends at; `nil`
---outside the map and on maps made by `flee` or `blend`.
---@param x integer
---@param y integer
---@return integer?
function DistanceMap:nearest(x, y) end

---How many cells the map holds.
---@return integer
function DistanceMap:size() end

---Every cell of the map once, row by row, `cost` its value; fills `into` when given.
---@param into? table
---@return astar.CostPoint[]
function DistanceMap:cells(into) end

---Width and height of the grid it was made on.
---@return integer width
---@return integer height
function DistanceMap:getDimensions() end

---A new map: the values times `-k`, rescanned (away from the sources, toward open ground).
---@param k? number default 1.2
---@return astar.DistanceMap
function DistanceMap:flee(k) end

---Recomputes the map in place on `grid` as it is now (same sources and options).
---With a budget (`opts.cells`, `opts.seconds`) the build runs a slice at a time:
---`done` is false until `map:step` completes it; reads answer the previous values meanwhile.
---@param grid astar.Grid a grid of the map's size
---@param opts? astar.MapBuildOptions
---@return astar.DistanceMap self
---@return boolean done the new values are in place
function DistanceMap:update(grid, opts) end

---Moves the map's sources and recomputes it in place (no new memory), with its options
---and rules, on the grid it was made or last updated on, as that grid is now.
---@param sources astar.Source[] as for `grid:distanceMap`
---@param opts? astar.MapBuildOptions
---@return astar.DistanceMap self
---@return boolean done the new values are in place
function DistanceMap:setSources(sources, opts) end

---Continues a build begun with a budget: at most `cells` more settled cells and `seconds`.
---@param cells number a whole number >= 1, or math.huge
---@param seconds? number > 0 (the clock is read every 256 cells)
---@return boolean done the new values are in place (true at once with none pending)
function DistanceMap:step(cells, seconds) end

---Whether a build begun with a budget is pending.
---@return boolean
function DistanceMap:isBuilding() end

---The budget of `map:update` and `map:setSources`: either or both.
---@class astar.MapBuildOptions
---@field cells? number settled cells, a whole number >= 1 (math.huge: no limit)
---@field seconds? number > 0 (math.huge: no limit)

---The map as a string, for `astar.decodeMap`.
---@return string
function DistanceMap:encode() end

---The options of `grid:distanceMap`.
---@class astar.DistanceMapOptions
---@field diagonal? astar.DiagonalMode the grid's setting by default
---@field cost? astar.CostRule
---@field blocked? astar.CellRule cells that cannot be entered (never in the map)
---@field move? astar.MoveRule
---@field maxCost? number cells whose value would be above it are left out
---@field size? integer from 1 to 65535: a map over the top-left positions of size x size units

---The options of `map:pathFrom`.
---@class astar.PathFromOptions
---@field smooth? "corners"|false the walk's corners (a snapshot keeps no grid: `grid:smoothPath` pulls it)
---@field flat? boolean the path as one flat array `{x1, y1, x2, y2, ...}`
---@field into? table a table to fill and return instead of a new path
---@field maxCost? number stop before the step that would make the walk cost more
---@field near? integer stop within `near` steps of a source
---@field blocked? astar.CellRule cells the walk may not enter (other units); it may start on one
