-- Jump tables (issue 22): the C core's jump point search reads where its diagonal
-- (4 directions: vertical) jumps stop from tables the grid keeps, brought up to date
-- after setWalkable before the next query (src/core/jumps.c). The answers must not
-- change: every cost equals an independent Dijkstra's (spec/helpers/reference.lua)
-- while walls come and go between queries, a few at a time (the tables are applied
-- before the query) and in bursts (the query scans as plain jump point search, then
-- a calm query applies them all). The pure backend keeps plain jump point search;
-- both backends give the same paths cell by cell, so the tables change no tie.
-- Goal lists, near and stepped searches keep plain jump point search.
local astar = require "astar"
local R = require "helpers.reference"

local PURE = astar.backend ~= "c"
-- the other backend, to hold paths cell by cell against (the pure one always loads)
local other
if PURE then
  local ok, core = pcall(require, "astar.core")
  other = ok and core or nil
else
  other = require "astar.pure"
end

local function desc_of(grid, w, h)
  local walkable = {}
  for x = 1, w do
    walkable[x] = {}
    for y = 1, h do walkable[x][y] = grid:isWalkable(x, y) end
  end
  return { w = w, h = h, walkable = walkable }
end

-- Runs n queries on a random w x h grid, making `edits(rng)` random setWalkable
-- calls before each (at `where(rng, w, h)`, anywhere by default); checks each cost
-- against Dijkstra on the grid as it is, each path step by step, and each path
-- against the other backend's.
local function anywhere(rng, w, h) return 1 + math.floor(rng() * w), 1 + math.floor(rng() * h) end

local function sweep(seed, w, h, density, mode, n, edits, where)
  where = where or anywhere
  local rng = R.rng(seed).next
  local grid = astar.new(w, h)
  local twin = other and other.new(w, h)
  grid:setDiagonal(mode)
  if twin then twin:setDiagonal(mode) end
  local function set(x, y, v)
    grid:setWalkable(x, y, v)
    if twin then twin:setWalkable(x, y, v) end
  end
  for y = 1, h do
    for x = 1, w do
      if rng() < density then set(x, y, false) end
    end
  end
  local found = 0
  for _ = 1, n do
    for _ = 1, edits(rng) do
      local x, y = where(rng, w, h)
      set(x, y, rng() < 0.5)
    end
    local sx, sy = 1 + math.floor(rng() * w), 1 + math.floor(rng() * h)
    local gx, gy = 1 + math.floor(rng() * w), 1 + math.floor(rng() * h)
    local desc = desc_of(grid, w, h)
    local dist = R.dijkstra(desc, mode, sx, sy)
    local want = grid:isWalkable(gx, gy) and dist[gx] and dist[gx][gy] or nil
    local path, cost = grid:findPath(sx, sy, gx, gy)
    if want == nil then
      assert.is_nil(path, ("seed %d: (%d,%d)->(%d,%d) has no path"):format(seed, sx, sy, gx, gy))
    else
      assert.is_table(path, ("seed %d: (%d,%d)->(%d,%d) costs %s"):format(seed, sx, sy, gx, gy, want))
      assert.is_true(R.close(cost, want), ("seed %d: cost %s, Dijkstra %s"):format(seed, cost, want))
      assert.is_true(R.close(assert(R.validate(desc, mode, path, sx, sy, gx, gy)), cost))
      found = found + 1
      if twin then
        local flat = grid:findPath(sx, sy, gx, gy, { flat = true })
        local twin_flat = twin:findPath(sx, sy, gx, gy, { flat = true })
        assert.are.same(twin_flat, flat)
      end
    end
  end
  return found
end

local function few(rng) return math.floor(rng() * 4) end            -- applied before the query
local function burst(rng) return rng() < 0.5 and 0 or 12 end        -- stale, then applied
-- around the calm limit (jumps.h, 3): applied, or stale and applied by a later query
local function around(rng) return 2 + math.floor(rng() * 4) end
-- many at once: stale, then a calm query applies them all (up to the change
-- list's 64 on these grids) or rebuilds (past it)
local function flood(rng)
  local r = rng()
  return r < 0.4 and 0 or r < 0.7 and 50 or 100
end
-- edits on three rows and three columns: many changes on the same lines, and
-- cells changed more than once, before one refresh
local function lines(rng, w, h)
  local x, y = 1 + math.floor(rng() * w), 1 + math.floor(rng() * h)
  if rng() < 0.5 then
    return x, math.floor(h / 2) + math.floor(rng() * 3) - 1
  end
  return math.floor(w / 3) + math.floor(rng() * 3) - 1, y
end

describe("jump tables", function()
  for _, mode in ipairs({ "no-obstacles", "never" }) do
    it("keep every cost optimal with a few walls changed between queries (" .. mode .. ")", function()
      local found = 0
      for seed = 1, 6 do
        found = found + sweep(seed, 12 + seed * 5, 40 - seed * 3, 0.05 * seed, mode, 18, few)
      end
      assert.is_true(found > 40)
    end)

    it("keep every cost optimal with many changes between queries (" .. mode .. ")", function()
      local found = 0
      for seed = 21, 23 do
        found = found + sweep(seed, 24, 24, 0.12, mode, 10, around)
      end
      found = found + sweep(24, 32, 28, 0.1, mode, 12, flood)
      found = found + sweep(25, 30, 30, 0.1, mode, 12, flood, lines)
      found = found + sweep(26, 28, 26, 0.05, mode, 14, around, lines)
      assert.is_true(found > 40)
    end)

    it("keep every cost optimal through bursts of changes (" .. mode .. ")", function()
      local found = 0
      for seed = 11, 14 do
        found = found + sweep(seed, 30, 30, 0.15, mode, 18, burst)
      end
      assert.is_true(found > 25)
    end)
  end

  -- Long sweeps: larger open boards (long runs feed many stop bits per change),
  -- tens to hundreds of changes between queries.
  it("keep every cost optimal through long sweeps of many changes #slow", function()
    local found = 0
    for seed = 31, 36 do
      local mode = seed % 2 == 0 and "never" or "no-obstacles"
      local edits = seed < 34 and around or flood
      found = found + sweep(seed, 60, 50, 0.04 * (seed - 30), mode, 25, edits,
                            seed % 3 == 0 and lines or nil)
    end
    assert.is_true(found > 100)
  end)

  -- An open board: one wall placed in the open makes forced neighbours whose
  -- straight jumps reach across the board, so long diagonal runs must now stop.
  it("follow a wall placed and removed in the open (no-obstacles)", function()
    local w, h = 40, 40
    local grid = astar.new(w, h)
    local open = { w = w, h = h }
    local _, before = grid:findPath(1, 1, 40, 40)
    assert.is_true(R.close(before, 39 * R.SQRT2))
    grid:setWalkable(20, 20, false)
    local walled = desc_of(grid, w, h)
    local path, cost = grid:findPath(1, 1, 40, 40)
    assert.is_true(R.close(cost, R.dijkstra(walled, "no-obstacles", 1, 1)[40][40]))
    assert.is_true(cost > 39 * R.SQRT2 + 0.5)   -- the diagonal is cut: a detour
    assert.is_true(R.close(assert(R.validate(walled, "no-obstacles", path, 1, 1, 40, 40)), cost))
    local _, side = grid:findPath(5, 1, 40, 36)   -- a diagonal that passes it by
    assert.is_true(R.close(side, 35 * R.SQRT2))
    grid:setWalkable(20, 20, true)
    path, cost = grid:findPath(1, 1, 40, 40)
    assert.is_true(R.close(cost, 39 * R.SQRT2))
    assert.is_true(R.close(assert(R.validate(open, "no-obstacles", path, 1, 1, 40, 40)), cost))
  end)

  -- The goal lies on a row or column a diagonal run crosses before the tables
  -- would stop it: the run stops there, as plain jump point search does.
  it("stop diagonal runs where they cross the goal's row or column", function()
    local grid = astar.new(30, 30)
    for y = 1, 30 do grid:setWalkable(15, y, y > 28) end   -- a wall with a gap at the bottom
    for _, q in ipairs({ { 1, 1, 10, 25 }, { 1, 1, 25, 3 }, { 2, 28, 29, 29 }, { 29, 2, 3, 1 } }) do
      local desc = desc_of(grid, 30, 30)
      local dist = R.dijkstra(desc, "no-obstacles", q[1], q[2])
      local path, cost = grid:findPath(q[1], q[2], q[3], q[4])
      assert.is_true(R.close(cost, dist[q[3]][q[4]]))
      assert.is_true(R.close(assert(R.validate(desc, "no-obstacles", path, q[1], q[2], q[3], q[4])),
                             cost))
    end
  end)
end)
