-- Directions across queries (issue 21, item 6; README, Tactics): findPath,
-- newSearch and distanceMap follow the grid's diagonal mode, the tactics move
-- in 4 directions unless opts.diagonal says otherwise, and range:getDiagonal()
-- says which mode a range ran with. A hex board has no diagonal moves:
-- "never" is accepted wherever a diagonal mode is (it changes nothing), and
-- any other mode is an error. Answers are checked against the independent
-- references (spec/helpers/tactics_reference.lua, hex_reference.lua).
local astar = require "astar"
local tactics = require "astar.tactics"
local ref = require "helpers.tactics_reference"
local HR = require "helpers.hex_reference"
local check_error = require("helpers.errors").check_error

local MODES = { "never", "always", "one-obstacle", "no-obstacles" }
local INF = math.huge

local function close(a, b) return math.abs(a - b) <= 1e-9 * math.max(1, math.abs(b)) end

-- A square board: walls '#', costs 2 and 3; its map for the reference.
local TEXT = "......\n.#.2..\n..#...\n.3..#.\n......"
local function board()
  local grid = astar.fromString(TEXT)
  local map = { w = 6, h = 5, wall = {}, cost = {} }
  local y = 0
  for line in TEXT:gmatch("[^\n]+") do
    y = y + 1
    map.wall[y], map.cost[y] = {}, {}
    for x = 1, #line do
      local c = line:sub(x, x)
      if c == "#" then map.wall[y][x] = true elseif c ~= "." then map.cost[y][x] = tonumber(c) end
    end
  end
  return grid, map
end

-- A range's stop cells as "x,y" -> cost, and the reference's.
local function rangeCells(range)
  local t = {}
  for _, c in ipairs(range:cells()) do t[c.x .. "," .. c.y] = c.cost end
  return t
end
local function referenceCells(map, sx, sy, move, mode)
  local dist, stop = ref.movement(map, sx, sy, move, nil, mode)
  local t = {}
  for y = 1, map.h do
    for x = 1, map.w do
      if stop[y][x] then t[x .. "," .. y] = dist[y][x] end
    end
  end
  return t
end
local function assertSameCells(want, got)
  for k, cost in pairs(want) do
    assert(got[k] and close(got[k], cost), ("cell %s: %s, reference %s"):format(k, tostring(got[k]), cost))
  end
  for k in pairs(got) do assert(want[k], "cell " .. k .. " is not in the reference") end
end

describe("directions: the grid's mode and the tactics", function()
  it("findPath and distanceMap follow setDiagonal, movementRange moves in 4 directions and says so", function()
    local grid, map = board()
    grid:setDiagonal("always")
    local dist8 = ref.movement(map, 1, 1, INF, nil, "always")
    local _, cost = grid:findPath(1, 1, 6, 5)
    assert.is_true(close(cost, dist8[5][6]))
    -- a map's value is the walk from the cell to the source: the reverse search
    local back8 = ref.movement(map, 6, 5, INF, nil, "always")
    assert.is_true(close(grid:distanceMap({ { x = 1, y = 1 } }):get(6, 5), back8[1][1]))

    local range = grid:movementRange(1, 1, 4)
    assert.are.equal("never", range:getDiagonal())
    assertSameCells(referenceCells(map, 1, 1, 4, "never"), rangeCells(range))
    -- the grid's mode, asked for
    local range8 = grid:movementRange(1, 1, 4, { diagonal = grid:getDiagonal() })
    assert.are.equal("always", range8:getDiagonal())
    assertSameCells(referenceCells(map, 1, 1, 4, "always"), rangeCells(range8))
  end)

  it("range:getDiagonal gives the mode of opts.diagonal, whatever the grid's, on every size", function()
    local grid, map = board()
    for _, gridMode in ipairs(MODES) do
      grid:setDiagonal(gridMode)
      assert.are.equal("never", grid:movementRange(4, 5, 3):getDiagonal())
      assert.are.equal("never", grid:movementRange(4, 5, 3, { size = 2 }):getDiagonal())
      for _, mode in ipairs(MODES) do
        local range = grid:movementRange(4, 5, 3, { diagonal = mode })
        assert.are.equal(mode, range:getDiagonal())
        assertSameCells(referenceCells(map, 4, 5, 3, mode), rangeCells(range))
        assert.are.equal(mode, grid:movementRange(1, 1, 3, { diagonal = mode, size = 2 }):getDiagonal())
        assert.are.equal(mode, tactics.movementRange(grid, 6, 1, 0, { diagonal = mode }):getDiagonal())
      end
    end
  end)

  it("range:getDiagonal is 'never' on a hex board", function()
    local grid = astar.newHex(5, 4, "even-q")
    grid:setCost(3, 2, 2)
    grid:setWalkable(2, 3, false)
    local b = { layout = "even-q", w = 5, h = 4, open = {}, cost = {} }
    for k = 1, 20 do b.open[k], b.cost[k] = k ~= HR.cell(5, 2, 3), k == HR.cell(5, 3, 2) and 2 or 1 end
    local want = HR.dijkstra(b, 2, 2, function(x, y) return b.cost[HR.cell(5, x, y)] end, 3)
    for _, opts in ipairs({ {}, { diagonal = "never" } }) do
      local range = grid:movementRange(2, 2, 3, opts)
      assert.are.equal("never", range:getDiagonal())
      local got = {}
      for _, c in ipairs(range:cells()) do got[HR.cell(5, c.x, c.y)] = c.cost end
      for k, d in pairs(want) do assert.is_true(close(got[k], d)) end
      for k in pairs(got) do assert.is_not_nil(want[k]) end
    end
  end)

  it("checks its self", function()
    local range = astar.new(3, 3):movementRange(1, 1, 1)
    check_error("calling 'getDiagonal' on bad self (astar.Range expected, got number)", range.getDiagonal, 1)
    check_error("calling 'getDiagonal' on bad self (astar.Range expected, got no value)", range.getDiagonal)
    check_error("calling 'getDiagonal' on bad self (astar.Range expected, got table)", range.getDiagonal, {})
  end)
end)

describe("directions: 'never' on a hex board", function()
  -- the same board in two copies: one queried with the option, one without
  local function hexBoard()
    local g = astar.newHex(6, 5, "odd-r")
    g:setCost(3, 3, 4)
    g:setWalkable(4, 2, false)
    g:setWalkable(2, 4, false)
    return g
  end
  local ENEMIES = { { x = 6, y = 5, move = 2, minRange = 1, maxRange = 2 }, { x = 1, y = 5, move = 1,
    minRange = 2, maxRange = 2 } }
  local function pathText(path)
    local t = {}
    for i, p in ipairs(path) do t[i] = p.x .. "," .. p.y end
    return table.concat(t, " ")
  end

  it("setDiagonal('never') changes nothing, and getDiagonal says 'never'", function()
    local g = hexBoard()
    local before = g:encode()
    assert.are.equal("never", g:getDiagonal())
    g:setDiagonal("never")
    assert.are.equal("never", g:getDiagonal())
    assert.are.equal(before, g:encode())
    assert.are.equal("never", astar.decode(before):getDiagonal())
  end)

  it("findPath, newSearch, distanceMap and the tactics give the answers they give without it", function()
    local g, never = hexBoard(), { diagonal = "never" }
    local path, cost = g:findPath(1, 1, 6, 5)
    local path2, cost2 = g:findPath(1, 1, 6, 5, never)
    assert.are.equal(pathText(path), pathText(path2))
    assert.are.equal(cost, cost2)
    local goals = { { x = 6, y = 1 }, { x = 5, y = 5 } }
    local gpath, gcost = g:findPath(1, 1, goals)
    local gpath2, gcost2 = g:findPath(1, 1, goals, never)
    assert.are.equal(pathText(gpath), pathText(gpath2))
    assert.are.equal(gcost, gcost2)

    local s = g:newSearch(1, 1, 6, 5, never)
    assert.are.equal("found", s:step(math.huge))
    local spath, scost = s:result()
    assert.are.equal(pathText(path), pathText(spath))
    assert.are.equal(cost, scost)

    local sources = { { x = 3, y = 1 }, { x = 6, y = 4, value = 1 } }
    assert.are.equal(g:distanceMap(sources):encode(), g:distanceMap(sources, never):encode())

    local r, r2 = g:movementRange(2, 2, 5), g:movementRange(2, 2, 5, never)
    assert.are.same(r:cells(), r2:cells())
    assert.are.equal(tostring(r), tostring(r2))

    local zone = g:dangerZone(ENEMIES):cells()
    assert.are.same(zone, g:dangerZone(ENEMIES, never):cells())
    local own = { { x = 6, y = 5, move = 2, minRange = 1, maxRange = 2, diagonal = "never" }, ENEMIES[2] }
    assert.are.same(zone, tactics.dangerZone(g, own):cells())
  end)

  it("lets one options table serve a square board and a hex board", function()
    local opts = { diagonal = "never", blocked = { { x = 2, y = 1 } } }
    local square, hex = astar.new(4, 3), astar.newHex(4, 3)
    for _, g in ipairs({ square, hex }) do
      local range = g:movementRange(1, 1, 2, opts)
      assert.are.equal("never", range:getDiagonal())
      assert.is_false(range:contains(2, 1))
      assert.is_not_nil(g:findPath(1, 1, 4, 3, opts))
      assert.is_not_nil(g:distanceMap({ { x = 4, y = 3 } }, opts):get(1, 1))
      assert.are.equal(0, g:dangerZone({}, opts):size())
    end
  end)
end)

describe("directions: the other modes on a hex board", function()
  local g = astar.newHex(4, 4)
  local function hexError(mode)
    return ("diagonal mode '%s' is not supported on hex grids; expected never"):format(mode)
  end

  it("are an error at every entry point, naming the mode", function()
    local enemy = { x = 1, y = 1, move = 1, minRange = 1, maxRange = 1 }
    for i = 2, #MODES do
      local mode, o = MODES[i], { diagonal = MODES[i] }
      local msg = "opts.diagonal: " .. hexError(mode)
      check_error("bad argument #1 to 'setDiagonal' (" .. hexError(mode) .. ")", g.setDiagonal, g, mode)
      check_error("bad argument #5 to 'findPath' (" .. msg .. ")", g.findPath, g, 1, 1, 4, 4, o)
      check_error("bad argument #4 to 'findPath' (" .. msg .. ")", g.findPath, g, 1, 1, { { x = 4, y = 4 } }, o)
      check_error("bad argument #5 to 'newSearch' (" .. msg .. ")", g.newSearch, g, 1, 1, 4, 4, o)
      check_error("bad argument #2 to 'distanceMap' (" .. msg .. ")", g.distanceMap, g, { { x = 1, y = 1 } }, o)
      check_error("bad argument #4 to 'movementRange' (" .. msg .. ")", g.movementRange, g, 1, 1, 3, o)
      check_error("bad argument #4 to 'movementRange' (" .. msg .. ")", tactics.movementRange, g, 1, 1, 3, o)
      check_error("bad argument #2 to 'dangerZone' (" .. msg .. ")", g.dangerZone, g, {}, o)
      local own = { x = 1, y = 1, move = 1, minRange = 1, maxRange = 1, diagonal = mode }
      check_error("bad argument #1 to 'dangerZone' (enemies[2].diagonal: " .. hexError(mode) .. ")",
        g.dangerZone, g, { enemy, own })
    end
    assert.are.equal("never", g:getDiagonal())   -- the refused calls changed nothing
  end)

  it("check the name and the type first, as on a square board", function()
    check_error("bad argument #1 to 'setDiagonal' (unknown diagonal mode 'diagonal'; "
      .. "expected never, always, one-obstacle or no-obstacles)", g.setDiagonal, g, "diagonal")
    check_error("bad argument #1 to 'setDiagonal' (string expected, got no value)", g.setDiagonal, g)
    check_error("bad argument #1 to 'setDiagonal' (string expected, got boolean)", g.setDiagonal, g, false)
    check_error("bad argument #5 to 'findPath' (opts.diagonal: string expected, got number)",
      g.findPath, g, 1, 1, 4, 4, { diagonal = 8 })
    check_error("bad argument #4 to 'movementRange' (opts.diagonal: unknown diagonal mode 'Never'; "
      .. "expected never, always, one-obstacle or no-obstacles)", g.movementRange, g, 1, 1, 3, { diagonal = "Never" })
    check_error("bad argument #2 to 'dangerZone' (opts.diagonal: string expected, got table)",
      g.dangerZone, g, {}, { diagonal = {} })
  end)
end)
