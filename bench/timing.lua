-- Timing for the Lua benchmarks: CPU time (os.clock), the median of a few
-- passes (steadier than the mean on a shared machine).
local timing = {}

function timing.median(list)
  table.sort(list)
  return list[math.floor((#list + 1) / 2)]
end

-- The median CPU time in seconds of fn() over `passes` passes (default 5).
function timing.time(fn, passes)
  local times = {}
  for p = 1, passes or 5 do
    local t0 = os.clock()
    fn()
    times[p] = os.clock() - t0
  end
  return timing.median(times)
end

return timing
