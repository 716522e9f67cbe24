-- Run by `make rss-check` under `ulimit -v` (about 800 MB of address space):
-- grids and scratch that do not fit must give the error "not enough memory",
-- never a crash, and leave the grid as it was.
local astar = require "astar"
assert(astar.backend == "c", "oom.lua tests the C module")

local function expect_ok_or_oom(what, fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then return true end
  assert(type(err) == "string" and err:find("^not enough memory"),
    what .. ": expected 'not enough memory', got " .. tostring(err))
  print(what .. ": " .. err)
  return false
end

-- 2^28 cells: the walls fit, a cost layer (8 bytes a cell) and search
-- scratch (12 bytes a cell) do not.
local okNew, grid = pcall(astar.new, 16384, 16384)
if not okNew then
  assert(grid:find("^not enough memory"), grid)
  print("astar.new(16384, 16384): " .. grid)
else
  expect_ok_or_oom("setCost", grid.setCost, grid, 1, 1, 2)
  expect_ok_or_oom("findPath", grid.findPath, grid, 1, 1, 16384, 16384)
  -- the grid is unchanged and still usable
  assert(grid:isWalkable(1, 1))
  grid:setWalkable(1, 1, false)
  grid:setWalkable(1, 1, true)
  expect_ok_or_oom("encode", grid.encode, grid)
  grid = nil -- luacheck: ignore 311
  collectgarbage()
  collectgarbage()
end

-- afterwards small grids work as before
local small = astar.new(10, 10)
small:setCost(10, 1, 3)
local path, cost = small:findPath(1, 1, 10, 10)
assert(path and #path == 10 and math.abs(cost - 9 * math.sqrt(2)) < 1e-9, "small grid broken")
print("oom.lua: ok")
