-- make bench-moving-maps (issue 24): distance maps that follow a moving target,
-- CPU time (os.clock), medians. A 256x256 grid with 20% random walls (fixed
-- seed), one source near the centre, the grid's default diagonal mode:
--
--   (a) map:update(grid) after one random wall toggle within 10 cells of the
--       source, the median over 50 toggles, against a new grid:distanceMap
--       (target: at most 0.25x)
--   (b) maxCost = 40 against an uncapped map, for grid:distanceMap and for
--       map:setSources (target: at most 0.3x)
--   (c) map:setSources to a source that moves one cell a frame, against a new
--       grid:distanceMap
--
-- Ratios are measured in one run. Either backend (ASTAR_BACKEND=lua for the
-- pure one); a backend without map:setSources prints n/a for its rows.
--
-- Usage: lua bench/moving_maps_bench.lua
package.path = "bench/?.lua;" .. package.path
local astar = require "astar"
local median = require("timing").median

local SIDE, WALLS, TOGGLES, CAP = 256, 20, 50, 40

local rng = require("rng").park_miller

local rand = rng(24)
local grid = astar.new(SIDE, SIDE)
for y = 1, SIDE do
  for x = 1, SIDE do
    if rand(100) <= WALLS then grid:setWalkable(x, y, false) end
  end
end
local SX, SY = SIDE / 2, SIDE / 2
-- the source and the cells it walks to in (c) stay open
for x = SX - 1, SX + 31 do grid:setWalkable(x, SY, true) end
local source = { { x = SX, y = SY } }
local PASSES = astar.backend == "lua" and 5 or 30

-- The median time in microseconds of fn() over n calls, each timed apart;
-- before(k), when given, runs untimed before call k.
local function per_call(n, fn, before)
  local times = {}
  for k = 1, n do
    if before then before(k) end
    local t0 = os.clock()
    fn(k)
    times[k] = (os.clock() - t0) * 1e6
  end
  return median(times)
end

local function row(label, t, base, target)
  if not t then
    print(("  %-64s %12s"):format(label, "n/a"))
    return
  end
  local ratio = base and t / base
  print(("  %-64s %10.1f us%s%s"):format(label, t, ratio and ("  %6.3fx"):format(ratio) or "",
    target and ratio and ("  (target <= %.2fx: %s)"):format(target, ratio <= target and "met" or "MISSED") or ""))
end

print(("moving maps: %dx%d, %d%% walls, one source, diagonal %s (%s, %s backend)"):format(SIDE, SIDE, WALLS,
  grid:getDiagonal(), _VERSION .. (jit and " / " .. jit.version or ""), astar.backend))

-- ---- (a) update after one wall toggle near the source ----------------------------
local fresh = per_call(PASSES, function() grid:distanceMap(source) end)
row("grid:distanceMap, uncapped", fresh)
local map = grid:distanceMap(source)
local toggles = {}
for k = 1, TOGGLES do
  local x, y
  repeat
    x, y = SX + rand(21) - 11, SY + rand(21) - 11
  until not (x == SX and y == SY)
  toggles[k] = { x, y }
end
local update = per_call(TOGGLES, function() map:update(grid) end, function(k)
  local t = toggles[k]
  grid:setWalkable(t[1], t[2], not grid:isWalkable(t[1], t[2]))
end)
for k = TOGGLES, 1, -1 do                    -- the grid as it was
  local t = toggles[k]
  grid:setWalkable(t[1], t[2], not grid:isWalkable(t[1], t[2]))
end
map:update(grid)
row(("(a) map:update after one wall toggle, median of %d"):format(TOGGLES), update, fresh, 0.25)

-- ---- (b) maxCost = 40 against uncapped ------------------------------------------------
local capped = per_call(PASSES * 4, function() grid:distanceMap(source, { maxCost = CAP }) end)
local reach = grid:distanceMap(source, { maxCost = CAP }):size()
row(("(b) grid:distanceMap, maxCost = %d (%d cells)"):format(CAP, reach), capped, fresh, 0.3)
local has_set = map.setSources ~= nil
local moving = { { x = SX, y = SY } }
local function step_source(k) moving[1].x = SX + k % 32 end
local set_uncapped = has_set and per_call(PASSES, function(k) step_source(k) map:setSources(moving) end)
local capped_map = grid:distanceMap(source, { maxCost = CAP })
local set_capped = has_set
  and per_call(PASSES * 4, function(k) step_source(k) capped_map:setSources(moving) end)
row("(b) map:setSources, uncapped", set_uncapped)
row(("(b) map:setSources, maxCost = %d, against uncapped"):format(CAP), set_capped, set_uncapped, 0.3)

-- ---- (c) setSources to a moving source against a new map ------------------------------
row("(c) map:setSources to a moving source, against grid:distanceMap", set_uncapped or nil, fresh)

-- ---- (d) a rebuild a slice at a time ---------------------------------------------------
local SLICE = 5000
local sliced = map.step ~= nil
local worst, total, slices = {}, {}, 0
for k = 1, sliced and PASSES or 0 do
  step_source(k)
  local t0 = os.clock()
  local _, done = map:setSources(moving, { cells = SLICE })
  local t = os.clock() - t0
  local most, sum, n = t, t, 1
  while not done do
    t0 = os.clock()
    done = map:step(SLICE)
    t = os.clock() - t0
    most, sum, n = math.max(most, t), sum + t, n + 1
  end
  worst[k], total[k], slices = most * 1e6, sum * 1e6, n
end
row(("(d) %d-cell slices: the worst of %s, against a whole setSources"):format(SLICE,
  sliced and slices or "n/a"), sliced and median(worst) or nil, set_uncapped or nil)
row(("(d) %d-cell slices: their total, against a whole setSources"):format(SLICE),
  sliced and median(total) or nil, set_uncapped or nil)
