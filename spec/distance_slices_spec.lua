-- Specs for distance maps built a slice at a time (issue 24): map:update and
-- map:setSources with opts.cells / opts.seconds, map:step, map:isBuilding.
-- Stepped to the end, a build gives exactly a fresh map's values, steps and
-- nearest sources; while it is pending every read answers the previous
-- values; a grid edited between slices is built as it is when the build
-- completes. Random grids and budgets with fixed seeds.
local astar = require "astar"
local E = require "helpers.errors"
local MM = require "helpers.moving_maps"

local rng, W, H = MM.rng, MM.W, MM.H

-- Every answer of map: get, nextStep, nearest per cell, size, and its bytes
-- (a sliced build's are a fresh map's: the costs its flood looked at, walls
-- as start cells, on both backends).
local function answers(map)
  local t = { size = map:size(), bytes = map:encode() }
  for y = 1, H do
    for x = 1, W do
      local nx, ny = map:nextStep(x, y)
      t[#t + 1] = { map:get(x, y), nx, ny, map:nearest(x, y) }
    end
  end
  return t
end

local function same(want, got, where)
  assert.are.equal(want.size, got.size, where .. ": size")
  assert.are.equal(want.bytes, got.bytes, where .. ": encode")
  for k = 1, W * H do
    local a, b = want[k], got[k]
    for i = 1, 4 do
      if a[i] ~= b[i] then
        error(("%s: cell %d (%d,%d), answer %d: %s, expected %s"):format(where, k,
          (k - 1) % W + 1, math.floor((k - 1) / W) + 1, i, tostring(b[i]), tostring(a[i])), 2)
      end
    end
  end
end

local function random_grid(rand, costs, hex)
  local grid = hex and astar.newHex(W, H) or astar.new(W, H)
  for y = 1, H do
    for x = 1, W do
      if rand(100) <= 20 then grid:setWalkable(x, y, false) end
      if costs and rand(4) == 1 then grid:setCost(x, y, rand(5)) end
    end
  end
  return grid
end

local function random_sources(rand)
  return MM.random_sources(rand, rand(3))
end

local function edit(rand, grid, costs)
  for _ = 1, rand(6) do
    local x, y = rand(W), rand(H)
    if costs and rand(2) == 1 then
      grid:setCost(x, y, rand(5))
    else
      grid:setWalkable(x, y, not grid:isWalkable(x, y))
    end
  end
end

-- Steps map with `budget` cells a call until done, checking after each
-- call that the reads are `before`'s; returns the number of calls.
local function step_through(map, budget, before, where)
  local calls = 0
  repeat
    calls = calls + 1
    local done = map:step(budget)
    assert.are.equal(not done, map:isBuilding(), where)
    if not done then same(before, answers(map), where .. " pending") end
  until done
  return calls
end

describe("a map built a slice at a time", function()
  local cases = {
    { name = "8 directions", map = {} },
    { name = "4 directions, capped", map = { diagonal = "never", maxCost = 9 } },
    { name = "costs, capped", map = { maxCost = 14 }, costs = true },
    { name = "one-obstacle, costs", map = { diagonal = "one-obstacle" }, costs = true },
    { name = "4 directions, costs", map = { diagonal = "never" }, costs = true },
    { name = "a cost rule", map = { cost = function(x, y) return (x + y) % 3 == 0 and 2 or 1 end } },
    { name = "a blocked list", map = { blocked = { { x = 5, y = 5 }, { x = 6, y = 5 }, { x = 7, y = 5 } } } },
    { name = "units of size 2", map = { size = 2, diagonal = "never" } },
    { name = "a hex board, costs", map = {}, costs = true, hex = true },
  }
  for k, case in ipairs(cases) do
    it("gives a fresh map's answers, the previous ones while pending: " .. case.name, function()
        for seed = 1, 3 do
        local rand = rng(100 * k + seed)
        local grid = random_grid(rand, case.costs, case.hex)
        local sources = random_sources(rand)
        local map = grid:distanceMap(sources, case.map)
        for round = 1, 4 do
          local where = ("%s seed %d round %d"):format(case.name, seed, round)
          local before = answers(map)
          local budget = rand(60)
          local m, done
          if round % 2 == 1 then
            edit(rand, grid, case.costs)
            m, done = map:update(grid, { cells = budget })
          else
            sources = random_sources(rand)
            m, done = map:setSources(sources, { cells = budget })
          end
          assert.are.equal(map, m)
          assert.are.equal(not done, map:isBuilding(), where)
          if not done then
            same(before, answers(map), where .. " pending")
            step_through(map, rand(80), before, where)
          end
          same(answers(grid:distanceMap(sources, case.map)), answers(map), where)
        end
      end
    end)
  end

  it("settles at most the budget's cells a call", function()
    -- an open 24x18 grid: 432 cells, each settled once
    local grid = astar.new(W, H)
    local map = grid:distanceMap({ { x = 1, y = 1 } })
    map:setSources({ { x = W, y = H } }, { cells = 100 })
    assert.are.equal(4, step_through(map, 100, answers(grid:distanceMap({ { x = 1, y = 1 } })), "open"))
    local _, done = map:update(grid, { cells = W * H })
    assert.is_true(done)
    assert.is_false(map:isBuilding())
    assert.are.equal(0, map:get(W, H))
  end)

  it("starts again on the grid as it is when the grid changes between slices", function()
    local rand = rng(77)
    local grid = random_grid(rand, true)
    local sources = { { x = 3, y = 3 }, { x = 20, y = 15, value = 2 } }
    local map = grid:distanceMap(sources, { maxCost = 30 })
    local before = answers(map)
    map:update(grid, { cells = 40 })
    map:step(40)
    edit(rand, grid, true)
    grid:setWalkable(4, 3, false)
    same(before, answers(map), "pending after an edit")
    step_through(map, 50, before, "edited")
    same(answers(grid:distanceMap(sources, { maxCost = 30 })), answers(map), "edited between slices")
  end)

  it("is replaced by a new update or setSources while pending", function()
    local grid = random_grid(rng(5), false)
    local a, b, c = { { x = 1, y = 1 } }, { { x = 12, y = 9 } }, { { x = 24, y = 18 }, { x = 2, y = 17 } }
    local map = grid:distanceMap(a)
    local before = answers(map)
    map:setSources(b, { cells = 30 })
    map:setSources(c, { cells = 30 })
    step_through(map, 30, before, "replaced by setSources")
    same(answers(grid:distanceMap(c)), answers(map), "c")
    -- a whole update replaces the pending build: the map's own sources
    map:setSources(a, { cells = 10 })
    assert.is_true(map:isBuilding())
    local m, done = map:update(grid)
    assert.are.equal(map, m)
    assert.is_true(done)
    assert.is_false(map:isBuilding())
    assert.is_true(map:step(1))
    same(answers(grid:distanceMap(c)), answers(map), "whole update")
    -- a sliced update on another grid while a setSources is pending
    local other = random_grid(rng(6), true)
    map:setSources(b, { cells = 10 })
    map:update(other, { cells = 10 })
    step_through(map, 1000, answers(map), "other grid")
    same(answers(other:distanceMap(c)), answers(map), "update replaces setSources")
    map:setSources(a)
    same(answers(other:distanceMap(a)), answers(map), "setSources on the grid of the last build")
  end)

  it("grows its pending source list beyond the map's own room", function()
    local grid = astar.new(W, H)
    local map = grid:distanceMap({ { x = 1, y = 1 } }, { maxCost = 4 })
    for n = 10, 100, 30 do
      local many = {}
      for k = 1, n do many[k] = { x = (k * 7) % W + 1, y = (k * 5) % H + 1 } end
      map:setSources(many, { cells = 7 })
      step_through(map, 7, answers(map), n .. " sources")
      same(answers(grid:distanceMap(many, { maxCost = 4 })), answers(map), n .. " sources")
    end
    map:setSources({ { x = 2, y = 2 } }, { cells = 1000 })
    assert.are.equal(1, map:nearest(2, 2))
    assert.are.equal(1, map:size() > 0 and 1 or 0)
  end)

  it("builds in the map's own second arrays: 50 sliced moves allocate little next to a fresh map", function()
    local grid = MM.memory_grid(astar)
    local map = grid:distanceMap({ { x = 1, y = 32 } })
    local function move(f)
      local _, done = map:setSources({ { x = f % 64 + 1, y = 32 } }, { cells = 1000 })
      while not done do done = map:step(1000) end
    end
    -- the first sliced builds make the second arrays that later ones reuse
    move(0)
    move(1)
    local fresh_kb, per_build_kb = MM.heap_per_call(grid, 50, move)
    assert.is_true(per_build_kb < fresh_kb / 10,
      ("%.1f KB per sliced setSources, a fresh map %.1f KB"):format(per_build_kb, fresh_kb))
    same(answers(grid:distanceMap({ { x = 51, y = 32 } })), answers(map), "after 50 sliced moves")
  end)

  it("with a budget in seconds moves on at least a chunk of cells a call", function()
    -- 256 cells a chunk: an open 40x40 grid (1600 cells) needs at most 7 calls
    local grid = astar.new(40, 40)
    local map = grid:distanceMap({ { x = 1, y = 1 } })
    local _, done = map:setSources({ { x = 40, y = 40 } }, { seconds = 1e-9 })
    local calls = 1
    while not done do
      calls = calls + 1
      done = map:step(math.huge, 1e-9)
    end
    assert.is_true(calls <= 7)
    assert.are.equal(0, map:get(40, 40))
    assert.are.equal(grid:distanceMap({ { x = 40, y = 40 } }):get(1, 1), map:get(1, 1))
    -- both budgets: the cells bound the time's chunks
    map:update(grid, { cells = 10, seconds = 1e-9 })
    assert.is_true(map:isBuilding())
    assert.are.equal(0, map:get(40, 40))
    assert.is_true(map:step(math.huge, math.huge))
  end)

  it("returns done at once with nothing pending, and without a budget", function()
    local grid = astar.new(4, 4)
    local map = grid:distanceMap({ { x = 1, y = 1 } })
    assert.is_false(map:isBuilding())
    assert.is_true(map:step(1))
    local m, done = map:update(grid)
    assert.are.equal(map, m)
    assert.is_true(done)
    m, done = map:setSources({ { x = 4, y = 4 } })
    assert.are.equal(map, m)
    assert.is_true(done)
    assert.are.equal(0, map:get(4, 4))
  end)

  it("builds maps that follow moves and links whole", function()
    local grid = astar.fromString("......\n.####.\n......")
    grid:link(1, 3, 6, 1, 1)
    local map = grid:distanceMap({ { x = 6, y = 1 } })
    local m, done = map:setSources({ { x = 1, y = 1 } }, { cells = 1 })
    assert.are.equal(map, m)
    assert.is_true(done)
    assert.is_false(map:isBuilding())
    assert.are.equal(0, map:get(1, 1))
  end)

  it("refuses a closed grid and bad budgets with exact messages", function()
    local grid = astar.new(W, H)
    local map = grid:distanceMap({ { x = 1, y = 1 } })
    E.check_error("bad argument #2 to 'update' (opts.cells must be a whole number >= 1, got 0)",
      map.update, map, grid, { cells = 0 })
    E.check_error("bad argument #2 to 'setSources' (opts.cells must be a whole number >= 1, got 1.5)",
      map.setSources, map, {}, { cells = 1.5 })
    E.check_error("bad argument #2 to 'update' (opts.seconds must be a number > 0, got -1)",
      map.update, map, grid, { seconds = -1 })
    E.check_error("bad argument #2 to 'update' (unknown option 'maxCost')",
      map.update, map, grid, { maxCost = 3 })
    E.check_error("bad argument #1 to 'step' (cells must be a whole number >= 1 or math.huge, got 0)",
      map.step, map, 0)
    assert.is_false(map:isBuilding())
    local before = answers(map)
    map:update(grid, { cells = 3 })
    getmetatable(grid).__close(grid)
    E.check_error("calling 'step' on a map whose grid is closed", map.step, map, 10)
    assert.is_false(map:isBuilding())
    same(before, answers(map), "after a closed grid")
  end)

  it("keeps the previous values when a rule raises mid-build", function()
    local grid = astar.new(W, H)
    local raise = false
    local map = grid:distanceMap({ { x = 1, y = 1 } }, { cost = function(x)
      if raise and x == W then error("boom", 0) end
      return 1
    end })
    local before = answers(map)
    raise = true
    local _, done = map:setSources({ { x = 2, y = 2 } }, { cells = 10 })
    assert.is_false(done)
    E.check_error("boom", map.step, map, math.huge)
    assert.is_false(map:isBuilding())
    same(before, answers(map), "after a raise")
    raise = false
    assert.is_true(select(2, map:setSources({ { x = 2, y = 2 } }, { cells = 1e9 })))
    same(answers(grid:distanceMap({ { x = 2, y = 2 } }, { cost = function() return 1 end })), answers(map),
      "built again")
  end)

  it("gives a decoded map its grid when the build completes", function()
    local grid = random_grid(rng(9), true)
    local decoded = astar.decodeMap(grid:distanceMap({ { x = 4, y = 4 } }):encode())
    local _, done = decoded:update(grid, { cells = 20 })
    assert.is_false(done)
    E.check_error("calling 'setSources' on a map made by astar.decodeMap", decoded.setSources, decoded, {})
    repeat until decoded:step(20)
    decoded:setSources({ { x = 9, y = 9 } }, { cells = 1e9 })
    same(answers(grid:distanceMap({ { x = 9, y = 9 } })), answers(decoded), "decoded")
  end)

  it("answers 'being computed' to a rule that steps or updates the map mid-slice", function()
    local grid = astar.new(8, 8)
    local map
    local seen = {}
    local calls = { function(m) return m:step(5) end,
                    function(m) return m:update(grid, { cells = 1 }) end,
                    function(m) return m:setSources({}, { cells = 1 }) end }
    map = grid:distanceMap({ { x = 1, y = 1 } }, { cost = function()
      if map and #seen < 3 then
        local ok, e = pcall(calls[#seen + 1], map)
        seen[#seen + 1] = ok and "ok" or e
      end
      return 1
    end })
    seen = {}
    local _, done = map:setSources({ { x = 8, y = 8 } }, { cells = 5 })
    assert.is_false(done)
    while #seen < 3 do map:step(1) end
    assert.are.same({
      "calling 'step' on a distance map that is being computed",
      "calling 'update' on a distance map that is being computed",
      "calling 'setSources' on a distance map that is being computed",
    }, seen)
    assert.is_true(map:step(math.huge))
    assert.are.equal(0, map:get(8, 8))
    assert.are.equal(grid:distanceMap({ { x = 8, y = 8 } }):get(1, 1), map:get(1, 1))
  end)
end)
