-- Jump point search on weighted grids (issue 22): with "auto", a square grid
-- whose cells differ in cost runs jump point search (jps.c with terrain.h's
-- rules): in 8 directions without corner cutting, its jumps stopping where
-- the prices force a neighbour, where edge cells (a walkable neighbour of
-- another cost) are at most 25% of the walkable cells; in 4 directions, its
-- jumps stopping on every edge cell, where they are at most 4%; A*
-- elsewhere. Every cost is
-- checked against the independent reference (helpers/reference.lua's
-- Dijkstra) and against algorithm = "astar"; every path is walked by the
-- reference's validator. In 4 directions with costs that are sums of powers
-- of two every sum is exact, so costs are compared to the last bit; with
-- diagonals the reference adds its sqrt(2) steps as it goes, so it agrees to
-- 1e-12, while auto and A* agree to the last bit (a path reports S + sqrt2 *
-- D, the same for every cheapest path: canonical_costs_spec.lua).
-- The pure-Lua backend runs A* on weighted grids: the same costs, and the
-- path may be another of the equally cheap ones.
local astar = require "astar"
local R = require "helpers.reference"

local SQRT2 = math.sqrt(2)
local C = astar.backend == "c"

-- Cost patterns on a w x h description (every cell 1 before): the kinds of
-- terrain a game paints.
local PATTERNS = {
  -- one or two discs of cost 2-4 (forest, swamp)
  patches = function(rng, desc)
    for _ = 1, rng.int(1, 2) do
      local cx, cy, r, c = rng.int(1, desc.w), rng.int(1, desc.h), rng.int(1, 6), rng.int(2, 4)
      R.paint_disc(desc, cx, cy, r, c)
    end
  end,
  -- a block of cost 3 over part of the map, a road of cost 0.5 across it
  blocks = function(rng, desc)
    local x0, y0 = rng.int(1, desc.w), rng.int(1, desc.h)
    local road = rng.int(1, desc.h)
    for x = 1, desc.w do
      for y = 1, desc.h do
        if x >= x0 and y >= y0 then desc.cost[x][y] = 3 end
        if y == road then desc.cost[x][y] = 0.5 end
      end
    end
  end,
  -- every cell 2, a few single cells of another cost
  singles = function(rng, desc)
    for x = 1, desc.w do
      for y = 1, desc.h do desc.cost[x][y] = 2 end
    end
    for _ = 1, rng.int(1, 12) do
      desc.cost[rng.int(1, desc.w)][rng.int(1, desc.h)] = rng.pick { 0.5, 1, 1.25, 3, 4 }
    end
  end,
  -- a cost drawn for every cell: edges everywhere, auto runs A*
  noise = function(rng, desc)
    for x = 1, desc.w do
      for y = 1, desc.h do desc.cost[x][y] = rng.pick { 1, 2, 3, 0.5 } end
    end
  end,
}
local ORDER = { "patches", "blocks", "singles", "noise" }

local function random_desc(rng, pattern)
  local w, h = rng.int(8, 48), rng.int(8, 36)
  local desc = R.random_map(rng, w, h, rng.pick { 0, 0.05, 0.15, 0.25 }, { 1 })
  PATTERNS[pattern](rng, desc)
  return desc
end

-- Checks one query against the reference's costs from its start (dist) and
-- against A*: the same cost, a valid path of that cost, and the same answer
-- when there is none. Returns the algorithm auto ran, or nil.
local function check_query(grid, desc, mode, dist, sx, sy, gx, gy)
  local path, cost = grid:findPath(sx, sy, gx, gy, { diagonal = mode })
  local ran = grid:getSearchStats().algorithm
  local apath, acost = grid:findPath(sx, sy, gx, gy, { diagonal = mode, algorithm = "astar" })
  local best = dist[gx] and dist[gx][gy]
  local where = ("%s %dx%d (%d,%d)->(%d,%d)"):format(mode, desc.w, desc.h, sx, sy, gx, gy)
  if not desc.walkable[gx][gy] and not (sx == gx and sy == gy) then
    assert.are.same({ nil, "goal is blocked" }, { path, cost })
  elseif best == nil then
    assert.are.same({ nil, "no path" }, { path, cost })
    assert.are.same({ nil, "no path" }, { apath, acost })
  else
    assert(path, where .. ": no path")
    if mode == "never" then
      assert(cost == best and cost == acost,
        ("%s: cost %.17g, reference %.17g, A* %.17g"):format(where, cost, best, acost))
    else
      assert(R.close(cost, best, 1e-12) and cost == acost,
        ("%s: cost %.17g, reference %.17g, A* %.17g"):format(where, cost, best, acost))
    end
    local walked, why = R.validate(desc, mode, path, sx, sy, gx, gy)
    assert(walked, why)
    assert(R.close(walked, cost, 1e-12), where .. ": the path costs another amount")
  end
  return ran
end

describe("jump point search on weighted grids", function()
  for _, mode in ipairs { "no-obstacles", "never", "one-obstacle", "always" } do
    it("gives the reference's costs on generated terrain, diagonal " .. mode, function()
      local rng = R.rng(#mode * 7919)
      local jps, queries = { patches = 0, blocks = 0, singles = 0, noise = 0 }, 0
      for round = 1, 16 do
        local pattern = ORDER[(round - 1) % #ORDER + 1]
        local desc = random_desc(rng, pattern)
        local grid = R.build_grid(astar, desc)
        for _ = 1, 3 do
          local sx, sy = rng.int(1, desc.w), rng.int(1, desc.h)
          local dist = R.dijkstra(desc, mode, sx, sy)
          for _ = 1, 6 do
            local gx, gy = rng.int(1, desc.w), rng.int(1, desc.h)
            if check_query(grid, desc, mode, dist, sx, sy, gx, gy) == "jps" then
              jps[pattern] = jps[pattern] + 1
            end
            queries = queries + 1
          end
        end
      end
      assert.are.equal(16 * 18, queries)
      -- auto's choice (C module): jump point search with costs where edge
      -- cells are at most 25% (8 directions) or 4% (4 directions) of the
      -- walkable cells, so never on noise and not always on small maps; A*
      -- in the other modes and on the pure backend
      if C and (mode == "no-obstacles" or mode == "never") then
        assert.are.equal(0, jps.noise)
        assert(jps.patches + jps.blocks + jps.singles >= (mode == "never" and 30 or 120),
          ("jps ran %d, %d, %d times"):format(jps.patches, jps.blocks, jps.singles))
      else
        assert.are.same({ patches = 0, blocks = 0, singles = 0, noise = 0 }, jps)
      end
    end)
  end

  -- The edges follow every setCost and setWalkable (terrain.c's hook): costs
  -- and walls change between queries, and every answer is checked again.
  for _, mode in ipairs { "no-obstacles", "never" } do
    it("stays exact while costs and walls change, diagonal " .. mode, function()
      local rng = R.rng(mode == "never" and 2207 or 7022)
      local desc = random_desc(rng, "patches")
      local w, h = desc.w, desc.h
      local grid = R.build_grid(astar, desc)
      for _ = 1, 30 do
        for _ = 1, 4 do
          local x, y = rng.int(1, w), rng.int(1, h)
          if rng.int(1, 3) == 1 then
            desc.walkable[x][y] = not desc.walkable[x][y]
            grid:setWalkable(x, y, desc.walkable[x][y])
          else
            desc.cost[x][y] = rng.pick { 1, 1, 2, 4 }
            grid:setCost(x, y, desc.cost[x][y])
          end
        end
        local sx, sy = rng.int(1, w), rng.int(1, h)
        local dist = R.dijkstra(desc, mode, sx, sy)
        for _ = 1, 3 do
          check_query(grid, desc, mode, dist, sx, sy, rng.int(1, w), rng.int(1, h))
        end
      end
    end)
  end

  -- Dense patch borders (make bench-jpsw's kind of map, small): there a
  -- diagonal jump with costs goes on through cells it does not queue,
  -- offering what their straight scans find, up to a window above the f
  -- being expanded (jps.c, diagonal_priced), and the path is read back
  -- through those cells (search_record.c). Long queries across many discs,
  -- near goals, every answer checked against the reference and A*, every
  -- path walked. The long sweep is #slow.
  local function dense_desc(rng)
    local w, h = rng.int(16, 64), rng.int(16, 48)
    local desc = R.random_map(rng, w, h, rng.pick { 0, 0, 0.03, 0.08 }, { 1 })
    for _ = 1, rng.int(3, 12) do
      local cx, cy, r = rng.int(1, w), rng.int(1, h), rng.int(1, 7)
      local c = rng.pick { 2, 3, 4, 1.5, 0.5 }
      for x = math.max(1, cx - r), math.min(w, cx + r) do
        for y = math.max(1, cy - r), math.min(h, cy + r) do
          if (x - cx) ^ 2 + (y - cy) ^ 2 <= r * r then desc.cost[x][y] = c end
        end
      end
    end
    return desc
  end

  local function dense_sweep(seed, grids)
    local rng = R.rng(seed)
    local jps = 0
    for _ = 1, grids do
      local desc = dense_desc(rng)
      local grid = R.build_grid(astar, desc)
      for _ = 1, 2 do
        local sx, sy = rng.int(1, desc.w), rng.int(1, desc.h)
        local dist = R.dijkstra(desc, "no-obstacles", sx, sy)
        local goals = { { desc.w + 1 - sx, desc.h + 1 - sy } }
        for _ = 1, 4 do goals[#goals + 1] = { rng.int(1, desc.w), rng.int(1, desc.h) } end
        for _, g in ipairs(goals) do
          if check_query(grid, desc, "no-obstacles", dist, sx, sy, g[1], g[2]) == "jps" then
            jps = jps + 1
          end
          local _, cost = grid:findPath(sx, sy, g[1], g[2], { near = 1 })
          local _, acost = grid:findPath(sx, sy, g[1], g[2], { near = 1, algorithm = "astar" })
          assert(cost == acost or R.close(cost, acost, 1e-12),
            ("near 1: %s, A* %s"):format(tostring(cost), tostring(acost)))
        end
      end
    end
    return jps
  end

  it("gives the reference's costs across dense patch borders, 8 directions", function()
    local jps = dense_sweep(2211, 10)
    if C then assert(jps >= 40, "jps ran " .. jps .. " times") end
  end)

  it("gives the reference's costs across dense patch borders, long sweep #slow", function()
    local jps = dense_sweep(4422, 200)
    if C then assert(jps >= 800, "jps ran " .. jps .. " times") end
  end)

  -- Terrain that changes every few cells runs A*; repainted into patches it
  -- runs jump point search from the next query on (C), exact both times.
  it("follows the share of edge cells as the terrain is repainted", function()
    local rng = R.rng(31)
    local desc = R.random_map(rng, 40, 30, 0.1, { 1 })
    PATTERNS.noise(rng, desc)
    local grid = R.build_grid(astar, desc)
    local dist = R.dijkstra(desc, "no-obstacles", 1, 1)
    assert.are.equal("astar", check_query(grid, desc, "no-obstacles", dist, 1, 1, 40, 30))
    for x = 1, 40 do
      for y = 1, 30 do
        desc.cost[x][y] = (x - 20) ^ 2 + (y - 15) ^ 2 <= 36 and 3 or 1
        grid:setCost(x, y, desc.cost[x][y])
      end
    end
    for _, goal in ipairs { { 40, 30 }, { 20, 15 }, { 35, 2 } } do
      dist = R.dijkstra(desc, "no-obstacles", 1, 1)
      assert.are.equal(C and "jps" or "astar",
        check_query(grid, desc, "no-obstacles", dist, 1, 1, goal[1], goal[2]))
    end
  end)

  -- A query's own walls are not in the stop lines of 8 directions: A* runs,
  -- and the answer is the reference's on the grid with those walls.
  it("gives the reference's costs with a query's own walls", function()
    local rng = R.rng(99)
    for _ = 1, 6 do
      local desc = random_desc(rng, "patches")
      local grid = R.build_grid(astar, desc)
      local list, listed = {}, {}
      for _ = 1, 8 do
        local x, y = rng.int(1, desc.w), rng.int(1, desc.h)
        list[#list + 1] = { x = x, y = y }
        listed[x .. "," .. y] = true
        desc.walkable[x][y] = false
      end
      for _ = 1, 4 do
        local sx, sy = rng.int(1, desc.w), rng.int(1, desc.h)
        while listed[sx .. "," .. sy] do sx, sy = rng.int(1, desc.w), rng.int(1, desc.h) end
        local gx, gy = rng.int(1, desc.w), rng.int(1, desc.h)
        local dist = R.dijkstra(desc, "no-obstacles", sx, sy)
        local path, cost = grid:findPath(sx, sy, gx, gy, { blocked = list })
        assert.are.equal("astar", grid:getSearchStats().algorithm)
        local best = dist[gx] and dist[gx][gy]
        if best and desc.walkable[gx][gy] and not (sx == gx and sy == gy) then
          assert(path and R.close(cost, best, 1e-12), ("cost %s, reference %.17g"):format(
            tostring(cost), best))
        elseif not (sx == gx and sy == gy) then
          assert.is_nil(path)
        end
      end
    end
  end)

  local function cells(path)
    local out = {}
    for i, p in ipairs(path) do out[i] = p.x .. "," .. p.y end
    return table.concat(out, " ")
  end

  -- Cases with one cheapest path: the same path as A*, the cost to the last
  -- bit (S + sqrt2 * D: the straight and the diagonal prices apart). Each lies in
  -- the top rows of a 60x12 grid, closed off by a wall row, so that its edge
  -- cells are few enough for auto to run jump point search.
  local function board(rows)
    local grid = astar.new(60, 12)
    for x = 1, 60 do grid:setWalkable(x, #rows + 1, false) end
    for y, row in ipairs(rows) do
      for x = 1, #row do
        local ch = row:sub(x, x)
        if ch == "#" then grid:setWalkable(x, y, false)
        elseif ch ~= "." then grid:setCost(x, y, ch == "r" and 0.5 or tonumber(ch)) end
      end
    end
    return grid
  end

  local function ran_jps(grid)
    assert.are.equal(C and "jps" or "astar", grid:getSearchStats().algorithm)
  end

  it("finds the one cheapest path around a swamp, 8 directions", function()
    local grid = board { ".......", ".33333.", ".22222." }
    local path, cost = grid:findPath(1, 2, 7, 2)
    ran_jps(grid)
    assert.are.equal("1,2 2,1 3,1 4,1 5,1 6,1 7,2", cells(path))
    assert.are.equal(1 + 1 + 1 + 1 + SQRT2 * 2, cost)
    local _, acost = grid:findPath(1, 2, 7, 2, { algorithm = "astar" })
    assert.are.equal(acost, cost)
  end)

  it("finds the one cheapest path around a swamp, 4 directions", function()
    local grid = board { ".....", ".444.", ".222." }
    local path, cost = grid:findPath(1, 2, 5, 2, { diagonal = "never" })
    ran_jps(grid)
    assert.are.equal("1,2 1,1 2,1 3,1 4,1 5,1 5,2", cells(path))
    assert.are.equal(6, cost)
  end)

  it("takes a road of cost 0.5 between walls", function()
    local grid = board { "#########", ".rrrrrrr.", "#########" }
    for _, mode in ipairs { "no-obstacles", "never" } do
      local path, cost = grid:findPath(1, 2, 9, 2, { diagonal = mode })
      ran_jps(grid)
      assert.are.equal("1,2 2,2 3,2 4,2 5,2 6,2 7,2 8,2 9,2", cells(path))
      assert.are.equal(7 * 0.5 + 1, cost)
    end
  end)
end)
