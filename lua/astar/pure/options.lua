-- The one reader of query options of the pure-Lua backend, a port of
-- src/lua/query_options.c: findPath and newSearch (methods.lua), movementRange
-- and dangerZone through it (range.lua), distanceMap and a map's pathFrom
-- (distance.lua).
--
-- One walk of the table with next checks each name against what the entry
-- point takes and parks each value. Then the values are checked in a fixed
-- order, whatever order next visits the keys in (two equal tables can be
-- walked in two orders): the options that are not rules in OPT_* order
-- (diagonal, maxCost, size, heuristic, weight, partial, flat, into,
-- algorithm, near, smooth, cells, seconds), then the rules (blocked, cost, occupied, zoc:
-- query_rules.lua read), then the move rule (move). A bad name is reported before any value: a key that
-- is not a string first, then the least name. The table is read raw:
-- __index and __pairs are ignored.
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local Q = require "astar.pure.query_rules"

local M = {}

local type, next = type, next
local floor, huge = math.floor, math.huge
local toint = G.toint
local arg_error, type_error = A.arg_error, A.type_error
local check_boolean, check_number = A.check_boolean, A.check_number

-- Every option a query may take, the rules first in Q's order (OPT_*).
local BLOCKED, COST, OCCUPIED, ZOC = Q.BLOCKED, Q.COST, Q.OCCUPIED, Q.ZOC
local DIAGONAL, MAXCOST, SIZE, HEURISTIC, WEIGHT, PARTIAL, FLAT, INTO, ALGORITHM, NEAR =
  5, 6, 7, 8, 9, 10, 11, 12, 13, 14
local MOVE = 15   -- the move rule (moves.lua): checked after the cell rules
local SMOOTH = 16 -- issue 20 (smooth.lua): checked after near, before the rules
local CELLS, SECONDS = 17, 18   -- a map's build a slice at a time (issue 24)
local ID = { blocked = BLOCKED, cost = COST, occupied = OCCUPIED, zoc = ZOC,
  diagonal = DIAGONAL, maxCost = MAXCOST, size = SIZE, heuristic = HEURISTIC, weight = WEIGHT,
  partial = PARTIAL, flat = FLAT, into = INTO, algorithm = ALGORITHM, near = NEAR, move = MOVE,
  smooth = SMOOTH, cells = CELLS, seconds = SECONDS }
-- The options that are not rules, in the order their values are checked.
local VALUE_ORDER = { DIAGONAL, MAXCOST, SIZE, HEURISTIC, WEIGHT, PARTIAL, FLAT, INTO, ALGORITHM,
  NEAR, SMOOTH, CELLS, SECONDS }

-- name -> id of the options in `names`; any other name is "unknown option".
local function accepting(names)
  local set = {}
  for _, name in ipairs(names) do set[name] = ID[name] end
  return set
end

-- What each entry point takes (OPTS_*).
M.PATH = accepting { "blocked", "cost", "occupied", "diagonal", "maxCost", "size", "heuristic",
  "weight", "partial", "flat", "into", "algorithm", "near", "move", "smooth" }
M.RANGE = accepting { "blocked", "cost", "occupied", "zoc", "diagonal", "size", "move" }
M.MAP = accepting { "blocked", "cost", "diagonal", "maxCost", "size", "move" }
-- DistanceMap:pathFrom's walk (issue 21), read on the map's shape (_w, _h, _hex)
M.WALK = accepting { "blocked", "maxCost", "near", "flat", "into", "smooth" }
-- map:update and map:setSources: a build's budget (issue 24)
M.BUILD = accepting { "cells", "seconds" }

local ALGORITHM_INDEX = { auto = 1, astar = 2, jps = 3 }
-- opts.smooth (docs/paths.md): the smoothings by number (smooth.lua's).
M.SMOOTH_NAMES = { "corners", "sight", "theta" }
M.SMOOTH_INDEX = { corners = 1, sight = 2, theta = 3 }

--- read_smooth(v, num, fname) -> the smoothing opts.smooth = v asks for
-- (false: none, the walk).
function M.read_smooth(v, num, fname)
  if v == false then return false end
  return A.check_name(v, true, num, fname, "opts.smooth: ", "smoothing", M.SMOOTH_INDEX,
    "corners, sight or theta")
end

--- smooth_needs_grid(mode, num, fname): raises for "sight" and "theta" where
-- no grid or search is at hand (pathTo, pathFrom; query_options.c).
function M.smooth_needs_grid(mode, num, fname)
  if mode == 3 then
    A.arg_error(num, fname, nil, "opts.smooth: 'theta' needs a search (findPath or newSearch)")
  elseif mode == 2 then
    A.arg_error(num, fname, nil, "opts.smooth: 'sight' needs the grid: use grid:smoothPath")
  end
end

-- Whether key (a name not accepted) is to be reported rather than worst
-- (query_options.c worse_key): a key that is not a string before one that
-- is, then the least type name or the least string, so the message does not
-- depend on the order next visits the keys in.
function M.worse_key(key, worst, has_worst)
  if not has_worst then return true end
  local ks, ws = type(key) == "string", type(worst) == "string"
  if ks ~= ws then return not ks end
  if not ks then return type(key) < type(worst) end
  return key < worst
end

-- The error for option name key (not accepted), naming argument num of fname.
function M.bad_key(fname, num, key)
  if type(key) ~= "string" then
    arg_error(num, fname, nil, "option names must be strings, got " .. type(key))
  end
  arg_error(num, fname, nil, "unknown option '" .. A.quoted(key) .. "'")
end

-- opts.near: a whole number >= 0 (math.huge: anywhere), as far as a cell can be.
local function check_near(v, num, fname, far)
  check_number(v, true, num, fname, "opts.near: ")
  if not (v >= 0) or (v ~= floor(v) and v ~= huge) then -- luacheck: ignore 581 (nan)
    arg_error(num, fname, nil, "opts.near must be a whole number >= 0, got " .. A.number_text(v))
  end
  if v >= far then return far end
  return toint(v)
end

-- opts.maxCost: >= 0 for a path; any number but nan for a map (o.any_max_cost).
local function check_max_cost(v, num, fname, any)
  check_number(v, true, num, fname, "opts.maxCost: ")
  if any and v ~= v then
    arg_error(num, fname, "opts.maxCost: ", "number expected, got nan")
  end
  if not any and not (v >= 0) then -- luacheck: ignore 581 (nan)
    arg_error(num, fname, nil, "opts.maxCost must be a number >= 0, got " .. A.number_text(v))
  end
  return v * 1.0
end

-- A build's budget (issue 24): opts.cells a whole number >= 1, opts.seconds a
-- number > 0; math.huge is no limit.
local function check_budget(v, num, fname, seconds)
  check_number(v, true, num, fname, seconds and "opts.seconds: " or "opts.cells: ")
  if seconds and not (v > 0) then -- luacheck: ignore 581 (nan)
    arg_error(num, fname, nil, "opts.seconds must be a number > 0, got " .. A.number_text(v))
  end
  if not seconds and (not (v >= 1) or (v ~= floor(v) and v ~= huge)) then -- luacheck: ignore 581 (nan)
    arg_error(num, fname, nil, "opts.cells must be a whole number >= 1, got " .. A.number_text(v))
  end
  return v
end

-- Checks value v of option id (not a rule) into o.
local function check_value(grid, fname, num, id, v, o)
  if id == DIAGONAL then
    o.diagonal = A.check_diagonal(v, true, num, fname, "opts.diagonal: ", grid._hex ~= nil)
  elseif id == MAXCOST then
    o.max_cost = check_max_cost(v, num, fname, o.any_max_cost)
  elseif id == SIZE then
    o.size = toint(A.check_unit_size(v, num, fname))   -- large units (clearance.lua)
    if o.size > 1 and grid._hex then
      arg_error(num, fname, nil, "opts.size: large units need a square grid")
    end
  elseif id == HEURISTIC then
    o.heuristic = A.check_heuristic(v, true, num, fname, "opts.heuristic: ")
  elseif id == WEIGHT then
    o.weight = A.check_weight(v, true, num, fname, "opts.weight: ") + 0.0
  elseif id == PARTIAL then
    o.partial = check_boolean(v, true, num, fname, "opts.partial: ")
  elseif id == FLAT then
    o.flat = check_boolean(v, true, num, fname, "opts.flat: ")
  elseif id == INTO then
    -- a stepped search returns its path frames later: no table to hold
    if fname == "newSearch" or fname == "restart" then
      arg_error(num, fname, nil, "opts.into: only findPath fills a table")
    end
    if type(v) ~= "table" then type_error(num, fname, "opts.into: ", "table", v, true) end
    o.into = v
  elseif id == ALGORITHM then
    -- JPS is only a speed-up: this backend runs A* for every algorithm
    o.algorithm = A.check_name(v, true, num, fname, "opts.algorithm: ", "algorithm",
      ALGORITHM_INDEX, "auto, astar or jps")
  elseif id == NEAR then
    o.near = check_near(v, num, fname, grid._w + grid._h)
  elseif id == CELLS or id == SECONDS then
    o[id == CELLS and "cells" or "seconds"] = check_budget(v, num, fname, id == SECONDS)
  else
    o.smooth = M.read_smooth(v, num, fname)   -- where it applies: methods.lua read_options
    if fname == "pathFrom" then M.smooth_needs_grid(o.smooth, num, fname) end   -- no grid
  end
end

--- read(grid, fname, num, opts, present, accepted, o [, rules]) -> rules
-- Reads options table opts (argument num of fname; nil: none, present: given
-- at all) of a query on grid, taking the options in `accepted` (M.PATH,
-- M.RANGE, M.MAP). The caller sets o's fields to their defaults first (a
-- default false, as findPath's heuristic and weight, says not given); the
-- reader overwrites the ones given. The rules go into `rules` (query_rules.lua init:
-- their messages name what it was given), made here at the first rule when
-- nil. Returns the rules, or nil when none was given and none passed.
function M.read(grid, fname, num, opts, present, accepted, o, rules)
  if opts == nil then return rules end
  if type(opts) ~= "table" then type_error(num, fname, nil, "table", opts, present) end
  local made_here = rules == nil
  local worst, has_worst   -- the bad name to report
  local given              -- the other options' values, by id
  for key, v in next, opts do
    local id = accepted[key]
    if not id then
      if M.worse_key(key, worst, has_worst) then worst, has_worst = key, true end
    elseif id <= ZOC or id == MOVE then
      rules = rules or Q.init(fname, num)
      if id == MOVE then rules.move_given = v else rules.index[id] = v end   -- parked, read below
    else
      given = given or {}
      given[id] = v
    end
  end
  if has_worst then M.bad_key(fname, num, worst) end
  if given then
    for _, id in ipairs(VALUE_ORDER) do
      local v = given[id]
      if v ~= nil then check_value(grid, fname, num, id, v, o) end
    end
  end
  if rules then
    local index = rules.index
    for id = BLOCKED, ZOC do
      local v = index[id]
      if v ~= nil then Q.read(rules, id, v, grid, o.diagonal ~= 1) end
    end
    if rules.move_given ~= nil then Q.read_move(rules, rules.move_given) end
    -- only empty tables (no rule at all): as if none was given
    if made_here and next(index) == nil and rules.move == nil then return nil end
  end
  return rules
end

return M
