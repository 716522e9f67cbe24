-- Board geometry (issue 20; README "Board geometry", docs/paths.md): grid:cellCentre,
-- grid:cellAt, grid:neighbours and grid:distance on square boards and the four hex
-- layouts, checked against references written here and in spec/helpers:
--   - hex centres from the layout's trigonometry (neighbouring centres sqrt(3) * size
--     apart, at angles of 0, 60, ... degrees for pointy tops, 30, 90, ... for flat
--     ones) and from spec/helpers/hex_reference.lua's unit centres, scaled;
--   - cellAt by brute force: the nearest of every centre of a lattice wider than the
--     board (nil when that centre is off the board), ties to the rightmost, then the
--     lowest;
--   - neighbours from spec/helpers/move_graph.lua's explicit graph (the moves of a
--     cell in direction order, then its links by target, with their costs);
--   - distance from hex_reference's breadth-first steps and the square formulas.
-- Fast (well under a second a backend); nothing depends on the backend.
local astar = require "astar"
local HR = require "helpers.hex_reference"
local MG = require "helpers.move_graph"
local check_error = require("helpers.errors").check_error

local sqrt, abs, atan2 = math.sqrt, math.abs, math.atan2 or math.atan
local SQRT3 = sqrt(3)
local LAYOUTS = HR.LAYOUTS
local MODES = { "never", "always", "one-obstacle", "no-obstacles" }

-- A small deterministic generator (the same boards on every Lua).
local function rng(seed)
  local state = seed
  return function(lo, hi)
    state = state * 16807 % 2147483647   -- Park-Miller: exact in doubles
    return lo + state % (hi - lo + 1)
  end
end

local function close(a, b, scale)
  return abs(a - b) <= 1e-9 * (scale or 1)
end

-- The reference centre of 1-based (col, row) of a board (layout nil: square), any
-- col and row (the lattice around the board too).
local function ref_centre(layout, col, row, size)
  if not layout then return (col - 0.5) * size, (row - 0.5) * size end
  local ux, uy = HR.centre(layout, col, row)   -- neighbours 1 apart
  return ux * SQRT3 * size, uy * SQRT3 * size
end

-- The cell whose reference centre is nearest (px, py), ties to the rightmost, then
-- the lowest; nil when it is off the board.
local function brute_cell_at(layout, w, h, px, py, size)
  local best, bx, by, cx, cy
  for row = -2, h + 3 do
    for col = -2, w + 3 do
      local x, y = ref_centre(layout, col, row, size)
      local d = (px - x) ^ 2 + (py - y) ^ 2
      if not best or d < best or (d == best and (x > bx or (x == bx and y > by))) then
        best, bx, by, cx, cy = d, x, y, col, row
      end
    end
  end
  if cx < 1 or cy < 1 or cx > w or cy > h then return nil end
  return cx, cy
end

local function board(layout, w, h)
  if layout then return astar.newHex(w, h, layout) end
  return astar.new(w, h)
end

describe("grid:cellCentre", function()
  it("puts a square cell's centre at ((x - 0.5) * size, (y - 0.5) * size)", function()
    local g = astar.new(5, 4)
    assert.same({ 16, 16 }, { g:cellCentre(1, 1, 32) })
    assert.same({ 144, 112 }, { g:cellCentre(5, 4, 32) })
    assert.same({ 0.25, 1.75 }, { g:cellCentre(1, 4, 0.5) })
  end)

  it("puts hex centres where the README's table says (size 10)", function()
    local want = {
      ["odd-r"] = { 0, 0, 25.980762113533, 15 },
      ["even-r"] = { 8.6602540378444, 0, 17.320508075689, 15 },
      ["odd-q"] = { 0, 0, 15, 25.980762113533 },
      ["even-q"] = { 0, 8.6602540378444, 15, 17.320508075689 },
    }
    for _, layout in ipairs(LAYOUTS) do
      local g = astar.newHex(4, 4, layout)
      local x1, y1 = g:cellCentre(1, 1, 10)
      local x2, y2 = g:cellCentre(2, 2, 10)
      local got = { x1, y1, x2, y2 }
      for k = 1, 4 do
        assert.is_true(close(got[k], want[layout][k], 100), layout .. " value " .. k)
      end
    end
  end)

  it("lays hexes out as the layout's trigonometry says, on every layout", function()
    local W, H, S = 7, 6, 12.5
    for _, layout in ipairs(LAYOUTS) do
      local g = astar.newHex(W, H, layout)
      local pointy = layout == "odd-r" or layout == "even-r"
      -- cell (1, 1): at the origin, or half a hex along the line it is shoved along
      local x1, y1 = g:cellCentre(1, 1, S)
      local ox = (layout == "even-r") and SQRT3 * S / 2 or 0
      local oy = (layout == "even-q") and SQRT3 * S / 2 or 0
      assert.is_true(close(x1, ox, S) and close(y1, oy, S), layout .. " (1, 1)")
      for y = 1, H do
        for x = 1, W do
          local px, py = g:cellCentre(x, y, S)
          local rx, ry = ref_centre(layout, x, y, S)
          assert.is_true(close(px, rx, 100 * S) and close(py, ry, 100 * S), layout .. " centre")
          for _, n in ipairs(HR.neighbours(layout, W, H, x, y)) do
            local nx, ny = g:cellCentre(n[1], n[2], S)
            local dx, dy = nx - px, ny - py
            assert.is_true(close(sqrt(dx * dx + dy * dy), SQRT3 * S, 100 * S), layout .. " spacing")
            local degrees = atan2(dy, dx) * 180 / math.pi + (pointy and 0 or 30)
            local off = degrees % 60
            assert.is_true(off < 1e-6 or off > 60 - 1e-6, layout .. " angle " .. degrees)
          end
        end
      end
    end
  end)
end)

describe("grid:cellAt", function()
  local SIZES = { 1, 10, 32, 0.37, 1e-3, 64.125, 1e5 }

  it("finds every cell at its centre, on every board and size", function()
    for _, layout in ipairs({ false, "odd-r", "even-r", "odd-q", "even-q" }) do
      local g = board(layout or nil, 9, 7)
      for _, s in ipairs(SIZES) do
        for y = 1, 7 do
          for x = 1, 9 do
            local px, py = g:cellCentre(x, y, s)
            local cx, cy = g:cellAt(px, py, s)
            assert.are.equal(x, cx, tostring(layout) .. " size " .. s)
            assert.are.equal(y, cy, tostring(layout) .. " size " .. s)
          end
        end
      end
    end
  end)

  it("gives the nearest centre at random pixels, nil off the board", function()
    local W, H = 7, 5
    for li, layout in ipairs({ false, "odd-r", "even-r", "odd-q", "even-q" }) do
      local g = board(layout or nil, W, H)
      local r = rng(4242 + li)
      for _, s in ipairs({ 10, 0.75 }) do
        local span = (layout and 2 * s * (W + 2)) or s * (W + 2)
        local seen = { inside = 0, outside = 0 }
        for _ = 1, 300 do
          local px = (r(0, 1000000) / 1000000) * span - 2 * s
          local py = (r(0, 1000000) / 1000000) * span - 2 * s
          local ex, ey = brute_cell_at(layout or nil, W, H, px, py, s)
          local gx, gy = g:cellAt(px, py, s)
          assert.are.equal(ex, gx, ("%s (%.17g, %.17g)"):format(tostring(layout), px, py))
          assert.are.equal(ey, gy)
          seen[ex and "inside" or "outside"] = seen[ex and "inside" or "outside"] + 1
        end
        assert.is_true(seen.inside > 30 and seen.outside > 30)   -- both kinds were met
      end
    end
  end)

  it("gives a point on a square cell's edge to the cell right of it or below it", function()
    local g = astar.new(4, 3)
    assert.same({ 2, 1 }, { g:cellAt(10, 5, 10) })   -- between (1, 1) and (2, 1)
    assert.same({ 1, 2 }, { g:cellAt(5, 10, 10) })   -- between (1, 1) and (1, 2)
    assert.same({ 2, 2 }, { g:cellAt(10, 10, 10) })  -- the corner of four
    assert.same({ 1, 1 }, { g:cellAt(0, 0, 10) })    -- the board's own corner
    assert.same({ 4, 3 }, { g:cellAt(39.999, 29.999, 10) })
    assert.is_nil(g:cellAt(40, 5, 10))               -- the right edge is off the board
    assert.is_nil(g:cellAt(5, 30, 10))
    assert.is_nil(g:cellAt(-0.001, 5, 10))
    assert.is_nil(g:cellAt(5, -1e300, 10))
    assert.are.equal(1, select("#", g:cellAt(1e300, 5, 10)))   -- one nil
  end)

  it("gives a point on a hex edge to the hex right of it, then below it", function()
    local S = 10
    local w = SQRT3 * S
    -- odd-r: (1, 1) at (0, 0), (2, 1) at (w, 0): the edge between them at x = w / 2
    assert.same({ 2, 1 }, { astar.newHex(4, 4, "odd-r"):cellAt(w / 2, 0, S) })
    -- odd-q: (1, 1) at (0, 0), (1, 2) at (0, w): the edge between them at y = w / 2
    assert.same({ 1, 2 }, { astar.newHex(4, 4, "odd-q"):cellAt(0, w / 2, S) })
    -- and just before each edge, the first hex
    assert.same({ 1, 1 }, { astar.newHex(4, 4, "odd-r"):cellAt(w / 2 - 1e-9, 0, S) })
    assert.same({ 1, 1 }, { astar.newHex(4, 4, "odd-q"):cellAt(0, w / 2 - 1e-9, S) })
  end)

  it("is nil on the jagged edge outside a hex board, the cell inside it", function()
    local g = astar.newHex(3, 3, "odd-r")   -- row 2 shoved right
    local x, y = g:cellCentre(1, 2, 10)
    assert.is_nil(g:cellAt(x - 10, y, 10))           -- where (0, 2) would be
    assert.same({ 1, 2 }, { g:cellAt(x - 8, y, 10) })
    x, y = g:cellCentre(3, 1, 10)
    assert.is_nil(g:cellAt(x + 10, y, 10))
    assert.is_nil(g:cellAt(0, -11, 10))              -- above (1, 1)'s top corner (0, -10)
    assert.same({ 1, 1 }, { g:cellAt(0, -9, 10) })
  end)
end)

-- The move_graph board and the astar grid of the same random square or hex board:
-- walls, costs, move overrides (numbers and false) and links.
local function random_boards(r, layout, w, h)
  local g = layout and astar.newHex(w, h, layout) or astar.new(w, h)
  local b = MG.new_board(w, h, layout and "hex" or "square", layout or nil)
  for y = 1, h do
    for x = 1, w do
      local v = r(1, 10)
      if v <= 2 then
        g:setWalkable(x, y, false)
        MG.set_walkable(b, x, y, false)
      elseif v <= 5 then
        local c = ({ 0.5, 2, 3, 1.25 })[r(1, 4)]
        g:setCost(x, y, c)
        MG.set_cost(b, x, y, c)
      end
    end
  end
  for _ = 1, math.floor(w * h / 3) do
    local x, y = r(1, w), r(1, h)
    local d = MG.DIRS[r(1, 8)]
    local tx, ty = x + d[1], y + d[2]
    if MG.inside(b, tx, ty) and MG.is_neighbour(b, x, y, tx, ty) then
      local c = ({ false, 4, 0.25, false, 7 })[r(1, 5)]
      g:setMove(x, y, tx, ty, c)
      MG.set_move(b, x, y, tx, ty, c)
    end
  end
  for _ = 1, math.floor(w * h / 6) do
    local x1, y1, x2, y2 = r(1, w), r(1, h), r(1, w), r(1, h)
    if x1 ~= x2 or y1 ~= y2 then
      local c, oneway = r(1, 9) / 2, r(1, 2) == 1
      g:link(x1, y1, x2, y2, c, oneway)
      MG.link(b, x1, y1, x2, y2, c, oneway)
    end
  end
  return g, b
end

local function moves_text(list)
  local t = {}
  for i, m in ipairs(list) do t[i] = ("%d,%d:%.17g"):format(m.x, m.y, m.cost) end
  return table.concat(t, " ")
end

describe("grid:neighbours", function()
  it("lists a square cell's moves in direction order, then its links", function()
    local g = astar.new(5, 5)
    g:setCost(2, 2, 3)
    g:setWalkable(3, 2, false)
    g:setMove(2, 3, 2, 4, 0.5)
    g:setMove(2, 3, 1, 3, false)
    g:link(2, 3, 5, 5, 7, true)
    g:link(2, 3, 4, 1, 2, true)
    local S2 = math.sqrt(2)
    assert.are.equal(moves_text({ { x = 3, y = 3, cost = 1 }, { x = 2, y = 4, cost = 0.5 },
      { x = 2, y = 2, cost = 3 }, { x = 3, y = 4, cost = S2 }, { x = 1, y = 4, cost = S2 },
      { x = 1, y = 2, cost = S2 }, { x = 4, y = 1, cost = 2 }, { x = 5, y = 5, cost = 7 } }),
      moves_text(g:neighbours(2, 3)))
    -- "never": the four sides; "always": NE past the wall too
    assert.are.equal("3,3:1 2,4:0.5 2,2:3 4,1:2 5,5:7",
      moves_text(g:neighbours(2, 3, { diagonal = "never" })))
    g:setDiagonal("never")
    assert.are.equal(moves_text(g:neighbours(2, 3, { diagonal = "never" })),
      moves_text(g:neighbours(2, 3)))
    assert.are.equal("3,3:1 2,4:0.5 2,2:3 3,4:1.4142135623730951 1,4:1.4142135623730951 "
      .. "1,2:1.4142135623730951 4,1:2 5,5:7", moves_text(g:neighbours(2, 3, { diagonal = "always" })))
    -- a corner: the board's edge is a wall for the corner rule
    assert.are.equal("2,1:1 1,2:1 2,2:4.2426406871192857",
      moves_text(g:neighbours(1, 1, { diagonal = "one-obstacle" })))
  end)

  it("lists a hex cell's six neighbours", function()
    local g = astar.newHex(5, 5)   -- odd-r: row 3 unshoved
    assert.are.equal("4,3:1 2,3:1 3,4:1 3,2:1 2,4:1 2,2:1", moves_text(g:neighbours(3, 3)))
    assert.are.equal("4,2:1 2,2:1 3,3:1 3,1:1 4,3:1 4,1:1", moves_text(g:neighbours(3, 2)))
    assert.are.equal("2,1:1 1,2:1", moves_text(g:neighbours(1, 1, { diagonal = "never" })))
  end)

  it("matches the reference graph on random boards, every mode and layout", function()
    local r = rng(2020)
    for _, layout in ipairs({ false, "odd-r", "even-r", "odd-q", "even-q" }) do
      for round = 1, 3 do
        local w, h = r(3, 8), r(3, 7)
        local g, b = random_boards(r, layout or nil, w, h)
        for _, mode in ipairs(layout and { "never" } or MODES) do
          local graph = MG.graph(b, { mode = mode })
          for y = 1, h do
            for x = 1, w do
              local want = {}
              for i, e in ipairs(graph.out[(y - 1) * w + x]) do
                want[i] = { x = (e.to - 1) % w + 1, y = math.floor((e.to - 1) / w) + 1, cost = e.cost }
              end
              local opts = (round == 1 and not layout) and nil or { diagonal = mode }
              if not opts then g:setDiagonal(mode) end
              assert.are.equal(moves_text(want), moves_text(g:neighbours(x, y, opts)),
                ("%s %s (%d, %d)"):format(tostring(layout), mode, x, y))
            end
          end
        end
      end
    end
  end)
end)

describe("grid:distance", function()
  it("counts hex steps on every layout", function()
    for _, layout in ipairs(LAYOUTS) do
      local g = astar.newHex(6, 5, layout)
      for y1 = 1, 5 do
        for x1 = 1, 6 do
          local steps = HR.steps(layout, 6, 5, x1, y1)
          for y2 = 1, 5 do
            for x2 = 1, 6 do
              local d = g:distance(x1, y1, x2, y2)
              assert.are.equal(steps[HR.cell(6, x2, y2)], d)
              if math.type then assert.are.equal("integer", math.type(d)) end
            end
          end
        end
      end
    end
  end)

  it("is Manhattan in 4 directions and octile in 8, walls and costs ignored", function()
    local g = astar.new(9, 7)
    g:setWalkable(3, 3, false)
    g:setCost(4, 4, 9)
    for _, mode in ipairs(MODES) do
      g:setDiagonal(mode)
      for y1 = 1, 7, 2 do
        for x1 = 1, 9, 3 do
          for y2 = 1, 7 do
            for x2 = 1, 9 do
              local dx, dy = abs(x1 - x2), abs(y1 - y2)
              local lo, hi = math.min(dx, dy), math.max(dx, dy)
              local d = g:distance(x1, y1, x2, y2)
              if mode == "never" then
                assert.are.equal(dx + dy, d)
                if math.type then assert.are.equal("integer", math.type(d)) end
              else
                assert.are.equal((hi - lo) + sqrt(2) * lo, d)
                if math.type then assert.are.equal("float", math.type(d)) end
              end
            end
          end
        end
      end
    end
    assert.are.equal(3 + 2 * sqrt(2), g:distance(1, 1, 6, 3))
  end)
end)

describe("board geometry errors", function()
  local g = astar.new(8, 6)
  local h = astar.newHex(4, 3)
  local function bad(n, fname, msg) return ("bad argument #%d to '%s' (%s)"):format(n, fname, msg) end

  it("names the argument", function()
    check_error(bad(1, "cellCentre", "x out of range 1..8"), g.cellCentre, g, 9, 1, 10)
    check_error(bad(2, "cellCentre", "y out of range 1..3"), h.cellCentre, h, 1, 0, 10)
    check_error(bad(1, "cellCentre", "x must be a whole number, got 1.5"), g.cellCentre, g, 1.5, 1, 10)
    check_error(bad(3, "cellCentre", "number expected, got no value"), g.cellCentre, g, 1, 1)
    check_error(bad(3, "cellCentre", "size must be a positive finite number, got 0"), g.cellCentre, g, 1, 1, 0)
    check_error(bad(3, "cellCentre", "size must be a positive finite number, got -2"), g.cellCentre, g, 1, 1, -2)
    check_error(bad(3, "cellCentre", "size must be a positive finite number, got inf"), g.cellCentre, g, 1, 1,
      math.huge)
    check_error(bad(3, "cellAt", "size must be a positive finite number, got nan"), g.cellAt, g, 1, 1, 0 / 0)
    check_error(bad(1, "cellAt", "px must be a finite number, got inf"), g.cellAt, g, math.huge, 1, 10)
    check_error(bad(2, "cellAt", "py must be a finite number, got -inf"), h.cellAt, h, 1, -math.huge, 10)
    check_error(bad(2, "cellAt", "py must be a finite number, got nan"), g.cellAt, g, 1, 0 / 0, 10)
    check_error(bad(1, "cellAt", "number expected, got string"), g.cellAt, g, "1", 1, 10)
    check_error(bad(1, "neighbours", "x out of range 1..8"), g.neighbours, g, 0, 1)
    check_error(bad(2, "neighbours", "y out of range 1..6"), g.neighbours, g, 1, 7)
    check_error(bad(3, "neighbours", "table expected, got string"), g.neighbours, g, 1, 1, "never")
    check_error(bad(3, "neighbours", "unknown option 'size'"), g.neighbours, g, 1, 1, { size = 2 })
    check_error(bad(3, "neighbours", "option names must be strings, got number"), g.neighbours, g, 1, 1,
      { "never" })
    check_error(bad(3, "neighbours", "opts.diagonal: unknown diagonal mode 'octile'; expected never, always, "
      .. "one-obstacle or no-obstacles"), g.neighbours, g, 1, 1, { diagonal = "octile" })
    check_error(bad(3, "neighbours", "opts.diagonal: diagonal mode 'always' is not supported on hex grids; "
      .. "expected never"), h.neighbours, h, 1, 1, { diagonal = "always" })
    check_error(bad(1, "distance", "x1 out of range 1..8"), g.distance, g, 9, 1, 1, 1)
    check_error(bad(2, "distance", "y1 out of range 1..6"), g.distance, g, 1, 0, 1, 1)
    check_error(bad(3, "distance", "x2 out of range 1..4"), h.distance, h, 1, 1, 5, 1)
    check_error(bad(4, "distance", "y2 out of range 1..3"), h.distance, h, 1, 1, 1, 4)
    check_error("calling 'cellAt' on bad self (astar.Grid expected, got number)", g.cellAt, 1, 1, 1, 1)
    local c = astar.new(2, 2)
    getmetatable(c).__close(c)
    check_error("attempt to use a closed astar.Grid", c.neighbours, c, 1, 1)
  end)
end)
