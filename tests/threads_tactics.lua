-- Part 3 of tests/threads.c (make threads-test): run in a Lua state of its
-- own by the main thread alone (check = true) and then by four threads at
-- once, on grids decoded from one encoding the threads share as a C buffer.
-- Returns a transcript of every answer; the C side requires every thread's
-- transcript to equal the single-threaded one. With check, movement ranges
-- and attack areas are also compared with the specs' tactics reference, and
-- every run compares each stepped search with findPath.
local bytes, check, rounds = ...
local astar = require "astar"
local tactics = require "astar.tactics"
local T = require "helpers.tactics_reference"

local out = {}
local function put(...)
  local t = { ... }
  for i = 1, select("#", ...) do t[i] = tostring(t[i]) end
  out[#out + 1] = table.concat(t, " ")
end
local function fmt(v) return ("%.17g"):format(v) end

-- rules that depend on the cell only; cost nil is impassable
local rules = {
  cost = function(x, y)
    if (x * 3 + y) % 11 == 0 then return nil end
    return 1 + (x + y) % 3
  end,
  blocked = function(x, y) return (x + 5 * y) % 13 == 0 end,
  occupied = function(x, y) return (2 * x + y) % 9 == 0 end,
  zoc = function(x, y) return (x * y) % 17 == 5 end,
}

for _ = 1, rounds do
  local grid = astar.decode(bytes)
  local w, h = grid:getDimensions()
  put("grid", w, h, grid:getDiagonal(), #grid:encode(), grid:encode() == bytes)
  local map = { w = w, h = h, wall = {}, cost = {} }
  for y = 1, h do
    map.wall[y], map.cost[y] = {}, {}
    for x = 1, w do
      map.wall[y][x] = not grid:isWalkable(x, y)
      map.cost[y][x] = grid:getCost(x, y)
    end
  end
  local blockedSet = {}
  for i = 1, w * h do
    if i % 10 == 3 then blockedSet[i] = true end
  end

  local starts = { { 1, 1 }, { 2, 2 }, { 15, 11 }, { 30, 22 }, { 7, 19 } }
  for k, st in ipairs(starts) do
    local x, y = st[1], st[2]
    if grid:isWalkable(x, y) then
      local move = 4 + 2 * k
      local r1 = tactics.movementRange(grid, x, y, move, rules)
      local r2 = grid:movementRange(x, y, move, { blocked = blockedSet })
      for _, r in ipairs({ r1, r2 }) do
        local cells = r:cells()
        for _, c in ipairs(cells) do put("stop", c.x, c.y, fmt(c.cost)) end
        local last = cells[#cells]
        for _, c in ipairs(r:pathTo(last.x, last.y)) do put("path", c.x, c.y) end
      end
      local a1 = grid:attackRange(r1, 1, 2)
      local a2 = grid:attackRange(r1, 2, 3, { lineOfSight = true })
      local a3 = grid:attackRange(r2, 1, 3, {
        lineOfSight = function(fx, fy, tx, ty) return (fx + fy + tx + ty) % 3 ~= 0 end,
      })
      for _, a in ipairs({ a1, a2, a3 }) do
        put("attack", a:size())
        for _, c in ipairs(a:cells()) do put("hit", c.x, c.y) end
      end
      if check then
        local dist, stop = T.movement(map, x, y, move, rules)
        local n = 0
        for yy = 1, h do
          for xx = 1, w do
            local c = r1:costTo(xx, yy)
            assert((c == nil) == (dist[yy][xx] == nil),
              ("movementRange from %d,%d: reach of %d,%d"):format(x, y, xx, yy))
            if c then assert(math.abs(c - dist[yy][xx]) < 1e-9, "movementRange cost") end
            assert(r1:contains(xx, yy) == (stop[yy][xx] == true), "movementRange stop")
            if stop[yy][xx] then n = n + 1 end
          end
        end
        local hit = T.attack(map, stop, 2, 3, function(fx, fy, tx, ty)
          return T.lineOfSight(map, fx, fy, tx, ty)
        end)
        local m = 0
        for yy = 1, h do
          for xx = 1, w do
            assert(a2:contains(xx, yy) == (hit[yy][xx] == true), "attackRange with line of sight")
            if hit[yy][xx] then m = m + 1 end
          end
        end
        assert(n == #r1:cells() and m == a2:size())
      end
    end
  end

  local enemies = {
    { x = 1, y = 1, move = 5, minRange = 1, maxRange = 2 },
    { x = 2, y = 2, move = 3, minRange = 2, maxRange = 3, cost = function() return 1 end },
    { x = 20, y = 10, move = 6, minRange = 1, maxRange = 1 },
  }
  for i = #enemies, 1, -1 do
    if not grid:isWalkable(enemies[i].x, enemies[i].y) then table.remove(enemies, i) end
  end
  local zone = grid:dangerZone(enemies, { blocked = rules.blocked, lineOfSight = true })
  put("zone", zone:size())
  for _, c in ipairs(zone:cells()) do put("danger", c.x, c.y, c.count) end

  -- stepped searches on the grid and on a copy with uniform costs (where
  -- jump point search runs)
  local uniform = astar.decode(bytes)
  for y = 1, h do
    for x = 1, w do uniform:setCost(x, y, 1) end
  end
  for k = 1, 16 do
    local g = k % 2 == 0 and uniform or grid
    local sx, sy = 1 + (k * 7) % w, 1 + (k * 5) % h
    local gx, gy = w - (k * 3) % w, h - (k * 2) % h
    local opts = {
      partial = k % 5 == 0,
      algorithm = ({ "auto", "astar", "jps" })[1 + k % 3],
      diagonal = ({ "never", "always", "one-obstacle", "no-obstacles" })[1 + k % 4],
    }
    if opts.algorithm == "jps" then
      if g == grid then opts.algorithm = "astar" end
      if opts.diagonal == "always" or opts.diagonal == "one-obstacle" then
        opts.diagonal = "no-obstacles"
      end
    end
    local s = g:newSearch(sx, sy, gx, gy, opts)
    local status, steps = "searching", 0
    while status == "searching" do
      status = s:step(1 + k % 5)
      steps = steps + 1
    end
    local p1, c1, f1 = s:result()
    local p2, c2, f2 = g:findPath(sx, sy, gx, gy, opts)
    assert((p1 == nil) == (p2 == nil) and c1 == c2 and f1 == f2,
      "stepped search differs from findPath")
    if p1 then
      assert(#p1 == #p2)
      for i = 1, #p1 do assert(p1[i].x == p2[i].x and p1[i].y == p2[i].y) end
      put("search", k, status, steps, #p1, fmt(c1), f1, s:getStats().expanded)
    else
      put("search", k, status, steps, c1)
    end
  end
end
return table.concat(out, "\n")
