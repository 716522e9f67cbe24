-- Large units and their friends (issue 21, item 3; README "Large units",
-- "Units on the board", tactics.cellSet): a unit of size k may pass over an
-- occupied cell but never stop with any cell of its k x k square on one
-- (movementRange, findPath, newSearch, dangerZone); every list of units reads
-- {x =, y = [, size =]} as the size x size cells from (x, y) (the rules'
-- lists and tactics.cellSet); zoc = {around = units} is the cells next to
-- each unit's square under the query's moves. Exact cell sets against the
-- independent references (helpers/large_range_reference.lua,
-- large_reference.lua, hex_reference.lua) and a plain geometric one below.
-- Small boards only: well under a second per backend.
local astar = require "astar"
local tactics = require "astar.tactics"
local L = require "helpers.large_reference"
local LR = require "helpers.large_range_reference"
local HR = require "helpers.hex_reference"

local INF = math.huge

-- The cells a list of units covers, by cell number (the reference reading).
local function covered(w, units)
  local set = {}
  for _, u in ipairs(units) do
    local k = u.size or 1
    for y = u.y, u.y + k - 1 do
      for x = u.x, u.x + k - 1 do set[(y - 1) * w + x] = true end
    end
  end
  return set
end

-- The cells next to the units' squares: outside a square, one step from it
-- by the query's moves (4 directions: sharing a side; 8: a side or a corner).
local function around(w, h, units, diagonal)
  local set = {}
  for _, u in ipairs(units) do
    local k = u.size or 1
    for y = 1, h do
      for x = 1, w do
        local dx = math.max(u.x - x, 0, x - (u.x + k - 1))
        local dy = math.max(u.y - y, 0, y - (u.y + k - 1))
        if (diagonal and math.max(dx, dy) == 1) or (not diagonal and dx + dy == 1) then
          set[(y - 1) * w + x] = true
        end
      end
    end
  end
  return set
end

local function member(set, w) return function(x, y) return set[(y - 1) * w + x] == true end end

local function same_set(want, got)
  for k in pairs(want) do assert(got[k] == true, "missing cell number " .. k) end
  for k, v in pairs(got) do assert(want[k] and v == true, "extra cell number " .. k) end
end

-- A board for the references, on an open w x h grid with the given rules.
local function board(w, h, k, diagonal, rules)
  return { w = w, h = h, k = k, diagonal = diagonal,
    value = function(x, y) return rules.blocked and rules.blocked(x, y) and INF or 1 end,
    occupied = rules.occupied, zoc = rules.zoc }
end

-- Range r is the reference's: costs of every position, and stops.
local function check_range(r, b, sx, sy, move)
  local cost, stop = LR.range(b, sx, sy, move)
  local stops = 0
  for y = 1, b.h do
    for x = 1, b.w do
      local want = cost[y][x]
      local got = r:costTo(x, y)
      if want == nil then
        assert(got == nil, ("(%d,%d) reached at %s"):format(x, y, tostring(got)))
      else
        assert(got ~= nil and math.abs(got - want) < 1e-9,
          ("(%d,%d) costs %s, the reference %s"):format(x, y, tostring(got), want))
      end
      assert(r:contains(x, y) == (stop[y][x] == true), ("contains(%d,%d)"):format(x, y))
      if stop[y][x] then stops = stops + 1 end
    end
  end
  assert.equal(stops, r:size())
end

describe("occupied and a large unit's square", function()
  it("never lets a 2x2 unit stop on an ally, on any cell of it (the issue's case)", function()
    local grid = astar.new(6, 6)
    local opts = { size = 2, occupied = { { x = 2, y = 3 } } }
    local r = grid:movementRange(1, 1, 4, opts)
    -- every position whose square holds (2, 3): (1..2, 2..3)
    for _, p in ipairs { { 1, 2 }, { 2, 2 }, { 1, 3 }, { 2, 3 } } do
      assert.is_false(r:contains(p[1], p[2]))
      assert.is_nil(r:pathTo(p[1], p[2]))
    end
    assert.equal(1, r:costTo(1, 2))                  -- crossed, not stopped on
    assert.is_true(r:contains(1, 4))                  -- beyond it: passed over
    assert.are.same({ { x = 1, y = 1 }, { x = 1, y = 2 }, { x = 1, y = 3 }, { x = 1, y = 4 } },
      r:pathTo(1, 4))
    check_range(r, board(6, 6, 2, "never", { occupied = member(covered(6, opts.occupied), 6) }), 1, 1, 4)
  end)

  it("agrees with the reference for sizes 1 to 3, occupied lists of units, every mode", function()
    local allies = { { x = 3, y = 2 }, { x = 5, y = 4, size = 2 }, { x = 2, y = 6 } }
    for k = 1, 3 do
      for _, mode in ipairs { "never", "always", "one-obstacle", "no-obstacles" } do
        local grid = astar.new(7, 7)
        local r = grid:movementRange(1, 1, 6.5, { size = k, diagonal = mode, occupied = allies })
        check_range(r, board(7, 7, k, mode, { occupied = member(covered(7, allies), 7) }), 1, 1, 6.5)
      end
    end
  end)

  it("keeps findPath and newSearch from ending on a position covering an ally", function()
    local grid = astar.new(6, 6)
    local ally = { { x = 2, y = 3 } }
    -- the goal position (1, 2) covers (2, 3): the goal is blocked
    assert.are.same({ nil, "goal is blocked" }, { grid:findPath(1, 1, 1, 2, { size = 2, occupied = ally }) })
    local s = grid:newSearch(1, 1, 1, 2, { size = 2, occupied = ally })
    assert.equal("unreachable", s:step(math.huge))
    assert.are.same({ nil, "goal is blocked" }, { s:result() })
    -- a stepped search through the ally ends beyond it, at the reference's cost
    s = grid:newSearch(1, 1, 1, 4, { size = 2, occupied = ally, diagonal = "never" })
    assert.equal("found", s:step(math.huge))
    assert.equal(3, select(2, s:result()))
    -- near = 1 of (1, 3): the cheapest position within it covering no ally
    local b = board(6, 6, 2, "never", { occupied = member(covered(6, ally), 6) })
    local path, cost = grid:findPath(1, 1, 1, 3, { size = 2, near = 1, occupied = ally, diagonal = "never" })
    assert.equal(L.cost(b, 1, 1, { { 1, 3 } }, 1), cost)
    local last = path[#path]
    assert.is_false(L.covers_occupied(b, last.x, last.y))
    -- a path through it to beyond costs what the reference says
    path, cost = grid:findPath(1, 1, 1, 5, { size = 2, occupied = ally, diagonal = "never" })
    assert.equal(L.cost(b, 1, 1, { { 1, 5 } }, 0), cost)
    assert.equal(5, path[#path].y)
    -- partial: the closest position reached that covers no ally
    path = grid:findPath(1, 1, 1, 5, { size = 2, occupied = ally, diagonal = "never", maxCost = 2,
      partial = true })
    last = path[#path]
    assert.are.same({ 1, 1 }, { last.x, last.y })
  end)

  it("keeps every enemy of a danger zone from stopping on an ally", function()
    local grid = astar.new(7, 5)
    local allies = { { x = 3, y = 1, size = 2 } }
    local zone = grid:dangerZone({ { x = 1, y = 1, move = 2, minRange = 1, maxRange = 1, size = 2 } },
      { occupied = allies })
    local b = board(7, 5, 2, "never", { occupied = member(covered(7, allies), 7) })
    local count = LR.danger(7, 5, { { board = b, x = 1, y = 1, move = 2, lo = 1, hi = 1 } })
    for y = 1, 5 do
      for x = 1, 7 do assert.equal(count[y][x] or 0, zone:count(x, y), ("(%d,%d)"):format(x, y)) end
    end
  end)
end)

describe("lists of units read size the same way everywhere", function()
  it("gives tactics.cellSet every cell of a unit's square", function()
    local grid = astar.new(5, 4)
    local units = { { x = 2, y = 1, size = 2 }, { x = 5, y = 4 }, { x = 1, y = 2, size = 3 } }
    same_set(covered(5, units), tactics.cellSet(grid, units))
    assert.equal(4, #(function() local l = {} for k in pairs(tactics.cellSet(grid, { units[1] })) do
      l[#l + 1] = k end return l end)())
  end)

  it("blocks, prices and occupies the same cells from a list, a cellSet and a function", function()
    local units = { { x = 3, y = 2, size = 2 }, { x = 6, y = 5 } }
    local grid = astar.new(7, 6)
    local set = covered(7, units)
    for _, name in ipairs { "blocked", "occupied" } do
      for k = 1, 2 do
        local want = board(7, 6, k, "never", { [name] = member(set, 7) })
        check_range(grid:movementRange(1, 1, 8.5, { size = k, [name] = units }), want, 1, 1, 8.5)
        check_range(grid:movementRange(1, 1, 8.5, { size = k, [name] = tactics.cellSet(grid, units) }),
          want, 1, 1, 8.5)
      end
    end
    -- a cost list: each point's cost on every cell of its square
    local r = grid:movementRange(1, 1, 20, { cost = { { x = 2, y = 1, size = 2, cost = 3 } } })
    assert.equal(3, r:costTo(2, 1))
    assert.equal(4, r:costTo(2, 2))
    assert.equal(6, r:costTo(3, 1))
    assert.equal(2, r:costTo(1, 3))
    -- findPath: a blocked unit of size 2 walls its four cells
    local wall = { { x = 2, y = 1, size = 2 }, { x = 2, y = 3, size = 2 } }
    local _, cost = grid:findPath(1, 2, 5, 2, { blocked = wall, diagonal = "never" })
    assert.equal(10, cost)
    assert.equal(L.cost(board(7, 6, 1, "never", { blocked = member(covered(7, wall), 7) }), 1, 2,
      { { 5, 2 } }), cost)
  end)
end)

describe("zoc = {around = units}", function()
  it("is the cells next to each unit's square: sides in 4 directions, corners too in 8", function()
    local units = { { x = 3, y = 2, size = 2 }, { x = 7, y = 6 } }
    for k = 1, 2 do
      for _, mode in ipairs { "never", "always", "one-obstacle" } do
        local grid = astar.new(8, 7)
        local zoc = around(8, 7, units, mode ~= "never")
        local r = grid:movementRange(1, 1, 9.5, { size = k, diagonal = mode, zoc = { around = units } })
        check_range(r, board(8, 7, k, mode, { zoc = member(zoc, 8) }), 1, 1, 9.5)
      end
    end
  end)

  it("marks exactly the sides of a 2x2 unit, and the corners with diagonals", function()
    local grid = astar.new(5, 5)
    -- a unit of size 2 on (2, 2): entering any cell next to it ends the move
    local r = grid:movementRange(1, 1, 10, { zoc = { around = { { x = 2, y = 2, size = 2 } } },
      blocked = { { x = 2, y = 2, size = 2 } } })
    -- (2, 1) and (1, 2) end the move; (1, 1) is the start: the rest is cut off
    local cells = {}
    for _, c in ipairs(r:cells()) do cells[#cells + 1] = c.x .. "," .. c.y end
    assert.are.same({ "1,1", "2,1", "1,2" }, cells)
    r = grid:movementRange(1, 1, 10, { diagonal = "always", zoc = { around = { { x = 3, y = 3 } } } })
    -- the corner (2, 2) ends the move now
    assert.equal(math.sqrt(2), r:costTo(2, 2))
    assert.is_nil(r:costTo(3, 3))
  end)

  it("is a cell's six neighbours on a hex board", function()
    for _, layout in ipairs(HR.LAYOUTS) do
      local grid = astar.newHex(6, 6, layout)
      local zoc = {}
      for _, n in ipairs(HR.neighbours(layout, 6, 6, 4, 3)) do zoc[(n[2] - 1) * 6 + n[1]] = true end
      local given = grid:movementRange(1, 1, 12, { zoc = { around = { { x = 4, y = 3 } } } })
      local asked = grid:movementRange(1, 1, 12, { zoc = member(zoc, 6) })
      assert.are.same(asked:cells(), given:cells())
      assert.is_true(given:size() < 36)
    end
  end)

  it("works for each enemy of a danger zone", function()
    local grid = astar.new(7, 5)
    local players = { { x = 4, y = 3 } }
    local zone = grid:dangerZone({ { x = 1, y = 3, move = 4, minRange = 1, maxRange = 1,
      zoc = { around = players } } }, { blocked = players })
    local b = board(7, 5, 1, "never", { blocked = member(covered(7, players), 7),
      zoc = member(around(7, 5, players, false), 7) })
    local count = LR.danger(7, 5, { { board = b, x = 1, y = 3, move = 4, lo = 1, hi = 1 } })
    for y = 1, 5 do
      for x = 1, 7 do assert.equal(count[y][x] or 0, zone:count(x, y), ("(%d,%d)"):format(x, y)) end
    end
  end)
end)
