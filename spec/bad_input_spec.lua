-- The bad-input matrix (issue 6): every public function of the Grid API, every
-- argument, every class of bad value, generated here from one table of
-- signatures. Each call must raise exactly the README's message; afterwards the
-- grid keeps its cells and settings and still finds the optimal path (checked
-- against the reference Dijkstra). spec/grid_spec.lua has the hand-written
-- cases; this file covers the cross product of values x arguments x functions,
-- plus a generic check for every method or module function not in the table
-- (added by other parts later): bad self and junk arguments give a clean Lua
-- error or a result, never a crash, and leave the grid working.

local astar = require "astar"
local R = require "helpers.reference"

local unpack = unpack or table.unpack -- luacheck: ignore 143

local NAN, INF = 0 / 0, math.huge
local W, H = 12, 9

-- The number as the binding prints it: %.14g (%.17g when that does not read back
-- as the same number), nan, inf, -inf.
local function text(v)
  if v ~= v then return "nan" end
  if v == INF then return "inf" end
  if v == -INF then return "-inf" end
  local short = ("%.14g"):format(v)
  return tonumber(short) == v and short or ("%.17g"):format(v)
end

local check_error = require("helpers.errors").check_error

-- the sanity map: walls and costs, and its reference distances per mode
local MAP = (function()
  local desc = R.random_map(R.rng(606), W, H, 0.2)
  for x = 1, W do desc.walkable[x][1] = true end
  for y = 1, H do desc.walkable[W][y] = true end
  return desc
end)()
local DIST = {}
for _, mode in ipairs(R.MODES) do DIST[mode] = R.dijkstra(MAP, mode, 1, 1) end

local function snapshot(grid)
  local s = { grid:getDiagonal(), grid:getHeuristic() }
  for x = 1, W do
    for y = 1, H do
      s[#s + 1] = tostring(grid:isWalkable(x, y)) .. text(grid:getCost(x, y))
    end
  end
  return table.concat(s, " ")
end

-- The grid still answers like the reference with its settings.
local function still_works(grid, before)
  assert.are.equal(before, snapshot(grid))
  local mode = grid:getDiagonal()
  local name, weight = grid:getHeuristic()
  local path, cost = grid:findPath(1, 1, W, H)
  assert(path, "findPath failed after an error: " .. tostring(cost))
  assert(R.validate(MAP, mode, path, 1, 1, W, H))
  local best = DIST[mode][W][H]
  local admissible = name ~= "manhattan" or mode == "never"
  if weight == 1 and admissible then
    assert(R.close(cost, best), ("cost %.17g, optimal %.17g"):format(cost, best))
  elseif admissible then
    assert(cost <= weight * best * (1 + 1e-9))
  end
end

-- Values of every class, with the type name Lua reports for them.
local co = coroutine.create(function() end)
local TYPES = {
  { nil, "nil" }, { true, "boolean" }, { false, "boolean" }, { "1", "string" },
  { "", "string" }, { {}, "table" }, { print, "function" }, { co, "thread" },
}
if io and io.stdout then TYPES[#TYPES + 1] = { io.stdout, "userdata" } end
local NOT_WHOLE = { 0.5, 1.5, -0.25, 1 / 3, 1 + 2 ^ -40, NAN, INF, -INF }
local BAD_NUMBERS = { 0, -0.0, -1, -2 ^ 31, 2 ^ 31, 2 ^ 32, 2 ^ 53, 2 ^ 63, 1e300, -1e300, 1.7976931348623157e308 }

-- Expected message tails for an argument kind and a value, or nil when valid.
local KINDS = {}
function KINDS.index(v, spec)
  if v == nil and spec.optional then return nil end
  if type(v) ~= "number" then return "number expected, got " .. spec.tname end
  if v ~= v or v == INF or v == -INF or v ~= math.floor(v) then
    return spec.name .. " must be a whole number, got " .. text(v)
  end
  if v < 1 or v > spec.max then return ("%s out of range 1..%d"):format(spec.name, spec.max) end
end
function KINDS.boolean(v, spec)
  if v == nil and spec.optional then return nil end
  if type(v) ~= "boolean" then return (spec.prefix or "") .. "boolean expected, got " .. spec.tname end
end
-- findPath's opts.into: a table; newSearch takes no into at all.
function KINDS.into(v, spec)
  if spec.fname ~= "findPath" then return "opts.into: only findPath fills a table" end
  if type(v) ~= "table" then return spec.prefix .. "table expected, got " .. spec.tname end
end
function KINDS.cost(v, spec)
  if type(v) ~= "number" then return "number expected, got " .. spec.tname end
  if not (v > 0 and v <= 1e15) then
    return "cost must be a positive finite number up to 1e15, got " .. text(v)
  end
end
-- setMove's cost (issue 19): also false (no move) and nil (the default)
function KINDS.movecost(v, spec)
  if v == nil or v == false then return nil end
  if type(v) ~= "number" then return "number, false or nil expected, got " .. spec.tname end
  if not (v > 0 and v <= 1e15) then
    return "cost must be a positive finite number up to 1e15, false or nil, got " .. text(v)
  end
end
-- board geometry (issue 20): a cell's size in pixels, a pixel coordinate
function KINDS.size(v, spec)
  if type(v) ~= "number" then return "number expected, got " .. spec.tname end
  if not (v > 0 and v < INF) then -- luacheck: ignore 581 (NaN)
    return "size must be a positive finite number, got " .. text(v)
  end
end
function KINDS.pixel(v, spec)
  if type(v) ~= "number" then return "number expected, got " .. spec.tname end
  if not (v > -INF and v < INF) then -- luacheck: ignore 581 (NaN)
    return spec.name .. " must be a finite number, got " .. text(v)
  end
end
-- findPath / newSearch's opts.move: a function only
function KINDS.moverule(v, spec)
  if type(v) ~= "function" then return spec.prefix .. "function expected, got " .. spec.tname end
end
-- fromTiles / setTiles: tiles is a table of rows or a layer (an empty one
-- is neither), the rule a table or a function.
function KINDS.tiles(v, spec)
  if type(v) ~= "table" then return "table expected, got " .. spec.tname end
  if next(v) == nil then return "tiles is empty; expected rows (tiles[y][x]) or a layer (width, height, data)" end
end
-- also findPath's opts.cost / blocked / occupied (with the option's prefix)
function KINDS.rule(v, spec)
  if type(v) ~= "table" and type(v) ~= "function" then
    return (spec.prefix or "") .. "function or table expected, got " .. spec.tname
  end
end
-- How errors quote a user's string: 40 bytes at most, non-printable bytes as
-- '?', "..." when cut.
local function quoted(v)
  local shown = v:sub(1, 40):gsub("[^\32-\126]", "?")
  return #v > 40 and shown .. "..." or shown
end
local function name_kind(what, list)
  return function(v, spec)
    local prefix = spec.prefix or ""
    if type(v) ~= "string" then return prefix .. "string expected, got " .. spec.tname end
    for _, n in ipairs(list) do if n == v then return nil end end
    local expected = table.concat(list, ", ", 1, #list - 1) .. " or " .. list[#list]
    return ("%sunknown %s '%s'; expected %s"):format(prefix, what, quoted(v), expected)
  end
end
KINDS.diagonal = name_kind("diagonal mode", R.MODES)
KINDS.heuristic = name_kind("heuristic", R.HEURISTICS)
KINDS.algorithm = name_kind("algorithm", { "auto", "astar", "jps" })
function KINDS.weight(v, spec)
  local prefix = spec.prefix or ""
  if v == nil and spec.optional then return nil end
  if type(v) ~= "number" then return prefix .. "number expected, got " .. spec.tname end
  if not (v >= 1) or v == INF then -- luacheck: ignore 581 (NaN)
    return prefix .. "weight must be a finite number >= 1, got " .. text(v)
  end
end

-- findPath's goal: gx may also be a list of goals (a table: not a bad value here).
function KINDS.goal(v, spec)
  if type(v) == "table" then return nil end
  return KINDS.index(v, spec)
end
function KINDS.near(v, spec)
  if type(v) ~= "number" then return spec.prefix .. "number expected, got " .. spec.tname end
  if not (v >= 0) or (v ~= math.floor(v) and v ~= INF) then -- luacheck: ignore 581 (NaN)
    return "opts.near must be a whole number >= 0, got " .. text(v)
  end
end
function KINDS.maxCost(v, spec)
  if type(v) ~= "number" then return spec.prefix .. "number expected, got " .. spec.tname end
  if not (v >= 0) then -- luacheck: ignore 581 (NaN)
    return "opts.maxCost must be a number >= 0, got " .. text(v)
  end
end

-- Signatures: method name, then its arguments as {kind, fields}.
local function idx(name, max) return { kind = "index", name = name, max = max } end
local METHODS = {
  { "setWalkable", idx("x", W), idx("y", H), { kind = "boolean", good = true } },
  { "isWalkable", idx("x", W), idx("y", H) },
  { "setCost", idx("x", W), idx("y", H), { kind = "cost", good = 2 } },
  { "getCost", idx("x", W), idx("y", H) },
  { "setDiagonal", { kind = "diagonal", good = "always" } },
  { "setHeuristic", { kind = "heuristic", good = "octile" }, { kind = "weight", good = 1.5, optional = true } },
  { "findPath", idx("sx", W), idx("sy", H), { kind = "goal", name = "gx", max = W }, idx("gy", H) },
  { "setTiles", { kind = "tiles", good = { { "a" } } }, { kind = "rule", good = { a = 1 } },
    idx("x", W), idx("y", H) },
}
for _, m in ipairs(METHODS) do
  for _, a in ipairs({ unpack(m, 2) }) do
    if a.kind == "index" or a.kind == "goal" then a.good = a.max end
  end
end
METHODS[#METHODS][4].optional = true   -- setTiles: x and y default to 1
METHODS[#METHODS][5].optional = true
-- search:restart (issue 24) reads its query as findPath does; m.on(grid)
-- gives the object the method is called on (the grid, without it)
local function on_search(g) return g:newSearch(1, 1, W, H) end
if astar.new(2, 2):newSearch(1, 1, 2, 2).restart then
  METHODS[#METHODS + 1] = { "restart", idx("sx", W), idx("sy", H),
    { kind = "goal", name = "gx", max = W }, idx("gy", H), on = on_search }
  for i = 2, 5 do METHODS[#METHODS][i].good = METHODS[#METHODS][i].max end
end
-- moves and links (issue 19), on the backends that have them: the second
-- cell a neighbour of the first ((W - 1, H) -> (W, H)), two cells for a link
local HAS_MOVES = astar.new(2, 2).setMove ~= nil
if HAS_MOVES then
  local function move(name, last, ...)
    local m = { name, idx("x1", W), idx("y1", H), idx("x2", W), idx("y2", H), last, ... }
    for i = 2, 5 do m[i].good = m[i].max end
    m[2].good = W - 1
    METHODS[#METHODS + 1] = m
  end
  move("setMove", { kind = "movecost", good = 2 })
  move("getMove")
  move("setWallBetween", { kind = "boolean", good = true, optional = true })
  move("link", { kind = "cost", good = 3 }, { kind = "boolean", good = true, optional = true })
  move("unlink")
  METHODS[#METHODS + 1] = { "getLinks", idx("x", W), idx("y", H) }
  METHODS[#METHODS][2].good, METHODS[#METHODS][3].good = W, H
end
-- board geometry (issue 20)
do
  local function cell(name, ...)
    local m = { name, idx("x", W), idx("y", H), ... }
    m[2].good, m[3].good = W, H
    METHODS[#METHODS + 1] = m
  end
  cell("cellCentre", { kind = "size", good = 16 })
  cell("neighbours")
  METHODS[#METHODS + 1] = { "cellAt", { kind = "pixel", name = "px", good = 3.5 },
    { kind = "pixel", name = "py", good = -1e9 }, { kind = "size", good = 0.5 },
    min_tried = 40 }   -- (every number but nan and +-inf is a pixel)
  local d = { "distance", idx("x1", W), idx("y1", H), idx("x2", W), idx("y2", H) }
  for i = 2, 5 do d[i].good = d[i].max end
  METHODS[#METHODS + 1] = d
end
local OPTIONS = {
  diagonal = { kind = "diagonal" }, heuristic = { kind = "heuristic" },
  weight = { kind = "weight" }, partial = { kind = "boolean" }, algorithm = { kind = "algorithm" },
  flat = { kind = "boolean" }, into = { kind = "into" },
  near = { kind = "near" }, maxCost = { kind = "maxCost" },
  cost = { kind = "rule" }, blocked = { kind = "rule" }, occupied = { kind = "rule" },
}
if HAS_MOVES then OPTIONS.move = { kind = "moverule" } end

-- Every value to try for an argument kind.
local function values_for(kind)
  local list = {}
  for _, t in ipairs(TYPES) do list[#list + 1] = t end
  local numbers = {}
  for _, v in ipairs(NOT_WHOLE) do numbers[#numbers + 1] = v end
  for _, v in ipairs(BAD_NUMBERS) do numbers[#numbers + 1] = v end
  if kind == "index" or kind == "goal" then
    numbers[#numbers + 1] = W + 1
    numbers[#numbers + 1] = 65536
  end
  for _, v in ipairs(numbers) do list[#list + 1] = { v, "number" } end
  if kind == "diagonal" or kind == "heuristic" or kind == "algorithm" then
    for _, s in ipairs({ "NEVER", "never ", " octile", "Octile", "x", "dijkstra2", "auto-", ("n"):rep(100) }) do
      list[#list + 1] = { s, "string" }
    end
  end
  return list
end

local grid = R.build_grid(astar, MAP)
local caller = {}
local function method(name)
  local source = "return function(g, ...) return g:" .. name .. "(...) end"
  caller[name] = caller[name] or assert((loadstring or load)(source))()
  return caller[name]
end

describe("bad-input matrix", function()
  for _, m in ipairs(METHODS) do
    local name, params = m[1], { unpack(m, 2) }
    it(name .. ": every bad value in every argument", function()
      local tried = 0
      for pos, param in ipairs(params) do
        for _, pair in ipairs(values_for(param.kind)) do
          local v = pair[1]
          local spec = { name = param.name, max = param.max, tname = pair[2], optional = param.optional }
          local tail = KINDS[param.kind](v, spec)
          if tail then
            local args = {}
            for i, p in ipairs(params) do args[i] = p.good end
            args[pos] = v
            local before = snapshot(grid)
            check_error(("bad argument #%d to '%s' (%s)"):format(pos, name, tail),
              method(name), m.on and m.on(grid) or grid, unpack(args, 1, #params))
            still_works(grid, before)
            tried = tried + 1
          end
        end
      end
      assert(tried > (m.min_tried or 20 * #params))
    end)
  end

  it("findPath / newSearch / search:restart opts: every bad value of every option", function()
    local fns = { "findPath" }
    if grid.newSearch then fns[2] = "newSearch" end
    local search = grid:newSearch(1, 1, W, H)
    if search.restart then fns[3] = "restart" end
    for _, fname in ipairs(fns) do
      local self = fname == "restart" and search or grid
      for key, o in pairs(OPTIONS) do
        for _, pair in ipairs(values_for(o.kind)) do
          local v = pair[1]
          local tail = v ~= nil
            and KINDS[o.kind](v, { tname = pair[2], prefix = "opts." .. key .. ": ", fname = fname })
          if tail then
            local before = snapshot(grid)
            check_error(("bad argument #5 to '%s' (%s)"):format(fname, tail),
              method(fname), self, 1, 1, W, H, { [key] = v })
            still_works(grid, before)
          end
        end
        -- unknown option names made from the known ones
        for _, bad in ipairs({ key:upper(), key .. "s", key:sub(1, -2), "_" .. key }) do
          check_error(("bad argument #5 to '%s' (unknown option '%s')"):format(fname, bad),
            method(fname), self, 1, 1, W, H, { [bad] = true })
        end
      end
    end
  end)

  it("astar.new: every bad value for width and height", function()
    for pos, pname in ipairs({ "width", "height" }) do
      for _, pair in ipairs(values_for("index")) do
        local tail = KINDS.index(pair[1], { name = pname, max = 65535, tname = pair[2] })
        if tail and pair[1] ~= W + 1 then
          local args = { 3, 3 }
          args[pos] = pair[1]
          check_error(("bad argument #%d to 'new' (%s)"):format(pos, tail), astar.new, args[1], args[2])
        end
      end
    end
  end)

  it("astar.fromTiles: every bad value for tiles and rule", function()
    local tried = 0
    for pos, kind in ipairs({ "tiles", "rule" }) do
      for _, pair in ipairs(values_for(kind)) do
        local tail = KINDS[kind](pair[1], { tname = pair[2] })
        if tail then
          local args = { { { "a" } }, { a = 1 } }
          args[pos] = pair[1]
          check_error(("bad argument #%d to 'fromTiles' (%s)"):format(pos, tail), astar.fromTiles,
            args[1], args[2])
          tried = tried + 1
        end
      end
    end
    assert(tried > 40)
  end)

  it("accepts the extreme valid values and keeps them exactly", function()
    local g = astar.new(3, 3)
    for _, c in ipairs({ 1e15, 4.9406564584124654e-324, 2.2250738585072014e-308, 1e-300, 0.1 }) do
      g:setCost(2, 2, c)
      assert.are.equal(c, g:getCost(2, 2))
    end
    g:setHeuristic("octile", 1.7976931348623157e308)
    local path, cost = g:findPath(1, 1, 3, 3)
    assert.is_table(path)
    assert(cost > 0 and cost < INF)
    g:setHeuristic("octile", 1)
    g:setCost(2, 2, 1e15)
    path, cost = g:findPath(1, 1, 3, 3)
    -- around the 1e15 cell: two straight steps and one diagonal
    assert(R.close(cost, 2 + math.sqrt(2)), "cost " .. cost)
    assert.are.equal(4, #path)
  end)

  it("quotes a very long unknown name cut to 40 bytes, and keeps the whole message", function()
    check_error("bad argument #1 to 'setDiagonal' (unknown diagonal mode '" .. ("n"):rep(40)
      .. "...'; " .. "expected never, always, one-obstacle or no-obstacles)", grid.setDiagonal, grid,
      ("n"):rep(100000))
    check_error("bad argument #5 to 'findPath' (unknown option '" .. ("k"):rep(40) .. "...')",
      grid.findPath, grid, 1, 1, 2, 2, { [("k"):rep(41)] = true })
  end)

  it("rejects strings with an embedded NUL as names (they are not 'never')", function()
    check_error("bad argument #1 to 'setDiagonal' (unknown diagonal mode 'never?x'; "
      .. "expected never, always, one-obstacle or no-obstacles)", grid.setDiagonal, grid, "never\0x")
    check_error("bad argument #1 to 'setHeuristic' (unknown heuristic 'octile?'; "
      .. "expected manhattan, octile, euclidean, chebyshev or dijkstra)", grid.setHeuristic, grid, "octile\0")
    check_error("bad argument #5 to 'findPath' (unknown option 'partial?')",
      grid.findPath, grid, 1, 1, 2, 2, { ["partial\0"] = true })
    check_error("bad argument #5 to 'findPath' (opts.algorithm: unknown algorithm 'jps?'; expected auto, astar or jps)",
      grid.findPath, grid, 1, 1, 2, 2, { algorithm = "jps\0" })
    assert.are.equal("no-obstacles", grid:getDiagonal())
  end)
end)

-- Every method of a grid and of the other objects, including ones this file
-- has no signature for: wrong self and junk arguments never crash.
local JUNK = { nil, NAN, INF, -INF, -1, 0, 0.5, 2 ^ 63, "", "x", {}, true, print, co }

local function clean_error(err)
  return type(err) == "string" and (err:find("^bad argument #%d+ to '") or err:find("^calling '")
    or err:find("^attempt to use a closed ") or err:find("^grid changed") or err:find("^not enough memory"))
end

describe("every method survives junk", function()
  local mt = getmetatable(grid)
  local methods = type(mt.__index) == "table" and mt.__index or {}
  local names = {}
  for name, fn in pairs(methods) do
    if type(fn) == "function" then names[#names + 1] = name end
  end
  table.sort(names)

  for _, name in ipairs(names) do
    it("grid:" .. name, function()
      local fn = methods[name]
      local before = snapshot(grid)
      for _, self in ipairs({ {}, 1, "s", true, print, co }) do
        local ok, err = pcall(fn, self)
        assert(not ok and clean_error(err), name .. " with a bad self: " .. tostring(err))
      end
      local g = R.build_grid(astar, MAP)
      for i = 1, #JUNK + 1 do
        for pos = 1, 5 do
          local args = { 1, 1, W, H, {} }
          args[pos] = JUNK[i]
          local ok, err = pcall(fn, g, unpack(args, 1, 5))
          assert(ok or clean_error(err), name .. ": unexpected error " .. tostring(err))
        end
      end
      still_works(grid, before)
    end)
  end

  if grid.newSearch then
    it("search objects", function()
      local s = grid:newSearch(1, 1, W, H)
      local smt = getmetatable(s)
      for name, fn in pairs(type(smt.__index) == "table" and smt.__index or {}) do
        local ok, err = pcall(fn, grid)
        assert(not ok and clean_error(err), "search:" .. name .. " on a grid: " .. tostring(err))
        for _, v in ipairs(JUNK) do
          ok, err = pcall(fn, s, v)
          assert(ok or clean_error(err), "search:" .. name .. ": " .. tostring(err))
        end
      end
    end)
  end

  it("module functions", function()
    for name, fn in pairs(astar) do
      if type(fn) == "function" then
        for _, v in ipairs(JUNK) do
          local ok, err = pcall(fn, v, v, v)
          assert(ok or clean_error(err), "astar." .. name .. ": " .. tostring(err))
        end
      end
    end
    still_works(grid, snapshot(grid))
  end)
end)

-- dangerZone reads opts' rules through each enemy's range: a point list that no
-- enemy reads (no enemies, or each with its own) is still checked, with the same
-- message (the Lua API fuzzer found one accepted).
describe("dangerZone checks opts' point lists no enemy reads", function()
  local tactics = require "astar.tactics"
  local g = astar.new(8, 10)
  local bad = { occupied = { { x = 2, y = 3 }, { x = 2, y = 22 } } }
  local WANT = "bad argument #2 to 'dangerZone' (opts.occupied[2].y out of range 1..10, got 22)"
  local ENEMY = { x = 3, y = 3, move = 2, minRange = 1, maxRange = 1 }
  local OWN = { x = 3, y = 3, move = 2, minRange = 1, maxRange = 1, occupied = {} }
  for name, enemies in pairs({ ["no enemies"] = {}, ["an enemy that reads it"] = { ENEMY },
    ["an enemy with its own"] = { OWN } }) do
    it(name, function()
      local ok, err = pcall(tactics.dangerZone, g, enemies, bad)
      assert.is_false(ok)
      assert.are.equal(WANT, err)
    end)
  end
  it("calls no rule function when no enemy reads it", function()
    local called = false
    local zone = tactics.dangerZone(g, {}, { blocked = function() called = true end,
      occupied = { { x = 2, y = 3 } } })
    assert.is_false(called)
    assert.are.equal(0, zone:size())
  end)
end)

describe("a unit in a list: size, and zoc's around (issue 21)", function()
  local tactics = require "astar.tactics"
  local g = astar.new(6, 5)
  local hex = astar.newHex(6, 5)
  local function range(board, opts) return function() return board:movementRange(1, 1, 3, opts) end end
  local CASES = {
    { "bad argument #4 to 'movementRange' (opts.occupied[1].size: number expected, got string)",
      range(g, { occupied = { { x = 3, y = 2, size = "2" } } }) },
    { "bad argument #4 to 'movementRange' (opts.occupied[1].size out of range 1..4, got 0)",
      range(g, { occupied = { { x = 3, y = 2, size = 0 } } }) },
    { "bad argument #4 to 'movementRange' (opts.blocked[2].size out of range 1..4, got 1.5)",
      range(g, { blocked = { { x = 1, y = 1 }, { x = 3, y = 2, size = 1.5 } } }) },
    { "bad argument #4 to 'movementRange' (opts.cost[1].size out of range 1..2, got 3)",
      range(g, { cost = { { x = 5, y = 2, size = 3, cost = 2 } } }) },
    { "bad argument #4 to 'movementRange' (opts.occupied[1].size out of range 1..4, got nan)",
      range(g, { occupied = { { x = 3, y = 2, size = 0 / 0 } } }) },
    { "bad argument #4 to 'movementRange' (opts.occupied[1].size: large units need a square grid)",
      range(hex, { occupied = { { x = 3, y = 2, size = 2 } } }) },
    { "bad argument #5 to 'findPath' (opts.blocked[1].size out of range 1..2, got 9)",
      function() return g:findPath(1, 1, 6, 5, { blocked = { { x = 2, y = 4, size = 9 } } }) end },
    { "bad argument #4 to 'movementRange' (opts.zoc.around: table expected, got number)",
      range(g, { zoc = { around = 5 } }) },
    { "bad argument #4 to 'movementRange' (opts.zoc: {around = units} cannot also have key 'foo')",
      range(g, { zoc = { around = {}, foo = 1 } }) },
    { "bad argument #4 to 'movementRange' (opts.zoc.around[1].size out of range 1..1, got 2)",
      range(g, { zoc = { around = { { x = 6, y = 2, size = 2 } } } }) },
    { "bad argument #4 to 'movementRange' (opts.zoc.around[1]: point expected, got number)",
      range(g, { zoc = { around = { 7 } } }) },
    { "bad argument #4 to 'movementRange' (opts.blocked: a table by cell number or a list of points "
      .. "expected, got key 'around')", range(g, { blocked = { around = {} } }) },
    { "bad argument #2 to 'dangerZone' (opts.zoc.around[1].y out of range 1..5, got 6)",
      function() return g:dangerZone({}, { zoc = { around = { { x = 1, y = 6 } } } }) end },
    { "bad argument #1 to 'dangerZone' (enemies[1].zoc.around[1].size out of range 1..5, got -1)",
      function() return g:dangerZone({ { x = 1, y = 1, move = 1, minRange = 1, maxRange = 1,
        zoc = { around = { { x = 1, y = 1, size = -1 } } } } }) end },
    { "bad argument #1 to 'cellSet' (table expected, got number)",
      function() return tactics.cellSet(g, 5) end },
    { "bad argument #1 to 'cellSet' (cells[1].y: number expected, got nil)",
      function() return tactics.cellSet(g, { { x = 1 } }) end },
    { "bad argument #1 to 'cellSet' (cells[1].size out of range 1..5, got 7)",
      function() return tactics.cellSet(g, { { x = 1, y = 1, size = 7 } }) end },
    { "bad argument #1 to 'cellSet' (cells[2]: point expected, got boolean)",
      function() return tactics.cellSet(g, { { x = 1, y = 1 }, true }) end },
  }
  for _, c in ipairs(CASES) do
    it(c[1], function() check_error(c[1], c[2]) end)
  end
end)

describe("grid:firstBlocked's arguments (issue 24)", function()
  local g = astar.new(6, 5)
  local function fb(path, ...)
    local args = table.pack(...)
    return function() return g:firstBlocked(path, unpack(args, 1, args.n)) end
  end
  local walk = { { x = 1, y = 1 }, { x = 2, y = 1 }, { x = 3, y = 2 } }
  local CASES = {
    { "bad argument #1 to 'firstBlocked' (table expected, got no value)",
      function() return g:firstBlocked() end },
    { "bad argument #1 to 'firstBlocked' (table expected, got string)", fb("1,1") },
    { "bad argument #1 to 'firstBlocked' (path is empty)", fb({}) },
    { "bad argument #1 to 'firstBlocked' (flat path has an odd length 3)", fb({ 1, 1, 2 }) },
    { "bad argument #1 to 'firstBlocked' (path[4]: number expected, got string)",
      fb({ 1, 1, 2, "1" }) },
    { "bad argument #1 to 'firstBlocked' (path[2]: point expected, got number)", fb({ { x = 1, y = 1 }, 5 }) },
    { "bad argument #1 to 'firstBlocked' (path[1].y: number expected, got nil)", fb({ { x = 1 } }) },
    { "bad argument #1 to 'firstBlocked' (path[3].x: number expected, got boolean)",
      fb({ { x = 1, y = 1 }, { x = 2, y = 1 }, { x = true, y = 2 } }) },
    { "bad argument #2 to 'firstBlocked' (number expected, got string)", fb(walk, "2") },
    { "bad argument #2 to 'firstBlocked' (from must be a whole number, got 1.5)", fb(walk, 1.5) },
    { "bad argument #2 to 'firstBlocked' (from must be a whole number, got nan)", fb(walk, 0 / 0) },
    { "bad argument #2 to 'firstBlocked' (from out of range 1..4)", fb(walk, 0) },
    { "bad argument #2 to 'firstBlocked' (from out of range 1..4)", fb(walk, 5) },
    { "bad argument #2 to 'firstBlocked' (from out of range 1..3)", fb({ 1, 1, 2, 1 }, 4) },
    -- the point before `from` is read (the step into cell `from` is checked)
    { "bad argument #1 to 'firstBlocked' (path[2]: point expected, got boolean)",
      fb({ { x = 1, y = 1 }, false, { x = 3, y = 2 } }, 3) },
  }
  for _, c in ipairs(CASES) do
    it(c[1], function() check_error(c[1], c[2]) end)
  end
end)

-- map:setSources (issue 24): its list is checked as grid:distanceMap checks
-- sources, under its own name; maps with no grid to move on refuse it.
describe("map:setSources", function()
  it("raises exact messages for bad sources and maps without a grid", function()
    local g = astar.new(64, 5)
    local map = g:distanceMap({ { x = 1, y = 1 } })
    local function bad(msg) return "bad argument #1 to 'setSources' (" .. msg .. ")" end
    check_error(bad("sources[2].x out of range 1..64, got 0"), map.setSources, map,
      { { x = 1, y = 1 }, { x = 0, y = 1 } })
    check_error(bad("sources[1].y out of range 1..5, got 6"), map.setSources, map, { { x = 1, y = 6 } })
    check_error(bad("sources[1].x out of range 1..64, got 1.5"), map.setSources, map, { { x = 1.5, y = 1 } })
    check_error(bad("sources[1]: point expected, got number"), map.setSources, map, { 7 })
    check_error(bad("sources[1].y: number expected, got string"), map.setSources, map, { { x = 1, y = "1" } })
    check_error(bad("sources[1].value: number expected, got boolean"), map.setSources, map,
      { { x = 1, y = 1, value = true } })
    check_error(bad("sources[1].value must be finite, got inf"), map.setSources, map,
      { { x = 1, y = 1, value = INF } })
    check_error(bad("table expected, got string"), map.setSources, map, "x")
    check_error("calling 'setSources' on bad self (astar.DistanceMap expected, got table)", map.setSources, {}, {})
    check_error("calling 'setSources' on a map made by flee or blend", map.setSources, map:flee(), {})
    check_error("calling 'setSources' on a map made by astar.decodeMap", map.setSources,
      astar.decodeMap(map:encode()), {})
    -- a bad list leaves the map as it was
    assert.are.equal(63, map:get(64, 1))
    assert.are.equal(1, map:nearest(64, 1))
  end)
end)

-- Maps built a slice at a time (issue 24): the budgets of update and
-- setSources (the queries' options reader), map:step's, a closed grid.
describe("sliced map builds", function()
  it("raise exact messages for bad budgets and a closed grid", function()
    local g = astar.new(64, 5)
    local map = g:distanceMap({ { x = 1, y = 1 } })
    local function upd(msg) return "bad argument #2 to 'update' (" .. msg .. ")" end
    local function set(msg) return "bad argument #2 to 'setSources' (" .. msg .. ")" end
    check_error(upd("opts.cells must be a whole number >= 1, got 0"), map.update, map, g, { cells = 0 })
    check_error(upd("opts.cells must be a whole number >= 1, got 2.5"), map.update, map, g, { cells = 2.5 })
    check_error(upd("opts.cells must be a whole number >= 1, got nan"), map.update, map, g, { cells = 0 / 0 })
    check_error(upd("opts.cells: number expected, got string"), map.update, map, g, { cells = "9" })
    check_error(upd("opts.seconds must be a number > 0, got 0"), map.update, map, g, { seconds = 0 })
    check_error(upd("opts.seconds: number expected, got boolean"), map.update, map, g, { seconds = true })
    check_error(upd("unknown option 'diagonal'"), map.update, map, g, { diagonal = "never" })
    check_error(upd("table expected, got number"), map.update, map, g, 5)
    check_error(set("opts.cells must be a whole number >= 1, got -1"), map.setSources, map, {}, { cells = -1 })
    check_error(set("opts.seconds must be a number > 0, got -inf"), map.setSources, map, {}, { seconds = -INF })
    check_error(set("unknown option 'cell'"), map.setSources, map, {}, { cell = 1 })
    check_error("bad argument #1 to 'step' (cells must be a whole number >= 1 or math.huge, got 0.5)",
      map.step, map, 0.5)
    check_error("bad argument #1 to 'step' (number expected, got no value)", map.step, map)
    check_error("bad argument #2 to 'step' (seconds must be a number > 0 or math.huge, got 0)",
      map.step, map, 1, 0)
    check_error("calling 'step' on bad self (astar.DistanceMap expected, got table)", map.step, {}, 1)
    check_error("calling 'isBuilding' on bad self (astar.DistanceMap expected, got no value)", map.isBuilding)
    -- a bad budget leaves the map as it was, nothing pending
    assert.is_false(map:isBuilding())
    assert.are.equal(63, map:get(64, 1))
    map:setSources({ { x = 64, y = 5 } }, { cells = 2 })
    assert.is_true(map:isBuilding())
    getmetatable(g).__close(g)
    check_error("calling 'step' on a map whose grid is closed", map.step, map, 1)
    assert.are.equal(63, map:get(64, 1))
    assert.is_false(map:isBuilding())
  end)
end)
