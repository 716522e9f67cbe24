-- Query rules of findPath and newSearch (README, grid:findPath): opts.cost,
-- opts.blocked and opts.occupied (a function (x, y), a table indexed by cell
-- number, or a list of points), opts.near, opts.maxCost (with and without
-- partial) and goal lists `findPath(sx, sy, {{x =, y =}, ...} [, opts])` that
-- return `path, cost, index`.
--
-- Hand-drawn boards with known answers first, then generated boards (every
-- diagonal mode, every rule in each of its three forms, near 0..3, lists of 1..5
-- goals, maxCost, partial, flat, into, newSearch stepped a few nodes at a time)
-- checked against the independent reference in spec/helpers/rules_reference.lua,
-- then the error messages. Nothing here depends on the backend.

local astar = require "astar"
local R = require "helpers.reference"
local RR = require "helpers.rules_reference"
local check_error = require("helpers.errors").check_error

local pack = table.pack or function(...) return { n = select("#", ...), ... } end

local SQRT2 = math.sqrt(2)
local INF = math.huge

-- The points of a flat path, as {x =, y =} tables.
local function unflatten(flat)
  assert(#flat % 2 == 0, "a flat path of odd length " .. #flat)
  local points = {}
  for i = 1, #flat / 2 do points[i] = { x = flat[2 * i - 1], y = flat[2 * i] } end
  return points
end

local function pts(...)
  local out = {}
  for i, p in ipairs({ ... }) do out[i] = { x = p[1], y = p[2] } end
  return out
end

local function close(a, b) return R.close(a, b) end

---------------------------------------------------------------------------------
describe("the rules reference", function()
  -- the reference is checked on boards small enough to work out by hand
  local corridor = R.parse_string_map(".....\n.###.\n.....")
  local open = R.parse_string_map("...\n...\n...")

  it("applies blocked, occupied and cost rules in all three forms", function()
    local function d(b, mode, sx, sy, x, y) return RR.dijkstra(b, mode, sx, sy)[RR.cell(b.w, x, y)] end
    for _, form in ipairs { { { x = 2, y = 1 } }, { [2] = true }, function(x, y) return x == 2 and y == 1 end } do
      local b = RR.board(corridor, { blocked = form })
      assert.are.equal(8, d(b, "never", 1, 1, 5, 1))
      assert.is_nil(d(b, "never", 1, 1, 2, 1))
      local o = RR.board(corridor, { occupied = form })
      assert.are.equal(4, d(o, "never", 1, 1, 5, 1))
      assert.are.same({ kind = "none", reasons = { ["goal is blocked"] = true } },
        RR.expect(o, { mode = "never", sx = 5, sy = 1, goals = { { x = 2, y = 1 } } }))
      local e = RR.expect(o, { mode = "never", sx = 5, sy = 1, goals = { { x = 2, y = 1 } }, near = 1 })
      assert.are.same({ kind = "path", cost = 2, ends = { [3] = 2 } }, e)
    end
    for _, form in ipairs { { { x = 2, y = 1, cost = false } }, { 1, nil, 1, 1, 1, 1, 1, 1, 1 },
      function(x, y) return (x == 2 and y == 1) and INF or 1 end } do
      local b = RR.board(open, { cost = form })
      local dist = RR.dijkstra(b, "no-obstacles", 1, 1)
      assert.are.equal(2, dist[5])
      assert(close(SQRT2, RR.dijkstra(b, "one-obstacle", 1, 1)[5]))
      assert(close(2 * SQRT2, RR.dijkstra(b, "always", 1, 1)[3]))
      assert.are.equal(4, RR.dijkstra(b, "never", 1, 1)[3])
    end
    local o = RR.board(open, { occupied = { { x = 2, y = 1 } } })
    assert(close(SQRT2, RR.dijkstra(o, "no-obstacles", 1, 1)[5]))
    local twos = R.parse_string_map("22\n22")
    assert.are.equal(2.5, RR.dijkstra(RR.board(twos, { cost = { { x = 2, y = 1, cost = 0.5 } } }), "never", 1, 1)[4])
    local t = RR.board(twos, { cost = { [2] = 0.5, [4] = 1 } })
    assert.are.equal(1.5, RR.dijkstra(t, "never", 1, 1)[4])
    assert.is_nil(RR.dijkstra(t, "never", 1, 1)[3])
  end)

  it("knows near regions, indexes, maxCost and partial ends", function()
    local b = RR.board(corridor)
    local q = { mode = "never", sx = 1, sy = 1, goals = { { x = 5, y = 1 } }, maxCost = 3 }
    assert.are.same({ ["no path"] = true }, RR.expect(b, q).reasons)
    q.partial = true
    assert.are.same({ kind = "partial", cost = 3, ends = { [4] = 3 } }, RR.expect(b, q))
    q.maxCost = 4
    assert.are.same({ kind = "path", cost = 4, ends = { [5] = 4 } }, RR.expect(b, q))
    -- the box of (5, 3) with near 1 is [4, 5] x [2, 3]: (3, 1) is 1 + 1 from it
    q = { mode = "never", sx = 1, sy = 1, goals = { { x = 5, y = 3 } }, near = 1, maxCost = 2, partial = true }
    assert.are.same({ kind = "partial", cost = 2, ends = { [3] = 2 } }, RR.expect(b, q))
    local goals = { { x = 5, y = 3 }, { x = 1, y = 3 } }
    assert.are.equal(2, RR.goal_index("never", 1, 3, goals, 0))
    assert.are.equal(1, RR.goal_index("never", 1, 3, goals, 4))
    assert.is_nil(RR.goal_index("never", 2, 2, goals, 1))
    assert.are.equal(2, RR.goal_index("always", 2, 2, goals, 1))
    q = { mode = "never", sx = 1, sy = 1, goals = goals, list = true }
    assert.are.same({ kind = "path", cost = 2, ends = { [11] = 2 } }, RR.expect(b, q))
  end)

  it("rejects paths that break a rule", function()
    local b = RR.board(corridor, { blocked = { { x = 2, y = 1 } } })
    local q = { mode = "never", sx = 1, sy = 1, goals = { { x = 5, y = 1 } } }
    local e = RR.expect(b, q)
    local path = pts({ 1, 1 }, { 1, 2 }, { 1, 3 }, { 2, 3 }, { 3, 3 }, { 4, 3 }, { 5, 3 }, { 5, 2 }, { 5, 1 })
    assert.is_true(RR.check(b, q, { path, 8, n = 2 }, e))
    assert.is_nil(RR.check(b, q, { path, 9, n = 2 }, e))
    assert.is_nil(RR.check(b, q, { pts({ 1, 1 }, { 2, 1 }), 1, n = 2 }, e))
    q.list = true
    assert.is_nil(RR.check(b, q, { path, 8, n = 2 }, e))
    assert.is_true(RR.check(b, q, { path, 8, 1, n = 3 }, e))
    local ob = RR.board(open, { blocked = { { x = 2, y = 1 } } })
    q = { mode = "no-obstacles", sx = 1, sy = 1, goals = { { x = 2, y = 2 } } }
    local diag = { pts({ 1, 1 }, { 2, 2 }), SQRT2, n = 2 }
    assert.is_nil(RR.check(ob, q, diag, RR.expect(ob, q)))
    q.mode = "one-obstacle"
    assert.is_true(RR.check(ob, q, diag, RR.expect(ob, q)))
  end)
end)

---------------------------------------------------------------------------------
describe("findPath rules on hand-drawn boards", function()
  it("the issue's example: a goal under a unit is blocked, near = 1 reaches next to it", function()
    local grid = astar.new(8, 6)
    local unit = { { x = 5, y = 4 } }
    assert.are.same({ nil, "goal is blocked" }, { grid:findPath(4, 4, 5, 4, { blocked = unit }) })
    assert.are.same({ nil, "goal is blocked" }, { grid:findPath(4, 4, 5, 4, { occupied = unit }) })
    -- next to the unit already: the start is an end cell
    assert.are.same({ pts({ 4, 4 }), 0 }, { grid:findPath(4, 4, 5, 4, { blocked = unit, near = 1 }) })
    local path, cost = grid:findPath(1, 4, 5, 4, { blocked = unit, near = 1 })
    assert.are.same(pts({ 1, 4 }, { 2, 4 }, { 3, 4 }, { 4, 4 }), path)
    assert.are.equal(3, cost)
    -- from the other side, diagonally next to it
    path, cost = grid:findPath(8, 1, 5, 4, { blocked = unit, near = 1, diagonal = "always" })
    assert.are.same(pts({ 8, 1 }, { 7, 2 }, { 6, 3 }), path)
    assert(close(2 * SQRT2, cost))
  end)

  it("treats blocked and impassable cells as walls for the corner rule, occupied cells not", function()
    local grid = astar.new(3, 3)
    local forms = {
      { blocked = { { x = 2, y = 1 } } },
      { blocked = { [2] = true } },
      { blocked = function(x, y) return x == 2 and y == 1 end },
      { cost = { { x = 2, y = 1, cost = false } } },
      { cost = { { x = 2, y = 1, cost = INF } } },
      { cost = { 1, nil, 1, 1, 1, 1, 1, 1, 1 } },
      { cost = { 1, false, 1, 1, 1, 1, 1, 1, 1 } },
      { cost = function(x, y) if not (x == 2 and y == 1) then return 1 end end },
      { cost = function(x, y) return (x == 2 and y == 1) and INF or 1 end },
    }
    for i, rule in ipairs(forms) do
      local what = "form " .. i
      rule.diagonal = "no-obstacles"
      local path, cost = grid:findPath(1, 1, 2, 2, rule)
      assert.are.equal(3, #path, what)
      assert.are.equal(2, cost, what)
      for _, mode in ipairs { "one-obstacle", "always" } do
        rule.diagonal = mode
        path, cost = grid:findPath(1, 1, 2, 2, rule)
        assert.are.same(pts({ 1, 1 }, { 2, 2 }), path, what)
        assert(close(SQRT2, cost), what)
      end
      rule.diagonal = "never"
      assert.are.same({ pts({ 1, 1 }, { 1, 2 }, { 2, 2 }, { 3, 2 }, { 3, 1 }), 4 },
        { grid:findPath(1, 1, 3, 1, rule) }, what)
      assert.are.same({ nil, "goal is blocked" }, { grid:findPath(1, 1, 2, 1, rule) }, what)
    end
    for _, mode in ipairs { "no-obstacles", "one-obstacle", "always" } do
      local path, cost = grid:findPath(1, 1, 2, 2, { diagonal = mode, occupied = { { x = 2, y = 1 } } })
      assert.are.same(pts({ 1, 1 }, { 2, 2 }), path, mode)
      assert(close(SQRT2, cost), mode)
    end
    -- both corners blocked: only "always" passes between them
    local both = { { x = 2, y = 1 }, { x = 1, y = 2 } }
    for _, mode in ipairs { "no-obstacles", "one-obstacle", "never" } do
      assert.are.same({ nil, "no path" }, { grid:findPath(1, 1, 3, 3, { diagonal = mode, blocked = both }) }, mode)
    end
    local path, cost = grid:findPath(1, 1, 3, 3, { diagonal = "always", blocked = both })
    assert.are.same(pts({ 1, 1 }, { 2, 2 }, { 3, 3 }), path)
    assert(close(2 * SQRT2, cost))
  end)

  it("crosses occupied cells but never ends on one", function()
    local grid = astar.fromString("#######\n.......\n#######")
    local allies = { { x = 3, y = 2 }, { x = 4, y = 2 } }
    local straight = pts({ 1, 2 }, { 2, 2 }, { 3, 2 }, { 4, 2 }, { 5, 2 }, { 6, 2 })
    for _, mode in ipairs(R.MODES) do
      assert.are.same({ straight, 5 }, { grid:findPath(1, 2, 6, 2, { occupied = allies, diagonal = mode }) })
      assert.are.same({ nil, "goal is blocked" },
        { grid:findPath(1, 2, 4, 2, { occupied = allies, diagonal = mode }) })
      -- next to (4, 2): (3, 2) is occupied, (4, 1) and (4, 3) walls, so (5, 2)
      local path, cost = grid:findPath(1, 2, 4, 2, { occupied = allies, diagonal = mode, near = 1 })
      assert.are.same(pts({ 1, 2 }, { 2, 2 }, { 3, 2 }, { 4, 2 }, { 5, 2 }), path)
      assert.are.equal(4, cost)
      path, cost = grid:findPath(1, 2, 4, 2, { occupied = allies, diagonal = mode, near = 2 })
      assert.are.same(pts({ 1, 2 }, { 2, 2 }), path)
      assert.are.equal(1, cost)
    end
    -- any truthy value is on: 0 and "" too; false is off
    local truthy = { [10] = 0, [11] = "", [12] = false }
    assert.are.same({ nil, "goal is blocked" }, { grid:findPath(1, 2, 3, 2, { occupied = truthy }) })
    assert.are.same({ nil, "goal is blocked" }, { grid:findPath(1, 2, 4, 2, { occupied = truthy }) })
    assert.are.equal(4, select(2, grid:findPath(1, 2, 5, 2, { occupied = truthy })))
    assert.are.same({ nil, "no path" }, { grid:findPath(1, 2, 5, 2, { blocked = truthy }) })
    assert.are.equal(4, select(2, grid:findPath(1, 2, 5, 2, { blocked = { [12] = false } })))
  end)

  it("replaces the grid's costs with a function or a cell table, and some with a list", function()
    local grid = astar.fromString(".9..\n.9..\n....")
    local straight = pts({ 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 })
    local ones = {}
    for i = 1, 12 do ones[i] = 1 end
    assert.are.equal(7, select(2, grid:findPath(1, 1, 4, 1, { diagonal = "never" })))
    for _, mode in ipairs { "never", "no-obstacles" } do
      for _, fly in ipairs { function() return 1 end, ones,
        { { x = 2, y = 1, cost = 1 }, { x = 2, y = 2, cost = 1 } } } do
        assert.are.same({ straight, 3 }, { grid:findPath(1, 1, 4, 1, { cost = fly, diagonal = mode }) })
      end
    end
    -- a list keeps every other cell's grid cost: the 9 is crossed when the row below is water
    local water = { { x = 1, y = 3, cost = false }, { x = 2, y = 3, cost = INF }, { x = 3, y = 3, cost = false } }
    assert.are.same({ straight, 11 }, { grid:findPath(1, 1, 4, 1, { cost = water, diagonal = "never" }) })
    -- a cell table replaces: a missing entry is impassable
    assert.are.same({ straight, 3 }, { grid:findPath(1, 1, 4, 1, { cost = { 1, 1, 1, 1 }, diagonal = "never" }) })
    assert.are.same({ nil, "goal is blocked" }, { grid:findPath(1, 1, 4, 1, { cost = { [2] = 1 } }) })
    -- an empty table is no rule (issue 21): the grid's costs stand
    assert.are.same({ 7 }, { select(2, grid:findPath(1, 1, 4, 1, { cost = {}, diagonal = "never" })) })
    assert.are.same({ nil, "no path" }, { grid:findPath(1, 1, 4, 1, { cost = { [4] = 1 } }) })
    -- cheaper than any cell of the grid: still the optimal path
    local road = function(_, y) return y == 3 and 0.25 or 2 end
    assert.are.same({ pts({ 1, 1 }, { 1, 2 }, { 1, 3 }, { 2, 3 }, { 3, 3 }, { 4, 3 }), 3 },
      { grid:findPath(1, 1, 4, 3, { cost = road, diagonal = "never" }) })
    -- walls stay walls whatever cost says
    local walled = astar.fromString(".#.\n...")
    assert.are.same({ pts({ 1, 1 }, { 1, 2 }, { 2, 2 }, { 3, 2 }, { 3, 1 }), 4 },
      { walled:findPath(1, 1, 3, 1, { cost = function() return 1 end, diagonal = "never" }) })
    assert.are.same({ nil, "goal is blocked" },
      { walled:findPath(1, 1, 2, 1, { cost = { { x = 2, y = 1, cost = 1 } } }) })
  end)

  it("never asks a rule about the start", function()
    local grid = astar.new(3, 3)
    local function guard(answer)
      return function(x, y)
        if x == 2 and y == 2 then error("a rule was asked about the start", 0) end
        return answer(x, y)
      end
    end
    local no = function() return false end
    local one = function() return 1 end
    local rules = { blocked = guard(no), occupied = guard(no), cost = guard(one) }
    for _, mode in ipairs(R.MODES) do
      rules.diagonal = mode
      for x = 1, 3 do
        for y = 1, 3 do
          local path = grid:findPath(2, 2, x, y, rules)
          assert.are.same({ x = x, y = y }, path[#path])
        end
      end
    end
  end)

  it("lets the start be in any rule's set, with any cost a rule gives it", function()
    local grid = astar.new(3, 3)
    -- a one-cell path to itself, and it can leave
    local here = { { x = 2, y = 2 } }
    for _, rule in ipairs { { blocked = here }, { occupied = here }, { cost = { { x = 2, y = 2, cost = false } } },
      { cost = function(x, y) if x ~= 2 or y ~= 2 then return 1 end end } } do
      assert.are.same({ pts({ 2, 2 }), 0 }, { grid:findPath(2, 2, 2, 2, rule) })
      assert.are.same({ pts({ 2, 2 }, { 3, 2 }), 1 }, { grid:findPath(2, 2, 3, 2, rule) })
    end
    -- not even a cost the rule could not give for another cell is seen
    local line = astar.new(3, 1)
    assert.are.same({ pts({ 1, 1 }, { 2, 1 }, { 3, 1 }), 2 }, { line:findPath(1, 1, 3, 1, { cost = { 0, 1, 1 } }) })
    assert.are.same({ pts({ 1, 1 }, { 2, 1 }, { 3, 1 }), 2 },
      { line:findPath(1, 1, 3, 1, { cost = function(x) return x == 1 and -1 or 1 end }) })
  end)

  it("ends near the goal: manhattan with 'never', chebyshev otherwise; the goal may be a wall", function()
    local grid = astar.new(7, 7)
    grid:setWalkable(4, 4, false)
    assert.are.same({ nil, "goal is blocked" }, { grid:findPath(1, 4, 4, 4) })
    assert.are.same({ pts({ 1, 4 }, { 2, 4 }, { 3, 4 }), 2 }, { grid:findPath(1, 4, 4, 4, { near = 1 }) })
    assert.are.same({ pts({ 1, 4 }, { 2, 4 }), 1 }, { grid:findPath(1, 4, 4, 4, { near = 2 }) })
    assert.are.same({ pts({ 1, 4 }), 0 }, { grid:findPath(1, 4, 4, 4, { near = 3 }) })
    -- from a corner: the square region's corner (3, 3) two diagonal steps away
    local path, cost = grid:findPath(1, 1, 4, 4, { near = 1, diagonal = "always" })
    assert.are.same(pts({ 1, 1 }, { 2, 2 }, { 3, 3 }), path)
    assert(close(2 * SQRT2, cost))
    -- the diamond: (3, 3) is not in it; (3, 4) or (4, 3), five steps away
    path, cost = grid:findPath(1, 1, 4, 4, { near = 1, diagonal = "never" })
    assert.are.equal(5, cost)
    local last = path[#path]
    assert.is_true((last.x == 3 and last.y == 4) or (last.x == 4 and last.y == 3))
    path, cost = grid:findPath(1, 1, 4, 4, { near = 2, diagonal = "never" })
    assert.are.equal(4, cost)
    assert.are.equal(4, math.abs(path[#path].x - 4) + math.abs(path[#path].y - 4) + 2)
    -- near 0 is the default
    assert.are.same({ grid:findPath(1, 1, 5, 6) }, { grid:findPath(1, 1, 5, 6, { near = 0 }) })
    -- unreachable region: "no path" even though the goal itself is a wall
    local boxed = astar.fromString("....#...\n....#.#.\n....#...")
    assert.are.same({ nil, "no path" }, { boxed:findPath(1, 1, 7, 2, { near = 1, diagonal = "never" }) })
    assert.are.same({ pts({ 1, 1 }), 0 }, { boxed:findPath(1, 1, 7, 2, { near = 6 }) })
  end)

  it("goes to the cheapest of several goals and says which, the smallest index", function()
    local grid = astar.new(8, 6)
    grid:setWalkable(2, 1, false)
    local goals = { { x = 8, y = 6 }, { x = 3, y = 3 }, { x = 3, y = 3 } }
    local path, cost, index = grid:findPath(1, 1, goals, { diagonal = "never" })
    assert.are.equal(4, cost)
    assert.are.equal(2, index)
    assert.are.same({ x = 3, y = 3 }, path[#path])
    -- opts may be left out; the goal argument is the list, opts then argument 4
    assert.are.equal(3, select("#", grid:findPath(1, 1, goals)))
    assert.are.equal(2, select(3, grid:findPath(1, 1, goals)))
    -- a wall among the goals is passed over; the start inside a region ends at once
    assert.are.same({ pts({ 1, 1 }, { 1, 2 }), 1, 2 },
      { grid:findPath(1, 1, pts({ 2, 1 }, { 1, 2 }), { diagonal = "never" }) })
    assert.are.same({ pts({ 1, 1 }), 0, 2 },
      { grid:findPath(1, 1, pts({ 5, 1 }, { 3, 1 }), { near = 2, diagonal = "never" }) })
    assert.are.same({ pts({ 1, 1 }), 0, 1 }, { grid:findPath(1, 1, pts({ 1, 1 }, { 1, 1 })) })
    -- (1, 2) is the only end at cost 1, in both regions: the first goal's index
    -- whichever goal is nearer
    for _, list in ipairs { pts({ 1, 3 }, { 2, 2 }), pts({ 2, 2 }, { 1, 3 }) } do
      assert.are.same({ pts({ 1, 1 }, { 1, 2 }), 1, 1 },
        { grid:findPath(1, 1, list, { near = 1, diagonal = "never" }) })
    end
    assert.are.same({ pts({ 1, 1 }, { 1, 2 }), 1, 2 },
      { grid:findPath(1, 1, pts({ 2, 4 }, { 1, 4 }), { near = 2, diagonal = "never" }) })
    -- none reachable
    local walled = astar.fromString("..#.\n..#.")
    assert.are.same({ nil, "no path" }, { walled:findPath(1, 1, pts({ 4, 1 }, { 4, 2 })) })
    assert.are.same({ nil, "no path" }, { walled:findPath(1, 1, pts({ 4, 1 }, { 3, 1 })) })
  end)

  it("newSearch takes the same goal lists and rules and gives findPath's results", function()
    local grid = astar.new(8, 6)
    grid:setWalkable(2, 1, false)
    local goals = pts({ 8, 6 }, { 3, 3 })
    local function run(opts)
      local search = grid:newSearch(1, 1, goals, opts)
      local status, calls = search:step(1), 1
      while status == "searching" do
        status = search:step(1)
        calls = calls + 1
      end
      assert.is_true(calls > 1)
      return status, pack(search:result())
    end
    local opts = { diagonal = "never", near = 1, occupied = { { x = 2, y = 3 } } }
    local status, r = run(opts)
    assert.are.equal("found", status)
    assert.are.same(pack(grid:findPath(1, 1, goals, opts)), r)
    -- (2, 3) is occupied: (3, 2) is the only end at cost 3
    assert.are.same({ pts({ 1, 1 }, { 1, 2 }, { 2, 2 }, { 3, 2 }), 3, 2 }, { r[1], r[2], r[3] })
    opts = { maxCost = 1.5, partial = true, blocked = { [10] = true } }
    status, r = run(opts)
    assert.are.equal("unreachable", status)
    assert.are.same(pack(grid:findPath(1, 1, goals, opts)), r)
    assert.are.same({ pts({ 1, 1 }, { 1, 2 }), 1, false }, { r[1], r[2], r[3] })
    opts = { maxCost = 1.5 }
    status, r = run(opts)
    assert.are.equal("unreachable", status)
    assert.are.same({ nil, "no path", n = 2 }, r)
  end)

  it("stops at maxCost, and with partial goes as close as it can", function()
    local grid = astar.fromString("........")
    assert.are.same({ pts({ 1, 1 }, { 2, 1 }, { 3, 1 }), 2 }, { grid:findPath(1, 1, 3, 1, { maxCost = 2 }) })
    assert.are.equal(7, select(2, grid:findPath(1, 1, 8, 1, { maxCost = 7 })))
    assert.are.same({ nil, "no path" }, { grid:findPath(1, 1, 8, 1, { maxCost = 6.5 }) })
    assert.are.same({ nil, "no path" }, { grid:findPath(1, 1, 8, 1, { maxCost = 0 }) })
    assert.are.same({ pts({ 1, 1 }), 0 }, { grid:findPath(1, 1, 1, 1, { maxCost = 0 }) })
    assert.are.same({ grid:findPath(1, 1, 8, 1) }, { grid:findPath(1, 1, 8, 1, { maxCost = INF }) })
    assert.are.same({ pts({ 1, 1 }, { 2, 1 }, { 3, 1 }), 2, false },
      { grid:findPath(1, 1, 8, 1, { maxCost = 2.5, partial = true }) })
    assert.are.same({ pts({ 1, 1 }), 0, false }, { grid:findPath(1, 1, 8, 1, { maxCost = 0, partial = true }) })
    assert.are.same({ pts({ 1, 1 }, { 2, 1 }, { 3, 1 }), 2, true },
      { grid:findPath(1, 1, 3, 1, { maxCost = 2, partial = true }) })
    assert.are.same({ pts({ 1, 1 }, { 2, 1 }, { 3, 1 }), 2, 2 },
      { grid:findPath(1, 1, pts({ 8, 1 }, { 3, 1 }), { maxCost = 2, partial = true }) })
    assert.are.same({ pts({ 1, 1 }, { 2, 1 }, { 3, 1 }), 2, false },
      { grid:findPath(1, 1, pts({ 8, 1 }, { 6, 1 }), { maxCost = 2, partial = true }) })
    -- near and maxCost: (6, 1) is within 2 of the goal and costs 5
    assert.are.same({ nil, "no path" }, { grid:findPath(1, 1, 8, 1, { maxCost = 4.9, near = 2 }) })
    assert.are.equal(5, select(2, grid:findPath(1, 1, 8, 1, { maxCost = 5, near = 2 })))
    -- an occupied cell is not a partial end: (4, 1) is, so (3, 1)
    assert.are.same({ pts({ 1, 1 }, { 2, 1 }, { 3, 1 }), 2, false },
      { grid:findPath(1, 1, 8, 1, { maxCost = 3, partial = true, occupied = { { x = 4, y = 1 } } }) })
    -- a blocked goal: "goal is blocked" before maxCost; partial still moves closer
    assert.are.same({ nil, "goal is blocked" },
      { grid:findPath(1, 1, 8, 1, { maxCost = 100, blocked = { [8] = true } }) })
    assert.are.same({ pts({ 1, 1 }, { 2, 1 }), 1, false },
      { grid:findPath(1, 1, 8, 1, { maxCost = 1, partial = true, blocked = { [8] = true } }) })
    local path, cost, reached = grid:findPath(1, 1, 8, 1, { partial = true, blocked = { [8] = true } })
    assert.are.same({ x = 7, y = 1 }, path[#path])
    assert.are.same({ 6, false }, { cost, reached })
  end)

  it("measures partial closeness to the goal's box, over every goal", function()
    local grid = astar.fromString(table.concat({
      "......",
      "......",
      "......",
      "......",
      "......",
      "......",
    }, "\n"))
    -- from (1, 1) with maxCost 2 ("never"): (3, 1), (2, 2) and (1, 3) cost 2; the
    -- box of (6, 6) with near 2 is [4, 6] x [4, 6]: (2, 2) is 2 + 2 from it, (3, 1)
    -- 1 + 3, (1, 3) 3 + 1 (manhattan); with the octile estimate (2, 2) is closest
    local q = { maxCost = 2, partial = true, near = 2, diagonal = "never" }
    local path, cost, reached = grid:findPath(1, 1, 6, 6, q)
    assert.are.same({ 2, false }, { cost, reached })
    assert.is_true(#path == 3)
    -- with a second goal at (6, 1) whose box [4, 6] x [1, 3] is 1 from (3, 1)
    path, cost, reached = grid:findPath(1, 1, pts({ 6, 6 }, { 6, 1 }), q)
    assert.are.same({ { x = 3, y = 1 }, 2, false }, { path[#path], cost, reached })
    -- octile closeness on 8 directions: (2, 2) is sqrt 2 away after one diagonal step
    q = { maxCost = 1.5, partial = true, near = 3, diagonal = "always" }
    path, cost, reached = grid:findPath(1, 1, 6, 6, q)
    assert.are.same({ pts({ 1, 1 }, { 2, 2 }), false }, { path, reached })
    assert(close(SQRT2, cost))
    -- a tie in closeness goes to the cheaper cell: (2, 1) at 1.5 and (2, 2) at 2 are
    -- both 4 from (6, 1) by chebyshev
    grid:setCost(2, 1, 1.5)
    path, cost, reached = grid:findPath(1, 1, 6, 1,
      { maxCost = 2.1, partial = true, diagonal = "never", heuristic = "chebyshev" })
    assert.are.same({ pts({ 1, 1 }, { 2, 1 }), 1.5, false }, { path, cost, reached })
  end)
end)

---------------------------------------------------------------------------------
-- Generated boards against the reference.

local COSTS = { 1, 1, 1, 2, 3, 4, 0.5 }
local RULE_COSTS = { 0.25, 0.5, 1, 2, 5, false, INF }
local W, H = 12, 10

-- A random set of distinct cells, as a map cell number -> true.
local function random_cells(rng, count)
  local set = {}
  for _ = 1, count do set[RR.cell(W, rng.int(1, W), rng.int(1, H))] = true end
  return set
end

local function xy(i)
  local x = (i - 1) % W + 1
  return x, (i - x) / W + 1
end

local function sorted_keys(set)
  local keys = {}
  for k in pairs(set) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- A flag set in form 1 (list), 2 (cell table) or 3 (function).
local function flag_form(set, form)
  if form == 1 then
    local list = {}
    for _, i in ipairs(sorted_keys(set)) do
      local x, y = xy(i)
      list[#list + 1] = { x = x, y = y }
    end
    if #list == 0 then return {} end   -- an empty list is an empty cell table
    return list
  elseif form == 2 then
    local t = {}
    for i = 1, W * H do
      if set[i] then t[i] = (i % 2 == 0) and true or 1 else t[i] = (i % 3 == 0) and false or nil end
    end
    return t
  end
  return function(x, y) return set[RR.cell(W, x, y)] end
end

-- A cost rule: listed[cell] = cost, false or INF; every other cell keeps the grid
-- cost. Form 1 (list), 2 (cell table, complete; impassable as false, INF or nil)
-- or 3 (function).
local function cost_form(listed, desc, form)
  if form == 1 then
    local list = {}
    for _, i in ipairs(sorted_keys(listed)) do
      local x, y = xy(i)
      list[#list + 1] = { x = x, y = y, cost = listed[i] }
    end
    return list
  elseif form == 2 then
    local t = {}
    for i = 1, W * H do
      local x, y = xy(i)
      local v = listed[i]
      if v == nil then
        v = desc.cost[x][y]
      elseif v == false and i % 2 == 0 then
        v = nil
      end
      t[i] = v
    end
    return t
  end
  return function(x, y)
    local v = listed[RR.cell(W, x, y)]
    if v == nil then return desc.cost[x][y] end
    return v
  end
end

local function describe_query(q, opts)
  local goals = {}
  for i, g in ipairs(q.goals) do goals[i] = ("(%d,%d)"):format(g.x, g.y) end
  local o = {}
  for _, k in ipairs { "diagonal", "near", "maxCost", "partial", "heuristic", "weight", "algorithm", "flat" } do
    if opts[k] ~= nil then o[#o + 1] = k .. "=" .. tostring(opts[k]) end
  end
  for _, k in ipairs { "cost", "blocked", "occupied" } do
    if opts[k] ~= nil then
      o[#o + 1] = k .. "=" .. (type(opts[k]) == "function" and "function" or RR.is_list(opts[k]) and "list" or "table")
    end
  end
  return ("from (%d,%d) to %s%s {%s}"):format(q.sx, q.sy, q.list and "list " or "",
    table.concat(goals, " "), table.concat(o, ", "))
end

local function find(grid, q, opts)
  if q.list then return pack(grid:findPath(q.sx, q.sy, q.goals, opts)) end
  return pack(grid:findPath(q.sx, q.sy, q.goals[1].x, q.goals[1].y, opts))
end

-- Runs a search to the end n nodes at a time; returns pack(result()) and the status.
local function stepped(grid, q, opts, n)
  local search
  if q.list then
    search = grid:newSearch(q.sx, q.sy, q.goals, opts)
  else
    search = grid:newSearch(q.sx, q.sy, q.goals[1].x, q.goals[1].y, opts)
  end
  local status, calls = "searching", 0
  while status == "searching" do
    status = search:step(n)
    calls = calls + 1
    assert(calls < 100000, "the search does not end")
  end
  return pack(search:result()), status
end

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- One board: walls, costs and units; its grid; and the sets of the rules.
local function make_board(seed)
  local rng = R.rng(seed)
  local uniform = seed % 3 == 0   -- equal costs: A* and JPS would both be eligible
  local desc = R.random_map(rng, W, H, 0.2, uniform and { 1 } or COSTS)
  local board = { seed = seed, rng = rng, desc = desc, grid = R.build_grid(astar, desc) }
  board.blocked = random_cells(rng, rng.int(3, 6))
  board.occupied = random_cells(rng, rng.int(3, 6))
  board.listed = {}
  for i in pairs(random_cells(rng, rng.int(6, 14))) do board.listed[i] = rng.pick(RULE_COSTS) end
  board.starts = {}
  while #board.starts < 3 do
    local x, y = rng.int(1, W), rng.int(1, H)
    if desc.walkable[x][y] then board.starts[#board.starts + 1] = { x = x, y = y } end
  end
  -- the first unit stands on a start: it is in the sets, and rules never see it
  local s = board.starts[1]
  board.occupied[RR.cell(W, s.x, s.y)] = true
  board.blocked[RR.cell(W, board.starts[2].x, board.starts[2].y)] = true
  return board
end

-- The rules of a query (which ones are on) in a form: 1, 2 or 3.
local function rules_in_form(board, which, form)
  local rules = {}
  if which.blocked then rules.blocked = flag_form(board.blocked, form) end
  if which.occupied then rules.occupied = flag_form(board.occupied, form) end
  if which.cost then rules.cost = cost_form(board.listed, board.desc, form) end
  return rules
end

-- A random query near the start's part of the board.
local function random_query(board, mode, start, heuristics)
  local rng = board.rng
  local q = { mode = mode, sx = start.x, sy = start.y, goals = {} }
  q.list = rng.next() < 0.5
  local count = q.list and rng.int(1, 5) or 1
  for i = 1, count do
    local r = rng.next()
    local g
    if r < 0.15 then            -- a unit's cell
      local keys = sorted_keys(rng.next() < 0.5 and board.blocked or board.occupied)
      local x, y = xy(keys[rng.int(1, #keys)])
      g = { x = x, y = y }
    elseif r < 0.3 then         -- close to the start
      g = { x = math.max(1, math.min(W, start.x + rng.int(-2, 2))),
            y = math.max(1, math.min(H, start.y + rng.int(-2, 2))) }
    else
      g = { x = rng.int(1, W), y = rng.int(1, H) }
    end
    q.goals[i] = g
  end
  local r = rng.next()
  q.near = r < 0.4 and 0 or r < 0.55 and nil or rng.int(1, 3)
  if rng.next() < 0.35 then
    q.maxCost = rng.int(0, 12) + (rng.next() < 0.5 and 0.5 or 0)
  end
  q.partial = rng.next() < 0.35 or nil
  q.heuristic = rng.next() < 0.6 and rng.pick(heuristics) or nil
  if not q.partial and not q.maxCost and rng.next() < 0.12 then
    q.weight = 1.5
    q.optimal = false
  end
  q.algorithm = rng.next() < 0.3 and "astar" or nil
  q.flat = rng.next() < 0.2 or nil
  return q
end

local function opts_of(q, rules)
  local opts = copy(rules)
  opts.diagonal = q.mode
  opts.near, opts.maxCost, opts.partial = q.near, q.maxCost, q.partial
  opts.heuristic, opts.weight, opts.algorithm, opts.flat = q.heuristic, q.weight, q.algorithm, q.flat
  return opts
end

-- The answer with its path as points.
local function as_points(r, flat)
  if flat and type(r[1]) == "table" then
    local c = copy(r)
    c[1] = unflatten(r[1])
    return c
  end
  return r
end

describe("findPath rules on generated boards", function()
  -- every board, every mode, three starts, one set of rules per start (which rules
  -- are on varies), a dozen queries each
  local BOARDS = 9

  it("agrees with the reference in every diagonal mode, the three forms giving one answer #slow", function()
    local counts = { path = 0, partial = 0, none = 0, forms = 0, stepped = 0, index = 0 }
    local into = {}
    for b = 1, BOARDS do
      local board = make_board(9100 + b)
      local rng = board.rng
      for _, mode in ipairs(R.MODES) do
        -- the grid's own heuristic follows the mode when it is not given
        board.grid:setDiagonal(mode)
        local heuristics = R.admissible_heuristics(mode)
        for si, start in ipairs(board.starts) do
          local which = { blocked = rng.next() < 0.7, occupied = rng.next() < 0.7, cost = rng.next() < 0.6 }
          if si == 1 then which = { blocked = true, occupied = true, cost = true } end
          local canonical = rules_in_form(board, which, 3)
          local ref_board = RR.board(board.desc, canonical)
          local dist = RR.dijkstra(ref_board, mode, start.x, start.y)
          -- the reference reads the three forms alike too
          for form = 1, 2 do
            local other = RR.board(board.desc, rules_in_form(board, which, form))
            local d2 = RR.dijkstra(other, mode, start.x, start.y)
            for i = 1, W * H do assert(d2[i] == dist[i], "the reference's forms disagree") end
          end
          for k = 1, 12 do
            local q = random_query(board, mode, start, heuristics)
            local form = (k % 3) + 1
            local opts = opts_of(q, rules_in_form(board, which, form))
            local use_into = k % 5 == 0
            if use_into then opts.into = into end
            local what = ("board %d %s: %s"):format(board.seed, mode, describe_query(q, opts))
            local r = find(board.grid, q, opts)
            if use_into and r[1] ~= nil then
              assert(rawequal(r[1], into), what .. ": the path is not the into table")
            end
            local expected = RR.expect(ref_board, q, dist)
            local ok, why = RR.check(ref_board, q, as_points(r, q.flat), expected)
            assert(ok, what .. ": " .. tostring(why))
            counts[expected.kind] = counts[expected.kind] + 1
            if q.list and expected.kind == "path" and r[3] > 1 then counts.index = counts.index + 1 end
            if r[1] == nil then assert.are.equal(2, r.n, what) end
            if q.list and r[1] ~= nil then assert.are.equal(3, r.n, what) end
            if not use_into and k % 4 == 1 then
              -- the other two forms: the same answer (the same cost or reason; among
              -- ends of equal cost the one chosen, and so the path, may differ)
              for other = 1, 3 do
                if other ~= form then
                  local o = opts_of(q, rules_in_form(board, which, other))
                  local r2 = find(board.grid, q, o)
                  local w2 = what .. " / form " .. other
                  local ok2, why2 = RR.check(ref_board, q, as_points(r2, q.flat), expected)
                  assert(ok2, w2 .. ": " .. tostring(why2))
                  assert.are.equal(r.n, r2.n, w2)
                  if r[1] == nil then
                    assert.are.same(r, r2, w2)
                  else
                    assert(close(r[2], r2[2]), w2 .. (": cost %.17g, form %d gave %.17g"):format(r2[2], form, r[2]))
                    assert.are.equal(type(r[3]), type(r2[3]), w2)
                  end
                end
              end
              counts.forms = counts.forms + 1
            end
            if not use_into and k % 3 == 0 then
              -- the same query spread over small steps
              local got, status = stepped(board.grid, q, opts, rng.int(1, 4))
              assert.are.same(r, got, what .. " (stepped)")
              local found = r[1] ~= nil and r[3] ~= false
              assert.are.equal(found and "found" or "unreachable", status, what)
              counts.stepped = counts.stepped + 1
            end
          end
        end
      end
    end
    -- the boards give every kind of answer
    assert(counts.path > 100, "too few paths: " .. counts.path)
    assert(counts.partial > 20, "too few partial answers: " .. counts.partial)
    assert(counts.none > 20, "too few unreachable queries: " .. counts.none)
    assert(counts.index > 10, "too few goal lists ending past their first goal: " .. counts.index)
  end)

  it("gives the same answer in every output form and through newSearch, goal lists too", function()
    local board = make_board(9300)
    local which = { blocked = true, occupied = true, cost = true }
    local buffer, flat_buffer = { "junk", { x = 0, y = 0, keep = true } }, {}
    for _, mode in ipairs(R.MODES) do
      local rules = rules_in_form(board, which, 1)
      local ref_board = RR.board(board.desc, rules)
      for _, start in ipairs(board.starts) do
        local dist = RR.dijkstra(ref_board, mode, start.x, start.y)
        for _ = 1, 6 do
          local q = random_query(board, mode, start, { mode == "never" and "manhattan" or "octile" })
          q.flat, q.weight, q.optimal = nil, nil, nil
          local opts = opts_of(q, rules)
          local what = ("board %d %s: %s"):format(board.seed, mode, describe_query(q, opts))
          local r = find(board.grid, q, opts)
          assert(RR.check(ref_board, q, r, RR.expect(ref_board, q, dist)))
          local o = opts_of(q, rules)
          o.flat = true
          assert.are.same(r, as_points(find(board.grid, q, o), true), what .. " (flat)")
          o = opts_of(q, rules)
          o.into = buffer
          local t = find(board.grid, q, o)
          if r[1] ~= nil then
            assert(rawequal(buffer, t[1]), what)
            assert.are.equal(#r[1], #buffer, what)
            for i, p in ipairs(r[1]) do
              assert(buffer[i].x == p.x and buffer[i].y == p.y, what .. ": into cell " .. i)
            end
            assert.are.same({ r[2], r[3] }, { t[2], t[3] }, what)
          else
            assert.are.same(r, t, what)
          end
          o.flat = true
          o.into = flat_buffer
          t = find(board.grid, q, o)
          if r[1] ~= nil then
            assert(rawequal(flat_buffer, t[1]), what)
            assert.are.same(r[1], unflatten(flat_buffer), what)
          end
          for _, n in ipairs { 1, 2, math.huge } do
            assert.are.same(r, (stepped(board.grid, q, opts, n)), what .. " step " .. tostring(n))
          end
          o = opts_of(q, rules)
          o.flat = true
          assert.are.same(find(board.grid, q, o), (stepped(board.grid, q, o, 3)), what .. " flat stepped")
        end
      end
    end
  end)

  it("stays optimal when a cost rule is cheaper than every cell of the grid", function()
    -- the grid's lowest cost is 4; the rule's roads cost 0.25: an estimate scaled by
    -- the grid's costs alone would overestimate
    local rng = R.rng(9400)
    for _, mode in ipairs(R.MODES) do
      local desc = R.random_map(rng, W, H, 0.15, { 4 })
      local grid = R.build_grid(astar, desc)
      local road = function(x, y) return (x + y) % 3 == 0 and 0.25 or 4 end
      local ref_board = RR.board(desc, { cost = road })
      for _ = 1, 12 do
        local sx, sy = rng.int(1, W), rng.int(1, H)
        local gx, gy = rng.int(1, W), rng.int(1, H)
        local q = { mode = mode, sx = sx, sy = sy, goals = { { x = gx, y = gy } } }
        for _, algorithm in ipairs { "auto", "astar" } do
          local opts = { cost = road, diagonal = mode, algorithm = algorithm }
          local ok, why = RR.check(ref_board, q, find(grid, q, opts), RR.expect(ref_board, q))
          assert(ok, describe_query(q, opts) .. ": " .. tostring(why))
        end
      end
    end
  end)
end)

---------------------------------------------------------------------------------
describe("query rule errors", function()
  local grid = astar.new(8, 6)

  -- f(opts) calls findPath or newSearch with a single goal (opts #5) or a list (#4)
  local CALLS = {
    { name = "findPath", n = 5, f = function(o) return grid:findPath(1, 1, 3, 3, o) end },
    { name = "findPath", n = 4, f = function(o) return grid:findPath(1, 1, pts({ 3, 3 }), o) end },
    { name = "newSearch", n = 5, f = function(o) return grid:newSearch(1, 1, 3, 3, o) end },
    { name = "newSearch", n = 4, f = function(o) return grid:newSearch(1, 1, pts({ 3, 3 }, { 4, 4 }), o) end },
  }

  it("checks near and maxCost", function()
    for _, c in ipairs(CALLS) do
      local pre = ("bad argument #%d to '%s' ("):format(c.n, c.name)
      check_error(pre .. "opts.near must be a whole number >= 0, got -1)", c.f, { near = -1 })
      check_error(pre .. "opts.near must be a whole number >= 0, got 1.5)", c.f, { near = 1.5 })
      check_error(pre .. "opts.near: number expected, got string)", c.f, { near = "1" })
      check_error(pre .. "opts.maxCost must be a number >= 0, got nan)", c.f, { maxCost = 0 / 0 })
      check_error(pre .. "opts.maxCost must be a number >= 0, got -1)", c.f, { maxCost = -1 })
      check_error(pre .. "opts.maxCost: number expected, got boolean)", c.f, { maxCost = true })
    end
  end)

  it("checks the rules' types and their lists of points", function()
    for _, c in ipairs(CALLS) do
      local pre = ("bad argument #%d to '%s' ("):format(c.n, c.name)
      for _, name in ipairs { "blocked", "occupied", "cost" } do
        local p = pre .. "opts." .. name
        check_error(p .. ": function or table expected, got number)", c.f, { [name] = 1 })
        check_error(p .. ": function or table expected, got boolean)", c.f, { [name] = true })
        check_error(p .. ": function or table expected, got string)", c.f, { [name] = "units" })
        local point = name == "cost" and { x = 1, y = 2, cost = 1 } or { x = 1, y = 2 }
        check_error(p .. "[2]: point expected, got number)", c.f, { [name] = { point, 5 } })
        local low = name == "cost" and { x = 1, y = 0, cost = 1 } or { x = 1, y = 0 }
        check_error(p .. "[1].y out of range 1..6, got 0)", c.f, { [name] = { low } })
        check_error(p .. ": a list of points cannot also have key 'foo')", c.f, { [name] = { point, foo = 1 } })
        -- other malformed lists: a clear error about this option
        for _, bad in ipairs {
          { point, [4] = point },
          { point, [0.5] = point },
          { { x = 9, y = 1, cost = 1 } },
          { { x = 1.5, y = 1, cost = 1 } },
          { { y = 1, cost = 1 } },
        } do
          local ok, err = pcall(c.f, { [name] = bad })
          assert.is_false(ok)
          assert.are.equal(p, tostring(err):sub(1, #p), tostring(err))
        end
      end
    end
    -- a point's cost: a positive number up to 1e15, false or math.huge
    for _, c in ipairs(CALLS) do
      local pre = ("bad argument #%d to '%s' (opts.cost"):format(c.n, c.name)
      for _, v in ipairs { 0, -1, 0 / 0, 1e16, "1", true } do
        local ok, err = pcall(c.f, { cost = { { x = 2, y = 2, cost = v } } })
        assert.is_false(ok, "cost " .. tostring(v))
        assert.are.equal(pre, tostring(err):sub(1, #pre), tostring(err))
      end
    end
  end)

  it("checks the goal list", function()
    for _, name in ipairs { "findPath", "newSearch" } do
      local f = grid[name]
      local pre = "bad argument #3 to '" .. name .. "' ("
      check_error(pre .. "goals: empty list)", f, grid, 1, 1, {})
      check_error(pre .. "goals[2]: table expected, got number)", f, grid, 1, 1, { { x = 1, y = 1 }, 5 })
      check_error(pre .. "goals[1].x: number expected, got nil)", f, grid, 1, 1, { { y = 1 } })
      check_error(pre .. "goals[1].x out of range 1..8, got 9)", f, grid, 1, 1, { { x = 9, y = 1 } })
      check_error(pre .. "goals[3].y out of range 1..6, got 7)", f, grid, 1, 1, pts({ 1, 1 }, { 2, 2 }, { 3, 7 }))
    end
  end)

  it("checks what a cost rule gives when the search asks", function()
    local tail = "; expected a positive number up to 1e15, nil, false or math.huge)"
    local zero = function(x, y) if x == 2 and y == 1 then return 0 end return 1 end
    check_error("bad argument #5 to 'findPath' (opts.cost gave 0 for (2, 1)" .. tail,
      grid.findPath, grid, 1, 1, 8, 6, { cost = zero })
    check_error("bad argument #4 to 'findPath' (opts.cost gave 0 for (2, 1)" .. tail,
      grid.findPath, grid, 1, 1, pts({ 8, 6 }), { cost = zero })
    check_error("bad argument #5 to 'findPath' (opts.cost gave -1 for (2, 1)" .. tail,
      grid.findPath, grid, 1, 1, 8, 6, { cost = function(x) return x == 2 and -1 or 1 end, diagonal = "never" })
    -- a search raises it from the step that asks
    local search = grid:newSearch(1, 1, pts({ 8, 6 }), { cost = zero })
    check_error("bad argument #4 to 'newSearch' (opts.cost gave 0 for (2, 1)" .. tail, search.step, search, 10)
    assert.is_false((pcall(search.result, search)))
    search = grid:newSearch(1, 1, 8, 6, { cost = zero })
    check_error("bad argument #5 to 'newSearch' (opts.cost gave 0 for (2, 1)" .. tail, search.step, search, 10)
    -- afterwards the grid answers as before
    assert.are.same({ pts({ 1, 1 }, { 2, 1 }), 1 }, { grid:findPath(1, 1, 2, 1) })
    -- a rule's own error goes through unchanged
    local marker = {}
    for _, name in ipairs { "cost", "blocked", "occupied" } do
      local ok, err = pcall(grid.findPath, grid, 1, 1, 8, 6, { [name] = function() error(marker) end })
      assert.is_false(ok)
      assert.are.equal(marker, err)
    end
  end)
end)

describe("stepped searches with rules on a grid that changes", function()
  -- README, Searches spread over frames: an edit a search has reached starts
  -- it again (its rules asked again), so its answer is the one for the grid
  -- as it is when it ends; rules and edits together, every mode, both backends
  it("start again when an edit reaches them and answer for the grid as it ends", function()
    local restarted = 0
    for seed = 9500, 9507 do
      local board = make_board(seed)
      local rng, grid, desc = board.rng, board.grid, board.desc
      for _, mode in ipairs(R.MODES) do
        local rules = rules_in_form(board, { blocked = true, occupied = true, cost = seed % 2 == 0 },
          seed % 3 + 1)
        local start = board.starts[1]
        local q = random_query(board, mode, start, { mode == "never" and "manhattan" or "octile" })
        q.weight, q.optimal, q.flat = nil, nil, nil
        local opts = opts_of(q, rules)
        local s
        if q.list then
          s = grid:newSearch(q.sx, q.sy, q.goals, opts)
        else
          s = grid:newSearch(q.sx, q.sy, q.goals[1].x, q.goals[1].y, opts)
        end
        local steps = 0
        while s:step(2) == "searching" do
          steps = steps + 1
          assert(steps < 10000, "the search does not end")
          -- an edit every step: a wall toggled or a new cost, never the start
          local x, y = rng.int(1, W), rng.int(1, H)
          if steps % 3 ~= 0 and not (x == q.sx and y == q.sy) then
            if rng.next() < 0.5 then
              local open = not grid:isWalkable(x, y)
              grid:setWalkable(x, y, open)
              desc.walkable[x][y] = open
            else
              local c = rng.pick(COSTS)
              grid:setCost(x, y, c)
              desc.cost[x][y] = c
            end
          end
        end
        restarted = restarted + s:getStats().restarts
        local r = pack(s:result())
        local ref_board = RR.board(desc, rules)
        local dist = RR.dijkstra(ref_board, mode, q.sx, q.sy)
        local what = ("board %d %s: %s"):format(seed, mode, describe_query(q, opts))
        local ok, why = RR.check(ref_board, q, r, RR.expect(ref_board, q, dist))
        assert(ok, what .. ": " .. tostring(why))
      end
    end
    assert.is_true(restarted > 0, "no edit reached a search")
  end)
end)

describe("a rule table that is no form", function()
  it("is an error naming the option, from its first key (a point given alone)", function()
    local grid = astar.new(8, 6)
    local tail = ": a table by cell number or a list of points expected, got key "
    check_error("bad argument #5 to 'findPath' (opts.blocked" .. tail .. "'x')",
      grid.findPath, grid, 1, 1, 8, 6, { blocked = { x = 5 } })
    check_error("bad argument #4 to 'findPath' (opts.cost" .. tail .. "true)",
      grid.findPath, grid, 1, 1, pts({ 8, 6 }), { cost = { [true] = 1 } })
    check_error("bad argument #5 to 'newSearch' (opts.occupied" .. tail .. "'foo')",
      grid.newSearch, grid, 1, 1, 8, 6, { occupied = { foo = true } })
    -- {x =, y =} alone: whichever key comes first, the message names the option
    local ok, err = pcall(grid.findPath, grid, 1, 1, 8, 6, { blocked = { x = 5, y = 4 } })
    assert.is_false(ok)
    assert.truthy(err:find("^bad argument #5 to 'findPath' %(opts%.blocked: a table by cell number"))
    -- tables by cell number, empty or not, are fine
    assert.is_table(grid:findPath(1, 1, 8, 6, { blocked = {} }))
    assert.is_table(grid:findPath(1, 1, 8, 6, { blocked = { [3] = true } }))
  end)
end)

---------------------------------------------------------------------------------
-- A blocked list or cell table (no function rule) becomes the query's own walls,
-- and a goal list of up to 16 goals, with or without near, on a grid of equal costs
-- runs jump point search (README, Units on the board). Wide boards (the bit lines' 64-cell words), units
-- and goals on the start's own row and column and on each other's, every mode,
-- against the reference; the grid is left as it was.
describe("units as walls of the query, and short goal lists (jump point search)", function()
  local BW, BH = 70, 18

  local function units(rng, count, grid)
    local set, list, n = {}, {}, 0
    while n < count do
      local x, y = rng.int(1, BW), rng.int(1, BH)
      if grid:isWalkable(x, y) and not set[RR.cell(BW, x, y)] then
        set[RR.cell(BW, x, y)] = true
        list[#list + 1] = { x = x, y = y }
        n = n + 1
      end
    end
    return set, list
  end

  -- a goal on the start's row or column, or on an earlier goal's, or anywhere
  local function goal_near_lines(rng, sx, sy, goals)
    local r, ref = rng.next(), goals[#goals] or { x = sx, y = sy }
    if r < 0.35 then return { x = rng.int(1, BW), y = ref.y } end
    if r < 0.7 then return { x = ref.x, y = rng.int(1, BH) } end
    return { x = rng.int(1, BW), y = rng.int(1, BH) }
  end

  it("agrees with the reference, in every mode, and leaves the grid as it was #slow", function()
    local counts = { path = 0, none = 0, index = 0, long = 0 }
    for b = 1, 6 do
      local rng = R.rng(4200 + b)
      local desc = R.random_map(rng, BW, BH, b % 2 == 0 and 0.08 or 0.25, { 1 })
      local grid = R.build_grid(astar, desc)
      local before = grid:encode()
      for _, mode in ipairs(R.MODES) do
        for round = 1, 4 do
          local set, list = units(rng, rng.int(0, 30), grid)
          local sx, sy
          repeat sx, sy = rng.int(1, BW), rng.int(1, BH) until grid:isWalkable(sx, sy)
          if round == 2 and #list > 0 then       -- the start stands among the units
            sx, sy = list[1].x, list[1].y
          end
          local forms = { list, {} }
          for i in pairs(set) do forms[2][i] = true end
          local ref_board = RR.board(desc, { blocked = set })
          local dist = RR.dijkstra(ref_board, mode, sx, sy)
          for k = 1, 6 do
            local q = { mode = mode, sx = sx, sy = sy, goals = {}, list = k > 1 }
            local count = k == 1 and 1 or k == 6 and rng.int(17, 22) or rng.int(2, 16)
            for i = 1, count do
              if rng.next() < 0.2 and #list > 0 then
                local u = list[rng.int(1, #list)]
                q.goals[i] = { x = u.x, y = u.y }   -- a unit's cell: never the end
              else
                q.goals[i] = goal_near_lines(rng, sx, sy, q.goals)
              end
            end
            if rng.next() < 0.4 then q.near = rng.int(1, 3) end
            local form = forms[(k % 2) + 1]
            local opts = { diagonal = mode, blocked = form, near = q.near }
            local what = ("board %d %s: %s"):format(b, mode, describe_query(q, opts))
            local r = find(grid, q, opts)
            local expected = RR.expect(ref_board, q, dist)
            local ok, why = RR.check(ref_board, q, r, expected)
            assert(ok, what .. ": " .. tostring(why))
            counts[expected.kind] = counts[expected.kind] + 1
            if q.list and expected.kind == "path" and r[3] > 1 then counts.index = counts.index + 1 end
            if count > 16 then counts.long = counts.long + 1 end
            -- stepped: the same answer, a few nodes at a time
            local got = stepped(grid, q, opts, rng.int(1, 3))
            assert.are.same(r, got, what .. " (stepped)")
            assert.are.equal(before, grid:encode(), what .. ": the grid changed")
          end
        end
      end
    end
    assert(counts.path > 150, "too few paths: " .. counts.path)
    assert(counts.none > 10, "too few unreachable queries: " .. counts.none)
    assert(counts.index > 40, "too few goal lists ending past their first goal: " .. counts.index)
    assert(counts.long > 20, "too few long goal lists: " .. counts.long)
  end)

  it("a stepped search with units: the grid edited between steps, units' cells too #slow", function()
    local rng = R.rng(4300)
    local checked = 0
    for round = 1, 24 do
      local mode = R.MODES[(round % #R.MODES) + 1]
      local desc = R.random_map(rng, BW, BH, 0.15, { 1 })
      local grid = R.build_grid(astar, desc)
      local set, list = units(rng, 20, grid)
      local sx, sy, gx, gy
      repeat sx, sy = rng.int(1, BW), rng.int(1, BH) until grid:isWalkable(sx, sy) and not set[RR.cell(BW, sx, sy)]
      repeat gx, gy = rng.int(1, BW), rng.int(1, BH) until grid:isWalkable(gx, gy)
      local goals = { { x = gx, y = gy }, goal_near_lines(rng, sx, sy, { { x = gx, y = gy } }) }
      local opts = { diagonal = mode, blocked = list }
      local search = round % 2 == 0 and grid:newSearch(sx, sy, goals, opts)
        or grid:newSearch(sx, sy, gx, gy, opts)
      local status, steps = "searching", 0
      while status == "searching" do
        status = search:step(rng.int(1, 4))
        steps = steps + 1
        if steps < 40 then
          -- a wall toggled on a unit's cell or anywhere; the grid's own state changes
          local u = rng.next() < 0.5 and list[rng.int(1, #list)] or { x = rng.int(1, BW), y = rng.int(1, BH) }
          if not (u.x == sx and u.y == sy) then
            local v = not grid:isWalkable(u.x, u.y)
            grid:setWalkable(u.x, u.y, v)
            desc.walkable[u.x][u.y] = v
          end
        end
      end
      -- the answer describes the grid as it is now, with the units
      local q = { mode = mode, sx = sx, sy = sy, list = round % 2 == 0,
        goals = round % 2 == 0 and goals or { { x = gx, y = gy } } }
      local ref_board = RR.board(desc, { blocked = set })
      local r = pack(search:result())
      local expected = RR.expect(ref_board, q)
      local ok, why = RR.check(ref_board, q, r, expected)
      assert(ok, ("round %d %s: %s"):format(round, mode, tostring(why)))
      -- and the grid holds exactly the user's writes
      for x = 1, BW do
        for y = 1, BH do
          assert(grid:isWalkable(x, y) == desc.walkable[x][y], ("(%d, %d) changed"):format(x, y))
        end
      end
      checked = checked + 1
    end
    assert.are.equal(24, checked)
  end)
end)
