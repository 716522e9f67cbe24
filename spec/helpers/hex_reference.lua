-- Independent reference for hex boards (spec/hex_spec.lua).
--
-- Nothing here uses the astar module, nor the parity tables or cube formulas of
-- src/core/hex_geometry.c: two cells are neighbours when their centres, laid out as in
-- the README's pictures (unit distance between neighbouring centres), are at
-- distance 1; the hex distance is a breadth-first count of steps over those
-- neighbours on the open board. The search is a plain Dijkstra by linear scan
-- (no heap: slow and obviously right; boards are small).
-- Works on Lua 5.1 (LuaJIT) to 5.4.
local M = {}

local INF = math.huge
local H = math.sqrt(3) / 2
M.INF = INF

M.LAYOUTS = { "odd-r", "even-r", "odd-q", "even-q" }

-- The centre of 1-based cell (col, row) of a layout, neighbours 1 apart.
-- "odd"/"even" name the 0-based row (column) numbers that are shoved.
function M.centre(layout, col, row)
  local c0, r0 = col - 1, row - 1
  if layout == "odd-r" then return c0 + (r0 % 2 == 1 and 0.5 or 0), r0 * H end
  if layout == "even-r" then return c0 + (r0 % 2 == 0 and 0.5 or 0), r0 * H end
  if layout == "odd-q" then return c0 * H, r0 + (c0 % 2 == 1 and 0.5 or 0) end
  if layout == "even-q" then return c0 * H, r0 + (c0 % 2 == 0 and 0.5 or 0) end
  error("unknown layout " .. tostring(layout))
end

local function cell(w, x, y) return (y - 1) * w + x end
M.cell = cell

-- The neighbours of (x, y) on a w x h board: a list of {x, y}.
function M.neighbours(layout, w, h, x, y)
  local out = {}
  local px, py = M.centre(layout, x, y)
  for ny = y - 1, y + 1 do
    for nx = x - 1, x + 1 do
      if nx >= 1 and ny >= 1 and nx <= w and ny <= h and not (nx == x and ny == y) then
        local qx, qy = M.centre(layout, nx, ny)
        local d = math.sqrt((qx - px) ^ 2 + (qy - py) ^ 2)
        if math.abs(d - 1) < 1e-9 then out[#out + 1] = { nx, ny } end
      end
    end
  end
  return out
end

-- Steps from (x, y) to every cell of an open w x h board, by cell number
-- (remembered: the result must not be changed).
local steps_memo = {}
function M.steps(layout, w, h, x, y)
  local key = table.concat({ layout, w, h, x, y }, " ")
  if steps_memo[key] then return steps_memo[key] end
  local d = { [cell(w, x, y)] = 0 }
  steps_memo[key] = d
  local queue, head = { { x, y } }, 1
  while queue[head] do
    local c = queue[head]
    head = head + 1
    local dc = d[cell(w, c[1], c[2])]
    for _, n in ipairs(M.neighbours(layout, w, h, c[1], c[2])) do
      local k = cell(w, n[1], n[2])
      if not d[k] then
        d[k] = dc + 1
        queue[#queue + 1] = n
      end
    end
  end
  return d
end

-- A board: { layout =, w =, h =, open[k], cost[k] } by cell number, and rules
-- as a query gives them, already interpreted: enter(x, y) -> cost or INF
-- (blocked, the cost rule or the grid's cost), nostop(x, y) -> boolean.
-- Returns dist[k] (nil: not reached) from (sx, sy), entering no cell whose
-- cost so far would exceed max_cost.
function M.dijkstra(b, sx, sy, enter, max_cost)
  local w, h = b.w, b.h
  max_cost = max_cost or INF
  local dist, done = { [cell(w, sx, sy)] = 0 }, {}
  while true do
    local best, bk
    for k, d in pairs(dist) do
      if not done[k] and (not best or d < best) then best, bk = d, k end
    end
    if not bk then break end
    done[bk] = true
    local x, y = (bk - 1) % w + 1, math.floor((bk - 1) / w) + 1
    for _, n in ipairs(M.neighbours(b.layout, w, h, x, y)) do
      local k = cell(w, n[1], n[2])
      if b.open[k] then
        local c = enter(n[1], n[2])
        if c ~= INF then
          local nd = best + c
          if nd <= max_cost and (dist[k] == nil or nd < dist[k]) then dist[k] = nd end
        end
      end
    end
  end
  return dist
end

-- What a query should give. q: { sx, sy, goals = {{x, y}...}, near, max_cost,
-- partial, enter, nostop }. Returns { kind = "path", cost =, targets = set of
-- cell numbers a path may end on } or { kind = "partial", key = {closeness,
-- cost} set of allowed ends } or { kind = "none", reasons = set }.
function M.expect(b, q)
  local w, h = b.w, b.h
  local near = q.near or 0
  local enter = q.enter or function(x, y) return b.cost[cell(w, x, y)] end
  local nostop = q.nostop or function() return false end
  local dist = M.dijkstra(b, q.sx, q.sy, enter, q.max_cost)
  local steps = {}
  for i, g in ipairs(q.goals) do steps[i] = M.steps(b.layout, w, h, g.x, g.y) end
  local start = cell(w, q.sx, q.sy)
  local function region(k)          -- first goal whose region holds k, or nil
    for i = 1, #q.goals do
      if steps[i][k] <= near then return i end
    end
    return nil
  end
  local best
  for k, d in pairs(dist) do
    if region(k) and (k == start or not nostop((k - 1) % w + 1, math.floor((k - 1) / w) + 1))
      and (not best or d < best) then best = d end
  end
  if best then
    local targets = {}
    for k, d in pairs(dist) do
      if d == best and region(k) and (k == start
        or not nostop((k - 1) % w + 1, math.floor((k - 1) / w) + 1)) then targets[k] = true end
    end
    return { kind = "path", cost = best, targets = targets, region = region }
  end
  if q.partial then
    -- the reached cell closest to the goals' regions, then the cheapest
    local bc, bd
    for k, d in pairs(dist) do
      if k == start or not nostop((k - 1) % w + 1, math.floor((k - 1) / w) + 1) then
        local c = INF
        for i = 1, #q.goals do
          local s = steps[i][k] - near
          if s < 0 then s = 0 end
          if s < c then c = s end
        end
        if not bc or c < bc or (c == bc and d < bd) then bc, bd = c, d end
      end
    end
    local ends = {}
    for k, d in pairs(dist) do
      if d == bd and (k == start or not nostop((k - 1) % w + 1, math.floor((k - 1) / w) + 1)) then
        local c = INF
        for i = 1, #q.goals do
          local s = steps[i][k] - near
          if s < 0 then s = 0 end
          if s < c then c = s end
        end
        if c == bc then ends[k] = true end
      end
    end
    return { kind = "partial", cost = bd, targets = ends }
  end
  local reasons = { ["no path"] = true }
  if #q.goals == 1 and near == 0 then
    local g = q.goals[1]
    local k = cell(w, g.x, g.y)
    if not b.open[k] or enter(g.x, g.y) == INF or nostop(g.x, g.y) then
      reasons["goal is blocked"] = true
    end
  end
  return { kind = "none", reasons = reasons }
end

-- Checks a path (list of {x =, y =}) on board b for query q: it starts at the
-- start, each step goes to a reference neighbour that may be entered, and the
-- costs add up to `cost`. Returns the sum or raises.
function M.walk(b, q, path)
  local w = b.w
  local enter = q.enter or function(x, y) return b.cost[cell(w, x, y)] end
  assert(path[1].x == q.sx and path[1].y == q.sy, "the path does not start at the start")
  local sum = 0
  for i = 2, #path do
    local a, c = path[i - 1], path[i]
    local ok = false
    for _, n in ipairs(M.neighbours(b.layout, w, b.h, a.x, a.y)) do
      if n[1] == c.x and n[2] == c.y then ok = true end
    end
    assert(ok, ("step %d: (%d,%d) -> (%d,%d) is no hex step"):format(i, a.x, a.y, c.x, c.y))
    assert(b.open[cell(w, c.x, c.y)], ("step %d enters a wall"):format(i))
    local e = enter(c.x, c.y)
    assert(e ~= INF, ("step %d enters an impassable cell"):format(i))
    sum = sum + e
  end
  return sum
end

function M.close(a, b)
  return math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a), math.abs(b))
end


-- Line of sight: the cells holding the points (a + v) + ((b + v) - (a + v)) * i / N,
-- i = 1 .. N - 1 (N the number of steps from a to b), found as the nearest
-- centre (centre()), with v the nudge (1e-6, 2e-6, -3e-6) of cube coordinates
-- turned into the centres' plane. True when none of them is a wall; points
-- nearest to a centre off the board do not block.
function M.sees(b, x0, y0, x1, y1)
  local layout, w, h = b.layout, b.w, b.h
  local n = M.steps(layout, w, h, x0, y0)[cell(w, x1, y1)]
  local eq, er = 1e-6, 2e-6
  local vx, vy
  if layout == "odd-r" or layout == "even-r" then
    vx, vy = eq + er / 2, er * H
  else
    vx, vy = eq * H, er + eq / 2
  end
  local ax, ay = M.centre(layout, x0, y0)
  local bx, by = M.centre(layout, x1, y1)
  ax, ay, bx, by = ax + vx, ay + vy, bx + vx, by + vy
  for i = 1, n - 1 do
    local t = i / n
    local px, py = ax + (bx - ax) * t, ay + (by - ay) * t
    local best, bcx, bcy
    -- the centres around the point (a window of 4 x 4 cells, the rim included)
    local ccol, crow
    if layout == "odd-r" or layout == "even-r" then
      ccol, crow = math.floor(px) + 1, math.floor(py / H) + 1
    else
      ccol, crow = math.floor(px / H) + 1, math.floor(py) + 1
    end
    for cy = math.max(0, crow - 1), math.min(h + 1, crow + 2) do
      for cx = math.max(0, ccol - 1), math.min(w + 1, ccol + 2) do
        local qx, qy = M.centre(layout, cx, cy)
        local d = (qx - px) ^ 2 + (qy - py) ^ 2
        if not best or d < best then best, bcx, bcy = d, cx, cy end
      end
    end
    if bcx >= 1 and bcy >= 1 and bcx <= w and bcy <= h and not b.open[cell(w, bcx, bcy)] then
      return false
    end
  end
  return true
end

return M
