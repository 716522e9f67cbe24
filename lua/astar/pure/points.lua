-- Lists of points in results (lua_range.c set_point, read_path_options): the
-- Range's and the DistanceMap's pathTo / pathFrom and cells, which fill a
-- table of the caller's (opts.into) as the C backend does, and the walks of
-- grid:smoothPath and of smoothed searches (smooth.lua).
local A = require "astar.pure.args"
local O = require "astar.pure.options"

local M = {}

local type, rawget, rawset, next = type, rawget, rawset, next
-- #t without __len (lua_rawlen); Lua 5.1's # never calls __len on a table.
local rawlen = rawlen or function(t) return #t end -- luacheck: ignore 113

-- t[i] = {x =, y = [, cost =]}; with reuse, a table already at t[i] is
-- filled (rawset; other fields stay) instead of a new one.
function M.set_point(t, i, x, y, cost, reuse)
  if reuse then
    local p = rawget(t, i)
    if type(p) == "table" then
      rawset(p, "x", x)
      rawset(p, "y", y)
      if cost then rawset(p, "cost", cost) end
      return
    end
  end
  rawset(t, i, { x = x, y = y, cost = cost })
end

-- Clears t[first] and on: what a filled table held beyond the new list.
function M.clear_tail(t, first)
  for i = first, rawlen(t) do rawset(t, i, nil) end
end

-- What keeps the walks of each path method, for opts.smooth's message.

-- opts.smooth of path method fname: false or "corners" (1, options.lua's
-- number); "sight" and "theta" need the grid, which the walk's keeper has not.
local function read_smooth(v, fname)
  local mode = O.read_smooth(v, 3, fname)
  O.smooth_needs_grid(mode, 3, fname)
  return mode
end

-- The options of a path method fname (argument 3): flat, into, smooth.
function M.read_path_options(opts, present, fname)
  if opts == nil then return false, nil, false end
  if type(opts) ~= "table" then A.type_error(3, fname, nil, "table", opts, present) end
  local flat, into, smooth = false, nil, false
  for key, v in next, opts do
    if type(key) ~= "string" then
      A.arg_error(3, fname, nil, "option names must be strings, got " .. type(key))
    end
    if key == "flat" then
      flat = A.check_boolean(v, true, 3, fname, "opts.flat: ")
    elseif key == "into" then
      if type(v) ~= "table" then A.type_error(3, fname, "opts.into: ", "table", v, true) end
      into = v
    elseif key == "smooth" then
      smooth = read_smooth(v, fname)
    else
      A.arg_error(3, fname, nil, "unknown option '" .. A.quoted(key) .. "'")
    end
  end
  return flat, into, smooth
end

return M
