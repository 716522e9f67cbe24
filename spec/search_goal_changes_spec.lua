-- Stepped searches whose goal changes while they run (issue 17, items 3, 4 and 7).
-- A stepped search must answer as findPath on the grid as it is when it finishes:
-- the goal's cost, its walls and what the query's rules say of it are read when the
-- query starts (findPath's start-of-query checks), so a change of the goal starts
-- the search again however far from it the search is, and the answer and its reason
-- ("goal is blocked", "no path") are findPath's. A goal walled off while the search
-- runs ends it without a flood of the grid on the C backend (component labels).
--
-- Every answer is checked against findPath on the final grid (exactly: the queries
-- run A*) and against the independent plain-Lua Dijkstra of
-- spec/helpers/rules_reference.lua. Runs on both backends (ASTAR_BACKEND=lua).

local astar = require "astar"
local R = require "helpers.reference"
local RR = require "helpers.rules_reference"

local pack = table.pack or function(...) return { n = select("#", ...), ... } end

-- Labels are the C backend's speed-up (spec/components_spec.lua): the fallback
-- gives the same answers by searching, so only C is held to the expansion bounds.
local LABELLED = astar.backend == "c"

local E = require "helpers.edited_board"
local set_walkable, set_cost, uniform, step_to_end = E.set_walkable, E.set_cost, E.uniform,
  E.step_to_end

local function board(desc) return E.board(astar, desc) end

-- One step, and the expansions it made (getStats counts all the work, the runs
-- before a restart included).
local function step_work(search, n)
  local before = search:getStats()
  local status = search:step(n)
  return status, search:getStats().expanded - before.expanded
end

-- A flag rule by cell number on board b: each cell on with probability p.
local function some_cells(b, rng, p)
  local t = {}
  for k = 1, b.desc.w * b.desc.h do t[k] = rng.next() < p or nil end
  return t
end

-- The rules of a query, in every form, on board b (built fresh for each query:
-- some read the grid, so that what they say of a cell follows its edits).
local RULES = {
  { "no rule", function() return {} end },
  { "cost function", function()
    return { cost = function(x, y) return (x + 2 * y) % 3 == 0 and 2 or 1 end }
  end },
  { "cost function reading the grid", function(b)
    return { cost = function(x, y) return b.grid:getCost(x, y) * 2 end }
  end },
  { "cost by cell number", function(b, rng)
    local t = {}
    for k = 1, b.desc.w * b.desc.h do
      if rng.next() < 0.9 then t[k] = rng.pick { 1, 2, 0.5 } end   -- else impassable
    end
    return { cost = t }
  end },
  { "cost list", function(b, rng)
    local list = {}
    for _ = 1, 4 do
      list[#list + 1] = { x = rng.int(1, b.desc.w), y = rng.int(1, b.desc.h),
        cost = rng.pick { 1, 3, false } }
    end
    return { cost = list }                   -- cells not listed keep the grid's cost
  end },
  { "blocked function", function()
    return { blocked = function(x, y) return (x * 5 + y * 3) % 7 == 0 end }
  end },
  { "blocked function reading the grid", function(b)
    return { blocked = function(x, y) return b.grid:getCost(x, y) >= 3 end }
  end },
  { "blocked by cell number", function(b, rng) return { blocked = some_cells(b, rng, 0.1) } end },
  { "blocked list", function(b, rng)
    return { blocked = { { x = rng.int(1, b.desc.w), y = rng.int(1, b.desc.h) },
      { x = rng.int(1, b.desc.w), y = rng.int(1, b.desc.h) } } }
  end },
  { "occupied function", function()
    return { occupied = function(x, y) return (x + y) % 5 == 0 end }
  end },
  { "occupied function reading the grid", function(b)
    return { occupied = function(x, y) return b.grid:getCost(x, y) == 2 end }
  end },
  { "occupied by cell number", function(b, rng)
    return { occupied = some_cells(b, rng, 0.15) }
  end },
  { "occupied list", function(b, rng)
    return { occupied = { { x = rng.int(1, b.desc.w), y = rng.int(1, b.desc.h) } } }
  end },
}

-- The goal forms: one goal, a goal list, near, and one goal with partial or maxCost.
local GOALS = {
  { "one goal", 1 }, { "a goal list", 3 }, { "a one-goal list", 1, { list = true } },
  { "near = 1", 1, { near = 1 } }, { "one goal, partial", 1, { partial = true } },
  { "one goal, maxCost", 1, { maxCost = 6 } },
}

-- grid:findPath or grid:newSearch (method) from (sx, sy) to the goal goals[1],
-- or to the list goals when list is set.
local function query(grid, method, sx, sy, goals, list, opts)
  if list then return grid[method](grid, sx, sy, goals, opts) end
  return grid[method](grid, sx, sy, goals[1].x, goals[1].y, opts)
end

describe("a stepped search whose goal changes", function()
  -- the reporter's case: a corridor, the goal's cost or wall changed after
  -- newSearch and before the search reaches it
  -- the rule forms, and the cost they answer after the goal's cost went to 5:
  -- 11 where the goal keeps the grid's cost, 7 where the rule replaces it
  local function corridor_search(rules)
    local grid = astar.new(8, 2)
    for x = 1, 8 do grid:setWalkable(x, 2, false) end
    local opts = { algorithm = "astar" }
    for k, v in pairs(rules) do opts[k] = v end
    return grid, grid:newSearch(1, 1, 8, 1, opts), opts
  end
  local corridor_rules = {
    { "no rule", {}, 11 },
    { "occupied function", { occupied = function() return false end }, 11 },
    { "occupied list", { occupied = { { x = 4, y = 1 } } }, 11 },
    { "cost function", { cost = function() return 1 end }, 7 },
    { "cost list", { cost = { { x = 3, y = 1, cost = 1 } } }, 11 },
    { "cost by cell number", { cost = { 1, 1, 1, 1, 1, 1, 1, 1 } }, 7 },
    { "blocked function", { blocked = function() return false end }, 11 },
    { "blocked table", { blocked = { [4] = false } }, 11 },
    { "blocked list", { blocked = { { x = 3, y = 2 } } }, 11 },
  }

  it("answers for the goal's new cost, as findPath (every rule form)", function()
    for _, case in ipairs(corridor_rules) do
      local name = case[1]
      local grid, search, opts = corridor_search(case[2])
      grid:setCost(8, 1, 5)
      local status = step_to_end(search, 1)
      local want = pack(grid:findPath(1, 1, 8, 1, opts))
      assert.are.equal("found", status, name)
      local got = pack(search:result())
      assert.are.equal(case[3], got[2], name)
      assert.are.same(want, got, name)
      assert.are.equal(1, search:getStats().restarts, name)
    end
  end)

  it("says 'goal is blocked' when the goal becomes a wall, as findPath", function()
    for _, case in ipairs(corridor_rules) do
      local name = case[1]
      local grid, search, opts = corridor_search(case[2])
      assert.are.equal("searching", search:step(1))
      grid:setWalkable(8, 1, false)
      -- it starts again at the next step, which answers at once
      local status, work = step_work(search, 1)
      assert.are.equal("unreachable", status, name)
      assert.are.equal(0, work, name)
      assert.are.same({ nil, "goal is blocked", n = 2 }, pack(grid:findPath(1, 1, 8, 1, opts)))
      assert.are.same({ nil, "goal is blocked", n = 2 }, pack(search:result()), name)
    end
  end)

  it("gives findPath's reasons for a goal the rules or the grid changed", function()
    -- each case: opts, and an edit after newSearch; the reason findPath gives after it
    local function grid_rule(b) return function(x, y) return b.grid:getCost(x, y) >= 3 end end
    local cases = {
      { "wall", {}, function(b) set_walkable(b, 6, 3, false) end, "goal is blocked" },
      { "blocked by a rule reading the grid", function(b) return { blocked = grid_rule(b) } end,
        function(b) set_cost(b, 6, 3, 3) end, "goal is blocked" },
      { "impassable by a cost rule reading the grid",
        function(b) return { cost = function(x, y) return b.grid:getCost(x, y) < 3 and 1 or nil end } end,
        function(b) set_cost(b, 6, 3, 3) end, "goal is blocked" },
      { "occupied by a rule reading the grid", function(b) return { occupied = grid_rule(b) } end,
        function(b) set_cost(b, 6, 3, 3) end, "goal is blocked" },
      { "walled off", {}, function(b)
        for dx = -1, 1 do
          for dy = -1, 1 do
            if dx ~= 0 or dy ~= 0 then set_walkable(b, 6 + dx, 3 + dy, false) end
          end
        end
      end, "no path" },
      { "beyond maxCost", { maxCost = 5.5 }, function(b) set_cost(b, 6, 3, 2) end, "no path" },
      { "a goal list, each a wall", {}, function(b)
        set_walkable(b, 6, 3, false)
        set_walkable(b, 6, 1, false)
      end, "no path", goals = { { x = 6, y = 3 }, { x = 6, y = 1 } } },
      { "a one-goal list, a wall", {}, function(b) set_walkable(b, 6, 3, false) end,
        "goal is blocked", goals = { { x = 6, y = 3 } } },
      { "near, walled off", { near = 1 }, function(b)
        for x = 4, 8 do for y = 1, 5 do set_walkable(b, x, y, false) end end
      end, "no path" },
    }
    for _, case in ipairs(cases) do
      for _, mode in ipairs(R.MODES) do
        local name, edit, reason = case[1], case[3], case[4]
        local b = board(uniform(9, 5))
        set_cost(b, 9, 5, 2)                           -- A* on every backend
        local opts = type(case[2]) == "function" and case[2](b) or case[2]
        opts.diagonal, opts.algorithm = mode, "astar"
        local goals, list = case.goals or { { x = 6, y = 3 } }, case.goals ~= nil
        local search = query(b.grid, "newSearch", 1, 3, goals, list, opts)
        assert.are.equal("searching", search:step(1), name)
        edit(b)
        step_to_end(search, 2)
        local got = pack(search:result())
        assert.are.same({ nil, reason, n = 2 }, got, name .. ", " .. mode)
        local fresh = pack(query(b.grid, "findPath", 1, 3, goals, list, opts))
        assert.are.same(fresh, got, name .. ", " .. mode)
      end
    end
  end)

  it("answers as findPath and the reference after random edits, every rule and goal form",
    function()
      local rng = R.rng(1701)
      local cases, restarted, changed_answers = 0, 0, 0
      for round = 1, 2 do
        for _, mode in ipairs(R.MODES) do
          for _, rule in ipairs(RULES) do
            for _, goal_form in ipairs(GOALS) do
              local name = ("%s, %s, %s, round %d"):format(rule[1], goal_form[1], mode, round)
              local desc = R.random_map(rng, 9, 7, 0.15, { 1, 1, 2, 3, 0.5 })
              local b = board(desc)
              local extra = goal_form[3] or {}
              local list = goal_form[2] > 1 or extra.list
              local sx, sy = rng.int(1, 9), rng.int(1, 7)
              local goals = {}
              while #goals < goal_form[2] do
                local x, y = rng.int(1, 9), rng.int(1, 7)
                if x ~= sx or y ~= sy then goals[#goals + 1] = { x = x, y = y } end
              end
              local rules = rule[2](b, rng)
              local opts = { diagonal = mode, algorithm = "astar", cost = rules.cost,
                blocked = rules.blocked, occupied = rules.occupied, near = extra.near,
                partial = extra.partial, maxCost = extra.maxCost }
              local search = query(b.grid, "newSearch", sx, sy, goals, list, opts)
              local first = pack(query(b.grid, "findPath", sx, sy, goals, list, opts))
              local steps = 0
              while search:step(rng.int(1, 3)) == "searching" do
                steps = steps + 1
                if steps <= 40 then
                  for _ = 1, rng.int(0, 2) do
                    -- mostly the goals, sometimes anywhere but the start
                    local g = rng.pick(goals)
                    local x, y = g.x, g.y
                    if rng.next() < 0.3 then x, y = rng.int(1, 9), rng.int(1, 7) end
                    if not (x == sx and y == sy) then
                      if rng.next() < 0.5 then
                        set_walkable(b, x, y, not desc.walkable[x][y])
                      else
                        set_cost(b, x, y, rng.pick { 1, 2, 3, 0.5 })
                      end
                    end
                  end
                end
              end
              local got = pack(search:result())
              local fresh = pack(query(b.grid, "findPath", sx, sy, goals, list, opts))
              assert.are.same(fresh, got, name)
              local q = { mode = mode, sx = sx, sy = sy, goals = goals, list = list,
                near = extra.near, maxCost = extra.maxCost, partial = extra.partial }
              local rb = RR.board(desc, rules)
              local ok, why = RR.check(rb, q, got, RR.expect(rb, q))
              assert(ok, name .. ": " .. tostring(why))
              cases = cases + 1
              if search:getStats().restarts > 0 then restarted = restarted + 1 end
              if first[2] ~= got[2] then changed_answers = changed_answers + 1 end
            end
          end
        end
      end
      -- the edits did change answers and restart searches, often
      assert(restarted > cases / 4 and changed_answers > cases / 10,
        ("%d cases, %d restarted, %d answers changed"):format(cases, restarted, changed_answers))
    end)
end)

describe("a stepped search whose goal is walled off while it runs (item 7)", function()
  -- a 64x64 board, a wall across it with a gap at the bottom (so that jump point
  -- search too takes more than one step); the goal (60, 60) is walled in after
  -- the search began
  local function barrier()
    local b = board(uniform(64, 64))
    for y = 1, 63 do set_walkable(b, 30, y, false) end
    return b
  end
  local function wall_in(b, gx, gy)
    for dx = -1, 1 do
      for dy = -1, 1 do
        if dx ~= 0 or dy ~= 0 then set_walkable(b, gx + dx, gy + dy, false) end
      end
    end
  end
  local CELLS = 66 * 66                        -- the grid's cells, its border included
  local forms = {
    { "no rule", { algorithm = "astar" } },
    { "auto (jump point search on C)", {} },
    { "an occupied function", { occupied = function() return false end } },
    { "a cost function", { cost = function() return 1 end } },
  }

  it("finishes within a sixteenth of the grid's cells of expansions (C), as findPath says",
    function()
      for _, form in ipairs(forms) do
        for _, mode in ipairs { "never", "one-obstacle", "no-obstacles" } do
          local name = form[1] .. ", " .. mode
          local b = barrier()
          local opts = { diagonal = mode }
          for k, v in pairs(form[2]) do opts[k] = v end
          local search = b.grid:newSearch(1, 1, 60, 60, opts)
          assert.are.equal("searching", search:step(1), name)
          wall_in(b, 60, 60)
          local status, work, calls = "searching", 0, 0
          while status == "searching" do
            local w
            status, w = step_work(search, 10)
            work, calls = work + w, calls + 1
          end
          assert.are.equal("unreachable", status, name)
          assert.are.same({ nil, "no path", n = 2 }, pack(search:result()), name)
          assert.are.same({ nil, "no path", n = 2 }, pack(b.grid:findPath(1, 1, 60, 60, opts)), name)
          if LABELLED then
            -- flooding the board would take about 4000
            -- (a step to count them, one to rebuild)
            assert(work <= CELLS / 16 + 2 * 10,
              ("%s: %d expansions after the walls"):format(name, work))
            assert(search:getStats().restarts >= 1, name)
          end
        end
      end
    end)

  it("finishes at its next step once the labels know (findPath rebuilt them)", function()
    for _, form in ipairs(forms) do
      local b = barrier()
      local search = b.grid:newSearch(1, 1, 60, 60, form[2])
      assert.are.equal("searching", search:step(1), form[1])
      wall_in(b, 60, 60)
      -- the first findPath searches (the labels are stale) and rebuilds them
      -- (spec/components_spec.lua); the second answers from them
      assert.are.same({ nil, "no path", n = 2 }, pack(b.grid:findPath(1, 1, 60, 60, { algorithm = "astar" })))
      assert.are.same({ nil, "no path", n = 2 }, pack(b.grid:findPath(1, 1, 60, 60, form[2])))
      local status, work = step_work(search, 10)
      if LABELLED then
        assert.are.equal(0, b.grid:getSearchStats().expanded, form[1])
        assert.are.equal("unreachable", status, form[1])
        assert.are.equal(0, work, form[1])
      end
      step_to_end(search, 10)
      assert.are.same({ nil, "no path", n = 2 }, pack(search:result()), form[1])
    end
  end)

  it("finishes at newSearch when the labels already know the goal is cut off (C)", function()
    local b = barrier()
    wall_in(b, 60, 60)
    -- labels rebuilt by findPath (above)
    b.grid:findPath(1, 1, 60, 60, { algorithm = "astar" })
    for _, form in ipairs(forms) do
      local search = b.grid:newSearch(1, 1, 60, 60, form[2])
      if LABELLED then
        assert.are.equal("unreachable", search:getStatus(), form[1])
        assert.are.equal(0, search:getStats().expanded, form[1])
      end
      step_to_end(search, 10)
      assert.are.same({ nil, "no path", n = 2 }, pack(search:result()), form[1])
    end
  end)

  it("is not restarted by rebuilt labels while its goal stays reachable", function()
    local b = barrier()                        -- a long search
    local opts = { algorithm = "astar" }
    local search = b.grid:newSearch(1, 1, 60, 60, opts)
    assert.are.equal("searching", search:step(10))
    -- walls far from the search: the labels go stale; the corner (64, 1) is
    -- cut off, the goal is not, so a rebuild changes nothing the search read
    set_walkable(b, 63, 1, false)
    set_walkable(b, 63, 2, false)
    set_walkable(b, 64, 2, false)
    local status = step_to_end(search, 10)
    assert.are.equal("found", status)
    assert.are.equal(0, search:getStats().restarts)
    assert.are.same(pack(b.grid:findPath(1, 1, 60, 60, opts)), pack(search:result()))
    -- the search's work rebuilt the labels: findPath knows the corner cut off
    assert.are.same({ nil, "no path", n = 2 }, pack(b.grid:findPath(1, 1, 64, 1, opts)))
    if LABELLED then assert.are.equal(0, b.grid:getSearchStats().expanded) end
  end)
end)
