-- search:restart(sx, sy, gx, gy [, opts]) (issue 24): a search reused for a
-- new query answers exactly what a new search answers (path, cost, status,
-- statistics), on random queries and options with fixed seeds, between edits
-- of the grid, whether the search was running, finished or stopped; and the
-- algorithm that ran, in grid:getSearchStats() and search:getStats().
local astar = require "astar"
local R = require "helpers.reference"
local check_error = require("helpers.errors").check_error

local pack = table.pack or function(...) return { n = select("#", ...), ... } end

-- What both backends run with jump point search (the pure one since issue 23).
local JPS = "jps"

local function run(search, n)
  local status = search:getStatus()
  while status == "searching" do status = search:step(n) end
  return pack(search:result()), search:getStats(), status
end

local function fresh(grid, sx, sy, gx, gy, opts)
  return run(grid:newSearch(sx, sy, gx, gy, opts), math.huge)
end

-- Random options: every diagonal mode, heuristics, weights, partial results,
-- the algorithm, flat paths, smoothing; nil (the defaults) now and then.
local function random_options(rng)
  if rng.int(1, 6) == 1 then return nil end
  local o = { diagonal = rng.pick(R.MODES) }
  if rng.int(1, 3) == 1 then o.heuristic = rng.pick(R.admissible_heuristics(o.diagonal)) end
  if rng.int(1, 4) == 1 then o.weight = rng.pick({ 1, 1.5, 3 }) end
  if rng.int(1, 3) == 1 then o.partial = true end
  if rng.int(1, 4) == 1 then o.algorithm = rng.pick({ "auto", "astar" }) end
  if rng.int(1, 4) == 1 then o.flat = true end
  if rng.int(1, 6) == 1 and o.diagonal ~= "never" then o.smooth = rng.pick({ "corners", "theta" }) end
  return o
end

describe("search:restart", function()
  it("answers what a new search answers, on random queries between grid edits", function()
    for seed = 1, 4 do
      local rng = R.rng(seed)
      local desc = R.random_map(rng, 14, 12, 0.2)
      local grid = R.build_grid(astar, desc)
      local search = grid:newSearch(1, 1, 1, 1)
      for q = 1, 25 do
        local sx, sy, gx, gy = rng.int(1, 14), rng.int(1, 12), rng.int(1, 14), rng.int(1, 12)
        local opts = random_options(rng)
        local where = ("seed %d query %d"):format(seed, q)
        assert.are.equal(search, search:restart(sx, sy, gx, gy, opts))
        local got, got_stats, status = run(search, rng.pick({ 1, 5, math.huge }))
        local want, want_stats = fresh(grid, sx, sy, gx, gy, opts)
        assert.are.same(want, got, where)
        assert.are.same(want_stats, got_stats, where)
        assert.are.equal(0, got_stats.restarts, where)
        -- the cost against the reference where the query is plain A*
        if status == "found" and not (opts and (opts.weight or opts.partial or opts.smooth
          or opts.heuristic)) then
          local mode = opts and opts.diagonal or grid:getDiagonal()
          local dist = R.dijkstra(desc, mode, sx, sy)
          assert(R.close(dist[gx][gy], got[2]), where)
        end
        -- an edit, then (sometimes) a query left running when the next restarts
        local x, y = rng.int(1, 14), rng.int(1, 12)
        if rng.int(1, 2) == 1 then
          desc.walkable[x][y] = not desc.walkable[x][y]
          grid:setWalkable(x, y, desc.walkable[x][y])
        else
          desc.cost[x][y] = rng.pick(R.DEFAULT_COSTS)
          grid:setCost(x, y, desc.cost[x][y])
        end
        if rng.int(1, 3) == 1 then
          search:restart(rng.int(1, 14), rng.int(1, 12), rng.int(1, 14), rng.int(1, 12))
          search:step(1)
        end
      end
    end
  end)

  it("takes a list of goals and its options as newSearch does", function()
    local grid = astar.fromString("....\n.##.\n....\n")
    local search = grid:newSearch(1, 1, 4, 3)
    search:step(math.huge)
    local goals = { { x = 4, y = 1 }, { x = 1, y = 3 } }
    local opts = { diagonal = "never", flat = true }
    search:restart(2, 1, goals, opts)
    local got, got_stats = run(search, 1)
    local want, want_stats = fresh(grid, 2, 1, goals, opts)
    assert.are.same(want, got)
    assert.are.same(want_stats, got_stats)
    local path, cost, index = search:result()
    assert.are.same({ 2, 1, 3, 1, 4, 1 }, path)
    assert.are.equal(2, cost)
    assert.are.equal(1, index)
  end)

  it("with opts omitted uses the defaults, not the options of the query before", function()
    local grid = astar.fromString("..#.\n..#.\n..#.\n")
    grid:setDiagonal("never")
    local search = grid:newSearch(1, 1, 4, 1, { partial = true, diagonal = "always" })
    assert.are.equal("unreachable", search:step(math.huge))   -- a partial path
    local path, _, reached = search:result()
    assert.are.same({ x = 2, y = 1 }, path[#path])
    assert.are.equal(false, reached)
    search:restart(1, 1, 4, 1)
    assert.are.equal("unreachable", search:step(math.huge))
    assert.are.same(pack(nil, "no path"), pack(search:result()))
    search:restart(1, 1, 2, 2)                 -- the grid's mode: 4 directions
    search:step(math.huge)
    assert.are.equal(3, #search:result())
  end)

  it("starts the statistics from zero, and a restart by the game is no restart by a change", function()
    local grid = astar.new(30, 30)
    local opts = { algorithm = "astar", heuristic = "dijkstra" }
    local search = grid:newSearch(1, 1, 30, 30, opts)
    search:step(50)
    grid:setCost(2, 1, 3)                      -- a touched cell: it starts again
    search:step(50)
    assert.are.equal(1, search:getStats().restarts)
    search:restart(1, 1, 5, 5, opts)
    assert.are.same({ expanded = 0, touched = 1, restarts = 0, algorithm = "astar" },
      search:getStats())
    search:step(math.huge)
    local _, want = fresh(grid, 1, 1, 5, 5, opts)
    assert.are.same(want, search:getStats())
    assert.are.equal(want.expanded, #search:getExpanded())
  end)

  it("runs again after a rule stopped it, and refuses a released or closed one", function()
    local grid = astar.new(6, 6)
    local search = grid:newSearch(1, 1, 6, 6, { cost = function(x)
      if x == 3 then error("boom", 0) end
      return 1
    end })
    assert.has_error(function() search:step(math.huge) end, "boom")
    check_error("search stopped by an error in its rules", search.result, search)
    search:restart(1, 1, 3, 1)
    assert.are.equal("found", search:step(math.huge))
    assert.are.equal(2, select(2, search:result()))
    local closed = grid:newSearch(1, 1, 6, 6)
    getmetatable(closed).__close(closed)
    check_error("attempt to use a released astar.Search", closed.restart, closed, 1, 1, 2, 2)
    check_error("calling 'restart' on bad self (astar.Search expected, got no value)", search.restart)
    getmetatable(grid).__close(grid)
    check_error("attempt to use a closed astar.Grid", search.restart, search, 1, 1, 2, 2)
  end)

  it("may not be called from one of the search's own rules", function()
    local grid = astar.new(8, 8)
    local search, err
    search = grid:newSearch(1, 1, 8, 8, { cost = function()
      if search and not err then err = select(2, pcall(search.restart, search, 1, 1, 2, 2)) end
      return 1
    end })
    assert.are.equal("found", search:step(math.huge))
    assert.are.equal("search:restart called from one of its own rules", err)
    local _, cost = search:result()
    assert.are.equal(select(2, grid:findPath(1, 1, 8, 8, { algorithm = "astar" })), cost)
  end)
end)

-- issue 24: a search starts in time and memory independent of the grid's
-- size: the scratch of a finished search goes back to the grid, a restarted
-- one keeps its own (the pure backend made three per-cell arrays, 2 MB here,
-- for every newSearch)
describe("a search's start on a big grid", function()
  it("makes no per-cell arrays once a search on the grid has finished", function()
    local grid = astar.new(200, 200)
    local search = grid:newSearch(1, 1, 3, 3)   -- running: it keeps its scratch
    grid:newSearch(1, 1, 3, 3):step(math.huge)   -- finished: its scratch goes to the pool
    collectgarbage()
    collectgarbage("stop")
    local before = collectgarbage("count")
    for i = 1, 20 do
      local s = grid:newSearch(i, 1, i + 2, 3)
      s:step(math.huge)
      search:restart(1, i, 3, i + 2)
      search:step(1)                      -- left running: restarted in its memory
    end
    local grown = collectgarbage("count") - before
    collectgarbage("restart")
    assert(grown < 200, ("40 starts allocated %.0f KB"):format(grown))
  end)
end)

describe("the algorithm that ran", function()
  it("is in grid:getSearchStats() after findPath", function()
    local grid = astar.new(20, 20)
    assert.is_nil(grid:getSearchStats().algorithm)   -- no query yet
    grid:findPath(1, 1, 20, 20)                         -- uniform, 8 directions
    assert.are.equal(JPS, grid:getSearchStats().algorithm)
    grid:findPath(1, 1, 20, 20, { diagonal = "never" })
    assert.are.equal(JPS, grid:getSearchStats().algorithm)
    grid:findPath(1, 1, 20, 20, { algorithm = "astar" })
    assert.are.equal("astar", grid:getSearchStats().algorithm)
    grid:findPath(1, 1, 20, 20, { diagonal = "always" })   -- no jump point search there
    assert.are.equal("astar", grid:getSearchStats().algorithm)
    grid:setCost(5, 5, 2)                               -- costs: jump point search with
    grid:findPath(1, 1, 20, 20)                         -- costs in C, A* in the fallback
    assert.are.equal(astar.backend == "c" and "jps" or "astar", grid:getSearchStats().algorithm)
    grid:findPath(1, 1, 20, 20, { diagonal = "one-obstacle" })   -- not in that mode
    assert.are.equal("astar", grid:getSearchStats().algorithm)
    grid:setCost(5, 5, 1)
    grid:findPath(1, 1, 20, 20, { cost = function() return 1 end })   -- a rule: A*
    assert.are.equal("astar", grid:getSearchStats().algorithm)
  end)

  it("is in search:getStats(), A* after jump point search handed over to it", function()
    local grid = astar.new(20, 20)
    local search = grid:newSearch(1, 1, 20, 20)
    assert.are.equal(JPS, search:getStats().algorithm)
    search:step(1)
    grid:setWalkable(20, 1, false)                      -- any change restarts it: A* from then on
    search:step(math.huge)
    assert.are.equal("astar", search:getStats().algorithm)
    search:restart(1, 1, 20, 20)
    assert.are.equal(JPS, search:getStats().algorithm)
    grid:setCost(3, 3, 2)                               -- costs: as findPath
    search:restart(1, 1, 20, 20)
    search:step(math.huge)
    assert.are.equal(astar.backend == "c" and "jps" or "astar", search:getStats().algorithm)
    search:restart(1, 1, 20, 20, { algorithm = "astar" })
    search:step(math.huge)
    assert.are.equal("astar", search:getStats().algorithm)
  end)
end)
