-- Jump point search (opts.algorithm = "jps" / "auto" / "astar"): exact optimal costs
-- on every scenario of every Moving AI map (maps/ or $ASTAR_MAPS; on LuaJIT an even
-- spread of each, see LIMIT), the same
-- costs as A* on generated maps in both supported diagonal modes, full cell-by-cell
-- paths (checked step by step by the validator below), option errors.
local astar = require "astar"
local R = require "helpers.reference"

local SQRT2 = math.sqrt(2)

local read = R.read_map_file

-- Both backends run jump point search (the pure one: lua/astar/pure/jps.lua, a
-- port of jps.c). The C backend takes every scenario of every map; the pure-Lua
-- backend an even spread of FALLBACK_SAMPLE a map here, and of SLOW_SAMPLE in the
-- #slow sweep below, where it is held to the C module's path, cost and jump
-- points query by query when the module loads.
-- LuaJIT runs the same C core a second time (only the binding's Lua differs), so
-- there the C backend takes an even spread of at most 2000 scenarios a map (the
-- maze's 12,120 are two minutes); Lua 5.x runs every one.
local PURE = astar.backend ~= "c"
local FALLBACK_SAMPLE = 40
local SLOW_SAMPLE = 400
local LIMIT = PURE and FALLBACK_SAMPLE or jit and 2000 or math.huge
local core_loaded, core = pcall(require, "astar.core")
if not core_loaded then core = nil end

local function sample(list, limit)
  limit = limit or LIMIT
  if #list <= limit then return list end
  local out = {}
  for i = 1, limit do
    out[i] = list[math.floor((i - 1) * #list / limit) + 1]
  end
  return out
end

-- Every map of maps/README.md with its scenario file and tolerance.
local function tol_8(len) return 1e-6 * math.max(1, len) end
local function tol_arena(len) return math.max(1e-4, 1e-5 * len) end
local MAPS = {
  { map = "arena.map", scen = "arena.map.scen", tol = tol_arena },
  { map = "den312d.map", scen = "den312d-random-1.scen", tol = tol_8 },
  { map = "random-32-32-10.map", scen = "random-32-32-10-random-1.scen", tol = tol_8 },
  { map = "ost003d.map", scen = "ost003d-random-1.scen", tol = tol_8 },
  { map = "brc202d.map", scen = "brc202d-random-1.scen", tol = tol_8 },
  { map = "AR0011SR.map", scen = "AR0011SR.map.scen", tol = tol_8 },
  { map = "maze512-1-0.map", scen = "maze512-1-0.map.scen", tol = tol_8 },
  { map = "8room_000.map", scen = "8room_000.map.scen", tol = tol_8 },
  { map = "random512-10-0.map", scen = "random512-10-0.map.scen", tol = tol_8 },
}

local function scenarios(text)
  local list = {}
  for line in text:gmatch("[^\r\n]+") do
    local f = {}
    for field in line:gmatch("[^\t]+") do f[#f + 1] = field end
    if #f == 9 then
      list[#list + 1] = {
        sx = tonumber(f[5]) + 1, sy = tonumber(f[6]) + 1,
        gx = tonumber(f[7]) + 1, gy = tonumber(f[8]) + 1, len = tonumber(f[9]),
      }
    end
  end
  return list
end

-- The validator: walks path step by step on a walkability function walk(x, y) and
-- a uniform cell cost, and returns the path's cost or nil and what is wrong.
-- Rules: "never" = 4 neighbours; "no-obstacles" = 8, a diagonal step needs both
-- orthogonal cells it passes walkable. The start's own walkability is not checked.
local function path_cost(walk, w, h, unit, mode, path, sx, sy, gx, gy)
  if type(path) ~= "table" or #path < 1 then return nil, "no path table" end
  if path[1].x ~= sx or path[1].y ~= sy then return nil, "does not start at the start" end
  local last = path[#path]
  if last.x ~= gx or last.y ~= gy then return nil, "does not end at the goal" end
  local total = 0
  for i = 2, #path do
    local a, b = path[i - 1], path[i]
    if b.x < 1 or b.x > w or b.y < 1 or b.y > h then return nil, "step " .. i .. " leaves the grid" end
    local dx, dy = b.x - a.x, b.y - a.y
    local adx, ady = math.abs(dx), math.abs(dy)
    if adx > 1 or ady > 1 or adx + ady == 0 then return nil, "step " .. i .. " is not a move" end
    if not walk(b.x, b.y) then return nil, "step " .. i .. " enters a wall" end
    if adx + ady == 2 then
      if mode == "never" then return nil, "step " .. i .. " is diagonal" end
      if not (walk(a.x + dx, a.y) and walk(a.x, a.y + dy)) then
        return nil, "step " .. i .. " cuts a corner"
      end
      total = total + SQRT2 * unit
    else
      total = total + unit
    end
  end
  return total
end

-- walk(x, y) for a Moving AI map's text.
local function map_walk(text)
  local rows, h, w = {}, nil, nil
  local i = 0
  for line in text:gmatch("[^\r\n]+") do
    i = i + 1
    if i == 2 then h = tonumber(line:match("height (%d+)")) end
    if i == 3 then w = tonumber(line:match("width (%d+)")) end
    if i > 4 then rows[#rows + 1] = line end
  end
  local passable = { ["."] = true, G = true, S = true }
  local open = {}
  for y = 1, h do
    open[y] = {}
    local row = rows[y]
    for x = 1, w do open[y][x] = passable[row:sub(x, x)] == true end
  end
  return function(x, y) return open[y][x] end, w, h
end

-- Every scenario of list on map m (text) has its optimal length and a valid full
-- path; with `twin` (the C module's grid of the same map) the same path, cost and
-- expansions as the C module's.
local function sweep(m, text, list, twin)
  local grid = astar.fromMovingAI(text)
  local walk, w, h = map_walk(text)
  assert.is_true(#list > 0)
  for i, sc in ipairs(list) do
    local opts = { algorithm = "jps", diagonal = "no-obstacles" }
    local path, cost = grid:findPath(sc.sx, sc.sy, sc.gx, sc.gy, opts)
    assert(path, ("scenario %d: %s"):format(i, tostring(cost)))
    if math.abs(cost - sc.len) > m.tol(sc.len) then
      error(("scenario %d: cost %.8f, optimal %.8f"):format(i, cost, sc.len))
    end
    local walked, why = path_cost(walk, w, h, 1, "no-obstacles", path, sc.sx, sc.sy, sc.gx, sc.gy)
    assert(walked, ("scenario %d: %s"):format(i, tostring(why)))
    assert(R.close(walked, cost), ("scenario %d: the path costs %.9f, not %.9f"):format(i, walked, cost))
    if twin then
      local expanded = grid:getSearchStats().expanded
      local c_path, c_cost = twin:findPath(sc.sx, sc.sy, sc.gx, sc.gy, opts)
      assert.are.same(c_path, path)
      assert.are.equal(c_cost, cost)
      assert.are.equal(twin:getSearchStats().expanded, expanded)
    end
  end
end

describe("jump point search on the Moving AI maps", function()
  for _, m in ipairs(MAPS) do
    it("returns every scenario's optimal length with a valid full path: " .. m.map, function()
      local text = read(m.map)
      sweep(m, text, sample(scenarios(read(m.scen))), PURE and core and core.fromMovingAI(text))
    end)
  end

  -- the pure backend on ten times as many scenarios (#slow: make soak)
  for _, m in ipairs(MAPS) do
    it("#slow returns the C module's paths on a wider spread (pure backend): " .. m.map, function()
      if not PURE then return end
      local text = read(m.map)
      sweep(m, text, sample(scenarios(read(m.scen)), SLOW_SAMPLE), core and core.fromMovingAI(text))
    end)
  end

  it("reports its own (far fewer) expansions in getSearchStats", function()
    local grid = astar.fromMovingAI(read("AR0011SR.map"))
    local list = scenarios(read("AR0011SR.map.scen"))
    local sc = list[#list]                  -- the longest bucket
    grid:findPath(sc.sx, sc.sy, sc.gx, sc.gy, { algorithm = "astar" })
    local a = grid:getSearchStats().expanded
    grid:findPath(sc.sx, sc.sy, sc.gx, sc.gy, { algorithm = "jps" })
    local j = grid:getSearchStats().expanded
    grid:findPath(sc.sx, sc.sy, sc.gx, sc.gy)
    local auto = grid:getSearchStats().expanded
    assert.is_true(j > 0)
    assert.is_true(j * 10 < a, ("jps expanded %d, A* %d"):format(j, a))
    assert.are.equal(j, auto)               -- auto ran JPS
  end)
end)

describe("jump point search on generated maps", function()
  -- walk(x, y) from a reference description
  local function desc_walk(desc)
    return function(x, y) return desc.walkable[x][y] end
  end

  for _, mode in ipairs { "no-obstacles", "never" } do
    it("costs exactly what A* and the reference cost, diagonal " .. mode, function()
      local rng = R.rng(mode == "never" and 515 or 808)
      local checked = 0
      for _ = 1, 60 do
        local w, h = rng.int(1, 70), rng.int(1, 40)
        local density = rng.pick { 0, 0.1, 0.2, 0.3, 0.4, 0.5 }
        local unit = rng.pick { 1, 1, 2.5, 0.5 }
        local desc = R.random_map(rng, w, h, density, { unit })
        local grid = R.build_grid(astar, desc)
        local walk = desc_walk(desc)
        for _ = 1, 6 do
          -- the start may be a wall: a unit stands on it
          local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
          local dist = R.dijkstra(desc, mode, sx, sy)
          local opts = { diagonal = mode, algorithm = "jps" }
          local jp, jc = grid:findPath(sx, sy, gx, gy, opts)
          opts.algorithm = "astar"
          local ap, ac = grid:findPath(sx, sy, gx, gy, opts)
          local best = dist[gx] and dist[gx][gy]
          if not desc.walkable[gx][gy] and not (sx == gx and sy == gy) then
            assert.are.same({ nil, "goal is blocked" }, { jp, jc })
          elseif best == nil then
            assert.are.same({ nil, "no path" }, { jp, jc })
            assert.are.same({ nil, "no path" }, { ap, ac })
          else
            assert(jp, "jps found no path")
            assert(R.close(jc, ac), ("jps %.12g, A* %.12g"):format(jc, ac))
            assert(R.close(jc, best), ("jps %.12g, reference %.12g"):format(jc, best))
            local walked, why = path_cost(walk, w, h, unit, mode, jp, sx, sy, gx, gy)
            assert(walked, why)
            assert(R.close(walked, jc))
            checked = checked + 1
          end
        end
      end
      assert.is_true(checked > 150)
    end)
  end

  -- The C core keeps each line's scan-stop bits up to date on every setWalkable,
  -- 64 cells per word: walls are changed next to the word edges (columns and rows
  -- 63-64 and 127-128) and anywhere, and every answer is checked again.
  for _, mode in ipairs { "no-obstacles", "never" } do
    it("stays exact while walls change next to 64-cell word edges, diagonal " .. mode, function()
      local rng = R.rng(mode == "never" and 4242 or 2424)
      local w, h = 140, 135
      local desc = R.random_map(rng, w, h, 0.3, { 1 })
      local grid = R.build_grid(astar, desc)
      local walk = desc_walk(desc)
      local EDGES = { 62, 63, 64, 65, 126, 127, 128, 129 }
      local function coord(limit)
        if rng.int(1, 3) == 1 then return rng.int(1, limit) end
        return rng.pick(EDGES)
      end
      local found = 0
      for round = 1, 60 do
        for _ = 1, 8 do
          local x, y = coord(w), coord(h)
          local v = not desc.walkable[x][y]
          desc.walkable[x][y] = v
          grid:setWalkable(x, y, v)
        end
        local sx, sy, gx, gy = coord(w), coord(h), coord(w), coord(h)
        local opts = { diagonal = mode, algorithm = "jps" }
        local jp, jc = grid:findPath(sx, sy, gx, gy, opts)
        opts.algorithm = "astar"
        local ap, ac = grid:findPath(sx, sy, gx, gy, opts)
        if not ap then
          assert.are.same({ nil, ac }, { jp, jc })
        else
          assert(jp, ("round %d: jps found no path, A* %.12g"):format(round, ac))
          assert(R.close(jc, ac), ("round %d: jps %.12g, A* %.12g"):format(round, jc, ac))
          local walked, why = path_cost(walk, w, h, 1, mode, jp, sx, sy, gx, gy)
          assert(walked, why)
          assert(R.close(walked, jc))
          found = found + 1
        end
        if round % 6 == 0 then               -- and both against the reference
          local best = R.dijkstra(desc, mode, sx, sy)[gx][gy]
          if desc.walkable[gx][gy] or (sx == gx and sy == gy) then
            assert.are.equal(best ~= nil, ap ~= nil)
            if best then assert(R.close(ac, best), ("A* %.12g, reference %.12g"):format(ac, best)) end
          end
        end
      end
      assert.is_true(found > 20, "only " .. found .. " paths")
    end)
  end
end)

-- The jump rules case by case on one small map: the exact cells of the path, the
-- jump points expanded (the same on both backends: the pure one runs jps.c's rules
-- in the same order) and, where the C module loads beside the pure backend, its
-- answer; the cost against the reference's optimum (Dijkstra, helpers/reference).
describe("jump point search's rules, exact", function()
  local TEXT = table.concat({
    "..........",
    "..........",
    "....#.....",
    "....#.....",
    "..........",
    "......#...",
  }, "\n")
  local desc = R.parse_string_map(TEXT)

  local function cells(list)
    local out = {}
    for i, p in ipairs(list) do out[i] = { p.x, p.y } end
    return out
  end

  -- the optimum to the nearest cell within near of a goal (Chebyshev in 8
  -- directions, Manhattan in 4)
  local function optimum(mode, sx, sy, goals, near)
    local dist, best = R.dijkstra(desc, mode, sx, sy), nil
    for x = 1, desc.w do
      for y = 1, desc.h do
        for _, g in ipairs(goals) do
          local dx, dy = math.abs(x - g[1]), math.abs(y - g[2])
          local within = mode == "never" and dx + dy <= near or math.max(dx, dy) <= near
          local d = dist[x] and dist[x][y]
          if within and d and (best == nil or d < best) then best = d end
        end
      end
    end
    return best
  end

  -- findPath and a stepped search (one expansion a step) of the case: path,
  -- cost, reached goal, expansions and the expanded cells, against expected
  -- and the C module's; the cost against the reference.
  local function check(case)
    local mode = case.opts.diagonal or "no-obstacles"
    local goals = case.goals or { { case.gx, case.gy } }
    local list
    if case.goals then
      list = {}
      for i, g in ipairs(case.goals) do list[i] = { x = g[1], y = g[2] } end
    end
    local function run(module)
      local grid = module.fromString(TEXT)
      local path, cost, reached
      if list then
        path, cost, reached = grid:findPath(case.sx, case.sy, list, case.opts)
      else
        path, cost, reached = grid:findPath(case.sx, case.sy, case.gx, case.gy, case.opts)
      end
      local expanded = grid:getSearchStats().expanded
      local search
      if list then
        search = grid:newSearch(case.sx, case.sy, list, case.opts)
      else
        search = grid:newSearch(case.sx, case.sy, case.gx, case.gy, case.opts)
      end
      while search:step(1) == "searching" do end
      local spath, scost = search:result()
      assert.are.same(cells(path), cells(spath))
      assert.are.equal(cost, scost)
      return { path = cells(path), cost = cost, reached = reached, expanded = expanded,
        stepped = search:getStats().expanded, cells = cells(search:getExpanded()) }
    end
    local got = run(astar)
    assert.are.same(case.path, got.path)
    assert.are.equal(case.expanded, got.expanded)
    assert.are.equal(case.expanded, got.stepped)
    assert.are.same(case.cells, got.cells)
    assert.are.equal(case.reached, got.reached)
    assert(R.close(got.cost, optimum(mode, case.sx, case.sy, goals, case.opts.near or 0)))
    if PURE and core then assert.are.same(run(core), got) end
  end

  it("stops a straight run at a forced neighbour (8 directions)", function()
    -- east along row 2, (6, 2) has (6, 3) open where (5, 3) is a wall
    check { sx = 1, sy = 4, gx = 9, gy = 2, opts = {},
      path = { { 1, 4 }, { 2, 3 }, { 3, 2 }, { 4, 2 }, { 5, 2 }, { 6, 2 }, { 7, 2 }, { 8, 2 }, { 9, 2 } },
      expanded = 3, cells = { { 3, 2 }, { 6, 2 }, { 1, 4 } } }
  end)

  it("stops a run on the goal, straight or diagonal", function()
    check { sx = 2, sy = 1, gx = 2, gy = 6, opts = {},
      path = { { 2, 1 }, { 2, 2 }, { 2, 3 }, { 2, 4 }, { 2, 5 }, { 2, 6 } },
      expanded = 1, cells = { { 2, 1 } } }
    check { sx = 6, sy = 1, gx = 10, gy = 5, opts = {},
      path = { { 6, 1 }, { 7, 2 }, { 8, 3 }, { 9, 4 }, { 10, 5 } },
      expanded = 1, cells = { { 6, 1 } } }
  end)

  it("in 4 directions, stops vertical runs at a side opening behind a wall", function()
    check { sx = 10, sy = 6, gx = 1, gy = 3, opts = { diagonal = "never" },
      path = { { 10, 6 }, { 10, 5 }, { 9, 5 }, { 8, 5 }, { 7, 5 }, { 6, 5 }, { 5, 5 }, { 4, 5 },
        { 4, 4 }, { 4, 3 }, { 3, 3 }, { 2, 3 }, { 1, 3 } },
      expanded = 5, cells = { { 4, 3 }, { 4, 5 }, { 6, 5 }, { 10, 5 }, { 10, 6 } } }
    check { sx = 1, sy = 4, gx = 9, gy = 2, opts = { diagonal = "never" },
      path = { { 1, 4 }, { 1, 3 }, { 1, 2 }, { 2, 2 }, { 3, 2 }, { 4, 2 }, { 5, 2 }, { 6, 2 },
        { 7, 2 }, { 8, 2 }, { 9, 2 } },
      expanded = 3, cells = { { 1, 2 }, { 6, 2 }, { 1, 4 } } }
  end)

  -- A stepped search that ran jump point search runs A* after a change to the
  -- grid (search.c restart_query: any change restarts JPS, which could never
  -- finish on a grid changed between every two steps); getStats counts both runs.
  local function changed_midway(module)
    local grid = module.fromString(TEXT)
    local search = grid:newSearch(1, 4, 9, 2)
    assert.are.equal("searching", search:step(1))
    assert.are.equal(1, search:getStats().expanded)    -- the start: a jump point
    grid:setWalkable(10, 6, false)                      -- far from anything it read
    while search:step(1) == "searching" do end
    local path, cost = search:result()
    return { path = cells(path), cost = cost, stats = search:getStats(),
      expanded = #search:getExpanded(), astar = { grid:findPath(1, 4, 9, 2, { algorithm = "astar" }) } }
  end

  it("hands a stepped search over to A* when the grid changes", function()
    local got = changed_midway(astar)
    assert.are.same({ { 1, 4 }, { 2, 4 }, { 3, 3 }, { 4, 2 }, { 5, 2 }, { 6, 2 }, { 7, 2 }, { 8, 2 },
      { 9, 2 } }, got.path)
    assert.are.same(cells(got.astar[1]), got.path)      -- A*'s path, not JPS's
    assert.are.equal(got.astar[2], got.cost)
    assert.are.same({ expanded = 1 + 8, touched = 33, restarts = 1 }, got.stats)
    assert.are.equal(8, got.expanded)                  -- A*'s cells
    if PURE and core then assert.are.same(changed_midway(core), got) end
  end)

  -- With partial and an unreachable goal, JPS runs out of jump points and hands
  -- over to A*, whose closest cell is the result; the statistics add up both.
  local WALLED = table.concat({
    "..........",
    "......###.",
    "......#.#.",
    "......###.",
    "..........",
  }, "\n")
  local function partial_jps(module)
    local grid = module.fromString(WALLED)
    local opts = { partial = true, algorithm = "jps" }
    local search = grid:newSearch(1, 1, 8, 3, opts)
    local steps = 0
    while search:step(2) == "searching" do steps = steps + 1 end
    local path, cost, reached = search:result()
    local found = { grid:findPath(1, 1, 8, 3, opts) }
    local found_stats = grid:getSearchStats()
    -- a goal list with near: the same hand-over (the cells that end the path
    -- marked again for A*)
    local near = { grid:findPath(1, 1, { { x = 8, y = 3 } }, { partial = true, algorithm = "jps",
      near = 1 }) }
    return { steps = steps, path = cells(path), cost = cost, reached = reached,
      stats = search:getStats(), found = { cells(found[1]), found[2], found[3] },
      found_stats = found_stats, near = { cells(near[1]), near[2], near[3] },
      near_stats = grid:getSearchStats() }
  end

  it("hands a partial query over to A* when the goal is out of reach", function()
    local got = partial_jps(astar)
    local path = { { 1, 1 }, { 2, 1 }, { 3, 2 }, { 4, 3 }, { 5, 3 }, { 6, 3 } }
    assert.are.same(path, got.path)
    assert.are.equal(false, got.reached)
    assert(R.close(got.cost, 3 + 2 * SQRT2))
    assert.are.same({ path, got.cost, false }, got.found)
    -- 4 jump points, then A*'s 41 cells; touched: 3 + 41
    assert.are.same({ expanded = 45, touched = 44, restarts = 0 }, got.stats)
    assert.are.same({ expanded = 45, touched = 44 }, got.found_stats)
    assert.are.equal(21, got.steps)
    assert.are.same({ { { 1, 1 }, { 2, 1 }, { 3, 2 }, { 4, 2 }, { 5, 2 }, { 6, 2 } }, got.near[2], false },
      got.near)
    assert(R.close(got.near[2], 4 + SQRT2))
    assert.are.same({ expanded = 45, touched = 44 }, got.near_stats)
    if PURE and core then assert.are.same(partial_jps(core), got) end
  end)

  it("runs to the nearest of a goal list, and to a goal's near region", function()
    check { sx = 1, sy = 6, goals = { { 9, 1 }, { 10, 6 }, { 5, 1 } }, opts = {},
      path = { { 1, 6 }, { 2, 5 }, { 3, 4 }, { 4, 3 }, { 4, 2 }, { 5, 1 } },
      expanded = 4, reached = 3, cells = { { 4, 2 }, { 4, 3 }, { 2, 5 }, { 1, 6 } } }
    check { sx = 1, sy = 6, gx = 9, gy = 1, opts = { near = 2 },
      path = { { 1, 6 }, { 2, 5 }, { 3, 5 }, { 4, 5 }, { 5, 5 }, { 6, 5 }, { 7, 4 }, { 7, 3 } },
      expanded = 5, cells = { { 4, 3 }, { 7, 4 }, { 2, 5 }, { 6, 5 }, { 1, 6 } } }
    check { sx = 1, sy = 6, goals = { { 9, 1 }, { 6, 3 } }, opts = { diagonal = "never", near = 1 },
      path = { { 1, 6 }, { 1, 5 }, { 2, 5 }, { 3, 5 }, { 4, 5 }, { 5, 5 }, { 6, 5 }, { 6, 4 } },
      expanded = 3, reached = 2, cells = { { 1, 5 }, { 6, 5 }, { 1, 6 } } }
  end)
end)

describe("opts.algorithm", function()
  local pre = "bad argument #5 to 'findPath' ("

  local function err_of(f, ...)
    local ok, err = pcall(f, ...)
    assert.is_false(ok)
    return err
  end

  it("rejects unknown names and non-strings", function()
    local grid = astar.new(4, 4)
    assert.are.equal(pre .. "opts.algorithm: unknown algorithm 'dijkstra'; expected auto, astar or jps)",
      err_of(grid.findPath, grid, 1, 1, 4, 4, { algorithm = "dijkstra" }))
    assert.are.equal(pre .. "opts.algorithm: string expected, got number)",
      err_of(grid.findPath, grid, 1, 1, 4, 4, { algorithm = 1 }))
  end)

  it("refuses jps where it cannot give A*'s answer, naming why", function()
    local why = pre .. "opts.algorithm: jps needs uniform costs and diagonal 'never' or 'no-obstacles')"
    local grid = astar.new(6, 6)
    for _, mode in ipairs { "always", "one-obstacle" } do
      assert.are.equal(why, err_of(grid.findPath, grid, 1, 1, 6, 6, { algorithm = "jps", diagonal = mode }))
    end
    grid:setDiagonal("one-obstacle")
    assert.are.equal(why, err_of(grid.findPath, grid, 1, 1, 6, 6, { algorithm = "jps" }))
    grid:setDiagonal("no-obstacles")
    grid:setCost(3, 3, 2)
    assert.are.equal(why, err_of(grid.findPath, grid, 1, 1, 6, 6, { algorithm = "jps" }))
    -- auto and astar still answer, through the swamp's cost
    local _, c1 = grid:findPath(1, 3, 6, 3, { diagonal = "never" })
    local _, c2 = grid:findPath(1, 3, 6, 3, { diagonal = "never", algorithm = "astar" })
    assert.are.equal(6, c1)
    assert.are.equal(6, c2)
    -- every cell at the same cost again: jps is allowed, and the cost scales
    grid:setCost(3, 3, 1)
    local _, c3 = grid:findPath(1, 1, 6, 1, { algorithm = "jps" })
    assert.are.equal(5, c3)
  end)

  it("runs jps on a grid whose every cell costs the same non-1 amount", function()
    local grid = astar.new(10, 10)
    for x = 1, 10 do for y = 1, 10 do grid:setCost(x, y, 3) end end
    local path, cost = grid:findPath(1, 1, 10, 4, { algorithm = "jps" })
    assert.is_true(R.close(cost, 3 * (6 + 3 * SQRT2)))
    assert.are.equal(10, #path)
  end)

  it("auto uses A* for weights above 1, inadmissible heuristics and partial results", function()
    local grid = astar.new(40, 40)
    for y = 5, 35 do grid:setWalkable(20, y, false) end
    local function expanded(opts)
      grid:findPath(2, 20, 38, 20, opts)
      return grid:getSearchStats().expanded
    end
    local jps, astar_n = expanded { algorithm = "jps" }, expanded { algorithm = "astar" }
    assert.is_true(jps < astar_n)
    assert.are.equal(jps, expanded {})
    assert.are.equal(expanded { algorithm = "astar", weight = 2 }, expanded { weight = 2 })
    assert.are.equal(expanded { algorithm = "astar", heuristic = "manhattan" },
      expanded { heuristic = "manhattan" })
    assert.are.equal(expanded { algorithm = "astar", partial = true }, expanded { partial = true })
  end)

  it("jps with a weight above 1 or an inadmissible heuristic runs A* with them", function()
    -- weighted jump point search found paths that cross themselves here, which
    -- the unfolded jump lines cannot hold (a path through x = 2^32 came back)
    local grid = astar.new(8, 20)
    grid:setWalkable(4, 8, false)
    for _, opts in ipairs({ { weight = 9 }, { weight = 10 }, { weight = 1e30 },
                            { heuristic = "manhattan" }, { weight = 3, partial = true } }) do
      local a_opts, j_opts = { algorithm = "astar" }, { algorithm = "jps" }
      for k, v in pairs(opts) do a_opts[k], j_opts[k] = v, v end
      local a = { grid:findPath(4, 1, 7, 17, a_opts) }
      local a_stats = grid:getSearchStats()
      local j = { grid:findPath(4, 1, 7, 17, j_opts) }
      assert.are.same(a, j)
      assert.are.same(a_stats, grid:getSearchStats())
      local walked = 0
      for i = 2, #j[1] do
        local p, q = j[1][i - 1], j[1][i]
        local dx, dy = math.abs(q.x - p.x), math.abs(q.y - p.y)
        assert.is_true(q.x >= 1 and q.x <= 8 and q.y >= 1 and q.y <= 20 and grid:isWalkable(q.x, q.y))
        assert.is_true(dx <= 1 and dy <= 1 and dx + dy > 0)
        walked = walked + (dx + dy == 2 and SQRT2 or 1)
      end
      assert.is_true(R.close(walked, j[2]))
    end
  end)

  it("with jps and partial, an unreachable goal gives A*'s partial result", function()
    local grid = astar.fromString(table.concat({
      "..........",
      "......###.",
      "......#.#.",
      "......###.",
      "..........",
    }, "\n"))
    local a = { grid:findPath(1, 1, 8, 3, { partial = true, algorithm = "astar" }) }
    local j = { grid:findPath(1, 1, 8, 3, { partial = true, algorithm = "jps" }) }
    assert.are.same(a, j)
    assert.are.equal(false, j[3])
    assert.are.same({ nil, "no path" }, { grid:findPath(1, 1, 8, 3, { algorithm = "jps" }) })
  end)

  it("gives one-point paths and blocked goals like A*", function()
    local grid = astar.new(5, 5)
    grid:setWalkable(5, 5, false)
    assert.are.same({ { { x = 2, y = 2 } }, 0 }, { grid:findPath(2, 2, 2, 2, { algorithm = "jps" }) })
    assert.are.same({ nil, "goal is blocked" }, { grid:findPath(1, 1, 5, 5, { algorithm = "jps" }) })
  end)

  it("steps through newSearch to findPath's path and cost", function()
    local grid = astar.fromMovingAI(read("den312d.map"))
    local list = scenarios(read("den312d-random-1.scen"))
    for i = 1, #list, 97 do
      local sc = list[i]
      local opts = { algorithm = "jps" }
      local expected = { grid:findPath(sc.sx, sc.sy, sc.gx, sc.gy, opts) }
      local search = grid:newSearch(sc.sx, sc.sy, sc.gx, sc.gy, opts)
      local steps = 0
      while search:step(1) == "searching" do steps = steps + 1 end
      assert.are.same(expected, { search:result() })
      assert.is_true(steps >= 0)
    end
  end)
end)
