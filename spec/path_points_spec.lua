-- The default path form (issue 22; docs/performance.md, The default path
-- form): every call that returns points (findPath, a stepped search's
-- result, pathFrom, pathTo, cells) makes them new, plain tables that no other
-- call shares, so a caller may keep and change them. And the points are made
-- while finalizers may run: one that edits the grid at any allocation of
-- findPath leaves the answer of the grid before or after the edit.
local astar = require "astar"
local F = require "helpers.finalizers"


-- An open 8x3 board: (1, 2) to (8, 2) is the middle row, 8 cells.
local function board()
  return astar.fromString("........\n........\n........")
end

-- Every source of a point list, called on grid g: name, the call, and the
-- fields each point has.
local SOURCES = {
  { "findPath", function(g) return (g:findPath(1, 2, 8, 2)) end, { "x", "y" } },
  { "findPath smooth corners", function(g)
    return (g:findPath(1, 1, 8, 3, { smooth = "corners" }))
  end, { "x", "y" } },
  { "search:result", function(g)
    local s = g:newSearch(1, 2, 8, 2)
    s:step(math.huge)
    return (s:result())
  end, { "x", "y" } },
  { "map:pathFrom", function(g)
    return (g:distanceMap({ { x = 8, y = 2 } }):pathFrom(1, 2))
  end, { "x", "y" } },
  { "map:cells", function(g) return g:distanceMap({ { x = 8, y = 2 } }):cells() end,
    { "cost", "x", "y" } },
  { "range:pathTo", function(g) return g:movementRange(1, 2, 20):pathTo(8, 2) end, { "x", "y" } },
  { "range:cells", function(g) return g:movementRange(1, 2, 2):cells() end, { "cost", "x", "y" } },
}

local function fields(t)
  local names = {}
  for k in pairs(t) do names[#names + 1] = k end
  table.sort(names)
  return names
end

local function text(points)
  local parts = {}
  for i, p in ipairs(points) do
    parts[i] = p.x .. "," .. p.y .. (p.cost and ("=" .. p.cost) or "")
  end
  return table.concat(parts, " ")
end

describe("point lists", function()
  for _, source in ipairs(SOURCES) do
    local name, call, keys = source[1], source[2], source[3]
    it(name .. " makes new plain points on every call", function()
      local g = board()
      local a = call(g)
      local want = text(a)
      assert.is_true(#a >= 2)
      local b = call(g)
      assert.is_false(rawequal(a, b))
      for k, p in ipairs(a) do
        assert.is_nil(getmetatable(p))
        assert.are.same(keys, fields(p))
        assert.is_false(rawequal(p, b[k]), "point " .. k .. " shared")
        p.x, p.y, p.mine = -1, -2, true          -- the caller's to change
      end
      assert.are.equal(want, text(b))
      assert.are.equal(want, text(call(g)))
      assert.are.equal(#b, #a)
      assert.are.equal(-1, a[1].x)
    end)
  end
end)

-- The cells of findPath(1, 2, 8, 2) on the board, with (4, 2) walled when
-- edited, and its cost.
local function answer(edited)
  local g = board()
  if edited then g:setWalkable(4, 2, false) end
  local path, cost = g:findPath(1, 2, 8, 2)
  return text(path) .. " cost " .. cost
end

-- The C writer's allocations (src/lua/points.c); on the pure backend, any
-- allocation of the query, its search included (a jump point search whose
-- grid changed under it once unfolded a cycle of parents and never returned).
describe("a finalizer edits the grid while findPath makes its points", function()
  for _, into in ipairs({ false, true }) do
    it(into and "into a table of tables and numbers" or "new points", function()
      local allowed = { [answer(false)] = true, [answer(true)] = true }
      local undoCollector = F.eagerCollector("incremental")
      local ok, err = pcall(function()
        local n, fired = 1, true
        while fired and n < 5000 do
          local g = board()
          local buf = into and { {}, 7, { mine = 1 }, "x", {}, {} } or nil
          local keep = into and { buf[1], buf[3] }
          local inCall = false
          fired = false
          local function wall()
            if not inCall then return end
            fired = true
            g:setWalkable(4, 2, false)
          end
          local undo = F.armNext(wall, "incremental", n)
          inCall = true
          local okCall, path, cost = pcall(g.findPath, g, 1, 2, 8, 2, { into = buf })
          inCall = false
          undo()
          assert(okCall, path)
          local got = text(path) .. " cost " .. cost
          assert(allowed[got], ("point %d: %s"):format(n, got))
          if into then
            assert(rawequal(path, buf))
            assert(rawequal(path[1], keep[1]) and rawequal(path[3], keep[2]))
            assert.are.equal(1, path[3].mine)
          end
          n = n < 40 and n + 1 or n + math.floor(n / 4)   -- every allocation of the points
        end
        assert(n > 2, "the finalizer never ran inside findPath")
      end)
      undoCollector()
      collectgarbage("collect")
      assert(ok, err)
    end)
  end
end)
