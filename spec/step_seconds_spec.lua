-- search:step(n, seconds) (issue 21, item 5): a frame budget in time. The
-- search looks at the clock every 256 expansions and stops after the chunk that
-- used the time up, so a tiny budget gives exactly one chunk per call and a huge
-- one gives what step(n) gives. No assertion here depends on how fast anything
-- runs: 256 expansions take far longer than 1e-9 s, and far less than 1e6 s.

local astar = require "astar"
local R = require "helpers.reference"
local check_error = require("helpers.errors").check_error

local pack = table.pack or function(...) return { n = select("#", ...), ... } end
local CHUNK = 256
local TINY, LONG = 1e-9, 1e6

-- A board where the search from (1, 1) to its far corner is long enough for
-- many chunks: walls and terrain costs, the corners open and joined.
local function board(seed, w, h)
  local rng = R.rng(seed)
  local desc
  repeat
    desc = R.random_map(rng, w, h, 0.2)
    desc.walkable[1][1], desc.walkable[w][h] = true, true
  until R.dijkstra(desc, "always", 1, 1)[w][h]
  return desc
end

local function uniform(w, h)
  local walkable, cost = {}, {}
  for x = 1, w do
    walkable[x], cost[x] = {}, {}
    for y = 1, h do walkable[x][y], cost[x][y] = true, 1 end
  end
  return { w = w, h = h, walkable = walkable, cost = cost }
end

-- Steps search with step(n, seconds) to its end; checks that every call expands
-- exactly `per_call` nodes while it searches (at most that many in the last).
local function run(search, n, seconds, per_call)
  local calls, before, status = 0, search:getStats().expanded, "searching"
  while status == "searching" do
    status = search:step(n, seconds)
    calls = calls + 1
    local now = search:getStats().expanded
    if status == "searching" then
      assert(now - before == per_call, ("call %d expanded %d, not %d"):format(calls, now - before, per_call))
    else
      assert(now - before <= per_call, ("the last call expanded %d > %d"):format(now - before, per_call))
    end
    before = now
  end
  return calls, status
end

-- The stepped answer is findPath's, and right by the independent reference.
local function check_answer(grid, desc, mode, search, opts)
  local w, h = desc.w, desc.h
  local got = pack(search:result())
  assert.are.same(pack(grid:findPath(1, 1, w, h, opts)), got)
  local cost = R.validate(desc, mode, got[1], 1, 1, w, h)
  assert(cost and R.close(cost, got[2]), "the path's steps do not sum to its cost")
  assert(R.close(R.dijkstra(desc, mode, 1, 1)[w][h], got[2]), "not the cheapest cost")
end

describe("search:step(n, seconds)", function()
  it("stops after one chunk of 256 expansions when the time is up, and ends with findPath's answer", function()
    local desc = board(2101, 48, 40)
    local grid = R.build_grid(astar, desc)
    for _, mode in ipairs({ "never", "always", "one-obstacle" }) do
      local opts = { diagonal = mode, algorithm = "astar" }
      local search = grid:newSearch(1, 1, desc.w, desc.h, opts)
      local calls, status = run(search, math.huge, TINY, CHUNK)
      assert.are.equal("found", status)
      assert(calls >= 4, "too short a search to test chunks: " .. calls .. " calls")
      assert.are.equal(calls, math.ceil(search:getStats().expanded / CHUNK))
      check_answer(grid, desc, mode, search, opts)
    end
  end)

  it("never expands more than n: n below a chunk is the limit, above it the chunk is", function()
    local desc = board(2102, 40, 30)
    local grid = R.build_grid(astar, desc)
    local opts = { diagonal = "always", algorithm = "astar" }
    for _, n in ipairs({ 1, 100, 255, 256, 257, 1000 }) do
      local search = grid:newSearch(1, 1, desc.w, desc.h, opts)
      local status = select(2, run(search, n, TINY, math.min(n, CHUNK)))
      assert.are.equal("found", status)
      check_answer(grid, desc, "always", search, opts)
    end
  end)

  it("with time to spare is step(n): the same progress call by call, cell for cell", function()
    local desc = board(2103, 40, 30)
    local cost_of = function(x, y) return desc.cost[x][y] end
    local cases = {
      { n = 700, opts = { diagonal = "always", algorithm = "astar" } },
      { n = 300, opts = { diagonal = "never", algorithm = "astar", cost = cost_of } },
      { n = math.huge, opts = { diagonal = "never", algorithm = "astar" } },
      { n = 3, opts = { diagonal = "no-obstacles" } },   -- jump point search on C
      { n = 500, opts = { diagonal = "never", algorithm = "astar", size = 2 } },
    }
    for i, case in ipairs(cases) do
      local g1, g2 = R.build_grid(astar, desc), R.build_grid(astar, desc)
      local a = g1:newSearch(1, 1, desc.w - 1, desc.h - 1, case.opts)
      local b = g2:newSearch(1, 1, desc.w - 1, desc.h - 1, case.opts)
      local sa, calls = "searching", 0
      while sa == "searching" do
        sa = a:step(case.n)
        calls = calls + 1
        assert.are.equal(sa, b:step(case.n, LONG), "case " .. i)
        assert.are.same(a:getStats(), b:getStats(), "case " .. i)
        assert.are.same(a:getExpanded(), b:getExpanded(), "case " .. i)
        if calls == 2 then   -- a change it has reached: both start again
          g1:setCost(1, 1 + 1, 4)
          g2:setCost(1, 1 + 1, 4)
        end
      end
      assert.are.same(pack(a:result()), pack(b:result()), "case " .. i)
      -- findPath with the algorithm the search ended with (a jump point search
      -- that started again runs A*), so the same path among equally cheap ones
      local again = {}
      for k, v in pairs(case.opts) do again[k] = v end
      again.algorithm = b:getStats().algorithm
      assert.are.same(pack(g2:findPath(1, 1, desc.w - 1, desc.h - 1, again)), pack(b:result()))
    end
  end)

  it("a budget in time on a hex board and with a goal list", function()
    local hex = astar.newHex(30, 24, "odd-r")
    local search = hex:newSearch(1, 1, 30, 24, { algorithm = "astar" })
    run(search, math.huge, TINY, CHUNK)
    assert.are.same(pack(hex:findPath(1, 1, 30, 24, { algorithm = "astar" })), pack(search:result()))
    local grid = R.build_grid(astar, uniform(40, 40))
    local goals = { { x = 40, y = 1 }, { x = 40, y = 40 } }
    local opts = { algorithm = "astar", diagonal = "never", heuristic = "dijkstra" }
    local list = grid:newSearch(1, 40, goals, opts)
    run(list, math.huge, TINY, CHUNK)
    assert.are.same(pack(grid:findPath(1, 40, goals, opts)), pack(list:result()))
  end)

  it("a finished search returns its status at once, whatever the budget", function()
    local grid = astar.new(8, 8)
    local search = grid:newSearch(1, 1, 8, 8)
    assert.are.equal("found", search:step(math.huge, TINY))
    assert.are.equal("found", search:step(1, TINY))
    local walled = astar.fromString("..#\n.##\n###")
    local none = walled:newSearch(1, 1, 3, 3)
    assert.are.equal("unreachable", none:step(5, 0.5))
    assert.are.same({ nil, "goal is blocked", n = 2 }, pack(none:result()))
  end)

  it("takes seconds = nil or math.huge as no time limit", function()
    local grid = R.build_grid(astar, uniform(30, 30))
    local opts = { algorithm = "astar", heuristic = "dijkstra", diagonal = "never" }
    local a, b = grid:newSearch(1, 1, 30, 30, opts), grid:newSearch(1, 1, 30, 30, opts)
    assert.are.equal("searching", a:step(600, nil))
    assert.are.equal("searching", b:step(600, math.huge))
    assert.are.equal(600, a:getStats().expanded)
    assert.are.equal(600, b:getStats().expanded)
    assert.are.equal("found", a:step(math.huge, math.huge))
    assert.are.same(pack(grid:findPath(1, 1, 30, 30, opts)), pack(a:result()))
  end)

  it("rejects a bad seconds with an exact message, n first", function()
    local search = astar.new(10, 10):newSearch(1, 1, 10, 10, { algorithm = "astar" })
    local msg = "bad argument #2 to 'step' (seconds must be a number > 0 or math.huge, got %s)"
    for _, v in ipairs({ { 0, "0" }, { -0.0, "-0" }, { -1, "-1" }, { 0 / 0, "nan" },
      { -math.huge, "-inf" }, { -1e-300, "-1e-300" } }) do
      check_error(msg:format(v[2]), search.step, search, 5, v[1])
    end
    for _, v in ipairs({ "0.5", true, {} }) do
      check_error("bad argument #2 to 'step' (number expected, got " .. type(v) .. ")",
        search.step, search, 5, v)
    end
    check_error("bad argument #1 to 'step' (n must be a whole number >= 1 or math.huge, got 0)",
      search.step, search, 0, -1)
    -- nothing was expanded by the calls that failed
    assert.are.equal(0, search:getStats().expanded)
    assert.are.equal("found", search:step(math.huge, 1e-3))
  end)
end)

-- The pure-Lua backend reads LÖVE's clock where the state has one, else
-- os.clock: a stand-in love.timer proves which one it reads, with no timing.
describe("search:step(n, seconds) on the pure-Lua backend", function()
  local saved
  before_each(function() saved = rawget(_G, "love") end)
  after_each(function() rawset(_G, "love", saved) end)

  local function with_clock(getTime)
    rawset(_G, "love", { timer = { getTime = getTime } })
  end

  it("reads love.timer.getTime when LÖVE's timer is there", function()
    if astar.backend ~= "lua" then return end   -- C reads the system's monotonic clock
    local grid = R.build_grid(astar, uniform(60, 60))
    local opts = { algorithm = "astar", heuristic = "dijkstra", diagonal = "never" }
    local ticks = 0
    with_clock(function() ticks = ticks + 1; return ticks end)   -- a second per look
    local search = grid:newSearch(1, 1, 60, 60, opts)
    assert.are.equal("searching", search:step(math.huge, 2.5))
    -- looks at 1 (start), 2, 3, 4: the third chunk's end is 3 s after the start
    assert.are.equal(3 * CHUNK, search:getStats().expanded)
    assert.are.equal(4, ticks)
    with_clock(function() return 7 end)   -- a clock that stands still: n is the limit
    assert.are.equal("searching", search:step(1000, TINY))
    assert.are.equal(3 * CHUNK + 1000, search:getStats().expanded)
    rawset(_G, "love", { })   -- LÖVE without its timer module: os.clock, which moves on
    assert.are.equal("searching", search:step(math.huge, TINY))
    assert.are.equal(4 * CHUNK + 1000, search:getStats().expanded)
  end)
end)
