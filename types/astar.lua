---@meta
-- LuaLS / EmmyLua annotations of `require "astar"` (README, Editor support).
-- Definitions only: this file is never run. The classes are spread over
-- types/astar/*.lua; spec/annotations_spec.lua checks that every public
-- function of both backends is declared here or there, and nothing more.

-- ---- shapes shared by every query ---------------------------------------------

---A cell: 1-based column `x` and row `y`.
---@class astar.Point
---@field x integer
---@field y integer

---A unit on the board: its cell, the top-left one of its size x size square.
---@class astar.Unit: astar.Point
---@field size? integer from 1 to 65535 (default 1)

---A cell with the cost of reaching it (`range:cells()`, `map:cells()`: the value).
---@class astar.CostPoint: astar.Point
---@field cost number

---A cell of a `cost` rule given as a list: its own cost, `false` for impassable.
---@class astar.CostRulePoint: astar.Point
---@field cost number|false

---A source of a distance map: `value` (default 0) is added to every walk that ends there.
---@class astar.Source: astar.Point
---@field value? number

---A path from start to goal inclusive: `path[i].x`, `path[i].y`.
---@alias astar.Path astar.Point[]

---A path as one flat array `{x1, y1, x2, y2, ...}` (`opts.flat = true`):
---what `love.graphics.line` takes and a `love.thread` channel carries.
---@alias astar.FlatPath integer[]

---How a path comes back: its corners, string pulling, or an any-angle search
---(docs/paths.md).
---@alias astar.Smoothing
---| "corners"
---| "sight"
---| "theta"

---@alias astar.DiagonalMode
---| "never"        # 4 directions only
---| "always"       # diagonal steps even between two walls
---| "one-obstacle" # not when both orthogonal neighbours are walls
---| "no-obstacles" # only when both orthogonal neighbours are walkable (the default)

---@alias astar.HeuristicName
---| "manhattan"
---| "octile"
---| "euclidean"
---| "chebyshev"
---| "dijkstra" # no estimate: plain Dijkstra

---@alias astar.Algorithm
---| "auto"  # jump point search where it gives A*'s answer, else A*
---| "astar"
---| "jps"

---@alias astar.HexLayout
---| "odd-r"  # pointy tops, rows 2, 4, 6... shoved right (the default)
---| "even-r" # pointy tops, rows 1, 3, 5... shoved right
---| "odd-q"  # flat tops, columns 2, 4, 6... shoved down
---| "even-q" # flat tops, columns 1, 3, 5... shoved down

---@alias astar.Shape "square"|"hex"

---@alias astar.SearchStatus "searching"|"found"|"unreachable"

-- ---- rules: what one query lets one unit do (README, Units on the board) -----

---A set of cells: a function `(x, y)` (asked at most once per cell per query),
---a table by cell number `t[(y - 1) * width + x]` (`tactics.cellIndex`), or a
---list of units `{{x =, y = [, size =]}, ...}` (a unit of size k: the k x k
---cells whose top-left cell is (x, y)).
---@alias astar.CellRule
---| fun(x: integer, y: integer): boolean?
---| table<integer, boolean>
---| astar.Unit[]

---A zone of control: the cells of a rule, or `{around = units}`: the cells
---next to each unit.
---@alias astar.ZocRule astar.CellRule|astar.AroundUnits

---@class astar.AroundUnits
---@field around astar.Unit[]

---A unit's own cost of entering a cell, in place of the grid's: a positive
---number up to 1e15; `nil`, `false` or `math.huge` is impassable. A function
---`(x, y)`, a table by cell number (a cell with no entry is impassable) or a
---list `{{x =, y =, cost =}, ...}` (cells not listed keep the grid's cost).
---@alias astar.CostRule
---| fun(x: integer, y: integer): number|false|nil
---| table<integer, number|false>
---| astar.CostRulePoint[]

---A query's own price of a move from (fx, fy) to (tx, ty), links included,
---given what the grid says it costs: a number > 0 up to 1e15, or `false`.
---@alias astar.MoveRule fun(fx: integer, fy: integer, tx: integer, ty: integer, cost: number): number|false

-- ---- tile maps (README, Tile maps) ------------------------------------------------

---A tile layer as Tiled's Lua export (`map.layers[1]`) or LÖVE's STI loader
---gives it: `data` is Tiled's flat array of gids, row after row, or STI's rows
---of tiles `{gid =}`. An empty cell (gid 0, or nil) is id 0; Tiled's flip bits
---are dropped.
---@class astar.TileLayer
---@field width integer
---@field height integer
---@field data integer[]|astar.StiTile[][]

---A tile of an STI layer.
---@class astar.StiTile
---@field gid integer

---What each tile id is, `{[id] = cost}`: a number is a walkable cell with that
---cost, `false` or `math.huge` a wall. An id with no entry takes `default`;
---with no default either, it is an error.
---@class astar.TileRules
---@field default? number|false
---@field [any] number|false

---`rule(id, x, y)`, (x, y) the grid cell: a cost, or `false` / `nil` for a wall.
---@alias astar.TileRule astar.TileRules|fun(id: any, x: integer, y: integer): number|false|nil

---Tile ids in rows, `tiles[y][x]` (any Lua value but nil), or a tile layer.
---@alias astar.Tiles any[][]|astar.TileLayer

-- ---- the module -------------------------------------------------------------------

---Grid pathfinding: A* and jump point search, searches spread over frames,
---distance maps; the C module or its pure-Lua fallback, with the same API.
---@class astar
---@field MAX_SIDE integer 65535, the largest width or height
---@field MAX_CELLS integer 2^28, the largest width * height
---@field Grid astar.Grid the table of Grid methods (what `astar.tactics` extends)
---@field backend "c"|"lua" which backend `require "astar"` loaded
---@field backendError string? `nil` with the C backend; with the fallback, why the C module was not used
---@field _VERSION string the library's version, "X.Y.Z"
local astar = {}

---A grid of `width` x `height` cells, every cell walkable with cost 1.
---@param width integer from 1 to `astar.MAX_SIDE`
---@param height integer from 1 to `astar.MAX_SIDE`; `width * height` at most `astar.MAX_CELLS`
---@return astar.Grid
function astar.new(width, height) end

---A grid from text, one row per line: `.` walkable, `#` wall, `1`..`9` walkable with that cost.
---@param text string
---@return astar.Grid
function astar.fromString(text) end

---A grid from the text of a Moving AI `.map` file (passable `. G S`, blocked `@ O T W`).
---@param text string
---@return astar.Grid
function astar.fromMovingAI(text) end

---A grid from tile ids: rows `tiles[y][x]`, or a Tiled / STI layer `{width =, height =, data =}`.
---@param tiles astar.Tiles
---@param rule astar.TileRule
---@return astar.Grid
function astar.fromTiles(tiles, rule) end

---A board of hexagons, every cell walkable with cost 1 (README, Hex boards).
---@param width integer
---@param height integer
---@param layout? astar.HexLayout default `"odd-r"`
---@return astar.Grid
function astar.newHex(width, height, layout) end

---A new, independent grid from a string made by `grid:encode()`, from either backend.
---@param s string
---@return astar.Grid
function astar.decode(s) end

---A DistanceMap from a string made by `map:encode()`, from either backend.
---@param s string
---@return astar.DistanceMap
function astar.decodeMap(s) end

---A new map, the weighted sum of maps of one grid size and one unit size, on
---the cells every map holds: `list` is `{mapA, weightA, mapB, weightB, ...}`.
---@param list (astar.DistanceMap|number)[]
---@param opts? astar.BlendOptions
---@return astar.DistanceMap
function astar.blend(list, opts) end

---@class astar.BlendOptions
---@field rescan? boolean `true`: rescan the sum, so that walks follow it (README, Rescan)

return astar
