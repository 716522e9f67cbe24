-- Run by `make rss-check`: the C module's memory stays bounded while a
-- program leaves dropped objects to the garbage collector.
--
--   lua5.4 tests/rss.lua [--out FILE] CONFIG...
--
-- CONFIG is NAME=INTERPRETER=MODULE_DIR[=generational], e.g.
-- 5.4=lua5.4=build/5.4 or 5.4-gen=lua5.4=build/5.4=generational. For every
-- CONFIG this driver starts one process per check below (peak RSS is per
-- process), with LUA_CPATH=MODULE_DIR/?.so, prints a table (and writes it to
-- FILE), and fails when any check fails.
--
-- 1. Peak RSS (the main check). Each scenario runs alone in a fresh process
--    and loops, with no collectgarbage call in the loop, over one iteration
--    that makes an object and drops it:
--      grids     astar.new(512, 512)
--      costs     astar.new(512, 512) with one setCost (a cost layer)
--      searches  grid:newSearch on one 512x512 grid, stepped 50 nodes
--      ranges    tactics.movementRange with callbacks on one 512x512 grid
--      decoded   astar.decode of one 512x512 grid with walls and costs
--      levels    a 2048x2048 level: walls, costs, findPath across (40 levels)
--    Before the loop the same process measures the live data: the bytes one
--    iteration keeps alive, as the larger of the growth of VmRSS and of
--    collectgarbage("count") while a few iterations' objects (one 2048x2048
--    level) are held, after a full collection, divided by their number. At
--    the end it reads VmHWM (the process's peak RSS) from /proc/self/status
--    and requires
--        peak <= 3 * live + 50 MB
--    A collector that knows what the module's objects hold keeps the heap
--    within a small multiple of the live data (Lua's default pause lets it
--    double between cycles); memory it cannot see piles up until something
--    else makes it run. The driver runs each of these children under
--    `ulimit -v` of STOP_MB: a loop whose memory runs away stops at "not
--    enough memory" (the row says after how many rounds, and fails) rather
--    than take the machine.
-- 2. No growth (a leak check). 10,000 grids created, used and dropped, and
--    10,000 searches aborted by an error after partial work (a callback that
--    raises inside tactics.movementRange, a stepped search dropped half-way,
--    findPath given bad options): VmRSS after a full collection, taken after
--    1,000 warm-up rounds and again after the 10,000 rounds, may not grow by
--    more than 16 MB. Leaking one grid's cost layer or one search's scratch
--    per round would add 250 MB to 400 MB; small leaks are valgrind's and
--    LSan's job (make valgrind, make sanitize). The margin leaves room for
--    glibc keeping freed 40 KB blocks: dropped stepped searches move RSS by up
--    to ~9 MB either way without growing over 60,000 rounds.
--
-- Children: tests/rss.lua --peak SCENARIO [--generational] prints one line
-- "RESULT scenario live_kb peak_kb rss_kb rounds_done rounds seconds";
-- tests/rss.lua --growth [--generational] prints a line per check and fails
-- when one grows. Both run on Lua 5.1 to 5.4 and LuaJIT; the driver needs
-- Lua 5.2 or later (the exit status of io.popen).

local MB = 1024
local STOP_MB = 1536          -- address space given to a peak-RSS child

-- ---- /proc -----------------------------------------------------------------

local function status_kb(field)
  local f = assert(io.open("/proc/self/status", "r"))
  local text = f:read("*a")
  f:close()
  local kb = assert(text:match("\n" .. field .. ":%s*(%d+) kB"), field)
  return tonumber(kb)
end

local function settle()
  collectgarbage("collect")
  collectgarbage("collect")
end

-- ---- peak RSS scenarios ------------------------------------------------------

-- Each scenario: rounds; setup(astar) -> shared state made before the
-- baseline (it keeps whatever it made alive: memory freed before the
-- measurement would be reused by the measured iteration and hide its size);
-- iteration(astar, i, state) -> the object one iteration makes (dropped in
-- the loop); measure: how many of them are held at once to measure the live
-- data (the mean is less sensitive to freed memory the allocator reuses).
local SCENARIOS, ORDER = {}, {}
local function scenario(name, s)
  SCENARIOS[name] = s
  ORDER[#ORDER + 1] = name
end

scenario("grids", {
  title = "astar.new(512, 512)",
  rounds = 3000,
  iteration = function(astar)
    return astar.new(512, 512)
  end,
})

scenario("costs", {
  title = "512x512 + one setCost",
  rounds = 1500,
  iteration = function(astar, i)
    local g = astar.new(512, 512)
    g:setCost(i % 512 + 1, 7, 2.5)
    return g
  end,
})

local function walled_grid(astar, side)
  local g = astar.new(side, side)
  -- a wall every 16 rows with one gap, alternating ends: a long winding path
  for y = 16, side - 1, 16 do
    local gap = (y / 16) % 2 == 0 and 2 or side - 1
    for x = 1, side do
      if x ~= gap then g:setWalkable(x, y, false) end
    end
  end
  return g
end

scenario("searches", {
  title = "newSearch + step(50), 512x512",
  rounds = 2000,
  setup = function(astar)
    return walled_grid(astar, 512)
  end,
  iteration = function(_, i, grid)
    local s = grid:newSearch(1 + i % 200, 1, 512, 512)
    assert(s:step(50) == "searching")
    return s
  end,
})

scenario("ranges", {
  title = "movementRange(move 40), callbacks",
  rounds = 2000,
  setup = function(astar)
    local tactics = require "astar.tactics"
    local grid = walled_grid(astar, 512)
    for y = 1, 512, 3 do grid:setCost(5 + y % 400, y, 2) end
    local opts = {
      cost = function(x, y) return (x + y) % 5 == 0 and 2 or 1 end,
      blocked = function(x, y) return x % 7 == 0 and y % 5 == 0 end,
      zoc = function(x, y) return x % 11 == 0 and y % 3 == 0 end,
    }
    return { tactics = tactics, grid = grid, opts = opts }
  end,
  iteration = function(_, i, st)
    local r = st.tactics.movementRange(st.grid, 100 + i % 300, 40, 40, st.opts)
    assert(r:contains(100 + i % 300, 40))
    return r
  end,
})

scenario("decoded", {
  title = "astar.decode of a 512x512 grid",
  rounds = 800,
  setup = function(astar)
    local g = walled_grid(astar, 512)
    for y = 1, 512, 2 do g:setCost(y, y, 1 + y % 9) end
    -- the source grid stays alive: memory it freed would be reused by the
    -- measured decode and hide its size
    return { source = g, bytes = g:encode() }
  end,
  iteration = function(astar, _, st)
    return astar.decode(st.bytes)
  end,
})

scenario("levels", {
  title = "2048x2048 level reloads",
  rounds = 40,
  measure = 1,
  iteration = function(astar, i)
    local side = 2048
    local g = astar.new(side, side)
    for y = 256, side - 1, 256 do           -- 7 walls, each with a gap
      local gap = y + (i * 37) % 64 - 32   -- near the diagonal: a short search
      for x = 1, side do
        if x ~= gap then g:setWalkable(x, y, false) end
      end
    end
    for k = 1, 2000 do                        -- costs: a cost layer
      g:setCost(1 + (k * 7919 + i) % side, 1 + (k * 104729) % side, 1 + k % 4)
    end
    local path = g:findPath(1, 1, side, side)
    assert(path, "level has a path")
    return g
  end,
})

local function run_peak(name, generational)
  local s = assert(SCENARIOS[name], "unknown scenario " .. tostring(name))
  if generational then collectgarbage("generational") end
  local astar = require "astar"
  assert(astar.backend == "c", "rss.lua measures the C module")
  local state = s.setup and s.setup(astar)
  -- the live data: what one iteration keeps alive
  settle()
  local rss0, count0 = status_kb("VmRSS"), collectgarbage("count")
  local keep, n = {}, s.measure or 4
  for k = 1, n do keep[k] = s.iteration(astar, 1 - k, state) end
  settle()
  local live = math.max(status_kb("VmRSS") - rss0, collectgarbage("count") - count0) / n
  assert(#keep == n)
  keep = nil -- luacheck: ignore 311
  -- The loop: the collector alone decides when dropped objects go. Nothing
  -- else in it allocates (reading /proc would make garbage that drives the
  -- collector); the driver's address-space limit stops a runaway loop with
  -- "not enough memory", which ends it here.
  local rounds, done = s.rounds, 0
  local t0 = os.clock()
  local ok, err = pcall(function()
    for i = 1, rounds do
      s.iteration(astar, i, state)    -- its object is garbage at once
      done = i
    end
  end)
  local seconds = os.clock() - t0
  if not ok then
    state = nil -- luacheck: ignore 311
    settle()
    assert(tostring(err):find("not enough memory", 1, true), tostring(err))
  end
  print(("RESULT %s %d %d %d %d %d %.2f"):format(name, math.floor(live + 0.5),
    status_kb("VmHWM"), status_kb("VmRSS"), done, rounds, seconds))
end

-- ---- no growth over 10,000 rounds --------------------------------------------

local function run_growth(generational)
  if generational then collectgarbage("generational") end
  local astar = require "astar"
  assert(astar.backend == "c", "rss.lua measures the C module")
  local okTactics, tactics = pcall(require, "astar.tactics")
  if not okTactics then tactics = nil end

  local LIMIT_KB = 16384
  local ROUNDS = 10000
  local failed = false

  local function check(name, round)
    for _ = 1, 1000 do round() end    -- warm-up
    settle()
    local before = status_kb("VmRSS")
    for i = 1, ROUNDS do
      round()
      if i % 500 == 0 then collectgarbage("step", 0) end
    end
    settle()
    local after = status_kb("VmRSS")
    local bad = after - before > LIMIT_KB
    print(("growth  %-42s %6d KB -> %6d KB (%+d KB)%s"):format(
      name, before, after, after - before,
      bad and ("  FAIL: limit +" .. LIMIT_KB .. " KB") or ""))
    failed = failed or bad
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

  check("stepped searches dropped half-way", function()
    local s = grid:newSearch(1, 1, 64, 48)
    s:step(20)
    local ok = pcall(s.step, s, "many")   -- an argument error after partial work
    assert(not ok)
  end)

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
  if failed then os.exit(1) end
end

-- ---- driver --------------------------------------------------------------------

local function shell_quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

local function run_child(config, args, limit_mb)
  local env = ("ulimit -v %s && LUA_PATH=%s LUA_CPATH=%s"):format(
    limit_mb and tostring(limit_mb * MB) or "unlimited",
    shell_quote(os.getenv("LUA_PATH") or "lua/?.lua;lua/?/init.lua;;"),
    shell_quote(config.dir .. "/?.so;;"))
  local cmd = ("%s %s %s %s%s 2>&1"):format(env, config.lua, shell_quote(arg[0]), args,
    config.generational and " --generational" or "")
  local p = assert(io.popen(cmd, "r"))
  local out = p:read("*a")
  local ok, how, code = p:close()
  return out, ok == true, how, code
end

local function drive(configs, outfile)
  assert(_VERSION ~= "Lua 5.1", "run the driver on Lua 5.2 or later")
  local lines, failures = {}, 0
  local function emit(line)
    print(line)
    lines[#lines + 1] = line
    io.stdout:flush()
  end
  local names = {}
  for _, c in ipairs(configs) do
    names[#names + 1] = ("%s (%s, %s%s)"):format(c.name, c.lua, c.dir,
      c.generational and ", generational" or "")
  end
  emit(("Peak RSS per process: loops with no collectgarbage call; limit = 3 x live + 50 MB"))
  emit(("Lua: %s"):format(table.concat(names, "; ")))
  emit(("Each scenario in its own process, under ulimit -v %d MB"):format(STOP_MB))
  emit("")
  local header = ("%-9s %-40s %-8s %8s %8s %9s %7s %7s  %s"):format(
    "scenario", "iteration", "Lua", "live MB", "peak MB", "limit MB", "end MB", "time s", "result")
  emit(header)
  emit(("-"):rep(#header + 38))
  local t_all = os.time()
  for _, name in ipairs(ORDER) do
    local s = SCENARIOS[name]
    for _, c in ipairs(configs) do
      local out, ok = run_child(c, "--peak " .. name, STOP_MB)
      local live, peak, rss, done, rounds, secs =
        out:match("RESULT %S+ (%d+) (%d+) (%d+) (%d+) (%d+) ([%d.]+)")
      local row
      if not (ok and live) then
        failures = failures + 1
        row = ("%-9s %-40s %-8s  error: %s"):format(name, s.title, c.name,
          (out:gsub("%s+$", ""):gsub("\n", " | ")))
      else
        live, peak, rss = tonumber(live) / MB, tonumber(peak) / MB, tonumber(rss) / MB
        local limit = 3 * live + 50
        local pass = peak <= limit and done == rounds
        if not pass then failures = failures + 1 end
        local note = done == rounds and "" or (" (stopped after %s of %s rounds)"):format(done, rounds)
        row = ("%-9s %-40s %-8s %8.1f %8.1f %9.1f %7.1f %7.2f  %s%s"):format(
          name, ("%s x%d"):format(s.title, s.rounds), c.name, live, peak, limit, rss,
          tonumber(secs), pass and "pass" or "FAIL", note)
      end
      emit(row)
    end
  end
  emit("")
  for _, c in ipairs(configs) do
    local out, ok = run_child(c, "--growth")
    for line in out:gmatch("[^\n]+") do emit(("%-8s %s"):format(c.name, line)) end
    if not ok then
      failures = failures + 1
      emit(("%-8s growth check failed"):format(c.name))
    end
  end
  emit(("\n%d failure(s); %d s"):format(failures, os.time() - t_all))
  if outfile then
    local f = assert(io.open(outfile, "w"))
    f:write(table.concat(lines, "\n"), "\n")
    f:close()
  end
  return failures == 0
end

-- ---- command line ----------------------------------------------------------------

local argv = { ... }
local generational = false
for i = #argv, 1, -1 do
  if argv[i] == "--generational" then
    generational = true
    table.remove(argv, i)
  end
end

if argv[1] == "--peak" then
  run_peak(argv[2], generational)
elseif argv[1] == "--growth" then
  run_growth(generational)
else
  local outfile
  if argv[1] == "--out" then
    outfile = argv[2]
    table.remove(argv, 1)
    table.remove(argv, 1)
  end
  local configs = {}
  for _, spec in ipairs(argv) do
    local name, lua, dir, mode = spec:match("^([^=]+)=([^=]+)=([^=]+)=?(.*)$")
    assert(name and (mode == "" or mode == "generational"), "bad config " .. spec)
    configs[#configs + 1] = { name = name, lua = lua, dir = dir, generational = mode ~= "" }
  end
  assert(#configs > 0, "usage: lua5.4 tests/rss.lua [--out FILE] NAME=LUA=MODULE_DIR[=generational]...")
  if not drive(configs, outfile) then os.exit(1) end
end
