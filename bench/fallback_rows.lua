-- The pure-Lua backend's rows beyond findPath on square maps: movement
-- ranges, distance maps (and their rescans), hex boards and large units, on
-- cuts of the Moving AI maps with terrain costs. Used by fallback_bench.lua
-- (make bench-fallback) and by tools/compare-fallback.lua, which times each
-- row against another revision's lua/ tree in the same run.
--
--   local rows = dofile("bench/fallback_rows.lua")(P, dir)
-- gives a list of { name, fn }: fn() runs the row's queries once. With
-- maps given (fallback_bench.lua's list of { map, scen }), the list starts
-- with two findPath rows per map (the default, and algorithm = "astar"), its
-- scenarios spread evenly over the file.
return function(P, dir, maps, per_map)
  local function read(path)
    local f = assert(io.open(path, "rb"))
    local text = f:read("*a")
    f:close()
    return text
  end
  local rows = {}
  for _, m in ipairs(maps or {}) do
    local grid, all = P.fromMovingAI(read(dir .. "/" .. m[1])), {}
    for line in io.lines(dir .. "/" .. m[2]) do
      local sx, sy, gx, gy = line:match("^%d+\t[^\t]+\t%d+\t%d+\t(%d+)\t(%d+)\t(%d+)\t(%d+)")
      if sx then all[#all + 1] = { sx + 1, sy + 1, gx + 1, gy + 1 } end
    end
    local list, count = {}, math.min(per_map, #all)
    for k = 1, count do list[k] = all[math.floor((k - 0.5) * #all / count) + 1] end
    rows[#rows + 1] = { "findPath " .. m[1], function()
      for _, q in ipairs(list) do grid:findPath(q[1], q[2], q[3], q[4]) end
    end }
    local astar = { algorithm = "astar" }   -- the A* engine, whatever "auto" picks
    rows[#rows + 1] = { "findPath A* " .. m[1], function()
      for _, q in ipairs(list) do grid:findPath(q[1], q[2], q[3], q[4], astar) end
    end }
  end
  local whole = P.fromMovingAI(read(dir .. "/den312d.map"))

  -- A w x h cut of den312d (columns 1.., rows 9..) onto grid, with forest
  -- (2) and mountain (3) from a fixed hash of the cell, as tactics_bench.lua.
  local function cut(grid, w, h)
    for y = 1, h do
      for x = 1, w do
        local hsh = (x * 73856093 + y * 19349663) % 97
        grid:setWalkable(x, y, whole:isWalkable(x, y + 8))
        grid:setCost(x, y, hsh < 15 and 2 or hsh < 22 and 3 or 1)
      end
    end
    return grid
  end
  local square = cut(P.new(64, 64), 64, 64)
  local hex = cut(P.newHex(64, 64), 64, 64)
  local big = P.fromMovingAI(read(dir .. "/ost003d.map"))

  -- Open cells spread over the grid, the same on every run.
  local function starts(grid, count)
    local w, h = grid:getDimensions()
    local out = {}
    local k = 0
    while #out < count do
      k = k + 1
      local x, y = (k * 37) % w + 1, (k * 53) % h + 1
      if grid:isWalkable(x, y) and grid:isWalkable(x + 1 <= w and x + 1 or x, y) then
        out[#out + 1] = { x, y }
      end
    end
    return out
  end
  local S, X, B = starts(square, 16), starts(hex, 16), starts(big, 16)
  local blocked = function(x, y) return (x + y) % 11 == 0 end

  local function ranges(grid, list, move, opts)
    return function()
      for _, p in ipairs(list) do P._movementRange(grid, p[1], p[2], move, opts) end
    end
  end
  -- movement ranges, then what a spear (1..2) hits from each (dangerZone's work)
  local function attacks(grid, list, move, opts)
    return function()
      for _, p in ipairs(list) do
        local r = P._movementRange(grid, p[1], p[2], move, opts)
        P._attackCells(grid, r, 1, 2, nil, "attackRange")
      end
    end
  end
  local function paths(grid, list, opts)
    return function()
      for k = 1, #list - 1 do
        local a, b = list[k], list[k + 1]
        grid:findPath(a[1], a[2], b[1], b[2], opts)
      end
    end
  end
  local function floods(grid, list, opts, after)
    return function()
      for k = 1, #list, 4 do
        local m = grid:distanceMap({ { x = list[k][1], y = list[k][2] } }, opts)
        if after then after(m) end
      end
    end
  end
  for _, row in ipairs {
    { "range 4-dir", ranges(square, S, 20) },
    { "range diagonal", ranges(square, S, 20, { diagonal = "one-obstacle" }) },
    { "range rule", ranges(square, S, 20, { blocked = blocked }) },
    { "range hex", ranges(hex, X, 20) },
    { "range size 2", ranges(square, S, 20, { size = 2, diagonal = "one-obstacle" }) },
    { "range + attack", attacks(square, S, 5) },
    { "range + attack hex", attacks(hex, X, 5) },
    { "distanceMap", floods(big, B, { diagonal = "one-obstacle" }) },
    { "distanceMap flee", floods(square, S, nil, function(m) m:flee() end) },
    { "distanceMap hex", floods(hex, X) },
    { "distanceMap size 2", floods(square, S, { size = 2 }) },
    { "findPath hex", paths(hex, X) },
    { "findPath size 2", paths(big, B, { size = 2 }) },
    { "findPath rule", paths(square, S, { blocked = blocked }) },
  } do rows[#rows + 1] = row end
  return rows
end
