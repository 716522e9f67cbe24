-- Costs to the last bit (issue 22): a path reports S + sqrt2 * D, S the
-- entry costs of the cells it enters by straight steps and D of those it
-- enters diagonally, each added up from the start. With whole (or dyadic)
-- costs S and D are exact, and since sqrt 2 is irrational every cheapest path
-- has the same S and D: "auto" (jump point search, with costs too: JPSW) and
-- algorithm = "astar" report the same double, whichever of the equally cheap
-- paths each takes.
--
-- The reference is computed here: a Dijkstra whose distances are the exact
-- pairs (S, D), compared as S + D sqrt 2 with whole numbers only (x + y sqrt 2
-- < 0 decided by the signs and x^2 against 2 y^2), so it knows the cheapest
-- (S, D) with no rounding at all. Every cost must be the reference's S +
-- SQRT2 * D bit for bit, and S + SQRT2 * D recomputed from the returned path
-- too (the path's own pair must be the reference's).
local astar = require "astar"
local R = require "helpers.reference"

local SQRT2 = math.sqrt(2)
local C = astar.backend == "c"

-- Is (s1, d1) cheaper than (s2, d2), exactly? s and d are whole or dyadic
-- and small, so the differences and squares below are exact.
local function less(s1, d1, s2, d2)
  local x, y = s1 - s2, d1 - d2
  if x <= 0 and y <= 0 then return x < 0 or y < 0 end
  if x >= 0 and y >= 0 then return false end
  if x < 0 then return 2 * y * y < x * x end   -- y > 0
  return x * x < 2 * y * y                      -- x > 0, y < 0
end

local DIRS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } }

-- The exact cheapest (S, D) from (sx, sy) to every cell of desc in mode, as
-- S[x][y], D[x][y] (nil: unreachable). price(x, y) is a cell's entry cost
-- (nil: impassable).
local function exact_dijkstra(desc, mode, sx, sy, price)
  local w, h = desc.w, desc.h
  local function open(x, y)
    return x >= 1 and y >= 1 and x <= w and y <= h and desc.walkable[x][y]
  end
  local S, D, done = {}, {}, {}
  for x = 1, w do S[x], D[x], done[x] = {}, {}, {} end
  -- a binary heap of {s, d, x, y}, lazy deletion
  local heap, n = {}, 0
  local function below(a, b) return less(a[1], a[2], b[1], b[2]) end
  local function push(e)
    n = n + 1
    local i = n
    while i > 1 do
      local p = math.floor(i / 2)
      if not below(e, heap[p]) then break end
      heap[i] = heap[p]
      i = p
    end
    heap[i] = e
  end
  local function pop()
    local top, last = heap[1], heap[n]
    heap[n] = nil
    n = n - 1
    local i = 1
    while true do
      local c = 2 * i
      if c > n then break end
      if c < n and below(heap[c + 1], heap[c]) then c = c + 1 end
      if not below(heap[c], last) then break end
      heap[i] = heap[c]
      i = c
    end
    if n > 0 then heap[i] = last end
    return top
  end
  S[sx][sy], D[sx][sy] = 0, 0
  push { 0, 0, sx, sy }
  while n > 0 do
    local e = pop()
    local x, y = e[3], e[4]
    if not done[x][y] then
      done[x][y] = true
      for k = 1, mode == "never" and 4 or 8 do
        local dx, dy = DIRS[k][1], DIRS[k][2]
        local nx, ny = x + dx, y + dy
        local ok = open(nx, ny) and not done[nx][ny]
        if ok and k > 4 then
          local a, b = open(x + dx, y), open(x, y + dy)
          ok = mode == "always" or (mode == "one-obstacle" and (a or b)) or (a and b)
        end
        local p = ok and price(nx, ny)
        if p then
          local s, d = e[1], e[2]
          if k > 4 then d = d + p else s = s + p end
          if S[nx][ny] == nil or less(s, d, S[nx][ny], D[nx][ny]) then
            S[nx][ny], D[nx][ny] = s, d
            push { s, d, nx, ny }
          end
        end
      end
    end
  end
  return S, D
end

-- The pair (S, D) of a returned path, the entered cells priced by price.
local function path_pair(path, price)
  local s, d = 0, 0
  for i = 2, #path do
    local a, b = path[i - 1], path[i]
    if a.x ~= b.x and a.y ~= b.y then d = d + price(b.x, b.y) else s = s + price(b.x, b.y) end
  end
  return s, d
end

local function cells(desc)
  return function(x, y) return desc.cost[x][y] end
end

-- Terrains: patches of cost 2-4 on cost 1 (where auto runs JPSW), every
-- cell 1 (plain jump point search), every cell 3 (jump point search on one
-- cost above 1).
local TERRAINS = {
  patches = function(rng, desc)
    for _ = 1, rng.int(2, 4) do
      local cx, cy, r, c = rng.int(1, desc.w), rng.int(1, desc.h), rng.int(2, 6), rng.int(2, 4)
      R.paint_disc(desc, cx, cy, r, c)
    end
  end,
  -- one small disc on a larger grid: few enough edge cells (4%) for 4 directions
  patch = function(rng, desc)
    local cx, cy, r, c = rng.int(1, desc.w), rng.int(1, desc.h), rng.int(1, 2), rng.int(2, 4)
    R.paint_disc(desc, cx, cy, r, c)
  end,
  uniform = function() end,
  uniform3 = function(_, desc)
    for x = 1, desc.w do
      for y = 1, desc.h do desc.cost[x][y] = 3 end
    end
  end,
}

-- Checks findPath (auto and astar) and a stepped search from (sx, sy) to
-- every goal given against the exact reference. Returns how many of the
-- auto queries ran jump point search.
local function check_queries(grid, desc, mode, sx, sy, goals, extra)
  local price = cells(desc)
  local S, D = exact_dijkstra(desc, mode, sx, sy, price)
  local jps = 0
  for _, g in ipairs(goals) do
    local gx, gy = g[1], g[2]
    local where = ("%s %dx%d (%d,%d)->(%d,%d)"):format(mode, desc.w, desc.h, sx, sy, gx, gy)
    local opts = { diagonal = mode }
    for k, v in pairs(extra or {}) do opts[k] = v end
    local path, cost = grid:findPath(sx, sy, gx, gy, opts)
    if grid:getSearchStats().algorithm == "jps" then jps = jps + 1 end
    opts.algorithm = "astar"
    local apath, acost = grid:findPath(sx, sy, gx, gy, opts)
    if S[gx][gy] == nil or not desc.walkable[gx][gy] then
      assert(path == nil and apath == nil, where .. ": a path to an unreachable goal")
    else
      assert(path and apath, where .. ": no path")
      local want = S[gx][gy] + SQRT2 * D[gx][gy]
      assert(cost == want and acost == want,
        ("%s: auto %.17g, astar %.17g, reference %.17g"):format(where, cost, acost, want))
      assert(R.validate(desc, mode, path, sx, sy, gx, gy))
      assert(R.validate(desc, mode, apath, sx, sy, gx, gy))
      for _, p in ipairs { path, apath } do
        local s, d = path_pair(p, price)
        assert(s == S[gx][gy] and d == D[gx][gy],
          ("%s: the path's S, D %s, %s; the reference's %s, %s"):format(where, s, d, S[gx][gy],
            D[gx][gy]))
        assert.are.equal(s + SQRT2 * d, cost)
      end
      -- a stepped search (newSearch) reports the same bits
      opts.algorithm = nil
      local search = grid:newSearch(sx, sy, gx, gy, opts)
      search:step(math.huge)
      assert.are.equal(cost, select(2, search:result()))
    end
  end
  return jps
end

local function random_goals(rng, desc, count)
  local goals = {}
  for k = 1, count do goals[k] = { rng.int(1, desc.w), rng.int(1, desc.h) } end
  return goals
end

local function random_start(rng, desc)
  local sx, sy = rng.int(1, desc.w), rng.int(1, desc.h)
  while not desc.walkable[sx][sy] do sx, sy = rng.int(1, desc.w), rng.int(1, desc.h) end
  return sx, sy
end

-- The bounded queries' world: a 30x24 map (seed) with patches of costs 2-4;
-- for `rounds` random start and goal pairs, in each of two diagonal modes,
-- each(grid, desc, sx, sy, gx, gy, mode, S, D) with the exact costs from the start.
local function each_bounded_query(seed, rounds, each)
  local rng = R.rng(seed)
  local desc = R.random_map(rng, 30, 24, 0.12, { 1 })
  TERRAINS.patches(rng, desc)
  local grid = R.build_grid(astar, desc)
  local price = cells(desc)
  for _ = 1, rounds do
    local sx, sy = random_start(rng, desc)
    local goal = random_goals(rng, desc, 1)[1]
    for _, mode in ipairs({ "no-obstacles", "always" }) do
      local S, D = exact_dijkstra(desc, mode, sx, sy, price)
      each(grid, desc, sx, sy, goal[1], goal[2], mode, S, D)
    end
  end
end

describe("path costs to the last bit", function()
  for _, case in ipairs { { "patches", "no-obstacles" }, { "patch", "never" },
    { "uniform", "no-obstacles" }, { "uniform", "never" }, { "uniform3", "no-obstacles" },
    { "uniform3", "never" } } do
    local terrain, mode = case[1], case[2]
    it(("are the exact optimum's S + SQRT2 * D, auto and astar alike: %s, %s"):format(
      terrain, mode), function()
      local rng = R.rng(#terrain * 131 + #mode)
      local jps, queries = 0, 0
      for _ = 1, 6 do
        local desc = R.random_map(rng, rng.int(30, 40), rng.int(20, 30),
          rng.pick { 0.05, 0.15, 0.25 }, { 1 })
        TERRAINS[terrain](rng, desc)
        local grid = R.build_grid(astar, desc)
        for _ = 1, 3 do
          local sx, sy = random_start(rng, desc)
          jps = jps + check_queries(grid, desc, mode, sx, sy, random_goals(rng, desc, 8))
          queries = queries + 8
        end
      end
      -- the C module's auto ran jump point search on most of them (the
      -- pure backend: on uniform grids; A* where costs differ)
      if C or terrain:sub(1, 5) ~= "patch" then
        assert(jps >= queries / 4, ("jump point search ran %d times in %d"):format(jps, queries))
      else
        assert.are.equal(0, jps)
      end
    end)
  end

  -- The modes where auto runs A* (corner cutting), and long sweeps.
  for _, mode in ipairs { "always", "one-obstacle" } do
    it("are the exact optimum's S + SQRT2 * D in mode " .. mode, function()
      local rng = R.rng(#mode * 17)
      for _ = 1, 3 do
        local desc = R.random_map(rng, rng.int(16, 30), rng.int(12, 24), 0.2, { 1 })
        TERRAINS.patches(rng, desc)
        local grid = R.build_grid(astar, desc)
        local sx, sy = random_start(rng, desc)
        check_queries(grid, desc, mode, sx, sy, random_goals(rng, desc, 8))
      end
    end)
  end

  it("on long paths: every goal of 64x48 grids #slow", function()
    local rng = R.rng(2222)
    for _, terrain in ipairs { "patches", "uniform" } do
      for _, mode in ipairs { "no-obstacles", "never" } do
        local desc = R.random_map(rng, 64, 48, 0.2, { 1 })
        TERRAINS[terrain](rng, desc)
        local grid = R.build_grid(astar, desc)
        local goals = {}
        for x = 1, desc.w, 3 do
          for y = 1, desc.h, 3 do goals[#goals + 1] = { x, y } end
        end
        local sx, sy = random_start(rng, desc)
        check_queries(grid, desc, mode, sx, sy, goals)
      end
    end
  end)

  -- Every cell one price that no sum keeps exact (0.1, 0.7): the cheapest
  -- paths are those of unit costs (the steps counted exactly, as S and D),
  -- and a path reports the price added from 0 once per straight step, plus
  -- SQRT2 times it added once per diagonal step (0.1 added ten times is
  -- 0.9999999999999999, not 10 * 0.1).
  it("are the price added step by step on a grid of one price", function()
    local function one() return 1 end
    for _, p in ipairs { 0.1, 0.7 } do
      local function added(n)
        local t = 0
        for _ = 1, n do t = t + p end
        return t
      end
      for _, mode in ipairs { "no-obstacles", "never" } do
        local rng = R.rng(#mode * 7 + p * 10)
        local desc = R.random_map(rng, 36, 26, 0.15, { 1 })
        for x = 1, desc.w do
          for y = 1, desc.h do desc.cost[x][y] = p end
        end
        local grid = R.build_grid(astar, desc)
        local sx, sy = random_start(rng, desc)
        local S, D = exact_dijkstra(desc, mode, sx, sy, one)
        local inexact = 0
        for _, g in ipairs(random_goals(rng, desc, 16)) do
          local gx, gy = g[1], g[2]
          if S[gx][gy] and desc.walkable[gx][gy] then
            local want = added(S[gx][gy]) + SQRT2 * added(D[gx][gy])
            if want ~= p * S[gx][gy] + SQRT2 * p * D[gx][gy] then inexact = inexact + 1 end
            for _, algorithm in ipairs { "auto", "astar" } do
              local opts = { diagonal = mode, algorithm = algorithm }
              local path, cost = grid:findPath(sx, sy, gx, gy, opts)
              assert(path and cost == want, ("%s %s p=%s (%d,%d)->(%d,%d): %.17g, want %.17g")
                :format(mode, algorithm, p, sx, sy, gx, gy, cost or -1, want))
              assert(R.validate(desc, mode, path, sx, sy, gx, gy))
              local search = grid:newSearch(sx, sy, gx, gy, opts)
              search:step(math.huge)
              assert.are.equal(want, select(2, search:result()))
            end
          end
        end
        assert(inexact >= 3, ("only %d goals whose sums are not p times the steps"):format(inexact))
      end
    end
  end)

  -- A cost rule prices the cells: the canonical form over its answers.
  it("are S + SQRT2 * D over the prices of opts.cost", function()
    local rng = R.rng(404)
    local desc = R.random_map(rng, 24, 18, 0.15, { 1 })
    TERRAINS.patches(rng, desc)
    local grid = R.build_grid(astar, desc)
    local function rule(x, y) return (x + y) % 3 + 1 end
    local rdesc = { w = desc.w, h = desc.h, walkable = desc.walkable, cost = {} }
    for x = 1, desc.w do
      rdesc.cost[x] = {}
      for y = 1, desc.h do rdesc.cost[x][y] = rule(x, y) end
    end
    local sx, sy = random_start(rng, desc)
    check_queries(grid, rdesc, "no-obstacles", sx, sy, random_goals(rng, desc, 10),
      { cost = rule })
  end)

  -- A unit of size 2 on a uniform grid runs on the grid's layer, by jump
  -- point search under auto: the same bits as A* (each step costs 1 or
  -- sqrt 2, so S and D count them).
  it("are the same bits for a large unit, auto and astar", function()
    local rng = R.rng(77)
    local desc = R.random_map(rng, 40, 30, 0.08, { 1 })
    local grid = R.build_grid(astar, desc)
    local same, found = 0, 0
    for _ = 1, 30 do
      local sx, sy, gx, gy = rng.int(1, 39), rng.int(1, 29), rng.int(1, 39), rng.int(1, 29)
      local opts = { size = 2, diagonal = "no-obstacles" }
      local path, cost = grid:findPath(sx, sy, gx, gy, opts)
      opts.algorithm = "astar"
      local _, acost = grid:findPath(sx, sy, gx, gy, opts)
      assert.are.equal(acost, cost)
      if path then
        found = found + 1
        local s, d = path_pair(path, function() return 1 end)
        if cost == s + SQRT2 * d then same = same + 1 end
      end
    end
    assert(found >= 10, "too few paths: " .. found)
    assert.are.equal(found, same)
  end)

  -- maxCost holds the reported cost: the search adds its steps in its own
  -- order, which may round a bit above the reported S + SQRT2 * D, and must
  -- not drop the path for that. A cost read back as maxCost finds the same
  -- cost; just below it (2^-52 relative), no path.
  it("let a reported cost read back as maxCost find its path, and nothing just below", function()
    local found, rounded_above = 0, 0
    each_bounded_query(505, 25, function(grid, desc, sx, sy, gx, gy, mode, S, D)
      for _, algorithm in ipairs({ "auto", "astar" }) do
        local opts = { diagonal = mode, algorithm = algorithm }
        local path, cost = grid:findPath(sx, sy, gx, gy, opts)
        if path then
          found = found + 1
          assert.are.equal(S[gx][gy] + SQRT2 * D[gx][gy], cost)
          -- the same steps added in path order, as a search adds them
          local inorder = 0
          for i = 2, #path do
            local a, b = path[i - 1], path[i]
            local p = desc.cost[b.x][b.y]
            inorder = inorder + ((a.x ~= b.x and a.y ~= b.y) and SQRT2 * p or p)
          end
          if inorder > cost then rounded_above = rounded_above + 1 end
          opts.maxCost = cost
          local again, again_cost = grid:findPath(sx, sy, gx, gy, opts)
          assert(again, ("maxCost %.17g: no path (%s)"):format(cost, tostring(again_cost)))
          assert.are.equal(cost, again_cost)
          opts.maxCost = cost - cost * 2 ^ -52
          local none, why = grid:findPath(sx, sy, gx, gy, opts)
          assert.are.same({ nil, "no path" }, { none, why })
        end
      end
    end)
    assert(found >= 60, "too few paths: " .. found)
    assert(rounded_above >= 5, "too few paths whose steps in order add up above: " .. rounded_above)
  end)

  -- The same for a partial path: with maxCost just below the goal's cost, the
  -- cells that cost as much as the goal are out of reach too, though the
  -- search's g for them may round to within its margin. The path ends at the
  -- reached cell closest to the goal (octile distance, compared exactly as a
  -- pair: max - min + sqrt2 * min), ties to the cheaper, with its cost.
  it("hold a partial path's reported cost to maxCost too", function()
    local checked, beside = 0, 0
    each_bounded_query(707, 20, function(grid, desc, sx, sy, gx, gy, mode, S, D)
      if not S[gx][gy] or (gx == sx and gy == sy) then return end
      local goal_cost = S[gx][gy] + SQRT2 * D[gx][gy]
      local budget = goal_cost - goal_cost * 2 ^ -52
      -- the reference: every cell whose reported cost is within budget
      local best, ties_goal_cost = nil, false
      for x = 1, desc.w do
        for y = 1, desc.h do
          if S[x][y] then
            local cost = S[x][y] + SQRT2 * D[x][y]
            local dx, dy = math.abs(x - gx), math.abs(y - gy)
            local far, near = math.max(dx, dy) - math.min(dx, dy), math.min(dx, dy)
            if cost <= budget then
              if not best or less(far, near, best.far, best.near)
                or (far == best.far and near == best.near and cost < best.cost) then
                best = { far = far, near = near, cost = cost, cells = {} }
              end
              if far == best.far and near == best.near and cost == best.cost then
                best.cells[x .. "," .. y] = true
              end
            elseif cost == goal_cost and (x ~= gx or y ~= gy) then
              ties_goal_cost = true
            end
          end
        end
      end
      local path, cost, reached = grid:findPath(sx, sy, gx, gy,
        { diagonal = mode, maxCost = budget, partial = true })
      assert(path, "no partial path")
      assert.is_false(reached)
      local last = path[#path]
      assert(best.cells[last.x .. "," .. last.y],
        ("from (%d, %d) to (%d, %d), %s: ends at (%d, %d), cost %.17g, not at %s, cost %.17g")
          :format(sx, sy, gx, gy, mode, last.x, last.y, cost, next(best.cells), best.cost))
      assert.are.equal(best.cost, cost)
      checked = checked + 1
      if ties_goal_cost then beside = beside + 1 end
    end)
    assert(checked >= 25, "too few queries: " .. checked)
    assert(beside >= 10, "too few queries with other cells of the goal's cost: " .. beside)
  end)
end)
