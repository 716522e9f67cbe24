-- Large units in movement ranges and danger zones (issue 14, README "Large
-- units"): grid:movementRange(x, y, move, {size = k}) and
-- tactics.dangerZone's enemies[i].size, checked against
-- spec/helpers/large_range_reference.lua (a Dijkstra over top-left positions
-- that checks every covered cell itself, and attack areas measured from the
-- nearest covered cell) on generated boards: k = 1..4, every diagonal mode,
-- grid costs, the rules in every form, starts on walls; exact sets of
-- positions and their costs, paths, the errors, and rule callbacks that
-- close or change the grid. Runs on both backends (ASTAR_BACKEND=lua:
-- mk/fallback.mk).
local astar = require "astar"
local tactics = require "astar.tactics"
local R = require "helpers.reference"
local L = require "helpers.large_reference"
local LR = require "helpers.large_range_reference"
local TR = require "helpers.tactics_reference"
local check_error = require("helpers.errors").check_error

local INF = math.huge
local MODES = { "never", "always", "one-obstacle", "no-obstacles" }

local function close(a, b)
  if a == INF or b == INF then return a == b end
  return math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a))
end

-- The reference's board for a grid as it is now and the rules of a query
-- (functions of a cell: blocked, cost (nil / false: impassable), occupied, zoc).
local function board_of(grid, k, diagonal, rules)
  rules = rules or {}
  return {
    w = grid:getWidth(), h = grid:getHeight(), k = k, diagonal = diagonal,
    value = function(x, y)
      if not grid:isWalkable(x, y) then return INF end
      if rules.blocked and rules.blocked(x, y) then return INF end
      if rules.cost then return rules.cost(x, y) or INF end
      return grid:getCost(x, y)
    end,
    occupied = rules.occupied, zoc = rules.zoc,
  }
end

-- nil when range r (from (sx, sy), budget move) is the reference's range on
-- board b, else what differs: every position's costTo and contains, size,
-- cells, getStart, and the path to every stop position walked step by step.
local function range_mismatch(r, b, sx, sy, move)
  local cost, stop = LR.range(b, sx, sy, move)
  local stops, exact = 0, b.diagonal == "never"
  local gx, gy = r:getStart()
  if gx ~= sx or gy ~= sy then return ("getStart gives %d,%d"):format(gx, gy) end
  for y = 1, b.h do
    for x = 1, b.w do
      local want, got = cost[y][x], r:costTo(x, y)
      if want == nil then
        if got ~= nil then return ("(%d,%d) reached at %.17g, the reference does not reach it"):format(x, y, got) end
      elseif got == nil or (exact and got ~= want) or not close(got, want) then
        return ("(%d,%d) costs %s, the reference says %.17g"):format(x, y, tostring(got), want)
      end
      if r:contains(x, y) ~= (stop[y][x] == true) then
        return ("contains(%d,%d) is %s"):format(x, y, tostring(r:contains(x, y)))
      end
      if stop[y][x] then
        stops = stops + 1
        local path = r:pathTo(x, y)
        if not path then return ("no path to (%d,%d)"):format(x, y) end
        local walked, why = L.path_cost(b, path, sx, sy)
        if not walked then return ("path to (%d,%d): %s"):format(x, y, why) end
        if not close(walked, got) then
          return ("path to (%d,%d) costs %.17g, costTo says %.17g"):format(x, y, walked, got)
        end
        local last = path[#path]
        if last.x ~= x or last.y ~= y then return ("path to (%d,%d) ends elsewhere"):format(x, y) end
        for i = 2, #path - 1 do
          if LR.in_zoc(b, path[i].x, path[i].y) then
            return ("path to (%d,%d) goes on from a zone of control"):format(x, y)
          end
        end
      elseif r:pathTo(x, y) ~= nil then
        return ("a path to (%d,%d), where the move may not end"):format(x, y)
      end
    end
  end
  if r:size() ~= stops then return ("size() is %d, the reference has %d"):format(r:size(), stops) end
  local cells = r:cells()
  if #cells ~= stops then return ("#cells() is %d, the reference has %d"):format(#cells, stops) end
  for _, c in ipairs(cells) do
    if not stop[c.y][c.x] or not close(c.cost, cost[c.y][c.x]) then
      return ("cells() has (%d,%d) at %.17g"):format(c.x, c.y, c.cost)
    end
  end
  return nil
end

-- Generated boards: walls, sometimes costs (whole numbers, so a budget of
-- n + 0.5 is never met exactly).
local function make_board(seed)
  local rng = R.rng(seed)
  local w, h = rng.int(5, 10), rng.int(5, 9)
  local costs = seed % 3 == 0 and { 1 } or { 1, 1, 2, 3, 5 }
  local desc = R.random_map(rng, w, h, 0.1 + 0.02 * (seed % 5), costs)
  return { seed = seed, rng = rng, w = w, h = h, grid = R.build_grid(astar, desc) }
end

-- The rules of a query in one form: 1 none, 2 tables by cell number (and
-- occupied as a list of points), 3 functions, 4 lists of points (cost with
-- its own numbers, zoc). Returns the options and the reference's functions.
local function make_rules(board, form)
  local rng, w, h, grid = board.rng, board.w, board.h, board.grid
  if form == 1 then return {}, nil end
  local blocked, occupied, zoc, costs = {}, {}, {}, {}
  for _ = 1, rng.int(0, 3) do blocked[(rng.int(1, h) - 1) * w + rng.int(1, w)] = true end
  for _ = 1, rng.int(1, 4) do occupied[(rng.int(1, h) - 1) * w + rng.int(1, w)] = true end
  for _ = 1, rng.int(0, 2) do zoc[(rng.int(1, h) - 1) * w + rng.int(1, w)] = true end
  for _ = 1, rng.int(2, 8) do costs[(rng.int(1, h) - 1) * w + rng.int(1, w)] = rng.pick { 2, 4, false } end
  local function cost_of(x, y)
    local c = costs[(y - 1) * w + x]
    if c == nil then return grid:getCost(x, y) end
    return c
  end
  local ref = {
    blocked = function(x, y) return blocked[(y - 1) * w + x] == true end,
    occupied = function(x, y) return occupied[(y - 1) * w + x] == true end,
    zoc = function(x, y) return zoc[(y - 1) * w + x] == true end,
    cost = cost_of,
  }
  local function list(set)
    local out = {}
    for y = 1, h do
      for x = 1, w do
        if set[(y - 1) * w + x] then out[#out + 1] = { x = x, y = y } end
      end
    end
    return out
  end
  if form == 2 then
    local cost_table = {}
    for y = 1, h do
      for x = 1, w do cost_table[(y - 1) * w + x] = cost_of(x, y) end
    end
    return { blocked = blocked, occupied = list(occupied), zoc = zoc, cost = cost_table }, ref
  elseif form == 3 then
    return {
      blocked = function(x, y) return blocked[(y - 1) * w + x] end,
      occupied = function(x, y) return occupied[(y - 1) * w + x] end,
      zoc = function(x, y) return zoc[(y - 1) * w + x] end,
      cost = function(x, y) return cost_of(x, y) end,
    }, ref
  end
  local cost_points = {}
  for y = 1, h do
    for x = 1, w do
      local c = costs[(y - 1) * w + x]
      if c ~= nil then cost_points[#cost_points + 1] = { x = x, y = y, cost = c } end
    end
  end
  if #cost_points == 0 then cost_points = nil end
  ref.blocked, ref.occupied = nil, nil
  return { cost = cost_points, zoc = list(zoc) }, ref
end

local function merge(a, b)
  local c = {}
  for k, v in pairs(a) do c[k] = v end
  for k, v in pairs(b) do c[k] = v end
  return c
end

-- movementRange against the reference on every board, rule form (1 to 4),
-- size in sizes and diagonal mode: `per` queries each from a start
-- pick(board, k) draws from the board's rng, with a budget from moves.
-- Returns the number of queries and of ranges that reach a position.
local function sweep(boards, sizes, per, moves, pick)
  local queries, reached = 0, 0
  local cases = { boards = boards, forms = 4, make_rules = make_rules, board_of = board_of,
    sizes = sizes, per = per }
  L.each_case(cases, function(board, what, opts, b)
    local sx, sy = pick(board, b.k)
    local move = board.rng.pick(moves)
    local r = board.grid:movementRange(sx, sy, move, opts)
    local wrong = range_mismatch(r, b, sx, sy, move)
    assert(not wrong, ("%s, from (%d,%d), move %s: %s"):format(what, sx, sy, tostring(move), tostring(wrong)))
    queries = queries + 1
    if r:size() > 1 then reached = reached + 1 end
  end)
  return queries, reached
end

describe("the large ranges reference", function()
  it("stops a 2x2 unit at a gap of 1 and prices the cells it newly covers", function()
    local grid = astar.fromString("......\n..#...\n......\n......")
    grid:setCost(4, 1, 3)
    local cost = LR.range(board_of(grid, 2, "always"), 1, 3, 6)
    assert.equal(1, cost[3][2])
    assert.equal(2, cost[3][3])
    assert.equal(2 + math.sqrt(2), cost[2][4])        -- (4, 1) costs 3: not covered
    assert.equal(2 + 2 * math.sqrt(2), cost[1][5])
    assert.equal(2, cost[1][1])
    assert.is_nil(cost[2][2])                         -- covers the wall at (3, 2)
  end)
end)

describe("movementRange with size", function()
  it("gives the reference's positions and costs (hand-checked board)", function()
    local grid = astar.fromString("......\n..#...\n......\n......")
    grid:setCost(4, 1, 3)
    for _, cost_rule in ipairs { false, true } do
      local opts = { size = 2, diagonal = "always" }
      if cost_rule then opts.cost = function(x, y) return grid:getCost(x, y) end end
      local r = grid:movementRange(1, 3, 6, opts)
      local got = {}
      for _, c in ipairs(r:cells()) do got[#got + 1] = ("%d,%d=%.2f"):format(c.x, c.y, c.cost) end
      table.sort(got)
      assert.are.same({ "1,1=2.00", "1,2=1.00", "1,3=0.00", "2,3=1.00", "3,3=2.00", "4,2=3.41",
        "4,3=3.00", "5,1=4.83", "5,2=4.41", "5,3=4.00" }, got)
      local path = r:pathTo(5, 1, { flat = true })
      assert.are.same({ 1, 3, 2, 3, 3, 3, 4, 2, 5, 1 }, path)
    end
  end)

  it("agrees with the reference for k = 1..4, every diagonal mode, costs and rules in every form", function()
    local boards = {}
    for seed = 1, 10 do boards[seed] = make_board(seed) end
    local queries, reached = sweep(boards, { 1, 2, 3, 4 }, 2, { 2.5, 4.5, 7.5, INF }, function(board)
      return board.rng.int(1, board.w), board.rng.int(1, board.h)
    end)
    assert.equal(1280, queries)
    assert(reached > 400, "too few queries reach anything: " .. reached)
  end)

  it("agrees with the reference for units of 5, 8 and 11 cells a side, rules in every form", function()
    -- a step newly covers a row and a column of up to 11 cells: the long runs
    local boards = {}
    for seed = 90, 92 do boards[#boards + 1] = L.big_board(astar, seed) end
    local queries, reached = sweep(boards, { 5, 8, 11 }, 1, { 4.5, 9.5, INF }, function(board, k)
      return board.rng.int(1, board.w - k + 1), board.rng.int(1, board.h - k + 1)
    end)
    assert.equal(144, queries)
    assert(reached > 48, "too few queries reach anything: " .. reached)
  end)

  it("is the one-cell range with size 1", function()
    local board = make_board(77)
    local rule_opts = make_rules(board, 3)
    for _, mode in ipairs(MODES) do
      local a = board.grid:movementRange(2, 2, 6.5, merge(rule_opts, { diagonal = mode }))
      local b = board.grid:movementRange(2, 2, 6.5, merge(rule_opts, { diagonal = mode, size = 1 }))
      assert.are.same(a:cells(), b:cells())
    end
  end)

  it("moves from a start on a wall, or where the unit does not fit, without checking it", function()
    local grid = astar.fromString("#....\n.....\n....#")
    for _, mode in ipairs(MODES) do
      for _, start in ipairs { { 1, 1 }, { 4, 2 }, { 5, 3 } } do
        local r = grid:movementRange(start[1], start[2], 5.5, { size = 2, diagonal = mode })
        local wrong = range_mismatch(r, board_of(grid, 2, mode), start[1], start[2], 5.5)
        assert(not wrong, mode .. ": " .. tostring(wrong))
      end
    end
    local r = grid:movementRange(1, 1, 3.5, { size = 2 })     -- (1, 1) covers the wall
    assert.is_true(r:contains(1, 1))
    assert.equal(1, r:costTo(2, 1))
    assert.equal(1, r:costTo(1, 2))
    -- (5, 3) covers nothing but the wall and cells outside: only the start
    assert.equal(1, grid:movementRange(5, 3, INF, { size = 2 }):size())
    -- a unit bigger than the grid fits nowhere: only the start
    assert.equal(1, grid:movementRange(2, 2, INF, { size = 4 }):size())
    assert.equal(1, grid:movementRange(2, 2, INF, { size = 65535, diagonal = "always" }):size())
  end)

  it("keeps a move from ending where any covered cell is occupied, and stops it at a zone of control", function()
    local grid = astar.new(6, 3)
    -- occupied (3, 1): positions (2, 1) and (3, 1) cover it: crossed, not ended on
    local r = grid:movementRange(1, 1, 4.5, { size = 2, occupied = { { x = 3, y = 1 } } })
    assert.is_false(r:contains(3, 1))
    assert.equal(2, r:costTo(3, 1))
    assert.is_false(r:contains(2, 1))
    assert.equal(1, r:costTo(2, 1))
    assert.is_nil(r:pathTo(2, 1))
    assert.is_true(r:contains(1, 2))
    assert.is_true(r:contains(2, 2))                  -- (2, 2) covers row 2 and 3 only
    assert.is_true(r:contains(4, 1))
    assert.are.same({ { x = 1, y = 1 }, { x = 2, y = 1 }, { x = 3, y = 1 }, { x = 4, y = 1 } }, r:pathTo(4, 1))
    -- a zone of control at (4, 2): every position covering it ends the move
    r = grid:movementRange(1, 1, 4.5, { size = 2, zoc = { [tactics.cellIndex(grid, 4, 2)] = true } })
    assert.is_true(r:contains(3, 1))
    assert.is_nil(r:costTo(4, 1))
    assert.is_nil(r:costTo(5, 1))
    -- starting in one: the first step is free to go
    r = grid:movementRange(3, 1, 2.5, { size = 2, zoc = { [tactics.cellIndex(grid, 4, 2)] = true } })
    assert.equal(1, r:costTo(2, 1))
    assert.equal(2, r:costTo(1, 1))                   -- (2, 1) covers no zone: on from there
    assert.equal(1, r:costTo(4, 1))
    assert.is_nil(r:costTo(5, 1))                     -- (4, 1) covers (4, 2): the move ends there
  end)

  it("asks each rule once per cell, about the cells the positions cover", function()
    local grid = astar.new(7, 6)
    local asked, twice = {}, false
    local r = grid:movementRange(3, 3, 3.5, { size = 3, diagonal = "always", cost = function(x, y)
      local key = (y - 1) * 7 + x
      if asked[key] then twice = true end
      asked[key] = true
      return 1
    end })
    assert.is_false(twice)
    assert.is_true(asked[(3 - 1) * 7 + 3])             -- the start's own cells too
    assert.is_true(asked[(6 - 1) * 7 + 7])
    assert.equal(20, r:size())                        -- every position where the unit fits (5 x 4)
  end)
end)

describe("attack areas and danger zones of large units", function()
  local function walls_of(grid)
    local map = { w = grid:getWidth(), h = grid:getHeight(), wall = {} }
    for y = 1, map.h do
      map.wall[y] = {}
      for x = 1, map.w do map.wall[y][x] = not grid:isWalkable(x, y) or nil end
    end
    return map
  end

  it("measures attackRange of a sized range from the nearest covered cell", function()
    for seed = 1, 6 do
      local board = make_board(100 + seed)
      local grid, rng = board.grid, board.rng
      local map = walls_of(grid)
      for k = 1, 3 do
        for _, metric in ipairs { "manhattan", "chebyshev", "euclidean" } do
          local sx, sy = rng.int(1, board.w), rng.int(1, board.h)
          local mode = rng.pick(MODES)
          local range = grid:movementRange(sx, sy, 2.5, { size = k, diagonal = mode })
          local _, stop = LR.range(board_of(grid, k, mode), sx, sy, 2.5)
          local lo = rng.int(0, 2)
          local hi = lo + rng.int(0, 2)
          for _, sight in ipairs { false, true } do
            local area = grid:attackRange(range, lo, hi, { metric = metric, lineOfSight = sight })
            local hit = LR.attack(board.w, board.h, k, stop, lo, hi,
              sight and function(fx, fy, tx, ty) return TR.lineOfSight(map, fx, fy, tx, ty) end, metric)
            local n = 0
            for y = 1, board.h do
              for x = 1, board.w do
                assert(area:contains(x, y) == (hit[y][x] == true), ("board %d, size %d, %s, %d..%d, sight %s: (%d,%d)")
                  :format(seed, k, metric, lo, hi, tostring(sight), x, y))
                if hit[y][x] then n = n + 1 end
              end
            end
            assert.equal(n, area:size())
          end
        end
      end
    end
  end)

  it("asks a lineOfSight function from the nearest covered cell", function()
    local grid = astar.new(8, 8)
    local range = grid:movementRange(3, 3, 0, { size = 2 })
    local asked = {}
    local area = grid:attackRange(range, 2, 2, { lineOfSight = function(fx, fy, tx, ty)
      asked[#asked + 1] = ("%d,%d>%d,%d"):format(fx, fy, tx, ty)
      return true
    end })
    assert.equal(#asked, area:size())
    assert.equal(12, area:size())                     -- the ring at distance 2 of the 2x2 square
    for _, a in ipairs(asked) do
      local fx, fy, tx, ty = a:match("(%d+),(%d+)>(%d+),(%d+)")
      fx, fy, tx, ty = tonumber(fx), tonumber(fy), tonumber(tx), tonumber(ty)
      assert(fx >= 3 and fx <= 4 and fy >= 3 and fy <= 4, a)
      assert.equal(2, math.abs(tx - fx) + math.abs(ty - fy))
    end
  end)

  it("gives dangerZone's counts for sized enemies", function()
    for seed = 1, 8 do
      local board = make_board(200 + seed)
      local grid, rng = board.grid, board.rng
      local map = walls_of(grid)
      local rule_opts, rules = make_rules(board, 1 + seed % 4)
      local metric = rng.pick { "manhattan", "chebyshev", "euclidean" }
      local sight = rng.pick { false, true }
      local enemies, ref = {}, {}
      for i = 1, rng.int(1, 3) do
        local k = rng.int(1, 3)
        local mode = rng.pick(MODES)
        local lo = rng.int(0, 1)
        local e = { x = rng.int(1, board.w), y = rng.int(1, board.h), move = rng.pick { 1.5, 3.5 },
          minRange = lo, maxRange = lo + rng.int(0, 2), diagonal = mode }
        if k > 1 or i == 1 then e.size = k end
        enemies[i] = e
        ref[i] = { board = board_of(grid, k, mode, rules), x = e.x, y = e.y, move = e.move,
          lo = e.minRange, hi = e.maxRange, metric = metric }
      end
      local zone = tactics.dangerZone(grid, enemies, merge(rule_opts, { metric = metric, lineOfSight = sight }))
      local count = LR.danger(board.w, board.h, ref,
        sight and function(fx, fy, tx, ty) return TR.lineOfSight(map, fx, fy, tx, ty) end)
      local n = 0
      for y = 1, board.h do
        for x = 1, board.w do
          assert.equal(count[y][x] or 0, zone:count(x, y), ("board %d: (%d,%d)"):format(seed, x, y))
          if count[y][x] then n = n + 1 end
        end
      end
      assert.equal(n, zone:size())
    end
  end)
end)

describe("size errors", function()
  local grid = astar.new(6, 6)
  local hex = astar.newHex(6, 6)

  it("are findPath's for movementRange", function()
    check_error("bad argument #4 to 'movementRange' (opts.size: number expected, got string)",
      grid.movementRange, grid, 1, 1, 3, { size = "2" })
    for _, v in ipairs { 0, -1, 1.5, 65536, 0 / 0, INF } do
      local text = v ~= v and "nan" or v == INF and "inf" or (v == math.floor(v) and ("%d"):format(v) or tostring(v))
      check_error("bad argument #4 to 'movementRange' (opts.size must be a whole number from 1 to 65535, got "
        .. text .. ")", grid.movementRange, grid, 1, 1, 3, { size = v })
      check_error("bad argument #5 to 'findPath' (opts.size must be a whole number from 1 to 65535, got "
        .. text .. ")", grid.findPath, grid, 1, 1, 3, 3, { size = v })
    end
    check_error("bad argument #4 to 'movementRange' (opts.size: large units need a square grid)",
      hex.movementRange, hex, 1, 1, 3, { size = 2 })
    assert.equal(hex:movementRange(1, 1, 2):size(), hex:movementRange(1, 1, 2, { size = 1 }):size())
    check_error("bad argument #4 to 'movementRange' (opts.size: number expected, got string)",
      tactics.movementRange, grid, 1, 1, 3, { size = "2" })
  end)

  it("name the enemy in dangerZone, and say where the size goes", function()
    local function enemy(size) return { x = 1, y = 1, move = 2, minRange = 1, maxRange = 1, size = size } end
    check_error("bad argument #1 to 'dangerZone' (enemies[2].size: number expected, got boolean)",
      grid.dangerZone, grid, { enemy(1), enemy(true) })
    check_error("bad argument #1 to 'dangerZone' (enemies[1].size must be a whole number from 1 to 65535, got 2.5)",
      grid.dangerZone, grid, { enemy(2.5) })
    check_error("bad argument #1 to 'dangerZone' (enemies[1].size must be a whole number from 1 to 65535, got 0)",
      grid.dangerZone, grid, { enemy(0) })
    check_error("bad argument #1 to 'dangerZone' (enemies[1].size: large units need a square grid)",
      hex.dangerZone, hex, { enemy(2) })
    check_error("bad argument #2 to 'dangerZone' (opts.size: give each enemy its own (enemies[i].size))",
      grid.dangerZone, grid, { enemy(1) }, { size = 2 })
    local range = grid:movementRange(1, 1, 2, { size = 2 })
    check_error("bad argument #4 to 'attackRange' (opts.size: not an option here; a range made with a size keeps it)",
      grid.attackRange, grid, range, 1, 1, { size = 2 })
  end)
end)

describe("a sized movementRange whose rule function", function()
  local function yielder() coroutine.yield("paused") end
  local YIELD_ERROR = (function()
    local co = coroutine.create(function()
      table.sort({ 3, 2, 1 }, function() yielder() return false end)
    end)
    local _, err = coroutine.resume(co)
    return err
  end)()

  it("closes the grid raises 'grid closed during movementRange'", function()
    local grid = astar.new(8, 8)
    local ok, err = pcall(grid.movementRange, grid, 2, 2, 5, { size = 2, cost = function()
      getmetatable(grid).__close(grid)
      return 1
    end })
    assert.are.same({ false, "grid closed during movementRange" }, { ok, err })
  end)

  it("changes the grid once starts again on the grid as it is then", function()
    local grid = astar.new(8, 6)
    local changed = false
    local function cost()
      if not changed then
        changed = true
        grid:setWalkable(5, 3, false)
      end
      return 1
    end
    local r = grid:movementRange(2, 2, 6.5, { size = 2, diagonal = "one-obstacle", cost = cost })
    local wrong = range_mismatch(r, board_of(grid, 2, "one-obstacle", { cost = function() return 1 end }), 2, 2, 6.5)
    assert(not wrong, wrong)
    assert.is_nil(r:costTo(4, 2))                     -- covers the new wall
  end)

  it("changes the grid every time raises 'grid changed during movementRange'", function()
    local grid = astar.new(8, 6)
    local ok, err = pcall(grid.movementRange, grid, 2, 2, 5, { size = 2, blocked = function()
      grid:setWalkable(8, 6, not grid:isWalkable(8, 6))
      return false
    end })
    assert.are.same({ false, "grid changed during movementRange" }, { ok, err })
  end)

  it("raises or yields: the error passes unchanged, and the grid works on", function()
    local grid = astar.new(8, 6)
    local marker = {}
    local ok, err = pcall(grid.movementRange, grid, 2, 2, 5, { size = 3, zoc = function() error(marker) end })
    assert.is_false(ok)
    assert.equal(marker, err)
    local co = coroutine.create(function()
      return grid:movementRange(2, 2, 5, { size = 2, occupied = function() yielder() end })
    end)
    ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.equal(YIELD_ERROR, err)
    local r = grid:movementRange(2, 2, 5.5, { size = 2, diagonal = "always" })
    assert(not range_mismatch(r, board_of(grid, 2, "always"), 2, 2, 5.5))
  end)

  it("makes a sized query of its own gets the right answers for both", function()
    local grid = astar.new(8, 6)
    local inner
    local r = grid:movementRange(1, 1, 3.5, { size = 2, cost = function(x, y)
      if not inner then inner = grid:movementRange(4, 3, 2.5, { size = 3, diagonal = "always" }) end
      return x == 3 and y == 1 and 2 or 1
    end })
    assert(not range_mismatch(inner, board_of(grid, 3, "always"), 4, 3, 2.5))
    local wrong = range_mismatch(r, board_of(grid, 2, "never",
      { cost = function(x, y) return x == 3 and y == 1 and 2 or 1 end }), 1, 1, 3.5)
    assert(not wrong, wrong)
  end)
end)
