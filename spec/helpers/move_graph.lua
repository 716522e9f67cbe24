-- Independent reference for moves and links (issue 19, docs/moves.md), used by
-- spec/moves_spec.lua.
--
-- Nothing here uses the astar module or shares code with it: a board is plain
-- data, every query first builds the explicit directed graph the contract
-- describes (one list of outgoing edges per node, each with its cost), then
-- runs a plain Dijkstra on it (forwards for paths and movement ranges, over
-- the reversed edges for distance maps). Hex neighbours are found from the
-- cells' centres (neighbouring centres are 1 apart), not from parity tables.
-- Works on Lua 5.1 (LuaJIT) to 5.4: no integer division, no bit operators.
--
-- A board (M.new_board) is
--   { w, h, shape = "square" | "hex", layout = hex layout,
--     open[i] = boolean, cost[i] = number,         i = (y - 1) * w + x
--     over[i][code] = number | false               move overrides, code below
--     links[i][j] = cost }                         directed links i -> j
-- A query (q) is a table of optional fields:
--   mode = "never" | "always" | "one-obstacle" | "no-obstacles" (square only;
--     default "no-obstacles"), size = k (default 1),
--   blocked(x, y) -> truthy, cost(x, y) -> number (nil, false, math.huge:
--     impassable; replaces the grid's cost), occupied(x, y) (a position
--     covering such a cell is not ended on), zoc(x, y),
--   move(fx, fy, tx, ty, cost) -> number | false  (the `move` rule; must be a
--     pure function: the reference asks it about every move of the graph).
-- Nodes are cell numbers; for units of size k > 1 the node of a position is
-- the number of its top-left cell.
local M = {}

local INF = math.huge
local SQRT2 = math.sqrt(2)
M.INF, M.SQRT2 = INF, SQRT2

-- Directions of the encoding: code 0 E, 1 W, 2 S, 3 N, 4 SE, 5 SW, 6 NE, 7 NW.
M.DIRS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } }
function M.code(dx, dy)
  for k, d in ipairs(M.DIRS) do
    if d[1] == dx and d[2] == dy then return k - 1 end
  end
  return nil
end

local function cell(w, x, y) return (y - 1) * w + x end
M.cell = cell
local function xy(w, i)
  local x = (i - 1) % w + 1
  return x, (i - x) / w + 1
end
M.xy = xy

function M.new_board(w, h, shape, layout)
  local b = { w = w, h = h, shape = shape or "square", layout = layout or "odd-r",
    open = {}, cost = {}, over = {}, links = {} }
  for i = 1, w * h do b.open[i], b.cost[i] = true, 1 end
  return b
end

function M.inside(b, x, y) return x >= 1 and y >= 1 and x <= b.w and y <= b.h end

------------------------------------------------------------------------------
-- Geometry
------------------------------------------------------------------------------

local HH = math.sqrt(3) / 2
-- The centre of hex cell (col, row), neighbours 1 apart ("odd" and "even" name
-- the 0-based rows or columns shoved by half a cell, README "Hex boards").
function M.centre(layout, col, row)
  local c0, r0 = col - 1, row - 1
  if layout == "odd-r" then return c0 + (r0 % 2 == 1 and 0.5 or 0), r0 * HH end
  if layout == "even-r" then return c0 + (r0 % 2 == 0 and 0.5 or 0), r0 * HH end
  if layout == "odd-q" then return c0 * HH, r0 + (c0 % 2 == 1 and 0.5 or 0) end
  if layout == "even-q" then return c0 * HH, r0 + (c0 % 2 == 0 and 0.5 or 0) end
  error("unknown layout " .. tostring(layout))
end

-- Is (x2, y2) a board neighbour of (x1, y1)? Square: one of the 8 around it
-- (whatever the diagonal mode); hex: one of the 6 (centres 1 apart). Coordinates
-- off the grid are no neighbours.
function M.is_neighbour(b, x1, y1, x2, y2)
  if not (M.inside(b, x1, y1) and M.inside(b, x2, y2)) then return false end
  local dx, dy = x2 - x1, y2 - y1
  if (dx == 0 and dy == 0) or math.abs(dx) > 1 or math.abs(dy) > 1 then return false end
  if b.shape == "square" then return true end
  local ax, ay = M.centre(b.layout, x1, y1)
  local cx, cy = M.centre(b.layout, x2, y2)
  return math.abs(math.sqrt((cx - ax) ^ 2 + (cy - ay) ^ 2) - 1) < 1e-9
end

-- Orthogonal on a square grid; any of the 6 on hex (setWallBetween).
function M.is_wall_pair(b, x1, y1, x2, y2)
  if not M.is_neighbour(b, x1, y1, x2, y2) then return false end
  return b.shape == "hex" or x1 == x2 or y1 == y2
end

------------------------------------------------------------------------------
-- Edits, as the contract says the grid methods change the grid
------------------------------------------------------------------------------

function M.set_walkable(b, x, y, v) b.open[cell(b.w, x, y)] = v end
function M.set_cost(b, x, y, c) b.cost[cell(b.w, x, y)] = c end

function M.set_move(b, x1, y1, x2, y2, cost)
  assert(M.is_neighbour(b, x1, y1, x2, y2), "set_move: not neighbours")
  assert(cost == nil or cost == false or (type(cost) == "number" and cost > 0 and cost <= 1e15))
  local i = cell(b.w, x1, y1)
  local code = M.code(x2 - x1, y2 - y1)
  local t = b.over[i]
  if cost == nil then
    if t then
      t[code] = nil
      if next(t) == nil then b.over[i] = nil end
    end
    return
  end
  if not t then t = {}; b.over[i] = t end
  t[code] = cost
end

function M.get_move(b, x1, y1, x2, y2)
  local t = b.over[cell(b.w, x1, y1)]
  if not t then return nil end
  return t[M.code(x2 - x1, y2 - y1)]
end

function M.set_wall_between(b, x1, y1, x2, y2, wall)
  assert(M.is_wall_pair(b, x1, y1, x2, y2), "set_wall_between: not a wall pair")
  local v = nil
  if wall then v = false end
  M.set_move(b, x1, y1, x2, y2, v)
  M.set_move(b, x2, y2, x1, y1, v)
end

function M.link(b, x1, y1, x2, y2, cost, oneway)
  assert(not (x1 == x2 and y1 == y2) and type(cost) == "number" and cost > 0 and cost <= 1e15)
  local i, j = cell(b.w, x1, y1), cell(b.w, x2, y2)
  b.links[i] = b.links[i] or {}
  b.links[i][j] = cost
  if not oneway then
    b.links[j] = b.links[j] or {}
    b.links[j][i] = cost
  end
end

function M.unlink(b, x1, y1, x2, y2)
  local i, j = cell(b.w, x1, y1), cell(b.w, x2, y2)
  for _, p in ipairs { { i, j }, { j, i } } do
    local t = b.links[p[1]]
    if t then
      t[p[2]] = nil
      if next(t) == nil then b.links[p[1]] = nil end
    end
  end
end

-- getLinks: { {x =, y =, cost =}, ... } ordered by target cell number.
function M.get_links(b, x, y)
  local t = b.links[cell(b.w, x, y)] or {}
  local targets = {}
  for j in pairs(t) do targets[#targets + 1] = j end
  table.sort(targets)
  local out = {}
  for k, j in ipairs(targets) do
    local tx, ty = xy(b.w, j)
    out[k] = { x = tx, y = ty, cost = t[j] }
  end
  return out
end

function M.has_moves(b) return next(b.over) ~= nil or next(b.links) ~= nil end

------------------------------------------------------------------------------
-- The graph of a query
------------------------------------------------------------------------------

-- The cost of entering cell (x, y) for the query: INF when it cannot be entered.
local function entry_fn(b, q)
  return function(x, y)
    local i = cell(b.w, x, y)
    if not b.open[i] then return INF end
    if q.blocked and q.blocked(x, y) then return INF end
    if q.cost then
      local c = q.cost(x, y)
      if c == nil or c == false or c == INF then return INF end
      assert(type(c) == "number" and c > 0 and c <= 1e15, "bad cost rule value")
      return c
    end
    return b.cost[i]
  end
end

-- Builds the graph of query q on board b. `start` (a node, or nil for distance
-- maps) matters for one-cell units only: the corner rule counts the start cell as
-- a wall only when it is a grid wall (no rule is asked about it).
-- Returns g = { b =, q =, k =, out = {[node] = {{to =, cost =, base =, link =}...}},
--   enterable(node) -> boolean (one cell: enterable; size k: the unit fits),
--   top-left coordinates helpers }.
-- `base` is what the grid says the move costs (what the move rule is asked with),
-- `cost` what it costs after the move rule.
function M.graph(b, q, start)
  q = q or {}
  local w, h = b.w, b.h
  local k = q.size or 1
  local mode = q.mode or "no-obstacles"
  local hex = b.shape == "hex"
  assert(not (hex and k > 1), "large units need a square grid")
  local entry = entry_fn(b, q)
  local memo = {}
  local function enter(x, y)
    local i = cell(w, x, y)
    local v = memo[i]
    if v == nil then
      if k == 1 and i == start then
        -- no rule is asked about a one-cell unit's start: its grid cost, a wall
        -- only when it is a grid wall (only moves back into it, never cheapest)
        v = b.open[i] and b.cost[i] or INF
      else
        v = entry(x, y)
      end
      memo[i] = v
    end
    return v
  end
  -- can a unit stand at position (x, y)?
  local function fits(x, y)
    if x < 1 or y < 1 or x + k - 1 > w or y + k - 1 > h then return false end
    for cy = y, y + k - 1 do
      for cx = x, x + k - 1 do
        if enter(cx, cy) == INF then return false end
      end
    end
    return true
  end
  -- a wall for the corner rule
  local function corner_wall(x, y)
    if k == 1 then
      if not M.inside(b, x, y) then return true end
      return enter(x, y) == INF
    end
    return not fits(x, y)
  end
  local function corner_ok(x, y, dx, dy)
    if mode == "never" then return false end
    if mode == "always" then return true end
    local a, c = corner_wall(x + dx, y), corner_wall(x, y + dy)
    if mode == "one-obstacle" then return not (a and c) end
    assert(mode == "no-obstacles", "unknown mode " .. tostring(mode))
    return not a and not c
  end
  -- the default price of the step of a unit from (x, y) by (dx, dy)
  local function price(x, y, dx, dy)
    local worst = 0
    for cy = y + dy, y + dy + k - 1 do
      for cx = x + dx, x + dx + k - 1 do
        local shared = cx >= x and cx < x + k and cy >= y and cy < y + k
        if not shared then
          local v = enter(cx, cy)
          if v > worst then worst = v end
        end
      end
    end
    if not hex and dx ~= 0 and dy ~= 0 then return SQRT2 * worst end
    return worst
  end
  -- blocked by an override set false on a covered cell
  local function forbidden(x, y, code)
    for cy = y, y + k - 1 do
      for cx = x, x + k - 1 do
        local t = b.over[cell(w, cx, cy)]
        if t and t[code] == false then return true end
      end
    end
    return false
  end

  local out = {}
  local ndirs = (hex or mode ~= "never") and 8 or 4
  for y = 1, h - k + 1 do
    for x = 1, w - k + 1 do
      local u = cell(w, x, y)
      local list = {}
      for d = 1, ndirs do
        local dx, dy = M.DIRS[d][1], M.DIRS[d][2]
        local tx, ty = x + dx, y + dy
        local ok
        if hex then
          ok = M.is_neighbour(b, x, y, tx, ty) and enter(tx, ty) < INF
        else
          ok = fits(tx, ty) and (dx == 0 or dy == 0 or corner_ok(x, y, dx, dy))
        end
        if ok and not forbidden(x, y, d - 1) then
          local t = b.over[u]
          local o = t and t[d - 1]
          local base
          if type(o) == "number" then base = o else base = price(x, y, dx, dy) end
          list[#list + 1] = { to = cell(w, tx, ty), base = base, link = false }
        end
      end
      local links = b.links[u]
      if links then
        local targets = {}
        for j in pairs(links) do targets[#targets + 1] = j end
        table.sort(targets)
        for _, j in ipairs(targets) do
          local tx, ty = xy(w, j)
          if fits(tx, ty) then list[#list + 1] = { to = j, base = links[j], link = true } end
        end
      end
      out[u] = list
    end
  end
  -- the move rule: false removes the move, a number replaces its cost
  for u, list in pairs(out) do
    local kept = {}
    for _, e in ipairs(list) do
      local c = e.base
      if q.move then
        local fx, fy = xy(w, u)
        local tx, ty = xy(w, e.to)
        c = q.move(fx, fy, tx, ty, e.base)
        assert(c == false or (type(c) == "number" and c > 0 and c <= 1e15), "bad move rule value")
      end
      if c then
        e.cost = c
        kept[#kept + 1] = e
      end
    end
    out[u] = kept
  end
  local g = { b = b, q = q, k = k, w = w, h = h, out = out, start = start }
  function g.enterable(i)
    local x, y = xy(w, i)
    return fits(x, y)
  end
  function g.fits(x, y) return fits(x, y) end
  -- edges from u to v (there may be two: a board move and a link)
  function g.edges(u, v)
    local found = {}
    for _, e in ipairs(out[u] or {}) do
      if e.to == v then found[#found + 1] = e end
    end
    return found
  end
  return g
end

------------------------------------------------------------------------------
-- Dijkstra
------------------------------------------------------------------------------

-- A binary heap of (key, node), lazy deletion.
local function heap()
  local keys, vals, n = {}, {}, 0
  local H = {}
  function H.push(key, v)
    n = n + 1
    local p = n
    while p > 1 do
      local parent = math.floor(p / 2)
      if keys[parent] <= key then break end
      keys[p], vals[p] = keys[parent], vals[parent]
      p = parent
    end
    keys[p], vals[p] = key, v
  end
  function H.pop()
    local key, v = keys[1], vals[1]
    local lk, lv = keys[n], vals[n]
    keys[n], vals[n] = nil, nil
    n = n - 1
    if n > 0 then
      local p = 1
      while true do
        local c = 2 * p
        if c > n then break end
        if c + 1 <= n and keys[c + 1] < keys[c] then c = c + 1 end
        if keys[c] >= lk then break end
        keys[p], vals[p] = keys[c], vals[c]
        p = c
      end
      keys[p], vals[p] = lk, lv
    end
    return key, v
  end
  function H.empty() return n == 0 end
  return H
end

-- Plain Dijkstra over adjacency `adj` ({[node] = {{to =, cost =}...}}) from
-- `sources` ({[node] = starting value}). limit: nodes whose value would be above
-- it are left out. expand(node): false stops the walk there (zones of control).
-- admit(node): false keeps a node out entirely. Returns dist[node].
function M.dijkstra(adj, sources, limit, expand, admit)
  limit = limit or INF
  local dist, done = {}, {}
  local H = heap()
  for s, v in pairs(sources) do
    if v <= limit and (dist[s] == nil or v < dist[s]) then dist[s] = v end
  end
  for s, v in pairs(dist) do H.push(v, s) end
  while not H.empty() do
    local d, u = H.pop()
    if not done[u] and d == dist[u] then
      done[u] = true
      if not expand or expand(u) then
        for _, e in ipairs(adj[u] or {}) do
          local v = e.to
          local nd = d + e.cost
          if nd <= limit and not done[v] and (not admit or admit(v))
              and (dist[v] == nil or nd < dist[v]) then
            dist[v] = nd
            H.push(nd, v)
          end
        end
      end
    end
  end
  return dist
end

-- The reversed graph: rev[v] = {{to = u, cost =}} for every edge u -> v.
function M.reverse(g)
  local rev = {}
  for u, list in pairs(g.out) do
    for _, e in ipairs(list) do
      rev[e.to] = rev[e.to] or {}
      local r = rev[e.to]
      r[#r + 1] = { to = u, cost = e.cost }
    end
  end
  return rev
end

------------------------------------------------------------------------------
-- Queries
------------------------------------------------------------------------------

-- May a path from the start end on node i (no cell its unit covers occupied)?
local function can_end(g, i)
  if i == g.start then return true end
  if not g.enterable(i) then return false end
  local occupied = g.q.occupied
  if not occupied then return true end
  local x, y = xy(g.w, i)
  for cy = y, y + g.k - 1 do
    for cx = x, x + g.k - 1 do
      if occupied(cx, cy) then return false end
    end
  end
  return true
end
M.can_end = can_end

-- findPath: the cheapest cost from (sx, sy) to any of goals ({{x, y}, ...} or
-- {{x =, y =}}), or nil and the reason findPath gives. Also returns dist.
function M.find(b, q, sx, sy, goals)
  local start = cell(b.w, sx, sy)
  local g = M.graph(b, q, start)
  local dist = M.dijkstra(g.out, { [start] = 0 })
  local best
  for _, p in ipairs(goals) do
    local gx, gy = p.x or p[1], p.y or p[2]
    local i = cell(b.w, gx, gy)
    if dist[i] and can_end(g, i) and (best == nil or dist[i] < best) then best = dist[i] end
  end
  if best then return best, dist, g end
  if #goals == 1 then
    local p = goals[1]
    local i = cell(b.w, p.x or p[1], p.y or p[2])
    if not can_end(g, i) then return nil, "goal is blocked", g end
  end
  return nil, "no path", g
end

-- Does a position of the query's unit at node i cover a zone of control?
local function in_zoc(g, i)
  local z = g.q.zoc
  if not z then return false end
  local x, y = xy(g.w, i)
  for cy = y, y + g.k - 1 do
    for cx = x, x + g.k - 1 do
      if z(cx, cy) then return true end
    end
  end
  return false
end

-- movementRange: cost[node] of every node reached within budget and stop[node]
-- for those a move may end on. A zone of control ends the move (not at the start).
function M.range(b, q, sx, sy, budget)
  local start = cell(b.w, sx, sy)
  local g = M.graph(b, q, start)
  local dist = M.dijkstra(g.out, { [start] = 0 }, budget, function(u)
    return u == start or not in_zoc(g, u)
  end)
  local stop = {}
  for i in pairs(dist) do stop[i] = can_end(g, i) end
  return dist, stop, g
end

-- distanceMap: value[node] = min over sources s of value(s) + the cheapest walk
-- from node to s, over nodes that can be entered (positions where the unit
-- fits); sources on other nodes are ignored. Dijkstra over the reversed edges.
function M.distance(b, q, sources, maxCost)
  local g = M.graph(b, q, nil)
  local init = {}
  for _, s in ipairs(sources) do
    local i = cell(b.w, s.x, s.y)
    local v = s.value or 0
    if g.enterable(i) and (init[i] == nil or v < init[i]) then init[i] = v end
  end
  local dist = M.dijkstra(M.reverse(g), init, maxCost, nil, g.enterable)
  return dist, g
end

-- Start cells (issue 21) of a distance map of one-cell units (dist, graph g
-- of M.distance): a cell of the grid that the query's rules close is never
-- entered, but a walk may start there. Its value is the least over its
-- moves (the graph's edges, the move rule applied) into a cell of the map of
-- that cell's value plus the move's cost, kept when at most maxCost. Adds
-- them to dist; returns the set of start cells.
function M.add_starts(g, dist, maxCost)
  local starts, found = {}, {}
  if g.k ~= 1 then return starts end
  for i = 1, g.w * g.h do
    -- issue 24: a wall too (helpers/distance_reference.lua WALL_STARTS)
    if (g.b.open[i] or require("helpers.distance_reference").WALL_STARTS) and not g.enterable(i) then
      local best
      for _, e in ipairs(g.out[i] or {}) do
        local d = dist[e.to]
        if d ~= nil and (best == nil or d + e.cost < best) then best = d + e.cost end
      end
      if best and best <= (maxCost or INF) then found[i] = best end
    end
  end
  for i, v in pairs(found) do
    dist[i], starts[i] = v, true
  end
  return starts
end

-- The cheapest edge from a to b (coordinates), or nil.
function M.step_cost(g, ax, ay, bx, by)
  local best
  for _, e in ipairs(g.edges(cell(g.w, ax, ay), cell(g.w, bx, by))) do
    if best == nil or e.cost < best then best = e.cost end
  end
  return best
end

-- Checks a walk (a list of {x =, y =}) from (sx, sy) in graph g: every step is a
-- move of the graph (a board move or a link). Returns the summed costs of its
-- steps (the cheapest edge of each step), or nil and what is wrong.
function M.walk(g, path, sx, sy)
  if type(path) ~= "table" or #path < 1 then return nil, "not a path" end
  for i, p in ipairs(path) do
    if type(p) ~= "table" or type(p.x) ~= "number" or type(p.y) ~= "number"
        or not M.inside(g.b, p.x, p.y) or p.x ~= math.floor(p.x) or p.y ~= math.floor(p.y) then
      return nil, ("path[%d] is not a cell of the grid"):format(i)
    end
  end
  if sx and (path[1].x ~= sx or path[1].y ~= sy) then
    return nil, ("the path starts at (%d, %d), not (%d, %d)"):format(path[1].x, path[1].y, sx, sy)
  end
  local total = 0
  for i = 2, #path do
    local a, c = path[i - 1], path[i]
    local s = M.step_cost(g, a.x, a.y, c.x, c.y)
    if not s then
      return nil, ("step %d (%d, %d) -> (%d, %d) is no move of the board"):format(i - 1, a.x, a.y, c.x, c.y)
    end
    total = total + s
  end
  return total
end

-- dangerZone: count[i] = how many enemies can hit cell i. enemies[i] = { x, y,
-- move, minRange, maxRange, size, q = the enemy's query }. Manhattan distance
-- from the nearest cell the unit covers at each stop position.
function M.danger(b, enemies)
  local count = {}
  for _, e in ipairs(enemies) do
    local q = e.q or {}
    local k = q.size or 1
    local _, stop = M.range(b, q, e.x, e.y, e.move)
    local hit = {}
    for p, ok in pairs(stop) do
      if ok then
        local px, py = xy(b.w, p)
        for ty = 1, b.h do
          for tx = 1, b.w do
            local fx = math.min(math.max(tx, px), px + k - 1)
            local fy = math.min(math.max(ty, py), py + k - 1)
            local d = math.abs(tx - fx) + math.abs(ty - fy)
            if d >= e.minRange and d <= e.maxRange then hit[cell(b.w, tx, ty)] = true end
          end
        end
      end
    end
    for i in pairs(hit) do count[i] = (count[i] or 0) + 1 end
  end
  return count
end

------------------------------------------------------------------------------
-- Encoding (grid format version 1), written from docs/moves.md and the format
-- comment of the encoder, with plain arithmetic.
------------------------------------------------------------------------------

local function le(v, n)
  local t = {}
  for i = 1, n do
    local byte = v % 256
    t[i] = string.char(byte)
    v = (v - byte) / 256
  end
  return table.concat(t)
end
M.le = le

-- IEEE-754 binary64, little-endian, of 0 or a positive normal number.
function M.f64(x)
  if x == 0 then return ("\0"):rep(8) end
  assert(x > 0 and x < INF and x >= 2 ^ -1022, "f64 handles 0 and positive normal numbers")
  local m, e = x, 0
  while m >= 2 do m, e = m / 2, e + 1 end
  while m < 1 do m, e = m * 2, e - 1 end
  local frac = (m - 1) * 2 ^ 52
  local lo = frac % 2 ^ 48
  local hi = (frac - lo) / 2 ^ 48
  local biased = e + 1023
  return le(lo, 6) .. string.char(hi + (biased % 16) * 16, math.floor(biased / 16))
end

-- a xor b for bytes, bit by bit
local function xor8(a, c)
  local r, bit = 0, 1
  for _ = 1, 8 do
    if a % 2 ~= c % 2 then r = r + bit end
    a, c, bit = math.floor(a / 2), math.floor(c / 2), bit * 2
  end
  return r
end

-- FNV-1a, 32 bits: h = (h xor byte) * 16777619 mod 2^32, the product taken as
-- h * 403 + h * 2^24 (16777619 = 2^24 + 403), each part reduced mod 2^32 first
-- so every intermediate stays exact in a double.
function M.fnv1a(s)
  local h = 2166136261
  for i = 1, #s do
    local low = h % 256
    h = h - low + xor8(low, s:byte(i))
    local a = (h * 403) % 4294967296
    local c = ((h % 256) * 16777216) % 4294967296
    h = (a + c) % 4294967296
  end
  return h
end

local DIAGONAL = { never = 0, always = 1, ["one-obstacle"] = 2, ["no-obstacles"] = 3 }
local LAYOUT = { ["odd-r"] = 0, ["even-r"] = 1, ["odd-q"] = 2, ["even-q"] = 3 }

-- The moves section: overrides by cell then direction, links by from then to.
function M.encode_moves(b)
  local cells = {}
  for i in pairs(b.over) do cells[#cells + 1] = i end
  table.sort(cells)
  local parts, n = {}, 0
  for _, i in ipairs(cells) do
    for code = 0, 7 do
      local v = b.over[i][code]
      if v ~= nil then
        n = n + 1
        parts[#parts + 1] = le(i - 1, 4) .. string.char(code) .. M.f64(v or 0)
      end
    end
  end
  local froms = {}
  for i in pairs(b.links) do froms[#froms + 1] = i end
  table.sort(froms)
  local lparts, m = {}, 0
  for _, i in ipairs(froms) do
    local tos = {}
    for j in pairs(b.links[i]) do tos[#tos + 1] = j end
    table.sort(tos)
    for _, j in ipairs(tos) do
      m = m + 1
      lparts[#lparts + 1] = le(i - 1, 4) .. le(j - 1, 4) .. M.f64(b.links[i][j])
    end
  end
  return le(n, 4) .. table.concat(parts) .. le(m, 4) .. table.concat(lparts)
end

-- The whole encoding of a board with default settings (diagonal "no-obstacles",
-- or "never" on hex boards, heuristic octile not chosen, weight 1;
-- settings.diagonal for another mode).
function M.encode(b, settings)
  settings = settings or {}
  local w, h = b.w, b.h
  local bytes, acc, nb = {}, 0, 0
  local costs = false
  for i = 1, w * h do
    if b.open[i] then acc = acc + 2 ^ nb end
    nb = nb + 1
    if nb == 8 then bytes[#bytes + 1], acc, nb = string.char(acc), 0, 0 end
    if b.cost[i] ~= 1 then costs = true end
  end
  if nb > 0 then bytes[#bytes + 1] = string.char(acc) end
  local body = table.concat(bytes)
  if costs then
    local t = {}
    for i = 1, w * h do t[i] = M.f64(b.cost[i]) end
    body = body .. table.concat(t)
  end
  local hex = b.shape == "hex"
  local moves = M.has_moves(b)
  local flags = (costs and 1 or 0) + (hex and 4 or 0) + (moves and 8 or 0)
  local mode = settings.diagonal or (hex and "never" or "no-obstacles")
  local header = "ASTARGRD" .. le(1, 2) .. string.char(flags)
    .. string.char(DIAGONAL[mode], 1, 0, 0, hex and LAYOUT[b.layout] or 0)
    .. le(w, 4) .. le(h, 4) .. M.f64(1)
  local all = header .. body .. (moves and M.encode_moves(b) or "")
  return all .. le(M.fnv1a(all), 4)
end

return M
