-- One benchmark column in one Lua process (started by bench/maps_bench.lua):
--   <lua> bench/worker.lua ENGINE MAP QUERIES ROUNDS TARGET_US WARM [ALGORITHM [FORM]]
-- ENGINE is "binding" (findPath of this checkout's astar module) or "pure"
-- (bench/pure_astar.lua). FORM, binding only: "table" (findPath's default, a
-- new {x =, y =} per cell) or "flat" (opts.flat and opts.into: {x1, y1, ...}
-- filled into one table reused by every call, so no garbage). Prints
-- "q ID NS EXPANDED COST LENGTH RAN" per query (LENGTH in cells; RAN: the
-- algorithm getSearchStats() names, "?" when it names none), then "done".
-- Each path, in either form, is checked untimed against the map file (legal
-- steps, no corner cut, step costs summing to the cost, no stale entries in
-- a reused table) and each cost against the scenario's optimum; any mismatch
-- exits with status 1.
--   <lua> bench/worker.lua algorithms
-- prints the findPath algorithm names the module accepts ("default" always),
-- then "form flat" when findPath takes opts.flat and opts.into.
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local scen = require "scen"

local SQRT2 = math.sqrt(2)
local clock = os.clock

local function fail(message)
  io.stderr:write("worker: ", message, "\n")
  os.exit(1)
end

-- The names opts.algorithm accepts, found by asking findPath itself.
local function list_algorithms()
  local astar = require "astar"
  local grid = astar.new(4, 4)
  print("default")
  for _, name in ipairs({"astar", "jps", "auto"}) do
    if pcall(grid.findPath, grid, 1, 1, 4, 4, {algorithm = name}) then
      print(name)
    end
  end
  local buf = {}
  local ok, path = pcall(grid.findPath, grid, 1, 1, 2, 2, {flat = true, into = buf})
  if ok and rawequal(path, buf) and path[1] == 1 and path[2] == 1 and path[#path] == 2 then
    print("form flat")
  end
end

-- Checks a returned path independently of the code under test: an array of
-- {x =, y =}, or with flat {x1, y1, x2, y2, ...}. Returns the problem, or
-- nil and the number of cells.
local function check_path(q, path, cost, width, open, flat)
  local n, keys = #path, 0
  for _ in pairs(path) do keys = keys + 1 end
  if keys ~= n then   -- a reused table must not keep a longer path's tail
    return string.format("path table holds %d entries, %d in its array", keys, n)
  end
  if flat then
    if n % 2 ~= 0 then return "flat path has an odd length " .. n end
    n = math.floor(n / 2)
  end
  if n < 1 then return "empty path" end
  local xs, ys = {}, {}
  for i = 1, n do
    local x, y
    if flat then
      x, y = path[2 * i - 1], path[2 * i]
    else
      x, y = path[i].x, path[i].y
    end
    if type(x) ~= "number" or type(y) ~= "number" or x % 1 ~= 0 or y % 1 ~= 0 then
      return "cell " .. i .. " is not two integers"
    end
    xs[i], ys[i] = x, y
  end
  if xs[1] ~= q.sx + 1 or ys[1] ~= q.sy + 1 or xs[n] ~= q.gx + 1 or ys[n] ~= q.gy + 1 then
    return "path does not join start and goal"
  end
  local sum = 0
  for i = 2, n do
    local ax, ay, bx, by = xs[i - 1], ys[i - 1], xs[i], ys[i]
    local dx, dy = bx - ax, by - ay
    if (dx == 0 and dy == 0) or dx < -1 or dx > 1 or dy < -1 or dy > 1 then
      return "step " .. i .. " is not to a neighbour"
    end
    if not open[(by - 1) * width + bx] then
      return "step " .. i .. " enters a wall"
    end
    if dx ~= 0 and dy ~= 0 then
      if not (open[(ay - 1) * width + bx] and open[(by - 1) * width + ax]) then
        return "step " .. i .. " cuts a corner"
      end
      sum = sum + SQRT2
    else
      sum = sum + 1
    end
  end
  if math.abs(sum - cost) > 1e-9 * math.max(1, cost) then
    return string.format("path steps sum to %.10f, cost says %.10f", sum, cost)
  end
  return nil, n
end

-- A run function for ENGINE, one returning the last query's expansion
-- count and the algorithm that ran, and with FORM flat the table findPath
-- must fill and return.
local function make_engine(engine, map_path, algorithm, form, width, height, open)
  if form ~= "table" and (engine ~= "binding" or form ~= "flat") then
    fail("no form " .. tostring(form) .. " for engine " .. tostring(engine))
  end
  if engine == "pure" then
    local searcher = require("pure_astar").new(width, height, open)
    local function stats() return searcher.expanded(), "astar" end
    return function(q) return searcher.find(q.sx, q.sy, q.gx, q.gy) end, stats
  elseif engine == "binding" then
    local astar = require "astar"
    local grid = astar.fromMovingAI(scen.read_all(map_path))
    grid:setDiagonal("no-obstacles")
    local opts, buf = nil, nil
    if algorithm ~= "default" then opts = {algorithm = algorithm} end
    if form == "flat" then
      buf = {}
      opts = opts or {}
      opts.flat, opts.into = true, buf
    end
    local function run(q)
      return grid:findPath(q.sx + 1, q.sy + 1, q.gx + 1, q.gy + 1, opts)
    end
    local function stats()
      local st = grid:getSearchStats()
      return st.expanded, st.algorithm or "?"
    end
    return run, stats, buf
  end
  fail("unknown engine " .. tostring(engine))
end

-- Seconds per run of q: one run, or a batch when one run is under target.
-- Returns the time and the last run's path and cost.
local function time_query(run, q, target)
  local t0 = clock()
  local path, cost = run(q)
  local t = clock() - t0
  if t >= target then return t, path, cost end
  local n = math.floor(target / math.max(t, 1e-6)) + 1
  if n > 100000 then n = 100000 end
  t0 = clock()
  for _ = 1, n do path, cost = run(q) end
  return (clock() - t0) / n, path, cost
end

local function main()
  if arg[1] == "algorithms" then return list_algorithms() end
  local engine, map_path, query_path = arg[1], arg[2], arg[3]
  local rounds, target, warm = tonumber(arg[4]), tonumber(arg[5]) * 1e-6, tonumber(arg[6])
  local algorithm, form = arg[7] or "default", arg[8] or "table"
  if not (engine and map_path and query_path and rounds and target and warm) then
    fail("usage: worker.lua ENGINE MAP QUERIES ROUNDS TARGET_US WARM [ALGORITHM [FORM]]")
  end
  local width, height, open = scen.read_map(map_path)
  local queries = scen.read_queries(query_path)
  local run, last_stats, into = make_engine(engine, map_path, algorithm, form, width, height, open)
  local count = #queries

  -- warm-up: JIT traces, scratch sized to the map, caches
  if warm > count then warm = count end
  for i = 0, warm - 1 do run(queries[math.floor(i * count / warm) + 1]) end

  -- Checks one answer (untimed) and records what the output reports of it.
  local function check(q, path, cost)
    if not path then
      fail(string.format("%s query %d: %s, expected cost %.8f", map_path, q.id,
        tostring(cost), q.optimal))
    end
    if math.abs(cost - q.optimal) > q.tol then
      fail(string.format("%s query %d (%d,%d)->(%d,%d): cost %.10f, optimal %.10f",
        map_path, q.id, q.sx, q.sy, q.gx, q.gy, cost, q.optimal))
    end
    if into and not rawequal(path, into) then
      fail(string.format("%s query %d: findPath did not return opts.into", map_path, q.id))
    end
    local problem, cells = check_path(q, path, cost, width, open, form == "flat")
    if problem then fail(string.format("%s query %d: %s", map_path, q.id, problem)) end
    q.cost, q.length = cost, cells
    q.expanded, q.ran = last_stats()
  end

  -- The binding's answers are checked in a pass of their own before the timed
  -- ones, so that walking a path in Lua does not evict the search's data from
  -- the caches between timed queries (the C driver's check is a few
  -- comparisons); each timed run must then give the same cost. The pure-Lua
  -- engine, 1000 times slower, checks as it goes.
  local check_first = engine ~= "pure"
  if check_first then
    for i = 1, count do
      local q = queries[i]
      check(q, run(q))
    end
  end
  local samples = {}
  for i = 1, count do samples[i] = {} end
  for r = 1, rounds do
    for i = 1, count do
      local q = queries[i]
      local t, path, cost = time_query(run, q, target)
      samples[i][r] = t
      if not check_first and r == 1 then
        check(q, path, cost)
      elseif cost ~= q.cost then
        fail(string.format("%s query %d: cost %s, %.10f before", map_path, q.id, tostring(cost), q.cost))
      end
    end
  end
  for i = 1, count do
    local q, s = queries[i], samples[i]
    table.sort(s)
    io.write(string.format("q %d %.1f %d %.10f %d %s\n", q.id, s[math.floor(rounds / 2) + 1] * 1e9,
      q.expanded, q.cost, q.length, q.ran))
  end
  print("done")
end

main()
