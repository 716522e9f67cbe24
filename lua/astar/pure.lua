-- The pure-Lua backend: the same API as the C module astar.core (functions,
-- Grid methods, errors, results), for hosts that cannot load C modules.
-- lua/astar.lua picks it when astar.core is not found or ASTAR_BACKEND=lua;
-- it can also be required directly as "astar.pure".
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local L = require "astar.pure.mapload"
local methods = require "astar.pure.methods"
local E = require "astar.pure.encode"
local R = require "astar.pure.range"
local T = require "astar.pure.tiles"
local D = require "astar.pure.distance"
local HX = require "astar.pure.hex"
local MV = require "astar.pure.moves"
local GM = require "astar.pure.geometry"
local SM = require "astar.pure.smooth"
require "astar.pure.stepper"   -- adds Grid:newSearch and the Search methods

local select, type = select, type
local format = string.format

local META = G.META
META.__index = methods
META.__name = "astar.Grid"
META.__tostring = function(self)
  if not self._open then return "astar.Grid (closed)" end
  if self._hex then return format("astar.Grid (%dx%d hex)", self._w, self._h) end
  return format("astar.Grid (%dx%d)", self._w, self._h)
end
-- __close (Lua 5.4 <close>) frees the cells at once; safe to call twice.
-- There is nothing to do for __gc: the cells are plain Lua tables.
META.__close = function(self)
  if getmetatable(self) == META then G.close(self) end
end

local core = {
  MAX_CELLS = G.MAX_CELLS,
  MAX_SIDE = G.MAX_SIDE,
  Grid = methods,
  backend = "lua",
  decode = E.decode,
  blend = D.blend,
  decodeMap = D.decode_map,
  -- the tactics primitives, wrapped by lua/astar/tactics.lua
  _movementRange = R.movement_range,
  _attackCells = R.attack_cells,
  _lineOfSight = R.line_of_sight,
  _cellSet = R.cell_set,
}

-- _gridVersion(grid) -> the grid's change counter (only real changes move
-- it): dangerZone starts again when a callback or a finalizer changed the
-- grid between its enemies.
function core._gridVersion(...)
  local grid = ...
  return G.check_grid("_gridVersion", select("#", ...), grid)._version
end
methods.encode = E.encode
methods.setTiles = T.set_tiles
methods.distanceMap = D.distance_map
methods.getShape = HX.getShape
methods.getLayout = HX.getLayout
methods.smoothPath = SM.smoothPath
methods.firstBlocked = SM.firstBlocked
for _, name in ipairs { "setMove", "getMove", "setWallBetween", "link", "unlink", "getLinks" } do
  methods[name] = MV[name]
end
for _, name in ipairs { "cellCentre", "cellAt", "neighbours", "distance" } do
  methods[name] = GM[name]
end
core.newHex = HX.new_hex
core.fromTiles = T.from_tiles

function core.new(...)
  local w, h = ...
  local nargs = select("#", ...)
  w = A.check_index(w, nargs > 0, 1, "new", "width", G.MAX_SIDE)
  h = A.check_index(h, nargs > 1, 2, "new", "height", G.MAX_SIDE)
  if w * h > G.MAX_CELLS then
    A.arg_error(2, "new", nil,
      format("width * height exceeds the maximum of %d cells", G.MAX_CELLS))
  end
  return G.new(w, h)
end

local function loader(fname, load)
  return function(...)
    local text = ...
    if type(text) ~= "string" then
      A.type_error(1, fname, nil, "string", text, select("#", ...) > 0)
    end
    local grid, message = load(text)
    if not grid then A.arg_error(1, fname, nil, message) end
    return grid
  end
end
core.fromString = loader("fromString", L.from_text)
core.fromMovingAI = loader("fromMovingAI", L.from_movingai)

return core
