-- The Lua API fuzzer's driver (issue 10), run by fuzz/lua/api_fuzz.c.
--
-- The input bytes are decoded into a small Lua program (M.decode): grids made
-- with new, fromString and decode, cell and settings changes, findPath with
-- options, stepped searches, movement ranges, attack ranges and danger zones
-- whose rules are callbacks, encode / decode, closes, dropped references,
-- collectgarbage in every mode, and finalizers (__gc) planted to run in the
-- middle of later calls. Callbacks and finalizers act at moments chosen by
-- the input: nested queries on the same grid, real and no-op changes, closes,
-- errors with values of every type, yields, collections. Since issue 19 also
-- the grid's moves and links (setMove, setWallBetween, link, unlink, getMove,
-- getLinks; ops 38-39 and action 21, which before were plain findPath calls
-- and range queries) and the move rule (opts.move) of findPath, newSearch,
-- movementRange, dangerZone and the twins' calls.
--
-- The program calls the API only through H (below): every call is made under
-- pcall and its outcome is checked against a mirror of every grid kept here
-- (cells and settings, one snapshot per change) and independent references
-- (Dijkstra for findPath and stepped searches, a bounded 4-direction Dijkstra
-- with the rules for movementRange, plain loops for attackRange and
-- dangerZone, an exact line-of-sight test; all of them over the grid's move
-- overrides and links and with the query's move rule, a path's or a range's
-- walk may take a link between cells that are no neighbours):
--   - a valid call on an open grid during which nothing happened must give
--     the reference's answer (optimal cost at weight 1, valid paths whose cost
--     is the sum of their steps, the same cells and costs in ranges);
--   - a call with a bad argument must raise "bad argument #..." or
--     "calling '...' on bad self";
--   - a call on a closed grid must raise "attempt to use a closed astar.Grid";
--   - with the robustness contract on (flags.contract, the default), calls
--     whose callbacks or finalizers acted are held to it (issue 10): the
--     callback's error value unchanged, "grid closed during <fname>",
--     restarts after a change ("grid changed during <fname>" only after 3;
--     newSearch's rules stop at the first),
--     the yield error, options read raw; otherwise an answer correct for the
--     grid as it was at some moment of the call.
-- A failed check ends the run with a message (the harness aborts, so
-- libFuzzer keeps the input).
--
-- Replay outside the fuzzer (any build of the module, e.g. make's):
--   LUA_PATH="lua/?.lua;lua/?/init.lua;fuzz/lua/?.lua;;" LUA_CPATH="build/5.4/?.so;;" \
--     lua5.4 fuzz/lua/api_driver.lua INPUT            run an input
--     lua5.4 fuzz/lua/api_driver.lua --print INPUT    print its program
--     lua5.4 fuzz/lua/api_driver.lua --program FILE   run a (hand-edited) program
--   (--no-contract or ASTAR_FUZZ_CONTRACT=0: see api_fuzz.c)
local M = {}

local floor, huge = math.floor, math.huge
local mtype = math.type
local format, concat = string.format, table.concat
local pack, unpack = table.pack, table.unpack
local SQRT2 = math.sqrt(2)

local DIAG = { "never", "always", "one-obstacle", "no-obstacles" }
local HEUR = { "manhattan", "octile", "euclidean", "chebyshev", "dijkstra" }
local ALGO = { "auto", "astar", "jps" }
local IS_DIAG, IS_HEUR, IS_ALGO = {}, {}, {}
for _, v in ipairs(DIAG) do IS_DIAG[v] = true end
for _, v in ipairs(HEUR) do IS_HEUR[v] = true end
for _, v in ipairs(ALGO) do IS_ALGO[v] = true end
local MAX_COST = 1e15

local CLOSED_USE = "attempt to use a closed astar.Grid"
local RELEASED = "attempt to use a released astar.Search"
local STOPPED = "search stopped by an error in its rules"
local YIELD_ERRORS = {
  ["attempt to yield across a C-call boundary"] = true,
  ["attempt to yield from outside a coroutine"] = true,
}

-- ---- literals: values as Lua source ------------------------------------------

local lit

local function number_lit(v)
  if v ~= v then return "(0/0)" end
  if v == huge then return "math.huge" end
  if v == -huge then return "-math.huge" end
  if mtype(v) == "integer" then
    if v == math.mininteger then return "math.mininteger" end
    if v == math.maxinteger then return "math.maxinteger" end
    return tostring(v)
  end
  local s
  for digits = 14, 17 do
    s = format("%." .. digits .. "g", v)
    if tonumber(s) == v then break end
  end
  if not s:find("[%.eEni]") then s = s .. ".0" end
  return s
end

-- A value marked as raw source text (slot references, H.fn(...) calls).
local Src = {}
local function src(text) return setmetatable({ text = text }, Src) end

local function is_ident(k) return type(k) == "string" and k:find("^[%a_][%w_]*$") ~= nil end

function lit(v)
  local t = type(v)
  if t == "number" then return number_lit(v) end
  if t == "string" then return (format("%q", v):gsub("\\\n", "\\n")) end
  if t == "table" then
    if getmetatable(v) == Src then return v.text end
    local parts, n = {}, #v
    for i = 1, n do parts[#parts + 1] = lit(v[i]) end
    local keys = {}
    for k in pairs(v) do
      if not (mtype(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
    end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    for _, k in ipairs(keys) do
      local key = is_ident(k) and k or "[" .. lit(k) .. "]"
      parts[#parts + 1] = key .. " = " .. lit(v[k])
    end
    return "{" .. concat(parts, ", ") .. "}"
  end
  return tostring(v)
end

-- ---- the decoder: bytes -> program -----------------------------------------

local MAX_OPS = 64

local COSTS = { 1, 1, 2, 3, 0.5, 9, 1e15, 4.9406564584124654e-324, 0.1, 1e-9, 7.25, 1e15 + 0.125,
  123456.789, 1.0000000000000002, 4, 1 }
local BAD_COSTS = { 0, -1, 0 / 0, huge, 2e15, "2", src("nil"), true }
local WEIGHTS = { 1, 1.5, 2, 10, 1e30, 1e300 }
local BAD_WEIGHTS = { 0.5, huge, 0 / 0, "2", -1 }
local MOVES = { 0, 1, 2, 3, 4, 5, 8, 13, 1.5, 2.5, huge, 1e300, 30, 6 }
local BAD_MOVES = { -1, 0 / 0, "5", -huge }
local RANGES = { 0, 1, 1, 2, 2, 3, 4, 6, 2 ^ 32, 2 ^ 53, math.maxinteger, 2 ^ 31, 40, 1 }
local BAD_RANGES = { -1, 1.5, huge, 0 / 0, "1" }
local STEPS = { 1, 1, 2, 3, 5, 10, 100, huge }
local BAD_STEPS = { 0, 1.5, -1, 0 / 0, "1" }
-- issue 21: step's time budget (1e-9: one chunk of 256 expansions a call)
local SECONDS = { 1e-9, 1e-9, 1e-3, huge }
local BAD_SECONDS = { 0, -1, 0 / 0, "1", -huge }
-- issue 19: the costs of setMove and link, the offsets of a move's second cell
local MOVE_COSTS = { 1, 2, false, 0.5, 3, src("nil"), 1e15, 7.25, false, 1.5, 0.25, 10 }
local BAD_MOVE_COSTS = { 0, -1, 0 / 0, huge, 2e15, "1", true }
local STEP9 = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 }, { 0, 0 } }
-- issue 20: opts.smooth, mostly absent; "theta" runs in the C module (the
-- driver links no other backend); grid:smoothPath's options
local SMOOTH = {}   -- (one local: the main chunk is near its 200)
SMOOTH.VALUES = { false, "corners", "sight", "theta", "sight", "corners", true, "bezier" }
SMOOTH.PATH_OPTS = { "nil", "{}", "{smooth = \"corners\"}", "{smooth = \"sight\", flat = true}",
  "{smooth = false, into = {}}", "{diagonal = \"always\"}", "{diagonal = \"never\", smooth = \"sight\"}",
  "{smooth = \"theta\"}", "{smooth = \"corners\", diagonal = \"one-obstacle\", into = {5, {}}}",
  "{flat = false}", "{size = 2}", "{diagonal = \"no-obstacles\"}" }
SMOOTH.FROMS = { src("nil"), 1, 2, 3, 5, 9, 40, 0, 1.5, "2", 0 / 0, src("nil") }   -- issue 24: firstBlocked's from
local THROWN = { "boom", src("{}"), src("nil"), false, 42, 1.5, src("G[1]"), src("print"),
  "grid closed during movementRange", src("coroutine.running()"), src("setmetatable({}, {})"), true }

function M.decode(input)
  local pos, n = 1, #input
  local function b()
    if pos > n then return 0 end
    local v = input:byte(pos)
    pos = pos + 1
    return v
  end
  local function pick(t) return t[b() % #t + 1] end
  local dims = {}
  local live = { S = {}, R = {}, D = {} }
  -- a slot number, mostly one that was assigned (dims for grids, live.S, live.R)
  local function slot_of(t)
    local v = b()
    local k = v % 4 + 1
    if v >= 224 then return k end
    for i = 0, 3 do
      local j = (k + i - 1) % 4 + 1
      if t[j] then return j end
    end
    return k
  end
  local function slot() return slot_of(dims) end
  local function sslot() return slot_of(live.S) end
  local function rslot() return slot_of(live.R) end
  local function dslot() return slot_of(live.D) end
  local function dim(k)
    local d = dims[k]
    if d then return d[1], d[2] end
    return 8, 8
  end
  -- a coordinate in 1..max, now and then a bad one
  local function coord(max)
    local v = b()
    if v < 248 then return v % max + 1 end
    return ({ 0, max + 1, 1.5, 0 / 0, "1", src("nil"), -1, 2 ^ 53 })[v - 247]
  end
  local function size()
    local v = b()
    if v < 150 then return 1 + v % 8 end
    if v < 250 then return 1 + v % 32 end
    return ({ 0, -1, 1.5, 0 / 0, "8", 70000 })[v - 249]
  end
  local function maybe_bad(good, bad, odds)
    local v = b()
    if v < 256 - (odds or 8) then return good[v % #good + 1] end
    return bad[v % #bad + 1]
  end

  local gen_action, gen_rules, gen_query_opts, gen_walk_opts

  -- issue 20: a line that smooths V[v] (a path, or whatever the slot holds)
  -- over grid G, with options picked from where the input is (no byte read)
  local function smooth_after(G, v)
    return format("\nH.smoothPath(%s, V[%d], %s)", G, v, SMOOTH.PATH_OPTS[(pos + v) % #SMOOTH.PATH_OPTS + 1])
  end

  local function path_opts(k, into_ok)
    local flags = b()
    if flags < 40 then return nil end
    if flags >= 252 then return ({ 1, "opts", true, src("G[" .. k .. "]") })[flags - 251] end
    local o = {}
    local f2 = b()
    if flags & 1 ~= 0 then o.diagonal = maybe_bad(DIAG, { "diag", 1, "" }, 4) end
    if flags & 2 ~= 0 then o.heuristic = maybe_bad(HEUR, { "astar", 2 }, 4) end
    if flags & 4 ~= 0 then o.weight = maybe_bad(WEIGHTS, BAD_WEIGHTS, 6) end
    if flags & 8 ~= 0 then o.partial = maybe_bad({ true, false }, { 1, "yes" }, 4) end
    if flags & 16 ~= 0 then o.flat = maybe_bad({ true, false }, { 0 }, 4) end
    if flags & 32 ~= 0 and into_ok ~= false then
      o.into = f2 & 1 ~= 0 and src("V[" .. (f2 >> 1 & 3) + 1 .. "]") or {}
    end
    if flags & 64 ~= 0 then o.algorithm = maybe_bad(ALGO, { "dijkstra", 3 }, 4) end
    if f2 >> 4 >= 7 then o.smooth = SMOOTH.VALUES[(f2 >> 4) - 6] end   -- issue 20 (bits not read before)
    if f2 >= 240 then o[({ "diagnoal", 1, "Weight", "into2" })[f2 % 4 + 1]] = true end
    if flags & 128 ~= 0 and f2 & 8 ~= 0 then
      return src("H.trap(" .. lit(o) .. ")")
    end
    return o
  end

  local ROLES = { "blocked", "cost", "occupied", "zoc" }

  -- a list of points for a rule (issue 17: long lists, so that finalizers
  -- run while the call reads them), on the dimensions of grid slot k
  -- lists longer than 16 in one program: one, of at most 1200 points. A list
  -- is turned into a table in a few allocations whatever its length, so a
  -- longer one finds no more; under ASan with an eager collector each costs
  -- seconds, and libFuzzer's timeout is per program.
  local long_lists = 1
  local function long_len(len)
    if len <= 16 then return len end
    if long_lists <= 0 then return 1 + len % 16 end
    long_lists = long_lists - 1
    return len
  end
  local function pts_list(role, k)
    local w, h = dim(k)
    local v = b()
    local len = long_len(v < 96 and 1 + v % 16 or (v < 248 and 16 + v % 8 * 100 or 1200))
    if role == "zoc" and v % 2 == 0 then   -- the units it is around (issue 21)
      return src(format("H.around(%d, %d, %d, %d)", b() * 256 + b(), len, w, h))
    end
    return src(format("H.pts(%q, %d, %d, %d, %d)", role, b() * 256 + b(), len, w, h))
  end

  local function rule(role, k, nest)
    local seed, dens = b() * 256 + b(), b() % 16
    local form = b() % 4
    if form == 0 then
      return src(format("H.tbl(%q, %d, %d, G[%d])", role, seed, dens, k))
    elseif form == 1 and role ~= "sight" then
      return pts_list(role, k)
    end
    local trig = {}
    local nt = b() % 6
    if nt > 3 then nt = 0 end
    for _ = 1, nt do
      local v = b()
      local at = v < 216 and 1 + v % 24 or -(1 + v % 5)   -- negative: every -at calls
      local a = gen_action(k, nest + 1)
      if a then trig[#trig + 1] = { at, a } end
    end
    return src(format("H.fn(%q, %d, %d, %s)", role, seed, dens, #trig > 0 and lit(trig) or "nil"))
  end

  -- issue 19: a move rule (opts.move), a function of the move; now and then
  -- a value that is not one (the option's error). calm: no actions (a
  -- stepped search's rule).
  local function move_rule(k, nest, calm)
    local v = b()
    if v >= 250 then return ({ 3, "f", true, src("{}"), src("G[1]"), false })[v - 249] end
    local seed, dens = b() * 256 + b(), b() % 16
    local trig = {}
    local nt = calm and 0 or b() % 6
    if nt > 3 then nt = 0 end
    for _ = 1, nt do
      local t = b()
      local at = t < 216 and 1 + t % 24 or -(1 + t % 5)
      local a = gen_action(k, nest + 1)
      if a then trig[#trig + 1] = { at, a } end
    end
    return src(format("H.fn(\"move\", %d, %d, %s)", seed, dens, #trig > 0 and lit(trig) or "nil"))
  end

  function gen_rules(k, nest, roles_only)
    local flags = b()
    if flags < 48 and not roles_only then return nil end
    local o = {}
    for i, role in ipairs(ROLES) do
      if flags & (1 << (i - 1)) ~= 0 then o[role] = rule(role, k, nest) end
    end
    if flags >= 250 and not roles_only then o[({ "cost", "zoc", "foo", 1, "blocked", "cost" })[flags - 249]] = 7 end
    if flags & 16 ~= 0 and flags & 32 ~= 0 and not roles_only then return src("H.trap(" .. lit(o) .. ")") end
    return o
  end

  local function sight(k, nest)
    local v = b() % 8
    if v < 3 then return nil end
    if v == 3 then return true end
    if v == 4 then return false end
    if v == 5 and b() > 240 then return 1 end
    return rule("sight", k, nest)
  end

  -- options of findPath / newSearch / distanceMap (map: only theirs) with
  -- rules as functions, tables or long lists of points
  function gen_query_opts(k, nest, map)
    local o = {}
    local f = b()
    if f & 1 ~= 0 then o.blocked = rule("blocked", k, nest) end
    if f & 2 ~= 0 then o.cost = rule("cost", k, nest) end
    if f & 4 ~= 0 and not map then o.occupied = rule("occupied", k, nest) end
    if f & 8 ~= 0 then o.size = ({ 1, 2, 3, 2, 0 })[b() % 5 + 1] end
    if f & 16 ~= 0 then o.diagonal = pick(DIAG) end
    if f & 32 ~= 0 then o.maxCost = ({ 5, 20, 0, 2.5 })[b() % 4 + 1] end
    if not map then
      if f & 64 ~= 0 then o.near = b() % 3 end
      if f & 128 ~= 0 then o.partial = true end
      local v = b()
      if v % 4 == 0 then o.flat = true end
      if v >> 2 >= 50 then o.smooth = SMOOTH.VALUES[(v >> 2) - 49] end   -- issue 20 (bits not read before)
    end
    return o
  end

  -- map:pathFrom's walk limits (issue 21), now and then a bad value
  function gen_walk_opts(w, h)
    local o = {}
    local f = b()
    if f & 1 ~= 0 then o.maxCost = ({ 0, 2.5, 5, 1, -1 })[b() % 5 + 1] end
    if f & 2 ~= 0 then o.near = ({ 0, 1, 2, 1.5 })[b() % 4 + 1] end
    if f & 4 ~= 0 then
      local list = {}
      for i = 1, b() % 5 do list[i] = { x = coord(w), y = coord(h) } end
      o.blocked = b() % 8 == 0 and "bad" or list
    end
    if f & 8 ~= 0 then o.flat = true end
    return o
  end

  local function enemies(k, nest)
    local list = {}
    local w, h = dim(k)
    for _ = 1, b() % 4 do
      local e = { x = coord(w), y = coord(h), move = maybe_bad(MOVES, BAD_MOVES, 4),
        minRange = maybe_bad(RANGES, BAD_RANGES, 4), maxRange = maybe_bad(RANGES, BAD_RANGES, 4) }
      if type(e.minRange) == "number" and type(e.maxRange) == "number" and e.minRange > e.maxRange
          and b() % 4 ~= 0 then
        e.minRange, e.maxRange = e.maxRange, e.minRange
      end
      local own = b()
      if own >= 192 then
        local r = gen_rules(k, nest, true)
        for role, v in pairs(r) do e[role] = v end
      end
      list[#list + 1] = e
    end
    return list
  end

  local function zone_opts(k, nest)
    local o = gen_rules(k, nest, true)
    local s = sight(k, nest)
    if s ~= nil then o.lineOfSight = s end
    if b() > 250 then o.range = 1 end
    if next(o) == nil and b() % 2 == 0 then return nil end
    return o
  end

  local function range_pair()
    local lo, hi = maybe_bad(RANGES, BAD_RANGES, 6), maybe_bad(RANGES, BAD_RANGES, 6)
    if type(lo) == "number" and type(hi) == "number" and lo > hi and b() % 8 ~= 0 then lo, hi = hi, lo end
    return lo, hi
  end

  -- An action for a callback or a finalizer, on grid slot k mostly.
  function gen_action(k, nest)
    if nest > 2 then return nil end
    local kind = b() % 29
    local g = b() % 4 == 0 and slot() or k
    local w, h = dim(g)
    if kind <= 1 then
      return { "findPath", g, coord(w), coord(h), coord(w), coord(h), path_opts(g, false) }
    elseif kind == 2 then
      return { "range", g, coord(w), coord(h), pick(MOVES), gen_rules(g, nest) }
    elseif kind == 3 then
      return { "search", g, coord(w), coord(h), coord(w), coord(h), pick(STEPS) }
    elseif kind == 4 then
      local lo, hi = range_pair()
      return { "attack", g, rslot(), lo, hi, sight(g, nest) }
    elseif kind == 5 then
      return { "danger", g, enemies(g, nest), zone_opts(g, nest) }
    elseif kind <= 7 then
      return { "wall", g, coord(w), coord(h), b() % 2 == 0 }
    elseif kind <= 9 then
      return { "cost", g, coord(w), coord(h), pick(COSTS) }
    elseif kind == 10 then
      return { "diag", g, pick(DIAG), pick(HEUR) }
    elseif kind <= 12 then
      return { "close", g, b() % 4 }
    elseif kind == 13 then
      return { "drop", g }
    elseif kind == 14 then
      return { "throw", pick(THROWN) }
    elseif kind == 15 then
      return { "yield" }
    elseif kind == 16 then
      return { "gc", pick({ "collect", "step", "count", "incremental", "generational" }) }
    elseif kind == 17 then
      return { "encode", g }
    elseif kind == 18 then
      return { "step", sslot(), pick(STEPS), b() % 3 == 0, b() % 2 == 0 and pick(SECONDS) or nil }
    elseif kind == 19 then
      local a = gen_action(k, nest + 1)
      return a and { "bomb", a, 1 + b() % 4 } or { "gc", "step" }
    elseif kind == 20 then
      return { "new", g, 1 + b() % 8, 1 + b() % 8 }
    elseif kind == 21 then
      -- issue 19: an edit of the moves, a query with a move rule (or, as
      -- before, a range's methods)
      local sub = b() % 4
      if sub == 1 then
        local x, y = coord(w), coord(h)
        local d = STEP9[b() % 9 + 1]
        local x2 = type(x) == "number" and x + d[1] or x
        local y2 = type(y) == "number" and y + d[2] or y
        return { "moves", g, b() % 5, x, y, x2, y2, pick(MOVE_COSTS) }
      elseif sub == 2 then
        return { "findPath", g, coord(w), coord(h), coord(w), coord(h), { move = move_rule(g, nest) } }
      elseif sub == 3 then
        return { "range", g, coord(w), coord(h), pick(MOVES), { move = move_rule(g, nest) } }
      end
      return { "rangeQuery", rslot(), coord(w), coord(h) }
    elseif kind == 22 then
      return { "update", dslot(), g }
    elseif kind == 23 then
      return { "mapcall", dslot(), pick({ "encode", "cells", "flee", "size" }) }
    elseif kind == 24 then
      return { "find2", g, coord(w), coord(h), coord(w), coord(h), gen_query_opts(g, nest) }
    elseif kind == 25 then
      return { "dmap", dslot(), g, src(format("H.srcs(%d, %d, %d, %d)", b() * 256 + b(), 1 + b() % 40, w, h)),
        gen_query_opts(g, nest, true) }
    elseif kind == 26 then
      return { "setSources", dslot(), src(format("H.srcs(%d, %d, %d, %d)", b() * 256 + b(), b() % 40, w, h)) }
    elseif kind == 27 then
      -- a build a slice at a time (issue 24): update or setSources with a budget
      local sources = b() % 2 == 0 and src(format("H.srcs(%d, %d, %d, %d)", b() * 256 + b(), b() % 40, w, h))
      return { "sliced", dslot(), g, sources or false, 1 + b() % 64, b() % 3 == 0 }
    elseif kind == 28 then
      return { "mapStep", dslot(), 1 + b() % 64, b() % 3 == 0 }
    end
    return { "rangeQuery", rslot(), coord(w), coord(h) }
  end

  local lines = { "local H, G, S, R, V, D = ...", "H.gc(\"incremental\", " .. b() % 4 * 50 .. ", " ..
    100 + b() % 4 * 300 .. ", " .. b() % 4 .. ")" }
  do
    local w, h = 1 + b() % 12, 1 + b() % 12
    dims[1] = { w, h }
    lines[#lines + 1] = format("G[1] = H.new(%d, %d)", w, h)
  end

  local function gen_text_grid()
    local w, h = 1 + b() % 32, 1 + b() % 32
    if b() < 160 then w, h = 1 + w % 8, 1 + h % 8 end
    local seed, dens, variant = b() * 256 + b(), b() % 6, b() % 16
    local s = seed
    local rows = {}
    for y = 1, h do
      local row = {}
      for x = 1, w do
        s = (s * 1103515245 + 12345) % 2147483648
        local r = s >> 16
        if r % 16 < dens then row[x] = "#"
        elseif r % 16 >= 13 then row[x] = tostring(1 + (r >> 4) % 9)
        else row[x] = "." end
      end
      if variant == 0 and y == h and w > 1 then row[w] = nil end
      if variant == 3 and y == 1 then row[1] = "x" end
      rows[y] = concat(row)
    end
    local nl = variant == 1 and "\r\n" or "\n"
    local text = concat(rows, nl)
    if variant == 2 or variant == 1 then text = text .. nl end
    if variant == 4 then text = "" end
    if variant >= 13 then
      -- a Moving AI map instead (variant 15: without its "map" line)
      local map = { "type octile", "height " .. h, "width " .. w, "map" }
      if variant == 15 then map[4] = nil end
      for y = 1, h do
        local row = rows[y]:gsub("#", function() return ({ "@", "T", "O", "W" })[y % 4 + 1] end)
        map[#map + 1] = row:gsub("[1-9]", function(c) return ({ ".", "G", "S" })[tonumber(c) % 3 + 1] end)
      end
      text = concat(map, nl) .. nl
    end
    return text, w, h, variant >= 13
  end

  -- issue 17: the other functions and methods, long lists in their arguments
  local function long_n()
    local v = b()
    return long_len(v < 128 and 1 + v % 16 or (v < 250 and 16 + v % 10 * 60 or 1200))
  end
  local function statement17(op, k, G, w, h)
    local v = b() % 4 + 1
    if op <= 1 then
      local goal = op == 0 and lit(coord(w)) .. ", " .. lit(coord(h))
        or format("H.pts(\"goal\", %d, %d, %d, %d)", b() * 256 + b(), long_n(), w, h)
      local o = gen_query_opts(k, 0)
      if b() % 4 == 0 then o.into = src("V[" .. v .. "]") end
      return format("V[%d] = H.find2(%s, %s, %s, %s, %s)", v, G, lit(coord(w)), lit(coord(h)), goal, lit(o))
    elseif op == 2 then
      local goal = b() % 2 == 0 and lit(coord(w)) .. ", " .. lit(coord(h))
        or format("H.pts(\"goal\", %d, %d, %d, %d)", b() * 256 + b(), long_n(), w, h)
      return format("V[%d] = H.search2(%s, %s, %s, %s, %s)", v, G, lit(coord(w)), lit(coord(h)), goal,
        lit(gen_query_opts(k, 0)))
    elseif op == 3 then
      local o = gen_rules(k, 0, true)
      if b() % 2 == 0 then o.diagonal = pick(DIAG) end
      if b() % 2 == 0 then o.size = 1 + b() % 3 end
      return format("V[%d] = H.range2(%s, %s, %s, %s, %s)", v, G, lit(coord(w)), lit(coord(h)), lit(pick(MOVES)),
        lit(o))
    elseif op == 4 then
      live.D[v] = true
      return format("D[%d] = H.distanceMap(%s, H.srcs(%d, %d, %d, %d), %s)", v, G, b() * 256 + b(), long_n(), w, h,
        lit(gen_query_opts(k, 0, true)))
    elseif op == 5 then
      local m = pick({ "get", "nextStep", "nearest", "pathFrom", "size", "cells", "getDimensions", "encode" })
      local args = ""
      if m == "get" or m == "nextStep" or m == "nearest" then args = ", " .. lit(coord(w)) .. ", " .. lit(coord(h)) end
      if m == "pathFrom" then
        args = ", " .. lit(coord(w)) .. ", " .. lit(coord(h)) .. ", "
          .. ({ "nil", "{flat = true}", "{into = V[" .. v .. "]}", "{into = {}, flat = true}",
            lit(gen_walk_opts(w, h)), "{smooth = \"corners\"}", "{smooth = \"theta\", flat = true}" })[b() % 7 + 1]
      end
      if m == "cells" and b() % 2 == 0 then args = ", V[" .. v .. "]" end
      return format("V[%d] = H.mapCall(D[%d], %q%s)", v, dslot(), m, args)
        .. (m == "pathFrom" and smooth_after(G, v) or "")
    elseif op == 6 then
      live.D[v] = true
      return format("D[%d] = H.mapCall(D[%d], \"flee\", %s)", v, dslot(), lit(pick({ 1.2, 0.5, 3, 1 })))
    elseif op == 7 then
      live.D[v] = true
      return format("D[%d] = H.blend({D[%d], %s, D[%d], %s}, %s)", v, dslot(), lit(pick({ 1, -0.5, 2 })), dslot(),
        lit(pick({ 1, 0.25, -1 })), b() % 2 == 0 and "{rescan = true}" or "nil")
    elseif op == 8 then
      local sub = b() % 4
      if sub == 0 then
        live.D[v] = true
        return format("D[%d] = H.decodeMap(D[%d])", v, dslot())
      elseif sub == 2 then
        -- a build a slice at a time (issue 24), left pending for the statements after
        local sources = b() % 2 == 0 and format("H.srcs(%d, %d, %d, %d)", b() * 256 + b(), b() % 40, w, h)
        return format("H.sliced(D[%d], %s, %s, %d, %s)", dslot(), G, sources or "false", 1 + b() % 64,
          tostring(b() % 3 == 0))
      elseif sub == 3 then
        if b() % 4 == 0 then return format("H.isBuilding(D[%d])", dslot()) end
        return format("H.mapStep(D[%d], %d, %s)", dslot(), 1 + b() % 64, tostring(b() % 3 == 0))
      end
      return format("H.update(D[%d], %s)", dslot(), G)
    elseif op == 9 then
      local obj = b() % 2 == 0 and "R[" .. rslot() .. "]" or "V[" .. v .. "]"
      local m = pick({ "cells", "pathTo", "size", "getStart", "getGridDimensions", "contains", "costTo", "count",
        "getDiagonal" })
      local args = ""
      if m == "cells" and b() % 2 == 0 then args = ", {}" end
      if m == "pathTo" or m == "contains" or m == "costTo" or m == "count" then
        args = ", " .. lit(coord(w)) .. ", " .. lit(coord(h))
        if m == "pathTo" then
          args = args .. ", " .. ({ "nil", "{flat = true}", "{into = {{x = 0}, 5}}", "{smooth = \"corners\"}",
            "{smooth = \"sight\"}", "{smooth = \"corners\", flat = true}" })[b() % 6 + 1]
          return format("V[%d] = H.objCall(%s, %q%s)", v, obj, m, args) .. smooth_after(G, v)
        end
      end
      return format("H.objCall(%s, %q%s)", obj, m, args)
    elseif op == 10 then
      -- the tiles as rows, a Tiled layer, an STI layer or a layer whose
      -- width is one short (H.tiles); the rule a table with a default, a
      -- function or a table without a default (H.tileRule)
      local tw, th = 1 + b() % 12, 1 + b() % 12
      if b() % 2 == 0 then
        dims[k] = { tw, th }
        return format("%s = H.fromTiles(H.tiles(%d, %d, %d, %d), H.tileRule(%d))", G, b() * 256 + b(), tw, th,
          b() % 4, b() % 3)
      end
      return format("H.gridCall(%s, \"setTiles\", H.tiles(%d, %d, %d, %d), H.tileRule(%d), %s, %s)", G,
        b() * 256 + b(), 1 + b() % w, 1 + b() % h, b() % 4, b() % 3, lit(coord(w)), lit(coord(h)))
    end
    local which = b() % 4
    if which == 0 then
      local hw, hh = 1 + b() % 10, 1 + b() % 10
      return format("H.hex(%d, %d, %q, %d, %d, %d, %d)", hw, hh, pick({ "odd-r", "even-r", "odd-q", "even-q" }),
        1 + b() % hw, 1 + b() % hh, 1 + b() % hw, 1 + b() % hh)
    elseif which == 1 then
      return format("H.tacticsCall(%s, \"cellSet\", H.pts(\"cells\", %d, %d, %d, %d))", G, b() * 256 + b(),
        long_n(), w, h)
    elseif which == 2 then
      return format("H.tacticsCall(%s, \"cellIndex\", %s, %s)", G, lit(coord(w)), lit(coord(h)))
    end
    local u = b()
    if u < 128 then return format("H.gridCall(%s, %q)", G, ({ "getShape", "getLayout" })[u % 2 + 1]) end
    -- issue 24: a walk checked for cells that became walls, from a cell
    if u % 4 == 1 then
      return format("H.firstBlocked(%s, H.walk(%s, %d, %d), %s)", G, G, pos * 251 + u, 1 + u % 40,
        lit(SMOOTH.FROMS[b() % #SMOOTH.FROMS + 1]))
    end
    -- issue 20: a walk over the grid (now and then a broken one), smoothed
    return format("H.smoothPath(%s, H.walk(%s, %d, %d), %s)", G, G, pos * 251 + u, 1 + u % 40,
      SMOOTH.PATH_OPTS[u % #SMOOTH.PATH_OPTS + 1])
  end

  -- issue 19: moves and links (ops 38 and 39, before them plain findPath calls)
  local function second(x, y, w, h, ortho)
    local v = b()
    if v >= 240 then return coord(w), coord(h) end
    local d = STEP9[v % (ortho and 4 or 9) + 1]
    if v % 16 == 15 then d = STEP9[9] end
    if type(x) ~= "number" or type(y) ~= "number" then return x, y end
    return x + d[1], y + d[2]
  end
  local function statement19(op, k, G, w, h)
    local x, y = coord(w), coord(h)
    if op <= 1 then
      local x2, y2 = second(x, y, w, h)
      return format("H.setMove(%s, %s, %s, %s, %s, %s)", G, lit(x), lit(y), lit(x2), lit(y2),
        lit(maybe_bad(MOVE_COSTS, BAD_MOVE_COSTS, 10)))
    elseif op == 2 then
      local x2, y2 = second(x, y, w, h, true)
      return format("H.setWallBetween(%s, %s, %s, %s, %s, %s)", G, lit(x), lit(y), lit(x2), lit(y2),
        lit(maybe_bad({ true, false, true, src("nil") }, { 1, "yes" }, 6)))
    elseif op <= 4 then
      local x2, y2 = coord(w), coord(h)
      if b() % 4 == 0 then x2, y2 = second(x, y, w, h) end
      local oneway = ({ "", ", true", ", false", ", nil", ", 1" })[b() % 5 + 1]
      return format("H.link(%s, %s, %s, %s, %s, %s%s)", G, lit(x), lit(y), lit(x2), lit(y2),
        lit(maybe_bad({ 1, 0.5, 2, 5, 0.25, 1e15, 3, 1.5 }, BAD_MOVE_COSTS, 8)), oneway)
    elseif op == 5 then
      local x2, y2 = coord(w), coord(h)
      if b() % 2 == 0 then x2, y2 = second(x, y, w, h) end
      return format("H.unlink(%s, %s, %s, %s, %s)", G, lit(x), lit(y), lit(x2), lit(y2))
    elseif op == 6 then
      local x2, y2 = second(x, y, w, h)
      local lx, ly = coord(w), coord(h)
      return format("H.getMove(%s, %s, %s, %s, %s)\nH.getLinks(%s, %s, %s)\nH.neighbours(%s, %s, %s)", G, lit(x),
        lit(y), lit(x2), lit(y2), G, lit(lx), lit(ly), G, lit(lx), lit(ly))
    elseif op == 7 then
      return format("H.manyMoves(%s, %d, %d)", G, b() * 256 + b(), 1 + b() % 24)
    elseif op <= 9 then
      local o = path_opts(k)
      if type(o) ~= "table" or getmetatable(o) == Src then o = {} end   -- (not a trap's or a bad value)
      o.move = move_rule(k, 0)
      return format("V[%d] = H.findPath(%s, %s, %s, %s, %s, %s)", b() % 4 + 1, G, lit(x), lit(y),
        lit(coord(w)), lit(coord(h)), lit(o))
    elseif op == 10 then
      local j = b() % 4 + 1
      live.S[j] = true
      local o = path_opts(k, false)
      if type(o) ~= "table" or getmetatable(o) == Src then o = {} end
      o.move = move_rule(k, 0, true)
      return format("S[%d] = H.newSearch(%s, %s, %s, %s, %s, %s)", j, G, lit(x), lit(y),
        lit(coord(w)), lit(coord(h)), lit(o))
    elseif op == 11 then
      local j = b() % 4 + 1
      live.R[j] = true
      local o = gen_rules(k, 0, true)
      o.move = move_rule(k, 0)
      return format("R[%d] = H.movementRange(%s, %s, %s, %s, %s)", j, G, lit(x), lit(y),
        lit(maybe_bad(MOVES, BAD_MOVES, 6)), lit(o))
    elseif op == 12 then
      local o = zone_opts(k, 0) or {}
      o.move = move_rule(k, 0)
      return format("V[%d] = H.dangerZone(%s, %s, %s)", b() % 4 + 1, G, lit(enemies(k, 0)), lit(o))
    end
    -- the twins' calls with a move rule
    local o = gen_query_opts(k, 0)
    o.move = move_rule(k, 0)
    local v = b() % 4 + 1
    local which = b() % 4
    if which == 3 then
      -- a distance map with the move rule, against its twin
      local mo = gen_query_opts(k, 0, true)
      mo.move = o.move
      live.D[v] = true
      return format("D[%d] = H.distanceMap(%s, H.srcs(%d, %d, %d, %d), %s)", v, G, b() * 256 + b(),
        1 + b() % 8, w, h, lit(mo))
    end
    if which == 0 then
      return format("V[%d] = H.find2(%s, %s, %s, %s, %s, %s)", v, G, lit(x), lit(y), lit(coord(w)), lit(coord(h)),
        lit(o))
    elseif which == 1 then
      return format("V[%d] = H.search2(%s, %s, %s, %s, %s, %s)", v, G, lit(x), lit(y), lit(coord(w)),
        lit(coord(h)), lit(o))
    end
    local r = gen_rules(k, 0, true)
    r.move = o.move
    return format("V[%d] = H.range2(%s, %s, %s, %s, %s)", v, G, lit(x), lit(y), lit(pick(MOVES)), lit(r))
  end

  local function statement(depth)
    local op = b() % 52
    local k = op <= 5 and b() % 4 + 1 or slot()
    local w, h = dim(k)
    local G = "G[" .. k .. "]"
    if op <= 2 then
      local sw, sh = size(), size()
      if type(sw) == "number" and type(sh) == "number" and sw >= 1 and sw <= 32 and sh >= 1 and sh <= 32
          and sw == floor(sw) and sh == floor(sh) then
        dims[k] = { sw, sh }
      end
      return format("%s = H.new(%s, %s)", G, lit(sw), lit(sh))
    elseif op == 3 then
      local text, tw, th, movingai = gen_text_grid()
      dims[k] = { tw, th }
      return format("%s = H.%s(%s)", G, movingai and "fromMovingAI" or "fromString", lit(text))
    elseif op == 4 then
      local len = b() % 48
      local bytes = input:sub(pos, pos + len - 1)
      pos = pos + len
      return format("%s = H.decode(%s)", G, lit(bytes))
    elseif op == 5 then
      local from = slot()
      dims[k] = dims[from]
      return format("%s = H.reencode(G[%d], %d, %d, %d)", G, from, b(), b(), b() % 4)
    elseif op <= 8 then
      local v = maybe_bad({ true, false }, { src("nil"), 1, "true" }, 6)
      return format("H.setWalkable(%s, %s, %s, %s)", G, lit(coord(w)), lit(coord(h)), lit(v))
    elseif op <= 10 then
      return format("H.setCost(%s, %s, %s, %s)", G, lit(coord(w)), lit(coord(h)),
        lit(maybe_bad(COSTS, BAD_COSTS, 10)))
    elseif op == 11 then
      if b() % 2 == 0 then
        return format("H.setDiagonal(%s, %s)", G, lit(maybe_bad(DIAG, { "diag", 3, src("nil") }, 6)))
      end
      local weight = b() % 3 == 0 and ", " .. lit(maybe_bad(WEIGHTS, BAD_WEIGHTS, 10)) or ""
      return format("H.setHeuristic(%s, %s%s)", G, lit(maybe_bad(HEUR, { "astar", 1 }, 6)), weight)
    elseif op <= 15 then
      -- (issue 20: and the path, whatever it is, smoothed over the grid)
      local v = b() % 4 + 1
      return format("V[%d] = H.findPath(%s, %s, %s, %s, %s, %s)", v, G, lit(coord(w)), lit(coord(h)),
        lit(coord(w)), lit(coord(h)), lit(path_opts(k))) .. smooth_after(G, v)
    elseif op <= 17 then
      if b() % 3 == 0 then   -- issue 24: a search reused for a new query
        return format("H.restart(S[%d], %s, %s, %s, %s, %s)", sslot(), lit(coord(w)), lit(coord(h)),
          lit(coord(w)), lit(coord(h)), lit(path_opts(k, b() > 240)))
      end
      local j = b() % 4 + 1
      live.S[j] = true
      return format("S[%d] = H.newSearch(%s, %s, %s, %s, %s, %s)", j, G, lit(coord(w)), lit(coord(h)),
        lit(coord(w)), lit(coord(h)), lit(path_opts(k, b() > 240)))
    elseif op <= 19 then
      local j, count = sslot(), lit(maybe_bad(STEPS, BAD_STEPS, 6))
      if b() % 4 ~= 0 then return format("H.step(S[%d], %s)", j, count) end
      return format("H.step(S[%d], %s, %s)", j, count, lit(maybe_bad(SECONDS, BAD_SECONDS, 6)))
    elseif op == 20 then
      return format("V[%d] = H.result(S[%d])", b() % 4 + 1, sslot())
    elseif op == 21 then
      return format("H.searchInfo(S[%d])", sslot())
    elseif op <= 24 then
      local j = b() % 4 + 1
      live.R[j] = true
      return format("R[%d] = H.movementRange(%s, %s, %s, %s, %s)", j, G, lit(coord(w)), lit(coord(h)),
        lit(maybe_bad(MOVES, BAD_MOVES, 6)), lit(gen_rules(k, 0)))
    elseif op == 25 then
      local lo, hi = range_pair()
      local s = sight(k, 0)
      local opts = s ~= nil and { lineOfSight = s } or nil
      if b() > 250 then opts = { range = 2 } end
      return format("V[%d] = H.attackRange(%s, R[%d], %s, %s, %s)", b() % 4 + 1, G, rslot(), lit(lo), lit(hi),
        lit(opts))
    elseif op == 26 then
      return format("V[%d] = H.dangerZone(%s, %s, %s)", b() % 4 + 1, G, lit(enemies(k, 0)), lit(zone_opts(k, 0)))
    elseif op == 27 then
      return format("H.rangeQuery(R[%d], %s, %s)", rslot(), lit(coord(w)), lit(coord(h)))
    elseif op == 28 then
      return format("V[%d] = H.encode(%s)", b() % 4 + 1, G)
    elseif op == 29 then
      return format("H.close(%s, %d)", G, b() % 4)
    elseif op == 30 then
      return format("H.closeSearch(S[%d], %d)", sslot(), b() % 3)
    elseif op == 31 then
      local t = b() % 4
      return format("%s[%d] = nil", ({ "G", "S", "R", "V" })[t + 1], k)
    elseif op == 32 then
      local mode = b() % 6
      if mode == 0 then return "H.gc(\"collect\")" end
      if mode == 1 then return format("H.gc(\"step\", %d)", b() % 8) end
      if mode == 2 then
        return format("H.gc(\"incremental\", %d, %d, %d)", b() % 4 * 40, 100 + b() % 8 * 100, b() % 6)
      end
      if mode == 3 then return format("H.gc(\"generational\", %d, %d)", 1 + b() % 20, 1 + b() % 100) end
      if mode == 4 then return "H.gc(\"stop\")" end
      return "H.gc(\"restart\")"
    elseif op <= 34 then
      local a = gen_action(k, 0)
      if not a then return "H.gc(\"step\", 0)" end
      local hold = ({ "nil", G, "S[" .. sslot() .. "]", "R[" .. rslot() .. "]" })[b() % 4 + 1]
      return format("H.bomb(%s, %d, %s)", lit(a), 1 + b() % 6, hold)
    elseif op == 35 and depth == 0 then
      return "H.co(function()\n  " .. statement(1) .. "\nend)"
    elseif op == 36 then
      local x, y, x2, y2 = coord(w), coord(h), coord(w), coord(h)
      return format("H.getters(%s, %s, %s, %s, %s)\nH.geometry(%s, %s, %s, %s, %s)", G, lit(x), lit(y), lit(x2),
        lit(y2), G, lit(x), lit(y), lit(x2), lit(y2))
    elseif op == 37 then
      return format("H.act(%s)", lit(gen_action(k, 0) or { "gc", "step" }))
    elseif op == 38 then
      return statement19(b() % 8, k, G, w, h)
    elseif op == 39 then
      return statement19(8 + b() % 6, k, G, w, h)
    elseif op >= 40 then
      return statement17(op - 40, k, G, w, h)
    end
    return format("V[%d] = H.findPath(%s, %s, %s, %s, %s, %s)", b() % 4 + 1, G, lit(coord(w)), lit(coord(h)),
      lit(coord(w)), lit(coord(h)), lit(path_opts(k)))
  end

  local ops = 0
  while pos <= n and ops < MAX_OPS do
    lines[#lines + 1] = statement(0)
    ops = ops + 1
  end
  return concat(lines, "\n") .. "\n"
end

-- ---- references ---------------------------------------------------------------

-- A snapshot of a grid: { w, h, walk = {[i] = bool}, cost = {[i] = number},
-- diag, heur, hchosen (true, false or "unknown"), weight, kind, mv, lk (the
-- overrides and links: issue 19, below) }, i = (y - 1) * w + x.

local function default_heuristic(diag) return diag == "never" and "manhattan" or "octile" end

local function open_at(s, x, y)
  return x >= 1 and y >= 1 and x <= s.w and y <= s.h and s.walk[(y - 1) * s.w + x]
end

local function diagonal_ok(s, diag, x, y, dx, dy)
  if not open_at(s, x + dx, y + dy) then return false end
  if dx == 0 or dy == 0 then return true end
  if diag == "always" then return true end
  if diag == "one-obstacle" then return open_at(s, x + dx, y) or open_at(s, x, y + dy) end
  if diag == "no-obstacles" then return open_at(s, x + dx, y) and open_at(s, x, y + dy) end
  return false
end

local function heap()
  local hk, hi, hn = {}, {}, 0
  local H = {}
  function H.push(k, i)
    hn = hn + 1
    local p = hn
    while p > 1 do
      local parent = p // 2
      if hk[parent] <= k then break end
      hk[p], hi[p] = hk[parent], hi[parent]
      p = parent
    end
    hk[p], hi[p] = k, i
  end
  function H.pop()
    local k, i = hk[1], hi[1]
    local lk, li = hk[hn], hi[hn]
    hk[hn], hi[hn] = nil, nil
    hn = hn - 1
    if hn > 0 then
      local p = 1
      while true do
        local c = p * 2
        if c > hn then break end
        if c + 1 <= hn and hk[c + 1] < hk[c] then c = c + 1 end
        if hk[c] >= lk then break end
        hk[p], hi[p] = hk[c], hi[c]
        p = c
      end
      hk[p], hi[p] = lk, li
    end
    return k, i
  end
  function H.size() return hn end
  return H
end

local STEPS8 = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }

local function close_to(a, b)
  return a == b or math.abs(a - b) <= 1e-9 * math.abs(b) + 1e-300
end

-- The value a rule gives for a cell: a pure function of (seed, dens, x, y).
local function mix(seed, a, b, c, d)
  local v = seed * 2654435761 + a * 40503 + b * 2246822519 + (c or 0) * 3266489917 + (d or 0) * 668265263
  v = (v ~ (v >> 15)) * 2246822519
  v = v ~ (v >> 13)
  return (v >> 3) & 0xffffff
end

local RULE_COSTS = { 1, 1, 1, 2, 3, 0.5, 1e15, 1.5, 4, 7, huge, 1e-9 }
local RULE_WEIRD = { 0, -1, 0 / 0, "1", true, {}, 2e15, -huge }
local FLAG_TRUE = { true, true, true, 1, 0, "no", {} }
local FLAG_FALSE = { false, false, nil, false }

-- issue 19: the move rule multiplies the move's cost, or gives its own, or
-- false; with dens >= 13 now and then a value that is not a cost (whether a
-- move gets one depends on its cells alone: bad_move below)
local MOVE_FACTORS = { 1, 1, 2, 0.5, 3, 1, 1.5 }
local MOVE_WEIRD = { 0, -1, 0 / 0, "1", true, {}, 2e15, huge, -huge }

local function bad_move(seed, dens, fx, fy, tx, ty)
  return dens >= 13 and mix(seed, fx, fy, tx, ty) % 23 == 0
end

local function move_value(seed, dens, fx, fy, tx, ty, cost)
  local v = mix(seed, fx, fy, tx, ty)
  if bad_move(seed, dens, fx, fy, tx, ty) then
    local k = v // 23 % (#MOVE_WEIRD + 1) + 1
    if k > #MOVE_WEIRD then return end   -- nothing
    return MOVE_WEIRD[k]
  end
  if v % 16 < dens // 3 then return false end
  local f = v // 16 % 8
  if f == 7 then return 1 + v // 128 % 4 end
  local c = cost * MOVE_FACTORS[f + 1]
  if not (c > 0) then c = cost end
  if c > MAX_COST then c = MAX_COST end
  return c
end

local function rule_value(role, seed, dens, x, y, x2, y2, c)
  if role == "move" then return move_value(seed, dens, x, y, x2, y2, c) end
  local v = mix(seed, x, y, x2, y2)
  if role == "cost" then
    if v % 16 < dens // 3 then return FLAG_FALSE[v // 16 % 4 + 1] end
    if dens >= 14 and v % 97 == 0 then return RULE_WEIRD[v // 97 % #RULE_WEIRD + 1] end
    return RULE_COSTS[v // 16 % #RULE_COSTS + 1]
  end
  local on = v % 16 < (role == "sight" and 16 - dens or dens // 2)
  if on then return FLAG_TRUE[v // 16 % #FLAG_TRUE + 1] end
  return FLAG_FALSE[v // 16 % #FLAG_FALSE + 1]
end

local fninfo = setmetatable({}, { __mode = "k" })   -- rule function -> {role, seed, dens}
-- a rule given as a list of points -> {cells = {[y * 65536 + x] = value}, w, h}
-- (w, h: the largest coordinates it holds)
local ptsinfo = setmetatable({}, { __mode = "k" })

-- The value of a rule (function, table by cell number or list of points)
-- for a cell of a grid of width w.
local function rule_at(r, w, x, y, x2, y2)
  if type(r) == "table" then
    local pi = ptsinfo[r]
    if pi then return pi.cells[y * 65536 + x] end
    return rawget(r, (y - 1) * w + x)
  end
  local fi = fninfo[r]
  return rule_value(fi[1], fi[2], fi[3], x, y, x2, y2)
end

local function valid_rule_cost(v)
  return v == nil or v == false or v == huge or (type(v) == "number" and v > 0 and v <= MAX_COST)
end

-- ---- issue 19: moves and links in the references --------------------------------
--
-- A snapshot's overrides: mv[mkey(i, dx, dy)] = cost or false (the move from
-- cell i by (dx, dy)); its links: lk[i][j] = cost (directed). Both tables are
-- shared between snapshots and copied on write.

local EMPTY = setmetatable({}, { __newindex = function() error("EMPTY is read-only") end })

local function mkey(i, dx, dy) return i * 9 + (dy + 1) * 3 + dx + 1 end

local function has_moves(s) return next(s.mv or EMPTY) ~= nil or next(s.lk or EMPTY) ~= nil end

-- Calls out(j, cost, tx, ty) for each move leaving (x, y) on snapshot s: the
-- board moves of the mode (nsteps 4 or 8; the corner rule by cells) not set
-- false, whose target entry(j, tx, ty) prices (nil: not enterable), at the
-- override or the entry cost times the step length; then the links to cells
-- entry prices, at their cost.
local function each_move(s, diag, nsteps, x, y, entry, out)
  local w, mv = s.w, s.mv or EMPTY
  local i = (y - 1) * w + x
  for k = 1, nsteps do
    local dx, dy = STEPS8[k][1], STEPS8[k][2]
    if diagonal_ok(s, diag, x, y, dx, dy) then
      local tx, ty = x + dx, y + dy
      local j = (ty - 1) * w + tx
      local ov = mv[mkey(i, dx, dy)]
      if ov ~= false then
        local e = entry(j, tx, ty)
        if e then out(j, ov or (k > 4 and SQRT2 * e or e), tx, ty) end
      end
    end
  end
  local links = (s.lk or EMPTY)[i]
  if links then
    for j, c in pairs(links) do
      local tx = (j - 1) % w + 1
      local ty = (j - tx) // w + 1
      if s.walk[j] and entry(j, tx, ty) then out(j, c, tx, ty) end
    end
  end
end

-- The move rule's answer for a move: its cost, false, or "bad".
local function move_answer(rule, fx, fy, tx, ty, c)
  local fi = fninfo[rule]
  local v = rule_value("move", fi[2], fi[3], fx, fy, tx, ty, c)
  if v == false then return false end
  if type(v) == "number" and v > 0 and v <= MAX_COST then return v end
  return "bad"
end

-- Dijkstra over the snapshot with the move rule (or none): dist[i] for every
-- reachable cell, and the moves the rule gives a bad value for ({i, j}, from
-- a reached cell; the graph leaves them out). Kept in the snapshot, which
-- never changes.
local function ref_dijkstra(s, diag, sx, sy, rule)
  local key = diag .. sx .. "," .. sy
  s.dists = s.dists or setmetatable({}, { __mode = "k" })
  local cache = s.dists[rule or EMPTY]
  if not cache then
    cache = {}
    s.dists[rule or EMPTY] = cache
  end
  if cache[key] then return cache[key][1], cache[key][2] end
  local w = s.w
  local dist, done, bad = {}, {}, {}
  local q = heap()
  local start = (sy - 1) * w + sx
  dist[start] = 0
  q.push(0, start)
  local nsteps = diag == "never" and 4 or 8
  local function entry(j) return s.cost[j] end
  while q.size() > 0 do
    local d, i = q.pop()
    if not done[i] and d == dist[i] then
      done[i] = true
      local x = (i - 1) % w + 1
      local y = (i - x) // w + 1
      each_move(s, diag, nsteps, x, y, entry, function(j, c, tx, ty)
        if rule then
          local v = move_answer(rule, x, y, tx, ty, c)
          if v == "bad" then
            bad[#bad + 1] = { i, j }
            return
          end
          if v == false then return end
          c = v
        end
        if not done[j] then
          local nd = d + c
          if dist[j] == nil or nd < dist[j] then
            dist[j] = nd
            q.push(nd, j)
          end
        end
      end)
    end
  end
  cache[key] = { dist, bad }
  return dist, bad
end

local function lower(a, b) return a < b and not close_to(a, b) end

-- A bad move the search must have asked about, all cells below `limit`
-- being expanded (Dijkstra: the heuristic is off with a move rule): one from
-- a cell below it into a cell not yet done when it is expanded.
local function must_ask(dist, bad, limit)
  for _, m in ipairs(bad) do
    local di, dj = dist[m[1]], dist[m[2]]
    if di and (limit == nil or lower(di, limit)) and (dj == nil or lower(di, dj)) then return m end
  end
  return nil
end

-- The move named by a bad-value error of opts.move, or nil.
local function move_error(err)
  if type(err) ~= "string" then return nil end
  local fx, fy, tx, ty = err:match("^bad argument #%d+ to '%a+' %(opts%.move gave [^ ]+ for %((%d+), (%d+)%) "
    .. "%-> %((%d+), (%d+)%); expected a positive number up to 1e15 or false%)$")
  if not fx then return nil end
  return { tonumber(fx), tonumber(fy), tonumber(tx), tonumber(ty) }
end

-- Is the move m (from move_error) one rule gives a bad value for?
local function rule_gives_bad(rule, m)
  local fi = type(rule) == "function" and fninfo[rule]
  return fi and bad_move(fi[2], fi[3], m[1], m[2], m[3], m[4])
end

-- The cheapest way the walk steps from (x0, y0) to (x1, y1) (a board move
-- or a link, with the rule), entry pricing the target; nil when none, "bad"
-- when the rule gives a bad value for it.
local function step_cost(s, diag, nsteps, x0, y0, x1, y1, entry, rule)
  local best
  each_move(s, diag, nsteps, x0, y0, entry, function(_, c, tx, ty)
    if tx ~= x1 or ty ~= y1 or best == "bad" then return end
    if rule then
      local v = move_answer(rule, x0, y0, tx, ty, c)
      if v == "bad" then
        best = "bad"
        return
      end
      if v == false then return end
      c = v
    end
    if best == nil or c < best then best = c end
  end)
  return best
end

-- movementRange's reference on a snapshot: dist[i], stop[i]; weird = true
-- when a rule gives an invalid cost for a cell it is asked about; bad: the
-- moves its move rule gives a bad value for (from a reached cell), must one
-- of them the range must have asked about.
local function ref_range(s, sx, sy, move, rules)
  local w = s.w
  local start = (sy - 1) * w + sx
  local entry, zoc, occ = {}, {}, {}
  local weird = false
  local rule = rules.move
  local function enter(j, x, y)
    local e = entry[j]
    if e ~= nil then return e end
    e = s.cost[j]
    if rules.blocked and rule_at(rules.blocked, w, x, y) then
      e = huge
    elseif rules.cost then
      local v = rule_at(rules.cost, w, x, y)
      if v == nil and ptsinfo[rules.cost] then v = s.cost[j] end   -- not listed: the grid's cost
      if not valid_rule_cost(v) then
        weird = true
        v = nil
      end
      e = v or huge
    end
    if e ~= huge then
      occ[j] = rules.occupied and rule_at(rules.occupied, w, x, y) and true or false
      zoc[j] = rules.zoc and rule_at(rules.zoc, w, x, y) and true or false
    end
    entry[j] = e
    return e
  end
  local function price(j, x, y)
    if j == start or weird then return nil end
    local c = enter(j, x, y)
    if weird or c == huge then return nil end
    return c
  end
  local dist, done, bad = { [start] = 0 }, {}, {}
  local q = heap()
  q.push(0, start)
  while q.size() > 0 and not weird do
    local d, i = q.pop()
    if not done[i] and d == dist[i] then
      done[i] = true
      if i == start or not zoc[i] then
        local x = (i - 1) % w + 1
        local y = (i - x) // w + 1
        each_move(s, "never", 4, x, y, price, function(j, c, tx, ty)
          if weird then return end
          if rule then
            local v = move_answer(rule, x, y, tx, ty, c)
            if v == "bad" then
              bad[#bad + 1] = { i, j }
              return
            end
            if v == false then return end
            c = v
          end
          local nd = d + c
          if nd <= move and not done[j] and (dist[j] == nil or nd < dist[j]) then
            dist[j] = nd
            q.push(nd, j)
          end
        end)
      end
    end
  end
  local stop = {}
  for i in pairs(dist) do stop[i] = i == start or not occ[i] end
  local function step(x0, y0, x1, y1)
    return step_cost(s, "never", 4, x0, y0, x1, y1, price, rule)
  end
  return { dist = dist, stop = stop, weird = weird, entry = entry, zoc = zoc, w = w, h = s.h,
    sx = sx, sy = sy, start = start, bad = bad, must = rule and must_ask(dist, bad) or nil, step = step,
    rule = rule }
end

-- Does the segment between the centres of (x0, y0) and (x1, y1) cross the
-- open square of (cx, cy)? Exact, with integer fractions.
local function crosses(x0, y0, x1, y1, cx, cy)
  local lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
  local function clip(p0, d, c)
    if d == 0 then return 2 * math.abs(p0 - c) < 1 end
    local a, b, den = 2 * (c - p0) - 1, 2 * (c - p0) + 1, 2 * d
    if den < 0 then a, b, den = -b, -a, -den end
    if a * lo_d > lo_n * den then lo_n, lo_d = a, den end
    if b * hi_d < hi_n * den then hi_n, hi_d = b, den end
    return true
  end
  if not clip(x0, x1 - x0, cx) or not clip(y0, y1 - y0, cy) then return false end
  return lo_n * hi_d < hi_n * lo_d
end

local function ref_sight(s, x0, y0, x1, y1)
  for y = math.min(y0, y1), math.max(y0, y1) do
    for x = math.min(x0, x1), math.max(x0, x1) do
      if not s.walk[(y - 1) * s.w + x] and not (x == x0 and y == y0) and not (x == x1 and y == y1)
          and crosses(x0, y0, x1, y1, x, y) then
        return false
      end
    end
  end
  return true
end

-- attackRange's reference: hit[i] = true; nil when too costly to compute.
local function ref_attack(s, stops, lo, hi, sight)
  local w, h = s.w, s.h
  local work = #stops * w * h * (sight == true and 8 or 1)
  if work > 40000 then return nil end
  local hit = {}
  for _, c in ipairs(stops) do
    for ty = 1, h do
      for tx = 1, w do
        local j = (ty - 1) * w + tx
        local d = math.abs(tx - c.x) + math.abs(ty - c.y)
        if not hit[j] and d >= lo and d <= hi then
          local ok = true
          if sight == true then ok = ref_sight(s, c.x, c.y, tx, ty)
          elseif sight then ok = rule_at(sight, w, c.x, c.y, tx, ty) and true or false end
          if ok then hit[j] = true end
        end
      end
    end
  end
  return hit
end

-- ---- the runtime ------------------------------------------------------------

local H = {}
local A, T, Grid
local G, S, R, V, D = {}, {}, {}, {}, {}
local info = setmetatable({}, { __mode = "k" })    -- grid -> { hist = {snapshots}, closed }
local sinfo = setmetatable({}, { __mode = "k" })   -- search -> what it was made with
local rinfo = setmetatable({}, { __mode = "k" })   -- range -> its reference result
local events = {}
-- quiet is 0 only while the API's own code runs (inside api() below):
-- finalizers act then, and otherwise plant themselves again, so the driver's
-- bookkeeping between a call and its mirror update is never disturbed.
local depth, quiet, in_fin = 0, 1, 0
local budget = 0
local failure
local strict = true
local closing = false

local function fail(msg, ...)
  if not failure then
    failure = "api_fuzz check failed: " .. format(msg, ...) .. "\n" .. debug.traceback("", 2)
  end
  error(failure, 0)
end

local function event(kind, fields)
  fields.kind = kind
  fields.lvl = in_fin
  fields.depth = depth
  events[#events + 1] = fields
end

local function cur(gi) return gi.hist[#gi.hist] end

local function new_snapshot(w, h)
  local walk, cost = {}, {}
  for i = 1, w * h do
    walk[i] = true
    cost[i] = 1
  end
  return { w = w, h = h, walk = walk, cost = cost, diag = "no-obstacles", heur = "octile",
    hchosen = false, weight = 1, kind = "init", mv = {}, lk = {} }
end

local function copy_snapshot(s, kind)
  local t = {}
  for k, v in pairs(s) do t[k] = v end
  t.kind, t.dists = kind, nil
  return t
end

local function is_grid(g) return info[g] ~= nil end

local grids = 0
local function register(g, snap)
  grids = grids + 1
  info[g] = { hist = { snap }, closed = false, id = grids }
  return g
end

-- A call's arguments as text, for failure messages. It is made before every
-- call (a callback may change the tables after), so a table lists at most
-- 12 entries: a cost list of hundreds of points, described whole in every
-- nested call of a rule, took seconds of an input.
local function describe(v, level)
  local DESCRIBED = 12
  level = level or 0
  if info[v] then return "grid#" .. info[v].id end
  if fninfo[v] then return format("H.fn(%q, %d, %d)", fninfo[v][1], fninfo[v][2], fninfo[v][3]) end
  local t = type(v)
  if t == "table" and level < 3 then
    local parts, n = {}, 0
    for k, x in next, v do   -- raw: no metamethod of a trap runs
      n = n + 1
      if n <= DESCRIBED then
        parts[n] = (type(k) == "string" and k or "[" .. describe(k, level + 1) .. "]") .. " = "
          .. describe(x, level + 1)
      end
    end
    table.sort(parts)
    if n > DESCRIBED then parts[#parts + 1] = format("... (%d entries)", n) end
    return "{" .. concat(parts, ", ") .. "}"
  end
  if t == "number" or t == "string" or t == "boolean" or t == "nil" then return lit(v) end
  return t
end

local function call_text(fname, ...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = describe((select(i, ...))) end
  return format("%s(%s) [depth %d%s]", fname, concat(parts, ", "), depth, in_fin > 0 and ", in a finalizer" or "")
end

-- Reads a grid's cells back through the API (a grid nobody else holds yet).
local function readback(g)
  quiet = quiet + 1
  local w, h = Grid.getDimensions(g)
  local walk, cost = {}, {}
  for y = 1, h do
    for x = 1, w do
      local i = (y - 1) * w + x
      walk[i] = Grid.isWalkable(g, x, y)
      cost[i] = Grid.getCost(g, x, y)
    end
  end
  local heur, weight = Grid.getHeuristic(g)
  local diag = Grid.getDiagonal(g)
  -- issue 19: the overrides and links, when the encoding says there are some
  local mv, lk = {}, {}
  local bytes = Grid.getMove and Grid.encode(g)
  if bytes and #bytes >= 11 and bytes:byte(11) & 8 ~= 0 then
    for y = 1, h do
      for x = 1, w do
        local i = (y - 1) * w + x
        for k = 1, 8 do
          local dx, dy = STEPS8[k][1], STEPS8[k][2]
          if x + dx >= 1 and x + dx <= w and y + dy >= 1 and y + dy <= h then
            local v = Grid.getMove(g, x, y, x + dx, y + dy)
            if v ~= nil then mv[mkey(i, dx, dy)] = v end
          end
        end
        for _, l in ipairs(Grid.getLinks(g, x, y)) do
          lk[i] = lk[i] or {}
          lk[i][(l.y - 1) * w + l.x] = l.cost
        end
      end
    end
  end
  quiet = quiet - 1
  local chosen = "unknown"
  if weight ~= 1 or heur ~= default_heuristic(diag) then chosen = true end
  return { w = w, h = h, walk = walk, cost = cost, diag = diag, heur = heur, hchosen = chosen,
    weight = weight, kind = "init", mv = mv, lk = lk }
end

local function same_table(a, b, deep)
  a, b = a or EMPTY, b or EMPTY
  for k, v in pairs(a) do
    if deep then
      if not same_table(v, b[k]) then return false end
    elseif b[k] ~= v then
      return false
    end
  end
  for k, v in pairs(b) do
    if deep then
      if not same_table(v, a[k]) then return false end
    elseif a[k] ~= v then
      return false
    end
  end
  return true
end

-- the same overrides and links (issue 19)
local function same_moves(a, b) return same_table(a.mv, b.mv) and same_table(a.lk, b.lk, true) end

local function same_cells(a, b)
  if a.w ~= b.w or a.h ~= b.h then return false end
  for i = 1, a.w * a.h do
    if a.walk[i] ~= b.walk[i] or a.cost[i] ~= b.cost[i] then return false end
  end
  return same_moves(a, b)
end

local function leave(...)
  quiet = 1
  return ...
end

local function enter(f, ...)
  quiet = 0
  return leave(f(...))
end

-- Calls f(...) under pcall one level deeper; returns the packed results and
-- the number of events before the call.
local function api(f, ...)
  depth = depth + 1
  local ev0, q = #events, quiet
  local r = pack(pcall(enter, f, ...))
  quiet = q
  depth = depth - 1
  if failure then error(failure, 0) end
  return r, ev0
end

-- What happened during a call made at depth d on grid g since event ev0
-- (called right after the call: in_fin is the call's own level, and events
-- at a deeper level came from finalizers).
local function happened(ev0, g, d)
  local w = { thrown = {}, changes = 0, last_change = nil }
  for i = ev0 + 1, #events do
    local e = events[i]
    e.fin = e.lvl > in_fin
    if e.kind == "throw" then
      if e.depth == d and not e.fin then
        w.thrown[#w.thrown + 1] = { e.value }   -- boxed: the value may be nil
        w.cb = true
      end
    elseif e.kind == "yield" then
      if e.depth == d and not e.fin then w.yield, w.cb = true, true end
    elseif e.kind == "meta" then
      if e.depth == d and not e.fin then w.meta = e.what end
    elseif e.kind == "grown" then
      w.grown = true          -- a distance map was updated
    elseif g ~= nil and e.g == g then
      if e.kind == "close" then
        w.closed = true
        if e.fin then w.closed_fin = true else w.closed_cb = true end
      elseif e.kind == "change" then
        w.changed = true
        if e.fin then
          w.changed_fin = true
        else
          w.changes = w.changes + 1
          w.last_change = e.snap
        end
      elseif e.kind == "settings" then
        w.settings = true
      end
    end
  end
  w.disturbed = w.closed or w.changed or w.settings or w.cb or w.meta
  -- Closed when the call began: closed now, but not during the call (a
  -- finalizer run by the driver's own allocations may close g just before).
  local gi = g ~= nil and info[g] or nil
  w.closed_at_start = gi ~= nil and gi.closed and not w.closed
  return w
end

local function is_bad_message(e)
  return type(e) == "string" and (e:find("^bad argument #%d+ to '") ~= nil or e:find("^calling '") ~= nil)
end

local function show(v)
  if type(v) == "string" then return format("%q", v) end
  return tostring(v)
end

-- ---- argument validation (what the README accepts) --------------------------

local function whole_in(v, lo, hi)
  return type(v) == "number" and v == floor(v) and v >= lo and v <= hi
end

local function valid_weight(v) return type(v) == "number" and v >= 1 and v < huge end

local SEARCH_STATUS = { searching = true, found = true, unreachable = true }

local PATH_OPTION = { diagonal = true, heuristic = true, weight = true, partial = true, flat = true,
  into = true, algorithm = true, move = true, smooth = true }
SMOOTH.NAMES = { corners = true, sight = true, theta = true }   -- issue 20: opts.smooth's names

-- findPath / newSearch options, read raw: the table or nil when bad.
local function check_path_opts(o, fname)
  if o == nil then return {} end
  if type(o) ~= "table" then return nil end
  local out = {}
  for k, v in next, o do
    if not PATH_OPTION[k] then return nil end
    if k == "diagonal" and not IS_DIAG[v] then return nil end
    if k == "heuristic" and not IS_HEUR[v] then return nil end
    if k == "weight" and not valid_weight(v) then return nil end
    if (k == "partial" or k == "flat") and type(v) ~= "boolean" then return nil end
    if k == "into" and (fname ~= "findPath" or type(v) ~= "table") then return nil end
    if k == "algorithm" and not IS_ALGO[v] then return nil end
    if k == "move" and type(v) ~= "function" then return nil end
    if k == "smooth" and v ~= false and not SMOOTH.NAMES[v] then return nil end
    out[k] = v
  end
  -- (issue 20: straight lines know no move rule)
  if (out.smooth == "sight" or out.smooth == "theta") and out.move then return nil end
  return out
end

-- issue 20: the message of findPath and newSearch for "sight" or "theta" on a
-- grid with move overrides or links (its moves when the call began)
function SMOOTH.refusal(fname, mode)
  return format("bad argument #5 to '%s' (opts.smooth: '%s' needs a grid without move overrides or links)",
    fname, tostring(mode))
end
function SMOOTH.is_refusal(err)
  return type(err) == "string" and err:find("%(opts%.smooth: '%a+' needs a grid without move overrides or links%)$")
    ~= nil
end

-- The effective search settings of a query on snapshot s.
local function effective(s, o)
  local diag = o.diagonal or s.diag
  local hs, weight
  if o.heuristic then
    hs, weight = { o.heuristic }, o.weight or 1
  else
    weight = o.weight or s.weight
    if s.hchosen == true then hs = { s.heur }
    elseif s.hchosen == false then hs = { default_heuristic(diag) }
    else hs = { s.heur, default_heuristic(diag) } end
  end
  local admissible = true
  for _, h in ipairs(hs) do
    if h == "manhattan" and diag ~= "never" then admissible = false end
  end
  -- (issue 20: straight lines in 4 directions are the corners)
  local smooth = o.smooth or nil
  if smooth and smooth ~= "corners" and diag == "never" then smooth = "corners" end
  return { diag = diag, weight = weight, admissible = admissible, partial = o.partial == true,
    flat = o.flat == true, move = o.move, smooth = smooth }
end

-- Reads a returned path into a list of {x, y}; nil and a message when malformed.
local function read_path(p, flat)
  if type(p) ~= "table" then return nil, "path is a " .. type(p) end
  local out = {}
  if flat then
    local n = #p
    if n % 2 ~= 0 or n < 2 then return nil, "flat path of length " .. n end
    for i = 1, n, 2 do out[#out + 1] = { p[i], p[i + 1] } end
  else
    for i = 1, #p do
      if type(p[i]) ~= "table" then return nil, "path[" .. i .. "] is a " .. type(p[i]) end
      out[i] = { rawget(p[i], "x"), rawget(p[i], "y") }
    end
    if #out < 1 then return nil, "empty path" end
  end
  for i, c in ipairs(out) do
    if mtype(c[1]) ~= "integer" or mtype(c[2]) ~= "integer" then
      return nil, format("point %d is (%s, %s)", i, show(c[1]), show(c[2]))
    end
  end
  return out
end

-- The entry cost of a cell of snapshot s (no rules), for each_move.
local function entry_of(s)
  local cost = s.cost
  return function(j) return cost[j] end
end

-- Checks a path on snapshot s; returns its summed cost or nil and a message.
local function walk_path(s, e, pts, sx, sy)
  local w, h = s.w, s.h
  if pts[1][1] ~= sx or pts[1][2] ~= sy then
    return nil, format("starts at (%d, %d), not (%d, %d)", pts[1][1], pts[1][2], sx, sy)
  end
  local sum = 0
  for i = 2, #pts do
    local x0, y0, x1, y1 = pts[i - 1][1], pts[i - 1][2], pts[i][1], pts[i][2]
    if x1 < 1 or y1 < 1 or x1 > w or y1 > h then return nil, format("point %d out of the grid", i) end
    -- issue 19: a board move or a link, with the overrides and the move rule
    local c = step_cost(s, e.diag, e.diag == "never" and 4 or 8, x0, y0, x1, y1, entry_of(s), e.move)
    if c == "bad" then
      return nil, format("step %d (%d,%d)->(%d,%d) is a move opts.move gives a bad value for", i, x0, y0, x1, y1)
    end
    if c == nil then
      return nil, format("illegal step %d (%d,%d)->(%d,%d) in mode %s", i, x0, y0, x1, y1, e.diag)
    end
    sum = sum + c
  end
  return sum
end

-- issue 20: the segment model of docs/paths.md on snapshot s (its walls and
-- costs: the smoothed queries here have no rules). The cost of the line
-- between the centres of (x0, y0) and (x1, y1) in mode diag, nil when it is
-- not legal: every cell whose inside it meets (crosses), its start excepted,
-- open, and at every grid corner it passes exactly through, the two cells
-- beside it as the mode wants; the highest entry cost met times the length.
function SMOOTH.segment(s, diag, x0, y0, x1, y1)
  local highest = 0
  for y = math.min(y0, y1), math.max(y0, y1) do
    for x = math.min(x0, x1), math.max(x0, x1) do
      if not (x == x0 and y == y0) and crosses(x0, y0, x1, y1, x, y) then
        if not open_at(s, x, y) then return nil end
        highest = math.max(highest, s.cost[(y - 1) * s.w + x])
      end
    end
  end
  local dx, dy = x1 - x0, y1 - y0
  if dx ~= 0 and dy ~= 0 then
    -- the corner right of column cx, at height y0 + m / 2 (m odd)
    for cx = math.min(x0, x1), math.max(x0, x1) - 1 do
      local q = (2 * (cx - x0) + 1) * dy
      if q % dx == 0 and (q // dx) % 2 ~= 0 then
        local cy = y0 + (q // dx - 1) // 2
        local a, b
        if (dx > 0) == (dy > 0) then
          a, b = open_at(s, cx + 1, cy), open_at(s, cx, cy + 1)
        else
          a, b = open_at(s, cx, cy), open_at(s, cx + 1, cy + 1)
        end
        if diag == "never" or (diag == "one-obstacle" and not (a or b))
            or (diag == "no-obstacles" and not (a and b)) then
          return nil
        end
      end
    end
  end
  return math.sqrt(dx * dx + dy * dy) * highest
end

-- issue 20: checks a smoothed path on snapshot s (e.smooth its mode); returns
-- the cost it must have (the model's, added in order; for "corners" its
-- walk's), true when this cannot be told (corners over links), or nil and why.
function SMOOTH.path(s, e, pts, sx, sy)
  if pts[1][1] ~= sx or pts[1][2] ~= sy then
    return nil, format("starts at (%d, %d), not (%d, %d)", pts[1][1], pts[1][2], sx, sy)
  end
  if e.smooth == "corners" then
    if has_moves(s) then return true end   -- a link's ends and a run look alike
    -- the walk back: each leg a straight run, the direction changing at each point
    local walk, ux0, uy0 = { pts[1] }, nil, nil
    for i = 2, #pts do
      local x0, y0 = pts[i - 1][1], pts[i - 1][2]
      local dx, dy = pts[i][1] - x0, pts[i][2] - y0
      local n = math.max(math.abs(dx), math.abs(dy))
      if n == 0 or (dx ~= 0 and dy ~= 0 and math.abs(dx) ~= math.abs(dy)) then
        return nil, format("leg %d (%d,%d)->(%d,%d) is no straight run", i - 1, x0, y0, pts[i][1], pts[i][2])
      end
      local ux, uy = dx // n, dy // n
      if ux == ux0 and uy == uy0 then return nil, format("point %d is no corner", i - 1) end
      ux0, uy0 = ux, uy
      for k = 1, n do walk[#walk + 1] = { x0 + k * ux, y0 + k * uy } end
    end
    return walk_path(s, e, walk, sx, sy)
  end
  local sum = 0
  for i = 2, #pts do
    local x0, y0, x1, y1 = pts[i - 1][1], pts[i - 1][2], pts[i][1], pts[i][2]
    local c = not (x0 == x1 and y0 == y1) and SMOOTH.segment(s, e.diag, x0, y0, x1, y1)
    if not c then
      return nil, format("leg %d (%d,%d)->(%d,%d) is not legal in mode %s", i - 1, x0, y0, x1, y1, e.diag)
    end
    sum = sum + c
  end
  return sum
end

-- The optimal cost from (sx, sy) to every cell of snapshot s, by a Lua
-- Dijkstra when the grid is small, else by the binding with heuristic
-- "dijkstra" (cost to the goal only): returns a function i -> cost or nil.
local function optimum(g, s, diag, sx, sy, gx, gy, rule)
  if s.w * s.h <= 300 or rule or has_moves(s) then
    local dist, bad = ref_dijkstra(s, diag, sx, sy, rule)
    return dist[(gy - 1) * s.w + gx], true, dist, bad
  end
  quiet = quiet + 1
  local ok, p, c = pcall(Grid.findPath, g, sx, sy, gx, gy,
    { heuristic = "dijkstra", diagonal = diag, algorithm = "astar" })
  quiet = quiet - 1
  if not ok then fail("the reference query failed: %s", show(p)) end
  if p == nil then return nil, c == "no path" end
  return c, true
end

-- Checks findPath's results r (packed, after the pcall flag) for a query on
-- snapshot s; returns nil when fine, else a message.
local function path_answer(g, s, o, r, sx, sy, gx, gy, exact)
  local e = effective(s, o)
  local p, cost, reached = r[2], r[3], r[4]
  local w = s.w
  if p == nil then
    if cost ~= "no path" and cost ~= "goal is blocked" then return "reason " .. show(cost) end
    if r.n ~= 3 then return "nil result with " .. (r.n - 1) .. " values" end
    if cost == "goal is blocked" and (s.walk[(gy - 1) * w + gx] or (sx == gx and sy == gy)) then
      return "goal is blocked, but it is walkable"
    end
    if exact then
      local opt = optimum(g, s, e.diag, sx, sy, gx, gy, e.move)
      if opt then return format("no path (%s), but the goal is reachable at cost %.17g", cost, opt) end
      if e.partial and s.walk[(gy - 1) * w + gx] then return "partial query gave no path" end
    end
    return nil
  end
  if r.n ~= (e.partial and 4 or 3) then return format("%d results", r.n - 1) end
  if type(cost) ~= "number" then return "cost is a " .. type(cost) end
  if o.into ~= nil and not rawequal(p, o.into) then return "opts.into was not returned" end
  local pts, why = read_path(p, e.flat)
  if not pts then return why end
  local sum, why2
  if e.smooth then
    sum, why2 = SMOOTH.path(s, e, pts, sx, sy)
  else
    sum, why2 = walk_path(s, e, pts, sx, sy)
  end
  if not sum then return why2 end
  if sum ~= true and not close_to(cost, sum) then
    return format("cost %.17g, the path's steps sum to %.17g", cost, sum)
  end
  -- (issue 20: lines cost at most the walk, which costs the optimum)
  local any_angle = e.smooth == "sight" or e.smooth == "theta"
  local last = pts[#pts]
  local at_goal = last[1] == gx and last[2] == gy
  if e.partial then
    if reached ~= at_goal then return "reached is " .. show(reached) end
  elseif not at_goal then
    return format("ends at (%d, %d), not at the goal", last[1], last[2])
  end
  if exact and at_goal then
    local opt, _, dist, bad = optimum(g, s, e.diag, sx, sy, gx, gy, e.move)
    if opt == nil then return "a path to a goal the reference cannot reach" end
    if e.move then
      -- issue 19: with a move rule the search runs as Dijkstra: exact, and
      -- asked about every move out of the cells nearer than the goal
      local m = must_ask(dist, bad, opt)
      if m then
        return format("a path although opts.move gives a bad value for (%d, %d) -> (%d, %d), a move it must "
          .. "have asked about", (m[1] - 1) % s.w + 1, (m[1] - 1) // s.w + 1, (m[2] - 1) % s.w + 1,
          (m[2] - 1) // s.w + 1)
      end
      if not close_to(cost, opt) then return format("cost %.17g with a move rule, optimal %.17g", cost, opt) end
    end
    if e.admissible and e.weight == 1 and not any_angle and not close_to(cost, opt) then
      return format("cost %.17g, optimal %.17g", cost, opt)
    end
    if e.admissible and not (cost <= e.weight * opt * (1 + 1e-9) + 1e-300) then
      return format("cost %.17g above %g x optimal %.17g", cost, e.weight, opt)
    end
  end
  if exact and e.partial and not at_goal then
    local opt = optimum(g, s, e.diag, sx, sy, gx, gy, e.move)
    if opt ~= nil then return "a partial result, but the goal is reachable" end
  end
  return nil
end

-- issue 19: nil when err, raised by a findPath or a search with options o
-- from (sx, sy) to (gx, gy) on one of the snapshots list, names a move the
-- search may have asked about that o.move gives a bad value for; else what
-- is wrong. exact: nothing disturbed the call.
local function path_move_error(err, o, list, sx, sy, gx, gy, exact)
  local m = move_error(err)
  if not m then return "raised " .. show(err) end
  if not o.move then return "raised " .. show(err) .. " without a move rule" end
  if not rule_gives_bad(o.move, m) then return "raised " .. show(err) .. ", but the rule gives a good value" end
  if not exact then return nil end
  local why
  for _, s in ipairs(list) do
    local e = effective(s, o)
    local opt, _, dist, bad = optimum(nil, s, e.diag, sx, sy, gx, gy, o.move)
    local i, j = (m[2] - 1) * s.w + m[1], (m[4] - 1) * s.w + m[3]
    local found = false
    for _, b in ipairs(bad) do
      if b[1] == i and b[2] == j then found = true end
    end
    if not found then
      why = "raised " .. show(err) .. ", a move out of a cell it cannot reach (or no move)"
    elseif opt and lower(opt, dist[i]) then
      why = "raised " .. show(err) .. ", a move out of a cell farther than the goal"
    else
      return nil
    end
  end
  return why
end

-- ---- the checked calls ------------------------------------------------------

local function check_error(fname, err, ok_list)
  for i = 1, ok_list.n or #ok_list do
    if rawequal(err, ok_list[i]) then return end
  end
  fail("%s raised %s", fname, show(err))
end

-- Outcome of a call on a grid that has no callbacks (only finalizers can
-- act during it): returns "bad", "closed", "error", "disturbed" or "ok".
local function common(fname, g, valid, r, ev0, d)
  local ok, err = r[1], r[2]
  local w = happened(ev0, g, d)
  if w.meta and strict then fail("%s used %s (options are read raw)", fname, w.meta) end
  if w.closed_at_start then
    if ok then fail("%s on a closed grid returned a result", fname) end
    if err ~= CLOSED_USE and (strict or not w.disturbed) then
      fail("%s on a closed grid raised %s", fname, show(err))
    end
    return "closed", w
  end
  if not valid then
    if ok then fail("%s accepted bad arguments", fname) end
    -- a finalizer may close the grid before the arguments are read (a call's
    -- first stack growth can run the collector): then the close is the answer
    local closed_answer = w.closed and (err == CLOSED_USE or err == "grid closed during " .. fname)
    if not is_bad_message(err) and not closed_answer and (strict or not w.disturbed) then
      fail("%s raised %s", fname, show(err))
    end
    return "bad", w
  end
  if not ok then
    if type(err) == "string" and err:find("(opts.algorithm: jps needs ", 1, true) then
      return "error", w      -- findPath and newSearch check it is the option's fault
    end
    if move_error(err) then return "error", w end   -- the same, the move rule's value (issue 19)
    if SMOOTH.is_refusal(err) then return "error", w end   -- the grid's moves (issue 20)
    if w.disturbed then
      if strict then
        local accept = { n = 0 }
        local function add(v)
          accept.n = accept.n + 1
          accept[accept.n] = v
        end
        if w.closed then
          add("grid closed during " .. fname)
          add(CLOSED_USE)
        end
        if w.changed then add("grid changed during " .. fname) end
        for _, v in ipairs(w.thrown) do add(v[1]) end
        if w.yield then for v in pairs(YIELD_ERRORS) do add(v) end end   -- a move rule's callback
        check_error(fname, err, accept)
      end
      return "error", w
    end
    return "error", w
  end
  return w.disturbed and "disturbed" or "ok", w
end

function H.new(w, h)
  local r = api(A.new, w, h)
  local valid = whole_in(w, 1, 65535) and whole_in(h, 1, 65535)
  if not r[1] then
    if valid then fail("new(%s, %s) raised %s", show(w), show(h), show(r[2])) end
    if not is_bad_message(r[2]) then fail("new raised %s", show(r[2])) end
    return nil
  end
  if not valid then fail("new(%s, %s) accepted bad arguments", show(w), show(h)) end
  local g = r[2]
  local snap = new_snapshot(w, h)
  register(g, snap)
  local rb = readback(g)
  if not same_cells(rb, snap) or rb.diag ~= "no-obstacles" or rb.heur ~= "octile" or rb.weight ~= 1 then
    fail("a new grid is not open with cost 1 everywhere")
  end
  return g
end

-- The grid fromString should give for text, or nil when the text is bad.
local function parse_text(text)
  local t = text:gsub("\r?\n$", "")
  if t == "" then return nil end
  local rows = {}
  for line in (t .. "\n"):gmatch("(.-)\n") do rows[#rows + 1] = line:gsub("\r$", "") end
  local w = #rows[1]
  local s = { w = w, h = #rows, walk = {}, cost = {}, diag = "no-obstacles", heur = "octile",
    hchosen = false, weight = 1, kind = "init", mv = {}, lk = {} }
  if w == 0 then return nil end
  for y, row in ipairs(rows) do
    if #row ~= w then return nil end
    for x = 1, w do
      local c = row:sub(x, x)
      local i = (y - 1) * w + x
      if c == "." then s.walk[i], s.cost[i] = true, 1
      elseif c == "#" then s.walk[i], s.cost[i] = false, 1
      elseif c:find("^[1-9]$") then s.walk[i], s.cost[i] = true, tonumber(c) + 0.0
      else return nil end
    end
  end
  return s
end

-- The grid fromMovingAI should give for the maps the decoder writes.
local MOVINGAI = { ["."] = true, G = true, S = true, ["@"] = false, O = false, T = false, W = false }
local function parse_movingai(text)
  local lines = {}
  for line in text:gmatch("(.-)\r?\n") do lines[#lines + 1] = line end
  local h, w = tonumber((lines[2] or ""):match("^height (%d+)$")), tonumber((lines[3] or ""):match("^width (%d+)$"))
  if lines[1] ~= "type octile" or not h or not w or lines[4] ~= "map" or #lines ~= 4 + h then return nil end
  local s = { w = w, h = h, walk = {}, cost = {}, diag = "no-obstacles", heur = "octile",
    hchosen = false, weight = 1, kind = "init", mv = {}, lk = {} }
  for y = 1, h do
    local row = lines[4 + y]
    if #row ~= w then return nil end
    for x = 1, w do
      local walk = MOVINGAI[row:sub(x, x)]
      if walk == nil then return nil end
      s.walk[(y - 1) * w + x], s.cost[(y - 1) * w + x] = walk, 1
    end
  end
  return s
end

function H.fromMovingAI(text)
  local r = api(A.fromMovingAI, text)
  local want = parse_movingai(text)
  if not r[1] then
    if want then fail("fromMovingAI(%q) raised %s", text, show(r[2])) end
    if not is_bad_message(r[2]) then fail("fromMovingAI raised %s", show(r[2])) end
    return nil
  end
  if not want then fail("fromMovingAI accepted %q", text) end
  local g = r[2]
  if not same_cells(readback(g), want) then fail("fromMovingAI(%q) gave other cells", text) end
  return register(g, want)
end

function H.fromString(text)
  local r = api(A.fromString, text)
  local want = parse_text(text)
  if not r[1] then
    if want then fail("fromString(%q) raised %s", text, show(r[2])) end
    if not is_bad_message(r[2]) then fail("fromString raised %s", show(r[2])) end
    return nil
  end
  if not want then fail("fromString accepted %q", text) end
  local g = r[2]
  local got = readback(g)
  if not same_cells(got, want) then fail("fromString(%q) gave other cells", text) end
  return register(g, want)
end

local function decoded(bytes, r)
  if not r[1] then
    local e = r[2]
    if type(e) ~= "string" or not e:find("^bad argument #1 to 'decode' %(not an astar grid: ") then
      fail("decode raised %s", show(e))
    end
    return nil
  end
  local g = r[2]
  local ok, w, h = pcall(Grid.getDimensions, g)
  if not ok or w * h > 4096 then
    pcall(getmetatable(g).__close, g)
    return nil
  end
  local snap = readback(g)
  register(g, snap)
  quiet = quiet + 1
  local encoded, again = pcall(Grid.encode, g)
  quiet = quiet - 1
  if not encoded then fail("encode of a decoded grid raised %s", show(again)) end
  if again ~= bytes then fail("decode then encode changed the bytes") end
  return g, snap
end

function H.decode(bytes)
  local r = api(A.decode, bytes)
  return (decoded(bytes, r))
end

local function fnv(s)
  local hsh = 2166136261
  for i = 1, #s do hsh = ((hsh ~ s:byte(i)) * 16777619) & 0xffffffff end
  return hsh
end

-- encode g, change byte `at` to `value` (mode 1: checksum repaired, 2: not,
-- 3: cut at `at`; 0: unchanged) and decode.
function H.reencode(g, at, value, mode)
  local gi = info[g]
  if not gi or gi.closed then return nil end
  quiet = quiet + 1
  local ok, bytes = pcall(Grid.encode, g)
  quiet = quiet - 1
  if not ok then fail("encode raised %s", show(bytes)) end
  -- the grid the bytes hold: a finalizer may change g while decode runs
  local encoded = cur(gi)
  local n = #bytes
  if mode == 1 or mode == 2 then
    local i = at % n + 1
    bytes = bytes:sub(1, i - 1) .. string.char(value) .. bytes:sub(i + 1)
    if mode == 1 and n >= 4 then
      local hsh = fnv(bytes:sub(1, n - 4))
      bytes = bytes:sub(1, n - 4) .. string.pack("<I4", hsh)
    end
  elseif mode == 3 then
    bytes = bytes:sub(1, at % n)
  end
  local r = api(A.decode, bytes)
  local copy, snap = decoded(bytes, r)
  if copy and mode == 0 then
    local s = encoded
    if not same_cells(snap, s) or snap.diag ~= s.diag or snap.weight ~= s.weight then
      fail("decode(encode(g)) differs from g")
    end
    local c = info[copy]
    c.hist[1] = copy_snapshot(s, "init")
  end
  return copy
end

-- Records a cell write's effect on the mirror.
local function write_cell(g, i, walk, cost)
  local gi = info[g]
  local s = cur(gi)
  gi.writes = (gi.writes or 0) + 1
  local nw, nc = walk, cost
  if nw == nil then nw = s.walk[i] end
  if nc == nil then nc = s.cost[i] end
  if nw == s.walk[i] and nc == s.cost[i] then return end
  local t = copy_snapshot(s, "cells")
  t.walk, t.cost = table.move(s.walk, 1, s.w * s.h, 1, {}), table.move(s.cost, 1, s.w * s.h, 1, {})
  t.walk[i], t.cost[i] = nw, nc
  gi.hist[#gi.hist + 1] = t
  event("change", { g = g, snap = #gi.hist })
end

local function cell_args(g, x, y)
  local gi = info[g]
  if not gi or gi.closed then return false end
  local s = cur(gi)
  return whole_in(x, 1, s.w) and whole_in(y, 1, s.h), s
end

-- A valid write is put in the mirror before the call: the core changes the
-- cell before anything that may run a finalizer (which then sees the new
-- cell); calls made meanwhile may also have seen the old one (inflight).
local function write_call(fname, f, g, x, y, v, walk, cost, valid)
  local gi = info[g]
  local s = gi and cur(gi)
  if valid then
    gi.inflight = #gi.hist
    write_cell(g, (y - 1) * s.w + x, walk, cost)
  end
  local r, ev0 = api(f, g, x, y, v)
  if gi then gi.inflight = nil end
  local how = common(fname, g, valid, r, ev0, depth + 1)
  if how == "error" and not happened(ev0, g, depth + 1).disturbed then
    fail("%s raised %s", fname, show(r[2]))
  end
end

function H.setWalkable(g, x, y, v)
  local valid = cell_args(g, x, y) and type(v) == "boolean"
  write_call("setWalkable", Grid.setWalkable, g, x, y, v, v, nil, valid)
end

function H.setCost(g, x, y, c)
  local valid = cell_args(g, x, y) and type(c) == "number" and c > 0 and c <= MAX_COST
  write_call("setCost", Grid.setCost, g, x, y, c, nil, c, valid)
end

-- ---- issue 19: moves and links ------------------------------------------------------

-- The snapshots a call that began at history index h0 may have seen.
local function candidates(gi, h0, from)
  local list = {}
  local first = math.max(h0, from or 1)
  if gi.inflight and gi.inflight < first then first = gi.inflight end
  for i = first, #gi.hist do list[#list + 1] = gi.hist[i] end
  return list
end

-- Records an edit of the moves (edit(mv, lk) on copies) in the mirror: a
-- new snapshot when it changes something (an edit that changes nothing
-- leaves the grid's version alone).
local function write_moves(g, edit)
  local gi = info[g]
  local s = cur(gi)
  gi.writes = (gi.writes or 0) + 1
  local mv, lk = {}, {}
  for k, v in pairs(s.mv or EMPTY) do mv[k] = v end
  for i, t in pairs(s.lk or EMPTY) do
    lk[i] = {}
    for j, c in pairs(t) do lk[i][j] = c end
  end
  edit(mv, lk, s.w)
  for i, t in pairs(lk) do
    if next(t) == nil then lk[i] = nil end
  end
  local t = copy_snapshot(s, "cells")
  t.mv, t.lk = mv, lk
  if same_moves(t, s) then return end
  gi.hist[#gi.hist + 1] = t
  event("change", { g = g, snap = #gi.hist })
end

-- (x2, y2) a neighbour of (x1, y1) (orthogonal: only the 4), both on the grid.
local function move_args(g, x1, y1, x2, y2, ortho)
  local ok, s = cell_args(g, x1, y1)
  if not ok or not (whole_in(x2, 1, s.w) and whole_in(y2, 1, s.h)) then return false end
  local dx, dy = x2 - x1, y2 - y1
  if math.abs(dx) > 1 or math.abs(dy) > 1 or (dx == 0 and dy == 0) then return false end
  if ortho and dx ~= 0 and dy ~= 0 then return false end
  return true, s
end

local function valid_move_cost(c, or_false)
  if or_false and (c == nil or c == false) then return true end
  return type(c) == "number" and c > 0 and c <= MAX_COST
end

-- A write of the moves: into the mirror before the call, as write_call.
local function moves_call(fname, f, g, args, valid, edit)
  local gi = info[g]
  if valid then
    gi.inflight = #gi.hist
    write_moves(g, edit)
  end
  local r, ev0 = api(f, g, unpack(args, 1, args.n))
  if gi then gi.inflight = nil end
  local how = common(fname, g, valid, r, ev0, depth + 1)
  if how == "error" and not happened(ev0, g, depth + 1).disturbed then
    fail("%s raised %s", fname, show(r[2]))
  end
  if r[1] and r.n ~= 1 then fail("%s returned %d values", fname, r.n - 1) end
end

function H.setMove(g, x1, y1, x2, y2, c)
  local valid = move_args(g, x1, y1, x2, y2) and valid_move_cost(c, true)
  moves_call("setMove", Grid.setMove, g, pack(x1, y1, x2, y2, c), valid, function(mv, _, w)
    mv[mkey((y1 - 1) * w + x1, x2 - x1, y2 - y1)] = c
  end)
end

function H.setWallBetween(g, x1, y1, x2, y2, wall)
  local valid = move_args(g, x1, y1, x2, y2, true) and (wall == nil or type(wall) == "boolean")
  moves_call("setWallBetween", Grid.setWallBetween, g, pack(x1, y1, x2, y2, wall), valid, function(mv, _, w)
    local v = nil
    if wall then v = false end
    mv[mkey((y1 - 1) * w + x1, x2 - x1, y2 - y1)] = v
    mv[mkey((y2 - 1) * w + x2, x1 - x2, y1 - y2)] = v
  end)
end

-- two different cells of the grid
local function link_args(g, x1, y1, x2, y2)
  local ok, s = cell_args(g, x1, y1)
  return ok and whole_in(x2, 1, s.w) and whole_in(y2, 1, s.h) and (x1 ~= x2 or y1 ~= y2)
end

function H.link(g, x1, y1, x2, y2, c, ...)
  local oneway = ...
  local valid = link_args(g, x1, y1, x2, y2) and valid_move_cost(c) and (oneway == nil or type(oneway) == "boolean")
  moves_call("link", Grid.link, g, pack(x1, y1, x2, y2, c, ...), valid, function(_, lk, w)
    local i, j = (y1 - 1) * w + x1, (y2 - 1) * w + x2
    lk[i] = lk[i] or {}
    lk[i][j] = c
    if not oneway then
      lk[j] = lk[j] or {}
      lk[j][i] = c
    end
  end)
end

function H.unlink(g, x1, y1, x2, y2)
  local valid = link_args(g, x1, y1, x2, y2)
  moves_call("unlink", Grid.unlink, g, pack(x1, y1, x2, y2), valid, function(_, lk, w)
    local i, j = (y1 - 1) * w + x1, (y2 - 1) * w + x2
    if lk[i] then lk[i][j] = nil end
    if lk[j] then lk[j][i] = nil end
  end)
end

-- A getter of the moves: the answer must be the mirror's (want(s) gives it
-- as text, got the answer's), for a snapshot of the call when disturbed.
local function moves_getter(fname, f, g, args, valid, want, got)
  local gi = info[g]
  local h0 = gi and #gi.hist
  local r, ev0 = api(f, g, unpack(args, 1, args.n))
  local how = common(fname, g, valid, r, ev0, depth + 1)
  if how == "error" then
    if not happened(ev0, g, depth + 1).disturbed then fail("%s raised %s", fname, show(r[2])) end
    return
  end
  if how ~= "ok" and how ~= "disturbed" then return end
  if r.n ~= 2 then fail("%s returned %d values", fname, r.n - 1) end
  local text = got(r[2])
  for _, s in ipairs(candidates(gi, h0)) do
    if text == want(s) then return end
  end
  fail("%s: %s, the mirror says %s", call_text(fname, g, unpack(args, 1, args.n)), text, want(cur(gi)))
end

-- a value as text, a number whatever its subtype (the mirror keeps the
-- integer a program gave, the grid a float)
local function value_text(v)
  if type(v) == "number" then return format("%.17g", v) end
  return show(v)
end

function H.getMove(g, x1, y1, x2, y2)
  local valid = move_args(g, x1, y1, x2, y2)
  moves_getter("getMove", Grid.getMove, g, pack(x1, y1, x2, y2), valid, function(s)
    return value_text((s.mv or EMPTY)[mkey((y1 - 1) * s.w + x1, x2 - x1, y2 - y1)])
  end, value_text)
end

function H.getLinks(g, x, y)
  local valid = cell_args(g, x, y)
  moves_getter("getLinks", Grid.getLinks, g, pack(x, y), valid, function(s)
    local t, list = (s.lk or EMPTY)[(y - 1) * s.w + x] or EMPTY, {}
    for j in pairs(t) do list[#list + 1] = j end
    table.sort(list)
    for k, j in ipairs(list) do
      list[k] = format("(%d, %d) %s", (j - 1) % s.w + 1, (j - 1) // s.w + 1, value_text(t[j]))
    end
    return concat(list, " ")
  end, function(v)
    if type(v) ~= "table" then return "a " .. type(v) end
    local list = {}
    for k, l in ipairs(v) do
      if type(l) ~= "table" then return "an entry that is a " .. type(l) end
      list[k] = format("(%s, %s) %s", show(rawget(l, "x")), show(rawget(l, "y")), show(rawget(l, "cost")))
      if mtype(rawget(l, "x")) ~= "integer" or mtype(rawget(l, "y")) ~= "integer"
          or type(rawget(l, "cost")) ~= "number" then
        return "bad entry " .. list[k]
      end
      list[k] = format("(%d, %d) %s", l.x, l.y, value_text(l.cost))
    end
    return concat(list, " ")
  end)
end

-- issue 20: grid:neighbours(x, y [, opts]), without options and with the mode
-- (x + y) % 4 picks: the mirror's moves of the cell (each_move), board moves in
-- direction order, then the links by target cell.
local NEIGHBOUR_ORDER = { ["1,0"] = 1, ["-1,0"] = 2, ["0,1"] = 3, ["0,-1"] = 4, ["1,1"] = 5, ["-1,1"] = 6,
  ["1,-1"] = 7, ["-1,-1"] = 8 }   -- E W S N SE SW NE NW
function H.neighbours(g, x, y)
  local opts_list = { false }
  if type(x) == "number" and type(y) == "number" and x == x and y == y and x % 1 == 0 and y % 1 == 0 then
    opts_list[2] = { diagonal = DIAG[(x + y) % 4 + 1] }
  end
  for _, opts in ipairs(opts_list) do
    local valid = cell_args(g, x, y)
    local args = opts and pack(x, y, opts) or pack(x, y)
    moves_getter("neighbours", Grid.neighbours, g, args, valid, function(s)
      local diag = opts and opts.diagonal or s.diag
      local i, list = (y - 1) * s.w + x, {}
      local function entry(j) return s.walk[j] and s.cost[j] or nil end
      local board, moves = setmetatable({ lk = false }, { __index = s }), {}
      each_move(board, diag, diag == "never" and 4 or 8, x, y, entry, function(_, c, tx, ty)
        moves[#moves + 1] = { NEIGHBOUR_ORDER[(tx - x) .. "," .. (ty - y)], tx, ty, c }
      end)
      table.sort(moves, function(a, b) return a[1] < b[1] end)
      for _, m in ipairs(moves) do list[#list + 1] = format("(%d, %d) %s", m[2], m[3], value_text(m[4])) end
      local links, targets = (s.lk or EMPTY)[i] or EMPTY, {}
      for j in pairs(links) do
        if s.walk[j] then targets[#targets + 1] = j end
      end
      table.sort(targets)
      for _, j in ipairs(targets) do
        list[#list + 1] = format("(%d, %d) %s", (j - 1) % s.w + 1, (j - 1) // s.w + 1, value_text(links[j]))
      end
      return concat(list, " ")
    end, function(v)
      if type(v) ~= "table" then return "a " .. type(v) end
      local list = {}
      for k, l in ipairs(v) do
        if type(l) ~= "table" or mtype(rawget(l, "x")) ~= "integer" or mtype(rawget(l, "y")) ~= "integer"
            or type(rawget(l, "cost")) ~= "number" then
          return "a bad entry " .. show(l)
        end
        list[k] = format("(%d, %d) %s", l.x, l.y, value_text(l.cost))
      end
      return concat(list, " ")
    end)
  end
end

-- issue 20: cellCentre, cellAt and distance on a square grid, against the
-- formulas: a centre at ((x - 0.5) * size, (y - 0.5) * size), the cell under a
-- pixel floor(p / size) + 1 (nil off the board), the distance Manhattan in mode
-- "never", else (max - min) + sqrt(2) * min. The pixel is made from x2, y2.
function H.geometry(g, x, y, x2, y2)
  local gi = info[g]
  if not gi then return end
  local size = 7.5
  local px = type(x2) == "number" and x2 * 3.25 - 4 or x2
  local py = type(y2) == "number" and y2 * 5.5 - 2 or y2
  local r, ev0 = api(function()
    local cx, cy = Grid.cellCentre(g, x, y, size)
    return { cx = cx, cy = cy, at = pack(Grid.cellAt(g, px, py, size)),
      back = pack(Grid.cellAt(g, cx, cy, size)), d = Grid.distance(g, x, y, x2, y2) }
  end)
  local s = cur(gi)
  local valid = whole_in(x, 1, s.w) and whole_in(y, 1, s.h) and whole_in(x2, 1, s.w) and whole_in(y2, 1, s.h)
  local w = happened(ev0, g, depth + 1)
  if w.closed_at_start then
    if r[1] or r[2] ~= CLOSED_USE then fail("geometry on a closed grid gave %s", show(r[2])) end
    return
  end
  if w.disturbed then return end
  if not valid then
    if r[1] or not is_bad_message(r[2]) then fail("geometry with bad coordinates gave %s", show(r[2])) end
    return
  end
  if not r[1] then fail("geometry raised %s", show(r[2])) end
  local o = r[2]
  if o.cx ~= (x - 0.5) * size or o.cy ~= (y - 0.5) * size then
    fail("cellCentre(%d, %d) is %s, %s", x, y, show(o.cx), show(o.cy))
  end
  if o.back[1] ~= x or o.back[2] ~= y then fail("cellAt(cellCentre(%d, %d)) is %s", x, y, show(o.back[1])) end
  local ax, ay = floor(px / size) + 1, floor(py / size) + 1
  if ax < 1 or ay < 1 or ax > s.w or ay > s.h then
    if o.at.n ~= 1 or o.at[1] ~= nil then fail("cellAt(%s, %s) is not nil", show(px), show(py)) end
  elseif o.at[1] ~= ax or o.at[2] ~= ay then
    fail("cellAt(%s, %s) is %s, %s", show(px), show(py), show(o.at[1]), show(o.at[2]))
  end
  local dx, dy = math.abs(x - x2), math.abs(y - y2)
  local want = s.diag == "never" and dx + dy or (math.max(dx, dy) - math.min(dx, dy)) + SQRT2 * math.min(dx, dy)
  if o.d ~= want then fail("distance(%d, %d, %d, %d) is %s, want %s", x, y, x2, y2, show(o.d), show(want)) end
end

-- n edits of the moves of g at once (a board with many), valid ones mostly.
function H.manyMoves(g, seed, n)
  local gi = info[g]
  if not gi then return end
  local r = seed
  for _ = 1, n do
    if gi.closed then return end
    local s = cur(gi)
    r = (r * 1103515245 + 12345) % 2147483648
    local x, y = r % s.w + 1, (r >> 8) % s.h + 1
    local kind = (r >> 16) % 7
    local d = STEPS8[(r >> 19) % 8 + 1]
    local c = ({ false, 2, 0.5, 1e15, 3, 1, 0.25, 9 })[(r >> 22) % 8 + 1]
    if kind <= 1 then
      H.setMove(g, x, y, x + d[1], y + d[2], c)
    elseif kind == 2 then
      H.setWallBetween(g, x, y, x + d[1], y + (d[1] == 0 and d[2] or 0), c ~= false)
    elseif kind <= 4 then
      H.link(g, x, y, (r >> 12) % s.w + 1, (r >> 4) % s.h + 1, c or 1.5, kind == 4)
    elseif kind == 5 then
      H.setMove(g, x, y, x + d[1], y + d[2], nil)
    else
      local t = (s.lk or EMPTY)[(y - 1) * s.w + x]
      local j = t and next(t)
      if j then H.unlink(g, x, y, (j - 1) % s.w + 1, (j - 1) // s.w + 1) end
    end
  end
end

local function write_settings(g, f)
  local gi = info[g]
  local t = copy_snapshot(cur(gi), "settings")
  f(t)
  gi.hist[#gi.hist + 1] = t
  event("settings", { g = g })
end

function H.setDiagonal(g, mode)
  local gi = info[g]
  local valid = gi and not gi.closed and IS_DIAG[mode]
  local r, ev0 = api(Grid.setDiagonal, g, mode)
  local how = common("setDiagonal", g, valid, r, ev0, depth + 1)
  if how == "error" and not happened(ev0, g, depth + 1).disturbed then
    fail("setDiagonal raised %s", show(r[2]))
  end
  if r[1] and valid and not gi.closed then write_settings(g, function(t) t.diag = mode end) end
end

function H.setHeuristic(g, name, ...)
  local gi = info[g]
  local weight = ...
  local valid = gi and not gi.closed and IS_HEUR[name] and (weight == nil or valid_weight(weight))
  local r, ev0 = api(Grid.setHeuristic, g, name, ...)
  local how = common("setHeuristic", g, valid, r, ev0, depth + 1)
  if how == "error" and not happened(ev0, g, depth + 1).disturbed then
    fail("setHeuristic raised %s", show(r[2]))
  end
  if r[1] and valid and not gi.closed then
    write_settings(g, function(t) t.heur, t.hchosen, t.weight = name, true, weight or 1 end)
  end
end

-- A shallow copy of a table's array part, to see it left untouched.
local function shallow(t)
  if type(t) ~= "table" then return nil end
  local c = { n = #t }
  for i = 1, c.n do c[i] = rawget(t, i) end
  return c
end

local function untouched(t, c)
  if not c then return true end
  if #t ~= c.n then return false end
  for i = 1, c.n do
    if not rawequal(rawget(t, i), c[i]) then return false end
  end
  return true
end

function H.findPath(g, sx, sy, gx, gy, opts)
  local gi = info[g]
  local o = check_path_opts(opts, "findPath")
  local valid = gi and not gi.closed and o ~= nil
  local h0 = gi and #gi.hist
  if valid then
    local s = cur(gi)
    valid = whole_in(sx, 1, s.w) and whole_in(sy, 1, s.h) and whole_in(gx, 1, s.w) and whole_in(gy, 1, s.h)
  end
  local into = o and o.into
  local old = shallow(into)
  local r, ev0 = api(Grid.findPath, g, sx, sy, gx, gy, opts)
  local how, w = common("findPath", g, valid, r, ev0, depth + 1)
  if how == "bad" or how == "closed" then return nil end
  if how == "error" then
    if o.algorithm == "jps" and r[2] == "bad argument #5 to 'findPath' (opts.algorithm: jps needs uniform "
        .. "costs and diagonal 'never' or 'no-obstacles')" then
      return nil
    end
    if move_error(r[2]) then
      local why = path_move_error(r[2], o, candidates(gi, h0), sx, sy, gx, gy, not w.disturbed)
      if why then fail("%s: %s", call_text("findPath", g, sx, sy, gx, gy, opts), why) end
      return nil
    end
    if r[2] == SMOOTH.refusal("findPath", o.smooth) then
      -- issue 20: "sight" and "theta" refuse a grid with moves
      for _, s in ipairs(candidates(gi, h0)) do
        if has_moves(s) then return nil end
      end
      fail("%s raised %s, but the grid has no moves", call_text("findPath", g, sx, sy, gx, gy, opts), show(r[2]))
    end
    if not w.disturbed then fail("findPath raised %s", show(r[2])) end
    return nil
  end
  if how == "disturbed" and not strict then return r[2] end
  if into and (r[2] == nil) and not untouched(into, old) then fail("findPath touched opts.into without a path") end
  local why
  for _, s in ipairs(candidates(gi, h0)) do
    why = path_answer(g, s, o, r, sx, sy, gx, gy, how == "ok")
    if not why then break end
  end
  if why then
    fail("%s: %s", call_text("findPath", g, sx, sy, gx, gy, opts), why)
  end
  if into and r[2] ~= nil and not o.flat and old then
    local n = #into
    for i = 1, math.min(n, old.n) do
      if type(old[i]) == "table" and not rawequal(into[i], old[i]) then
        fail("findPath with opts.into replaced the point table at %d", i)
      end
    end
  end
  return r[2]
end

-- newSearch, and search:restart (issue 24), which reads its query as
-- newSearch does: call(g, ...) makes the query, fname names it.
local function begin_search(fname, call, g, sx, sy, gx, gy, opts)
  local gi = info[g]
  local o = check_path_opts(opts, fname)
  local valid = gi and not gi.closed and o ~= nil
  if valid then
    local s = cur(gi)
    valid = whole_in(sx, 1, s.w) and whole_in(sy, 1, s.h) and whole_in(gx, 1, s.w) and whole_in(gy, 1, s.h)
  end
  local h0 = gi and #gi.hist
  local r, ev0 = api(call, g, sx, sy, gx, gy, opts)
  local how, w = common(fname, g, valid, r, ev0, depth + 1)
  if how == "bad" or how == "closed" then return nil, how end
  if how == "error" then
    if o.algorithm == "jps" and type(r[2]) == "string" and r[2]:find("opts.algorithm: jps needs", 1, true) then
      return nil, "bad"
    end
    if move_error(r[2]) then
      local why = path_move_error(r[2], o, candidates(gi, h0), sx, sy, gx, gy, not w.disturbed)
      if why then fail("%s: %s", call_text(fname, g, sx, sy, gx, gy, opts), why) end
      return nil
    end
    if r[2] == SMOOTH.refusal(fname, o.smooth) then
      -- issue 20: "sight" and "theta" refuse a grid with moves
      for _, s in ipairs(candidates(gi, h0)) do
        if has_moves(s) then return nil end
      end
      fail("%s raised %s, but the grid has no moves", call_text(fname, g, sx, sy, gx, gy, opts), show(r[2]))
    end
    if not w.disturbed then fail("%s raised %s", fname, show(r[2])) end
    return nil
  end
  local search = r[2]
  local st = search:getStatus()   -- found at once when start == goal
  if not SEARCH_STATUS[st] then fail("a new search's status is %s", show(st)) end
  -- (h0..h1: a finalizer may change the grid during newSearch, before or
  -- after the search began on it)
  sinfo[search] = { g = g, h0 = h0, h1 = #gi.hist, writes = gi.writes or 0, o = o, sx = sx, sy = sy, gx = gx,
    gy = gy, status = st, disturbed = how ~= "ok", released = false }
  return search
end

function H.newSearch(g, sx, sy, gx, gy, opts)
  return begin_search("newSearch", Grid.newSearch, g, sx, sy, gx, gy, opts)
end

-- A search left in a state the driver does not follow (a restart that
-- failed midway: a finalizer closed its grid or released it meanwhile): its
-- methods are called, their answers not checked.
local unknown = setmetatable({}, { __mode = "k" })

function H.restart(search, sx, sy, gx, gy, opts)
  local si = sinfo[search]
  local function call(_, ...) return search:restart(...) end
  if not si or si.released or unknown[search] then
    local r = api(call, nil, sx, sy, gx, gy, opts)
    if r[1] and not unknown[search] then fail("restart on %s returned", show(search)) end
    if si and si.released and not unknown[search] and r[2] ~= RELEASED then
      fail("restart on a released search: %s", show(r[2]))
    end
    return
  end
  local restarted, how = begin_search("restart", call, si.g, sx, sy, gx, gy, opts)
  if restarted and not rawequal(restarted, search) then fail("restart returned another value") end
  -- a restart refused for its arguments leaves the search as it was; one
  -- stopped after (the grid closed, the search released, a rule's error) not
  if not restarted and how ~= "bad" then unknown[search] = true end
end

-- Has g had a cell change since history index h0?
local function cells_changed(gi, h0)
  for i = h0 + 1, #gi.hist do
    if gi.hist[i].kind == "cells" then return true end
  end
  return false
end

-- A stepped search's state before a call: released, its grid closed, its
-- grid changed since it began (checked against what the call did; a
-- finalizer may release, close or change during the call itself).
local function search_before(si)
  local gi = info[si.g]
  return si.released, gi.closed, cells_changed(gi, si.h0)
end

function H.step(search, n, seconds)
  if unknown[search] then return api(function(...) return search:step(...) end, n, seconds) end
  local si = sinfo[search]
  local valid = si ~= nil and not si.released and type(n) == "number"
    and n >= 1 and (n == floor(n) or n == huge)
    and (seconds == nil or (type(seconds) == "number" and seconds > 0))
  local released, closed, maybe
  if si then released, closed, maybe = search_before(si) end
  local status = si and si.status     -- a finalizer may step it meanwhile
  -- the cells it may finish on: from before the call (or before the write
  -- this call is made in the middle of) to after it
  local f0 = si and (info[si.g].inflight or #info[si.g].hist)
  local r, ev0 = api(function(...) return search:step(...) end, n, seconds)
  if not si then
    if r[1] then fail("step on %s returned", show(search)) end
    return
  end
  if released then
    if r[1] or r[2] ~= RELEASED then fail("step on a released search: %s", show(r[2])) end
    return
  end
  local gi = info[si.g]
  local w = happened(ev0, si.g, depth + 1)
  local during = w.disturbed or si.released or maybe   -- a finalizer acted during the step
  if not valid then
    if r[1] or not is_bad_message(r[2]) then
      fail("step(%s, %s) gave %s", show(n), show(seconds), show(r[2]))
    end
    return
  end
  if si.stopped then
    -- issue 19: its move rule gave a bad value in an earlier step
    if r[1] or (r[2] ~= STOPPED and r[2] ~= CLOSED_USE) then fail("step on a stopped search: %s", show(r[2])) end
    return
  end
  if not r[1] and move_error(r[2]) and status == "searching" then
    local why = path_move_error(r[2], si.o, candidates(gi, si.h0), si.sx, si.sy, si.gx, si.gy,
      not (during or gi.closed or si.disturbed))
    if why then fail("step: %s", why) end
    si.stopped, si.status = true, "unreachable"
    return
  end
  local running = status == "searching"
  if running and closed then
    if r[1] then fail("a search stepped on a closed grid") end
    if r[2] ~= CLOSED_USE and strict then fail("step on a closed grid raised %s", show(r[2])) end
    return
  end
  -- (a change to its grid no longer stops it: it goes on, or starts again
  -- when the change reached it, and answers for the grid as it is when it
  -- finishes)
  if not r[1] then
    if during then
      if strict and r[2] ~= CLOSED_USE and r[2] ~= RELEASED then
        fail("step raised %s", show(r[2]))
      end
      return
    end
    fail("step raised %s", show(r[2]))
  end
  if not SEARCH_STATUS[r[2]] then fail("step returned %s", show(r[2])) end
  if not running and r[2] ~= status then fail("a finished search's step said %s", r[2]) end
  if running and r[2] ~= "searching" and not si.f0 then
    si.f0, si.f1 = f0, #gi.hist   -- (a finalizer's step may have set a narrower window)
  end
  -- (a finalizer's step during this one may have finished it after this
  -- one's answer was made)
  if r[2] ~= "searching" or si.status == "searching" then si.status = r[2] end
end

local function check_search_result(si, r)
  local gi = info[si.g]
  local why
  if si.f0 then
    -- finished by a step: exact for the cells as they were at some moment of
    -- that step (changes before it were followed or restarted it), with the
    -- settings it began with
    for j = si.h0, si.h1 do
      local set = gi.hist[j]
      for i = si.f0, si.f1 do
        local s = copy_snapshot(gi.hist[i], "cells")
        s.diag, s.heur, s.hchosen, s.weight = set.diag, set.heur, set.hchosen, set.weight
        why = path_answer(si.g, s, si.o, r, si.sx, si.sy, si.gx, si.gy, not gi.closed)
        if not why then break end
      end
      if not why then break end
    end
  else
    -- finished as it began: the cells as they were when it ran (settings
    -- changes do not matter: the options were fixed when it began)
    local exact = not si.disturbed and not cells_changed(gi, si.h0) and not gi.closed
    for i = si.h0, si.h1 do
      why = path_answer(si.g, gi.hist[i], si.o, r, si.sx, si.sy, si.gx, si.gy, exact)
      if not why then break end
    end
  end
  if why then fail("search result: %s", why) end
  if si.status == "found" and r[2] == nil then fail("a found search has no path") end
  if si.status == "unreachable" and r[2] ~= nil and not si.o.partial then
    fail("an unreachable search has a path")
  end
end

function H.result(search)
  if unknown[search] then return api(function() return search:result() end) end
  local si = sinfo[search]
  local released, closed
  if si then released, closed = search_before(si) end
  local status = si and si.status     -- a finalizer may step it meanwhile
  local r = api(function() return search:result() end)
  if not si then
    if r[1] then fail("result on %s returned", show(search)) end
    return nil
  end
  if released then
    if r[1] or r[2] ~= RELEASED then fail("result on a released search: %s", show(r[2])) end
    return nil
  end
  if si.stopped then
    if r[1] or (r[2] ~= STOPPED and r[2] ~= CLOSED_USE) then fail("result of a stopped search: %s", show(r[2])) end
    return nil
  end
  local gi = info[si.g]
  if status == "searching" and (not r[1] or si.status == "searching") then
    if r[1] then fail("result of a running search") end
    if not (gi.closed or si.released) and not r[2]:find("^search still running") then
      fail("result of a running search raised %s", show(r[2]))
    end
    return nil
  end
  if not r[1] then
    -- a finished search may keep its answer after its grid is closed, or not
    if (closed or gi.closed or si.released) and (r[2] == CLOSED_USE or r[2] == RELEASED or not strict) then
      return nil
    end
    fail("result raised %s", show(r[2]))
  end
  check_search_result(si, r)
  return r[2]
end

function H.searchInfo(search)
  if unknown[search] then return api(function() return search:getStats(), tostring(search) end) end
  local si = sinfo[search]
  if not si then return end
  if si.released then
    local ok, text = pcall(tostring, search)
    if not ok or text ~= "astar.Search (released)" then fail("tostring of a released search: %s", show(text)) end
    return
  end
  local gi = info[si.g]
  local r = api(function()
    local st = search:getStatus()
    local stats = search:getStats()
    local grid = search:getGrid()
    local name = tostring(search)
    local ok, list = pcall(search.getExpanded, search)
    return st, stats, grid, name, ok, list
  end)
  if not r[1] then fail("search methods raised %s", show(r[2])) end
  local st, stats, grid, name, ok, list = unpack(r, 2, 7)
  -- (a finalizer may have finished it after getStatus answered)
  if st ~= si.status and not (st == "searching" and si.status ~= "searching") then
    fail("getStatus says %s, step said %s", show(st), si.status)
  end
  if not rawequal(grid, si.g) then fail("getGrid is not the search's grid") end
  if name ~= "astar.Search (" .. st .. ")" then fail("tostring(search) is %s", show(name)) end
  if type(stats) ~= "table" or mtype(stats.expanded) ~= "integer" or mtype(stats.touched) ~= "integer"
    or mtype(stats.restarts) ~= "integer" or stats.restarts < 0 then
    fail("getStats gave %s", show(stats))
  end
  -- only a real change to its cells starts it again
  if stats.restarts > 0 and not cells_changed(gi, si.h0) and not si.disturbed then
    fail("%d restarts, but its grid's cells never changed", stats.restarts)
  end
  if gi.closed then
    -- a finished search may keep its cells after its grid is closed
    if not ok and list ~= CLOSED_USE and strict then fail("getExpanded on a closed grid raised %s", show(list)) end
    if not ok or si.status == "searching" then
      if ok then fail("getExpanded of a running search on a closed grid") end
      return
    end
  end
  if not ok then fail("getExpanded raised %s", show(list)) end
  -- getStats counts the runs before a restart too, getExpanded the current run
  if #list ~= stats.expanded and not (stats.restarts > 0 and #list < stats.expanded) then
    fail("getExpanded lists %d cells, getStats says %d (%d restarts)", #list, stats.expanded, stats.restarts)
  end
  local s = gi.hist[si.h0]
  local prev = 0
  for i, c in ipairs(list) do
    local k = (c.y - 1) * s.w + c.x
    if c.x < 1 or c.y < 1 or c.x > s.w or c.y > s.h or k <= prev then
      fail("getExpanded[%d] = (%s, %s) out of order or out of the grid", i, show(c.x), show(c.y))
    end
    prev = k
  end
end

-- ---- issue 20: grid:smoothPath ---------------------------------------------------

-- A walk over grid g's mirror from a seeded start: steps into open cells the
-- grid's mode allows, until n points or a dead end; as points or flat (seed
-- odd), and one seed in four broken: a point moved off the grid or onto a
-- wall, a jump, a repeated point or a point that is no table or number.
function H.walk(g, seed, n)
  local gi = info[g]
  if not gi then return { { x = 1, y = 1 } } end
  local s, r = cur(gi), seed
  local function rand(m)
    r = (r * 1103515245 + 12345) % 2147483648
    return (r >> 16) % m
  end
  local x, y = 1 + rand(s.w), 1 + rand(s.h)
  local pts = { { x, y } }
  while #pts < n do
    local turn, moved = rand(8), false
    for k = 0, 7 do
      local d = STEP9[(turn + k) % 8 + 1]
      if diagonal_ok(s, s.diag, x, y, d[1], d[2]) then
        x, y, moved = x + d[1], y + d[2], true
        break
      end
    end
    if not moved then break end
    pts[#pts + 1] = { x, y }
  end
  if seed % 4 == 0 then
    local i = 1 + rand(#pts)
    local how = rand(5)
    if how == 0 then pts[i] = { s.w + 1, pts[i][2] }
    elseif how == 1 then pts[i] = { pts[i][1] + 2, pts[i][2] }
    elseif how == 2 then pts[#pts + 1] = pts[#pts]
    elseif how == 3 then pts[i] = { 0, 1 + rand(s.h) }
    else pts[i] = { "x", pts[i][2] } end
  end
  local out = {}
  for i, p in ipairs(pts) do
    if seed % 2 == 1 then
      out[2 * i - 1], out[2 * i] = p[1], p[2]
    else
      out[i] = { x = p[1], y = p[2] }
    end
  end
  if seed % 16 == 8 then out[#out + 1] = seed % 32 < 16 and 7 or {} end   -- an odd or a bad end
  return out
end

-- smoothPath's options, read raw: {mode, asked (the mode named), diag, flat
-- (nil: as the walk came), into}, or nil when bad (on snapshot s: the
-- grid's mode by default; in mode "never" the lines are the corners).
SMOOTH.PATH_OPTION = { smooth = true, diagonal = true, flat = true, into = true }
function SMOOTH.read_opts(s, o)
  local out = { mode = "sight", diag = s.diag }
  if o ~= nil and type(o) ~= "table" then return nil end
  for k, v in next, o or {} do
    if not SMOOTH.PATH_OPTION[k] then return nil end
    if k == "smooth" then
      if v ~= false and v ~= "corners" and v ~= "sight" then return nil end
      out.mode = v or "corners"
    elseif k == "diagonal" then
      if not IS_DIAG[v] then return nil end
      out.diag = v
    elseif k == "flat" then
      if type(v) ~= "boolean" then return nil end
      out.flat = v
    elseif type(v) ~= "table" then
      return nil
    else
      out.into = v
    end
  end
  out.asked = out.mode
  if out.diag == "never" then out.mode = "corners" end
  return out
end

-- The walk in path (read raw as the binding reads it) on snapshot s:
-- {pts, flat}, or the error message it must raise (false: a bad argument
-- whose words are not checked), or true when no verdict can be given.
function SMOOTH.read_walk(s, path, o)
  local function bad(fmt, ...) return "bad argument #1 to 'smoothPath' (" .. format(fmt, ...) .. ")" end
  local n = #path   -- (rawlen: the driver's tables have no metatables)
  if n == 0 then return bad("path is empty") end
  local flat = type(rawget(path, 1)) == "number"
  if flat and n % 2 == 1 then return bad("flat path has an odd length %d", n) end
  local pts = {}
  for k = 1, flat and n // 2 or n do
    local x, y
    if flat then
      x, y = rawget(path, 2 * k - 1), rawget(path, 2 * k)
      if type(x) ~= "number" then return bad("path[%d]: number expected, got %s", 2 * k - 1, type(x)) end
      if type(y) ~= "number" then return bad("path[%d]: number expected, got %s", 2 * k, type(y)) end
    else
      local p = rawget(path, k)
      if type(p) ~= "table" then return bad("path[%d]: point expected, got %s", k, type(p)) end
      x, y = rawget(p, "x"), rawget(p, "y")
      if type(x) ~= "number" then return bad("path[%d].x: number expected, got %s", k, type(x)) end
      if type(y) ~= "number" then return bad("path[%d].y: number expected, got %s", k, type(y)) end
    end
    if not (whole_in(x, 1, s.w) and whole_in(y, 1, s.h)) then
      if mtype(x) ~= "integer" or mtype(y) ~= "integer" then return false end   -- (numbers as the binding writes them)
      return bad("point %d (%d, %d) is outside the %dx%d grid", k, x, y, s.w, s.h)
    end
    x, y = floor(x), floor(y)
    if k > 1 and not s.walk[(y - 1) * s.w + x] then return bad("point %d (%d, %d) is not walkable", k, x, y) end
    pts[k] = { x, y }
  end
  if o.asked == "sight" and has_moves(s) then
    return "bad argument #2 to 'smoothPath' (opts.smooth: 'sight' needs a grid without move overrides or links)"
  end
  if has_moves(s) then return true end   -- (the steps a grid's overrides allow: not modelled here)
  for k = 2, #pts do
    local x0, y0, x1, y1 = pts[k - 1][1], pts[k - 1][2], pts[k][1], pts[k][2]
    local dx, dy = x1 - x0, y1 - y0
    if math.abs(dx) > 1 or math.abs(dy) > 1 or (dx == 0 and dy == 0) or (o.diag == "never" and dx ~= 0 and dy ~= 0)
        or not diagonal_ok(s, o.diag, x0, y0, dx, dy) then
      return bad("point %d (%d, %d) is not a move from point %d (%d, %d)", k, x1, y1, k - 1, x0, y0)
    end
  end
  return { pts = pts, flat = flat }
end

-- nil when r (smoothPath's packed results) is right on snapshot s, else why.
function SMOOTH.outcome(s, path, opts, r)
  local o = type(path) == "table" and SMOOTH.read_opts(s, opts)
  if not o then
    if r[1] then return "accepted bad arguments" end
    return not is_bad_message(r[2]) and "raised " .. show(r[2]) or nil
  end
  local walk = SMOOTH.read_walk(s, path, o)
  if walk == true then return nil end
  if type(walk) ~= "table" then
    if r[1] then return "accepted a bad walk" end
    if walk == false then return not is_bad_message(r[2]) and "raised " .. show(r[2]) or nil end
    return r[2] ~= walk and format("raised %s, not %s", show(r[2]), walk) or nil
  end
  if not r[1] then return "raised " .. show(r[2]) end
  if r.n ~= 3 or type(r[3]) ~= "number" then return format("%d results, cost %s", r.n - 1, show(r[3])) end
  local p, cost = r[2], r[3]
  if o.into and not rawequal(p, o.into) then return "opts.into was not returned" end
  local flat = o.flat
  if flat == nil then flat = walk.flat end
  local pts, why = read_path(p, flat)
  if not pts then return why end
  -- the walk's cost, step by step in order (the model's price of one step)
  local wpts, total = walk.pts, 0
  for k = 2, #wpts do
    local x0, y0, x1, y1 = wpts[k - 1][1], wpts[k - 1][2], wpts[k][1], wpts[k][2]
    total = total + ((x0 ~= x1 and y0 ~= y1) and SQRT2 or 1) * s.cost[(y1 - 1) * s.w + x1]
  end
  local first, last = wpts[1], wpts[#wpts]
  if pts[1][1] ~= first[1] or pts[1][2] ~= first[2] or pts[#pts][1] ~= last[1] or pts[#pts][2] ~= last[2] then
    return "the smoothed path does not join the walk's ends"
  end
  if o.mode == "corners" then
    -- the start, the goal and every point where the direction changes
    local want = { wpts[1] }
    for k = 2, #wpts - 1 do
      local a, b, c = wpts[k - 1], wpts[k], wpts[k + 1]
      if b[1] - a[1] ~= c[1] - b[1] or b[2] - a[2] ~= c[2] - b[2] then want[#want + 1] = b end
    end
    if #wpts > 1 then want[#want + 1] = wpts[#wpts] end
    if #want ~= #pts then return format("%d corners, the walk has %d", #pts, #want) end
    for k, q in ipairs(want) do
      if pts[k][1] ~= q[1] or pts[k][2] ~= q[2] then return format("corner %d differs", k) end
    end
    if not close_to(cost, total) then return format("cost %.17g, the walk's %.17g", cost, total) end
    return nil
  end
  -- "sight": points of the walk in its order, legal lines, no dearer than the walk
  local at, sum = 1, 0
  for k = 2, #pts do
    repeat at = at + 1 until at > #wpts or (wpts[at][1] == pts[k][1] and wpts[at][2] == pts[k][2])
    if at > #wpts then return format("point %d is not a later point of the walk", k) end
    local c = SMOOTH.segment(s, o.diag, pts[k - 1][1], pts[k - 1][2], pts[k][1], pts[k][2])
    if not c then return format("leg %d is not legal in mode %s", k - 1, o.diag) end
    sum = sum + c
  end
  if not close_to(cost, sum) then return format("cost %.17g, its lines cost %.17g", cost, sum) end
  if not (cost <= total * (1 + 1e-9)) then return format("cost %.17g above the walk's %.17g", cost, total) end
  return nil
end

function H.smoothPath(g, path, opts)
  local gi = info[g]
  local h0 = gi and #gi.hist
  local r, ev0 = api(Grid.smoothPath, g, path, opts)
  local w = happened(ev0, g, depth + 1)
  if w.meta and strict then fail("smoothPath used %s (options are read raw)", w.meta) end
  if not gi or w.closed_at_start then
    if r[1] then fail("smoothPath on %s returned", gi and "a closed grid" or "no grid") end
    if not (is_bad_message(r[2]) or r[2] == CLOSED_USE) then fail("smoothPath raised %s", show(r[2])) end
    return nil
  end
  if not r[1] and w.disturbed and (r[2] == CLOSED_USE or r[2] == "grid closed during smoothPath"
      or r[2] == "grid changed during smoothPath") then
    return nil
  end
  if not strict and w.disturbed then return r[1] and r[2] or nil end
  local why
  for _, s in ipairs(candidates(gi, h0)) do
    why = SMOOTH.outcome(s, path, opts, r)
    if not why then return r[1] and r[2] or nil end
  end
  fail("%s: %s", call_text("smoothPath", g, path, opts), why)
end

-- ---- issue 24: grid:firstBlocked -------------------------------------------------

-- Point k of path in its form (flat or tables), read raw: x, y, or nil and
-- the message the binding raises about it.
function SMOOTH.fb_point(path, flat, k)
  local function bad(fmt, ...) return nil, "bad argument #1 to 'firstBlocked' (" .. format(fmt, ...) .. ")" end
  local x, y
  if flat then
    x, y = rawget(path, 2 * k - 1), rawget(path, 2 * k)
    if type(x) ~= "number" then return bad("path[%d]: number expected, got %s", 2 * k - 1, type(x)) end
    if type(y) ~= "number" then return bad("path[%d]: number expected, got %s", 2 * k, type(y)) end
    return x, y
  end
  local p = rawget(path, k)
  if type(p) ~= "table" then return bad("path[%d]: point expected, got %s", k, type(p)) end
  x, y = rawget(p, "x"), rawget(p, "y")
  if type(x) ~= "number" then return bad("path[%d].x: number expected, got %s", k, type(x)) end
  if type(y) ~= "number" then return bad("path[%d].y: number expected, got %s", k, type(y)) end
  return x, y
end

-- What firstBlocked(path, from) answers on snapshot s: the index, false
-- (nil: nothing blocked), a message it must raise, or true when no verdict
-- is given (a bad argument whose words are not checked: "bad"; a grid with
-- moves, whose steps are not modelled here: true).
function SMOOTH.fb_expect(s, path, from)
  if type(path) ~= "table" then return "bad" end
  local n = #path
  local flat = type(rawget(path, 1)) == "number"
  if n == 0 then return "bad argument #1 to 'firstBlocked' (path is empty)" end
  if flat and n % 2 == 1 then return format("bad argument #1 to 'firstBlocked' (flat path has an odd length %d)", n) end
  local m = flat and n // 2 or n
  if from ~= nil and not whole_in(from, 1, m + 1) then return "bad" end
  if has_moves(s) then return true end
  from = from or 1
  local px, py
  if from > 1 then
    local x, y = SMOOTH.fb_point(path, flat, from - 1)
    if not x then return y end
    px, py = x, y
  end
  local function on(x, y) return whole_in(x, 1, s.w) and whole_in(y, 1, s.h) end
  for k = from, m do
    local x, y = SMOOTH.fb_point(path, flat, k)
    if not x then return y end
    if not on(x, y) or not s.walk[(y - 1) * s.w + x] then return k end
    if k > 1 and on(px, py) then
      local dx, dy = x - px, y - py
      if math.abs(dx) <= 1 and math.abs(dy) <= 1 and (dx ~= 0 or dy ~= 0)
          and not diagonal_ok(s, s.diag, px, py, dx, dy) then
        return k
      end
    end
    px, py = x, y
  end
  return false
end

-- nil when r (firstBlocked's packed results) is right on snapshot s, else why.
function SMOOTH.fb_outcome(s, path, from, r)
  local want = SMOOTH.fb_expect(s, path, from)
  if want == true then return nil end
  if want == "bad" then
    if r[1] then return "accepted bad arguments" end
    return not is_bad_message(r[2]) and "raised " .. show(r[2]) or nil
  end
  if type(want) == "string" then
    if r[1] then return "accepted a bad path" end
    return r[2] ~= want and format("raised %s, not %s", show(r[2]), want) or nil
  end
  if not r[1] then return "raised " .. show(r[2]) end
  if r.n ~= 2 or r[2] ~= (want or nil) then return format("answered %s, not %s", show(r[2]), show(want or nil)) end
  return nil
end

function H.firstBlocked(g, path, from)
  local gi = info[g]
  local h0 = gi and #gi.hist
  local r, ev0 = api(Grid.firstBlocked, g, path, from)
  local w = happened(ev0, g, depth + 1)
  if w.meta and strict then fail("firstBlocked used %s (a path is read raw)", w.meta) end
  if not gi or w.closed_at_start then
    if r[1] then fail("firstBlocked on %s returned", gi and "a closed grid" or "no grid") end
    if not (is_bad_message(r[2]) or r[2] == CLOSED_USE) then fail("firstBlocked raised %s", show(r[2])) end
    return nil
  end
  if w.disturbed then fail("firstBlocked ran something (it reads raw and makes no table)") end
  local why
  for _, s in ipairs(candidates(gi, h0)) do
    why = SMOOTH.fb_outcome(s, path, from, r)
    if not why then return r[1] and r[2] or nil end
  end
  fail("%s: %s", call_text("firstBlocked", g, path, from), why)
end

-- ---- rules, traps, finalizers ----------------------------------------------------

local act

local function triggers(trig, count)
  for _, t in ipairs(trig) do
    if t[1] == count or (t[1] < 0 and count % -t[1] == 0) then act(t[2]) end
  end
end

function H.fn(role, seed, dens, trig)
  local count = 0
  local f = function(...)
    count = count + 1
    if trig then
      local q = quiet
      quiet = 1
      local ok, err = pcall(triggers, trig, count)
      quiet = q
      if not ok then error(err, 0) end
    end
    return rule_value(role, seed, dens, ...)
  end
  fninfo[f] = { role, seed, dens }
  return f
end

function H.tbl(role, seed, dens, g)
  local t = {}
  local gi = info[g]
  local s = gi and cur(gi) or { w = 8, h = 8 }
  for y = 1, s.h do
    for x = 1, s.w do
      -- a table by cell number holds no table (that would be a list of points, or
      -- the error for a mix of the two forms): true stands in for one
      local v = rule_value(role, seed, dens, x, y)
      if type(v) == "table" then v = true end
      t[(y - 1) * s.w + x] = v
    end
  end
  if dens == 15 then
    setmetatable(t, { __index = function() event("meta", { what = "a rule table's __index" }) return 1 end })
  end
  return t
end

-- An options table whose metamethods must not be used (options are read raw).
function H.trap(t)
  return setmetatable(t, {
    __index = function() event("meta", { what = "its options' __index" }) return "never" end,
    __pairs = function() event("meta", { what = "its options' __pairs" }) return next, {}, nil end,
  })
end

function H.bomb(action, lives, hold)
  local mt = {}
  mt.__gc = function()
    if closing then return end
    if quiet == 0 then
      in_fin = in_fin + 1
      quiet = 1
      local ok, err = pcall(act, action)
      quiet = 0
      in_fin = in_fin - 1
      if not ok then error(err, 0) end
    elseif lives > 1 then
      H.bomb(action, lives - 1, hold)
    end
  end
  setmetatable({ hold }, mt)
end

-- ---- tactics ------------------------------------------------------------------------

local RULE_ROLE = { blocked = true, cost = true, occupied = true, zoc = true }

-- A list of points fits a w x h grid when all its points are on it.
local function fits(v, w, h)
  local pi = ptsinfo[v]
  return not pi or (pi.w <= w and pi.h <= h)
end

local function valid_rules(o, s)
  if o == nil then return {} end
  if type(o) ~= "table" then return nil end
  local out = {}
  for k, v in next, o do
    if k == "move" and type(v) ~= "function" then return nil end   -- issue 19: a function only
    if not (RULE_ROLE[k] or k == "move") or (type(v) ~= "function" and type(v) ~= "table") then return nil end
    if s and not fits(v, s.w, s.h) then return nil end
    out[k] = v
  end
  return out
end

-- Checks a returned Range against ref; nil when fine, else a message.
local function range_answer(range, ref)
  if ref.weird then return "returned a range although a rule gave a bad cost" end
  if ref.must then
    local m = ref.must
    return format("returned a range although opts.move gives a bad value for the move (%d, %d) -> (%d, %d), "
      .. "which it must have asked about", (m[1] - 1) % ref.w + 1, (m[1] - 1) // ref.w + 1, (m[2] - 1) % ref.w + 1,
      (m[2] - 1) // ref.w + 1)
  end
  local w, h = ref.w, ref.h
  local ok, msg = pcall(function()
    local x, y = range:getStart()
    if x ~= ref.sx or y ~= ref.sy then error(format("getStart is (%s, %s)", show(x), show(y)), 0) end
    local gw, gh = range:getGridDimensions()
    if gw ~= w or gh ~= h then error("getGridDimensions is wrong", 0) end
    local stops = 0
    for cy = 1, h do
      for cx = 1, w do
        local i = (cy - 1) * w + cx
        local c, want = range:costTo(cx, cy), ref.dist[i]
        if (c == nil) ~= (want == nil) or (c and not close_to(c, want)) then
          error(format("costTo(%d, %d) = %s, reference %s", cx, cy, show(c), show(want)), 0)
        end
        local stop = ref.stop[i] == true
        if range:contains(cx, cy) ~= stop then
          error(format("contains(%d, %d) is %s", cx, cy, tostring(not stop)), 0)
        end
        if stop then stops = stops + 1 end
      end
    end
    local cells = range:cells()
    if #cells ~= stops then error(format("cells() has %d, reference %d", #cells, stops), 0) end
    local last = -huge
    for i, c in ipairs(cells) do
      if not ref.stop[(c.y - 1) * w + c.x] or c.cost < last or not close_to(c.cost, ref.dist[(c.y - 1) * w + c.x]) then
        error(format("cells()[%d] = (%s, %s, %s)", i, show(c.x), show(c.y), show(c.cost)), 0)
      end
      last = c.cost
    end
    for i = 1, math.min(#cells, 3) do
      local c = cells[#cells + 1 - i]
      local p = range:pathTo(c.x, c.y)
      if type(p) ~= "table" or #p < 1 or p[1].x ~= ref.sx or p[1].y ~= ref.sy or p[#p].x ~= c.x or p[#p].y ~= c.y then
        error(format("pathTo(%d, %d) does not go from the start to the cell", c.x, c.y), 0)
      end
      local sum = 0
      for k = 2, #p do
        local j = (p[k].y - 1) * w + p[k].x
        -- (issue 19: a link's step joins cells that need not be neighbours)
        local sc = ref.dist[j] and ref.step(p[k - 1].x, p[k - 1].y, p[k].x, p[k].y)
        if type(sc) ~= "number" then
          error(format("pathTo(%d, %d): bad step %d", c.x, c.y, k), 0)
        end
        if k < #p and ref.zoc[j] then error(format("pathTo(%d, %d) crosses a zone of control", c.x, c.y), 0) end
        sum = sum + sc
      end
      if not close_to(sum, c.cost) then
        error(format("pathTo(%d, %d) costs %.17g, not %.17g", c.x, c.y, sum, c.cost), 0)
      end
    end
  end)
  if not ok then return msg end
  return nil
end

-- Can the range of reference ref have asked about move m (x1, y1, x2, y2),
-- which its rule gives a bad value for? (Any such move once a cell rule gave
-- a bad cost: the reference stopped there.)
local function range_may_ask(ref, m)
  if not rule_gives_bad(ref.rule, m) then return false end
  if ref.weird then return true end
  local i, j = (m[2] - 1) * ref.w + m[1], (m[4] - 1) * ref.w + m[3]
  for _, b in ipairs(ref.bad) do
    if b[1] == i and b[2] == j then return true end
  end
  return false
end

-- The calls whose rules stop at the first real change of the grid instead of
-- restarting (README, "Callbacks": a stepped search's rules run inside
-- newSearch, e.g. blocked while it builds a large unit's clearance).
local STOPS_AT_A_CHANGE = { newSearch = true }

-- The error a callback-taking call may raise, given what happened.
local function callback_error_ok(fname, err, w)
  for _, v in ipairs(w.thrown) do
    if rawequal(err, v[1]) then return true end
  end
  if w.yield and YIELD_ERRORS[err] then return true end
  if w.closed and (err == "grid closed during " .. fname or (w.closed_fin and err == CLOSED_USE)) then
    return true
  end
  -- (at most 3 restarts: the error needs a 4th change, or one for a search)
  if w.changed and err == "grid changed during " .. fname
      and (w.changed_fin or w.changes >= 4 or STOPS_AT_A_CHANGE[fname]) then
    return true
  end
  return false
end

-- The shared outcome logic of movementRange, attackRange and dangerZone:
-- try(s) checks the answer on snapshot s (nil when fine, "weird" when the
-- reference expects a bad-cost error, else a message).
local function tactics_outcome(fname, g, valid, r, ev0, h0, try, text)
  local d = depth + 1
  fname = fname
  local gi = info[g]
  local w = happened(ev0, g, d)
  if w.meta and strict then fail("%s used %s (options are read raw)", text, w.meta) end
  if w.closed_at_start then
    if r[1] then fail("%s on a closed grid returned a result", fname) end
    if r[2] ~= CLOSED_USE then fail("%s on a closed grid raised %s", fname, show(r[2])) end
    return
  end
  if not valid then
    if r[1] then fail("%s accepted bad arguments", text) end
    if not is_bad_message(r[2]) and not w.disturbed then fail("%s raised %s", text, show(r[2])) end
    return
  end
  if not strict and w.disturbed then return end
  local from = nil
  if w.last_change then from = w.last_change end
  local list = candidates(gi, h0, from)
  if not r[1] then
    local err = r[2]
    if callback_error_ok(fname, err, w) then return end
    -- (the contract: the message names the function called; before it,
    -- dangerZone's named movementRange)
    local named = strict and fname or "%a+"
    local m = move_error(err)
    if m then
      -- issue 19: the move rule gave a bad value, for a move it may be asked about
      for _, s in ipairs(list) do
        if try(s, "move", m) == "weird" then return end
      end
      fail("%s raised %s, but that move is not one the range asks about with a bad value", text, show(err))
    end
    if type(err) == "string" and err:find("^bad argument #%d+ to '" .. named .. "' %(.*cost gave ") then
      for _, s in ipairs(list) do
        if try(s, true) == "weird" then return end
      end
      fail("%s raised %s, but no rule gives a bad cost", text, show(err))
    end
    fail("%s raised %s", text, show(err))
  end
  if #w.thrown > 0 then fail("%s returned although a callback raised %s", text, show(w.thrown[1][1])) end
  if w.yield then fail("%s returned although a callback yielded", fname) end
  if w.closed_cb then fail("%s returned although a callback closed the grid", fname) end
  local why
  for _, s in ipairs(list) do
    why = try(s, false)
    if not why then return end
  end
  fail("%s: %s", text, why == "weird" and "returned although a rule gave a bad cost" or why)
end

function H.movementRange(g, x, y, move, opts)
  local gi = info[g]
  local rules = valid_rules(opts, gi and cur(gi))
  local valid = gi and not gi.closed and rules ~= nil and type(move) == "number" and move >= 0
  local h0 = gi and #gi.hist
  if valid then
    local s = cur(gi)
    valid = whole_in(x, 1, s.w) and whole_in(y, 1, s.h)
  end
  local text = call_text("movementRange", g, x, y, move, opts)
  local r, ev0 = api(T.movementRange, g, x, y, move, opts)
  local range = r[1] and r[2]
  tactics_outcome("movementRange", g, valid, r, ev0, h0, function(s, want_weird, m)
    local ref = ref_range(s, x, y, move, rules)
    if want_weird == "move" then return range_may_ask(ref, m) and "weird" or "no" end
    if want_weird then return ref.weird and "weird" or "no" end
    if ref.weird then return "weird" end
    local why = range_answer(range, ref)
    if not why then rinfo[range] = ref end
    return why
  end, text)
  return range or nil
end

local function stop_cells(range)
  local ok, cells = pcall(range.cells, range)
  if not ok then return nil end
  return cells
end

local function whole_range(v) return type(v) == "number" and v == floor(v) and v >= 0 and v < huge end

function H.attackRange(g, range, lo, hi, opts)
  local gi = info[g]
  local valid = gi and not gi.closed and whole_range(lo) and whole_range(hi) and hi >= lo
  local sight
  if opts ~= nil then
    if type(opts) ~= "table" then valid = false
    else
      for k, v in next, opts do
        if k ~= "lineOfSight" or (type(v) ~= "boolean" and type(v) ~= "function") then valid = false end
      end
      sight = rawget(opts, "lineOfSight")
    end
  end
  local mt = (type(range) == "userdata" or type(range) == "table") and getmetatable(range)
  local is_range = type(mt) == "table" and rawget(mt, "__name") == "astar.Range"
  if valid then
    local s = cur(gi)
    if not is_range then valid = false
    else
      local rw, rh = range:getGridDimensions()
      valid = rw == s.w and rh == s.h
    end
  end
  local h0 = gi and #gi.hist
  local stops = valid and stop_cells(range)
  local text = call_text("attackRange", g, range, lo, hi, opts)
  local r, ev0 = api(T.attackRange, g, range, lo, hi, opts)
  tactics_outcome("attackRange", g, valid, r, ev0, h0, function(s, want_weird)
    if want_weird then return "no" end
    local hit = ref_attack(s, stops, lo, hi, sight)
    if not hit then return nil end
    return (function()
      local area = r[2]
      local n = 0
      for y = 1, s.h do
        for x = 1, s.w do
          local want = hit[(y - 1) * s.w + x] == true
          if area:contains(x, y) ~= want then return format("contains(%d, %d) is %s", x, y, tostring(not want)) end
          if want then n = n + 1 end
        end
      end
      if area:size() ~= n then return format("size() is %d, reference %d", area:size(), n) end
      if #area:cells() ~= n then return "cells() has the wrong length" end
      return nil
    end)()
  end, text)
  return r[1] and r[2] or nil
end

local ZONE_OPTION = { cost = true, blocked = true, occupied = true, zoc = true, lineOfSight = true, move = true }

function H.dangerZone(g, enemies, opts)
  local gi = info[g]
  local valid = gi and not gi.closed and type(enemies) == "table"
  local sight, shared_move, move_bad
  local shared = {}
  if opts ~= nil then
    if type(opts) ~= "table" then valid = false
    else
      for k, v in next, opts do
        if not ZONE_OPTION[k] then valid = false
        elseif k == "lineOfSight" then
          if type(v) ~= "boolean" and type(v) ~= "function" then valid = false end
          sight = v
        elseif k == "move" then
          -- issue 19: the move rule of every enemy's range (an enemy's own
          -- move is its budget)
          if type(v) ~= "function" then move_bad = true end
          shared_move = v
        elseif (type(v) ~= "function" and type(v) ~= "table") or (gi and not fits(v, cur(gi).w, cur(gi).h)) then
          valid = false
        else shared[k] = v end
      end
    end
  end
  local list = {}
  if valid then
    local s = cur(gi)
    for i = 1, #enemies do
      local e = enemies[i]
      if type(e) ~= "table" or not whole_in(e.x, 1, s.w) or not whole_in(e.y, 1, s.h)
          or type(e.move) ~= "number" or not (e.move >= 0) or not whole_range(e.minRange)
          or not whole_range(e.maxRange) or e.maxRange < e.minRange then
        valid = false
        break
      end
      local rules = {}
      for role in pairs(RULE_ROLE) do
        local v = e[role]
        if v == nil then v = shared[role] end
        if v ~= nil and ((type(v) ~= "function" and type(v) ~= "table") or not fits(v, s.w, s.h)) then
          valid = false
        end
        rules[role] = v
      end
      rules.move = shared_move
      list[i] = { e = e, rules = rules }
    end
  end
  local h0 = gi and #gi.hist
  local text = call_text("dangerZone", g, enemies, opts)
  local r, ev0 = api(T.dangerZone, g, enemies, opts)
  -- an opts.move that is not a function is an error, enemies or not
  if move_bad then valid = false end
  tactics_outcome("dangerZone", g, valid, r, ev0, h0, function(s, want_weird, m)
    local count, refs = {}, {}
    for i, it in ipairs(list) do
      local e = it.e
      refs[i] = ref_range(s, e.x, e.y, e.move, it.rules)
      if want_weird == "move" then
        if range_may_ask(refs[i], m) then return "weird" end
      elseif refs[i].weird then
        return "weird"
      end
      -- (a range that must have met a bad value raised: the zone is made of no range after it)
      if refs[i].must and not want_weird then return "weird" end
      if refs[i].weird or refs[i].must then break end
    end
    if want_weird then return "no" end
    for i, it in ipairs(list) do
      local e, ref = it.e, refs[i]
      local stops = {}
      for j in pairs(ref.stop) do
        if ref.stop[j] then stops[#stops + 1] = { x = (j - 1) % s.w + 1, y = (j - 1) // s.w + 1 } end
      end
      table.sort(stops, function(a, b) return a.y * 100 + a.x < b.y * 100 + b.x end)
      local hit = ref_attack(s, stops, e.minRange, e.maxRange, sight)
      if not hit then return nil end
      for j in pairs(hit) do count[j] = (count[j] or 0) + 1 end
    end
    local zone = r[2]
    local n = 0
    for y = 1, s.h do
      for x = 1, s.w do
        local want = count[(y - 1) * s.w + x] or 0
        local got = zone:count(x, y)
        if got ~= want then return format("count(%d, %d) is %s, reference %d", x, y, show(got), want) end
        if want > 0 then n = n + 1 end
      end
    end
    if zone:size() ~= n then return "size() is wrong" end
    return nil
  end, text)
  return r[1] and r[2] or nil
end

function H.rangeQuery(range, x, y)
  local ref = rinfo[range]
  local r = api(function()
    return range:contains(x, y), range:costTo(x, y), range:pathTo(x, y), tostring(range)
  end)
  if not ref then return end
  if not r[1] then
    if type(x) == "number" and type(y) == "number" then fail("range methods raised %s", show(r[2])) end
    return
  end
  local contains, cost, path = r[2], r[3], r[4]
  local i = whole_in(x, 1, ref.w) and whole_in(y, 1, ref.h) and (y - 1) * ref.w + x
  local want = i and ref.dist[i]
  if (cost == nil) ~= (not want) or (cost and not close_to(cost, want)) then
    fail("costTo(%s, %s) = %s, reference %s", show(x), show(y), show(cost), show(want))
  end
  if contains ~= (i and ref.stop[i] == true or false) then
    fail("contains(%s, %s) is %s", show(x), show(y), show(contains))
  end
  if (path ~= nil) ~= contains then fail("pathTo(%s, %s) and contains disagree", show(x), show(y)) end
end

-- ---- encode, close, getters -------------------------------------------------------

function H.encode(g)
  local gi = info[g]
  local h0 = gi and #gi.hist
  local valid = gi ~= nil and not gi.closed
  local r, ev0 = api(Grid.encode, g)
  local how = common("encode", g, valid, r, ev0, depth + 1)
  if how == "error" then
    if not happened(ev0, g, depth + 1).disturbed then fail("encode raised %s", show(r[2])) end
    return nil
  end
  if how ~= "ok" and how ~= "disturbed" then return nil end
  if type(r[2]) ~= "string" then fail("encode gave a %s", type(r[2])) end
  quiet = quiet + 1
  local ok, copy = pcall(A.decode, r[2])
  if not ok then fail("decode(encode(g)) raised %s", show(copy)) end
  local back = readback(copy)
  local again = Grid.encode(copy)
  quiet = quiet - 1
  if again ~= r[2] then fail("encode(decode(s)) ~= s") end
  for _, s in ipairs(candidates(gi, h0)) do
    if same_cells(back, s) and back.diag == s.diag and back.weight == s.weight then return r[2] end
  end
  fail("decode(encode(g)) has other cells or settings than g")
end

local function close_value(x, mode)
  local mt = getmetatable(x)
  if type(mt) ~= "table" then return end
  if mode == 0 then
    mt.__close(x)
  elseif mode == 1 then
    local v <close> = x
    if v == nil then return end
  elseif mode == 2 then
    local co = coroutine.create(function(v)
      local c <close> = v
      coroutine.yield(c)
    end)
    coroutine.resume(co, x)
    coroutine.close(co)
  elseif mt.__gc then
    mt.__gc(x)
  else
    mt.__close(x)
  end
end

local function mark_closed(g)
  local gi = info[g]
  if gi and not gi.closed then
    gi.closed = true
    event("close", { g = g })
  end
end

function H.close(g, mode)
  if not is_grid(g) then return end
  local r = api(close_value, g, mode)
  if not r[1] then fail("closing a grid raised %s", show(r[2])) end
  mark_closed(g)
  local ok, s = pcall(tostring, g)
  if not ok or s ~= "astar.Grid (closed)" then fail("tostring of a closed grid is %s", show(s)) end
end

function H.closeSearch(search, mode)
  local si = sinfo[search]
  if not si then return end
  local r = api(close_value, search, mode)
  if not r[1] then fail("closing a search raised %s", show(r[2])) end
  si.released = true
end

function H.getters(g, x, y, x2, y2)
  local gi = info[g]
  if not gi then return end
  local r, ev0 = api(function()
    local w, h = Grid.getDimensions(g)
    local out = { w = w, h = h, gw = Grid.getWidth(g), gh = Grid.getHeight(g), diag = Grid.getDiagonal(g),
      name = tostring(g), stats = Grid.getSearchStats(g) }
    out.heur, out.weight = Grid.getHeuristic(g)
    out.walk = Grid.isWalkable(g, x, y)
    out.cost = Grid.getCost(g, x, y)
    out.sight = T.lineOfSight(g, x, y, x2, y2)
    return out
  end)
  local s = cur(gi)
  local valid = whole_in(x, 1, s.w) and whole_in(y, 1, s.h) and whole_in(x2, 1, s.w) and whole_in(y2, 1, s.h)
  local w = happened(ev0, g, depth + 1)
  if w.closed_at_start then
    if r[1] or r[2] ~= CLOSED_USE then fail("a getter on a closed grid gave %s", show(r[2])) end
    return
  end
  if w.disturbed then return end
  if not valid then
    if r[1] or not is_bad_message(r[2]) then fail("getters with bad coordinates gave %s", show(r[2])) end
    return
  end
  if not r[1] then fail("getters raised %s", show(r[2])) end
  local o = r[2]
  local i = (y - 1) * s.w + x
  if o.w ~= s.w or o.h ~= s.h or o.gw ~= s.w or o.gh ~= s.h then fail("getDimensions is wrong") end
  if o.name ~= format("astar.Grid (%dx%d)", s.w, s.h) then fail("tostring(grid) is %s", show(o.name)) end
  if o.walk ~= s.walk[i] or o.cost ~= s.cost[i] then fail("cell (%d, %d) differs from the mirror", x, y) end
  if o.diag ~= s.diag then fail("getDiagonal is %s, mirror %s", o.diag, s.diag) end
  local e = s.hchosen == true and s.heur or (s.hchosen == false and default_heuristic(s.diag))
  if (e and o.heur ~= e) or o.weight ~= s.weight then fail("getHeuristic is %s, %s", show(o.heur), show(o.weight)) end
  if o.sight ~= ref_sight(s, x, y, x2, y2) then
    fail("lineOfSight(%d, %d, %d, %d) is %s", x, y, x2, y2, show(o.sight))
  end
end

function H.gc(mode, ...)
  local r = api(collectgarbage, mode, ...)
  if not r[1] then fail("collectgarbage(%s) raised %s", mode, show(r[2])) end
end

function H.co(f)
  local co = coroutine.create(f)
  local d, q, fin, ev0 = depth, quiet, in_fin, #events
  local ok, err = coroutine.resume(co)
  if failure then error(failure, 0) end
  if not ok then fail("coroutine body raised %s", show(err)) end
  if coroutine.status(co) ~= "dead" then
    -- only H.act's own yield (not from a callback or finalizer) may get here
    local e = events[#events]
    if #events == ev0 or e.kind ~= "yield" or e.depth ~= d + 1 or e.lvl ~= fin then
      fail("a callback yielded across the binding")
    end
    depth, quiet, in_fin = d, q, fin
    coroutine.close(co)
  end
end

-- ---- issue 17: long lists, and every other function and method ---------------
--
-- The calls below have no reference of their own here: each is checked
-- against the same call made on a twin, a fresh copy of its object (the grid
-- decoded from its bytes, a map from its encoding; ranges, areas and zones do
-- not change) made while no finalizer acts, with every rule function replaced
-- by its plain values. An undisturbed call must give the twin's answer (or
-- raise its error); a disturbed one the answer of a twin made before or after
-- the call, or an error the contract allows. Their lists of points are long
-- (up to 1200), so that finalizers run while the call reads them.

-- A list of n points on a w x h board for a rule of `role`. A rule's points
-- are units: now and then one of size 2 or 3 (issue 21), which covers the
-- k x k cells from (x, y) (a goal is a cell: no size).
function H.pts(role, seed, n, w, h)
  local list, cells, r = {}, {}, seed
  local mw, mh = 0, 0
  for i = 1, n do
    r = (r * 1103515245 + 12345) % 2147483648
    local x, y = r % w + 1, (r >> 8) % h + 1
    local p = { x = x, y = y }
    local k = 1
    if role ~= "goal" and (r >> 20) % 8 == 0 then
      k = 2 + (r >> 23) % 2
      p.size = k
    end
    local value = true
    if role == "cost" then
      p.cost = ({ 1, 2, 3, 0.5, false, 7, 1e15, 1.5 })[(r >> 16) % 8 + 1]
      value = p.cost == false and huge or p.cost
    end
    for cy = y, y + k - 1 do
      for cx = x, x + k - 1 do cells[cy * 65536 + cx] = value end
    end
    mw, mh = math.max(mw, x + k - 1), math.max(mh, y + k - 1)
    list[i] = p
  end
  ptsinfo[list] = { cells = cells, w = mw, h = mh }
  return list
end

-- zoc = {around = units} (issue 21): n units on a w x h board; the rule's
-- cells are those next to each unit's square in 4 directions (the queries the
-- references check run in 4).
function H.around(seed, n, w, h)
  local list = H.pts("zoc", seed, n, w, h)
  local cells = {}
  for _, u in ipairs(list) do
    local k = u.size or 1
    for j = -1, k do
      for i = -1, k do
        local side = ((i == -1 or i == k) and 1 or 0) + ((j == -1 or j == k) and 1 or 0)
        if side == 1 then cells[(u.y + j) * 65536 + u.x + i] = true end
      end
    end
  end
  local t = { around = list }
  ptsinfo[t] = { cells = cells, w = ptsinfo[list].w, h = ptsinfo[list].h }
  return t
end

-- The sources of a distance map: n points on a w x h board, some with values.
function H.srcs(seed, n, w, h)
  local list, r = {}, seed
  for i = 1, n do
    r = (r * 1103515245 + 12345) % 2147483648
    list[i] = { x = r % w + 1, y = (r >> 8) % h + 1, value = i % 4 == 0 and (r >> 16) % 5 or nil }
  end
  return list
end

-- Argument v for a twin: rule functions by their plain values, in a copy of
-- the tables (options, enemies) that hold some.
local function plain_arg(v, level)
  level = level or 0
  if type(v) == "function" and fninfo[v] then
    local fi = fninfo[v]
    return function(...) return rule_value(fi[1], fi[2], fi[3], ...) end
  end
  if type(v) == "table" and getmetatable(v) == nil and level < 3 and not ptsinfo[v] then
    local c, any = {}, false
    for k, x in next, v do
      c[k] = plain_arg(x, level + 1)
      any = any or c[k] ~= x
    end
    if any then return c end
  end
  return v
end

local view
local VIEWS = {
  ["astar.Grid"] = function(g) return tostring(g) .. " " .. Grid.encode(g) end,
  ["astar.Range"] = function(r) return tostring(r) .. " " .. r:getDiagonal() .. " " .. view(r:cells()) end,
  ["astar.DistanceMap"] = function(m) return tostring(m) .. " " .. m:encode() end,
  -- (not stepped: its rules may be callbacks whose actions belong to a step)
  -- (its status is not compared: a search may know "unreachable" at once from
  -- labels its twin has not built yet, and say "searching" until a step)
  ["astar.Search"] = function() return "search" end,
  ["astar.AttackRange"] = function(a) return "area " .. view(a:cells()) end,
  ["astar.DangerZone"] = function(z) return "zone " .. view(z:cells()) end,
}

-- A value as text: numbers exactly, tables by sorted keys, the library's
-- objects by what they hold.
function view(v)
  local t = type(v)
  if t == "number" then return format("%.17g", v) end
  if t == "string" then return format("%q", v) end
  if t ~= "table" and t ~= "userdata" then return tostring(v) end
  local mt = getmetatable(v)
  local f = type(mt) == "table" and VIEWS[rawget(mt, "__name")]
  if f then return f(v) end
  if t == "userdata" then return tostring(v) end
  local keys = {}
  for k in next, v do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
    return type(a) < type(b)
  end)
  local parts = {}
  for i, k in ipairs(keys) do parts[i] = view(k) .. "=" .. view(rawget(v, k)) end
  return "{" .. concat(parts, ",") .. "}"
end

-- An outcome (packed pcall results) as text, read where no finalizer acts.
local function outcome_text(r)
  if not r[1] then return "error " .. show(r[2]) end
  quiet = quiet + 1
  local ok, text = pcall(view, pack(unpack(r, 2, r.n)))
  quiet = quiet - 1
  return ok and "ok " .. text or "error " .. show(text)
end

-- A twin of object x in a box {twin} (nil when x cannot be copied: a
-- closed grid); x itself for the objects that never change, and nil (no
-- object) for module functions.
local function twin_of(x)
  local mt = getmetatable(x)
  local name = type(mt) == "table" and rawget(mt, "__name")
  quiet = quiet + 1
  local ok, t = pcall(function()
    if name == "astar.Grid" then return A.decode(Grid.encode(x)) end
    if name == "astar.DistanceMap" then return A.decodeMap(x:encode()) end
    return x
  end)
  quiet = quiet - 1
  return ok and { t } or nil
end

local busy = setmetatable({}, { __mode = "k" })   -- maps being computed
local minfo = setmetatable({}, { __mode = "k" })  -- map -> {sources, opts} of grid:distanceMap

-- Calls f(x, ...) through api() and checks it against f(twin, plain ...),
-- twins of x made before and after the call; g is the grid whose events
-- count (x itself, or the one a map or range came from, or nil). Returns the
-- call's first result when it succeeded.
local function twin_call(fname, x, g, f, ...)
  local gi = g ~= nil and info[g] or nil
  local before_twin = twin_of(x)
  local args = pack(...)
  local plain = {}
  for i = 1, args.n do plain[i] = plain_arg(args[i]) end
  local h0 = gi and #gi.hist
  local r, ev0 = api(f, x, ...)
  local w = happened(ev0, g, depth + 1)
  if w.meta and strict then fail("%s used %s (options are read raw)", fname, w.meta) end
  local got = outcome_text(r)
  local changed = w.changed or w.settings or w.grown
  if not r[1] then
    local err = r[2]
    if callback_error_ok(fname, err, w) then return nil end
    if w.closed and err == CLOSED_USE then return nil end
    if w.changed_fin and err == "grid changed during " .. fname then return nil end
    if type(err) == "string" and err:find("^calling '%a+' on a distance map that is being computed$")
        and busy[x] then
      return nil
    end
    if w.closed_at_start and err == CLOSED_USE then return nil end
  end
  if not strict and w.disturbed then return r[1] and r[2] or nil end
  -- more than one change: the answer may be for a state between the two twins
  if gi and #gi.hist - h0 > 1 then return r[1] and r[2] or nil end
  local twins = { before_twin }
  if changed or w.closed then twins[2] = twin_of(x) end
  local want
  for _, box in pairs(twins) do
    if box then
      quiet = quiet + 1
      local tr = pack(pcall(f, box[1], unpack(plain, 1, args.n)))
      quiet = quiet - 1
      want = outcome_text(tr)
      if want == got then return r[1] and r[2] or nil end
    end
  end
  if want == nil then
    -- no twin (the object was closed): only a clean error
    if not r[1] and (is_bad_message(r[2]) or r[2] == CLOSED_USE or (w.closed and
        r[2] == "grid closed during " .. fname)) then
      return nil
    end
    if not r[1] or not w.closed_at_start then return r[1] and r[2] or nil end
    fail("%s on a closed object returned", fname)
  end
  fail("%s: %s, but the same call on a twin gives %s", call_text(fname, x, ...), got:sub(1, 300), want:sub(1, 300))
end

local function method(name)
  return function(x, ...) return x[name](x, ...) end
end

-- grid methods and module functions
function H.find2(g, ...)
  if g == nil then return end
  return twin_call("findPath", g, g, method("findPath"), ...)
end
function H.search2(g, ...)
  if g == nil then return end
  return twin_call("newSearch", g, g, method("newSearch"), ...)
end
function H.range2(g, x, y, move, opts)
  if g == nil then return end
  local mode = type(opts) == "table" and rawget(opts, "diagonal") or "never"
  local range = twin_call("movementRange", g, g, T.movementRange, x, y, move, opts)
  if range then
    -- issue 21: a range says the mode it ran with (opts.diagonal's, never the grid's)
    quiet = quiet + 1
    local ok, got = pcall(range.getDiagonal, range)
    quiet = quiet - 1
    if not ok or got ~= mode then fail("range:getDiagonal() gave %s, opts.diagonal is %s", show(got), show(mode)) end
  end
  return range
end
function H.gridCall(g, name, ...)
  if g == nil then return end
  local r = twin_call(name, g, g, method(name), ...)
  -- the mirror follows a repaint: read back, as the twin's answer was checked
  if name == "setTiles" and info[g] and not info[g].closed then
    local gi = info[g]
    local back = readback(g)
    local s = copy_snapshot(cur(gi), "cells")
    s.walk, s.cost, s.mv, s.lk = back.walk, back.cost, back.mv, back.lk
    gi.hist[#gi.hist + 1] = s
    event("change", { g = g, snap = #gi.hist })
  end
  return r
end
-- The diagonal mode a square map was made with, from its bytes (offset 10;
-- flags at 11, 4 a hex map); nil for a hex map or when encode fails.
local function map_diagonal(map)
  quiet = quiet + 1
  local ok, bytes = pcall(map.encode, map)
  quiet = quiet - 1
  if not ok or type(bytes) ~= "string" or #bytes < 12 or bytes:byte(12) & 4 ~= 0 then return nil end
  return DIAG[bytes:byte(11) + 1]
end

function H.distanceMap(g, sources, opts)
  if g == nil then return end
  local gi = info[g]
  local h0 = gi and #gi.hist
  local map = twin_call("distanceMap", g, g, method("distanceMap"), sources, opts)
  if map then
    -- update and setSources keep the options, the diagonal mode the map was
    -- made with included: the grid's as it is, unless the grid changed
    -- during the call (a rule or a finalizer may have set the mode after
    -- the map took it); then the map's bytes say (twin_call checked the
    -- map against the grid before and after the change)
    local o = {}
    for k, v in next, (type(opts) == "table" and plain_arg(opts) or {}) do o[k] = v end
    if o.diagonal == nil and gi then
      o.diagonal = #gi.hist ~= h0 and map_diagonal(map) or cur(gi).diag
    end
    minfo[map] = { sources = plain_arg(sources), opts = o, grid = g }
  end
  return map
end
function H.fromTiles(tiles, rule)
  local g = twin_call("fromTiles", nil, nil, function(_, ...) return A.fromTiles(...) end, tiles, rule)
  if g then register(g, readback(g)) end
  return g
end
function H.hex(w, h, layout, sx, sy, gx, gy)
  local g = twin_call("newHex", nil, nil, function(_, ...) return A.newHex(...) end, w, h, layout)
  if not g then return end
  -- a hex board stays out of the grid slots (the references are square):
  -- a few calls on it here, each against its twin
  twin_call("getShape", g, nil, method("getShape"))
  twin_call("getLayout", g, nil, method("getLayout"))
  if Grid.setMove then
    -- issue 19: moves between hex neighbours (for the row's or column's
    -- parity: some of these are no neighbours), a link
    twin_call("setMove", g, nil, method("setMove"), sx, sy, sx + 1, sy, 2.5)
    twin_call("setMove", g, nil, method("setMove"), sx, sy, sx + 1, sy + 1, false)
    twin_call("setWallBetween", g, nil, method("setWallBetween"), gx, gy, gx - 1, gy + 1, true)
    twin_call("link", g, nil, method("link"), sx, sy, gx, gy, 1.5)
    twin_call("getLinks", g, nil, method("getLinks"), sx, sy)
  end
  twin_call("findPath", g, nil, method("findPath"), sx, sy, gx, gy)
  twin_call("movementRange", g, nil, T.movementRange, sx, sy, 4)
  -- issue 21: a hex board's mode is "never", which every query takes; any other is an error
  twin_call("setDiagonal", g, nil, method("setDiagonal"), "never")
  twin_call("setDiagonal", g, nil, method("setDiagonal"), "one-obstacle")
  local mode = twin_call("getDiagonal", g, nil, method("getDiagonal"))
  if mode ~= nil and mode ~= "never" then fail("a hex board's getDiagonal() gave %s", show(mode)) end
  twin_call("findPath", g, nil, method("findPath"), sx, sy, gx, gy, { diagonal = "never" })
  local range = twin_call("movementRange", g, nil, T.movementRange, sx, sy, 3, { diagonal = "never" })
  if range and range:getDiagonal() ~= "never" then fail("a hex range's getDiagonal() is not never") end
  twin_call("distanceMap", g, nil, method("distanceMap"), { { x = gx, y = gy } }, { diagonal = "always" })
  twin_call("distanceMap", g, nil, method("distanceMap"), { { x = gx, y = gy } })
  twin_call("encode", g, nil, method("encode"))
end
function H.tacticsCall(g, name, ...)
  if g == nil then return end
  return twin_call(name, g, g, function(x, ...) return T[name](x, ...) end, ...)
end

-- distance maps
function H.mapCall(map, name, ...)
  if map == nil then return end
  return twin_call(name, map, nil, method(name), ...)
end
function H.blend(list, opts)
  return twin_call("blend", nil, nil, function(_, ...) return A.blend(...) end, list, opts)
end
function H.decodeMap(map)
  if map == nil then return end
  quiet = quiet + 1
  local ok, bytes = pcall(map.encode, map)
  quiet = quiet - 1
  if not ok then return end
  return twin_call("decodeMap", nil, nil, function(_, s) return A.decodeMap(s) end, bytes)
end
-- Sliced builds' checks (issue 24), one local: the main chunk's are at
-- Lua's limit of 200.
local Slice = {}

-- Whether a call made at this depth since event ev0 saw a callback's or a
-- finalizer's call change map (event "grown"): the driver's record of its
-- pending build may then be out of date.
function Slice.nested(map, ev0)
  for i = ev0 + 1, #events do
    local e = events[i]
    if e.kind == "grown" and e.map == map and e.depth > depth then return true end
  end
  return false
end

-- The record of map's pending build (minfo[map].next: whether isBuilding is
-- true) is not known: a call on it failed part way (a budget's build may
-- have been kept, begun or dropped). A later call that settles it (a whole
-- update or setSources, a sliced one, a step) makes it known again.
function Slice.unsure(map)
  local mi = minfo[map]
  if mi then mi.unsure = true end
end

-- A call on map since event ev0 succeeded and left minfo[map].next as the
-- map is, unless a nested call changed the map meanwhile.
function Slice.settled(map, ev0)
  local mi = minfo[map]
  if mi then mi.unsure = Slice.nested(map, ev0) end
end

-- map:update(grid): the map must then be the one grid:distanceMap gives
-- with the same sources and options on the grid as it is.
function H.update(map, g)
  if map == nil or g == nil then return end
  local gi = info[g]
  busy[map] = true
  local h0 = gi and #gi.hist
  local r, ev0 = api(function() return map:update(g) end)
  busy[map] = nil
  event("grown", { map = map })
  local w = happened(ev0, g, depth + 1)
  if not r[1] then
    local err = r[2]
    Slice.unsure(map)   -- a pending build may have been kept or dropped
    if is_bad_message(err) or (type(err) == "string" and err:find("^calling 'update' on ")) then return end
    if callback_error_ok("update", err, w) or err == CLOSED_USE then return end
    if w.changed_fin and err == "grid changed during update" then return end
    fail("update raised %s", show(err))
  end
  local mi = minfo[map]
  if mi then mi.grid, mi.next = g, nil end   -- a whole update replaces a pending build
  Slice.settled(map, ev0)
  if not mi or w.disturbed or not gi or #gi.hist ~= h0 or not strict then return end
  local box = twin_of(g)
  if not box then return end
  quiet = quiet + 1
  local ok, fresh = pcall(Grid.distanceMap, box[1], mi.sources, mi.opts)
  quiet = quiet - 1
  local want = ok and outcome_text(pack(true, fresh)) or "error " .. show(fresh)
  local got = outcome_text(pack(true, map))
  if got ~= want then fail("map:update gave %s, a new map on the grid %s", got:sub(1, 200), want:sub(1, 200)) end
end

-- map:setSources(sources) (issue 24): the map must then be the one
-- grid:distanceMap gives from those sources with the map's options on its
-- grid (the last one it was made or updated on) as it is.
function H.setSources(map, sources)
  if map == nil or map.setSources == nil then return end
  local mi = minfo[map]
  local g = mi and mi.grid
  local gi = g and info[g]
  busy[map] = true
  local h0 = gi and #gi.hist
  local r, ev0 = api(function() return map:setSources(sources) end)
  busy[map] = nil
  event("grown", { map = map })
  local w = happened(ev0, g, depth + 1)
  if not r[1] then
    local err = r[2]
    Slice.unsure(map)   -- a pending build may have been kept or dropped
    if is_bad_message(err) or (type(err) == "string" and err:find("^calling 'setSources' on ")) then return end
    if callback_error_ok("setSources", err, w) or err == CLOSED_USE then return end
    if w.changed_fin and err == "grid changed during setSources" then return end
    if w.closed_fin and err == "grid closed during setSources" then return end
    fail("setSources raised %s", show(err))
  end
  if not mi then return end
  mi.sources, mi.next = plain_arg(sources), nil
  Slice.settled(map, ev0)
  if w.disturbed or not gi or #gi.hist ~= h0 or not strict then return end
  local box = twin_of(g)
  if not box then return end
  quiet = quiet + 1
  local ok, fresh = pcall(Grid.distanceMap, box[1], mi.sources, mi.opts)
  quiet = quiet - 1
  local want = ok and outcome_text(pack(true, fresh)) or "error " .. show(fresh)
  local got = outcome_text(pack(true, map))
  if got ~= want then fail("map:setSources gave %s, a new map on the grid %s", got:sub(1, 200), want:sub(1, 200)) end
end

-- A map's pending build completed (issue 24): the map must be the one
-- grid:distanceMap gives from its sources with its options on the grid as it
-- is, unless something disturbed the call.
function Slice.check_built(map, mi, w, what)
  local g = mi.grid
  local gi = g and info[g]
  if w.disturbed or not gi or not strict then return end
  local box = twin_of(g)
  if not box then return end
  quiet = quiet + 1
  local ok, fresh = pcall(Grid.distanceMap, box[1], mi.sources, mi.opts)
  quiet = quiet - 1
  local want = ok and outcome_text(pack(true, fresh)) or "error " .. show(fresh)
  local got = outcome_text(pack(true, map))
  if got ~= want then fail("%s gave %s, a new map on the grid %s", what, got:sub(1, 200), want:sub(1, 200)) end
end

-- The errors a sliced build's call may raise for fname in world w.
function Slice.error_ok(fname, err, w)
  if is_bad_message(err) or (type(err) == "string" and err:find("^calling '" .. fname .. "' on ")) then
    return true
  end
  if callback_error_ok(fname, err, w) or err == CLOSED_USE then return true end
  if w.changed_fin and err == "grid changed during " .. fname then return true end
  return w.closed_fin and err == "grid closed during " .. fname
end

-- The pending build of map (mi) is now its values, or was dropped (ok false).
function Slice.ended(mi, done)
  if not mi or not mi.next then return end
  if done then mi.grid, mi.sources = mi.next.grid, mi.next.sources end
  mi.next = nil
end

-- map:update(g, {cells =, [seconds =]}) or map:setSources(sources, ...) (issue 24).
function H.sliced(map, g, sources, cells, timed)
  if map == nil or map.step == nil or g == nil then return end
  local mi = minfo[map]
  local opts = { cells = cells, seconds = timed and 1e-9 or nil }
  busy[map] = true
  local fname = sources and "setSources" or "update"
  local r, ev0 = api(function()
    if sources then return map:setSources(sources, opts) end
    return map:update(g, opts)
  end)
  busy[map] = nil
  event("grown", { map = map })
  local w = happened(ev0, mi and mi.grid or g, depth + 1)
  if not r[1] then
    if mi then mi.next, mi.unsure = nil, true end
    if Slice.error_ok(fname, r[2], w) then return end
    fail("%s with a budget raised %s", fname, show(r[2]))
  end
  if not mi then return end
  mi.next = { grid = sources and mi.grid or g, sources = sources and plain_arg(sources) or mi.sources }
  if r[3] then Slice.ended(mi, true) end
  Slice.settled(map, ev0)
  if r[3] then Slice.check_built(map, mi, w, fname .. " with a budget") end
end

-- map:isBuilding() (issue 24): no arguments to read; it must answer a boolean
-- (or an error a callback or finalizer explains), whatever the map's state:
-- true exactly while a build begun with {cells =} or {seconds =} has not
-- completed, as the driver's record of the map says (when it knows).
function H.isBuilding(map)
  if map == nil or map.isBuilding == nil then return end
  local r, ev0 = api(function() return map:isBuilding() end)
  local w = happened(ev0, nil, depth + 1)
  if not r[1] then
    if callback_error_ok("isBuilding", r[2], w) then return end
    fail("isBuilding raised %s", show(r[2]))
  end
  if type(r[2]) ~= "boolean" then fail("isBuilding gave %s", show(r[2])) end
  local mi = minfo[map]
  if not mi or mi.unsure or not strict or Slice.nested(map, ev0) then return end
  if r[2] ~= (mi.next ~= nil) then
    fail("isBuilding gave %s, with %s build pending", show(r[2]), mi.next and "a" or "no")
  end
end

-- map:step(cells [, seconds]) (issue 24).
function H.mapStep(map, cells, timed)
  if map == nil or map.step == nil then return end
  local mi = minfo[map]
  busy[map] = true
  local r, ev0 = api(function() return map:step(cells, timed and 1e-9 or nil) end)
  busy[map] = nil
  event("grown", { map = map })
  local w = happened(ev0, mi and mi.next and mi.next.grid, depth + 1)
  if not r[1] then
    Slice.ended(mi, false)
    Slice.unsure(map)
    if Slice.error_ok("step", r[2], w) or r[2] == "calling 'step' on a map whose grid is closed"
        or r[2] == "distance map changed during step" then   -- a finalizer began another build
      return
    end
    fail("step raised %s", show(r[2]))
  end
  if not mi then return end
  local pending = mi.next
  if r[2] then Slice.ended(mi, true) end
  Slice.settled(map, ev0)
  -- not done: a build is pending, the record's when it had one
  if not r[2] and not pending then mi.unsure = true end
  if r[2] and pending then Slice.check_built(map, mi, w, "map:step") end
end

-- Tile ids and rules for fromTiles and setTiles: a w x h table of ids, and
-- the rule as a table or a function of the id. The same ids as a Tiled layer
-- (form 1: flat gids, the id's place in TILE_IDS, "mud" an empty cell 0,
-- some with flip bits) or an STI layer (form 2: rows of tiles, tables with
-- the gid, nil where empty); form 3: a Tiled layer whose width is one short
-- (an error when its data goes past). The rule names both ids and gids.
local TILE_IDS = { "grass", "road", "tree", "water", "mud", 7, true }
local TILE_RULE = { grass = 1, road = 0.5, mud = 3, water = false, [7] = 1e15, [true] = math.huge,
  [0] = 3, [1] = 1, [2] = 0.5, [4] = false }   -- "tree" (3) and gid 6: no entry
local TILE_RULE_DEFAULT = { default = false }
for k, v in pairs(TILE_RULE) do TILE_RULE_DEFAULT[k] = v end
local FLIPS = { 0, 0x80000000, 0x40000000, 0x20000000, 0x10000000, 0xF0000000 }
function H.tiles(seed, w, h, form)
  local t, data, r = {}, {}, seed
  for y = 1, h do
    t[y], data[y] = {}, {}
    for x = 1, w do
      r = (r * 1103515245 + 12345) % 2147483648
      local i = (r >> 8) % #TILE_IDS + 1
      t[y][x] = TILE_IDS[i]
      if TILE_IDS[i] ~= "mud" then
        local gid = i + FLIPS[(r >> 16) % #FLIPS + 1]
        data[y][x] = form == 2 and { gid = gid, properties = {} } or gid
      end
    end
  end
  if form == 0 or form == nil then return t end
  if form == 2 then return { type = "tilelayer", width = w, height = h, data = data } end
  local flat = {}
  for y = 1, h do
    for x = 1, w do flat[(y - 1) * w + x] = data[y][x] or 0 end
  end
  return { type = "tilelayer", width = form == 3 and math.max(1, w - 1) or w, height = h, data = flat }
end
function H.tileRule(kind)
  if kind == 0 then return TILE_RULE_DEFAULT end
  if kind == 2 then return TILE_RULE end
  return function(id) return TILE_RULE[id] end
end

-- ranges, attack areas, danger zones: they do not change
function H.objCall(obj, name, ...)
  local mt = getmetatable(obj)
  if type(mt) ~= "table" or not rawget(mt, "__name") or type(obj[name]) ~= "function" then return end
  return twin_call(name, obj, nil, method(name), ...)
end

-- ---- actions (callbacks and finalizers) ----------------------------------------

local THROW_VALUES = {}

function act(a)
  if budget <= 0 or depth > 5 then return end
  budget = budget - 1
  local kind = a[1]
  if kind == "findPath" then
    H.findPath(G[a[2]], a[3], a[4], a[5], a[6], a[7])
  elseif kind == "range" then
    R[1] = H.movementRange(G[a[2]], a[3], a[4], a[5], a[6]) or R[1]
  elseif kind == "search" then
    local s = H.newSearch(G[a[2]], a[3], a[4], a[5], a[6])
    if s then
      H.step(s, a[7])
      H.result(s)
    end
  elseif kind == "attack" then
    H.attackRange(G[a[2]], R[a[3]], a[4], a[5], a[6] ~= nil and { lineOfSight = a[6] } or nil)
  elseif kind == "danger" then
    H.dangerZone(G[a[2]], a[3], a[4])
  elseif kind == "wall" then
    H.setWalkable(G[a[2]], a[3], a[4], a[5])
  elseif kind == "cost" then
    H.setCost(G[a[2]], a[3], a[4], a[5])
  elseif kind == "diag" then
    H.setDiagonal(G[a[2]], a[3])
    H.setHeuristic(G[a[2]], a[4])
  elseif kind == "close" then
    H.close(G[a[2]], a[3])
  elseif kind == "drop" then
    G[a[2]] = nil
    collectgarbage()
  elseif kind == "throw" then
    local v = a[2]
    if THROW_VALUES[v] then v = THROW_VALUES[v]() end
    event("throw", { value = v })
    error(v, 0)
  elseif kind == "yield" then
    event("yield", {})
    coroutine.yield("yielded from a callback")
  elseif kind == "gc" then
    collectgarbage(a[2])
  elseif kind == "encode" then
    H.encode(G[a[2]])
  elseif kind == "step" then
    local s = S[a[2]]
    if s then
      H.step(s, a[3], a[5])
      if a[4] then H.closeSearch(s, 0) end
    end
  elseif kind == "bomb" then
    H.bomb(a[2], a[3])
  elseif kind == "new" then
    G[a[2]] = H.new(a[3], a[4])
  elseif kind == "rangeQuery" then
    if R[a[2]] then H.rangeQuery(R[a[2]], a[3], a[4]) end
  elseif kind == "update" then
    H.update(D[a[2]], G[a[3]])
  elseif kind == "setSources" then
    H.setSources(D[a[2]], a[3])
  elseif kind == "sliced" then
    H.sliced(D[a[2]], G[a[3]], a[4] or nil, a[5], a[6])
  elseif kind == "mapStep" then
    H.mapStep(D[a[2]], a[3], a[4])
  elseif kind == "mapcall" then
    local r = H.mapCall(D[a[2]], a[3])
    if a[3] == "flee" then D[a[2] % 4 + 1] = r end
  elseif kind == "find2" then
    H.find2(G[a[2]], a[3], a[4], a[5], a[6], a[7])
  elseif kind == "dmap" then
    D[a[2]] = H.distanceMap(G[a[3]], a[4], a[5]) or D[a[2]]
  elseif kind == "moves" then
    local g, op = G[a[2]], a[3]
    if op == 0 then
      H.setMove(g, a[4], a[5], a[6], a[7], a[8])
    elseif op == 1 then
      H.setWallBetween(g, a[4], a[5], a[6], a[7], type(a[8]) == "number")
    elseif op == 2 then
      H.link(g, a[4], a[5], a[6], a[7], a[8] or 1)
    elseif op == 3 then
      H.unlink(g, a[4], a[5], a[6], a[7])
    else
      H.link(g, a[4], a[5], a[6], a[7], a[8] or 2, true)
    end
  end
end

function H.act(a)
  depth = depth + 1
  pcall(act, a)
  depth = depth - 1
  if failure then error(failure, 0) end
end

-- ---- running a program ---------------------------------------------------------

local function setup(flags)
  flags = flags or {}
  strict = flags.contract ~= false
  budget = flags.budget or 48
  A = require "astar"
  T = require "astar.tactics"
  Grid = A.Grid
end

-- Runs program text; returns nil, or the failure message.
function M.run_program(text, flags)
  setup(flags)
  local chunk, err = load(text, "=program", "t")
  if not chunk then return "api_fuzz: the program does not compile: " .. err end
  collectgarbage()
  local ok, e = pcall(chunk, H, G, S, R, V, D)
  if not ok and not failure then failure = "api_fuzz: the program raised " .. show(e) end
  closing = true
  for k in pairs(G) do G[k] = nil end
  collectgarbage()
  collectgarbage()
  return failure
end

-- Decodes input and runs it; flags.print writes the program to stderr first;
-- with flags.program the input is a program already.
function M.run(input, flags)
  local text = flags and flags.program and input or M.decode(input)
  if flags and flags.print then io.stderr:write(text) end
  return M.run_program(text, flags)
end

-- As a script: lua5.4 fuzz/lua/api_driver.lua [--print | --program] [--no-contract] FILE
if arg and arg[0] and arg[0]:find("api_driver%.lua$") then
  local print_only, program, file = false, false, nil
  local flags = { contract = os.getenv("ASTAR_FUZZ_CONTRACT") ~= "0" }
  for _, a in ipairs(arg) do
    if a == "--print" then print_only = true
    elseif a == "--program" then program = true
    elseif a == "--no-contract" then flags.contract = false
    else file = a end
  end
  if not file then
    io.stderr:write("usage: lua5.4 fuzz/lua/api_driver.lua [--print | --program] FILE\n")
    os.exit(2)
  end
  local f = assert(io.open(file, "rb"))
  local data = f:read("a")
  f:close()
  if print_only then
    io.write(M.decode(data))
    os.exit(0)
  end
  local msg
  if program then msg = M.run_program(data, flags) else msg = M.run(data, flags) end
  if msg then
    io.stderr:write(msg, "\n")
    os.exit(1)
  end
  print("ok")
end

return M
