-- make demo: find paths on a bundled valley and on a real game map, and
-- draw them in the terminal.
local astar = require "astar"

local function readFile(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  return text
end

-- Draws the grid: # wall, . open, 2-9 terrain cost, = road, o path, S and G.
local function draw(grid, path)
  local marks = {}
  for i, p in ipairs(path or {}) do
    marks[p.y * 65536 + p.x] = (i == 1 and "S") or (i == #path and "G") or "o"
  end
  local width, height = grid:getDimensions()
  for y = 1, height do
    local row = {}
    for x = 1, width do
      local cost = grid:getCost(x, y)
      row[x] = marks[y * 65536 + x]
        or (not grid:isWalkable(x, y) and "#")
        or (cost < 1 and "=")
        or (cost > 1 and tostring(math.floor(cost)))
        or "."
    end
    print(table.concat(row))
  end
end

-- 1. A valley with forest (2), hills (3) and a river (9) crossed by a road.
local valley = astar.fromString(assert(readFile("examples/maps/valley.txt")))
for x = 1, 46 do valley:setCost(x, 8, 0.5) end      -- a road: cheaper than grass
local path, cost = valley:findPath(1, 1, 46, 17)
print(("Valley %dx%d, 8 directions without corner cutting, octile heuristic:")
  :format(valley:getDimensions()))
draw(valley, path)
print(("path of %d cells, cost %.4f, %d nodes expanded\n")
  :format(#path, cost, valley:getSearchStats().expanded))

local fourWay = valley:findPath(1, 1, 46, 17, { diagonal = "never" })
print(("The same in 4 directions: %d cells.\n"):format(#fourWay))

-- 2. A real map: Dragon Age: Origins' den312d from the Moving AI benchmarks
-- (N. Sturtevant, "Benchmarks for Grid-Based Pathfinding", 2012).
-- The repository's maps/ folder, or $ASTAR_MAPS.
local maps = os.getenv("ASTAR_MAPS")
if maps == nil or maps == "" then maps = "maps" end
local text = readFile(maps .. "/den312d.map")
if not text then
  error("cannot read " .. maps .. "/den312d.map: run from the repository root"
    .. " (make demo), or set ASTAR_MAPS to a folder of Moving AI maps", 0)
end
local den = astar.fromMovingAI(text)
local scenarios = assert(readFile(maps .. "/den312d-random-1.scen"))
-- The longest scenario: columns bucket map w h sx sy gx gy optimal, 0-based.
local best
for line in scenarios:gmatch("[^\n]+") do
  local sx, sy, gx, gy, optimal =
    line:match("^%d+\t%S+\t%d+\t%d+\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t([%d%.]+)")
  if sx and (not best or tonumber(optimal) > best.optimal) then
    best = { sx = sx + 1, sy = sy + 1, gx = gx + 1, gy = gy + 1, optimal = tonumber(optimal) }
  end
end
local denPath, denCost = den:findPath(best.sx, best.sy, best.gx, best.gy)
print(("den312d (%dx%d), the longest benchmark scenario:"):format(den:getDimensions()))
draw(den, denPath)
print(("cost %.8f, benchmark optimum %.8f, %d nodes expanded")
  :format(denCost, best.optimal, den:getSearchStats().expanded))
