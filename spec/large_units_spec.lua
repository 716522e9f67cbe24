-- Large units (issue 14, README "Large units"): opts.size on findPath and
-- newSearch, checked against spec/helpers/large_reference.lua (a Dijkstra over
-- top-left positions that checks every covered cell itself) on generated
-- boards, k = 1..4, every diagonal mode, grid costs, rules in every form,
-- walls changed between queries (the C backend's per-size layers follow
-- setWalkable cell by cell), newSearch stepped, and the errors. Runs on both
-- backends (ASTAR_BACKEND=lua: mk/fallback.mk).
local astar = require "astar"
require "astar.tactics"
local R = require "helpers.reference"
local L = require "helpers.large_reference"
local check_error = require("helpers.errors").check_error

local INF = math.huge
local MODES = { "never", "always", "one-obstacle", "no-obstacles" }

local function close(a, b)
  if a == INF or b == INF then return a == b end
  return math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a))
end

-- The reference's board for a grid as it is now and a query's rules.
local function board_of(grid, k, diagonal, rules)
  local w, h = grid:getWidth(), grid:getHeight()
  rules = rules or {}
  return {
    w = w, h = h, k = k, diagonal = diagonal,
    value = function(x, y)
      if not grid:isWalkable(x, y) then return INF end
      if rules.blocked and rules.blocked(x, y) then return INF end
      if rules.cost then return rules.cost(x, y, grid:getCost(x, y)) end
      return grid:getCost(x, y)
    end,
    occupied = rules.occupied,
  }
end

-- findPath's cost (INF when no path) after checking its path against the reference.
local function checked_find(grid, b, sx, sy, gx, gy, opts, what)
  local path, cost = grid:findPath(sx, sy, gx, gy, opts)
  if not path then return INF end
  local walked, why = L.path_cost(b, path, sx, sy)
  assert(walked, what .. ": " .. tostring(why))
  assert(close(walked, cost), ("%s: the path costs %.17g, findPath says %.17g"):format(what, walked, cost))
  local last = path[#path]
  assert(last.x == gx and last.y == gy, what .. ": the path does not end at the goal")
  return cost
end

describe("the large units reference", function()
  it("lets a 2x2 unit through a gap of 2 but not of 1", function()
    local grid = astar.new(7, 5)
    for y = 1, 5 do if y ~= 2 and y ~= 3 then grid:setWalkable(4, y, false) end end
    local b = board_of(grid, 2, "never")
    assert.equal(7, L.cost(b, 1, 1, { { 6, 1 } }))
    grid:setWalkable(4, 3, false)
    assert.equal(INF, L.cost(board_of(grid, 2, "never"), 1, 1, { { 6, 1 } }))
    assert.equal(7, L.cost(board_of(grid, 1, "never"), 1, 1, { { 6, 1 } }))
  end)

  it("prices a step by the highest newly covered cost and applies the corner rule to positions", function()
    local grid = astar.new(4, 4)
    grid:setCost(3, 1, 5)
    grid:setCost(3, 2, 2)
    local b = board_of(grid, 2, "never")
    assert.equal(5, L.step(b, 1, 1, 2, 1))     -- covers (3, 1) and (3, 2)
    assert.equal(1, L.step(b, 2, 1, 1, 1))     -- covers (1, 1) and (1, 2)
    assert.equal(5 * math.sqrt(2), L.step(board_of(grid, 2, "always"), 1, 2, 2, 1))
    grid:setWalkable(4, 1, false)
    assert.equal(INF, L.step(board_of(grid, 2, "always"), 2, 2, 3, 1))   -- (3, 1) covers the wall
    grid = astar.new(5, 5)
    grid:setWalkable(1, 1, false)             -- (1, 1) is no position now; (2, 2) is
    assert.equal(INF, L.step(board_of(grid, 2, "no-obstacles"), 1, 2, 2, 1))
    assert.equal(math.sqrt(2), L.step(board_of(grid, 2, "one-obstacle"), 1, 2, 2, 1))
    assert.equal(math.sqrt(2), L.step(board_of(grid, 2, "always"), 1, 2, 2, 1))
    assert.equal(INF, L.step(board_of(grid, 2, "never"), 1, 2, 2, 1))
  end)
end)

-- Generated boards: walls, sometimes costs, and the rules a query may carry.
local function make_board(seed, uniform)
  local rng = R.rng(seed)
  local w, h = rng.int(5, 11), rng.int(5, 10)
  local costs = (uniform or seed % 3 == 0) and { 1 } or { 1, 1, 2, 3, 5 }
  local desc = R.random_map(rng, w, h, 0.12 + 0.02 * (seed % 5), costs)
  return { seed = seed, rng = rng, w = w, h = h, grid = R.build_grid(astar, desc) }
end

-- Rules in some form: none, a blocked table (walls for the query in C), or
-- functions of all three kinds. Returns opts (to merge) and the reference's view.
local function make_rules(board, form)
  local rng, w = board.rng, board.w
  if form == 1 then return {}, nil end
  local blocked, occupied, costs = {}, {}, {}
  for _ = 1, rng.int(1, 4) do blocked[(rng.int(1, board.h) - 1) * w + rng.int(1, w)] = true end
  if form == 2 then
    return { blocked = blocked }, { blocked = function(x, y) return blocked[(y - 1) * w + x] == true end }
  end
  for _ = 1, rng.int(1, 4) do occupied[(rng.int(1, board.h) - 1) * w + rng.int(1, w)] = true end
  for _ = 1, rng.int(2, 8) do costs[(rng.int(1, board.h) - 1) * w + rng.int(1, w)] = rng.pick { 0.5, 2, 4, INF } end
  local grid = board.grid
  local function cost(x, y)
    local c = costs[(y - 1) * w + x]
    if c == nil then return grid:getCost(x, y) end
    return c
  end
  return {
    blocked = function(x, y) return blocked[(y - 1) * w + x] end,
    occupied = function(x, y) return occupied[(y - 1) * w + x] end,
    cost = cost,
  }, {
    blocked = function(x, y) return blocked[(y - 1) * w + x] == true end,
    occupied = function(x, y) return occupied[(y - 1) * w + x] == true end,
    cost = function(x, y) return cost(x, y) end,
  }
end

local function merge(a, b)
  local c = {}
  for k, v in pairs(a) do c[k] = v end
  for k, v in pairs(b) do c[k] = v end
  return c
end

-- findPath against the reference on every board, rule form (1 to 3), size in
-- sizes and diagonal mode: `per` queries each between two points pick(board,
-- k) draws from the board's rng. Returns the number of queries and of paths.
local function sweep(boards, sizes, per, pick)
  local queries, found = 0, 0
  local cases = { boards = boards, forms = 3, make_rules = make_rules, board_of = board_of,
    sizes = sizes, per = per }
  L.each_case(cases, function(board, what, opts, b)
    local sx, sy = pick(board, b.k)
    local gx, gy = pick(board, b.k)
    what = ("%s, (%d,%d) to (%d,%d)"):format(what, sx, sy, gx, gy)
    local want = L.cost(b, sx, sy, { { gx, gy } })
    local got = checked_find(board.grid, b, sx, sy, gx, gy, opts, what)
    assert(close(want, got), ("%s: cost %s, the reference %s"):format(what, got, want))
    queries = queries + 1
    if got < INF then found = found + 1 end
  end)
  return queries, found
end

describe("findPath with size on generated boards", function()
  it("agrees with the reference for k = 1..4, every diagonal mode, costs and rules #slow", function()
    local boards = {}
    for seed = 1, 24 do boards[seed] = make_board(seed) end
    local queries, found = sweep(boards, { 1, 2, 3, 4 }, 2, function(board)
      return board.rng.int(1, board.w), board.rng.int(1, board.h)
    end)
    -- the boards are not all blocked nor all open
    assert.is_true(found > queries / 6 and found < queries, ("%d of %d found"):format(found, queries))
  end)

  it("agrees with the reference for units of 5, 8 and 11 cells a side #slow", function()
    -- a step newly covers a row and a column of up to 11 cells: the long runs
    local boards = {}
    for seed = 90, 93 do boards[#boards + 1] = L.big_board(astar, seed) end
    local queries, found = sweep(boards, { 5, 8, 11 }, 1, function(board, k)
      return board.rng.int(1, board.w - k + 1), board.rng.int(1, board.h - k + 1)
    end)
    assert.equal(144, queries)
    assert.is_true(found > queries / 4 and found < queries, ("%d of %d found"):format(found, queries))
  end)

  it("takes goal lists, near, partial and maxCost with a size", function()
    for seed = 30, 41 do
      local board = make_board(seed)
      local grid, rng = board.grid, board.rng
      local rule_opts, rules = make_rules(board, 1 + seed % 3)
      for k = 2, 3 do
        for _, mode in ipairs(MODES) do
          local b = board_of(grid, k, mode, rules)
          local sx, sy = rng.int(1, board.w), rng.int(1, board.h)
          local goals = { { rng.int(1, board.w), rng.int(1, board.h) }, { rng.int(1, board.w), rng.int(1, board.h) } }
          local near = rng.int(0, 2)
          local what = ("board %d, size %d, %s, near %d"):format(seed, k, mode, near)
          local want = L.cost(b, sx, sy, goals, near)
          local path, cost = grid:findPath(sx, sy, { { x = goals[1][1], y = goals[1][2] },
            { x = goals[2][1], y = goals[2][2] } }, merge(rule_opts, { size = k, diagonal = mode, near = near }))
          if want == INF then
            assert(path == nil, what .. ": a path where the reference has none")
          else
            assert(path, what .. ": no path where the reference has one")
            assert(close(want, cost), ("%s: cost %s, the reference %s"):format(what, cost, want))
            assert(close(L.path_cost(b, path, sx, sy), cost), what)
            -- a budget just under the cost finds nothing; at the cost, the path
            if want > 0 then
              assert.is_nil(grid:findPath(sx, sy, { { x = goals[1][1], y = goals[1][2] },
                { x = goals[2][1], y = goals[2][2] } }, merge(rule_opts,
                { size = k, diagonal = mode, near = near, maxCost = want * (1 - 1e-9) })))
            end
          end
          -- partial: some path from the start, every step allowed
          local p2, c2 = grid:findPath(sx, sy, goals[1][1], goals[1][2],
            merge(rule_opts, { size = k, diagonal = mode, partial = true }))
          assert(p2, what .. ": partial gives a path")
          assert(close(L.path_cost(b, p2, sx, sy), c2), what .. ": partial path's cost")
        end
      end
    end
  end)

  it("follows setWalkable between queries (the layers are updated cell by cell)", function()
    for seed = 50, 57 do
      local board = make_board(seed, seed % 2 == 0)   -- half of them uniform: jump point search
      local grid, rng = board.grid, board.rng
      for _ = 1, 40 do
        for k = 2, 4, 2 do
          for _, mode in ipairs { "never", "no-obstacles", "always" } do
            local b = board_of(grid, k, mode)
            local sx, sy = rng.int(1, board.w), rng.int(1, board.h)
            local gx, gy = rng.int(1, board.w), rng.int(1, board.h)
            local what = ("board %d, size %d, %s"):format(seed, k, mode)
            local got = checked_find(grid, b, sx, sy, gx, gy, { size = k, diagonal = mode }, what)
            assert(close(L.cost(b, sx, sy, { { gx, gy } }), got), what)
            local a = checked_find(grid, b, sx, sy, gx, gy, { size = k, diagonal = mode, algorithm = "astar" }, what)
            assert(close(a, got), what .. ": A* and the algorithm picked disagree")
          end
        end
        local x, y = rng.int(1, board.w), rng.int(1, board.h)
        grid:setWalkable(x, y, not grid:isWalkable(x, y))
      end
    end
  end)

  it("runs a 2x2 query on a uniform 64x64 board as fast as the grid allows, and exactly #slow", function()
    local grid = astar.new(64, 64)
    local rng = R.rng(7)
    for _ = 1, 700 do grid:setWalkable(rng.int(1, 64), rng.int(1, 64), false) end
    grid:setWalkable(1, 1, true); grid:setWalkable(2, 1, true)
    grid:setWalkable(1, 2, true); grid:setWalkable(2, 2, true)
    for _, mode in ipairs(MODES) do
      local b = board_of(grid, 2, mode)
      local dist = L.dijkstra(b, 1, 1)
      for _ = 1, 6 do
        local gx, gy = rng.int(1, 63), rng.int(1, 63)
        local got = checked_find(grid, b, 1, 1, gx, gy, { size = 2, diagonal = mode }, mode)
        assert(close(dist[gy][gx], got),
          ("%s to (%d, %d): %s, the reference %s"):format(mode, gx, gy, got, dist[gy][gx]))
      end
    end
    -- the C backend runs jump point search on the size's layer: far fewer expansions
    if astar.backend == "c" then
      for _, mode in ipairs { "never", "no-obstacles" } do
        local jps, plain = 0, 0
        for _ = 1, 10 do
          local gx, gy = rng.int(32, 63), rng.int(32, 63)
          if grid:findPath(1, 1, gx, gy, { size = 2, diagonal = mode }) then
            jps = jps + grid:getSearchStats().expanded
            grid:findPath(1, 1, gx, gy, { size = 2, diagonal = mode, algorithm = "astar" })
            plain = plain + grid:getSearchStats().expanded
          end
        end
        assert(plain > 0 and jps * 2 < plain, ("%s: %d expansions with auto, %d with astar"):format(mode, jps, plain))
      end
    end
  end)

  it("treats size 1 as no size, and a unit bigger than the board as fitting nowhere", function()
    local board = make_board(3)
    local grid = board.grid
    for _, mode in ipairs(MODES) do
      local a = { grid:findPath(1, 1, board.w, board.h, { diagonal = mode }) }
      local b = { grid:findPath(1, 1, board.w, board.h, { diagonal = mode, size = 1 }) }
      assert.same(a, b)
    end
    local small = astar.new(3, 4)
    local path, cost = small:findPath(1, 1, 1, 1, { size = 5 })
    assert.same({ { x = 1, y = 1 } }, path)
    assert.equal(0, cost)
    assert.same({ nil, "goal is blocked" }, { small:findPath(1, 1, 2, 1, { size = 4 }) })
    assert.same({ nil, "goal is blocked" }, { small:findPath(1, 1, 3, 3, { size = 2 }) })
    assert.equal(1, select(2, small:findPath(1, 1, 1, 2, { size = 3 })))
    assert.same({ nil, "goal is blocked" }, { small:findPath(1, 1, 1, 1 + 1, { size = 65535 }) })
    -- a layer for a size that fits nowhere stays empty through setWalkable and walls
    small:setWalkable(2, 2, false)
    small:setWalkable(2, 2, true)
    assert.same({ nil, "goal is blocked" }, { small:findPath(1, 1, 1, 2, { size = 65535 }) })
    assert.same({ nil, "goal is blocked" },
      { small:findPath(1, 1, 1, 2, { size = 65535, blocked = { { x = 3, y = 3 } } }) })
    assert.equal(1, select(2, small:findPath(1, 1, 1, 2, { size = 3, blocked = { { x = 2, y = 1 } } })))
    assert.same({ nil, "goal is blocked" },
      { small:findPath(1, 1, 1, 2, { size = 3, blocked = { { x = 3, y = 4 } } }) })
  end)
end)

describe("newSearch with size", function()
  local function run(search, n)
    local status, calls = "searching", 0
    while status == "searching" do
      status = search:step(n)
      calls = calls + 1
      assert(calls < 100000, "the search does not end")
    end
    return status
  end

  it("gives findPath's cost, stepped a few nodes at a time", function()
    for seed = 60, 67 do
      local board = make_board(seed)
      local grid, rng = board.grid, board.rng
      local rule_opts = make_rules(board, 1 + seed % 3)
      for k = 2, 3 do
        for _, mode in ipairs(MODES) do
          local sx, sy = rng.int(1, board.w), rng.int(1, board.h)
          local gx, gy = rng.int(1, board.w), rng.int(1, board.h)
          local opts = merge(rule_opts, { size = k, diagonal = mode })
          local found, want = grid:findPath(sx, sy, gx, gy, opts)
          local search = grid:newSearch(sx, sy, gx, gy, opts)
          local status = run(search, 3)
          local path, cost = search:result()
          if found then
            assert.equal("found", status,
              ("board %d size %d %s (%d,%d) to (%d,%d)"):format(seed, k, mode, sx, sy, gx, gy))
            assert(path and close(want, cost), ("board %d size %d %s"):format(seed, k, mode))
          else
            assert.is_nil(path)
          end
        end
      end
    end
  end)

  it("starts again when the grid changes under it, and answers for the grid as it is", function()
    for seed = 70, 75 do
      local board = make_board(seed)
      local grid, rng = board.grid, board.rng
      for _, mode in ipairs(MODES) do
        local sx, sy = rng.int(1, board.w), rng.int(1, board.h)
        local gx, gy = rng.int(1, board.w), rng.int(1, board.h)
        local search = grid:newSearch(sx, sy, gx, gy, { size = 2, diagonal = mode })
        local status = search:step(2)
        for _ = 1, 3 do
          if status ~= "searching" then break end
          local x, y = rng.int(1, board.w), rng.int(1, board.h)
          grid:setWalkable(x, y, not grid:isWalkable(x, y))
          status = search:step(2)
        end
        run(search, 5)
        local b = board_of(grid, 2, mode)
        local want = L.cost(b, sx, sy, { { gx, gy } })
        local path, cost = search:result()
        if want == INF then
          assert.is_nil(path)
        else
          assert(path and close(want, cost), ("board %d %s: %s vs %s"):format(seed, mode, tostring(cost), want))
          assert(close(L.path_cost(b, path, sx, sy), cost))
        end
      end
    end
  end)
end)

describe("size errors", function()
  local grid = astar.new(8, 6)
  local CALLS = {
    { name = "findPath", n = 5, f = function(o) return grid:findPath(1, 1, 3, 3, o) end },
    { name = "findPath", n = 4, f = function(o) return grid:findPath(1, 1, { { x = 3, y = 3 } }, o) end },
    { name = "newSearch", n = 5, f = function(o) return grid:newSearch(1, 1, 3, 3, o) end },
  }

  it("wants a whole number from 1 to 65535", function()
    for _, c in ipairs(CALLS) do
      local pre = ("bad argument #%d to '%s' ("):format(c.n, c.name)
      local msg = pre .. "opts.size must be a whole number from 1 to 65535, got "
      check_error(msg .. "0)", c.f, { size = 0 })
      check_error(msg .. "-2)", c.f, { size = -2 })
      check_error(msg .. "1.5)", c.f, { size = 1.5 })
      check_error(msg .. "nan)", c.f, { size = 0 / 0 })
      check_error(msg .. "inf)", c.f, { size = math.huge })
      check_error(msg .. "65536)", c.f, { size = 65536 })
      check_error(pre .. "opts.size: number expected, got string)", c.f, { size = "2" })
      check_error(pre .. "opts.size: number expected, got boolean)", c.f, { size = true })
    end
  end)

  it("is refused clearly where it is not supported yet", function()
    -- movementRange and dangerZone's enemies take it (spec/large_ranges_spec.lua)
    check_error("bad argument #2 to 'dangerZone' (opts.size: give each enemy its own (enemies[i].size))",
      grid.dangerZone, grid, { { x = 1, y = 1, move = 2, minRange = 1, maxRange = 1 } }, { size = 2 })
  end)

  it("is refused on hex boards (large units are squares of cells)", function()
    local hex = astar.newHex(8, 6)
    check_error("bad argument #5 to 'findPath' (opts.size: large units need a square grid)",
      hex.findPath, hex, 1, 1, 5, 5, { size = 2 })
    check_error("bad argument #4 to 'findPath' (opts.size: large units need a square grid)",
      hex.findPath, hex, 1, 1, { { x = 5, y = 5 } }, { size = 3 })
    check_error("bad argument #5 to 'newSearch' (opts.size: large units need a square grid)",
      hex.newSearch, hex, 1, 1, 5, 5, { size = 2 })
    -- size 1 is every board's default
    local path, cost = hex:findPath(1, 1, 5, 5, { size = 1 })
    assert.are.same({ hex:findPath(1, 1, 5, 5) }, { path, cost })
  end)
end)

describe("size with callbacks that misbehave", function()
  local function fresh()
    local grid = astar.new(12, 10)
    for y = 1, 7 do grid:setWalkable(6, y, false) end
    return grid
  end

  it("reports a grid closed, changed or searched again from a rule, and an error, never a wrong path", function()
    for _, k in ipairs { 2, 3 } do
      for _, mode in ipairs(MODES) do
        local opts = { size = k, diagonal = mode }
        -- closed
        local grid = fresh()
        opts.cost = function() getmetatable(grid).__close(grid) return 1 end
        check_error("grid closed during findPath", grid.findPath, grid, 1, 1, 9, 1, opts)
        grid = fresh()
        check_error("grid closed during newSearch", grid.newSearch, grid, 1, 1, 9, 1, opts)
        grid = fresh()
        local search = grid:newSearch(1, 1, 9, 1, { size = k, diagonal = mode, partial = true,
          cost = function() getmetatable(grid).__close(grid) return 1 end })
        check_error("grid closed during step", search.step, search, 10)
        -- changed on every call
        grid = fresh()
        opts.cost = function()
          grid:setWalkable(12, 10, not grid:isWalkable(12, 10))
          return 1
        end
        check_error("grid changed during findPath", grid.findPath, grid, 1, 1, 9, 1, opts)
        -- changed once (a wall the unit must go round): the answer is the new grid's
        grid = fresh()
        local once = false
        opts.cost = function()
          if not once then
            once = true
            grid:setWalkable(7, 9, false)
          end
          return 1
        end
        local path, cost = grid:findPath(1, 1, 9, 1, opts)
        local b = board_of(grid, k, mode)
        local want = L.cost(b, 1, 1, { { 9, 1 } })
        if want == INF then
          assert.is_nil(path)
        else
          assert(path and close(want, cost), ("size %d %s: %s vs %s"):format(k, mode, tostring(cost), want))
        end
        -- another query of another size from inside (a new layer meanwhile)
        grid = fresh()
        local inner
        opts.cost = function()
          if not inner then inner = { grid:findPath(1, 1, 9, 1, { size = k + 1, diagonal = mode }) } end
          return 1
        end
        path, cost = grid:findPath(1, 1, 9, 1, opts)
        want = L.cost(board_of(grid, k, mode), 1, 1, { { 9, 1 } })
        assert(path and close(want, cost))
        assert(close(L.cost(board_of(grid, k + 1, mode), 1, 1, { { 9, 1 } }),
          inner[1] and inner[2] or INF))
        -- an error
        opts.cost = function() error("boom", 0) end
        check_error("boom", grid.findPath, grid, 1, 1, 9, 1, opts)
        opts.cost = nil
      end
    end
  end)
end)
