-- Numbers at the edges (issue 10, README Robustness), on both backends:
-- attack and danger distances far beyond the grid (2^32, 2^53, 2^63,
-- math.maxinteger, 1e300) mean "the whole grid" and never loop over them;
-- numbers in messages read back as the number given (%.14g, else %.17g);
-- a weight and costs so large that the heuristic's scale would overflow give
-- the same path and cost on both backends, and a real path cost.
local astar = require "astar"
require "astar.tactics"   -- adds the Grid methods
local R = require "helpers.reference"
local check_error = require("helpers.errors").check_error

local maxinteger = math.maxinteger   -- nil before 5.3

-- ---- distances ---------------------------------------------------------------------

describe("attack and danger distances beyond the grid", function()
  local HUGE_DISTANCES = { 16, 17, 1000, 2 ^ 31, 2 ^ 32, 2 ^ 32 + 1, 2 ^ 53, 2 ^ 63, 2 ^ 64, 1e300,
    1.7976931348623157e308 }
  if maxinteger then HUGE_DISTANCES[#HUGE_DISTANCES + 1] = maxinteger end

  -- cells of an 8x8 open grid within [lo, hi] of (1, 1), counted by hand
  local function expected(lo, hi)
    local n = 0
    for y = 1, 8 do
      for x = 1, 8 do
        local d = (x - 1) + (y - 1)
        if d >= lo and d <= hi then n = n + 1 end
      end
    end
    return n
  end

  it("attackRange: every cell at distance >= minRange", function()
    local g = astar.new(8, 8)
    local r = g:movementRange(1, 1, 0)
    for _, far in ipairs(HUGE_DISTANCES) do
      local t0 = os.clock()
      assert.are.equal(63, g:attackRange(r, 1, far):size())
      assert.are.equal(64, g:attackRange(r, 0, far):size())
      assert.are.equal(expected(5, far), g:attackRange(r, 5, far):size())
      assert.are.equal(1, g:attackRange(r, 14, far):size())          -- (8, 8) only
      assert.are.same({ { x = 8, y = 8 } }, g:attackRange(r, 14, far):cells())
      assert.are.equal(0, g:attackRange(r, 15, far):size())
      assert.are.equal(0, g:attackRange(r, far, far):size())
      assert.are.equal(63, g:attackRange(r, 1, far, { lineOfSight = true }):size())
      assert.is_true(os.clock() - t0 < 1, "took too long: a loop over the distance?")
    end
  end)

  it("attackRange: lineOfSight functions get whole coordinates on the grid", function()
    local g = astar.new(8, 8)
    local r = g:movementRange(4, 4, 1)
    for _, far in ipairs(HUGE_DISTANCES) do
      local calls = 0
      local area = g:attackRange(r, 0, far, { lineOfSight = function(fx, fy, tx, ty)
        calls = calls + 1
        for _, v in ipairs({ fx, fy, tx, ty }) do
          assert(v >= 1 and v <= 8 and v == math.floor(v), "coordinate " .. tostring(v))
          if math.type then assert.are.equal("integer", math.type(v)) end
        end
        return true
      end })
      assert.are.equal(64, area:size())
      assert.is_true(calls >= 64 and calls <= 5 * 64)
    end
  end)

  it("dangerZone: the same for every enemy", function()
    local g = astar.new(8, 8)
    for _, far in ipairs(HUGE_DISTANCES) do
      local z = g:dangerZone({ { x = 1, y = 1, move = 0, minRange = 1, maxRange = far } })
      assert.are.equal(63, z:size())
      assert.are.equal(0, z:count(1, 1))
      assert.are.equal(1, z:count(8, 8))
      z = g:dangerZone({
        { x = 1, y = 1, move = 0, minRange = 0, maxRange = far },
        { x = 8, y = 8, move = far, minRange = far, maxRange = far },
        { x = 8, y = 1, move = math.huge, minRange = 14, maxRange = far },
      }, { lineOfSight = true })
      assert.are.equal(64, z:size())
      assert.are.equal(2, z:count(1, 8))   -- 14 from (8, 1), 7 from (1, 1)
      assert.are.equal(1, z:count(4, 4))
    end
  end)

  it("still refuses what is not a whole number >= 0", function()
    local g = astar.new(8, 8)
    local r = g:movementRange(1, 1, 0)
    check_error("bad argument #3 to 'attackRange' (maxRange must be a whole number >= 0, got inf)",
      g.attackRange, g, r, 1, math.huge)
    check_error("bad argument #2 to 'attackRange' (minRange must be a whole number >= 0, got -9007199254740992)",
      g.attackRange, g, r, -2 ^ 53, 1)
    check_error("bad argument #3 to 'attackRange' (maxRange must be >= minRange, got 1 < 9007199254740994)",
      g.attackRange, g, r, 2 ^ 53 + 2, 1)
    check_error("bad argument #3 to 'attackRange' (maxRange must be >= minRange, got 4294967296 < 1e+300)",
      g.attackRange, g, r, 1e300, 2 ^ 32)
    if maxinteger then
      check_error("bad argument #3 to 'attackRange' (maxRange must be >= minRange, got 1 < 9.2233720368547758e+18)",
        g.attackRange, g, r, maxinteger, 1)
    end
    check_error("bad argument #1 to 'dangerZone' (enemies[1].maxRange must be a whole number >= 0, got nan)",
      g.dangerZone, g, { { x = 1, y = 1, move = 0, minRange = 1, maxRange = 0 / 0 } })
    check_error("bad argument #1 to 'dangerZone' (enemies[1].x out of range 1..8, got 4294967296)",
      g.dangerZone, g, { { x = 2 ^ 32, y = 1, move = 0, minRange = 1, maxRange = 1 } })
  end)
end)

-- ---- numbers in messages -----------------------------------------------------------

describe("numbers in messages", function()
  local g = astar.new(8, 6)

  it("are %.14g when that reads back, else %.17g", function()
    check_error("bad argument #3 to 'setCost' (cost must be a positive finite number up to 1e15, "
      .. "got 1000000000000000.1)", g.setCost, g, 1, 1, 1e15 + 0.125)
    check_error("bad argument #3 to 'setCost' (cost must be a positive finite number up to 1e15, "
      .. "got 1e+16)", g.setCost, g, 1, 1, 1e16)
    check_error("bad argument #3 to 'setCost' (cost must be a positive finite number up to 1e15, "
      .. "got -0.33333333333333331)", g.setCost, g, 1, 1, -1 / 3)
    check_error("bad argument #3 to 'setCost' (cost must be a positive finite number up to 1e15, "
      .. "got -0.1)", g.setCost, g, 1, 1, -0.1)
    check_error("bad argument #3 to 'setCost' (cost must be a positive finite number up to 1e15, "
      .. "got -4.9406564584125e-324)", g.setCost, g, 1, 1, -4.9406564584124654e-324)
    check_error("bad argument #1 to 'isWalkable' (x must be a whole number, got 1.0000000000009095)",
      g.isWalkable, g, 1 + 2 ^ -40, 1)
    check_error("bad argument #1 to 'step' (n must be a whole number >= 1 or math.huge, got 2.5)",
      function() local s = g:newSearch(1, 1, 8, 6) return s:step(2.5) end)
    check_error("bad argument #1 to 'setHeuristic' (unknown heuristic 'x'; expected manhattan, octile, "
      .. "euclidean, chebyshev or dijkstra)", g.setHeuristic, g, "x")
    check_error("bad argument #2 to 'setHeuristic' (weight must be a finite number >= 1, got 0.99999999999999989)",
      g.setHeuristic, g, "octile", 1 - 2 ^ -53)
    check_error("bad argument #3 to 'movementRange' (move must be a number >= 0, got -1e-300)",
      g.movementRange, g, 1, 1, -1e-300)
    check_error("bad argument #4 to 'movementRange' (opts.cost gave 1000000000000000.5 for (2, 1); "
      .. "expected a positive number up to 1e15, nil, false or math.huge)",
      g.movementRange, g, 1, 1, 3, { cost = function() return 1e15 + 0.5 end })
    check_error("bad argument #1 to 'dangerZone' (enemies[1].x out of range 1..8, got 0.30000000000000004)",
      g.dangerZone, g, { { x = 0.1 + 0.2, y = 1, move = 0, minRange = 1, maxRange = 1 } })
    check_error("bad argument #1 to 'dangerZone' (enemies[1].move must be a number >= 0, got -inf)",
      g.dangerZone, g, { { x = 1, y = 1, move = -math.huge, minRange = 1, maxRange = 1 } })
    check_error("bad argument #2 to 'attackRange' (minRange must be a whole number >= 0, got 0.30000000000000004)",
      g.attackRange, g, g:movementRange(1, 1, 0), 0.1 + 0.2, 1)
  end)

  it("accept the smallest numbers that are valid", function()
    g:setCost(2, 2, 4.9406564584124654e-324)
    assert.are.equal(4.9406564584124654e-324, g:getCost(2, 2))
    g:setCost(2, 2, 1)
  end)
end)

-- ---- the heuristic's scale -------------------------------------------------------------

describe("a weight and costs that overflow the heuristic's scale", function()
  -- the other backend, when it loads: the pure one always does
  local pure = require "astar.pure"
  local okC, cmod = pcall(require, "astar.core")
  local backends = { astar }
  if astar.backend == "c" then backends[2] = pure elseif okC then backends[2] = cmod end

  local function same_answer(desc, opts, sx, sy, gx, gy)
    local answers = {}
    for i, b in ipairs(backends) do
      local grid = R.build_grid(b, desc)
      local path, cost, reached = grid:findPath(sx, sy, gx, gy, opts)
      answers[i] = { path = path, cost = cost, reached = reached, stats = grid:getSearchStats() }
      if path then
        local mode = opts.diagonal or "no-obstacles"
        local target = path[#path]
        local sum = R.validate(desc, mode, path, sx, sy, target.x, target.y)
        assert(sum, "not a path on this grid")
        assert(R.close(sum, cost, 1e-12), ("cost %.17g, the path costs %.17g"):format(cost, sum))
        assert(cost == cost and cost < math.huge, "cost " .. tostring(cost))
      end
    end
    for i = 2, #answers do
      assert.are.same(answers[1].path, answers[i].path)
      assert.are.equal(answers[1].cost, answers[i].cost)
      assert.are.equal(answers[1].reached, answers[i].reached)
      if opts.algorithm == "astar" then assert.are.same(answers[1].stats, answers[i].stats) end
    end
    return answers[1]
  end

  it("gives the same path and cost on both backends, and a real path cost", function()
    local rng = R.rng(1010)
    local cases = {
      { weight = 1e300, costs = { 1e15 } },
      { weight = 1e300, costs = { 1e15, 5e14, 1e15 } },
      { weight = 1.7976931348623157e308, costs = { 1 } },
      { weight = 1.7976931348623157e308, costs = { 2.5, 1e15 } },
      { weight = 1e290, costs = { 1e14 } },               -- 1e304: capped too
      { weight = 1e285, costs = { 1e14 } },               -- 1e299: just below the cap
    }
    for _, case in ipairs(cases) do
      for round = 1, 3 do
        local desc = R.random_map(rng, 14, 11, 0.25, case.costs)
        desc.walkable[1][1], desc.walkable[14][11] = true, true
        for _, mode in ipairs(R.MODES) do
          for _, heuristic in ipairs({ "octile", "manhattan", "euclidean", "chebyshev" }) do
            local opts = { diagonal = mode, heuristic = heuristic, weight = case.weight,
              algorithm = round == 1 and "astar" or nil, partial = round == 3 }
            same_answer(desc, opts, 1, 1, 14, 11)
          end
        end
      end
    end
  end)

  it("is the grid's setting too (setHeuristic), for stepped searches as well", function()
    local desc = R.random_map(R.rng(77), 12, 12, 0.2, { 1e15 })
    desc.walkable[1][1], desc.walkable[12][12] = true, true
    local first
    for _, b in ipairs(backends) do
      local grid = R.build_grid(b, desc)
      grid:setHeuristic("euclidean", 1e300)
      local path, cost = grid:findPath(1, 1, 12, 12)
      local search = grid:newSearch(1, 1, 12, 12)
      while search:step(5) == "searching" do end
      assert.are.same({ path, cost }, { search:result() })
      if path then assert(R.close(R.validate(desc, "no-obstacles", path, 1, 1, 12, 12), cost, 1e-12)) end
      first = first or { path, cost }
      assert.are.same(first, { path, cost })
    end
  end)
end)
