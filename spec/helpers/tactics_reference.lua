-- Independent reference for the tactics specs: plain Lua, no astar code.
--
-- A map is { w =, h =, wall = {[y][x] = true}, cost = {[y][x] = number} };
-- rules are functions (x, y) like the module's opts (cost, blocked, occupied,
-- zoc). Dijkstra by linear scan (no heap): slow and obviously right.
local M = {}

local function get(t, x, y) return t[y] and t[y][x] end

-- Returns cost[y][x] for every reachable cell and stop[y][x] for stop cells.
function M.movement(map, sx, sy, move, rules)
  rules = rules or {}
  local INF = math.huge
  local dist, done = {}, {}
  for y = 1, map.h do dist[y], done[y] = {}, {} end
  local function entry(x, y)
    if get(map.wall, x, y) then return INF end
    if rules.blocked and rules.blocked(x, y) then return INF end
    if rules.cost then
      local c = rules.cost(x, y)
      if not c then return INF end
      return c
    end
    return get(map.cost, x, y) or 1
  end
  dist[sy][sx] = 0
  while true do
    local bx, by, best = nil, nil, INF
    for y = 1, map.h do
      for x = 1, map.w do
        local d = dist[y][x]
        if d and not done[y][x] and d < best then bx, by, best = x, y, d end
      end
    end
    if not bx then break end
    done[by][bx] = true
    local stopHere = not (bx == sx and by == sy) and rules.zoc and rules.zoc(bx, by)
    if not stopHere then
      local nb = { { bx + 1, by }, { bx - 1, by }, { bx, by + 1 }, { bx, by - 1 } }
      for _, p in ipairs(nb) do
        local x, y = p[1], p[2]
        if x >= 1 and x <= map.w and y >= 1 and y <= map.h and not (x == sx and y == sy) then
          local nd = best + entry(x, y)
          if nd <= move and (dist[y][x] == nil or nd < dist[y][x]) then dist[y][x] = nd end
        end
      end
    end
  end
  local stop = {}
  for y = 1, map.h do
    stop[y] = {}
    for x = 1, map.w do
      if dist[y][x] then
        stop[y][x] = (x == sx and y == sy) or not (rules.occupied and rules.occupied(x, y))
      end
    end
  end
  return dist, stop
end

-- Does the segment between the centres of (x0, y0) and (x1, y1) cross the
-- open square of cell (cx, cy)? Exact: fractions with integer parts.
local function crosses(x0, y0, x1, y1, cx, cy)
  -- t interval (lo, hi) as fractions n/d (d > 0) where |p(t) - c| < 1/2
  local lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1   -- t in [0, 1]
  local function clip(p0, d, c)
    if d == 0 then return 2 * math.abs(p0 - c) < 1 end
    local a_n, b_n, den = 2 * (c - p0) - 1, 2 * (c - p0) + 1, 2 * d
    if den < 0 then a_n, b_n, den = -b_n, -a_n, -den end
    if a_n * lo_d > lo_n * den then lo_n, lo_d = a_n, den end
    if b_n * hi_d < hi_n * den then hi_n, hi_d = b_n, den end
    return true
  end
  if not clip(x0, x1 - x0, cx) or not clip(y0, y1 - y0, cy) then return false end
  return lo_n * hi_d < hi_n * lo_d
end

function M.lineOfSight(map, x0, y0, x1, y1)
  for y = math.min(y0, y1), math.max(y0, y1) do
    for x = math.min(x0, x1), math.max(x0, x1) do
      if get(map.wall, x, y) and not (x == x0 and y == y0) and not (x == x1 and y == y1)
          and crosses(x0, y0, x1, y1, x, y) then
        return false
      end
    end
  end
  return true
end

-- hit[y][x] = true for every cell within [lo, hi] of some stop cell (and
-- visible from it when sight(fx, fy, tx, ty) is given).
function M.attack(map, stop, lo, hi, sight)
  local hit = {}
  for ty = 1, map.h do
    hit[ty] = {}
    for tx = 1, map.w do
      for fy = 1, map.h do
        for fx = 1, map.w do
          local d = math.abs(fx - tx) + math.abs(fy - ty)
          if stop[fy][fx] and d >= lo and d <= hi and (not sight or sight(fx, fy, tx, ty)) then
            hit[ty][tx] = true
          end
        end
      end
    end
  end
  return hit
end

-- A deterministic generator (the same numbers on every Lua version).
function M.rng(seed)
  local s = seed
  return function(n)
    s = (s * 1103515245 + 12345) % 2147483648
    return math.floor(s / 65536) % n + 1
  end
end

return M
