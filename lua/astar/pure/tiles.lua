-- Grids from tile ids for the pure-Lua backend, a port of src/lua/lua_tiles.c:
-- astar.fromTiles(tiles, rule) and grid:setTiles(tiles, rule [, x, y]). Same
-- checks in the same order, same messages, same order of rule calls.
--
-- The tiles are rows, tiles[y][x] (any value but nil), or a tile layer as
-- Tiled's Lua export and STI give it: {width =, height =, data =}, data one
-- flat array of gids or, when data[1] is a table, rows (STI: tiles, tables
-- with a gid field, and nil for empty cells). In a layer an empty cell is id
-- 0; whole-number ids from 2^28 to 2^32 - 1 lose Tiled's flip bits. The rule
-- maps an id to a cost: a table {[id] = cost | false} (read raw; rule.default
-- for ids without an entry, else an error) or a function
-- (id, x, y) -> cost | false | nil, x and y the grid cell. A number in
-- (0, 1e15] is a walkable cell with that cost; false, nil and math.huge are
-- walls; anything else is an error. Every answer is read before anything is
-- written, so an error leaves the grid as it was. A rule function is called
-- through string.gsub (a C function), so a yield in it is Lua's error for a
-- yield across a C call, as on the C backend; after each call a closed grid
-- raises "grid closed during setTiles"; a changed grid is fine (the answers
-- are written to the grid as it is then).
local A = require "astar.pure.args"
local G = require "astar.pure.grid"

local M = {}

local huge = math.huge
local format, gsub = string.format, string.gsub
local type, rawget, select = type, rawget, select
local rawlen = rawlen or function(t) return #t end -- luacheck: ignore 143 (Lua 5.1, LuaJIT)
local arg_error, number_text = A.arg_error, A.number_text

local WALL = huge
local GID_FLAGS = 268435456    -- 2^28: Tiled's four flip and rotation bits lie above
local GID_LIMIT = 4294967296   -- 2^32: a gid is a 32-bit number
local tointeger = math.tointeger

-- The id as messages show it (lua_tiles.c id_text).
local function id_text(id)
  local t = type(id)
  if t == "string" then return "'" .. A.quoted(id) .. "'" end
  if t == "number" then return number_text(id) end
  if t == "boolean" then return tostring(id) end
  return t
end

-- What holds row y, or an error: the row (a table) of rows or of a layer's
-- rows; a flat layer's data itself (lua_tiles.c push_row).
local function get_row(p, y)
  if p.flat then return p.data end
  local row = rawget(p.data or p.tiles, y)
  if type(row) ~= "table" then
    arg_error(1, p.fname, nil, format("%s[%d]: table expected, got %s", p.data and "tiles.data" or "tiles",
      y, type(row)))
  end
  return row
end

-- A layer's cell as the gid it stands for: nil (an empty cell, as STI gives
-- it) is 0, an STI tile (a table) its gid field.
local function layer_gid(id)
  if id == nil then return 0 end
  if type(id) == "table" then
    local gid = rawget(id, "gid")
    if type(gid) == "number" then return gid end
  end
  return id
end

-- A gid with Tiled's flip bits (a whole number from 2^28 to 2^32 - 1) loses
-- them, an integer (lua_tiles.c drop_flip_bits).
local function drop_flip_bits(id)
  if type(id) == "number" and id >= GID_FLAGS and id < GID_LIMIT and id % 1 == 0 then
    id = id % GID_FLAGS
    return tointeger and tointeger(id) or id
  end
  return id
end

-- The id of cell x of row y (row: what get_row gave), or an error: a nil in
-- rows is an error, in a layer an empty cell.
local function get_id(p, row, x, y)
  local id
  if p.flat then
    id = layer_gid(rawget(row, (y - 1) * p.w + x))
  elseif p.data then
    id = layer_gid(rawget(row, x))
  else
    id = rawget(row, x)
    if id == nil then
      arg_error(1, p.fname, nil, format("tiles[%d][%d] is nil; expected a tile id", y, x))
    end
  end
  return drop_flip_bits(id)
end

-- A layer's width or height: a whole number from 1 to 65535.
local function layer_side(p, name)
  local v = rawget(p.tiles, name)
  if type(v) ~= "number" then
    arg_error(1, p.fname, nil, format("tiles.%s: number expected, got %s", name, type(v)))
  end
  if not (v >= 1 and v <= G.MAX_SIDE) or v ~= math.floor(v) then -- luacheck: ignore 581 (nan)
    arg_error(1, p.fname, nil, format("tiles.%s must be a whole number from 1 to %d, got %s", name,
      G.MAX_SIDE, number_text(v)))
  end
  return G.toint(v)
end

-- A Tiled layer (tiles.data is there): the shape from width and height; the
-- data kept (p.data), flat unless data[1] is a row (STI).
local function read_layer(p)
  p.w = layer_side(p, "width")
  p.h = layer_side(p, "height")
  local data = rawget(p.tiles, "data")
  if type(data) ~= "table" then
    arg_error(1, p.fname, nil, "tiles.data: table expected, got " .. type(data))
  end
  p.data, p.flat = data, type(rawget(data, 1)) ~= "table"
end

-- The shape: of a layer, or from the row count and the first row
-- (lua_tiles.c read_size).
local function read_size(p)
  if rawget(p.tiles, "data") ~= nil then return read_layer(p) end
  local h = rawlen(p.tiles)
  if h == 0 then
    arg_error(1, p.fname, nil, "tiles is empty; expected rows (tiles[y][x]) or a layer (width, height, data)")
  end
  if h > G.MAX_SIDE then
    arg_error(1, p.fname, nil, format("#tiles is %d; at most %d rows", h, G.MAX_SIDE))
  end
  local w = rawlen(get_row(p, 1))
  if w == 0 then arg_error(1, p.fname, nil, "tiles[1] is empty") end
  if w > G.MAX_SIDE then
    arg_error(1, p.fname, nil, format("#tiles[1] is %d; at most %d columns", w, G.MAX_SIDE))
  end
  p.w, p.h = w, h
end

-- Raises when table t holds a value at n + 1: more than the layer says
-- (lua_tiles.c check_no_more).
local function check_no_more(p, t, n, where, limit)
  if rawget(t, n + 1) ~= nil then
    arg_error(1, p.fname, nil, format("%s[%d] is past %s = %d", where, n + 1, limit, n))
  end
end

-- A layer's data holds no more than its width and height say, and each of
-- its rows is a table. Empty cells may be anywhere.
local function check_layer(p)
  if p.flat then return check_no_more(p, p.data, p.w * p.h, "tiles.data", "width * height") end
  check_no_more(p, p.data, p.h, "tiles.data", "height")
  for y = 1, p.h do
    check_no_more(p, get_row(p, y), p.w, format("tiles.data[%d]", y), "width")
  end
end

-- Every row a table of w ids, none nil (rows), or a well-formed layer.
local function check_rows(p)
  if p.data then return check_layer(p) end
  local w = p.w
  for y = 1, p.h do
    local row = get_row(p, y)
    local n = rawlen(row)
    if n ~= w then
      arg_error(1, p.fname, nil, format("#tiles[%d] is %d, #tiles[1] is %d: every row must have the same length",
        y, n, w))
    end
    for x = 1, w do get_id(p, row, x, y) end
  end
end

-- Calls rule functions through string.gsub; one caller per call of
-- fromTiles / setTiles (a rule may call them again).
local function rule_caller()
  local f, a, b, c, result
  local function call() result = f(a, b, c) end
  return function(fn, id, x, y)
    f, a, b, c = fn, id, x, y
    result = nil
    gsub("", "", call)
    return result
  end
end

-- The rule's answer for id at grid cell (x, y): a cost, or WALL.
local function answer(p, id, x, y)
  local rule, v = p.rule
  if type(rule) == "table" then
    v = rawget(rule, id)
    if v == nil then
      v = rawget(rule, "default")
      if v == nil then
        arg_error(2, p.fname, nil, format("rule has no entry for tile %s at (%d, %d), and no default",
          id_text(id), x, y))
      end
    end
  else
    v = p.call(rule, id, x, y)
    local grid = p.grid
    if grid and not grid._open then error("grid closed during " .. p.fname, 0) end
  end
  if v == nil or v == false or v == WALL then return WALL end
  if type(v) == "number" and v > 0 and v <= G.MAX_COST then return v + 0.0 end
  local given = type(v) == "number" and number_text(v) or v == true and "true" or type(v)
  arg_error(2, p.fname, nil, format("rule gave %s for tile %s at (%d, %d); expected a positive "
    .. "number up to 1e15, false, nil or math.huge", given, id_text(id), x, y))
end

-- The tiles still have the shape read first, or an error (lua_tiles.c
-- check_shape: the rule may have changed them).
local function check_shape(p)
  if p.data then return end   -- a layer's shape is read once, its cells as they are
  local n = rawlen(p.tiles)
  if n ~= p.h then
    arg_error(1, p.fname, nil, format("tiles changed while they were read: #tiles is %d, was %d",
      n, p.h))
  end
  for y = 1, p.h do
    n = rawlen(get_row(p, y))
    if n ~= p.w then
      arg_error(1, p.fname, nil, format("tiles changed while they were read: #tiles[%d] is %d, was %d",
        y, n, p.w))
    end
  end
end

-- Every answer, row by row, into a flat array; the tiles are checked again
-- as read (the rule may change them), and their shape at the end.
local function ask_rule(p)
  local out, w, x0, y0 = {}, p.w, p.x0, p.y0
  if type(p.rule) ~= "table" then p.call = rule_caller() end
  for y = 1, p.h do
    local row = get_row(p, y)
    for x = 1, w do
      out[(y - 1) * w + x] = answer(p, get_id(p, row, x, y), x0 + x, y0 + y)
    end
  end
  check_shape(p)
  return out
end

-- Writes the answers to the (open) grid; writes that change nothing are no
-- change (grid.lua keeps the version). The first cost other than 1 is
-- written first: it may make the cost layer, whose allocation may run a
-- finalizer that closes the grid (then nothing else is written).
local function write_answers(grid, p, answers)
  local w, stride = p.w, grid._stride
  for k = 1, w * p.h do
    local c = answers[k]
    if c ~= WALL and c ~= 1 then
      local y, x = (k - 1 - (k - 1) % w) / w + 1, (k - 1) % w + 1
      G.set_cost(grid, (p.y0 + y) * stride + p.x0 + x + 1, c)
      if not grid._open then error("grid closed during " .. p.fname, 0) end
      break
    end
  end
  for y = 1, p.h do
    local base = (p.y0 + y) * stride + p.x0 + 1
    for x = 1, w do
      -- a finalizer may close the grid between two writes (on LuaJIT at any
      -- trace exit): nothing more is written then
      if not grid._open then error("grid closed during " .. p.fname, 0) end
      local c, i = answers[(y - 1) * w + x], base + x
      if c == WALL then
        G.set_walkable(grid, i, false)
      else
        G.set_walkable(grid, i, true)
        G.set_cost(grid, i, c)
      end
    end
  end
end

local function check_arguments(fname, tiles, rule, nargs, first)
  if type(tiles) ~= "table" then A.type_error(1, fname, nil, "table", tiles, nargs >= first) end
  local t = type(rule)
  if t ~= "table" and t ~= "function" then
    A.type_error(2, fname, nil, "function or table", rule, nargs > first)
  end
  return { fname = fname, tiles = tiles, rule = rule, x0 = 0, y0 = 0 }
end

-- astar.fromTiles(tiles, rule)
function M.from_tiles(...)
  local tiles, rule = ...
  local p = check_arguments("fromTiles", tiles, rule, select("#", ...), 1)
  read_size(p)
  if p.w * p.h > G.MAX_CELLS then
    arg_error(1, p.fname, nil, format("tiles is %dx%d: more than %d cells", p.w, p.h, G.MAX_CELLS))
  end
  check_rows(p)
  local answers = ask_rule(p)
  local grid = G.new(p.w, p.h)
  write_answers(grid, p, answers)
  return grid
end

-- grid:setTiles(tiles, rule [, x, y])
function M.set_tiles(...)
  local self, tiles, rule, x, y = ...
  local nargs = select("#", ...)
  G.check_grid("setTiles", nargs, self)
  local p = check_arguments("setTiles", tiles, rule, nargs, 2)
  local gw, gh = self._w, self._h
  if x ~= nil then p.x0 = G.toint(A.check_index(x, true, 3, "setTiles", "x", gw)) - 1 end
  if y ~= nil then p.y0 = G.toint(A.check_index(y, true, 4, "setTiles", "y", gh)) - 1 end
  read_size(p)
  if p.w > gw - p.x0 or p.h > gh - p.y0 then
    arg_error(1, p.fname, nil, format("%dx%d tiles at (%d, %d) do not fit in the %dx%d grid",
      p.w, p.h, p.x0 + 1, p.y0 + 1, gw, gh))
  end
  check_rows(p)
  p.grid = self
  local answers = ask_rule(p)
  if not self._open then error("grid closed during setTiles", 0) end
  write_answers(self, p, answers)
end

return M
