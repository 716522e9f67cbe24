-- How much slower is the pure-Lua fallback (astar.pure) than the C module
-- (astar.core)? Both load the same Moving AI maps and answer the same
-- scenarios (evenly spread over each .scen file, so short and long paths);
-- the script prints the time per query of each and the ratios, and checks
-- that both found the same costs. The fallback runs twice: its default
-- ("pure auto": jump point search where "auto" picks it, as in C) and plain
-- A* ("pure A*", algorithm = "astar"). Runs on Lua 5.1/LuaJIT and 5.4.
--
--   lua5.4 bench/fallback_bench.lua [maps dir] [queries per map]
-- (with LUA_PATH/LUA_CPATH set for the checkout, as `make bench-fallback` does)
--
-- With JUMPER_DIR set to a folder holding Jumper (Yonaba/Jumper, pure Lua,
-- not part of this repository), bench/jumper_peer.lua also times its jump
-- point search and A* on 30 AR0011SR scenarios spread over the file.
local C = require "astar.core"
local P = require "astar.pure"

local dir = arg and arg[1] or "maps"
local per_map = tonumber(arg and arg[2]) or 24
local MAPS = {
  { "arena.map", "arena.map.scen" },
  { "den312d.map", "den312d-random-1.scen" },
  { "ost003d.map", "ost003d-random-1.scen" },
  { "brc202d.map", "brc202d-random-1.scen" },
  { "AR0011SR.map", "AR0011SR.map.scen" },
  { "random512-10-0.map", "random512-10-0.map.scen" },
}

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

-- `count` scenarios spread evenly over the file, 1-based coordinates.
local function scenarios(path, count)
  local all = {}
  for line in io.lines(path) do
    local sx, sy, gx, gy = line:match("^%d+\t[^\t]+\t%d+\t%d+\t(%d+)\t(%d+)\t(%d+)\t(%d+)")
    if sx then
      all[#all + 1] = { tonumber(sx) + 1, tonumber(sy) + 1, tonumber(gx) + 1, tonumber(gy) + 1 }
    end
  end
  local picked = {}
  for k = 1, math.min(count, #all) do
    picked[k] = all[math.floor((k - 0.5) * #all / math.min(count, #all)) + 1]
  end
  return picked
end

-- Runs every query `rounds` times; returns seconds per query and the costs.
local function run(grid, list, rounds, opts)
  local costs = {}
  local t0 = os.clock()
  for _ = 1, rounds do
    for k, q in ipairs(list) do
      local _, cost = grid:findPath(q[1], q[2], q[3], q[4], opts)
      costs[k] = cost
    end
  end
  return (os.clock() - t0) / (rounds * #list), costs
end

-- Enough rounds that the clock's resolution does not matter (and LuaJIT has
-- compiled the loops): one on the long maps, many on the small ones.
local function time_rounds(grid, list, opts)
  local rounds, per, costs = 1
  repeat
    local t0 = os.clock()
    per, costs = run(grid, list, rounds, opts)
    local took = os.clock() - t0
    rounds = rounds * 4
  until took > 0.2
  return per, costs
end

-- C and the fallback each run their default ("auto": jump point search on
-- these uniform-cost maps) and plain A*.
local ASTAR = { algorithm = "astar" }
local engine = jit and jit.version or _VERSION
print(("pure-Lua fallback vs C module, %s, %d queries per map, ms per query"):format(engine, per_map))
print(("%-19s %8s %8s %9s %9s %9s %9s %9s"):format("map", "C auto", "C A*", "pure auto",
  "pure A*", "auto/C", "A*/C A*", "expanded"))
local total_auto, total_c, total_lua, total_pure_astar = 0, 0, 0, 0
for _, m in ipairs(MAPS) do
  local text = read(dir .. "/" .. m[1])
  local list = scenarios(dir .. "/" .. m[2], per_map)
  local gc, gl = C.fromMovingAI(text), P.fromMovingAI(text)
  run(gl, { list[1] }, 1)   -- warm up: the scratch arrays are made on first use
  local ta, ca = time_rounds(gc, list)
  local tc, cc = time_rounds(gc, list, ASTAR)
  local tl, cl = time_rounds(gl, list)
  local tp, cp = time_rounds(gl, list, ASTAR)
  local expanded = 0
  for k, q in ipairs(list) do
    gl:findPath(q[1], q[2], q[3], q[4])
    expanded = expanded + gl:getSearchStats().expanded
    for _, c in ipairs({ ca[k], cc[k] }) do
      for _, l in ipairs({ cl[k], cp[k] }) do
        if math.abs(c - l) > 1e-9 * math.max(1, c) then
          error(("%s query %d: C cost %.17g, pure-Lua cost %.17g"):format(m[1], k, c, l))
        end
      end
    end
  end
  total_auto, total_c = total_auto + ta, total_c + tc
  total_lua, total_pure_astar = total_lua + tl, total_pure_astar + tp
  print(("%-19s %8.3f %8.3f %9.3f %9.3f %8.1fx %8.1fx %9d"):format(m[1], ta * 1e3, tc * 1e3,
    tl * 1e3, tp * 1e3, tl / ta, tp / tc, math.floor(expanded / #list)))
end
print(("%-19s %8.3f %8.3f %9.3f %9.3f %8.1fx %8.1fx"):format("all (sum)", total_auto * 1e3,
  total_c * 1e3, total_lua * 1e3, total_pure_astar * 1e3, total_lua / total_auto,
  total_pure_astar / total_c))

-- The pure-Lua peer, when it is at hand (bench/jumper_peer.lua).
local jumper_dir = os.getenv("JUMPER_DIR")
if jumper_dir and jumper_dir ~= "" then
  dofile("bench/jumper_peer.lua")(P, C, read(dir .. "/AR0011SR.map"),
    scenarios(dir .. "/AR0011SR.map.scen", 30), jumper_dir)
end

-- The pure backend alone on the other kinds of query (bench/fallback_rows.lua).
print(("%-19s %9s"):format("pure Lua rows", "ms/run"))
for _, row in ipairs(dofile("bench/fallback_rows.lua")(P, dir)) do
  row[2]()   -- warm up
  local rounds, t0 = 0, os.clock()
  repeat
    row[2]()
    rounds = rounds + 1
  until os.clock() - t0 > 0.2
  print(("%-19s %9.3f"):format(row[1], (os.clock() - t0) / rounds * 1e3))
end
