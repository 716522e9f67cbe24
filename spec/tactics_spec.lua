-- Specs for astar.tactics: hand-drawn scenarios, generated maps against the
-- independent reference in spec/helpers/tactics_reference.lua, errors.
local astar = require "astar"
local tactics = require "astar.tactics"
local ref = require "helpers.tactics_reference"

-- Map pictures: '.' ground, '#' wall, '2'..'9' terrain cost, 'S' the unit,
-- 'E' an enemy (blocked), 'A' an ally (occupied), 'z' zone of control.
local function parse(picture)
  local rows = {}
  for line in picture:gmatch("[^\n]+") do
    line = line:gsub("%s", "")
    if line ~= "" then rows[#rows + 1] = line end
  end
  local m = { w = #rows[1], h = #rows, wall = {}, cost = {}, rows = rows, marks = {} }
  local text = {}
  for y, row in ipairs(rows) do
    m.wall[y], m.cost[y], m.marks[y] = {}, {}, {}
    local t = {}
    for x = 1, #row do
      local c = row:sub(x, x)
      m.marks[y][x] = c
      if c == "#" then
        m.wall[y][x] = true
        t[x] = "#"
      elseif c:match("%d") then
        m.cost[y][x] = tonumber(c)
        t[x] = c
      else
        if c == "S" then m.sx, m.sy = x, y end
        t[x] = "."
      end
    end
    text[y] = table.concat(t)
  end
  m.grid = astar.fromString(table.concat(text, "\n"))
  return m
end

local function marked(m, ch)
  return function(x, y) return m.marks[y][x] == ch end
end

-- The standard rules of a map picture: E blocks, A is occupied, z is ZOC.
local function rules(m)
  return { blocked = marked(m, "E"), occupied = marked(m, "A"), zoc = marked(m, "z") }
end

-- Draws what the range says: the cost digit where reachable, '.' elsewhere
-- (walls stay '#').
local function drawCosts(m, range)
  local out = {}
  for y = 1, m.h do
    local t = {}
    for x = 1, m.w do
      local c = range:costTo(x, y)
      t[x] = c and tostring(math.floor(c)) or (m.wall[y][x] and "#" or ".")
    end
    out[y] = table.concat(t)
  end
  return table.concat(out, "\n")
end

local function clean(picture)
  local rows = {}
  for line in picture:gmatch("[^\n]+") do
    line = line:gsub("%s", "")
    if line ~= "" then rows[#rows + 1] = line end
  end
  return table.concat(rows, "\n")
end

-- Draws a set of cells: mark where contains(x, y), '.' elsewhere.
local function drawSet(m, contains, mark)
  local out = {}
  for y = 1, m.h do
    local t = {}
    for x = 1, m.w do t[x] = contains(x, y) and mark or "." end
    out[y] = table.concat(t)
  end
  return table.concat(out, "\n")
end

-- Draws how many enemies threaten each cell (none where 0).
local function drawCounts(m, zone, none)
  local out = {}
  for y = 1, m.h do
    local t = {}
    for x = 1, m.w do
      local n = zone:count(x, y)
      t[x] = n > 0 and tostring(n) or none
    end
    out[y] = table.concat(t)
  end
  return table.concat(out, "\n")
end

-- Checks a path: from the start to (x, y), 4-connected, through passable
-- cells, never leaving a ZOC cell, with step costs summing to costTo.
local function checkPath(m, range, x, y, costOf, zoc)
  local path = range:pathTo(x, y)
  assert.is_table(path)
  assert.same({ x = m.sx, y = m.sy }, path[1])
  assert.same({ x = x, y = y }, path[#path])
  local sum = 0
  for i = 2, #path do
    local a, b = path[i - 1], path[i]
    assert.equal(1, math.abs(a.x - b.x) + math.abs(a.y - b.y))
    if i > 2 and zoc then assert.is_falsy(zoc(a.x, a.y)) end
    sum = sum + costOf(b.x, b.y)
  end
  assert.is_true(math.abs(sum - range:costTo(x, y)) <= 1e-9 * math.max(1, sum))
end

describe("tactics.movementRange", function()
  it("pays terrain costs and goes around walls (forest 2, mountain 3)", function()
    local m = parse [[
      S.2..
      .#3..
      .#...
      ...#.
    ]]
    local r = tactics.movementRange(m.grid, m.sx, m.sy, 6)
    assert.equal(clean [[
      01345
      1#656
      2#66.
      345#.
    ]], drawCosts(m, r))
    assert.equal(clean [[
      ooooo
      o.ooo
      o.oo.
      ooo..
    ]], drawSet(m, function(x, y) return r:contains(x, y) end, "o"))
    -- the mountain at (3, 2): 3 + 3 from above, or 5 + 3 from the right
    assert.same({ { x = 1, y = 1 }, { x = 2, y = 1 }, { x = 3, y = 1 }, { x = 3, y = 2 } },
      r:pathTo(3, 2))
    local smaller = m.grid:movementRange(m.sx, m.sy, 4)
    assert.equal(clean [[
      0134.
      1#...
      2#...
      34.#.
    ]], drawCosts(m, smaller))
  end)

  it("goes through the gap in a wall of enemies", function()
    local m = parse [[
      .....
      EE.EE
      .....
      ..S..
    ]]
    local r = m.grid:movementRange(m.sx, m.sy, 4, rules(m))
    assert.equal(clean [[
      .434.
      ..2..
      32123
      21012
    ]], drawCosts(m, r))
    checkPath(m, r, 2, 1, function() return 1 end)
    assert.is_nil(r:pathTo(1, 1))
    assert.is_false(r:contains(1, 2))
  end)

  it("crosses allies in a corridor but never stops on them", function()
    local m = parse [[
      #######
      S.AA...
      #######
    ]]
    local r = m.grid:movementRange(m.sx, m.sy, 5, rules(m))
    assert.equal(clean [[
      #######
      012345.
      #######
    ]], drawCosts(m, r))
    assert.equal(clean [[
      .......
      oo..oo.
      .......
    ]], drawSet(m, function(x, y) return r:contains(x, y) end, "o"))
    assert.is_nil(r:pathTo(3, 2))
    assert.equal(2, r:costTo(3, 2))
    assert.same({ { x = 1, y = 2 }, { x = 2, y = 2 }, { x = 3, y = 2 }, { x = 4, y = 2 },
      { x = 5, y = 2 }, { x = 6, y = 2 } }, r:pathTo(6, 2))
    assert.same({ { x = 1, y = 2, cost = 0 }, { x = 2, y = 2, cost = 1 },
      { x = 5, y = 2, cost = 4 }, { x = 6, y = 2, cost = 5 } }, r:cells())
  end)

  it("stops in a zone of control", function()
    local m = parse [[
      S.z..
      ..z..
      .....
    ]]
    local r = m.grid:movementRange(m.sx, m.sy, 4, rules(m))
    assert.equal(clean [[
      012..
      123..
      234..
    ]], drawCosts(m, r))
    assert.is_true(r:contains(3, 1))
    -- without the zone the unit gets past
    assert.equal(clean [[
      01234
      1234.
      234..
    ]], drawCosts(m, m.grid:movementRange(m.sx, m.sy, 4)))
  end)

  it("leaves a zone of control it starts in", function()
    local m = parse [[
      .z.
      .S.
      ...
    ]]
    local r = m.grid:movementRange(m.sx, m.sy, 2, { zoc = function() return true end })
    assert.equal(clean [[
      .1.
      101
      .1.
    ]], drawCosts(m, r))
  end)

  it("with move 0 holds the start only, whatever the callbacks say", function()
    local m = parse [[
      ...
      .S.
      ...
    ]]
    local yes = function() return true end
    local r = m.grid:movementRange(2, 2, 0, { blocked = yes, occupied = yes, zoc = yes })
    assert.same({ { x = 2, y = 2, cost = 0 } }, r:cells())
    assert.is_true(r:contains(2, 2))
    assert.same({ { x = 2, y = 2 } }, r:pathTo(2, 2))
    assert.is_nil(r:costTo(1, 2))
    local r2 = m.grid:movementRange(2, 2, 5, { occupied = yes })
    assert.same({ { x = 2, y = 2, cost = 0 } }, r2:cells())
    assert.equal(9, #(function() local n = {} for y = 1, 3 do for x = 1, 3 do
      if r2:costTo(x, y) then n[#n + 1] = true end end end return n end)())
  end)

  it("lets a flier ignore terrain but not walls (function and table)", function()
    local m = parse [[
      S3333.
      .#99..
    ]]
    local fly = function() return 1 end
    local expected = clean [[
      01234.
      1#34..
    ]]
    assert.equal(expected, drawCosts(m, m.grid:movementRange(1, 1, 4, { cost = fly })))
    local ones = {}
    for i = 1, m.w * m.h do ones[i] = 1 end
    assert.equal(expected, drawCosts(m, m.grid:movementRange(1, 1, 4, { cost = ones })))
    -- a boat only crosses the 9s: nil, false and math.huge are impassable
    local boat = function(x, y)
      if m.marks[y][x] == "9" then return 2 end
      if x == 1 then return false end
      return (x + y) % 2 == 0 and math.huge or nil
    end
    local b = m.grid:movementRange(4, 2, 2, { cost = boat })
    assert.equal(clean [[
      ......
      .#20..
    ]], drawCosts(m, b))
  end)

  it("keeps impassable cells impassable with an unlimited move", function()
    local m = parse [[
      S.E..
      .....
      ~~~~~
    ]]
    -- the enemy blocks, the water (row 3) costs math.huge: neither is ever entered,
    -- and the cells behind the enemy are reached around it, at their true cost
    local rule = {
      blocked = function(x, y) return m.marks[y][x] == "E" end,
      cost = function(x, y) return m.marks[y][x] == "~" and math.huge or 1 end,
    }
    local r = m.grid:movementRange(1, 1, math.huge, rule)
    assert.equal(clean [[
      01.56
      12345
      .....
    ]], drawCosts(m, r))
    assert.is_nil(r:costTo(3, 1))
    assert.is_false(r:contains(3, 1))
    assert.is_nil(r:costTo(1, 3))
  end)

  it("reads blocked, occupied and zoc from sets keyed by cellIndex", function()
    local m = parse [[
      S.z..
      .A...
      E....
    ]]
    local blocked = tactics.cellSet(m.grid, { { x = 1, y = 3 } })
    local occupied = { [tactics.cellIndex(m.grid, 2, 2)] = true }
    local zoc = { [tactics.cellIndex(m.grid, 3, 1)] = true }
    local t = m.grid:movementRange(1, 1, 5, { blocked = blocked, occupied = occupied, zoc = zoc })
    local f = m.grid:movementRange(1, 1, 5, rules(m))
    assert.equal(drawCosts(m, f), drawCosts(m, t))
    assert.same(f:cells(), t:cells())
    assert.equal(5, tactics.cellIndex(m.grid, 5, 1))
    assert.equal(6, tactics.cellIndex(m.grid, 1, 2))
  end)

  it("answers nil / false outside the range and the grid", function()
    local g = astar.new(4, 4)
    local r = g:movementRange(1, 1, 1)
    assert.is_false(r:contains(0, 1))
    assert.is_false(r:contains(1.5, 1))
    assert.is_nil(r:costTo(9, 9))
    assert.is_nil(r:pathTo(4, 4))
    assert.same({ 1, 1 }, { r:getStart() })
    assert.equal("astar.Range (3 cells from 1,1)", tostring(r))
  end)
end)

describe("tactics.attackRange", function()
  it("draws an archer's 2..3 ring", function()
    local m = parse [[
      .......
      .......
      .......
      ...S...
      .......
      .......
      .......
    ]]
    local a = m.grid:attackRange(m.grid:movementRange(4, 4, 0), 2, 3)
    assert.equal(clean [[
      ...x...
      ..xxx..
      .xx.xx.
      xx...xx
      .xx.xx.
      ..xxx..
      ...x...
    ]], drawSet(m, function(x, y) return a:contains(x, y) end, "x"))
    assert.equal(20, a:size())
    assert.same({ x = 4, y = 1 }, a:cells()[1])
    assert.same({ x = 4, y = 7 }, a:cells()[20])
  end)

  it("clips the ring at the edge and unions a sword's reach over the moves", function()
    local m = parse [[
      S#...
      .....
      .....
    ]]
    local r = m.grid:movementRange(1, 1, 2)
    local a = tactics.attackRange(m.grid, r, 1, 1)
    assert.equal(clean [[
      xx...
      xxx..
      xx...
    ]], drawSet(m, function(x, y) return a:contains(x, y) end, "x"))
  end)

  it("respects walls only with a line-of-sight rule", function()
    local m = parse [[
      .....
      ..#..
      .....
      .....
    ]]
    local r = m.grid:movementRange(3, 1, 0)
    local open = m.grid:attackRange(r, 2, 3)
    local seen = m.grid:attackRange(r, 2, 3, { lineOfSight = true })
    assert.equal(clean [[
      x...x
      xx.xx
      .xxx.
      ..x..
    ]], drawSet(m, function(x, y) return open:contains(x, y) end, "x"))
    assert.equal(clean [[
      x...x
      xx.xx
      .....
      .....
    ]], drawSet(m, function(x, y) return seen:contains(x, y) end, "x"))
    -- a rule of the game's own
    local calls = 0
    local mine = m.grid:attackRange(r, 2, 3, { lineOfSight = function(fx, fy, _, ty)
      calls = calls + 1
      assert.same({ 3, 1 }, { fx, fy })
      return ty <= 2
    end })
    assert.equal(6, mine:size())
    assert.equal(open:size(), calls)
  end)

  it("uses a symmetric supercover line: corners graze, edges block", function()
    local g = astar.fromString(".#.\n#..\n...")
    assert.is_true(g:lineOfSight(1, 1, 2, 2))     -- between the corners of two walls
    assert.is_true(g:lineOfSight(2, 2, 1, 1))
    assert.is_false(g:lineOfSight(1, 1, 3, 1))
    assert.is_false(g:lineOfSight(1, 1, 3, 2))    -- crosses the wall at (2, 1)
    assert.is_false(g:lineOfSight(3, 2, 1, 1))
    assert.is_true(g:lineOfSight(1, 1, 3, 3))
    assert.is_true(g:lineOfSight(2, 1, 1, 2))     -- from a wall to a wall
    assert.is_true(tactics.lineOfSight(g, 3, 1, 3, 1))
  end)
end)

describe("tactics.dangerZone", function()
  it("counts overlapping threats", function()
    local m = parse [[
      ......
      ......
      ......
    ]]
    local z = m.grid:dangerZone({
      { x = 1, y = 2, move = 1, minRange = 1, maxRange = 1 },
      { x = 5, y = 2, move = 0, minRange = 2, maxRange = 2 },
    })
    assert.equal(clean [[
      11.1.1
      112...
      11.1.1
    ]], drawCounts(m, z, "."))
    assert.equal(11, z:size())
    assert.is_true(z:contains(3, 2))
    assert.is_false(z:contains(4, 2))
    assert.equal(0, z:count(0, 0))
    assert.same({ x = 3, y = 2, count = 2 }, z:cells()[7])
  end)

  it("applies shared rules, per-enemy rules and line of sight", function()
    local m = parse [[
      ..#..
      E.#.E
      .....
    ]]
    local hero = tactics.cellSet(m.grid, { { x = 3, y = 3 } })
    local z = tactics.dangerZone(m.grid, {
      { x = 1, y = 2, move = 2, minRange = 1, maxRange = 1 },
      { x = 5, y = 2, move = 2, minRange = 1, maxRange = 1, blocked = {} },
    }, { blocked = hero })
    -- the left enemy cannot step on the hero; the right one ignores him
    assert.equal(clean [[
      11211
      11211
      11211
    ]], drawCounts(m, z, "0"))
    local archers = m.grid:dangerZone({ { x = 1, y = 2, move = 0, minRange = 3, maxRange = 3 } },
      { lineOfSight = true })
    assert.is_false(archers:contains(4, 2))
    assert.is_true(archers:contains(3, 1))   -- the wall itself can be targeted
  end)
end)

describe("tactics against the reference on generated maps", function()
  local function generate(seed)
    local rnd = ref.rng(seed)
    local w, h = 6 + rnd(8), 5 + rnd(7)
    local rows, marks = {}, {}
    for y = 1, h do
      local t = {}
      marks[y] = {}
      for x = 1, w do
        local r = rnd(20)
        t[x] = r <= 3 and "#" or r <= 5 and "2" or r == 6 and "3" or "."
        marks[y][x] = rnd(12)     -- 1: enemy, 2: ally, 3: zoc
      end
      rows[y] = table.concat(t)
    end
    local m = parse(table.concat(rows, "\n"))
    return m, marks, rnd
  end

  it("agrees on costs, stop cells, paths and attack areas #slow", function()
    for seed = 1, 60 do
      local m, marks, rnd = generate(seed)
      local sx, sy = rnd(m.w), rnd(m.h)
      m.sx, m.sy = sx, sy
      local move = rnd(9) - 1
      local useRules = seed % 3 ~= 0
      local flier = seed % 5 == 0
      local rl = {}
      if useRules then
        rl.blocked = function(x, y) return marks[y][x] == 1 end
        rl.occupied = function(x, y) return marks[y][x] == 2 end
        rl.zoc = function(x, y) return marks[y][x] == 3 end
      end
      if flier then rl.cost = function(x, y) return (x + y) % 3 == 0 and 0.5 or 1.25 end end
      local opts = rl
      if seed % 2 == 0 and useRules then   -- the same rules as sets
        opts = { cost = rl.cost, blocked = {}, occupied = {}, zoc = {} }
        for y = 1, m.h do
          for x = 1, m.w do
            local k = (y - 1) * m.w + x
            if marks[y][x] == 1 then opts.blocked[k] = true end
            if marks[y][x] == 2 then opts.occupied[k] = true end
            if marks[y][x] == 3 then opts.zoc[k] = true end
          end
        end
      end
      if seed % 4 == 1 and useRules then   -- the same rules as lists of points
        opts = { cost = rl.cost, blocked = {}, occupied = {}, zoc = {} }
        local lists = { opts.blocked, opts.occupied, opts.zoc }
        for y = 1, m.h do
          for x = 1, m.w do
            local list = lists[marks[y][x]]
            if list then list[#list + 1] = { x = x, y = y } end
          end
        end
      end
      if not flier and seed % 3 == 1 then  -- a cost list: the cells listed, the others the grid's
        local listed, list = {}, {}
        for y = 1, m.h do
          for x = 1, m.w do
            local r = rnd(10)
            if r <= 2 then
              local c = r == 1 and 0.5 or false
              listed[(y - 1) * m.w + x] = c
              list[#list + 1] = { x = x, y = y, cost = c }
            end
          end
        end
        local copy = {}
        for k, v in pairs(opts) do copy[k] = v end
        opts, copy.cost = copy, list
        rl.cost = function(x, y)
          local c = listed[(y - 1) * m.w + x]
          if c == nil then return m.cost[y][x] or 1 end
          return c
        end
      end
      local dist, stop = ref.movement(m, sx, sy, move, rl)
      local r = m.grid:movementRange(sx, sy, move, opts)
      local costOf = rl.cost or function(x, y) return m.cost[y][x] or 1 end
      local nstop = 0
      for y = 1, m.h do
        for x = 1, m.w do
          local want, got = dist[y][x], r:costTo(x, y)
          if want == nil then
            assert.is_nil(got, ("seed %d (%d,%d)"):format(seed, x, y))
          else
            assert.is_true(got ~= nil and math.abs(got - want) <= 1e-9 * math.max(1, want),
              ("seed %d (%d,%d): %s vs %s"):format(seed, x, y, tostring(got), want))
          end
          assert.equal(stop[y][x] == true, r:contains(x, y))
          if stop[y][x] then
            nstop = nstop + 1
            checkPath(m, r, x, y, costOf, rl.zoc)
          end
        end
      end
      local cells = r:cells()
      assert.equal(nstop, #cells)
      for _, c in ipairs(cells) do
        assert.is_true(stop[c.y][c.x])
        assert.is_true(math.abs(c.cost - dist[c.y][c.x]) <= 1e-9 * math.max(1, c.cost))
      end
      local lo = rnd(3) - 1
      local hi = lo + rnd(3) - 1
      local sight = seed % 4 == 1 and true or nil
      local a = m.grid:attackRange(r, lo, hi, { lineOfSight = sight })
      local los = sight and function(fx, fy, tx, ty) return ref.lineOfSight(m, fx, fy, tx, ty) end
      local hit = ref.attack(m, stop, lo, hi, los)
      local nhit = 0
      for y = 1, m.h do
        for x = 1, m.w do
          assert.equal(hit[y][x] == true, a:contains(x, y))
          if hit[y][x] then nhit = nhit + 1 end
        end
      end
      assert.equal(nhit, a:size())
      assert.equal(nhit, #a:cells())
    end
  end)

  it("reads a rule given as a list of points: the issue's example", function()
    -- a unit at (5, 4) in the natural form: it cannot be stopped on or crossed
    local grid = astar.new(8, 8)
    local r = grid:movementRange(4, 4, 3, { blocked = { { x = 5, y = 4 } } })
    assert.is_false(r:contains(5, 4))
    assert.is_true(r:contains(1, 4))    -- not read as "cell 1 is blocked"
    assert.is_nil(r:costTo(6, 4))       -- around it costs 4
    local tail = "; a list of points must start at index 1)"
    assert.has_error(function() grid:movementRange(4, 4, 3, { zoc = { [29] = { x = 5 } } }) end,
      "bad argument #4 to 'movementRange' (opts.zoc: cell 29 holds a table" .. tail)
    assert.has_error(function() grid:movementRange(4, 4, 3, { occupied = { { x = 5, y = 9 } } }) end,
      "bad argument #4 to 'movementRange' (opts.occupied[1].y out of range 1..8, got 9)")
    assert.has_error(function()
      grid:dangerZone({ { x = 1, y = 1, move = 2, minRange = 1, maxRange = 1, blocked = { { x = 1 } } } })
    end, "bad argument #1 to 'dangerZone' (enemies[1].blocked[1].y: number expected, got nil)")
  end)

  it("agrees on line of sight for every pair of cells", function()
    for seed = 1, 8 do
      local m = generate(seed * 7)
      for y0 = 1, m.h do
        for x0 = 1, m.w do
          for y1 = 1, m.h, 2 do
            for x1 = 1, m.w, 2 do
              assert.equal(ref.lineOfSight(m, x0, y0, x1, y1), m.grid:lineOfSight(x0, y0, x1, y1),
                ("seed %d (%d,%d)-(%d,%d)"):format(seed, x0, y0, x1, y1))
            end
          end
        end
      end
    end
  end)

  it("agrees on danger zone counts", function()
    for seed = 1, 15 do
      local m, marks, rnd = generate(seed + 100)
      local enemies, want = {}, {}
      for i = 1, 1 + rnd(5) do
        local lo = rnd(3) - 1
        enemies[i] = { x = rnd(m.w), y = rnd(m.h), move = rnd(5) - 1, minRange = lo,
          maxRange = lo + rnd(3) - 1 }
      end
      local blocked = function(x, y) return marks[y][x] == 1 end
      for y = 1, m.h do want[y] = {} for x = 1, m.w do want[y][x] = 0 end end
      for _, e in ipairs(enemies) do
        local _, stop = ref.movement(m, e.x, e.y, e.move, { blocked = blocked })
        local hit = ref.attack(m, stop, e.minRange, e.maxRange)
        for y = 1, m.h do for x = 1, m.w do
          if hit[y][x] then want[y][x] = want[y][x] + 1 end
        end end
      end
      local z = m.grid:dangerZone(enemies, { blocked = blocked })
      local n = 0
      for y = 1, m.h do
        for x = 1, m.w do
          assert.equal(want[y][x], z:count(x, y))
          if want[y][x] > 0 then n = n + 1 end
        end
      end
      assert.equal(n, z:size())
      for _, c in ipairs(z:cells()) do assert.equal(want[c.y][c.x], c.count) end
    end
  end)
end)

describe("tactics errors", function()
  local g = astar.new(8, 6)
  local r = g:movementRange(1, 1, 2)
  local function fails(msg, f, ...)
    local ok, err = pcall(f, ...)
    assert.is_false(ok)
    assert.equal(msg, err)
  end

  it("checks movementRange's arguments", function()
    fails("bad argument #1 to 'movementRange' (x out of range 1..8)", g.movementRange, g, 9, 1, 1)
    fails("bad argument #2 to 'movementRange' (y out of range 1..6)", g.movementRange, g, 1, 0, 1)
    fails("bad argument #2 to 'movementRange' (y must be a whole number, got 1.5)",
      g.movementRange, g, 1, 1.5, 1)
    fails("bad argument #3 to 'movementRange' (move must be a number >= 0, got -1)",
      g.movementRange, g, 1, 1, -1)
    fails("bad argument #3 to 'movementRange' (move must be a number >= 0, got nan)",
      g.movementRange, g, 1, 1, 0 / 0)
    fails("bad argument #3 to 'movementRange' (number expected, got no value)", g.movementRange, g, 1, 1)
    fails("bad argument #4 to 'movementRange' (table expected, got string)",
      g.movementRange, g, 1, 1, 1, "fast")
    fails("bad argument #4 to 'movementRange' (unknown option 'blocks')",
      g.movementRange, g, 1, 1, 1, { blocks = {} })
    fails("bad argument #4 to 'movementRange' (opts.cost: function or table expected, got number)",
      g.movementRange, g, 1, 1, 1, { cost = 1 })
    fails("bad argument #4 to 'movementRange' (opts.zoc: function or table expected, got boolean)",
      g.movementRange, g, 1, 1, 1, { zoc = true })
    fails("calling 'movementRange' on bad self (astar.Grid expected, got table)",
      tactics.movementRange, {}, 1, 1, 1)
  end)

  it("checks what a cost callback returns", function()
    fails("bad argument #4 to 'movementRange' (opts.cost gave 0 for (2, 1); expected a positive "
      .. "number up to 1e15, nil, false or math.huge)",
      g.movementRange, g, 1, 1, 3, { cost = function() return 0 end })
    fails("bad argument #4 to 'movementRange' (opts.cost gave string for (2, 1); expected a "
      .. "positive number up to 1e15, nil, false or math.huge)",
      g.movementRange, g, 1, 1, 3, { cost = { [2] = "1" } })
  end)

  it("propagates a callback's error unchanged and stays usable", function()
    local marker = {}
    for _, name in ipairs({ "cost", "blocked", "occupied", "zoc" }) do
      local ok, err = pcall(g.movementRange, g, 3, 3, 4, { [name] = function() error(marker) end })
      assert.is_false(ok)
      assert.equal(marker, err)
      local _, err2 = pcall(g.movementRange, g, 3, 3, 4, { [name] = function() error("no " .. name, 0) end })
      assert.equal("no " .. name, err2)
    end
    local ok, err = pcall(g.attackRange, g, r, 1, 2, { lineOfSight = function() error("dark", 0) end })
    assert.is_false(ok)
    assert.equal("dark", err)
    assert.equal(6, #g:movementRange(1, 1, 2):cells())
    -- a range asked for from inside a callback gets scratch of its own
    local sizes = {}
    local inner = g:movementRange(1, 1, 3, { cost = function(x, y)
      sizes[#sizes + 1] = #g:movementRange(x, y, 1):cells()
      return 1
    end })
    assert.is_true(#sizes > 0)
    for _, n in ipairs(sizes) do assert.is_true(n >= 3 and n <= 5) end
    assert.equal(10, #inner:cells())
  end)

  it("checks attackRange's and dangerZone's arguments", function()
    fails("bad argument #1 to 'attackRange' (astar.Range expected, got nil)", g.attackRange, g, nil, 1, 1)
    fails("bad argument #2 to 'attackRange' (number expected, got nil)", g.attackRange, g, r)
    fails("bad argument #2 to 'attackRange' (minRange must be a whole number >= 0, got -1)",
      g.attackRange, g, r, -1, 1)
    fails("bad argument #3 to 'attackRange' (maxRange must be a whole number >= 0, got 1.5)",
      g.attackRange, g, r, 1, 1.5)
    fails("bad argument #3 to 'attackRange' (maxRange must be >= minRange, got 1 < 2)",
      g.attackRange, g, r, 2, 1)
    fails("bad argument #4 to 'attackRange' (opts.lineOfSight: boolean or function expected, got string)",
      g.attackRange, g, r, 1, 1, { lineOfSight = "yes" })
    fails("bad argument #4 to 'attackRange' (unknown option 'los')", g.attackRange, g, r, 1, 1, { los = true })
    fails("bad argument #1 to 'attackRange' (range was made on a 8x6 grid, not this 3x3 one)",
      tactics.attackRange, astar.new(3, 3), r, 1, 1)
    fails("calling 'attackRange' on bad self (astar.Grid expected, got string)",
      tactics.attackRange, "grid", r, 1, 1)
    fails("bad argument #1 to 'dangerZone' (table expected, got nil)", g.dangerZone, g)
    fails("bad argument #1 to 'dangerZone' (enemies[1].x out of range 1..8, got 9)",
      g.dangerZone, g, { { x = 9, y = 1, move = 1, minRange = 1, maxRange = 1 } })
    fails("bad argument #1 to 'dangerZone' (enemies[1].move must be a number >= 0, got -2)",
      g.dangerZone, g, { { x = 1, y = 1, move = -2, minRange = 1, maxRange = 1 } })
    fails("bad argument #1 to 'dangerZone' (enemies[2].maxRange must be >= enemies[2].minRange, got 1 < 3)",
      g.dangerZone, g, { { x = 1, y = 1, move = 1, minRange = 1, maxRange = 1 },
        { x = 1, y = 1, move = 1, minRange = 3, maxRange = 1 } })
    fails("bad argument #1 to 'dangerZone' (enemies[1].minRange: number expected, got nil)",
      g.dangerZone, g, { { x = 1, y = 1, move = 1 } })
    fails("bad argument #1 to 'dangerZone' (enemies[1].zoc: function or table expected, got string)",
      g.dangerZone, g, { { x = 1, y = 1, move = 1, minRange = 1, maxRange = 1, zoc = "x" } })
    fails("bad argument #2 to 'dangerZone' (opts.blocked: function or table expected, got number)",
      g.dangerZone, g, { { x = 1, y = 1, move = 1, minRange = 1, maxRange = 1 } }, { blocked = 1 })
    fails("bad argument #2 to 'dangerZone' (unknown option 'range')", g.dangerZone, g, {}, { range = 1 })
  end)
end)
