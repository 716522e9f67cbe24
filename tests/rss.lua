-- Run by `make rss-check` (Lua 5.4 and LuaJIT): memory does not grow.
--
--   10,000 grids created, used (costs, a search, components) and dropped;
--   10,000 searches aborted by an error after partial work: a callback that
--   raises inside tactics.movementRange, a stepped search (grid:newSearch)
--   dropped half-way, and findPath given bad options.
--
-- RSS is read from /proc/self/statm after a full collection, once after a
-- warm-up round (allocator pools, interned strings, scratch at its high
-- water mark) and once after the 10,000 rounds; it may not grow by more
-- than LIMIT_KB. Leaking one grid's cost layer or one search's scratch per
-- round would add 250 MB to 400 MB; small leaks are valgrind's and LSan's job
-- (make valgrind, make sanitize). The limit leaves room for glibc keeping
-- freed 40 KB blocks: dropped stepped searches move RSS by up to ~8 MB
-- either way on Lua 5.4 without growing over 60,000 rounds.
local astar = require "astar"
assert(astar.backend == "c", "rss.lua measures the C module")
local okTactics, tactics = pcall(require, "astar.tactics")
if not okTactics then tactics = nil end

local LIMIT_KB = 16384
local ROUNDS = 10000

local function rss_kb()
  local f = assert(io.open("/proc/self/statm", "r"))
  local _, resident = f:read("*n", "*n")
  f:close()
  return resident * 4   -- pages of 4 KB (x86-64, arm64 Debian)
end

local function settle()
  collectgarbage("collect")
  collectgarbage("collect")
  return rss_kb()
end

local function check(name, round)
  for _ = 1, 1000 do round() end    -- warm-up
  local before = settle()
  for i = 1, ROUNDS do
    round()
    if i % 500 == 0 then collectgarbage("step", 0) end
  end
  local after = settle()
  print(("%-40s RSS %6d KB -> %6d KB (%+d KB) over %d rounds"):format(
    name, before, after, after - before, ROUNDS))
  if after - before > LIMIT_KB then
    error(("%s: RSS grew by %d KB (limit %d KB)"):format(name, after - before, LIMIT_KB), 0)
  end
end

check("grids created and dropped", function()
  local g = astar.new(64, 48)
  g:setCost(3, 3, 2.5)
  g:setWalkable(10, 10, false)
  assert(g:findPath(1, 1, 64, 48))
  g:setWalkable(2, 1, false)     -- stale components
  if g.encode then assert(astar.decode(g:encode())) end
end)

local grid = astar.new(64, 48)
for y = 2, 47 do grid:setWalkable(32, y, false) end

check("findPath aborted by a bad option", function()
  local ok = pcall(grid.findPath, grid, 1, 1, 64, 48, { weight = 2, partial = "yes" })
  assert(not ok)
end)

if grid.newSearch then
  check("stepped searches dropped half-way", function()
    local s = grid:newSearch(1, 1, 64, 48)
    s:step(20)
    local ok = pcall(s.step, s, "many")   -- an argument error after partial work
    assert(not ok)
  end)
end

if tactics then
  local calls = 0
  local function boom()
    calls = calls + 1
    if calls % 25 == 0 then error("callback failed") end
    return 1
  end
  check("movementRange aborted by a callback error", function()
    local ok, err = pcall(tactics.movementRange, grid, 10, 10, 12, { cost = boom })
    assert(not ok and tostring(err):find("callback failed", 1, true), tostring(err))
  end)
end
print("rss.lua: ok")
