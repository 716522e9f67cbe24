-- The large-map check of make bench, from Lua: create a SIDE x SIDE grid,
-- wall WALL_PERCENT% of it with the Park-Miller generator of bench/driver.c
-- (same seed, so the same walls), answer a corner-to-corner query, and print
-- "big KEY VALUE" lines: CPU times and the process's resident memory growth
-- (VmRSS from /proc, Linux only: the C memory is invisible to Lua's GC).
--   <lua> bench/big_grid.lua SIDE WALL_PERCENT
local astar = require "astar"

local side, percent = tonumber(arg[1]) or 4096, tonumber(arg[2]) or 10

local function rss_kib()
  local f = io.open("/proc/self/status", "r")
  if not f then return 0 end
  local text = f:read("*a")
  f:close()
  return tonumber(text:match("VmRSS:%s*(%d+)")) or 0
end

local rss0 = rss_kib()
local t0 = os.clock()
local grid = astar.new(side, side)
local t_create = os.clock() - t0

t0 = os.clock()
local seed = 42
for y = 1, side do
  for x = 1, side do
    seed = (seed * 16807) % 2147483647
    if seed % 100 < percent then grid:setWalkable(x, y, false) end
  end
end
grid:setWalkable(1, 1, true)
grid:setWalkable(side, side, true)
local t_fill = os.clock() - t0

t0 = os.clock()
local path, cost = grid:findPath(1, 1, side, side)
local t_query = os.clock() - t0
local rss1 = rss_kib()

print(string.format("big create_ms %.3f", t_create * 1e3))
print(string.format("big fill_ms %.3f", t_fill * 1e3))
print(string.format("big query_ms %.3f", t_query * 1e3))
print("big found " .. (path and 1 or 0))
if path then
  print(string.format("big cost %.6f", cost))
  print("big length " .. #path)
end
print("big expanded " .. grid:getSearchStats().expanded)
print(string.format("big rss_growth_bytes %d", (rss1 - rss0) * 1024))
print("done")
