-- Error checks shared by the specs. Every error the library raises is a plain
-- message with no "file:line:" position, the same text wherever the call came
-- from, so messages are compared whole.
local M = {}

local unpack = unpack or table.unpack -- luacheck: ignore 143
local pack = table.pack or function(...) return { n = select("#", ...), ... } end

-- Calls fn(...) and requires it to raise exactly `expected`.
function M.check_error(expected, fn, ...)
  local args = pack(...)
  local ok, err = pcall(fn, unpack(args, 1, args.n))
  assert(not ok, "expected the error '" .. expected .. "' but the call succeeded")
  assert(type(err) == "string", "the error is a " .. type(err) .. ", not a string")
  assert(err == expected, ("expected the error\n  %s\nbut got\n  %s"):format(expected, err))
end

return M
