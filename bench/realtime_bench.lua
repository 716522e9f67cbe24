-- make bench-realtime (issue 24): a distance map that follows a moving player, on the
-- 256x256 map of the LÖVE demo's chase scene (examples/love/chaseboard.lua: terrain
-- costs, 14% walls, seeded), on the backend this run loads (ASTAR_BACKEND=lua: the
-- fallback). Rows:
--   memory    600 frames: the map's one source moves to the next cell of the
--             player's route every frame, without collectgarbage. Peak RSS (VmHWM of
--             /proc/self/status) before and after, and the median time of a move.
--             Each way runs in a process of its own (the peak is the process's):
--               setSources    map:setSources: the same map, recomputed in place
--               distanceMap   a new grid:distanceMap per move (a new userdata, or new
--                             Lua tables on the fallback, each time)
--   chase     the demo's scene as it runs in LÖVE, without drawing: 1000 enemies,
--             each one map:nextStep when it moves, the map's source moved when the
--             player enters a new cell, map:update(grid) after each wall edit (5 a
--             second). FRAMES fixed steps of 1/60 s, each a frame; the pathfinding
--             time per frame (os.clock around those calls only): the median and the
--             worst of the last 300 frames, and the mean over all.
--
-- Usage: lua bench/realtime_bench.lua [row [way]]   (FRAMES=n, default 600)
package.path = "bench/?.lua;examples/love/?.lua;" .. package.path
local astar = require "astar"
local ChaseBoard = require "chaseboard"
local median = require("timing").median

local FRAMES = tonumber(os.getenv("FRAMES")) or 600
local MAP_OPTS = { diagonal = "no-obstacles" }

-- peak resident memory so far, in MB (nil where /proc is missing)
local function peakMB()
  local f = io.open("/proc/self/status", "r")
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  local kb = text:match("VmHWM:%s*(%d+)")
  return kb and tonumber(kb) / 1024
end

-- The ways of moving a map's source; each returns the map to read next.
local MOVES = {
  setSources = function(_, map, x, y)
    return map:setSources({ { x = x, y = y } })
  end,
  distanceMap = function(grid, _, x, y)
    return grid:distanceMap({ { x = x, y = y } }, MAP_OPTS)
  end,
}

local function memoryRow(way)
  local board = ChaseBoard.new({ enemies = 0 })
  local grid, route, move = board.grid, board.route, MOVES[way]
  local map = board.map
  local before, times = peakMB(), {}
  for frame = 1, FRAMES do
    local c = route[frame % #route + 1]
    local t0 = os.clock()
    map = move(grid, map, c.x, c.y)
    times[frame] = os.clock() - t0
  end
  local after = peakMB()
  print(("memory   %-12s %4d moves: %6.2f ms a move; peak RSS %7.1f MB -> %7.1f MB (+%.1f MB)")
    :format(way, FRAMES, median(times) * 1e3, before or 0, after or 0, (after or 0) - (before or 0)))
end

local function chaseRow()
  local board = ChaseBoard.new({ clock = os.clock })
  local t0, sum = os.clock(), 0
  for _ = 1, FRAMES do
    local spent = board:step()
    board:recordFrame(spent)
    sum = sum + spent
  end
  local wall = os.clock() - t0
  local med, worst, n = board:stats()
  print(("chase    %d enemies, %d frames: pathfinding per frame median %.3f ms, worst %.2f ms"
    .. " (last %d); mean %.3f ms; %d source moves, %d wall edits; %.2f s in all")
    :format(#board.enemies, FRAMES, med * 1e3, worst * 1e3, n, sum / FRAMES * 1e3, board.moves,
      board.edits, wall))
end

local row, way = arg and arg[1], arg and arg[2]
if row == "memory" then
  memoryRow(way)
elseif row == "chase" then
  chaseRow()
else
  -- every row; each memory row in a process of its own (the same interpreter and
  -- environment), so that one's peak is not the other's
  local lua = arg and arg[-1] or "lua"
  print(("== %s, %s backend =="):format(_VERSION .. (jit and (" / " .. jit.version) or ""), astar.backend))
  for _, name in ipairs { "setSources", "distanceMap" } do
    io.stdout:flush()
    assert(os.execute(lua .. " bench/realtime_bench.lua memory " .. name))
  end
  chaseRow()
end
