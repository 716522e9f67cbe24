-- Searches that survive edits (issue 12, point 4): a stepped search goes on when
-- the grid changes where it has not been, starts again (getStats().restarts)
-- when a change reaches it, and always answers for the grid as it is when it
-- finishes. Answers are checked against the independent reference
-- (spec/helpers/reference.lua, a plain Dijkstra) and against a new findPath on
-- the final grid, which they must equal exactly.

local astar = require "astar"
local R = require "helpers.reference"

local pack = table.pack or function(...) return { n = select("#", ...), ... } end

local E = require "helpers.edited_board"
local set_walkable, set_cost, uniform, step_to_end = E.set_walkable, E.set_cost, E.uniform,
  E.step_to_end

local function board(desc) return E.board(astar, desc) end

-- The search's answer is the reference's on the grid as it is now (weight 1,
-- the default heuristics are admissible), and findPath's: exactly for A*; with
-- the same cost otherwise (a jump point search that restarted runs A*, which
-- may pick another of the equally cheap paths).
local function check_final(b, search, sx, sy, gx, gy, opts)
  local got = pack(search:result())
  local mode = opts.diagonal or "no-obstacles"   -- the grid's default
  local fresh = pack(b.grid:findPath(sx, sy, gx, gy, opts))
  if opts.algorithm == "astar" then
    assert.are.same(fresh, got)
  elseif fresh[1] then
    assert(got[1] and R.close(fresh[2], got[2]), "not findPath's cost")
  else
    assert.are.same(fresh, got)
  end
  local dist = R.dijkstra(b.desc, mode, sx, sy)
  if not b.desc.walkable[gx][gy] then
    assert.are.same({ nil, "goal is blocked" }, { got[1], got[2] })
  elseif dist[gx][gy] == nil then
    assert.are.same({ nil, "no path" }, { got[1], got[2] })
  else
    assert(got[1], "no path, but the reference reaches the goal")
    assert(R.close(dist[gx][gy], got[2]), ("cost %s, the reference says %s")
      :format(tostring(got[2]), tostring(dist[gx][gy])))
    local walked = R.validate(b.desc, mode, got[1], sx, sy, gx, gy)
    assert(walked and R.close(walked, got[2]), "the path does not cost what it says")
  end
  return got
end

-- Walkable ends on a random board; the goal reachable when `reachable`.
local function ends(rng, desc, mode, reachable)
  for _ = 1, 1000 do
    local sx, sy = rng.int(1, desc.w), rng.int(1, desc.h)
    local gx, gy = rng.int(1, desc.w), rng.int(1, desc.h)
    if desc.walkable[sx][sy] and desc.walkable[gx][gy] and (sx ~= gx or sy ~= gy)
      and (not reachable or R.dijkstra(desc, mode, sx, sy)[gx][gy]) then
      return sx, sy, gx, gy
    end
  end
  error("no ends found")
end

describe("a stepped search on a grid that changes", function()
  it("goes on when cells far from it change, answering as a new findPath (restarts 0)", function()
    local rng = R.rng(1201)
    for _, mode in ipairs(R.MODES) do
      local desc = R.random_map(rng, 60, 60, 0.2, { 1, 2 })
      desc.walkable[1][1], desc.walkable[12][12] = true, true
      desc.cost[60][60] = 1     -- the lowest cost stays 1 whatever the far cells do
      local b = board(desc)
      local opts = { diagonal = mode, algorithm = "astar" }
      local search = b.grid:newSearch(1, 1, 12, 12, opts)
      local steps = 0
      while search:step(2) == "searching" do
        steps = steps + 1
        -- cells at x >= 50: A* towards (12, 12) never comes near them
        local x, y = rng.int(50, 59), rng.int(1, 60)
        if steps % 2 == 0 then
          set_walkable(b, x, y, not desc.walkable[x][y])
        else
          set_cost(b, x, y, 3 - desc.cost[x][y])
        end
      end
      assert(steps >= 4, "too few steps to test anything")
      local stats = search:getStats()
      assert.are.equal(0, stats.restarts)
      check_final(b, search, 1, 1, 12, 12, opts)
      local fresh = b.grid:getSearchStats()
      assert.are.same({ fresh.expanded, fresh.touched }, { stats.expanded, stats.touched })
    end
  end)

  it("starts again after a change to a cell it has reached, and answers exactly", function()
    local rng = R.rng(1202)
    local kinds = { "cost of an expanded cell", "a neighbour toggled", "a wall beside it opened" }
    for round = 1, 4 do
      for _, mode in ipairs(R.MODES) do
        for k, kind in ipairs(kinds) do
          local desc = R.random_map(rng, 30, 30, 0.3)
          local opts = { diagonal = mode, algorithm = "astar" }
          local sx, sy, gx, gy = ends(rng, desc, mode, round % 2 == 0)
          local b = board(desc)
          local search = b.grid:newSearch(sx, sy, gx, gy, opts)
          if search:step(10 + round) == "searching" then
            local done = false
            for _, c in ipairs(search:getExpanded()) do
              if not done and not (c.x == sx and c.y == sy) then
                if k == 1 then
                  set_cost(b, c.x, c.y, desc.cost[c.x][c.y] == 2 and 3 or 2)
                  done = true
                else
                  for dx = -1, 1 do
                    for dy = -1, 1 do
                      local x, y = c.x + dx, c.y + dy
                      if not done and x >= 1 and x <= 30 and y >= 1 and y <= 30
                        and not (x == sx and y == sy) and not (x == gx and y == gy)
                        and (k == 2 or not desc.walkable[x][y]) then
                        set_walkable(b, x, y, not desc.walkable[x][y])
                        done = true
                      end
                    end
                  end
                end
              end
            end
            if done then
              step_to_end(search, 7)
              assert(search:getStats().restarts == 1,
                kind .. ": " .. search:getStats().restarts .. " restarts")
              check_final(b, search, sx, sy, gx, gy, opts)
            end
          end
        end
      end
    end
  end)

  it("follows the corner rule: a wall beside an expanded cell opened or closed", function()
    for _, mode in ipairs { "always", "one-obstacle", "no-obstacles" } do
      for _, close in ipairs { false, true } do
        -- (2, 1) is a wall (or closes later): the diagonal (1, 1) -> (2, 2)
        -- passes beside it
        local b = board(uniform(12, 12))
        b.desc.cost[6][6] = 2
        b.grid:setCost(6, 6, 2)                    -- so that A* runs on every backend
        if not close then set_walkable(b, 2, 1, false) end
        local opts = { diagonal = mode }
        local search = b.grid:newSearch(1, 1, 12, 12, opts)
        assert.are.equal("searching", search:step(1))   -- the start is expanded
        set_walkable(b, 2, 1, not b.desc.walkable[2][1])
        step_to_end(search, 3)
        assert.are.equal(1, search:getStats().restarts)
        check_final(b, search, 1, 1, 12, 12, opts)
      end
    end
  end)

  it("starts again when the lowest cost changes, however far", function()
    local desc = uniform(30, 30)
    for x = 1, 30 do for y = 1, 30 do desc.cost[x][y] = 2 end end
    desc.cost[5][5] = 3
    local b = board(desc)
    local opts = { diagonal = "no-obstacles" }
    local search = b.grid:newSearch(1, 30, 12, 30, opts)
    assert.are.equal("searching", search:step(1))
    set_cost(b, 30, 1, 1)          -- a new lowest cost: the heuristic's scale halves
    assert.are.equal("searching", search:step(1))
    assert.are.equal(1, search:getStats().restarts)
    set_cost(b, 30, 1, 2)          -- back to 2
    assert.are.equal("searching", search:step(1))
    assert.are.equal(2, search:getStats().restarts)
    set_cost(b, 29, 1, 3)          -- far, and the lowest stays 2: no restart
    step_to_end(search, 2)
    assert.are.equal(2, search:getStats().restarts)
    check_final(b, search, 1, 30, 12, 30, opts)
  end)

  it("starts a jump point search again on any change", function()
    local rng = R.rng(1203)
    for _, mode in ipairs { "never", "no-obstacles" } do
      for _, change in ipairs { "far wall", "cost" } do
        local desc = R.random_map(rng, 40, 40, 0.2, { 1 })
        desc.walkable[40][1] = true
        local sx, sy, gx, gy = ends(rng, desc, mode, true)
        local b = board(desc)
        local opts = { diagonal = mode }        -- uniform costs: C runs jump point search
        local search = b.grid:newSearch(sx, sy, gx, gy, opts)
        assert.are.equal("searching", search:step(1))
        if change == "far wall" then
          set_walkable(b, 40, 1, false)
        else
          set_cost(b, 40, 1, 2)              -- no longer uniform: A* from now on
        end
        step_to_end(search, 4)
        assert.are.equal(1, search:getStats().restarts)
        check_final(b, search, sx, sy, gx, gy, opts)
      end
    end
  end)

  it("runs A* once a jump point search restarted, so far changes no longer restart it", function()
    local b = board(uniform(40, 40))
    local search = b.grid:newSearch(1, 1, 10, 10)     -- jump point search on C
    assert.are.equal("searching", search:step(1))
    set_walkable(b, 40, 40, false)
    assert.are.equal("searching", search:step(1))
    assert.are.equal(1, search:getStats().restarts)
    for _ = 1, 5 do
      set_walkable(b, 40, 40, not b.desc.walkable[40][40])
      assert.are.equal("searching", search:step(1))
    end
    step_to_end(search, 1)
    assert.are.equal(1, search:getStats().restarts)
    check_final(b, search, 1, 1, 10, 10, {})
  end)

  -- issue 21, item 7: getStats counts all the work, as the README says;
  -- getExpanded lists the last run's cells
  it("counts in getStats the work of the runs before a restart", function()
    for _, mode in ipairs { "never", "always" } do
      local b = board(uniform(40, 40))
      local opts = { algorithm = "astar", diagonal = mode, heuristic = "dijkstra" }
      local search = b.grid:newSearch(1, 1, 40, 40, opts)
      for _ = 1, 3 do assert.are.equal("searching", search:step(100)) end
      local before = search:getStats()
      assert.are.equal(300, before.expanded)
      set_cost(b, 2, 1, 3)                      -- a touched cell: it starts again
      -- what the run after the restart does: a new search on the edited grid
      local twin = b.grid:newSearch(1, 1, 40, 40, opts)
      assert.are.equal(twin:step(100), search:step(100))
      local now, fresh = search:getStats(), twin:getStats()
      assert.are.same({ expanded = 300 + 100, touched = before.touched + fresh.touched, restarts = 1,
        algorithm = "astar" }, now)
      assert.are.equal(100, #search:getExpanded())   -- the last run's cells
      step_to_end(search, 100)
      step_to_end(twin, 100)
      assert.are.same({ expanded = 300 + twin:getStats().expanded,
        touched = before.touched + twin:getStats().touched, restarts = 1, algorithm = "astar" },
        search:getStats())
      check_final(b, search, 1, 1, 40, 40, opts)
    end
  end)

  it("checks the last 64 changes and starts again after more", function()
    local b = board(uniform(40, 40))
    local opts = { algorithm = "astar" }
    local search = b.grid:newSearch(1, 1, 10, 10, opts)
    assert.are.equal("searching", search:step(2))
    for _ = 1, 64 do set_walkable(b, 40, 40, not b.desc.walkable[40][40]) end
    assert.are.equal("searching", search:step(1))
    assert.are.equal(0, search:getStats().restarts)
    for _ = 1, 66 do set_walkable(b, 40, 40, not b.desc.walkable[40][40]) end
    step_to_end(search, 3)
    assert.are.equal(1, search:getStats().restarts)
    check_final(b, search, 1, 1, 10, 10, opts)
  end)

  it("is not restarted by writes that change nothing, even on cells it reached", function()
    local b = board(uniform(20, 20))
    b.grid:setCost(3, 3, 2)
    b.desc.cost[3][3] = 2
    local search = b.grid:newSearch(1, 1, 20, 20, { algorithm = "astar" })
    assert.are.equal("searching", search:step(10))
    b.grid:setWalkable(1, 1, true)
    b.grid:setWalkable(2, 1, true)
    b.grid:setCost(2, 2, 1)
    b.grid:setCost(3, 3, 2)
    step_to_end(search, 5)
    assert.are.equal(0, search:getStats().restarts)
    check_final(b, search, 1, 1, 20, 20, { algorithm = "astar" })
  end)

  it("answers exactly after long runs of random edits between steps", function()
    local rng = R.rng(1204)
    local restarted, undisturbed = 0, 0
    for round = 1, 6 do
      for _, mode in ipairs(R.MODES) do
        for _, algorithm in ipairs { "astar", "auto" } do
          local costs = round % 2 == 0 and { 1 } or { 1, 1, 2, 3, 0.5 }
          local desc = R.random_map(rng, 20, 16, 0.25, costs)
          local sx, sy, gx, gy = ends(rng, desc, mode, false)
          local b = board(desc)
          local opts = { diagonal = mode, algorithm = algorithm }
          local search = b.grid:newSearch(sx, sy, gx, gy, opts)
          local steps, edits = 0, 0
          while search:step(rng.int(1, 8)) == "searching" do
            steps = steps + 1
            if steps <= 200 then
              for _ = 1, rng.int(0, 3) do
                local x, y = rng.int(1, desc.w), rng.int(1, desc.h)
                local r = rng.next()
                if r < 0.5 and not (x == sx and y == sy) then
                  set_walkable(b, x, y, not desc.walkable[x][y])
                elseif r < 0.8 then
                  set_cost(b, x, y, rng.pick(costs))   -- often the same cost
                else
                  set_walkable(b, x, y, desc.walkable[x][y])   -- a no-op
                end
                edits = edits + 1
              end
            end
          end
          check_final(b, search, sx, sy, gx, gy, opts)
          if edits > 0 then
            if search:getStats().restarts > 0 then
              restarted = restarted + 1
            else
              undisturbed = undisturbed + 1
            end
          end
        end
      end
    end
    -- both outcomes were exercised
    assert(restarted >= 5 and undisturbed >= 1,
      ("restarted %d, undisturbed %d"):format(restarted, undisturbed))
  end)

  it("on the C backend, restarts and expands as the pure-Lua fallback, cell for cell (A*)", function()
    if astar.backend ~= "c" then return end -- the fallback against itself
    local pure = require "astar.pure"
    local rng = R.rng(1205)
    local restarts = 0
    for round = 1, 6 do
      for _, mode in ipairs(R.MODES) do
        local costs = { 1, 2, 3, 0.5 }
        local desc = R.random_map(rng, 20, 14, 0.22, costs)
        local sx, sy, gx, gy = ends(rng, desc, mode, false)
        local gc, gp = R.build_grid(astar, desc), R.build_grid(pure, desc)
        -- partial: C answers no unreachable goal unsearched (component labels)
        local opts = { diagonal = mode, algorithm = "astar", partial = true,
          weight = round > 4 and 1.5 or 1 }
        local a, b = gc:newSearch(sx, sy, gx, gy, opts), gp:newSearch(sx, sy, gx, gy, opts)
        local sa, sb, steps = "searching", "searching", 0
        while sa == "searching" or sb == "searching" do
          local n = rng.int(1, 6)
          sa, sb = a:step(n), b:step(n)
          assert.are.equal(sa, sb)
          assert.are.same(a:getExpanded(), b:getExpanded())
          assert.are.same(a:getStats(), b:getStats())
          steps = steps + 1
          if steps < 100 then
            for _ = 1, rng.int(0, 2) do
              local x, y = rng.int(1, desc.w), rng.int(1, desc.h)
              if rng.next() < 0.5 then
                local v = not gc:isWalkable(x, y)
                gc:setWalkable(x, y, v)
                gp:setWalkable(x, y, v)
              else
                local c = rng.pick(costs)
                gc:setCost(x, y, c)
                gp:setCost(x, y, c)
              end
            end
          end
        end
        assert.are.same(pack(a:result()), pack(b:result()))
        restarts = restarts + a:getStats().restarts
      end
    end
    assert(restarts >= 10, "only " .. restarts .. " restarts")
  end)

  it("keeps a finished result, and still fails on a closed grid", function()
    local b = board(uniform(10, 10))
    local search = b.grid:newSearch(1, 1, 10, 10, { algorithm = "astar" })
    assert.are.equal("searching", search:step(1))
    set_walkable(b, 2, 2, false)
    step_to_end(search, 100)
    local got = check_final(b, search, 1, 1, 10, 10, { algorithm = "astar" })
    set_walkable(b, 2, 1, false)
    set_walkable(b, 1, 2, false)
    assert.are.equal("found", search:step(1))
    assert.are.same(got, pack(search:result()))
    assert.are.equal(1, search:getStats().restarts)

    local running = b.grid:newSearch(10, 10, 3, 3)
    getmetatable(b.grid).__close(b.grid)
    local ok, err = pcall(running.step, running, 1)
    assert.are.same({ false, "attempt to use a closed astar.Grid" }, { ok, err })
  end)
end)
