-- findPath's output forms (README, Finding paths): opts.flat gives the path as
-- {x1, y1, x2, y2, ...}, opts.into fills a table the caller owns. Both must give
-- exactly the cells and cost of the default {x =, y =} form, which is itself
-- checked against the reference (spec/helpers/reference.lua) for cost.

local astar = require "astar"
local R = require "helpers.reference"

local pack = table.pack or function(...) return { n = select("#", ...), ... } end
local unpack = unpack or table.unpack -- luacheck: ignore 143
local rawlen = rawlen or function(t) return #t end   -- Lua 5.1's # ignores __len
local mtype = math.type or function() return "number" end

local check_error = require("helpers.errors").check_error

-- The points of a flat path, as {x =, y =} tables.
local function unflatten(flat)
  assert(#flat % 2 == 0, "a flat path of odd length " .. #flat)
  local points = {}
  for i = 1, #flat / 2 do points[i] = { x = flat[2 * i - 1], y = flat[2 * i] } end
  return points
end

-- The same cells in the same order, and numbers of the same kind (integers on 5.3+).
local function same_cells(expected, got, what)
  assert.are.equal(#expected, #got, what .. ": path length")
  for i, p in ipairs(expected) do
    local q = got[i]
    assert(type(q) == "table", what .. ": entry " .. i .. " is a " .. type(q))
    assert(p.x == q.x and p.y == q.y, ("%s: cell %d is (%s, %s), expected (%s, %s)"):format(
      what, i, tostring(q.x), tostring(q.y), p.x, p.y))
    assert.are.equal(mtype(p.x), mtype(q.x))
    assert.are.equal(mtype(p.y), mtype(q.y))
  end
end

-- A shallow picture of a table and of the tables in it, to prove it untouched.
local function picture(t)
  local out = {}
  for k, v in pairs(t) do
    local fields = {}
    if type(v) == "table" then
      for k2, v2 in pairs(v) do fields[k2] = v2 end
    end
    out[k] = { value = v, fields = fields }
  end
  return out
end

local function same_picture(before, t)
  for k, entry in pairs(before) do
    assert(rawequal(entry.value, t[k]), "entry " .. tostring(k) .. " changed")
    if type(entry.value) == "table" then
      for k2, v2 in pairs(entry.fields) do assert.are.equal(v2, entry.value[k2]) end
      for k2 in pairs(entry.value) do assert(entry.fields[k2] ~= nil, "field " .. tostring(k2) .. " added") end
    end
  end
  for k in pairs(t) do assert(before[k] ~= nil, "entry " .. tostring(k) .. " added") end
end

-- A map whose goal is cut off: the right column (x = 6) behind a wall at x = 5.
local function walled_grid()
  local g = astar.new(6, 4)
  for y = 1, 4 do g:setWalkable(5, y, false) end
  return g
end

describe("findPath opts.flat and opts.into", function()
  it("give the default form's cells and cost on generated maps, every diagonal mode #slow", function()
    local buffer, flat_buffer = {}, {}   -- reused across every query
    local checked, unreachable = 0, 0
    for seed = 1, 6 do
      local rng = R.rng(7100 + seed)
      local w, h = rng.int(6, 30), rng.int(6, 30)
      -- odd seeds: uniform costs (JPS under "auto" in C); even seeds: terrain costs
      local desc = R.random_map(rng, w, h, 0.1 + 0.05 * seed, seed % 2 == 1 and { 1 } or nil)
      local grid = R.build_grid(astar, desc)
      for _, mode in ipairs(R.MODES) do
        local dist = R.dijkstra(desc, mode, 1, 1)
        for _ = 1, 8 do
          local gx, gy = rng.int(1, w), rng.int(1, h)
          local opts = { diagonal = mode }
          local path, cost = grid:findPath(1, 1, gx, gy, opts)
          local flat, flat_cost = grid:findPath(1, 1, gx, gy, { diagonal = mode, flat = true })
          local fresh = {}
          local into, into_cost = grid:findPath(1, 1, gx, gy, { diagonal = mode, into = fresh })
          local before, flat_before = picture(buffer), picture(flat_buffer)
          local reused, reused_cost = grid:findPath(1, 1, gx, gy, { diagonal = mode, into = buffer })
          local both, both_cost = grid:findPath(1, 1, gx, gy,
            { diagonal = mode, into = flat_buffer, flat = true })
          if path then
            -- the default form against the reference
            local total, err = R.validate(desc, mode, path, 1, 1, gx, gy)
            assert(total, err)
            assert(R.close(total, cost), ("steps sum to %.17g, cost %.17g"):format(total, cost))
            assert(dist[gx][gy], "a path to a cell the reference cannot reach")
            assert(R.close(cost, dist[gx][gy]), ("cost %.17g, optimal %.17g"):format(cost, dist[gx][gy]))
            -- the other forms against the default one, exactly
            assert.are.equal(2 * #path, #flat)
            same_cells(path, unflatten(flat), "flat")
            assert(rawequal(fresh, into), "into returned another table")
            same_cells(path, into, "into")
            assert(rawequal(buffer, reused), "into returned another table")
            same_cells(path, reused, "reused into")
            assert(rawequal(flat_buffer, both), "into returned another table")
            same_cells(path, unflatten(both), "flat into")
            for _, c in ipairs({ flat_cost, into_cost, reused_cost, both_cost }) do
              assert.are.equal(cost, c)
            end
            assert(R.validate(desc, mode, unflatten(flat), 1, 1, gx, gy))
            checked = checked + 1
          else
            assert(dist[gx][gy] == nil, "no path to a cell the reference reaches")
            for _, r in ipairs({ pack(flat, flat_cost), pack(into, into_cost),
                pack(reused, reused_cost), pack(both, both_cost) }) do
              assert.are.equal(nil, r[1])
              assert.are.equal(cost, r[2])
            end
            assert.are.equal(nil, next(fresh))
            same_picture(before, buffer)
            same_picture(flat_before, flat_buffer)
            unreachable = unreachable + 1
          end
        end
      end
    end
    assert(checked > 100, "only " .. checked .. " paths compared")
    assert(unreachable > 0, "no unreachable goal tried")
  end)

  it("one-point path: start == goal", function()
    local g = astar.new(4, 4)
    local flat, cost = g:findPath(2, 3, 2, 3, { flat = true })
    assert.are.same({ 2, 3 }, flat)
    assert.are.equal(0, cost)
    local into = { { x = 9, y = 9 }, { x = 8, y = 8 }, 5 }
    local first = into[1]
    assert(rawequal(into, (g:findPath(2, 3, 2, 3, { into = into }))))
    assert(rawequal(first, into[1]))
    assert.are.same({ { x = 2, y = 3 } }, into)
  end)

  it("into returns the table it was given and reuses the point tables in it", function()
    local g = astar.new(5, 1)
    local keep = { x = 0, y = 0, unit = "archer", hp = 7 }
    local other = { tag = true }
    local into = { keep, other }
    local path, cost = g:findPath(1, 1, 5, 1, { into = into })
    assert(rawequal(into, path))
    assert.are.equal(4, cost)
    assert(rawequal(keep, into[1]))
    assert(rawequal(other, into[2]))
    -- only x and y are written; other fields stay
    assert.are.same({ x = 1, y = 1, unit = "archer", hp = 7 }, keep)
    assert.are.same({ x = 2, y = 1, tag = true }, other)
    same_cells(g:findPath(1, 1, 5, 1), into, "into")
  end)

  it("into replaces entries that are not tables", function()
    local g = astar.new(7, 1)
    local into = { 1, "s", true, false, print, coroutine.create(function() end) }
    g:findPath(1, 1, 7, 1, { into = into })
    same_cells(g:findPath(1, 1, 7, 1), into, "into")
    for i = 1, 7 do
      local p = into[i]
      local n = 0
      for _ in pairs(p) do n = n + 1 end
      assert.are.equal(2, n, "a new point table holds only x and y")
    end
  end)

  it("into clears the old contents past the path's end and keeps other keys", function()
    local g = astar.new(5, 5)
    local into = { name = "route", [0] = "zero" }
    for i = 1, 40 do into[i] = (i % 2 == 0) and { x = -i, y = -i } or i end
    local kept = into[2]
    local path = g:findPath(1, 1, 4, 4, { into = into })   -- 4 cells
    assert(rawequal(into, path))
    assert.are.equal(4, #into)
    for i = 5, 40 do assert.are.equal(nil, rawget(into, i), "entry " .. i .. " left") end
    assert.are.equal("route", into.name)
    assert.are.equal("zero", into[0])
    assert(rawequal(kept, into[2]))
    same_cells(g:findPath(1, 1, 4, 4), into, "into")
    -- a longer path then a shorter one in the same table
    g:findPath(1, 1, 5, 1, { into = into, diagonal = "never" })
    assert.are.equal(5, #into)
    g:findPath(1, 1, 1, 2, { into = into })
    assert.are.equal(2, #into)
    assert.are.equal(nil, rawget(into, 3))
    same_cells({ { x = 1, y = 1 }, { x = 1, y = 2 } }, into, "shorter")
  end)

  it("into is written with rawset, without the table's metamethods", function()
    local g = astar.new(4, 4)
    local function refuse() error("a metamethod was called", 0) end
    local point = setmetatable({}, { __newindex = refuse, __index = refuse })
    local old = {}
    for i = 1, 10 do old[i] = i end
    old[1] = point
    local into = setmetatable(old, { __newindex = refuse, __index = refuse, __len = function() return 0 end })
    g:findPath(1, 1, 4, 4, { into = into })
    assert.are.equal(4, rawlen(into))
    assert(rawequal(point, rawget(into, 1)))
    assert.are.equal(1, rawget(point, "x"))
    assert.are.equal(1, rawget(point, "y"))
    for i = 5, 10 do assert.are.equal(nil, rawget(into, i)) end
  end)

  it("no path or a blocked goal leaves into untouched", function()
    local g = walled_grid()
    for _, flat in ipairs({ false, true }) do
      local into = { { x = 42, y = 43, note = "n" }, 7, "x", name = "keep" }
      local before = picture(into)
      local path, reason = g:findPath(1, 1, 6, 2, { into = into, flat = flat })
      assert.are.equal(nil, path)
      assert.are.equal("no path", reason)
      same_picture(before, into)
      g:setWalkable(6, 4, false)
      path, reason = g:findPath(1, 1, 6, 4, { into = into, flat = flat })
      assert.are.equal(nil, path)
      assert.are.equal("goal is blocked", reason)
      same_picture(before, into)
      g:setWalkable(6, 4, true)
    end
  end)

  it("an option error leaves into untouched", function()
    local g = astar.new(4, 4)
    local into = { { x = 5, y = 6 }, 3 }
    local before = picture(into)
    check_error("bad argument #5 to 'findPath' (opts.flat: boolean expected, got number)",
      g.findPath, g, 1, 1, 4, 4, { into = into, flat = 1 })
    same_picture(before, into)
  end)

  it("flat with into writes the numbers in place of what was there", function()
    local g = astar.new(5, 5)
    local into = { { x = 1, y = 1 }, { x = 2, y = 2 }, "a" }
    for i = 4, 30 do into[i] = i end
    into.name = "line"
    local path, cost = g:findPath(1, 1, 5, 3, { into = into, flat = true })
    assert(rawequal(into, path))
    local flat, flat_cost = g:findPath(1, 1, 5, 3, { flat = true })
    assert.are.same(flat, { unpack(into) })
    assert.are.equal(flat_cost, cost)
    assert.are.equal(#flat, #into)
    for i = #flat + 1, 30 do assert.are.equal(nil, rawget(into, i)) end
    assert.are.equal("line", into.name)
    -- then the point form in the same table: the numbers become point tables
    g:findPath(1, 1, 2, 2, { into = into })
    assert.are.equal(2, #into)
    same_cells({ { x = 1, y = 1 }, { x = 2, y = 2 } }, into, "points after flat")
  end)

  it("partial = true with into: the path in into, its cost and whether the goal was reached", function()
    local g = walled_grid()
    for _, flat in ipairs({ false, true }) do
      for _, goal in ipairs({ { 6, 2 }, { 3, 4 } }) do
        local expected = pack(g:findPath(1, 1, goal[1], goal[2], { partial = true, flat = flat }))
        local into = { "old", "old", "old", "old", "old", "old", "old", "old", "old", "old", "old" }
        local got = pack(g:findPath(1, 1, goal[1], goal[2], { partial = true, flat = flat, into = into }))
        assert.are.equal(3, got.n)
        assert(rawequal(into, got[1]))
        assert.are.same(expected[1], into)
        assert.are.equal(expected[2], got[2])
        assert.are.equal(goal[1] == 3, got[3])
        local default = g:findPath(1, 1, goal[1], goal[2], { partial = true })
        if flat then
          same_cells(default, unflatten(into), "partial flat")
        else
          same_cells(default, into, "partial")
        end
      end
    end
  end)

  it("the same opts table, with the same into, twice in a row", function()
    local desc = R.random_map(R.rng(77), 20, 20, 0.15)
    for x = 1, 20 do desc.walkable[x][1] = true end   -- (1, 1) -> (20, 20) exists
    for y = 1, 20 do desc.walkable[20][y] = true end
    desc.walkable[1][20] = false                       -- and one goal is blocked
    local g = R.build_grid(astar, desc)
    local buffer = {}
    local opts = { into = buffer }
    local goals = { { 20, 20 }, { 3, 2 }, { 1, 20 }, { 20, 1 }, { 7, 9 }, { 20, 20 } }
    local first, cost1 = g:findPath(1, 1, 20, 20, opts)
    assert(first, cost1)
    for _, goal in ipairs(goals) do
      local expected, cost = g:findPath(1, 1, goal[1], goal[2])
      local a, ca = g:findPath(1, 1, goal[1], goal[2], opts)
      local b, cb = g:findPath(1, 1, goal[1], goal[2], opts)
      if expected then
        assert(rawequal(buffer, a) and rawequal(buffer, b))
        same_cells(expected, buffer, "into, twice")
        assert.are.equal(cost, ca)
        assert.are.equal(cost, cb)
      else
        assert.are.equal(nil, a)
        assert.are.equal(nil, b)
      end
      assert(rawequal(buffer, opts.into))
    end
    -- the previous result is that same table: it now holds the last path
    assert(rawequal(first, buffer))
  end)

  it("newSearch with flat: result() gives the flat form", function()
    local desc = R.random_map(R.rng(91), 16, 12, 0.2)
    for x = 1, 16 do desc.walkable[x][1] = true end   -- (1, 1) -> (16, 12) exists
    for y = 1, 12 do desc.walkable[16][y] = true end
    local g = R.build_grid(astar, desc)
    for _, partial in ipairs({ false, true }) do
      for _, flat in ipairs({ false, true }) do
        local opts = { flat = flat, partial = partial }
        local expected = pack(g:findPath(1, 1, 16, 12, opts))
        local search = g:newSearch(1, 1, 16, 12, opts)
        while search:step(5) == "searching" do end
        local got = pack(search:result())
        assert.are.same(expected, got)
        if got[1] then
          local default = g:findPath(1, 1, 16, 12, { partial = partial })
          same_cells(default, flat and unflatten(got[1]) or got[1], "newSearch")
        end
      end
    end
  end)

  -- The C module writes flat paths 64 cells at a time: lengths around the blocks.
  it("flat paths of 1 to 130 cells, across the 64-cell blocks, into one buffer", function()
    local g = astar.new(130, 1)
    local buffer = {}
    for _, algorithm in ipairs({ "astar", "jps" }) do
      for _, n in ipairs({ 130, 129, 128, 65, 64, 63, 2, 1, 66 }) do
        local path, cost = g:findPath(1, 1, n, 1, { flat = true, into = buffer, algorithm = algorithm })
        assert(rawequal(buffer, path))
        assert.are.equal(n - 1, cost)
        assert.are.equal(2 * n, rawlen(path), algorithm .. " " .. n)
        for i = 1, n do
          assert(path[2 * i - 1] == i and path[2 * i] == 1,
            ("%s %d: cell %d is (%s, %s)"):format(algorithm, n, i, tostring(path[2 * i - 1]),
              tostring(path[2 * i])))
        end
      end
    end
  end)

  it("flat paths of a winding walk, smoothed or not, give the default form's cells", function()
    -- a serpentine: rows 2, 4, ... walls with a gap at alternate ends; over 64 cells a leg
    local w, h = 70, 9
    local g = astar.new(w, h)
    for y = 2, h - 1, 2 do
      for x = 1, w do g:setWalkable(x, y, false) end
      g:setWalkable(y % 4 == 2 and w or 1, y, true)
    end
    for _, smooth in ipairs({ false, "corners", "sight", "theta" }) do
      local opts = { smooth = smooth or nil }
      local default, cost = g:findPath(1, 1, 1, h, opts)
      opts.flat = true
      local flat, flat_cost = g:findPath(1, 1, 1, h, opts)
      assert.are.equal(cost, flat_cost)
      same_cells(default, unflatten(flat), tostring(smooth))
      if not smooth then assert.are.equal(4 * (w - 1) + 9, #default) end
    end
  end)

  it("raises the errors of the README", function()
    local g = astar.new(4, 4)
    check_error("bad argument #5 to 'findPath' (opts.flat: boolean expected, got number)",
      g.findPath, g, 1, 1, 4, 4, { flat = 1 })
    check_error("bad argument #5 to 'findPath' (opts.flat: boolean expected, got table)",
      g.findPath, g, 1, 1, 4, 4, { flat = {} })
    check_error("bad argument #5 to 'newSearch' (opts.flat: boolean expected, got string)",
      g.newSearch, g, 1, 1, 4, 4, { flat = "yes" })
    check_error("bad argument #5 to 'findPath' (opts.into: table expected, got number)",
      g.findPath, g, 1, 1, 4, 4, { into = 1 })
    check_error("bad argument #5 to 'findPath' (opts.into: table expected, got boolean)",
      g.findPath, g, 1, 1, 4, 4, { into = false })
    check_error("bad argument #5 to 'newSearch' (opts.into: only findPath fills a table)",
      g.newSearch, g, 1, 1, 4, 4, { into = {} })
    check_error("bad argument #5 to 'newSearch' (opts.into: only findPath fills a table)",
      g.newSearch, g, 1, 1, 4, 4, { into = 1 })
    -- the grid still works
    assert.are.same({ 1, 1, 2, 2, 3, 3, 4, 4 }, (g:findPath(1, 1, 4, 4, { flat = true })))
  end)
end)
