-- Specs for distance maps (issue 13): grid:distanceMap, the DistanceMap
-- methods, flee, astar.blend and update, against the independent reference
-- in spec/helpers/distance_reference.lua, on generated boards with walls,
-- terrain, rules in every form, every diagonal mode and maxCost. The suite
-- runs on both backends (mk/fallback.mk).
local astar = require "astar"
local R = require "helpers.reference"
local RR = require "helpers.rules_reference"
local D = require "helpers.distance_reference"
local E = require "helpers.errors"

local close = R.close
local MODES = { "never", "always", "one-obstacle", "no-obstacles" }

local function cell(w, x, y) return (y - 1) * w + x end

-- A generated case: grid, reference board, sources, options.
local function generate(seed)
  local rnd = R.rng(seed)
  local w, h = rnd.int(3, 12), rnd.int(3, 10)
  local walls, costs = {}, {}
  local costly = seed % 3 ~= 0
  local grid = astar.new(w, h)
  for y = 1, h do
    for x = 1, w do
      local i = cell(w, x, y)
      walls[i] = rnd.next() < 0.22
      costs[i] = 1
      if costly then
        costs[i] = rnd.int(1, 4)
        if rnd.next() < 0.15 then costs[i] = 0.5 end
      end
      if walls[i] then grid:setWalkable(x, y, false) end
      if costs[i] ~= 1 then grid:setCost(x, y, costs[i]) end
    end
  end
  local desc = { w = w, h = h,
    walkable = function(x, y) return not walls[cell(w, x, y)] end,
    cost = function(x, y) return costs[cell(w, x, y)] end }
  local opts = { diagonal = MODES[seed % 4 + 1] }
  local rules = {}
  local kind = math.floor(seed / 4) % 4
  local blockedSet, costSet = {}, {}
  for i = 1, w * h do
    if rnd.next() < 0.1 then blockedSet[i] = true end
    if rnd.next() < 0.2 then costSet[i] = rnd.int(1, 5) end
  end
  if kind == 1 then
    rules.blocked = function(x, y) return blockedSet[cell(w, x, y)] end
    rules.cost = function(x, y)
      local c = costSet[cell(w, x, y)]
      if c == 5 then return false end
      return c or costs[cell(w, x, y)]
    end
  elseif kind == 2 then
    local list, clist = {}, {}
    for i in pairs(blockedSet) do
      list[#list + 1] = { x = (i - 1) % w + 1, y = math.floor((i - 1) / w) + 1 }
    end
    for i, c in pairs(costSet) do
      clist[#clist + 1] = { x = (i - 1) % w + 1, y = math.floor((i - 1) / w) + 1, cost = c }
    end
    if #list > 0 then rules.blocked = list end
    if #clist > 0 then rules.cost = clist end
  elseif kind == 3 then
    rules.blocked = blockedSet
    local t = {}
    for i = 1, w * h do t[i] = costSet[i] or 1.5 end
    rules.cost = t
  end
  for k, v in pairs(rules) do opts[k] = v end
  if seed % 5 == 0 then opts.maxCost = rnd.int(2, 10) end
  local sources = {}
  for k = 1, rnd.int(1, 4) do
    sources[k] = { x = rnd.int(1, w), y = rnd.int(1, h) }
    if seed % 2 == 0 then sources[k].value = rnd.int(0, 6) end
  end
  if seed % 7 == 0 then sources[#sources + 1] = { x = sources[1].x, y = sources[1].y, value = 1 } end
  local board = RR.board(desc, rules)
  return { grid = grid, board = board, sources = sources, opts = opts, mode = opts.diagonal,
    w = w, h = h, seed = seed, maxCost = opts.maxCost }
end

-- Checks every method of map against the reference distances ref.
local function check_map(c, map, ref)
  local b, w, mode = c.board, c.w, c.mode
  local dist = ref.dist
  local count = 0
  local where = function(x, y) return ("seed %d (%d,%d)"):format(c.seed, x, y) end
  for y = 1, c.h do
    for x = 1, c.w do
      local i = cell(w, x, y)
      local got = map:get(x, y)
      if dist[i] == nil then
        assert.is_nil(got, where(x, y))
        assert.is_nil(map:nextStep(x, y), where(x, y))
        assert.is_nil(map:pathFrom(x, y), where(x, y))
        assert.is_nil(map:nearest(x, y), where(x, y))
      else
        -- a start cell (closed by the rules) answers but is not one of the map's cells
        if not (ref.starts and ref.starts[i]) then count = count + 1 end
        assert.is_true(close(got, dist[i]), where(x, y) .. " got " .. tostring(got)
          .. " expected " .. dist[i])
        local nx, ny = map:nextStep(x, y)
        if nx == nil then
          assert.is_truthy(ref.own[i], where(x, y) .. ": the walk ends on a source")
          assert.is_true(close(ref.start[i], dist[i]), where(x, y))
        else
          assert.is_false(ref.own[i] ~= nil and ref.start[i] == dist[i],
            where(x, y) .. ": a source keeps itself on a tie")
          local dx, dy = nx - x, ny - y
          assert.is_true(D.step_ok(b, mode, x, y, dx, dy), where(x, y) .. " step allowed")
          local j = cell(w, nx, ny)
          assert.is_true(close(dist[j] + D.step_cost(b, x, y, dx, dy), dist[i]),
            where(x, y) .. " step downhill")
          -- the first optimal step in the order E W S N SE SW NE NW
          for _, d in ipairs(D.DIRS) do
            if d[1] == dx and d[2] == dy then break end
            local u = cell(w, x + d[1], y + d[2])
            if x + d[1] >= 1 and x + d[1] <= w and y + d[2] >= 1 and y + d[2] <= c.h
              and dist[u] and D.step_ok(b, mode, x, y, d[1], d[2]) then
              assert.is_false(dist[u] + D.step_cost(b, x, y, d[1], d[2]) == dist[i],
                where(x, y) .. " an earlier direction ties")
            end
          end
        end
        -- pathFrom: the nextStep walk, optimal, ending where nearest says
        local path, cost = map:pathFrom(x, y)
        assert.are.equal(got, cost)
        assert.are.same({ x = x, y = y }, path[1])
        local total = 0
        for k = 2, #path do
          local p, q = path[k - 1], path[k]
          local sx, sy = map:nextStep(p.x, p.y)
          assert.are.same({ sx, sy }, { q.x, q.y })
          total = total + D.step_cost(b, p.x, p.y, q.x - p.x, q.y - p.y)
        end
        local last = path[#path]
        local li = cell(w, last.x, last.y)
        assert.is_nil(map:nextStep(last.x, last.y))
        assert.is_true(close(total + ref.start[li], dist[i]), where(x, y) .. " walk cost")
        local k = map:nearest(x, y)
        assert.are.equal(ref.own[li], k, where(x, y) .. " nearest")
        assert.are.same({ last.x, last.y }, { c.sources[k].x, c.sources[k].y })
      end
    end
  end
  assert.are.equal(count, map:size())
  local cells = map:cells()
  assert.are.equal(count, #cells)
  local prev = 0
  for _, p in ipairs(cells) do
    local i = cell(w, p.x, p.y)
    assert.is_true(i > prev, "cells row by row")
    prev = i
    assert.is_true(close(p.cost, dist[i]))
  end
end

-- The values of a derived map against a reference rescan r (cell -> value).
local function check_rescanned(c, map, r, start)
  local b, w = c.board, c.w
  local count = 0
  for y = 1, c.h do
    for x = 1, c.w do
      local i = cell(w, x, y)
      local got = map:get(x, y)
      if r[i] == nil then
        assert.is_nil(got)
      else
        count = count + 1
        assert.is_true(close(got, r[i]), ("seed %d (%d,%d) got %s expected %s"):format(
          c.seed, x, y, tostring(got), tostring(r[i])))
        assert.is_nil(map:nearest(x, y))
        local nx, ny = map:nextStep(x, y)
        if nx == nil then
          assert.is_true(close(start[i], r[i]))
        else
          local dx, dy = nx - x, ny - y
          assert.is_true(D.step_ok(b, c.mode, x, y, dx, dy))
          assert.is_true(close(r[cell(w, nx, ny)] + D.step_cost(b, x, y, dx, dy), r[i]))
        end
      end
    end
  end
  assert.are.equal(count, map:size())
end

describe("distance maps", function()
  it("match a plain multi-source Dijkstra on generated boards #slow", function()
    for seed = 1, 120 do
      local c = generate(seed)
      local map = c.grid:distanceMap(c.sources, c.opts)
      local ref = D.add_starts(c.board, c.mode, D.distance(c.board, c.mode, c.sources, c.maxCost),
        c.maxCost)
      check_map(c, map, ref)
    end
  end)

  it("give the same map on unit costs in 4 directions (a breadth-first flood in C) #slow", function()
    for seed = 1, 40 do
      local rnd = R.rng(seed + 1000)
      local w, h = rnd.int(3, 14), rnd.int(3, 12)
      local grid = astar.new(w, h)
      local walls = {}
      for y = 1, h do
        for x = 1, w do
          walls[cell(w, x, y)] = rnd.next() < 0.25
          if walls[cell(w, x, y)] then grid:setWalkable(x, y, false) end
        end
      end
      local value = seed % 3
      local sources = {}
      for k = 1, rnd.int(1, 5) do sources[k] = { x = rnd.int(1, w), y = rnd.int(1, h), value = value } end
      local opts = { diagonal = "never", maxCost = seed % 4 == 0 and value + rnd.int(1, 6) or nil }
      local map = grid:distanceMap(sources, opts)
      opts.cost = function() return 1 end        -- a rule: the general flood
      local general = grid:distanceMap(sources, opts)
      assert.are.same(general:cells(), map:cells())
      for y = 1, h do
        for x = 1, w do
          assert.are.same({ general:nextStep(x, y) }, { map:nextStep(x, y) })
          assert.are.equal(general:nearest(x, y), map:nearest(x, y))
        end
      end
      local c = { board = RR.board({ w = w, h = h,
        walkable = function(x, y) return not walls[cell(w, x, y)] end,
        cost = function() return 1 end }), w = w, h = h, seed = seed, mode = "never",
        sources = sources }
      check_map(c, map, D.add_starts(c.board, "never", D.distance(c.board, "never", sources,
        opts.maxCost), opts.maxCost))
    end
  end)

  it("default to the grid's diagonal mode and value 0", function()
    local g = astar.fromString("...\n...\n...")
    g:setDiagonal("always")
    local map = g:distanceMap({ { x = 1, y = 1 } })
    assert.is_true(close(map:get(3, 3), 2 * math.sqrt(2)))
    assert.are.equal(0, map:get(1, 1))
    g:setDiagonal("never")
    assert.are.equal(4, g:distanceMap({ { x = 1, y = 1 } }):get(3, 3))
  end)

  it("count the cells entered, the source included, as findPath does", function()
    local g = astar.fromString("1234\n5678")
    g:setDiagonal("never")
    local map = g:distanceMap({ { x = 4, y = 2, value = 10 } })
    for y = 1, 2 do
      for x = 1, 4 do
        if x ~= 4 or y ~= 2 then
          local _, cost = g:findPath(x, y, 4, 2)
          assert.is_true(close(cost + 10, map:get(x, y)))
        end
      end
    end
  end)

  it("agree with findPath to the nearest of several goals", function()
    for seed = 1, 40 do
      local c = generate(seed * 3 + 1)
      local opts = { diagonal = c.mode }
      local map = c.grid:distanceMap(c.sources, opts)
      local goals = {}
      for k, s in ipairs(c.sources) do goals[k] = { x = s.x, y = s.y } end
      for y = 1, c.h do
        for x = 1, c.w do
          if c.grid:isWalkable(x, y) and seed % 2 == 0 and not c.sources[1].value then
            local path, cost = c.grid:findPath(x, y, goals, opts)
            local d = map:get(x, y)
            if path and d then assert.is_true(close(cost, d)) end
          end
        end
      end
    end
  end)

  it("leave out walls and sources on them; a blocked cell is a start cell", function()
    local g = astar.fromString("..#\n...")
    local map = g:distanceMap({ { x = 3, y = 1 }, { x = 1, y = 2 } },
      { blocked = { { x = 2, y = 2 } }, diagonal = "never" })
    -- issue 24: the wall source is a start cell, west to (2, 1)
    assert.are.equal(3, map:get(3, 1))
    assert.are.same({ 2, 1 }, { map:nextStep(3, 1) })
    -- blocked: never entered, but a walk starting there steps west onto the source
    assert.are.equal(1, map:get(2, 2))
    assert.are.same({ 1, 2 }, { map:nextStep(2, 2) })
    assert.are.equal(2, map:nearest(2, 2))
    assert.are.equal(3, map:size())   -- the start cell is not one of the map's cells
    assert.are.equal(1, map:get(1, 1))
    assert.is_nil(map:get(3, 2))   -- cut off: its way out is through the blocked cell
    assert.are.equal(2, map:nearest(2, 1))
    local empty = g:distanceMap({})
    assert.are.equal(0, empty:size())
    assert.is_nil(empty:get(1, 1))
  end)

  it("return paths in findPath's forms", function()
    local g = astar.fromString("....\n....")
    local map = g:distanceMap({ { x = 1, y = 1 } }, { diagonal = "never" })
    local path, cost = map:pathFrom(3, 1)
    assert.are.same({ { x = 3, y = 1 }, { x = 2, y = 1 }, { x = 1, y = 1 } }, path)
    assert.are.equal(2, cost)
    assert.are.same({ 3, 1, 2, 1, 1, 1 }, (map:pathFrom(3, 1, { flat = true })))
    local into = { 9, 9, 9, 9, 9, 9, 9, 9 }
    local got = map:pathFrom(2, 1, { flat = true, into = into })
    assert.are.equal(into, got)
    assert.are.same({ 2, 1, 1, 1 }, into)
    local pts = { { x = 0, y = 0, keep = true }, 5, 6 }
    map:pathFrom(2, 1, { into = pts })
    assert.are.same({ { x = 2, y = 1, keep = true }, { x = 1, y = 1 } }, pts)
    assert.are.same({ 2, 1 }, { map:nextStep(3, 1) })
    -- ties: east before west before south before north
    local g2 = astar.fromString("...\n...\n...")
    local m2 = g2:distanceMap({ { x = 1, y = 1 }, { x = 3, y = 3 } }, { diagonal = "never" })
    assert.are.same({ 2, 1 }, { m2:nextStep(3, 1) })   -- W (2,1) and S (3,2) tie: W first
    assert.are.same({ 3, 2 }, { m2:nextStep(2, 2) })   -- E, W, S and N tie: E first
  end)

  it("fill cells(into) in place", function()
    local g = astar.fromString("..\n#.")
    local map = g:distanceMap({ { x = 2, y = 2 } })
    local into = { { x = 0, y = 0, keep = 1 }, 1, 2, 3, 4, 5 }
    assert.are.equal(into, map:cells(into))
    assert.are.equal(3, #into)
    assert.are.equal(1, into[1].keep)
    assert.are.same({ 1, 1 }, { into[1].x, into[1].y })
  end)

  it("are snapshots, and update recomputes them in place", function()
    for seed = 1, 30 do
      local c = generate(seed)
      local map = c.grid:distanceMap(c.sources, c.opts)
      local before = map:cells()
      for y = 1, c.h, 2 do c.grid:setWalkable(1, y, false) end
      c.grid:setCost(c.w, c.h, 3)
      assert.are.same(before, map:cells())
      assert.are.equal(map, map:update(c.grid))
      local fresh = c.grid:distanceMap(c.sources, c.opts)
      assert.are.same(fresh:cells(), map:cells())
      for y = 1, c.h do
        for x = 1, c.w do
          assert.are.same({ fresh:nextStep(x, y) }, { map:nextStep(x, y) })
        end
      end
    end
  end)
end)

describe("flee and blend", function()
  it("flee is -k times the map, rescanned", function()
    for seed = 1, 60 do
      local c = generate(seed)
      local map = c.grid:distanceMap(c.sources, c.opts)
      local ref = D.distance(c.board, c.mode, c.sources, c.maxCost)
      local k = seed % 2 == 0 and 1.2 or 2
      local f = seed % 2 == 0 and map:flee() or map:flee(2)
      local start = {}
      for i, d in pairs(ref.dist) do start[i] = -k * d end
      check_rescanned(c, f, D.rescan(c.board, c.mode, start), start)
    end
  end)

  it("blend is the weighted sum, rescanned on request", function()
    for seed = 1, 60 do
      local c = generate(seed)
      local other = { { x = c.sources[1].y % c.w + 1, y = c.sources[1].x % c.h + 1 } }
      local a = c.grid:distanceMap(c.sources, c.opts)
      local b = c.grid:distanceMap(other, c.opts)
      local ra = D.distance(c.board, c.mode, c.sources, c.maxCost)
      local rb = D.distance(c.board, c.mode, other, c.maxCost)
      local wa, wb = 1, (seed % 3) - 1.5
      local sum = {}
      for i, d in pairs(ra.dist) do
        if rb.dist[i] then sum[i] = wa * d + wb * rb.dist[i] end
      end
      local plain = astar.blend({ a, wa, b, wb })
      local count = 0
      for y = 1, c.h do
        for x = 1, c.w do
          local i = cell(c.w, x, y)
          local got = plain:get(x, y)
          if sum[i] == nil then
            assert.is_nil(got)
          else
            count = count + 1
            assert.is_true(close(got, sum[i]))
            -- not rescanned: the steepest step down, if any
            local best, bx, by = sum[i], nil, nil
            for _, d in ipairs(D.DIRS) do
              local u = cell(c.w, x + d[1], y + d[2])
              if x + d[1] >= 1 and x + d[1] <= c.w and y + d[2] >= 1 and y + d[2] <= c.h
                and sum[u] and D.step_ok(c.board, c.mode, x, y, d[1], d[2]) then
                local v = sum[u] + D.step_cost(c.board, x, y, d[1], d[2])
                if v < best and not close(v, best) then best, bx, by = v, x + d[1], y + d[2] end
              end
            end
            local nx, ny = plain:nextStep(x, y)
            if bx == nil or by == nil then
              if nx then
                local v = sum[cell(c.w, nx, ny)] + D.step_cost(c.board, x, y, nx - x, ny - y)
                assert.is_true(close(v, sum[i]) or v < sum[i])
              end
            else
              local v = sum[cell(c.w, nx, ny)] + D.step_cost(c.board, x, y, nx - x, ny - y)
              assert.is_true(close(v, best))
            end
          end
        end
      end
      assert.are.equal(count, plain:size())
      local rescanned = astar.blend({ a, wa, b, wb }, { rescan = true })
      check_rescanned(c, rescanned, D.rescan(c.board, c.mode, sum), sum)
    end
  end)
end)

-- A generated case built again on another backend's module (astar.core or astar.pure).
local function rebuild(mod, c)
  local g = mod.new(c.w, c.h)
  for y = 1, c.h do
    for x = 1, c.w do
      g:setWalkable(x, y, c.grid:isWalkable(x, y))
      g:setCost(x, y, c.grid:getCost(x, y))
    end
  end
  return g
end

describe("encoded distance maps", function()
  it("decode to the same map, and encode again to the same bytes", function()
    for seed = 1, 40 do
      local c = generate(seed)
      local map = c.grid:distanceMap(c.sources, c.opts)
      for _, m in ipairs { map, map:flee(), astar.blend({ map, 2 }) } do
        local s = m:encode()
        local d = astar.decodeMap(s)
        assert.are.equal(s, d:encode())
        assert.are.same(m:cells(), d:cells())
        assert.are.equal(m:size(), d:size())
        for y = 1, c.h do
          for x = 1, c.w do
            assert.are.same({ m:nextStep(x, y) }, { d:nextStep(x, y) })
            assert.are.equal(m:nearest(x, y), d:nearest(x, y))
          end
        end
      end
    end
  end)

  it("are the same bytes on both backends, each reading the other's", function()
    local pure = require "astar.pure"
    local ok, core = pcall(require, "astar.core")
    if not ok then return end   -- no C module: nothing to compare with
    for seed = 1, 30 do
      local c = generate(seed)
      local opts = { diagonal = c.mode, maxCost = c.maxCost }
      local a = rebuild(core, c):distanceMap(c.sources, opts)
      local b = rebuild(pure, c):distanceMap(c.sources, opts)
      assert.are.equal(a:encode(), b:encode())
      assert.are.equal(a:flee():encode(), b:flee():encode())
      assert.are.same(a:cells(), pure.decodeMap(a:encode()):cells())
      assert.are.same(b:cells(), core.decodeMap(b:encode()):cells())
    end
  end)

  -- A plain C map holds the grid's costs and derives the cells its run looked at
  -- when it encodes (issue 24's speed): sources off the map (above maxCost, on a
  -- wall) and the cells around repaired edits are where that could go wrong.
  it("are the same bytes on both backends with sources off the map, after updates", function()
    local pure = require "astar.pure"
    local ok, core = pcall(require, "astar.core")
    if not ok then return end   -- no C module: nothing to compare with
    local rows = "..#.....#...\n.#..3...#.#.\n...##.....#.\n.2.#..#.....\n....#...##..\n"
      .. "#.....#.....\n..#..2..#..#"
    local sources = { { x = 1, y = 1 }, { x = 8, y = 1, value = 50 }, { x = 3, y = 1 },
      { x = 11, y = 7, value = 1 }, { x = 12, y = 7, value = 50 } }
    for _, opts in ipairs({ { maxCost = 6 }, { maxCost = 6, diagonal = "never" },
      { maxCost = 5, diagonal = "always" }, {} }) do
      local a, b = core.fromString(rows), pure.fromString(rows)
      local ma, mb = a:distanceMap(sources, opts), b:distanceMap(sources, opts)
      assert.are.equal(ma:encode(), mb:encode())
      assert.are.equal(ma:flee():encode(), mb:flee():encode())
      for _, xy in ipairs({ { 2, 1 }, { 3, 1 }, { 5, 3 }, { 12, 6 } }) do
        local walkable = not a:isWalkable(xy[1], xy[2])
        a:setWalkable(xy[1], xy[2], walkable)
        b:setWalkable(xy[1], xy[2], walkable)
        ma:update(a)
        mb:update(b)
        assert.are.equal(a:distanceMap(sources, opts):encode(), ma:encode())
        assert.are.equal(ma:encode(), mb:encode())
      end
    end
  end)

  it("survive corrupted bytes with a good checksum: an error or a usable map", function()
    local EN = require "astar.pure.encode"
    local function seal(body)
      local h = EN.adler32(body, 1, #body)
      return body .. EN.le(h, 4)
    end
    local g = astar.fromString("..#..\n.2...\n...#.")
    local maps = { g:distanceMap({ { x = 1, y = 1 }, { x = 5, y = 3, value = 2 } }) }
    maps[2] = maps[1]:flee()
    local rnd = R.rng(77)
    local accepted = 0
    for round = 1, 600 do
      local s = maps[round % 2 + 1]:encode()
      local body = s:sub(1, -5)
      local bytes = { body:byte(1, -1) }
      for _ = 1, rnd.int(1, 3) do
        local i = rnd.int(9, #bytes)
        bytes[i] = rnd.int(0, 255)
      end
      local forged = seal(string.char((unpack or table.unpack)(bytes))) -- luacheck: ignore 143
      local ok, m = pcall(astar.decodeMap, forged)
      if ok then
        local w, h = m:getDimensions()
        for y = 1, h do
          for x = 1, w do
            m:get(x, y)
            m:nextStep(x, y)
            m:nearest(x, y)
            local path = m:pathFrom(x, y)
            assert.is_true(path == nil or #path <= m:size() + 1)
          end
        end
        m:cells()
        assert.are.equal(m:size(), astar.decodeMap(m:encode()):size())
        accepted = accepted + 1
      else
        assert.are.equal("bad argument #1 to 'decodeMap' (not an astar distance map: ",
          m:sub(1, 59))
      end
    end
    assert.is_true(accepted > 100, "most forged maps decode: " .. accepted)
  end)

  it("refuse what is not a map", function()
    local g = astar.new(3, 2)
    local s = g:distanceMap({ { x = 1, y = 1 } }):encode()
    local function bad(msg) return "bad argument #1 to 'decodeMap' (not an astar distance map: "
      .. msg .. ")" end
    E.check_error("bad argument #1 to 'decodeMap' (string expected, got nil)", astar.decodeMap, nil)
    E.check_error(bad("bad magic or too short"), astar.decodeMap, "ASTARDMP")
    E.check_error(bad("bad checksum"), astar.decodeMap, s:sub(1, -2) .. "x")
    E.check_error(bad("truncated"), astar.decodeMap, s:sub(1, 40))
    E.check_error(bad("unknown format version"), astar.decodeMap, s:sub(1, 8) .. "\3" .. s:sub(10))
    local ruled = g:distanceMap({ { x = 1, y = 1 } }, { blocked = { [6] = true } })
    E.check_error("calling 'update' on a decoded map that was made with rules",
      function() return astar.decodeMap(ruled:encode()):update(g) end)
    local plain = astar.decodeMap(s)
    g:setWalkable(2, 1, false)
    assert.are.equal(plain, plain:update(g))
    assert.are.equal(1, plain:get(2, 1))   -- issue 24: a start cell
    assert.are.equal(5, plain:size())
  end)
end)

describe("distance map callbacks", function()
  it("pass a callback's error on unchanged", function()
    local g = astar.new(4, 4)
    E.check_error("boom", g.distanceMap, g, { { x = 1, y = 1 } },
      { cost = function() error("boom", 0) end })
  end)

  it("stop when a callback closes the grid", function()
    local g = astar.new(4, 4)
    E.check_error("grid closed during distanceMap", g.distanceMap, g, { { x = 1, y = 1 } },
      { blocked = function() getmetatable(g).__close(g) end })
  end)

  it("start again when a callback changes the grid", function()
    local g = astar.new(4, 1)
    local done = false
    local map = g:distanceMap({ { x = 1, y = 1 } }, { blocked = function()
      if not done then
        done = true
        g:setWalkable(3, 1, false)
      end
      return false
    end })
    assert.are.equal(2, map:get(3, 1))   -- issue 24: a start cell
    assert.is_nil(map:get(4, 1))
    assert.are.equal(1, map:get(2, 1))
  end)

  it("refuse to read a map while update fills it", function()
    local g = astar.new(3, 3)
    local map
    map = g:distanceMap({ { x = 1, y = 1 } }, { cost = function()
      if map then map:get(1, 1) end
      return 1
    end })
    E.check_error("calling 'get' on a distance map that is being computed", map.update, map, g)
    assert.are.equal(0, map:size())
    map = nil
  end)

  it("survive callbacks that collect garbage, drop maps and close the grid in update", function()
    local g = astar.new(6, 6)
    local made = 0
    local map = g:distanceMap({ { x = 1, y = 1 } }, { cost = function(x, y)
      made = made + 1
      local tmp = g:distanceMap({ { x = x, y = y } })   -- dropped at once
      tmp:flee()
      collectgarbage()
      return 1
    end })
    assert.are.equal(36, map:size())
    assert.is_true(made > 0)
    local closing = false
    local m2 = g:distanceMap({ { x = 1, y = 1 } }, { blocked = function()
      if closing then getmetatable(g).__close(g) end
      return false
    end })
    closing = true
    E.check_error("grid closed during update", m2.update, m2, g)
    assert.are.equal(0, m2:size())   -- an update that fails leaves the map empty
    assert.is_nil(m2:get(1, 1))
  end)

  it("pass an error from update's callback on, leaving the map empty", function()
    local g = astar.new(3, 3)
    local fail = false
    local map = g:distanceMap({ { x = 2, y = 2 } }, { cost = function()
      if fail then error({ code = 7 }) end
      return 2
    end })
    local before = map:get(1, 1)
    assert.is_true(close(2 * math.sqrt(2), before))   -- one diagonal step into a cell of cost 2
    fail = true
    local ok, err = pcall(map.update, map, g)
    assert.is_false(ok)
    assert.are.same({ code = 7 }, err)
    assert.are.equal(0, map:size())
    fail = false
    map:update(g)
    assert.are.equal(before, map:get(1, 1))
  end)

  it("update uses only the map's own rules (not a Lua 5.1 environment's [1], [2])", function()
    local g = astar.new(3, 3)
    local map = g:distanceMap({ { x = 1, y = 1 } }, { diagonal = "never" })
    _G[1], _G[2] = function() return true end, function() return 5 end
    local ok, err = pcall(map.update, map, g)
    _G[1], _G[2] = nil, nil
    assert(ok, err)
    assert.are.equal(9, map:size())
    assert.are.equal(4, map:get(3, 3))
  end)

  it("may query from a callback", function()
    local g = astar.new(3, 3)
    local map = g:distanceMap({ { x = 1, y = 1 } }, { cost = function(x, y)
      return g:distanceMap({ { x = x, y = y } }):size() > 0 and 1 or 2
    end })
    assert.are.equal(4, map:get(3, 3) > 0 and 4)
    assert.are.equal(9, map:size())
  end)
end)

describe("distance map errors", function()
  local g = astar.fromString(".....\n.....\n.....\n.....")
  local map = g:distanceMap({ { x = 1, y = 1 } })
  local dm = function(...) return g:distanceMap(...) end
  local function bad(n, msg) return ("bad argument #%d to 'distanceMap' (%s)"):format(n, msg) end

  it("name the argument and the field", function()
    E.check_error(bad(1, "table expected, got no value"), g.distanceMap, g)
    E.check_error(bad(1, "sources[1]: point expected, got number"), dm, { 5 })
    E.check_error(bad(1, "sources[1].y: number expected, got nil"), dm, { { x = 1 } })
    E.check_error(bad(1, "sources[2].x out of range 1..5, got 1.5"), dm,
      { { x = 1, y = 1 }, { x = 1.5, y = 1 } })
    E.check_error(bad(1, "sources[1].y out of range 1..4, got 5"), dm, { { x = 1, y = 5 } })
    E.check_error(bad(1, "sources[1].value: number expected, got string"), dm,
      { { x = 1, y = 1, value = "a" } })
    E.check_error(bad(1, "sources[1].value must be finite, got inf"), dm,
      { { x = 1, y = 1, value = math.huge } })
    E.check_error(bad(2, "table expected, got number"), dm, {}, 5)
    E.check_error(bad(2, "unknown option 'foo'"), dm, {}, { foo = 1 })
    E.check_error(bad(2, "opts.diagonal: unknown diagonal mode 'x'; expected never, always, "
      .. "one-obstacle or no-obstacles"), dm, {}, { diagonal = "x" })
    E.check_error(bad(2, "opts.maxCost: number expected, got string"), dm, {}, { maxCost = "a" })
    E.check_error(bad(2, "opts.maxCost: number expected, got nan"), dm, {}, { maxCost = 0 / 0 })
    E.check_error(bad(2, "opts.cost: function or table expected, got number"), dm, {},
      { cost = 5 })
    E.check_error(bad(2, "opts.blocked[1].y: number expected, got nil"), dm, {},
      { blocked = { { x = 1 } } })
    E.check_error(bad(2, "opts.cost gave 0 for (1, 1); expected a positive number up to 1e15, "
      .. "nil, false or math.huge"), dm, { { x = 1, y = 1 } }, { cost = function() return 0 end })
  end)

  it("in the methods", function()
    E.check_error("calling 'get' on bad self (astar.DistanceMap expected, got no value)", map.get)
    E.check_error("calling 'size' on bad self (astar.DistanceMap expected, got number)",
      map.size, 5)
    E.check_error("bad argument #1 to 'get' (number expected, got string)", map.get, map, "a", 1)
    E.check_error("bad argument #2 to 'nextStep' (number expected, got no value)",
      map.nextStep, map, 1)
    E.check_error("bad argument #1 to 'flee' (k must be a finite number > 0, got 0)",
      map.flee, map, 0)
    E.check_error("bad argument #1 to 'flee' (number expected, got string)", map.flee, map, "a")
    E.check_error("bad argument #3 to 'pathFrom' (unknown option 'foo')", map.pathFrom, map,
      1, 1, { foo = 1 })
    E.check_error("bad argument #1 to 'cells' (table expected, got number)", map.cells, map, 5)
    E.check_error("bad argument #1 to 'update' (astar.Grid expected, got number)",
      map.update, map, 5)
    E.check_error("bad argument #1 to 'update' (grid is 3x3, the map 5x4)", map.update, map,
      astar.new(3, 3))
    E.check_error("calling 'update' on a map made by flee or blend", map.update, map:flee(), g)
    assert.is_nil(map:get(0, 1))
    assert.is_nil(map:get(1.5, 1))
    assert.is_nil(map:get(6, 1))
  end)

  it("in blend", function()
    local small = astar.new(3, 3):distanceMap({})
    local function bad2(n, msg) return ("bad argument #%d to 'blend' (%s)"):format(n, msg) end
    E.check_error(bad2(1, "table expected, got number"), astar.blend, 5)
    E.check_error(bad2(1, "{map, weight, ...} expected, got 0 entries"), astar.blend, {})
    E.check_error(bad2(1, "{map, weight, ...} expected, got 1 entries"), astar.blend, { map })
    E.check_error(bad2(1, "[2]: weight expected, got string"), astar.blend, { map, "a" })
    E.check_error(bad2(1, "[1]: astar.DistanceMap expected, got number"), astar.blend, { 5, 1 })
    E.check_error(bad2(1, "[3]: map is 3x3, [1] is 5x4"), astar.blend, { map, 1, small, 1 })
    E.check_error(bad2(1, "[2]: weight must be finite, got inf"), astar.blend, { map, 1 / 0 })
    E.check_error(bad2(2, "unknown option 'foo'"), astar.blend, { map, 1 }, { foo = true })
    E.check_error(bad2(2, "opts.rescan: boolean expected, got number"), astar.blend, { map, 1 },
      { rescan = 1 })
  end)
end)
