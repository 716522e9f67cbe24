-- Moving distance maps on the pure-Lua fallback against the C module, in one
-- run (issue 24, issue 23's floods): a 256x256 board, 20% random walls, one
-- source, default diagonal. CPU time (os.clock), medians (bench/timing.lua).
--
--   fresh           grid:distanceMap, uncapped
--   capped          grid:distanceMap with maxCost = 40 (and its ratio to fresh)
--   setSources      map:setSources to a neighbouring cell, uncapped and capped
--   update          one wall toggle within 10 cells of the source, then
--                   map:update(grid): the median over 50 toggles (ratio to fresh)
--
-- Usage: LUA_PATH="bench/?.lua;lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;"
--        lua5.4 bench/moving_maps_pure.lua
package.path = "bench/?.lua;lua/?.lua;lua/?/init.lua;" .. package.path
local timing = require "timing"

local N, WALLS, CAP, TOGGLES = 256, 20, 40, 50

local rng = require("rng").lcg

local function board(lib)
  local g = lib.new(N, N)
  local rand = rng(7)
  for y = 1, N do
    for x = 1, N do
      if rand(100) <= WALLS then g:setWalkable(x, y, false) end
    end
  end
  local sx, sy = N / 2, N / 2
  g:setWalkable(sx, sy, true)
  g:setWalkable(sx + 1, sy, true)
  return g, { { x = sx, y = sy } }, sx, sy
end

local function us(t) return ("%9.1f us"):format(t * 1e6) end

local function measure(name, lib)
  local g, sources, sx, sy = board(lib)
  local passes = 9
  local fresh = timing.time(function() g:distanceMap(sources) end, passes)
  local capped = timing.time(function() g:distanceMap(sources, { maxCost = CAP }) end, passes)
  print(("%-10s fresh %s   capped(maxCost %d) %s  %.3fx"):format(name, us(fresh), CAP,
    us(capped), capped / fresh))
  if not g:distanceMap(sources).setSources then
    print(("%-10s (no setSources)"):format(name))
  else
    local moved = { { x = sx + 1, y = sy } }
    for _, cap in ipairs { false, true } do
      local m = g:distanceMap(sources, cap and { maxCost = CAP } or nil)
      local flip = false
      local t = timing.time(function()
        flip = not flip
        m:setSources(flip and moved or sources)
      end, passes)
      print(("%-10s setSources%s %s  %.3fx of a fresh %s map"):format(name,
        cap and " capped" or "       ", us(t), t / (cap and capped or fresh), cap and "capped" or "uncapped"))
      if cap then print(("%-10s setSources capped / fresh uncapped %.3fx"):format(name, t / fresh)) end
    end
  end
  local m = g:distanceMap(sources)
  local rand = rng(99)
  local times = {}
  for k = 1, TOGGLES do
    local x, y
    repeat
      x, y = sx + rand(21) - 11, sy + rand(21) - 11
    until not (x == sx and y == sy)
    g:setWalkable(x, y, not g:isWalkable(x, y))
    local t0 = os.clock()
    m:update(g)
    times[k] = os.clock() - t0
  end
  local t = timing.median(times)
  print(("%-10s update after one toggle (median of %d) %s  %.3fx of fresh"):format(name, TOGGLES,
    us(t), t / fresh))
  return fresh
end

local jit_name = rawget(_G, "jit") and jit.version or _VERSION
print(("256x256, %d%% walls, one source; %s"):format(WALLS, jit_name))
local c_fresh
local ok, core = pcall(require, "astar.core")
if ok then c_fresh = measure("C", core) end
local pure_fresh = measure("pure", require "astar.pure")
if c_fresh then print(("pure fresh map / C fresh map: %.1fx"):format(pure_fresh / c_fresh)) end
