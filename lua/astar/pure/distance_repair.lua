-- map:update(grid) as an exact incremental repair (issue 24, maps-api point 2)
-- for the pure backend: after a few edits of the grid the map was last
-- computed on, only the cells whose value can change are computed again.
--
-- 1. The cells whose walk (step by step) goes through an edited cell, or
--    takes a diagonal whose corner an edit changed, leave the map (their
--    value may rise); every other cell keeps a walk of the same cost, so its
--    value can only fall.
-- 2. A flood (a heap, Dijkstra's rules) from the map's cells around them
--    and around the edits offers values again, lowers what got cheaper, and
--    applies the flood's tie rule (the lowest step code); a cell whose step
--    stays but whose next cell's source changes passes the change on. Every
--    cell then holds the least of the offers a fresh flood makes, and the
--    same step and origin: get, nextStep, nearest, size and cells are a
--    fresh map's exactly.
-- 3. Around what changed, the cells a fresh flood would have looked at get
--    their entry costs (the others none), and the walls there are start
--    cells valued again, so encode writes a fresh map's bytes.
-- It repairs maps of one-cell units on a square grid without rules, moves or
-- links, after at most MAX_EDITS logged edits of the same grid, when less
-- than a quarter of the map leaves; anything else is rebuilt (the caller's
-- fill).
local B = require "astar.pure.board"
local G = require "astar.pure.grid"

local M = {}

local huge = math.huge
local DX, DY, CX, CY, SQRT2 = B.DX, B.DY, B.CX, B.CY, B.SQRT2
local END = 8
M.MAX_EDITS = 16   -- as the C module (lua_distance.c): more edits, a rebuild

-- A 2-ary heap of (value, cell) pairs.
local function push(hf, hc, n, f, c)
  n = n + 1
  local j = n
  while j > 1 do
    local p = (j - j % 2) / 2
    if f < hf[p] then
      hf[j], hc[j] = hf[p], hc[p]
      j = p
    else
      break
    end
  end
  hf[j], hc[j] = f, c
  return n
end

local function pop(hf, hc, n)
  local f, c = hf[1], hc[1]
  local lf, lc = hf[n], hc[n]
  n = n - 1
  local i = 1
  while true do
    local k = 2 * i
    if k > n then break end
    if k < n and hf[k + 1] < hf[k] then k = k + 1 end
    if hf[k] < lf then
      hf[i], hc[i] = hf[k], hc[k]
      i = k
    else
      break
    end
  end
  if n > 0 then hf[i], hc[i] = lf, lc end
  return f, c, n
end

-- The cells edited since the map's last computation (a set), or nil when
-- the change log no longer holds them all or they are too many.
local function edits(m, grid)
  local since = grid._version - m._version
  if since < 0 or since > M.MAX_EDITS or since > G.CHANGE_LOG then return nil end
  local set, log = {}, grid._changes
  for v = m._version + 1, grid._version do set[log[v % G.CHANGE_LOG + 1]] = true end
  return set
end

-- May m be repaired on grid? (the caller checked shape and size)
function M.fits(m, grid)
  local r = m._rules
  return grid == m._grid and m._version ~= nil and m._size == 1 and not m._hex
    and not m._moves and not grid._moves and r ~= nil and not r.used and r.move == nil
end

-- Repairs m on grid; false when it cannot (the caller rebuilds).
function M.repair(m, grid, offsets)
  local changed = edits(m, grid)
  if not changed then return false end
  local open, gcost = grid._open, grid._cost
  local dist, step, origin, cost = m._dist, m._step, m._origin, m._cost
  local start, sdist = m._start, m._sdist
  local stride, mode, max_cost = m._stride, m._diagonal, m._max
  local ndir = mode == B.NEVER and 4 or 8
  local cornered, one_ok = mode ~= B.ALWAYS, mode ~= B.NO_OBSTACLES
  local offset = offsets(stride)
  local function entry(i)
    if open[i] then return gcost and gcost[i] or 1.0 end
    return huge
  end
  local function parent(i)
    local s = step[i]
    if s == nil or s == END then return nil end
    return i + offset[s + 1]
  end

  -- 1. the cells that leave the map: the edits, the cells whose step is a
  -- diagonal with an edit at its corner, and every cell whose walk reaches one
  local gone, left, ng0 = {}, {}, 0   -- a set, a list
  local function leave(i)
    if step[i] ~= nil and not gone[i] then
      gone[i] = true
      ng0 = ng0 + 1
      left[ng0] = i
    end
  end
  for c in next, changed do
    leave(c)
    for d = 1, 4 do
      local w = c + offset[d]
      local s = step[w]
      if s ~= nil and s ~= END and s >= 4 then
        local sd = s + 1
        if w + DX[sd] == c or w + DY[sd] * stride == c then leave(w) end
      end
    end
  end
  local k = 1
  while k <= ng0 do   -- the walks that reach them: their neighbours stepping onto them
    local u = left[k]
    k = k + 1
    for d = 1, ndir do
      local w = u + offset[d]
      if parent(w) == u then leave(w) end
    end
  end
  local reached = m._reached
  -- a quarter of the map or more to do again: a rebuild costs less (as C)
  if 4 * ng0 > reached and ng0 > 64 then return false end
  for c in next, changed do   -- from here on the map is written
    if cost[c] ~= nil then cost[c] = entry(c) end
  end
  for j = 1, ng0 do
    local i = left[j]
    dist[i], step[i] = nil, nil
    reached = reached - 1
  end

  -- 2. the flood: the sources among what left or was edited, then the map's
  -- cells around both offer their values again
  local hf, hc, n = {}, {}, 0
  local touched, nt = {}, 0
  local function touch(i)
    nt = nt + 1
    touched[nt] = i
  end
  for idx, s in ipairs(m._sources) do
    local c = s.y * stride + s.x + 1
    if gone[c] or changed[c] then
      local v = s.value
      if open[c] and v <= max_cost and (dist[c] == nil or v < dist[c]) then
        if dist[c] == nil then reached = reached + 1 end
        dist[c], step[c], origin[c] = v, END, idx - 1
        cost[c] = entry(c)
        touch(c)
        n = push(hf, hc, n, v, c)
      end
    end
  end
  local seeded = {}
  local function seed_around(i)
    for d = 1, ndir do
      local u = i + offset[d]
      if step[u] ~= nil and not seeded[u] then
        seeded[u] = true
        n = push(hf, hc, n, dist[u], u)
      end
    end
  end
  for j = 1, ng0 do seed_around(left[j]) end
  for c in next, changed do
    seed_around(c)
    if step[c] ~= nil and not seeded[c] then   -- an edited cell still in the map
      seeded[c] = true
      n = push(hf, hc, n, dist[c], c)
    end
  end
  while n > 0 do
    local gu, u
    gu, u, n = pop(hf, hc, n)
    if dist[u] == gu then
      local cu, ou = cost[u], origin[u]
      for d = 1, ndir do
        local v = u + offset[d]
        local pass = open[v]
        if pass and d > 4 and cornered then
          local walls = (open[u + offset[CX[d]]] and 0 or 1) + (open[u + offset[CY[d]]] and 0 or 1)
          pass = walls == 0 or (walls == 1 and one_ok)
        end
        if pass then
          local ng = d > 4 and gu + SQRT2 * cu or gu + cu
          if ng <= max_cost then
            local s = B.OPPOSITE[d]
            local dv = dist[v]
            if dv == nil or ng < dv then
              if dv == nil then reached = reached + 1 end
              dist[v], step[v], origin[v] = ng, s, ou
              if cost[v] == nil then cost[v] = entry(v) end
              touch(v)
              n = push(hf, hc, n, ng, v)
            elseif ng == dv and step[v] ~= END and (s < step[v] or (s == step[v] and origin[v] ~= ou)) then
              step[v], origin[v] = s, ou
              touch(v)
              n = push(hf, hc, n, ng, v)   -- its walk's source passes on
            end
          end
        end
      end
    end
  end
  m._reached = reached

  -- 3. around every cell that left, came or changed: the cells a fresh flood
  -- looks at (the map's cells and their neighbours, the sources) and the
  -- start cells among them
  local seen, near, nn = {}, {}, 0   -- a set, a list
  local function add(i)
    if not seen[i] then
      seen[i] = true
      nn = nn + 1
      near[nn] = i
    end
  end
  local function ring(i)
    add(i)
    for d = 1, 8 do add(i + offset[d]) end
  end
  for j = 1, ng0 do ring(left[j]) end
  for j = 1, nt do ring(touched[j]) end
  for c in next, changed do ring(c) end
  local is_source = {}
  for _, s in ipairs(m._sources) do is_source[s.y * stride + s.x + 1] = true end
  local w, h = m._w, m._h
  local valued = {}
  for j = 1, nn do
    local z = near[j]
    local zx = (z - 1) % stride
    if zx >= 1 and zx <= w and z > stride and z <= (h + 1) * stride then
      local looked = step[z] ~= nil or is_source[z]
      if not looked then
        for d = 1, ndir do
          if step[z + offset[d]] ~= nil then
            looked = true
            break
          end
        end
      end
      if looked then
        cost[z] = entry(z)
      else
        cost[z] = nil
      end
      sdist[z] = nil
      if looked and not open[z] then
        start[z] = false
        valued[#valued + 1] = z
      else
        start[z] = nil
      end
    end
  end
  m._version = grid._version
  return true, valued
end

return M
