-- findPath against an independent Dijkstra (spec/helpers/reference.lua) on seeded
-- random maps with walls and terrain costs, for every diagonal mode and every
-- heuristic that is admissible with it, and for weighted A*.

local astar = require "astar"
local R = require "helpers.reference"

local TOL = 1e-9

local function where(mode, hname, weight, sx, sy, gx, gy)
  return ("%s/%s*%s (%d,%d)->(%d,%d)"):format(mode, hname, tostring(weight), sx, sy, gx, gy)
end

-- Runs one search, either with the grid's setters or with opts that override other
-- settings on the grid, and checks it against the reference distances `dist` (from
-- the start). Returns the cost found (or nil when unreachable).
local function check_search(grid, desc, dist, mode, hname, weight, sx, sy, gx, gy, via_opts)
  local path, cost, extra
  local nres
  if via_opts then
    -- put the grid in some other state; opts must override all of it
    local other = mode == "never" and "always" or "never"
    grid:setDiagonal(other)
    grid:setHeuristic("dijkstra", 7)
    local opts = { diagonal = mode, heuristic = hname }
    if weight ~= 1 then opts.weight = weight end
    nres = select("#", grid:findPath(sx, sy, gx, gy, opts))
    path, cost, extra = grid:findPath(sx, sy, gx, gy, opts)
  else
    grid:setDiagonal(mode)
    grid:setHeuristic(hname, weight)
    nres = select("#", grid:findPath(sx, sy, gx, gy))
    path, cost, extra = grid:findPath(sx, sy, gx, gy)
  end
  local what = where(mode, hname, weight, sx, sy, gx, gy) .. (via_opts and " via opts" or "")
  assert(nres == 2, what .. ": findPath returned " .. nres .. " values")
  assert(extra == nil, what)

  local same = sx == gx and sy == gy
  if same then
    assert.are.same({ { x = sx, y = sy } }, path, what)
    assert.are.equal(0, cost, what)
    return 0
  end
  if not desc.walkable[gx][gy] then
    assert(path == nil, what .. ": expected nil, 'goal is blocked', got a path")
    assert.are.equal("goal is blocked", cost, what)
    return nil
  end
  local best = dist[gx][gy]
  if best == nil then
    assert(path == nil, what .. ": expected nil, 'no path' (the reference cannot reach the goal), got a path")
    assert.are.equal("no path", cost, what)
    return nil
  end
  assert(type(path) == "table", what .. ": expected a path of cost " .. best .. ", got nil, " .. tostring(cost))
  assert(type(cost) == "number", what .. ": cost is a " .. type(cost))
  local walked, why = R.validate(desc, mode, path, sx, sy, gx, gy)
  assert(walked, what .. ": invalid path: " .. tostring(why))
  assert(R.close(walked, cost, TOL),
    ("%s: the path's steps sum to %.17g, findPath returned %.17g"):format(what, walked, cost))
  if weight == 1 then
    assert(R.close(cost, best, TOL), ("%s: cost %.17g, optimal %.17g"):format(what, cost, best))
  else
    assert(cost >= best * (1 - TOL), ("%s: cost %.17g below the optimum %.17g"):format(what, cost, best))
    assert(cost <= weight * best * (1 + TOL) + TOL,
      ("%s: cost %.17g above %s x optimal %.17g"):format(what, cost, tostring(weight), best))
  end
  return cost
end

-- Start/goal pairs for a map: every pair on small maps, a seeded sample otherwise.
-- Includes walls as starts (allowed) and as goals (blocked).
local function pairs_for(rng, desc, nstarts, ngoals)
  local w, h = desc.w, desc.h
  local starts = {}
  if w * h <= nstarts then
    for x = 1, w do for y = 1, h do starts[#starts + 1] = { x, y } end end
  else
    for _ = 1, nstarts do starts[#starts + 1] = { rng.int(1, w), rng.int(1, h) } end
  end
  local out = {}
  for _, s in ipairs(starts) do
    local goals = {}
    if w * h <= ngoals then
      for x = 1, w do for y = 1, h do goals[#goals + 1] = { x, y } end end
    else
      for _ = 1, ngoals do goals[#goals + 1] = { rng.int(1, w), rng.int(1, h) } end
      goals[#goals + 1] = { s[1], s[2] } -- start == goal
    end
    out[#out + 1] = { start = s, goals = goals }
  end
  return out
end

local MAPS = {
  { name = "1x1", w = 1, h = 1, density = 0, seed = 1 },
  { name = "1x1 wall", w = 1, h = 1, density = 1, seed = 2 },
  { name = "1x10", w = 1, h = 10, density = 0.2, seed = 3 },
  { name = "10x1", w = 10, h = 1, density = 0.2, seed = 22 },
  { name = "7x5", w = 7, h = 5, density = 0.25, seed = 5 },
  { name = "7x5 open", w = 7, h = 5, density = 0, seed = 6 },
  { name = "20x20", w = 20, h = 20, density = 0.3, seed = 7, starts = 10, goals = 25 },
  { name = "20x20 sparse", w = 20, h = 20, density = 0.1, seed = 8, starts = 10, goals = 25 },
  { name = "40x25", w = 40, h = 25, density = 0.25, seed = 9, starts = 8, goals = 30 },
  { name = "40x25 dense", w = 40, h = 25, density = 0.4, seed = 10, starts = 8, goals = 30 },
  { name = "40x25 wide costs", w = 40, h = 25, density = 0.2, seed = 11, starts = 8, goals = 30,
    costs = { 0.01, 1, 1, 100, 0.3, 7.5, 1e6 } },
  -- every cost equal (the case where a search may take shortcuts such as jump points)
  { name = "20x20 uniform", w = 20, h = 20, density = 0.3, seed = 13, starts = 10, goals = 25, costs = { 1 } },
  { name = "40x25 uniform 2.5", w = 40, h = 25, density = 0.2, seed = 14, starts = 8, goals = 30, costs = { 2.5 } },
  { name = "33x17 uniform 0.5", w = 33, h = 17, density = 0.35, seed = 15, starts = 8, goals = 30, costs = { 0.5 } },
  { name = "30x30 cheap roads", w = 30, h = 30, density = 0.15, seed = 12, starts = 8, goals = 30,
    costs = { 0.25, 0.25, 0.5, 1, 4 } },
}

local function prepare(spec)
  local rng = R.rng(spec.seed * 7919 + 17)
  local desc = R.random_map(rng, spec.w, spec.h, spec.density, spec.costs)
  local ps = pairs_for(rng, desc, spec.starts or 1e9, spec.goals or 1e9)
  return desc, ps
end

describe("findPath equals the reference Dijkstra", function()
  for _, spec in ipairs(MAPS) do
    local desc, ps = prepare(spec)
    for _, mode in ipairs(R.MODES) do
      it(spec.name .. ", " .. mode .. ", every admissible heuristic", function()
        local grid = R.build_grid(astar, desc)
        local found, unreachable, n = 0, 0, 0
        for _, p in ipairs(ps) do
          local sx, sy = p.start[1], p.start[2]
          local dist = R.dijkstra(desc, mode, sx, sy)
          for gi, g in ipairs(p.goals) do
            for hi, hname in ipairs(R.admissible_heuristics(mode)) do
              n = n + 1
              local via_opts = (gi + hi) % 2 == 0
              local c = check_search(grid, desc, dist, mode, hname, 1, sx, sy, g[1], g[2], via_opts)
              if c then found = found + 1 else unreachable = unreachable + 1 end
            end
          end
        end
        assert(n > 0)
        if spec.w * spec.h > 1 and spec.density > 0 and spec.density < 1 then
          assert(found > 0 and unreachable > 0,
            ("expected both found and unreachable goals: %d found, %d not"):format(found, unreachable))
        end
      end)
    end
  end
end)

describe("weighted A*", function()
  for _, spec in ipairs(MAPS) do
    if spec.w * spec.h >= 35 then
      local desc, ps = prepare(spec)
      it(spec.name .. ": cost within weight x optimal", function()
        local grid = R.build_grid(astar, desc)
        for _, mode in ipairs(R.MODES) do
          local hs = { "octile", "euclidean", "chebyshev" }
          if mode == "never" then hs[#hs + 1] = "manhattan" end
          for pi, p in ipairs(ps) do
            local sx, sy = p.start[1], p.start[2]
            local dist = R.dijkstra(desc, mode, sx, sy)
            for gi, g in ipairs(p.goals) do
              for _, weight in ipairs({ 1.5, 3 }) do
                for _, hname in ipairs(hs) do
                  check_search(grid, desc, dist, mode, hname, weight, sx, sy, g[1], g[2], (pi + gi) % 2 == 0)
                end
              end
            end
          end
        end
      end)
    end
  end
end)

describe("the README's tutorial maps", function()
  local examples = {
    {
      name = "the corridor",
      rows = {
        "S...#.....",
        "..###.....",
        "..###.....",
        "..#.#.....",
        "..#.#.....",
        "..#.#.....",
        "..#.#.....",
        "....#.G...",
        "..........",
        "....#.....",
      },
      start = { 1, 1 }, goal = { 7, 8 },
    },
    {
      name = "the cup",
      rows = {
        "..........",
        "..........",
        "...####...",
        ".S....#.G.",
        "...####...",
        "..........",
        "..........",
      },
      start = { 2, 4 }, goal = { 9, 4 },
    },
  }
  for _, ex in ipairs(examples) do
    local text = table.concat(ex.rows, "\n"):gsub("[SG]", ".")
    -- the S and G markers are where the example says
    assert(ex.rows[ex.start[2]]:sub(ex.start[1], ex.start[1]) == "S")
    assert(ex.rows[ex.goal[2]]:sub(ex.goal[1], ex.goal[1]) == "G")
    local desc = R.parse_string_map(text)
    for _, mode in ipairs(R.MODES) do
      it(ex.name .. " in mode " .. mode, function()
        local grid = astar.fromString(text)
        local sx, sy, gx, gy = ex.start[1], ex.start[2], ex.goal[1], ex.goal[2]
        local dist = R.dijkstra(desc, mode, sx, sy)
        assert(dist[gx][gy], "the reference finds no path")
        -- the default heuristic for the mode
        grid:setDiagonal(mode)
        local path, cost = grid:findPath(sx, sy, gx, gy)
        assert.is_table(path, tostring(cost))
        local walked = assert(R.validate(desc, mode, path, sx, sy, gx, gy))
        assert(R.close(walked, cost, TOL))
        assert(R.close(cost, dist[gx][gy], TOL), ("cost %.17g, optimal %.17g"):format(cost, dist[gx][gy]))
        for _, hname in ipairs(R.admissible_heuristics(mode)) do
          check_search(grid, desc, dist, mode, hname, 1, sx, sy, gx, gy, false)
          check_search(grid, desc, dist, mode, hname, 1, sx, sy, gx, gy, true)
          -- and backwards
          local back = R.dijkstra(desc, mode, gx, gy)
          check_search(grid, desc, back, mode, hname, 1, gx, gy, sx, sy, false)
        end
      end)
    end
  end
end)

describe("a grid edited between searches", function()
  -- Walls and costs change between searches: whatever the library caches (connected
  -- regions, the lowest cost that scales the heuristic, whether every cost is equal)
  -- must follow. Starts uniform (cost 1 everywhere), then cheaper and dearer cells
  -- come and go, and finally every cost goes back to one value.
  for _, size in ipairs({ { 12, 9, 101 }, { 31, 23, 202 } }) do
    local w, h, seed = size[1], size[2], size[3]
    it(("%dx%d, random edits"):format(w, h), function()
      local rng = R.rng(seed)
      local desc = R.random_map(rng, w, h, 0.2, { 1 })
      local grid = R.build_grid(astar, desc)
      local function edit(kind)
        local x, y = rng.int(1, w), rng.int(1, h)
        if kind == "wall" then
          local v = not desc.walkable[x][y]
          desc.walkable[x][y] = v
          grid:setWalkable(x, y, v)
        elseif kind == "cost" then
          local c = rng.pick({ 0.2, 0.5, 1, 2, 5, 0.05 })
          desc.cost[x][y] = c
          grid:setCost(x, y, c)
        elseif kind == "uniform" then
          local c = rng.pick({ 1, 2, 0.5 })
          for xx = 1, w do
            for yy = 1, h do
              desc.cost[xx][yy] = c
              grid:setCost(xx, yy, c)
            end
          end
        end
      end
      local function searches(rounds)
        for _ = 1, rounds do
          local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
          for _, mode in ipairs(R.MODES) do
            local dist = R.dijkstra(desc, mode, sx, sy)
            for _, hname in ipairs(R.admissible_heuristics(mode)) do
              check_search(grid, desc, dist, mode, hname, 1, sx, sy, gx, gy, rng.next() < 0.5)
            end
          end
        end
      end
      searches(6)
      for step = 1, 60 do
        local r = rng.next()
        if r < 0.55 then
          edit("wall")
        elseif r < 0.97 then
          edit("cost")
        else
          edit("uniform")
        end
        if step % 3 == 0 then searches(2) end
      end
      edit("uniform")
      searches(6)
      -- and walls only, with the costs uniform again
      for _ = 1, 30 do
        edit("wall")
        searches(1)
      end
    end)
  end
end)
