-- Independent reference for distance maps of large units (grid:distanceMap
-- with opts.size, issue 14), used by spec/large_distance_spec.lua. Nothing
-- here uses the astar module: the positions and steps are
-- spec/helpers/large_reference.lua's (every covered cell checked by it), the
-- map a plain multi-source Dijkstra by linear scan over top-left positions,
-- rescans a Bellman-Ford relaxation to a fixpoint. Works on Lua 5.1 to 5.4.
--
-- A board is large_reference's: { w =, h =, k =, diagonal =, value = function
-- (x, y) -> the cell's entry cost with the query's rules, math.huge when it
-- cannot be entered }. The map (README "Distance maps", opts.size):
-- value(p) = min over sources s of s.value + the cheapest walk of the unit
-- from position p to s (a source's own value when p is s), the walk's steps
-- priced by large_reference.step (the highest entry cost of the cells the
-- step newly covers, sqrt(2) times that diagonally; the corner rule on whole
-- positions); only allowed positions are in the map.
local L = require "helpers.large_reference"

local M = {}

local INF = math.huge
M.INF = INF

-- The step order of nextStep: E W S N SE SW NE NW (x right, y down).
M.DIRS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } }

local function cell(w, x, y) return (y - 1) * w + x end
M.cell = cell

M.allowed = L.allowed

-- The price of the unit's step from (x, y) by (dx, dy): INF when either
-- position is not allowed or the corner rule forbids it.
function M.step(b, x, y, dx, dy)
  if not L.allowed(b, x, y) then return INF end
  return L.step(b, x, y, x + dx, y + dy)
end

-- The map: dist[cell] (nil outside), own[cell] (the source whose start value
-- the position holds: the lowest value, the first of equal ones), start.
function M.distance(b, sources, maxCost)
  local w, n = b.w, b.w * b.h
  local limit = maxCost or INF
  local dist, done, own = {}, {}, {}
  for k, s in ipairs(sources) do
    local v = s.value or 0
    local i = cell(w, s.x, s.y)
    if L.allowed(b, s.x, s.y) and v <= limit and (dist[i] == nil or v < dist[i]) then
      dist[i], own[i] = v, k
    end
  end
  local start = {}
  for i, v in pairs(dist) do start[i] = v end
  while true do
    local best, bi = INF, nil
    for i = 1, n do
      local d = dist[i]
      if d ~= nil and not done[i] and d < best then best, bi = d, i end
    end
    if bi == nil then break end
    done[bi] = true
    local ux, uy = (bi - 1) % w + 1, math.floor((bi - 1) / w) + 1
    for _, d in ipairs(M.DIRS) do
      local vx, vy = ux - d[1], uy - d[2]      -- the walk steps from v into u
      if vx >= 1 and vy >= 1 and vx <= b.w and vy <= b.h then
        local c = M.step(b, vx, vy, d[1], d[2])
        local j = cell(w, vx, vy)
        if c < INF and best + c <= limit and not done[j] and (dist[j] == nil or best + c < dist[j]) then
          dist[j] = best + c
        end
      end
    end
  end
  return { dist = dist, own = own, start = start }
end

-- Rescan: result(p) = min over positions u of the domain of start(u) + the
-- cheapest walk p -> u through positions of the domain.
function M.rescan(b, start)
  local w = b.w
  local r = {}
  for i, v in pairs(start) do r[i] = v end
  local changed = true
  while changed do
    changed = false
    for i, rv in pairs(r) do
      local x, y = (i - 1) % w + 1, math.floor((i - 1) / w) + 1
      for _, d in ipairs(M.DIRS) do
        local nx, ny = x + d[1], y + d[2]
        local j = nx >= 1 and ny >= 1 and nx <= b.w and ny <= b.h and cell(w, nx, ny)
        if j and r[j] ~= nil then
          local c = M.step(b, x, y, d[1], d[2])
          if c < INF and r[j] + c < rv - 1e-12 * math.max(1, math.abs(rv)) then
            rv = r[j] + c
            r[i] = rv
            changed = true
          end
        end
      end
    end
  end
  return r
end

return M
