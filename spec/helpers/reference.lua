-- Independent reference implementation used by the specs.
--
-- Nothing here uses the astar module except build_grid, which only calls the public
-- setters. Works on Lua 5.1 (LuaJIT) to 5.4: no integer division, no bit operators,
-- no goto.
--
-- A grid description is a table
--   { w = W, h = H, walkable = tbl_or_fn, cost = tbl_or_fn }
-- where walkable[x][y] is a boolean (or walkable(x, y) returns one) and cost[x][y] a
-- number (or cost(x, y) returns one). A missing cost means 1 everywhere, a missing
-- walkable means everything is walkable.

local M = {}

local SQRT2 = math.sqrt(2)
M.SQRT2 = SQRT2

M.MODES = { "never", "always", "one-obstacle", "no-obstacles" }
M.HEURISTICS = { "manhattan", "octile", "euclidean", "chebyshev", "dijkstra" }

local VALID_MODE = {}
for _, m in ipairs(M.MODES) do VALID_MODE[m] = true end

-- Heuristics that give optimal paths at weight 1 with the given diagonal mode.
function M.admissible_heuristics(mode)
  if mode == "never" then
    return { "manhattan", "octile", "euclidean", "chebyshev", "dijkstra" }
  end
  return { "octile", "euclidean", "chebyshev", "dijkstra" }
end

local function accessor(v, default)
  if v == nil then
    return function() return default end
  elseif type(v) == "function" then
    return v
  elseif type(v) == "table" then
    return function(x, y)
      local col = v[x]
      if col == nil then return default end
      local r = col[y]
      if r == nil then return default end
      return r
    end
  end
  error("walkable/cost must be a table, a function or nil", 3)
end

-- Normalises a description: returns w, h, walkable(x, y), cost(x, y).
local function normalise(desc)
  assert(type(desc) == "table", "grid description must be a table")
  local w, h = desc.w or desc.width, desc.h or desc.height
  assert(type(w) == "number" and type(h) == "number", "grid description needs w and h")
  return w, h, accessor(desc.walkable, true), accessor(desc.cost, 1)
end
M.normalise = normalise

local function in_bounds(w, h, x, y)
  return x >= 1 and x <= w and y >= 1 and y <= h
end

-- Can a diagonal step from (x, y) by (dx, dy) be taken? (the target is in bounds)
local function diagonal_allowed(walk, mode, x, y, dx, dy)
  if not walk(x + dx, y + dy) then return false end
  if mode == "always" then
    return true
  elseif mode == "one-obstacle" then
    return walk(x + dx, y) or walk(x, y + dy)
  elseif mode == "no-obstacles" then
    return walk(x + dx, y) and walk(x, y + dy)
  end
  return false -- "never"
end
M.diagonal_allowed = diagonal_allowed

local ORTHO = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }
local DIAG = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }

-- Plain Dijkstra from (sx, sy). The start cell's walkability is not checked.
-- Returns dist with dist[x][y] = optimal cost, or nil when (x, y) is unreachable
-- (walls are never reached, except the start itself which has distance 0).
function M.dijkstra(desc, mode, sx, sy)
  assert(VALID_MODE[mode], "unknown diagonal mode " .. tostring(mode))
  local w, h, walk, cost = normalise(desc)
  assert(in_bounds(w, h, sx, sy), "start out of bounds")
  local n = w * h
  local dist = {}          -- flat, index (y-1)*w + x
  local done = {}
  -- binary heap with parallel arrays of keys and indices (lazy deletion)
  local hk, hi, hn = {}, {}, 0
  local function push(k, i)
    hn = hn + 1
    local pos = hn
    while pos > 1 do
      local parent = math.floor(pos / 2)
      if hk[parent] <= k then break end
      hk[pos], hi[pos] = hk[parent], hi[parent]
      pos = parent
    end
    hk[pos], hi[pos] = k, i
  end
  local function pop()
    local k, i = hk[1], hi[1]
    local lk, li = hk[hn], hi[hn]
    hk[hn], hi[hn] = nil, nil
    hn = hn - 1
    if hn > 0 then
      local pos = 1
      while true do
        local c = pos * 2
        if c > hn then break end
        if c + 1 <= hn and hk[c + 1] < hk[c] then c = c + 1 end
        if hk[c] >= lk then break end
        hk[pos], hi[pos] = hk[c], hi[c]
        pos = c
      end
      hk[pos], hi[pos] = lk, li
    end
    return k, i
  end

  local start = (sy - 1) * w + sx
  dist[start] = 0
  push(0, start)
  local diagonal = mode ~= "never"
  while hn > 0 do
    local d, i = pop()
    if not done[i] and d == dist[i] then
      done[i] = true
      local x = (i - 1) % w + 1
      local y = (i - x) / w + 1
      for k = 1, 4 do
        local nx, ny = x + ORTHO[k][1], y + ORTHO[k][2]
        if in_bounds(w, h, nx, ny) and walk(nx, ny) then
          local j = (ny - 1) * w + nx
          if not done[j] then
            local nd = d + cost(nx, ny)
            if dist[j] == nil or nd < dist[j] then
              dist[j] = nd
              push(nd, j)
            end
          end
        end
      end
      if diagonal then
        for k = 1, 4 do
          local dx, dy = DIAG[k][1], DIAG[k][2]
          local nx, ny = x + dx, y + dy
          if in_bounds(w, h, nx, ny) and diagonal_allowed(walk, mode, x, y, dx, dy) then
            local j = (ny - 1) * w + nx
            if not done[j] then
              local nd = d + SQRT2 * cost(nx, ny)
              if dist[j] == nil or nd < dist[j] then
                dist[j] = nd
                push(nd, j)
              end
            end
          end
        end
      end
    end
  end

  local out = {}
  for x = 1, w do out[x] = {} end
  for i = 1, n do
    if dist[i] ~= nil then
      local x = (i - 1) % w + 1
      local y = (i - x) / w + 1
      out[x][y] = dist[i]
    end
  end
  return out
end

local function is_whole(v)
  return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge and v == math.floor(v)
end

-- Checks a path returned by findPath. Returns the summed cost of its steps, or nil and
-- a message saying what is wrong.
function M.validate(desc, mode, path, sx, sy, gx, gy)
  assert(VALID_MODE[mode], "unknown diagonal mode " .. tostring(mode))
  local w, h, walk, cost = normalise(desc)
  if type(path) ~= "table" then
    return nil, "path is a " .. type(path) .. ", not a table"
  end
  local n = #path
  if n < 1 then return nil, "path is empty" end
  for i = 1, n do
    local p = path[i]
    if type(p) ~= "table" then
      return nil, ("path[%d] is a %s"):format(i, type(p))
    end
    if not (is_whole(p.x) and is_whole(p.y)) then
      return nil, ("path[%d] has non-whole coordinates (%s, %s)"):format(i, tostring(p.x), tostring(p.y))
    end
    if not in_bounds(w, h, p.x, p.y) then
      return nil, ("path[%d] = (%d, %d) is out of bounds"):format(i, p.x, p.y)
    end
  end
  if path[1].x ~= sx or path[1].y ~= sy then
    return nil, ("path starts at (%d, %d), not at the start (%d, %d)"):format(path[1].x, path[1].y, sx, sy)
  end
  if path[n].x ~= gx or path[n].y ~= gy then
    return nil, ("path ends at (%d, %d), not at the goal (%d, %d)"):format(path[n].x, path[n].y, gx, gy)
  end
  local total = 0
  for i = 2, n do
    local a, b = path[i - 1], path[i]
    local dx, dy = b.x - a.x, b.y - a.y
    if (dx == 0 and dy == 0) or math.abs(dx) > 1 or math.abs(dy) > 1 then
      return nil, ("step %d from (%d, %d) to (%d, %d) is not a move to a neighbour"):format(
        i - 1, a.x, a.y, b.x, b.y)
    end
    if not walk(b.x, b.y) then
      return nil, ("path[%d] = (%d, %d) is a wall"):format(i, b.x, b.y)
    end
    if dx ~= 0 and dy ~= 0 then
      if mode == "never" then
        return nil, ("step %d from (%d, %d) to (%d, %d) is diagonal in mode never"):format(
          i - 1, a.x, a.y, b.x, b.y)
      end
      if not diagonal_allowed(walk, mode, a.x, a.y, dx, dy) then
        return nil, ("diagonal step %d from (%d, %d) to (%d, %d) breaks the %s rule"):format(
          i - 1, a.x, a.y, b.x, b.y, mode)
      end
      total = total + SQRT2 * cost(b.x, b.y)
    else
      total = total + cost(b.x, b.y)
    end
  end
  return total
end

-- Relative comparison: |a - b| <= tol * max(1, |a|, |b|).
function M.close(a, b, tol)
  tol = tol or 1e-9
  if type(a) ~= "number" or type(b) ~= "number" then return false end
  local scale = math.max(1, math.abs(a), math.abs(b))
  return math.abs(a - b) <= tol * scale
end

-- Heuristic distance used to choose the partial target. "dijkstra" uses the
-- diagonal mode's own distance: manhattan for "never", octile otherwise.
function M.heuristic_distance(name, mode, x1, y1, x2, y2)
  local dx, dy = math.abs(x1 - x2), math.abs(y1 - y2)
  if name == "dijkstra" then
    name = (mode == "never") and "manhattan" or "octile"
  end
  local mx, mn = math.max(dx, dy), math.min(dx, dy)
  if name == "manhattan" then
    return dx + dy
  elseif name == "octile" then
    return mx + (SQRT2 - 1) * mn
  elseif name == "euclidean" then
    return math.sqrt(dx * dx + dy * dy)
  elseif name == "chebyshev" then
    return mx
  end
  error("unknown heuristic " .. tostring(name))
end

-- Deterministic RNG (LCG mod 2^32, Numerical Recipes constants). Every intermediate
-- value stays below 2^53, so it gives the same sequence on every Lua version.
function M.rng(seed)
  local state = math.floor(math.abs(seed or 1)) % 4294967296
  local self = {}
  function self.next()
    state = (1664525 * state + 1013904223) % 4294967296
    return state / 4294967296
  end
  -- whole number in lo..hi inclusive (or 1..lo with one argument)
  function self.int(lo, hi)
    if hi == nil then lo, hi = 1, lo end
    return lo + math.floor(self.next() * (hi - lo + 1))
  end
  function self.pick(list)
    return list[self.int(1, #list)]
  end
  return self
end

M.DEFAULT_COSTS = { 1, 1, 1, 2, 3, 0.5, 1.25 }

-- Random grid description: each cell is a wall with probability `density`, and has a
-- cost drawn from `costs` (walls too: a wall keeps its cost).
function M.random_map(rng, w, h, density, costs)
  costs = costs or M.DEFAULT_COSTS
  local walkable, cost = {}, {}
  for x = 1, w do
    walkable[x], cost[x] = {}, {}
    for y = 1, h do
      walkable[x][y] = rng.next() >= density
      cost[x][y] = rng.pick(costs)
    end
  end
  return { w = w, h = h, walkable = walkable, cost = cost }
end

-- Builds an astar grid from a description with the public setters only.
function M.build_grid(astar, desc)
  local w, h, walk, cost = normalise(desc)
  local grid = astar.new(w, h)
  for x = 1, w do
    for y = 1, h do
      local c = cost(x, y)
      if c ~= 1 then grid:setCost(x, y, c) end
      if not walk(x, y) then grid:setWalkable(x, y, false) end
    end
  end
  return grid
end

-- Description from map text in the astar.fromString format ('.', '#', '1'..'9').
function M.parse_string_map(text)
  local rows = {}
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do rows[#rows + 1] = line end
  while #rows > 0 and rows[#rows] == "" do rows[#rows] = nil end
  local h, w = #rows, #rows[1]
  local walkable, cost = {}, {}
  for x = 1, w do
    walkable[x], cost[x] = {}, {}
    for y = 1, h do
      local ch = rows[y]:sub(x, x)
      assert(ch ~= "", "ragged map")
      if ch == "#" then
        walkable[x][y], cost[x][y] = false, 1
      elseif ch == "." then
        walkable[x][y], cost[x][y] = true, 1
      else
        local c = tonumber(ch)
        assert(c and c >= 1 and c <= 9, "bad map character " .. ch)
        walkable[x][y], cost[x][y] = true, c
      end
    end
  end
  return { w = w, h = h, walkable = walkable, cost = cost }
end

-- Parses a Moving AI .map text independently: returns a description (cost 1
-- everywhere) whose walkable is a function backed by the row strings.
function M.parse_movingai(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do lines[#lines + 1] = line end
  assert(lines[1]:match("^type%s+octile%s*$"), "bad type line")
  local h = tonumber(lines[2]:match("^height%s+(%d+)%s*$"))
  local w = tonumber(lines[3]:match("^width%s+(%d+)%s*$"))
  assert(h and w, "bad height/width lines")
  assert(lines[4]:match("^map%s*$"), "bad map line")
  local rows = {}
  for y = 1, h do
    local row = lines[4 + y]
    assert(row and #row == w, "bad row " .. y)
    rows[y] = row
  end
  local passable = { ["."] = true, G = true, S = true }
  local blocked = { ["@"] = true, O = true, T = true, W = true }
  -- precompute a flat boolean array for speed
  local flat = {}
  for y = 1, h do
    local row = rows[y]
    for x = 1, w do
      local ch = row:sub(x, x)
      assert(passable[ch] or blocked[ch], "unexpected map character " .. ch)
      flat[(y - 1) * w + x] = passable[ch] == true
    end
  end
  local function walkable(x, y)
    return flat[(y - 1) * w + x]
  end
  return { w = w, h = h, walkable = walkable, rows = rows }
end

-- Reads a whole file, or returns nil and a message.
function M.read_file(path)
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local s = f:read("*a")
  f:close()
  return s
end

-- The Moving AI maps folder: $ASTAR_MAPS, or the repository's maps/ (found from
-- where this file is, so specs run from any directory; "maps" if that is unknown).
M.MAPS_DIR = (function()
  local dir = os.getenv("ASTAR_MAPS")
  if dir == nil or dir == "" then
    local source = debug and debug.getinfo and debug.getinfo(1, "S").source or ""
    local root = source:match("^@(.-)spec[/\\]helpers[/\\]reference%.lua$")
    dir = (root or "") .. "maps"
  end
  return (dir:gsub("/+$", ""))
end)()

-- Paints a disc of cost c, centre (cx, cy) and radius r, on a description's
-- cost columns (terrain patches: forest, swamp).
function M.paint_disc(desc, cx, cy, r, c)
  for x = 1, desc.w do
    for y = 1, desc.h do
      if (x - cx) ^ 2 + (y - cy) ^ 2 <= r * r then desc.cost[x][y] = c end
    end
  end
end

-- Reads a file of the maps folder, or raises an error saying how to point at it.
function M.read_map_file(name)
  local path = M.MAPS_DIR .. "/" .. name
  local text, err = M.read_file(path)
  if not text then
    error(("cannot read %s (%s); set ASTAR_MAPS to the maps folder"):format(path, tostring(err)), 2)
  end
  return text
end

return M
