-- Options tables (issue 10, README Robustness), on both backends: read raw
-- (next and rawget: __index and __pairs are never called), tables filled raw;
-- and dangerZone's errors name dangerZone and the field the rule came from,
-- never movementRange.
local astar = require "astar"
local tactics = require "astar.tactics"
local check_error = require("helpers.errors").check_error

local pack = table.pack or function(...) return { n = select("#", ...), ... } end

-- A metatable whose every metamethod fails the test if it is called.
local function trap(extra)
  local function boom(_, k) error("a metamethod was called (" .. tostring(k) .. ")", 0) end
  local mt = { __index = boom, __newindex = boom, __len = boom, __call = boom,
    __pairs = function() error("__pairs was called", 0) end }
  for k, v in pairs(extra or {}) do mt[k] = v end
  return mt
end

-- {} with a metatable that offers `hidden` through __index and __pairs.
local function offering(hidden, own)
  local t = own or {}
  return setmetatable(t, {
    __index = hidden,
    __pairs = function() return next, hidden, nil end,
  })
end

local MAP = table.concat({
  "........",
  "..##....",
  "....#...",
  ".2..#...",
  "......3.",
  "........",
}, "\n")

describe("options are read raw", function()
  it("findPath and newSearch ignore __index and __pairs", function()
    local g = astar.fromString(MAP)
    local plain = pack(g:findPath(1, 1, 8, 6))
    local bogus = { diagonal = "never", heuristic = "manhattan", weight = 3, partial = true,
      flat = true, unknown = 1 }
    assert.are.same(plain, pack(g:findPath(1, 1, 8, 6, offering(bogus))))
    assert.are.same(plain, pack(g:findPath(1, 1, 8, 6, setmetatable({}, trap()))))
    -- the table's own fields count, and only they
    local never = pack(g:findPath(1, 1, 8, 6, { diagonal = "never" }))
    assert.are.same(never, pack(g:findPath(1, 1, 8, 6, offering(bogus, { diagonal = "never" }))))
    local s = g:newSearch(1, 1, 8, 6, offering(bogus))
    while s:step(4) == "searching" do end
    assert.are.same(plain, pack(s:result()))
    s = g:newSearch(1, 1, 8, 6, setmetatable({ diagonal = "never" }, trap()))
    while s:step(4) == "searching" do end
    assert.are.same(never, pack(s:result()))
  end)

  it("findPath fills opts.into raw", function()
    local g = astar.fromString(MAP)
    local plain = pack(g:findPath(1, 1, 8, 6))
    local point = setmetatable({ x = 0, y = 0 }, trap())
    local into = setmetatable({ point, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 }, trap())
    local got = pack(g:findPath(1, 1, 8, 6, { into = into }))
    assert.are.equal(into, got[1])
    assert.are.equal(plain[2], got[2])
    assert.are.equal(point, rawget(into, 1))          -- the point table was reused
    for i, p in ipairs(plain[1]) do
      local q = rawget(into, i)
      assert.are.same({ p.x, p.y }, { rawget(q, "x"), rawget(q, "y") })
    end
    assert.is_nil(rawget(into, #plain[1] + 1))
    local flat = setmetatable({}, trap())
    g:findPath(1, 1, 8, 6, { into = flat, flat = true })
    assert.are.equal(2 * #plain[1], rawlen and rawlen(flat) or #flat)
  end)

  it("movementRange ignores them, in opts and in rule tables", function()
    local g = astar.fromString(MAP)
    local plain = g:movementRange(3, 3, 5):cells()
    local hidden = { cost = function() return 9 end, blocked = function() return true end,
      zoc = {}, bogus = 1 }
    assert.are.same(plain, g:movementRange(3, 3, 5, offering(hidden)):cells())
    assert.are.same(plain, g:movementRange(3, 3, 5, setmetatable({}, trap())):cells())
    -- a rule table's metatable is not asked either
    local rules = {
      blocked = setmetatable({}, { __index = function() return true end }),
      occupied = setmetatable({}, trap()),
      zoc = setmetatable({}, trap()),
      cost = setmetatable({ [(3 - 1) * 8 + 4] = 2 }, { __index = function() return 5 end }),
    }
    local r = g:movementRange(3, 3, 5, rules)
    -- a cost table makes every cell it holds no entry for impassable (nil)
    assert.are.same({ { x = 3, y = 3, cost = 0 }, { x = 4, y = 3, cost = 2 } }, r:cells())
    -- one without any entry is no rule (issue 21), whatever its metatable offers
    rules.cost = setmetatable({}, { __index = function() return 5 end })
    assert.are.same(plain, g:movementRange(3, 3, 5, rules):cells())
    rules.cost = nil
    assert.are.same(plain, g:movementRange(3, 3, 5, rules):cells())
  end)

  it("attackRange ignores them", function()
    local g = astar.fromString(MAP)
    local r = g:movementRange(1, 1, 1)
    local plain = g:attackRange(r, 1, 3):cells()
    assert.are.same(plain, g:attackRange(r, 1, 3, offering({ lineOfSight = function() return false end,
      bogus = true })):cells())
    assert.are.same(plain, g:attackRange(r, 1, 3, setmetatable({}, trap())):cells())
    local seen = g:attackRange(r, 1, 3, { lineOfSight = true }):cells()
    assert.are.same(seen, g:attackRange(r, 1, 3, setmetatable({ lineOfSight = true }, trap())):cells())
  end)

  it("dangerZone ignores them in opts", function()
    local g = astar.fromString(MAP)
    local enemies = { { x = 2, y = 2, move = 2, minRange = 1, maxRange = 2 },
      { x = 7, y = 5, move = 1, minRange = 2, maxRange = 2 } }
    local plain = g:dangerZone(enemies):cells()
    local hidden = { cost = function() return 1e15 end, blocked = function() return true end,
      lineOfSight = function() return false end, bogus = 1 }
    assert.are.same(plain, g:dangerZone(enemies, offering(hidden)):cells())
    assert.are.same(plain, g:dangerZone(enemies, setmetatable({}, trap())):cells())
  end)

  it("quotes unknown option names as the C binding does", function()
    local g = astar.new(8, 6)
    local r = g:movementRange(1, 1, 1)
    local long = ("x"):rep(50)
    check_error("bad argument #4 to 'attackRange' (unknown option '?bad')", g.attackRange, g, r, 1, 1,
      { ["\1bad"] = true })
    check_error("bad argument #4 to 'attackRange' (unknown option '" .. ("x"):rep(40) .. "...')",
      g.attackRange, g, r, 1, 1, { [long] = true })
    check_error("bad argument #2 to 'dangerZone' (unknown option 'a?b')", g.dangerZone, g, {},
      { ["a\0b"] = true })
    check_error("bad argument #4 to 'movementRange' (unknown option 'a?b')", g.movementRange, g, 1, 1, 1,
      { ["a\0b"] = true })
    check_error("bad argument #5 to 'findPath' (unknown option 'a?b')", g.findPath, g, 1, 1, 2, 2,
      { ["a\0b"] = true })
  end)
end)

describe("dangerZone's errors", function()
  local g = astar.new(8, 6)
  local function enemy(extra)
    local e = { x = 1, y = 1, move = 3, minRange = 1, maxRange = 1 }
    for k, v in pairs(extra or {}) do e[k] = v end
    return e
  end
  local TAIL = "; expected a positive number up to 1e15, nil, false or math.huge)"

  it("name dangerZone and the enemy's own rule (argument #1)", function()
    check_error("bad argument #1 to 'dangerZone' (enemies[1].cost gave 0 for (2, 1)" .. TAIL,
      g.dangerZone, g, { enemy { cost = function() return 0 end } })
    check_error("bad argument #1 to 'dangerZone' (enemies[2].cost gave -1 for (2, 1)" .. TAIL,
      g.dangerZone, g, { enemy(), enemy { cost = { [2] = -1 } } })
    check_error("bad argument #1 to 'dangerZone' (enemies[2].cost gave string for (2, 1)" .. TAIL,
      g.dangerZone, g, { enemy(), enemy { cost = function() return "1" end } }, { cost = function() return 1 end })
    check_error("bad argument #1 to 'dangerZone' (enemies[1].cost gave nan for (2, 1)" .. TAIL,
      tactics.dangerZone, g, { enemy { cost = function() return 0 / 0 end } })
    check_error("bad argument #1 to 'dangerZone' (enemies[1].cost gave 1000000000000000.1 for (2, 1)" .. TAIL,
      g.dangerZone, g, { enemy { cost = function() return 1e15 + 0.125 end } })
    check_error("bad argument #1 to 'dangerZone' (enemies[1].blocked: function or table expected, got number)",
      g.dangerZone, g, { enemy { blocked = 5 } })
  end)

  it("name dangerZone and the shared rule (argument #2)", function()
    check_error("bad argument #2 to 'dangerZone' (opts.cost gave 0 for (2, 1)" .. TAIL,
      g.dangerZone, g, { enemy() }, { cost = function() return 0 end })
    check_error("bad argument #2 to 'dangerZone' (opts.cost gave boolean for (2, 1)" .. TAIL,
      g.dangerZone, g, { enemy() }, { cost = { [2] = true } })
    check_error("bad argument #2 to 'dangerZone' (opts.cost gave -inf for (2, 1)" .. TAIL,
      g.dangerZone, g, { enemy { blocked = {} } }, { cost = function() return -math.huge end })
    check_error("bad argument #2 to 'dangerZone' (opts.zoc: function or table expected, got string)",
      g.dangerZone, g, { enemy() }, { zoc = "no" })
  end)

  it("say dangerZone when the grid is closed or keeps changing in a callback", function()
    local closing = astar.new(8, 6)
    check_error("grid closed during dangerZone", closing.dangerZone, closing, { enemy { blocked = function()
      getmetatable(closing).__close(closing)
    end } })
    local changing = astar.new(8, 6)
    check_error("grid changed during dangerZone", changing.dangerZone, changing, { enemy() }, { zoc = function()
      changing:setWalkable(8, 6, not changing:isWalkable(8, 6))
    end })
    local seeing = astar.new(8, 6)
    check_error("grid closed during dangerZone", seeing.dangerZone, seeing, { enemy() }, { lineOfSight = function()
      getmetatable(seeing).__close(seeing)
      return true
    end })
    local sight = astar.new(8, 6)
    local r = sight:movementRange(1, 1, 1)
    check_error("grid closed during attackRange", sight.attackRange, sight, r, 1, 2, { lineOfSight = function()
      getmetatable(sight).__close(sight)
      return true
    end })
  end)

  it("read each enemy field once, before any search", function()
    local reads = {}
    local fields = { x = 2, y = 2, move = 2, minRange = 1, maxRange = 1 }
    local e = setmetatable({}, { __index = function(_, k)
      reads[k] = (reads[k] or 0) + 1
      if reads[k] > 1 then return -1 end     -- a second read would get a bad value
      return fields[k]
    end })
    local z = g:dangerZone({ e })
    assert.are.same(g:dangerZone({ fields }):cells(), z:cells())
    for k in pairs(fields) do assert.are.equal(1, reads[k], k) end
  end)
end)
