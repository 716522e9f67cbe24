-- grid:firstBlocked(path [, from]) (issue 24), on the backend of the run (both
-- are run): checked against a reference written here that walks the path and
-- tests each cell from the grid's public getters (isWalkable, getDiagonal,
-- getMove, getLinks; hex neighbours from the cells' centres), on hand-made
-- cases and on random walks over random grids (fixed seeds), in both forms of
-- a path, after random walls, move overrides, links and diagonal modes.
local astar = require "astar"
local R = require "helpers.reference"
local HR = require "helpers.hex_reference"

-- The reference. pts: {x, y} pairs; w, h the grid's size; layout a hex
-- layout or nil. A point is blocked when it is not a cell of the grid, or a
-- wall; from the point before it (when that is on the grid), a step between
-- neighbours must be a move the grid allows (the corner rule of the grid's
-- mode, no override false, no diagonal in mode "never") unless a link joins
-- them; a step between cells that are not neighbours is judged by its cell.
local SIDES_NEEDED = { never = 3, always = 0, ["one-obstacle"] = 1, ["no-obstacles"] = 2 }

local function on_grid(w, h, x, y)
  return x == math.floor(x) and y == math.floor(y) and x >= 1 and y >= 1 and x <= w and y <= h
end

local function neighbours_of(grid, layout, w, h, x0, y0, x1, y1)
  if layout then
    for _, q in ipairs(HR.neighbours(layout, w, h, x0, y0)) do
      if q[1] == x1 and q[2] == y1 then return true end
    end
    return false
  end
  local dx, dy = x1 - x0, y1 - y0
  return math.abs(dx) <= 1 and math.abs(dy) <= 1 and (dx ~= 0 or dy ~= 0) and grid ~= nil
end

local function linked(grid, x0, y0, x1, y1)
  for _, l in ipairs(grid:getLinks(x0, y0)) do
    if l.x == x1 and l.y == y1 then return true end
  end
  return false
end

local function move_allowed(grid, layout, x0, y0, x1, y1)
  if grid:getMove(x0, y0, x1, y1) == false then return false end
  if layout or x0 == x1 or y0 == y1 then return true end
  local open_sides = (grid:isWalkable(x1, y0) and 1 or 0) + (grid:isWalkable(x0, y1) and 1 or 0)
  return open_sides >= SIDES_NEEDED[grid:getDiagonal()]
end

local function reference(grid, w, h, layout, pts, from)
  for k = from or 1, #pts do
    local x, y = pts[k][1], pts[k][2]
    if not on_grid(w, h, x, y) or not grid:isWalkable(x, y) then return k end
    local prev = pts[k - 1]
    if k > 1 and on_grid(w, h, prev[1], prev[2])
        and neighbours_of(grid, layout, w, h, prev[1], prev[2], x, y)
        and not move_allowed(grid, layout, prev[1], prev[2], x, y)
        and not linked(grid, prev[1], prev[2], x, y) then
      return k
    end
  end
  return nil
end

local function as_table(pts)
  local t = {}
  for k, p in ipairs(pts) do t[k] = { x = p[1], y = p[2] } end
  return t
end

local function as_flat(pts)
  local t = {}
  for k, p in ipairs(pts) do t[2 * k - 1], t[2 * k] = p[1], p[2] end
  return t
end

local function show(v) return v == nil and "nil" or tostring(v) end

-- firstBlocked on both forms, against the reference.
local function check(grid, w, h, layout, pts, from, what)
  local want = reference(grid, w, h, layout, pts, from)
  for _, form in ipairs { "table", "flat" } do
    local path = form == "table" and as_table(pts) or as_flat(pts)
    local got = grid:firstBlocked(path, from)
    assert(got == want and (got == nil or math.type == nil or math.type(got) == "integer"),
      ("%s (%s form, from %s): expected %s, got %s"):format(what, form, show(from), show(want), show(got)))
  end
  return want
end

describe("grid:firstBlocked (issue 24)", function()
  it("is nil for a fresh path, the index of the first cell a new wall cuts", function()
    local grid = astar.fromString([[
......
......
......
]])
    for _, flat in ipairs { false, true } do
      local path = grid:findPath(1, 2, 6, 2, { flat = flat, diagonal = "never" })
      assert.is_nil(grid:firstBlocked(path))
      grid:setWalkable(4, 2, false)
      assert.equal(4, grid:firstBlocked(path))
      assert.equal(4, grid:firstBlocked(path, 3))
      assert.equal(4, grid:firstBlocked(path, 4))
      assert.is_nil(grid:firstBlocked(path, 5))      -- a unit past the wall
      assert.is_nil(grid:firstBlocked(path, 7))      -- at the goal: nothing left
      grid:setWalkable(1, 2, false)
      assert.equal(1, grid:firstBlocked(path))      -- the unit's own cell
      assert.equal(4, grid:firstBlocked(path, 2))   -- the first cell is read, not judged
      grid:setWalkable(4, 2, true)
      grid:setWalkable(1, 2, true)
    end
  end)

  it("checks a diagonal step's corner rule in the grid's mode, and overrides and links", function()
    local grid = astar.new(4, 4)
    local path = { { x = 1, y = 1 }, { x = 2, y = 2 }, { x = 3, y = 2 } }
    grid:setWalkable(2, 1, false)
    grid:setDiagonal("one-obstacle")
    assert.is_nil(grid:firstBlocked(path))
    grid:setDiagonal("no-obstacles")
    assert.equal(2, grid:firstBlocked(path))
    grid:setDiagonal("never")
    assert.equal(2, grid:firstBlocked(path))           -- not a move in 4 directions
    grid:link(1, 1, 2, 2, 1.5)
    assert.is_nil(grid:firstBlocked(path))             -- a link still joins them
    grid:unlink(1, 1, 2, 2)
    grid:setDiagonal("always")
    assert.is_nil(grid:firstBlocked(path))
    grid:setWallBetween(2, 2, 3, 2, true)
    assert.equal(3, grid:firstBlocked(path))
    assert.equal(2, grid:firstBlocked({ 3, 2, 2, 2 }))  -- a thin wall closes both ways
    grid:setMove(3, 2, 2, 2, nil)
    assert.is_nil(grid:firstBlocked({ 3, 2, 2, 2 }))
    -- a smoothed leg (cells not neighbours) is judged by its cell alone
    assert.is_nil(grid:firstBlocked({ 1, 1, 4, 4 }))
  end)

  it("counts a point off the grid (or between cells) as blocked", function()
    local grid = astar.new(3, 3)
    assert.equal(2, grid:firstBlocked({ 1, 1, 0, 1 }))
    assert.equal(3, grid:firstBlocked({ { x = 1, y = 1 }, { x = 2, y = 2 }, { x = 2.5, y = 3 } }))
    assert.equal(1, grid:firstBlocked({ 4, 1, 3, 1 }))
    assert.is_nil(grid:firstBlocked({ 4, 1, 3, 1 }, 2))   -- the point before is off the grid
    assert.equal(2, grid:firstBlocked({ 1, 1, 0 / 0, 1 }))
  end)

  it("stops reading at the first blocked cell", function()
    local grid = astar.new(3, 3)
    grid:setWalkable(2, 1, false)
    assert.equal(2, grid:firstBlocked({ { x = 1, y = 1 }, { x = 2, y = 1 }, "not a point" }))
  end)

  it("matches the reference on random walks over random grids, both forms", function()
    local modes = { "never", "always", "one-obstacle", "no-obstacles" }
    local blocked_seen, clear_seen = 0, 0
    for seed = 1, 60 do
      local rng = R.rng(seed)
      local w, h = rng.int(3, 12), rng.int(3, 12)
      local hex = seed % 5 == 0
      local layouts = { "odd-r", "even-r", "odd-q", "even-q" }
      local layout = hex and layouts[rng.int(1, 4)] or nil
      local grid = hex and astar.newHex(w, h, layout) or astar.new(w, h)
      if not hex then grid:setDiagonal(modes[rng.int(1, 4)]) end
      -- a walk of legal-looking steps: neighbours, now and then a jump or a point off the grid
      local pts = { { rng.int(1, w), rng.int(1, h) } }
      for _ = 2, rng.int(2, 25) do
        local p, r = pts[#pts], rng.next()
        if r < 0.05 then
          pts[#pts + 1] = { rng.int(0, w + 1), rng.int(0, h + 1) }
        elseif r < 0.12 then
          pts[#pts + 1] = { rng.int(1, w), rng.int(1, h) }
        else
          local x = math.max(1, math.min(w, p[1] + rng.int(-1, 1)))
          local y = math.max(1, math.min(h, p[2] + rng.int(-1, 1)))
          pts[#pts + 1] = { x, y }
        end
      end
      for round = 1, 4 do
        local what = ("seed %d round %d"):format(seed, round)
        local froms = { false, 1, rng.int(1, #pts + 1), #pts + 1 }   -- false: none given
        for i = 1, 4 do
          local from = froms[i] or nil
          if check(grid, w, h, layout, pts, from, what) then
            blocked_seen = blocked_seen + 1
          else
            clear_seen = clear_seen + 1
          end
        end
        -- the world changes: walls, a move forbidden, a link, a new mode
        for _ = 1, rng.int(1, 4) do
          local x, y = rng.int(1, w), rng.int(1, h)
          grid:setWalkable(x, y, not grid:isWalkable(x, y) and true or rng.next() < 0.3)
        end
        local p = pts[rng.int(1, #pts)]
        local q = pts[rng.int(1, #pts)]
        if on_grid(w, h, p[1], p[2]) and on_grid(w, h, q[1], q[2])
            and neighbours_of(grid, layout, w, h, p[1], p[2], q[1], q[2]) then
          grid:setMove(p[1], p[2], q[1], q[2], false)
          if rng.next() < 0.5 then grid:link(p[1], p[2], q[1], q[2], 2) end
        end
        if not hex and rng.next() < 0.3 then grid:setDiagonal(modes[rng.int(1, 4)]) end
      end
    end
    assert(blocked_seen > 100 and clear_seen > 100, ("%d blocked, %d clear"):format(blocked_seen, clear_seen))
  end)
end)
