-- grid:newSearch(sx, sy, gx, gy [, opts]), search:step(n), search:result(): a search
-- spread over many calls gives exactly what findPath gives in one, on the Moving AI
-- maps (maps/ or $ASTAR_MAPS) and on generated maps with terrain costs.

local astar = require "astar"
local R = require "helpers.reference"

local pack = table.pack or function(...) return { n = select("#", ...), ... } end

local read = R.read_map_file

local check_error = require("helpers.errors").check_error

-- Scenarios of a .scen file, 1-based: {sx, sy, gx, gy, len}; `count` spread evenly.
local function scenarios(text, count)
  local all = {}
  for line in text:gmatch("[^\r\n]+") do
    local f = {}
    for field in line:gmatch("[^\t]+") do f[#f + 1] = field end
    if #f == 9 then
      all[#all + 1] = {
        sx = tonumber(f[5]) + 1, sy = tonumber(f[6]) + 1,
        gx = tonumber(f[7]) + 1, gy = tonumber(f[8]) + 1, len = tonumber(f[9]),
      }
    end
  end
  local out = {}
  for i = 1, count do out[i] = all[math.floor((i - 1) * #all / count) + 1] end
  return out
end

local HUGE_STEPS = { 1, 7, math.huge, 2 ^ 40 }

-- Runs a search to the end with step(n); returns pack(result()) and the number of
-- step calls. Checks on the way that a step expands at most n nodes and that the
-- status is "searching" until the last call.
local function run_stepped(grid, n, sx, sy, gx, gy, opts, watch_budget)
  local search = grid:newSearch(sx, sy, gx, gy, opts)
  local calls, status = 0, "searching"
  local expanded = 0
  while status == "searching" do
    status = search:step(n)
    calls = calls + 1
    assert(calls < 1e7, "search does not end")
    if watch_budget then
      local now = search:getStats().expanded
      assert(now - expanded <= n, "a step expanded more than n nodes")
      expanded = now
    end
  end
  assert(status == "found" or status == "unreachable", "bad status " .. tostring(status))
  assert.are.equal(status, search:getStatus())
  assert.are.equal(status, search:step(1)) -- a finished search stays finished
  return pack(search:result()), calls, status, search:getStats()
end

-- The stepped results must equal findPath's exactly: paths, costs, reasons.
local function check_same(grid, sx, sy, gx, gy, opts, watch_budget)
  local expected = pack(grid:findPath(sx, sy, gx, gy, opts))
  local stats = grid:getSearchStats()
  stats.restarts = 0   -- nothing changed the grid
  for _, n in ipairs(HUGE_STEPS) do
    local got, _, status, got_stats = run_stepped(grid, n, sx, sy, gx, gy, opts, watch_budget)
    assert.are.same(expected, got)
    assert.are.same(stats, got_stats)
    local reached = expected[1] ~= nil and (expected.n == 2 or expected[3] == true)
    assert.are.equal(reached and "found" or "unreachable", status)
  end
  return expected
end

describe("grid:newSearch() on the Moving AI maps", function()
  for _, m in ipairs {
    { map = "den312d.map", scen = "den312d-random-1.scen", count = 8 },
    { map = "random-32-32-10.map", scen = "random-32-32-10-random-1.scen", count = 12 },
    { map = "maze512-1-0.map", scen = "maze512-1-0.map.scen", count = 3 },
    { map = "AR0011SR.map", scen = "AR0011SR.map.scen", count = 4 },
  } do
    it("steps to findPath's exact cost and path with n = 1, 7 and huge: " .. m.map, function()
      local grid = astar.fromMovingAI(read(m.map))
      for _, sc in ipairs(scenarios(read(m.scen), m.count)) do
        local expected = check_same(grid, sc.sx, sc.sy, sc.gx, sc.gy)
        assert(R.close(sc.len, expected[2], 1e-6),
          ("cost %s, the scenario says %s"):format(tostring(expected[2]), sc.len))
      end
    end)
  end
end)

describe("grid:newSearch() on generated maps", function()
  it("matches findPath for every diagonal mode, heuristic, weight and partial #slow", function()
    local rng = R.rng(4242)
    for round = 1, 6 do
      local desc = R.random_map(rng, 24 + round, 18, 0.28)
      local grid = R.build_grid(astar, desc)
      for _, mode in ipairs(R.MODES) do
        local dist = R.dijkstra(desc, mode, 1, 1)
        for _, heuristic in ipairs(R.HEURISTICS) do
          for _, weight in ipairs { 1, 1.7 } do
            for _, partial in ipairs { false, true } do
              local gx, gy = rng.int(1, desc.w), rng.int(1, desc.h)
              local opts = { diagonal = mode, heuristic = heuristic, weight = weight, partial = partial }
              local r = check_same(grid, 1, 1, gx, gy, opts, round == 1)
              if r[1] and weight == 1 and not partial then
                local admissible = false
                for _, h in ipairs(R.admissible_heuristics(mode)) do
                  if h == heuristic then admissible = true end
                end
                local cost = R.validate(desc, mode, r[1], 1, 1, gx, gy)
                assert(cost and R.close(cost, r[2]), "the path does not cost what it says")
                if admissible then
                  assert(R.close(dist[gx][gy], r[2]), "not the optimal cost")
                end
              end
            end
          end
        end
      end
    end
  end)

  it("uses the grid's settings when opts is omitted", function()
    local desc = R.random_map(R.rng(77), 30, 20, 0.25)
    local grid = R.build_grid(astar, desc)
    grid:setDiagonal("always")
    grid:setHeuristic("euclidean", 1.3)
    check_same(grid, 2, 2, 29, 19)
    check_same(grid, 2, 2, 29, 19, {})
  end)

  it("handles start == goal, a blocked goal and an unreachable goal", function()
    local grid = astar.fromString("..#..\n..#..\n..#.#\n")
    local search = grid:newSearch(1, 1, 1, 1)
    assert.are.equal("found", search:getStatus())
    assert.are.equal("found", search:step(1))
    assert.are.same({ { { x = 1, y = 1 } }, 0 }, { search:result() })

    search = grid:newSearch(1, 1, 5, 3)
    assert.are.equal("unreachable", search:step(1))
    assert.are.same({ nil, "goal is blocked" }, { search:result() })

    search = grid:newSearch(1, 1, 4, 1)
    local status
    repeat status = search:step(1) until status ~= "searching"
    assert.are.equal("unreachable", status)
    assert.are.same({ nil, "no path" }, { search:result() })

    -- partial: the closest reached cell, and false
    check_same(grid, 1, 1, 4, 1, { partial = true })
    local got = run_stepped(grid, 1, 1, 1, 4, 1, { partial = true })
    assert.are.equal(false, got[3])
    assert.are.same({ x = 2, y = 1 }, got[1][#got[1]])
  end)
end)

describe("a Search object", function()
  it("has a name and a status", function()
    local grid = astar.new(10, 10)
    local search = grid:newSearch(1, 1, 10, 10)
    assert.are.equal("astar.Search (searching)", tostring(search))
    assert.are.equal("searching", search:getStatus())
    -- jump point search, on both backends
    assert.are.same({ expanded = 0, touched = 1, restarts = 0,
      algorithm = "jps" }, search:getStats())
    assert.are.equal(grid, search:getGrid())
    search:step(math.huge)
    assert.are.equal("astar.Search (found)", tostring(search))
  end)

  it("refuses result() while it is still searching", function()
    local search = astar.new(10, 10):newSearch(1, 1, 10, 10)
    search:step(1)
    check_error("search still running: step it until it returns 'found' or 'unreachable'",
      search.result, search)
  end)

  it("keeps its grid alive when nothing else refers to it", function()
    local desc = R.random_map(R.rng(5), 40, 40, 0.2)
    local dist = R.dijkstra(desc, "no-obstacles", 1, 1)
    local function make()
      local grid = R.build_grid(astar, desc)
      grid:setWalkable(40, 40, true)
      return grid:newSearch(1, 1, 40, 40)
    end
    local search = make()
    collectgarbage()
    collectgarbage()
    local junk = {}
    for i = 1, 200 do junk[i] = astar.new(40, 40) end -- reuse freed memory, if any
    assert.are.equal(200, #junk)
    while search:step(3) == "searching" do collectgarbage("step") end
    local path, cost = search:result()
    assert.is_table(path)
    local want = dist[40][40]
    if not desc.walkable[40][40] then
      want = R.dijkstra({ w = 40, h = 40, walkable = function(x, y)
        return (x == 40 and y == 40) or desc.walkable[x][y]
      end, cost = desc.cost }, "no-obstacles", 1, 1)[40][40]
    end
    assert(R.close(want, cost), "not the optimal cost")
    assert.are.equal("astar.Grid (40x40)", tostring(search:getGrid()))
  end)

  it("is collected when dropped, searching or not", function()
    local grid = astar.new(64, 64)
    for i = 1, 300 do
      local search = grid:newSearch(1, 1, 64, 64)
      if i % 2 == 0 then search:step(5) end
    end
    collectgarbage()
    collectgarbage()
    -- the grid still works, and its own findPath scratch is not shared with searches
    local _, cost = grid:findPath(1, 1, 64, 64)
    assert(R.close(63 * math.sqrt(2), cost))
  end)

  it("is not disturbed by findPath on the same grid or by other searches", function()
    local desc = R.random_map(R.rng(6), 50, 30, 0.25)
    local grid = R.build_grid(astar, desc)
    local expected = pack(grid:findPath(1, 1, 50, 30))
    local a = grid:newSearch(1, 1, 50, 30)
    local b = grid:newSearch(50, 30, 1, 1)
    local sa, sb = "searching", "searching"
    while sa == "searching" or sb == "searching" do
      if sa == "searching" then sa = a:step(2) end
      if sb == "searching" then sb = b:step(3) end
      grid:findPath(25, 15, 1, 30)
    end
    assert.are.same(expected, pack(a:result()))
    assert.are.same(pack(grid:findPath(50, 30, 1, 1)), pack(b:result()))
  end)

  it("keeps the settings it was created with", function()
    local desc = R.random_map(R.rng(8), 30, 30, 0.2)
    local grid = R.build_grid(astar, desc)
    local expected = pack(grid:findPath(1, 1, 30, 30))
    local search = grid:newSearch(1, 1, 30, 30)
    search:step(2)
    grid:setDiagonal("never")
    grid:setHeuristic("dijkstra")
    while search:step(5) == "searching" do end
    assert.are.same(expected, pack(search:result()))
  end)

  it("is not disturbed by writes that change nothing", function()
    for _, same in ipairs {
      function(g) g:setWalkable(5, 5, true) end,
      function(g) g:setCost(3, 3, 1) end,
      function(g) g:setCost(4, 4, 2); return true end, -- a cost layer, then the same cost again
    } do
      local grid = astar.new(20, 20)
      if same(grid) then grid:setCost(4, 4, 2) end
      local expected = pack(grid:findPath(1, 1, 20, 20))
      local search = grid:newSearch(1, 1, 20, 20)
      assert.are.equal("searching", search:step(1))
      same(grid)
      while search:step(3) == "searching" do same(grid) end
      assert.are.same(expected, pack(search:result()))
      assert.are.equal(0, search:getStats().restarts)
    end
  end)

  it("answers for the grid as it is when it finishes when the grid changes while it runs", function()
    -- (it used to raise "grid changed during search"; spec/search_edits_spec.lua
    -- has the rules in detail)
    for _, change in ipairs {
      function(g) g:setWalkable(20, 20, false) end,   -- the goal, not reached yet
      function(g) g:setCost(2, 1, 2) end,             -- a cell it has reached
    } do
      local grid = astar.new(20, 20)
      local search = grid:newSearch(1, 1, 20, 20, { algorithm = "astar" })
      assert.are.equal("searching", search:step(1))
      change(grid)
      while search:step(7) == "searching" do end
      assert.are.same(pack(grid:findPath(1, 1, 20, 20, { algorithm = "astar" })),
        pack(search:result()))
    end
  end)

  it("keeps a finished result when the grid changes afterwards", function()
    local grid = astar.new(8, 8)
    local search = grid:newSearch(1, 1, 8, 8)
    while search:step(7) == "searching" do end
    local expected = pack(grid:findPath(1, 1, 8, 8))
    local restarts = search:getStats().restarts
    grid:setWalkable(4, 4, false)
    assert.are.equal("found", search:step(1))
    assert.are.same(expected, pack(search:result()))
    assert.are.equal(restarts, search:getStats().restarts)
  end)

  it("fails when its grid was closed", function()
    local grid = astar.new(10, 10)
    local running = grid:newSearch(1, 1, 10, 10)
    local done = grid:newSearch(1, 1, 10, 10)
    done:step(math.huge)
    getmetatable(grid).__close(grid)
    check_error("attempt to use a closed astar.Grid", running.step, running, 1)
    check_error("attempt to use a closed astar.Grid", done.result, done)
  end)

  it("can be released early, and then refuses to work", function()
    local search = astar.new(5, 5):newSearch(1, 1, 5, 5)
    getmetatable(search).__close(search)
    getmetatable(search).__close(search)
    assert.are.equal("astar.Search (released)", tostring(search))
    check_error("attempt to use a released astar.Search", search.step, search, 1)
  end)
end)

describe("search:getExpanded()", function()
  -- The heuristic's estimate as the module scales it: by the lowest cost of any
  -- cell of the grid, walls included.
  local function lowest_cost(desc)
    local lowest = math.huge
    for x = 1, desc.w do
      for y = 1, desc.h do lowest = math.min(lowest, desc.cost[x][y]) end
    end
    return lowest
  end

  -- {[y * 1e4 + x] = true} of a getExpanded() list; checks the list is in row
  -- order, in range and without duplicates.
  local function as_set(list, w, h)
    local set, prev = {}, -1
    for _, c in ipairs(list) do
      assert(c.x >= 1 and c.x <= w and c.y >= 1 and c.y <= h and c.x % 1 == 0 and c.y % 1 == 0,
        "bad cell " .. tostring(c.x) .. "," .. tostring(c.y))
      local k = c.y * 1e4 + c.x
      assert(k > prev, "not in row order, or a duplicate")
      set[k], prev = true, k
    end
    return set
  end

  -- Random walkable cell with a finite reference cost (the start's own is 0).
  local function pick_reachable(rng, desc, dist)
    for _ = 1, 1000 do
      local x, y = rng.int(1, desc.w), rng.int(1, desc.h)
      if desc.walkable[x][y] and dist[x][y] and dist[x][y] > 0 then return x, y end
    end
  end

  it("holds every cell with g* + h < C* and none with g* + h > C* (A*, weight 1)", function()
    local rng = R.rng(2718)
    local checked, strict = 0, 0
    for round = 1, 3 do
      local desc = R.random_map(rng, 20 + 3 * round, 15, 0.25)
      local grid = R.build_grid(astar, desc)
      local lowest = lowest_cost(desc)
      for _, mode in ipairs(R.MODES) do
        local sx, sy
        repeat sx, sy = rng.int(1, desc.w), rng.int(1, desc.h) until desc.walkable[sx][sy]
        local dist = R.dijkstra(desc, mode, sx, sy)
        for _, heuristic in ipairs(R.admissible_heuristics(mode)) do
          local gx, gy = pick_reachable(rng, desc, dist)
          if gx then
            local search = grid:newSearch(sx, sy, gx, gy,
              { diagonal = mode, heuristic = heuristic, weight = 1, algorithm = "astar" })
            assert.are.equal("found", search:step(math.huge))
            local best = dist[gx][gy]
            assert(R.close(best, select(2, search:result())), "not the optimal cost")
            local list = search:getExpanded()
            local set = as_set(list, desc.w, desc.h)
            assert.are.equal(search:getStats().expanded, #list)
            local eps = 1e-9 * math.max(1, best)
            for x = 1, desc.w do
              for y = 1, desc.h do
                local g, k = dist[x][y], y * 1e4 + x
                if g == nil then
                  assert(not set[k], ("unreachable cell %d,%d expanded"):format(x, y))
                else
                  local h = heuristic == "dijkstra" and 0
                    or lowest * R.heuristic_distance(heuristic, mode, x, y, gx, gy)
                  local f = g + h
                  if f < best - eps then
                    strict = strict + 1
                    assert(set[k], ("%d,%d has g + h = %.17g < C* = %.17g but was not expanded (%s, %s)")
                      :format(x, y, f, best, mode, heuristic))
                  elseif f > best + eps then
                    assert(not set[k], ("%d,%d has g + h = %.17g > C* = %.17g but was expanded (%s, %s)")
                      :format(x, y, f, best, mode, heuristic))
                  end
                end
              end
            end
            checked = checked + 1
          end
        end
      end
    end
    assert(checked >= 40 and strict > 500, "too few cells checked")
  end)

  it("grows exactly one cell per step(1), and equals getStats().expanded #slow", function()
    local rng = R.rng(31)
    for _, mode in ipairs(R.MODES) do
      local desc
      repeat -- a map where the goal can be reached
        desc = R.random_map(rng, 24, 18, 0.2)
        desc.walkable[1][1], desc.walkable[24][18] = true, true
      until R.dijkstra(desc, mode, 1, 1)[24][18]
      local grid = R.build_grid(astar, desc)
      local search = grid:newSearch(1, 1, 24, 18, { diagonal = mode, algorithm = "astar" })
      assert.are.same({}, search:getExpanded())
      local prev, steps, status = {}, 0, "searching"
      while status == "searching" do
        status = search:step(1)
        steps = steps + 1
        local list = search:getExpanded()
        local set = as_set(list, desc.w, desc.h)
        assert.are.equal(search:getStats().expanded, #list)
        -- stale open-list entries do not use up the step: while it searches,
        -- every step(1) expands exactly one cell
        if status == "searching" then
          assert(#list - #prev == 1, "step(1) expanded " .. (#list - #prev) .. " cells")
        else
          assert(#list - #prev <= 1, "one step expanded more than one cell")
        end
        for _, c in ipairs(prev) do assert(set[c.y * 1e4 + c.x], "a cell left the set") end
        prev = list
      end
      assert.are.equal("found", status)
      assert(steps > 20, "the search was too short to show anything")
      -- the finished search keeps its set, the same as a search run at once
      local again = grid:newSearch(1, 1, 24, 18, { diagonal = mode, algorithm = "astar" })
      again:step(math.huge)
      assert.are.same(prev, search:getExpanded())
      assert.are.same(prev, again:getExpanded())
    end
  end)

  it("lists as many cells as getStats().expanded with jump point search", function()
    -- JPS expands jump points only; the path's cells between them must not hide one
    local rng = R.rng(808)
    for round = 1, 30 do
      local desc = R.random_map(rng, 30, 22, 0.2, { 1 })
      local grid = R.build_grid(astar, desc)
      local mode = round % 2 == 0 and "never" or "no-obstacles"
      local dist = R.dijkstra(desc, mode, 1, 1)
      local gx, gy = pick_reachable(rng, desc, dist)
      if gx and desc.walkable[1][1] then
        local search = grid:newSearch(1, 1, gx, gy, { diagonal = mode, algorithm = "jps" })
        assert.are.equal("found", search:step(math.huge))
        local list = search:getExpanded()
        local set = as_set(list, desc.w, desc.h)
        assert.are.equal(search:getStats().expanded, #list)
        for k in pairs(set) do
          local x, y = k % 1e4, math.floor(k / 1e4)
          assert(dist[x][y], "an unreachable cell was expanded")
        end
      end
    end
  end)

  it("is empty when nothing was searched, and checks self", function()
    local grid = astar.fromString("..#..\n..#..\n..#.#\n")
    assert.are.same({}, grid:newSearch(1, 1, 1, 1):getExpanded())   -- start == goal
    local blocked = grid:newSearch(1, 1, 5, 3)
    blocked:step(1)
    assert.are.same({}, blocked:getExpanded())
    local search = grid:newSearch(1, 1, 2, 3, { algorithm = "astar" })
    search:step(math.huge)
    assert.is_true(#search:getExpanded() > 0)
    check_error("calling 'getExpanded' on bad self (astar.Search expected, got table)",
      search.getExpanded, {})
    check_error("calling 'getExpanded' on bad self (astar.Search expected, got no value)",
      search.getExpanded)
    getmetatable(grid).__close(grid)
    check_error("attempt to use a closed astar.Grid", search.getExpanded, search)
    getmetatable(search).__close(search)
    check_error("attempt to use a released astar.Search", search.getExpanded, search)
  end)

  it("on the C backend, matches the pure-Lua fallback cell for cell (A*)", function()
    if astar.backend ~= "c" then return end -- the fallback against itself
    local pure = require "astar.pure"
    local rng = R.rng(555)
    for round = 1, 4 do
      local desc = R.random_map(rng, 20, 14, 0.22, round % 2 == 0 and { 1 } or nil)
      local gc, gp = R.build_grid(astar, desc), R.build_grid(pure, desc)
      for _, mode in ipairs(R.MODES) do
        local sx, sy, gx, gy = rng.int(1, 20), rng.int(1, 14), rng.int(1, 20), rng.int(1, 14)
        local opts = { diagonal = mode, algorithm = "astar", weight = round > 2 and 1.5 or 1 }
        if gc:findPath(sx, sy, gx, gy, opts) then -- C answers some unreachable goals unsearched
          local a, b = gc:newSearch(sx, sy, gx, gy, opts), gp:newSearch(sx, sy, gx, gy, opts)
          local sa, sb
          repeat
            sa, sb = a:step(3), b:step(3)
            assert.are.same(a:getExpanded(), b:getExpanded())
          until sa ~= "searching" and sb ~= "searching"
          assert.are.same(a:getStats(), b:getStats())
        end
      end
    end
  end)
end)

describe("argument errors", function()
  local grid = astar.new(10, 8)

  it("checks newSearch's arguments as findPath does", function()
    check_error("bad argument #1 to 'newSearch' (sx out of range 1..10)", grid.newSearch, grid, 11, 1, 1, 1)
    check_error("bad argument #2 to 'newSearch' (sy must be a whole number, got 1.5)",
      grid.newSearch, grid, 1, 1.5, 1, 1)
    check_error("bad argument #3 to 'newSearch' (number expected, got string)",
      grid.newSearch, grid, 1, 1, "1", 1)
    check_error("bad argument #4 to 'newSearch' (gy out of range 1..8)", grid.newSearch, grid, 1, 1, 1, 9)
    check_error("bad argument #5 to 'newSearch' (table expected, got number)",
      grid.newSearch, grid, 1, 1, 2, 2, 5)
    check_error("bad argument #5 to 'newSearch' (unknown option 'diagnoal')",
      grid.newSearch, grid, 1, 1, 2, 2, { diagnoal = "never" })
    check_error("bad argument #5 to 'newSearch' (opts.weight: weight must be a finite number >= 1, got 0.5)",
      grid.newSearch, grid, 1, 1, 2, 2, { weight = 0.5 })
    check_error("calling 'newSearch' on bad self (astar.Grid expected, got table)",
      grid.newSearch, {}, 1, 1, 2, 2)
  end)

  it("checks step's n", function()
    local search = grid:newSearch(1, 1, 10, 8)
    local msg = "bad argument #1 to 'step' (n must be a whole number >= 1 or math.huge, got %s)"
    check_error("bad argument #1 to 'step' (number expected, got no value)", search.step, search)
    check_error("bad argument #1 to 'step' (number expected, got string)", search.step, search, "5")
    check_error(msg:format("0"), search.step, search, 0)
    check_error(msg:format("-3"), search.step, search, -3)
    check_error(msg:format("2.5"), search.step, search, 2.5)
    check_error(msg:format("nan"), search.step, search, 0 / 0)
    check_error(msg:format("-inf"), search.step, search, -math.huge)
    assert.are.equal("searching", search:getStatus()) -- nothing was stepped
    -- a Grid is userdata on the C backend and a table on the pure-Lua one
    check_error("calling 'step' on bad self (astar.Search expected, got " .. type(grid) .. ")",
      search.step, grid, 1)
    check_error("calling 'result' on bad self (astar.Search expected, got no value)", search.result)
  end)
end)
