-- opts.smooth (issue 20, docs/paths.md): "corners", "sight" and "theta" in findPath,
-- newSearch, range:pathTo, map:pathFrom and grid:smoothPath, on both backends
-- (astar.backend), checked against the independent segment model of
-- helpers/segment_reference.lua: every segment legal, the polyline's cost equal to
-- the returned cost (summed apart, S + sqrt2 D + O), never above the walk's cost; "sight" point for
-- point as the contract's string pulling of findPath's walk; errors word for word.
local astar = require "astar"
local R = require "helpers.reference"
local S = require "helpers.segment_reference"
local check_error = require("helpers.errors").check_error

local SQRT2 = math.sqrt(2)
local ANY_ANGLE_MODES = { "always", "one-obstacle", "no-obstacles" }

local function text_of(path)
  if path == nil then return "nil" end
  local t = {}
  for _, p in ipairs(path) do t[#t + 1] = ("(%d,%d)"):format(p.x, p.y) end
  return table.concat(t, " ")
end

local function same_points(expected, got, what)
  assert(got ~= nil, what .. ": no path")
  assert(#expected == #got and text_of(expected) == text_of(S.points(got)),
    ("%s:\n  expected %s\n  got      %s"):format(what, text_of(expected), text_of(got)))
end

local function exact(expected, got, what)
  assert(expected == got, ("%s: expected %.17g, got %s"):format(what, expected,
    type(got) == "number" and ("%.17g"):format(got) or tostring(got)))
end

-- A "sight" or "theta" path: its ends, every segment legal, its cost the polyline's
-- (exactly) and never above `bound`.
local function check_polyline(desc, mode, path, cost, sx, sy, gx, gy, bound, what)
  assert(path ~= nil, what .. ": no path")
  assert(path[1].x == sx and path[1].y == sy, what .. ": starts at " .. text_of({ path[1] }))
  assert(path[#path].x == gx and path[#path].y == gy, what .. ": ends at " .. text_of({ path[#path] }))
  local legal, model_cost, why = S.polyline(desc, mode, path)
  assert(legal, what .. ": " .. tostring(why) .. " in " .. text_of(path))
  exact(model_cost, cost, what .. ": the polyline's cost")
  assert(cost <= bound, ("%s: cost %.17g above the walk's %.17g"):format(what, cost, bound))
end

-- Random board: walls with a density of 0..35%, and with three seeds in four
-- rectangular patches of costs 1..9 (the fourth stays uniform, where the C module
-- runs jump point search).
local function patched_board(seed, max_side)
  local rng = R.rng(seed)
  local w, h = rng.int(6, max_side), rng.int(6, max_side)
  local density = rng.int(0, 35) / 100
  local walkable, cost = {}, {}
  for x = 1, w do
    walkable[x], cost[x] = {}, {}
    for y = 1, h do
      walkable[x][y] = rng.next() >= density
      cost[x][y] = 1
    end
  end
  if seed % 4 ~= 0 then
    for _ = 1, rng.int(1, 8) do
      local pw, ph = rng.int(1, 12), rng.int(1, 12)
      local px, py = rng.int(1, w), rng.int(1, h)
      local c = rng.int(1, 9)
      for x = px, math.min(w, px + pw - 1) do
        for y = py, math.min(h, py + ph - 1) do cost[x][y] = c end
      end
    end
  end
  return { w = w, h = h, walkable = walkable, cost = cost }, rng
end

local function random_open_cell(rng, desc)
  for _ = 1, 200 do
    local x, y = rng.int(1, desc.w), rng.int(1, desc.h)
    if desc.walkable[x][y] then return x, y end
  end
  return 1, 1
end

describe("the segment reference (helpers/segment_reference.lua)", function()
  local function cells(ax, ay, bx, by) return text_of(S.cells(ax, ay, bx, by)) end
  local function corners(ax, ay, bx, by)
    local t = {}
    for _, k in ipairs(S.corners(ax, ay, bx, by)) do
      t[#t + 1] = ("(%d,%d) beside %s"):format(k.x, k.y, text_of(k.beside))
    end
    return table.concat(t, "; ")
  end

  it("passes through the cells whose interior the line meets, worked by hand", function()
    -- (0.5, 0.5) to (2.5, 1.5): x = 1 at y = 0.75, y = 1 at x = 1.5, x = 2 at y = 1.25
    assert.are.equal("(1,1) (2,1) (2,2) (3,2)", cells(1, 1, 3, 2))
    assert.are.equal("", corners(1, 1, 3, 2))
    assert.are.equal(cells(1, 1, 3, 2), cells(3, 2, 1, 1))
    -- steep: x = 1 at y = 3.5
    assert.are.equal("(1,1) (1,2) (1,3) (1,4) (2,4) (2,5) (2,6) (2,7)", cells(1, 1, 2, 7))
    -- along a column and a row: no corners
    assert.are.equal("(2,1) (2,2) (2,3) (2,4) (2,5)", cells(2, 5, 2, 1))
    assert.are.equal("(1,3) (2,3) (3,3)", cells(1, 3, 3, 3))
    assert.are.equal("", corners(2, 5, 2, 1))
    -- a single step and a single cell
    assert.are.equal("(4,4) (5,5)", cells(4, 4, 5, 5))
    assert.are.equal("(4,4)", cells(4, 4, 4, 4))
  end)

  it("finds the grid corners the line passes exactly through, and the cells beside them", function()
    -- the diagonal: through the corners (1, 1) and (2, 2), not into the cells beside
    assert.are.equal("(1,1) (2,2) (3,3)", cells(1, 1, 3, 3))
    assert.are.equal("(1,1) beside (2,1) (1,2); (2,2) beside (3,2) (2,3)", corners(1, 1, 3, 3))
    -- (0.5, 0.5) to (3.5, 1.5) meets the corner (2, 1) at x = 2
    assert.are.equal("(1,1) (2,1) (3,2) (4,2)", cells(1, 1, 4, 2))
    assert.are.equal("(2,1) beside (3,1) (2,2)", corners(1, 1, 4, 2))
    assert.are.equal(corners(1, 1, 4, 2), corners(4, 2, 1, 1))
    -- rising to the right: the other two cells are beside
    assert.are.equal("(3,1) (4,1) (1,2) (2,2)", cells(1, 2, 4, 1))
    assert.are.equal("(2,1) beside (2,1) (3,2)", corners(1, 2, 4, 1))
    -- (1, 1) to (6, 4) crosses x = 3 at y = 2 (its midpoint); (1, 1) to (5, 3) no corner
    assert.are.equal("(3,2) beside (4,2) (3,3)", corners(1, 1, 6, 4))
    assert.are.equal("", corners(1, 1, 5, 3))
    assert.are.equal("(1,1) (2,1) (2,2) (3,2) (4,2) (4,3) (5,3)", cells(1, 1, 5, 3))
  end)

  it("applies the corner rule of each diagonal mode, and the cost of the dearest cell", function()
    -- (1, 1) -> (4, 2) passes the corner (2, 1) between (3, 1) and (2, 2)
    local function board(w31, w22)
      return R.parse_string_map(("..%s.\n.%s..\n...."):format(w31 and "." or "#", w22 and "." or "#"))
    end
    local a, b = { x = 1, y = 1 }, { x = 4, y = 2 }
    local L = math.sqrt(10)
    for _, case in ipairs({
      { true, true, { always = true, ["one-obstacle"] = true, ["no-obstacles"] = true } },
      { false, true, { always = true, ["one-obstacle"] = true, ["no-obstacles"] = false } },
      { true, false, { always = true, ["one-obstacle"] = true, ["no-obstacles"] = false } },
      { false, false, { always = true, ["one-obstacle"] = false, ["no-obstacles"] = false } },
    }) do
      for mode, want in pairs(case[3]) do
        local legal, cost = S.segment(board(case[1], case[2]), mode, a, b)
        assert.are.equal(want, legal, mode)
        if legal then exact(L, cost, mode) end
      end
    end
    -- a wall on a passed cell is illegal in every mode
    local walled = R.parse_string_map("....\n..#.\n....")
    for _, mode in ipairs(ANY_ANGLE_MODES) do
      assert.is_false((S.segment(walled, mode, a, b)))
    end
    -- cost: the dearest passed cell, the start cell excepted, times the length
    local costs = R.parse_string_map("9...\n.5..\n..3.")
    local _, c = S.segment(costs, "always", { x = 1, y = 1 }, { x = 3, y = 2 })
    exact(math.sqrt(5) * 5, c, "(1,1)->(3,2)")
    _, c = S.segment(costs, "always", { x = 1, y = 1 }, { x = 3, y = 3 })
    exact(math.sqrt(8) * 5, c, "(1,1)->(3,3)")
    _, c = S.segment(costs, "always", { x = 2, y = 2 }, { x = 1, y = 1 })
    exact(SQRT2 * 9, c, "a single diagonal step costs sqrt(2) times the entered cell")
    _, c = S.segment(costs, "always", { x = 2, y = 1 }, { x = 3, y = 1 })
    exact(1, c, "a single orthogonal step costs the entered cell")
  end)

  it("agrees with the grid's corner rule on every single step", function()
    for seed = 1, 20 do
      local desc = R.random_map(R.rng(seed), 5, 5, 0.4)
      local _, _, walk = R.normalise(desc)
      for _, mode in ipairs(ANY_ANGLE_MODES) do
        for x = 2, 4 do
          for y = 2, 4 do
            for dx = -1, 1 do
              for dy = -1, 1 do
                if dx ~= 0 or dy ~= 0 then
                  local legal = S.segment(desc, mode, { x = x, y = y }, { x = x + dx, y = y + dy })
                  local move = walk(x + dx, y + dy)
                  if dx ~= 0 and dy ~= 0 then move = R.diagonal_allowed(walk, mode, x, y, dx, dy) end
                  assert(legal == move, ("seed %d %s (%d,%d)+(%d,%d)"):format(seed, mode, x, y, dx, dy))
                end
              end
            end
          end
        end
      end
    end
  end)

  it("adds a polyline from the start, and a walk step by step", function()
    local desc = R.parse_string_map("12\n34")
    local ok, c = S.polyline(desc, "always", { { x = 1, y = 1 }, { x = 2, y = 1 }, { x = 2, y = 2 } })
    assert.is_true(ok)
    exact(2 + 4, c, "polyline")
    local total, W = S.walk_cost(desc, { { x = 1, y = 1 }, { x = 2, y = 2 }, { x = 1, y = 2 } })
    exact(SQRT2 * 4 + 3, total, "walk")
    assert.are.same({ 0, SQRT2 * 4, SQRT2 * 4 + 3 }, W)
    exact(4 + 3, (S.walk_cost(desc, { { x = 1, y = 1 }, { x = 2, y = 2 }, { x = 1, y = 2 } }, true)), "hex walk")
  end)

  it("tells walks from other paths, and keeps the corners of a walk", function()
    local desc = R.parse_string_map("...\n.#.\n...")
    assert.is_true(S.is_walk(desc, "never", { { x = 1, y = 1 }, { x = 2, y = 1 }, { x = 3, y = 1 } }))
    assert.is_false(S.is_walk(desc, "never", { { x = 1, y = 1 }, { x = 3, y = 1 } }))
    assert.is_false(S.is_walk(desc, "no-obstacles", { { x = 1, y = 1 }, { x = 2, y = 2 } }))
    assert.is_true(S.is_walk(desc, "one-obstacle", { { x = 2, y = 1 }, { x = 3, y = 2 } }))
    assert.is_false(S.is_walk(desc, "one-obstacle", { { x = 2, y = 1 }, { x = 1, y = 2 }, { x = 2, y = 2 } }))
    local walk = { { x = 1, y = 1 }, { x = 2, y = 1 }, { x = 3, y = 1 }, { x = 3, y = 2 }, { x = 3, y = 3 } }
    assert.are.equal("(1,1) (3,1) (3,3)", text_of(S.corners_of(walk)))
    -- a step that is no board move keeps both its ends
    assert.are.equal("(1,1) (2,1) (4,1) (6,1)", text_of(S.corners_of({ { x = 1, y = 1 }, { x = 2, y = 1 },
      { x = 4, y = 1 }, { x = 5, y = 1 }, { x = 6, y = 1 } })))
    -- odd-r hex: (1,1) (1,2) (2,3) (2,4) is one direction (south-east), zigzag in offsets
    assert.are.equal("(1,1) (2,4) (3,4)", text_of(S.corners_of({ { x = 1, y = 1 }, { x = 1, y = 2 },
      { x = 2, y = 3 }, { x = 2, y = 4 }, { x = 3, y = 4 } }, "odd-r")))
    -- a column of an odd-r board turns at every step (south-east, south-west, ...)
    assert.are.equal("(1,1) (1,2) (1,3) (1,4)", text_of(S.corners_of({ { x = 1, y = 1 }, { x = 1, y = 2 },
      { x = 1, y = 3 }, { x = 1, y = 4 } }, "odd-r")))
  end)

  it("pulls strings as the contract writes it", function()
    -- an open board: the L-shaped walk becomes one segment
    local open = R.parse_string_map("....\n....\n....")
    local walk = { { x = 1, y = 1 }, { x = 2, y = 1 }, { x = 3, y = 1 }, { x = 4, y = 1 },
      { x = 4, y = 2 }, { x = 4, y = 3 } }
    local pts, cost = S.sight(open, "no-obstacles", walk)
    assert.are.equal("(1,1) (4,3)", text_of(pts))
    exact(math.sqrt(13), cost, "open board")
    -- a swamp in the middle: the shortcut through it costs more than the walk round it
    local swamp = R.parse_string_map("....\n.99.\n....")
    pts, cost = S.sight(swamp, "no-obstacles", walk)
    assert.are.equal("(1,1) (4,1) (4,3)", text_of(pts))
    exact(5, cost, "round the swamp")
  end)
end)

describe("opts.smooth = 'corners'", function()
  local function corners_case(grid, sx, sy, gx, gy, opts, expected)
    local walk, walk_cost = grid:findPath(sx, sy, gx, gy, opts)
    local o = {}
    for k, v in pairs(opts) do o[k] = v end
    o.smooth = "corners"
    local path, cost = grid:findPath(sx, sy, gx, gy, o)
    same_points(expected, path, "corners")
    exact(walk_cost, cost, "the walk's cost")
    return walk
  end

  it("keeps the turns of a 4-direction walk", function()
    local grid = astar.fromString(".....\n####.\n.....\n.####\n.....")
    corners_case(grid, 1, 1, 5, 5, { diagonal = "never" }, {
      { x = 1, y = 1 }, { x = 5, y = 1 }, { x = 5, y = 3 }, { x = 1, y = 3 }, { x = 1, y = 5 }, { x = 5, y = 5 } })
    local path, cost = grid:findPath(1, 1, 5, 5, { diagonal = "never", smooth = "corners" })
    assert.are.equal(6, #path)
    exact(16, cost, "cost")
  end)

  it("keeps the turns of an 8-direction walk", function()
    local grid = astar.fromString(".###\n#.##\n##..")
    corners_case(grid, 1, 1, 4, 3, { diagonal = "always" }, {
      { x = 1, y = 1 }, { x = 3, y = 3 }, { x = 4, y = 3 } })
    local _, cost = grid:findPath(1, 1, 4, 3, { diagonal = "always", smooth = "corners" })
    exact(SQRT2 + SQRT2 + 1, cost, "cost")
  end)

  it("is the start alone for a one-cell walk, and both ends for one step", function()
    local grid = astar.new(3, 3)
    local path, cost = grid:findPath(2, 2, 2, 2, { smooth = "corners" })
    same_points({ { x = 2, y = 2 } }, path, "one cell")
    exact(0, cost, "one cell")
    path = grid:findPath(2, 2, 3, 3, { smooth = "sight" })
    same_points({ { x = 2, y = 2 }, { x = 3, y = 3 } }, path, "one step")
  end)

  it("follows hex directions on a hex board", function()
    -- odd-r: (1,1) (1,2) (2,3) (2,4) is one straight south-east line
    local grid = astar.newHex(2, 4)
    for _, c in ipairs({ { 2, 1 }, { 2, 2 }, { 1, 3 }, { 1, 4 } }) do grid:setWalkable(c[1], c[2], false) end
    corners_case(grid, 1, 1, 2, 4, {}, { { x = 1, y = 1 }, { x = 2, y = 4 } })
    -- a column zigzags: every cell is a turn
    local column = astar.newHex(1, 4)
    corners_case(column, 1, 1, 1, 4, {}, { { x = 1, y = 1 }, { x = 1, y = 2 }, { x = 1, y = 3 }, { x = 1, y = 4 } })
  end)

  it("keeps both ends of a link", function()
    local grid = astar.fromString("..#...")
    grid:link(2, 1, 4, 1, 1)
    local walk = corners_case(grid, 1, 1, 6, 1, {}, {
      { x = 1, y = 1 }, { x = 2, y = 1 }, { x = 4, y = 1 }, { x = 6, y = 1 } })
    assert.are.equal("(1,1) (2,1) (4,1) (5,1) (6,1)", text_of(walk))
  end)

  it("keeps the turns of findPath's walk on generated boards, at the walk's cost", function()
    for seed = 1, 24 do
      local desc, rng = patched_board(seed, 24)
      local grid = R.build_grid(astar, desc)
      local mode = R.MODES[seed % 4 + 1]
      local sx, sy = random_open_cell(rng, desc)
      local gx, gy = random_open_cell(rng, desc)
      local walk, walk_cost = grid:findPath(sx, sy, gx, gy, { diagonal = mode })
      local path, cost = grid:findPath(sx, sy, gx, gy, { diagonal = mode, smooth = "corners" })
      if walk == nil then
        assert.is_nil(path)
        assert.are.equal(walk_cost, cost)
      else
        same_points(S.corners_of(walk), path, "seed " .. seed)
        exact(walk_cost, cost, "seed " .. seed)
      end
    end
  end)
end)

-- findPath's walk, "sight" and "theta" for one query (with the rules in `rules`,
-- which desc already holds), checked against the model.
local function check_query(grid, desc, mode, sx, sy, gx, gy, what, rules)
  local function opts(smooth)
    local o = { diagonal = mode, smooth = smooth }
    for k, v in pairs(rules or {}) do o[k] = v end
    return o
  end
  local walk, grid_cost = grid:findPath(sx, sy, gx, gy, opts(nil))
  local sight, sight_cost = grid:findPath(sx, sy, gx, gy, opts("sight"))
  local theta, theta_cost = grid:findPath(sx, sy, gx, gy, opts("theta"))
  if walk == nil then
    assert(sight == nil and theta == nil, what .. ": a path with smoothing, none without")
    assert.are.equal(grid_cost, sight_cost)
    assert.are.equal(grid_cost, theta_cost)
    return false
  end
  assert(S.is_walk(desc, mode, walk), what .. ": findPath's walk")
  local walk_cost = S.walk_cost(desc, walk)
  assert(R.close(walk_cost, grid_cost), what .. ": the reference's walk cost")
  check_polyline(desc, mode, sight, sight_cost, sx, sy, gx, gy, walk_cost, what .. " sight")
  local expected, expected_cost = S.sight(desc, mode, walk)
  same_points(expected, sight, what .. " sight")
  exact(expected_cost, sight_cost, what .. " sight")
  check_polyline(desc, mode, theta, theta_cost, sx, sy, gx, gy, walk_cost, what .. " theta")
  return true, theta_cost < walk_cost
end

describe("opts.smooth = 'sight' and 'theta'", function()
  it("give legal polylines at their model cost, never above the walk, on generated boards", function()
    local found, shorter = 0, 0
    for seed = 1, 36 do
      local desc, rng = patched_board(1000 + seed, 40)
      local grid = R.build_grid(astar, desc)
      local mode = ANY_ANGLE_MODES[seed % 3 + 1]
      for q = 1, 2 do
        local sx, sy = random_open_cell(rng, desc)
        local gx, gy = random_open_cell(rng, desc)
        local what = ("seed %d query %d (%s)"):format(seed, q, mode)
        local ok, cheaper = check_query(grid, desc, mode, sx, sy, gx, gy, what)
        if ok then found = found + 1 end
        if cheaper then shorter = shorter + 1 end
      end
    end
    -- the boards are connected enough to test something, and "theta" is no walk
    assert(found >= 50, "only " .. found .. " of 72 queries found a path")
    assert(shorter >= found / 2, "theta beat the walk in only " .. shorter .. " of " .. found .. " queries")
  end)

  it("follow the query's rules: its blocked cells and its own costs", function()
    for seed = 1, 12 do
      local desc, rng = patched_board(3000 + seed, 30)
      local grid = R.build_grid(astar, desc)
      local mode = ANY_ANGLE_MODES[seed % 3 + 1]
      local sx, sy = random_open_cell(rng, desc)
      local gx, gy = random_open_cell(rng, desc)
      -- the rules as lists of points, and the board this query sees
      local blocked, costs = {}, {}
      local walkable, cost = {}, {}
      for x = 1, desc.w do
        walkable[x], cost[x] = {}, {}
        for y = 1, desc.h do
          walkable[x][y], cost[x][y] = desc.walkable[x][y], desc.cost[x][y]
          local r = rng.next()
          if not (x == sx and y == sy) then
            if r < 0.08 then
              blocked[#blocked + 1] = { x = x, y = y }
              walkable[x][y] = false
            elseif r < 0.25 then
              local c = rng.int(0, 9)
              costs[#costs + 1] = { x = x, y = y, cost = c > 0 and c }
              if c > 0 then cost[x][y] = c else walkable[x][y] = false end
            end
          end
        end
      end
      local seen = { w = desc.w, h = desc.h, walkable = walkable, cost = cost }
      check_query(grid, seen, mode, sx, sy, gx, gy, ("seed %d (%s) with rules"):format(seed, mode),
        { blocked = blocked, cost = costs })
    end
  end)

  it("do the same on many more generated boards #slow", function()
    for seed = 1, 400 do
      local desc, rng = patched_board(5000 + seed, 40)
      local grid = R.build_grid(astar, desc)
      local mode = ANY_ANGLE_MODES[seed % 3 + 1]
      for q = 1, 3 do
        local sx, sy = random_open_cell(rng, desc)
        local gx, gy = random_open_cell(rng, desc)
        check_query(grid, desc, mode, sx, sy, gx, gy, ("seed %d query %d (%s)"):format(seed, q, mode))
      end
    end
  end)

  -- Moving AI scenarios (see spec/maps_spec.lua): an even spread of the first `upto`
  -- (the files go from short to long).
  local function scenarios(name, count, upto)
    local text = R.read_map_file(name)
    local out, n = {}, 0
    for line in text:gmatch("[^\r\n]+") do
      local f = {}
      for field in line:gmatch("[^\t]+") do f[#f + 1] = field end
      if #f == 9 then
        n = n + 1
        out[n] = { sx = tonumber(f[5]) + 1, sy = tonumber(f[6]) + 1, gx = tonumber(f[7]) + 1, gy = tonumber(f[8]) + 1 }
      end
    end
    upto = math.min(upto, n)
    local picked = {}
    for i = 1, count do picked[i] = out[math.floor((i - 1) * upto / count) + 1] end
    return picked
  end

  for _, m in ipairs({
    { map = "den312d.map", scen = "den312d-random-1.scen", upto = 1000 },
    { map = "AR0011SR.map", scen = "AR0011SR.map.scen", upto = 400 },
  }) do
    it("give legal polylines at their model cost on " .. m.map .. " (10 scenarios)", function()
      local text = R.read_map_file(m.map)
      local desc = R.parse_movingai(text)
      local grid = astar.fromMovingAI(text)
      for i, s in ipairs(scenarios(m.scen, 10, m.upto)) do
        assert(check_query(grid, desc, "no-obstacles", s.sx, s.sy, s.gx, s.gy, m.map .. " scenario " .. i),
          m.map .. " scenario " .. i .. " has no path")
      end
    end)
  end

  it("give the 'corners' path and cost in 4 directions", function()
    for seed = 1, 12 do
      local desc, rng = patched_board(2000 + seed, 30)
      local grid = R.build_grid(astar, desc)
      local sx, sy = random_open_cell(rng, desc)
      local gx, gy = random_open_cell(rng, desc)
      local corners, corners_cost = grid:findPath(sx, sy, gx, gy, { diagonal = "never", smooth = "corners" })
      for _, how in ipairs({ "sight", "theta" }) do
        local path, cost = grid:findPath(sx, sy, gx, gy, { diagonal = "never", smooth = how })
        if corners == nil then
          assert.is_nil(path)
          assert.are.equal(corners_cost, cost)
        else
          same_points(corners, path, how .. " seed " .. seed)
          exact(corners_cost, cost, how .. " seed " .. seed)
        end
      end
    end
    -- the grid's own mode "never", no opts.diagonal
    local grid = astar.fromString("....\n.##.\n....")
    grid:setDiagonal("never")
    local corners, c = grid:findPath(1, 1, 4, 3, { smooth = "corners" })
    local sight, s = grid:findPath(1, 1, 4, 3, { smooth = "sight" })
    same_points(corners, sight, "the grid's mode")
    exact(c, s, "the grid's mode")
  end)

  it("work with a goal list and with partial", function()
    local board = "......#...\n..###.#...\n....#.#.#.\n.##.#...#.\n....#####.\n.........."
    local desc = R.parse_string_map(board)
    local grid = astar.fromString(board)
    local goals = { { x = 10, y = 1 }, { x = 8, y = 3 }, { x = 1, y = 6 } }
    for _, mode in ipairs(ANY_ANGLE_MODES) do
      local walk, walk_cost, index = grid:findPath(1, 1, goals, { diagonal = mode })
      local bound = S.walk_cost(desc, walk)
      for _, how in ipairs({ "sight", "theta" }) do
        local path, cost, i = grid:findPath(1, 1, goals, { diagonal = mode, smooth = how })
        assert(type(i) == "number" and goals[i], how .. ": no goal index")
        if how == "sight" then assert.are.equal(index, i) end
        check_polyline(desc, mode, path, cost, 1, 1, goals[i].x, goals[i].y, bound, how .. " " .. mode)
      end
      assert(R.close(bound, walk_cost))
    end
    -- (6, 2) is walled off: partial goes to (4, 2), the one closest cell
    local walled = "....#.\n.2..#.\n....#."
    desc, grid = R.parse_string_map(walled), astar.fromString(walled)
    for _, mode in ipairs(ANY_ANGLE_MODES) do
      local part, part_cost, reached = grid:findPath(1, 3, 6, 2, { diagonal = mode, partial = true })
      assert.is_false(reached)
      local bound = S.walk_cost(desc, part)
      assert(R.close(bound, part_cost))
      for _, how in ipairs({ "sight", "theta" }) do
        local path, cost, r = grid:findPath(1, 3, 6, 2, { diagonal = mode, partial = true, smooth = how })
        assert.is_false(r)
        check_polyline(desc, mode, path, cost, 1, 3, 4, 2, bound, how .. " partial " .. mode)
      end
    end
  end)

  it("price a shortcut through a swamp as swamp", function()
    -- the straight line (1,2) -> (5,2) would cross the 9s; the walk round them is cheaper
    local board = "1...1\n..99.\n.....\n"
    local desc = R.parse_string_map(board)
    local grid = astar.fromString(board)
    local walk = grid:findPath(1, 2, 5, 2, { diagonal = "always" })
    local path, cost = grid:findPath(1, 2, 5, 2, { diagonal = "always", smooth = "sight" })
    local expected, expected_cost = S.sight(desc, "always", walk)
    same_points(expected, path, "sight")
    exact(expected_cost, cost, "sight")
    assert(#path > 2, "the swamp was crossed: " .. text_of(path))
    local theta, theta_cost = grid:findPath(1, 2, 5, 2, { diagonal = "always", smooth = "theta" })
    check_polyline(desc, "always", theta, theta_cost, 1, 2, 5, 2, S.walk_cost(desc, walk), "theta")
  end)
end)

-- "theta" on the C module and on the pure-Lua fallback (the same order of operations,
-- src/core/theta.c's header): the same answers bit for bit, the rules asked about the
-- same cells in the same order, and stepped searches that expand, count and restart
-- alike. A throwaway sweep of 1200 such queries agreed; these are a sample.
describe("opts.smooth = 'theta' on both backends", function()
  local pack = table.pack or function(...) return { n = select("#", ...), ... } end

  -- The options of one query, with rules that write each cell they are asked about
  -- into log (in that order) and price from the cell alone.
  local function query_options(rng, mode, log)
    local opts = { diagonal = mode, smooth = "theta" }
    local salt = rng.int(0, 99)
    if rng.next() < 0.5 then
      opts.cost = function(x, y)
        log[#log + 1] = ("c%d,%d"):format(x, y)
        local k = (7 * x + 13 * y + salt) % 11
        return k > 0 and k / 2 or nil
      end
    end
    if rng.next() < 0.4 then
      opts.occupied = function(x, y)
        log[#log + 1] = ("o%d,%d"):format(x, y)
        return (x + 2 * y + salt) % 5 == 0
      end
    end
    if rng.next() < 0.3 then opts.near = rng.int(1, 2) end
    if rng.next() < 0.3 then opts.maxCost = rng.int(4, 16) + 0.5 end
    if rng.next() < 0.4 then opts.partial = true end
    if rng.next() < 0.3 then opts.weight = 1.5 end
    return opts
  end

  local function answer(...)
    local t = pack(...)
    if type(t[1]) == "table" then t[1] = text_of(t[1]) end
    return t
  end

  it("findPath: the same waypoints, costs to the last bit, rules asked alike", function()
    if astar.backend ~= "c" then return end   -- the fallback against itself
    local pure = require "astar.pure"
    local found = 0
    for seed = 1, 24 do
      local desc, rng = patched_board(7000 + seed, 24)
      local mode = ANY_ANGLE_MODES[seed % 3 + 1]
      local gc, gp = R.build_grid(astar, desc), R.build_grid(pure, desc)
      for q = 1, 3 do
        local sx, sy = random_open_cell(rng, desc)
        local gx, gy = random_open_cell(rng, desc)
        local goals
        if q == 3 then
          local hx, hy = random_open_cell(rng, desc)
          goals = { { x = gx, y = gy }, { x = hx, y = hy } }
        end
        local lc, lp = {}, {}   -- the same options twice, each with its own log
        local oc = query_options(R.rng(seed * 10 + q), mode, lc)
        local op = query_options(R.rng(seed * 10 + q), mode, lp)
        local a, b
        if goals then
          a, b = answer(gc:findPath(sx, sy, goals, oc)), answer(gp:findPath(sx, sy, goals, op))
        else
          a, b = answer(gc:findPath(sx, sy, gx, gy, oc)), answer(gp:findPath(sx, sy, gx, gy, op))
        end
        local what = ("seed %d query %d (%s)"):format(seed, q, mode)
        assert.are.same(a, b, what)   -- numbers compared with ==: to the last bit
        if a[1] ~= nil then
          found = found + 1
          -- (an unreachable goal: C's component labels may answer before any rule)
          assert.are.same(lc, lp, what .. ": the rules' calls")
        end
      end
    end
    assert(found >= 40, "only " .. found .. " of 72 queries found a path")
  end)

  it("stepped: the same expansions, statistics and restarts through grid edits", function()
    if astar.backend ~= "c" then return end
    local pure = require "astar.pure"
    local rng = R.rng(2020)
    local restarts = 0
    for round = 1, 9 do
      local mode = ANY_ANGLE_MODES[round % 3 + 1]
      local costs = { 1, 2, 3, 0.5 }
      local desc = R.random_map(rng, 18, 12, 0.2, costs)
      local sx, sy = random_open_cell(rng, desc)
      local gx, gy = random_open_cell(rng, desc)
      local gc, gp = R.build_grid(astar, desc), R.build_grid(pure, desc)
      -- partial: C answers no unreachable goal unsearched (component labels)
      local opts = { diagonal = mode, smooth = "theta", partial = true }
      local a, b = gc:newSearch(sx, sy, gx, gy, opts), gp:newSearch(sx, sy, gx, gy, opts)
      local sa, sb, steps = "searching", "searching", 0
      while sa == "searching" or sb == "searching" do
        local n = rng.int(1, 6)
        sa, sb = a:step(n), b:step(n)
        assert.are.equal(sa, sb)
        assert.are.same(a:getExpanded(), b:getExpanded())
        assert.are.same(a:getStats(), b:getStats())
        steps = steps + 1
        if steps < 12 and rng.next() < 0.5 then
          local x, y = rng.int(1, desc.w), rng.int(1, desc.h)
          if rng.next() < 0.5 then
            local v = not gc:isWalkable(x, y)
            gc:setWalkable(x, y, v)
            gp:setWalkable(x, y, v)
          else
            local c = rng.pick(costs)
            gc:setCost(x, y, c)
            gp:setCost(x, y, c)
          end
        end
      end
      assert.are.same(answer(a:result()), answer(b:result()), "round " .. round)
      restarts = restarts + a:getStats().restarts
    end
    assert(restarts >= 5, "only " .. restarts .. " restarts")
  end)
end)

describe("smoothing wherever paths come out", function()
  local desc = patched_board(77, 20)
  local MODE = "one-obstacle"
  local function board()
    return R.build_grid(astar, desc)
  end
  local function query()
    local rng = R.rng(4242)
    local grid = board()
    for _ = 1, 50 do
      local sx, sy = random_open_cell(rng, desc)
      local gx, gy = random_open_cell(rng, desc)
      local walk = grid:findPath(sx, sy, gx, gy, { diagonal = MODE })
      if walk and #walk >= 8 then return sx, sy, gx, gy end
    end
    error("no long enough path on the board")
  end

  it("flat and into give the same points", function()
    local grid = board()
    local sx, sy, gx, gy = query()
    for _, how in ipairs({ "corners", "sight", "theta" }) do
      local path, cost = grid:findPath(sx, sy, gx, gy, { diagonal = MODE, smooth = how })
      local flat, flat_cost = grid:findPath(sx, sy, gx, gy, { diagonal = MODE, smooth = how, flat = true })
      assert.are.same(S.to_flat(path), flat, how)
      exact(cost, flat_cost, how .. " flat")
      -- into: a longer table is refilled and cut, its tables reused
      local into = {}
      for i = 1, 100 do into[i] = { x = 0, y = 0, tag = i } end
      local first = into[1]
      local got, into_cost = grid:findPath(sx, sy, gx, gy, { diagonal = MODE, smooth = how, into = into })
      assert.are.equal(into, got)
      assert.are.equal(#path, #into)
      assert.are.equal(first, into[1])
      assert.are.equal(1, into[1].tag)
      same_points(path, into, how .. " into")
      exact(cost, into_cost, how .. " into")
      local flat_into = { 1, 2, 3 }
      for i = 4, 200 do flat_into[i] = i end
      grid:findPath(sx, sy, gx, gy, { diagonal = MODE, smooth = how, flat = true, into = flat_into })
      assert.are.same(flat, flat_into)
    end
  end)

  it("search:result() of a stepped newSearch is findPath's", function()
    local grid = board()
    local sx, sy, gx, gy = query()
    for _, how in ipairs({ "corners", "sight", "theta" }) do
      for _, flat in ipairs({ false, true }) do
        -- A*, so that the walk takes many steps (jump point search may take one)
        local opts = { diagonal = MODE, smooth = how, flat = flat, algorithm = "astar" }
        local path, cost = grid:findPath(sx, sy, gx, gy, opts)
        local search = grid:newSearch(sx, sy, gx, gy, opts)
        local steps = 0   -- one cell a step: theta's estimate leads it there in few
        while search:step(1) == "searching" do steps = steps + 1 end
        assert(steps > 2, how .. ": the search ran in one step")
        local got, got_cost = search:result()
        assert.are.same(path, got, how)
        exact(cost, got_cost, how .. " stepped")
      end
    end
  end)

  it("a stepped search changed under it answers for the grid as it is", function()
    local sx, sy, gx, gy = query()
    for _, how in ipairs({ "corners", "sight", "theta" }) do
      local grid = board()
      local walk = grid:findPath(sx, sy, gx, gy, { diagonal = MODE })
      local opts = { diagonal = MODE, smooth = how }
      local search = grid:newSearch(sx, sy, gx, gy, opts)
      search:step(3)
      -- a wall in the middle of the walk, and a swamp next to the start
      local mid = walk[math.floor(#walk / 2)]
      grid:setWalkable(mid.x, mid.y, false)
      grid:setCost(walk[2].x, walk[2].y, grid:getCost(walk[2].x, walk[2].y) == 9 and 8 or 9)
      while search:step(3) == "searching" do end
      local path, cost = grid:findPath(sx, sy, gx, gy, opts)
      local got, got_cost = search:result()
      assert.are.same(path, got, how)
      assert.are.equal(cost, got_cost, how)
      assert(search:getStats().restarts >= 1, how .. ": no restart")
    end
  end)

  it("range:pathTo keeps the corners of the range's walk; smoothPath pulls it", function()
    local grid = board()
    local sx, sy = query()
    local range = grid:movementRange(sx, sy, math.huge, { diagonal = MODE })
    local checked = 0
    for y = 1, desc.h do
      for x = 1, desc.w do
        local walk = range:pathTo(x, y)
        if walk then
          checked = checked + 1
          same_points(S.corners_of(walk), range:pathTo(x, y, { smooth = "corners" }), "corners")
          assert.are.same(S.to_flat(S.corners_of(walk)),
            range:pathTo(x, y, { smooth = "corners", flat = true }))
          -- a range keeps no grid: the contract's way to pull its walk
          local sight = S.sight(desc, MODE, walk)
          same_points(sight, (grid:smoothPath(range:pathTo(x, y), { diagonal = MODE })), "sight")
        else
          assert.is_nil(range:pathTo(x, y, { smooth = "corners" }))
        end
      end
    end
    assert(checked > 10, "only " .. checked .. " cells reached")
  end)

  it("map:pathFrom keeps the corners of its walk at its cost", function()
    local grid = board()
    local _, _, gx, gy = query()
    local map = grid:distanceMap({ { x = gx, y = gy } }, { diagonal = MODE })
    local checked = 0
    for y = 1, desc.h do
      for x = 1, desc.w do
        local walk, cost = map:pathFrom(x, y)
        local path, smooth_cost = map:pathFrom(x, y, { smooth = "corners" })
        if walk then
          checked = checked + 1
          same_points(S.corners_of(walk), path, "pathFrom corners")
          exact(cost, smooth_cost, "pathFrom corners")
          assert.are.same(S.to_flat(path), map:pathFrom(x, y, { smooth = "corners", flat = true }))
          -- the contract's way to pull a map's walk: over the grid as it is
          local pulled, pulled_cost = grid:smoothPath(map:pathFrom(x, y), { smooth = "sight", diagonal = MODE })
          local expected, expected_cost = S.sight(desc, MODE, walk)
          same_points(expected, pulled, "smoothPath of pathFrom")
          exact(expected_cost, pulled_cost, "smoothPath of pathFrom")
        else
          assert.is_nil(path)
        end
      end
    end
    assert(checked > 10, "only " .. checked .. " cells reached")
  end)

  it("grid:smoothPath smooths a table path and a flat path", function()
    local grid = board()
    local sx, sy, gx, gy = query()
    local walk = grid:findPath(sx, sy, gx, gy, { diagonal = MODE })
    local expected, expected_cost = S.sight(desc, MODE, walk)
    -- default "sight", the grid's mode given as opts.diagonal
    local path, cost = grid:smoothPath(walk, { diagonal = MODE })
    same_points(expected, path, "smoothPath")
    exact(expected_cost, cost, "smoothPath")
    local flat, flat_cost = grid:smoothPath(S.to_flat(walk), { diagonal = MODE, flat = true })
    assert.are.same(S.to_flat(expected), flat)
    exact(expected_cost, flat_cost, "smoothPath flat")
    -- the same as findPath's "sight"
    local found, found_cost = grid:findPath(sx, sy, gx, gy, { diagonal = MODE, smooth = "sight" })
    assert.are.same(found, path)
    exact(found_cost, cost, "smoothPath and findPath")
    -- "corners": the walk's cost, step by step
    local corners, corners_cost = grid:smoothPath(S.to_flat(walk),
      { diagonal = MODE, smooth = "corners", flat = false })
    same_points(S.corners_of(walk), corners, "smoothPath corners")
    exact((S.walk_cost(desc, walk)), corners_cost, "smoothPath corners")
    -- into
    local into = { "old", "old", "old" }
    for i = 4, 90 do into[i] = i end
    local got = grid:smoothPath(walk, { diagonal = MODE, into = into })
    assert.are.equal(into, got)
    same_points(expected, into, "smoothPath into")
    -- the grid's own mode by default
    grid:setDiagonal(MODE)
    same_points(expected, (grid:smoothPath(walk)), "smoothPath, the grid's mode")
    -- a hex walk, "corners"
    local hex = astar.newHex(4, 4)
    local hex_walk = { { x = 1, y = 1 }, { x = 1, y = 2 }, { x = 2, y = 3 }, { x = 2, y = 4 }, { x = 3, y = 4 } }
    local hex_path, hex_cost = hex:smoothPath(hex_walk, { smooth = "corners" })
    same_points({ { x = 1, y = 1 }, { x = 2, y = 4 }, { x = 3, y = 4 } }, hex_path, "hex smoothPath")
    exact(4, hex_cost, "hex smoothPath")
  end)
end)

describe("opts.smooth errors", function()
  local function bad5(fname, tail) return ("bad argument #5 to '%s' (%s)"):format(fname, tail) end

  it("name the option and the value", function()
    local grid = astar.new(8, 8)
    for _, fname in ipairs({ "findPath", "newSearch" }) do
      local f = grid[fname]
      check_error(bad5(fname, "opts.smooth: string expected, got number"), f, grid, 1, 1, 8, 8, { smooth = 5 })
      check_error(bad5(fname, "opts.smooth: string expected, got table"), f, grid, 1, 1, 8, 8, { smooth = {} })
      check_error(bad5(fname, "opts.smooth: unknown smoothing 'zigzag'; expected corners, sight or theta"),
        f, grid, 1, 1, 8, 8, { smooth = "zigzag" })
      check_error(bad5(fname, "opts.smooth: unknown smoothing 'Sight'; expected corners, sight or theta"),
        f, grid, 1, 1, 8, 8, { smooth = "Sight" })
    end
    -- false and nil are the walk
    local walk, cost = grid:findPath(1, 1, 8, 8)
    for _, off in ipairs({ false }) do
      local path, c = grid:findPath(1, 1, 8, 8, { smooth = off })
      assert.are.same(walk, path)
      exact(cost, c, "smooth = false")
    end
  end)

  it("say where 'sight' and 'theta' do not apply", function()
    local hex = astar.newHex(6, 6)
    local grid = astar.new(8, 8)
    local linked = astar.new(8, 8)
    linked:link(1, 1, 8, 8, 2)
    for _, how in ipairs({ "sight", "theta" }) do
      for _, fname in ipairs({ "findPath", "newSearch" }) do
        check_error(bad5(fname, ("opts.smooth: '%s' needs a square board"):format(how)),
          hex[fname], hex, 1, 1, 6, 6, { smooth = how })
        check_error(bad5(fname, ("opts.smooth: '%s' needs a one-cell unit"):format(how)),
          grid[fname], grid, 1, 1, 6, 6, { smooth = how, size = 2 })
        check_error(bad5(fname, ("opts.smooth: '%s' needs a grid without move overrides or links"):format(how)),
          linked[fname], linked, 1, 1, 6, 6, { smooth = how })
        check_error(bad5(fname, ("opts.smooth: '%s' needs a query without opts.move"):format(how)),
          grid[fname], grid, 1, 1, 6, 6, { smooth = how, move = function(_, _, _, _, c) return c end })
      end
    end
    -- in 4 directions they are the corners, yet where they cannot apply they say so
    check_error(bad5("findPath", "opts.smooth: 'theta' needs a grid without move overrides or links"),
      linked.findPath, linked, 1, 1, 6, 6, { smooth = "theta", diagonal = "never" })
    check_error(bad5("newSearch", "opts.smooth: 'sight' needs a query without opts.move"),
      grid.newSearch, grid, 1, 1, 6, 6,
      { smooth = "sight", diagonal = "never", move = function(_, _, _, _, c) return c end })
    -- "corners" works on all of them
    assert.is_not_nil(hex:findPath(1, 1, 6, 6, { smooth = "corners" }))
    assert.is_not_nil(grid:findPath(1, 1, 6, 6, { smooth = "corners", size = 2 }))
    assert.is_not_nil(linked:findPath(1, 1, 6, 6, { smooth = "corners" }))
  end)

  it("in pathTo, pathFrom and smoothPath", function()
    local grid = astar.fromString("....\n.#..\n....")
    local range = grid:movementRange(1, 1, 10, { diagonal = "always" })
    local map = grid:distanceMap({ { x = 4, y = 3 } }, { diagonal = "always" })
    check_error("bad argument #3 to 'pathTo' (opts.smooth: 'theta' needs a search (findPath or newSearch))",
      range.pathTo, range, 4, 3, { smooth = "theta" })
    check_error("bad argument #3 to 'pathTo' (opts.smooth: 'sight' needs the grid: use grid:smoothPath)",
      range.pathTo, range, 4, 3, { smooth = "sight" })
    check_error("bad argument #3 to 'pathTo' "
      .. "(opts.smooth: unknown smoothing 'zigzag'; expected corners, sight or theta)",
      range.pathTo, range, 4, 3, { smooth = "zigzag" })
    check_error("bad argument #3 to 'pathFrom' (opts.smooth: 'theta' needs a search (findPath or newSearch))",
      map.pathFrom, map, 1, 1, { smooth = "theta" })
    check_error("bad argument #3 to 'pathFrom' (opts.smooth: 'sight' needs the grid: use grid:smoothPath)",
      map.pathFrom, map, 1, 1, { smooth = "sight" })
    check_error("bad argument #2 to 'smoothPath' (opts.smooth: 'theta' needs a search (findPath or newSearch))",
      grid.smoothPath, grid, { { x = 1, y = 1 }, { x = 2, y = 1 } }, { smooth = "theta" })
    local hex = astar.newHex(4, 4)
    check_error("bad argument #2 to 'smoothPath' (opts.smooth: 'sight' needs a square board)",
      hex.smoothPath, hex, { { x = 1, y = 1 }, { x = 2, y = 1 } }, { smooth = "sight" })
    check_error("bad argument #1 to 'smoothPath' (path is empty)", grid.smoothPath, grid, {})
    check_error("bad argument #1 to 'smoothPath' (flat path has an odd length 3)",
      grid.smoothPath, grid, { 1, 1, 2 })
    check_error("bad argument #1 to 'smoothPath' (path[2]: point expected, got number)",
      grid.smoothPath, grid, { { x = 1, y = 1 }, 5 })
    check_error("bad argument #1 to 'smoothPath' (path[3]: number expected, got string)",
      grid.smoothPath, grid, { 1, 1, "2", 1 })
    check_error("bad argument #2 to 'smoothPath' (opts.smooth: string expected, got number)",
      grid.smoothPath, grid, { { x = 1, y = 1 }, { x = 2, y = 1 } }, { smooth = 1 })
    -- a path that is not a walk: the first bad point, as the contract writes it
    check_error("bad argument #1 to 'smoothPath' (point 4 (3, 2) is not a move from point 3 (1, 2))",
      grid.smoothPath, grid, { { x = 2, y = 1 }, { x = 1, y = 1 }, { x = 1, y = 2 }, { x = 3, y = 2 } },
      { diagonal = "always" })
    check_error("bad argument #1 to 'smoothPath' (point 4 (3, 2) is not a move from point 3 (1, 2))",
      grid.smoothPath, grid, { 2, 1, 1, 1, 1, 2, 3, 2 }, { diagonal = "always" })
    -- a diagonal step the mode forbids, a wall, a cell off the grid
    check_error("bad argument #1 to 'smoothPath' (point 2 (2, 3) is not a move from point 1 (1, 2))",
      grid.smoothPath, grid, { { x = 1, y = 2 }, { x = 2, y = 3 } }, { diagonal = "never" })
    check_error("bad argument #1 to 'smoothPath' (point 3 (2, 2) is not walkable)",
      grid.smoothPath, grid, { { x = 1, y = 1 }, { x = 1, y = 2 }, { x = 2, y = 2 } }, { diagonal = "always" })
    check_error("bad argument #1 to 'smoothPath' (point 2 (0, 1) is outside the 4x3 grid)",
      grid.smoothPath, grid, { { x = 1, y = 1 }, { x = 0, y = 1 } })
    check_error("bad argument #1 to 'smoothPath' (point 2 (1, 3) is not a move from point 1 (1, 1))",
      grid.smoothPath, grid, { { x = 1, y = 1 }, { x = 1, y = 3 } })
  end)
end)
