---@meta _
-- The Grid class and the options of findPath and newSearch (README, API).
-- The methods `require "astar.tactics"` adds are in types/astar/tactics.lua.

---A grid of cells with walls, entry costs, moves and links. `tostring(grid)`
---is `astar.Grid (40x30)`; closing it (a `<close>` variable) frees it at once.
---@class astar.Grid
local Grid = {}

-- ---- cells -------------------------------------------------------------------------

---@return integer width
function Grid:getWidth() end

---@return integer height
function Grid:getHeight() end

---@return integer width
---@return integer height
function Grid:getDimensions() end

---Makes the cell open (`true`) or a wall (`false`). A wall keeps its cost.
---@param x integer
---@param y integer
---@param walkable boolean
function Grid:setWalkable(x, y, walkable) end

---@param x integer
---@param y integer
---@return boolean
function Grid:isWalkable(x, y) end

---The cost of entering the cell: a positive finite number up to 1e15 (below 1 allowed: roads).
---@param x integer
---@param y integer
---@param cost number
function Grid:setCost(x, y, cost) end

---@param x integer
---@param y integer
---@return number cost
function Grid:getCost(x, y) end

---Repaints the cells under `tiles` from tile ids, `tiles[1][1]` (or a Tiled
---layer's first tile) at cell (x, y), default (1, 1). All or nothing.
---@param tiles astar.Tiles
---@param rule astar.TileRule
---@param x? integer
---@param y? integer
function Grid:setTiles(tiles, rule, x, y) end

-- ---- settings ----------------------------------------------------------------------

---The grid's diagonal mode (hex grids have none: an error).
---@param mode astar.DiagonalMode
function Grid:setDiagonal(mode) end

---@return astar.DiagonalMode
function Grid:getDiagonal() end

---@param name astar.HeuristicName
---@param weight? number a finite number >= 1 (default 1); above 1 for weighted A*
function Grid:setHeuristic(name, weight) end

---The heuristic and its weight; `"hex"` on a hex grid unless it is `"dijkstra"`.
---@return astar.HeuristicName|"hex" name
---@return number weight
function Grid:getHeuristic() end

---@return astar.Shape
function Grid:getShape() end

---The layout of a hex grid, `nil` for a square one.
---@return astar.HexLayout?
function Grid:getLayout() end

-- ---- moves and links (README, Moves and links) -----------------------------------------

---The move from (x1, y1) to its neighbour (x2, y2), that way only: a number
---(> 0, up to 1e15) is its price, `false` forbids it, `nil` restores the default.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param cost number|false|nil
function Grid:setMove(x1, y1, x2, y2, cost) end

---The override of a move: a number, `false`, or `nil` where the default applies.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@return number|false|nil
function Grid:getMove(x1, y1, x2, y2) end

---A thin wall between two cells side by side: `true` forbids both moves,
---`false` or `nil` sets both back to the default.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param wall boolean?
function Grid:setWallBetween(x1, y1, x2, y2, wall) end

---An extra move between any two cells (stairs, portals), both ways unless `oneway`.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param cost number above 0, up to 1e15
---@param oneway? boolean
function Grid:link(x1, y1, x2, y2, cost, oneway) end

---Removes the links between the two cells, both ways.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
function Grid:unlink(x1, y1, x2, y2) end

---A new list of the links leaving (x, y), by cell number.
---@param x integer
---@param y integer
---@return astar.CostPoint[]
function Grid:getLinks(x, y) end

-- ---- board geometry (README, Board geometry) ---------------------------------------------

---The centre of cell (x, y) in pixels, for cells `size` pixels wide (square: the
---board's top-left corner at 0, 0) or `size` from centre to corner (hex).
---@param x integer
---@param y integer
---@param size number positive, finite
---@return number px
---@return number py
function Grid:cellCentre(x, y, size) end

---The cell under pixel (px, py) (the nearest centre; on an edge, the cell right
---of it, then below it), or `nil` off the board.
---@param px number
---@param py number
---@param size number positive, finite
---@return integer|nil x
---@return integer? y
function Grid:cellAt(px, py, size) end

---Smooths any walk (a path table or a flat array) over the grid's walls and
---costs as they are: `"sight"` (the default on a square board) or `"corners"`
---(the default on hex). Returns the points, in the form the walk came in unless
---`opts.flat` says, and their cost under the segment model (docs/paths.md).
---@param path astar.Path|astar.FlatPath
---@param opts? astar.SmoothPathOptions
---@return astar.Path|astar.FlatPath path
---@return number cost
function Grid:smoothPath(path, opts) end

---The index of the first cell of `path` (a path table or a flat array; cells
---counted 1, 2, ... in both forms), from cell `from` on, that a unit can no
---longer enter: a wall, a point off the grid, a step between neighbours that is
---no longer a move of the grid's diagonal mode (corner rule, a move set false)
---unless a link joins them. Nil when the path holds.
---@param path astar.Path|astar.FlatPath
---@param from? integer 1 to the number of cells + 1 (default 1): a unit on cell k asks from k + 1
---@return integer|nil index
function Grid:firstBlocked(path, from) end

---The options of `grid:smoothPath`.
---@class astar.SmoothPathOptions
---@field smooth? "sight"|"corners"|false false: the walk's corners
---@field diagonal? astar.DiagonalMode the mode the walk's steps follow (default the grid's)
---@field flat? boolean the path as one flat array
---@field into? table a table to fill and return instead of a new path

---The moves that leave (x, y) under the grid's walls, costs, diagonal mode (or
---`opts.diagonal`), move overrides and links: direction order, then links by
---target; `cost` is what a findPath step pays.
---@param x integer
---@param y integer
---@param opts? {diagonal?: astar.DiagonalMode}
---@return astar.CostPoint[]
function Grid:neighbours(x, y, opts) end

---The board's step distance, walls and costs ignored: hex steps; on a square
---board |dx| + |dy| in mode "never", else (max - min) + sqrt(2) * min.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@return number
function Grid:distance(x1, y1, x2, y2) end

-- ---- queries ---------------------------------------------------------------------------

---The cheapest path from (sx, sy) to (gx, gy), or to the cheapest of a list
---of goals. Returns `path, cost` (and, with `partial` or a goal list, a third
---result), or `nil, reason` ("goal is blocked", "no path").
---@param sx integer
---@param sy integer
---@param gx integer
---@param gy integer
---@param opts? astar.FindPathOptions
---@return astar.Path|astar.FlatPath|nil path
---@return number|string costOrReason the path's cost, or why there is none
---@return boolean|integer|nil reached with `partial`: whether the goal was reached; with a goal list: its index (`false`: none)
---@overload fun(self: astar.Grid, sx: integer, sy: integer, goals: astar.Point[], opts?: astar.FindPathOptions): (astar.Path|astar.FlatPath|nil), number|string, integer|false|nil
function Grid:findPath(sx, sy, gx, gy, opts) end

---A Search that runs a few nodes at a time (`search:step(n)`): the arguments
---and options of `findPath`, without `into`.
---@param sx integer
---@param sy integer
---@param gx integer
---@param gy integer
---@param opts? astar.NewSearchOptions
---@return astar.Search
---@overload fun(self: astar.Grid, sx: integer, sy: integer, goals: astar.Point[], opts?: astar.NewSearchOptions): astar.Search
function Grid:newSearch(sx, sy, gx, gy, opts) end

---One multi-source Dijkstra from `sources`: the cost from every cell to the
---nearest source (README, Distance maps).
---@param sources astar.Source[]
---@param opts? astar.DistanceMapOptions
---@return astar.DistanceMap
function Grid:distanceMap(sources, opts) end

---The work of the last `findPath` on the grid.
---@return astar.SearchStats
function Grid:getSearchStats() end

---The walls, exact costs, settings, moves and links as a string, for `astar.decode`.
---@return string
function Grid:encode() end

---@class astar.SearchStats
---@field expanded integer nodes expanded (jump points for JPS)
---@field touched integer cells whose cost was set

-- ---- the options of a query --------------------------------------------------------

---The options of `grid:newSearch` (every field optional, an unknown one an
---error): each overrides the grid's setting for this query only.
---@class astar.NewSearchOptions
---@field diagonal? astar.DiagonalMode
---@field heuristic? astar.HeuristicName given without `weight`: weight 1
---@field weight? number as `setHeuristic`
---@field partial? boolean when the goal cannot be reached, the path to the reached cell closest to it
---@field algorithm? astar.Algorithm
---@field size? integer from 1 to 65535: the unit covers size x size cells, the path's cell the top-left one
---@field flat? boolean the path as one flat array `{x1, y1, x2, y2, ...}`
---@field blocked? astar.CellRule cells this unit cannot enter: enemy units
---@field occupied? astar.CellRule cells it may cross but not end on: allied units
---@field cost? astar.CostRule its own cost of entering a cell
---@field move? astar.MoveRule its own price of each move
---@field near? integer end at the cheapest-to-reach cell within distance `near` of the goal
---@field maxCost? number never go beyond this cost (>= 0)
---@field smooth? astar.Smoothing|false the path as corners, string-pulled ("sight") or any-angle ("theta")

---The options of `grid:findPath`: those of `newSearch`, and `into`.
---@class astar.FindPathOptions: astar.NewSearchOptions
---@field into? table a table to fill and return instead of a new path
