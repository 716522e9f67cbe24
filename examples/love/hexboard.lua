-- The hex board of the demo (H), with no drawing: a board of the module made by
-- astar.newHex in one of its four layouts (L cycles them), walls, water and terrain
-- costs, one unit with its movement range (grid:movementRange counts hex steps) and
-- a findPath from the unit to a target tile. hexview.lua draws it.
local astar = require "astar"
require "astar.tactics"   -- grid:movementRange

local HexBoard = {}
HexBoard.__index = HexBoard

HexBoard.LAYOUTS = { "odd-r", "even-r", "odd-q", "even-q" }

-- The letters of board.lua: '.' grass, 'f' forest (2), 'm' mountain (3), '~' water
-- and '#' wall (the unit enters neither). A river with one ford (row 6) and a wall.
local MAP = {
  "..ff.....~.....",
  "..fff....~..mm.",
  "...f..#..~...m.",
  "......#..~.....",
  "..mm..#..~..f..",
  "..m...#......f.",
  "......#..~..ff.",
  "...f.....~.....",
  "..fff....~..m..",
  "...f..###~..mm.",
  ".........~.....",
  "..mm.....~..f..",
}

HexBoard.UNIT = { name = "Knight", letter = "K", x = 4, y = 7, move = 4 }
HexBoard.TARGET = { x = 13, y = 4 }

-- terrain: the letters' table (Board.TERRAIN)
function HexBoard.new(terrain, layout)
  local self = setmetatable({}, HexBoard)
  self.height, self.width = #MAP, #MAP[1]
  self.tiles = {}
  for y = 1, self.height do
    for x = 1, self.width do
      self.tiles[(y - 1) * self.width + x] = terrain[MAP[y]:sub(x, x)]
    end
  end
  local u = HexBoard.UNIT
  self.unit = { name = u.name, letter = u.letter, x = u.x, y = u.y, move = u.move }
  self.target = { x = HexBoard.TARGET.x, y = HexBoard.TARGET.y }
  self:setLayout(layout or "odd-r")
  return self
end

function HexBoard:tile(x, y)
  return self.tiles[(y - 1) * self.width + x]
end

function HexBoard:inside(x, y)
  return x >= 1 and x <= self.width and y >= 1 and y <= self.height
end

-- A grid of the module in `layout` with the map's walls and costs; shape
-- "square" makes the same map on a square grid (the probes compare the two).
function HexBoard:makeGrid(shape, layout)
  local grid = shape == "square" and astar.new(self.width, self.height)
    or astar.newHex(self.width, self.height, layout)
  for y = 1, self.height do
    for x = 1, self.width do
      local t = self:tile(x, y)
      if t.wall or t.water then
        grid:setWalkable(x, y, false)
      else
        grid:setCost(x, y, t.cost)
      end
    end
  end
  return grid
end

function HexBoard:setLayout(layout)
  self.layout = layout
  self.grid = self:makeGrid("hex", layout)
  self:refresh()
end

function HexBoard:cycleLayout()
  for i, l in ipairs(HexBoard.LAYOUTS) do
    if l == self.layout then
      return self:setLayout(HexBoard.LAYOUTS[i % #HexBoard.LAYOUTS + 1])
    end
  end
end

-- The unit's range and the path to the target.
function HexBoard:refresh()
  local u, t = self.unit, self.target
  self.range = self.grid:movementRange(u.x, u.y, u.move)
  local path, cost = self.grid:findPath(u.x, u.y, t.x, t.y)
  self.path = path
  self.cost = path and cost or nil
  self.reason = not path and cost or nil
end

local function open(self, x, y)
  return self:inside(x, y) and self.grid:isWalkable(x, y)
end

-- click: the path's target
function HexBoard:setTarget(x, y)
  if not open(self, x, y) then return end
  self.target = { x = x, y = y }
  self:refresh()
end

-- right click: the unit stands there
function HexBoard:setUnit(x, y)
  if not open(self, x, y) then return end
  self.unit.x, self.unit.y = x, y
  self:refresh()
end

return HexBoard
