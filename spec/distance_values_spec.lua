-- Distance maps always encode and decode (issue 17, items 2 and 5):
--
-- 1. map:encode, map:cells and map:pathFrom while finalizers update the map
--    between a 128-cell and a 4096-cell state: the buffer is measured again
--    after it is allocated (never written past), and every answer is the one
--    of a state the map was in (never a mix of two).
-- 2. flee and blend with extreme arguments (1e308, 1e10 over 1e300 sources,
--    tiny, negative, 0, inf, nan): each gives a clear error with its exact
--    message, or a map whose decodeMap(encode()) equals it cell for cell,
--    the same on both backends. A value is never non-finite (decodeMap's
--    "bad value") and a representable cell is never left out.
-- The suite runs on both backends (mk/fallback.mk).
local astar = require "astar"
local E = require "helpers.errors"
local F = require "helpers.finalizers"

local DBL_MAX = 1.7976931348623157e308

-- ---- helpers ----------------------------------------------------------------------

-- Nil when decodeMap(map:encode()) is map cell for cell (values, steps,
-- sources, size) and encodes to the same bytes, else what differs.
local function roundTripMismatch(map)
  local s = map:encode()
  local ok, d = pcall(astar.decodeMap, s)
  if not ok then return "decodeMap: " .. tostring(d) end
  if d:encode() ~= s then return "encodes to other bytes" end
  if d:size() ~= map:size() then return "size " .. d:size() .. ", not " .. map:size() end
  local w, h = map:getDimensions()
  for y = 1, h do
    for x = 1, w do
      local a, b = map:get(x, y), d:get(x, y)
      if a ~= b then return ("(%d, %d): %s, not %s"):format(x, y, tostring(b), tostring(a)) end
      local ax, ay = map:nextStep(x, y)
      local bx, by = d:nextStep(x, y)
      if ax ~= bx or ay ~= by then return ("nextStep(%d, %d)"):format(x, y) end
      if map:nearest(x, y) ~= d:nearest(x, y) then return ("nearest(%d, %d)"):format(x, y) end
    end
  end
  return nil
end

local function assertRoundTrip(map)
  local wrong = roundTripMismatch(map)
  assert(wrong == nil, wrong)
end

-- The first cell in row order whose value times -k is not a finite number:
-- x, y and the value; nil if none.
local function firstOverflow(map, k)
  local w, h = map:getDimensions()
  for y = 1, h do
    for x = 1, w do
      local v = map:get(x, y)
      if v and not (-k * v > -math.huge and -k * v < math.huge) then return x, y, v end
    end
  end
  return nil
end

-- A number as messages print it: %.14g, or %.17g when that does not read back.
local function numberText(v)
  local s = ("%.14g"):format(v)
  if tonumber(s) ~= v then s = ("%.17g"):format(v) end
  return s
end

-- ---- 1. copies out of a map that a finalizer updates ---------------------------------

describe("a distance map updated by finalizers while it is copied", function()
  local N = 64
  -- two states of one board: the first two rows open (128 cells), or all of
  -- it at cost 2, where every value but the sources' differs and the walk
  -- from (X, 2) goes east, not west: a copy that mixed them shows
  local narrow = astar.new(N, N)
  for y = 3, N do for x = 1, N do narrow:setWalkable(x, y, false) end end
  local wide = astar.new(N, N)
  for y = 1, N do for x = 1, N do wide:setCost(x, y, 2) end end
  local SOURCES = { { x = 1, y = 1 }, { x = N, y = 1, value = 5 } }
  local X = 34
  local STATES = { narrow:distanceMap(SOURCES), wide:distanceMap(SOURCES) }
  assert.are.equal(128, STATES[1]:size())
  assert.are.equal(N * N, STATES[2]:size())
  local BYTES, CELLS, PATHS = {}, {}, {}
  for s = 1, 2 do
    BYTES[s] = STATES[s]:encode()
    CELLS[s] = STATES[s]:cells()
    PATHS[s] = STATES[s]:pathFrom(X, 2, { flat = true })
  end
  assert.are.same({ 1, 1 }, { PATHS[1][#PATHS[1] - 1], PATHS[1][#PATHS[1]] })
  assert.are.same({ N, 1 }, { PATHS[2][#PATHS[2] - 1], PATHS[2][#PATHS[2]] })

  local function sameCells(got, want)
    if #got ~= #want then return false end
    for i = 1, #want do
      local a, b = got[i], want[i]
      if a.x ~= b.x or a.y ~= b.y or a.cost ~= b.cost then return false end
    end
    return true
  end
  local function sameList(got, want)
    if #got ~= #want then return false end
    for i = 1, #want do if got[i] ~= want[i] then return false end end
    return true
  end
  local function flat(path)
    local out = {}
    for _, p in ipairs(path) do out[#out + 1] = p.x out[#out + 1] = p.y end
    return out
  end
  -- nil when check(state) holds for one of the two states
  local function anyState(check, what)
    if check(1) or check(2) then return nil end
    return what .. " is of no state the map was in"
  end

  -- each call on map returns nil or what is wrong
  local CALLS = {
    { "encode", function(map)
      local s = map:encode()
      if s ~= BYTES[1] and s ~= BYTES[2] then return "encode: bytes of no state" end
      local wrong = roundTripMismatch(astar.decodeMap(s))
      return wrong and "decode: " .. wrong
    end },
    { "cells", function(map)
      local cells = map:cells()
      return anyState(function(s) return sameCells(cells, CELLS[s]) end, "cells()")
    end },
    { "cells into", function(map)
      local into = { { x = 0, y = 0, cost = 0, extra = true }, "junk" }
      for i = 3, 5000 do into[i] = i end
      local cells = map:cells(into)
      if cells ~= into or into[1].extra ~= true then return "did not fill into" end
      return anyState(function(s) return sameCells(cells, CELLS[s]) end, "cells(into)")
    end },
    { "pathFrom", function(map)
      local path, cost = map:pathFrom(X, 2)
      return anyState(function(s)
        return sameList(flat(path), PATHS[s]) and cost == STATES[s]:get(X, 2)
      end, "pathFrom")
    end },
    { "pathFrom into", function(map)
      local into = { { x = 0, y = 0 }, 7, 8 }
      for i = 4, 200 do into[i] = i end
      local path = map:pathFrom(X, 2, { into = into })
      if path ~= into then return "did not fill into" end
      return anyState(function(s) return sameList(flat(path), PATHS[s]) end, "pathFrom(into)")
    end },
  }

  -- On the C backend a finalizer is made to run at a chosen allocation
  -- (F.armNext): the first for encode (where it sizes its buffer), one in the
  -- middle of the copy for the others. The pure backend's calls are Lua code:
  -- a full collection is made at a chosen point of it (F.armInLibrary; an
  -- armed finalizer alone may wait for the end of a cycle that outlasts the
  -- call: in the whole suite none ran inside pathFrom in 400 rounds).
  local armFinalizer = astar.backend == "c" and F.armNext or function(f, _, at)
    return F.armInLibrary(f, 1 + at % 8)
  end
  local ROUNDS, MAX_ROUNDS = 2, 400
  for _, mode in ipairs(F.GC_MODES) do
    -- the incremental collector's round takes seconds (400 rounds at worst):
    -- #slow, left out of the memcheck, sanitizer and pure-backend runs
    it("with a " .. mode .. " collector: every answer is of one state"
      .. (mode == "incremental" and " #slow" or ""), function()
      local map = narrow:distanceMap(SOURCES)
      local env = { state = 1, inCall = nil, inside = {}, failures = {}, active = true }
      -- flips the map to the other state, by update (in place, no new memory)
      local function finalizer()
        if not env.active then return end
        if env.inCall then env.inside[env.inCall] = (env.inside[env.inCall] or 0) + 1 end
        local ok, err = pcall(map.update, map, env.state == 1 and wide or narrow)
        if ok then
          env.state = 3 - env.state
        else
          env.failures[#env.failures + 1] = "update in a finalizer raised " .. tostring(err)
        end
      end
      local undo = F.eagerCollector(mode)
      finally(function()
        env.active = false
        undo()
        collectgarbage("collect")
      end)
      -- ROUNDS rounds, more (up to MAX_ROUNDS) until a finalizer ran inside each call
      local round, missing = 0, true
      while round < ROUNDS or (missing and round < MAX_ROUNDS) do
        round = round + 1
        for c, call in ipairs(CALLS) do
          -- one finalizer (two would flip the map there and back in one collection)
          local at = call[1] == "encode" and 1 or 2 + (round * 7 + c * 13) % 50
          local disarm = armFinalizer(finalizer, mode, at)
          env.inCall = call[1]
          local ok, wrong = pcall(call[2], map)
          env.inCall = nil
          disarm()
          if not ok then wrong = "raised " .. tostring(wrong) end
          if wrong then
            env.failures[#env.failures + 1] = ("round %d, %s: %s"):format(round, call[1], wrong)
          end
        end
        missing = false
        for _, call in ipairs(CALLS) do missing = missing or not env.inside[call[1]] end
      end
      env.active = false
      assert.are.same({}, env.failures)
      for _, call in ipairs(CALLS) do
        assert(env.inside[call[1]], "no finalizer ran inside " .. call[1] .. " in " .. round
          .. " rounds")
      end
    end)
  end
end)

-- ---- 2. flee and blend with extreme arguments -----------------------------------------

describe("flee and blend with extreme arguments", function()
  local g = astar.new(5, 5)
  local plain = g:distanceMap({ { x = 1, y = 1 } }, { diagonal = "never" })   -- 0 .. 8
  local high = g:distanceMap({ { x = 1, y = 1, value = 1e300 } })
  local low = g:distanceMap({ { x = 1, y = 1, value = -1e308 } }, { diagonal = "never" })
  local top = g:distanceMap({ { x = 1, y = 1, value = DBL_MAX } })
  local pair = astar.new(2, 1):distanceMap({ { x = 1, y = 1 } })              -- 0, 1
  local hex = astar.newHex(5, 4):distanceMap({ { x = 2, y = 2 } })
  local big = astar.fromString("....\n..#.\n....\n...."):distanceMap({ { x = 1, y = 1 } },
    { size = 2 })

  local function fleeError(at, k, v)
    return ("bad argument #1 to 'flee' (k * value at %s overflows: %s * %s)"):format(at, k, v)
  end
  local function blendError(at)
    return ("bad argument #1 to 'blend' (weighted sum at %s overflows)"):format(at)
  end

  it("flee: a factor that overflows a value is an error naming the first such cell", function()
    E.check_error(fleeError("(3, 1)", "1e+308", "2"), plain.flee, plain, 1e308)
    E.check_error(fleeError("(1, 1)", "10000000000", "1e+300"), high.flee, high, 1e10)
    E.check_error(fleeError("(1, 1)", "2", "-1e+308"), low.flee, low, 2)
    -- the default k, 1.2, too
    E.check_error(fleeError("(1, 1)", "1.2", "1.7976931348623157e+308"), top.flee, top)
    E.check_error(fleeError("(1, 1)", "1.2", "1.7976931348623157e+308"), top.flee, top, nil)
    -- on a hex board and a map of large units: the first in row order as well
    for _, map in ipairs({ hex, big }) do
      local x, y, v = firstOverflow(map, 1e308)
      assert.is_not_nil(x)
      E.check_error(fleeError(("(%d, %d)"):format(x, y), "1e+308", numberText(v)), map.flee,
        map, 1e308)
    end
  end)

  it("flee: k that is not a finite number > 0 is an error", function()
    local function bad(got) return "bad argument #1 to 'flee' (k must be a finite number > 0, got "
      .. got .. ")" end
    E.check_error(bad("0"), plain.flee, plain, 0)
    E.check_error(bad("-1"), plain.flee, plain, -1)
    E.check_error(bad("-1e+308"), plain.flee, plain, -1e308)
    E.check_error(bad("-4.9406564584125e-324"), plain.flee, plain, -5e-324)
    E.check_error(bad("inf"), plain.flee, plain, math.huge)
    E.check_error(bad("-inf"), plain.flee, plain, -math.huge)
    E.check_error(bad("nan"), plain.flee, plain, 0 / 0)
  end)

  it("flee: every map it makes decodes to itself, cell for cell", function()
    local cases = {
      { plain, 1e-300 }, { plain, 5e-324 }, { plain, 1 }, { plain, 1e307 },
      { high, 1 }, { high, 1e8 }, { high, 1e-300 },
      { low, 1 }, { low, 1e-10 },
      { top, 1 }, { top, 5e-324 },
      { pair, 1e308 }, { pair, DBL_MAX },
      { hex, 1e-300 }, { hex, 1e307 }, { big, 5e-324 }, { big, 1e307 },
    }
    for i, case in ipairs(cases) do
      local map, k = case[1], case[2]
      assert.is_nil(firstOverflow(map, k), "case " .. i)
      local f = map:flee(k)
      assert.are.equal(map:size(), f:size(), "case " .. i)
      assertRoundTrip(f)
      if not firstOverflow(f, k) then assertRoundTrip(f:flee(k)) end
    end
    -- the values themselves, at the edge: -1e308 (rescanned, + 1 is lost)
    local f = pair:flee(1e308)
    assert.are.equal(-1e308, f:get(1, 1))
    assert.are.equal(-1e308, f:get(2, 1))
    f = top:flee(1)
    assert.are.equal(-DBL_MAX, f:get(5, 5))
  end)

  it("blend: a weighted sum that overflows is an error naming the first such cell", function()
    E.check_error(blendError("(3, 1)"), astar.blend, { plain, 1e308 })
    E.check_error(blendError("(3, 1)"), astar.blend, { plain, 1e308 }, { rescan = true })
    -- inf - inf: not a number
    E.check_error(blendError("(3, 1)"), astar.blend, { plain, 1e308, plain, -1e308 })
    -- each term finite, their sum not
    E.check_error(blendError("(1, 1)"), astar.blend, { high, 1e8, high, 1e8 })
    E.check_error(blendError("(1, 1)"), astar.blend, { top, 1, top, 1 })
    E.check_error(blendError("(1, 1)"), astar.blend, { low, 1, low, 1, plain, 1 })
  end)

  it("blend: weights that are not finite numbers are errors", function()
    local function bad(got) return "bad argument #1 to 'blend' ([2]: weight must be finite, got "
      .. got .. ")" end
    E.check_error(bad("inf"), astar.blend, { plain, math.huge })
    E.check_error(bad("-inf"), astar.blend, { plain, -math.huge })
    E.check_error(bad("nan"), astar.blend, { plain, 0 / 0 })
  end)

  it("blend: every map it makes decodes to itself, and keeps every cell", function()
    local cases = {
      { plain, 1e-320 }, { plain, -1 }, { plain, 0 }, { plain, -0.0 }, { plain, 1e300 },
      { plain, -1e300 }, { pair, 1e308 }, { pair, -DBL_MAX },
      { high, 1e8 }, { high, -1e8, plain, 1 }, { top, 1, low, 1 }, { top, -1 }, { low, 1 },
      { top, 0.5, top, 0.5 }, { hex, 1e-300 }, { hex, -1e307 }, { big, 5e-324 }, { big, 1e307, big, -1e307 },
    }
    for i, list in ipairs(cases) do
      for _, rescan in ipairs({ false, true }) do
        local ok, b = pcall(astar.blend, list, { rescan = rescan })
        assert(ok, "case " .. i .. ": " .. tostring(b))
        -- every map holds every cell of the board here: the blend keeps them all
        assert.are.equal(list[1]:size(), b:size(), "case " .. i)
        assertRoundTrip(b)
      end
    end
  end)

  it("are the same on both backends: the same errors, the same bytes", function()
    local pure = require "astar.pure"
    local ok, core = pcall(require, "astar.core")
    if not ok then return end   -- no C module: nothing to compare with
    local function maps(mod)
      local g5 = mod.new(5, 5)
      return {
        g5:distanceMap({ { x = 1, y = 1 } }, { diagonal = "never" }),
        g5:distanceMap({ { x = 1, y = 1, value = 1e300 } }),
        g5:distanceMap({ { x = 2, y = 3, value = -1e308 } }),
        g5:distanceMap({ { x = 1, y = 1, value = DBL_MAX } }),
        mod.newHex(5, 4):distanceMap({ { x = 2, y = 2 } }),
      }
    end
    local A, B = maps(core), maps(pure)
    local FACTORS = { 1e308, 1e10, 1.2, 2, 1, 1e-300, 5e-324, 0, -1, math.huge, 0 / 0 }
    local function outcome(f, ...)
      local done, r = pcall(f, ...)
      if not done then return "error: " .. tostring(r) end
      return r:encode()
    end
    for m = 1, #A do
      for _, k in ipairs(FACTORS) do
        assert.are.equal(outcome(A[m].flee, A[m], k), outcome(B[m].flee, B[m], k))
        for n = 1, #A do
          if (n == 5) == (m == 5) then
            local la, lb = { A[m], k, A[n], 1 }, { B[m], k, B[n], 1 }
            assert.are.equal(outcome(core.blend, la), outcome(pure.blend, lb))
            assert.are.equal(outcome(core.blend, la, { rescan = true }),
              outcome(pure.blend, lb, { rescan = true }))
          end
        end
      end
    end
  end)
end)
