-- A* over a pure-Lua grid (see grid.lua for the layout), a port of
-- src/core/search.c and astar_loop.c: same neighbour order, same open-list
-- order (a 4-ary heap by f alone, and beside it the ties stack: cells whose f
-- equals the f being expanded, taken last in first out before the heap), same
-- stale-entry and counting rules, so it expands the same cells in the same
-- order and finds the same paths with the same costs and statistics.
--
-- Queries with rules, several goals, near or a budget run a loop of their own
-- (run_general, a port of astar_loop.c general_loop), so the plain loop (run)
-- stays as it was.
--
-- Scratch per cell: g, parent and a stamp: 2 * generation once the cell is
-- seen by the current query, 2 * generation + 1 once it is closed. A new query
-- bumps the generation instead of clearing the arrays.
local Q = require "astar.pure.query_rules"
local H = require "astar.pure.hex"
local B = require "astar.pure.board"
local K = require "astar.pure.kernel"
local MV = require "astar.pure.moves"
local TH = require "astar.pure.theta"

local M = {}

local H_SCALE_MAX = 1e300
M.H_SCALE_MAX = H_SCALE_MAX

local toint = math.tointeger or function(v) return v end

local sqrt, huge = math.sqrt, math.huge
-- How far past max_cost, relatively, g may go in a bounded search
-- (search_internal.h BOUND_SLACK): g and the reported cost differ by rounding alone.
local BOUND_SLACK = 1e-9
local heuristic_scale
local OCT = B.SQRT2 - 1
local SQRT2 = B.SQRT2

-- Heuristic numbers: the positions in args.HEURISTIC_NAMES.
local MANHATTAN, OCTILE, EUCLIDEAN, CHEBYSHEV = 1, 2, 3, 4
-- Diagonal numbers: the positions in args.DIAGONAL_NAMES.
local NEVER, ALWAYS, ONE_OBSTACLE = 1, 2, 3
-- opts.smooth = "theta": its position in options.lua SMOOTH_NAMES (smooth.lua THETA).
local THETA = 3

M.SEARCHING, M.FOUND, M.PARTIAL, M.GOAL_BLOCKED, M.NO_PATH, M.GRID_CHANGED =
  "searching", "found", "partial", "goal is blocked", "no path", "grid changed"

-- Directions as in search.c (board.lua): 1-4 orthogonal, 5-8 diagonal.
local DX, DY = B.DX, B.DY

-- The unscaled estimate for |dx|, |dy|.
local function distance(heuristic, a, b)
  if a < 0 then a = -a end
  if b < 0 then b = -b end
  if heuristic == OCTILE then
    if a < b then return b + OCT * a end
    return a + OCT * b
  elseif heuristic == MANHATTAN then
    return a + b
  elseif heuristic == EUCLIDEAN then
    return sqrt(a * a + b * b)
  elseif heuristic == CHEBYSHEV then
    if a < b then return b end
    return a
  end
  return 0.0
end
M.distance = distance

-- The heuristic's scale (search.c heuristic_scale): weight times the lowest
-- cost a step may have per unit of length: the grid's lowest cell cost, the
-- rules' (rule_min), the overrides' lowest ratio (moves.lua); 0 with a move
-- rule (it may price a move at anything: the heuristic is off).
function heuristic_scale(grid, weight, rule_min, move_rule)
  if move_rule then return 0.0 end
  local lowest = grid._min_cost
  if rule_min < lowest then lowest = rule_min end
  if grid._moves then
    local ratio = MV.min_ratio(grid)
    if ratio < lowest then lowest = ratio end
  end
  local h_scale = weight * lowest
  if h_scale > H_SCALE_MAX then h_scale = H_SCALE_MAX end
  return h_scale
end

-- Scratch for grids of `cells` cells (border included). Filling the arrays
-- once gives them an array part, which keeps every later access fast.
function M.new(cells)
  local stamp, g, parent = {}, {}, {}
  for i = 1, cells do
    stamp[i] = 0
    g[i] = 0.0
    parent[i] = 0
  end
  return {
    cells = cells, stamp = stamp, g = g, parent = parent, generation = 0, rec = {},
    hf = {}, hc = {}, n = 0, ties = {}, tn = 0, ties_f = -1.0,
    status = M.NO_PATH, expanded = 0, touched = 0,
  }
end

-- What ranks cells for partial results (search_record.c closeness): bordered
-- cell's coordinates and the heuristic, the board's distance when the query
-- has none.
local function ranking(s, cell)
  local stride = s.grid._stride
  local x = (cell - 1) % stride
  local h = s.heuristic
  if h == 5 then h = s.diagonal == NEVER and MANHATTAN or OCTILE end
  return h, x, (cell - 1 - x) / stride
end

local function closeness(s, cell)
  local h, x, y = ranking(s, cell)
  return distance(h, x - s.goal_x, y - s.goal_y)
end

-- What a cell on the path was entered for: the rule's answer, else its cost.
local function entry_price(s, rule, cost, c)
  if rule then
    local e = s.rc[c]
    return e < 0 and -e or e
  end
  return cost and cost[c] or 1.0
end

-- The path's cost, the same for every cheapest path (search_record.c
-- canonical_cost): S + SQRT2 * D, the prices of the cells entered straight
-- and diagonally, each added up from the start; g where a step is not a
-- cell's price times 1 or sqrt 2 (hex, large units with costs or rules,
-- moves and links, any-angle). The walk is turned around in parent[] to be
-- summed from the start, and back again.
local function path_cost(s, last)
  local start, grid = s.start, s.grid
  local rule, cost = s.general and s.rule, grid._cost
  if s.hex or s.theta or s.moved or (s.size > 1 and (cost or rule)) then return s.g[last] end
  local parent, stride = s.parent, grid._stride
  local cell, after = last, 0
  while cell ~= start do           -- each cell names the one after it
    local p = parent[cell]
    parent[cell] = after
    after, cell = cell, p
  end
  local straight, diagonal = 0.0, 0.0
  local prev = start
  cell = after
  while cell ~= 0 do
    local nxt, d = parent[cell], cell - prev
    if d == 1 or d == -1 or d == stride or d == -stride then
      straight = straight + entry_price(s, rule, cost, cell)
    else
      diagonal = diagonal + entry_price(s, rule, cost, cell)
    end
    parent[cell] = prev
    prev, cell = cell, nxt
  end
  return straight + SQRT2 * diagonal
end

-- Whether the path the parents give to cell u costs at most max_cost as it
-- would be reported (search_record.c astar_search_within_max_cost; always
-- without a bound): surely when g is below it by more than rounding, else
-- summed (only a cell within rounding of it).
-- The kernels ask it of a bounded query's goal and closest cell: a goal
-- beyond it is out of reach (every cheapest path reports the same cost).
function M.within_max_cost(s, u)
  if not s.bounded or s.g[u] <= s.max_cost * (1 - BOUND_SLACK) then return true end
  return path_cost(s, u) <= s.max_cost
end

local function finish(s, status, cell)
  local parent, start = s.parent, s.start
  local length = 1
  s.status, s.finish = status, cell
  s.cost = path_cost(s, cell)
  while cell ~= start do
    cell = parent[cell]
    length = length + 1
  end
  s.length = length
  return status
end

local check_goal

-- Prepares a query on grid from cell index start to cell index goal.
-- heuristic and diagonal are numbers; weight >= 1.
function M.begin(s, grid, start, goal, diagonal, heuristic, weight, partial)
  local generation = s.generation + 1
  s.generation = generation
  s.algorithm = "astar"   -- what runs (getSearchStats, search:getStats)
  s.general, s.theta, s.bounded = false, false, false
  s.runner, s.hex = nil, nil
  s.size, s.goal_checked = 1, not partial
  s.grid, s.version = grid, grid._version
  s.moved, s.move_rule, s.link_edits = false, nil, grid._link_edits   -- no moves (disturbed)
  s.diagonal, s.heuristic, s.partial = diagonal, heuristic, partial
  s.start, s.goal = start, goal
  local stride = grid._stride
  local gx = (goal - 1) % stride
  s.goal_x, s.goal_y = gx, (goal - 1 - gx) / stride
  -- weight * lowest cost, capped so that no key becomes inf or nan (1e300 *
  -- a grid's longest distance is still finite; search.c does the same)
  local h_scale = weight * grid._min_cost
  if h_scale > H_SCALE_MAX then h_scale = H_SCALE_MAX end
  s.h_scale = h_scale
  s.n, s.tn, s.ties_f, s.expanded, s.touched = 0, 0, -1.0, 0, 1
  s.g[start] = 0.0
  s.stamp[start] = 2 * generation
  s.best, s.best_g = start, 0.0
  s.best_distance = closeness(s, start)
  if start == goal then return finish(s, M.FOUND, start) end
  if not partial and check_goal(s, grid, goal) ~= M.SEARCHING then
    s.status = M.GOAL_BLOCKED
    return s.status
  end
  s.n = 1
  s.hf[1], s.hc[1] = 0.0, start
  s.status = M.SEARCHING
  return s.status
end

-- The search found the grid changed: it is over (status "no path" after the
-- GRID_CHANGED it returns).
local function changed(s)
  s.n, s.tn = 0, 0
  s.status = M.NO_PATH
  return M.GRID_CHANGED
end
M.changed = changed   -- for hex.lua

local run, run_general
M.finish, M.changed = finish, changed
-- Large units (clearance.lua, which requires this file: loaded when needed).
local C
local function clearance()
  C = C or require "astar.pure.clearance"
  return C
end

-- Expands at most `budget` cells (nil or 0: no limit; stale open-list entries
-- do not count), as astar_search_step does, and returns the status. A change
-- to the grid before or during the call (a finalizer can run at any
-- allocation) makes it GRID_CHANGED: the cells it read may be a mix.
function M.step(s, budget)
  if s.status ~= M.SEARCHING then return s.status end
  local grid = s.grid
  if grid._version ~= s.version or not grid._open then return changed(s) end
  local status = (s.runner or s.general and run_general or run)(s, grid, budget)
  if status == M.STOPPED then return status end   -- the rule's reason comes first
  if grid._version ~= s.version then return changed(s) end
  return status
end

-- For a stepped search (stepper.lua): expands at most `budget` cells with no
-- check of the grid's version; the caller checks the changes (M.disturbed).
function M.resume(s, budget)
  if s.status ~= M.SEARCHING then return s.status end
  return (s.runner or s.general and run_general or run)(s, s.grid, budget)
end

-- Whether the changes to the grid since the search last looked (s.version)
-- may alter what it has read, as disturbed() in src/core/search.c: for A*, a
-- changed cell with a touched cell (stamp of this generation) among itself
-- and its 8 neighbours, a change of the heuristic's scale (the lowest cost
-- times weight), a change of the goal of a query whose start checked it
-- (check_goal), or more changes than the grid remembers; `jps` (a query the
-- C backend runs with jump point search) and an any-angle query (its
-- segments read cells it never touched): any change. O(changes).
function M.disturbed(s, jps, weight)
  local grid = s.grid
  local now, v = grid._version, s.version
  local log = #grid._changes
  if jps or s.theta or now - v > log or (s.general and s.size > 1) then return true end
  if heuristic_scale(grid, weight, s.general and s.rule_min or huge, s.move_rule) ~= s.h_scale
    or (grid._moves ~= nil or s.move_rule ~= nil) ~= s.moved   -- moves came or went
    or grid._link_edits ~= s.link_edits then                    -- the links' bound
    return true
  end
  local changes, stamp, stride, seen = grid._changes, s.stamp, grid._stride, 2 * s.generation
  local goal = s.goal_checked and s.goal
  for k = v + 1, now do
    local cell = changes[k % log + 1]
    -- the start's checks read the goal (check_goal), the rule's answer too
    if cell == goal then return true end
    for row = cell - stride, cell + stride, stride do
      if stamp[row - 1] >= seen or stamp[row] >= seen or stamp[row + 1] >= seen then
        return true
      end
    end
  end
  return false
end

-- The plain loop (search.c, astar_loop.c specialised): the grid's walls and
-- costs, one goal, the heuristic written in. On kernel.lua's A* loop.
local PLAIN = { name = "astar",
  uses = { changed = changed, closeness = closeness, finish = finish, DX = DX, DY = DY,
    within_max_cost = M.within_max_cost,
    NEVER = NEVER, ALWAYS = ALWAYS, ONE_OBSTACLE = ONE_OBSTACLE, OCTILE = OCTILE,
    MANHATTAN = MANHATTAN, EUCLIDEAN = EUCLIDEAN, OCT = OCT, sqrt = sqrt,
    SEARCHING = M.SEARCHING, FOUND = M.FOUND, PARTIAL = M.PARTIAL, NO_PATH = M.NO_PATH,
    GOAL_BLOCKED = M.GOAL_BLOCKED },
  prepare = [=[
    local goal, goal_x, goal_y = s.goal, s.goal_x, s.goal_y
    local last_dir = diagonal == NEVER and 4 or 8]=],
  goal = "u == goal",
  best = "partial",
  closeness = "closeness(s, u)",
  moves = [=[
    for d = 1, last_dir do
      local v = u + offset[d]
      if open[v] then
        local allowed = true
        local step = cost and cost[v] or 1.0
        if d > 4 then
          step = SQRT2 * step
          if diagonal ~= ALWAYS then
            local a, b = open[u + offset[CX[d]]], open[u + offset[CY[d]]]
            if diagonal == ONE_OBSTACLE then
              allowed = a or b
            else
              allowed = a and b
            end
          end
        end
        if allowed then
          RELAX
        end
      end
    end]=],
  heuristic = [=[
    local h = 0.0
    if heuristic ~= 5 then
      local a, b = $hx - goal_x, $hy - goal_y
      if a < 0 then a = -a end
      if b < 0 then b = -b end
      if heuristic == OCTILE then
        if a < b then h = b + OCT * a else h = a + OCT * b end
      elseif heuristic == MANHATTAN then
        h = a + b
      elseif heuristic == EUCLIDEAN then
        h = sqrt(a * a + b * b)
      elseif a < b then
        h = b
      else
        h = a
      end
      h = h_scale * h
    end]=],
  finish = [=[
    s.status = open[goal] and NO_PATH or GOAL_BLOCKED
    return s.status]=],
}
run = K.astar(PLAIN)

-- ---- the general loop: rules, several goals, near, a budget -------------------
-- (search.c begin_general, astar_loop.c general_loop). A query of it keeps in
-- the scratch: rule (query_rules.lua, or nil), the goals gx[i], gy[i] (1-based,
-- which are also the bordered coordinates), near, bounded and max_cost, the
-- boxes around the goals (the heuristic's targets), and per cell rc[cell] (the
-- rule's answer: the entry cost, negated for a cell the path may not end on,
-- huge when impassable, valid where rs[cell] is the generation) and target[cell]
-- (the generation on the cells that end the path).

local MAX_BOXES = 8   -- SEARCH_MAX_BOXES

-- The unscaled distance from bordered (x, y) to the nearest goal box
-- (search_internal.h search_box_distance).
local function box_distance(s, heuristic, x, y)
  local best = huge
  local bx0, bx1, by0, by1 = s.bx0, s.bx1, s.by0, s.by1
  for i = 1, s.nboxes do
    local a, c = 0, 0
    local lo, hi = bx0[i], bx1[i]
    if x < lo then a = lo - x elseif x > hi then a = x - hi end
    lo, hi = by0[i], by1[i]
    if y < lo then c = lo - y elseif y > hi then c = y - hi end
    local d
    if heuristic == OCTILE then
      if a < c then d = c + OCT * a else d = a + OCT * c end
    elseif heuristic == MANHATTAN then
      d = a + c
    elseif heuristic == EUCLIDEAN then
      d = sqrt(a * a + c * c)
    elseif heuristic == CHEBYSHEV then
      if a < c then d = c else d = a end
    else
      d = 0.0
    end
    if d < best then best = d end
  end
  return best
end

-- closeness for a general query: the distance to the nearest goal box.
local function general_closeness(s, cell)
  return box_distance(s, ranking(s, cell))
end

M.box_distance, M.general_closeness = box_distance, general_closeness

-- Is bordered (x, y) within distance `near` of goal i? (search.c in_region)
local function in_region(s, i, x, y)
  if s.hex then return H.in_region(s, i, x, y) end
  local dx, dy = x - s.gx[i], y - s.gy[i]
  if dx < 0 then dx = -dx end
  if dy < 0 then dy = -dy end
  local n = s.near
  if s.diagonal == NEVER then return dx + dy <= n end
  return dx <= n and dy <= n
end

-- The per-cell arrays of the general loop, made by the first such query.
local function reserve_general(s)
  if s.rs then return end
  local rc, rs, target = {}, {}, {}
  for i = 1, s.cells do
    rc[i] = 0.0
    rs[i] = 0
    target[i] = 0
  end
  s.rc, s.rs, s.target = rc, rs, target
end

-- Prepares a general query from cell index start to the goals gx, gy (lists
-- of 1-based coordinates, at least one). o: diagonal, heuristic, weight,
-- partial, near (clamped), bounded, max_cost, smooth (smooth.lua's number:
-- THETA runs the any-angle loop where it applies); rule: query_rules.lua's (nil
-- without rules), asked through rule.cell. Returns the status, or M.STOPPED
-- when the rule stopped the query (rule.stop says why).
M.STOPPED = "stopped"

function M.begin_general(s, grid, start, gx, gy, o, rule)
  local generation = s.generation + 1
  s.generation = generation
  s.algorithm = "astar"   -- what runs (getSearchStats, search:getStats)
  reserve_general(s)
  local hex = grid._hex         -- a hex board: hex.lua's targets and loop
  s.general = true
  s.runner, s.hex, s.S = hex and H.run, hex, M
  s.grid, s.version = grid, grid._version
  if not hex then s.diagonal = o.diagonal end
  s.heuristic, s.partial = o.heuristic, o.partial
  -- the move rule (moves.lua) rides in the rules; the cell rules only when given
  s.move_rule = rule and rule.move and rule or nil
  if rule and not rule.used then rule = nil end
  s.moved = grid._moves ~= nil or s.move_rule ~= nil
  s.h_links, s.link_edits = nil, grid._link_edits   -- the links' bound: at the first step
  s.rule, s.near, s.bounded, s.max_cost = rule, o.near, o.bounded, o.max_cost
  -- what the loops hold g to: max_cost and a margin for rounding
  -- (BOUND_SLACK); the reported cost decides (M.within_max_cost)
  s.bound = o.bounded and o.max_cost * (1 + BOUND_SLACK) or huge
  s.size = not hex and o.size or 1   -- hex boards have no large units
  -- any-angle search (theta.lua, search.c runs_theta): where straight lines
  -- between cell centres are the moves
  s.theta = o.smooth == THETA and not hex and s.size == 1 and not s.moved
    and o.diagonal ~= NEVER
  local stride = grid._stride
  local ngoals = #gx
  s.gx, s.gy, s.ngoals = gx, gy, ngoals
  local goal = gy[1] * stride + gx[1] + 1
  s.start, s.goal = start, goal
  s.goal_x, s.goal_y = gx[1], gy[1]
  s.rule_min = rule and rule.min_cost or huge
  s.h_scale = heuristic_scale(grid, o.weight, s.rule_min, s.move_rule)
  s.n, s.tn, s.ties_f, s.expanded, s.touched = 0, 0, -1.0, 0, 1
  s.status = M.NO_PATH
  local n = s.near
  local lx, hx, ly, hy   -- past MAX_BOXES goals, the box around them all
  if ngoals > MAX_BOXES then
    lx, hx, ly, hy = gx[1], gx[1], gy[1], gy[1]
    for i = 2, ngoals do
      local x, y = gx[i], gy[i]
      if x < lx then lx = x end
      if x > hx then hx = x end
      if y < ly then ly = y end
      if y > hy then hy = y end
    end
  end
  if hex then
    H.set_targets(s, gx, gy, ngoals, n, lx, hx, ly, hy)
  else
    -- set_boxes: one per goal, or the one around them all
    local bx0, bx1, by0, by1 = {}, {}, {}, {}
    if lx then
      bx0[1], bx1[1], by0[1], by1[1] = lx - n, hx + n, ly - n, hy + n
      s.nboxes = 1
    else
      for i = 1, ngoals do
        bx0[i], bx1[i], by0[i], by1[i] = gx[i] - n, gx[i] + n, gy[i] - n, gy[i] + n
      end
      s.nboxes = ngoals
    end
    s.bx0, s.bx1, s.by0, s.by1 = bx0, bx1, by0, by1
  end
  -- restart: mark the targets, open the start
  local target = s.target
  local w, h = grid._w, grid._h
  for i = 1, ngoals do
    local cx, cy = gx[i], gy[i]
    local x0, x1 = cx - n, cx + n
    local y0, y1 = cy - n, cy + n
    if x0 < 1 then x0 = 1 end
    if x1 > w then x1 = w end
    if y0 < 1 then y0 = 1 end
    if y1 > h then y1 = h end
    for y = y0, y1 do
      local row = y * stride + 1
      for x = x0, x1 do
        if in_region(s, i, x, y) then target[row + x] = generation end
      end
    end
  end
  s.g[start] = 0.0
  s.stamp[start] = 2 * generation
  s.best, s.best_g = start, 0.0
  s.best_distance = (hex and H.cell_closeness or general_closeness)(s, start)
  s.n = 1
  s.hf[1], s.hc[1] = 0.0, start
  if target[start] == generation then       -- already there
    s.n = 0
    return finish(s, M.FOUND, start)
  end
  s.goal_checked = ngoals == 1 and n == 0 and not o.partial
  if s.goal_checked then return M.checked_goal(s, grid, goal, gx[1], gy[1], rule) end
  s.status = M.SEARCHING
  return s.status
end

-- The start-of-query checks of a query with one goal cell (no near, no
-- partial result), the same for findPath, a stepped search's start and its
-- restarts, on square and hex boards (search.c check_goal): GOAL_BLOCKED
-- when the goal is a wall, impassable or not to be ended on by the rule
-- (whose answer it keeps), or no place for a large unit; STOPPED when the
-- rule stopped the query; else SEARCHING (this backend keeps no component
-- labels: an unreachable goal is searched).
function check_goal(s, grid, goal, x, y, rule)
  local e = huge
  local open = grid._open
  if s.size > 1 then
    if open then e = clearance().goal_value(s, grid, goal, open) end
  elseif open and open[goal] then   -- (nil: closed by a finalizer; the caller sees it)
    e = 1.0
    if rule then
      local cost = grid._cost
      local flags
      e, flags = Q.cell(rule, x, y, cost and cost[goal] or 1.0)
      if e ~= nil then
        if flags == Q.NO_STOP and e ~= huge then e = -e end
        s.rc[goal], s.rs[goal] = e, s.generation
      end
    end
  end
  if e == nil then return M.STOPPED end
  if e == huge or e < 0 then return M.GOAL_BLOCKED end
  return M.SEARCHING
end

-- begin_general's end for a query check_goal applies to: the status after it.
function M.checked_goal(s, grid, goal, x, y, rule)
  local verdict = check_goal(s, grid, goal, x, y, rule)
  if verdict ~= M.SEARCHING then s.n = 0 end
  if verdict ~= M.STOPPED then s.status = verdict end
  return verdict
end

-- The index (1-based) of the first goal whose region holds the path's end,
-- or nil (search.c astar_search_goal_index).
function M.goal_index(s)
  if not s.general or not s.finish then return nil end
  local stride = s.grid._stride
  local i0 = s.finish - 1
  local x = i0 % stride
  local y = (i0 - x) / stride
  for i = 1, s.ngoals do
    if in_region(s, i, x, y) then return i end
  end
  return nil
end

-- astar_loop.c general_loop: expands at most `budget` cells like run. On a
-- stop by the rule it returns M.STOPPED with the search over ("no path").
-- The entry cost of bordered cell v is the rule's answer (asked once per
-- query, never about the start; negative where the path may not end), else
-- the grid's; the four sides are looked up first, the corner rule needs them.
-- A link's target is entered as by a board move (moves.lua): what entry says.
local ENTER_LINK = [=[
    local e = entry(v)
    if e == nil then return stopped() end
    local pass = e ~= huge]=]
M.ENTER_LINK = ENTER_LINK

local GENERAL = { name = "astar general", flags = { "general" },
  uses = { changed = changed, general_closeness = general_closeness, finish = finish,
    within_max_cost = M.within_max_cost,
    box_distance = box_distance, DX = DX, DY = DY, NEVER = NEVER, ALWAYS = ALWAYS,
    ONE_OBSTACLE = ONE_OBSTACLE, SEARCHING = M.SEARCHING, FOUND = M.FOUND,
    PARTIAL = M.PARTIAL, NO_PATH = M.NO_PATH, STOPPED = M.STOPPED },
  -- a cell the path may end on (the rule was asked when it was entered)
  goal = "target[u] == generation and not (rule and rc[u] < 0)",
  best = "partial and not (rule and u ~= start and rc[u] < 0)",
  closeness = "general_closeness(s, u)",
  prepare = "",
  moves = [=[
    local ee = entry(u + 1)
    if ee == nil then return stopped() end
    local ew = entry(u - 1)
    if ew == nil then return stopped() end
    local es = entry(u + stride)
    if es == nil then return stopped() end
    local en = entry(u - stride)
    if en == nil then return stopped() end
    local pe, pw, ps, pn = ee ~= huge, ew ~= huge, es ~= huge, en ~= huge
    if pe then local v, step, d = u + 1, (ee < 0 and -ee or ee), 1 RELAX end
    if pw then local v, step, d = u - 1, (ew < 0 and -ew or ew), 2 RELAX end
    if ps then local v, step, d = u + stride, (es < 0 and -es or es), 3 RELAX end
    if pn then local v, step, d = u - stride, (en < 0 and -en or en), 4 RELAX end
    if diagonal ~= NEVER then
      local always, one = diagonal == ALWAYS, diagonal == ONE_OBSTACLE
      -- SE, SW, NE, NW: each between two of the sides
      for d = 5, 8 do
        local a, b
        if d == 5 then a, b = pe, ps elseif d == 6 then a, b = pw, ps
        elseif d == 7 then a, b = pe, pn else a, b = pw, pn end
        local ok
        if always then ok = true elseif one then ok = a or b else ok = a and b end
        if ok then
          local v = u + offset[d]
          local ed = entry(v)
          if ed == nil then return stopped() end
          if ed ~= huge then
            local step = SQRT2 * (ed < 0 and -ed or ed)
            RELAX
          end
        end
      end
    end]=],
  heuristic = "local h = h_scale * box_distance(s, heuristic, $hx, $hy)",
  link_look = ENTER_LINK,
}
local general_loop = K.astar(GENERAL)
local theta_loop   -- theta.lua's any-angle loop (search.c runs_theta)

function run_general(s, grid, budget)
  if s.theta then
    theta_loop = theta_loop or TH.loop(M)   -- compiled by the first theta query
    return theta_loop(s, grid, budget)
  end
  if s.size > 1 then return clearance().run_large(s, grid, budget) end
  if s.moved then return K.astar(GENERAL, "moves")(s, grid, budget) end
  return general_loop(s, grid, budget)
end

-- The cells the query expanded so far (bordered indices, in the order it
-- expanded them): a new list, O(expanded) (the loop lists them in s.rec).
function M.expanded_list(s)
  local rec, out = s.rec, {}
  for k = 1, s.expanded do out[k] = rec[k] end
  return out
end

-- Cells `list` (bordered indices of a grid of row length stride) as
-- {x =, y =} (1-based) in row order; sorts list.
function M.cells_in_rows(list, stride)
  table.sort(list)
  local out = {}
  for k = 1, #list do
    local i0 = list[k] - 1
    local x = i0 % stride
    out[k] = { x = toint(x), y = toint((i0 - x) / stride) }
  end
  return out
end

-- The result after FOUND or PARTIAL: an array of {x =, y =} (1-based) and its cost.
function M.path(s)
  local stride, parent = s.grid._stride, s.parent
  local cell = s.finish
  local path = {}
  for k = s.length, 1, -1 do
    local i0 = cell - 1
    local x = i0 % stride
    path[k] = { x = toint(x), y = toint((i0 - x) / stride) }
    cell = parent[cell]
  end
  return path, s.cost
end

-- #t without __len (lua_rawlen); Lua 5.1's # never calls __len on a table.
local rawlen = rawlen or function(t) return #t end
local rawget, rawset, type = rawget, rawset, type

-- The path written into the caller's table `into` (findPath's opts.into), as
-- push_path in src/lua/lua_astar.c: flat, or as points reusing the point
-- tables already there (only x and y set); entries past the path's end, up
-- to #into, are cleared. Returns into and the cost.
function M.path_into(s, into, flat)
  local stride, parent = s.grid._stride, s.parent
  local cell = s.finish
  local n = s.length
  if flat then
    for k = 2 * n, 2, -2 do
      local i0 = cell - 1
      local x = i0 % stride
      rawset(into, k - 1, toint(x))
      rawset(into, k, toint((i0 - x) / stride))
      cell = parent[cell]
    end
    n = 2 * n
  else
    for k = n, 1, -1 do
      local i0 = cell - 1
      local x0 = i0 % stride
      local x, y = toint(x0), toint((i0 - x0) / stride)
      local p = rawget(into, k)
      if type(p) == "table" then
        rawset(p, "x", x)
        rawset(p, "y", y)
      else
        rawset(into, k, { x = x, y = y })
      end
      cell = parent[cell]
    end
  end
  for k = n + 1, rawlen(into) do rawset(into, k, nil) end
  return into, s.cost
end

-- The path as one new flat array {x1, y1, x2, y2, ...} (1-based), and its cost.
function M.flat_path(s)
  return M.path_into(s, {}, true)
end

return M
