-- make bench-map-encode (issue 24): handing a distance map to another Lua
-- state (a love.thread): map:encode() and astar.decodeMap(s) against building
-- the map, on a 256x256 board with terrain costs (1, 2, 3 and 5) and 20%
-- walls, one source in the middle; CPU time (os.clock), medians of 5 passes
-- (bench/timing.lua). Prints the bytes of the encoding and each time with its
-- ratio to the build. The decoded map is checked to answer as the original.
--
-- Usage: lua bench/map_encode_bench.lua   (ASTAR_BACKEND=lua: the fallback)
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
local time = require("timing").time

local SIDE = 256

local function board()
  local state = 12345
  local function rand(n)   -- (products below 2^53: the same numbers on every Lua)
    state = state * 16807 % 2147483647
    return math.floor(state / 65536) % n + 1
  end
  local grid = astar.new(SIDE, SIDE)
  local COSTS = { 1, 1, 1, 2, 3, 5 }
  for y = 1, SIDE do
    for x = 1, SIDE do
      if rand(5) == 1 then
        grid:setWalkable(x, y, false)
      else
        grid:setCost(x, y, COSTS[rand(#COSTS)])
      end
    end
  end
  grid:setWalkable(SIDE / 2, SIDE / 2, true)
  return grid
end

local grid = board()
local sources = { { x = SIDE / 2, y = SIDE / 2 } }
local map = grid:distanceMap(sources)
local bytes = map:encode()
local copy = astar.decodeMap(bytes)
for y = 1, SIDE, 7 do
  for x = 1, SIDE, 5 do
    assert(copy:get(x, y) == map:get(x, y), "the decoded map differs at " .. x .. "," .. y)
  end
end

local passes = 5
local build = time(function() grid:distanceMap(sources) end, passes)
local encode = time(function() map:encode() end, passes)
local decode = time(function() astar.decodeMap(bytes) end, passes)

print(("map encode, %s, %s backend: %dx%d, 20%% walls, costs 1-5, one source; %d bytes")
  :format(jit and jit.version or _VERSION, astar.backend, SIDE, SIDE, #bytes))
local function row(label, t)
  print(("  %-22s %9.2f ms %6.2fx the build"):format(label, t * 1e3, t / build))
end
row("distanceMap (build)", build)
row("map:encode()", encode)
row("astar.decodeMap(s)", decode)
row("encode + decodeMap", encode + decode)
