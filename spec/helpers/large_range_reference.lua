-- Independent reference for movement ranges and danger zones of large units
-- (size = k, issue 14), used by spec/large_ranges_spec.lua. Nothing here uses
-- the astar module: a plain Dijkstra by linear scan over top-left positions,
-- each step priced by helpers.large_reference (which checks every covered
-- cell itself). Works on Lua 5.1 (LuaJIT) to 5.4.
--
-- A board is helpers.large_reference's ({ w, h, k, diagonal, value }) with
-- two more optional functions of a cell: occupied(x, y) (the unit may not
-- end its move with any of its cells there) and zoc(x, y) (a position
-- covering such a cell ends the move). Semantics (README "Large units"):
-- the positions reached within `move` from the start (never checked), where
-- a zone of control stops the move except at the start; a move may end on
-- the start and on any reached position that covers no occupied cell.

local L = require "helpers.large_reference"

local M = {}

local INF = math.huge
M.INF = INF

local DX = { 1, -1, 0, 0, 1, -1, 1, -1 }
local DY = { 0, 0, 1, -1, 1, 1, -1, -1 }

-- Does position (x, y) cover a cell of a zone of control?
function M.in_zoc(b, x, y)
  if not b.zoc then return false end
  for cy = y, y + b.k - 1 do
    for cx = x, x + b.k - 1 do
      if b.zoc(cx, cy) then return true end
    end
  end
  return false
end

-- The movement range from (sx, sy) with budget move: cost[y][x] for every
-- position reached (nil when not), stop[y][x] for those a move may end on.
function M.range(b, sx, sy, move)
  local dist, done = {}, {}
  for y = 1, b.h do
    dist[y], done[y] = {}, {}
    for x = 1, b.w do dist[y][x] = INF end
  end
  dist[sy][sx] = 0
  local ndir = b.diagonal == "never" and 4 or 8
  while true do
    local bx, by, bd = nil, nil, INF
    for y = 1, b.h do
      for x = 1, b.w do
        if not done[y][x] and dist[y][x] < bd then bx, by, bd = x, y, dist[y][x] end
      end
    end
    if not bx then break end
    done[by][bx] = true
    if (bx == sx and by == sy) or not M.in_zoc(b, bx, by) then
      for d = 1, ndir do
        local qx, qy = bx + DX[d], by + DY[d]
        if qx >= 1 and qy >= 1 and qx <= b.w and qy <= b.h and not done[qy][qx] then
          local c = L.step(b, bx, by, qx, qy)
          if c < INF and bd + c <= move and bd + c < dist[qy][qx] then dist[qy][qx] = bd + c end
        end
      end
    end
  end
  local cost, stop = {}, {}
  for y = 1, b.h do
    cost[y], stop[y] = {}, {}
    for x = 1, b.w do
      if dist[y][x] < INF then
        cost[y][x] = dist[y][x]
        stop[y][x] = (x == sx and y == sy) or not L.covers_occupied(b, x, y)
      end
    end
  end
  return cost, stop
end

-- Is the distance (dx, dy) in [lo, hi]? metric: nil / "manhattan",
-- "chebyshev" or "euclidean" (compared squared, exactly).
local function within(dx, dy, lo, hi, metric)
  dx, dy = math.abs(dx), math.abs(dy)
  local d
  if metric == "chebyshev" then
    d = math.max(dx, dy)
  elseif metric == "euclidean" then
    local d2 = dx * dx + dy * dy
    return d2 >= lo * lo and d2 <= hi * hi
  else
    d = dx + dy
  end
  return d >= lo and d <= hi
end

local function clamp(v, lo, hi)
  if v < lo then return lo end
  if v > hi then return hi end
  return v
end

-- The cells a unit of size k standing on one of the positions stop[y][x]
-- can attack: hit[y][x] = true when the distance from the position's
-- nearest covered cell (the target clamped into the k x k square) is in [lo,
-- hi] by metric and, when sight(fx, fy, tx, ty) is given, that cell sees
-- the target. Every position against every target.
function M.attack(w, h, k, stop, lo, hi, sight, metric)
  local hit = {}
  for ty = 1, h do
    hit[ty] = {}
    for tx = 1, w do
      for py = 1, h do
        for px = 1, w do
          if stop[py][px] then
            local fx, fy = clamp(tx, px, px + k - 1), clamp(ty, py, py + k - 1)
            if within(tx - fx, ty - fy, lo, hi, metric) and (not sight or sight(fx, fy, tx, ty)) then
              hit[ty][tx] = true
            end
          end
        end
      end
    end
  end
  return hit
end

-- A danger zone: count[y][x] = how many of the enemies can attack (x, y)
-- (nil when none). enemies[i] = { board =, x =, y =, move =, lo =, hi =,
-- metric = }, each with its own board (its size, diagonal mode and rules).
function M.danger(w, h, enemies, sight)
  local count = {}
  for y = 1, h do count[y] = {} end
  for _, e in ipairs(enemies) do
    local _, stop = M.range(e.board, e.x, e.y, e.move)
    local hit = M.attack(w, h, e.board.k, stop, e.lo, e.hi, sight, e.metric)
    for y = 1, h do
      for x = 1, w do
        if hit[y][x] then count[y][x] = (count[y][x] or 0) + 1 end
      end
    end
  end
  return count
end

return M
