-- An empty table as a rule (issue 21, item 7): `cost = {}` read as a table by
-- cell number made every cell impassable. An empty table is no rule in either
-- form (an empty list of points): cost, blocked, occupied and zoc given as {}
-- change nothing in findPath, newSearch, movementRange, dangerZone and
-- distanceMap: the same answers as the query without them, exactly, and the
-- same work (the query runs as one without rules: jump point search included).

local astar = require "astar"
local tactics = require "astar.tactics"
local TR = require "helpers.tactics_reference"
local R = require "helpers.reference"

local pack = table.pack or function(...) return { n = select("#", ...), ... } end

local BOARD = [[
..........
..22..#...
..22..#.3.
......#...
.####.....
......33..
..........]]
local W, H = 10, 7

-- The board for the tactics reference: walls and costs by [y][x].
local function reference_map()
  local map = { w = W, h = H, wall = {}, cost = {} }
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

-- opts with each listed rule set to a new empty table
local function with_empty(opts, names)
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  for _, name in ipairs(names) do o[name] = {} end
  return o
end

local PATH_RULES = { { "cost" }, { "blocked" }, { "occupied" }, { "cost", "blocked", "occupied" } }
local RANGE_RULES = { { "cost" }, { "blocked" }, { "occupied" }, { "zoc" },
  { "cost", "blocked", "occupied", "zoc" } }

describe("an empty table as a rule", function()
  it("changes nothing in findPath: the same path, cost and work", function()
    local grid = astar.fromString(BOARD)
    local desc = R.parse_string_map(BOARD)
    for _, base in ipairs({ { diagonal = "never" }, { diagonal = "always", algorithm = "astar" },
      { diagonal = "no-obstacles" }, { near = 1 }, { maxCost = 6, partial = true } }) do
      local want = pack(grid:findPath(1, 1, 10, 7, base))
      local work = grid:getSearchStats()
      if not base.maxCost then
        local mode = base.diagonal or "no-obstacles"
        assert(R.close(R.dijkstra(desc, mode, 1, 1)[10][7] or -1, want[2] or -1) or base.near,
          "the plain query is not the reference's")
      end
      for _, names in ipairs(PATH_RULES) do
        local opts = with_empty(base, names)
        assert.are.same(want, pack(grid:findPath(1, 1, 10, 7, opts)), table.concat(names, "+"))
        assert.are.same(work, grid:getSearchStats(), table.concat(names, "+"))
      end
    end
    -- on a board of equal costs, jump point search runs as without it
    local open = astar.new(30, 30)
    open:setWalkable(15, 10, false)
    local want = pack(open:findPath(1, 1, 30, 30, { algorithm = "jps" }))
    assert.are.same(want, pack(open:findPath(1, 1, 30, 30, { algorithm = "jps", cost = {}, blocked = {} })))
  end)

  it("changes nothing in newSearch: the same steps and answer", function()
    local grid = astar.fromString(BOARD)
    local opts = { diagonal = "one-obstacle", algorithm = "astar" }
    local a = grid:newSearch(1, 1, 10, 7, opts)
    local b = grid:newSearch(1, 1, 10, 7, with_empty(opts, { "cost", "blocked", "occupied" }))
    local sa = "searching"
    while sa == "searching" do
      sa = a:step(3)
      assert.are.equal(sa, b:step(3))
      assert.are.same(a:getStats(), b:getStats())
    end
    assert.are.same(pack(a:result()), pack(b:result()))
    assert.are.same(pack(grid:findPath(1, 1, 10, 7, opts)), pack(b:result()))
  end)

  it("changes nothing in movementRange: the reference's cells and costs", function()
    local grid = astar.fromString(BOARD)
    local map = reference_map()
    for _, diagonal in ipairs({ "never", "always" }) do
      local dist = TR.movement(map, 2, 4, 5, nil, diagonal)
      for _, names in ipairs(RANGE_RULES) do
        local range = grid:movementRange(2, 4, 5, with_empty({ diagonal = diagonal }, names))
        local seen = 0
        for y = 1, H do
          for x = 1, W do
            local cost = dist[y][x]
            if cost and cost <= 5 then
              seen = seen + 1
              assert(range:contains(x, y), ("%d,%d missing (%s)"):format(x, y, table.concat(names, "+")))
              assert(R.close(cost, range:costTo(x, y)), ("%d,%d costs %s, not %s"):format(x, y,
                tostring(range:costTo(x, y)), tostring(cost)))
            else
              assert.is_false(range:contains(x, y))
            end
          end
        end
        assert.are.equal(seen, range:size())
      end
    end
  end)

  it("changes nothing in dangerZone, in opts and in an enemy's own fields", function()
    local grid = astar.fromString(BOARD)
    local enemies = { { x = 9, y = 1, move = 3, minRange = 1, maxRange = 2 },
      { x = 4, y = 7, move = 4, minRange = 1, maxRange = 1 } }
    local want = grid:dangerZone(enemies):cells()
    assert(#want > 10, "too small a zone to test")
    for _, names in ipairs(RANGE_RULES) do
      assert.are.same(want, grid:dangerZone(enemies, with_empty({}, names)):cells())
      local own = {}
      for i, e in ipairs(enemies) do own[i] = with_empty(e, names) end
      assert.are.same(want, tactics.dangerZone(grid, own):cells())
    end
  end)

  it("changes nothing in distanceMap, nor in what it encodes and updates", function()
    local grid = astar.fromString(BOARD)
    local sources = { { x = 10, y = 7 }, { x = 1, y = 1, value = 2 } }
    local want = grid:distanceMap(sources)
    for _, names in ipairs({ { "cost" }, { "blocked" }, { "cost", "blocked" } }) do
      local map = grid:distanceMap(sources, with_empty({}, names))
      assert.are.equal(want:encode(), map:encode())
      -- no rule was kept: a decoded copy may still be updated
      local copy = astar.decodeMap(map:encode())
      grid:setWalkable(5, 4, false)
      copy:update(grid)
      assert.are.equal(grid:distanceMap(sources):encode(), copy:encode())
      grid:setWalkable(5, 4, true)
    end
  end)

  it("is still checked: a table with keys keeps its meaning", function()
    local grid = astar.fromString(BOARD)
    -- a cell table with one cell: every other cell is impassable, as before
    assert.are.same({ nil, "goal is blocked", n = 2 }, pack(grid:findPath(1, 1, 10, 7, { cost = { [2] = 1 } })))
    assert.are.same({ nil, "no path", n = 2 }, pack(grid:findPath(1, 1, 10, 7, { cost = { [70] = 1 } })))
    -- a list with one point: the other cells keep the grid's cost
    local path, cost = grid:findPath(1, 1, 3, 1, { diagonal = "never", cost = { { x = 2, y = 1, cost = 4 } } })
    assert.are.same({ 3, 5 }, { #path, cost })
    assert.has_error(function() grid:findPath(1, 1, 10, 7, { move = {} }) end,
      "bad argument #5 to 'findPath' (opts.move: function expected, got table)")
  end)
end)
