-- One benchmark column in one Lua process (started by bench/maps_bench.lua):
--   <lua> bench/worker.lua ENGINE MAP QUERIES ROUNDS TARGET_US WARM [ALGORITHM]
-- ENGINE is "binding" (findPath of this checkout's astar module) or "pure"
-- (bench/pure_astar.lua). Prints "q ID NS EXPANDED COST LENGTH RAN" per
-- query (RAN: the algorithm getSearchStats() names, "?" when it names none),
-- then "done". Each path is checked untimed against the map file (legal
-- steps, no corner cut, step costs summing to the cost) and each cost
-- against the scenario's optimum; any mismatch exits with status 1.
--   <lua> bench/worker.lua algorithms
-- prints the findPath algorithm names the module accepts ("default" always).
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
end

-- Checks a returned path independently of the code under test.
local function check_path(q, path, cost, width, open)
  local n = #path
  if path[1].x ~= q.sx + 1 or path[1].y ~= q.sy + 1
    or path[n].x ~= q.gx + 1 or path[n].y ~= q.gy + 1 then
    return "path does not join start and goal"
  end
  local sum = 0
  for i = 2, n do
    local a, b = path[i - 1], path[i]
    local dx, dy = b.x - a.x, b.y - a.y
    if (dx == 0 and dy == 0) or dx < -1 or dx > 1 or dy < -1 or dy > 1 then
      return "step " .. i .. " is not to a neighbour"
    end
    if not open[(b.y - 1) * width + b.x] then
      return "step " .. i .. " enters a wall"
    end
    if dx ~= 0 and dy ~= 0 then
      if not (open[(a.y - 1) * width + b.x] and open[(b.y - 1) * width + a.x]) then
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
end

-- A run function for ENGINE, and one returning the last query's expansion
-- count and the algorithm that ran.
local function make_engine(engine, map_path, algorithm, width, height, open)
  if engine == "pure" then
    local searcher = require("pure_astar").new(width, height, open)
    local function stats() return searcher.expanded(), "astar" end
    return function(q) return searcher.find(q.sx, q.sy, q.gx, q.gy) end, stats
  elseif engine == "binding" then
    local astar = require "astar"
    local grid = astar.fromMovingAI(scen.read_all(map_path))
    grid:setDiagonal("no-obstacles")
    local opts = nil
    if algorithm ~= "default" then opts = {algorithm = algorithm} end
    local function run(q)
      return grid:findPath(q.sx + 1, q.sy + 1, q.gx + 1, q.gy + 1, opts)
    end
    local function stats()
      local st = grid:getSearchStats()
      return st.expanded, st.algorithm or "?"
    end
    return run, stats
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
  local algorithm = arg[7] or "default"
  if not (engine and map_path and query_path and rounds and target and warm) then
    fail("usage: worker.lua ENGINE MAP QUERIES ROUNDS TARGET_US WARM [ALGORITHM]")
  end
  local width, height, open = scen.read_map(map_path)
  local queries = scen.read_queries(query_path)
  local run, last_stats = make_engine(engine, map_path, algorithm, width, height, open)
  local count = #queries

  -- warm-up: JIT traces, scratch sized to the map, caches
  if warm > count then warm = count end
  for i = 0, warm - 1 do run(queries[math.floor(i * count / warm) + 1]) end

  local samples = {}
  for i = 1, count do samples[i] = {} end
  for r = 1, rounds do
    for i = 1, count do
      local q = queries[i]
      local t, path, cost = time_query(run, q, target)
      samples[i][r] = t
      if r == 1 then
        if not path then
          fail(string.format("%s query %d: %s, expected cost %.8f", map_path, q.id,
            tostring(cost), q.optimal))
        end
        if math.abs(cost - q.optimal) > q.tol then
          fail(string.format("%s query %d (%d,%d)->(%d,%d): cost %.10f, optimal %.10f",
            map_path, q.id, q.sx, q.sy, q.gx, q.gy, cost, q.optimal))
        end
        local problem = check_path(q, path, cost, width, open)
        if problem then fail(string.format("%s query %d: %s", map_path, q.id, problem)) end
        q.cost, q.length = cost, #path
        q.expanded, q.ran = last_stats()
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
