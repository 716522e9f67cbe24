-- Benchmark of astar.tactics against a straightforward pure-Lua Dijkstra, in
-- the same run: movement ranges for move 5, 10 and 20 and the danger zone of
-- 20 enemies, on a 64x64 cut of den312d.map with terrain costs added
-- deterministically; also callbacks against tables for the unit rules, and
-- an 8-direction range.
--
--   LUA_PATH="lua/?.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/tactics_bench.lua [mapfile]
local astar = require "astar"
require "astar.tactics"   -- adds grid:movementRange and friends

local clock = os.clock
local floor = math.floor
local mapfile = arg and arg[1] or "maps/den312d.map"
local W, H, X0, Y0 = 64, 64, 1, 9   -- the cut: columns 1..64, rows 9..72

-- ---- the map -------------------------------------------------------------
local file = assert(io.open(mapfile, "rb"))
local whole = astar.fromMovingAI(file:read("*a"))
file:close()
local grid = astar.new(W, H)
local wall, cost = {}, {}   -- by cell index (y - 1) * W + x, for the baseline
local open = {}
for y = 1, H do
  for x = 1, W do
    local i = (y - 1) * W + x
    local walkable = whole:isWalkable(x + X0 - 1, y + Y0 - 1)
    -- terrain: forest (2) and mountain (3) from a fixed hash of the cell
    local h = (x * 73856093 + y * 19349663) % 97
    local c = h < 15 and 2 or h < 22 and 3 or 1
    grid:setWalkable(x, y, walkable)
    grid:setCost(x, y, c)
    wall[i], cost[i] = not walkable, c
    if walkable then open[#open + 1] = i end
  end
end

-- ---- the baseline: Dijkstra with a binary heap, all in Lua ----------------
local function baselineRange(sx, sy, move, blocked)
  local dist, parent, done = {}, {}, {}
  local heapC, heapK, n = {}, {}, 0
  local function push(c, k)
    n = n + 1
    local i = n
    while i > 1 do
      local p = floor(i / 2)
      if heapC[p] <= c then break end
      heapC[i], heapK[i] = heapC[p], heapK[p]
      i = p
    end
    heapC[i], heapK[i] = c, k
  end
  local function pop()
    local c, k = heapC[1], heapK[1]
    local lc, lk = heapC[n], heapK[n]
    n = n - 1
    local i = 1
    while true do
      local ch = 2 * i
      if ch > n then break end
      if ch < n and heapC[ch + 1] < heapC[ch] then ch = ch + 1 end
      if heapC[ch] >= lc then break end
      heapC[i], heapK[i] = heapC[ch], heapK[ch]
      i = ch
    end
    heapC[i], heapK[i] = lc, lk
    return c, k
  end
  local s = (sy - 1) * W + sx
  dist[s] = 0
  push(0, s)
  while n > 0 do
    local g, k = pop()
    if not done[k] then
      done[k] = true
      local x = (k - 1) % W + 1
      local nb1 = x < W and k + 1 or nil
      local nb2 = x > 1 and k - 1 or nil
      local nb3 = k + W <= W * H and k + W or nil
      local nb4 = k - W >= 1 and k - W or nil
      for _, m in ipairs({ nb1 or 0, nb2 or 0, nb3 or 0, nb4 or 0 }) do
        if m > 0 and not wall[m] and not (blocked and blocked[m]) then
          local ng = g + cost[m]
          if ng <= move and (dist[m] == nil or ng < dist[m]) then
            dist[m], parent[m] = ng, k
            push(ng, m)
          end
        end
      end
    end
  end
  return dist, parent
end

local function baselineAttack(dist, lo, hi, out, counted)
  for k in pairs(dist) do
    local x, y = (k - 1) % W + 1, floor((k - 1) / W) + 1
    for dy = -hi, hi do
      local ty = y + dy
      if ty >= 1 and ty <= H then
        local ady = dy < 0 and -dy or dy
        for dx = ady - hi, hi - ady do
          local adx = dx < 0 and -dx or dx
          local tx = x + dx
          if adx + ady >= lo and tx >= 1 and tx <= W then
            local t = (ty - 1) * W + tx
            if not counted[t] then
              counted[t] = true
              out[t] = (out[t] or 0) + 1
            end
          end
        end
      end
    end
  end
end

local function baselineZone(enemies, blocked)
  local out = {}
  for _, e in ipairs(enemies) do
    baselineAttack(baselineRange(e.x, e.y, e.move, blocked), e.minRange, e.maxRange, out, {})
  end
  return out
end

-- ---- timing ----------------------------------------------------------------
-- Runs f(i) for i = 1.. until at least `budget` seconds pass; seconds per call.
local function time(f, budget)
  budget = budget or 0.3
  local calls, t0 = 0, clock()
  repeat
    for _ = 1, 10 do
      calls = calls + 1
      f(calls)
    end
  until clock() - t0 >= budget
  return (clock() - t0) / calls
end

local function startCell(i)
  local k = open[(i * 7919) % #open + 1]
  return (k - 1) % W + 1, floor((k - 1) / W) + 1
end

local function us(s) return string.format("%9.1f us", s * 1e6) end

local version = type(jit) == "table" and jit.version or _VERSION
print(string.format("tactics bench: %s, %dx%d cut of %s, %d open cells", version, W, H,
  mapfile:match("[^/]+$"), #open))

-- check once that both agree, so the comparison is fair
do
  local sx, sy = startCell(1)
  local r, d = grid:movementRange(sx, sy, 10), baselineRange(sx, sy, 10)
  local n = 0
  for k, c in pairs(d) do
    n = n + 1
    assert(r:costTo((k - 1) % W + 1, floor((k - 1) / W) + 1) == c, "baseline disagrees")
  end
  assert(n == #r:cells(), "baseline disagrees on the cell count")
end

print(string.format("%-34s %12s %12s %8s", "query", "astar", "pure Lua", "ratio"))
for _, move in ipairs({ 5, 10, 20 }) do
  local c = time(function(i) local x, y = startCell(i) return grid:movementRange(x, y, move) end)
  local b = time(function(i) local x, y = startCell(i) return baselineRange(x, y, move) end)
  print(string.format("%-34s %12s %12s %7.1fx", "movementRange move " .. move, us(c), us(b), b / c))
end

-- 20 enemies: move 5, spear 1..2, some blocked by 10 player units
local enemies, units = {}, {}
for i = 1, 20 do
  local x, y = startCell(i * 31)
  enemies[i] = { x = x, y = y, move = 5, minRange = 1, maxRange = 2 }
end
for i = 1, 10 do
  local x, y = startCell(i * 101 + 7)
  units[(y - 1) * W + x] = true
end
do
  local z, b = grid:dangerZone(enemies, { blocked = units }), baselineZone(enemies, units)
  local n = 0
  for k, c in pairs(b) do
    n = n + 1
    assert(z:count((k - 1) % W + 1, floor((k - 1) / W) + 1) == c, "baseline zone disagrees")
  end
  assert(n == z:size(), "baseline zone disagrees on the cell count")
end
local zc = time(function() return grid:dangerZone(enemies, { blocked = units }) end)
local zb = time(function() return baselineZone(enemies, units) end)
print(string.format("%-34s %12s %12s %7.1fx", "dangerZone 20 enemies (move 5)", us(zc), us(zb), zb / zc))

-- callbacks against tables: the same rules both ways, move 10
print()
print(string.format("%-34s %12s %12s %8s", "rules (move 10)", "functions", "tables", "ratio"))
local allies, zoc = {}, {}
for i = 1, 40 do
  local x, y = startCell(i * 13 + 3)
  allies[(y - 1) * W + x] = true
  x, y = startCell(i * 17 + 5)
  zoc[(y - 1) * W + x] = true
end
local function asFunction(set) return function(x, y) return set[(y - 1) * W + x] end end
local fopts = { blocked = asFunction(units), occupied = asFunction(allies), zoc = asFunction(zoc) }
local topts = { blocked = units, occupied = allies, zoc = zoc }
local fr = time(function(i) local x, y = startCell(i) return grid:movementRange(x, y, 10, fopts) end)
local tr = time(function(i) local x, y = startCell(i) return grid:movementRange(x, y, 10, topts) end)
print(string.format("%-34s %12s %12s %7.1fx", "blocked + occupied + zoc", us(fr), us(tr), fr / tr))
local costs = {}
for i = 1, W * H do costs[i] = 1 end
local fly = function() return 1 end
local fc = time(function(i) local x, y = startCell(i) return grid:movementRange(x, y, 10, { cost = fly }) end)
local tc = time(function(i) local x, y = startCell(i) return grid:movementRange(x, y, 10, { cost = costs }) end)
print(string.format("%-34s %12s %12s %7.1fx", "cost (a flier)", us(fc), us(tc), fc / tc))
local plain = time(function(i) local x, y = startCell(i) return grid:movementRange(x, y, 10) end)
print(string.format("%-34s %12s", "no rules (grid costs)", us(plain)))
-- 8 directions (issue 12): the diagonal loop, corner rule on every diagonal
local diag = time(function(i)
  local x, y = startCell(i)
  return grid:movementRange(x, y, 10, { diagonal = "one-obstacle" })
end)
print(string.format("%-34s %12s", "8 directions (one-obstacle)", us(diag)))

-- what the result costs to use: pathTo and cells on a move-10 range
local rx, ry = startCell(3)
local r = grid:movementRange(rx, ry, 10)
local list = r:cells()
local p = time(function(i) local c = list[i % #list + 1] return r:pathTo(c.x, c.y) end)
local cl = time(function() return r:cells() end)
print(string.format("%-34s %12s", "pathTo (no second search)", us(p)))
print(string.format("%-34s %12s  (%d cells)", "cells()", us(cl), #list))
