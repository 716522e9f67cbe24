-- A finalizer closes the grid at every point of a call, one point a run: the
-- call answers, or raises "grid closed during <call>" / "attempt to use a
-- closed astar.Grid"; never another error (docs/robustness.md). The points:
-- - C backend: the n-th allocation of the call (F.armNext), n = 1, 2, ...
--   until the call makes fewer;
-- - pure backend: the n-th hook count inside the library's code, its loops
--   compiled by template.lua included (F.armInLibrary), n = 1, 2, 3, ... (then
--   sparser) until the call ends first.
-- The random matrix (reentrancy_finalizers_spec) found a point of the pure
-- movementRange where the grid was read after a table was made: this walks
-- them all, for every query with a loop of its own.
local astar = require "astar"
require "astar.tactics"
local F = require "helpers.finalizers"

local PURE = astar.backend == "lua"
local CLOSED = "attempt to use a closed astar.Grid"

local function costs(x, y) return ((x * 7 + y * 3) % 5 == 0) and 3 or nil end

local function square()
  local g = astar.new(9, 8)
  for y = 2, 6 do g:setWalkable(5, y, false) end
  for y = 1, 8 do for x = 1, 9 do if costs(x, y) then g:setCost(x, y, 3) end end end
  return g
end

local function hex()
  local g = astar.newHex(8, 7)
  g:setWalkable(4, 3, false)
  g:setWalkable(4, 4, false)
  g:setCost(2, 5, 2)
  return g
end

local function blocked(x, y) return x == 3 and y == 3 end

-- name, the names the call's errors may give (the calls it makes), a fresh
-- grid, the call
local CALLS = {
  { "findPath", "findPath", square, function(g) return g:findPath(1, 1, 9, 8) end },
  { "findPath with a rule", "findPath", square,
    function(g) return g:findPath(1, 1, 9, 8, { blocked = blocked, algorithm = "astar" }) end },
  { "findPath size 2", "findPath", square, function(g) return g:findPath(1, 1, 8, 7, { size = 2 }) end },
  { "newSearch, step", "newSearch step result", square, function(g)
    local s = g:newSearch(1, 1, 9, 8, { blocked = blocked })
    while s:step(5) == "searching" do end
    return s:result()
  end },
  { "movementRange", "movementRange", square, function(g) return g:movementRange(2, 2, 7) end },
  { "movementRange diagonal", "movementRange", square,
    function(g) return g:movementRange(2, 2, 7, { diagonal = "one-obstacle", blocked = blocked }) end },
  { "movementRange size 2", "movementRange", square,
    function(g) return g:movementRange(1, 1, 7, { size = 2 }) end },
  { "attackRange", "attackRange movementRange", square, function(g)
    return g:attackRange(g:movementRange(2, 2, 4), 1, 3, { lineOfSight = true })
  end },
  { "distanceMap", "distanceMap", square,
    function(g) return g:distanceMap({ { x = 1, y = 1 } }, { cost = costs }) end },
  { "distanceMap size 2", "distanceMap", square,
    function(g) return g:distanceMap({ { x = 1, y = 1 } }, { size = 2 }) end },
  { "hex findPath", "findPath", hex, function(g) return g:findPath(1, 1, 8, 7) end },
  { "hex movementRange", "movementRange", hex, function(g) return g:movementRange(2, 2, 6) end },
  { "hex attackRange", "attackRange movementRange", hex, function(g)
    return g:attackRange(g:movementRange(2, 2, 3), 1, 3, { lineOfSight = true })
  end },
  { "hex distanceMap", "distanceMap", hex, function(g) return g:distanceMap({ { x = 1, y = 1 } }) end },
}

local function next_point(n) return n < 60 and n + 1 or n + math.floor(n / 8) end

describe("a finalizer closes the grid at every point of a call", function()
  for _, case in ipairs(CALLS) do
    local name, make, call = case[1], case[3], case[4]
    local allowed = { [CLOSED] = true }
    for fname in case[2]:gmatch("%S+") do allowed["grid closed during " .. fname] = true end
    it(name, function()
      local failures, points, n = {}, 0, 1
      local undoCollector = PURE and function() end or F.eagerCollector("incremental")
      local ok, err = pcall(function()
        while n < 100000 do
          local g = make()
          local state = { inCall = false, fired = false }
          local function close()
            if not state.inCall then return end
            state.fired = true
            getmetatable(g).__close(g)
          end
          local undo = PURE and F.armInLibrary(close, n)
            or F.armNext(close, "incremental", n)
          state.inCall = true
          local okCall, e = pcall(call, g)
          state.inCall = false
          undo()
          if not state.fired then break end   -- the call ended before point n
          points = points + 1
          if not okCall and not allowed[e] then
            failures[#failures + 1] = ("point %d: %s"):format(n, tostring(e))
            if #failures >= 5 then break end
          end
          n = next_point(n)
        end
      end)
      undoCollector()
      collectgarbage("collect")
      assert(ok, err)
      assert.are.same({}, failures)
      assert(points >= 1, "the grid was never closed inside the call")
    end)
  end
end)
