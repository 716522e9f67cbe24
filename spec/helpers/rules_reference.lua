-- Independent reference for the query rules of findPath and newSearch (opts.cost,
-- opts.blocked, opts.occupied, opts.near, opts.maxCost and goal lists), used by
-- spec/query_rules_spec.lua.
--
-- Nothing here uses the astar module. It reuses spec/helpers/reference.lua only for
-- reading a grid description (normalise), the heuristic distances and close(); the
-- rules themselves, the search and the checks are its own: a plain Dijkstra by
-- linear scan (no heap: slow and obviously right; boards are small).
-- Works on Lua 5.1 (LuaJIT) to 5.4: no integer division, no bit operators, no goto.
--
-- A grid description is the one of reference.lua: { w =, h =, walkable =, cost = }
-- (tables [x][y] or functions (x, y)). Rules are given exactly as a query's opts
-- give them: each of cost, blocked and occupied a function (x, y), a table indexed
-- by cell number ((y - 1) * w + x) or a list of points; see interpret_* below.

local R = require "helpers.reference"

local M = {}

local INF = math.huge
local SQRT2 = math.sqrt(2)
M.INF = INF

local function cell(w, x, y) return (y - 1) * w + x end
M.cell = cell

local function is_list(rule)
  return type(rule) == "table" and type(rule[1]) == "table"
end
M.is_list = is_list

-- A flag rule (blocked, occupied) in any form, as a function (x, y) -> boolean.
-- A truthy value is on; nil means no rule (nothing is on).
function M.interpret_flag(rule, w)
  if rule == nil then
    return function() return false end
  elseif type(rule) == "function" then
    return function(x, y) return rule(x, y) and true or false end
  elseif is_list(rule) then
    local on = {}
    for _, p in ipairs(rule) do on[cell(w, p.x, p.y)] = true end
    return function(x, y) return on[cell(w, x, y)] == true end
  elseif type(rule) == "table" then
    return function(x, y) return rule[cell(w, x, y)] and true or false end
  end
  error("a flag rule must be nil, a function or a table")
end

-- What a cost value means: nil, false and math.huge are impassable (INF).
local function cost_value(v)
  if v == nil or v == false or v == INF then return INF end
  assert(type(v) == "number" and v > 0 and v <= 1e15, "bad cost value " .. tostring(v))
  return v
end

-- A cost rule in any form, as a function (x, y) -> cost or INF. grid_cost(x, y) is
-- the grid's own cost: what a cell keeps with no rule, and what the cells a list
-- does not name keep. Function and table forms replace the grid's cost.
function M.interpret_cost(rule, w, grid_cost)
  if rule == nil then
    return grid_cost
  elseif type(rule) == "function" then
    return function(x, y) return cost_value(rule(x, y)) end
  elseif is_list(rule) then
    local listed = {}
    for _, p in ipairs(rule) do
      local c = p.cost
      if c == false or c == INF then c = INF end
      assert(type(c) == "number", "a cost list entry needs a cost")
      listed[cell(w, p.x, p.y)] = c
    end
    return function(x, y)
      local c = listed[cell(w, x, y)]
      if c ~= nil then return c end
      return grid_cost(x, y)
    end
  elseif type(rule) == "table" then
    return function(x, y) return cost_value(rule[cell(w, x, y)]) end
  end
  error("a cost rule must be nil, a function or a table")
end

-- A board: the grid description with the rules of one query applied.
--   board.entry(x, y)      cost to enter (x, y), INF when it cannot be entered
--   board.occupied(x, y)   may be crossed, not ended on
--   board.grid_walk(x, y)  the grid's own walkability
-- The start is handled by the functions below (rules are never asked about it).
function M.board(desc, rules)
  rules = rules or {}
  local w, h, walk, grid_cost = R.normalise(desc)
  local blocked = M.interpret_flag(rules.blocked, w)
  local occupied = M.interpret_flag(rules.occupied, w)
  local cost = M.interpret_cost(rules.cost, w, grid_cost)
  local b = { w = w, h = h, grid_walk = walk, occupied = occupied }
  function b.entry(x, y)
    if not walk(x, y) then return INF end
    if blocked(x, y) then return INF end
    return cost(x, y)
  end
  return b
end

local function in_bounds(b, x, y)
  return x >= 1 and x <= b.w and y >= 1 and y <= b.h
end

-- Is (x, y) a wall for the diagonal corner rule, for a query from (sx, sy)?
local function corner_wall(b, sx, sy, x, y)
  if x == sx and y == sy then return not b.grid_walk(x, y) end
  return b.entry(x, y) == INF
end

-- May a diagonal step from (x, y) by (dx, dy) be taken (the target aside)?
local function corner_ok(b, mode, sx, sy, x, y, dx, dy)
  if mode == "never" then return false end
  if mode == "always" then return true end
  local a = corner_wall(b, sx, sy, x + dx, y)
  local c = corner_wall(b, sx, sy, x, y + dy)
  if mode == "one-obstacle" then return not (a and c) end
  if mode == "no-obstacles" then return not a and not c end
  error("unknown diagonal mode " .. tostring(mode))
end

-- Plain Dijkstra by linear scan from (sx, sy) on a board. Returns dist indexed by
-- cell number (nil: unreachable). maxCost, when given, leaves out every cell whose
-- cheapest cost is above it.
function M.dijkstra(b, mode, sx, sy, maxCost)
  local w, n = b.w, b.w * b.h
  local limit = maxCost or INF
  local dist, done = {}, {}
  dist[cell(w, sx, sy)] = 0
  while true do
    local best, bi = INF, nil
    for i = 1, n do
      local d = dist[i]
      if d ~= nil and not done[i] and d < best then best, bi = d, i end
    end
    if bi == nil then break end
    done[bi] = true
    local x = (bi - 1) % w + 1
    local y = (bi - x) / w + 1
    for dx = -1, 1 do
      for dy = -1, 1 do
        local nx, ny = x + dx, y + dy
        if (dx ~= 0 or dy ~= 0) and in_bounds(b, nx, ny) and not (nx == sx and ny == sy) then
          local diagonal = dx ~= 0 and dy ~= 0
          local c = b.entry(nx, ny)
          if c < INF and (not diagonal or corner_ok(b, mode, sx, sy, x, y, dx, dy)) then
            local nd = best + (diagonal and SQRT2 * c or c)
            local j = cell(w, nx, ny)
            if nd <= limit and not done[j] and (dist[j] == nil or nd < dist[j]) then
              dist[j] = nd
            end
          end
        end
      end
    end
  end
  return dist
end

-- Distance that defines a goal's near region: manhattan with "never", else chebyshev.
function M.region_distance(mode, x, y, gx, gy)
  local dx, dy = math.abs(x - gx), math.abs(y - gy)
  if mode == "never" then return dx + dy end
  return math.max(dx, dy)
end

-- The smallest i such that (x, y) is within goals[i]'s region, or nil.
function M.goal_index(mode, x, y, goals, near)
  for i, g in ipairs(goals) do
    if M.region_distance(mode, x, y, g.x, g.y) <= near then return i end
  end
  return nil
end

-- May a path from (sx, sy) end on (x, y)? (the region aside)
function M.can_end(b, sx, sy, x, y)
  if x == sx and y == sy then return true end
  return b.entry(x, y) < INF and not b.occupied(x, y)
end

-- Closeness of (x, y) to the goals for a partial result: the heuristic's distance
-- from the cell to the nearest cell of the nearest goal's box [g - near, g + near].
function M.closeness(heuristic, mode, x, y, goals, near)
  local best = INF
  for _, g in ipairs(goals) do
    local dx = math.max(0, math.abs(x - g.x) - near)
    local dy = math.max(0, math.abs(y - g.y) - near)
    local d = R.heuristic_distance(heuristic, mode, 0, 0, dx, dy)
    if d < best then best = d end
  end
  return best
end

-- What a query should answer. q = {
--   mode, sx, sy, goals = {{x =, y =}, ...}, list = true when the goal argument was
--   a list, near (default 0), maxCost, partial, heuristic (for partial closeness) }
-- Returns one of
--   { kind = "path", cost = c, ends = {[cell] = cost} }      the acceptable end cells
--   { kind = "partial", cost = c, ends = {[cell] = cost} }   closest reached cells
--   { kind = "none", reasons = {[reason] = true} }
-- `dist` may be passed to reuse a Dijkstra without maxCost from the same start.
function M.expect(b, q, dist)
  local w = b.w
  local near = q.near or 0
  dist = dist or M.dijkstra(b, q.mode, q.sx, q.sy)
  local limit = q.maxCost or INF
  local best
  for i, d in pairs(dist) do
    local x = (i - 1) % w + 1
    local y = (i - x) / w + 1
    if d <= limit and M.can_end(b, q.sx, q.sy, x, y) and M.goal_index(q.mode, x, y, q.goals, near) then
      if best == nil or d < best then best = d end
    end
  end
  if best ~= nil then
    local ends = {}
    for i, d in pairs(dist) do
      local x = (i - 1) % w + 1
      local y = (i - x) / w + 1
      if d <= limit and R.close(d, best) and M.can_end(b, q.sx, q.sy, x, y)
          and M.goal_index(q.mode, x, y, q.goals, near) then
        ends[i] = d
      end
    end
    return { kind = "path", cost = best, ends = ends }
  end
  if q.partial then
    local heuristic = q.heuristic or (q.mode == "never" and "manhattan" or "octile")
    local close_best, cand = INF, {}
    for i, d in pairs(dist) do
      local x = (i - 1) % w + 1
      local y = (i - x) / w + 1
      if d <= limit and M.can_end(b, q.sx, q.sy, x, y) then
        local c = M.closeness(heuristic, q.mode, x, y, q.goals, near)
        cand[i] = c
        if c < close_best then close_best = c end
      end
    end
    local cost_best = INF
    for i, c in pairs(cand) do
      if R.close(c, close_best) and dist[i] < cost_best then cost_best = dist[i] end
    end
    local ends = {}
    for i, c in pairs(cand) do
      if R.close(c, close_best) and R.close(dist[i], cost_best) then ends[i] = dist[i] end
    end
    return { kind = "partial", cost = cost_best, ends = ends }
  end
  local reasons = {}
  local g = q.goals[1]
  local goal_blocked = near == 0 and #q.goals == 1 and not (g.x == q.sx and g.y == q.sy)
    and not M.can_end(b, q.sx, q.sy, g.x, g.y)
  if not q.list then
    reasons[goal_blocked and "goal is blocked" or "no path"] = true
  else
    -- a one-goal list: whether it counts as "a single goal" is not settled
    reasons["no path"] = true
    if goal_blocked then reasons["goal is blocked"] = true end
  end
  return { kind = "none", reasons = reasons }
end

-- Checks a path (an array of {x =, y =}) from (sx, sy) on a board: every step moves
-- to a neighbour the mode and the rules allow, into an enterable cell. Returns the
-- summed step costs, or nil and a message.
function M.walk(b, mode, path, sx, sy)
  if type(path) ~= "table" then return nil, "path is a " .. type(path) end
  local n = #path
  if n < 1 then return nil, "path is empty" end
  for i = 1, n do
    local p = path[i]
    if type(p) ~= "table" or type(p.x) ~= "number" or type(p.y) ~= "number"
        or p.x ~= math.floor(p.x) or p.y ~= math.floor(p.y) or not in_bounds(b, p.x, p.y) then
      return nil, ("path[%d] is not a cell of the grid"):format(i)
    end
  end
  if path[1].x ~= sx or path[1].y ~= sy then
    return nil, ("path starts at (%d, %d), not at (%d, %d)"):format(path[1].x, path[1].y, sx, sy)
  end
  local total = 0
  for i = 2, n do
    local a, c = path[i - 1], path[i]
    local dx, dy = c.x - a.x, c.y - a.y
    if (dx == 0 and dy == 0) or math.abs(dx) > 1 or math.abs(dy) > 1 then
      return nil, ("step %d (%d, %d) -> (%d, %d) is not a move to a neighbour"):format(i - 1, a.x, a.y, c.x, c.y)
    end
    if c.x == sx and c.y == sy then
      return nil, ("step %d goes back to the start"):format(i - 1)
    end
    local e = b.entry(c.x, c.y)
    if e == INF then
      return nil, ("step %d enters (%d, %d), a wall, blocked or impassable"):format(i - 1, c.x, c.y)
    end
    if dx ~= 0 and dy ~= 0 then
      if not corner_ok(b, mode, sx, sy, a.x, a.y, dx, dy) then
        return nil, ("diagonal step %d (%d, %d) -> (%d, %d) breaks the %s corner rule"):format(
          i - 1, a.x, a.y, c.x, c.y, mode)
      end
      total = total + SQRT2 * e
    else
      total = total + e
    end
  end
  return total
end

local function key(w, i)
  local x = (i - 1) % w + 1
  return ("(%d, %d)"):format(x, (i - x) / w + 1)
end

local function list_ends(w, ends)
  local t = {}
  for i, d in pairs(ends) do t[#t + 1] = key(w, i) .. " at " .. ("%.6g"):format(d) end
  table.sort(t)
  return table.concat(t, ", ")
end

-- Checks what a query answered against expect(): r is pack(findPath(...)) with the
-- path already as {x =, y =} points. q as for expect, with optimal = false when the
-- cost need not be optimal (weight above 1): then the path must still be legal and
-- end on a cell that is a proper end. Returns true, or nil and a message.
function M.check(b, q, r, expected)
  local w = b.w
  local near = q.near or 0
  local path, cost, third = r[1], r[2], r[3]
  if expected.kind == "none" then
    if path ~= nil then
      return nil, ("expected no path (%s), got a path of %s cells, cost %s"):format(
        next(expected.reasons), tostring(type(path) == "table" and #path), tostring(cost))
    end
    if not expected.reasons[cost] then
      local want = {}
      for k in pairs(expected.reasons) do want[#want + 1] = "'" .. k .. "'" end
      return nil, ("expected nil, %s; got nil, %s"):format(table.concat(want, " or "), tostring(cost))
    end
    return true
  end
  if type(path) ~= "table" then
    return nil, ("expected a path (%s, cost %.6g), got %s, %s"):format(expected.kind, expected.cost,
      tostring(path), tostring(cost))
  end
  local walked, why = M.walk(b, q.mode, path, q.sx, q.sy)
  if not walked then return nil, why end
  if type(cost) ~= "number" or not R.close(walked, cost) then
    return nil, ("the steps sum to %.17g, the query says %s"):format(walked, tostring(cost))
  end
  local last = path[#path]
  local li = cell(w, last.x, last.y)
  if not M.can_end(b, q.sx, q.sy, last.x, last.y) then
    return nil, ("the path ends on %s, which is occupied"):format(key(w, li))
  end
  if q.maxCost and cost > q.maxCost * (1 + 1e-12) then
    return nil, ("cost %.17g is above maxCost %.17g"):format(cost, q.maxCost)
  end
  local index = M.goal_index(q.mode, last.x, last.y, q.goals, near)
  if expected.kind == "path" then
    if not index then
      return nil, ("the path ends on %s, outside every goal's region"):format(key(w, li))
    end
    if q.optimal ~= false then
      if expected.ends[li] == nil then
        return nil, ("the path ends on %s at cost %.17g; expected an end among %s"):format(
          key(w, li), cost, list_ends(w, expected.ends))
      end
      if not R.close(cost, expected.cost) then
        return nil, ("cost %.17g, optimal %.17g"):format(cost, expected.cost)
      end
    elseif cost < expected.cost * (1 - 1e-9) then
      return nil, ("cost %.17g is below the optimum %.17g"):format(cost, expected.cost)
    end
    local want
    if q.list then want = index elseif q.partial then want = true end
    if third ~= want then
      return nil, ("third result %s, expected %s"):format(tostring(third), tostring(want))
    end
    return true
  end
  -- partial, no end reached
  if third ~= false then
    return nil, ("no end is reachable: third result %s, expected false"):format(tostring(third))
  end
  if expected.ends[li] == nil then
    return nil, ("the partial path ends on %s at cost %.17g; expected one of %s"):format(
      key(w, li), cost, list_ends(w, expected.ends))
  end
  if not R.close(cost, expected.ends[li]) then
    return nil, ("partial cost %.17g, cheapest to that cell %.17g"):format(cost, expected.ends[li])
  end
  return true
end

return M
