-- The set-up shared by the specs of maps that move (distance_moving_spec,
-- distance_slices_spec): their random numbers and sources on a W x H board,
-- and the heap measure of their memory checks.
local M = {}

M.W, M.H = 24, 18

-- Park-Miller, exact in doubles: rand(n) is a whole number in 1..n, the same
-- sequence on every Lua.
function M.rng(seed)
  local state = seed
  return function(n)
    state = (state * 16807) % 2147483647
    return state % n + 1
  end
end

-- count random sources on the W x H board, a third of them with a value.
function M.random_sources(rand, count)
  local list = {}
  for k = 1, count do
    list[k] = { x = rand(M.W), y = rand(M.H), value = rand(3) == 1 and rand(4) - 1 or nil }
  end
  return list
end

-- A 64x64 grid, a fifth of it walls, row 32 open: a map from (1, 32)
-- reaches more than 3000 cells.
function M.memory_grid(astar)
  local grid = astar.new(64, 64)
  for k = 1, 819 do grid:setWalkable((k * 37) % 64 + 1, (k * 101) % 64 + 1, false) end
  for x = 1, 64 do grid:setWalkable(x, 32, true) end
  return grid
end

-- With the collector stopped: the KB a fresh map of grid from (1, 32) takes,
-- and the KB per call that move(f) allocates over f = 1..calls. The collector
-- runs again afterwards, also when a call raised (the error is raised then).
function M.heap_per_call(grid, calls, move)
  collectgarbage()
  collectgarbage("stop")
  local ok, fresh_kb, per_call_kb = pcall(function()
    local before = collectgarbage("count")
    local fresh = grid:distanceMap({ { x = 1, y = 32 } })
    local fresh_kb = collectgarbage("count") - before
    assert(fresh:size() > 3000, "a fresh map reaches more than 3000 cells")
    before = collectgarbage("count")
    for f = 1, calls do move(f) end
    return fresh_kb, (collectgarbage("count") - before) / calls
  end)
  collectgarbage("restart")
  assert(ok, fresh_kb)
  return fresh_kb, per_call_kb
end

return M
