-- The tactics methods without require "astar.tactics" (issue 21, item 7):
-- g:movementRange was "attempt to call a nil value". Every Grid has
-- movementRange, attackRange, dangerZone and lineOfSight from the start; the
-- first call loads astar.tactics and answers as its functions do, errors
-- included.

local TR = require "helpers.tactics_reference"
local check_error = require("helpers.errors").check_error

local METHODS = { "movementRange", "attackRange", "dangerZone", "lineOfSight" }

-- A state as a game's that never required astar.tactics: the module loaded
-- again, the methods that an earlier require put on the Grid table taken off.
local function fresh_astar()
  local before = package.loaded.astar
  if before then
    for _, name in ipairs(METHODS) do before.Grid[name] = nil end
  end
  package.loaded["astar.tactics"] = nil
  package.loaded.astar = nil
  return require "astar"
end

local BOARD = [[
.......
..#2...
..#....
.....#.]]

local function reference_map()
  local map = { w = 7, h = 4, wall = {}, cost = {} }
  local y = 0
  for line in BOARD:gmatch("[^\n]+") do
    y = y + 1
    map.wall[y], map.cost[y] = {}, {}
    for x = 1, #line do
      local c = line:sub(x, x)
      if c == "#" then map.wall[y][x] = true else map.cost[y][x] = tonumber(c) or 1 end
    end
  end
  return map
end

describe("the tactics methods without require 'astar.tactics'", function()
  it("are on every grid, square and hex, before astar.tactics is loaded", function()
    local astar = fresh_astar()
    assert.is_nil(package.loaded["astar.tactics"])
    for _, grid in ipairs({ astar.new(4, 4), astar.newHex(4, 4) }) do
      for _, name in ipairs(METHODS) do
        assert.are.equal("function", type(grid[name]), name)
      end
    end
    assert.is_nil(package.loaded["astar.tactics"])   -- looking does not load it
  end)

  it("load it at the first call and answer as its functions do", function()
    local astar = fresh_astar()
    local grid = astar.fromString(BOARD)
    local range = grid:movementRange(1, 1, 4)
    local tactics = package.loaded["astar.tactics"]
    assert.are.equal("table", type(tactics))
    for _, name in ipairs(METHODS) do   -- the real ones took their places
      assert.are.equal(tactics[name], astar.Grid[name], name)
    end
    -- the range is the reference's
    local dist = TR.movement(reference_map(), 1, 1, 4)
    local n = 0
    for y = 1, 4 do
      for x = 1, 7 do
        if dist[y][x] then
          n = n + 1
          assert.are.equal(dist[y][x], range:costTo(x, y))
        end
      end
    end
    assert.are.equal(n, range:size())
    assert.are.same(tactics.movementRange(grid, 1, 1, 4):cells(), range:cells())
  end)

  it("answer each as the tactics function, whichever comes first", function()
    local calls = {
      attackRange = function(g) return g:attackRange(g:movementRange(1, 1, 2), 1, 2):cells() end,
      dangerZone = function(g)
        return g:dangerZone({ { x = 7, y = 4, move = 2, minRange = 1, maxRange = 1 } }):cells()
      end,
      lineOfSight = function(g) return { g:lineOfSight(1, 2, 5, 2), g:lineOfSight(1, 1, 7, 1) } end,
      movementRange = function(g) return g:movementRange(4, 3, 3, { diagonal = "always" }):cells() end,
    }
    for _, name in ipairs(METHODS) do
      local astar = fresh_astar()
      local first = calls[name](astar.fromString(BOARD))   -- the first call, through the stand-in
      assert.are.same(calls[name](astar.fromString(BOARD)), first, name)
    end
    assert.are.same({ false, true }, calls.lineOfSight(fresh_astar().fromString(BOARD)))
  end)

  it("give the tactics functions' errors at the first call", function()
    local astar = fresh_astar()
    local grid = astar.fromString(BOARD)
    check_error("bad argument #1 to 'movementRange' (x out of range 1..7)", grid.movementRange, grid, 9, 1, 3)
    astar = fresh_astar()
    check_error("calling 'dangerZone' on bad self (astar.Grid expected, got number)", astar.Grid.dangerZone, 5, {})
    astar = fresh_astar()
    grid = astar.fromString(BOARD)
    check_error("bad argument #4 to 'lineOfSight' (y2 out of range 1..4)", grid.lineOfSight, grid, 1, 1, 1, 5)
  end)
end)
