-- Independent reference for distance maps (grid:distanceMap, map:flee,
-- astar.blend), used by spec/distance_map_spec.lua.
--
-- Nothing here uses the astar module. A board is rules_reference.board (the
-- grid description with a query's rules applied: entry(x, y), INF when the
-- cell cannot be entered). The distance map is a plain multi-source Dijkstra
-- by linear scan; rescans are a Bellman-Ford relaxation to a fixpoint (another
-- algorithm, so flee and blend are not checked against the same code).
-- Works on Lua 5.1 (LuaJIT) to 5.4.
local M = {}

local INF = math.huge
local SQRT2 = 1.41421356237309504880
M.INF = INF

-- The step order of nextStep: E W S N SE SW NE NW (x right, y down).
M.DIRS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } }

local function cell(w, x, y) return (y - 1) * w + x end
M.cell = cell

local function inside(b, x, y) return x >= 1 and x <= b.w and y >= 1 and y <= b.h end

local function wall(b, x, y) return not inside(b, x, y) or b.entry(x, y) == INF end

-- May a walk step from (x, y) by (dx, dy)? The target must be enterable and,
-- for a diagonal, the corner rule of mode must let it through.
function M.step_ok(b, mode, x, y, dx, dy)
  if wall(b, x + dx, y + dy) then return false end
  if dx == 0 or dy == 0 then return true end
  if mode == "never" then return false end
  if mode == "always" then return true end
  local a, c = wall(b, x + dx, y), wall(b, x, y + dy)
  if mode == "one-obstacle" then return not (a and c) end
  return not a and not c
end

-- The cost of that step: the entered cell's cost, SQRT2 times it diagonally.
function M.step_cost(b, x, y, dx, dy)
  local c = b.entry(x + dx, y + dy)
  if dx ~= 0 and dy ~= 0 then return SQRT2 * c end
  return c
end

-- The distance map: dist[cell] (nil outside the map) and src[cell], the
-- index of the source whose start value the cell itself holds (a source
-- cell: the lowest value, the first of equal ones).
function M.distance(b, mode, sources, maxCost)
  local w, n = b.w, b.w * b.h
  local limit = maxCost or INF
  local dist, done, own = {}, {}, {}
  for k, s in ipairs(sources) do
    local v = s.value or 0
    local i = cell(w, s.x, s.y)
    if b.entry(s.x, s.y) < INF and v <= limit and (dist[i] == nil or v < dist[i]) then
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
      -- v steps into u: v = u - d
      local vx, vy = ux - d[1], uy - d[2]
      if inside(b, vx, vy) and b.entry(vx, vy) < INF and M.step_ok(b, mode, vx, vy, d[1], d[2]) then
        local ng = best + M.step_cost(b, vx, vy, d[1], d[2])
        local j = cell(w, vx, vy)
        if ng <= limit and not done[j] and (dist[j] == nil or ng < dist[j]) then dist[j] = ng end
      end
    end
  end
  return { dist = dist, own = own, start = start }
end

-- Start cells (issue 21): a cell of the grid (no wall) that the query's
-- rules close (issue 24: or a wall) is never entered, but a walk may start on it. Its value is the
-- least over its legal steps into a cell of the map of that cell's value plus
-- the step's cost (at most maxCost), as if a unit stood there; its first step
-- is the first such step in nextStep's order. Adds them to ref.dist
-- (ref.starts[cell] = true, ref.first[cell] = {dx, dy}); returns ref.
-- Issue 24: a wall of the grid is a start cell too (M.WALL_STARTS).
-- i24-mappure: the pure backend has it here, C on branch i24-mapc. Lead, at
-- merge: true on both.
M.WALL_STARTS = require("astar").backend == "lua"

function M.add_starts(b, mode, ref, maxCost)
  local w, limit = b.w, maxCost or INF
  local dist, found = ref.dist, {}
  ref.starts, ref.first = {}, {}
  for y = 1, b.h do
    for x = 1, w do
      if (M.WALL_STARTS or b.grid_walk(x, y)) and b.entry(x, y) == INF then
        local best, first = INF, nil
        for k, d in ipairs(M.DIRS) do
          local u = inside(b, x + d[1], y + d[2]) and dist[cell(w, x + d[1], y + d[2])]
          if (k <= 4 or mode ~= "never") and u and M.step_ok(b, mode, x, y, d[1], d[2]) then
            local v = u + M.step_cost(b, x, y, d[1], d[2])
            if v < best then best, first = v, d end
          end
        end
        if first and best <= limit then found[cell(w, x, y)] = { best, first } end
      end
    end
  end
  for i, f in pairs(found) do
    dist[i], ref.starts[i], ref.first[i] = f[1], true, f[2]
  end
  return ref
end

-- Rescan by relaxation to a fixpoint: result(v) = min over cells u of the
-- domain of start(u) + the cheapest walk v -> u through cells of the domain.
function M.rescan(b, mode, start)
  local w = b.w
  local r = {}
  for i, v in pairs(start) do r[i] = v end
  local changed = true
  while changed do
    changed = false
    for i, rv in pairs(r) do
      local x, y = (i - 1) % w + 1, math.floor((i - 1) / w) + 1
      for _, d in ipairs(M.DIRS) do
        local j = cell(w, x + d[1], y + d[2])
        if inside(b, x + d[1], y + d[2]) and r[j] ~= nil and M.step_ok(b, mode, x, y, d[1], d[2]) then
          local ng = r[j] + M.step_cost(b, x, y, d[1], d[2])
          if ng < rv - 1e-12 * math.max(1, math.abs(rv)) then
            rv = ng
            r[i] = ng
            changed = true
          end
        end
      end
    end
  end
  return r
end

return M
