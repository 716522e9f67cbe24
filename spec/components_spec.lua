-- Connected components: a goal in another region than the start is answered
-- "no path" without a search once the grid is labelled, and the labels follow wall
-- changes, so the answer is never a wrong "no path". Checked against the reference
-- Dijkstra of spec/helpers/reference.lua in every diagonal mode.
local astar = require "astar"
local R = require "helpers.reference"

-- Two rooms split by a wall at column 11; a door at (11, 5) when open.
local function two_rooms(door_open)
  local grid = astar.new(21, 9)
  for y = 1, 9 do grid:setWalkable(11, y, false) end
  if door_open then grid:setWalkable(11, 5, true) end
  return grid
end

-- Labels are the C backend's speed-up: the pure-Lua backend gives the same
-- answers by searching, so only the C backend is held to 0 expansions.
local LABELLED = astar.backend == "c"

local function expanded(grid)
  return grid:getSearchStats().expanded
end

describe("connected components", function()
  it("answers a goal in another region without expanding a node", function()
    local grid = two_rooms(false)
    for _, mode in ipairs { "never", "one-obstacle", "no-obstacles" } do
      assert.are.same({ nil, "no path" }, { grid:findPath(2, 2, 20, 8, { diagonal = mode }) })
      if LABELLED then assert.are.equal(0, expanded(grid)) end
    end
    -- a reachable goal is still searched, and found
    local path, cost = grid:findPath(2, 2, 9, 8, { diagonal = "never" })
    assert.are.equal(13, cost)
    assert.are.equal(14, #path)
  end)

  it("joins regions at once when a wall opens", function()
    local grid = two_rooms(false)
    assert.are.same({ nil, "no path" }, { grid:findPath(1, 5, 21, 5) })
    grid:setWalkable(11, 5, true)
    local path, cost = grid:findPath(1, 5, 21, 5)
    assert.are.equal(20, cost)
    assert.are.equal(21, #path)
  end)

  it("is never wrong after a wall splits a region, and learns the split", function()
    local grid = two_rooms(true)
    local _, cost = grid:findPath(1, 5, 21, 5, { diagonal = "never" })
    assert.are.equal(20, cost)
    grid:setWalkable(11, 5, false)          -- the door closes
    assert.are.same({ nil, "no path" }, { grid:findPath(1, 5, 21, 5, { diagonal = "never" }) })
    assert.is_true(expanded(grid) > 0)      -- the labels were stale: it searched
    assert.are.same({ nil, "no path" }, { grid:findPath(1, 5, 21, 5, { diagonal = "never" }) })
    if LABELLED then
      assert.are.equal(0, expanded(grid))   -- relabelled after that failure
    end
  end)

  it("keeps \"goal is blocked\" and one-point paths", function()
    local grid = two_rooms(false)
    assert.are.same({ nil, "goal is blocked" }, { grid:findPath(1, 1, 11, 1) })
    assert.are.same({ { { x = 20, y = 3 } }, 0 }, { grid:findPath(20, 3, 20, 3) })
  end)

  it("knows that 'always' squeezes between walls where the other modes cannot", function()
    local grid = astar.fromString(table.concat({
      "...#...",
      "...#...",
      "....###",
      "###....",
      "...#...",
    }, "\n"))
    -- The bottom-left room (1..3, 5) touches (4, 4) only corner to corner,
    -- between the walls (3, 4) and (4, 5).
    for _, mode in ipairs { "never", "one-obstacle", "no-obstacles" } do
      assert.are.same({ nil, "no path" }, { grid:findPath(1, 1, 1, 5, { diagonal = mode }) })
    end
    local path, cost = grid:findPath(1, 1, 1, 5, { diagonal = "always" })
    assert.is_truthy(path)
    assert.is_true(R.close(cost, R.dijkstra(R.parse_string_map(table.concat({
      "...#...",
      "...#...",
      "....###",
      "###....",
      "...#...",
    }, "\n")), "always", 1, 1)[1][5]))
  end)

  it("answers right from a start that is a wall (a unit stands on it)", function()
    local grid = two_rooms(false)
    grid:setWalkable(10, 5, false)
    -- (10, 5) is a wall next to the dividing wall; it leaves into the left room only
    assert.are.same({ nil, "no path" }, { grid:findPath(10, 5, 20, 5, { diagonal = "never" }) })
    local _, cost = grid:findPath(10, 5, 1, 5, { diagonal = "never" })
    assert.are.equal(9, cost)
    -- a wall start in the dividing wall reaches both rooms
    grid:setWalkable(10, 5, true)
    local _, c2 = grid:findPath(11, 5, 21, 5, { diagonal = "never" })
    assert.are.equal(10, c2)
    local _, c3 = grid:findPath(11, 5, 1, 5, { diagonal = "no-obstacles" })
    assert.are.equal(10, c3)
  end)

  it("matches the reference on random grids under random wall changes", function()
    local rng = R.rng(90210)
    local checked, unreachable = 0, 0
    for _ = 1, 12 do
      local w, h = rng.int(2, 30), rng.int(2, 20)
      local desc = R.random_map(rng, w, h, rng.pick { 0.2, 0.35, 0.45 }, { 1 })
      local grid = R.build_grid(astar, desc)
      for _ = 1, 40 do
        -- change a few cells, both ways
        for _ = 1, rng.int(0, 4) do
          local x, y = rng.int(1, w), rng.int(1, h)
          local open = rng.next() < 0.5
          desc.walkable[x][y] = open
          grid:setWalkable(x, y, open)
        end
        local mode = rng.pick(R.MODES)
        local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
        local dist = R.dijkstra(desc, mode, sx, sy)
        local best = dist[gx] and dist[gx][gy]
        local path, cost = grid:findPath(sx, sy, gx, gy, { diagonal = mode })
        if sx == gx and sy == gy then
          assert.are.equal(0, cost)
        elseif not desc.walkable[gx][gy] then
          assert.are.same({ nil, "goal is blocked" }, { path, cost })
        elseif best == nil then
          assert.are.same({ nil, "no path" }, { path, cost })
          unreachable = unreachable + 1
        else
          assert(path, ("wrong '%s' in mode %s from (%d,%d) to (%d,%d)"):format(
            tostring(cost), mode, sx, sy, gx, gy))
          assert.is_true(R.close(cost, best))
          assert.is_truthy(R.validate(desc, mode, path, sx, sy, gx, gy))
        end
        checked = checked + 1
      end
    end
    assert.is_true(unreachable > 20)
    assert.is_true(checked == 480)
  end)
end)
