-- A turn of a tactics game in the terminal: where the knight can move, what
-- the archer can shoot after moving, the path to a clicked tile, and which
-- tiles the enemies threaten.
--
--   make example-tactics
--   (or: LUA_PATH="lua/?.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 examples/tactics.lua)
local astar = require "astar"
local tactics = require "astar.tactics"

-- '#' wall, '2' forest, '3' mountain; K knight, R archer (ours), e enemies
local board = {
  "..........##....",
  "..22......##..e.",
  "..22...3......e.",
  ".K.....33.......",
  "....R...3...22..",
  "..#####.....22..",
  "......#...e.....",
  "......#.........",
}
local rows = {}
local units = {}
for y, line in ipairs(board) do
  rows[y] = line:gsub("[KRe]", function(c)
    units[#units + 1] = { kind = c, x = line:find(c, 1, true), y = y }
    line = line:gsub(c, ".", 1)
    return "."
  end)
end
local grid = astar.fromString(table.concat(rows, "\n"))
local W, H = grid:getDimensions()

local knight, archer, enemies, enemyCells, ourCells = nil, nil, {}, {}, {}
for _, u in ipairs(units) do
  if u.kind == "K" then knight = u elseif u.kind == "R" then archer = u end
  if u.kind == "e" then
    enemies[#enemies + 1] = { x = u.x, y = u.y, move = 4, minRange = 1, maxRange = 1 }
    enemyCells[#enemyCells + 1] = u
  else
    ourCells[#ourCells + 1] = u
  end
end
local enemySet = tactics.cellSet(grid, enemyCells)
local ourSet = tactics.cellSet(grid, ourCells)

-- Enemies block us; the cells next to them are their zone of control.
local function zoc(x, y)
  for _, e in ipairs(enemyCells) do
    if math.abs(e.x - x) + math.abs(e.y - y) == 1 then return true end
  end
  return false
end

local function draw(title, mark)
  print(title)
  for y = 1, H do
    local t = {}
    for x = 1, W do
      local c = mark(x, y)
      if not c then
        for _, u in ipairs(units) do
          if u.x == x and u.y == y then c = u.kind end
        end
      end
      t[x] = c or rows[y]:sub(x, x)
    end
    print("  " .. table.concat(t))
  end
  print()
end

-- 1. the knight: move 5, through the archer (an ally), stopped by enemy ZOC
local move = grid:movementRange(knight.x, knight.y, 5,
  { blocked = enemySet, occupied = ourSet, zoc = zoc })
draw("Knight (move 5): o = can end its move here", function(x, y)
  if move:contains(x, y) and not (x == knight.x and y == knight.y) then return "o" end
end)

-- 2. the path to a clicked tile, and its cost
local tx, ty = 6, 5
local path = move:pathTo(tx, ty)
local onPath = {}
for i, p in ipairs(path) do onPath[p.y * 100 + p.x] = i end
draw(("Path to (%d, %d), cost %g: * steps"):format(tx, ty, move:costTo(tx, ty)), function(x, y)
  if onPath[y * 100 + x] and not (x == knight.x and y == knight.y) then return "*" end
end)

-- 3. the archer: move 3, then shoot 2..3 tiles away, not through walls
local archerMove = grid:movementRange(archer.x, archer.y, 3,
  { blocked = enemySet, occupied = ourSet })
local shots = grid:attackRange(archerMove, 2, 3, { lineOfSight = true })
draw("Archer (move 3, bow 2..3, line of sight): o move, x shoot only", function(x, y)
  if archerMove:contains(x, y) then
    if not (x == archer.x and y == archer.y) then return "o" end
  elseif shots:contains(x, y) then
    return "x"
  end
end)

-- 4. the danger zone: how many enemies can hit each tile next turn
local danger = grid:dangerZone(enemies, { blocked = ourSet })
draw("Danger zone (enemies move 4, sword 1..1): digits = how many can hit", function(x, y)
  local n = danger:count(x, y)
  if n > 0 and rows[y]:sub(x, x) ~= "#" then return tostring(n) end
end)
