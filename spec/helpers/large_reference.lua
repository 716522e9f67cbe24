-- Independent reference for large units (opts.size, issue 14), used by
-- spec/large_units_spec.lua. Nothing here uses the astar module (but
-- big_board, which builds a generated board's grid with the module it is
-- given): a plain Dijkstra by linear scan over top-left positions that checks
-- every covered cell itself. Works on Lua 5.1 (LuaJIT) to 5.4.
--
-- A board: { w =, h =, k =, diagonal = "never" | "always" | "one-obstacle" |
-- "no-obstacles", value = function(x, y) -> the cell's entry cost for the
-- query (math.huge: a wall, or impassable by a rule), occupied = function(x, y)
-- -> true when the path may not end with any cell of the unit there (or nil) }.
-- Semantics (README "Large units"): a position (top-left x, y) is allowed when
-- its k x k cells are in the board and none is impassable; moving from p to q
-- (one of the 8 neighbours) costs the highest value among the cells of q not
-- covered at p, times sqrt(2) for a diagonal; a diagonal step needs both
-- positions beside it allowed ("no-obstacles"), one ("one-obstacle") or none
-- ("always"); the start itself is never checked.

local R = require "helpers.reference"

local M = {}

local INF = math.huge
local SQRT2 = math.sqrt(2)
M.INF = INF

local DX = { 1, -1, 0, 0, 1, -1, 1, -1 }
local DY = { 0, 0, 1, -1, 1, 1, -1, -1 }

function M.allowed(b, x, y)
  local k = b.k
  if x < 1 or y < 1 or x + k - 1 > b.w or y + k - 1 > b.h then return false end
  for cy = y, y + k - 1 do
    for cx = x, x + k - 1 do
      if b.value(cx, cy) == INF then return false end
    end
  end
  return true
end

-- The cost of a step from (px, py) to (qx, qy), neighbours; INF when not allowed.
function M.step(b, px, py, qx, qy)
  local k = b.k
  if not M.allowed(b, qx, qy) then return INF end
  local dx, dy = qx - px, qy - py
  if dx ~= 0 and dy ~= 0 then
    local a, c = M.allowed(b, px + dx, py), M.allowed(b, px, py + dy)
    if b.diagonal == "never" then return INF end
    if b.diagonal == "no-obstacles" and not (a and c) then return INF end
    if b.diagonal == "one-obstacle" and not (a or c) then return INF end
  end
  local worst = 0
  for cy = qy, qy + k - 1 do
    for cx = qx, qx + k - 1 do
      local shared = cx >= px and cx < px + k and cy >= py and cy < py + k
      if not shared then
        local v = b.value(cx, cy)
        if v > worst then worst = v end
      end
    end
  end
  if dx ~= 0 and dy ~= 0 then return SQRT2 * worst end
  return worst
end

-- Cheapest costs from (sx, sy) to every position: dist[y][x] (INF: unreached).
function M.dijkstra(b, sx, sy)
  local dist, done = {}, {}
  for y = 1, b.h do
    dist[y], done[y] = {}, {}
    for x = 1, b.w do dist[y][x] = INF end
  end
  dist[sy][sx] = 0
  while true do
    local bx, by, bd = nil, nil, INF
    for y = 1, b.h do
      for x = 1, b.w do
        if not done[y][x] and dist[y][x] < bd then bx, by, bd = x, y, dist[y][x] end
      end
    end
    if not bx then break end
    done[by][bx] = true
    for d = 1, 8 do
      local qx, qy = bx + DX[d], by + DY[d]
      if qx >= 1 and qy >= 1 and qx <= b.w and qy <= b.h and not done[qy][qx] then
        local c = M.step(b, bx, by, qx, qy)
        if c < INF and bd + c < dist[qy][qx] then dist[qy][qx] = bd + c end
      end
    end
  end
  return dist
end

-- Does the unit at position (x, y) cover a cell it may not end its path on?
function M.covers_occupied(b, x, y)
  if not b.occupied then return false end
  for cy = y, y + b.k - 1 do
    for cx = x, x + b.k - 1 do
      if b.occupied(cx, cy) then return true end
    end
  end
  return false
end

-- The cheapest cost to end at one of the goals (a list of {x, y}) within near
-- (manhattan with "never", chebyshev otherwise) on a position that covers
-- no occupied cell (the start excepted); INF when none.
function M.cost(b, sx, sy, goals, near)
  near = near or 0
  local dist = M.dijkstra(b, sx, sy)
  local best = INF
  for y = 1, b.h do
    for x = 1, b.w do
      local d = dist[y][x]
      if d < best and ((x == sx and y == sy) or not M.covers_occupied(b, x, y)) then
        for _, g in ipairs(goals) do
          local ax, ay = math.abs(x - g[1]), math.abs(y - g[2])
          local inside
          if b.diagonal == "never" then inside = ax + ay <= near
          else inside = ax <= near and ay <= near end
          if inside then best = d break end
        end
      end
    end
  end
  return best
end

-- Checks a path (list of {x =, y =}) from (sx, sy): every step a move the
-- reference allows; returns its cost, or nil and why.
function M.path_cost(b, path, sx, sy)
  if path[1].x ~= sx or path[1].y ~= sy then return nil, "does not start at the start" end
  local total = 0
  for i = 2, #path do
    local p, q = path[i - 1], path[i]
    if math.abs(q.x - p.x) > 1 or math.abs(q.y - p.y) > 1 or (q.x == p.x and q.y == p.y) then
      return nil, ("step %d is no move"):format(i)
    end
    local c = M.step(b, p.x, p.y, q.x, q.y)
    if c == INF then return nil, ("step %d to (%d, %d) is not allowed"):format(i, q.x, q.y) end
    total = total + c
  end
  return total
end

-- A generated board for units of 5 to 11 cells a side, few walls so that
-- they fit: { seed =, rng =, w =, h =, grid = } (grid built with astar).
function M.big_board(astar, seed)
  local rng = R.rng(seed)
  local w, h = rng.int(16, 24), rng.int(15, 22)
  local desc = R.random_map(rng, w, h, 0.006, { 1, 1, 2, 3, 5 })
  return { seed = seed, rng = rng, w = w, h = h, grid = R.build_grid(astar, desc) }
end

-- The cases of the specs' sweeps over generated boards: for every board in
-- sweep.boards, rule form 1 to sweep.forms (sweep.make_rules(board, form)
-- gives the query's options and the reference's rules), size in sweep.sizes
-- and diagonal mode, sweep.per times fn(board, what, opts, b): opts the
-- query's options (size and diagonal set), b the reference's board
-- (sweep.board_of(grid, k, mode, rules)), what the case's name.
local MODES = { "never", "always", "one-obstacle", "no-obstacles" }
function M.each_case(sweep, fn)
  for _, board in ipairs(sweep.boards) do
    for form = 1, sweep.forms do
      local rule_opts, rules = sweep.make_rules(board, form)
      for _, k in ipairs(sweep.sizes) do
        for _, mode in ipairs(MODES) do
          local opts = { size = k, diagonal = mode }
          for name, v in pairs(rule_opts) do opts[name] = v end
          local b = sweep.board_of(board.grid, k, mode, rules)
          local what = ("board %d, rules %d, size %d, %s"):format(board.seed, form, k, mode)
          for _ = 1, sweep.per do fn(board, what, opts, b) end
        end
      end
    end
  end
end

return M
