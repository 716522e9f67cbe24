-- The order of errors in an options table (issues 17, 18), on both backends.
-- Every query reads its options with one reader (src/lua/query_options.c,
-- lua/astar/pure/options.lua): a bad name first (a key that is not a string,
-- then the least name), then the options that are not rules in a fixed order,
-- then the rules (blocked, cost, occupied, zoc), whatever order next visits
-- the keys in. So a table with a bad rule and a bad other option raises the
-- other option's error; two bad rules raise the first in rule order.
-- Each case runs on the active backend, and on the other one when both load
-- (the same messages, compared whole).
local astar = require "astar"
local tactics = require "astar.tactics"
local check_error = require("helpers.errors").check_error

-- The backend modules to run on: the active one, and the other when it loads.
local function backends()
  local list = { astar }
  if astar.backend == "c" then
    list[2] = require "astar.pure"
  else
    local ok, core = pcall(require, "astar.core")
    if ok then list[2] = core end
  end
  return list
end

local BOARD = "........\n........\n........"   -- 8 x 3

-- The same pairs as tables built in several insertion orders, with and
-- without good options around them, so that next visits them in several
-- orders. pairs: a list of {name, value}; padding: more {name, value}.
local function variants(pairs_list, padding)
  local out = {}
  for _, reversed in ipairs { false, true } do
    for _, padded in ipairs { false, true } do
      local t = {}
      local n = #pairs_list
      for i = 1, n do
        local p = pairs_list[reversed and n + 1 - i or i]
        t[p[1]] = p[2]
      end
      if padded then
        for _, p in ipairs(padding) do t[p[1]] = p[2] end
      end
      out[#out + 1] = t
    end
  end
  return out
end

-- Requires every table of variants(pairs_list, padding) to raise `expected`
-- from call(module, grid, opts), on every backend.
local function check_all(expected, pairs_list, padding, call)
  for _, m in ipairs(backends()) do
    for _, opts in ipairs(variants(pairs_list, padding)) do
      check_error(expected, function() return call(m, m.fromString(BOARD), opts) end)
    end
  end
end

local function find_path(_, g, opts) return g:findPath(1, 1, 3, 3, opts) end
local function find_goals(_, g, opts) return g:findPath(1, 1, { { x = 3, y = 3 } }, opts) end
local function new_search(_, g, opts) return g:newSearch(1, 1, 3, 3, opts) end
local function movement_range(m, g, opts) return m._movementRange(g, 1, 1, 3, opts) end
local function distance_map(_, g, opts) return g:distanceMap({ { x = 1, y = 1 } }, opts) end
-- dangerZone's call of the primitive: its name, and each rule's argument and label
local DANGER_WHERE = { cost = { 1, "enemies[1].cost" }, blocked = { 2, "opts.blocked" },
  occupied = { 2, "opts.occupied" }, zoc = { 1, "enemies[1].zoc" } }
local function danger_primitive(m, g, opts)
  return m._movementRange(g, 1, 1, 3, opts, "dangerZone", DANGER_WHERE)
end

local PATH_PADDING = { { "partial", true }, { "flat", false }, { "heuristic", "manhattan" },
  { "algorithm", "astar" } }
local RANGE_PADDING = { { "diagonal", "never" } }
local MAP_PADDING = { { "diagonal", "always" } }

local OFF_BOARD = { { x = 99, y = 1 } }   -- a list of points, x out of range 1..8
local DIAGONAL_TEXT = "opts.diagonal: unknown diagonal mode 'sideways'; "
  .. "expected never, always, one-obstacle or no-obstacles"

describe("options: a bad rule is reported after every other option", function()
  it("findPath: the other option's error, whatever the rule's", function()
    check_all("bad argument #5 to 'findPath' (" .. DIAGONAL_TEXT .. ")",
      { { "cost", 5 }, { "diagonal", "sideways" } }, PATH_PADDING, find_path)
    check_all("bad argument #5 to 'findPath' (opts.weight: weight must be a finite number >= 1, "
      .. "got -2)", { { "cost", OFF_BOARD }, { "weight", -2 } }, PATH_PADDING, find_path)
    check_all("bad argument #5 to 'findPath' (opts.maxCost must be a number >= 0, got -1)",
      { { "blocked", { x = 1, y = 1 } }, { "occupied", "yes" }, { "maxCost", -1 } },
      PATH_PADDING, find_path)
    check_all("bad argument #4 to 'findPath' (opts.near must be a whole number >= 0, got 0.5)",
      { { "blocked", { x = 1, y = 1 } }, { "near", 0.5 } }, PATH_PADDING, find_goals)
    check_all("bad argument #5 to 'findPath' (opts.into: table expected, got number)",
      { { "occupied", OFF_BOARD }, { "into", 1 } }, PATH_PADDING, find_path)
  end)

  it("findPath: an unknown name before any rule", function()
    check_all("bad argument #5 to 'findPath' (unknown option 'zoc')",
      { { "cost", 5 }, { "zoc", function() end } }, PATH_PADDING, find_path)
  end)

  it("newSearch: the other option's error, whatever the rule's", function()
    check_all("bad argument #5 to 'newSearch' (opts.into: only findPath fills a table)",
      { { "occupied", true }, { "into", {} } }, PATH_PADDING, new_search)
    check_all("bad argument #5 to 'newSearch' (opts.algorithm: unknown algorithm 'dfs'; "
      .. "expected auto, astar or jps)", { { "cost", OFF_BOARD }, { "algorithm", "dfs" } },
      { { "partial", true }, { "diagonal", "always" } }, new_search)
    check_all("bad argument #5 to 'newSearch' (opts.size must be a whole number from 1 to "
      .. "65535, got 0)", { { "blocked", 1 }, { "size", 0 } }, PATH_PADDING, new_search)
  end)

  it("movementRange: the other option's error, whatever the rule's", function()
    check_all("bad argument #4 to 'movementRange' (opts.size must be a whole number from 1 to "
      .. "65535, got 0)", { { "zoc", 1 }, { "size", 0 } }, RANGE_PADDING, movement_range)
    check_all("bad argument #4 to 'movementRange' (" .. DIAGONAL_TEXT .. ")",
      { { "cost", OFF_BOARD }, { "blocked", "x" }, { "diagonal", "sideways" } },
      { { "size", 1 } }, movement_range)
    check_all("bad argument #4 to 'movementRange' (unknown option 'maxCost')",
      { { "occupied", 7 }, { "maxCost", 3 } }, RANGE_PADDING, movement_range)
  end)

  it("dangerZone: the other option's error, whatever the rule's", function()
    check_all("bad argument #4 to 'dangerZone' (opts.size must be a whole number from 1 to "
      .. "65535, got 0)", { { "cost", OFF_BOARD }, { "size", 0 } }, RANGE_PADDING,
      danger_primitive)
    local g = astar.fromString(BOARD)
    local function enemy(extra)
      local e = { x = 1, y = 1, move = 2, minRange = 1, maxRange = 1 }
      for k, v in pairs(extra) do e[k] = v end
      return { e }
    end
    check_error("bad argument #2 to 'dangerZone' (" .. DIAGONAL_TEXT .. ")",
      tactics.dangerZone, g, enemy {}, { blocked = { { x = 0, y = 1 } }, diagonal = "sideways" })
    check_error("bad argument #1 to 'dangerZone' (enemies[1].size must be a whole number from "
      .. "1 to 65535, got 0)", tactics.dangerZone, g, enemy { cost = OFF_BOARD, size = 0 }, {})
  end)

  it("distanceMap: the other option's error, whatever the rule's", function()
    check_all("bad argument #2 to 'distanceMap' (opts.maxCost: number expected, got nan)",
      { { "cost", 0 }, { "maxCost", 0 / 0 } }, MAP_PADDING, distance_map)
    check_all("bad argument #2 to 'distanceMap' (opts.size must be a whole number from 1 to "
      .. "65535, got 1.5)", { { "blocked", { { x = 1, y = 1 }, foo = 1 } }, { "size", 1.5 } },
      MAP_PADDING, distance_map)
    check_all("bad argument #2 to 'distanceMap' (unknown option 'zoc')",
      { { "cost", 0 }, { "zoc", {} } }, MAP_PADDING, distance_map)
  end)
end)

describe("options: the rules are read in order blocked, cost, occupied, zoc", function()
  it("the first bad rule in that order, for every entry point", function()
    check_all("bad argument #5 to 'findPath' (opts.blocked: function or table expected, "
      .. "got string)", { { "occupied", 1 }, { "cost", 2 }, { "blocked", "x" } }, PATH_PADDING,
      find_path)
    check_all("bad argument #5 to 'newSearch' (opts.cost[1].x out of range 1..8, got 99)",
      { { "occupied", 1 }, { "cost", OFF_BOARD } }, PATH_PADDING, new_search)
    check_all("bad argument #4 to 'movementRange' (opts.occupied[1].x out of range 1..8, "
      .. "got 99)", { { "zoc", 1 }, { "occupied", OFF_BOARD } }, RANGE_PADDING, movement_range)
    check_all("bad argument #2 to 'distanceMap' (opts.blocked: a table by cell number or a "
      .. "list of points expected, got key 'x')", { { "cost", true }, { "blocked", { x = 1 } } },
      MAP_PADDING, distance_map)
  end)

  it("dangerZone: by rule, not by where the rule came from", function()
    check_all("bad argument #2 to 'dangerZone' (opts.blocked[1].x out of range 1..8, got 0)",
      { { "cost", OFF_BOARD }, { "zoc", OFF_BOARD }, { "blocked", { { x = 0, y = 1 } } } },
      RANGE_PADDING, danger_primitive)
    check_all("bad argument #1 to 'dangerZone' (enemies[1].zoc[1].y out of range 1..3, got 4)",
      { { "zoc", { { x = 1, y = 4 } } }, { "occupied", {} } }, RANGE_PADDING, danger_primitive)
    local g = astar.fromString(BOARD)
    check_error("bad argument #2 to 'dangerZone' (opts.blocked[1].x out of range 1..8, got 0)",
      tactics.dangerZone, g, { { x = 1, y = 1, move = 2, minRange = 1, maxRange = 1,
        cost = OFF_BOARD } }, { blocked = { { x = 0, y = 1 } } })
  end)

  it("a rule's error when every other option is good", function()
    check_all("bad argument #5 to 'findPath' (opts.cost: function or table expected, "
      .. "got number)", { { "cost", 5 } }, PATH_PADDING, find_path)
    check_all("bad argument #4 to 'movementRange' (opts.zoc: function or table expected, "
      .. "got boolean)", { { "zoc", true } }, RANGE_PADDING, movement_range)
    check_all("bad argument #2 to 'distanceMap' (opts.cost: function or table expected, "
      .. "got string)", { { "cost", "cheap" } }, MAP_PADDING, distance_map)
  end)
end)

describe("options: two bad options that are not rules", function()
  -- diagonal, maxCost, size, heuristic, weight, partial, flat, into, algorithm,
  -- near: the first bad one in that order, however next walks the table
  it("the first in a fixed order, on both backends", function()
    check_all("bad argument #5 to 'findPath' (" .. DIAGONAL_TEXT .. ")",
      { { "near", -1 }, { "weight", -1 }, { "size", 0 }, { "diagonal", "sideways" },
        { "maxCost", -1 } }, PATH_PADDING, find_path)
    check_all("bad argument #5 to 'newSearch' (opts.heuristic: unknown heuristic 'x'; expected "
      .. "manhattan, octile, euclidean, chebyshev or dijkstra)",
      { { "algorithm", "dfs" }, { "flat", 2 }, { "partial", 1 }, { "heuristic", "x" } },
      {}, new_search)
    check_all("bad argument #4 to 'movementRange' (opts.size must be a whole number from 1 to "
      .. "65535, got 0)", { { "cost", 1 }, { "size", 0 } }, RANGE_PADDING, movement_range)
    check_all("bad argument #2 to 'distanceMap' (opts.maxCost: number expected, got nan)",
      { { "blocked", 1 }, { "size", -1 }, { "maxCost", 0 / 0 } }, MAP_PADDING, distance_map)
  end)

  it("a bad name first: a key that is not a string, then the least name", function()
    check_all("bad argument #5 to 'findPath' (unknown option 'aa')",
      { { "zz", 1 }, { "diagonal", "sideways" }, { "aa", 2 } }, PATH_PADDING, find_path)
    check_all("bad argument #5 to 'findPath' (option names must be strings, got boolean)",
      { { "zz", 1 }, { 7, 1 }, { true, 1 } }, PATH_PADDING, find_path)
    check_all("bad argument #2 to 'distanceMap' (unknown option 'near')",
      { { "near", 1 }, { "weight", 2 } }, MAP_PADDING, distance_map)
  end)
end)
