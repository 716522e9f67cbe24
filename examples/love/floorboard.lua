-- The building of the demo (G), with no drawing: moves and links (issue 19) on one
-- square grid. Two floors side by side, the ground floor on the left (x 1-8) and the
-- upper floor on the right (x 11-18), the two columns between them outside; stairs
-- (two one-way links: up costs 2, down 1) join them, thin walls stand on cell edges
-- (grid:setWallBetween) with a door that opens and shuts, and a raised platform on
-- the upper floor has a ledge a unit may drop down but not climb (grid:setMove ...
-- false, one way). One unit with its movement range (tactics.movementRange: through
-- the door, up the stairs, down the ledge) and range:pathTo to a tile.
-- floorview.lua draws it.
local astar = require "astar"
local tactics = require "astar.tactics"

local FloorBoard = {}
FloorBoard.__index = FloorBoard

-- '.' stone (ground floor), ',' floorboards (upper floor), 'p' the platform (upper
-- floor, raised), 'c' crates (cost 2), '#' a pillar, ' ' outside.
local MAP = {
  "cc......  ,,,,,,,,",
  "c.......  ,,,,,,,,",
  ".....#..  ,,,,,,,,",
  "........  ,,,,,,,,",
  "........  ,,,,,,,,",
  "........  ,,,,,,,,",
  ".....#..  ,,,,,,,,",
  "........  ,,,,,,,,",
  "........  ppp,,,,,",
  "........  ppp,,,,,",
  "........  ppp,,,,,",
  "........  ppp,,cc,",
  "........  ppp,,cc,",
}

FloorBoard.TERRAIN = {
  ["."] = { name = "stone floor", cost = 1 },
  [","] = { name = "floorboards", cost = 1 },
  p = { name = "platform", cost = 1 },
  c = { name = "crates", cost = 2 },
  ["#"] = { name = "pillar", wall = true },
  [" "] = { name = "outside", outside = true },
}

-- The floors: their columns (the view draws each as one block with its outer wall).
FloorBoard.FLOORS = {
  { name = "ground floor", x1 = 1, x2 = 8 },
  { name = "upper floor", x1 = 11, x2 = 18 },
}

-- Thin walls: { "E", x, y1, y2 } between column x and x + 1 on rows y1..y2,
-- { "S", y, x1, x2 } between row y and y + 1 on columns x1..x2.
local WALLS = {
  { "S", 7, 1, 4 },      -- the room of the unit (ground floor, bottom left): its top
  { "E", 4, 8, 13 },     -- and its right side, with the door (below) at y = 11
  { "S", 4, 1, 1 },      -- the store room (top left), open at x = 2
  { "S", 4, 3, 3 },
  { "E", 3, 1, 4 },
  { "S", 8, 12, 13 },    -- the platform's railing (at x = 11 it steps down to the floor)
  { "E", 14, 1, 5 },     -- the upper room (top right), open at x = 17
  { "S", 5, 15, 16 },
  { "S", 5, 18, 18 },
}

FloorBoard.DOOR = { x1 = 4, y1 = 11, x2 = 5, y2 = 11 }

-- The ledge: the platform's right side, between column x and x + 1 on rows y1..y2.
-- The drop x -> x + 1 stays, the climb x + 1 -> x is set false.
local LEDGE = { x = 13, y1 = 9, y2 = 13 }

-- The stairs: the ground floor's end, the upper floor's end, the cost up and down.
FloorBoard.STAIRS = { { low = { x = 8, y = 11 }, high = { x = 11, y = 11 }, up = 2, down = 1 } }

FloorBoard.UNIT = { name = "Knight", letter = "K", x = 2, y = 11, move = 12 }

function FloorBoard.new()
  local self = setmetatable({}, FloorBoard)
  self.height, self.width = #MAP, #MAP[1]
  self.tiles = {}
  for y = 1, self.height do
    for x = 1, self.width do
      self.tiles[(y - 1) * self.width + x] = FloorBoard.TERRAIN[MAP[y]:sub(x, x)]
    end
  end
  local u = FloorBoard.UNIT
  self.unit = { name = u.name, letter = u.letter, x = u.x, y = u.y, move = u.move }
  self.door = { x1 = FloorBoard.DOOR.x1, y1 = FloorBoard.DOOR.y1, x2 = FloorBoard.DOOR.x2,
    y2 = FloorBoard.DOOR.y2, open = true }
  self.grid = self:makeGrid()
  self:refresh()
  return self
end

function FloorBoard:tile(x, y)
  return self.tiles[(y - 1) * self.width + x]
end

function FloorBoard:inside(x, y)
  return x >= 1 and x <= self.width and y >= 1 and y <= self.height
end

-- The floor of column x, or nil outside.
function FloorBoard:floorOf(x)
  for _, f in ipairs(self.FLOORS) do
    if x >= f.x1 and x <= f.x2 then return f end
  end
end

-- A grid of the module with the building: costs, pillars and outside as walls, the
-- thin walls, the door, the ledge and the stairs. `without` leaves one thing out
-- ("stairs", or "ledge": then the ledge is a wall both ways; "door": shut) and
-- makes the grids the probes compare the range with.
function FloorBoard:makeGrid(without)
  local grid = astar.new(self.width, self.height)
  for y = 1, self.height do
    for x = 1, self.width do
      local t = self:tile(x, y)
      if t.wall or t.outside then
        grid:setWalkable(x, y, false)
      else
        grid:setCost(x, y, t.cost)
      end
    end
  end
  for _, w in ipairs(WALLS) do
    local at = w[2]
    for i = w[3], w[4] do
      if w[1] == "E" then
        grid:setWallBetween(at, i, at + 1, i, true)
      else
        grid:setWallBetween(i, at, i, at + 1, true)
      end
    end
  end
  local d = self.door
  grid:setWallBetween(d.x1, d.y1, d.x2, d.y2, without == "door" or not d.open)
  for y = LEDGE.y1, LEDGE.y2 do
    grid:setMove(LEDGE.x + 1, y, LEDGE.x, y, false)   -- no climbing
    if without == "ledge" then grid:setMove(LEDGE.x, y, LEDGE.x + 1, y, false) end
  end
  if without ~= "stairs" then
    for _, s in ipairs(FloorBoard.STAIRS) do
      grid:link(s.low.x, s.low.y, s.high.x, s.high.y, s.up, true)
      grid:link(s.high.x, s.high.y, s.low.x, s.low.y, s.down, true)
    end
  end
  return grid
end

-- The unit's range: 4 directions, the grid's moves and links.
function FloorBoard:refresh()
  local u = self.unit
  self.range = tactics.movementRange(self.grid, u.x, u.y, u.move, { diagonal = "never" })
end

-- The unit's range on a grid without one thing (makeGrid's `without`).
function FloorBoard:rangeWithout(without)
  local u = self.unit
  return tactics.movementRange(self:makeGrid(without), u.x, u.y, u.move, { diagonal = "never" })
end

-- The walk from the unit to (x, y) and its cost, when the unit can stop there.
function FloorBoard:pathTo(x, y)
  if not (self:inside(x, y) and self.range:contains(x, y)) then return nil end
  return self.range:pathTo(x, y), self.range:costTo(x, y)
end

-- O or a click on the door: a thin wall set and cleared on the live grid.
function FloorBoard:toggleDoor()
  local d = self.door
  d.open = not d.open
  self.grid:setWallBetween(d.x1, d.y1, d.x2, d.y2, not d.open)
  self:refresh()
end

-- + / -: the unit's movement points.
function FloorBoard:addMove(n)
  self.unit.move = math.max(0, math.min(40, self.unit.move + n))
  self:refresh()
end

-- click: the unit walks there, when it is in the range
function FloorBoard:moveUnit(x, y)
  if not (self:inside(x, y) and self.range:contains(x, y)) then return end
  self.unit.x, self.unit.y = x, y
  self:refresh()
end

-- right click: the unit stands there (any floor tile)
function FloorBoard:setUnit(x, y)
  if not (self:inside(x, y) and self.grid:isWalkable(x, y)) then return end
  self.unit.x, self.unit.y = x, y
  self:refresh()
end

return FloorBoard
