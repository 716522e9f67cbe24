-- Queries one after another on one grid: a backend may keep scratch between
-- them (the pure backend keeps a range's and an attack's on the grid, puts
-- back what a run touched, and drops it when a run ends in an error). Each
-- answer must be the one of a query on its own, checked against the plain
-- reference (spec/helpers/tactics_reference.lua), whatever ran before it:
-- other rules, other moves, a callback's error, a query made from inside a
-- callback.
local astar = require "astar"
require "astar.tactics"
local TR = require "helpers.tactics_reference"

local W, H = 9, 7
local BOARD = {
  ".........",
  ".##..3...",
  "..#..#.2.",
  "..2..#...",
  ".#####.#.",
  "...3.....",
  ".2.......",
}

local function board()
  local grid = astar.new(W, H)
  local map = { w = W, h = H, wall = {}, cost = {} }
  for y = 1, H do
    map.wall[y], map.cost[y] = {}, {}
    for x = 1, W do
      local c = BOARD[y]:sub(x, x)
      if c == "#" then
        grid:setWalkable(x, y, false)
        map.wall[y][x] = true
      else
        local cost = tonumber(c) or 1
        grid:setCost(x, y, cost)
        map.cost[y][x] = cost
      end
    end
  end
  return grid, map
end

-- "x,y=cost" of every stop cell of the reference, in reading order, and of
-- the range (sorted the same way: its own order is the settling order).
local function expected(map, sx, sy, move, rules, diagonal)
  local dist, stop = TR.movement(map, sx, sy, move, rules, diagonal)
  local out = {}
  for y = 1, H do
    for x = 1, W do
      if dist[y][x] and stop[y][x] then out[#out + 1] = ("%d,%d=%.12g"):format(x, y, dist[y][x]) end
    end
  end
  return table.concat(out, " ")
end

local function got(range)
  local cells = range:cells()
  table.sort(cells, function(a, b) return a.y < b.y or (a.y == b.y and a.x < b.x) end)
  local out = {}
  for i, c in ipairs(cells) do out[i] = ("%d,%d=%.12g"):format(c.x, c.y, c.cost) end
  return table.concat(out, " ")
end

local function set(list)
  local s = {}
  for _, p in ipairs(list) do s[p[1] + (p[2] - 1) * W] = true end
  return s
end

describe("movementRange queries in a row on one grid", function()
  local grid, map = board()
  local ruleWalls = set { { 4, 1 }, { 4, 2 }, { 5, 3 } }
  local allies = set { { 5, 1 }, { 1, 2 } }
  local zoc = set { { 7, 1 }, { 4, 4 } }
  local function fn(s) return function(x, y) return s[x + (y - 1) * W] == true end end
  local QUERIES = {
    { 1, 1, 6 },
    { 9, 7, 9, { blocked = ruleWalls }, { blocked = fn(ruleWalls) } },
    { 4, 4, 5, { occupied = allies, zoc = zoc }, { occupied = fn(allies), zoc = fn(zoc) } },
    { 1, 1, 6 },
    { 5, 6, 7.5, { diagonal = "one-obstacle" }, nil, "one-obstacle" },
    { 9, 1, 12, { cost = function(x, y) return (x + y) % 4 == 0 and false or 2 end },
      { cost = function(x, y) return (x + y) % 4 == 0 and false or 2 end } },
    { 4, 4, 5 },
    { 5, 6, 7.5, { diagonal = "no-obstacles", blocked = ruleWalls },
      { blocked = fn(ruleWalls) }, "no-obstacles" },
    { 9, 7, 9 },
  }

  it("each answer is the reference's, whatever ran before it", function()
    for round = 1, 2 do   -- the second round after the first left its scratch
      for i, q in ipairs(QUERIES) do
        local sx, sy, move, opts, rules, diagonal = q[1], q[2], q[3], q[4], q[5], q[6]
        assert.are.equal(expected(map, sx, sy, move, rules, diagonal),
          got(grid:movementRange(sx, sy, move, opts)), ("round %d, query %d"):format(round, i))
      end
    end
  end)

  it("a query after one whose callback raised is the reference's", function()
    local calls = 0
    local ok, err = pcall(grid.movementRange, grid, 1, 1, 20, {
      cost = function()
        calls = calls + 1
        if calls == 6 then error("stop here", 0) end
        return 1
      end })
    assert.is_false(ok)
    assert.are.equal("stop here", err)
    assert.are.equal(expected(map, 1, 1, 6), got(grid:movementRange(1, 1, 6)))
    assert.are.equal(expected(map, 5, 6, 7.5, nil, "one-obstacle"),
      got(grid:movementRange(5, 6, 7.5, { diagonal = "one-obstacle" })))
  end)

  it("a query made inside another's callback answers for itself, and so does the outer", function()
    local inner = {}
    local outer = grid:movementRange(9, 7, 9, { blocked = function(x, y)
      if #inner < 3 then inner[#inner + 1] = got(grid:movementRange(x, y, 4)) .. "@" .. x .. "," .. y end
      return ruleWalls[x + (y - 1) * W] == true
    end })
    assert.are.equal(expected(map, 9, 7, 9, { blocked = fn(ruleWalls) }), got(outer))
    assert.are.equal(3, #inner)
    for _, s in ipairs(inner) do
      local text, x, y = s:match("^(.*)@(%d+),(%d+)$")
      assert.are.equal(expected(map, tonumber(x), tonumber(y), 4), text)
    end
  end)

  it("attack areas in a row are each the reference's", function()
    for _, q in ipairs { { 1, 1, 4, 1, 2 }, { 9, 7, 6, 2, 3 }, { 1, 1, 4, 1, 2 }, { 4, 4, 3, 0, 1 } } do
      local range = grid:movementRange(q[1], q[2], q[3])
      local _, stop = TR.movement(map, q[1], q[2], q[3])
      local hit = TR.attack(map, stop, q[4], q[5])
      local want = {}
      for y = 1, H do
        for x = 1, W do
          if hit[y][x] then want[#want + 1] = x .. "," .. y end
        end
      end
      local have = {}
      for i, c in ipairs(grid:attackRange(range, q[4], q[5]):cells()) do have[i] = c.x .. "," .. c.y end
      assert.are.equal(table.concat(want, " "), table.concat(have, " "))
    end
  end)
end)
