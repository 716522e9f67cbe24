-- Specs for the garbage-free results of astar.tactics (issue 12, point 7):
-- range:pathTo(x, y, {flat =, into =}), cells(into) and size() on Range,
-- AttackRange and DangerZone, and the errors of every new option or value.
local astar = require "astar"
local tactics = require "astar.tactics"

local function fails(msg, f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  assert.equal(msg, err)
end

describe("range:pathTo options", function()
  local grid = astar.fromString("....\n.##.\n....")
  local range = grid:movementRange(1, 1, 5)

  it("gives a flat path {x1, y1, x2, y2, ...} equal to the point path", function()
    local points, flat = range:pathTo(4, 3), range:pathTo(4, 3, { flat = true })
    assert.equal(2 * #points, #flat)
    for i, p in ipairs(points) do
      assert.equal(p.x, flat[2 * i - 1])
      assert.equal(p.y, flat[2 * i])
    end
    assert.same(points, range:pathTo(4, 3, { flat = false }))
    assert.same(points, range:pathTo(4, 3, {}))
  end)

  it("fills into: point tables reused with their other fields, the tail cleared", function()
    local keep = { x = 0, y = 0, label = "kept" }
    local into = { keep, "not a table", 3, 4, 5, 6, 7, 8, 9, 10, hash = "left alone" }
    local path = range:pathTo(4, 3, { into = into })
    assert.equal(into, path)
    assert.same(range:pathTo(4, 3), (function()
      local copy = {}
      for i = 1, #into do copy[i] = { x = into[i].x, y = into[i].y } end
      return copy
    end)())
    assert.equal(6, #into)                 -- 1,1 .. 4,3 is 6 cells; 7..10 cleared
    assert.is_nil(rawget(into, 7))
    assert.is_nil(rawget(into, 10))
    assert.equal(keep, into[1])
    assert.equal("kept", keep.label)
    assert.same({ 1, 1 }, { keep.x, keep.y })
    assert.equal("left alone", into.hash)
    assert.is_table(into[2])
  end)

  it("writes numbers into a flat into and clears its tail", function()
    local into = {}
    for i = 1, 20 do into[i] = i * 100 end
    assert.equal(into, range:pathTo(4, 3, { flat = true, into = into }))
    assert.equal(12, #into)
    assert.same(range:pathTo(4, 3, { flat = true }), into)
    assert.is_nil(rawget(into, 13))
  end)

  it("uses rawset: metamethods of into are not called", function()
    local into = setmetatable({}, { __newindex = function() error("called __newindex") end,
      __index = function() error("called __index") end })
    range:pathTo(2, 1, { into = into })
    assert.same({ x = 2, y = 1 }, rawget(into, 2))
  end)

  it("does not touch into when there is no path", function()
    local into = { { x = 9, y = 9 }, 2, 3 }
    assert.is_nil(range:pathTo(2, 2, { into = into }))       -- a wall
    assert.is_nil(range:pathTo(99, 1, { into = into, flat = true }))
    assert.same({ { x = 9, y = 9 }, 2, 3 }, into)
    local r = grid:movementRange(1, 1, 3, { occupied = function(x, y) return x == 2 and y == 1 end })
    assert.is_nil(r:pathTo(2, 1, { into = into }))            -- pass-through only
    assert.same({ { x = 9, y = 9 }, 2, 3 }, into)
  end)

  it("follows 8-direction moves when the range was made with diagonals", function()
    local r = astar.new(5, 5):movementRange(1, 1, 10, { diagonal = "always" })
    assert.same({ 1, 1, 2, 2, 3, 3, 4, 4, 5, 5 }, r:pathTo(5, 5, { flat = true }))
    local into = {}
    r:pathTo(3, 3, { into = into })
    assert.same({ { x = 1, y = 1 }, { x = 2, y = 2 }, { x = 3, y = 3 } }, into)
  end)
end)

describe("size() and cells(into)", function()
  local grid = astar.fromString("......\n.#....\n......\n......")
  local ally = function(x, y) return x == 2 and y == 1 end
  local range = grid:movementRange(1, 1, 3, { occupied = ally, diagonal = "one-obstacle" })
  local area = grid:attackRange(range, 1, 2, { metric = "chebyshev" })
  local zone = grid:dangerZone({ { x = 6, y = 4, move = 2, minRange = 1, maxRange = 1 },
    { x = 5, y = 1, move = 1, minRange = 1, maxRange = 2, metric = "euclidean" } })

  it("size() counts the stop cells of a range, the cells of an area and a zone", function()
    assert.equal(#range:cells(), range:size())
    assert.is_true(range:size() > 1)
    local reached = tonumber(tostring(range):match("%((%d+) cells"))
    assert.equal(reached - 1, range:size())              -- the ally is crossed, not a stop
    assert.equal(#area:cells(), area:size())
    assert.equal(#zone:cells(), zone:size())
  end)

  for name, obj in pairs({ range = range, area = area, zone = zone }) do
    it(name .. ":cells(into) fills the caller's table as cells() would", function()
      local want = obj:cells()
      local keep = { x = -1, y = -1, tag = "mine" }
      local into = { keep, false }
      for i = 3, #want + 5 do into[i] = "old" end
      into.extra = true
      assert.equal(into, obj:cells(into))
      assert.equal(#want, #into)
      assert.is_nil(rawget(into, #want + 1))
      assert.is_nil(rawget(into, #want + 5))
      assert.equal(keep, into[1])
      assert.equal("mine", keep.tag)
      assert.is_true(into.extra)
      for i, c in ipairs(want) do
        assert.equal(c.x, into[i].x)
        assert.equal(c.y, into[i].y)
        assert.equal(c.cost, into[i].cost)
        assert.equal(c.count, into[i].count)
      end
      -- a shorter result in the same table: the tail goes
      local small = grid:movementRange(6, 4, 0)
      if name == "range" then
        assert.equal(into, small:cells(into))
        assert.equal(1, #into)
        assert.equal(keep, into[1])
        assert.same({ 6, 4, 0 }, { keep.x, keep.y, keep.cost })
      end
    end)
  end
end)

describe("errors of the new options and values", function()
  local g = astar.new(8, 6)
  local r = g:movementRange(1, 1, 2)
  local one = { x = 1, y = 1, move = 1, minRange = 1, maxRange = 1 }
  local function enemy(extra)
    local e = {}
    for k, v in pairs(one) do e[k] = v end
    for k, v in pairs(extra) do e[k] = v end
    return e
  end

  it("checks opts.diagonal of movementRange", function()
    fails("bad argument #4 to 'movementRange' (opts.diagonal: unknown diagonal mode 'x'; expected "
      .. "never, always, one-obstacle or no-obstacles)", g.movementRange, g, 1, 1, 2, { diagonal = "x" })
    fails("bad argument #4 to 'movementRange' (opts.diagonal: string expected, got boolean)",
      g.movementRange, g, 1, 1, 2, { diagonal = true })
    fails("bad argument #4 to 'movementRange' (opts.diagonal: unknown diagonal mode 'Never'; expected "
      .. "never, always, one-obstacle or no-obstacles)", tactics.movementRange, g, 1, 1, 2,
      { diagonal = "Never" })
    fails("bad argument #4 to 'movementRange' (unknown option 'diagonals')",
      g.movementRange, g, 1, 1, 2, { diagonals = "always" })
  end)

  it("checks opts.metric of attackRange", function()
    fails("bad argument #4 to 'attackRange' (opts.metric: unknown metric 'taxicab'; expected "
      .. "manhattan, chebyshev or euclidean)", g.attackRange, g, r, 1, 2, { metric = "taxicab" })
    fails("bad argument #4 to 'attackRange' (opts.metric: string expected, got number)",
      g.attackRange, g, r, 1, 2, { metric = 2 })
    fails("bad argument #4 to 'attackRange' (unknown option 'diagonal')",
      g.attackRange, g, r, 1, 2, { diagonal = "always" })
  end)

  it("checks dangerZone's diagonal and metric, in opts and per enemy", function()
    fails("bad argument #2 to 'dangerZone' (opts.diagonal: unknown diagonal mode 'all'; expected "
      .. "never, always, one-obstacle or no-obstacles)", g.dangerZone, g, { one }, { diagonal = "all" })
    fails("bad argument #2 to 'dangerZone' (opts.metric: unknown metric 'round'; expected "
      .. "manhattan, chebyshev or euclidean)", g.dangerZone, g, {}, { metric = "round" })
    fails("bad argument #2 to 'dangerZone' (opts.diagonal: string expected, got table)",
      g.dangerZone, g, {}, { diagonal = {} })
    fails("bad argument #1 to 'dangerZone' (enemies[2].diagonal: unknown diagonal mode 'x'; expected "
      .. "never, always, one-obstacle or no-obstacles)", g.dangerZone, g,
      { one, enemy({ diagonal = "x" }) })
    fails("bad argument #1 to 'dangerZone' (enemies[1].metric: unknown metric 'hex'; expected "
      .. "manhattan, chebyshev or euclidean)", g.dangerZone, g, { enemy({ metric = "hex" }) })
    fails("bad argument #1 to 'dangerZone' (enemies[1].metric: string expected, got number)",
      g.dangerZone, g, { enemy({ metric = 1 }) })
  end)

  it("checks pathTo's options", function()
    fails("bad argument #3 to 'pathTo' (unknown option 'foo')", r.pathTo, r, 1, 1, { foo = 1 })
    fails("bad argument #3 to 'pathTo' (table expected, got string)", r.pathTo, r, 1, 1, "flat")
    fails("bad argument #3 to 'pathTo' (opts.flat: boolean expected, got number)",
      r.pathTo, r, 1, 1, { flat = 1 })
    fails("bad argument #3 to 'pathTo' (opts.into: table expected, got number)",
      r.pathTo, r, 1, 1, { into = 1 })
    fails("bad argument #3 to 'pathTo' (option names must be strings, got number)",
      r.pathTo, r, 1, 1, { 1 })
    -- checked also where there is no path
    fails("bad argument #3 to 'pathTo' (unknown option 'foo')", r.pathTo, r, 8, 6, { foo = 1 })
  end)

  it("checks cells' into and size's self", function()
    local area = g:attackRange(r, 1, 1)
    local zone = g:dangerZone({ one })
    fails("bad argument #1 to 'cells' (table expected, got number)", r.cells, r, 1)
    fails("bad argument #1 to 'cells' (table expected, got string)", area.cells, area, "t")
    fails("bad argument #1 to 'cells' (table expected, got boolean)", zone.cells, zone, true)
    fails("calling 'size' on bad self (astar.Range expected, got table)", r.size, {})
  end)
end)
