-- The Grid API, method by method, against the README's API section.
--
-- Errors are compared with the whole message (helpers.errors): the library's
-- errors carry no "file:line:" position.

local astar = require "astar"
local R = require "helpers.reference"

local unpack = unpack or table.unpack -- luacheck: ignore 143

local NAN = 0 / 0
local INF = math.huge

local DIAG_LIST = "expected never, always, one-obstacle or no-obstacles"
local HEUR_LIST = "expected manhattan, octile, euclidean, chebyshev or dijkstra"

local check_error = require("helpers.errors").check_error

local function message_of(err)
  assert(type(err) == "string", "the error is a " .. type(err) .. ", not a string")
  return err
end

local function count(...) return select("#", ...) end

---------------------------------------------------------------------------------
-- A fixed 64x48 test map, with a reference solution per diagonal mode, used to check
-- that a grid still answers correctly after every error.
---------------------------------------------------------------------------------
local SW, SH = 64, 48
local SANITY = (function()
  local rng = R.rng(20240607)
  local desc = R.random_map(rng, SW, SH, 0.25)
  -- keep the top row and the right column open so (1, 1) -> (SW, SH) always exists
  for x = 1, SW do desc.walkable[x][1] = true end
  for y = 1, SH do desc.walkable[SW][y] = true end
  return desc
end)()
local SANITY_DIST = {}
for _, mode in ipairs(R.MODES) do
  SANITY_DIST[mode] = R.dijkstra(SANITY, mode, 1, 1)
end

local function sanity_grid()
  return R.build_grid(astar, SANITY)
end

local function settings(grid)
  local name, weight = grid:getHeuristic()
  return { diagonal = grid:getDiagonal(), heuristic = name, weight = weight }
end

-- The grid (built from SANITY) still finds a correct path with its current settings.
local function assert_still_works(grid)
  local s = settings(grid)
  local path, cost = grid:findPath(1, 1, SW, SH)
  assert.is_table(path, "findPath failed after an error: " .. tostring(cost))
  local walked, why = R.validate(SANITY, s.diagonal, path, 1, 1, SW, SH)
  assert(walked, why)
  assert(R.close(walked, cost), ("path cost %s but findPath returned %s"):format(walked, cost))
  local best = SANITY_DIST[s.diagonal][SW][SH]
  if s.weight == 1 then
    assert(R.close(cost, best), ("cost %.17g, optimal %.17g"):format(cost, best))
  else
    assert(cost <= s.weight * best * (1 + 1e-9), "weighted cost above the bound")
  end
end

-- A function calling grid:NAME(...) with method-call syntax, as users write it.
local callers = {}
local function method_caller(name)
  local f = callers[name]
  if not f then
    f = assert((loadstring or load)("return function(g, ...) return g:" .. name .. "(...) end", "=" .. name))()
    callers[name] = f
  end
  return f
end

-- check_error on a grid; afterwards the settings are unchanged and the grid still
-- works. When fn is a string, the call is grid:fn(...) (method syntax); otherwise
-- fn(...) as given.
local function check_grid_error(grid, expected, fn, ...)
  local before = settings(grid)
  if type(fn) == "string" then
    check_error(expected, method_caller(fn), grid, ...)
  else
    check_error(expected, fn, ...)
  end
  assert.are.same(before, settings(grid))
  assert_still_works(grid)
end

---------------------------------------------------------------------------------
describe("astar module", function()
  it("exposes the constructors and MAX_CELLS", function()
    assert.is_function(astar.new)
    assert.is_function(astar.fromString)
    assert.is_function(astar.fromMovingAI)
    assert.are.equal(268435456, astar.MAX_CELLS)
    assert.are.equal(2 ^ 28, astar.MAX_CELLS)
  end)
end)

---------------------------------------------------------------------------------
describe("astar.new", function()
  it("makes a grid of the given size, every cell walkable with cost 1", function()
    local g = astar.new(7, 5)
    assert.are.equal(7, g:getWidth())
    assert.are.equal(5, g:getHeight())
    local w, h = g:getDimensions()
    assert.are.equal(7, w)
    assert.are.equal(5, h)
    assert.are.equal(2, count(g:getDimensions()))
    for x = 1, 7 do
      for y = 1, 5 do
        assert.are.equal(true, g:isWalkable(x, y))
        assert.are.equal(1, g:getCost(x, y))
      end
    end
  end)

  it("accepts the extreme sizes", function()
    assert.are.same({ 1, 1 }, { astar.new(1, 1):getDimensions() })
    assert.are.same({ 65535, 1 }, { astar.new(65535, 1):getDimensions() })
    assert.are.same({ 1, 65535 }, { astar.new(1, 65535):getDimensions() })
    assert.are.same({ 3, 4 }, { astar.new(3.0, 4.0):getDimensions() })
  end)

  it("has the documented tostring", function()
    assert.are.equal("astar.Grid (40x30)", tostring(astar.new(40, 30)))
    assert.are.equal("astar.Grid (1x65535)", tostring(astar.new(1, 65535)))
  end)

  it("gives independent grids", function()
    local a, b = astar.new(3, 3), astar.new(3, 3)
    a:setWalkable(2, 2, false)
    a:setCost(1, 1, 5)
    a:setDiagonal("never")
    assert.is_true(b:isWalkable(2, 2))
    assert.are.equal(1, b:getCost(1, 1))
    assert.are.equal("no-obstacles", b:getDiagonal())
  end)

  it("rejects non-numbers", function()
    check_error("bad argument #1 to 'new' (number expected, got no value)", astar.new)
    check_error("bad argument #1 to 'new' (number expected, got nil)", astar.new, nil, 2)
    check_error("bad argument #1 to 'new' (number expected, got string)", astar.new, "a", 2)
    check_error("bad argument #1 to 'new' (number expected, got table)", astar.new, {}, 2)
    check_error("bad argument #1 to 'new' (number expected, got boolean)", astar.new, true, 2)
    check_error("bad argument #2 to 'new' (number expected, got no value)", astar.new, 2)
    check_error("bad argument #2 to 'new' (number expected, got nil)", astar.new, 2, nil)
    check_error("bad argument #2 to 'new' (number expected, got table)", astar.new, 2, {})
    check_error("bad argument #2 to 'new' (number expected, got function)", astar.new, 2, print)
  end)

  it("rejects numeric strings (a string is not a number)", function()
    check_error("bad argument #1 to 'new' (number expected, got string)", astar.new, "2", 2)
    check_error("bad argument #2 to 'new' (number expected, got string)", astar.new, 2, "2")
  end)

  it("rejects sizes that are not whole numbers", function()
    check_error("bad argument #1 to 'new' (width must be a whole number, got 2.5)", astar.new, 2.5, 2)
    check_error("bad argument #1 to 'new' (width must be a whole number, got -0.5)", astar.new, -0.5, 2)
    check_error("bad argument #1 to 'new' (width must be a whole number, got nan)", astar.new, NAN, 2)
    check_error("bad argument #1 to 'new' (width must be a whole number, got inf)", astar.new, INF, 2)
    check_error("bad argument #1 to 'new' (width must be a whole number, got -inf)", astar.new, -INF, 2)
    check_error("bad argument #1 to 'new' (width must be a whole number, got 0.33333333333333331)",
      astar.new, 1 / 3, 2)
    check_error("bad argument #2 to 'new' (height must be a whole number, got 2.5)", astar.new, 2, 2.5)
    check_error("bad argument #2 to 'new' (height must be a whole number, got nan)", astar.new, 2, NAN)
    check_error("bad argument #2 to 'new' (height must be a whole number, got inf)", astar.new, 2, INF)
    check_error("bad argument #2 to 'new' (height must be a whole number, got -inf)", astar.new, 2, -INF)
    check_error("bad argument #2 to 'new' (height must be a whole number, got 123456.75)",
      astar.new, 2, 123456.75)
  end)

  it("rejects sizes out of range", function()
    check_error("bad argument #1 to 'new' (width out of range 1..65535)", astar.new, 0, 2)
    check_error("bad argument #1 to 'new' (width out of range 1..65535)", astar.new, -1, 2)
    check_error("bad argument #1 to 'new' (width out of range 1..65535)", astar.new, 65536, 2)
    check_error("bad argument #1 to 'new' (width out of range 1..65535)", astar.new, 2 ^ 32 + 1, 1)
    check_error("bad argument #1 to 'new' (width out of range 1..65535)", astar.new, 1e300, 1)
    check_error("bad argument #1 to 'new' (width out of range 1..65535)", astar.new, -1e300, 1)
    check_error("bad argument #2 to 'new' (height out of range 1..65535)", astar.new, 2, 0)
    check_error("bad argument #2 to 'new' (height out of range 1..65535)", astar.new, 2, 65536)
    check_error("bad argument #2 to 'new' (height out of range 1..65535)", astar.new, 2, 2 ^ 32)
    check_error("bad argument #2 to 'new' (height out of range 1..65535)", astar.new, 2, -1e300)
  end)

  it("rejects more than MAX_CELLS cells", function()
    local msg = "bad argument #2 to 'new' (width * height exceeds the maximum of 268435456 cells)"
    check_error(msg, astar.new, 65535, 65535)
    check_error(msg, astar.new, 16385, 16384)
    check_error(msg, astar.new, 16384, 16385)
    check_error(msg, astar.new, 65535, 4097)
  end)
end)

---------------------------------------------------------------------------------
describe("cells", function()
  it("setWalkable / isWalkable round-trip", function()
    local g = astar.new(4, 3)
    g:setWalkable(2, 3, false)
    g:setWalkable(4, 1, false)
    for x = 1, 4 do
      for y = 1, 3 do
        local want = not ((x == 2 and y == 3) or (x == 4 and y == 1))
        assert.are.equal(want, g:isWalkable(x, y))
      end
    end
    g:setWalkable(2, 3, true)
    assert.are.equal(true, g:isWalkable(2, 3))
    g:setWalkable(2, 3, true)
    assert.are.equal(true, g:isWalkable(2, 3))
    g:setWalkable(4, 1, false)
    assert.are.equal(false, g:isWalkable(4, 1))
  end)

  it("setCost / getCost return exactly what was set", function()
    local g = astar.new(3, 3)
    local values = { 3, 0.5, 1.25, 0.1, 1e15, 1e-300, 123456.789, 2 / 3 }
    for i, v in ipairs(values) do
      local x, y = (i - 1) % 3 + 1, math.floor((i - 1) / 3) + 1
      g:setCost(x, y, v)
    end
    for i, v in ipairs(values) do
      local x, y = (i - 1) % 3 + 1, math.floor((i - 1) / 3) + 1
      assert.are.equal(v, g:getCost(x, y))
    end
    assert.are.equal(1, g:getCost(3, 3))
  end)

  it("a wall keeps its cost and gets it back when walkable again", function()
    local g = astar.new(3, 1)
    g:setCost(2, 1, 7.5)
    g:setWalkable(2, 1, false)
    assert.are.equal(7.5, g:getCost(2, 1))
    g:setCost(2, 1, 4)          -- setting the cost of a wall is allowed
    assert.are.equal(false, g:isWalkable(2, 1))
    assert.are.equal(4, g:getCost(2, 1))
    g:setWalkable(2, 1, true)
    assert.are.equal(4, g:getCost(2, 1))
    local path, cost = g:findPath(1, 1, 3, 1)
    assert.are.equal(3, #path)
    assert.are.equal(5, cost)   -- 4 to enter (2, 1), 1 to enter (3, 1)
  end)

  -- The four per-cell methods share the coordinate checks (x is #1, y is #2).
  local cell_methods = {
    { "setWalkable", { true } },
    { "isWalkable", {} },
    { "setCost", { 2 } },
    { "getCost", {} },
  }
  for _, m in ipairs(cell_methods) do
    local name, rest = m[1], m[2]
    local caller = method_caller(name)
    local function call(grid, x, y)
      return caller(grid, x, y, unpack(rest))
    end

    describe(name, function()
      local grid = sanity_grid()
      local pre = "bad argument #1 to '" .. name .. "' ("
      local pre2 = "bad argument #2 to '" .. name .. "' ("

      it("rejects a bad x", function()
        check_grid_error(grid, pre .. "number expected, got nil)", call, grid, nil, 1)
        check_grid_error(grid, pre .. "number expected, got string)", call, grid, "a", 1)
        check_grid_error(grid, pre .. "number expected, got table)", call, grid, {}, 1)
        check_grid_error(grid, pre .. "number expected, got boolean)", call, grid, false, 1)
        check_grid_error(grid, pre .. "x must be a whole number, got 1.5)", call, grid, 1.5, 1)
        check_grid_error(grid, pre .. "x must be a whole number, got -7.25)", call, grid, -7.25, 1)
        check_grid_error(grid, pre .. "x must be a whole number, got 0.33333333333333331)", call, grid, 1 / 3, 1)
        check_grid_error(grid, pre .. "x must be a whole number, got nan)", call, grid, NAN, 1)
        check_grid_error(grid, pre .. "x must be a whole number, got inf)", call, grid, INF, 1)
        check_grid_error(grid, pre .. "x must be a whole number, got -inf)", call, grid, -INF, 1)
        check_grid_error(grid, pre .. "x out of range 1..64)", call, grid, 0, 1)
        check_grid_error(grid, pre .. "x out of range 1..64)", call, grid, -1, 1)
        check_grid_error(grid, pre .. "x out of range 1..64)", call, grid, 65, 1)
        check_grid_error(grid, pre .. "x out of range 1..64)", call, grid, 2 ^ 32 + 1, 1)
        check_grid_error(grid, pre .. "x out of range 1..64)", call, grid, 1e300, 1)
      end)

      it("rejects a bad y", function()
        check_grid_error(grid, pre2 .. "number expected, got nil)", call, grid, 1, nil)
        check_grid_error(grid, pre2 .. "number expected, got string)", call, grid, 1, "a")
        check_grid_error(grid, pre2 .. "number expected, got table)", call, grid, 1, {})
        check_grid_error(grid, pre2 .. "y must be a whole number, got 1.5)", call, grid, 1, 1.5)
        check_grid_error(grid, pre2 .. "y must be a whole number, got nan)", call, grid, 1, NAN)
        check_grid_error(grid, pre2 .. "y must be a whole number, got inf)", call, grid, 1, INF)
        check_grid_error(grid, pre2 .. "y must be a whole number, got -inf)", call, grid, 1, -INF)
        check_grid_error(grid, pre2 .. "y out of range 1..48)", call, grid, 1, 0)
        check_grid_error(grid, pre2 .. "y out of range 1..48)", call, grid, 1, 49)
        check_grid_error(grid, pre2 .. "y out of range 1..48)", call, grid, 64, 64)
        check_grid_error(grid, pre2 .. "y out of range 1..48)", call, grid, 1, -1e300)
      end)

      it("rejects a numeric string coordinate", function()
        check_grid_error(grid, pre .. "number expected, got string)", call, grid, "1", 1)
        check_grid_error(grid, pre2 .. "number expected, got string)", call, grid, 1, "1")
      end)

      it("says 'no value' for missing coordinates", function()
        check_grid_error(grid, pre .. "number expected, got no value)", name)
        check_grid_error(grid, pre2 .. "number expected, got no value)", name, 1)
      end)
    end)
  end

  describe("third arguments", function()
    local grid = sanity_grid()

    it("setWalkable needs a boolean", function()
      local pre = "bad argument #3 to 'setWalkable' ("
      check_grid_error(grid, pre .. "boolean expected, got number)", "setWalkable", 2, 2, 1)
      check_grid_error(grid, pre .. "boolean expected, got number)", "setWalkable", 2, 2, 0)
      check_grid_error(grid, pre .. "boolean expected, got nil)", "setWalkable", 2, 2, nil)
      check_grid_error(grid, pre .. "boolean expected, got no value)", "setWalkable", 2, 2)
      check_grid_error(grid, pre .. "boolean expected, got string)", "setWalkable", 2, 2, "true")
      check_grid_error(grid, pre .. "boolean expected, got table)", "setWalkable", 2, 2, {})
      assert.are.equal(SANITY.walkable[2][2], grid:isWalkable(2, 2))
    end)

    it("setCost needs a positive finite number up to 1e15", function()
      local pre = "bad argument #3 to 'setCost' ("
      local before = grid:getCost(3, 2)
      check_grid_error(grid, pre .. "number expected, got string)", "setCost", 3, 2, "x")
      check_grid_error(grid, pre .. "number expected, got string)", "setCost", 3, 2, "2")
      check_grid_error(grid, pre .. "number expected, got nil)", "setCost", 3, 2, nil)
      check_grid_error(grid, pre .. "number expected, got no value)", "setCost", 3, 2)
      check_grid_error(grid, pre .. "number expected, got boolean)", "setCost", 3, 2, true)
      local bad = "cost must be a positive finite number up to 1e15, got "
      check_grid_error(grid, pre .. bad .. "-1)", "setCost", 3, 2, -1)
      check_grid_error(grid, pre .. bad .. "0)", "setCost", 3, 2, 0)
      check_grid_error(grid, pre .. bad .. "-0.5)", "setCost", 3, 2, -0.5)
      check_grid_error(grid, pre .. bad .. "nan)", "setCost", 3, 2, NAN)
      check_grid_error(grid, pre .. bad .. "inf)", "setCost", 3, 2, INF)
      check_grid_error(grid, pre .. bad .. "-inf)", "setCost", 3, 2, -INF)
      check_grid_error(grid, pre .. bad .. "2e+15)", "setCost", 3, 2, 2e15)
      check_grid_error(grid, pre .. bad .. "1e+16)", "setCost", 3, 2, 1e16)
      check_grid_error(grid, pre .. bad .. "1.5e+300)", "setCost", 3, 2, 1.5e300)
      assert.are.equal(before, grid:getCost(3, 2))
    end)
  end)
end)

---------------------------------------------------------------------------------
describe("settings", function()
  it("default to no-obstacles and octile with weight 1", function()
    local g = astar.new(5, 5)
    assert.are.equal("no-obstacles", g:getDiagonal())
    assert.are.equal(2, count(g:getHeuristic()))
    local name, weight = g:getHeuristic()
    assert.are.equal("octile", name)
    assert.are.equal(1, weight)
  end)

  it("setDiagonal / getDiagonal round-trip every mode", function()
    local g = astar.new(5, 5)
    for _, mode in ipairs(R.MODES) do
      g:setDiagonal(mode)
      assert.are.equal(mode, g:getDiagonal())
    end
  end)

  it("the heuristic follows the diagonal mode until setHeuristic is called", function()
    local g = astar.new(5, 5)
    g:setDiagonal("never")
    assert.are.same({ "manhattan", 1 }, { g:getHeuristic() })
    g:setDiagonal("always")
    assert.are.same({ "octile", 1 }, { g:getHeuristic() })
    g:setDiagonal("one-obstacle")
    assert.are.same({ "octile", 1 }, { g:getHeuristic() })
    g:setDiagonal("never")
    assert.are.same({ "manhattan", 1 }, { g:getHeuristic() })
    g:setHeuristic("euclidean")
    assert.are.same({ "euclidean", 1 }, { g:getHeuristic() })
    g:setDiagonal("no-obstacles")
    assert.are.same({ "euclidean", 1 }, { g:getHeuristic() })
    g:setDiagonal("never")
    assert.are.same({ "euclidean", 1 }, { g:getHeuristic() })
  end)

  it("an explicit octile stays after switching to never", function()
    local g = astar.new(5, 5)
    g:setHeuristic("octile")
    g:setDiagonal("never")
    assert.are.same({ "octile", 1 }, { g:getHeuristic() })
  end)

  it("setHeuristic / getHeuristic round-trip names and weights", function()
    local g = astar.new(5, 5)
    for _, name in ipairs(R.HEURISTICS) do
      g:setHeuristic(name)
      assert.are.same({ name, 1 }, { g:getHeuristic() })
      g:setHeuristic(name, 2.5)
      assert.are.same({ name, 2.5 }, { g:getHeuristic() })
      g:setHeuristic(name, 1)
      assert.are.same({ name, 1 }, { g:getHeuristic() })
    end
    g:setHeuristic("chebyshev", 1e6)
    assert.are.same({ "chebyshev", 1e6 }, { g:getHeuristic() })
    g:setHeuristic("octile")  -- weight back to the default
    assert.are.same({ "octile", 1 }, { g:getHeuristic() })
  end)

  describe("errors", function()
    local grid = sanity_grid()

    it("setDiagonal needs a known mode name", function()
      local pre = "bad argument #1 to 'setDiagonal' ("
      check_grid_error(grid, pre .. "string expected, got number)", "setDiagonal", 1)
      check_grid_error(grid, pre .. "string expected, got no value)", "setDiagonal")
      check_grid_error(grid, pre .. "string expected, got nil)", "setDiagonal", nil)
      check_grid_error(grid, pre .. "string expected, got table)", "setDiagonal", {})
      check_grid_error(grid, pre .. "string expected, got boolean)", "setDiagonal", true)
      check_grid_error(grid, pre .. "unknown diagonal mode 'diag'; " .. DIAG_LIST .. ")",
        "setDiagonal", "diag")
      check_grid_error(grid, pre .. "unknown diagonal mode ''; " .. DIAG_LIST .. ")",
        "setDiagonal", "")
      check_grid_error(grid, pre .. "unknown diagonal mode 'Never'; " .. DIAG_LIST .. ")",
        "setDiagonal", "Never")
      check_grid_error(grid, pre .. "unknown diagonal mode 'no-obstacles '; " .. DIAG_LIST .. ")",
        "setDiagonal", "no-obstacles ")
    end)

    it("setHeuristic needs a known name", function()
      local pre = "bad argument #1 to 'setHeuristic' ("
      grid:setDiagonal("always")
      check_grid_error(grid, pre .. "string expected, got number)", "setHeuristic", 2)
      check_grid_error(grid, pre .. "string expected, got no value)", "setHeuristic")
      check_grid_error(grid, pre .. "string expected, got nil)", "setHeuristic", nil, 2)
      check_grid_error(grid, pre .. "unknown heuristic 'foo'; " .. HEUR_LIST .. ")",
        "setHeuristic", "foo")
      check_grid_error(grid, pre .. "unknown heuristic 'Octile'; " .. HEUR_LIST .. ")",
        "setHeuristic", "Octile", 2)
      check_grid_error(grid, pre .. "unknown heuristic ''; " .. HEUR_LIST .. ")",
        "setHeuristic", "")
      -- still the one following the diagonal mode (setHeuristic never succeeded)
      assert.are.same({ "octile", 1 }, { grid:getHeuristic() })
      grid:setDiagonal("never")
      assert.are.same({ "manhattan", 1 }, { grid:getHeuristic() })
      grid:setDiagonal("no-obstacles")
    end)

    it("setHeuristic needs a finite weight >= 1", function()
      local pre = "bad argument #2 to 'setHeuristic' ("
      grid:setHeuristic("euclidean", 2)
      check_grid_error(grid, pre .. "number expected, got string)", "setHeuristic", "octile", "x")
      check_grid_error(grid, pre .. "number expected, got string)", "setHeuristic", "octile", "2")
      check_grid_error(grid, pre .. "number expected, got table)", "setHeuristic", "octile", {})
      check_grid_error(grid, pre .. "number expected, got boolean)", "setHeuristic", "octile", true)
      local bad = "weight must be a finite number >= 1, got "
      check_grid_error(grid, pre .. bad .. "0.5)", "setHeuristic", "octile", 0.5)
      check_grid_error(grid, pre .. bad .. "0)", "setHeuristic", "octile", 0)
      check_grid_error(grid, pre .. bad .. "-3)", "setHeuristic", "octile", -3)
      check_grid_error(grid, pre .. bad .. "0.999999)", "setHeuristic", "octile", 0.999999)
      check_grid_error(grid, pre .. bad .. "nan)", "setHeuristic", "octile", NAN)
      check_grid_error(grid, pre .. bad .. "inf)", "setHeuristic", "octile", INF)
      check_grid_error(grid, pre .. bad .. "-inf)", "setHeuristic", "octile", -INF)
      assert.are.same({ "euclidean", 2 }, { grid:getHeuristic() })
      grid:setHeuristic("octile")
    end)
  end)
end)

---------------------------------------------------------------------------------
describe("findPath", function()
  it("start == goal gives a one-point path and cost 0", function()
    local g = astar.new(5, 4)
    assert.are.equal(2, count(g:findPath(3, 2, 3, 2)))
    local path, cost = g:findPath(3, 2, 3, 2)
    assert.are.same({ { x = 3, y = 2 } }, path)
    assert.are.equal(0, cost)
    for _, mode in ipairs(R.MODES) do
      path, cost = g:findPath(1, 1, 1, 1, { diagonal = mode })
      assert.are.same({ { x = 1, y = 1 } }, path)
      assert.are.equal(0, cost)
    end
  end)

  it("start == goal on a wall is still a one-point path (the start is not checked)", function()
    local g = astar.new(3, 3)
    g:setWalkable(2, 2, false)
    local path, cost = g:findPath(2, 2, 2, 2)
    assert.are.same({ { x = 2, y = 2 } }, path)
    assert.are.equal(0, cost)
  end)

  it("finds a straight path with the right cost", function()
    local g = astar.new(5, 1)
    g:setCost(3, 1, 2.5)
    g:setCost(1, 1, 100) -- the start's cost is never paid
    local path, cost = g:findPath(1, 1, 5, 1)
    assert.are.same({ { x = 1, y = 1 }, { x = 2, y = 1 }, { x = 3, y = 1 }, { x = 4, y = 1 }, { x = 5, y = 1 } },
      path)
    assert.are.equal(5.5, cost)
    path, cost = g:findPath(5, 1, 1, 1)
    assert.are.equal(5, #path)
    assert.are.equal(104.5, cost)
  end)

  it("pays sqrt(2) * cost for a diagonal step", function()
    local g = astar.new(2, 2)
    g:setCost(2, 2, 3)
    g:setCost(2, 1, 5)
    g:setCost(1, 2, 5)
    local path, cost = g:findPath(1, 1, 2, 2, { diagonal = "always" })
    assert.are.same({ { x = 1, y = 1 }, { x = 2, y = 2 } }, path)
    assert(R.close(cost, 3 * math.sqrt(2)), tostring(cost))
    path, cost = g:findPath(1, 1, 2, 2, { diagonal = "never" })
    assert.are.equal(3, #path)
    assert.are.equal(8, cost)
  end)

  it("returns nil, 'goal is blocked' for a wall goal", function()
    local g = astar.new(4, 4)
    g:setWalkable(4, 4, false)
    assert.are.equal(2, count(g:findPath(1, 1, 4, 4)))
    local path, reason = g:findPath(1, 1, 4, 4)
    assert.is_nil(path)
    assert.are.equal("goal is blocked", reason)
    -- also when the goal is a neighbour of the start
    path, reason = g:findPath(3, 4, 4, 4, { diagonal = "never" })
    assert.is_nil(path)
    assert.are.equal("goal is blocked", reason)
  end)

  it("returns nil, 'no path' for a walled-off goal in every mode", function()
    local g = astar.fromString(table.concat({
      ".....",
      ".###.",
      ".#.#.",
      ".###.",
      ".....",
    }, "\n"))
    for _, mode in ipairs(R.MODES) do
      g:setDiagonal(mode)
      assert.are.equal(2, count(g:findPath(1, 1, 3, 3)))
      local path, reason = g:findPath(1, 1, 3, 3)
      assert.is_nil(path)
      assert.are.equal("no path", reason)
      path, reason = g:findPath(3, 3, 5, 5)
      assert.is_nil(path)
      assert.are.equal("no path", reason)
    end
  end)

  it("honours the diagonal rule on a squeeze between two walls", function()
    -- S# / #G : only "always" may step through
    local g = astar.fromString(".#\n#.")
    local expected = { never = false, always = true, ["one-obstacle"] = false, ["no-obstacles"] = false }
    for _, mode in ipairs(R.MODES) do
      local path, cost = g:findPath(1, 1, 2, 2, { diagonal = mode })
      if expected[mode] then
        assert.are.same({ { x = 1, y = 1 }, { x = 2, y = 2 } }, path)
        assert(R.close(cost, math.sqrt(2)))
      else
        assert.is_nil(path)
        assert.are.equal("no path", cost)
      end
    end
    -- S. / #G : one wall, only "one-obstacle" and "always" cut the corner
    g = astar.fromString("..\n#.")
    for _, mode in ipairs(R.MODES) do
      local path, cost = g:findPath(1, 1, 2, 2, { diagonal = mode })
      local desc = R.parse_string_map("..\n#.")
      local walked = assert(R.validate(desc, mode, path, 1, 1, 2, 2))
      assert(R.close(walked, cost))
      if mode == "always" or mode == "one-obstacle" then
        assert.are.equal(2, #path)
      else
        assert.are.equal(3, #path)
        assert.are.equal(2, cost)
      end
    end
  end)

  it("accepts a wall as the start cell", function()
    local desc = R.parse_string_map(table.concat({
      "....",
      ".#..",
      "..#.",
      "....",
    }, "\n"))
    local g = R.build_grid(astar, desc)
    for _, mode in ipairs(R.MODES) do
      g:setDiagonal(mode)
      local dist = R.dijkstra(desc, mode, 2, 2)
      local path, cost = g:findPath(2, 2, 4, 4)
      assert.is_table(path, tostring(cost))
      local walked = assert(R.validate(desc, mode, path, 2, 2, 4, 4))
      assert(R.close(walked, cost))
      assert(R.close(cost, dist[4][4]), mode .. ": " .. cost .. " vs " .. dist[4][4])
    end
  end)

  it("works on 1-wide grids", function()
    local g = astar.new(1, 65535)
    local path, cost = g:findPath(1, 1, 1, 65535)
    assert.are.equal(65535, #path)
    assert.are.equal(65534, cost)
    assert.are.same({ x = 1, y = 40000 }, path[40000])
  end)

  it("counts coordinates as #1..#4 with the names sx, sy, gx, gy", function()
    local grid = sanity_grid()
    local fp = method_caller("findPath")
    local names = { "sx", "sy", "gx", "gy" }
    local ranges = { "1..64", "1..48", "1..64", "1..48" }
    for i = 1, 4 do
      local pre = ("bad argument #%d to 'findPath' ("):format(i)
      local function with(v)
        local a = { 1, 1, 2, 2 }
        a[i] = v
        return grid, a[1], a[2], a[3], a[4]
      end
      check_grid_error(grid, pre .. "number expected, got nil)", fp, with(nil))
      check_grid_error(grid, pre .. "number expected, got string)", fp, with("z"))
      check_grid_error(grid, pre .. "number expected, got string)", fp, with("1"))
      if i == 3 then   -- a table is a list of goals there: an empty one is an error
        check_grid_error(grid, pre .. "goals: empty list)", fp, with({}))
      else
        check_grid_error(grid, pre .. "number expected, got table)", fp, with({}))
      end
      check_grid_error(grid, pre .. "number expected, got boolean)", fp, with(true))
      check_grid_error(grid, pre .. names[i] .. " must be a whole number, got 1.5)", fp, with(1.5))
      check_grid_error(grid, pre .. names[i] .. " must be a whole number, got nan)", fp, with(NAN))
      check_grid_error(grid, pre .. names[i] .. " must be a whole number, got inf)", fp, with(INF))
      check_grid_error(grid, pre .. names[i] .. " must be a whole number, got -inf)", fp, with(-INF))
      check_grid_error(grid, pre .. names[i] .. " out of range " .. ranges[i] .. ")", fp, with(0))
      check_grid_error(grid, pre .. names[i] .. " out of range " .. ranges[i] .. ")", fp, with(-5))
      check_grid_error(grid, pre .. names[i] .. " out of range " .. ranges[i] .. ")", fp, with(i % 2 == 1 and 65 or 49))
      check_grid_error(grid, pre .. names[i] .. " out of range " .. ranges[i] .. ")", fp, with(1e300))
    end
    check_grid_error(grid, "bad argument #1 to 'findPath' (number expected, got no value)", fp, grid)
    check_grid_error(grid, "bad argument #2 to 'findPath' (number expected, got no value)", fp, grid, 1)
    check_grid_error(grid, "bad argument #3 to 'findPath' (number expected, got no value)", fp, grid, 1, 1)
    check_grid_error(grid, "bad argument #4 to 'findPath' (number expected, got no value)", fp, grid, 1, 1, 1)
  end)

  describe("opts", function()
    local grid = sanity_grid()
    local pre = "bad argument #5 to 'findPath' ("
    local function fp(opts)
      return grid:findPath(1, 1, 5, 5, opts)
    end

    it("must be a table or nil", function()
      check_grid_error(grid, pre .. "table expected, got number)", fp, 3)
      check_grid_error(grid, pre .. "table expected, got string)", fp, "never")
      check_grid_error(grid, pre .. "table expected, got boolean)", fp, true)
      check_grid_error(grid, pre .. "table expected, got boolean)", fp, false)
      check_grid_error(grid, pre .. "table expected, got function)", fp, print)
      assert.is_table(grid:findPath(1, 1, 5, 5, nil))
      assert.is_table(grid:findPath(1, 1, 5, 5, {}))
    end)

    it("rejects unknown and non-string keys", function()
      check_grid_error(grid, pre .. "unknown option 'diagnoal')", fp, { diagnoal = "never" })
      check_grid_error(grid, pre .. "unknown option 'Diagonal')", fp, { Diagonal = "never" })
      check_grid_error(grid, pre .. "unknown option 'weigth')", fp, { heuristic = "octile", weigth = 2 })
      check_grid_error(grid, pre .. "unknown option 'x')", fp, { x = false })
      check_grid_error(grid, pre .. "option names must be strings, got number)", fp, { "never" })
      check_grid_error(grid, pre .. "option names must be strings, got number)", fp, { [1.5] = true })
      check_grid_error(grid, pre .. "option names must be strings, got boolean)", fp, { [true] = 1 })
      check_grid_error(grid, pre .. "option names must be strings, got table)", fp, { [{}] = 1 })
    end)

    it("rejects bad field values with the setter's message", function()
      check_grid_error(grid, pre .. "opts.diagonal: unknown diagonal mode 'x'; " .. DIAG_LIST .. ")",
        fp, { diagonal = "x" })
      check_grid_error(grid, pre .. "opts.diagonal: string expected, got number)", fp, { diagonal = 4 })
      check_grid_error(grid, pre .. "opts.diagonal: string expected, got boolean)", fp, { diagonal = false })
      check_grid_error(grid, pre .. "opts.heuristic: string expected, got number)", fp, { heuristic = 1 })
      check_grid_error(grid, pre .. "opts.heuristic: unknown heuristic 'foo'; " .. HEUR_LIST .. ")",
        fp, { heuristic = "foo" })
      check_grid_error(grid, pre .. "opts.weight: weight must be a finite number >= 1, got 0)",
        fp, { weight = 0 })
      check_grid_error(grid, pre .. "opts.weight: weight must be a finite number >= 1, got 0.5)",
        fp, { heuristic = "octile", weight = 0.5 })
      check_grid_error(grid, pre .. "opts.weight: weight must be a finite number >= 1, got nan)",
        fp, { weight = NAN })
      check_grid_error(grid, pre .. "opts.weight: weight must be a finite number >= 1, got inf)",
        fp, { weight = INF })
      check_grid_error(grid, pre .. "opts.weight: number expected, got string)", fp, { weight = "2" })
      check_grid_error(grid, pre .. "opts.weight: number expected, got boolean)", fp, { weight = true })
      check_grid_error(grid, pre .. "opts.partial: boolean expected, got number)", fp, { partial = 1 })
      check_grid_error(grid, pre .. "opts.partial: boolean expected, got string)", fp, { partial = "yes" })
      -- valid fields next to a bad one change nothing either
      check_grid_error(grid, pre .. "opts.weight: weight must be a finite number >= 1, got 0)",
        fp, { diagonal = "always", heuristic = "dijkstra", weight = 0 })
    end)

    it("override the grid's settings for this call only", function()
      local g = sanity_grid()
      g:setDiagonal("never")
      g:setHeuristic("euclidean", 2.5)
      local gx, gy = SW, SH
      for _, mode in ipairs(R.MODES) do
        -- a heuristic without a weight uses weight 1: the result must be optimal
        local path, cost = g:findPath(1, 1, gx, gy, { diagonal = mode, heuristic = "octile" })
        local walked = assert(R.validate(SANITY, mode, path, 1, 1, gx, gy))
        assert(R.close(walked, cost))
        assert(R.close(cost, SANITY_DIST[mode][gx][gy]), mode .. ": " .. cost .. " vs " .. SANITY_DIST[mode][gx][gy])
        path, cost = g:findPath(1, 1, gx, gy, { diagonal = mode, heuristic = "dijkstra", weight = 1 })
        walked = assert(R.validate(SANITY, mode, path, 1, 1, gx, gy))
        assert(R.close(walked, cost))
        assert(R.close(cost, SANITY_DIST[mode][gx][gy]))
        assert.are.equal("never", g:getDiagonal())
        assert.are.same({ "euclidean", 2.5 }, { g:getHeuristic() })
      end
      -- without opts the grid's own settings apply again
      local path, cost = g:findPath(1, 1, gx, gy)
      local walked = assert(R.validate(SANITY, "never", path, 1, 1, gx, gy))
      assert(R.close(walked, cost))
      assert(cost <= 2.5 * SANITY_DIST.never[gx][gy] * (1 + 1e-9))
      g:setHeuristic("manhattan")
      path, cost = g:findPath(1, 1, gx, gy)
      walked = assert(R.validate(SANITY, "never", path, 1, 1, gx, gy))
      assert(R.close(walked, cost))
      assert(R.close(cost, SANITY_DIST.never[gx][gy]))
      -- opts.weight alone keeps the grid's heuristic, and does not stick
      path, cost = g:findPath(1, 1, gx, gy, { weight = 3 })
      walked = assert(R.validate(SANITY, "never", path, 1, 1, gx, gy))
      assert(R.close(walked, cost))
      assert(cost <= 3 * SANITY_DIST.never[gx][gy] * (1 + 1e-9))
      assert.are.same({ "manhattan", 1 }, { g:getHeuristic() })
      -- opts.diagonal alone
      path, cost = g:findPath(1, 1, gx, gy, { diagonal = "always" })
      walked = assert(R.validate(SANITY, "always", path, 1, 1, gx, gy))
      assert(R.close(walked, cost))
      assert.are.equal("never", g:getDiagonal())
    end)

    it("partial = false behaves like no partial", function()
      local g = astar.fromString(".#.\n.#.\n.#.")
      local path, reason = g:findPath(1, 1, 3, 3, { partial = false })
      assert.is_nil(path)
      assert.are.equal("no path", reason)
      assert.are.equal(2, count(g:findPath(1, 1, 3, 3, { partial = false })))
    end)
  end)
end)

---------------------------------------------------------------------------------
describe("partial paths", function()
  local function expected_candidates(desc, mode, hname, sx, sy, gx, gy)
    local dist = R.dijkstra(desc, mode, sx, sy)
    local best_h
    for x = 1, desc.w do
      for y = 1, desc.h do
        if dist[x][y] then
          local hd = R.heuristic_distance(hname, mode, x, y, gx, gy)
          if not best_h or hd < best_h then best_h = hd end
        end
      end
    end
    local cands, best_g = {}, nil
    for x = 1, desc.w do
      for y = 1, desc.h do
        if dist[x][y] then
          local hd = R.heuristic_distance(hname, mode, x, y, gx, gy)
          if R.close(hd, best_h) then
            cands[#cands + 1] = { x = x, y = y, g = dist[x][y] }
            if not best_g or dist[x][y] < best_g then best_g = dist[x][y] end
          end
        end
      end
    end
    local set = {}
    for _, c in ipairs(cands) do
      if R.close(c.g, best_g) then set[c.x .. "," .. c.y] = c.g end
    end
    return set, dist
  end

  local function check_partial(grid, desc, mode, hname, sx, sy, gx, gy, opts)
    local reach = R.dijkstra(desc, mode, sx, sy)
    local n = count(grid:findPath(sx, sy, gx, gy, opts))
    local path, cost, reached = grid:findPath(sx, sy, gx, gy, opts)
    local what = ("%s/%s (%d,%d)->(%d,%d)"):format(mode, hname, sx, sy, gx, gy)
    assert.are.equal(3, n, what .. ": expected 3 results")
    assert.is_table(path, what .. ": " .. tostring(cost))
    local goal_ok = (sx == gx and sy == gy) or (reach[gx][gy] ~= nil and desc.walkable[gx][gy])
    if goal_ok then
      assert.are.equal(true, reached, what)
      local walked, why = R.validate(desc, mode, path, sx, sy, gx, gy)
      assert(walked, what .. ": " .. tostring(why))
      assert(R.close(walked, cost), what)
      assert(R.close(cost, reach[gx][gy]), what .. ": cost " .. cost .. " vs " .. reach[gx][gy])
      return true
    end
    assert.are.equal(false, reached, what)
    local last = path[#path]
    assert.is_table(last, what)
    local set = expected_candidates(desc, mode, hname, sx, sy, gx, gy)
    local key = tostring(last.x) .. "," .. tostring(last.y)
    if set[key] == nil then
      local keys = {}
      for k in pairs(set) do keys[#keys + 1] = "(" .. k .. ")" end
      table.sort(keys)
      error(("%s: partial path ends at (%s), expected one of %s"):format(what, key, table.concat(keys, " ")))
    end
    local walked, why = R.validate(desc, mode, path, sx, sy, last.x, last.y)
    assert(walked, what .. ": " .. tostring(why))
    assert(R.close(walked, cost), what .. ": summed " .. walked .. " returned " .. cost)
    assert(R.close(cost, set[key]), what .. ": cost " .. cost .. ", optimal to that cell " .. set[key])
    return false
  end

  it("returns the path, its cost and true when the goal is reached", function()
    local g = astar.new(6, 4)
    local path, cost, reached = g:findPath(1, 1, 6, 4, { partial = true })
    assert.are.equal(true, reached)
    assert.are.equal(6, #path)
    assert(R.close(cost, 2 + 3 * math.sqrt(2)), tostring(cost))
    path, cost, reached = g:findPath(2, 2, 2, 2, { partial = true })
    assert.are.same({ { x = 2, y = 2 } }, path)
    assert.are.equal(0, cost)
    assert.are.equal(true, reached)
  end)

  it("goes to the reached cell closest to an unreachable goal", function()
    local text = table.concat({
      "..........",
      "..........",
      "......###.",
      ".....##.#.",
      "......###.",
    }, "\n")
    local desc = R.parse_string_map(text)
    local g = astar.fromString(text)
    for _, mode in ipairs(R.MODES) do
      for _, h in ipairs(R.admissible_heuristics(mode)) do
        assert.is_false(check_partial(g, desc, mode, h, 1, 1, 8, 4,
          { partial = true, diagonal = mode, heuristic = h }))
      end
    end
    -- the known answer for "never"/manhattan: (8, 2) and (10, 4) are the only
    -- reached cells at distance 2; (8, 2) costs 8 and (10, 4) costs 12
    local path, cost, reached = g:findPath(1, 1, 8, 4, { partial = true, diagonal = "never" })
    assert.are.equal(false, reached)
    assert.are.same({ x = 8, y = 2 }, path[#path])
    assert.are.equal(8, cost)
  end)

  it("treats a blocked goal as unreachable", function()
    local text = "....\n....\n...#"
    local desc = R.parse_string_map(text)
    local g = astar.fromString(text)
    for _, mode in ipairs(R.MODES) do
      assert.is_false(check_partial(g, desc, mode, mode == "never" and "manhattan" or "octile", 1, 1, 4, 3,
        { partial = true, diagonal = mode }))
    end
  end)

  it("returns the start alone when nothing is closer", function()
    local g = astar.fromString("..#.\n###.")
    local path, cost, reached = g:findPath(2, 1, 4, 2, { partial = true })
    assert.are.same({ { x = 2, y = 1 } }, path)
    assert.are.equal(0, cost)
    assert.are.equal(false, reached)
  end)

  it("agrees with the reference on random maps, every mode and heuristic", function()
    local rng = R.rng(777)
    local checked_partial = 0
    for i = 1, 8 do
      local w, h = rng.int(6, 16), rng.int(5, 12)
      -- every other map has equal costs everywhere
      local desc = R.random_map(rng, w, h, 0.33, i % 2 == 0 and { 1 } or nil)
      local g = R.build_grid(astar, desc)
      for _, mode in ipairs(R.MODES) do
        local hs = R.admissible_heuristics(mode)
        for _, hname in ipairs(hs) do
          for _ = 1, 6 do
            local sx, sy = rng.int(1, w), rng.int(1, h)
            local gx, gy = rng.int(1, w), rng.int(1, h)
            local ok = check_partial(g, desc, mode, hname, sx, sy, gx, gy,
              { partial = true, diagonal = mode, heuristic = hname })
            if not ok then checked_partial = checked_partial + 1 end
          end
        end
        -- the heuristic in effect by default (follows the mode) on a fresh grid
        local fresh = R.build_grid(astar, desc)
        fresh:setDiagonal(mode)
        local dflt = mode == "never" and "manhattan" or "octile"
        for _ = 1, 4 do
          local sx, sy = rng.int(1, w), rng.int(1, h)
          local gx, gy = rng.int(1, w), rng.int(1, h)
          check_partial(fresh, desc, mode, dflt, sx, sy, gx, gy, { partial = true })
        end
      end
    end
    assert(checked_partial > 50, "too few unreachable cases: " .. checked_partial)
  end)
end)

---------------------------------------------------------------------------------
describe("getSearchStats", function()
  local function is_count(v)
    return type(v) == "number" and v >= 0 and v == math.floor(v)
  end

  it("returns whole expanded and touched counts for the last findPath", function()
    local g = astar.new(30, 30)
    local path = g:findPath(1, 1, 30, 30, { heuristic = "dijkstra" })
    assert.are.equal(30, #path)
    local s = g:getSearchStats()
    assert.is_table(s)
    assert(is_count(s.expanded), "expanded = " .. tostring(s.expanded))
    assert(is_count(s.touched), "touched = " .. tostring(s.touched))
    -- any search that finds a multi-cell path expands at least the start (the
    -- counts are otherwise up to the algorithm: jump point search expands few)
    assert(s.expanded >= 1, "expanded " .. s.expanded)
    assert(s.touched >= 1, "touched " .. s.touched)
    g:findPath(7, 7, 7, 7)
    local s2 = g:getSearchStats()
    assert(is_count(s2.expanded) and is_count(s2.touched))
    assert(s2.expanded <= 1, "start == goal expanded " .. s2.expanded)
    assert(s2.touched <= 8, "start == goal touched " .. s2.touched)
    -- a fresh table, not a live view
    s2.expanded = 12345
    assert.are_not.equal(12345, g:getSearchStats().expanded)
  end)

  it("counts on failed searches too", function()
    local g = astar.fromString(".#.\n.#.\n.#.")
    assert.is_nil(g:findPath(1, 1, 3, 3))
    local s = g:getSearchStats()
    assert(is_count(s.expanded) and is_count(s.touched))
  end)
end)

---------------------------------------------------------------------------------
local METHODS = {
  { "getWidth", {} },
  { "getHeight", {} },
  { "getDimensions", {} },
  { "setWalkable", { 1, 1, true } },
  { "isWalkable", { 1, 1 } },
  { "setCost", { 1, 1, 2 } },
  { "getCost", { 1, 1 } },
  { "setDiagonal", { "always" } },
  { "getDiagonal", {} },
  { "setHeuristic", { "octile", 2 } },
  { "getHeuristic", {} },
  { "findPath", { 1, 1, 2, 2 } },
  { "getSearchStats", {} },
}

describe("bad self", function()
  local grid = sanity_grid()
  for _, m in ipairs(METHODS) do
    local name, args = m[1], m[2]
    it("is reported by " .. name, function()
      local fn = grid[name]
      assert.is_function(fn)
      local msg = "calling '" .. name .. "' on bad self (astar.Grid expected, got "
      check_grid_error(grid, msg .. "table)", fn, {}, unpack(args))
      check_grid_error(grid, msg .. "number)", fn, 5, unpack(args))
      check_grid_error(grid, msg .. "string)", fn, "grid", unpack(args))
      check_grid_error(grid, msg .. "nil)", fn, nil, unpack(args))
      check_grid_error(grid, msg .. "no value)", fn)
    end)
  end

  it("gives the same names and numbers whatever the call style", function()
    -- field call, a call through pcall and a call through a local alias
    local set = grid.setWalkable
    local msg = "bad argument #1 to 'setWalkable' (x out of range 1..64)"
    check_grid_error(grid, msg, function() grid.setWalkable(grid, 0, 1, true) end)
    check_grid_error(grid, msg, grid.setWalkable, grid, 0, 1, true)
    check_grid_error(grid, msg, function() set(grid, 0, 1, true) end)
    msg = "bad argument #5 to 'findPath' (unknown option 'diagnoal')"
    check_grid_error(grid, msg, function() grid.findPath(grid, 1, 1, 2, 2, { diagnoal = "never" }) end)
    check_grid_error(grid, msg, grid.findPath, grid, 1, 1, 2, 2, { diagnoal = "never" })
    msg = "calling 'getCost' on bad self (astar.Grid expected, got table)"
    check_grid_error(grid, msg, function() grid.getCost({}, 1, 1) end)
    local gc = grid.getCost
    check_grid_error(grid, msg, function() gc({}, 1, 1) end)
  end)
end)

---------------------------------------------------------------------------------
describe("closed grids", function()
  local function check_closed(g)
    for _, m in ipairs(METHODS) do
      local name, args = m[1], m[2]
      check_error("attempt to use a closed astar.Grid", g[name], g, unpack(args))
    end
  end

  it("raise on every method after __close", function()
    local g = astar.new(4, 4)
    local mt = getmetatable(g)
    assert.is_table(mt)
    assert.is_function(mt.__close)
    mt.__close(g)
    check_closed(g)
    g = nil -- luacheck: ignore 311
    collectgarbage("collect")
    collectgarbage("collect")
    -- other grids are not affected
    local other = sanity_grid()
    mt.__close(astar.new(2, 2))
    assert_still_works(other)
  end)

  if _VERSION == "Lua 5.4" then
    it("raise on every method after a <close> variable goes out of scope", function()
      local chunk = assert((loadstring or load)([[
        local astar = ...
        local kept
        do
          local g <close> = astar.new(5, 5)
          assert(g:findPath(1, 1, 5, 5))
          kept = g
        end
        return kept
      ]], "=close_test", "t"))
      local g = chunk(astar)
      check_closed(g)
      g = nil -- luacheck: ignore 311
      collectgarbage("collect")
    end)
  end
end)

---------------------------------------------------------------------------------
describe("astar.fromString", function()
  local function check_cells(g, desc)
    assert.are.same({ desc.w, desc.h }, { g:getDimensions() })
    for x = 1, desc.w do
      for y = 1, desc.h do
        assert.are.equal(desc.walkable[x][y], g:isWalkable(x, y), ("walkable at (%d, %d)"):format(x, y))
        assert.are.equal(desc.cost[x][y], g:getCost(x, y), ("cost at (%d, %d)"):format(x, y))
      end
    end
  end

  it("builds walls and costs", function()
    local rows = {
      ".#123456789",
      "##.........",
      "9#8#7#6#5#4",
    }
    local g = astar.fromString(table.concat(rows, "\n"))
    assert.are.same({ 11, 3 }, { g:getDimensions() })
    for y, row in ipairs(rows) do
      for x = 1, #row do
        local ch = row:sub(x, x)
        assert.are.equal(ch ~= "#", g:isWalkable(x, y))
        assert.are.equal(tonumber(ch) or 1, g:getCost(x, y))
      end
    end
    assert.are.equal("no-obstacles", g:getDiagonal())
    assert.are.same({ "octile", 1 }, { g:getHeuristic() })
  end)

  it("accepts \\r\\n, a final newline and single cells", function()
    local text = "..#\r\n1.9\r\n#..\r\n"
    local g = astar.fromString(text)
    check_cells(g, R.parse_string_map(text))
    g = astar.fromString("..#\n1.9\n#..\n")
    check_cells(g, R.parse_string_map(text))
    assert.are.same({ 1, 1 }, { astar.fromString("."):getDimensions() })
    assert.is_false(astar.fromString("#"):isWalkable(1, 1))
    assert.are.equal(5, astar.fromString("5\n"):getCost(1, 1))
    assert.are.same({ 1, 4 }, { astar.fromString(".\n#\n2\n.\n"):getDimensions() })
  end)

  it("matches a random map cell by cell", function()
    local rng = R.rng(99)
    local lines = {}
    local chars = { ".", ".", ".", "#", "1", "2", "3", "4", "5", "6", "7", "8", "9" }
    for y = 1, 23 do
      local row = {}
      for x = 1, 37 do row[x] = rng.pick(chars) end
      lines[y] = table.concat(row)
    end
    local text = table.concat(lines, "\n")
    check_cells(astar.fromString(text), R.parse_string_map(text))
  end)

  it("reports bad text", function()
    local pre = "bad argument #1 to 'fromString' ("
    check_error(pre .. "unexpected character 'x' at row 2, column 5)", astar.fromString, "......\n....x.\n......")
    check_error(pre .. "unexpected character '0' at row 1, column 1)", astar.fromString, "0")
    check_error(pre .. "unexpected character ' ' at row 1, column 3)", astar.fromString, ".. .")
    check_error(pre .. "unexpected character '@' at row 3, column 2)", astar.fromString, "..\r\n..\r\n.@\r\n")
    check_error(pre .. "row 3 has 7 characters, expected 10)", astar.fromString,
      "..........\n..........\n.......\n..........")
    check_error(pre .. "row 2 has 4 characters, expected 3)", astar.fromString, "...\n....\n")
    check_error(pre .. "row 2 has 2 characters, expected 3)", astar.fromString, "...\r\n..\r\n...")
    check_error(pre .. "empty map)", astar.fromString, "")
  end)

  it("needs a string", function()
    local pre = "bad argument #1 to 'fromString' ("
    for _, args in ipairs({ { n = 1, {} }, { n = 1, true }, { n = 1, nil }, { n = 0 } }) do
      local ok, err = pcall(astar.fromString, unpack(args, 1, args.n))
      assert.is_false(ok)
      assert.are.equal(pre, message_of(err):sub(1, #pre), err)
    end
  end)
end)

---------------------------------------------------------------------------------
describe("astar.fromMovingAI", function()
  it("builds the walls, with cost 1 everywhere", function()
    local rows = {
      "..GS@OTW",
      "@@@@....",
      "T.T.W.O.",
    }
    local text = "type octile\nheight 3\nwidth 8\nmap\n" .. table.concat(rows, "\n") .. "\n"
    local g = astar.fromMovingAI(text)
    assert.are.same({ 8, 3 }, { g:getDimensions() })
    for y, row in ipairs(rows) do
      for x = 1, #row do
        local ch = row:sub(x, x)
        assert.are.equal(ch == "." or ch == "G" or ch == "S", g:isWalkable(x, y), ("(%d, %d)"):format(x, y))
        assert.are.equal(1, g:getCost(x, y))
      end
    end
    -- without the final newline too
    local g2 = astar.fromMovingAI(text:sub(1, -2))
    assert.are.same({ 8, 3 }, { g2:getDimensions() })
    assert.is_true(g2:isWalkable(8, 2))
    assert.is_false(g2:isWalkable(1, 3))
  end)

  it("reports bad text", function()
    local pre = "bad argument #1 to 'fromMovingAI' ("
    local bad = {
      "",
      "hello",
      "type octile\nheight 2\nwidth 3\nmap\n...\n",                    -- too few rows
      "type octile\nheight 2\nwidth 3\nmap\n...\n..\n",                -- short row
      "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n",               -- bad character
      "type octile\nheight 2\nwidth 3\nmap\n...\n.#.\n",               -- '#' is not a Moving AI character
      "type octile\nheight two\nwidth 3\nmap\n...\n...\n",             -- bad number
      "type octile\nwidth 3\nmap\n...\n...\n",                         -- missing height
    }
    for i, text in ipairs(bad) do
      local ok, err = pcall(astar.fromMovingAI, text)
      assert.is_false(ok, "case " .. i .. " did not fail")
      assert.are.equal(pre, message_of(err):sub(1, #pre), "case " .. i .. ": " .. tostring(err))
    end
  end)
end)
