-- The pure-Lua baseline: a plain, well-written A* of the kind a good pure-Lua
-- library ships. 8 directions without corner cutting (the Moving AI rule),
-- octile heuristic, a binary heap with lazy deletion ordered by f then h,
-- flat arrays indexed by cell, reused across queries through a generation
-- counter. No tricks beyond that: it is the yardstick, not a contender.
-- Runs on Lua 5.1/LuaJIT and 5.4.
local M = {}

local SQRT2 = math.sqrt(2)
local floor = math.floor
local DX = {1, -1, 0, 0, 1, -1, 1, -1}
local DY = {0, 0, 1, -1, 1, 1, -1, -1}

-- A searcher over width x height cells; open[y * width + x + 1] is true
-- for passable cells. Returns an object with find(sx, sy, gx, gy) taking
-- 0-based coordinates and returning path ({x =, y =} 1-based), cost or
-- nil, reason; and expanded() for the last query's expansion count.
function M.new(width, height, open)
  local g, parent, seen, closed = {}, {}, {}, {}
  local heap_node, heap_f, heap_h = {}, {}, {}
  local generation, expanded = 0, 0
  for i = 1, width * height do
    g[i], parent[i], seen[i], closed[i] = 0, 0, 0, 0   -- array parts, not hashes
  end

  local function octile(x, y, gx, gy)
    local dx, dy = x - gx, y - gy
    if dx < 0 then dx = -dx end
    if dy < 0 then dy = -dy end
    if dx < dy then return dy + (SQRT2 - 1) * dx end
    return dx + (SQRT2 - 1) * dy
  end

  local size = 0

  -- Sift-up and sift-down move a hole rather than swapping entries.
  local function push(node, f, h)
    size = size + 1
    local i = size
    while i > 1 do
      local p = floor(i / 2)
      local pf = heap_f[p]
      if pf < f or (pf == f and heap_h[p] <= h) then break end
      heap_node[i], heap_f[i], heap_h[i] = heap_node[p], pf, heap_h[p]
      i = p
    end
    heap_node[i], heap_f[i], heap_h[i] = node, f, h
  end

  local function pop()
    local top = heap_node[1]
    local node, f, h = heap_node[size], heap_f[size], heap_h[size]
    size = size - 1
    local i = 1
    while true do
      local c = 2 * i
      if c > size then break end
      local cf, ch = heap_f[c], heap_h[c]
      if c < size then
        local df, dh = heap_f[c + 1], heap_h[c + 1]
        if df < cf or (df == cf and dh < ch) then c, cf, ch = c + 1, df, dh end
      end
      if f < cf or (f == cf and h <= ch) then break end
      heap_node[i], heap_f[i], heap_h[i] = heap_node[c], cf, ch
      i = c
    end
    heap_node[i], heap_f[i], heap_h[i] = node, f, h
    return top
  end

  local function build_path(goal)
    local reversed, node = {}, goal
    while node ~= 0 do
      local i = node - 1
      reversed[#reversed + 1] = {x = i % width + 1, y = floor(i / width) + 1}
      node = parent[node]
    end
    local path, n = {}, #reversed
    for i = 1, n do path[i] = reversed[n + 1 - i] end
    return path
  end

  local function find(sx, sy, gx, gy)
    generation = generation + 1
    expanded = 0
    size = 0
    local start, goal = sy * width + sx + 1, gy * width + gx + 1
    g[start], parent[start], seen[start] = 0, 0, generation
    if start == goal then return build_path(goal), 0 end
    if not open[goal] then return nil, "goal is blocked" end
    local h0 = octile(sx, sy, gx, gy)
    push(start, h0, h0)
    while size > 0 do
      local node = pop()
      if closed[node] ~= generation then
        if node == goal then return build_path(goal), g[goal] end
        closed[node] = generation
        expanded = expanded + 1
        local x = (node - 1) % width
        local y = (node - 1 - x) / width
        local gn = g[node]
        for d = 1, 8 do
          local nx, ny = x + DX[d], y + DY[d]
          if nx >= 0 and nx < width and ny >= 0 and ny < height then
            local next = ny * width + nx + 1
            if open[next] and closed[next] ~= generation then
              local step = 1
              if d > 4 then
                -- no corner cutting: both orthogonal neighbours must be open
                if not (open[y * width + nx + 1] and open[ny * width + x + 1]) then
                  step = nil
                else
                  step = SQRT2
                end
              end
              if step then
                local ng = gn + step
                if seen[next] ~= generation or ng < g[next] then
                  seen[next], g[next], parent[next] = generation, ng, node
                  local h = octile(nx, ny, gx, gy)
                  push(next, ng + h, h)
                end
              end
            end
          end
        end
      end
    end
    return nil, "no path"
  end

  return {
    find = find,
    expanded = function() return expanded end,
  }
end

return M
