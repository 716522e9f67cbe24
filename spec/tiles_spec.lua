-- Tile-id maps (issue 12, point 6): astar.fromTiles(tiles, rule) and
-- grid:setTiles(tiles, rule [, x, y]), on whichever backend this run uses.
-- Results are compared with a grid built cell by cell with setWalkable and
-- setCost (an independent construction) and with the reference Dijkstra;
-- every bad input has its exact message; an error leaves the grid as it was;
-- rule functions that close or change the grid, raise or yield behave as
-- README (Tile maps) says.
local astar = require "astar"
local R = require "helpers.reference"
local check_error = require("helpers.errors").check_error

local INF, NAN = math.huge, 0 / 0
local TAIL = "; expected a positive number up to 1e15, false, nil or math.huge)"

-- ---- helpers ---------------------------------------------------------------------

-- The cells of a grid as text: "#" or the cost per cell, with the cost of walls
-- too (a wall keeps its cost): exact, %.17g.
local function dump(grid)
  local w, h = grid:getDimensions()
  local rows = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do
      row[x] = (grid:isWalkable(x, y) and "" or "#") .. ("%.17g"):format(grid:getCost(x, y))
    end
    rows[y] = table.concat(row, " ")
  end
  return table.concat(rows, "\n")
end

-- The rule's meaning as the README gives it: a cost, or nil for a wall.
local function meaning(v)
  if v == nil or v == false or v == INF then return nil end
  return v
end

-- A grid built the independent way: astar.new, then setWalkable / setCost for
-- each cell whose rule value is known (costs of walls stay 1).
local function build_reference(tiles, value_of)
  local h, w = #tiles, #tiles[1]
  local g = astar.new(w, h)
  for y = 1, h do
    for x = 1, w do
      local c = meaning(value_of(tiles[y][x], x, y))
      if c then g:setCost(x, y, c) else g:setWalkable(x, y, false) end
    end
  end
  return g
end

-- The same map as a reference description, for R.dijkstra.
local function describe_map(tiles, value_of)
  local w, h = #tiles[1], #tiles
  local walkable, cost = {}, {}
  for x = 1, w do
    walkable[x], cost[x] = {}, {}
    for y = 1, h do
      local c = meaning(value_of(tiles[y][x], x, y))
      walkable[x][y] = c ~= nil
      cost[x][y] = c or 1
    end
  end
  return { w = w, h = h, walkable = walkable, cost = cost }
end

local TABLE_ID, FN_ID = {}, function() end
local IDS = { "grass", "road", "forest", "mountain", "water", "wall", 7, 7.5, true, TABLE_ID, FN_ID }
local RULE = { grass = 1, road = 0.5, forest = 2, mountain = 3.25, water = false, [7] = 1e15,
  [7.5] = INF, [true] = 1.5, [TABLE_ID] = 4, [FN_ID] = 0.125,
  default = false }   -- "wall": no entry, the default

local function random_tiles(rng, w, h)
  local tiles = {}
  for y = 1, h do
    tiles[y] = {}
    for x = 1, w do tiles[y][x] = rng.pick(IDS) end
  end
  return tiles
end

local function same_paths(a, b, w, h)
  for _, mode in ipairs(R.MODES) do
    a:setDiagonal(mode)
    b:setDiagonal(mode)
    for _, q in ipairs({ { 1, 1, w, h }, { w, 1, 1, h }, { 2, h, w - 1, 1 } }) do
      local pa, ca = a:findPath(q[1], q[2], q[3], q[4])
      local pb, cb = b:findPath(q[1], q[2], q[3], q[4])
      assert.are.same(pb, pa)
      assert.are.equal(cb, ca)
    end
  end
end

local function yielder() coroutine.yield("paused") end
-- Lua's error for a yield across a C call on this version (reentrancy_spec.lua)
local YIELD_ERROR = (function()
  local co = coroutine.create(function()
    table.sort({ 3, 2, 1 }, function() yielder() return false end)
  end)
  local ok, err = coroutine.resume(co)
  assert(not ok and type(err) == "string" and err:find("yield across", 1, true), tostring(err))
  return err
end)()

local function close(grid) getmetatable(grid).__close(grid) end

-- ---- results ---------------------------------------------------------------------

describe("fromTiles", function()
  it("builds the grid a cell-by-cell construction gives, with a table rule", function()
    local rng = R.rng(1206)
    for _, size in ipairs({ { 1, 1 }, { 7, 1 }, { 1, 6 }, { 13, 9 }, { 24, 17 } }) do
      local w, h = size[1], size[2]
      local tiles = random_tiles(rng, w, h)
      local grid = astar.fromTiles(tiles, RULE)
      assert.are.equal(tostring(astar.new(w, h)), tostring(grid))
      local ref = build_reference(tiles, function(id) return RULE[id] end)
      assert.are.equal(dump(ref), dump(grid))
      if w > 2 and h > 2 then same_paths(grid, ref, w, h) end
    end
  end)

  it("builds the same grid with a function rule, asked once per cell in row order", function()
    local rng = R.rng(77)
    local tiles = random_tiles(rng, 15, 11)
    local calls = {}
    local grid = astar.fromTiles(tiles, function(id, x, y)
      calls[#calls + 1] = { id, x, y }
      if id == "wall" then return nil end   -- nil: a wall, as false and math.huge
      return RULE[id]
    end)
    assert.are.equal(15 * 11, #calls)
    for i, c in ipairs(calls) do
      local x, y = (i - 1) % 15 + 1, math.floor((i - 1) / 15) + 1
      assert.are.equal(tiles[y][x], c[1])
      assert.are.equal(x, c[2])
      assert.are.equal(y, c[3])
      if math.type then
        assert.are.equal("integer", math.type(c[2]))
        assert.are.equal("integer", math.type(c[3]))
      end
    end
    assert.are.equal(dump(astar.fromTiles(tiles, RULE)), dump(grid))
    local desc = describe_map(tiles, function(id) return RULE[id] end)
    local dist = R.dijkstra(desc, grid:getDiagonal(), 1, 1)
    for y = 1, 11 do
      for x = 1, 15 do
        local path, cost = grid:findPath(1, 1, x, y)
        if dist[x][y] == INF or dist[x][y] == nil then
          assert.is_nil(path)
        else
          assert(path, "no path to " .. x .. "," .. y)
          assert(R.close(cost, dist[x][y]), ("cost %.17g, reference %.17g"):format(cost, dist[x][y]))
          assert(R.validate(desc, grid:getDiagonal(), path, 1, 1, x, y))
        end
      end
    end
  end)

  it("reads walls from false, nil, math.huge, and ids without an entry from the default", function()
    local grid = astar.fromTiles({ { "a", "b", "c", "d", "e" } },
      { a = 2, b = false, c = INF, e = 1e15, default = false })
    assert.are.equal("2 #1 #1 #1 1000000000000000", dump(grid))
    grid = astar.fromTiles({ { "a", "b", "c", "d", "e" } }, { a = 2, b = false, c = INF, default = 0.5 })
    assert.are.equal("2 #1 #1 0.5 0.5", dump(grid))
    grid = astar.fromTiles({ { 1, 2, 3, 4 } }, function(id)
      return ({ 0.25, false, nil, INF })[id]
    end)
    assert.are.equal("0.25 #1 #1 #1", dump(grid))
    -- no table can hold an entry for nan: the default
    assert.are.equal("#1 3", dump(astar.fromTiles({ { NAN, 1 } }, { 3, default = INF })))
    -- the default is an id's entry too: an id "default" reads it
    assert.are.equal("4 4", dump(astar.fromTiles({ { "default", 9 } }, { default = 4 })))
  end)

  it("keeps the smallest and largest costs exactly, integers as floats", function()
    local grid = astar.fromTiles({ { 1, 2, 3 } }, { 4.9406564584124654e-324, 1e15, 3 })
    assert.are.equal(4.9406564584124654e-324, grid:getCost(1, 1))
    assert.are.equal(1e15, grid:getCost(2, 1))
    assert.are.equal(3, grid:getCost(3, 1))
    if math.type then assert.are.equal("float", math.type(grid:getCost(3, 1))) end
  end)

  it("reads tables raw: metatables on tiles, rows and the rule are ignored", function()
    local touched = false
    local meta = { __index = function() touched = true return "grass" end,
      __len = function() touched = true return 9 end }
    local row = setmetatable({ "grass", "road" }, meta)
    local tiles = setmetatable({ row, { "road", "mud" } }, meta)
    local rule = setmetatable({ grass = 2, road = 3, default = false }, meta)
    local grid = astar.fromTiles(tiles, rule)
    assert.are.equal("2 3\n3 #1", dump(grid))
    -- nor does a metatable give a default: no entry, an error
    rule.default = nil
    check_error("bad argument #2 to 'fromTiles' (rule has no entry for tile 'mud' at (2, 2), and no default)",
      astar.fromTiles, tiles, rule)
    assert.is_false(touched)
  end)

  it("makes an independent grid with the default settings", function()
    local tiles = { { 1, 1 }, { 1, 1 } }
    local a, b = astar.fromTiles(tiles, { 1 }), astar.fromTiles(tiles, { 1 })
    a:setWalkable(1, 1, false)
    assert.is_true(b:isWalkable(1, 1))
    assert.are.equal("no-obstacles", b:getDiagonal())
    assert.are.same({ "octile", 1 }, { b:getHeuristic() })
  end)
end)

describe("setTiles", function()
  it("repaints the region at (x, y) like setWalkable and setCost would, and nothing else", function()
    local rng = R.rng(4242)
    for _, case in ipairs({ { 1, 1, 10, 8 }, { 3, 2, 4, 5 }, { 10, 8, 1, 1 }, { 1, 5, 10, 4 }, { 6, 1, 5, 1 } }) do
      local x0, y0, w, h = case[1], case[2], case[3], case[4]
      local base = random_tiles(rng, 10, 8)
      local grid = astar.fromTiles(base, RULE)
      local ref = astar.fromTiles(base, RULE)
      local tiles = random_tiles(rng, w, h)
      grid:setTiles(tiles, RULE, x0, y0)
      for y = 1, h do
        for x = 1, w do
          local c = meaning(RULE[tiles[y][x]])
          if c then
            ref:setWalkable(x0 + x - 1, y0 + y - 1, true)
            ref:setCost(x0 + x - 1, y0 + y - 1, c)
          else
            ref:setWalkable(x0 + x - 1, y0 + y - 1, false)
          end
        end
      end
      assert.are.equal(dump(ref), dump(grid))
      same_paths(grid, ref, 10, 8)
    end
  end)

  it("starts at (1, 1) by default, and x or y alone keeps the other at 1", function()
    local grid = astar.new(3, 3)
    grid:setTiles({ { "w" } }, { w = false })
    assert.are.equal("#1 1 1\n1 1 1\n1 1 1", dump(grid))
    grid:setTiles({ { "w" } }, { w = false }, 3)
    grid:setTiles({ { "w" } }, { w = false }, nil, 3)
    assert.are.equal("#1 1 #1\n1 1 1\n#1 1 1", dump(grid))
    grid:setTiles({ { 2, 2 }, { 2, 2 } }, { 5, 6 }, 2, 2)
    assert.are.equal("#1 1 #1\n1 6 6\n#1 6 6", dump(grid))
  end)

  it("passes the grid cell to a rule function", function()
    local grid = astar.new(6, 5)
    local seen = {}
    grid:setTiles({ { "a", "b" }, { "c", "d" } }, function(id, x, y)
      seen[#seen + 1] = id .. x .. y
      return 1
    end, 4, 3)
    assert.are.same({ "a43", "b53", "c44", "d54" }, seen)
  end)

  it("keeps a wall's cost, and sets the cost of a cell it opens", function()
    local grid = astar.new(3, 1)
    grid:setCost(1, 1, 5)
    grid:setCost(2, 1, 5)
    grid:setWalkable(2, 1, false)
    grid:setTiles({ { "x", "o", "x" } }, { o = 2, x = false })
    assert.are.equal("#5 2 #1", dump(grid))
  end)

  it("is no change when it writes what the cells already are", function()
    local grid = astar.fromTiles({ { 1, 2, 1 }, { 1, 2, 1 }, { 1, 1, 1 } }, { 1, 3 })
    local search = grid:newSearch(1, 1, 3, 1, { algorithm = "astar" })
    assert.are.equal("searching", search:step(1))
    grid:setTiles({ { 1, 2 }, { 1, 2 } }, { 1, 3 })
    grid:setTiles({ { 2 } }, { false, 3 }, 2, 2)
    assert.are.equal("found", search:step(math.huge))
    assert.are.equal(0, search:getStats().restarts)
    -- a real change to a cell the search reached starts it again (README,
    -- Searches spread over frames): its answer is the one for the new grid
    search = grid:newSearch(1, 1, 3, 1, { algorithm = "astar" })
    assert.are.equal("searching", search:step(1))
    grid:setTiles({ { 2 } }, { false, 4 }, 2, 2)
    assert.are.equal("found", search:step(math.huge))
    assert.are.equal(1, search:getStats().restarts)
    assert.are.same({ grid:findPath(1, 1, 3, 1, { algorithm = "astar" }) }, { search:result() })
  end)

  it("works on a grid whose costs were all 1 and on one with costs", function()
    local grid = astar.new(2, 2)
    grid:setTiles({ { "a", "a" } }, { a = 1 })
    assert.are.equal("1 1\n1 1", dump(grid))
    grid:setTiles({ { "b" } }, { b = 0.5 }, 2, 2)
    assert.are.equal("1 1\n1 0.5", dump(grid))
    local path, cost = grid:findPath(1, 1, 2, 2)
    assert.are.equal(2, #path)
    assert.are.equal(0.5 * math.sqrt(2), cost)
  end)
end)

-- ---- Tiled and STI layers ----------------------------------------------------------

describe("tile layers as Tiled and STI give them", function()
  local H, V, D, R120 = 0x80000000, 0x40000000, 0x20000000, 0x10000000
  -- grass 1, road 2, forest 3, water 4 (a wall), 0: no tile
  local GIDS = { 1, 2, H + 3, 0, 4,
                 0, V + 2, 3, D + 1, H + V + D + R120 + 2,
                 R120 + 3, 1, 0, 2, H + 4 }
  local COSTS = { [1] = 1, [2] = 0.5, [3] = 2, [4] = false }
  local RULE0 = { [0] = 3.5, [1] = 1, [2] = 0.5, [3] = 2, [4] = false }

  -- The gid a cell stands for, decoded the long way: the four top bits of a
  -- 32-bit number taken off one by one.
  local function plain_gid(v)
    if v == nil then return 0 end
    for _, bit in ipairs({ H, V, D, R120 }) do
      if v >= bit then v = v - bit end
    end
    return v
  end

  -- The same map as rows of plain gids (the form fromTiles always took).
  local function as_rows(data, w, h)
    local rows = {}
    for y = 1, h do
      rows[y] = {}
      for x = 1, w do rows[y][x] = plain_gid(data[(y - 1) * w + x]) end
    end
    return rows
  end

  -- The layer as STI gives it after loading: rows of tiles (tables with the
  -- gid, flip bits and all), nil where the cell is empty.
  local function as_sti(data, w, h)
    local tiles, rows = {}, {}
    for y = 1, h do
      rows[y] = {}
      for x = 1, w do
        local gid = data[(y - 1) * w + x]
        if gid ~= 0 then
          tiles[gid] = tiles[gid] or { gid = gid, id = plain_gid(gid) - 1, properties = {} }
          rows[y][x] = tiles[gid]
        end
      end
    end
    return { type = "tilelayer", name = "ground", width = w, height = h, data = rows }
  end

  local function layer(w, h, data)
    return { type = "tilelayer", name = "ground", x = 0, y = 0, width = w, height = h,
      encoding = "lua", properties = {}, data = data }
  end

  it("reads a Tiled layer's flat data row after row, flip bits dropped, 0 an empty cell", function()
    local grid = astar.fromTiles(layer(5, 3, GIDS), RULE0)
    assert.are.equal("1 0.5 2 3.5 #1\n3.5 0.5 2 1 0.5\n2 1 3.5 0.5 #1", dump(grid))
    local rows = as_rows(GIDS, 5, 3)
    assert.are.equal(dump(build_reference(rows, function(id) return RULE0[id] end)), dump(grid))
    assert.are.equal(dump(astar.fromTiles(rows, RULE0)), dump(grid))
    same_paths(grid, astar.fromTiles(rows, RULE0), 5, 3)
  end)

  it("reads an STI layer (rows of tiles, nil holes) as the Tiled layer it was loaded from", function()
    local sti = as_sti(GIDS, 5, 3)
    assert.is_nil(sti.data[3][3])
    local grid = astar.fromTiles(sti, RULE0)
    assert.are.equal("1 0.5 2 3.5 #1\n3.5 0.5 2 1 0.5\n2 1 3.5 0.5 #1", dump(grid))
    -- a row that ends in empty cells is shorter; an empty row is {}
    local data = { 1, 2, 0, 0, 0, 0, 0, 0 }
    sti = as_sti(data, 4, 2)
    assert.are.same({}, sti.data[2])
    assert.are.equal("1 0.5 3.5 3.5\n3.5 3.5 3.5 3.5", dump(astar.fromTiles(sti, RULE0)))
    -- a table without a number gid is an id of its own
    local own, odd = {}, { gid = "7" }
    assert.are.equal("4 5", dump(astar.fromTiles({ width = 2, height = 1, data = { { own, odd } } },
      { [own] = 4, [odd] = 5 })))
  end)

  it("drops each flip bit and all four, in rows as in layers, for integers and floats", function()
    local ids = { 3, H + 3, V + 3, D + 3, R120 + 3, H + V + D + R120 + 3, (H + 3) + 0.0 }
    local rows = { ids }
    assert.are.equal("2 2 2 2 2 2 2", dump(astar.fromTiles(rows, COSTS)))
    assert.are.equal("2 2 2 2 2 2 2", dump(astar.fromTiles(layer(7, 1, ids), COSTS)))
    local seen = {}
    astar.fromTiles(layer(7, 1, ids), function(id)
      seen[#seen + 1] = math.type and math.type(id) .. " " .. id or id
      return 1
    end)
    local want = math.type and "integer 3" or 3
    assert.are.same({ want, want, want, want, want, want, want }, seen)
    -- 2^28 alone is an empty cell with a flag; numbers that are no gids stay
    -- as they are (no entry: the default)
    local others = { R120, 2 ^ 32 + 3, -3, 3.5, H + 3.5 }
    assert.are.equal("#1 9 9 9 9", dump(astar.fromTiles({ others }, { [0] = false, [3] = 2, default = 9 })))
  end)

  it("looks an empty cell up as id 0: its entry, else the default, else an error", function()
    local data = { 1, 0, 2, 0 }
    assert.are.equal("1 7\n0.5 7", dump(astar.fromTiles(layer(2, 2, data), { 1, 0.5, [0] = 7 })))
    assert.are.equal("1 #1\n0.5 #1", dump(astar.fromTiles(layer(2, 2, data), { 1, 0.5, [0] = false })))
    assert.are.equal("1 2.5\n0.5 2.5", dump(astar.fromTiles(layer(2, 2, data), { 1, 0.5, default = 2.5 })))
    check_error("bad argument #2 to 'fromTiles' (rule has no entry for tile 0 at (2, 1), and no default)",
      astar.fromTiles, layer(2, 2, data), { 1, 0.5 })
    local sti = as_sti(data, 2, 2)
    check_error("bad argument #2 to 'fromTiles' (rule has no entry for tile 0 at (2, 1), and no default)",
      astar.fromTiles, sti, { 1, 0.5 })
    -- holes in flat data are empty cells too
    assert.are.equal("1 7\n7 0.5", dump(astar.fromTiles(layer(2, 2, { 1, nil, nil, 2 }), { 1, 0.5, [0] = 7 })))
    -- a rule function is asked about them with 0
    local seen = {}
    astar.fromTiles(sti, function(id, x, y)
      seen[#seen + 1] = id .. "@" .. x .. "," .. y
      return id == 0 and false or 1
    end)
    assert.are.same({ "1@1,1", "0@2,1", "2@1,2", "0@2,2" }, seen)
  end)

  it("names the id, flip bits dropped, and the grid cell of an id without a rule", function()
    local grid = astar.new(6, 6)
    grid:setCost(6, 5, 3)   -- a wall keeps its cost
    local before = dump(grid)
    local data = { 1, 2, 1, 1, 1, H + 7 }
    check_error("bad argument #2 to 'fromTiles' (rule has no entry for tile 7 at (3, 2), and no default)",
      astar.fromTiles, layer(3, 2, data), COSTS)
    check_error("bad argument #2 to 'setTiles' (rule has no entry for tile 7 at (6, 5), and no default)",
      grid.setTiles, grid, layer(3, 2, data), COSTS, 4, 4)
    check_error("bad argument #2 to 'setTiles' (rule has no entry for tile 7 at (6, 5), and no default)",
      grid.setTiles, grid, as_sti(data, 3, 2), COSTS, 4, 4)
    check_error("bad argument #2 to 'setTiles' (rule has no entry for tile 'tree' at (2, 1), and no default)",
      grid.setTiles, grid, { { "grass", "tree" } }, { grass = 1 })
    assert.are.equal(before, dump(grid))   -- an error writes nothing
    -- a default names what the rule does not, and is checked like any answer
    grid:setTiles(layer(3, 2, data), { [1] = 2, default = false }, 4, 4)
    assert.are.equal("1 1 1 1 1 1\n1 1 1 1 1 1\n1 1 1 1 1 1\n1 1 1 2 #1 2\n1 1 1 2 2 #3\n1 1 1 1 1 1",
      dump(grid))
    check_error("bad argument #2 to 'fromTiles' (rule gave -1 for tile 2 at (2, 1)" .. TAIL,
      astar.fromTiles, layer(3, 2, data), { [1] = 2, default = -1 })
  end)

  it("repaints from a layer at (x, y) like the same rows would", function()
    local rows = as_rows(GIDS, 5, 3)
    for _, at in ipairs({ { 1, 1 }, { 3, 2 }, { 4, 5 } }) do
      local a, b, c = astar.new(8, 7), astar.new(8, 7), astar.new(8, 7)
      a:setTiles(layer(5, 3, GIDS), RULE0, at[1], at[2])
      b:setTiles(rows, RULE0, at[1], at[2])
      c:setTiles(as_sti(GIDS, 5, 3), RULE0, at[1], at[2])
      assert.are.equal(dump(b), dump(a))
      assert.are.equal(dump(b), dump(c))
    end
    local grid = astar.new(4, 4)
    check_error("bad argument #1 to 'setTiles' (5x3 tiles at (1, 1) do not fit in the 4x4 grid)",
      grid.setTiles, grid, layer(5, 3, GIDS), RULE0)
  end)

  it("name the field of a malformed layer", function()
    for _, f in ipairs({ "fromTiles", "setTiles" }) do
      local grid = astar.new(5, 5)
      local call = f == "fromTiles" and function(t) return astar.fromTiles(t, { default = 1 }) end
        or function(t) return grid:setTiles(t, { default = 1 }) end
      local pre = "bad argument #1 to '" .. f .. "' ("
      check_error(pre .. "tiles.width: number expected, got nil)", call, { height = 2, data = {} })
      check_error(pre .. "tiles.width: number expected, got string)", call, { width = "2", height = 2, data = {} })
      check_error(pre .. "tiles.height: number expected, got nil)", call, { width = 2, data = {} })
      for _, bad in ipairs({ { 0, "0" }, { -1, "-1" }, { 1.5, "1.5" }, { 65536, "65536" }, { NAN, "nan" },
        { INF, "inf" } }) do
        check_error(pre .. "tiles.width must be a whole number from 1 to 65535, got " .. bad[2] .. ")",
          call, { width = bad[1], height = 2, data = {} })
        check_error(pre .. "tiles.height must be a whole number from 1 to 65535, got " .. bad[2] .. ")",
          call, { width = 2, height = bad[1], data = {} })
      end
      check_error(pre .. "tiles.data: table expected, got string)", call, { width = 2, height = 2, data = "AAAA" })
      check_error(pre .. "tiles.data: table expected, got boolean)", call, { width = 2, height = 2, data = false })
      -- more than width and height say: a wrong width or height
      check_error(pre .. "tiles.data[5] is past width * height = 4)", call, layer(2, 2, { 1, 1, 1, 1, 1 }))
      check_error(pre .. "tiles.data[3] is past height = 2)", call, layer(2, 2, { {}, {}, {} }))
      check_error(pre .. "tiles.data[2][3] is past width = 2)", call, layer(2, 2, { {}, { 1, 1, 1 } }))
      check_error(pre .. "tiles.data[2]: table expected, got nil)", call, layer(2, 2, { { 1, 1 } }))
      check_error(pre .. "tiles.data[2]: table expected, got number)", call, layer(2, 2, { { 1, 1 }, 1 }))
      -- a layer without a single tile is all empty cells
      call(layer(2, 2, {}))
    end
    -- fromTiles' size limit, before any cell is read
    check_error("bad argument #1 to 'fromTiles' (tiles is 65535x65535: more than 268435456 cells)",
      astar.fromTiles, layer(65535, 65535, {}), {})
  end)

  it("read a layer's fields once and its cells as they are, even while the rule changes them", function()
    local data = { 1, 1, 1, 1 }
    local l = layer(2, 2, data)
    local grid = astar.fromTiles(l, function(id, x, y)
      if x == 1 and y == 1 then
        data[4] = 2                              -- read as it is
        l.data, l.width = { 2, 2, 2, 2 }, 1      -- read once, at the start
      end
      return id
    end)
    assert.are.equal("1 1\n1 2", dump(grid))
    local sti = as_sti({ 1, 1, 1, 1 }, 2, 2)
    check_error("bad argument #1 to 'fromTiles' (tiles.data[2]: table expected, got nil)",
      astar.fromTiles, sti, function() sti.data[2] = nil return 1 end)
  end)

  it("take a rule function that closes the grid, changes it or raises while a layer is read", function()
    for _, make in ipairs({ function() return layer(2, 2, { 1, 2, 0, H + 1 }) end,
      function() return as_sti({ 1, 2, 0, H + 1 }, 2, 2) end }) do
      local grid = astar.new(3, 3)
      local n = 0
      check_error("grid closed during setTiles", grid.setTiles, grid, make(), function()
        n = n + 1
        if n == 3 then close(grid) end
        return 2
      end)
      assert.are.equal(3, n)
      grid = astar.new(3, 3)
      grid:setTiles(make(), function(id, x, y)
        if x == 1 and y == 1 then
          grid:setWalkable(3, 3, false)   -- outside: stays
          grid:setCost(2, 1, 9)           -- inside: painted over
        end
        return id + 1
      end, 1, 1)
      assert.are.equal("2 3 1\n1 2 1\n1 1 #1", dump(grid))
      local before = dump(grid)
      local err = select(2, pcall(grid.setTiles, grid, make(), function(id)
        if id == 0 then error({ id }) end
        return 1
      end))
      assert.are.same({ 0 }, err)
      assert.are.equal(before, dump(grid))
    end
  end)
end)

-- ---- errors ----------------------------------------------------------------------

describe("tile errors", function()
  local TYPES = { { nil, "nil" }, { true, "boolean" }, { 1, "number" }, { "s", "string" },
    { print, "function" }, { coroutine.create(function() end), "thread" } }

  it("name the argument for tiles and rule of the wrong type", function()
    local grid = astar.new(4, 4)
    for _, pair in ipairs(TYPES) do
      check_error("bad argument #1 to 'fromTiles' (table expected, got " .. pair[2] .. ")",
        astar.fromTiles, pair[1], {})
      check_error("bad argument #1 to 'setTiles' (table expected, got " .. pair[2] .. ")",
        grid.setTiles, grid, pair[1], {})
      if pair[2] ~= "function" then
        check_error("bad argument #2 to 'fromTiles' (function or table expected, got " .. pair[2] .. ")",
          astar.fromTiles, { { 1 } }, pair[1])
        check_error("bad argument #2 to 'setTiles' (function or table expected, got " .. pair[2] .. ")",
          grid.setTiles, grid, { { 1 } }, pair[1])
      end
    end
    check_error("bad argument #1 to 'fromTiles' (table expected, got no value)", astar.fromTiles)
    check_error("bad argument #2 to 'fromTiles' (function or table expected, got no value)",
      astar.fromTiles, {})
    check_error("bad argument #1 to 'setTiles' (table expected, got no value)", grid.setTiles, grid)
    check_error("bad argument #2 to 'setTiles' (function or table expected, got no value)",
      grid.setTiles, grid, {})
    check_error("calling 'setTiles' on bad self (astar.Grid expected, got table)", grid.setTiles, {}, {}, {})
    check_error("calling 'setTiles' on bad self (astar.Grid expected, got no value)", grid.setTiles)
  end)

  it("name the row or cell of a malformed tiles table", function()
    for _, f in ipairs({ "fromTiles", "setTiles" }) do
      local grid = astar.new(5, 5)
      local call = f == "fromTiles" and function(t) return astar.fromTiles(t, { default = 1 }) end
        or function(t) return grid:setTiles(t, { default = 1 }) end
      local pre = "bad argument #1 to '" .. f .. "' ("
      local empty = pre .. "tiles is empty; expected rows (tiles[y][x]) or a layer (width, height, data))"
      check_error(empty, call, {})
      check_error(empty, call, { x = { 1 } })
      check_error(empty, call, { width = 2, height = 2 })   -- a layer has data
      check_error(pre .. "tiles[1] is empty)", call, { {} })
      check_error(pre .. "tiles[1]: table expected, got string)", call, { "ab" })
      check_error(pre .. "tiles[2]: table expected, got number)", call, { { 1 }, 2 })
      check_error(pre .. "tiles[3]: table expected, got boolean)", call, { { 1 }, { 2 }, false })
      check_error(pre .. "#tiles[2] is 1, #tiles[1] is 2: every row must have the same length)",
        call, { { 1, 1 }, { 1 } })
      check_error(pre .. "#tiles[3] is 3, #tiles[1] is 2: every row must have the same length)",
        call, { { 1, 1 }, { 1, 1 }, { 1, 1, 1 } })
      -- holes: the length operator (raw) gives one of the borders, and the
      -- message follows the one this Lua gives
      local row = {}
      for i = 1, 5 do row[i] = i end
      row[3] = nil
      if #row == 5 then
        check_error(pre .. "tiles[2][3] is nil; expected a tile id)", call, { { 1, 1, 1, 1, 1 }, row })
      else
        assert.are.equal(2, #row)
        check_error(pre .. "#tiles[2] is 2, #tiles[1] is 5: every row must have the same length)",
          call, { { 1, 1, 1, 1, 1 }, row })
      end
      local rows = {}
      for i = 1, 5 do rows[i] = { 1 } end
      rows[4] = nil
      if #rows == 5 then
        check_error(pre .. "tiles[4]: table expected, got nil)", call, rows)
      else
        assert.are.equal(3, #rows)
        call(rows)
      end
    end
  end)

  it("give the size limits of fromTiles", function()
    local wide = { {} }
    for x = 1, 65536 do wide[1][x] = 1 end
    check_error("bad argument #1 to 'fromTiles' (#tiles[1] is 65536; at most 65535 columns)",
      astar.fromTiles, wide, {})
    local tall = {}
    for y = 1, 65536 do tall[y] = wide[1] end
    check_error("bad argument #1 to 'fromTiles' (#tiles is 65536; at most 65535 rows)",
      astar.fromTiles, tall, {})
    wide[1][65536] = nil
    local grid = astar.fromTiles(wide, { false })
    assert.are.same({ 65535, 1 }, { grid:getDimensions() })
    assert.is_false(grid:isWalkable(65535, 1))
  end)

  it("check x and y of setTiles, and that the tiles fit", function()
    local grid = astar.new(6, 4)
    local tiles = { { 1, 1, 1 }, { 1, 1, 1 } }
    for _, v in ipairs({ 0, 7, 1.5, NAN, INF, -1 }) do
      local tail = (v % 1 ~= 0 or v ~= v) and ("x must be a whole number, got " .. (v ~= v and "nan"
        or v == INF and "inf" or tostring(v))) or "x out of range 1..6"
      check_error("bad argument #3 to 'setTiles' (" .. tail .. ")", grid.setTiles, grid, tiles, {}, v, 1)
      check_error("bad argument #4 to 'setTiles' (" .. tail:gsub("^x", "y"):gsub("6$", "4") .. ")",
        grid.setTiles, grid, tiles, {}, 1, v == 7 and 5 or v)
    end
    check_error("bad argument #3 to 'setTiles' (number expected, got string)", grid.setTiles, grid, tiles, {}, "1")
    check_error("bad argument #4 to 'setTiles' (number expected, got table)", grid.setTiles, grid, tiles, {}, 1, {})
    check_error("bad argument #1 to 'setTiles' (3x2 tiles at (5, 1) do not fit in the 6x4 grid)",
      grid.setTiles, grid, tiles, {}, 5, 1)
    check_error("bad argument #1 to 'setTiles' (3x2 tiles at (1, 4) do not fit in the 6x4 grid)",
      grid.setTiles, grid, tiles, {}, 1, 4)
    check_error("bad argument #1 to 'setTiles' (3x5 tiles at (1, 1) do not fit in the 6x4 grid)",
      grid.setTiles, grid, { tiles[1], tiles[1], tiles[1], tiles[1], tiles[1] }, {})
    grid:setTiles(tiles, { false }, 4, 3)   -- the last place it fits
    assert.are.equal("1 1 1 1 1 1\n1 1 1 1 1 1\n1 1 1 #1 #1 #1\n1 1 1 #1 #1 #1", dump(grid))
    -- the arguments are checked before the tiles
    check_error("bad argument #3 to 'setTiles' (x out of range 1..6)", grid.setTiles, grid, {}, {}, 9)
    check_error("bad argument #2 to 'setTiles' (function or table expected, got nil)",
      grid.setTiles, grid, {}, nil, 9)
  end)

  it("name the function, the answer, the tile and the cell of a bad cost", function()
    local grid = astar.new(8, 8)
    local bad = { { 0, "0" }, { tonumber("-0.0"), "-0" }, { -1, "-1" }, { NAN, "nan" }, { -INF, "-inf" },
      { 1e15 + 0.125, "1000000000000000.1" }, { 2e15, "2e+15" }, { true, "true" },
      { "1", "string" }, { {}, "table" }, { print, "function" } }
    for _, b in ipairs(bad) do
      check_error("bad argument #2 to 'fromTiles' (rule gave " .. b[2] .. " for tile 'grass' at (3, 2)" .. TAIL,
        astar.fromTiles, { { 1, 1, 1 }, { 1, 1, "grass" } }, { 1, grass = b[1] })
      check_error("bad argument #2 to 'setTiles' (rule gave " .. b[2] .. " for tile 'grass' at (5, 4)" .. TAIL,
        grid.setTiles, grid, { { 1, 1, 1 }, { 1, 1, "grass" } }, function(id)
          if id == "grass" then return b[1] end
          return 1
        end, 3, 3)
    end
    -- how ids are shown
    local ids = { { 7, "7" }, { 0.1, "0.1" }, { 1 / 3, "0.33333333333333331" }, { 2 ^ 63, "9.2233720368547758e+18" },
      { -INF, "-inf" }, { true, "true" }, { false, "false" }, { {}, "table" }, { print, "function" },
      { ("x"):rep(41), "'" .. ("x"):rep(40) .. "...'" }, { "a\0b\n", "'a?b?'" }, { "", "''" } }
    for _, pair in ipairs(ids) do
      check_error("bad argument #2 to 'fromTiles' (rule gave 0 for tile " .. pair[2] .. " at (1, 1)" .. TAIL,
        astar.fromTiles, { { pair[1] } }, function() return 0 end)
    end
    check_error("bad argument #2 to 'fromTiles' (rule gave 0 for tile nan at (2, 1)" .. TAIL,
      astar.fromTiles, { { 1, NAN } }, function(id) return id == id and 1 or 0 end)
  end)

  it("leave the grid unchanged, and running searches running, after an error midway", function()
    local rng = R.rng(99)
    local base = random_tiles(rng, 9, 7)
    local grid = astar.fromTiles(base, RULE)
    local before = dump(grid)
    local search = grid:newSearch(1, 1, 9, 7, { algorithm = "astar" })
    search:step(1)
    local tiles = random_tiles(rng, 9, 7)
    for y = 1, 7 do for x = 1, 9 do if tiles[y][x] == "wall" then tiles[y][x] = "grass" end end end
    tiles[7][9] = "wall"
    local asked = 0
    local function bad_last(id)
      asked = asked + 1
      if id == "wall" then return -1 end
      return RULE[id]
    end
    check_error("bad argument #2 to 'setTiles' (rule gave -1 for tile 'wall' at (9, 7)" .. TAIL,
      grid.setTiles, grid, tiles, bad_last)
    assert.are.equal(63, asked)
    assert.are.equal(before, dump(grid))
    -- a table rule too; and a malformed last row
    local rule = {}
    for k, v in pairs(RULE) do rule[k] = v end
    rule.wall = 0
    check_error("bad argument #2 to 'setTiles' (rule gave 0 for tile 'wall' at (9, 7)" .. TAIL,
      grid.setTiles, grid, tiles, rule)
    local last = tiles[7]
    tiles[7] = { 1 }
    check_error("bad argument #1 to 'setTiles' (#tiles[7] is 1, #tiles[1] is 9: every row must have the same length)",
      grid.setTiles, grid, tiles, function() error("not asked") end)
    tiles[7] = last
    assert.are.equal(before, dump(grid))
    assert.are_not.equal("searching", search:step(math.huge))   -- no change stopped it
    assert.are.same({ grid:findPath(1, 1, 9, 7) }, { search:result() })
  end)
end)

-- ---- rule functions that do anything ----------------------------------------------

describe("tile rule functions that do anything", function()
  local MARKER = setmetatable({}, { __tostring = function() return "the marker" end })

  local function pcall_result(f, ...)
    local ok, err = pcall(f, ...)
    assert.is_false(ok, "the call succeeded")
    return err
  end

  for _, value in ipairs({ { MARKER, "a table" }, { 42, "a number" }, { false, "false" },
    { "plain", "a string" } }) do
    it("raise " .. value[2] .. ": it comes out unchanged and the grid is as it was", function()
      local grid = astar.fromTiles({ { 1, 2 }, { 2, 1 } }, { 1, 3 })
      local before = dump(grid)
      local n = 0
      local function rule()
        n = n + 1
        if n == 3 then error(value[1], 0) end
        return 2
      end
      local err = pcall_result(grid.setTiles, grid, { { 1, 1 }, { 1, 1 } }, rule)
      assert(rawequal(value[1], err), "got " .. tostring(err))
      if math.type then assert.are.equal(math.type(value[1]), math.type(err)) end
      assert.are.equal(before, dump(grid))
      n = 0
      err = pcall_result(astar.fromTiles, { { 1, 1 }, { 1, 1 } }, rule)
      assert(rawequal(value[1], err), "got " .. tostring(err))
      grid:setTiles({ { 1 } }, function() return 4 end)   -- still usable
      assert.are.equal(4, grid:getCost(1, 1))
    end)
  end

  it("raise nil: it comes out as nil", function()
    local grid = astar.new(2, 2)
    local ok, err = pcall(grid.setTiles, grid, { { 1 } }, function() error(nil) end)
    assert.is_false(ok)
    assert.is_nil(err)
  end)

  it("yield: Lua's error for a yield across a C call, on both functions", function()
    for _, run in ipairs({
      function(rule) return astar.fromTiles({ { 1, 1 } }, rule) end,
      function(rule)
        local grid = astar.new(3, 3)
        grid:setTiles({ { 1, 1 } }, rule)
      end }) do
      local co = coroutine.create(run)
      local ok, err = coroutine.resume(co, function() yielder() return 1 end)
      assert.is_false(ok)
      assert.are.equal(YIELD_ERROR, err)
      assert.are.equal("dead", coroutine.status(co))
    end
  end)

  it("close the grid: 'grid closed during setTiles', and nothing is written", function()
    for at = 1, 4 do
      local grid = astar.new(3, 3)
      local n = 0
      check_error("grid closed during setTiles", grid.setTiles, grid, { { 1, 1 }, { 1, 1 } }, function()
        n = n + 1
        if n == at then close(grid) end
        return 2
      end)
      assert.are.equal(at, n)   -- not asked again after the close
      check_error("attempt to use a closed astar.Grid", grid.getWidth, grid)
      check_error("attempt to use a closed astar.Grid", grid.setTiles, grid, { { 1 } }, { 1 })
      collectgarbage("collect")
    end
  end)

  it("close the grid and raise: the rule's error wins", function()
    local grid = astar.new(3, 3)
    local err = pcall_result(grid.setTiles, grid, { { 1 } }, function() close(grid) error(MARKER) end)
    assert(rawequal(MARKER, err))
    check_error("attempt to use a closed astar.Grid", grid.getWidth, grid)
  end)

  it("change the grid: allowed, and the repaint is written over the grid as it is then", function()
    local grid = astar.new(4, 3)
    local n = 0
    grid:setTiles({ { "a", "b" }, { "b", "a" } }, function(id)
      n = n + 1
      if n == 1 then
        grid:setWalkable(4, 3, false)    -- outside the region: stays
        grid:setCost(2, 2, 9)            -- inside: painted over
        grid:setWalkable(1, 2, false)    -- inside: painted over
      end
      return id == "a" and 2 or 3
    end)
    assert.are.equal("2 3 1 1\n3 2 1 1\n1 1 1 #1", dump(grid))
  end)

  it("call setTiles and findPath on the same grid from the rule", function()
    local grid = astar.new(4, 4)
    local inner
    grid:setTiles({ { 1, 1 } }, function(_, x, y)
      if x == 1 then
        grid:setTiles({ { 5, 5 }, { 5, 5 } }, { [5] = 7 }, 3, 3)
        inner = { grid:findPath(1, 1, 4, 4) }
      end
      return x + y
    end)
    assert.are.equal("2 3 1 1\n1 1 1 1\n1 1 7 7\n1 1 7 7", dump(grid))
    local ref = astar.new(4, 4)
    for y = 3, 4 do for x = 3, 4 do ref:setCost(x, y, 7) end end
    assert.are.same({ ref:findPath(1, 1, 4, 4) }, inner)
  end)

  it("change the tiles table: read again as it is, and checked again", function()
    local grid = astar.new(3, 3)
    local tiles = { { 1, 1, 1 }, { 1, 1, 1 } }
    grid:setTiles(tiles, function(id, x, y)
      if x == 1 and y == 1 then tiles[2][3] = 4 end
      return id
    end)
    assert.are.equal("1 1 1\n1 1 4\n1 1 1", dump(grid))
    local before = dump(grid)
    tiles = { { 1, 1, 1 }, { 1, 1, 1 } }
    check_error("bad argument #1 to 'setTiles' (tiles[2][2] is nil; expected a tile id)",
      grid.setTiles, grid, tiles, function(id) tiles[2][2] = nil return id + 1 end)
    tiles = { { 1, 1, 1 }, { 1, 1, 1 } }
    check_error("bad argument #1 to 'fromTiles' (tiles[2]: table expected, got nil)",
      astar.fromTiles, tiles, function(id) tiles[2] = nil return id end)
    -- grown: the answers were sized and read for the shape measured first
    tiles = { { 1, 1, 1 }, { 1, 1, 1 } }
    check_error("bad argument #1 to 'setTiles' (tiles changed while they were read: "
      .. "#tiles[2] is 4, was 3)",
      grid.setTiles, grid, tiles, function(id) tiles[2][4] = 1 return id + 1 end)
    tiles = { { 1, 1, 1 }, { 1, 1, 1 } }
    check_error("bad argument #1 to 'fromTiles' (tiles changed while they were read: "
      .. "#tiles is 3, was 2)",
      astar.fromTiles, tiles, function(id) tiles[3] = { 1, 1, 1 } return id end)
    assert.are.equal(before, dump(grid))
  end)

  it("run a full collection in every call", function()
    local tiles = random_tiles(R.rng(5), 6, 5)
    local grid = astar.new(6, 5)
    grid:setTiles(tiles, function(id)
      collectgarbage("collect")
      return RULE[id]
    end)
    assert.are.equal(dump(astar.fromTiles(tiles, RULE)), dump(grid))
  end)
end)

-- ---- finalizers -----------------------------------------------------------------------

describe("tile calls with finalizers that close or change the grid", function()
  local V54 = _VERSION == "Lua 5.4" and not rawget(_G, "jit")
  local newproxy = newproxy -- luacheck: ignore 113 (Lua 5.1 and LuaJIT)
  local function arm(f)
    if newproxy then
      local p = newproxy(true)
      getmetatable(p).__gc = f
    else
      setmetatable({}, { __gc = f })
    end
  end
  local function eager()
    if V54 then
      collectgarbage("incremental", 1, 1000, 1)
      return function() collectgarbage("incremental", 200, 100, 13) end
    end
    local pause, stepmul = collectgarbage("setpause", 0), collectgarbage("setstepmul", 1000)
    return function()
      collectgarbage("setpause", pause)
      collectgarbage("setstepmul", stepmul)
    end
  end

  for _, action in ipairs({ "close", "change" }) do
    it("finalizers that " .. action .. " the grid: the right grid or a clean error", function()
      local undo = eager()
      local env = { active = true, inside = 0, inCall = false }
      finally(function()
        env.active = false
        undo()
        collectgarbage("collect")
      end)
      local W, H = 32, 22
      -- the finalizers act on the grid of the call running now (a finalizer
      -- armed in one round may run in a later one: in the whole suite the
      -- heap is large and a collection cycle spans many rounds)
      local function fin()
        if not env.active then return end
        if env.inCall then env.inside = env.inside + 1 end
        if action == "close" then
          close(env.grid)
        elseif pcall(env.grid.setWalkable, env.grid, W, H, env.flipped) then
          env.flipped = not env.flipped        -- outside the region
        end
      end
      local tiles = random_tiles(R.rng(31), W - 2, H - 2)
      local want = astar.new(W, H)
      want:setTiles(tiles, RULE, 2, 2)
      local painted = dump(want)
      local failures, outcomes = {}, { ok = 0, closed = 0 }
      local round, started = 0, os.clock()
      -- at least 40 rounds; more until a finalizer ran inside a call (at most 60 s)
      while round < 40 or (env.inside == 0 and os.clock() - started < 60) do
        round = round + 1
        local grid = astar.new(W, H)
        env.grid, env.flipped = grid, false
        for _ = 1, 3 do arm(fin) end
        -- odd rounds: a table rule (finalizers run at the call's own
        -- allocations); even rounds: a rule function that allocates, and
        -- every fourth round one that makes a full collection at one cell
        -- (the finalizers armed above run there, whatever the heap's size)
        local rule = RULE
        if round % 4 == 0 then
          local at = math.floor(round / 4) % ((W - 2) * (H - 2))
          local n = 0
          rule = function(id)
            if n == at then collectgarbage("collect") end
            n = n + 1
            return RULE[id]
          end
        elseif round % 2 == 0 then
          rule = function(id) return ({ RULE[id] })[1] end
        end
        env.inCall = true
        local ok, err = pcall(grid.setTiles, grid, tiles, rule, 2, 2)
        env.inCall = false
        env.active = false
        if ok and not pcall(grid.getWidth, grid) then
          outcomes.closed = outcomes.closed + 1   -- closed at the end of the call, after the writes
        elseif ok then
          outcomes.ok = outcomes.ok + 1
          want:setWalkable(W, H, not env.flipped)
          if dump(want) ~= dump(grid) then failures[#failures + 1] = round .. ": wrong cells" end
          want:setWalkable(W, H, true)
        elseif err == "grid closed during setTiles" or err == "attempt to use a closed astar.Grid" then
          outcomes.closed = outcomes.closed + 1
          if pcall(grid.getWidth, grid) then failures[#failures + 1] = round .. ": not closed" end
        else
          failures[#failures + 1] = round .. ": " .. tostring(err)
        end
        env.active = true
      end
      assert.are.equal(painted, dump(want))
      assert.are.same({}, failures)
      assert.is_true(env.inside > 0, "no finalizer ran inside a call in " .. round .. " rounds")
      if action == "change" then assert.are.equal(0, outcomes.closed) end
    end)
  end
end)
