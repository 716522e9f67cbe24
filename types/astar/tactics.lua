---@meta
-- LuaLS / EmmyLua annotations of `require "astar.tactics"` (README, Tactics:
-- movement ranges, attack ranges, danger zones), the Range, attack range and
-- danger zone classes, and the Grid methods requiring it adds.

---Movement ranges, attack ranges and danger zones for turn-based games.
---Requiring it adds `movementRange`, `attackRange`, `dangerZone` and
---`lineOfSight` to every grid as methods: `tactics.f(grid, ...)` is `grid:f(...)`.
---@class astar.tactics
local tactics = {}

---Where a unit at (x, y) with `move` points can go: 4 directions, or 8 with `opts.diagonal`.
---@param grid astar.Grid
---@param x integer
---@param y integer
---@param move number 0 or more, may be `math.huge`
---@param opts? astar.MovementRangeOptions
---@return astar.Range
function tactics.movementRange(grid, x, y, move, opts) end

---Every cell whose distance from some stop cell of `range` is in [minRange, maxRange].
---@param grid astar.Grid
---@param range astar.Range
---@param minRange integer 0 or more
---@param maxRange integer at least minRange
---@param opts? astar.AttackRangeOptions
---@return astar.AttackRange
function tactics.attackRange(grid, range, minRange, maxRange, opts) end

---The union of every enemy's attack range after its move, with counts.
---@param grid astar.Grid
---@param enemies astar.Enemy[]
---@param opts? astar.DangerZoneOptions
---@return astar.DangerZone
function tactics.dangerZone(grid, enemies, opts) end

---True when the segment between the two cells' centres crosses no wall other than its ends.
---@param grid astar.Grid
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@return boolean
function tactics.lineOfSight(grid, x1, y1, x2, y2) end

---`(y - 1) * width + x`: the key of a cell in the table form of the rules.
---@param grid astar.Grid
---@param x integer
---@param y integer
---@return integer
function tactics.cellIndex(grid, x, y) end

---A set `{[cellIndex] = true}` of a list of cells (units, say).
---@param grid astar.Grid
---@param cells astar.Unit[]
---@return table<integer, true>
function tactics.cellSet(grid, cells) end

-- ---- the methods it adds to every grid ----------------------------------------------

---@class astar.Grid
local Grid = {}

---`tactics.movementRange(grid, ...)`: where a unit at (x, y) with `move` points can go.
---@param x integer
---@param y integer
---@param move number 0 or more, may be `math.huge`
---@param opts? astar.MovementRangeOptions
---@return astar.Range
function Grid:movementRange(x, y, move, opts) end

---`tactics.attackRange(grid, ...)`: what a unit can hit after moving.
---@param range astar.Range
---@param minRange integer 0 or more
---@param maxRange integer at least minRange
---@param opts? astar.AttackRangeOptions
---@return astar.AttackRange
function Grid:attackRange(range, minRange, maxRange, opts) end

---`tactics.dangerZone(grid, ...)`: what the enemies can hit.
---@param enemies astar.Enemy[]
---@param opts? astar.DangerZoneOptions
---@return astar.DangerZone
function Grid:dangerZone(enemies, opts) end

---`tactics.lineOfSight(grid, ...)`: true when a shot is not blocked by walls.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@return boolean
function Grid:lineOfSight(x1, y1, x2, y2) end

-- ---- results ------------------------------------------------------------------------

---Where a unit can move: costs and parents, a snapshot of the grid.
---`tostring(range)` is `astar.Range (25 cells from 2,3)`.
---@class astar.Range
local Range = {}

---True where the unit can end its move.
---@param x integer
---@param y integer
---@return boolean
function Range:contains(x, y) end

---The cheapest cost of a reachable cell (stop or pass-through), else `nil`.
---@param x integer
---@param y integer
---@return number?
function Range:costTo(x, y) end

---The cheapest path from the unit to a stop cell, both inclusive, else `nil`.
---@param x integer
---@param y integer
---@param opts? astar.PathToOptions
---@return astar.Path|astar.FlatPath|nil
function Range:pathTo(x, y, opts) end

---Every stop cell once, cheapest first; fills `into` when given.
---@param into? table
---@return astar.CostPoint[]
function Range:cells(into) end

---How many stop cells.
---@return integer
function Range:size() end

---The start.
---@return integer x
---@return integer y
function Range:getStart() end

---Width and height of the grid it was made on.
---@return integer width
---@return integer height
function Range:getGridDimensions() end

---The diagonal mode the range was made with (`"never"`: 4 directions,
---whatever the grid's own setting).
---@return astar.DiagonalMode
function Range:getDiagonal() end

---The cells a unit can attack (`tactics.attackRange`).
---@class astar.AttackRange
local AttackRange = {}

---True when the cell can be attacked.
---@param x integer
---@param y integer
---@return boolean
function AttackRange:contains(x, y) end

---Each cell once, row by row; fills `into` when given.
---@param into? table
---@return astar.Point[]
function AttackRange:cells(into) end

---How many cells.
---@return integer
function AttackRange:size() end

---@class astar.CountPoint: astar.Point
---@field count integer how many enemies can hit the cell

---The cells some enemy can attack this turn, with how many (`tactics.dangerZone`).
---@class astar.DangerZone
local DangerZone = {}

---How many enemies can hit the cell, 0 if none.
---@param x integer
---@param y integer
---@return integer
function DangerZone:count(x, y) end

---True when some enemy can hit the cell.
---@param x integer
---@param y integer
---@return boolean
function DangerZone:contains(x, y) end

---Each cell once, row by row; fills `into` when given.
---@param into? table
---@return astar.CountPoint[]
function DangerZone:cells(into) end

---How many cells.
---@return integer
function DangerZone:size() end

-- ---- options ---------------------------------------------------------------------------

---@alias astar.Metric
---| "manhattan" # |dx| + |dy| (the default)
---| "chebyshev" # max(|dx|, |dy|): a square
---| "euclidean" # a disc

---A shot's rule: `true` for `tactics.lineOfSight`, or a function that returns
---true when the shot from (fromX, fromY) to (toX, toY) is possible.
---@alias astar.SightRule boolean|fun(fromX: integer, fromY: integer, toX: integer, toY: integer): boolean

---The options of `movementRange` (rules in the forms of `findPath`'s).
---@class astar.MovementRangeOptions
---@field cost? astar.CostRule the unit's own cost of entering a cell
---@field blocked? astar.CellRule impassable: enemy units
---@field occupied? astar.CellRule may be crossed, not stopped on: allied units
---@field zoc? astar.ZocRule zone of control: entering it ends the move
---@field move? astar.MoveRule the unit's own price of each move
---@field diagonal? astar.DiagonalMode `"never"` (the default), not the grid's setting
---@field size? integer from 1 to 65535: a unit of size x size cells, the Range of its top-left positions

---The options of `attackRange`.
---@class astar.AttackRangeOptions
---@field metric? astar.Metric
---@field lineOfSight? astar.SightRule walls stop attacks only when given

---The options of `dangerZone`: for every enemy, unless it has its own.
---@class astar.DangerZoneOptions
---@field cost? astar.CostRule
---@field blocked? astar.CellRule
---@field occupied? astar.CellRule
---@field zoc? astar.ZocRule
---@field move? astar.MoveRule the one move rule of every enemy
---@field diagonal? astar.DiagonalMode
---@field metric? astar.Metric
---@field lineOfSight? astar.SightRule

---An enemy of `dangerZone`: where it stands, its move points and its reach;
---its own rules override the options'.
---@class astar.Enemy: astar.Unit
---@field move number
---@field minRange integer
---@field maxRange integer
---@field cost? astar.CostRule
---@field blocked? astar.CellRule
---@field occupied? astar.CellRule
---@field zoc? astar.ZocRule
---@field diagonal? astar.DiagonalMode
---@field metric? astar.Metric

---The options of `range:pathTo`.
---@class astar.PathToOptions
---@field smooth? "corners"|false the walk's corners (a snapshot keeps no grid: `grid:smoothPath` pulls it)
---@field flat? boolean the path as one flat array `{x1, y1, x2, y2, ...}`
---@field into? table a table to fill and return instead of a new path

return tactics
