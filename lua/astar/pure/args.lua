-- Argument checks for the pure-Lua backend: the same text as the C binding's
-- src/lua/args.c, raised with error(msg, 0) so no position is prepended
-- (luaL_error from a C function adds none either).
local M = {}

local format, gsub, sub = string.format, string.gsub, string.sub
local huge = math.huge

M.DIAGONAL_NAMES = { "never", "always", "one-obstacle", "no-obstacles" }
M.HEURISTIC_NAMES = { "manhattan", "octile", "euclidean", "chebyshev", "dijkstra" }
M.DIAGONAL_EXPECTED = "never, always, one-obstacle or no-obstacles"
M.HEURISTIC_EXPECTED = "manhattan, octile, euclidean, chebyshev or dijkstra"

local function index_of(names)
  local t = {}
  for i, name in ipairs(names) do t[name] = i end
  return t
end
M.DIAGONAL_INDEX = index_of(M.DIAGONAL_NAMES)
M.HEURISTIC_INDEX = index_of(M.HEURISTIC_NAMES)

-- %.14g, or %.17g when that does not read back as the same number; nan, inf,
-- -inf: the same on every Lua (args.c number_text). An integer is printed as
-- the double C receives (math.maxinteger as 2^63).
local function number_text(v)
  v = v * 1.0   -- a float (-0.0 stays -0.0)
  if v ~= v then return "nan" end
  if v == huge then return "inf" end
  if v == -huge then return "-inf" end
  local s = format("%.14g", v)
  if tonumber(s) ~= v then s = format("%.17g", v) end
  return s
end
M.number_text = number_text

-- A user's string quoted in an error (args.c quoted): at most 40 bytes, bytes
-- outside printable ASCII shown as '?', and "..." when it was cut.
local function quoted(s)
  local shown = gsub(sub(s, 1, 40), "[^\32-\126]", "?")
  if #s > 40 then shown = shown .. "..." end
  return shown
end
M.quoted = quoted

-- luaL_typename: "no value" for a missing argument.
local function typename(v, present)
  if not present then return "no value" end
  return type(v)
end
M.typename = typename

-- "bad argument #num to 'fname' (prefix message)"
local function arg_error(num, fname, prefix, message)
  error(format("bad argument #%d to '%s' (%s%s)", num, fname, prefix or "", message), 0)
end
M.arg_error = arg_error

local function type_error(num, fname, prefix, expected, v, present)
  arg_error(num, fname, prefix, expected .. " expected, got " .. typename(v, present))
end
M.type_error = type_error

function M.check_number(v, present, num, fname, prefix)
  if type(v) ~= "number" then type_error(num, fname, prefix, "number", v, present) end
  return v
end

-- opts.size (large units, args.c check_unit_size): a whole number from 1 to 65535.
function M.check_unit_size(v, num, fname)
  if type(v) ~= "number" then type_error(num, fname, "opts.size: ", "number", v, true) end
  if not (v >= 1 and v <= 65535) or v ~= math.floor(v) then -- luacheck: ignore 581 (nan)
    arg_error(num, fname, nil, "opts.size must be a whole number from 1 to 65535, got "
      .. number_text(v))
  end
  return v
end

-- The budget of a step method, step(count [, seconds]) (args.c
-- check_step_budget), arguments 1 and 2 of fname: count a whole number >= 1
-- or math.huge, named `name` in messages; seconds a number > 0, math.huge
-- when absent (no limit). Returns count, seconds.
function M.check_step_budget(count, seconds, nargs, fname, name)
  M.check_number(count, nargs > 1, 1, fname)
  if not (count >= 1) or (count % 1 ~= 0 and count ~= huge) then -- luacheck: ignore 581 (nan)
    arg_error(1, fname, nil,
      name .. " must be a whole number >= 1 or math.huge, got " .. number_text(count))
  end
  if seconds == nil then return count, huge end
  M.check_number(seconds, true, 2, fname)
  if not (seconds > 0) then -- luacheck: ignore 581 (nan)
    arg_error(2, fname, nil, "seconds must be a number > 0 or math.huge, got " .. number_text(seconds))
  end
  return count, seconds
end

-- A whole number in 1..max (args.c check_index); `v % 1 ~= 0` also catches
-- nan and +-inf.
function M.check_index(v, present, num, fname, name, max)
  if type(v) ~= "number" then type_error(num, fname, nil, "number", v, present) end
  if v % 1 ~= 0 then
    arg_error(num, fname, nil, name .. " must be a whole number, got " .. number_text(v))
  end
  if v < 1 or v > max then
    arg_error(num, fname, nil, format("%s out of range 1..%d", name, max))
  end
  return v
end

function M.check_boolean(v, present, num, fname, prefix)
  if type(v) ~= "boolean" then type_error(num, fname, prefix, "boolean", v, present) end
  return v
end

-- One of a list of names; returns its position (1-based).
local function check_name(v, present, num, fname, prefix, what, index, expected)
  if type(v) ~= "string" then type_error(num, fname, prefix, "string", v, present) end
  local i = index[v]
  if not i then
    arg_error(num, fname, prefix, format("unknown %s '%s'; expected %s", what, quoted(v), expected))
  end
  return i
end
M.check_name = check_name

-- A diagonal mode name; on a hex board (hex true), which has no diagonal
-- moves, "never" alone (args.c check_diagonal).
function M.check_diagonal(v, present, num, fname, prefix, hex)
  local d = check_name(v, present, num, fname, prefix, "diagonal mode", M.DIAGONAL_INDEX,
    M.DIAGONAL_EXPECTED)
  if hex and d ~= 1 then
    arg_error(num, fname, prefix, format(
      "diagonal mode '%s' is not supported on hex grids; expected never", M.DIAGONAL_NAMES[d]))
  end
  return d
end

function M.check_heuristic(v, present, num, fname, prefix)
  return check_name(v, present, num, fname, prefix, "heuristic", M.HEURISTIC_INDEX,
    M.HEURISTIC_EXPECTED)
end

function M.check_weight(v, present, num, fname, prefix)
  if type(v) ~= "number" then type_error(num, fname, prefix, "number", v, present) end
  if not (v >= 1) or v == huge then -- luacheck: ignore 581 (nan fails too)
    arg_error(num, fname, prefix, "weight must be a finite number >= 1, got " .. number_text(v))
  end
  return v
end

return M
