-- Specs for a team's turn on one distance map (issue 21): start cells (a cell
-- closed by the map's rules answers get, nextStep and nearest as if a unit
-- stood there) and map:pathFrom's walk limits maxCost, near and blocked.
-- Checked against an independent walk written here, over the values of
-- spec/helpers/distance_reference.lua, on generated boards. The suite runs on
-- both backends (mk/fallback.mk).
local astar = require "astar"
local R = require "helpers.reference"
local RR = require "helpers.rules_reference"
local D = require "helpers.distance_reference"
local E = require "helpers.errors"

local INF = math.huge
local close = R.close
local MODES = { "never", "always", "one-obstacle", "no-obstacles" }

local function cell(w, x, y) return (y - 1) * w + x end

-- ---- the reference walk ------------------------------------------------------

-- Within `near` of a source: Manhattan in 4 directions, Chebyshev in 8.
local function near_source(c, x, y, near)
  for _, s in ipairs(c.sources) do
    local dx, dy = math.abs(x - s.x), math.abs(y - s.y)
    if (c.mode == "never" and dx + dy <= near) or (c.mode ~= "never" and dx <= near and dy <= near) then
      return true
    end
  end
  return false
end

-- The directions a walk from (x, y) may take into cells of the map (start
-- cells are no cells of the map), in nextStep's order: {dx, dy, u, price}.
local function moves(c, ref, x, y)
  local out = {}
  for k, d in ipairs(D.DIRS) do
    local nx, ny = x + d[1], y + d[2]
    if (k <= 4 or c.mode ~= "never") and nx >= 1 and ny >= 1 and nx <= c.w and ny <= c.h then
      local u = cell(c.w, nx, ny)
      if ref.dist[u] and not ref.starts[u] and D.step_ok(c.board, c.mode, x, y, d[1], d[2]) then
        out[#out + 1] = { nx, ny, u, D.step_cost(c.board, x, y, d[1], d[2]) }
      end
    end
  end
  return out
end

-- The step nextStep gives: the first move of least value + price (a source
-- keeps itself when that is no lower than its own value).
local function map_step(c, ref, x, y)
  local i = cell(c.w, x, y)
  local best, pick = INF, nil
  for _, m in ipairs(moves(c, ref, x, y)) do
    if ref.dist[m[3]] + m[4] < best then best, pick = ref.dist[m[3]] + m[4], m end
  end
  if ref.own[i] and not ref.starts[i] and ref.start[i] <= best then return nil end
  return pick
end

-- pathFrom(x, y, opts) as the README describes it: cells {x, y} and the cost.
local function walk(c, ref, x, y, opts)
  local closed = {}
  for _, p in ipairs(opts.blocked or {}) do closed[cell(c.w, p.x, p.y)] = true end
  local path, spent = { { x, y } }, 0
  while true do
    if opts.near and near_source(c, x, y, opts.near) then break end
    local m = map_step(c, ref, x, y)
    if m and closed[m[3]] then
      -- another way down: the first open move to a lower cell, least value + price
      local below, best = ref.dist[cell(c.w, x, y)], INF
      m = nil
      for _, o in ipairs(moves(c, ref, x, y)) do
        if not closed[o[3]] and ref.dist[o[3]] < below and ref.dist[o[3]] + o[4] < best then
          best, m = ref.dist[o[3]] + o[4], o
        end
      end
    end
    if not m or spent + m[4] > (opts.maxCost or INF) then break end
    x, y, spent = m[1], m[2], spent + m[4]
    path[#path + 1] = { x, y }
  end
  return path, spent
end

-- ---- generated boards ------------------------------------------------------------

-- A board with walls and costs, a few units blocked on the map (the team),
-- sources (the players) and options for the map.
local function generate(seed)
  local rnd = R.rng(seed + 2100)
  local w, h = rnd.int(4, 10), rnd.int(3, 8)
  local walls, costs = {}, {}
  local grid = astar.new(w, h)
  for y = 1, h do
    for x = 1, w do
      local i = cell(w, x, y)
      walls[i] = rnd.next() < 0.15
      costs[i] = seed % 2 == 0 and rnd.int(1, 3) or 1
      if walls[i] then grid:setWalkable(x, y, false) end
      if costs[i] ~= 1 then grid:setCost(x, y, costs[i]) end
    end
  end
  local team = {}
  for k = 1, rnd.int(1, 6) do team[k] = { x = rnd.int(1, w), y = rnd.int(1, h) } end
  local sources = {}
  for k = 1, rnd.int(1, 2) do sources[k] = { x = rnd.int(1, w), y = rnd.int(1, h) } end
  local opts = { diagonal = MODES[seed % 4 + 1], blocked = team }
  if seed % 5 == 0 then opts.maxCost = rnd.int(3, 9) end
  local board = RR.board({ w = w, h = h,
    walkable = function(x, y) return not walls[cell(w, x, y)] end,
    cost = function(x, y) return costs[cell(w, x, y)] end }, { blocked = team })
  local ref = D.distance(board, opts.diagonal, sources, opts.maxCost)
  D.add_starts(board, opts.diagonal, ref, opts.maxCost)
  return { grid = grid, board = board, sources = sources, opts = opts, mode = opts.diagonal,
    w = w, h = h, team = team, ref = ref, rnd = rnd }
end

local function fmt_path(path)
  local out = {}
  for _, p in ipairs(path) do out[#out + 1] = p[1] .. "," .. p[2] end
  return table.concat(out, " ")
end

describe("start cells", function()
  it("answer get, nextStep and nearest on a blocked cell as if a unit stood there", function()
    local cells = 0
    for seed = 1, 60 do
      local c = generate(seed)
      local map = c.grid:distanceMap(c.sources, c.opts)
      local members = 0
      for y = 1, c.h do
        for x = 1, c.w do
          local i = cell(c.w, x, y)
          local where = ("seed %d (%d,%d)"):format(seed, x, y)
          local want, got = c.ref.dist[i], map:get(x, y)
          assert(want == got or (want and got and close(want, got)),
            where .. ": get " .. tostring(got) .. ", the reference " .. tostring(want))
          if want and not c.ref.starts[i] then members = members + 1 end
          if c.ref.starts[i] then
            cells = cells + 1
            local m = map_step(c, c.ref, x, y)
            assert.are.same({ m[1], m[2] }, { map:nextStep(x, y) }, where)
            assert.are.equal(map:nearest(m[1], m[2]), map:nearest(x, y), where)
          end
        end
      end
      assert.are.equal(members, map:size())
      assert.are.equal(members, #map:cells())
    end
    assert.is_true(cells > 40, "start cells checked: " .. cells)
  end)

  it("survive encode and decodeMap on both backends' bytes", function()
    local g = astar.fromString("....\n.#..\n....")
    local map = g:distanceMap({ { x = 1, y = 1 } }, { blocked = { { x = 3, y = 3 }, { x = 2, y = 1 } },
      diagonal = "never" })
    local back = astar.decodeMap(map:encode())
    for y = 1, 3 do
      for x = 1, 4 do
        assert.are.equal(map:get(x, y), back:get(x, y))
        assert.are.same({ map:nextStep(x, y) }, { back:nextStep(x, y) })
        assert.are.equal(map:nearest(x, y), back:nearest(x, y))
      end
    end
    assert.are.equal(1, map:get(2, 1))            -- blocked: a step west onto the source
    assert.are.same({ 1, 1 }, { map:nextStep(2, 1) })
    assert.are.equal(map:size(), back:size())
    assert.are.equal(map:encode(), back:encode())
  end)

  it("are priced by the move rule, which is asked about them", function()
    local g = astar.fromString("...\n...")
    -- the step 2,1 -> 1,1 is forbidden: the blocked unit on 2,1 leaves by 2,2
    local rule = function(fx, fy, tx, ty, cost)
      if fx == 2 and fy == 1 and tx == 1 and ty == 1 then return false end
      return cost
    end
    local map = g:distanceMap({ { x = 1, y = 1 } }, { blocked = { { x = 2, y = 1 } }, diagonal = "never",
      move = rule })
    assert.are.equal(3, map:get(2, 1))
    assert.are.same({ 2, 2 }, { map:nextStep(2, 1) })
    assert.are.same({ 2, 1, 2, 2, 1, 2, 1, 1 }, (map:pathFrom(2, 1, { flat = true })))
  end)

  it("are none on a wall, on a map of large units or on a map made by flee", function()
    local g = astar.fromString("..#\n...\n...")
    local map = g:distanceMap({ { x = 1, y = 1 } }, { blocked = { { x = 2, y = 2 } }, diagonal = "never" })
    assert.are.equal(D.WALL_STARTS and 2 or nil, map:get(3, 1))   -- issue 24: a start cell
    assert.are.equal(2, map:get(2, 2))
    assert.is_nil(map:flee():get(2, 2))
    local big = g:distanceMap({ { x = 1, y = 1 } }, { blocked = { { x = 2, y = 2 } }, size = 2 })
    assert.is_nil(big:get(2, 2))
    assert.is_nil(big:get(1, 2))
  end)

  it("work on hex boards, with near in hex steps", function()
    local g = astar.newHex(5, 3)
    local map = g:distanceMap({ { x = 1, y = 2 } }, { blocked = { { x = 4, y = 2 }, { x = 3, y = 2 } } })
    assert.are.equal(2, map:get(3, 2))            -- beside 2,2, which is 1 from the source
    assert.are.equal(4, map:get(4, 2))            -- odd-r: by 4,1 or 4,3 (3 each)
    assert.are.same({ 4, 3 }, { map:nextStep(4, 2) })   -- the first in the hex order
    local path, cost = map:pathFrom(5, 2, { blocked = { { x = 4, y = 2 } }, near = 1, flat = true })
    -- 2,3 is one hex step from the source 1,2 (3,3 is two)
    assert.are.same({ 5, 2, 5, 3, 4, 3, 3, 3, 2, 3 }, path)
    assert.are.equal(4, cost)
  end)
end)

describe("map:pathFrom's walk", function()
  it("matches the reference walk with maxCost, near and blocked on generated boards", function()
    local walks = 0
    for seed = 1, 60 do
      local c = generate(seed)
      local map = c.grid:distanceMap(c.sources, c.opts)
      for _, u in ipairs(c.team) do
        -- each unit of the team walks with the others blocked
        local others = {}
        for _, o in ipairs(c.team) do if o ~= u then others[#others + 1] = o end end
        local opts = { blocked = others, flat = true }
        if c.rnd.next() < 0.6 then opts.maxCost = c.rnd.int(0, 6) end
        if c.rnd.next() < 0.4 then opts.near = c.rnd.int(0, 2) end
        local where = ("seed %d from (%d,%d)"):format(seed, u.x, u.y)
        local got, cost = map:pathFrom(u.x, u.y, opts)
        if c.ref.dist[cell(c.w, u.x, u.y)] == nil then
          assert.is_nil(got, where)
        else
          walks = walks + 1
          local want, spent = walk(c, c.ref, u.x, u.y, opts)
          local pairs_got = {}
          for k = 1, #got, 2 do pairs_got[#pairs_got + 1] = { got[k], got[k + 1] } end
          assert.are.equal(fmt_path(want), fmt_path(pairs_got), where)
          assert.is_true(close(spent, cost), where .. ": cost " .. cost .. ", the reference " .. spent)
        end
      end
    end
    assert.is_true(walks > 60, "walks checked: " .. walks)
  end)

  it("gives the whole nextStep walk and the value without limits, as before", function()
    local g = astar.fromString("....\n....")
    local map = g:distanceMap({ { x = 1, y = 1, value = 2 } }, { diagonal = "never" })
    local path, cost = map:pathFrom(4, 2)
    assert.are.equal(6, cost)   -- the value: the walk's 4 plus the source's 2
    assert.are.equal(5, #path)
    local _, spent = map:pathFrom(4, 2, { maxCost = math.huge })
    assert.are.equal(4, spent)  -- with a limit, what the walk costs
  end)

  it("stops before the step that would pass the budget, and at the start when none fits", function()
    local g = astar.fromString("....\n....")
    g:setCost(3, 1, 2.5)
    local map = g:distanceMap({ { x = 1, y = 1 } }, { diagonal = "never" })
    assert.are.same({ 4, 1, 3, 1 }, (map:pathFrom(4, 1, { maxCost = 3, flat = true })))
    local path, cost = map:pathFrom(4, 1, { maxCost = 2, flat = true })
    assert.are.same({ 4, 1 }, path)
    assert.are.equal(0, cost)
    assert.are.same({ 4, 1, 3, 1, 2, 1 }, (map:pathFrom(4, 1, { maxCost = 3.5, flat = true })))
  end)

  it("goes around a unit in the way, and waits where every way down is taken", function()
    local g = astar.fromString("......\n......\n......")
    local map = g:distanceMap({ { x = 1, y = 1 } }, { diagonal = "never" })
    -- the map's way from 4,2 is west through 3,2; a unit stands there: north is down too
    assert.are.same({ 4, 2, 4, 1, 3, 1, 2, 1, 1, 1 },
      (map:pathFrom(4, 2, { blocked = { { x = 3, y = 2 } }, flat = true })))
    -- west and north taken: south and east go up, so it waits
    local path, cost = map:pathFrom(4, 2, { blocked = { { x = 3, y = 2 }, { x = 4, y = 1 } }, flat = true })
    assert.are.same({ 4, 2 }, path)
    assert.are.equal(0, cost)
    -- a table by cell number works as a list does
    local t = { [cell(6, 3, 2)] = true }
    assert.are.same({ 4, 2, 4, 1, 3, 1, 2, 1, 1, 1 }, (map:pathFrom(4, 2, { blocked = t, flat = true })))
  end)

  it("fills into, flat or not", function()
    local g = astar.fromString("....")
    local map = g:distanceMap({ { x = 1, y = 1 } })
    local into = { 9, 9, 9, 9, 9, 9, 9 }
    assert.are.equal(into, (map:pathFrom(4, 1, { into = into, flat = true, maxCost = 2 })))
    assert.are.same({ 4, 1, 3, 1, 2, 1 }, into)
    local pts = { { x = 0, y = 0 }, 5 }
    map:pathFrom(4, 1, { into = pts, near = 2 })
    assert.are.same({ { x = 4, y = 1 }, { x = 3, y = 1 } }, pts)
  end)

  it("reads its options as the other queries do, with exact errors", function()
    local g = astar.fromString("....")
    local map = g:distanceMap({ { x = 1, y = 1 } })
    local function bad(msg) return "bad argument #3 to 'pathFrom' (" .. msg .. ")" end
    E.check_error(bad("opts.maxCost must be a number >= 0, got -1"), map.pathFrom, map, 4, 1, { maxCost = -1 })
    E.check_error(bad("opts.maxCost: number expected, got string"), map.pathFrom, map, 4, 1, { maxCost = "3" })
    E.check_error(bad("opts.near must be a whole number >= 0, got 1.5"), map.pathFrom, map, 4, 1, { near = 1.5 })
    E.check_error(bad("opts.near: number expected, got boolean"), map.pathFrom, map, 4, 1, { near = true })
    E.check_error(bad("opts.blocked: function or table expected, got number"), map.pathFrom, map, 4, 1,
      { blocked = 3 })
    E.check_error(bad("opts.blocked: a list of points or a table by cell number expected, got function"),
      map.pathFrom, map, 4, 1, { blocked = function() end })
    E.check_error(bad("opts.blocked[1].x out of range 1..4, got 5"), map.pathFrom, map, 4, 1,
      { blocked = { { x = 5, y = 1 } } })
    E.check_error(bad("unknown option 'cost'"), map.pathFrom, map, 4, 1, { cost = {} })
    E.check_error(bad("opts.flat: boolean expected, got number"), map.pathFrom, map, 4, 1, { flat = 1 })
    E.check_error(bad("opts.near: a map made by flee or blend has no sources"), map.pathFrom, map:flee(),
      4, 1, { near = 1 })
    -- a cell outside the map: nil, after the options were read
    E.check_error(bad("opts.near must be a whole number >= 0, got -1"), map.pathFrom, map, 9, 9, { near = -1 })
    assert.is_nil(map:pathFrom(9, 9, { near = 1 }))
  end)
end)
