-- Specs for astar.tactics in 8 directions (opts.diagonal) and the attack
-- metrics (opts.metric): hand-drawn corners, then generated boards with
-- units against the independent reference (spec/helpers/tactics_reference.lua).
local astar = require "astar"
require "astar.tactics"
local ref = require "helpers.tactics_reference"

local MODES = { "never", "always", "one-obstacle", "no-obstacles" }
local METRICS = { "manhattan", "chebyshev", "euclidean" }
local SQRT2 = math.sqrt(2)

local function close(a, b) return math.abs(a - b) <= 1e-9 * math.max(1, math.abs(b)) end

-- A generated board: walls, terrain 2 and 3, and per cell a mark (1 enemy,
-- 2 ally, 3 zone of control, else nothing).
local function generate(seed)
  local rnd = ref.rng(seed)
  local w, h = 5 + rnd(8), 4 + rnd(7)
  local m = { w = w, h = h, wall = {}, cost = {}, marks = {} }
  local rows = {}
  for y = 1, h do
    m.wall[y], m.cost[y], m.marks[y] = {}, {}, {}
    local t = {}
    for x = 1, w do
      local r = rnd(20)
      if r <= 4 then
        m.wall[y][x], t[x] = true, "#"
      elseif r <= 6 then
        m.cost[y][x], t[x] = r - 3, tostring(r - 3)
      else
        t[x] = "."
      end
      m.marks[y][x] = rnd(12)
    end
    rows[y] = table.concat(t)
  end
  m.grid = astar.fromString(table.concat(rows, "\n"))
  return m, rnd
end

-- The rules of a board's marks, as functions; and the same as sets.
local function unitRules(m)
  local mk = m.marks
  return {
    blocked = function(x, y) return mk[y][x] == 1 end,
    occupied = function(x, y) return mk[y][x] == 2 end,
    zoc = function(x, y) return mk[y][x] == 3 end,
  }
end

local function asSets(m, rl)
  local sets = { cost = rl.cost }
  for _, name in ipairs({ "blocked", "occupied", "zoc" }) do
    if rl[name] then
      sets[name] = {}
      for y = 1, m.h do
        for x = 1, m.w do
          if rl[name](x, y) then sets[name][(y - 1) * m.w + x] = true end
        end
      end
    end
  end
  return sets
end

-- Checks range:pathTo(x, y) against the rules: from the start, one king's
-- move at a time (orthogonal only with "never"), every corner allowed by
-- the mode, never through a ZOC cell, step costs summing to costTo.
local function checkPath(m, range, sx, sy, x, y, mode, entry, zoc, label)
  local path = range:pathTo(x, y)
  assert.is_table(path, label)
  assert.same({ x = sx, y = sy }, path[1], label)
  assert.same({ x = x, y = y }, path[#path], label)
  local function wall(cx, cy)
    if cx < 1 or cy < 1 or cx > m.w or cy > m.h or m.wall[cy][cx] then return true end
    return not (cx == sx and cy == sy) and entry(cx, cy) == math.huge
  end
  local sum = 0
  for i = 2, #path do
    local a, b = path[i - 1], path[i]
    local dx, dy = b.x - a.x, b.y - a.y
    assert.is_true(math.max(math.abs(dx), math.abs(dy)) == 1, label)
    if i > 2 and zoc then assert.is_falsy(zoc(a.x, a.y), label) end
    local e = entry(b.x, b.y)
    assert.is_true(e < math.huge, label)
    if dx ~= 0 and dy ~= 0 then
      assert.are_not.equal("never", mode, label)
      local walls = (wall(a.x + dx, a.y) and 1 or 0) + (wall(a.x, a.y + dy) and 1 or 0)
      if mode == "one-obstacle" then assert.is_true(walls < 2, label) end
      if mode == "no-obstacles" then assert.equal(0, walls, label) end
      sum = sum + SQRT2 * e
    else
      sum = sum + e
    end
  end
  assert.is_true(close(sum, range:costTo(x, y)), label)
end

describe("movementRange in 8 directions", function()
  -- 'o' where the range holds a stop cell, '#' on walls, '.' elsewhere
  local function picture(grid, range, w, h)
    local out = {}
    for y = 1, h do
      local t = {}
      for x = 1, w do
        t[x] = range:contains(x, y) and "o" or (grid:isWalkable(x, y) and "." or "#")
      end
      out[y] = table.concat(t)
    end
    return table.concat(out, "\n")
  end

  it("applies the corner rule of each mode to walls", function()
    -- the unit at (1, 1), move 2.5: (3, 2) lies between two walls, (2, 3)
    -- past one; a diagonal step costs 1.414
    local grid = astar.fromString("..#\n.#.\n...")
    local want = {
      never = "oo#\no#.\no..",
      always = "oo#\no#o\noo.",
      ["one-obstacle"] = "oo#\no#.\noo.",
      ["no-obstacles"] = "oo#\no#.\no..",
    }
    for _, mode in ipairs(MODES) do
      local r = grid:movementRange(1, 1, 2.5, { diagonal = mode })
      assert.equal(want[mode], picture(grid, r, 3, 3), mode)
    end
  end)

  it("treats blocked and impassable cells as walls for corners, allies and ZOC as open", function()
    -- S at (1, 1); E (blocked) at (2, 1), A (ally) at (1, 2): the step to
    -- (2, 2) has one obstacle; with a cost rule making (1, 2) impassable too, two
    local grid = astar.new(2, 2)
    local function at(x0, y0) return function(x, y) return x == x0 and y == y0 end end
    local function reach(mode, opts)
      opts.diagonal = mode
      return grid:movementRange(1, 1, 1.5, opts):contains(2, 2)
    end
    assert.is_true(reach("always", { blocked = at(2, 1), cost = function(x, y)
      if x == 1 and y == 2 then return nil end
      return 1
    end }))
    assert.is_true(reach("one-obstacle", { blocked = at(2, 1), occupied = at(1, 2) }))
    assert.is_false(reach("no-obstacles", { blocked = at(2, 1), occupied = at(1, 2) }))
    assert.is_true(reach("no-obstacles", { occupied = at(2, 1), zoc = at(1, 2) }))
    assert.is_false(reach("one-obstacle", { blocked = at(2, 1), cost = function(x, y)
      if x == 1 and y == 2 then return math.huge end
      return 1
    end }))
    assert.is_false(reach("one-obstacle", { blocked = { [2] = true, [3] = true } }))
    assert.is_true(reach("one-obstacle", { blocked = { [2] = true } }))
  end)

  it("costs sqrt(2) times the entered cell's cost on a diagonal step", function()
    local r = astar.fromString("22\n22"):movementRange(1, 1, 10, { diagonal = "always" })
    assert.equal(SQRT2 * 2, r:costTo(2, 2))
    assert.equal(2, r:costTo(2, 1))
    local grid = astar.fromString("...\n.3.\n...")   -- a hill in the middle
    r = grid:movementRange(1, 1, 10, { diagonal = "always" })
    assert.equal(4, r:costTo(2, 2))                  -- 1 + 3 beats 3 * 1.414
    assert.is_true(close(r:costTo(3, 3), 2 + SQRT2))  -- round the hill, one diagonal
    local path = r:pathTo(3, 3)
    assert.equal(4, #path)
    assert.same({ x = 3, y = 3 }, path[4])
  end)

  it("asks each rule at most once per cell, and never about cells a corner closes", function()
    local m = generate(7)
    for _, mode in ipairs(MODES) do
      local asked = {}
      local function count(name)
        return function(x, y)
          local k = name .. ":" .. x .. "," .. y
          asked[k] = (asked[k] or 0) + 1
          return m.marks[y][x] == (name == "blocked" and 1 or name == "occupied" and 2 or 3)
        end
      end
      local sx, sy = 1, 1
      while m.wall[sy][sx] do sx = sx + 1 if sx > m.w then sx, sy = 1, sy + 1 end end
      local r = m.grid:movementRange(sx, sy, 6, { diagonal = mode, blocked = count("blocked"),
        occupied = count("occupied"), zoc = count("zoc"), cost = function() return 1 end })
      assert.is_true(r:size() >= 1)
      local n = 0
      for k, c in pairs(asked) do
        n = n + 1
        assert.equal(1, c, mode .. " " .. k)
      end
      assert.is_true(n > 0)
    end
  end)
end)

describe("8 directions and metrics against the reference on generated boards", function()
  it("agrees on costs, stop cells, size, cells and paths in every mode #slow", function()
    for seed = 1, 40 do
      local m, rnd = generate(seed)
      local sx, sy = rnd(m.w), rnd(m.h)
      local move = rnd(8) - 1 + (seed % 4 == 0 and 0.5 or 0)
      local rl = seed % 3 ~= 0 and unitRules(m) or {}
      if seed % 5 == 0 then   -- a flier that cannot cross x = 3 (impassable, not a wall)
        rl.cost = function(x, y)
          if x == 3 then return nil end
          return (x + y) % 3 == 0 and 0.5 or 1.25
        end
      end
      local opts = seed % 2 == 0 and asSets(m, rl) or {}
      if seed % 2 ~= 0 then for k, v in pairs(rl) do opts[k] = v end end
      local entry = function(x, y)
        if m.wall[y][x] then return math.huge end
        if rl.blocked and rl.blocked(x, y) then return math.huge end
        if rl.cost then return rl.cost(x, y) or math.huge end
        return m.cost[y][x] or 1
      end
      for _, mode in ipairs(MODES) do
        local label = ("seed %d %s"):format(seed, mode)
        opts.diagonal = mode
        local dist, stop = ref.movement(m, sx, sy, move, rl, mode)
        local r = m.grid:movementRange(sx, sy, move, opts)
        local nstop = 0
        for y = 1, m.h do
          for x = 1, m.w do
            local want, got = dist[y][x], r:costTo(x, y)
            local at = ("%s (%d,%d)"):format(label, x, y)
            if want == nil then
              assert.is_nil(got, at)
            else
              assert.is_true(got ~= nil and close(got, want), at .. ": " .. tostring(got) .. " vs " .. want)
            end
            assert.equal(stop[y][x] == true, r:contains(x, y), at)
            if stop[y][x] then
              nstop = nstop + 1
              checkPath(m, r, sx, sy, x, y, mode, entry, rl.zoc, at)
            end
          end
        end
        assert.equal(nstop, r:size(), label)
        assert.equal(nstop, #r:cells(), label)
      end
    end
  end)

  it("agrees on attack areas for every metric, with and without line of sight", function()
    for seed = 1, 30 do
      local m, rnd = generate(seed + 50)
      local sx, sy = rnd(m.w), rnd(m.h)
      local mode = MODES[seed % 4 + 1]
      local move = rnd(4) - 1
      local rl = unitRules(m)
      local _, stop = ref.movement(m, sx, sy, move, rl, mode)
      local r = m.grid:movementRange(sx, sy, move, { diagonal = mode, blocked = rl.blocked,
        occupied = rl.occupied, zoc = rl.zoc })
      for _, metric in ipairs(METRICS) do
        local lo = rnd(3) - 1
        local hi = lo + rnd(4) - 1
        local sight = seed % 3 == 0 or nil
        local a = m.grid:attackRange(r, lo, hi, { lineOfSight = sight, metric = metric })
        local los = sight and function(fx, fy, tx, ty) return ref.lineOfSight(m, fx, fy, tx, ty) end
        local hit = ref.attack(m, stop, lo, hi, los, metric)
        local n = 0
        for y = 1, m.h do
          for x = 1, m.w do
            assert.equal(hit[y][x] == true, a:contains(x, y),
              ("seed %d %s %d..%d (%d,%d)"):format(seed, metric, lo, hi, x, y))
            if hit[y][x] then n = n + 1 end
          end
        end
        assert.equal(n, a:size())
        assert.equal(n, #a:cells())
      end
    end
  end)

  it("draws exact reach shapes: a square, a disc and a Euclidean ring", function()
    local grid = astar.new(11, 11)
    local r = grid:movementRange(6, 6, 0)
    local function count(metric, lo, hi)
      return grid:attackRange(r, lo, hi, { metric = metric }):size()
    end
    assert.equal(25, count("chebyshev", 0, 2))
    assert.equal(16, count("chebyshev", 2, 2))
    assert.equal(13, count("euclidean", 0, 2))      -- |d|^2 <= 4
    assert.equal(12, count("euclidean", 5, 5))      -- (0,5), (3,4), (4,3) in every quadrant
    assert.equal(13, count("manhattan", 0, 2))
    assert.equal(121, count("chebyshev", 0, 1e9))   -- past the grid: everything
    assert.is_true(grid:attackRange(r, 5, 5, { metric = "euclidean" }):contains(9, 10))
    assert.is_false(grid:attackRange(r, 5, 5, { metric = "euclidean" }):contains(10, 10))
  end)

  it("agrees on danger zones with diagonal and metric in opts and per enemy", function()
    for seed = 1, 15 do
      local m, rnd = generate(seed + 200)
      local blocked = function(x, y) return m.marks[y][x] == 1 end
      local shared = { diagonal = MODES[seed % 4 + 1], metric = METRICS[seed % 3 + 1] }
      local enemies, want = {}, {}
      for i = 1, 1 + rnd(4) do
        local lo = rnd(3) - 1
        local e = { x = rnd(m.w), y = rnd(m.h), move = rnd(4) - 1, minRange = lo,
          maxRange = lo + rnd(3) - 1 }
        if rnd(2) == 1 then e.diagonal = MODES[rnd(4)] end
        if rnd(2) == 1 then e.metric = METRICS[rnd(3)] end
        enemies[i] = e
      end
      for y = 1, m.h do want[y] = {} for x = 1, m.w do want[y][x] = 0 end end
      for _, e in ipairs(enemies) do
        local _, stop = ref.movement(m, e.x, e.y, e.move, { blocked = blocked },
          e.diagonal or shared.diagonal)
        local hit = ref.attack(m, stop, e.minRange, e.maxRange, nil, e.metric or shared.metric)
        for y = 1, m.h do for x = 1, m.w do
          if hit[y][x] then want[y][x] = want[y][x] + 1 end
        end end
      end
      local z = m.grid:dangerZone(enemies, { blocked = blocked, diagonal = shared.diagonal,
        metric = shared.metric })
      local n = 0
      for y = 1, m.h do
        for x = 1, m.w do
          assert.equal(want[y][x], z:count(x, y), ("seed %d (%d,%d)"):format(seed, x, y))
          if want[y][x] > 0 then n = n + 1 end
        end
      end
      assert.equal(n, z:size())
    end
  end)
end)
