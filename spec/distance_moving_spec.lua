-- Specs for maps that move (issue 24): map:setSources and map:update in
-- place, after wall toggles, cost edits and source moves, give exactly what
-- a fresh grid:distanceMap gives (every cell's get, nextStep and nearest,
-- size), on random sequences with fixed seeds; capped maps (maxCost) whose
-- run clears only the cells the last one wrote; walls as start cells. The
-- suite runs on both backends.
local astar = require "astar"
local E = require "helpers.errors"
local MM = require "helpers.moving_maps"

local PURE = astar.backend == "lua"

local rng, W, H, random_sources = MM.rng, MM.W, MM.H, MM.random_sources

-- Every cell of `got` against a fresh map of `grid`: exact values (to the
-- last bit), steps and nearest sources, and the size.
local function same_as_fresh(got, grid, sources, opts, where)
  local want = grid:distanceMap(sources, opts)
  local w, h = grid:getDimensions()
  for y = 1, h do
    for x = 1, w do
      local a, b = got:get(x, y), want:get(x, y)
      if a ~= b then
        error(("%s (%d,%d): get %s, a fresh map %s"):format(where, x, y, tostring(a), tostring(b)), 2)
      end
      local ax, ay = got:nextStep(x, y)
      local bx, by = want:nextStep(x, y)
      if ax ~= bx or ay ~= by then
        error(("%s (%d,%d): nextStep %s,%s, a fresh map %s,%s"):format(where, x, y,
          tostring(ax), tostring(ay), tostring(bx), tostring(by)), 2)
      end
      if got:nearest(x, y) ~= want:nearest(x, y) then
        error(("%s (%d,%d): nearest %s, a fresh map %s"):format(where, x, y,
          tostring(got:nearest(x, y)), tostring(want:nearest(x, y))), 2)
      end
    end
  end
  assert.are.equal(want:size(), got:size(), where)
end

-- One random sequence: edits, moves, update and setSources, checked after
-- each. With opts.small, every step edits one to three cells and updates
-- (the C module repairs those maps in place: README, Maps that move).
local function sequence(seed, opts, steps)
  local rand = rng(seed)
  local grid = astar.new(W, H)
  for y = 1, H do
    for x = 1, W do
      if rand(100) <= 20 then grid:setWalkable(x, y, false) end
      if opts.costs and rand(4) == 1 then grid:setCost(x, y, rand(5)) end
    end
  end
  local sources = random_sources(rand, opts.sources or rand(3))
  local map = grid:distanceMap(sources, opts.map)
  for step = 1, steps do
    local what = opts.small and 3 or rand(4)
    local where = ("seed %d step %d"):format(seed, step)
    if what == 1 then
      local s = sources[rand(#sources)]
      s.x = math.max(1, math.min(W, s.x + rand(3) - 2))
      s.y = math.max(1, math.min(H, s.y + rand(3) - 2))
      assert.are.equal(map, map:setSources(sources))
    elseif what == 2 then
      sources = random_sources(rand, rand(4))
      assert.are.equal(map, map:setSources(sources))
    else
      for _ = 1, rand(what == 3 and 3 or 70) do
        local x, y = rand(W), rand(H)
        if opts.costs and rand(2) == 1 then
          grid:setCost(x, y, rand(5))
        else
          grid:setWalkable(x, y, not grid:isWalkable(x, y))
        end
      end
      assert.are.equal(map, map:update(grid))
    end
    same_as_fresh(map, grid, sources, opts.map, where)
  end
end

describe("map:setSources and map:update", function()
  local cases = {
    { name = "8 directions, uncapped", map = {} },
    { name = "4 directions, capped", map = { diagonal = "never", maxCost = 9 } },
    { name = "8 directions, capped, costs", map = { maxCost = 14 }, costs = true },
    { name = "one-obstacle, uncapped, costs", map = { diagonal = "one-obstacle" }, costs = true },
    { name = "4 directions, capped, costs", map = { diagonal = "never", maxCost = 6 }, costs = true },
    { name = "capped, a blocked list", map = { maxCost = 8, blocked = { { x = 5, y = 5 }, { x = 6, y = 5 } } } },
  }
  for k, case in ipairs(cases) do
    it("give a fresh map's values, steps and nearest sources: " .. case.name, function()
      for seed = 1, 4 do sequence(100 * k + seed, case, 12) end
    end)
  end

  it("give a fresh map's answers after one to three edits at a time (update's repair)", function()
    -- update runs on both backends; the sources never move here
    local small = {
      { map = {} },
      { map = { diagonal = "never" }, costs = true },
      { map = { maxCost = 10 }, costs = true },
      { map = { diagonal = "one-obstacle", maxCost = 12 } },
      { map = { diagonal = "no-obstacles" }, costs = true },
      { map = { diagonal = "never", maxCost = 7 } },
      -- many sources: ties between them, origins that change below a cell
      { map = { diagonal = "never" }, sources = 6 },
      { map = {}, sources = 6, costs = true },
      { map = { diagonal = "never" }, sources = 5, costs = true },
    }
    for k, case in ipairs(small) do
      case.small = true
      for seed = 1, PURE and 1 or 3 do sequence(1000 * k + seed, case, 25) end   -- the pure backend: slower
    end
  end)

  it("keep the map's memory: setSources makes no new map and its list grows in place", function()
    local grid = astar.new(W, H)
    local map = grid:distanceMap({ { x = 1, y = 1 } }, { maxCost = 5 })
    local many = {}
    for k = 1, 100 do many[k] = { x = (k - 1) % W + 1, y = math.floor((k - 1) / W) + 1 } end
    assert.are.equal(map, map:setSources(many))
    same_as_fresh(map, grid, many, { maxCost = 5 }, "100 sources")
    assert.are.equal(map, map:setSources({ { x = 3, y = 4 } }))
    same_as_fresh(map, grid, { { x = 3, y = 4 } }, { maxCost = 5 }, "one again")
    assert.are.equal(1, map:nearest(3, 4))
    assert.are.equal(map, map:setSources({}))
    assert.are.equal(0, map:size())
  end)

  -- issue 24: "600 frames of setSources to a moving player keep peak RSS
  -- flat". A map moved every frame recomputes in its own memory: with the
  -- collector stopped, the heap grows per setSources by a small part of what
  -- a fresh map takes (new per-cell arrays per call would be most of it).
  it("recompute in the map's own memory: 100 moves allocate little next to a fresh map", function()
    local grid = MM.memory_grid(astar)
    local map = grid:distanceMap({ { x = 1, y = 32 } })
    map:setSources({ { x = 2, y = 32 } })   -- a first move may make what later ones reuse
    local fresh_kb, per_call_kb = MM.heap_per_call(grid, 100, function(f)
      map:setSources({ { x = f % 64 + 1, y = 32 } })
    end)
    assert.is_true(per_call_kb < fresh_kb / 20,
      ("%.1f KB per setSources, a fresh map %.1f KB"):format(per_call_kb, fresh_kb))
    same_as_fresh(map, grid, { { x = 37, y = 32 } }, nil, "after 100 moves")
  end)

  it("work on the grid of the last update", function()
    local a, b = astar.new(8, 3), astar.fromString("........\n#######.\n........")
    local map = a:distanceMap({ { x = 1, y = 1 } }, { diagonal = "never" })
    map:update(b)
    map:setSources({ { x = 1, y = 3 } })
    same_as_fresh(map, b, { { x = 1, y = 3 } }, { diagonal = "never" }, "grid b")
    assert.are.equal(16, map:get(1, 1))
  end)

  it("keep the diagonal mode the map was made with after the grid's changes", function()
    local grid = astar.new(5, 5)              -- "no-obstacles", the default
    local map = grid:distanceMap({ { x = 1, y = 1 } })
    grid:setDiagonal("never")
    map:update(grid)
    -- four diagonal steps into open cells of cost 1 (a fresh 4-direction map: 8)
    assert.are.equal(4 * math.sqrt(2), map:get(5, 5))
    map:setSources({ { x = 5, y = 1 } })
    assert.are.equal(4 * math.sqrt(2), map:get(1, 5))
    same_as_fresh(map, grid, { { x = 5, y = 1 } }, { diagonal = "no-obstacles" }, "setSources")
    assert.are.equal(8, grid:distanceMap({ { x = 5, y = 1 } }):get(1, 5))
  end)

  it("keep the map's rules, asked again", function()
    local grid = astar.new(6, 1)
    local asked = 0
    local opts = { cost = function() asked = asked + 1 return 2 end }
    local map = grid:distanceMap({ { x = 1, y = 1 } }, opts)
    asked = 0
    map:setSources({ { x = 6, y = 1 } })
    assert.are.equal(6, asked)
    assert.are.equal(10, map:get(1, 1))
    assert.are.equal(1, map:nearest(1, 1))
  end)

  it("refuse maps without a grid, a closed grid and bad sources", function()
    local grid = astar.new(64, 4)
    local map = grid:distanceMap({ { x = 1, y = 1 } })
    E.check_error("bad argument #1 to 'setSources' (sources[2].x out of range 1..64, got 0)",
      map.setSources, map, { { x = 1, y = 1 }, { x = 0, y = 1 } })
    E.check_error("bad argument #1 to 'setSources' (table expected, got nil)", map.setSources, map, nil)
    E.check_error("calling 'setSources' on a map made by flee or blend",
      function() return map:flee():setSources({}) end)
    E.check_error("calling 'setSources' on a map made by flee or blend",
      function() return astar.blend({ map, 1 }):setSources({}) end)
    local decoded = astar.decodeMap(map:encode())
    E.check_error("calling 'setSources' on a map made by astar.decodeMap",
      function() return decoded:setSources({}) end)
    decoded:update(grid)                 -- now it has a grid
    assert.are.equal(decoded, decoded:setSources({ { x = 2, y = 2 } }))
    assert.are.equal(0, decoded:get(2, 2))
    getmetatable(grid).__close(grid)
    E.check_error("calling 'setSources' on a map whose grid is closed",
      function() return map:setSources({}) end)
  end)
end)

describe("map:update after moves and links are taken away", function()
  it("gives a fresh map's answers", function()
    local grid = astar.fromString(table.concat({
      "..........",
      ".####.###.",
      "....#.....",
      "..#...#...",
    }, "\n"))
    local src = { { x = 1, y = 1 }, { x = 10, y = 4 } }
    grid:link(1, 4, 10, 1, 2)
    grid:setMove(6, 2, 6, 3, 5)
    local map = grid:distanceMap(src)
    grid:unlink(1, 4, 10, 1)
    grid:setMove(6, 2, 6, 3, nil)
    map:update(grid)
    same_as_fresh(map, grid, src, {}, "moves gone")
    grid:setWalkable(3, 3, false)
    map:update(grid)
    same_as_fresh(map, grid, src, {}, "then a wall")
    grid:setWalkable(6, 2, false)
    grid:setWalkable(3, 3, true)
    map:update(grid)
    same_as_fresh(map, grid, src, {}, "two edits")
  end)
end)

describe("a capped map run again", function()
  it("clears what the last run wrote, on the same grid and on another", function()
    -- update and setSources here run on both backends (update always did)
    local rand = rng(7)
    local a, b = astar.new(30, 30), astar.new(30, 30)
    for y = 1, 30 do
      for x = 1, 30 do
        if rand(5) == 1 then a:setWalkable(x, y, false) end
        if rand(5) == 1 then b:setWalkable(x, y, false) end
      end
    end
    local opts = { maxCost = 7 }
    local src = { { x = 15, y = 15 } }
    local map = a:distanceMap(src, opts)
    for k = 1, 70 do                      -- more edits than the change log holds
      a:setWalkable(rand(30), rand(30), rand(2) == 1)
      if k % 10 == 0 then
        map:update(a)
        same_as_fresh(map, a, src, opts, "edit " .. k)
      end
    end
    map:update(a)
    same_as_fresh(map, a, src, opts, "70 edits")
    map:update(b)
    same_as_fresh(map, b, src, opts, "grid b")
    map:update(a)
    same_as_fresh(map, a, src, opts, "grid a again")
  end)
end)

-- Walls as start cells (issue 24, maps-api point 4): a wall beside the map
-- is valued as findPath would start there, its least move into the map.
-- The reference reads only the map's values on open cells and the grid.
describe("a wall of the grid", function()
  local DIRS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } }

  -- value, x, y of the best move out of wall (x, y) into `map`, or nil
  local function best_move(grid, map, mode, maxCost, x, y)
    local w, h = grid:getDimensions()
    local function wall(cx, cy) return cx < 1 or cy < 1 or cx > w or cy > h or not grid:isWalkable(cx, cy) end
    local best, bx, by
    for d = 1, mode == "never" and 4 or 8 do
      local dx, dy = DIRS[d][1], DIRS[d][2]
      local ux, uy = x + dx, y + dy
      local ok = not wall(ux, uy) and map:get(ux, uy) ~= nil
      if ok and d > 4 and mode ~= "always" then
        local walls = (wall(x + dx, y) and 1 or 0) + (wall(x, y + dy) and 1 or 0)
        ok = walls == 0 or (walls == 1 and mode == "one-obstacle")
      end
      if ok then
        local price = grid:getCost(ux, uy)
        if d > 4 then price = math.sqrt(2) * price end
        local v = map:get(ux, uy) + price
        if best == nil or v < best then best, bx, by = v, ux, uy end
      end
    end
    if best and maxCost and best > maxCost then return nil end
    return best, bx, by
  end

  it("answers get, nextStep and nearest as its best move into the map", function()
    local rand = rng(424)
    for _, mode in ipairs { "never", "always", "one-obstacle", "no-obstacles" } do
      for round = 1, 4 do
        local costs, maxCost = round % 2 == 0, round > 2 and 7 or nil
        local grid = astar.new(W, H)
        for y = 1, H do
          for x = 1, W do
            if rand(100) <= 25 then grid:setWalkable(x, y, false)
            elseif costs and rand(3) == 1 then grid:setCost(x, y, rand(4) * 0.5) end
          end
        end
        local sources = random_sources(rand, 2)
        local map = grid:distanceMap(sources, { diagonal = mode, maxCost = maxCost })
        local cells = 0
        for y = 1, H do
          for x = 1, W do
            if not grid:isWalkable(x, y) then
              local where = ("%s round %d (%d,%d)"):format(mode, round, x, y)
              local v, bx, by = best_move(grid, map, mode, maxCost, x, y)
              assert.are.equal(v, map:get(x, y), where)
              local nx, ny = map:nextStep(x, y)
              assert.are.same({ bx, by }, { nx, ny }, where)
              assert.are.equal(v and map:nearest(bx, by), map:nearest(x, y), where)
              if v then
                cells = cells + 1
                local path, cost = map:pathFrom(x, y)
                assert.are.same({ x = bx, y = by }, path[2], where)
                assert.are.equal(v, cost, where)
              end
            end
          end
        end
        assert.is_true(cells > 0)
        -- size and cells leave start cells out
        local members = 0
        for y = 1, H do
          for x = 1, W do
            if grid:isWalkable(x, y) and map:get(x, y) then members = members + 1 end
          end
        end
        assert.are.equal(members, map:size())
        assert.are.equal(members, #map:cells())
      end
    end
  end)

  it("a unit on a cell that just became a wall steps out of it", function()
    local grid = astar.fromString("....\n....")
    local map = grid:distanceMap({ { x = 1, y = 1 } }, { diagonal = "never" })
    grid:setWalkable(3, 1, false)
    map:update(grid)
    assert.are.same({ 2, 1 }, { map:nextStep(3, 1) })
    assert.are.equal(2, map:get(3, 1))
    assert.are.equal(7, map:size())   -- the wall is no cell of the map
  end)
end)

-- update's repair writes a fresh map's bytes too: the entry costs of the
-- cells its flood looked at and the start cells around the edits.
describe("update's repair", function()
  it("encodes to a fresh map's bytes after one to three edits at a time", function()
    local modes = { "never", "always", "one-obstacle", "no-obstacles" }
    for seed = 1, 8 do
      local rand = rng(5000 + seed)
      local grid = astar.new(W, H)
      local costs = seed % 2 == 0
      for y = 1, H do
        for x = 1, W do
          if rand(100) <= 22 then grid:setWalkable(x, y, false)
          elseif costs and rand(4) == 1 then grid:setCost(x, y, rand(4) * 0.5) end
        end
      end
      local sources = random_sources(rand, rand(4))
      local opts = { diagonal = modes[seed % 4 + 1], maxCost = seed % 3 == 0 and 9 or nil }
      local map = grid:distanceMap(sources, opts)
      for step = 1, 10 do
        for _ = 1, rand(3) do
          local x, y = rand(W), rand(H)
          if costs and rand(2) == 1 then grid:setCost(x, y, rand(4) * 0.5)
          else grid:setWalkable(x, y, not grid:isWalkable(x, y)) end
        end
        assert.are.equal(map, map:update(grid))
        assert.are.equal(grid:distanceMap(sources, opts):encode(), map:encode(),
          ("seed %d step %d"):format(seed, step))
      end
    end
  end)
end)
