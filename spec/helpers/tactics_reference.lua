-- Independent reference for the tactics specs: plain Lua, no astar code.
--
-- A map is { w =, h =, wall = {[y][x] = true}, cost = {[y][x] = number} };
-- rules are functions (x, y) like the module's opts (cost, blocked, occupied,
-- zoc). Dijkstra by linear scan (no heap): slow and obviously right.
local M = {}

local function get(t, x, y) return t[y] and t[y][x] end

-- Returns cost[y][x] for every reachable cell and stop[y][x] for stop cells.
-- diagonal: nil / "never" (4 directions), "always", "one-obstacle" or
-- "no-obstacles" (8; a diagonal step costs sqrt(2) times the entered cell's
-- cost and passes between two orthogonal cells, each a wall when outside the
-- map, a map wall, or impassable for the unit; the start is not impassable).
function M.movement(map, sx, sy, move, rules, diagonal)
  rules = rules or {}
  diagonal = diagonal or "never"
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
  local function inside(x, y) return x >= 1 and x <= map.w and y >= 1 and y <= map.h end
  -- a wall for the corner rule
  local function wallFor(x, y)
    if not inside(x, y) or get(map.wall, x, y) then return true end
    return not (x == sx and y == sy) and entry(x, y) == INF
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
      for dy = -1, 1 do
        for dx = -1, 1 do
          local x, y = bx + dx, by + dy
          local diag = dx ~= 0 and dy ~= 0
          local allowed = not (dx == 0 and dy == 0) and (not diag or diagonal ~= "never")
          if allowed and diag and diagonal ~= "always" then
            local walls = (wallFor(bx + dx, by) and 1 or 0) + (wallFor(bx, by + dy) and 1 or 0)
            allowed = walls == 0 or (walls == 1 and diagonal == "one-obstacle")
          end
          if allowed and inside(x, y) and not (x == sx and y == sy) then
            local e = entry(x, y)
            local nd = best + (diag and math.sqrt(2) * e or e)
            if nd <= move and (dist[y][x] == nil or nd < dist[y][x]) then dist[y][x] = nd end
          end
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

-- Is the distance from (0, 0) to (dx, dy) in [lo, hi]? metric: nil /
-- "manhattan", "chebyshev" or "euclidean" (compared squared, exact).
function M.within(dx, dy, lo, hi, metric)
  dx, dy = math.abs(dx), math.abs(dy)
  if metric == "chebyshev" then
    local d = math.max(dx, dy)
    return d >= lo and d <= hi
  elseif metric == "euclidean" then
    local d2 = dx * dx + dy * dy
    return d2 >= lo * lo and d2 <= hi * hi
  end
  return dx + dy >= lo and dx + dy <= hi
end

-- hit[y][x] = true for every cell within [lo, hi] of some stop cell (and
-- visible from it when sight(fx, fy, tx, ty) is given), by metric.
function M.attack(map, stop, lo, hi, sight, metric)
  local hit = {}
  for ty = 1, map.h do
    hit[ty] = {}
    for tx = 1, map.w do
      for fy = 1, map.h do
        for fx = 1, map.w do
          if stop[fy][fx] and M.within(fx - tx, fy - ty, lo, hi, metric)
              and (not sight or sight(fx, fy, tx, ty)) then
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
